/*
** report_fields.c — the table of the report (see report_fields.h) and the
** writers it drives: the JSON report, the sweep/plan columns and the docs
** table.  Row order is the JSON report's key order and the columns' order,
** save the columns the sweep and plan tables place elsewhere (COL_AFTER:
** their layout predates this table and is kept).
*/
#include "report_fields.h"
#include "fwnames.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------- derived figures */

static double d_dq_saving(const report *r)
{
    return r->dq_bytes_padded > 0 ? 1 - r->dq_bytes_packed / r->dq_bytes_padded : 0;
}

static double d_dq_aux_per_step(const report *r)
{
    return r->iterations_done > 0 ? r->dq_aux_time_s / r->iterations_done : 0;
}

static bool infeasible(const report *r) { return !r->feasible; }
static bool has_interval(const report *r) { return r->interval_source[0] != 0; }
static bool from_calibration(const report *r) { return !strcmp(r->interval_source, "calibration"); }
static bool from_validation(const report *r) { return !strcmp(r->interval_source, "validation"); }

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

/* The report's figures as fwn_value reads them (fwnames.h). */
static void fw_step(const report *r, fwn_step *f)
{
    memset(f, 0, sizeof *f);
    memcpy(f->phase_s, r->phase_s, sizeof f->phase_s);
    memcpy(f->infer_s, r->infer_s, sizeof f->infer_s);
    f->step_s = r->step_time_s;
    f->tokens = r->throughput * r->step_time_s;
    f->tput_device = r->throughput_per_device;
    f->resp_tput_device = r->tokens_trained > 0 ? r->throughput_per_device * r->tokens_trained_response / r->tokens_trained : 0;
}

static bool fw_named(const report *r) { (void)r; return fwn_active >= 0; }

static void w_framework(const report *r, fs_json *j, const char *key)
{
    fwn_step f;
    fw_step(r, &f);
    json_obj_begin(j, key);
    json_str(j, "name", fwn_name((fwn_framework)fwn_active));
    json_str(j, "version", fwn_version((fwn_framework)fwn_active));
    for (int i = 0; i < FWN_NKEYS; i++)
        if ((int)FWN_KEYS[i].fw == fwn_active) json_num(j, FWN_KEYS[i].key, fwn_value(&FWN_KEYS[i], &f));
    json_obj_end(j);
}

/* ------------------------------------------------------------ rows */

