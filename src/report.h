/*
** report.h — the figures of a finished run, computed from the trace and the
** engine's counters, and their text and JSON forms.
*/
#ifndef FUSYNC_REPORT_H
#define FUSYNC_REPORT_H

#include "engine.h"

typedef struct {
    char   name[SCN_NAME_MAX];
    int    devices;
    char   roles[64];
    double utilization;     /* compute share of device-time in the window */
    double busy;            /* any activity, switching and sync included */
    double idle;            /* 1 - busy */
} report_pool;

typedef struct {
    char   scenario[SCN_NAME_MAX];
    char   mode[16];
    bool   feasible;
    char   why[512];            /* when not feasible */
    double throughput;          /* tokens/s in the measured window */
    double throughput_per_device;
    double step_time_s;
    double phase_s[STEP__COUNT];
    double infer_s[INF__COUNT];         /* phase_s[STEP_INFER] by part */
    int    npools;
    report_pool pools[SCN_POOLS_MAX];
    double mem_peak[MB__COUNT];         /* max over device groups, per device */
    char   mem_peak_group[MB__COUNT][64];
    double mem_peak_total;              /* largest device total */
    char   mem_peak_total_group[64];
    double mem_peak_total_t;
    double mem_capacity;
    double host_peak, host_capacity;
    int    iterations, warmup, devices;
    double window_s;
    uint64_t events, pipeline_ops;
    double sim_wall_s;
    double sim_loop_wall_s;     /* sim_wall_s less set-up and the analytic training tasks */
    double sim_time_s;
    double tokens_generated, tokens_trained, tokens_wasted, tokens_in_flight;
    int64_t preemptions;        /* paged KV: sequences taken off a full cache */
    double preempt_tokens, preempt_cost_s;
    int64_t samples_trained, samples_discarded, samples_mixed;
    int    staleness_bound;     /* the scenario's */
    double stale_share;         /* plan.stale_share */
    int    bound_changes;       /* how many times hooks changed it */
    int    bound_step[SIM_BOUND_LOG], bound_value[SIM_BOUND_LOG];   /* the first changes: from step, new bound */
    int    bound_final, bound_max;
    int    lag_top;             /* the histogram runs 0..lag_top: max(largest bound, largest lag) */
    int    lag_max;
    double lag_mean;
    int64_t lag_hist[SCN_STALENESS_MAX + 1];
    double dq_bytes_padded, dq_bytes_packed, dq_load_factor, dq_reads_flat, dq_reads_hier, dq_time_s;
    double dq_rollout_out, dq_aux_in, dq_aux_out, dq_train_in, dq_aux_time_s;
    double plugin_time_s;
} report;

void report_compute(const sim *s, report *r);
void report_text(const sim *s, const report *r, fs_buf *out, bool color);
/* JSON; with `pretty` indented.  Key order is fixed; wall-clock figures are
** the only values that change between identical runs. */
void report_json(const sim *s, const report *r, fs_buf *out, bool pretty);
void report_json_fields(const sim *s, const report *r, fs_json *j);

#endif
