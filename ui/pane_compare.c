/*
** pane_compare.c — A/B: two snapshots of plans side by side.  Snapshots are
** separate simulations computed in the background; with only A kept, B is
** the live run.
**
** At the top, the runs drawn as aligned timelines on one time axis (the step
** row and one row per device pool), then one mean step of each as a bar of
** its parts on one scale, with the difference part by part, and a line that
** says where the idle time goes.  Below, the table of figures with B - A.
*/
#include "pane.h"
#include "style.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const tui_run *r;
    const char    *name;
    bool           ready;
    report         rep;
} side;

static void side_init(side *s, const tui_run *r, const char *name)
{
    s->r = r;
    s->name = name;
    s->ready = r && r->report_ready;
    /* an unready side draws as "-" from an empty report: every field the
    ** rows read must be defined */
    if (s->ready) s->rep = r->rep;
    else memset(&s->rep, 0, sizeof s->rep);
}

enum { F_SI, F_SECS, F_BYTES, F_INT, F_NUM2, F_PCT, F_YESNO };

/* A figure in its form; false when there is none to show (a step part the
** plan does not have is "-", not "0 ns"). */
static bool cell(char *out, size_t n, double v, int kind)
{
    if (isnan(v)) return false;     /* a figure this plan does not have (a pool it has not) */
    switch (kind) {
    case F_SI: fmt_si(out, n, v); break;
    case F_SECS: if (v <= 0) return false; style_fmt_secs(out, n, v); break;
    case F_BYTES: if (v <= 0) return false; fmt_bytes(out, n, v); break;
    case F_INT: snprintf(out, n, "%.0f", v); break;
    case F_PCT: snprintf(out, n, "%.1f%%", 100 * v); break;
    case F_YESNO: snprintf(out, n, "%s", v > 0 ? "yes" : "no"); break;
    default: snprintf(out, n, "%.2f", v); break;
    }
    return true;
}

static void put_cell(tui_canvas *cv, int y, int x, int cw, int st, const char *s, bool have)
{
    if (cw <= 1) return;
    if (!have) {
        cv_put(cv, y, x + cw - 2, G_DASH, ST_DIM);
        return;
    }
    cv_printf(cv, y, x, cw, st, "%*s", cw - 1, s);
}

/* more_is_better: 1 yes, -1 no, 0 neutral (colors the delta) */
static void row(tui_canvas *cv, int y, int x, int w, int cw, const char *label, const side *A, const side *B,
                double va, double vb, int kind, int more_is_better)
{
    char a[32] = "", b[32] = "", d[48] = "";
    bool ha = A->ready && cell(a, sizeof a, va, kind), hb = B->ready && cell(b, sizeof b, vb, kind);
    int st = ST_NORMAL;
    bool hd = false;
    if (A->ready && B->ready && !isnan(va) && !isnan(vb)) {
        double diff = vb - va;
        char dv[32];
        hd = true;
        if (fabs(diff) <= 1e-9 * (fabs(va) + 1)) snprintf(d, sizeof d, "=");
        else if (kind == F_YESNO) snprintf(d, sizeof d, "%s", vb > 0 ? "now fits" : "no longer fits");
        else {
            if (kind == F_PCT) snprintf(dv, sizeof dv, "%.1f pt", 100 * fabs(diff));
            else if (!cell(dv, sizeof dv, fabs(diff), kind)) snprintf(dv, sizeof dv, "%g", fabs(diff));
            if (fabs(va) > 1e-12 && kind != F_PCT && kind != F_INT) snprintf(d, sizeof d, "%c%s (%+.1f%%)", diff < 0 ? '-' : '+', dv, 100 * diff / fabs(va));
            else snprintf(d, sizeof d, "%c%s", diff < 0 ? '-' : '+', dv);
            if (more_is_better) st = (diff > 0) == (more_is_better > 0) ? ST_GOOD : ST_BAD;
        }
    }
    int lw = w - 3 * cw;
    cv_text(cv, y, x, lw, ST_NORMAL, label);
    if (A->ready) put_cell(cv, y, x + lw, cw, ST_NORMAL, a, ha);
    else put_cell(cv, y, x + lw, cw, ST_DIM, "-", true);
    if (B->ready) put_cell(cv, y, x + lw + cw, cw, ST_NORMAL, b, hb);
    else put_cell(cv, y, x + lw + cw, cw, ST_DIM, "-", true);
    if (hd) cv_printf(cv, y, x + lw + 2 * cw, cw, st, " %s", d);
}

/* ------------------------------------------------- aligned timelines */

