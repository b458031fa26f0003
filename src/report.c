/*
** report.c — read a finished run into figures; print them.
*/
#include "report.h"
#include "report_fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
    r->mem_capacity = sc->cluster.device.hbm_bytes;
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

void report_text(const sim *s, const report *r, fs_buf *o, bool color)
{
    const scn_scenario *sc = sim_scenario(s);
    const char *B = color ? "\033[1m" : "", *R = color ? "\033[0m" : "", *RED = color ? "\033[1;31m" : "";
    char a[32], b[32], c[32], t1[512], t2[512], t3[512];
    buf_printf(o, "%sfusync%s  %s  mode %s  %d device%s (%s)  %s %s\n", B, R, tsafe(t1, sizeof t1, sc->name),
               scn_mode_name(sc->plan.mode), r->devices, fs_s(r->devices), tsafe(t2, sizeof t2, sc->cluster.device.name),
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
    for (int k = 0; k < STEP__COUNT; k++) {
        if (r->phase_s[k] <= 0) continue;
        double f = r->step_time_s > 0 ? r->phase_s[k] / r->step_time_s : 0;
        fmt_secs(a, sizeof a, r->phase_s[k]);
        buf_printf(o, "  %-12s %10s %5.1f%%  ", trace_step_phase_name((trace_step_phase)k), a, 100 * f);
        bar(o, f, 30);
        buf_putc(o, '\n');
    }
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

void report_json(const sim *s, const report *r, fs_buf *out, bool pretty)
{
    fs_json j;
    json_init(&j, out, pretty);
    json_obj_begin(&j, NULL);
    report_json_fields(s, r, &j);
    json_obj_end(&j);
    buf_putc(out, '\n');
}
