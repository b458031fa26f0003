/*
** cli.c — what every subcommand shares: loading the scenario with its
** overrides and policy, reporting an error, the interrupt flag.  Kept apart
** from main.c so the test runner and the front end link it too.
*/
#include "cli.h"
#include "rtable.h"
#include "runner.h"

#include <stdio.h>

int cli_fail(const fs_err *e)
{
    fprintf(stderr, "fusync: %s\n", e->msg);
    return e->code ? e->code : 2;
}

int cli_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "fusync: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'fusync --help' for more information.\n");
    return 2;
}

bool cli_load_scenario(const cli_opts *o, bool place, scn_scenario *out, fs_err *err)
{
    runner_spec spec = {.path = o->scenario, .sets = o->sets, .nsets = o->nsets, .policy = o->policy,
                        .no_place = !place};
    char replaced[512];
    if (!runner_load(&spec, out, replaced, sizeof replaced, err)) return false;
    if (replaced[0]) fprintf(stderr, "fusync: %s: the policy's place() replaced --set %s\n", o->cmd ? o->cmd : "load", replaced);
    return true;
}

int cli_write_table(const cli_opts *o, const rtable *t)
{
    fs_err err = {0, ""};
    int rc = 0;
    /* both are tried, so both failures are told */
    if (o->csv_path && !rtable_write(t, o->csv_path, NULL, &err)) rc = cli_fail(&err);
    if (o->json_path && !rtable_write(t, NULL, o->json_path, &err)) rc = cli_fail(&err);
    return rc;
}
