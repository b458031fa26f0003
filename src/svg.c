/*
** svg.c — the SVG picture of one run or an A/B pair (see svg.h).
**
** Plain SVG 1.1 (https://www.w3.org/TR/SVG11/): rectangles and text only, no
** script, no external reference, every name from a scenario escaped, so the
** file opens in any browser and pastes into slides.  Spans closer than half a
** pixel with the same phase are drawn as one rectangle, so a long run stays a
** small file.
*/
#include "svg.h"
#include "plan.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_W 310
#define ROW_H 14
#define ROW_GAP 3
#define PAD 16

/* One colour per phase and per step phase (their tables in trace.h) and
** per memory bucket; chosen to stay apart when printed and on a projector. */
static const char *const PHASE_RGB[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = rgb,
    TRACE_PHASES(X)
#undef X
};
static const char *const STEP_RGB[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = rgb,
    TRACE_STEP_PHASES(X)
#undef X
};
/* The legend's words: the phase tables' user-facing labels; a step phase
** that is one trace phase (`as`) is that phase in the legend. */
static const char *const PHASE_LABEL[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = label,
    TRACE_PHASES(X)
#undef X
};
static const char *const STEP_LABEL[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = label,
    TRACE_STEP_PHASES(X)
#undef X
};
static const int STEP_AS[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = as,
    TRACE_STEP_PHASES(X)
#undef X
};
static const char *const BUCKET_RGB[MB__COUNT] = {
    [MB_WEIGHTS] = "#4e79a7", [MB_GRADS] = "#f28e2b", [MB_OPTIMIZER] = "#e15759", [MB_ACTIVATIONS] = "#76b7b2",
    [MB_ROLLOUT_WEIGHTS] = "#59a14f", [MB_KV_CACHE] = "#edc948", [MB_REF_WEIGHTS] = "#b07aa1",
    [MB_REWARD_WEIGHTS] = "#ff9da7", [MB_CRITIC] = "#9c755f", [MB_RESHARD] = "#bab0ac",
    [MB_HOST_OFFLOAD] = "#2f4b7c", [MB_HOST_MODELS] = "#d4a6c8",
    [MB_RUNTIME] = "#79706e", [MB_TRAIN_CACHE] = "#d37295",
};

/* Text as XML character data: the five specials escaped, bytes outside
** printable ASCII shown as '?' (XML 1.0 forbids most control characters). */
static void put_text(fs_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': buf_puts(b, "&amp;"); break;
        case '<': buf_puts(b, "&lt;"); break;
        case '>': buf_puts(b, "&gt;"); break;
        case '"': buf_puts(b, "&quot;"); break;
        case '\'': buf_puts(b, "&apos;"); break;
        default: buf_putc(b, c >= 32 && c < 127 ? (char)c : '?');
        }
    }
}

static void text_el(fs_buf *b, double x, double y, const char *cls, const char *s)
{
    buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x, y, cls);
    put_text(b, s);
    buf_puts(b, "</text>\n");
}

/* One time format for the axis and the labels: s under 2 minutes, min under
** 2 hours, then h. */
static void fmt_time(char *out, size_t n, double secs, double step)
{
    if (step < 0.001) snprintf(out, n, "%.0f us", secs * 1e6);
    else if (step < 1) snprintf(out, n, "%.0f ms", secs * 1e3);
    else if (step < 60 && secs < 120) snprintf(out, n, "%.0f s", secs);
    else if (step < 3600) snprintf(out, n, "%g min", round(secs / 6) / 10);
    else snprintf(out, n, "%g h", round(secs / 360) / 10);
}

/* Round tick spacing: 1, 2 or 5 times a power of ten of seconds, or of
** minutes and hours once those are the unit, at most ~`most` ticks. */
/* The same format with one decimal, for a moment rather than a tick. */
static void fmt_moment(char *out, size_t n, double secs)
{
    if (secs < 1) snprintf(out, n, "%.0f ms", secs * 1e3);
    else if (secs < 120) snprintf(out, n, "%.1f s", secs);
    else if (secs < 7200) snprintf(out, n, "%.1f min", secs / 60);
    else snprintf(out, n, "%.2f h", secs / 3600);
}

