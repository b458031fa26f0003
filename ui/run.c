/*
** run.c — a simulation plus the incremental indices the panes read (run.h).
*/
#include "run.h"
#include "style.h"
#include "uncert.h"

#include <stdlib.h>
#include <string.h>

tui_run *run_new(const runner_spec *spec, const char *label, fs_err *err)
{
    runner *rn = runner_open(spec, err);
    if (!rn) return NULL;
    tui_run *r = xcalloc(1, sizeof *r);
    r->rn = rn;
    r->s = runner_sim(rn);
    r->scn = *runner_scenario(rn);
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
    /* seed the event queue now, so the first slice is bounded like any other */
    runner_advance(rn, 0);
    const trace *t = sim_trace(r->s);
    r->ntracks = trace_ntracks(t);
    r->tracks = xcalloc((size_t)(r->ntracks ? r->ntracks : 1), sizeof *r->tracks);
    r->span_hint = xcalloc((size_t)(r->ntracks ? r->ntracks : 1), sizeof *r->span_hint);
    r->ngroups = trace_nmemgroups(t);
    r->ctr = xcalloc((size_t)(r->ngroups ? r->ngroups : 1) * MB__COUNT, sizeof *r->ctr);
    r->track_busy = xcalloc((size_t)(r->ntracks ? r->ntracks : 1), sizeof *r->track_busy);
    r->track_pend = xcalloc((size_t)(r->ntracks ? r->ntracks : 1), sizeof *r->track_pend);
    r->track_spans = xcalloc((size_t)(r->ntracks ? r->ntracks : 1), sizeof *r->track_spans);
    run_sync(r);
    return r;
}

void run_free(tui_run *r)
{
    if (!r) return;
    for (int i = 0; i < r->ntracks; i++) free(r->tracks[i].e);
    for (int i = 0; i < r->ngroups * MB__COUNT; i++) free(r->ctr[i].ord);
    free(r->tracks);
    free(r->span_hint);
    free(r->track_busy);
    free(r->track_pend);
    free(r->track_spans);
    free(r->ctr);
    free(r->pend);
    free(r->ver_t);
    runner_free(r->rn);
    free(r);
}

bool run_over(const tui_run *r) { return runner_done(r->rn); }
sim_time run_now(const tui_run *r) { return sim_now(r->s); }

bool run_advance(tui_run *r, sim_time until, uint64_t max_events)
{
    return runner_advance_to(r->rn, until, max_events);
}

/* ------------------------------------------------------------- indices */

static void track_insert(run_track_idx *x, const trace_span *sp, uint32_t idx)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->e = xrealloc(x->e, x->cap * sizeof *x->e);
    }
    /* spans arrive nearly sorted: insertion from the end is cheap */
    sim_time t0 = sp[idx].t0;
    size_t k = x->n;
    while (k > 0) {
        const run_span_ent *p = &x->e[k - 1];
        if (p->t0 < t0 || (p->t0 == t0 && p->idx < idx)) break;
        x->e[k] = x->e[k - 1];
        k--;
    }
    x->e[k] = (run_span_ent){t0, sp[idx].t1, 0, idx};
    x->n++;
    for (size_t i = k; i < x->n; i++) {
        sim_time t1 = x->e[i].t1;
        sim_time prev = i ? x->e[i - 1].maxt1 : INT64_MIN;
        x->e[i].maxt1 = t1 > prev ? t1 : prev;
    }
}

static void ctr_insert(run_ctr_idx *x, const trace_counter *c, uint32_t idx)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 64;
        x->ord = xrealloc(x->ord, x->cap * sizeof *x->ord);
    }
    size_t k = x->n;
    while (k > 0 && c[x->ord[k - 1]].t > c[idx].t) { x->ord[k] = x->ord[k - 1]; k--; }
    x->ord[k] = idx;
    x->n++;
}

static void add_span_time(tui_run *r, const trace *t, const trace_span *sp, sim_time a, sim_time b,
                          double *busy, double *comp, double *step)
{
    if (b <= a) return;
    const trace_track *tk = trace_track_at(t, sp->track);
    double secs = sim_secs(b - a);
    if (sp->phase != PH_IDLE || tk->kind == TRK_STEP)
        (step == r->step_ns ? r->track_busy : r->track_pend)[sp->track] += secs;
    if (tk->kind == TRK_STEP) {
        if (sp->phase < STEP__COUNT) step[sp->phase] += (double)(b - a);
        return;
    }
    if (tk->pool < 0 || tk->pool >= SCN_POOLS_MAX || tk->kind == TRK_HOSTLINK) return;
    busy[tk->pool] += secs * tk->devices;
    if (trace_phase_is_compute((trace_phase)sp->phase)) comp[tk->pool] += secs * tk->devices;
    (void)r;
}

