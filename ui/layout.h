/*
** layout.h — where everything goes on the screen, as a pure function of
** (rows, cols, state).  No curses: tests run it for every size from 1x1 to
** 400x200 and check that panes neither overlap nor come out empty.
*/
#ifndef FUSYNC_UI_LAYOUT_H
#define FUSYNC_UI_LAYOUT_H

#include <stdbool.h>
#include "canvas.h"
#include "pane_list.h"

#define LAYOUT_MIN_ROWS 24
#define LAYOUT_MIN_COLS 80
#define LAYOUT_WIDE_COLS 150    /* three lower panes side by side from here */

typedef enum {
#define LAYOUT_PANE_ID(id, name, ops, where, column) id,
    PANE_LIST(LAYOUT_PANE_ID)
#undef LAYOUT_PANE_ID
    PANE__COUNT
} pane_id;

/* Where a pane goes (pane_list.h's `where`). */
typedef enum { LAYOUT_TOP, LAYOUT_LOWER, LAYOUT_COMPARE } layout_where;

typedef struct {
    int  zoom;          /* a pane_id shown alone, or -1 */
    bool compare;       /* A/B comparison replaces the lower panes */
    bool help;          /* the help overlay is open */
    bool banner;        /* a full-width alarm line under the header (out of memory) */
    /* rows of content each pane had at its last draw (0: not known): the
    ** top gets the rows the lower panes leave empty, up to what it has */
    int  want[PANE__COUNT];
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
/* Whether pane id is shown in state st (NULL: the default state): the
** zoomed pane alone, else by its `where`.  layout_compute shows exactly
** these (on a screen large enough), and the focus moves among them. */
bool layout_pane_shown(const layout_state *st, int id);
/* The pane a lesson names (pane_list.h's `name`), or -1; a pane's name ("" past the last). */
int  layout_pane_named(const char *name);
const char *layout_pane_name(int id);
layout_where layout_pane_where(int id);

#endif