static double tick_step(double span, int most)
{
    static const double units[] = {1, 60, 3600};
    double want = span / (most > 1 ? most : 1);
    double unit = want >= 3600 ? units[2] : want >= 60 ? units[1] : units[0];
    double x = want / unit, p = pow(10, floor(log10(x > 0 ? x : 1e-9)));
    double m = x / p <= 1 ? 1 : x / p <= 2 ? 2 : x / p <= 5 ? 5 : 10;
    return m * p * unit;
}

typedef struct {
    fs_buf  *b;
    double   x0, w;         /* plot */
    sim_time t0, t1;
} plot;

static double px(const plot *p, sim_time t)
{
    if (t < p->t0) t = p->t0;
    if (t > p->t1) t = p->t1;
    return p->x0 + (double)(t - p->t0) / (double)(p->t1 - p->t0) * p->w;
}

/* The phase each pixel column of one track shows: the phase that covers
** most of the column, or -1 where less than a quarter is covered. */
static void row_columns(const plot *p, const trace *t, int track, bool step, sim_time now, int *col)
{
    size_t n = trace_track_nspans(t, track);
    const uint32_t *ix = trace_track_span_index(t, track);
    const trace_span *sp = trace_spans(t);
    int W = (int)p->w, NP = step ? STEP__COUNT : PH__COUNT;
    double *cover = xcalloc((size_t)W * (size_t)NP, sizeof *cover);
    for (size_t k = 0; k < n; k++) {
        const trace_span *s = &sp[ix[k]];
        sim_time e = s->t1 < now ? s->t1 : now;
        if (e <= p->t0 || s->t0 >= p->t1 || e <= s->t0 || s->phase >= NP) continue;
        double a = px(p, s->t0) - p->x0, z = px(p, e) - p->x0;
        for (int c = (int)a; c < W && c < z; c++) {
            double lo = a > c ? a : c, hi = z < c + 1 ? z : c + 1;
            if (hi > lo) cover[(size_t)c * (size_t)NP + s->phase] += hi - lo;
        }
    }
    for (int c = 0; c < W; c++) {
        int best = -1;
        double bv = 0.25;       /* a column less than a quarter covered reads as empty */
        for (int k = 0; k < NP; k++) if (cover[(size_t)c * (size_t)NP + k] > bv) { bv = cover[(size_t)c * (size_t)NP + k]; best = k; }
        col[c] = best;
    }
    free(cover);
}

/* The spans of one track as rectangles at height y: runs of one phase in
** row_columns are one rectangle, so a row is at most as many rectangles as
** the plot has pixels. */
static void row_spans(const plot *p, const trace *t, int track, bool step, double y, sim_time now,
                      uint32_t *seen)
{
    int W = (int)p->w;
    if (W < 1) return;
    int *col = xmalloc((size_t)W * sizeof *col);
    row_columns(p, t, track, step, now, col);
    int run_ph = -1, run_c0 = 0, drawn = 0;
    for (int c = 0; c <= W; c++) {
        int best = c < W ? col[c] : -1;
        if (best == run_ph) continue;
        if (run_ph >= 0) {
            buf_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", p->x0 + run_c0, y,
                       c - run_c0, ROW_H, step ? STEP_RGB[run_ph] : PHASE_RGB[run_ph]);
            seen[step ? 1 : 0] |= 1u << run_ph;
            drawn++;
        }
        run_ph = best;
        run_c0 = c;
    }
    free(col);
    if (!drawn)
        buf_printf(p->b, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">idle in this window (no work placed here)</text>\n",
                   p->x0 + 6, y + ROW_H - 3);
}

static double draw_row(const plot *p, const trace *t, int track, const char *label, bool step, double y,
                       sim_time now, uint32_t *seen)
{
    buf_printf(p->b, "<g class=\"row\" data-track=\"%d\" data-label=\"", track);
    put_text(p->b, label);
    buf_puts(p->b, "\">\n");
    buf_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" class=\"lane\"/>\n", p->x0, y, p->w, ROW_H);
    text_el(p->b, PAD, y + ROW_H - 3, "label", label);
    if (track >= 0) row_spans(p, t, track, step, y, now, seen);
    buf_puts(p->b, "</g>\n");
    return y + ROW_H + ROW_GAP;
}

