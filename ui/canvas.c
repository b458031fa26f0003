/*
** canvas.c — the cell grid panes draw into (see canvas.h).
*/
#include "canvas.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

void cv_init(tui_canvas *c)
{
    memset(c, 0, sizeof *c);
}

void cv_resize(tui_canvas *c, int rows, int cols)
{
    if (rows < 0) rows = 0;
    if (cols < 0) cols = 0;
    size_t n = (size_t)rows * (size_t)cols;
    if (n > c->cap) {
        c->cells = xrealloc(c->cells, n * sizeof *c->cells);
        c->cap = n;
    }
    c->rows = rows;
    c->cols = cols;
    cv_clear(c);
}

void cv_free(tui_canvas *c)
{
    free(c->cells);
    memset(c, 0, sizeof *c);
}

void cv_clear(tui_canvas *c)
{
    size_t n = (size_t)c->rows * (size_t)c->cols;
    for (size_t i = 0; i < n; i++) { c->cells[i].ch = ' '; c->cells[i].st = ST_NORMAL; }
}

void cv_put(tui_canvas *c, int y, int x, int ch, int st)
{
    if (y < 0 || x < 0 || y >= c->rows || x >= c->cols) return;
    cv_cell *k = &c->cells[(size_t)y * (size_t)c->cols + (size_t)x];
    k->ch = (uint16_t)ch;
    k->st = (uint8_t)st;
}

int cv_text(tui_canvas *c, int y, int x, int maxw, int st, const char *s)
{
    int n = 0;
    for (; s && *s && n < maxw; s++, n++) {
        unsigned char ch = (unsigned char)*s;
        cv_put(c, y, x + n, ch >= 32 && ch < 127 ? ch : '?', st);
    }
    return n;
}

int cv_printf(tui_canvas *c, int y, int x, int maxw, int st, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return cv_text(c, y, x, maxw, st, buf);
}

void cv_fill(tui_canvas *c, tui_rect r, int ch, int st)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) cv_put(c, y, x, ch, st);
}

void cv_restyle(tui_canvas *c, tui_rect r, int st)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            if (y >= 0 && x >= 0 && y < c->rows && x < c->cols)
                c->cells[(size_t)y * (size_t)c->cols + (size_t)x].st = (uint8_t)st;
}

void cv_box(tui_canvas *c, tui_rect r, int st, const char *title, int title_st)
{
    if (r.h < 2 || r.w < 2) return;
    int y1 = r.y + r.h - 1, x1 = r.x + r.w - 1;
    for (int x = r.x + 1; x < x1; x++) { cv_put(c, r.y, x, G_HLINE, st); cv_put(c, y1, x, G_HLINE, st); }
    for (int y = r.y + 1; y < y1; y++) { cv_put(c, y, r.x, G_VLINE, st); cv_put(c, y, x1, G_VLINE, st); }
    cv_put(c, r.y, r.x, G_ULCORNER, st);
    cv_put(c, r.y, x1, G_URCORNER, st);
    cv_put(c, y1, r.x, G_LLCORNER, st);
    cv_put(c, y1, x1, G_LRCORNER, st);
    if (title && r.w > 6) {
        cv_put(c, r.y, r.x + 1, ' ', title_st);
        int n = cv_text(c, r.y, r.x + 2, r.w - 5, title_st, title);
        cv_put(c, r.y, r.x + 2 + n, ' ', title_st);
    }
}

const cv_cell *cv_at(const tui_canvas *c, int y, int x)
{
    if (y < 0 || x < 0 || y >= c->rows || x >= c->cols) return NULL;
    return &c->cells[(size_t)y * (size_t)c->cols + (size_t)x];
}

char cv_ascii(int ch)
{
    switch (ch) {
    case G_HLINE: return '-';
    case G_VLINE: return '|';
    case G_ULCORNER: case G_URCORNER: case G_LLCORNER: case G_LRCORNER:
    case G_LTEE: case G_RTEE: case G_BTEE: case G_TTEE: return '+';
    case G_BLOCK: return '#';
    case G_SHADE: return ':';
    case G_PEAK: return '!';
    case G_DOT: return '.';
    case G_PLAY: return '>';
    case G_PAUSE: return '=';
    case G_FUTURE: return '~';
    case G_DASH: return '-';
    default: return ch >= 32 && ch < 127 ? (char)ch : '?';
    }
}

void cv_row_text(const tui_canvas *c, int y, int x, int w, char *buf)
{
    int n = 0;
    for (int i = 0; i < w; i++) {
        const cv_cell *k = cv_at(c, y, x + i);
        buf[n++] = k ? cv_ascii(k->ch) : ' ';
    }
    buf[n] = 0;
}

int cv_segs(tui_canvas *c, int y, int x, int w, int gap, const cv_seg *seg, int n)
{
    if (n <= 0 || w <= 0) return 0;
    bool keep[64];
    int len[64], total = 0, kept = 0;
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++) {
        len[i] = seg[i].s ? (int)strlen(seg[i].s) : 0;
        keep[i] = len[i] > 0;
        if (keep[i]) { total += len[i]; kept++; }
    }
    total += kept > 1 ? gap * (kept - 1) : 0;
    while (total > w) {
        /* the lowest priority goes first; among equals, the rightmost */
        int drop = -1;
        for (int i = 0; i < n; i++)
            if (keep[i] && seg[i].prio < CV_KEEP && (drop < 0 || seg[i].prio <= seg[drop].prio)) drop = i;
        if (drop < 0) break;
        keep[drop] = false;
        total -= len[drop] + (kept > 1 ? gap : 0);
        kept--;
    }
    int col = 0;
    bool first = true;
    for (int i = 0; i < n && col < w; i++) {
        if (!keep[i]) continue;
        if (!first) col += gap;
        first = false;
        if (col >= w) break;
        col += cv_text(c, y, x + col, w - col, seg[i].st, seg[i].s);
    }
    return col < w ? col : w;
}
