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

/* ROW_STAGES: a pool's pipeline stages folded into one row (Enter opens) */
enum { ROW_STEP, ROW_POOL, ROW_STAGES, ROW_TRACK, ROW_DEVICE };
#define STAGE_FOLD_MIN 5    /* a pool with this many stages starts with them folded */

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
    if (nt == a->v.ntracks_open && np == a->v.npools_open && a->v.pool_open) return;
    /* an edit changed the shape: reopen what has the same name */
    bool restored = false;
    bool *pool_open = xcalloc((size_t)(np ? np : 1), sizeof(bool));
    bool *track_open = xcalloc((size_t)(nt ? nt : 1), sizeof(bool));
    memset(a->v.stages_open, 0, sizeof a->v.stages_open);
    for (int p = 0; p < np; p++)
        for (int k = 0; k < a->v.nopen_pool_names; k++) {
            const char *nm = a->v.open_pool_names[k];
            if (!strcmp(pl->pools[p].name, nm)) { pool_open[p] = true; restored = true; }
            if (!strncmp(nm, "stages:", 7) && !strcmp(pl->pools[p].name, nm + 7) && p < SCN_POOLS_MAX) a->v.stages_open[p] = true;
        }
    for (int i = 0; i < nt; i++)
        for (int k = 0; k < a->v.nopen_track_names; k++)
            if (!strcmp(trace_track_at(t, i)->name, a->v.open_track_names[k])) track_open[i] = true;
    free(a->v.pool_open);
    free(a->v.track_open);
    a->v.pool_open = pool_open;
    a->v.track_open = track_open;
    a->v.ntracks_open = nt;
    a->v.npools_open = np;
    a->v.auto_open = !restored;     /* the first draw opens what fits */
    if (!restored) a->v.sel_row = a->v.top_row = 0;
}

/* Remember the names of the open rows, so an edit that rebuilds the run
** reopens them (called whenever a row opens or closes). */
static void remember_open(tui_app *a)
{
    const trace *t = sim_trace(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    a->v.nopen_pool_names = a->v.nopen_track_names = 0;
    for (int p = 0; p < a->v.npools_open && p < pl->npools; p++) {
        if (a->v.pool_open[p] && a->v.nopen_pool_names < APP_OPEN_NAMES)
            snprintf(a->v.open_pool_names[a->v.nopen_pool_names++], sizeof a->v.open_pool_names[0], "%s", pl->pools[p].name);
        if (p < SCN_POOLS_MAX && a->v.stages_open[p] && a->v.nopen_pool_names < APP_OPEN_NAMES)
            snprintf(a->v.open_pool_names[a->v.nopen_pool_names++], sizeof a->v.open_pool_names[0], "stages:%.56s",
                     pl->pools[p].name);
    }
    for (int k = 0; k < a->v.ntracks_open && k < trace_ntracks(t); k++)
        if (a->v.track_open[k] && a->v.nopen_track_names < APP_OPEN_NAMES)
            snprintf(a->v.open_track_names[a->v.nopen_track_names++], sizeof a->v.open_track_names[0], "%s",
                     trace_track_at(t, k)->name);
}

/* Open pools, smallest first, while there is room left: the pane fills, and
** the last pool opened may scroll. */
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
        if (best < 0 || used >= room) break;
        done[best] = true;
        a->v.pool_open[best] = true;
        used += bestn;
    }
    a->v.auto_open = false;
    remember_open(a);
}

