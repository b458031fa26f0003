/*
** pane_list.h — the panes of the terminal front end, one row each: the
** layout, focus cycling (Tab), the lessons and the pane table (panes.c)
** all read these rows, so a new pane is one row here plus its own file
** (docs/architecture.md, "Adding a pane").  The columns:
**   id      the pane_id constant (layout.h); the rows' order is the enum's
**           and the order Tab moves the focus in
**   name    as a lesson's `pane` names it (docs/lessons.md)
**   ops     the pane_ops its file defines (pane.h): title, draw, keys, clicks
**   where   TOP      always shown, above the rest
**           LOWER    below it, unless the A/B comparison takes that place
**           COMPARE  below it, while the A/B comparison is shown
**   column  a LOWER pane's column on a screen narrower than
**           LAYOUT_WIDE_COLS (0 left, 1 right); the panes of a column stack
**           in row order.  On a wide screen the LOWER panes stand side by side.
*/
#ifndef FUSYNC_UI_PANE_LIST_H
#define FUSYNC_UI_PANE_LIST_H

#define PANE_LIST(X) \
    X(PANE_TIMELINE,  "timeline",  pane_timeline,  TOP,     0) \
    X(PANE_MEMORY,    "memory",    pane_memory,    LOWER,   0) \
    X(PANE_STALENESS, "staleness", pane_staleness, LOWER,   0) \
    X(PANE_STATS,     "stats",     pane_stats,     LOWER,   1) \
    X(PANE_COMPARE,   "compare",   pane_compare,   COMPARE, 0)

#endif
