/*
** cli.c — what every subcommand shares: loading the scenario with its
** overrides and policy, reporting an error, the interrupt flag.  Kept apart
** from main.c so the test runner and the front end link it too.
*/
#include "cli.h"
#include "lua_scenario.h"
#include "policy.h"
#include "rtable.h"

#include <stdio.h>

int cli_fail(const fs_err *e)
{
    fprintf(stderr, "fusync: %s\n", e->msg);
    return e->code ? e->code : 2;
}

bool cli_load_scenario(const cli_opts *o, scn_scenario *out, fs_err *err)
{
    if (!lscn_load(o->scenario, o->sets, o->nsets, out, err)) return false;
    const char *pol = o->policy ? o->policy : (out->plan.policy[0] ? out->plan.policy : NULL);
    if (pol && !policy_apply(pol, out, err)) return false;
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
