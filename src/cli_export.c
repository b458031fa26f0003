/*
** cli_export.c — `fusync export verl|openrlhf|nemo-rl SCENARIO [--set PATH=VALUE]...
** [--mode M] [--iterations N] [--out FILE]`: a scenario's plan written as the
** framework's settings (import.h, imp_export).  The options are those of a
** plan's Reproduce line, so `fusync run ARGS` there becomes
** `fusync export FRAMEWORK ARGS`.  Exit 0, or 2 naming the field the
** framework cannot express.
*/
#include "cli.h"
#include "import.h"
#include "lua_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int uerr(const char *msg, const char *arg)
{
    fprintf(stderr, "fusync: export: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\nTry 'fusync help export' for more information.\n");
    return 2;
}

int cmd_export(cli_opts *o)
{
    if (o->nfiles < 1) return uerr("%s", "missing FRAMEWORK (verl, openrlhf or nemo-rl)");
    imp_framework fw;
    if (!imp_framework_parse(o->files[0], &fw)) return uerr("'%s' is not one of verl, openrlhf, nemo-rl", o->files[0]);
    if (o->nfiles < 2) return uerr("%s", "missing SCENARIO");
    /* The scenario is the second word: the one loader reads o->scenario. */
    cli_opts so = *o;
    so.scenario = o->files[1];
    int rc = 0;
    scn_scenario *s = calloc(1, sizeof *s);
    fs_err err = {0, ""};
    fs_buf text;
    buf_init(&text);
    bool ok = s && cli_load_scenario(&so, true, s, &err);
    const char *base = strrchr(so.scenario, '/');
    if (ok) ok = imp_export(fw, s, base ? base + 1 : so.scenario, &text, &err);
    if (ok) {
        if (o->out_dir) ok = write_file_atomic(o->out_dir, text.s, text.len, &err);
        else fputs(text.s, stdout);   /* stdout is checked once, in main */
    }
    if (!ok) {
        char msg[sizeof err.msg * 2];
        fs_term_escape(msg, sizeof msg, err.msg);
        fprintf(stderr, "fusync: export: %s\n", msg);
        rc = 2;
    }
    buf_free(&text);
    free(s);
    return rc;
}
