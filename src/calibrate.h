/*
** calibrate.h — fitting a scenario's efficiency knobs to the step times of a
** measured run (`fusync calibrate`, docs/calibration.md, "Calibrating to
** your own run").
**
** The measured file is CSV (a header line), JSON lines or verl's console
** log ("step:N - key:value - ..."), one row per training step.  Its columns are recognised by name — the plain form
** (generate_s, inference_s, train_s, switch_s, weight_sync_s, step_s, each
** also as _ms; response_len_mean, response_len_max, response_tokens,
** prompt_len_mean), the
** names verl, SkyRL and OpenRLHF log, or a mapping file's — and mapped onto
** the phases of a fusync step.  Each row is simulated on its own, with the
** scenario's length distributions rescaled to the row's measured response
** mean (and capped at its maximum), and the named knobs are fitted by
** bounded Levenberg–Marquardt least squares on the relative errors of the
** per-phase times.  Deterministic: the same inputs give the same fit.
*/
#ifndef FUSYNC_CALIBRATE_H
#define FUSYNC_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include "scenario.h"

#define CAL_KNOBS_MAX 10
#define CAL_ROWS_MAX 2000
#define CAL_ROWS_MIN 3
#define CAL_FILE_MAX (16L << 20)
/* A knob is flat when a 10% move along a direction it takes part in
** changes the fitted times by less than this, rms. */
#define CAL_FLAT_REL 0.002
/* A knob whose one-sigma standard error passes this (relative) is not
** determined by the data: a 100% error leaves even its sign open. */
#define CAL_SE_MAX 1.0

/* What a measured column can stand for. */
typedef enum {
    CP_GENERATE,        /* rollout alone */
    CP_GENERATE_SW,     /* rollout with the switch and weight sync in it (verl's timing_s/gen) */
    CP_INFER,           /* old log-probs, reference, critic values, reward model */
    CP_TRAIN,           /* actor (and critic) updates */
    CP_SWITCH,
    CP_SYNC,            /* weight sync to a separate rollout pool */
    CP_STEP,            /* the whole step */
    CP__COUNT
} cal_phase;

const char *cal_phase_name(cal_phase p);

typedef struct {
    int     nrows;
    double *t;                  /* nrows x CP__COUNT seconds; NAN where absent */
    bool    has[CP__COUNT];
    double *resp_mean, *resp_max, *prompt_mean;   /* per row; NAN absent */
    double *resp_tokens;        /* response tokens of the whole step; NAN absent */
    bool    has_resp_mean, has_resp_max, has_prompt_mean, has_resp_tokens;
    char    used[1024];         /* "column -> phase" list, for the report */
    char    unused[1024];       /* columns read but not used */
} cal_data;

/* Read a measured file: JSON lines if its name ends in .jsonl / .json or its
** first non-blank byte is '{'; else verl's console log if a line holds
** "step:N - "; else CSV.  `map_path` (may be NULL): a mapping file of
** lines "COLUMN = TARGET [ms|s]", TARGET a phase name (cal_phase_name),
** response_len_mean, response_len_max, response_tokens, prompt_len_mean or
** ignore. */
bool cal_read(const char *path, const char *map_path, cal_data *d, fs_err *err);
/* The same on text already read; `name` for messages. */
bool cal_parse(const char *text, size_t len, const char *name, const char *map_text, const char *map_name,
               cal_data *d, fs_err *err);
void cal_data_free(cal_data *d);

/* The knobs: efficiency fields, in the scenario's units. */
const char *cal_knob_name(int k);        /* "train", "decode_overhead_ms", ... */
double      cal_knob_get(const scn_scenario *s, int k);
void        cal_knob_set(scn_scenario *s, int k, double v);
/* "train,hbm" (each optionally "efficiency.X") into knob indices; NULL or
** "" gives the default set. */
bool cal_knobs_parse(const char *list, int *knobs, int *n, fs_err *err);

typedef struct {
    int    nknobs;
    int    knob[CAL_KNOBS_MAX];
    double start[CAL_KNOBS_MAX], value[CAL_KNOBS_MAX], lo[CAL_KNOBS_MAX], hi[CAL_KNOBS_MAX];
    double sensitivity[CAL_KNOBS_MAX];  /* rms relative change of the fitted times per +10% of the knob */
    double uncertainty[CAL_KNOBS_MAX];  /* one standard error, relative to the value (from the residuals'
                                        ** spread and JᵀJ; INFINITY along an exactly flat direction) */
    /* The knobs' covariance for propagation (src/uncert.c), relative to the
    ** values: sd_i·sd_j·corr_ij.  Along a flat direction, where the fit's
    ** own variance is unbounded, the variance of the least pinned direction
    ** the fit still calls pinned (eigenvalue CAL_FLAT_REL²), so it stays
    ** finite and as wide as the data allow telling apart. */
    double cov_sd[CAL_KNOBS_MAX];
    double corr[CAL_KNOBS_MAX][CAL_KNOBS_MAX];
    int    cov_rows;                    /* the residuals behind it */
    bool   at_bound[CAL_KNOBS_MAX];
    bool   flat[CAL_KNOBS_MAX];         /* the data cannot pin it down */
    /* Its standard error above CAL_SE_MAX or unbounded (relative to the
    ** value; for a knob fitted to zero, to its start value), as along an
    ** exactly flat direction: not written as fitted — cal_apply and `--out`
    ** keep its start value. */
    bool   undetermined[CAL_KNOBS_MAX];
    int    ndetermined;                 /* knobs not undetermined */
    bool   fitted_phase[CP__COUNT];     /* phases the fit used */
    double meas_mean[CP__COUNT], model_mean[CP__COUNT];  /* seconds per step, over the rows */
    double rms[CP__COUNT], bias[CP__COUNT];              /* relative (model - measured) / measured */
    double fit_rms;                     /* over every fitted (row, phase) */
    double loo_error;                   /* rms relative error of the left-out rows' phases */
    double step_rms;                    /* rms relative error of the step time (sum of fitted phases) */
    int    iterations, simulations;
    double start_ratio;                 /* measured / model at the start, median over rows */
} cal_result;

/* Fit `knobs` of the placed scenario `s` (as runner_scenario gives it) to
** the rows of d.  False with err (code 2) for input it cannot use (times in
** milliseconds, too few rows, an infeasible run). */
typedef void (*cal_progress_fn)(int simulations, void *ud);
bool cal_fit(const scn_scenario *s, const cal_data *d, const int *knobs, int nknobs, cal_result *res,
             fs_err *err);
/* The same, calling `progress` (when not NULL) after every simulated step. */
bool cal_fit_progress(const scn_scenario *s, const cal_data *d, const int *knobs, int nknobs,
                      cal_progress_fn progress, void *ud, cal_result *res, fs_err *err);
/* The scenario with the fitted values; an undetermined knob keeps the
** scenario's own (start) value. */
void cal_apply(scn_scenario *s, const cal_result *res);
/* An upper bound of the simulated steps a fit of nknobs knobs to nrows
** measured steps takes: linear in nrows (the fit and its cross-validation
** use at most 64 rows), and never past the fit's cap. */
long cal_sims_bound(int nrows, int nknobs);

/* Small text helpers shared by the reader and the fit: blanks off both
** ends (in place); "a, b, c" lists in a fixed buffer. */
char *cal_trim(char *s);
void  cal_list_add(char *list, size_t n, const char *item);

#endif