void run_sync(tui_run *r)
{
    const trace *t = sim_trace(r->s);
    const trace_span *sp = trace_spans(t);
    sim_time now = sim_now(r->s);

    size_t nc = trace_ncounters(t);
    const trace_counter *c = trace_counters(t);
    for (size_t i = r->ctr_seen; i < nc; i++) {
        if (c[i].group < 0 || c[i].group >= r->ngroups || c[i].bucket >= MB__COUNT) continue;
        ctr_insert(&r->ctr[c[i].group * MB__COUNT + c[i].bucket], c, (uint32_t)i);
    }
    r->ctr_seen = nc;

    /* the new spans, in the order recorded (one pass over the trace's
    ** array): into their track's index, and into the running totals, whole
    ** once they are in the past, the rest clipped */
    size_t ns = trace_nspans(t);
    /* room for every new span of each track at once: a slice of many spans
    ** (a run played to its end) grows each index once, not by doublings */
    for (int k = 0; k < r->ntracks; k++) {
        run_track_idx *x = &r->tracks[k];
        size_t need = trace_track_nspans(t, k);
        if (need > x->cap) {
            x->cap = need > 2 * x->cap ? need : 2 * x->cap;
            x->e = xrealloc(x->e, x->cap * sizeof *x->e);
        }
    }
    for (size_t i = r->spans_seen; i < ns; i++) {
        if (sp[i].track < 0 || sp[i].track >= r->ntracks) continue;
        track_insert(&r->tracks[sp[i].track], sp, (uint32_t)i);
        if (trace_track_at(t, sp[i].track)->kind != TRK_STEP && sp[i].phase < 32) r->phases_seen |= 1u << sp[i].phase;
        else if (sp[i].phase < 32) r->steps_seen |= 1u << sp[i].phase;
        r->track_spans[sp[i].track]++;
        if (sp[i].t1 <= now) {
            add_span_time(r, t, &sp[i], sp[i].t0, sp[i].t1, r->busy, r->comp, r->step_ns);
        } else {
            if (r->npend == r->cappend) {
                r->cappend = r->cappend ? 2 * r->cappend : 64;
                r->pend = xrealloc(r->pend, r->cappend * sizeof *r->pend);
            }
            r->pend[r->npend++].idx = (uint32_t)i;
        }
    }
    r->spans_seen = ns;
    memset(r->pend_busy, 0, sizeof r->pend_busy);
    memset(r->pend_comp, 0, sizeof r->pend_comp);
    memset(r->pend_step, 0, sizeof r->pend_step);
    memset(r->track_pend, 0, (size_t)r->ntracks * sizeof *r->track_pend);
    size_t keep = 0;
    for (size_t i = 0; i < r->npend; i++) {
        const trace_span *p = &sp[r->pend[i].idx];
        if (p->t1 <= now) {
            add_span_time(r, t, p, p->t0, p->t1, r->busy, r->comp, r->step_ns);
        } else {
            add_span_time(r, t, p, p->t0, now, r->pend_busy, r->pend_comp, r->pend_step);
            r->pend[keep++] = r->pend[i];
        }
    }
    r->npend = keep;
    r->synced_to = now;

    size_t ni = trace_ninstants(t);
    const trace_instant *in = trace_instants(t);
    for (size_t i = r->inst_seen; i < ni; i++) {
        if (in[i].kind != INST_VERSION) continue;
        if (r->nver == r->capver) {
            r->capver = r->capver ? 2 * r->capver : 16;
            r->ver_t = xrealloc(r->ver_t, (size_t)r->capver * sizeof *r->ver_t);
        }
        r->ver_t[r->nver++] = in[i].t;
    }
    if (r->nver && (r->ntok == 0 || r->tok_t[1] != r->ver_t[r->nver - 1])) {
        /* tokens are counted when a step finishes, so this pairs exactly */
        r->tok_t[0] = r->tok_t[1];
        r->tok_v[0] = r->tok_v[1];
        r->tok_t[1] = r->ver_t[r->nver - 1];
        r->tok_v[1] = sim_get_stats(r->s)->tokens_trained;
        r->ntok++;
    }
    r->inst_seen = ni;

    if (runner_done(r->rn) && !r->report_ready) {
        /* a run stopped by an error still has a report: it says why */
        fs_err e = {0, ""};
        /* and its interval, as fusync run reports it (src/uncert.c) */
        if (runner_close(r->rn, &r->rep, &e) && r->rep.feasible)
            unc_interval(runner_scenario(r->rn), UNC_DRAWS, &r->rep, &e);
        r->report_ready = true;
    }
}