static int step_track(const tui_run *r)
{
    const trace *t = sim_trace(r->s);
    for (int k = 0; k < trace_ntracks(t); k++)
        if (trace_track_at(t, k)->kind == TRK_STEP) return k;
    return -1;
}

/* The phase most of a pool's tracks are in over [c0, c1) (a sample of
** them), the host link when nothing else is; -1 idle. */
static int pool_phase(const tui_run *r, int pool, sim_time c0, sim_time c1)
{
    const trace *t = sim_trace(r->s);
    const trace_span *sp = trace_spans(t);
    int count[32] = {0}, best = -1, bestn = 0, seen = 0, host = -1;
    for (int k = 0; k < trace_ntracks(t) && seen < 24; k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (tk->pool != pool) continue;
        if (tk->kind == TRK_HOSTLINK) { host = k; continue; }
        seen++;
        long i = run_span_in(r, k, c0, c1);
        if (i < 0 || sp[i].phase >= 32 || sp[i].phase == PH_IDLE) continue;
        if (++count[sp[i].phase] > bestn) { bestn = count[sp[i].phase]; best = sp[i].phase; }
    }
    if (best < 0 && host >= 0) {
        long i = run_span_in(r, host, c0, c1);
        if (i >= 0) best = sp[i].phase;
    }
    return best;
}

static void run_rows(tui_canvas *cv, int *y, int yend, int x, int lw, int pw, const side *s, sim_time t1)
{
    if (!s->r || *y >= yend) return;
    const tui_run *r = s->r;
    sim_time now = run_now(r);
    const plan *pl = sim_plan(r->s);
    int st_track = step_track(r);
    for (int row = -1; row < pl->npools && *y < yend; row++, (*y)++) {
        char lab[64];
        if (row < 0) snprintf(lab, sizeof lab, "%s step", s->name);
        else snprintf(lab, sizeof lab, "%s %s", s->name, pl->pools[row].name);
        cv_text(cv, *y, x, lw - 1, row < 0 ? ST_BOLD : ST_NORMAL, lab);
        cv_put(cv, *y, x + lw - 1, G_VLINE, ST_AXIS);
        for (int c = 0; c < pw; c++) {
            sim_time c0 = (sim_time)((double)t1 * c / pw), c1 = (sim_time)((double)t1 * (c + 1) / pw);
            if (c1 <= c0) c1 = c0 + 1;
            int ch = ' ', sty = ST_NORMAL;
            if (c0 >= now) {
                /* a finished run has nothing past its end; a running one is not there yet */
                if (!run_over(r)) { ch = G_FUTURE; sty = ST_FUTURE; }
            } else if (row < 0) {
                long i = run_span_in(r, st_track, c0, c1);
                if (i >= 0) {
                    trace_step_phase ph = (trace_step_phase)trace_spans(sim_trace(r->s))[i].phase;
                    ch = style_step_letter(ph);
                    sty = style_step(ph);
                }
            } else {
                int ph = pool_phase(r, row, c0, c1);
                if (ph >= 0) { ch = style_phase_letter((trace_phase)ph); sty = style_phase((trace_phase)ph); }
            }
            cv_put(cv, *y, x + lw + c, ch, sty);
        }
    }
}

/* One mean step of a side as a bar of its parts, at `scale` seconds per cell. */
static void parts_bar(tui_canvas *cv, int y, int x, int lw, int pw, const side *s, double scale)
{
    char lab[32];
    snprintf(lab, sizeof lab, "%s 1 step", s->name);
    cv_text(cv, y, x, lw - 1, ST_NORMAL, lab);
    cv_put(cv, y, x + lw - 1, G_VLINE, ST_AXIS);
    if (!s->ready || scale <= 0) { cv_text(cv, y, x + lw, pw, ST_DIM, s->r ? "running..." : ""); return; }
    /* in the order a step goes: generate, switch, weight sync, inference, train, wait */
    static const trace_step_phase order[] = {STEP_GENERATE, STEP_SWITCH, STEP_WEIGHT_SYNC, STEP_INFER, STEP_TRAIN, STEP_WAIT};
    double cum = 0;
    int col = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        double v = s->rep.phase_s[order[i]];
        if (v <= 0) continue;
        cum += v;
        int end = (int)floor(cum / scale + 0.5);
        if (end <= col) end = col + 1;       /* a part is never invisible */
        for (; col < end && col < pw; col++) cv_put(cv, y, x + lw + col, style_step_letter(order[i]), style_step(order[i]));
    }
    char t[24];
    style_fmt_secs(t, sizeof t, s->rep.step_time_s);
    if (col + 2 + (int)strlen(t) <= pw) cv_text(cv, y, x + lw + col + 1, pw - col - 1, ST_DIM, t);
}