static double draw_axis(const plot *p, double y)
{
    double span = sim_secs(p->t1 - p->t0), step = tick_step(span, (int)(p->w / 90));
    buf_puts(p->b, "<g class=\"axis\">\n");
    buf_printf(p->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", p->x0, y,
               p->x0 + p->w, y);
    double first = ceil(sim_secs(p->t0) / step) * step;
    for (double s = first; s <= sim_secs(p->t1) + step * 1e-9; s += step) {
        double x = px(p, sim_from_secs(s));
        char lab[32];
        fmt_time(lab, sizeof lab, s, step);
        buf_printf(p->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x, y, x, y + 4);
        buf_printf(p->b, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%s</text>\n", x, y + 15, lab);
    }
    buf_printf(p->b, "<text x=\"%d\" y=\"%.1f\" class=\"label\">simulated time</text>\n", PAD, y + 15);
    buf_puts(p->b, "</g>\n");
    return y + 24;
}

/* Each colour drawn once, under the labels of what it stands for (a step
** phase that is one trace phase shares that phase's entry; "log-prob /
** inference" where two tables give one colour two meanings). */
static double draw_legend(fs_buf *b, double y, const uint32_t *seen, int width)
{
    const char *rgb[PH__COUNT + STEP__COUNT];
    char label[PH__COUNT + STEP__COUNT][64];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        int np = pass ? STEP__COUNT : PH__COUNT;
        for (int k = 0; k < np; k++) {
            if (!(seen[pass] & (1u << k))) continue;
            int ph = pass ? STEP_AS[k] : k;
            const char *c = ph >= 0 ? PHASE_RGB[ph] : STEP_RGB[k], *l = ph >= 0 ? PHASE_LABEL[ph] : STEP_LABEL[k];
            int e = 0;
            while (e < n && strcmp(rgb[e], c)) e++;
            if (e == n) { rgb[n] = c; snprintf(label[n++], sizeof label[0], "%s", l); continue; }
            if (strcmp(label[e], l) && !strstr(label[e], l)) {
                size_t len = strlen(label[e]);
                snprintf(label[e] + len, sizeof label[0] - len, " / %s", l);
            }
        }
    }
    buf_puts(b, "<g class=\"legend\">\n");
    double x = PAD;
    for (int e = 0; e < n; e++) {
        double w = 22 + 7.0 * (double)strlen(label[e]);
        if (x + w > width - PAD) { x = PAD; y += 18; }
        buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, y, rgb[e]);
        text_el(b, x + 16, y + 10, "key", label[e]);
        x += w;
    }
    buf_puts(b, "</g>\n");
    return y + 24;
}