/* -------------------------------------------------------------- queries */

/* First position in x whose span starts after t, searched from *hint (where
** the last search landed; left where this one lands): doubling steps from
** there bracket the answer, then a binary search inside the bracket. */
static size_t upper_t0(const run_track_idx *x, sim_time t, size_t *hint)
{
    size_t h = *hint <= x->n ? *hint : x->n, lo, hi;
    if (h == 0 || x->e[h - 1].t0 <= t) {
        /* the answer is at or after h */
        lo = h;
        size_t step = 1;
        hi = h;
        while (hi < x->n && x->e[hi].t0 <= t) {
            lo = hi + 1;
            hi = step < x->n - hi ? hi + step : x->n;
            step *= 2;
        }
    } else {
        /* before h: e[h - 1] starts after t */
        hi = h - 1;
        size_t step = 1;
        lo = hi;
        while (lo > 0 && x->e[lo - 1].t0 > t) {
            hi = lo - 1;
            lo = step < lo ? lo - step : 0;
            step *= 2;
        }
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->e[mid].t0 <= t) lo = mid + 1;
        else hi = mid;
    }
    *hint = lo;
    return lo;
}

static sim_time overlap(const run_span_ent *s, sim_time a, sim_time b)
{
    sim_time lo = s->t0 > a ? s->t0 : a, hi = s->t1 < b ? s->t1 : b;
    /* zero-length spans still count when they sit inside the cell */
    if (s->t0 == s->t1 && s->t0 >= a && s->t0 < b) return 1;
    return hi > lo ? hi - lo : 0;
}

long run_span_in(const tui_run *r, int track, sim_time a, sim_time b)
{
    if (track < 0 || track >= r->ntracks) return -1;
    const run_track_idx *x = &r->tracks[track];
    sim_time now = sim_now(r->s);
    if (b > now) b = now;
    if (b <= a) {
        if (a == b && a <= now) b = a + 1;   /* an instant query */
        else return -1;
    }
    if (x->n == 0) return -1;
    sim_time mid = a + (b - a) / 2;
    size_t i = upper_t0(x, mid, &r->span_hint[track]);
    long best = -1;
    sim_time bestov = 0;
    /* backwards: spans starting at or before mid that reach into [a, b);
    ** the running max of t1 says when nothing earlier can */
    int budget = 24;
    for (size_t k = i; k-- > 0 && budget-- > 0;) {
        const run_span_ent *s = &x->e[k];
        if (s->maxt1 <= a) break;
        sim_time ov = overlap(s, a, b);
        if (ov > bestov) { bestov = ov; best = (long)s->idx; }
    }
    /* forwards: spans starting inside (mid, b) */
    budget = 24;
    for (size_t k = i; k < x->n && budget-- > 0; k++) {
        const run_span_ent *s = &x->e[k];
        if (s->t0 >= b) break;
        sim_time ov = overlap(s, a, b);
        if (ov > bestov) { bestov = ov; best = (long)s->idx; }
    }
    return best;
}

double run_mem_at(const tui_run *r, int group, mem_bucket b, sim_time t)
{
    if (group < 0 || group >= r->ngroups || (unsigned)b >= MB__COUNT) return 0;
    const run_ctr_idx *x = &r->ctr[group * MB__COUNT + b];
    const trace_counter *c = trace_counters(sim_trace(r->s));
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c[x->ord[mid]].t <= t) lo = mid + 1;
        else hi = mid;
    }
    return lo ? c[x->ord[lo - 1]].bytes : 0;
}

void run_pool_shares(const tui_run *r, int pool, double *compute, double *busy)
{
    *compute = *busy = 0;
    if (pool < 0 || pool >= SCN_POOLS_MAX) return;
    const plan *pl = sim_plan(r->s);
    if (pool >= pl->npools) return;
    double denom = sim_secs(r->synced_to) * pl->pools[pool].devices;
    if (denom <= 0) return;
    *compute = (r->comp[pool] + r->pend_comp[pool]) / denom;
    *busy = (r->busy[pool] + r->pend_busy[pool]) / denom;
    if (*compute > 1) *compute = 1;
    if (*busy > 1) *busy = 1;
}