/* "B - A by part: generate -12s, switch +4.1s, weight sync -": the parts that moved. */
static void parts_diff(tui_canvas *cv, int y, int x, int w, const side *A, const side *B)
{
    if (!A->ready || !B->ready) return;
    cv_seg seg[STEP__COUNT + 2];
    char txt[STEP__COUNT + 2][48];
    int n = 0;
    char d[24];
    double dt = B->rep.step_time_s - A->rep.step_time_s;
    style_fmt_secs(d, sizeof d, fabs(dt));
    if (fabs(dt) < 1e-3 * (A->rep.step_time_s + 1e-9)) snprintf(txt[n], sizeof txt[n], "B-A step: the same");
    else snprintf(txt[n], sizeof txt[n], "B-A step %c%s:", dt < 0 ? '-' : '+', d);
    seg[n] = (cv_seg){txt[n], CV_KEEP, dt < 0 ? ST_GOOD : dt > 0 ? ST_BAD : ST_BOLD};
    n++;
    double big[STEP__COUNT];
    for (int k = 0; k < STEP__COUNT; k++) big[k] = fabs(B->rep.phase_s[k] - A->rep.phase_s[k]);
    for (int k = 0; k < STEP__COUNT; k++) {
        double diff = B->rep.phase_s[k] - A->rep.phase_s[k];
        if (fabs(diff) < 1e-3 * (A->rep.step_time_s + 1e-9)) continue;
        style_fmt_secs(d, sizeof d, fabs(diff));
        snprintf(txt[n], sizeof txt[n], "%s %c%s", style_step_label((trace_step_phase)k), diff < 0 ? '-' : '+', d);
        /* the largest changes stay when the line is short */
        int rank = 0;
        for (int j = 0; j < STEP__COUNT; j++) rank += big[j] > big[k];
        seg[n] = (cv_seg){txt[n], 20 - rank, diff < 0 ? ST_GOOD : ST_BAD};
        n++;
    }
    cv_segs(cv, y, x, w, 2, seg, n);
}

/* Where a run's devices sit idle, in one line: "separate: rollout pool idle
** 52% of the time" (the pool with the most idle device-time). */
static void why_text(const side *s, char *out, size_t n)
{
    out[0] = 0;
    if (!s->ready) return;
    const report *r = &s->rep;
    if (!r->feasible) {
        snprintf(out, n, "%s %s: ran out of memory, so its figures are invalid", s->name, r->mode);
        return;
    }
    int worst = -1;
    double idle_dev = 0, all = 0;
    for (int p = 0; p < r->npools; p++) {
        idle_dev += r->pools[p].idle * r->pools[p].devices;
        all += r->pools[p].devices;
        if (worst < 0 || r->pools[p].idle * r->pools[p].devices > r->pools[worst].idle * r->pools[worst].devices) worst = p;
    }
    if (worst < 0) return;
    if (r->npools == 1)
        snprintf(out, n, "%s %s: devices idle %.0f%% of the time (one pool: no device waits for another pool)", s->name,
                 r->mode, 100 * r->pools[0].idle);
    else
        snprintf(out, n, "%s %s: %s pool idle %.0f%% of the time (%.0f%% of all device-time idle)", s->name, r->mode,
                 r->pools[worst].name, 100 * r->pools[worst].idle, all > 0 ? 100 * idle_dev / all : 0);
}

static void cmp_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    side A, B;
    side_init(&A, a->snap[0], "A");
    if (a->snap[1]) side_init(&B, a->snap[1], "B");
    else side_init(&B, a->run, "B");
    /* with both snapshots kept, the live run is drawn under them as well,
    ** when the pane has the room (A and B come first) */
    side L;
    side_init(&L, a->snap[0] && a->snap[1] && in.h >= 20 ? a->run : NULL, "now");
    int nsides = L.r ? 3 : 2;
    int y = in.y, yend = in.y + in.h;
    char la[96], lb[96];
    const side *sides[3] = {&A, &B, &L};
    char *labs[2] = {la, lb};
    for (int i = 0; i < 2; i++) {
        const side *s = sides[i];
        const char *live = i == 1 && !a->snap[1] ? " (live)" : "";
        if (!s->r) snprintf(labs[i], 96, "%s: none (press %c)", s->name, i ? 'b' : 'a');
        else if (!s->ready) {
            const sim_stats *st = sim_get_stats(s->r->s);
            snprintf(labs[i], 96, "%s%s: running, step %d/%d", s->name, live, st->iterations_done + 1, s->r->scn.work.iterations);
        } else snprintf(labs[i], 96, "%s%s: %s%s", s->name, live, s->r->label,
                        s->rep.feasible ? "" : "  (OUT OF MEMORY: its figures are invalid)");
    }
    int skip = a->v.scroll[PANE_COMPARE], line = 0;
