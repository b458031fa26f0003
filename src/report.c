/*
** report.c — read a finished run into figures; print them.
*/
#include "report.h"
#include "fields.h"
#include "fwnames.h"
#include "model.h"
#include "report_fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MFU of one phase: `flops` model FLOPs per step over devices × peak × time. */
static double mfu_of(double flops, int devices, double peak, double secs)
{
    return devices > 0 && peak > 0 && secs > 0 ? flops / (devices * peak * secs) : 0;
}

/* The figures a table row cannot read from one member: those that need the
** run itself (its scenario, plan, trace and clock) and the summaries other
** code reads by name.  The engine's counters are copied whole. */
void report_compute(const sim *s, report *r)
{
    memset(r, 0, sizeof *r);
    const scn_scenario *sc = sim_scenario(s);
    const plan *pl = sim_plan(s);
    const sim_stats *st = sim_get_stats(s);
    const trace *t = sim_trace(s);
    r->stats = *st;
    snprintf(r->scenario, sizeof r->scenario, "%s", sc->name);
    snprintf(r->mode, sizeof r->mode, "%s", scn_mode_name(sc->plan.mode));
    r->iterations = sc->work.iterations;
    r->warmup = sc->work.warmup;
    r->devices = pl->used_devices;
    r->sim_wall_s = sim_wall_seconds(s);
    r->sim_loop_wall_s = r->sim_wall_s - st->task_wall_s - st->setup_wall_s;
    r->sim_time_s = sim_secs(sim_now(s));
    r->staleness_bound = sc->plan.staleness;
    r->stale_share = sc->plan.stale_share;
    sim_time w0 = st->window_t0, w1 = st->window_t1 > 0 ? st->window_t1 : sim_now(s);
    r->window_s = sim_secs(w1 - w0);
    int measured = st->iterations_done - sc->work.warmup;
    if (r->window_s > 0 && measured > 0) {
        r->throughput = st->measured_tokens / r->window_s;
        r->throughput_per_device = r->throughput / pl->used_devices;
        r->step_time_s = r->window_s / measured;
        for (int k = 0; k < STEP__COUNT; k++) r->phase_s[k] = sim_secs(st->step_phase_ns[k]) / measured;
        for (int k = 0; k < INF__COUNT; k++) r->infer_s[k] = sim_secs(st->infer_part_ns[k]) / measured;
    }
    /* utilization per pool: the device-seconds of its spans in the window,
    ** summed as they were recorded (trace_window_totals) */
    r->npools = pl->npools;
    double comp[SCN_POOLS_MAX] = {0}, busy[SCN_POOLS_MAX] = {0};
    trace_window_totals(t, w0, w1, pl->npools, busy, comp);
    for (int p = 0; p < pl->npools; p++) {
        report_pool *rp = &r->pools[p];
        snprintf(rp->name, sizeof rp->name, "%s", pl->pools[p].name);
        rp->devices = pl->pools[p].devices;
        plan_roles_str(pl->pools[p].roles, rp->roles, sizeof rp->roles);
        double denom = r->window_s * rp->devices;
        if (denom > 0) {
            rp->utilization = comp[p] / denom;
            rp->busy = busy[p] / denom;
            if (rp->busy > 1) rp->busy = 1;
            if (rp->utilization > 1) rp->utilization = 1;
            rp->idle = 1 - rp->busy;
        }
    }
    /* memory */
    r->mem_capacity = scn_device_cuda_total(&sc->cluster.device);    /* until a device group's peak names its own */
    r->host_capacity = sc->cluster.host_mem_bytes;
    for (int g = 0; g < trace_nmemgroups(t); g++) {
        const trace_memgroup *mg = trace_memgroup_at(t, g);
        sim_time when;
        double tot = sim_mem_peak_total(s, g, &when);
        if (mg->host) {
            if (tot > r->host_peak) r->host_peak = tot;
            continue;
        }
        for (int b = 0; b < MB__COUNT; b++) {
            double v = sim_mem_peak(s, g, b);
            if (v > r->mem_peak[b]) {
                r->mem_peak[b] = v;
                snprintf(r->mem_peak_group[b], sizeof r->mem_peak_group[b], "%s", mg->name);
            }
        }
        if (tot > r->mem_peak_total) {
            r->mem_peak_total = tot;
            r->mem_peak_total_t = sim_secs(when);
            r->mem_capacity = mg->capacity;      /* its pool's device (plan_pool_device) */
            snprintf(r->mem_peak_total_group, sizeof r->mem_peak_total_group, "%s", mg->name);
        }
    }
    /* feasibility */
    r->feasible = true;
    if (st->overflow.happened) {
        const trace_memgroup *mg = trace_memgroup_at(t, st->overflow.group);
        char over[32], cap[32];
        fmt_bytes(over, sizeof over, st->overflow.over_bytes);
        fmt_bytes(cap, sizeof cap, st->overflow.capacity);
        r->feasible = false;
        snprintf(r->why, sizeof r->why, "%s memory of %s (devices %d..%d) over capacity by %s at t = %.3f s, "
                 "while %s grew (capacity %s%s)",
                 mg->host ? "host" : "device", mg->name, mg->first_device,
                 mg->host ? mg->first_device + mg->devices * sc->cluster.devices_per_node - 1
                          : plan_dev_after(&sim_plan(s)->pools[mg->pool], mg->first_device, mg->devices - 1),
                 over, sim_secs(st->overflow.t), trace_bucket_name((mem_bucket)st->overflow.bucket), cap,
                 mg->host ? " per node" : " per device");
    } else if (sim_error(s) && sim_error(s)->code == 1) {
        r->feasible = false;
        snprintf(r->why, sizeof r->why, "%s", sim_error(s)->msg);
    }
    /* the engine keeps the first overflow; every other group whose peak
    ** passed its capacity is named too, so a host overflow behind a device
    ** one is not hidden */
    if (st->overflow.happened)
        for (int g = 0; g < trace_nmemgroups(t); g++) {
            const trace_memgroup *mg = trace_memgroup_at(t, g);
            double peak = sim_mem_peak_total(s, g, NULL);
            if (g == st->overflow.group || !(peak > mg->capacity * (1 + 1e-9))) continue;
            char pk[32], cap[32];
            fmt_bytes_of(pk, sizeof pk, peak, mg->capacity);
            fmt_bytes(cap, sizeof cap, mg->capacity);
            size_t len = strlen(r->why);
            snprintf(r->why + len, sizeof r->why - len, "; also %s memory of %s peaks at %s of %s%s",
                     mg->host ? "host" : "device", mg->name, pk, cap, mg->host ? " per node" : " per device");
        }
    /* a node's host memory over the pools that share it (docs/model.md,
    ** section 8, "One host memory a node"): each pool's host group peaks per
    ** node at its host bytes a device times its fullest node's devices
    ** (plan_host_devices); a node holds the sum of those bytes a device times
    ** each pool's devices on it, the check's sum (plan_host_sum) over the
    ** ledger's peaks */
    double per[SCN_POOLS_MAX] = {0};
    bool fills[SCN_POOLS_MAX] = {false};
    for (int g = 0; g < trace_nmemgroups(t); g++) {
        const trace_memgroup *mg = trace_memgroup_at(t, g);
        if (!mg->host || mg->pool < 0 || mg->pool >= pl->npools) continue;
        double peak = sim_mem_peak_total(s, g, NULL);
        per[mg->pool] = peak / plan_host_devices(&sc->cluster, &pl->pools[mg->pool]);
        fills[mg->pool] = peak > mg->capacity * (1 + 1e-9);
    }
    plan_host_nodes hn;
    plan_host_sum_of(&sc->cluster, pl, per, fills, &hn);
    /* the report's host peak is a node's, so the fullest node's sum when
    ** pools share one, as check's host_peak_node_bytes */
    if (hn.bytes > r->host_peak) r->host_peak = hn.bytes;
    if (hn.over_node >= 0) {
        char pk[32], cap[32], part[32];
        fmt_bytes_of(pk, sizeof pk, hn.over_bytes, sc->cluster.host_mem_bytes);
        fmt_bytes(cap, sizeof cap, sc->cluster.host_mem_bytes);
        size_t len = strlen(r->why);
        snprintf(r->why + len, sizeof r->why - len, "%shost memory of node %d peaks at %s of %s over its pools (",
                 r->feasible ? "" : "; also ", hn.over_node, pk, cap);
        bool any = false;
        for (int i = 0; i < pl->npools; i++) {
            if (hn.over_pool[i] <= 0) continue;
            fmt_bytes(part, sizeof part, hn.over_pool[i]);
            len = strlen(r->why);
            snprintf(r->why + len, sizeof r->why - len, "%s%s %s", any ? ", " : "", pl->pools[i].name, part);
            any = true;
        }
        len = strlen(r->why);
        snprintf(r->why + len, sizeof r->why - len, ")");
        r->feasible = false;
    }
    /* staleness: the bound hooks left, the mean lag trained */
    int64_t n = 0;
    for (int k = 0; k <= SCN_STALENESS_MAX; k++) n += st->lag_hist[k];
    r->lag_mean = n ? st->lag_sum / n : 0;
    r->bound_final = sim_get_staleness(s);
    r->lag_top = st->bound_max > st->lag_max ? st->bound_max : st->lag_max;
    if (r->lag_top > SCN_STALENESS_MAX) r->lag_top = SCN_STALENESS_MAX;
    /* DistQueue (eng_queue_transfer in eng_step.c): reads served with
    ** hierarchical transfer per read without, the training pool's read time
    ** per step */
    r->dq_load_factor = st->dq_reads_flat > 0 ? st->dq_reads_hier / st->dq_reads_flat : 0;
    r->dq_time_s = st->iterations_done > 0 ? st->queue_time_s / st->iterations_done : 0;
    /* MFU: the actor's model FLOPs (mdl_fwd_flops, docs/model.md) of a
    ** measured step's tokens at their mean length.  Generation decodes the
    ** response tokens (one forward each) on the rollout devices; inference
    ** is the training pool's forwards (the old log-probs, and the
    ** reference's and a reward model's when that pool holds them); training is forward and backward (3 forwards) over
    ** every epoch, the actor alone (a critic's FLOPs are left out). */
    if (measured > 0 && st->samples_trained > 0 && st->tokens_trained > 0) {
        double tok = st->measured_tokens / measured;
        double seq = st->tokens_trained / (double)st->samples_trained;
        double resp = tok * (st->tokens_trained_response / st->tokens_trained);
        /* each pool's own device type (plan_pool_device): the rollout
        ** devices' peak for generation, the training pool's for the rest */
        double peak = plan_pool_device(sc, &pl->pools[pl->train_pool])->peak_flops;
        double fwd = mdl_fwd_flops(&sc->actor, tok, seq);
        r->flops_per_token = tok > 0 ? fwd / tok : 0;
        int ntrain = pl->pools[pl->train_pool].devices;
        /* generation's device time a step: the training pool generates
        ** during its own generate phase (co-located), a pool of rollout
        ** devices for its compute spans in the window (decode, prefill and
        ** any forward it also holds; trace_window_totals); the step's generate phase alone
        ** is only the share the training pool waits for, which hides
        ** under asynchrony */
        double gen_cap = 0;
        for (int p = 0; p < pl->npools; p++) {
            if (!(pl->pools[p].roles & ROLE_ROLLOUT)) continue;
            double secs = p == pl->train_pool ? pl->pools[p].devices * r->phase_s[STEP_GENERATE]
                                              : comp[p] / measured;
            gen_cap += plan_pool_device(sc, &pl->pools[p])->peak_flops * secs;
        }
        r->mfu_generate = gen_cap > 0 ? mdl_fwd_flops(&sc->actor, resp, seq) / gen_cap : 0;
        /* inference is read off the training pool's timeline (its P_INFER,
        ** src/eng_step.c): the forwards that pool runs — the actor's old
        ** log-probs, and the reference's and a reward model's when they
        ** live there.  On pools of their own (OpenRLHF's groups) they run
        ** beside generation, outside this phase, and are not counted. */
        const plan_pool *tp = &pl->pools[pl->train_pool];
        double inf_flops = fwd;
        if (sc->has_ref && (tp->roles & ROLE_REF)) inf_flops += mdl_fwd_flops(&sc->ref, tok, seq);
        if (sc->reward_is_model && (tp->roles & ROLE_REWARD)) inf_flops += mdl_fwd_flops(&sc->reward, tok, seq);
        r->mfu_inference = mfu_of(inf_flops, ntrain, peak, r->phase_s[STEP_INFER]);
        r->mfu_train = mfu_of(3 * fwd * sc->work.epochs, ntrain, peak, r->phase_s[STEP_TRAIN]);
    }
}