void run_step_split(const tui_run *r, double secs[STEP__COUNT])
{
    for (int k = 0; k < STEP__COUNT; k++) secs[k] = (r->step_ns[k] + r->pend_step[k]) * 1e-9;
    /* the phase under way has no span until it ends: count it to the clock */
    sim_time since, now = sim_now(r->s);
    int open = sim_step_phase_open(r->s, &since);
    if (!runner_done(r->rn) && open >= 0 && open < STEP__COUNT && since < now) {
        /* spans already cover part of it when the engine split the phase */
        sim_time from = since;
        const run_track_idx *x = NULL;
        for (int k = 0; k < r->ntracks; k++)
            if (trace_track_at(sim_trace(r->s), k)->kind == TRK_STEP) { x = &r->tracks[k]; break; }
        if (x && x->n && x->e[x->n - 1].maxt1 > from) from = x->e[x->n - 1].maxt1;
        if (from < now) secs[open] += sim_secs(now - from);
    }
}

int run_versions_at(const tui_run *r, sim_time t)
{
    int lo = 0, hi = r->nver;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->ver_t[mid] <= t) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

sim_time run_track_known_to(const tui_run *r, int track)
{
    if (track < 0 || track >= r->ntracks || !sim_track_decoding(r->s, track)) return -1;
    return r->tracks[track].n ? r->tracks[track].e[r->tracks[track].n - 1].maxt1 : 0;
}

double run_track_load(const tui_run *r, int track)
{
    if (track < 0 || track >= r->ntracks || r->synced_to <= 0) return 0;
    const trace_track *tk = trace_track_at(sim_trace(r->s), track);
    (void)tk;
    double v = (r->track_busy[track] + r->track_pend[track]) / sim_secs(r->synced_to);
    return v > 1 ? 1 : v < 0 ? 0 : v;
}

void run_describe_since(const tui_run *r, size_t nspans, size_t ninst, char *out, size_t n)
{
    const trace *t = sim_trace(r->s);
    size_t ns = trace_nspans(t), ni = trace_ninstants(t);
    out[0] = 0;
    size_t len = 0;
    const trace_instant *in = trace_instants(t);
    for (size_t i = ninst; i < ni && len < n; i++) {
        char b[64];
        switch (in[i].kind) {
        case INST_ITER_BEGIN: snprintf(b, sizeof b, "step %d begins", in[i].iter + 1); break;
        case INST_ITER_END: snprintf(b, sizeof b, "step %d ends", in[i].iter + 1); break;
        case INST_VERSION: snprintf(b, sizeof b, "policy v%d published", in[i].version); break;
        case INST_PREEMPT: snprintf(b, sizeof b, "%d sequences preempted", in[i].count); break;
        default: snprintf(b, sizeof b, "step %d takes %d samples", in[i].iter + 1, in[i].count); break;
        }
        len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "; " : "", b);
    }
    const trace_span *sp = trace_spans(t);
    size_t shown = 0, more = 0;
    for (size_t i = nspans; i < ns; i++) {
        if (sp[i].track < 0 || sp[i].track >= r->ntracks) continue;
        if (shown == 2) { more++; continue; }
        const trace_track *tk = trace_track_at(t, sp[i].track);
        bool step = tk->kind == TRK_STEP;
        const char *ph = step ? trace_step_phase_name((trace_step_phase)sp[i].phase) : trace_phase_name((trace_phase)sp[i].phase);
        char d[24];
        style_fmt_time(d, sizeof d, sp[i].t1 - sp[i].t0);
        if (len < n) len += (size_t)snprintf(out + len, n - len, "%s%s %s %s (step %d)", len ? "; " : "", tk->name, ph, d,
                                             sp[i].iter + 1);
        shown++;
    }
    if (more && len < n) snprintf(out + len, n - len, " and %zu more span%s", more, more == 1 ? "" : "s");
}

double run_current_throughput(const tui_run *r)
{
    if (r->ntok < 1) return 0;
    sim_time t0 = r->ntok >= 2 ? r->tok_t[0] : 0;
    double v0 = r->ntok >= 2 ? r->tok_v[0] : 0;
    if (r->tok_t[1] <= t0) return 0;
    return (r->tok_v[1] - v0) / sim_secs(r->tok_t[1] - t0);
}