/* The visible row list; malloc'd, caller frees. */
static int build_rows(const tui_app *a, tl_row **out)
{
    const trace *t = sim_trace(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    int nt = trace_ntracks(t), cap = 8 + nt + 2 * pl->npools, n = 0;
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
        int nst = 0, first_stage = -1;
        for (int k = 0; k < nt && k < a->v.ntracks_open; k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool == p && tk->kind == TRK_STAGE) { if (first_stage < 0) first_stage = k; nst++; }
        }
        bool folded = nst >= STAGE_FOLD_MIN && p < SCN_POOLS_MAX && !a->v.stages_open[p];
        bool fold_row = nst >= STAGE_FOLD_MIN;
        for (int k = 0; k < nt && k < a->v.ntracks_open; k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool != p) continue;
            if (fold_row && k == first_stage) rows[n++] = (tl_row){ROW_STAGES, p, k, nst};
            if (folded && tk->kind == TRK_STAGE) continue;
            rows[n++] = (tl_row){ROW_TRACK, p, k, 0};
            if (!a->v.track_open[k]) continue;
            for (int d = 0; d < tk->devices && d < DEVICE_ROWS_MAX; d++)
                rows[n++] = (tl_row){ROW_DEVICE, p, k, plan_dev_after(&pl->pools[p], tk->first_device, d)};
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

/* A row's label: the part that must stay (name, size) in `buf`, what may
** go when the column is narrow (a pool's roles) in `extra`. */
static void row_label(const tui_app *a, const tl_row *r, char *buf, size_t n, char *extra, size_t en)
{
    const trace *t = sim_trace(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    extra[0] = 0;
    switch (r->kind) {
    case ROW_STEP:
        snprintf(buf, n, "step phase");
        break;
    case ROW_POOL: {
        const plan_pool *q = &pl->pools[r->pool];
        plan_roles_str(q->roles, extra, en);
        snprintf(buf, n, "%c %s %d dev", a->v.pool_open[r->pool] ? '-' : '+', q->name, q->devices);
        break;
    }
    case ROW_STAGES: {
        /* "stage 0 (TP8 x DP3)": the layout part is the same for all of them */
        const char *lay = strchr(trace_track_at(t, r->track)->name, '(');
        snprintf(buf, n, "  %c %d stages", r->pool < SCN_POOLS_MAX && a->v.stages_open[r->pool] ? '-' : '+', r->dev);
        snprintf(extra, en, "%s", lay ? lay : "");
        break;
    }
    case ROW_TRACK: {
        const trace_track *tk = trace_track_at(t, r->track);
        const char *name = tk->name;
        size_t pl_len = strlen(pl->pools[r->pool].name);
        /* the pool is on the row above: drop its name */
        if (!strncmp(name, pl->pools[r->pool].name, pl_len) && name[pl_len] == ' ') name += pl_len + 1;
        /* "stage 0 (TP8 x DP3)": the layout may go when the column is narrow */
        const char *lay = tk->kind == TRK_STAGE ? strstr(name, " (") : NULL;
        snprintf(buf, n, "  %c %.*s", tk->devices > 1 ? (a->v.track_open[r->track] ? '-' : '+') : ' ',
                 lay ? (int)(lay - name) : (int)strlen(name), name);
        if (lay) snprintf(extra, en, "%s", lay + 1);
        break;
    }
    default:
        snprintf(buf, n, "      device %d", r->dev);
        break;
    }
}

/* The load of an instance row so far, as the label's right end shows it:
** "idle" for an instance that has done nothing yet. */
static bool row_load(const tui_app *a, const tl_row *r, char *buf, size_t n, bool *idle)
{
    *idle = false;
    if (r->kind != ROW_TRACK) return false;
    const trace_track *tk = trace_track_at(sim_trace(a->run->s), r->track);
    if (tk->kind != TRK_INSTANCE || run_now(a->run) <= 0) return false;
    double load = run_track_load(a->run, r->track);
    *idle = a->run->track_spans[r->track] == 0;
    if (*idle) snprintf(buf, n, "idle");
    else snprintf(buf, n, "%3.0f%%", 100 * load);
    return true;
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

/* The tracks a folded row draws: every stage of a ROW_STAGES row or an even
** sample of them; a pool's row one track of each kind first (a co-located
** pool's stage and instance rows), then an even sample, its host link apart
** in *hostlink.  Returns how many (at most POOL_SAMPLE + 4). */
static int row_sample(const tui_app *a, const tl_row *r, int *sample, int *hostlink)
{
    const trace *t = sim_trace(a->run->s);
    int ns = 0;
    *hostlink = -1;
    if (r->kind == ROW_STAGES) {
        int stride = r->dev > POOL_SAMPLE ? (r->dev + POOL_SAMPLE - 1) / POOL_SAMPLE : 1, seen = 0;
        for (int k = 0; k < trace_ntracks(t) && ns < POOL_SAMPLE; k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool == r->pool && tk->kind == TRK_STAGE && seen++ % stride == 0) sample[ns++] = k;
        }
    }
    if (r->kind == ROW_POOL) {
        int total = 0, kinds = 0;
        for (int k = 0; k < trace_ntracks(t); k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool != r->pool) continue;
            if (tk->kind == TRK_HOSTLINK) { if (*hostlink < 0) *hostlink = k; continue; }
            total++;
            if (!(kinds & (1 << tk->kind)) && ns < 4) { kinds |= 1 << tk->kind; sample[ns++] = k; }
        }
        int stride = total > POOL_SAMPLE ? (total + POOL_SAMPLE - 1) / POOL_SAMPLE : 1, seen = 0, first = ns;
        for (int k = 0; k < trace_ntracks(t) && ns < POOL_SAMPLE + 4; k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->pool != r->pool || tk->kind == TRK_HOSTLINK) continue;
            bool dup = false;
            for (int j = 0; j < first; j++) dup |= sample[j] == k;
            if (seen++ % stride == 0 && !dup) sample[ns++] = k;
        }
    }
    return ns;
}

