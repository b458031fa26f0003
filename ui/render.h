/*
** render.h — a whole frame into the canvas: header, panes, help overlay,
** message bar and key hints, or the "terminal too small" screen.
*/
#ifndef FUSYNC_UI_RENDER_H
#define FUSYNC_UI_RENDER_H

#include "app.h"
#include "canvas.h"
#include "layout.h"

/* Is the run in an alarm state (out of memory)?  The banner and the header
** flag show it, and the panes mark the run's figures invalid. */
bool render_alarm(const tui_app *a);
void render_frame(tui_app *a, tui_canvas *cv, int rows, int cols, tui_layout *L);

#endif
