/*
** layout.h — where everything goes on the screen, as a pure function of
** (rows, cols, state).  No curses: tests run it for every size from 1x1 to
** 400x200 and check that panes neither overlap nor come out empty.
*/
#ifndef FUSYNC_UI_LAYOUT_H
#define FUSYNC_UI_LAYOUT_H

#include <stdbool.h>
#include "canvas.h"

#define LAYOUT_MIN_ROWS 24
#define LAYOUT_MIN_COLS 80
#define LAYOUT_WIDE_COLS 150    /* three lower panes side by side from here */

typedef enum {
    PANE_TIMELINE, PANE_MEMORY, PANE_STALENESS, PANE_STATS, PANE_COMPARE,
    PANE__COUNT
} pane_id;

typedef struct {
    int  zoom;          /* a pane_id shown alone, or -1 */
    bool compare;       /* A/B comparison replaces the lower panes */
    bool help;          /* the help overlay is open */
    bool banner;        /* a full-width alarm line under the header (out of memory) */
} layout_state;

typedef struct {
    bool     too_small;         /* only `message` is meaningful */
    tui_rect message;           /* the "terminal too small" text */
    tui_rect header;            /* top line: scenario, clock, play state */
    tui_rect banner;            /* alarm line under the header (h = 0 when none) */
    tui_rect status;            /* message bar or ':' command line */
    tui_rect keys;              /* key hints */
    tui_rect body;              /* everything between header and status */
    bool     visible[PANE__COUNT];
    tui_rect pane[PANE__COUNT];
    tui_rect help;              /* overlay inside body when state.help */
} tui_layout;

void layout_compute(int rows, int cols, const layout_state *st, tui_layout *out);

#endif