/* The rows, in the JSON report's key order, each
**     X(json, plugin, column, source, unit, doc)
** json: its path in the JSON report (NULL: not there); plugin: its key in a
** plugin's report table (NULL: not there); column: NOCOL, COL(name), or
** COL_AFTER(name, prev) to place it right after column prev; source:
**     MEMBER(m)        the report's member m (the engine's counters are
**                      members too: report.h); a double is RV_NUM, a bool
**                      RV_BOOL, an integer RV_INT
**     MEMBER_IF(m, p)  the same, in the JSON report only when p(r)
**     TEXT(m)          the report's string member m (RV_STR)
**     TEXT_IF(m, p)    the same, in the JSON and plugin report only when p(r)
**     DERIVED(f)       the number f(r), f defined above (RV_NUM)
**     NAMED(f)         an object of named numbers: f(r, i, &name, &v), above
**     WRITER(f)        a JSON value written by f(r, j, key), above
**     WRITER_IF(f, p)  the same, only when p(r)
** A new figure is one row here (then `make docs` for docs/cli.md's table).
** A new engine counter is a member of SIM_STATS_MEMBERS (src/engine.h),
** counted where it happens, and then a MEMBER row; a figure that needs the
** run itself (its trace, plan or clock) is a member of the report that
** report_compute (report.c) fills, and a MEMBER row. */
#define REPORT_ROWS(X) \
    X("scenario", NULL, NOCOL, TEXT(scenario), NULL, "the scenario's name") \
    X("mode", NULL, NOCOL, TEXT(mode), NULL, "deployment mode") \
    X("devices", "devices", COL_AFTER("devices", "throughput_tokens_per_s_per_device"), MEMBER(devices), NULL, \
      "devices the plan uses") \
    X("feasible", "feasible", COL("feasible"), MEMBER(feasible), NULL, "false when something ran out of memory") \
    X("infeasible_reason", "why", COL("reason"), TEXT_IF(why, infeasible), NULL, \
      "what did not fit: group, devices, bucket, time, bytes over") \
    X("throughput_tokens_per_s", "throughput_tokens_per_s", COL("throughput_tokens_per_s"), MEMBER(throughput), \
      "tokens/s", "tokens trained per second in the measured window") \
    X("throughput_tokens_per_s_per_device", "throughput_tokens_per_s_per_device", \
      COL("throughput_tokens_per_s_per_device"), MEMBER(throughput_per_device), "tokens/s", "the same per device") \
    X("step_time_s", "step_time_s", COL("step_time_s"), MEMBER(step_time_s), "s", "mean step time in the window") \
    X("interval.source", NULL, NOCOL, TEXT_IF(interval_source, has_interval), NULL, \
      "where the interval below came from: calibration (knob vectors drawn from the scenario's calibration block, each simulated) or validation (the validation table's predicted-row errors); absent: no interval (an infeasible run)") \
    X("interval.throughput_tokens_per_s.lo", NULL, NOCOL, MEMBER_IF(tput_lo, has_interval), "tokens/s", \
      "the interval's low end of throughput_tokens_per_s (calibration: 10th percentile of the draws)") \
    X("interval.throughput_tokens_per_s.hi", NULL, NOCOL, MEMBER_IF(tput_hi, has_interval), "tokens/s", \
      "its high end (calibration: 90th percentile)") \
    X("interval.step_time_s.lo", NULL, NOCOL, MEMBER_IF(step_lo, has_interval), "s", "the same of step_time_s: low end") \
    X("interval.step_time_s.hi", NULL, NOCOL, MEMBER_IF(step_hi, has_interval), "s", "high end") \
    X("interval.draws", NULL, NOCOL, MEMBER_IF(interval_draws, from_calibration), NULL, \
      "calibration: knob vectors simulated") \
    X("interval.infeasible_draws", NULL, NOCOL, MEMBER_IF(interval_infeasible, from_calibration), NULL, \
      "calibration: of them infeasible, left out") \
    X("interval.validation_rows", NULL, NOCOL, MEMBER_IF(interval_rows, from_validation), NULL, \
      "validation: the table's predicted rows behind it") \
    X("interval.validation_error", NULL, NOCOL, MEMBER_IF(interval_q, from_validation), NULL, \
      "validation: the |error| four in five of them stay within (src/uncert_table.h)") \
    X("phase_time_s", "phase_time_s", COL("%s_s"), NAMED(i_phase), "s", \
      "mean seconds per step in each step phase (generate, switch, weight_sync, inference, train, wait)") \
    X("inference_time_s", NULL, NOCOL, NAMED(i_infer), "s", \
      "the inference phase by part: DistQueue read (queue), old log-probs (logprob), reference, reward (model, or the rule on the hosts), critic values; they sum to phase_time_s.inference") \
    X("mfu.flops_per_token", NULL, NOCOL, MEMBER(flops_per_token), "FLOPs", \
      "the actor's forward model FLOPs per token trained, at the mean length (docs/model.md)") \
    X("mfu.generate", NULL, NOCOL, MEMBER(mfu_generate), NULL, \
      "model FLOPs utilization of generation: the response tokens' forward FLOPs over each rollout pool's peak × its generating device-seconds (the training pool's generate phase; a rollout pool's decode and prefill spans)") \
    X("mfu.inference", NULL, NOCOL, MEMBER(mfu_inference), NULL, \
      "the same for inference: the training pool's forwards (old log-probs; the reference's and a reward model's when it holds them)") \
    X("mfu.train", NULL, NOCOL, MEMBER(mfu_train), NULL, \
      "the same for training: forward and backward (3 forwards) per epoch on the training pool, the actor alone") \
    X("framework", NULL, NOCOL, WRITER_IF(w_framework, fw_named), NULL, \
      "with --names verl|openrlhf|nemo-rl: the framework's name, version and its metric keys (docs/frameworks.md)") \
    X("utilization", NULL, NOCOL, NAMED(i_util), NULL, "per pool: compute share of device-time in the window") \
    X("idle_ratio", NULL, NOCOL, NAMED(i_idle), NULL, "per pool: share of device-time with nothing running") \
    X("pools", NULL, NOCOL, WRITER(w_pools), NULL, "per pool: name, devices, roles, utilization, busy") \
    X("memory_peak_bytes", NULL, NOCOL, NAMED(i_mem), "bytes", \
      "per bucket: the largest per-device peak over device groups") \
    X("memory_peak_bytes.total", "memory_peak_bytes", COL("memory_peak_bytes"), MEMBER(mem_peak_total), "bytes", \
      "the largest device total") \
    X("memory_capacity_bytes", "memory_capacity_bytes", COL("memory_capacity_bytes"), MEMBER(mem_capacity), "bytes", \
      "device memory") \
    X("host_memory_peak_bytes", "host_memory_peak_bytes", COL("host_memory_peak_bytes"), MEMBER(host_peak), "bytes", \
      "host memory peak per node (the fullest node, summed over its pools)") \
    X("host_memory_capacity_bytes", NULL, NOCOL, MEMBER(host_capacity), "bytes", "host memory per node") \
    X("iterations", "iterations", COL_AFTER("iterations", "samples_trained"), MEMBER(iterations), NULL, \
      "steps simulated") \
    X("warmup", NULL, COL_AFTER("warmup", "iterations"), MEMBER(warmup), NULL, "steps left out of the window") \
    X("window_s", "window_s", NOCOL, MEMBER(window_s), "s", "length of the measured window") \
    X("tokens_generated", "tokens_generated", COL("tokens_generated"), MEMBER(tokens_generated), "tokens", \
      "response tokens decoded") \
    X("tokens_trained", "tokens_trained", COL("tokens_trained"), MEMBER(tokens_trained), "tokens", \
      "prompt + response tokens trained") \
    X("wasted_tokens", "wasted_tokens", COL("wasted_tokens"), MEMBER(tokens_wasted), "tokens", \
      "tokens decoded and then discarded or restarted") \
    X("tokens_in_flight", NULL, NOCOL, MEMBER(tokens_in_flight), "tokens", "tokens decoded but not trained at the end") \
    X("kv_cache.preemptions", "preemptions", NOCOL, MEMBER(preemptions), NULL, \
      "sequences taken off a full paged KV cache (plan.rollout.kv = paged)") \
    X("kv_cache.preemption_cost_s", "preemption_cost_s", NOCOL, MEMBER(preempt_cost_s), "s", \
      "instance time preemption cost, all steps: re-prefill of the preempted contexts (recompute) or their host transfers (swap)") \
    X("samples_trained", NULL, COL("samples_trained"), MEMBER(samples_trained), NULL, "samples trained") \
    X("staleness.bound", "staleness_bound", COL_AFTER("staleness_bound", "host_memory_peak_bytes"), \
      MEMBER(staleness_bound), "versions", "the StaleSync bound") \
    X("staleness.share", NULL, NOCOL, MEMBER(stale_share), "steps", \
      "plan.stale_share: the fractional bound on top of the whole one (samples of a further step the rollout may start)") \
    X("staleness.max", "staleness_max", COL_AFTER("staleness_max", "staleness_bound"), MEMBER(lag_max), \
      "versions", "the largest lag trained") \
    X("staleness.samples_decoded_with_several_versions", NULL, NOCOL, MEMBER(samples_mixed), NULL, \
      "samples whose decode spanned a weight update") \
    X("staleness.mean", "staleness_mean", COL_AFTER("staleness_mean", "staleness_max"), MEMBER(lag_mean), \
      "versions", "mean lag trained") \
    X("staleness.histogram", NULL, NOCOL, WRITER(w_hist), NULL, \
      "samples trained at lag 0, 1, ... up to the largest bound the run had or the largest lag, whichever is more") \
    X("staleness.bound_changes", NULL, NOCOL, WRITER(w_bounds), NULL, \
      "the bound as hooks changed it: from which step, the new bound (the first 32 changes; empty if none)") \
    X("distqueue.bytes_padded", NULL, NOCOL, MEMBER(dq_bytes_padded), "bytes", "DistQueue bytes, padded") \
    X("distqueue.bytes_packed", NULL, NOCOL, MEMBER(dq_bytes_packed), "bytes", "DistQueue bytes, packed") \
    X("distqueue.padding_saving", NULL, NOCOL, DERIVED(d_dq_saving), NULL, "1 - packed / padded") \
    X("distqueue.reads_flat", NULL, NOCOL, MEMBER(dq_reads_flat), NULL, "reads without hierarchy") \
    X("distqueue.reads_hierarchical", NULL, NOCOL, MEMBER(dq_reads_hier), NULL, "reads with hierarchy") \
    X("distqueue.load_factor", NULL, NOCOL, MEMBER(dq_load_factor), NULL, "hierarchical / flat reads") \
    X("distqueue.transfer_s_per_step", NULL, NOCOL, MEMBER(dq_time_s), "s", "queue transfer per step") \
    X("distqueue.aux_transfer_s_per_step", NULL, NOCOL, DERIVED(d_dq_aux_per_step), "s", \
      "reference/reward reads per step") \
    X("distqueue.bytes_by_stage.rollout_to_queue", NULL, NOCOL, MEMBER(dq_rollout_out), "bytes", "rollout to queue") \
    X("distqueue.bytes_by_stage.queue_to_ref_reward", NULL, NOCOL, MEMBER(dq_aux_in), "bytes", \
      "queue to reference/reward") \
    X("distqueue.bytes_by_stage.ref_reward_to_queue", NULL, NOCOL, MEMBER(dq_aux_out), "bytes", \
      "reference/reward to queue") \
    X("distqueue.bytes_by_stage.queue_to_train", NULL, NOCOL, MEMBER(dq_train_in), "bytes", "queue to training") \
    X("events", NULL, COL("events"), MEMBER(events), NULL, "simulator events") \
    X("pipeline_ops", NULL, NOCOL, MEMBER(pipeline_ops), NULL, "1F1B operations resolved analytically") \
    X("sim_time_s", NULL, NOCOL, MEMBER(sim_time_s), "s", "simulated time") \
    X("plugin_time_s", NULL, NOCOL, MEMBER(plugin_time_s), "s", "wall time in plugin hooks") \
    X("sim_wall_s", NULL, NOCOL, MEMBER(sim_wall_s), "s", "wall time of the simulation") \
    X("sim_loop_wall_s", NULL, NOCOL, MEMBER(sim_loop_wall_s), "s", "the same less set-up and analytic training tasks")

