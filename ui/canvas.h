/*
** canvas.h — an in-memory grid of cells that every pane draws into.
**
** Panes never call curses: they put logical glyphs and style roles here, and
** the terminal module (term.c) maps them to characters, colors and
** attributes.  That keeps drawing testable without a terminal and lets one
** place decide between UTF-8 and ASCII, color and monochrome.
*/
#ifndef FUSYNC_UI_CANVAS_H
#define FUSYNC_UI_CANVAS_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct { int y, x, h, w; } tui_rect;

/* Logical glyphs above the ASCII range; term.c draws them as box-drawing
** characters in UTF-8 and as the ASCII fallback given in canvas.c. */
enum {
    G_HLINE = 0x100, G_VLINE, G_ULCORNER, G_URCORNER, G_LLCORNER, G_LRCORNER,
    G_LTEE, G_RTEE, G_BTEE, G_TTEE, G_BLOCK, G_SHADE, G_PEAK, G_DOT, G_PLAY, G_PAUSE,
    G_FUTURE,       /* a cell the run has not simulated yet */
    G_DASH,         /* "no figure" in a table */
    G__END
};

/* Style roles; term.c turns each into color pairs or mono attributes. */
enum {
    ST_NORMAL, ST_DIM, ST_BOLD, ST_BORDER, ST_BORDER_FOCUS, ST_TITLE, ST_TITLE_FOCUS,
    ST_HEADER, ST_HEADER_BOLD, ST_FOOTER, ST_KEY, ST_MSG_INFO, ST_MSG_ERR, ST_AXIS,
    ST_CURSOR, ST_SELECT, ST_OOM, ST_GOOD, ST_BAD, ST_BOUND, ST_FREE, ST_PEAK, ST_FUTURE,
    /* ranges with room for the engine to add categories (style.c checks) */
    ST_PHASE0,                          /* + trace_phase */
    ST_STEP0 = ST_PHASE0 + 32,          /* + trace_step_phase */
    ST_BUCKET0 = ST_STEP0 + 16,         /* + mem_bucket */
    ST__COUNT = ST_BUCKET0 + 24
};

typedef struct {
    uint16_t ch;        /* ASCII or G_* */
    uint8_t  st;        /* ST_* */
} cv_cell;

typedef struct {
    int      rows, cols;
    cv_cell *cells;
    size_t   cap;
} tui_canvas;

void cv_init(tui_canvas *c);
void cv_resize(tui_canvas *c, int rows, int cols);     /* also clears */
void cv_free(tui_canvas *c);
void cv_clear(tui_canvas *c);

void cv_put(tui_canvas *c, int y, int x, int ch, int st);
/* Text clipped to maxw columns (and the canvas); returns columns written.
** Only ASCII is kept: other bytes are shown as '?' so widths stay exact. */
int  cv_text(tui_canvas *c, int y, int x, int maxw, int st, const char *s);
int  cv_printf(tui_canvas *c, int y, int x, int maxw, int st, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void cv_fill(tui_canvas *c, tui_rect r, int ch, int st);
void cv_restyle(tui_canvas *c, tui_rect r, int st);
/* A line of segments (a figure with its unit, a label) separated by `gap`
** blanks.  When they do not all fit, whole segments are left out, lowest
** `prio` first, so no figure is ever cut from its unit; segments with prio
** CV_KEEP stay and only they may be cut, as the last resort.  Returns the
** columns written. */
#define CV_KEEP 100
typedef struct { const char *s; int prio; int st; } cv_seg;
int  cv_segs(tui_canvas *c, int y, int x, int w, int gap, const cv_seg *seg, int n);
/* A border around r with a title on the top edge. */
void cv_box(tui_canvas *c, tui_rect r, int st, const char *title, int title_st);

const cv_cell *cv_at(const tui_canvas *c, int y, int x);
/* The ASCII form of a glyph (tests, ASCII mode). */
char cv_ascii(int ch);
/* Row y from column x, w columns, as ASCII text into buf (size >= w+1). */
void cv_row_text(const tui_canvas *c, int y, int x, int w, char *buf);

static inline tui_rect rect_inner(tui_rect r)
{
    tui_rect i = {r.y + 1, r.x + 1, r.h - 2, r.w - 2};
    if (i.h < 0) i.h = 0;
    if (i.w < 0) i.w = 0;
    return i;
}

static inline bool rect_has(tui_rect r, int y, int x)
{
    return y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

#endif
