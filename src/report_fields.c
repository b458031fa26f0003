/*
** report_fields.c — the table of the report (see report_fields.h) and the
** writers it drives: the JSON report, the sweep/plan columns and the docs
** table.  Row order is the JSON report's key order; column_at orders the
** table columns (their layout predates this table and is kept).
*/
#include "report_fields.h"

#include <stdio.h>
#include <string.h>

#define GET(name, expr) static double name(const report *r) { return (double)(expr); }

GET(g_devices, r->devices)
GET(g_feasible, r->feasible)
GET(g_tput, r->throughput)
GET(g_tput_dev, r->throughput_per_device)
GET(g_step, r->step_time_s)
GET(g_mem_cap, r->mem_capacity)
GET(g_host_peak, r->host_peak)
GET(g_host_cap, r->host_capacity)
GET(g_iter, r->iterations)
GET(g_warmup, r->warmup)
GET(g_window, r->window_s)
GET(g_tok_gen, r->tokens_generated)
GET(g_tok_train, r->tokens_trained)
GET(g_tok_waste, r->tokens_wasted)
GET(g_tok_flight, r->tokens_in_flight)
GET(g_preempt, r->preemptions)
GET(g_preempt_cost, r->preempt_cost_s)
GET(g_samples, r->samples_trained)
GET(g_bound, r->staleness_bound)
GET(g_share, r->stale_share)
GET(g_lag_max, r->lag_max)
GET(g_mixed, r->samples_mixed)
GET(g_lag_mean, r->lag_mean)
GET(g_dq_pad, r->dq_bytes_padded)
GET(g_dq_pack, r->dq_bytes_packed)
GET(g_dq_saving, r->dq_bytes_padded > 0 ? 1 - r->dq_bytes_packed / r->dq_bytes_padded : 0)
GET(g_dq_flat, r->dq_reads_flat)
GET(g_dq_hier, r->dq_reads_hier)
GET(g_dq_load, r->dq_load_factor)
GET(g_dq_time, r->dq_time_s)
GET(g_dq_aux_time, r->dq_aux_time_s)
GET(g_dq_r2q, r->dq_rollout_out)
GET(g_dq_q2a, r->dq_aux_in)
GET(g_dq_a2q, r->dq_aux_out)
GET(g_dq_q2t, r->dq_train_in)
GET(g_events, r->events)
GET(g_ops, r->pipeline_ops)
GET(g_sim_time, r->sim_time_s)
GET(g_plugin_time, r->plugin_time_s)
GET(g_wall, r->sim_wall_s)
GET(g_loop_wall, r->sim_loop_wall_s)
GET(g_mem_total, r->mem_peak_total)

static const char *s_scenario(const report *r) { return r->scenario; }
static const char *s_mode(const report *r) { return r->mode; }
static const char *s_why(const report *r) { return r->feasible ? "" : r->why; }
static bool infeasible(const report *r) { return !r->feasible; }

static bool i_phase(const report *r, int i, const char **name, double *v)
{
    if (i >= STEP__COUNT) return false;
    *name = trace_step_phase_name((trace_step_phase)i);
    *v = r->phase_s[i];
    return true;
}

static bool i_infer(const report *r, int i, const char **name, double *v)
{
    if (i >= INF__COUNT) return false;
    *name = sim_infer_part_name((sim_infer_part)i);
    *v = r->infer_s[i];
    return true;
}

static bool i_util(const report *r, int i, const char **name, double *v)
{
    if (i >= r->npools) return false;
    *name = r->pools[i].name;
    *v = r->pools[i].utilization;
    return true;
}

static bool i_idle(const report *r, int i, const char **name, double *v)
{
    if (i >= r->npools) return false;
    *name = r->pools[i].name;
    *v = r->pools[i].idle;
    return true;
}