#define NOCOL               NULL, NULL
#define COL(name)           name, NULL
#define COL_AFTER(name, prev) name, prev

/* First pass: the getter of each member row (the readers call f->num(r)
** or f->str(r)).  A member named by two rows would define its getter
** twice: the compiler says so. */
#define RF_GET_MEMBER(m)     static double rf_num_##m(const report *r) { return (double)r->m; }
#define RF_GET_MEMBER_IF(m, p) RF_GET_MEMBER(m)
#define RF_GET_TEXT(m)       static const char *rf_str_##m(const report *r) { return r->m; }
#define RF_GET_TEXT_IF(m, p) RF_GET_TEXT(m)
#define RF_GET_DERIVED(f)
#define RF_GET_NAMED(f)
#define RF_GET_WRITER(f)
#define RF_GET_WRITER_IF(f, p)
#define RF_GETTER(json, plugin, column, source, unit, doc) RF_GET_##source
REPORT_ROWS(RF_GETTER)

/* Second pass: the rows.  A member's kind follows its C type. */
#define RF_KIND(m) _Generic(((report *)0)->m, bool: RV_BOOL, double: RV_NUM, default: RV_INT)
#define RF_SRC_MEMBER(m)     RF_KIND(m), rf_num_##m, NULL, NULL, NULL, NULL
#define RF_SRC_MEMBER_IF(m, p) RF_KIND(m), rf_num_##m, NULL, p, NULL, NULL
#define RF_SRC_TEXT(m)       RV_STR, NULL, rf_str_##m, NULL, NULL, NULL
#define RF_SRC_TEXT_IF(m, p) RV_STR, NULL, rf_str_##m, p, NULL, NULL
#define RF_SRC_DERIVED(f)    RV_NUM, f, NULL, NULL, NULL, NULL
#define RF_SRC_NAMED(f)      RV_NAMED, NULL, NULL, NULL, f, NULL
#define RF_SRC_WRITER(f)     RV_CUSTOM, NULL, NULL, NULL, NULL, f
#define RF_SRC_WRITER_IF(f, p) RV_CUSTOM, NULL, NULL, p, NULL, f
#define RF_ROW(json, plugin, column, source, unit, doc) {json, plugin, column, unit, doc, RF_SRC_##source},

