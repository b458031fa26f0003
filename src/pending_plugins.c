/* TRANSITIONAL: replaced by the plugin host (issue 5), which deletes this file. */
#include "cli.h"
#include "policy.h"
#include <stdio.h>
int cmd_sweep(cli_opts *o) { (void)o; fprintf(stderr, "fusync: sweep: not built yet\n"); return 2; }
int cmd_plan(cli_opts *o) { (void)o; fprintf(stderr, "fusync: plan: not built yet\n"); return 2; }
int cmd_merge(cli_opts *o) { (void)o; fprintf(stderr, "fusync: merge: not built yet\n"); return 2; }
bool policy_apply(const char *path, scn_scenario *s, fs_err *err)
{
    (void)s;
    fs_err_set(err, 2, "%s: policy plugins are not built yet", path);
    return false;
}