/* -------------------------------------------------------------- steps */

struct report_steps {
    trace_sink next;
    bool       has_next;
    int        track;           /* the step track */
    int        n, cap;
    report_step *v;
};

static report_step *step_slot(report_steps *w, int step)
{
    if (step < 0 || step >= FLD_ITERATIONS_MAX) return NULL;
    while (w->n <= step) {
        if (w->n == w->cap) {
            w->cap = w->cap ? w->cap * 2 : 64;
            w->v = xrealloc(w->v, sizeof *w->v * (size_t)w->cap);
        }
        memset(&w->v[w->n], 0, sizeof w->v[0]);
        w->v[w->n].step = w->n;
        w->v[w->n].start_s = -1;
        w->n++;
    }
    return &w->v[step];
}

static void steps_span(report_steps *w, const trace_span *sp)
{
    /* the step track's spans carry the step phase and the version they
    ** started under: the step being trained is that version */
    if (sp->track != w->track || sp->phase >= STEP__COUNT) return;
    report_step *x = step_slot(w, sp->version);
    if (!x) return;
    double a = sim_secs(sp->t0), b = sim_secs(sp->t1);
    if (x->start_s < 0 || a < x->start_s) x->start_s = a;
    if (b > x->end_s) x->end_s = b;
    x->phase_s[sp->phase] += b - a;
}

