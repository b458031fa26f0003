/*
** pane_compare.c — A/B: two snapshots of plans side by side, with the
** deltas.  Snapshots are separate simulations computed in the background;
** with only A kept, B is the live run.
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

enum { F_SI, F_SECS, F_BYTES, F_NUM, F_PCT };

static void cell(char *out, size_t n, double v, int kind)
{
    switch (kind) {
    case F_SI: fmt_si(out, n, v); break;
    case F_SECS: fmt_secs(out, n, v); break;
    case F_BYTES: fmt_bytes(out, n, v); break;
    case F_PCT: snprintf(out, n, "%.1f%%", 100 * v); break;
    default: snprintf(out, n, "%.2f", v); break;
    }
}

/* more_is_better: 1 yes, -1 no, 0 neutral (colors the delta) */
static void row(tui_canvas *cv, int y, int x, int w, int cw, const char *label, const side *A, const side *B,
                double va, double vb, int kind, int more_is_better)
{
    char a[32] = "-", b[32] = "-", d[48] = "";
    if (A->ready) cell(a, sizeof a, va, kind);
    if (B->ready) cell(b, sizeof b, vb, kind);
    int st = ST_NORMAL;
    if (A->ready && B->ready) {
        double diff = vb - va;
        char dv[32];
        cell(dv, sizeof dv, fabs(diff), kind);
        if (kind == F_PCT) snprintf(dv, sizeof dv, "%.1f pt", 100 * fabs(diff));
        if (fabs(va) > 1e-12 && kind != F_PCT) snprintf(d, sizeof d, "%c%s (%+.1f%%)", diff < 0 ? '-' : '+', dv, 100 * diff / fabs(va));
        else snprintf(d, sizeof d, "%c%s", diff < 0 ? '-' : '+', dv);
        if (fabs(diff) > 1e-9 * (fabs(va) + 1) && more_is_better) st = (diff > 0) == (more_is_better > 0) ? ST_GOOD : ST_BAD;
        if (fabs(diff) <= 1e-9 * (fabs(va) + 1)) snprintf(d, sizeof d, "=");
    }
    int lw = w - 3 * cw;
    cv_text(cv, y, x, lw, ST_NORMAL, label);
    cv_printf(cv, y, x + lw, cw, ST_NORMAL, "%*s", cw - 1, a);
    cv_printf(cv, y, x + lw + cw, cw, ST_NORMAL, "%*s", cw - 1, b);
    cv_printf(cv, y, x + lw + 2 * cw, cw, st, " %s", d);
}

static void cmp_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    side A, B;
    side_init(&A, a->snap[0], "A");
    if (a->snap[1]) side_init(&B, a->snap[1], "B");
    else side_init(&B, a->run, "B = live");
    int cw = (in.w - 18) / 3;
    if (cw > 24) cw = 24;
    int w = 18 + 3 * cw, y = in.y, yend = in.y + in.h;
    char la[64], lb[64];
    const side *sides[2] = {&A, &B};
    char *labs[2] = {la, lb};
    for (int i = 0; i < 2; i++) {
        const side *s = sides[i];
        if (!s->r) snprintf(labs[i], 64, "%s: none (press %c)", s->name, i ? 'b' : 'a');
        else if (!s->ready) {
            const sim_stats *st = sim_get_stats(s->r->s);
            snprintf(labs[i], 64, "%s: running, step %d/%d", s->name, st->iterations_done, s->r->scn.work.iterations);
        } else snprintf(labs[i], 64, "%s: %s", s->name, s->r->label);
    }
    cv_printf(cv, y++, in.x, in.w, ST_BOLD, "%s", la);
    if (y < yend) cv_printf(cv, y++, in.x, in.w, ST_BOLD, "%s", lb);
    if (y < yend) {
        int lw = w - 3 * cw;
        cv_text(cv, y, in.x, lw, ST_DIM, "");
        cv_printf(cv, y, in.x + lw, cw, ST_DIM, "%*s", cw - 1, "A");
        cv_printf(cv, y, in.x + lw + cw, cw, ST_DIM, "%*s", cw - 1, "B");
        cv_printf(cv, y++, in.x + lw + 2 * cw, cw, ST_DIM, " B - A");
    }
    const report *ra = &A.rep, *rb = &B.rep;
    int skip = a->v.scroll[PANE_COMPARE], line = 0;
#define R(label, fa, fb, kind, better) \
    do { if (line++ >= skip && y < yend) row(cv, y++, in.x, w, cw, label, &A, &B, fa, fb, kind, better); } while (0)
    R("throughput tok/s", ra->throughput, rb->throughput, F_SI, 1);
    R("  per device", ra->throughput_per_device, rb->throughput_per_device, F_NUM, 1);
    R("step time", ra->step_time_s, rb->step_time_s, F_SECS, -1);
    for (int k = 0; k < STEP__COUNT; k++) {
        if (ra->phase_s[k] <= 0 && rb->phase_s[k] <= 0) continue;
        char l[32];
        snprintf(l, sizeof l, "  %s", trace_step_phase_name((trace_step_phase)k));
        R(l, ra->phase_s[k], rb->phase_s[k], F_SECS, -1);
    }
    R("memory peak/device", ra->mem_peak_total, rb->mem_peak_total, F_BYTES, -1);
    R("host peak/node", ra->host_peak, rb->host_peak, F_BYTES, -1);
    R("devices", ra->devices, rb->devices, F_NUM, 0);
    R("lag max", ra->lag_max, rb->lag_max, F_NUM, 0);
    R("lag mean", ra->lag_mean, rb->lag_mean, F_NUM, 0);
    R("tokens wasted", ra->tokens_wasted, rb->tokens_wasted, F_SI, -1);
    R("feasible (1 yes)", ra->feasible, rb->feasible, F_NUM, 1);
#undef R
}

static int cmp_request(tui_app *a, tui_req req, tui_rect in)
{
    int *s = &a->v.scroll[PANE_COMPARE];
    switch (req) {
    case REQ_UP: if (*s == 0) return RE_HANDLED; (*s)--; return RE_REDRAW;
    case REQ_DOWN: (*s)++; return RE_REDRAW;
    default: (void)in; return RE_NONE;
    }
}

const pane_ops pane_compare = {"Compare A/B", NULL, cmp_draw, cmp_request, NULL};
