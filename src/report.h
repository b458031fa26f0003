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

/* A finished run's figures.  The engine's counters come whole (`stats`,
** and by their own names: r->tokens_generated is r->stats.tokens_generated);
** the members below them are what report_compute derives from the run: the
** measured window, the pools' time, memory, feasibility, the lag summary.
** Which of these a report shows, and under what names, is the table of
** src/report_fields.c. */
typedef struct {
    union {
        sim_stats stats;
        struct { SIM_STATS_MEMBERS };
    };
    char   scenario[SCN_NAME_MAX];
    char   mode[16];
    bool   feasible;
    char   why[512];            /* when not feasible; "" otherwise */
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
    double sim_wall_s;
    double sim_loop_wall_s;     /* sim_wall_s less set-up and the analytic training tasks */
    double sim_time_s;
    int    staleness_bound;     /* the scenario's */
    double stale_share;         /* plan.stale_share */
    int    bound_final;         /* the bound at the end, as hooks left it */
    int    lag_top;             /* the histogram runs 0..lag_top: max(largest bound, largest lag) */
    double lag_mean;
    double dq_load_factor;      /* hierarchical / flat reads */
    double dq_time_s;           /* the training pool's DistQueue reads per step */
} report;

void report_compute(const sim *s, report *r);
void report_text(const sim *s, const report *r, fs_buf *out, bool color);
/* JSON; with `pretty` indented.  Key order is fixed; wall-clock figures are
** the only values that change between identical runs. */
void report_json(const sim *s, const report *r, fs_buf *out, bool pretty);
void report_json_fields(const sim *s, const report *r, fs_json *j);

#endif