static void st_on_span(void *ud, const trace *t, const trace_span *sp)
{
    report_steps *w = ud;
    steps_span(w, sp);
    if (w->has_next && w->next.on_span) w->next.on_span(w->next.ud, t, sp);
}

static void st_on_spans(void *ud, const trace *t, const trace_span *sp, size_t n)
{
    report_steps *w = ud;
    for (size_t i = 0; i < n; i++) steps_span(w, &sp[i]);
    if (!w->has_next) return;
    if (w->next.on_spans) w->next.on_spans(w->next.ud, t, sp, n);
    else if (w->next.on_span) for (size_t i = 0; i < n; i++) w->next.on_span(w->next.ud, t, &sp[i]);
}

static void st_on_counter(void *ud, const trace *t, const trace_counter *c)
{
    report_steps *w = ud;
    if (w->has_next && w->next.on_counter) w->next.on_counter(w->next.ud, t, c);
}

static void st_on_instant(void *ud, const trace *t, const trace_instant *i)
{
    report_steps *w = ud;
    if (w->has_next && w->next.on_instant) w->next.on_instant(w->next.ud, t, i);
}

static void st_on_window(void *ud, const trace *t, const trace_window *x)
{
    report_steps *w = ud;
    if (w->has_next && w->next.on_window) w->next.on_window(w->next.ud, t, x);
}

