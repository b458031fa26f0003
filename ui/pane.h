/*
** pane.h — the one small interface every pane module fills (tig's
** view_ops): draw into the canvas, take the requests meant for the focused
** pane, take a mouse click, reset when the live run is replaced.
*/
#ifndef FUSYNC_UI_PANE_H
#define FUSYNC_UI_PANE_H

#include "app.h"
#include "canvas.h"

typedef struct {
    const char *title;
    /* a new live run was loaded (tracks, groups may have changed) */
    void (*open)(tui_app *a);
    void (*draw)(tui_app *a, tui_canvas *cv, tui_rect inner);
    /* a request while this pane has focus: RE_* flags, RE_NONE if not its own */
    int  (*request)(tui_app *a, tui_req req, tui_rect inner);
    /* a click at (y, x) relative to the inner rectangle */
    int  (*click)(tui_app *a, tui_rect inner, int y, int x, int button);
} pane_ops;

/* Each pane's file defines its ops, named in its row of pane_list.h. */
#define PANE_OPS_DECL(id, name, ops, where, column) extern const pane_ops ops;
PANE_LIST(PANE_OPS_DECL)
#undef PANE_OPS_DECL
const pane_ops *pane_get(int id);

/* Shared drawing helpers. */
/* A horizontal bar of `w` cells filled to `frac` with glyph/style. */
void pane_bar(tui_canvas *cv, int y, int x, int w, double frac, int ch, int st);
/* Title text of pane id (also used by render for the border). */
const char *pane_title(int id);

#endif
