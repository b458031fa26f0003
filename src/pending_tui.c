/* TRANSITIONAL: replaced by ui/ (issue 4), which deletes this file. */
#include "cli.h"
#include <stdio.h>
int cmd_tui(cli_opts *o) { (void)o; fprintf(stderr, "fusync: tui: not built yet\n"); return 2; }