static void st_on_vgroup(void *ud, const trace *t, const trace_vgroup *g)
{
    report_steps *w = ud;
    if (w->has_next && w->next.on_vgroup) w->next.on_vgroup(w->next.ud, t, g);
}

report_steps *report_steps_attach(sim *s, const trace_sink *next)
{
    report_steps *w = xcalloc(1, sizeof *w);
    if (next) { w->next = *next; w->has_next = true; }
    const trace *t = sim_trace(s);
    w->track = -1;
    for (int i = 0; i < trace_ntracks(t); i++)
        if (trace_track_at(t, i)->kind == TRK_STEP) w->track = i;
    /* spans stored before the watcher came (none in a run not yet started) */
    for (size_t i = 0; i < trace_nspans(t); i++) steps_span(w, &trace_spans(t)[i]);
    trace_sink sk = {st_on_span, st_on_counter, st_on_instant, st_on_window, w, st_on_vgroup, st_on_spans};
    trace_set_sink(sim_trace_mut(s), &sk);
    return w;
}

void report_steps_free(report_steps *w)
{
    if (!w) return;
    free(w->v);
    free(w);
}

int report_steps_count(const report_steps *w) { return w ? w->n : 0; }
const report_step *report_steps_at(const report_steps *w, int i) { return w && i >= 0 && i < w->n ? &w->v[i] : NULL; }

void report_steps_finish(report_steps *w, const sim *s)
{
    const sim_stats *st = sim_get_stats(s);
    const trace *t = sim_trace(s);
    double rshare = st->tokens_trained > 0 ? st->tokens_trained_response / st->tokens_trained : 0;
    /* only steps that trained: a step begun when the run stopped is left out */
    if (w->n > st->iterations_done) w->n = st->iterations_done;
    for (int i = 0; i < w->n; i++) {
        report_step *x = &w->v[i];
        double mx;
        sim_step_lengths(s, i, &x->tokens, &mx);
        x->resp_tokens = x->tokens * rshare;
        if (x->start_s < 0) x->start_s = 0;
    }
    /* the lag each step trained at, from its staleness window (kept for
    ** every step); the last bucket counts that lag and more, so a mean
    ** with lags past it is a lower bound */
    for (size_t k = 0; k < trace_nwindows(t); k++) {
        const trace_window *tw = &trace_windows(t)[k];
        if (tw->iter < 0 || tw->iter >= w->n) continue;
        double n = 0, sum = 0;
        for (int l = 0; l < TRACE_LAGS; l++) { n += tw->lag_count[l]; sum += (double)l * tw->lag_count[l]; }
        w->v[tw->iter].lag_mean = n > 0 ? sum / n : 0;
    }
}

static void step_fw(const report_step *x, int devices, fwn_step *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->phase_s, x->phase_s, sizeof f->phase_s);
    f->step_s = x->end_s - x->start_s;
    f->tokens = x->tokens;
    f->tput_device = f->step_s > 0 && devices > 0 ? x->tokens / f->step_s / devices : 0;
    f->resp_tput_device = f->step_s > 0 && devices > 0 ? x->resp_tokens / f->step_s / devices : 0;
    /* the inference parts are not split per step: all of it goes to each
    ** key that names a part in proportion to the run's own split */
}

/* A step's inference parts in the run's proportions (the engine splits the
** inference phase by part over the window only). */
static void step_parts(const sim *s, const report_step *x, fwn_step *f)
{
    const sim_stats *st = sim_get_stats(s);
    double tot = 0;
    for (int k = 0; k < INF__COUNT; k++) tot += (double)st->infer_part_ns[k];
    for (int k = 0; k < INF__COUNT; k++)
        f->infer_s[k] = tot > 0 ? x->phase_s[STEP_INFER] * (double)st->infer_part_ns[k] / tot : 0;
}

void report_steps_csv(const report_steps *w, const sim *s, fs_buf *out)
{
    int dev = sim_plan(s)->used_devices;
    report_csv_made_scenario(sim_scenario(s), out);
    buf_puts(out, "step,start_s,end_s,duration_s");
    for (int k = 0; k < STEP__COUNT; k++) buf_printf(out, ",%s_s", trace_step_phase_name((trace_step_phase)k));
    buf_puts(out, ",tokens,throughput_tokens_per_s,lag_mean");
    for (int i = 0; i < FWN_NKEYS; i++)
        if ((int)FWN_KEYS[i].fw == fwn_active) buf_printf(out, ",%s", FWN_KEYS[i].key);
    buf_putc(out, '\n');
    for (int i = 0; i < report_steps_count(w); i++) {
        const report_step *x = &w->v[i];
        double d = x->end_s - x->start_s;
        buf_printf(out, "%d,%.9g,%.9g,%.9g", x->step, x->start_s, x->end_s, d);
        for (int k = 0; k < STEP__COUNT; k++) buf_printf(out, ",%.9g", x->phase_s[k]);
        buf_printf(out, ",%.9g,%.9g,%.6g", x->tokens, d > 0 ? x->tokens / d : 0, x->lag_mean);
        fwn_step f;
        step_fw(x, dev, &f);
        step_parts(s, x, &f);
        for (int k = 0; k < FWN_NKEYS; k++)
            if ((int)FWN_KEYS[k].fw == fwn_active) buf_printf(out, ",%.9g", fwn_value(&FWN_KEYS[k], &f));
        buf_putc(out, '\n');
    }
}

