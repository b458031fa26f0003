/*
** tui.h — the terminal front end's entry points besides cmd_tui (cli.h).
*/
#ifndef FUSYNC_UI_TUI_H
#define FUSYNC_UI_TUI_H

#include "cli.h"

/* Benchmark of the front end (make bench).  Runs SCENARIO to its end once
** to learn its length; then plays it from the start as the main loop does,
** at a rate that spreads it over `frames` frames of 1/30 s: each frame
** advances the run by a frame's worth of simulated time and draws 200x60
** (canvas and curses on an in-memory screen).  Prints the median, 95th
** percentile and worst of the frames' drawing (wall and CPU time) and of
** slice plus drawing; then times a what-if edit of the finished run
** (plan.staleness + 2) to its final answer: the new run over and the frame
** with its headline figure drawn.  Returns 0, or 2 if the scenario does not
** load.  `FUSYNC_TUI_BENCH=N fusync tui SCENARIO` runs it from the command
** line. */
int tui_bench(const char *scenario, int frames);
/* The same with full options (--set overrides, --policy). */
int tui_bench_opts(const cli_opts *o, int frames);


#endif
