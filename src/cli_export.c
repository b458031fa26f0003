/*
** cli_export.c — `fusync export verl|openrlhf|nemo-rl SCENARIO [--set PATH=VALUE]...
** [--mode M] [--iterations N] [--out FILE]`: a scenario's plan written as the
** framework's settings (import.h, imp_export).  The options are those of a
** plan's Reproduce line, so `fusync run ARGS` there becomes
** `fusync export FRAMEWORK ARGS`.  Exit 0, or 2 naming the field the
** framework cannot express.
*/
#include "import.h"
#include "lua_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_export_main(int argc, char **argv);

static const char *usage =
    "Usage: fusync export verl|openrlhf|nemo-rl SCENARIO [--set PATH=VALUE]... [--mode M] [--out FILE]\n"
    "Write the scenario's plan as the framework's settings: verl Hydra overrides (key=value a line),\n"
    "OpenRLHF train_ppo_ray arguments (--key value a line), NeMo RL a YAML overrides file.\n"
    "The options are a plan's Reproduce line: replace `fusync run` with `fusync export FRAMEWORK`.\n"
    "  --set PATH=VALUE    set a scenario field first (repeatable)\n"
    "  --mode M            plan.mode (separate, colocate, full)\n"
    "  --iterations N      accepted and ignored (steps simulated are no framework setting)\n"
    "  --out FILE          write there (atomically) instead of stdout\n"
    "Exit 2 naming the field the framework cannot express (docs/frameworks.md, \"Export\").\n";

static int uerr(const char *msg, const char *arg)
{
    fprintf(stderr, "fusync: export: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\nTry 'fusync export --help' for more information.\n");
    return 2;
}

int cli_export_main(int argc, char **argv)
{
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        fputs(usage, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    imp_framework fw;
    if (!imp_framework_parse(argv[0], &fw)) return uerr("'%s' is not one of verl, openrlhf, nemo-rl", argv[0]);
    char **sets = calloc((size_t)argc + 1, sizeof *sets);
    char **owned = calloc((size_t)argc + 1, sizeof *owned);   /* the --mode sets made here */
    int nsets = 0, nowned = 0, rc = 0;
    const char *scen = NULL, *out = NULL;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2)) {
            if (scen) rc = uerr("unexpected argument '%s' (one SCENARIO)", a);
            scen = a;
            continue;
        }
        const char *names[] = {"set", "mode", "iterations", "out", "help", NULL};
        char name[32];
        const char *eq = strchr(a, '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq ? (size_t)(eq - a - 2) : strlen(a + 2)), a + 2);
        int k = 0;
        while (names[k] && strcmp(names[k], name)) k++;
        if (!names[k]) { rc = uerr("unknown option '%s'", a); break; }
        if (!strcmp(name, "help")) { fputs(usage, stdout); goto done; }
        const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!val) { rc = uerr("option '%s' needs a value", a); break; }
        if (!strcmp(name, "out")) out = val;
        else if (!strcmp(name, "iterations")) continue;
        else if (!strcmp(name, "set")) {
            if (!strchr(val, '=') || val[0] == '=') { rc = uerr("--set: '%s' is not PATH=VALUE", val); break; }
            sets[nsets++] = (char *)val;
        } else {
            scn_mode m;
            if (!scn_mode_parse(val, &m)) { rc = uerr("--mode: '%s' is not one of separate, colocate, full", val); break; }
            size_t n = strlen(val) + 16;
            owned[nowned] = malloc(n);
            snprintf(owned[nowned], n, "plan.mode=%s", val);
            sets[nsets++] = owned[nowned++];
        }
    }
    if (!rc && !scen) rc = uerr("%s", "missing SCENARIO");
    if (!rc) {
        scn_scenario *s = calloc(1, sizeof *s);
        fs_err err = {0, ""};
        fs_buf text;
        buf_init(&text);
        bool ok = s && lscn_load(scen, (const char *const *)sets, nsets, s, &err);
        const char *base = strrchr(scen, '/');
        if (ok) ok = imp_export(fw, s, base ? base + 1 : scen, &text, &err);
        if (ok) {
            if (out) ok = write_file_atomic(out, text.s, text.len, &err);
            else {
                fputs(text.s, stdout);
                if (fflush(stdout) != 0) { fs_err_set(&err, 2, "writing to stdout failed"); ok = false; }
            }
        }
        if (!ok) {
            char msg[sizeof err.msg * 2];
            fs_term_escape(msg, sizeof msg, err.msg);
            fprintf(stderr, "fusync: export: %s\n", msg);
            rc = 2;
        }
        buf_free(&text);
        free(s);
    }
done:
    for (int i = 0; i < nowned; i++) free(owned[i]);
    free(owned);
    free(sets);
    return rc;
}