void report_steps_json(const report_steps *w, const sim *s, fs_json *j)
{
    int dev = sim_plan(s)->used_devices;
    json_arr_begin(j, "steps");
    for (int i = 0; i < report_steps_count(w); i++) {
        const report_step *x = &w->v[i];
        double d = x->end_s - x->start_s;
        json_obj_begin(j, NULL);
        json_int(j, "step", x->step);
        json_num(j, "start_s", x->start_s);
        json_num(j, "end_s", x->end_s);
        json_num(j, "duration_s", d);
        json_obj_begin(j, "phase_time_s");
        for (int k = 0; k < STEP__COUNT; k++) json_num(j, trace_step_phase_name((trace_step_phase)k), x->phase_s[k]);
        json_obj_end(j);
        json_num(j, "tokens", x->tokens);
        json_num(j, "throughput_tokens_per_s", d > 0 ? x->tokens / d : 0);
        json_num(j, "lag_mean", x->lag_mean);
        if (fwn_active >= 0) {
            fwn_step f;
            step_fw(x, dev, &f);
            step_parts(s, x, &f);
            json_obj_begin(j, "framework");
            for (int k = 0; k < FWN_NKEYS; k++)
                if ((int)FWN_KEYS[k].fw == fwn_active) json_num(j, FWN_KEYS[k].key, fwn_value(&FWN_KEYS[k], &f));
            json_obj_end(j);
        }
        json_obj_end(j);
    }
    json_arr_end(j);
}

/* ------------------------------------------------------ the scenario */

static void dist_json(fs_json *j, const char *key, const scn_dist *d)
{
    json_obj_begin(j, key);
    json_str(j, "kind", DIST_NAMES[d->kind]);
    if (d->kind == DIST_HIST) {
        json_arr_begin(j, "edges");
        for (int i = 0; i <= d->nbins; i++) json_num(j, NULL, d->edge[i]);
        json_arr_end(j);
        json_arr_begin(j, "weights");
        for (int i = 0; i < d->nbins; i++) json_num(j, NULL, d->weight[i]);
        json_arr_end(j);
    } else {
        json_num(j, "a", d->a);
        if (d->kind != DIST_FIXED) json_num(j, "b", d->b);
    }
    if (d->cap > 0) json_num(j, "cap", d->cap);
    json_obj_end(j);
}

/* Every leaf of a record, under its dotted path, in the table's order. */
static void rec_json(fs_json *j, const fdesc *rec, const void *base, const char *path)
{
    for (const fdesc *f = rec; f->name; f++) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", f->name);
        /* a scenario without a calibration block has none to show */
        if (rec == FIELDS_TOP && !strcmp(f->name, "calibration") && !scn_has_calibration(base)) continue;
        switch (f->kind) {
        case FK_INT: case FK_NUM: json_num(j, sub, fields_get_num(f, base) / f->scale); break;
        case FK_BOOL: json_bool(j, sub, fields_get_num(f, base) != 0); break;
        case FK_ENUM: {
            /* an enum's "true" and "false" (plan.offload.reference) as JSON's booleans */
            const char *nm = fields_enum_name(f, (int)fields_get_num(f, base));
            if (!strcmp(nm, "true") || !strcmp(nm, "false")) json_bool(j, sub, nm[0] == 't');
            else json_str(j, sub, nm);
            break;
        }
        case FK_STR: if (f->size) json_str(j, sub, (const char *)fields_cat(f, base)); break;
        case FK_DEVICE: case FK_MODEL: case FK_REC:
            if (!f->sub) break;
            if (f->codec == FC_OPT_DEVICE && !scn_device_set(fields_cat(f, base))) break;    /* the cluster's */
            if (f->size == 0 && f->codec == FC_MODELS) rec_json(j, f->sub, base, sub);
            else rec_json(j, f->sub, fields_cat(f, base), sub);
            break;
        case FK_DIST: dist_json(j, sub, fields_cat(f, base)); break;
        case FK_ARR:
            if (f->codec == FC_POOLS) {
                const scn_plan *pp = base;
                for (int i = 0; i < pp->npools; i++) {
                    char pk[280], rb[64];
                    const scn_pool *q = &pp->pools[i];
                    snprintf(pk, sizeof pk, "%s.%d.name", sub, i + 1);
                    json_str(j, pk, q->name);
                    snprintf(pk, sizeof pk, "%s.%d.devices", sub, i + 1);
                    json_int(j, pk, q->devices);
                    snprintf(pk, sizeof pk, "%s.%d.roles", sub, i + 1);
                    json_str(j, pk, plan_roles_str(q->roles, rb, sizeof rb));
                    if (scn_device_set(&q->device)) {
                        snprintf(pk, sizeof pk, "%s.%d.device", sub, i + 1);
                        json_str(j, pk, q->device.name);
                    }
                }
            }
            break;
        }
    }
}

