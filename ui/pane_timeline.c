/*
** pane_timeline.c — the Timeline pane: a row per group of devices (pool,
** pipeline stage, rollout instance; expandable to single devices), a time
** axis, spans lettered and colored by phase, a cursor, zoom and scroll, and
** the details of the span under the cursor on the selected row.
**
** Each cell asks run_span_in() for the span that best covers its slice of
** time (a binary search), so a frame costs rows x columns x log(spans),
** whatever the length of the trace.
*/
#include "pane.h"
#include "style.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROW_STEP, ROW_POOL, ROW_TRACK, ROW_DEVICE };

typedef struct {
    int kind, pool, track, dev;
} tl_row;

#define POOL_SAMPLE 16      /* tracks sampled for a collapsed pool's row */
#define DEVICE_ROWS_MAX 256 /* device rows shown under one expanded track */

static int step_track(const tui_run *r)
{
    const trace *t = sim_trace(r->s);
    for (int k = 0; k < trace_ntracks(t); k++)
        if (trace_track_at(t, k)->kind == TRK_STEP) return k;
    return -1;
}

static void tl_open(tui_app *a)
{
    const trace *t = sim_trace(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    int nt = trace_ntracks(t), np = pl->npools;
    /* keep what the user opened if the shape did not change */
    if (nt == a->v.ntracks_open && np == a->v.npools_open) return;
    free(a->v.pool_open);
    free(a->v.track_open);
    a->v.pool_open = xcalloc((size_t)(np ? np : 1), sizeof(bool));
    a->v.track_open = xcalloc((size_t)(nt ? nt : 1), sizeof(bool));
    a->v.ntracks_open = nt;
    a->v.npools_open = np;
    a->v.auto_open = true;      /* the first draw opens what fits */
    a->v.sel_row = a->v.top_row = 0;
}

/* Open pools, smallest first, while their rows fit in `room`. */
static void auto_open(tui_app *a, int room)
{
    const trace *t = sim_trace(a->run->s);
    int np = a->v.npools_open, used = 1 + np;
    bool done[SCN_POOLS_MAX] = {false};
    for (;;) {
        int best = -1, bestn = 0;
        for (int p = 0; p < np && p < SCN_POOLS_MAX; p++) {
            if (done[p]) continue;
            int n = 0;
            for (int k = 0; k < trace_ntracks(t); k++) if (trace_track_at(t, k)->pool == p) n++;
            if (best < 0 || n < bestn) { best = p; bestn = n; }
        }
        if (best < 0) break;
        done[best] = true;
        if (used + bestn > room && bestn > 3) continue;
        a->v.pool_open[best] = true;
        used += bestn;
    }
    a->v.auto_open = false;
}

/* The visible row list; malloc'd, caller frees. */
static int build_rows(const tui_app *a, tl_row **out)
{
    const trace *t = sim_trace(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    int nt = trace_ntracks(t), cap = 8 + nt + pl->npools, n = 0;
    for (int k = 0; k < nt && k < a->v.ntracks_open; k++) {
        int d = trace_track_at(t, k)->devices;
        if (a->v.track_open[k]) cap += d < DEVICE_ROWS_MAX ? d : DEVICE_ROWS_MAX;
    }
    tl_row *rows = xmalloc((size_t)cap * sizeof *rows);
    int st = step_track(a->run);
    if (st >= 0) rows[n++] = (tl_row){ROW_STEP, -1, st, 0};
    for (int p = 0; p < pl->npools && p < a->v.npools_open; p++) {
        rows[n++] = (tl_row){ROW_POOL, p, -1, 0};
        if (!a->v.pool_open[p]) continue;
        for (int k = 0; k < nt && k < a->v.ntracks_open; k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool != p) continue;
            rows[n++] = (tl_row){ROW_TRACK, p, k, 0};
            if (!a->v.track_open[k]) continue;
            for (int d = 0; d < tk->devices && d < DEVICE_ROWS_MAX; d++)
                rows[n++] = (tl_row){ROW_DEVICE, p, k, tk->first_device + d};
        }
    }
    *out = rows;
    return n;
}

/* Track whose spans a row shows (first non-host-link track for a pool). */
static int row_track(const tui_app *a, const tl_row *r)
{
    if (r->kind != ROW_POOL) return r->track;
    const trace *t = sim_trace(a->run->s);
    int fallback = -1;
    for (int k = 0; k < trace_ntracks(t); k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (tk->pool != r->pool) continue;
        if (tk->kind != TRK_HOSTLINK) return k;
        if (fallback < 0) fallback = k;
    }
    return fallback;
}

static void row_label(const tui_app *a, const tl_row *r, char *buf, size_t n)
{
    const trace *t = sim_trace(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    switch (r->kind) {
    case ROW_STEP:
        snprintf(buf, n, "step phase");
        break;
    case ROW_POOL: {
        const plan_pool *q = &pl->pools[r->pool];
        char roles[64];
        plan_roles_str(q->roles, roles, sizeof roles);
        snprintf(buf, n, "%c %s %d dev %s", a->v.pool_open[r->pool] ? '-' : '+', q->name, q->devices, roles);
        break;
    }
    case ROW_TRACK: {
        const trace_track *tk = trace_track_at(t, r->track);
        const char *name = tk->name;
        size_t pl_len = strlen(pl->pools[r->pool].name);
        /* the pool is on the row above: drop its name */
        if (!strncmp(name, pl->pools[r->pool].name, pl_len) && name[pl_len] == ' ') name += pl_len + 1;
        snprintf(buf, n, "  %c %s", tk->devices > 1 ? (a->v.track_open[r->track] ? '-' : '+') : ' ', name);
        break;
    }
    default:
        snprintf(buf, n, "      device %d", r->dev);
        break;
    }
}

/* Phase drawn in one cell of a collapsed pool row: the most common one
** among a sample of its tracks. */
static int pool_cell(const tui_app *a, int pool, sim_time c0, sim_time c1, const int *tracks, int ntr)
{
    int count[32] = {0}, best = -1, bestn = 0;
    const trace_span *sp = trace_spans(sim_trace(a->run->s));
    (void)pool;
    for (int i = 0; i < ntr; i++) {
        long k = run_span_in(a->run, tracks[i], c0, c1);
        if (k < 0 || sp[k].phase >= 32) continue;
        int ph = sp[k].phase;
        if (++count[ph] > bestn) { bestn = count[ph]; best = ph; }
    }
    return best;
}

static sim_time nice_step(sim_time span, int cols, int min_gap)
{
    double raw = (double)span * min_gap / (cols > 0 ? cols : 1);
    double m = 1;
    while (m * 10 <= raw) m *= 10;
    while (m > raw && m > 1) m /= 10;
    double steps[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++) if (m * steps[i] >= raw) return (sim_time)(m * steps[i]);
    return (sim_time)(m * 10);
}

static void draw_axis(tui_canvas *cv, int y, int x, int w, sim_time t0, sim_time t1)
{
    sim_time span = t1 - t0;
    if (w <= 0 || span <= 0) return;
    sim_time step = nice_step(span, w, 12);
    if (step < 1) step = 1;
    for (int i = 0; i < w; i++) cv_put(cv, y, x + i, G_HLINE, ST_AXIS);
    sim_time first = (t0 + step - 1) / step * step;
    int last_end = -1;
    for (sim_time t = first; t <= t1; t += step) {
        int col = (int)((double)(t - t0) * w / (double)span);
        if (col >= w) break;
        char lab[24];
        style_fmt_time(lab, sizeof lab, t);
        cv_put(cv, y, x + col, G_TTEE, ST_AXIS);
        int len = (int)strlen(lab);
        if (col + 1 > last_end && col + 1 + len <= w) {
            cv_text(cv, y, x + col + 1, len, ST_AXIS, lab);
            last_end = col + 1 + len;
        }
    }
}

static void detail_line(tui_app *a, tui_canvas *cv, int y, int x, int w, const tl_row *row, double col_ns)
{
    char when[24];
    style_fmt_time(when, sizeof when, a->cursor);
    int track = row ? row_track(a, row) : -1;
    /* what covers the cursor's column; at the live edge look just behind it */
    sim_time c0 = a->cursor - (sim_time)col_ns, c1 = a->cursor + 1;
    if (c0 < 0) c0 = 0;
    long k = track >= 0 ? run_span_in(a->run, track, a->cursor, a->cursor) : -1;
    if (k < 0 && track >= 0) k = run_span_in(a->run, track, c0, c1);
    if (k < 0 && row && row->kind == ROW_POOL) {
        /* a pool: the first of its tracks with something under the cursor */
        const trace *t = sim_trace(a->run->s);
        for (int i = 0; i < trace_ntracks(t) && k < 0; i++) {
            if (trace_track_at(t, i)->pool != row->pool) continue;
            k = run_span_in(a->run, i, a->cursor, a->cursor);
            if (k < 0) k = run_span_in(a->run, i, c0, c1);
        }
    }
    int n = cv_printf(cv, y, x, w, ST_BOLD, "t=%s%s ", when, a->cursor_follow ? " (live)" : "");
    if (k < 0) {
        cv_text(cv, y, x + n, w - n, ST_DIM, track >= 0 ? "nothing running on this row here" : "");
        return;
    }
    const trace_span *s = &trace_spans(sim_trace(a->run->s))[k];
    const trace_track *tk = trace_track_at(sim_trace(a->run->s), s->track);
    bool step = tk->kind == TRK_STEP;
    int st = step ? style_step((trace_step_phase)s->phase) : style_phase((trace_phase)s->phase);
    const char *name = step ? trace_step_phase_name((trace_step_phase)s->phase) : trace_phase_name((trace_phase)s->phase);
    n += cv_printf(cv, y, x + n, w - n, st, "%c %s", step ? style_step_letter((trace_step_phase)s->phase)
                                                          : style_phase_letter((trace_phase)s->phase), name);
    char d[32], b0[24], b1[24], tok[32] = "";
    fmt_secs(d, sizeof d, sim_secs(s->t1 - s->t0));
    style_fmt_time(b0, sizeof b0, s->t0);
    style_fmt_time(b1, sizeof b1, s->t1);
    if (s->tokens > 0) {
        char si[24];
        fmt_si(si, sizeof si, (double)s->tokens);
        snprintf(tok, sizeof tok, "  %s tokens", si);
    }
    char mb[24] = "";
    if (s->mb >= 0) snprintf(mb, sizeof mb, "  mb %d", s->mb);
    cv_printf(cv, y, x + n, w - n, ST_NORMAL, "  iter %d  v%d%s  %s (%s-%s)%s%s", s->iter, s->version, mb, d, b0, b1,
              tok, s->t1 > run_now(a->run) ? "  ends later" : "");
}

static void legend(tui_app *a, tui_canvas *cv, int y, int x, int w)
{
    int n = 0;
    uint32_t seen = a->run->phases_seen;
    for (int p = 0; p < PH__COUNT && n < w; p++) {
        if (!(seen & (1u << p))) continue;
        cv_put(cv, y, x + n, style_phase_letter((trace_phase)p), style_phase((trace_phase)p));
        n += 1;
        n += cv_printf(cv, y, x + n, w - n, ST_DIM, " %s  ", trace_phase_name((trace_phase)p));
    }
    if (!seen) cv_text(cv, y, x, w, ST_DIM, "no activity yet: space plays, . steps one event");
}

static void tl_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    int extras = in.h >= 6 ? 2 : in.h >= 4 ? 1 : 0;
    int ry = in.y + 1, rh = in.h - 1 - extras;
    if (rh < 0) rh = 0;
    if (a->v.auto_open) auto_open(a, rh);
    tl_row *rows;
    int nrows = build_rows(a, &rows);
    int lw = in.w / 4 < 28 ? in.w / 4 : 28, px = in.x + lw + 1, pw = in.w - lw - 1;
    a->v.plot_x = px;
    a->v.plot_w = pw;
    a->v.rows_y = ry;
    a->v.rows_h = rh;
    if (a->v.sel_row >= nrows) a->v.sel_row = nrows - 1;
    if (a->v.sel_row < 0) a->v.sel_row = 0;
    if (a->v.sel_row < a->v.top_row) a->v.top_row = a->v.sel_row;
    if (rh > 0 && a->v.sel_row >= a->v.top_row + rh) a->v.top_row = a->v.sel_row - rh + 1;
    if (a->v.top_row > nrows - rh) a->v.top_row = nrows - rh > 0 ? nrows - rh : 0;

    sim_time t0, t1, now = run_now(a->run);
    app_window(a, &t0, &t1);
    double span = (double)(t1 - t0);

    /* axis row: window and cursor in the label column, ticks over the plot */
    char b0[24], b1[24];
    style_fmt_time(b0, sizeof b0, t0);
    style_fmt_time(b1, sizeof b1, t1);
    cv_printf(cv, in.y, in.x, lw, ST_AXIS, "%s..%s%s", b0, b1, a->fit ? " fit" : "");
    cv_put(cv, in.y, px - 1, G_VLINE, ST_AXIS);
    draw_axis(cv, in.y, px, pw, t0, t1);

    int ccol = -1;
    if (a->cursor >= t0 && a->cursor <= t1 && span > 0) {
        ccol = (int)((double)(a->cursor - t0) * pw / span);
        if (ccol >= pw) ccol = pw - 1;
    }

    const trace *t = sim_trace(a->run->s);
    for (int i = 0; i < rh && a->v.top_row + i < nrows; i++) {
        const tl_row *r = &rows[a->v.top_row + i];
        int y = ry + i;
        char lab[96];
        row_label(a, r, lab, sizeof lab);
        bool sel = a->v.top_row + i == a->v.sel_row;
        cv_fill(cv, (tui_rect){y, in.x, 1, lw}, ' ', sel ? ST_SELECT : ST_NORMAL);
        cv_text(cv, y, in.x, lw, sel ? ST_SELECT : (r->kind == ROW_POOL ? ST_BOLD : ST_NORMAL), lab);
        cv_put(cv, y, px - 1, G_VLINE, ST_AXIS);

        int sample[POOL_SAMPLE], ns = 0;
        if (r->kind == ROW_POOL) {
            int total = 0;
            for (int k = 0; k < trace_ntracks(t); k++) {
                const trace_track *tk = trace_track_at(t, k);
                if (tk->pool == r->pool && tk->kind != TRK_HOSTLINK) total++;
            }
            int stride = total > POOL_SAMPLE ? (total + POOL_SAMPLE - 1) / POOL_SAMPLE : 1, seen = 0;
            for (int k = 0; k < trace_ntracks(t) && ns < POOL_SAMPLE; k++) {
                const trace_track *tk = trace_track_at(t, k);
                if (tk->pool != r->pool || tk->kind == TRK_HOSTLINK) continue;
                if (seen++ % stride == 0) sample[ns++] = k;
            }
        }
        bool stepish = r->kind == ROW_STEP;
        for (int c = 0; c < pw; c++) {
            sim_time c0 = t0 + (sim_time)(span * c / pw), c1 = t0 + (sim_time)(span * (c + 1) / pw);
            if (c1 <= c0) c1 = c0 + 1;
            int ch = ' ', st = ST_NORMAL;
            if (c0 < now) {
                int ph = -1;
                if (r->kind == ROW_POOL) ph = pool_cell(a, r->pool, c0, c1, sample, ns);
                else {
                    long k = run_span_in(a->run, r->track, c0, c1);
                    if (k >= 0) ph = trace_spans(t)[k].phase;
                    /* the step phase under way has no span yet: draw it to the clock */
                    sim_time since;
                    int open = sim_step_phase_open(a->run->s, &since);
                    if (ph < 0 && stepish && !run_over(a->run) && c1 > since) ph = open;
                }
                if (ph >= 0) {
                    ch = stepish ? style_step_letter((trace_step_phase)ph) : style_phase_letter((trace_phase)ph);
                    st = stepish ? style_step((trace_step_phase)ph) : style_phase((trace_phase)ph);
                }
            }
            if (c == ccol) st = ST_CURSOR;
            cv_put(cv, y, px + c, ch, st);
        }
    }
    if (ccol >= 0) cv_restyle(cv, (tui_rect){in.y, px + ccol, 1, 1}, ST_CURSOR);

    if (extras >= 1) {
        int y = in.y + in.h - extras, cw = 0;
        const tl_row *sel = nrows ? &rows[a->v.sel_row] : NULL;
        if (nrows > rh) {
            char pos[24];
            cw = snprintf(pos, sizeof pos, " row %d/%d", a->v.sel_row + 1, nrows);
            cv_text(cv, y, in.x + in.w - cw, cw, ST_DIM, pos);
        }
        detail_line(a, cv, y, in.x, in.w - cw, sel, span / (pw > 0 ? pw : 1));
    }
    if (extras >= 2) legend(a, cv, in.y + in.h - 1, in.x, in.w);
    free(rows);
}

static int tl_request(tui_app *a, tui_req req, tui_rect in)
{
    (void)in;
    tl_row *rows;
    int n = build_rows(a, &rows), page = a->v.rows_h > 1 ? a->v.rows_h - 1 : 1;
    int re = RE_REDRAW, sel = a->v.sel_row;
    switch (req) {
    case REQ_UP: a->v.sel_row--; break;
    case REQ_DOWN: a->v.sel_row++; break;
    case REQ_PGUP: a->v.sel_row -= page; break;
    case REQ_PGDN: a->v.sel_row += page; break;
    case REQ_EXPAND:
        if (a->v.sel_row >= 0 && a->v.sel_row < n) {
            const tl_row *r = &rows[a->v.sel_row];
            if (r->kind == ROW_POOL) a->v.pool_open[r->pool] = !a->v.pool_open[r->pool];
            else if (r->kind == ROW_TRACK) a->v.track_open[r->track] = !a->v.track_open[r->track];
            else if (r->kind == ROW_DEVICE) {
                a->v.track_open[r->track] = false;
                /* back to the track's own row */
                for (int i = a->v.sel_row; i >= 0; i--)
                    if (rows[i].kind == ROW_TRACK && rows[i].track == r->track) { a->v.sel_row = i; break; }
            } else re = RE_HANDLED;     /* the step row does not expand */
        } else re = RE_HANDLED;
        break;
    default: re = RE_NONE; break;
    }
    if (a->v.sel_row >= n) a->v.sel_row = n - 1;
    if (a->v.sel_row < 0) a->v.sel_row = 0;
    /* a move that the first or last row stopped changes nothing */
    if (re == RE_REDRAW && req != REQ_EXPAND && a->v.sel_row == sel) re = RE_HANDLED;
    free(rows);
    return re;
}

static int tl_click(tui_app *a, tui_rect in, int y, int x, int button)
{
    (void)button;
    int sy = in.y + y, sx = in.x + x;
    if (sy >= a->v.rows_y && sy < a->v.rows_y + a->v.rows_h) {
        int row = a->v.top_row + (sy - a->v.rows_y);
        if (row == a->v.sel_row && sx < a->v.plot_x - 1) return tl_request(a, REQ_EXPAND, in);
        a->v.sel_row = row;
    }
    if (sx >= a->v.plot_x && a->v.plot_w > 0 && sy >= in.y) {
        sim_time t0, t1;
        app_window(a, &t0, &t1);
        sim_time c = t0 + (sim_time)((double)(t1 - t0) * (sx - a->v.plot_x) / a->v.plot_w);
        if (c > run_now(a->run)) c = run_now(a->run);
        a->cursor = c;
        a->cursor_follow = false;
    }
    tl_request(a, REQ_NONE, in);
    return RE_REDRAW;
}

const pane_ops pane_timeline = {"Timeline", tl_open, tl_draw, tl_request, tl_click};
