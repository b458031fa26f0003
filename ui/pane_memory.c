/*
** pane_memory.c — the Memory pane: for each device group at the cursor
** time, a bar stacked by bucket against the group's capacity, then the host
** memory per node; the run's peak so far is marked on each bar.  A plan
** that runs out of memory is shown with a banner and the part of the bar
** over capacity in the alarm style.
*/
#include "pane.h"
#include "style.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void fmt_gib(char *out, size_t n, double b)
{
    double g = b / (1024.0 * 1024 * 1024);
    if (g >= 1000) snprintf(out, n, "%.1fT", g / 1024);
    else if (g >= 100) snprintf(out, n, "%.0fG", g);
    else snprintf(out, n, "%.1fG", g);
}

static void mem_bar(tui_app *a, tui_canvas *cv, int y, int x, int w, int g)
{
    const trace *t = sim_trace(a->run->s);
    const trace_memgroup *mg = trace_memgroup_at(t, g);
    double v[MB__COUNT], tot = 0;
    for (int b = 0; b < MB__COUNT; b++) { v[b] = run_mem_at(a->run, g, (mem_bucket)b, a->cursor); tot += v[b]; }
    double peak = sim_mem_peak_total(a->run->s, g, NULL);
    double cap = mg->capacity > 0 ? mg->capacity : 1;
    double scale = cap;
    if (tot > scale) scale = tot;
    if (peak > scale) scale = peak;
    char used[16], capb[16];
    fmt_gib(used, sizeof used, tot);
    fmt_gib(capb, sizeof capb, cap);
    char text[40];
    snprintf(text, sizeof text, " %s/%s", used, capb);
    int tw = (int)strlen(text), bw = w - tw;
    if (bw < 4) { bw = w; tw = 0; }
    int capcol = (int)floor(cap / scale * bw + 0.5);
    int col = 0;
    double cum = 0;
    for (int b = 0; b < MB__COUNT; b++) {
        if (v[b] <= 0) continue;
        cum += v[b];
        int end = (int)floor(cum / scale * bw + 0.5);
        for (; col < end && col < bw; col++)
            cv_put(cv, y, x + col, style_bucket_letter((mem_bucket)b), col >= capcol ? ST_OOM : style_bucket((mem_bucket)b));
    }
    for (int c = col; c < capcol && c < bw; c++) cv_put(cv, y, x + c, G_DOT, ST_FREE);
    if (capcol < bw) cv_put(cv, y, x + capcol, G_VLINE, ST_OOM);   /* capacity, when something is over it */
    int pcol = (int)floor(peak / scale * bw + 0.5) - 1;
    /* a peak over capacity: shade the overshoot so it cannot be missed */
    for (int c = capcol + 1; c < pcol && c < bw; c++) if (c >= col) cv_put(cv, y, x + c, G_SHADE, ST_OOM);
    if (pcol >= col && pcol < bw) cv_put(cv, y, x + pcol, G_PEAK, ST_PEAK);
    if (tw) cv_text(cv, y, x + bw, tw, tot > cap * (1 + 1e-9) ? ST_OOM : ST_NORMAL, text);
}

static void mem_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    const trace *t = sim_trace(a->run->s);
    const sim_stats *st = sim_get_stats(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    int y = in.y, yend = in.y + in.h;
    char when[24];
    style_fmt_time(when, sizeof when, a->cursor);

    /* an out-of-memory plan is the first thing you see */
    if (st->overflow.happened && st->overflow.t <= run_now(a->run)) {
        const trace_memgroup *mg = trace_memgroup_at(t, st->overflow.group);
        char over[16], at[24];
        fmt_gib(over, sizeof over, st->overflow.over_bytes);
        style_fmt_time(at, sizeof at, st->overflow.t);
        cv_fill(cv, (tui_rect){y, in.x, 1, in.w}, ' ', ST_OOM);
        cv_printf(cv, y++, in.x, in.w, ST_OOM, " OUT OF MEMORY: %s %s over capacity by %s at t=%s (%s grew)",
                  mg->name, mg->host ? "host" : "device", over, at, trace_bucket_name((mem_bucket)st->overflow.bucket));
    } else if (!pl->fits) {
        cv_fill(cv, (tui_rect){y, in.x, 1, in.w}, ' ', ST_OOM);
        cv_printf(cv, y++, in.x, in.w, ST_OOM, " DOES NOT FIT: %s", pl->fit_msg);
    } else {
        int n = cv_printf(cv, y, in.x, in.w, ST_DIM, "t=%s  per device, host per node  ", when);
        if (n < in.w) cv_put(cv, y, in.x + n++, G_PEAK, ST_PEAK);
        cv_text(cv, y++, in.x + n, in.w - n, ST_DIM, " peak");
    }
    if (y >= yend) return;

    /* legend at the bottom: the buckets this run uses */
    bool legend = yend - y >= 3;
    int ng = trace_nmemgroups(t), lw = 4;
    for (int g = 0; g < ng; g++) {
        int l = (int)strlen(trace_memgroup_at(t, g)->name);
        if (l > lw) lw = l;
    }
    if (lw > in.w / 3) lw = in.w / 3;
    int order[256], n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int g = 0; g < ng && n < 256; g++)
            if (trace_memgroup_at(t, g)->host == (pass == 1)) order[n++] = g;
    int room = yend - y - (legend ? 1 : 0);
    int *scroll = &a->v.scroll[PANE_MEMORY];
    if (*scroll > n - room) *scroll = n - room > 0 ? n - room : 0;
    for (int i = *scroll; i < n && y < yend - (legend ? 1 : 0); i++, y++) {
        const trace_memgroup *mg = trace_memgroup_at(t, order[i]);
        cv_text(cv, y, in.x, lw, mg->host ? ST_DIM : ST_NORMAL, mg->name);
        mem_bar(a, cv, y, in.x + lw + 1, in.w - lw - 1, order[i]);
    }
    if (legend) {
        int x = 0, ly = yend - 1;
        for (int b = 0; b < MB__COUNT && x < in.w; b++) {
            bool used = false;
            for (int g = 0; g < ng && !used; g++) used = sim_mem_peak(a->run->s, g, b) > 0;
            if (!used) continue;
            cv_put(cv, ly, in.x + x++, style_bucket_letter((mem_bucket)b), style_bucket((mem_bucket)b));
            x += cv_printf(cv, ly, in.x + x, in.w - x, ST_DIM, " %s ", style_bucket_short((mem_bucket)b));
        }
    }
}

static int mem_request(tui_app *a, tui_req req, tui_rect in)
{
    int *s = &a->v.scroll[PANE_MEMORY];
    switch (req) {
    case REQ_UP: if (*s == 0) return RE_HANDLED; (*s)--; return RE_REDRAW;
    case REQ_DOWN: (*s)++; return RE_REDRAW;      /* clamped when drawn */
    case REQ_PGUP: if (*s == 0) return RE_HANDLED; *s = *s > 5 ? *s - 5 : 0; return RE_REDRAW;
    case REQ_PGDN: *s += 5; return RE_REDRAW;
    default: (void)in; return RE_NONE;
    }
}

const pane_ops pane_memory = {"Memory", NULL, mem_draw, mem_request, NULL};