void report_scenario_json(const scn_scenario *sc, fs_json *j, const char *key)
{
    json_obj_begin(j, key);
    rec_json(j, FIELDS_TOP, sc, "");
    json_obj_end(j);
}

/* ------------------------------------------------- what made a CSV */

void report_jv_write(fs_buf *b, const jv *v)
{
    switch (v->t) {
    case J_NULL: buf_puts(b, "null"); break;
    case J_STR: json_escape(b, v->text); break;
    case J_BOOL: case J_NUM: buf_puts(b, v->text); break;
    case J_ARR: case J_OBJ:
        buf_putc(b, v->t == J_ARR ? '[' : '{');
        for (int i = 0; i < v->n; i++) {
            if (i) buf_puts(b, ", ");
            if (v->t == J_OBJ) {
                json_escape(b, v->keys[i]);
                buf_puts(b, ": ");
            }
            report_jv_write(b, &v->items[i]);
        }
        buf_putc(b, v->t == J_ARR ? ']' : '}');
        break;
    }
}

/* A key of the field table is a dotted path of [a-z0-9_] parts (fields.c);
** anything else (a broken shard's key) is written as JSON text, so the
** line stays one line and "PATH=" splits at the first '='. */
static void csv_made_key(fs_buf *b, const char *k)
{
    bool plain = *k != 0;
    for (const char *p = k; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.';
    if (plain) { buf_puts(b, k); return; }
    fs_buf e;
    buf_init(&e);
    json_escape(&e, k);
    for (const char *p = e.s; *p; p++) {
        if (*p == '=') buf_puts(b, "\\u003d");
        else buf_putc(b, *p);
    }
    buf_free(&e);
}

void report_csv_made(const char *version, const char *fields_json, fs_buf *out)
{
    /* the version is fusync's own text; a shard's is read back from its
    ** JSON, so it goes through the same escape as the values */
    buf_puts(out, "# fusync_version=");
    bool plain = *version != 0;
    for (const char *p = version; *p && plain; p++) plain = *p > ' ' && *p < 0x7f && *p != '"';
    if (plain) buf_puts(out, version);
    else json_escape(out, version);
    buf_putc(out, '\n');
    jv v;
    char why[160];
    if (!fields_json || !jsonr_parse(fields_json, strlen(fields_json), &v, why, sizeof why)) return;
    if (v.t == J_OBJ) {
        for (int i = 0; i < v.n; i++) {
            buf_puts(out, "# scenario_field ");
            csv_made_key(out, v.keys[i]);
            buf_putc(out, '=');
            report_jv_write(out, &v.items[i]);
            buf_putc(out, '\n');
        }
    }
    jv_free(&v);
}

void report_csv_made_scenario(const scn_scenario *sc, fs_buf *out)
{
    fs_buf b;
    buf_init(&b);
    fs_json j;
    json_init(&j, &b, false);
    report_scenario_json(sc, &j, NULL);
    report_csv_made(FUSYNC_VERSION_STR, b.s, out);
    buf_free(&b);
}

/* ---------------------------------------------------------------- text */

static void bar(fs_buf *o, double frac, int width)
{
    int n = (int)floor(frac * width + 0.5);
    if (n < 0) n = 0;
    if (n > width) n = width;
    for (int i = 0; i < width; i++) buf_putc(o, i < n ? '#' : '.');
}

/* A name from the scenario or a plugin, made safe for a terminal. */
static const char *tsafe(char *buf, size_t n, const char *s)
{
    fs_term_escape(buf, n, s);
    return buf;
}

void report_interval_text(const report *r, fs_buf *o, const char *B, const char *R)
{
    if (!r->interval_source[0]) return;
    char a[32], b[32], c[32], d[32];
    fmt_si(a, sizeof a, r->tput_lo);
    fmt_si(b, sizeof b, r->tput_hi);
    fmt_secs(c, sizeof c, r->step_lo);
    fmt_secs(d, sizeof d, r->step_hi);
    buf_printf(o, "%sInterval%s     %s to %s tokens/s, step %s to %s   ", B, R, a, b, c, d);
    if (!strcmp(r->interval_source, "calibration")) {
        buf_printf(o, "(calibration: 10th-90th percentile of %d runs of knobs drawn from its fit, and its held-out "
                   "error", r->interval_draws);
        if (r->interval_infeasible) buf_printf(o, ", %d infeasible left out", r->interval_infeasible);
        buf_puts(o, ")\n");
    } else {
        buf_printf(o, "(validation: 4 in 5 of its %d predicted rows err by at most %.0f%%; not calibrated)\n",
                   r->interval_rows, 100 * r->interval_q);
    }
}

/* The cluster's device, or with pools of their own device type each pool's
** count and type ("16 NVIDIA H20 + 16 NVIDIA H100 SXM"). */
static const char *devices_text(const sim *s, char *buf, size_t n)
{
    const scn_scenario *sc = sim_scenario(s);
    const plan *pl = sim_plan(s);
    bool own = false;
    for (int p = 0; p < pl->npools; p++) own |= pl->pools[p].own_device;
    if (!own) return tsafe(buf, n, sc->cluster.device.name);
    char one[SCN_NAME_MAX * 2 + 16], safe[SCN_NAME_MAX * 2];
    size_t len = 0;
    buf[0] = '\0';
    for (int p = 0; p < pl->npools && len < n; p++) {
        snprintf(one, sizeof one, "%s%d %s", p ? " + " : "", pl->pools[p].devices,
                 tsafe(safe, sizeof safe, plan_pool_device(sc, &pl->pools[p])->name));
        len += (size_t)snprintf(buf + len, n - len, "%s", one);
    }
    return buf;
}

void report_text(const sim *s, const report *r, fs_buf *o, bool color)
{
    const scn_scenario *sc = sim_scenario(s);
    const char *B = color ? "\033[1m" : "", *R = color ? "\033[0m" : "", *RED = color ? "\033[1;31m" : "";
    char a[32], b[32], c[32], t1[512], t2[512], t3[512];
    buf_printf(o, "%sfusync%s  %s  mode %s  %d device%s (%s)  %s %s\n", B, R, tsafe(t1, sizeof t1, sc->name),
               scn_mode_name(sc->plan.mode), r->devices, fs_s(r->devices), devices_text(s, t2, sizeof t2),
               sc->work.algo == ALGO_PPO ? "PPO" : "GRPO", tsafe(t3, sizeof t3, sc->actor.name));
    if (!r->feasible) buf_printf(o, "%sINFEASIBLE%s: %s\n", RED, R, tsafe(t1, sizeof t1, r->why));
    fmt_si(a, sizeof a, r->throughput);
    fmt_secs(b, sizeof b, r->step_time_s);
    if (r->feasible) {
        buf_printf(o, "\n%sThroughput%s   %s tokens/s   (%.1f per device)   staleness bound %d\n", B, R, a,
                   r->throughput_per_device, r->staleness_bound);
        buf_printf(o, "%sStep time%s    %s   (%d measured step%s after %d warm-up, window %.1f s)\n", B, R, b,
                   r->iterations - r->warmup, fs_s(r->iterations - r->warmup), r->warmup, r->window_s);
    } else {
        /* the run went on past the failure, so its figures exist, but they
        ** describe a plan that cannot run: none is a headline (the JSON
        ** keeps them beside "feasible": false) */
        buf_printf(o, "\n%sThroughput%s   — (infeasible: not valid; %s tokens/s as simulated past the failure)   "
                   "staleness bound %d\n", B, R, a, r->staleness_bound);
        buf_printf(o, "%sStep time%s    — (infeasible: not valid; %s as simulated, %d step%s after %d warm-up, "
                   "window %.1f s)\n", B, R, b, r->iterations - r->warmup, fs_s(r->iterations - r->warmup), r->warmup,
                   r->window_s);
    }
    if (r->feasible) report_interval_text(r, o, B, R);
    for (int k = 0; k < STEP__COUNT; k++) {
        if (r->phase_s[k] <= 0) continue;
        double f = r->step_time_s > 0 ? r->phase_s[k] / r->step_time_s : 0;
        fmt_secs(a, sizeof a, r->phase_s[k]);
        buf_printf(o, "  %-12s %10s %5.1f%%  ", trace_step_phase_name((trace_step_phase)k), a, 100 * f);
        bar(o, f, 30);
        buf_putc(o, '\n');
    }
    if (r->flops_per_token > 0)
        buf_printf(o, "  %-12s generate %.1f%%  inference %.1f%%  train %.1f%%   (efficiency train %.2f, prefill %.2f, "
                   "decode %.2f, hbm %.2f)\n", "MFU", 100 * r->mfu_generate, 100 * r->mfu_inference, 100 * r->mfu_train,
                   sc->eff.train, sc->eff.prefill, sc->eff.decode, sc->eff.hbm);
    buf_printf(o, "\n%sPools%s        devices  compute  busy   idle  roles\n", B, R);
    for (int p = 0; p < r->npools; p++) {
        const report_pool *q = &r->pools[p];
        buf_printf(o, "  %-10s %7d  %6.1f%% %5.1f%% %5.1f%%  %s\n", tsafe(t1, sizeof t1, q->name), q->devices,
                   100 * q->utilization,
                   100 * q->busy, 100 * q->idle, q->roles);
    }
    fmt_bytes(c, sizeof c, r->mem_capacity);
    buf_printf(o, "\n%sMemory peak%s per device (capacity %s)\n", B, R, c);
    for (int k = 0; k < MB__COUNT; k++) {
        if (r->mem_peak[k] <= 0) continue;
        fmt_bytes(a, sizeof a, r->mem_peak[k]);
        buf_printf(o, "  %-16s %10s  ", trace_bucket_name((mem_bucket)k), a);
        bar(o, r->mem_peak[k] / r->mem_capacity, 30);
        buf_printf(o, "  %s\n", tsafe(t1, sizeof t1, r->mem_peak_group[k]));
    }
    fmt_bytes(a, sizeof a, r->mem_peak_total);
    buf_printf(o, "  %-16s %10s  ", "total (peak)", a);
    bar(o, r->mem_peak_total / r->mem_capacity, 30);
    buf_printf(o, "  %s at %.2f s\n", tsafe(t1, sizeof t1, r->mem_peak_total_group), r->mem_peak_total_t);
    if (r->host_peak > 0) {
        fmt_bytes_of(a, sizeof a, r->host_peak, r->host_capacity);
        fmt_bytes(b, sizeof b, r->host_capacity);
        buf_printf(o, "  %-16s %10s of %s per node%s\n", "host", a, b,
                   r->host_peak > r->host_capacity * (1 + 1e-9) ? "  OVER CAPACITY" : "");
    }
    buf_printf(o, "\n%sStaleness%s    max %d  mean %.2f  (bound %d", B, R, r->lag_max, r->lag_mean, r->staleness_bound);
    if (r->stale_share > 0) buf_printf(o, " + share %.2f", r->stale_share);
    /* the bound as hooks changed it: "then 0 from step 3, 2 from step 6" */
    for (int k = 0; k < r->bound_changes && k < SIM_BOUND_LOG; k++)
        buf_printf(o, "%s%d from step %d", k ? ", " : "; then ", r->bound_value[k], r->bound_step[k]);
    if (r->bound_changes > SIM_BOUND_LOG) buf_printf(o, ", … %d changes in all", r->bound_changes);
    buf_puts(o, ")  lags:");
    for (int k = 0; k <= r->lag_top; k++) buf_printf(o, " %d:%lld", k, (long long)r->lag_hist[k]);
    if (r->samples_mixed > 0) buf_printf(o, "  (%lld decoded across a weight update)", (long long)r->samples_mixed);
    buf_putc(o, '\n');
    fmt_si(a, sizeof a, r->tokens_generated);
    fmt_si(b, sizeof b, r->tokens_wasted);
    fmt_si(c, sizeof c, r->tokens_in_flight);
    buf_printf(o, "%sTokens%s       generated %s  wasted %s  in flight at end %s\n", B, R, a, b, c);
    if (r->preemptions > 0) {
        fmt_si(a, sizeof a, r->preempt_tokens);
        fmt_secs(b, sizeof b, r->preempt_cost_s);
        buf_printf(o, "%sKV cache%s     %lld sequences preempted (cache full), %s tokens of context; %s %s\n", B, R,
                   (long long)r->preemptions, a, b,
                   sc->plan.rollout.preempt == PREEMPT_SWAP ? "swapping to host and back" : "recomputing");
    }
    fmt_bytes(a, sizeof a, r->dq_bytes_padded);
    fmt_bytes(b, sizeof b, r->dq_bytes_packed);
    fmt_secs(c, sizeof c, r->dq_time_s);
    buf_printf(o, "%sDistQueue%s    padded %s  packed %s (%.1f%% saved, packing %s)  reads x%.4g with hierarchy (%s)  %s per step\n",
               B, R, a, b, r->dq_bytes_padded > 0 ? 100 * (1 - r->dq_bytes_packed / r->dq_bytes_padded) : 0,
               sc->plan.dq_packed ? "on" : "off", r->dq_load_factor, sc->plan.dq_hierarchical ? "on" : "off", c);
    fmt_si(a, sizeof a, (double)r->events);
    fmt_secs(b, sizeof b, r->sim_wall_s);
    buf_printf(o, "%sSimulator%s    %s events, %llu pipeline ops, %s wall (event loop %.2f M events/s), %.1f s simulated\n",
               B, R, a, (unsigned long long)r->pipeline_ops, b,
               r->sim_loop_wall_s > 0 ? r->events / r->sim_loop_wall_s / 1e6 : 0, r->sim_time_s);
}

/* ---------------------------------------------------------------- JSON */

/* The members come from the report's one description (report_fields.c). */
void report_json_fields(const sim *s, const report *r, fs_json *j)
{
    (void)s;
    report_fields_json(r, j);
}

void report_json_steps(const sim *s, const report *r, const report_steps *w, fs_buf *out, bool pretty)
{
    fs_json j;
    json_init(&j, out, pretty);
    json_obj_begin(&j, NULL);
    report_json_fields(s, r, &j);
    if (w) report_steps_json(w, s, &j);
    json_str(&j, "fusync_version", FUSYNC_VERSION_STR);
    report_scenario_json(sim_scenario(s), &j, "scenario_fields");
    json_obj_end(&j);
    buf_putc(out, '\n');
}

void report_json(const sim *s, const report *r, fs_buf *out, bool pretty)
{
    fs_json j;
    json_init(&j, out, pretty);
    json_obj_begin(&j, NULL);
    report_json_fields(s, r, &j);
    json_obj_end(&j);
    buf_putc(out, '\n');
}