/* From when a row's state is not known yet (-1: known up to now).  Only an
** instance with a decode open has a gap: its decode is recorded when it
** ends.  An instance that waits (a synchronous step training, a separate
** pool's bubble at staleness 0) or is offloaded (co-located training) is
** known idle, drawn blank.  A pool's row: the earliest of its sample. */
static sim_time row_unknown_from(const tui_app *a, const tl_row *r, const int *sample, int ns)
{
    const trace *t = sim_trace(a->run->s);
    if (run_over(a->run) || !r || r->kind == ROW_STEP || r->kind == ROW_STAGES) return -1;
    if (r->kind != ROW_POOL)
        return trace_track_at(t, r->track)->kind == TRK_INSTANCE ? run_track_known_to(a->run, r->track) : -1;
    sim_time known = -1;
    for (int j = 0; j < ns; j++) {
        sim_time k = trace_track_at(t, sample[j])->kind == TRK_INSTANCE ? run_track_known_to(a->run, sample[j]) : -1;
        if (k >= 0 && (known < 0 || k < known)) known = k;
    }
    return known;
}

static void draw_axis(tui_canvas *cv, int y, int x, int w, sim_time t0, sim_time t1)
{
    sim_time span = t1 - t0;
    if (w <= 0 || span <= 0) return;
    sim_time step = style_tick_step(span, w, 12);
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

/* Why an instance has done nothing: the dispatch rule that gave the step's
** samples to the others (index order, equal parts, or least-loaded first),
** and that a step's samples ran out before this one.  Cut by priority: that
** it is idle, and the dispatch rule, stay. */
static void idle_reason(const tui_app *a, const tl_row *row, tui_canvas *cv, int y, int x, int w)
{
    const trace *t = sim_trace(a->run->s);
    int busy = 0, all = 0;
    for (int k = 0; k < trace_ntracks(t); k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (tk->pool != row->pool || tk->kind != TRK_INSTANCE) continue;
        all++;
        busy += a->run->track_spans[k] > 0;
    }
    const scn_scenario *sc = &a->run->scn;
    char used[48], cap[48], ran[64];
    snprintf(used, sizeof used, "%d of %d instances got samples;", busy, all);
    snprintf(cap, sizeof cap, "(up to %d sequences each)", sc->plan.rollout.max_seqs);
    snprintf(ran, sizeof ran, "and a step's %d samples ran out first", scn_prompts_per_step(sc) * sc->work.samples_per_prompt);
    const char *rule = sc->plan.rollout.dispatch == DISPATCH_QUEUE ? "dispatch fills instances in index order"
                       : sc->plan.rollout.dispatch == DISPATCH_STATIC ? "static dispatch cuts the batch in equal parts"
                       : "dispatch sends each sample to the least-loaded instance";
    cv_seg seg[] = {
        {"idle:", CV_KEEP, ST_BAD}, {used, 6, ST_NORMAL}, {rule, 8, ST_NORMAL},
        {cap, 3, ST_DIM}, {ran, 5, ST_NORMAL},
    };
    cv_segs(cv, y, x, w, 1, seg, 5);
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
    int n = cv_printf(cv, y, x, w, ST_BOLD, "t=%s%s ", when,
                      !a->cursor_follow ? "" : run_over(a->run) ? " (end)" : " (live)");
    if (k < 0 && row && row->kind == ROW_STEP) {
        /* the step phase under way has no span until it ends: it is drawn to
        ** the clock, and described here the same way */
        sim_time since;
        int open = sim_step_phase_open(a->run->s, &since);
        if (!run_over(a->run) && open >= 0 && a->cursor >= since) {
            trace_step_phase ph = (trace_step_phase)open;
            char d[24], b0[24], sb[24], dur[64];
            style_fmt_time(d, sizeof d, run_now(a->run) - since);
            style_fmt_time(b0, sizeof b0, since);
            n += cv_printf(cv, y, x + n, w - n, style_step(ph), "%c %s", style_step_letter(ph), style_step_label(ph));
            snprintf(sb, sizeof sb, "step %d", sim_get_stats(a->run->s)->iterations_done + 1);
            snprintf(dur, sizeof dur, "%s so far (since %s)", d, b0);
            cv_seg seg[] = {{sb, 9, ST_NORMAL}, {dur, 8, ST_NORMAL}, {"under way", 4, ST_DIM}};
            if (n + 2 < w) cv_segs(cv, y, x + n + 2, w - n - 2, 2, seg, 3);
            return;
        }
    }
    if (k < 0) {
        bool idle = false;
        char lb[16];
        int sample[POOL_SAMPLE + 4], hl;
        int ns = row ? row_sample(a, row, sample, &hl) : 0;
        sim_time unk = row ? row_unknown_from(a, row, sample, ns) : -1;
        if (unk >= 0 && a->cursor >= unk) {
            /* the cell is drawn as not known yet: say the same */
            cv_seg seg[] = {{"not known yet:", CV_KEEP, ST_DIM}, {"a decode under way", 4, ST_NORMAL},
                            {"is recorded when it ends", 2, ST_DIM}};
            cv_segs(cv, y, x + n, w - n, 1, seg, 3);
            return;
        }
        if (row && row_load(a, row, lb, sizeof lb, &idle) && idle) idle_reason(a, row, cv, y, x + n, w - n);
        else cv_text(cv, y, x + n, w - n, ST_DIM, track >= 0 ? "idle on this row here" : "");
        return;
    }
    const trace_span *s = &trace_spans(sim_trace(a->run->s))[k];
    const trace_track *tk = trace_track_at(sim_trace(a->run->s), s->track);
    bool step = tk->kind == TRK_STEP;
    int st = step ? style_step((trace_step_phase)s->phase) : style_phase((trace_phase)s->phase);
    const char *name = step ? style_step_label((trace_step_phase)s->phase) : style_phase_label((trace_phase)s->phase);
    n += cv_printf(cv, y, x + n, w - n, st, "%c %s", step ? style_step_letter((trace_step_phase)s->phase)
                                                          : style_phase_letter((trace_phase)s->phase), name);
    char d[32], b0[24], b1[24], tok[32] = "", stepb[24], ver[16], mb[24] = "", range[64];
    style_fmt_time(d, sizeof d, s->t1 - s->t0);
    style_fmt_time(b0, sizeof b0, s->t0);
    style_fmt_time(b1, sizeof b1, s->t1);
    if (s->tokens > 0) {
        char si[24];
        fmt_si(si, sizeof si, (double)s->tokens);
        snprintf(tok, sizeof tok, "%s tokens", si);
    }
    if (s->mb >= 0) snprintf(mb, sizeof mb, "mb %d", s->mb);
    /* the step track's spans carry the step counter as it is when they are
    ** recorded (a train span after its step's version is published): count
    ** the versions published before the span began instead */
    int iter = step ? run_versions_at(a->run, s->t0) : s->iter, version = step ? iter : s->version;
    snprintf(stepb, sizeof stepb, "step %d", iter + 1);
    snprintf(ver, sizeof ver, "v%d", version);
    snprintf(range, sizeof range, "%s (%s-%s)", d, b0, b1);
    /* a pool with rollout instances that have done nothing says so */
    char idle[80] = "";
    if (row && row->kind == ROW_POOL) {
        const trace *t = sim_trace(a->run->s);
        int all = 0, none = 0;
        for (int i = 0; i < trace_ntracks(t); i++) {
            const trace_track *tk2 = trace_track_at(t, i);
            if (tk2->pool != row->pool || tk2->kind != TRK_INSTANCE) continue;
            all++;
            none += a->run->track_spans[i] == 0;
        }
        if (none) snprintf(idle, sizeof idle, "%d of %d instances idle so far (Enter opens)", none, all);
    }
    cv_seg seg[] = {
        {stepb, 9, ST_NORMAL}, {ver, 5, ST_NORMAL}, {mb[0] ? mb : NULL, 3, ST_NORMAL}, {range, 8, ST_NORMAL},
        {tok[0] ? tok : NULL, 6, ST_NORMAL}, {s->t1 > run_now(a->run) ? "ends later" : NULL, 4, ST_DIM},
        {idle[0] ? idle : NULL, 2, ST_BAD},
    };
    if (n + 2 < w) cv_segs(cv, y, x + n + 2, w - n - 2, 2, seg, (int)(sizeof seg / sizeof seg[0]));
}

/* One entry per glyph the rows above drew, in the timeline's own glyphs and
** styles: the not-known/not-simulated glyph first when drawn (it is the one
** a reader asks about), then the step row's phases (as they read left to
** right in a step), then the other phases drawn, then what blank means.
** Entries are whole; when one does not fit, "..." says the list is cut (?
** lists every glyph). */
static void legend(tui_app *a, tui_canvas *cv, int y, int x, int w, uint32_t drawn, uint32_t steps, bool future,
                   bool unknown)
{
    if (!a->run->phases_seen && !a->run->steps_seen && !steps) {
        cv_text(cv, y, x, w, ST_DIM, "no activity yet: space plays, . steps one event");
        return;
    }
    int glyph[48], st[48], ni = 0;
    const char *name[48];
    uint32_t listed = 0;
    if (future || unknown) {
        glyph[ni] = G_FUTURE;
        st[ni] = ST_FUTURE;
        name[ni++] = unknown && future ? "not known / simulated yet" : unknown ? "not known yet (recorded when it ends)"
                                                                               : "not simulated yet";
    }
    for (int k = 0; k < STEP__COUNT; k++) {
        if (!(steps & (1u << k))) continue;
        int sty = style_step((trace_step_phase)k);
        glyph[ni] = style_step_letter((trace_step_phase)k);
        st[ni] = sty;
        name[ni++] = k == STEP_INFER ? "inference (l r w)" : style_step_label((trace_step_phase)k);
        if (sty >= ST_PHASE0 && sty < ST_STEP0) listed |= 1u << (sty - ST_PHASE0);
    }
    for (int p = 0; p < PH__COUNT && ni < 46; p++) {
        if (!(drawn & (1u << p)) || (listed & (1u << p))) continue;
        glyph[ni] = style_phase_letter((trace_phase)p);
        st[ni] = style_phase((trace_phase)p);
        name[ni++] = style_phase_label((trace_phase)p);
    }
    int n = 0, nglyph = ni;
    glyph[ni] = ' '; st[ni] = ST_NORMAL; name[ni++] = "blank idle";
    for (int i = 0; i < ni; i++) {
        int need = (glyph[i] == ' ' ? 0 : 2) + (int)strlen(name[i]);
        /* keep room for the cut mark while glyphs remain */
        int tail = i < nglyph - 1 ? 5 : 0;
        if (n + need + tail > w && i < nglyph) {
            if (n + 3 <= w) cv_text(cv, y, x + n, w - n, ST_DIM, "...");
            return;
        }
        if (n + need > w) return;
        if (glyph[i] != ' ') { cv_put(cv, y, x + n, glyph[i], st[i]); n += 2; }
        n += cv_text(cv, y, x + n, w - n, ST_DIM, name[i]);
        n += 2;
    }
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
    if (a->v.want_row[0]) {
        /* a lesson names a row: select it, so the scroll below shows it */
        for (int i = 0; i < nrows; i++) {
            char lab[96], extra[64];
            row_label(a, &rows[i], lab, sizeof lab, extra, sizeof extra);
            if (strstr(lab, a->v.want_row)) { a->v.sel_row = i; break; }
        }
        a->v.want_row[0] = 0;
    }
    if (a->v.sel_row >= nrows) a->v.sel_row = nrows - 1;
    if (a->v.sel_row < 0) a->v.sel_row = 0;
    if (a->v.sel_row < a->v.top_row) a->v.top_row = a->v.sel_row;
    if (rh > 0 && a->v.sel_row >= a->v.top_row + rh) a->v.top_row = a->v.sel_row - rh + 1;
    if (a->v.top_row > nrows - rh) a->v.top_row = nrows - rh > 0 ? nrows - rh : 0;

    /* the label column grows with the terminal, up to what the labels need */
    int need = 16, lmax = in.w * 30 / 100 > 16 ? in.w * 30 / 100 : 16;
    for (int i = 0; i < rh && a->v.top_row + i < nrows; i++) {
        char lab[96], extra[64], ld[16];
        bool idle;
        const tl_row *r = &rows[a->v.top_row + i];
        row_label(a, r, lab, sizeof lab, extra, sizeof extra);
        int l = (int)strlen(lab) + (row_load(a, r, ld, sizeof ld, &idle) ? 6 : 0);
        if (extra[0] && l + 1 + (int)strlen(extra) < lmax) l += 1 + (int)strlen(extra);
        if (l > need) need = l;
    }
    int lw = need + 1 < lmax ? need + 1 : lmax, px = in.x + lw + 1, pw = in.w - lw - 1;
    a->ls.want[PANE_TIMELINE] = 1 + nrows + 2;     /* the axis, every row, the detail and the legend */
    a->v.plot_x = px;
    a->v.plot_w = pw;
    a->v.rows_y = ry;
    a->v.rows_h = rh;

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
    bool future_shown = false, unknown_shown = false;
    uint32_t drawn = 0, drawn_steps = 0;     /* what the legend explains */
    for (int i = 0; i < rh && a->v.top_row + i < nrows; i++) {
        const tl_row *r = &rows[a->v.top_row + i];
        int y = ry + i;
        char lab[96], extra[64], ld[16];
        row_label(a, r, lab, sizeof lab, extra, sizeof extra);
        bool sel = a->v.top_row + i == a->v.sel_row, idle = false;
        bool has_load = row_load(a, r, ld, sizeof ld, &idle);
        int room = lw - (has_load ? 6 : 0);
        /* the roles go before the name is cut */
        if (extra[0] && (int)(strlen(lab) + 1 + strlen(extra)) <= room) {
            size_t l = strlen(lab);
            snprintf(lab + l, sizeof lab - l, " %s", extra);
        }
        cv_fill(cv, (tui_rect){y, in.x, 1, lw}, ' ', sel ? ST_SELECT : ST_NORMAL);
        cv_text(cv, y, in.x, room, sel ? ST_SELECT : (r->kind == ROW_POOL ? ST_BOLD : ST_NORMAL), lab);
        if (has_load && lw >= 12)
            cv_printf(cv, y, in.x + lw - 5, 5, sel ? ST_SELECT : idle ? ST_BAD : ST_DIM, "%4s", ld);
        cv_put(cv, y, px - 1, G_VLINE, ST_AXIS);

        int sample[POOL_SAMPLE + 4], hostlink = -1;
        int ns = row_sample(a, r, sample, &hostlink);
        bool stepish = r->kind == ROW_STEP;
        sim_time since;
        int open = stepish ? sim_step_phase_open(a->run->s, &since) : -1;
        /* a co-located training pool is switching whenever the step row
        ** says so, also where no span of its own is recorded (between the
        ** reshard and the first prefill): its pool and stage rows show it */
        const plan *pl = sim_plan(a->run->s);
        bool switching_shown = r->kind != ROW_STEP && r->pool == pl->train_pool && pl->pools[r->pool].colocated
                               && (r->kind == ROW_POOL || r->kind == ROW_STAGES
                                   || trace_track_at(t, r->track)->kind == TRK_STAGE);
        int stk = switching_shown ? step_track(a->run) : -1;
        sim_time known = row_unknown_from(a, r, sample, ns);
        for (int c = 0; c < pw; c++) {
            sim_time c0 = t0 + (sim_time)(span * c / pw), c1 = t0 + (sim_time)(span * (c + 1) / pw);
            if (c1 <= c0) c1 = c0 + 1;
            int ch = ' ', st = ST_NORMAL;
            if (c0 < now) {
                int ph = -1;
                if (r->kind == ROW_STAGES) {
                    ph = pool_cell(a, r->pool, c0, c1, sample, ns);
                } else if (r->kind == ROW_POOL) {
                    ph = pool_cell(a, r->pool, c0, c1, sample, ns);
                    /* devices busy moving states to or from the host are busy */
                    if (ph < 0 && hostlink >= 0) ph = pool_cell(a, r->pool, c0, c1, &hostlink, 1);
                } else {
                    long k = run_span_in(a->run, r->track, c0, c1);
                    if (k >= 0) ph = trace_spans(t)[k].phase;
                    /* the step phase under way has no span yet: draw it to the clock */
                    if (ph < 0 && stepish && !run_over(a->run) && c1 > since) ph = open;
                }
                if (ph < 0 && stk >= 0) {
                    long k = run_span_in(a->run, stk, c0, c1);
                    sim_time s0;
                    int op = sim_step_phase_open(a->run->s, &s0);
                    if ((k >= 0 && trace_spans(t)[k].phase == STEP_SWITCH) || (k < 0 && op == STEP_SWITCH && c1 > s0))
                        ph = PH_RESHARD;
                }
                if (ph >= 0 && ph < 32) *(stepish ? &drawn_steps : &drawn) |= 1u << ph;
                if (ph >= 0) {
                    ch = stepish ? style_step_letter((trace_step_phase)ph) : style_phase_letter((trace_phase)ph);
                    st = stepish ? style_step((trace_step_phase)ph) : style_phase((trace_phase)ph);
                } else if (known >= 0 && c0 >= known) {
                    ch = G_FUTURE;
                    st = ST_FUTURE;
                    unknown_shown = true;
                }
            } else if (!run_over(a->run)) {
                ch = G_FUTURE;
                st = ST_FUTURE;
                future_shown = true;
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
    if (extras >= 2) legend(a, cv, in.y + in.h - 1, in.x, in.w, drawn, drawn_steps, future_shown, unknown_shown);
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
            else if (r->kind == ROW_STAGES && r->pool < SCN_POOLS_MAX) a->v.stages_open[r->pool] = !a->v.stages_open[r->pool];
            else if (r->kind == ROW_TRACK) a->v.track_open[r->track] = !a->v.track_open[r->track];
            else if (r->kind == ROW_DEVICE) {
                a->v.track_open[r->track] = false;
                /* back to the track's own row */
                for (int i = a->v.sel_row; i >= 0; i--)
                    if (rows[i].kind == ROW_TRACK && rows[i].track == r->track) { a->v.sel_row = i; break; }
            } else re = RE_HANDLED;     /* the step row does not expand */
        } else re = RE_HANDLED;
        remember_open(a);
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