/* A bar per memory group at that group's peak, stacked by bucket against
** its capacity; groups of the same shape and peak drawn once with a count. */
static double draw_memory(const plot *p, const sim *s, double y)
{
    const trace *t = sim_trace(s);
    int ng = trace_nmemgroups(t);
    buf_puts(p->b, "<g class=\"memory\">\n");
    text_el(p->b, PAD, y + 11, "head", "Memory at each group's peak (per device; host per node)");
    y += 18;
    bool *done = xcalloc((size_t)(ng ? ng : 1), sizeof *done);
    uint32_t used = 0;
    for (int g = 0; g < ng; g++) {
        if (done[g]) continue;
        const trace_memgroup *mg = trace_memgroup_at(t, g);
        sim_time when = 0;
        double peak = sim_mem_peak_total(s, g, &when);
        int same = 1;
        for (int h = g + 1; h < ng; h++) {
            const trace_memgroup *mh = trace_memgroup_at(t, h);
            if (done[h] || mh->pool != mg->pool || mh->host != mg->host || mh->capacity != mg->capacity) continue;
            if (fabs(sim_mem_peak_total(s, h, NULL) - peak) > 1e-6 * (peak + 1)) continue;
            done[h] = true;
            same++;
        }
        double cap = mg->capacity > 0 ? mg->capacity : 1, scale = peak > cap ? peak : cap;
        char label[128], a[32], c[32], tw[32];
        fmt_bytes_of(a, sizeof a, peak, cap);     /* the report's figures (util.h) */
        fmt_bytes(c, sizeof c, cap);
        fmt_moment(tw, sizeof tw, sim_secs(when));
        if (same > 1) snprintf(label, sizeof label, "%s (x%d alike)", mg->name, same);
        else snprintf(label, sizeof label, "%s", mg->name);
        buf_puts(p->b, "<g class=\"bar\" data-label=\"");
        put_text(p->b, label);
        buf_puts(p->b, "\">\n");
        text_el(p->b, PAD, y + ROW_H - 3, "label", label);
        double x = p->x0;
        for (int k = 0; k < MB__COUNT; k++) {
            double v = trace_mem_at(t, g, (mem_bucket)k, when);
            if (v <= 0) continue;
            double w = v / scale * p->w;
            buf_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>\n", x, y, w, ROW_H,
                       BUCKET_RGB[k]);
            x += w;
            used |= 1u << k;
        }
        double capx = p->x0 + cap / scale * p->w;
        buf_printf(p->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                   capx, y - 1, capx, y + ROW_H + 1, peak > cap * (1 + 1e-9) ? "#c00" : "#333");
        char val[96];
        snprintf(val, sizeof val, "%s of %s at %s%s", a, c, tw, peak > cap * (1 + 1e-9) ? " OVER CAPACITY" : "");
        text_el(p->b, p->x0 + p->w + 10, y + ROW_H - 3, "value", val);
        buf_puts(p->b, "</g>\n");
        y += ROW_H + ROW_GAP;
    }
    free(done);
    double x = PAD;
    y += 4;
    for (int k = 0; k < MB__COUNT; k++) {
        if (!(used & (1u << k))) continue;
        const char *name = trace_bucket_name((mem_bucket)k);
        buf_printf(p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, y, BUCKET_RGB[k]);
        text_el(p->b, x + 16, y + 10, "key", name);
        x += 24 + 7.0 * (double)strlen(name);
    }
    buf_puts(p->b, "</g>\n");
    return y + 24;
}

/* Two rows alike at the picture's scale: at most one column in a hundred
** shows another phase (the stages of one pipeline, a few microseconds
** apart).  The folded row draws the first. */
static bool alike(const int *a, const int *b, int w)
{
    int differ = 0;
    for (int c = 0; c < w; c++) differ += a[c] != b[c];
    return differ * 100 <= w;
}

/* A row's name under its pool's heading: the track's name without the
** pool's ("rollout 0", not "rollout rollout 0"); for `count` rows folded
** into one, from the first's "stage 0 (TP8 x DP3)" and the last's
** "stage 15 ...": "16 stages 0..15 (TP8 x DP3)". */
static void row_name(const char *first, const char *pool, const char *last, int count, char *out, size_t n)
{
    size_t pl = strlen(pool);
    if (!strncmp(first, pool, pl) && first[pl] == ' ' && first[pl + 1]) first += pl + 1;
    if (count <= 1 || !last) { snprintf(out, n, "%s", first); return; }
    if (!strncmp(last, pool, pl) && last[pl] == ' ' && last[pl + 1]) last += pl + 1;
    /* "WORD NUM[ REST]" in both, the same WORD */
    const char *sp = strchr(first, ' ');
    size_t wl = sp ? (size_t)(sp - first) : 0;
    char *e1 = NULL, *e2 = NULL;
    long a = sp ? strtol(sp + 1, &e1, 10) : 0;
    long z = sp && !strncmp(first, last, wl + 1) ? strtol(last + wl + 1, &e2, 10) : 0;
    if (sp && e1 && e1 != sp + 1 && e2 && e2 != last + wl + 1)
        snprintf(out, n, "%d %.*ss %ld..%ld%s", count, (int)wl, first, a, z, e1);
    else snprintf(out, n, "%d rows like %s", count, first);
}

