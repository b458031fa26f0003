/*
** report.h — the figures of a finished run, computed from the trace and the
** engine's counters, and their text and JSON forms.
*/
#ifndef FUSYNC_REPORT_H
#define FUSYNC_REPORT_H

#include "engine.h"
#include "jsonr.h"

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
    /* model FLOPs utilization by step phase (docs/model.md's FLOPs, not the
    ** hardware's: no recomputation): the actor's model FLOPs of the phase's
    ** tokens per step over (devices × peak FLOP/s × the phase's seconds per
    ** step); 0 where the phase took no time */
    double flops_per_token;     /* actor forward FLOPs per token trained, at the mean length */
    double mfu_generate, mfu_inference, mfu_train;
    /* An interval on throughput and step time (src/uncert.c fills it;
    ** report_compute leaves it empty: interval_source ""). */
    char   interval_source[16];         /* "calibration" or "validation" */
    double tput_lo, tput_hi, step_lo, step_hi;
    int    interval_draws;              /* calibration: knob vectors simulated ... */
    int    interval_infeasible;         /* ... and of them infeasible, left out */
    int    interval_rows;               /* validation: the table's rows behind it */
    double interval_q;                  /* validation: the |error| it spans */
} report;

/* One training step of a run (report_steps): when it ran on the training
** pool's step track, its split, its tokens and the mean lag it trained at. */
typedef struct {
    int    step;
    double start_s, end_s;
    double phase_s[STEP__COUNT];
    double tokens;              /* prompt + response tokens of its batch */
    double resp_tokens;         /* response tokens of its batch */
    double lag_mean;
} report_step;

typedef struct report_steps report_steps;
/* Watch a run's trace for its steps: a sink on the trace, which hands every
** event on to the sink already there (chrome_open's), so attach after it.
** (Closing the run detaches both.) */
report_steps *report_steps_attach(sim *s, const trace_sink *next);
void report_steps_free(report_steps *w);
int  report_steps_count(const report_steps *w);
const report_step *report_steps_at(const report_steps *w, int i);
/* Finish (the batches' lengths and lags, read once the run has ended). */
void report_steps_finish(report_steps *w, const sim *s);
/* The steps as CSV: what made it (report_csv_made), a header, one row a
** step (with the framework's keys when fwn_active names one). */
void report_steps_csv(const report_steps *w, const sim *s, fs_buf *out);
void report_steps_json(const report_steps *w, const sim *s, fs_json *j);

/* The resolved scenario as the field table names it (src/fields.c): an
** object of dotted paths to values, under `key`. */
void report_scenario_json(const scn_scenario *sc, fs_json *j, const char *key);

/* The comment lines every CSV fusync writes opens with (docs/cli.md, "What
** made a file"): "# fusync_version=VERSION", then "# scenario_field
** PATH=VALUE" for each member of fields_json (report_scenario_json's
** object as JSON text; NULL or unreadable: the version line alone), VALUE
** as compact JSON, so no line break or invalid UTF-8 of a name reaches the
** file.  Every line starts with '#': the CSV readers' comment prefix. */
void report_csv_made(const char *version, const char *fields_json, fs_buf *out);
/* The same for a resolved scenario, with this fusync's version. */
void report_csv_made_scenario(const scn_scenario *sc, fs_buf *out);
/* A parsed JSON value as compact JSON text (numbers as they were written). */
void report_jv_write(fs_buf *b, const jv *v);

void report_compute(const sim *s, report *r);
void report_text(const sim *s, const report *r, fs_buf *out, bool color);
/* The report's "Interval" line (none when r has no interval), bold on by B
** and off by R ("" for plain text). */
void report_interval_text(const report *r, fs_buf *out, const char *B, const char *R);
/* JSON; with `pretty` indented.  Key order is fixed; wall-clock figures are
** the only values that change between identical runs. */
void report_json(const sim *s, const report *r, fs_buf *out, bool pretty);
/* The file `fusync run --json` writes: the same members, then the run's
** steps (NULL: none), the fusync version and the resolved scenario
** (report_json alone is the figures: two runs compare by it). */
void report_json_steps(const sim *s, const report *r, const report_steps *w, fs_buf *out, bool pretty);
void report_json_fields(const sim *s, const report *r, fs_json *j);

#endif
