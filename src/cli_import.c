/*
** cli_import.c — `fusync import verl|openrlhf|nemo-rl FILE... [options]`:
** a framework's launch script or config onto a scenario (import.h), written
** to stdout or, with --out, atomically to a file.  Exit 0, or 2 with the
** file, line and key of what cannot be read.
*/
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_import_main(int argc, char **argv);

static const char *usage =
    "Usage: fusync import verl|openrlhf|nemo-rl FILE... [KEY=VALUE...] [options]\n"
    "Write a scenario from a framework's launch script (.sh), composed config or recipe (.yaml).\n"
    "KEY=VALUE after the files: Hydra-style overrides of the framework's keys.\n"
    "  --device NAME       accelerator preset (fusync presets; default h100, a guess)\n"
    "  --nodes N           nodes (default: the config's)\n"
    "  --host-mem GB       host memory per node (default 1024, a guess)\n"
    "  --prompt-mean N     mean prompt length, tokens (default: a guess from the limits)\n"
    "  --response-mean N   mean response length, tokens, e.g. from a run's logs\n"
    "  --model-dir DIR     where model folders or the Hugging Face cache are (default $HF_HOME/hub)\n"
    "  --set PATH=VALUE    set a scenario field in the written scenario (repeatable)\n"
    "  --out SCENARIO.lua  write there (atomically) instead of stdout\n"
    "  --keys              print the mapped keys the input sets and the mapping reads (key=value) instead\n";

static int uerr(const char *msg, const char *arg)
{
    fprintf(stderr, "fusync: import: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\nTry 'fusync import --help' for more information.\n");
    return 2;
}

static bool is_yaml(const char *p)
{
    size_t n = strlen(p);
    return (n > 5 && !strcmp(p + n - 5, ".yaml")) || (n > 4 && !strcmp(p + n - 4, ".yml"));
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int cli_import_main(int argc, char **argv)
{
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        fputs(usage, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    imp_framework fw;
    if (!imp_framework_parse(argv[0], &fw)) return uerr("'%s' is not one of verl, openrlhf, nemo-rl", argv[0]);
    imp_opts o;
    memset(&o, 0, sizeof o);
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    const char *out = NULL;
    bool keys = false;
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (!strncmp(a, "--", 2) && a[2]) {
            const char *names[] = {"device", "nodes", "host-mem", "prompt-mean", "response-mean", "model-dir", "set",
                                   "out", "help", "keys", NULL};
            char name[32];
            const char *eq = strchr(a, '=');
            snprintf(name, sizeof name, "%.*s", (int)(eq ? (size_t)(eq - a - 2) : strlen(a + 2)), a + 2);
            int k = 0;
            while (names[k] && strcmp(names[k], name)) k++;
            if (!names[k]) { rc = uerr("unknown option '%s'", a); break; }
            if (!strcmp(name, "help")) { fputs(usage, stdout); free(sets); free(files); return 0; }
            if (!strcmp(name, "keys")) { keys = true; continue; }
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else { rc = uerr("option '%s' needs a value", a); break; }
            char *end;
            if (!strcmp(name, "device")) o.device = val;
            else if (!strcmp(name, "model-dir")) o.model_dir = val;
            else if (!strcmp(name, "out")) out = val;
            else if (!strcmp(name, "set")) {
                if (!strchr(val, '=') || val[0] == '=') rc = uerr("--set: '%s' is not PATH=VALUE", val);
                sets[o.nsets++] = val;
            } else if (!strcmp(name, "nodes")) {
                long n = strtol(val, &end, 10);
                if (end == val || *end || n < 1 || n > 65536) rc = uerr("--nodes: '%s' is not a whole number in 1..65536", val);
                o.nodes = (int)n;
            } else {
                double d = strtod(val, &end);
                if (end == val || *end || !(d > 0 && d < 1e9)) rc = uerr("--%s: not a positive number", name);
                if (!strcmp(name, "host-mem")) o.host_mem_gb = d;
                else if (!strcmp(name, "prompt-mean")) o.prompt_mean = d;
                else o.response_mean = d;
            }
            continue;
        }
        files[nfiles++] = a;
    }
    if (!rc && nfiles == 0) rc = uerr("%s", "missing FILE");
    fs_err err = {0, ""};
    imp_cfg c;
    imp_cfg_init(&c);
    fs_buf names;
    buf_init(&names);
    bool ok = !rc;
    for (int i = 0; ok && i < nfiles; i++) {
        const char *f = files[i];
        /* KEY=VALUE that is not a file: an override of what came before */
        if (strchr(f, '=') && !exists(f)) {
            ok = imp_override(&c, f, "command line", 0, &err);
            continue;
        }
        if (names.len) buf_puts(&names, ", ");
        const char *base = strrchr(f, '/');
        buf_puts(&names, base ? base + 1 : f);
        if (is_yaml(f)) ok = imp_yaml_load(f, fw == IMP_NEMORL, &c, &err);
        else if (fw == IMP_NEMORL) {
            fs_err_set(&err, 2, "%s: NeMo RL runs are read from their YAML config (.yaml)", f);
            ok = false;
        } else ok = imp_shell_load(f, fw, &c, &err);
    }
    if (ok && !names.len) { fs_err_set(&err, 2, "import: no config file among the arguments"); ok = false; }
    fs_buf text;
    buf_init(&text);
    if (ok) {
        o.sets = sets;
        o.inputs = names.s;
        ok = keys ? imp_keys(fw, &c, &o, &text, &err) : imp_map(fw, &c, &o, &text, &err);
    }
    if (ok) {
        if (out) ok = write_file_atomic(out, text.s, text.len, &err);
        else {
            fputs(text.s, stdout);
            if (fflush(stdout) != 0) { fs_err_set(&err, 2, "writing the scenario to stdout failed"); ok = false; }
        }
    }
    if (!ok && !rc) {
        char msg[sizeof err.msg * 2];
        fs_term_escape(msg, sizeof msg, err.msg);
        fprintf(stderr, "fusync: import: %s\n", msg);
        rc = 2;
    }
    buf_free(&text);
    buf_free(&names);
    imp_cfg_free(&c);
    free(sets);
    free(files);
    return rc;
}