const rfield REPORT_FIELDS[] = {REPORT_ROWS(RF_ROW)};
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

/* One row's columns (a named row has one per item), then those of the rows
** placed right after it. */
static void put_columns(const report *r, const rfield *f,
                        void (*put)(void *ud, const char *col, rvkind k, double v, const char *s), void *ud)
{
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
            put(ud, col, RV_NUM, v, NULL);
        }
    } else if (f->kind == RV_STR) {
        put(ud, f->column, RV_STR, 0, r ? f->str(r) : "");
    } else {
        put(ud, f->column, f->kind, r ? f->num(r) : 0, NULL);
    }
    for (int i = 0; i < REPORT_NFIELDS; i++) {
        const rfield *g = &REPORT_FIELDS[i];
        if (g->column && g->column_after && !strcmp(g->column_after, f->column)) put_columns(r, g, put, ud);
    }
}

void report_fields_columns(const report *r,
                           void (*put)(void *ud, const char *col, rvkind k, double v, const char *s),
                           void *ud)
{
    for (int i = 0; i < REPORT_NFIELDS; i++)
        if (REPORT_FIELDS[i].column && !REPORT_FIELDS[i].column_after) put_columns(r, &REPORT_FIELDS[i], put, ud);
    /* --names: the framework's keys, last (fwnames.h) */
    if (fwn_active < 0) return;
    fwn_step f;
    if (r) fw_step(r, &f);
    for (int i = 0; i < FWN_NKEYS; i++)
        if ((int)FWN_KEYS[i].fw == fwn_active) put(ud, FWN_KEYS[i].key, RV_NUM, r ? fwn_value(&FWN_KEYS[i], &f) : 0, NULL);
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
