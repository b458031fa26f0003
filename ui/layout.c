/*
** layout.c — screen layout (see layout.h).  Every branch only divides the
** body, so panes tile it without overlap by construction; the tests check it
** anyway for every size.
*/
#include "layout.h"

#include <string.h>

static tui_rect R(int y, int x, int h, int w)
{
    tui_rect r = {y, x, h, w};
    return r;
}

void layout_compute(int rows, int cols, const layout_state *st, tui_layout *L)
{
    memset(L, 0, sizeof *L);
    if (rows < 0) rows = 0;
    if (cols < 0) cols = 0;
    if (rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS) {
        L->too_small = true;
        L->message = R(0, 0, rows, cols);
        return;
    }
    L->header = R(0, 0, 1, cols);
    L->status = R(rows - 2, 0, 1, cols);
    L->keys = R(rows - 1, 0, 1, cols);
    L->body = R(1, 0, rows - 3, cols);
    if (st && st->banner) {
        L->banner = R(1, 0, 1, cols);
        L->body = R(2, 0, rows - 4, cols);
    }
    tui_rect b = L->body;

    if (st && st->help) L->help = b;

    int zoom = st ? st->zoom : -1;
    if (zoom >= 0 && zoom < PANE__COUNT && (zoom != PANE_COMPARE || st->compare)) {
        L->visible[zoom] = true;
        L->pane[zoom] = b;
        return;
    }

    /* the timeline gets a little under half the body, at least 9 rows */
    int th = b.h * 45 / 100;
    if (th < 9) th = 9;
    L->visible[PANE_TIMELINE] = true;
    L->pane[PANE_TIMELINE] = R(b.y, 0, th, cols);
    int ly = b.y + th, lh = b.h - th;

    if (st && st->compare) {
        L->visible[PANE_COMPARE] = true;
        L->pane[PANE_COMPARE] = R(ly, 0, lh, cols);
        return;
    }
    L->visible[PANE_MEMORY] = L->visible[PANE_STALENESS] = L->visible[PANE_STATS] = true;
    if (cols >= LAYOUT_WIDE_COLS) {
        int w = cols / 3;
        L->pane[PANE_MEMORY] = R(ly, 0, lh, w);
        L->pane[PANE_STALENESS] = R(ly, w, lh, w);
        L->pane[PANE_STATS] = R(ly, 2 * w, lh, cols - 2 * w);
    } else {
        /* memory over staleness on the left, stats the full height on the right */
        int w = cols / 2, mh = lh - lh / 2;
        L->pane[PANE_MEMORY] = R(ly, 0, mh, w);
        L->pane[PANE_STALENESS] = R(ly + mh, 0, lh - mh, w);
        L->pane[PANE_STATS] = R(ly, w, lh, cols - w);
    }
}
