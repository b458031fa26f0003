/*
** layout.c — screen layout (see layout.h), from the panes' rows in
** pane_list.h.  Every branch only divides the body, so panes tile it
** without overlap by construction; the tests check it anyway for every size.
*/
#include "layout.h"

#include <string.h>

static const struct {
    const char  *name;
    layout_where where;
    int          column;
} panes[PANE__COUNT] = {
#define X(id, name, ops, where, column) [id] = {name, LAYOUT_##where, column},
    PANE_LIST(X)
#undef X
};

static tui_rect R(int y, int x, int h, int w)
{
    tui_rect r = {y, x, h, w};
    return r;
}

int layout_pane_named(const char *name)
{
    for (int i = 0; i < PANE__COUNT; i++) if (!strcmp(name, panes[i].name)) return i;
    return -1;
}

const char *layout_pane_name(int id) { return id >= 0 && id < PANE__COUNT ? panes[id].name : ""; }
layout_where layout_pane_where(int id) { return id >= 0 && id < PANE__COUNT ? panes[id].where : LAYOUT_LOWER; }

/* A zoom on a pane that its state could show at all (a COMPARE pane only
** while comparing); any other zoom is ignored. */
static bool zoomed(const layout_state *st)
{
    return st && st->zoom >= 0 && st->zoom < PANE__COUNT && (panes[st->zoom].where != LAYOUT_COMPARE || st->compare);
}

bool layout_pane_shown(const layout_state *st, int id)
{
    if (id < 0 || id >= PANE__COUNT) return false;
    if (zoomed(st)) return id == st->zoom;
    switch (panes[id].where) {
    case LAYOUT_TOP: return true;
    case LAYOUT_COMPARE: return st && st->compare;
    case LAYOUT_LOWER: return !(st && st->compare);
    }
    return false;
}

/* The shown panes of one kind (and column, when column >= 0) stacked in
** r, in row order: each an equal share of the height, the first ones a
** row more while rows are left over. */
static void stack(tui_layout *L, layout_where where, int column, tui_rect r)
{
    int n = 0, k = 0, y = r.y;
    for (int i = 0; i < PANE__COUNT; i++)
        n += L->visible[i] && panes[i].where == where && (column < 0 || panes[i].column == column);
    if (!n) return;
    for (int i = 0; i < PANE__COUNT; i++) {
        if (!L->visible[i] || panes[i].where != where || (column >= 0 && panes[i].column != column)) continue;
        int h = r.h / n + (k++ < r.h % n);
        L->pane[i] = R(y, r.x, h, r.w);
        y += h;
    }
}

/* The shown panes of one kind side by side in r, in row order: each an
** equal share of the width, the last one the rest. */
static void row(tui_layout *L, layout_where where, tui_rect r)
{
    int n = 0, k = 0;
    for (int i = 0; i < PANE__COUNT; i++) n += L->visible[i] && panes[i].where == where;
    if (!n) return;
    int w = r.w / n;
    for (int i = 0; i < PANE__COUNT; i++) {
        if (!L->visible[i] || panes[i].where != where) continue;
        L->pane[i] = R(r.y, r.x + k * w, r.h, k + 1 == n ? r.w - k * w : w);
        k++;
    }
}

/* The top's height when the lower panes need fewer rows than they get and
** the top has more to show (a timeline that folds or scrolls rows): the
** lower panes keep what their content takes (borders included), the top
** the rest, up to its own content.  0 when a pane's content is not known. */
static int grown_top(const layout_state *st, int cols, int body_h)
{
    int top = 0, low = 0, col[2] = {0, 0};
    for (int i = 0; i < PANE__COUNT; i++) {
        if (panes[i].where == LAYOUT_COMPARE) continue;
        if (st->want[i] <= 0) return 0;
        int need = st->want[i] + 2;
        if (panes[i].where == LAYOUT_TOP) top += need;
        else if (cols >= LAYOUT_WIDE_COLS) { if (need > low) low = need; }
        else col[panes[i].column ? 1 : 0] += need;
    }
    if (cols < LAYOUT_WIDE_COLS) low = col[0] > col[1] ? col[0] : col[1];
    int room = body_h - low;
    return room < top ? room : top;
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

    for (int i = 0; i < PANE__COUNT; i++) L->visible[i] = layout_pane_shown(st, i);
    if (zoomed(st)) {
        L->pane[st->zoom] = b;
        return;
    }

    /* the top panes get a little under half the body, at least 9 rows */
    int th = b.h * 45 / 100;
    if (th < 9) th = 9;
    int grow = st && !st->compare ? grown_top(st, cols, b.h) : 0;
    if (grow > th) th = grow;
    stack(L, LAYOUT_TOP, -1, R(b.y, 0, th, cols));
    tui_rect low = R(b.y + th, 0, b.h - th, cols);

    if (st && st->compare) {
        row(L, LAYOUT_COMPARE, low);
        return;
    }
    if (cols >= LAYOUT_WIDE_COLS) {
        row(L, LAYOUT_LOWER, low);
    } else {
        /* two columns (memory over staleness on the left, stats the full
        ** height on the right) */
        int w = cols / 2;
        stack(L, LAYOUT_LOWER, 0, R(low.y, 0, low.h, w));
        stack(L, LAYOUT_LOWER, 1, R(low.y, w, low.h, cols - w));
    }
}
