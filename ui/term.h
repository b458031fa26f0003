/*
** term.h — the one module that calls curses (htop's CRT): terminal set-up
** and restore, color or monochrome styles, UTF-8 or ASCII glyphs, keys and
** mouse as tui_events, signals as flags.
*/
#ifndef FUSYNC_UI_TERM_H
#define FUSYNC_UI_TERM_H

#include <stdbool.h>
#include <stdio.h>
#include "app.h"
#include "canvas.h"

typedef struct term term;

typedef struct {
    bool color;         /* use colors (else bold/reverse/dim) */
    bool utf8;          /* box drawing from Unicode (else ASCII) */
    bool mouse;
} term_caps;

/* Decide colors and glyphs from the options, NO_COLOR and the locale. */
term_caps term_caps_from(bool no_color, bool ascii, bool no_mouse);

/* Take the real terminal.  False with a message when there is none. */
term *term_open(term_caps *caps, char *why, size_t n);
/* An in-memory screen of rows x cols for tests and the benchmark
** (newterm on /dev/null); nothing is shown. */
term *term_open_virtual(term_caps *caps, int rows, int cols);
/* Give the terminal back as it was and free the session (NULL is fine). */
void term_close(term *t);

void term_size(term *t, int *rows, int *cols);
/* Show the canvas.  `full` forgets what is on screen and repaints all. */
void term_draw(term *t, const tui_canvas *cv, bool full);
/* Next input within timeout_ms (-1 wait, 0 poll); key TK_NONE on timeout. */
tui_event term_event(term *t, int timeout_ms);
/* Row y of the curses screen as text (tests). */
void term_row_text(term *t, int y, int x, int w, char *buf);

/* Signal handling: SIGINT, SIGTERM, SIGHUP only set a flag; crashes restore
** the terminal (async-signal-safe calls only) and re-raise. */
void term_signals(void);
int  term_signal_pending(void);     /* the signal number, or 0 */

#endif
