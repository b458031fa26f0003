/*
** render.h — a whole frame into the canvas: header, panes, help overlay,
** message bar and key hints, or the "terminal too small" screen.
*/
#ifndef FUSYNC_UI_RENDER_H
#define FUSYNC_UI_RENDER_H

#include "app.h"
#include "canvas.h"
#include "layout.h"

void render_frame(tui_app *a, tui_canvas *cv, int rows, int cols, tui_layout *L);

#endif