#define LINE() (line++ >= skip && y < yend)
    if (LINE()) cv_text(cv, y++, in.x, in.w, ST_BOLD, la);
    if (LINE()) cv_text(cv, y++, in.x, in.w, ST_BOLD, lb);
    if (L.r && LINE()) {
        const sim_stats *st = sim_get_stats(L.r->s);
        cv_printf(cv, y++, in.x, in.w, ST_DIM, "now (the live run): %s, step %d/%d", L.r->label,
                  st->iterations_done + (run_over(L.r) ? 0 : 1), L.r->scn.work.iterations);
    }

    /* aligned timelines: one axis from 0 to the later run's clock */
    int lw = in.w / 5 < 14 ? 14 : in.w / 5 > 24 ? 24 : in.w / 5, pw = in.w - lw;
    sim_time t1 = 1;
    for (int i = 0; i < nsides; i++) if (sides[i]->r && run_now(sides[i]->r) > t1) t1 = run_now(sides[i]->r);
    const report *ra = &A.rep, *rb = &B.rep;
    /* the table first where the strips would push its headline rows (the
    ** column heads, throughput, per device, step time) off the pane: the
    ** figures are what a comparison is read for; the strips scroll below */
    int strip_lines = 0;
    if (pw >= 10 && (A.r || B.r)) {
        strip_lines = 1 + 2 + (L.r && L.ready) + (A.ready && B.ready);
        for (int i = 0; i < nsides; i++) strip_lines += sides[i]->r ? 1 + sim_plan(sides[i]->r->s)->npools : 0;
    }
    strip_lines += 2;
    bool table_first = line + strip_lines + 4 > in.h;
    for (int sec = 0; sec < 2; sec++) {
    if ((sec == 0) == table_first) {
    int cw = (in.w - 18) / 3;
    if (cw > 24) cw = 24;
    int w = 18 + 3 * cw;
    if (LINE()) {
        int tl = w - 3 * cw;
        cv_printf(cv, y, in.x + tl, cw, ST_DIM, "%*s", cw - 1, "A");
        cv_printf(cv, y, in.x + tl + cw, cw, ST_DIM, "%*s", cw - 1, "B");
        cv_printf(cv, y++, in.x + tl + 2 * cw, cw, ST_DIM, " B - A");
    }
#define R(label, fa, fb, kind, better) \
    do { if (LINE()) row(cv, y++, in.x, w, cw, label, &A, &B, fa, fb, kind, better); } while (0)
    R("throughput tok/s", ra->throughput, rb->throughput, F_SI, 1);
    R("  per device", ra->throughput_per_device, rb->throughput_per_device, F_SI, 1);
    R("step time", ra->step_time_s, rb->step_time_s, F_SECS, -1);
    for (int k = 0; k < STEP__COUNT; k++) {
        if (ra->phase_s[k] <= 0 && rb->phase_s[k] <= 0) continue;
        char l[32];
        snprintf(l, sizeof l, "  %s", style_step_label((trace_step_phase)k));
        R(l, ra->phase_s[k], rb->phase_s[k], F_SECS, -1);
    }
    /* busy and idle device-time, all pools and each pool (by name) */
    double ia = 0, ib = 0, da = 0, db = 0;
    for (int p = 0; p < ra->npools; p++) { ia += ra->pools[p].idle * ra->pools[p].devices; da += ra->pools[p].devices; }
    for (int p = 0; p < rb->npools; p++) { ib += rb->pools[p].idle * rb->pools[p].devices; db += rb->pools[p].devices; }
    R("idle device-time", da > 0 ? ia / da : 0, db > 0 ? ib / db : 0, F_PCT, -1);
    const report *both[2] = {ra, rb};
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < both[s]->npools; p++) {
            const char *name = both[s]->pools[p].name;
            bool dup = false;
            for (int q = 0; s == 1 && q < ra->npools; q++) dup |= !strcmp(ra->pools[q].name, name);
            if (dup) continue;
            int pa = -1, pb = -1;
            for (int q = 0; q < ra->npools; q++) if (!strcmp(ra->pools[q].name, name)) pa = q;
            for (int q = 0; q < rb->npools; q++) if (!strcmp(rb->pools[q].name, name)) pb = q;
            char l[48];
            snprintf(l, sizeof l, "  %s busy", name);
            if (LINE()) row(cv, y++, in.x, w, cw, l, &A, &B, pa >= 0 ? ra->pools[pa].busy : NAN,
                            pb >= 0 ? rb->pools[pb].busy : NAN, F_PCT, 1);
        }
    R("memory peak/device", ra->mem_peak_total, rb->mem_peak_total, F_BYTES, -1);
    R("host peak/node", ra->host_peak, rb->host_peak, F_BYTES, -1);
    R("devices", ra->devices, rb->devices, F_INT, 0);
    R("lag max", ra->lag_max, rb->lag_max, F_INT, 0);
    R("lag mean", ra->lag_mean, rb->lag_mean, F_NUM2, 0);
    R("tokens wasted", ra->tokens_wasted, rb->tokens_wasted, F_SI, -1);
    R("fits in memory", ra->feasible, rb->feasible, F_YESNO, 1);
    } else {
    if (pw >= 10 && (A.r || B.r)) {
        if (LINE()) {
            char b1[24];
            style_fmt_time(b1, sizeof b1, t1);
            cv_printf(cv, y, in.x, lw - 1, ST_AXIS, "0..%s", b1);
            cv_put(cv, y, in.x + lw - 1, G_VLINE, ST_AXIS);
            sim_time step = style_tick_step(t1, pw, 12);
            for (int c = 0; c < pw; c++) cv_put(cv, y, in.x + lw + c, G_HLINE, ST_AXIS);
            int last_end = -1;
            for (sim_time t = 0; step > 0 && t <= t1; t += step) {
                int col = (int)((double)t * pw / (double)t1);
                if (col >= pw) break;
                char lab[24];
                style_fmt_time(lab, sizeof lab, t);
                cv_put(cv, y, in.x + lw + col, G_TTEE, ST_AXIS);
                if (col + 1 > last_end && col + 1 + (int)strlen(lab) <= pw) {
                    cv_text(cv, y, in.x + lw + col + 1, (int)strlen(lab), ST_AXIS, lab);
                    last_end = col + 1 + (int)strlen(lab);
                }
            }
            y++;
        }
        for (int i = 0; i < nsides; i++) {
            const plan *pl = sides[i]->r ? sim_plan(sides[i]->r->s) : NULL;
            int nrow = pl ? 1 + pl->npools : 0;
            if (line + nrow <= skip) { line += nrow; continue; }
            int before = y;
            run_rows(cv, &y, yend, in.x, lw, pw, sides[i], t1);
            line += y - before;
        }
        /* one mean step of each on one scale, then the difference by part */
        double longest = A.rep.step_time_s > B.rep.step_time_s ? A.rep.step_time_s : B.rep.step_time_s;
        double scale = longest > 0 ? longest / (pw - 8 > 4 ? pw - 8 : pw) : 0;
        if (LINE()) parts_bar(cv, y++, in.x, lw, pw, &A, scale);
        if (LINE()) parts_bar(cv, y++, in.x, lw, pw, &B, scale);
        if (L.r && L.ready && LINE()) parts_bar(cv, y++, in.x, lw, pw, &L, scale);
        if (A.ready && B.ready && LINE()) parts_diff(cv, y++, in.x, in.w, &A, &B);
    }
    /* where the idle time goes, one line a side */
    char why[200];
    for (int i = 0; i < 2; i++) {
        why_text(sides[i], why, sizeof why);
        if (why[0] && LINE()) cv_text(cv, y++, in.x, in.w, ST_NORMAL, why);
    }

    }
    }
#undef R
#undef LINE
    if (skip > 0 && line - skip < in.h) a->v.scroll[PANE_COMPARE] = line - in.h > 0 ? line - in.h : 0;
}

static int cmp_request(tui_app *a, tui_req req, tui_rect in)
{
    int *s = &a->v.scroll[PANE_COMPARE];
    switch (req) {
    case REQ_UP: if (*s == 0) return RE_HANDLED; (*s)--; return RE_REDRAW;
    case REQ_DOWN: (*s)++; return RE_REDRAW;
    case REQ_PGUP: if (*s == 0) return RE_HANDLED; *s = *s > 5 ? *s - 5 : 0; return RE_REDRAW;
    case REQ_PGDN: *s += 5; return RE_REDRAW;
    default: (void)in; return RE_NONE;
    }
}

const pane_ops pane_compare = {"Compare A/B", NULL, cmp_draw, cmp_request, NULL};