/* Device buckets (host buckets are reported as host memory). */
static bool i_mem(const report *r, int i, const char **name, double *v)
{
    for (int k = 0, n = 0; k < MB__COUNT; k++) {
        if (k == MB_HOST_OFFLOAD || k == MB_HOST_MODELS) continue;
        if (n++ == i) {
            *name = trace_bucket_name((mem_bucket)k);
            *v = r->mem_peak[k];
            return true;
        }
    }
    return false;
}

static void w_pools(const report *r, fs_json *j, const char *key)
{
    json_arr_begin(j, key);
    for (int p = 0; p < r->npools; p++) {
        json_obj_begin(j, NULL);
        json_str(j, "name", r->pools[p].name);
        json_int(j, "devices", r->pools[p].devices);
        json_str(j, "roles", r->pools[p].roles);
        json_num(j, "utilization", r->pools[p].utilization);
        json_num(j, "busy", r->pools[p].busy);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static void w_hist(const report *r, fs_json *j, const char *key)
{
    json_arr_begin(j, key);
    for (int k = 0; k <= r->lag_top; k++) json_int(j, NULL, r->lag_hist[k]);
    json_arr_end(j);
}

static void w_bounds(const report *r, fs_json *j, const char *key)
{
    json_arr_begin(j, key);
    for (int k = 0; k < r->bound_changes && k < SIM_BOUND_LOG; k++) {
        json_obj_begin(j, NULL);
        json_int(j, "step", r->bound_step[k]);
        json_int(j, "bound", r->bound_value[k]);
        json_obj_end(j);
    }
    json_arr_end(j);
}

#define NUMF(json, plug, col, at, fn, unit, doc) {json, plug, col, at, RV_NUM, fn, NULL, NULL, NULL, NULL, unit, doc}
#define INTF(json, plug, col, at, fn, unit, doc) {json, plug, col, at, RV_INT, fn, NULL, NULL, NULL, NULL, unit, doc}

const rfield REPORT_FIELDS[] = {
    {"scenario", NULL, NULL, 0, RV_STR, NULL, s_scenario, NULL, NULL, NULL, NULL, "the scenario's name"},
    {"mode", NULL, NULL, 0, RV_STR, NULL, s_mode, NULL, NULL, NULL, NULL, "deployment mode"},
    INTF("devices", "devices", "devices", 5, g_devices, NULL, "devices the plan uses"),
    {"feasible", "feasible", "feasible", 1, RV_BOOL, g_feasible, NULL, NULL, NULL, NULL, NULL,
     "false when something ran out of memory"},
    {"infeasible_reason", "why", "reason", 2, RV_STR, NULL, s_why, infeasible, NULL, NULL, NULL,
     "what did not fit: group, devices, bucket, time, bytes over"},
    NUMF("throughput_tokens_per_s", "throughput_tokens_per_s", "throughput_tokens_per_s", 3, g_tput, "tokens/s",
         "tokens trained per second in the measured window"),
    NUMF("throughput_tokens_per_s_per_device", "throughput_tokens_per_s_per_device",
         "throughput_tokens_per_s_per_device", 4, g_tput_dev, "tokens/s", "the same per device"),
    NUMF("step_time_s", "step_time_s", "step_time_s", 6, g_step, "s", "mean step time in the window"),
    {"phase_time_s", "phase_time_s", "%s_s", 7, RV_NAMED, NULL, NULL, NULL, i_phase, NULL, "s",
     "mean seconds per step in each step phase (generate, switch, weight_sync, inference, train, wait)"},
    {"inference_time_s", NULL, NULL, 0, RV_NAMED, NULL, NULL, NULL, i_infer, NULL, "s",
     "the inference phase by part: DistQueue read (queue), old log-probs (logprob), reference, reward (model, or the rule on the hosts), critic values; they sum to phase_time_s.inference"},
    {"utilization", NULL, NULL, 0, RV_NAMED, NULL, NULL, NULL, i_util, NULL, NULL,
     "per pool: compute share of device-time in the window"},
    {"idle_ratio", NULL, NULL, 0, RV_NAMED, NULL, NULL, NULL, i_idle, NULL, NULL,
     "per pool: share of device-time with nothing running"},
    {"pools", NULL, NULL, 0, RV_CUSTOM, NULL, NULL, NULL, NULL, w_pools, NULL,
     "per pool: name, devices, roles, utilization, busy"},
    {"memory_peak_bytes", NULL, NULL, 0, RV_NAMED, NULL, NULL, NULL, i_mem, NULL, "bytes",
     "per bucket: the largest per-device peak over device groups"},
    NUMF("memory_peak_bytes.total", "memory_peak_bytes", "memory_peak_bytes", 8, g_mem_total, "bytes",
         "the largest device total"),
    NUMF("memory_capacity_bytes", "memory_capacity_bytes", "memory_capacity_bytes", 9, g_mem_cap, "bytes",
         "device memory"),
    NUMF("host_memory_peak_bytes", "host_memory_peak_bytes", "host_memory_peak_bytes", 10, g_host_peak, "bytes",
         "host memory peak per node"),
    NUMF("host_memory_capacity_bytes", NULL, NULL, 0, g_host_cap, "bytes", "host memory per node"),
    INTF("iterations", "iterations", "iterations", 20, g_iter, NULL, "steps simulated"),
    INTF("warmup", NULL, "warmup", 21, g_warmup, NULL, "steps left out of the window"),
    NUMF("window_s", "window_s", NULL, 0, g_window, "s", "length of the measured window"),
    NUMF("tokens_generated", "tokens_generated", "tokens_generated", 14, g_tok_gen, "tokens", "response tokens decoded"),
    NUMF("tokens_trained", "tokens_trained", "tokens_trained", 15, g_tok_train, "tokens",
         "prompt + response tokens trained"),
    NUMF("wasted_tokens", "wasted_tokens", "wasted_tokens", 16, g_tok_waste, "tokens",
         "tokens decoded and then discarded or restarted"),
    NUMF("tokens_in_flight", NULL, NULL, 0, g_tok_flight, "tokens", "tokens decoded but not trained at the end"),
    INTF("kv_cache.preemptions", "preemptions", NULL, 0, g_preempt, NULL,
         "sequences taken off a full paged KV cache (plan.rollout.kv = paged)"),
    NUMF("kv_cache.preemption_cost_s", "preemption_cost_s", NULL, 0, g_preempt_cost, "s",
         "instance time preemption cost, all steps: re-prefill of the preempted contexts (recompute) or their host transfers (swap)"),
    INTF("samples_trained", NULL, "samples_trained", 17, g_samples, NULL, "samples trained"),
    INTF("staleness.bound", "staleness_bound", "staleness_bound", 11, g_bound, "versions", "the StaleSync bound"),
    NUMF("staleness.share", NULL, NULL, 0, g_share, "steps",
         "plan.stale_share: the fractional bound on top of the whole one (samples of a further step the rollout may start)"),
    INTF("staleness.max", "staleness_max", "staleness_max", 12, g_lag_max, "versions", "the largest lag trained"),
    INTF("staleness.samples_decoded_with_several_versions", NULL, NULL, 0, g_mixed, NULL,
         "samples whose decode spanned a weight update"),
    NUMF("staleness.mean", "staleness_mean", "staleness_mean", 13, g_lag_mean, "versions", "mean lag trained"),
    {"staleness.histogram", NULL, NULL, 0, RV_CUSTOM, NULL, NULL, NULL, NULL, w_hist, NULL,
     "samples trained at lag 0, 1, ... up to the largest bound the run had or the largest lag, whichever is more"},
    {"staleness.bound_changes", NULL, NULL, 0, RV_CUSTOM, NULL, NULL, NULL, NULL, w_bounds, NULL,
     "the bound as hooks changed it: from which step, the new bound (the first 32 changes; empty if none)"},
    NUMF("distqueue.bytes_padded", NULL, NULL, 0, g_dq_pad, "bytes", "DistQueue bytes, padded"),
    NUMF("distqueue.bytes_packed", NULL, NULL, 0, g_dq_pack, "bytes", "DistQueue bytes, packed"),
    NUMF("distqueue.padding_saving", NULL, NULL, 0, g_dq_saving, NULL, "1 - packed / padded"),
    NUMF("distqueue.reads_flat", NULL, NULL, 0, g_dq_flat, NULL, "reads without hierarchy"),
    NUMF("distqueue.reads_hierarchical", NULL, NULL, 0, g_dq_hier, NULL, "reads with hierarchy"),
    NUMF("distqueue.load_factor", NULL, NULL, 0, g_dq_load, NULL, "hierarchical / flat reads"),
    NUMF("distqueue.transfer_s_per_step", NULL, NULL, 0, g_dq_time, "s", "queue transfer per step"),
    NUMF("distqueue.aux_transfer_s_per_step", NULL, NULL, 0, g_dq_aux_time, "s",
         "reference/reward reads per step"),
    NUMF("distqueue.bytes_by_stage.rollout_to_queue", NULL, NULL, 0, g_dq_r2q, "bytes", "rollout to queue"),
    NUMF("distqueue.bytes_by_stage.queue_to_ref_reward", NULL, NULL, 0, g_dq_q2a, "bytes", "queue to reference/reward"),
    NUMF("distqueue.bytes_by_stage.ref_reward_to_queue", NULL, NULL, 0, g_dq_a2q, "bytes", "reference/reward to queue"),
    NUMF("distqueue.bytes_by_stage.queue_to_train", NULL, NULL, 0, g_dq_q2t, "bytes", "queue to training"),
    INTF("events", NULL, "events", 22, g_events, NULL, "simulator events"),
    INTF("pipeline_ops", NULL, NULL, 0, g_ops, NULL, "1F1B operations resolved analytically"),
    NUMF("sim_time_s", NULL, NULL, 0, g_sim_time, "s", "simulated time"),
    NUMF("plugin_time_s", NULL, NULL, 0, g_plugin_time, "s", "wall time in plugin hooks"),
    NUMF("sim_wall_s", NULL, NULL, 0, g_wall, "s", "wall time of the simulation"),
    NUMF("sim_loop_wall_s", NULL, NULL, 0, g_loop_wall, "s", "the same less set-up and analytic training tasks"),
};
const int REPORT_NFIELDS = (int)(sizeof REPORT_FIELDS / sizeof REPORT_FIELDS[0]);

/* ------------------------------------------------------------- JSON */

/* Length of the common prefix of two dotted paths, in whole components. */
static size_t common_dirs(const char *a, const char *b)
{
    size_t last = 0;
    for (size_t i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '.') last = i + 1;
    return last;
}

static int depth_of(const char *path, size_t upto)
{
    int d = 0;
    for (size_t i = 0; i < upto && path[i]; i++) d += path[i] == '.';
    return d;
}

void report_fields_json(const report *r, fs_json *j)
{
    const char *open = "";      /* path of the object now open, with a trailing '.' */
    char openbuf[128] = "";
    for (int i = 0; i < REPORT_NFIELDS; i++) {
        const rfield *f = &REPORT_FIELDS[i];
        if (!f->json || (f->present && !f->present(r))) continue;
        const char *dot = strrchr(f->json, '.');
        size_t dirlen = dot ? (size_t)(dot - f->json) + 1 : 0;
        size_t keep = common_dirs(open, f->json);
        if (keep > dirlen) keep = dirlen;
        /* close what this field is not inside, open what it is */
        for (int d = depth_of(open, strlen(open)); d > depth_of(open, keep); d--) json_obj_end(j);
        for (size_t k = keep; k < dirlen;) {
            const char *e = strchr(f->json + k, '.');
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(e - (f->json + k)), f->json + k);
            json_obj_begin(j, key);
            k = (size_t)(e - f->json) + 1;
        }
        snprintf(openbuf, sizeof openbuf, "%.*s", (int)dirlen, f->json);
        open = openbuf;
        const char *key = f->json + dirlen;
        switch (f->kind) {
        case RV_NUM: json_num(j, key, f->num(r)); break;
        case RV_INT: json_int(j, key, (int64_t)f->num(r)); break;
        case RV_BOOL: json_bool(j, key, f->num(r) != 0); break;
        case RV_STR: json_str(j, key, f->str(r)); break;
        case RV_CUSTOM: f->json_write(r, j, key); break;
        case RV_NAMED: {
            const char *name;
            double v;
            /* an object of named numbers may go on with dotted members (memory's total) */
            json_obj_begin(j, key);
            for (int k = 0; f->item(r, k, &name, &v); k++) json_num(j, name, v);
            bool more = i + 1 < REPORT_NFIELDS && REPORT_FIELDS[i + 1].json &&
                        strncmp(REPORT_FIELDS[i + 1].json, f->json, strlen(f->json)) == 0 &&
                        REPORT_FIELDS[i + 1].json[strlen(f->json)] == '.';
            if (more) {
                snprintf(openbuf, sizeof openbuf, "%s.", f->json);
                open = openbuf;
            } else {
                json_obj_end(j);
            }
            break;
        }
        }
    }
    for (int d = depth_of(open, strlen(open)); d > 0; d--) json_obj_end(j);
}

/* ------------------------------------------------------------ columns */

void report_fields_columns(const report *r,
                           void (*cell)(void *ud, const char *col, rvkind k, double v, const char *s),
                           void *ud)
{
    int maxat = 0;
    for (int i = 0; i < REPORT_NFIELDS; i++)
        if (REPORT_FIELDS[i].column && REPORT_FIELDS[i].column_at > maxat) maxat = REPORT_FIELDS[i].column_at;
    for (int at = 1; at <= maxat; at++)
        for (int i = 0; i < REPORT_NFIELDS; i++) {
            const rfield *f = &REPORT_FIELDS[i];
            if (!f->column || f->column_at != at) continue;
            if (f->kind == RV_NAMED) {
                const char *name;
                double v;
                report dummy;
                const report *src = r;
                if (!src) {
                    memset(&dummy, 0, sizeof dummy);
                    src = &dummy;
                }
                for (int k = 0; f->item(src, k, &name, &v); k++) {
                    char col[96];
                    snprintf(col, sizeof col, f->column, name);
                    cell(ud, col, RV_NUM, v, NULL);
                }
            } else if (f->kind == RV_STR) {
                cell(ud, f->column, RV_STR, 0, r ? f->str(r) : "");
            } else {
                cell(ud, f->column, f->kind, r ? f->num(r) : 0, NULL);
            }
        }
}

/* --------------------------------------------------------------- docs */

void report_fields_describe(fs_buf *out)
{
    buf_puts(out, "| JSON key | plugin key | table column | unit | meaning |\n|---|---|---|---|---|\n");
    for (int i = 0; i < REPORT_NFIELDS; i++) {
        const rfield *f = &REPORT_FIELDS[i];
        char col[96] = "";
        if (f->column) snprintf(col, sizeof col, f->kind == RV_NAMED ? "`%s` per phase" : "`%s`", f->column);
        if (f->kind == RV_NAMED && f->column) {
            char *p = strstr(col, "%s");
            if (p) { memmove(p + 5, p + 2, strlen(p + 2) + 1); memcpy(p, "PHASE", 5); }
        }
        buf_printf(out, "| `%s` | %s%s%s | %s | %s | %s |\n", f->json ? f->json : "", f->plugin ? "`" : "",
                   f->plugin ? f->plugin : "", f->plugin ? "`" : "", col, f->unit ? f->unit : "", f->doc);
    }
}