static double draw_run(fs_buf *b, const svg_run *r, const svg_view *v, sim_time t0, sim_time t1, double y, int width,
                       int idx)
{
    const sim *s = r->s;
    const trace *t = sim_trace(s);
    const plan *pl = sim_plan(s);
    const scn_scenario *sc = sim_scenario(s);
    sim_time now = sim_now(s);
    plot p = {b, LABEL_W, width - LABEL_W - 330, t0, t1};
    uint32_t seen[2] = {0, 0};
    buf_printf(b, "<g class=\"run\" id=\"run-%d\">\n", idx);
    /* the headline figures, as the report gives them; none for a run that
    ** failed (they would describe a plan that cannot run) */
    report *rep = xcalloc(1, sizeof *rep);
    report_compute(s, rep);
    const fs_err *e = sim_error(s);
    const char *why = r->why && r->why[0] ? r->why : e && e->msg[0] ? e->msg : NULL;
    char head[512], tn[32], fig[128], a[32], st[32];
    if (why || !rep->feasible) snprintf(fig, sizeof fig, "tokens/s - (%s)", !r->why && e && e->code != 1 ? "stopped" : "infeasible");
    else if (rep->throughput > 0) {
        fmt_si(a, sizeof a, rep->throughput);
        fmt_secs(st, sizeof st, rep->step_time_s);
        snprintf(fig, sizeof fig, "%s tokens/s  step %s", a, st);
    } else snprintf(fig, sizeof fig, "tokens/s not measured yet");
    free(rep);
    fmt_moment(tn, sizeof tn, sim_secs(now));
    snprintf(head, sizeof head, "%s%s%s  %s  mode %s  staleness %d  %d device%s  %d of %d step%s  t = %s",
             r->label ? r->label : "", r->label ? "  " : "", sc->name, fig, scn_mode_name(sc->plan.mode),
             sc->plan.staleness, pl->used_devices, fs_s(pl->used_devices), sim_get_stats(s)->iterations_done,
             sc->work.iterations, fs_s(sc->work.iterations), tn);
    text_el(b, PAD, y + 14, "title", head);
    y += 22;
    if (why) {
        buf_puts(b, "<g class=\"banner\">\n");
        char m[700];
        snprintf(m, sizeof m, "%s (the figures of this run are not valid): %s",
                 !r->why && e && e->code != 1 ? "STOPPED" : "INFEASIBLE", why);
        /* wrapped at spaces to the picture's width */
        int per = (width - 2 * PAD - 8) / 7, nl = 0;
        char lines[6][700];
        const char *q = m;
        while (*q && nl < 6) {
            int len = (int)strlen(q), cut = len;
            if (len > per) {
                cut = per;
                while (cut > per / 2 && q[cut] != ' ') cut--;
            }
            snprintf(lines[nl++], sizeof lines[0], "%.*s", cut, q);
            q += cut;
            while (*q == ' ') q++;
        }
        buf_printf(b, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#c00\"/>\n", PAD, y,
                   width - 2 * PAD, 6 + 15 * nl);
        for (int i = 0; i < nl; i++) text_el(b, PAD + 4, y + 15 + 15 * i, "alarm", lines[i]);
        buf_puts(b, "</g>\n");
        y += 12 + 15 * nl;
    }
    buf_puts(b, "<g class=\"timeline\">\n");
    int nt = trace_ntracks(t), cap = v->tracks_per_pool > 0 ? v->tracks_per_pool : 24;
    for (int k = 0; k < nt; k++)
        if (trace_track_at(t, k)->kind == TRK_STEP) y = draw_row(&p, t, k, "step phase", true, y, now, seen);
    for (int q = 0; q < pl->npools; q++) {
        char roles[64], label[160];
        plan_roles_str(pl->pools[q].roles, roles, sizeof roles);
        snprintf(label, sizeof label, "pool %s: %d device%s, %s", pl->pools[q].name, pl->pools[q].devices,
                 fs_s(pl->pools[q].devices), roles);
        text_el(b, PAD, y + ROW_H - 3, "pool", label);
        y += ROW_H + ROW_GAP;
        /* stage rows drawn alike at this scale, one after another, are one
        ** row with a count (rollout rows stay apart: their imbalance is what
        ** a reader looks for), so the rows after them get the room */
        int *ix = xmalloc((size_t)(nt ? nt : 1) * sizeof *ix), nk = 0;
        for (int k = 0; k < nt; k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool == q && tk->kind != TRK_STEP) ix[nk++] = k;
        }
        int W = (int)p.w > 0 ? (int)p.w : 1;
        int *cols = xmalloc((size_t)(nk ? nk : 1) * (size_t)W * sizeof *cols);
        for (int i = 0; i < nk; i++) row_columns(&p, t, ix[i], false, now, cols + (size_t)i * (size_t)W);
        int shown = 0, more = 0;
        for (int i = 0; i < nk; ) {
            const trace_track *tk = trace_track_at(t, ix[i]);
            int same = 1;
            while (tk->kind == TRK_STAGE && i + same < nk && trace_track_at(t, ix[i + same])->kind == tk->kind &&
                   trace_track_at(t, ix[i + same])->devices == tk->devices &&
                   alike(cols + (size_t)i * (size_t)W, cols + (size_t)(i + same) * (size_t)W, W))
                same++;
            if (shown >= cap) { more += same; i += same; continue; }
            char tl[200], nm[96];
            row_name(tk->name, pl->pools[q].name, same > 1 ? trace_track_at(t, ix[i + same - 1])->name : NULL, same,
                     nm, sizeof nm);
            if (tk->devices > 1) snprintf(tl, sizeof tl, "  %s (%d devices%s)", nm, tk->devices, same > 1 ? " each" : "");
            else snprintf(tl, sizeof tl, "  %s", nm);
            y = draw_row(&p, t, ix[i], tl, false, y, now, seen);
            shown++;
            i += same;
        }
        free(cols);
        free(ix);
        if (more) {
            char m[96];
            snprintf(m, sizeof m, "  ... %d more row%s of this pool not drawn", more, fs_s(more));
            text_el(b, PAD, y + ROW_H - 3, "note", m);
            y += ROW_H + ROW_GAP;
        }
    }
    buf_puts(b, "</g>\n");
    y = draw_axis(&p, y + 2);
    y = draw_legend(b, y, seen, width);
    y = draw_memory(&p, s, y);
    buf_puts(b, "</g>\n");
    return y + 12;
}

