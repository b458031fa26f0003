/*
** panes.c — the pane table (pane id to its operations, from the rows of
** pane_list.h; see pane.h) and
** the drawing helpers the panes share.
*/
#include "pane.h"
#include "style.h"

#include <math.h>

const pane_ops *pane_get(int id)
{
    static const pane_ops *const all[PANE__COUNT] = {
#define X(id, name, ops, where, column) [id] = &ops,
        PANE_LIST(X)
#undef X
    };
    return id >= 0 && id < PANE__COUNT ? all[id] : NULL;
}

const char *pane_title(int id)
{
    const pane_ops *p = pane_get(id);
    return p ? p->title : "";
}

void pane_bar(tui_canvas *cv, int y, int x, int w, double frac, int ch, int st)
{
    if (w <= 0) return;
    if (!(frac > 0)) frac = 0;
    if (frac > 1) frac = 1;
    int n = (int)floor(frac * w + 0.5);
    for (int i = 0; i < w; i++) cv_put(cv, y, x + i, i < n ? ch : G_DOT, i < n ? st : ST_FREE);
}
