/*
** tui.h — the terminal front end's entry points besides cmd_tui (cli.h).
*/
#ifndef FUSYNC_UI_TUI_H
#define FUSYNC_UI_TUI_H

#include "cli.h"

/* Benchmark of the front end (make bench): run SCENARIO to the end, then
** time `frames` frames of 200x60 drawn from the whole-run view (canvas alone
** and through curses on an in-memory screen), and one what-if edit
** (staleness + 1) up to its first frame.  Prints one line of figures to stdout; returns 0, or 2 if
** the scenario does not load.  `FUSYNC_TUI_BENCH=N fusync tui SCENARIO` runs
** it from the command line. */
int tui_bench(const char *scenario, int frames);
/* The same with full options (--set overrides, --policy). */
int tui_bench_opts(const cli_opts *o, int frames);


#endif