void svg_render(fs_buf *b, const svg_run *runs, int nruns, const svg_view *v)
{
    int width = v->width > 0 ? v->width : 1200;
    if (width < LABEL_W + 400) width = LABEL_W + 400;
    sim_time t0 = v->t0, t1 = v->t1;
    if (t1 <= t0) {
        t0 = 0;
        t1 = 0;
        for (int i = 0; i < nruns; i++) if (sim_now(runs[i].s) > t1) t1 = sim_now(runs[i].s);
        if (t1 <= 0) t1 = SIM_NS_PER_S;
    }
    /* the height is known only at the end: draw the body first */
    fs_buf body;
    buf_init(&body);
    double y = PAD;
    for (int i = 0; i < nruns; i++) y = draw_run(&body, &runs[i], v, t0, t1, y, width, i);
    int height = (int)ceil(y + PAD);
    buf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\">\n", width, height, width, height);
    buf_puts(b, "<title>fusync timeline</title>\n"
             "<style>text{font-family:DejaVu Sans Mono,Menlo,Consolas,monospace;font-size:11px;fill:#222}"
             ".title{font-size:13px;font-weight:bold}.pool{font-weight:bold}.head{font-weight:bold}"
             ".tick{text-anchor:middle;font-size:10px}.note{fill:#777}.alarm{fill:#fff;font-weight:bold}"
             ".lane{fill:#f6f6f6}</style>\n");
    buf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
    buf_puts(b, body.s ? body.s : "");
    buf_puts(b, "</svg>\n");
    buf_free(&body);
}

bool svg_write(const char *path, const svg_run *runs, int nruns, const svg_view *v, fs_err *err)
{
    fs_buf b;
    buf_init(&b);
    svg_render(&b, runs, nruns, v);
    bool ok = write_file_atomic(path, b.s, b.len, err);
    buf_free(&b);
    return ok;
}
