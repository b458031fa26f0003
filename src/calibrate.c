/*
** calibrate.c — the knob fit of `fusync calibrate` (calibrate.h); the
** measured file's reader is calibrate_read.c.
**
** The fit: Levenberg–Marquardt (Levenberg 1944, Marquardt 1963) on the
** relative residuals (model - measured) / measured of every fitted (row,
** phase), with knobs in units of their start value, a forward-difference
** Jacobian and box bounds by projection.  Flat directions are the
** eigenvectors of JᵀJ (Jacobi rotations) whose eigenvalue is too small for
** the data to move: a 10% move along one changes the fitted times by less
** than CAL_FLAT_REL rms.  docs/calibration.md describes it for users.
*/
#include "calibrate.h"
#include "dist.h"
#include "jsonr.h"
#include "runner.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAL_ITER_MAX 40
#define CAL_LOO_ITER_MAX 12
/* The cost stays linear in the measured steps: the least-squares fit and its
** cross-validation use at most CAL_FIT_ROWS rows, evenly spaced over the
** run, and the cross-validation CAL_FOLDS groups of them (leave-one-out
** when there are no more rows than groups); every row is still prepared,
** predicted and reported.  CAL_SIMS_MAX caps the simulated steps of one fit. */
#define CAL_FIT_ROWS 64
#define CAL_FOLDS 10
#define CAL_SIMS_MAX 400000
/* Difference steps, in units of a knob's scale.  The simulated times are
** not smooth at every scale (a decode overhead changes which samples join
** which batch), so the fit first follows differences over 10% of a knob,
** which step over those ripples, then refines with 3%. */
static const double FD_STEPS[] = {0.10, 0.03};


/* --------------------------------------------------------------- knobs */

/* Knobs in the scenario's units (docs/scenarios.md, efficiency), with the
** fit's bounds and the floor of the scale a knob is fitted in. */
static const struct {
    const char *name;
    size_t off;
    double unit;            /* scenario unit -> C value */
    double lo, hi, floor;
} KNOBS[] = {
    {"train", offsetof(scn_efficiency, train), 1, 0.005, 1, 0.01},
    {"prefill", offsetof(scn_efficiency, prefill), 1, 0.005, 1, 0.01},
    {"decode", offsetof(scn_efficiency, decode), 1, 0.005, 1, 0.01},
    {"hbm", offsetof(scn_efficiency, hbm), 1, 0.01, 1, 0.01},
    {"link", offsetof(scn_efficiency, link), 1, 0.005, 1, 0.01},
    {"host_link", offsetof(scn_efficiency, host_link), 1, 0.005, 1, 0.01},
    {"decode_overhead_ms", offsetof(scn_efficiency, decode_overhead_s), 1e-3, 0, 1000, 0.1},
    {"train_overhead_ms", offsetof(scn_efficiency, train_overhead_s), 1e-3, 0, 1e6, 1},
    {"switch_overhead_s", offsetof(scn_efficiency, switch_overhead_s), 1, 0, 1e4, 0.01},
    {"reward_rule_ms", offsetof(scn_efficiency, reward_rule_s), 1e-3, 0, 1e4, 0.01},
};
#define NKNOBS ((int)(sizeof KNOBS / sizeof KNOBS[0]))

static const int DEFAULT_KNOBS[] = {0, 1, 2, 3, 6};   /* the efficiencies of compute and HBM, the decode overhead */

const char *cal_knob_name(int k) { return k >= 0 && k < NKNOBS ? KNOBS[k].name : NULL; }

double cal_knob_get(const scn_scenario *s, int k)
{
    const double *p = (const double *)((const char *)&s->eff + KNOBS[k].off);
    return *p / KNOBS[k].unit;
}

void cal_knob_set(scn_scenario *s, int k, double v)
{
    double *p = (double *)((char *)&s->eff + KNOBS[k].off);
    *p = v * KNOBS[k].unit;
}

bool cal_knobs_parse(const char *list, int *knobs, int *n, fs_err *err)
{
    *n = 0;
    if (!list || !*list) {
        for (size_t i = 0; i < sizeof DEFAULT_KNOBS / sizeof DEFAULT_KNOBS[0]; i++) knobs[(*n)++] = DEFAULT_KNOBS[i];
        return true;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *k = cal_trim(tok);
        if (!strncmp(k, "efficiency.", 11)) k += 11;
        int found = -1;
        for (int i = 0; i < NKNOBS; i++) if (!strcmp(KNOBS[i].name, k)) found = i;
        if (found < 0) {
            const char *best = NULL;
            int bd = 4;
            for (int i = 0; i < NKNOBS; i++) {
                int dd = str_distance(k, KNOBS[i].name);
                if (dd < bd) { bd = dd; best = KNOBS[i].name; }
            }
            char names[400] = "";
            for (int i = 0; i < NKNOBS; i++) cal_list_add(names, sizeof names, KNOBS[i].name);
            fs_err_set(err, 2, "--fit: '%.60s' is not a knob%s%s%s; the knobs are %s", k, best ? " (did you mean '" : "",
                       best ? best : "", best ? "'?)" : "", names);
            return false;
        }
        for (int i = 0; i < *n; i++)
            if (knobs[i] == found) { fs_err_set(err, 2, "--fit: '%s' is named twice", k); return false; }
        if (*n == CAL_KNOBS_MAX) { fs_err_set(err, 2, "--fit: at most %d knobs", CAL_KNOBS_MAX); return false; }
        knobs[(*n)++] = found;
    }
    if (*n == 0) { fs_err_set(err, 2, "--fit: no knob named; e.g. --fit train,hbm,decode_overhead_ms"); return false; }
    return true;
}

/* ------------------------------------------------------------ the model */

typedef struct {
    const scn_scenario *base;
    const cal_data *d;
    scn_scenario *row;          /* per row: lengths set, knobs at the base's */
    const int *knobs;
    int nknobs;
    double scale[CAL_KNOBS_MAX];
    double fd;                  /* the difference step now */
    bool fit[CP__COUNT];
    int sims;
    cal_progress_fn progress;
    void *ud;
    fs_err *err;
} model;

static void scale_dist(scn_dist *d, double k)
{
    switch (d->kind) {
    case DIST_FIXED: d->a *= k; break;
    case DIST_UNIFORM: d->a *= k; d->b *= k; break;
    case DIST_LOGNORMAL: d->a *= k; break;
    case DIST_HIST: for (int i = 0; i <= d->nbins; i++) d->edge[i] *= k; break;
    }
}

/* One measured step of scenario s: the report's figures. */
static bool simulate(model *m, const scn_scenario *s, report *rep)
{
    if (fs_stop_signal) {
        fs_err_set(m->err, fs_stop_status(), "interrupted; no output written");
        return false;
    }
    if (fs_budget_spent(m->err)) return false;
    if (m->sims >= CAL_SIMS_MAX) {
        fs_err_set(m->err, 2, "calibrate: more than %d simulated steps; fit fewer knobs (--fit)", CAL_SIMS_MAX);
        return false;
    }
    runner_spec spec = {.scn = s, .headless = true};
    runner *r = runner_open(&spec, m->err);
    if (!r) return false;
    m->sims++;
    bool ok = runner_close(r, rep, m->err);
    if (m->progress) m->progress(m->sims, m->ud);
    runner_free(r);
    if (ok && !rep->feasible) {
        fs_err_set(m->err, 2, "the scenario's run is infeasible at these knobs: %s", rep->why);
        ok = false;
    }
    return ok;
}

static double sampled_mean(const report *rep)
{
    return rep->samples_trained > 0 ? rep->tokens_generated / (double)rep->samples_trained : 0;
}

/* Per row: the scenario with the row's lengths.  The response distribution
** keeps its shape and is scaled until the simulated step's mean response
** (tokens generated / samples trained) is the row's; its cap and the hard
** cap become the row's maximum. */
static bool prepare_rows(model *m)
{
    const cal_data *d = m->d;
    m->row = xmalloc(sizeof(scn_scenario) * (size_t)d->nrows);
    for (int r = 0; r < d->nrows; r++) {
        scn_scenario *s = &m->row[r];
        *s = *m->base;
        s->work.iterations = s->work.warmup + 1;
        if (d->has_prompt_mean && d->prompt_mean[r] >= 1) {
            double pm = dist_mean(&s->work.prompt_len, 0);
            if (pm > 0) scale_dist(&s->work.prompt_len, d->prompt_mean[r] / pm);
        }
        if (d->has_resp_max && d->resp_max[r] >= 1) {
            s->work.max_response = (int)lround(d->resp_max[r]);
            s->work.response_len.cap = d->resp_max[r];
        }
        /* a step's response tokens: over the scenario's samples per step */
        double want = d->has_resp_mean ? d->resp_mean[r]
                    : d->has_resp_tokens ? d->resp_tokens[r] / ((double)scn_prompts_per_step(s) * s->work.samples_per_prompt)
                    : NAN;
        if (want > s->work.max_response) {
            /* the scaled distribution would be clipped at the cap and every
            ** knob pushed to a bound to make up the missing tokens */
            fs_err_set(m->err, 2, "calibrate: row %d: a mean response of %.0f tokens is above the scenario's "
                       "workload.max_response (%d); raise it or give response_length/max", r + 1, want,
                       s->work.max_response);
            return false;
        }
        if (want >= 1) {
            double dm = dist_mean(&s->work.response_len, s->work.max_response);
            if (dm > 0) scale_dist(&s->work.response_len, want / dm);
            for (int it = 0; it < 6; it++) {
                report rep;
                if (!simulate(m, s, &rep)) return false;
                double got = sampled_mean(&rep);
                if (got <= 0) break;
                if (fabs(got / want - 1) < 2e-4) break;
                scale_dist(&s->work.response_len, want / got);
            }
        }
    }
    return true;
}

static void set_knobs(const model *m, scn_scenario *s, const double *u)
{
    for (int i = 0; i < m->nknobs; i++) cal_knob_set(s, m->knobs[i], u[i] * m->scale[i]);
}

static double model_phase(const report *rep, int p)
{
    switch (p) {
    case CP_GENERATE: return rep->phase_s[STEP_GENERATE];
    case CP_GENERATE_SW: return rep->phase_s[STEP_GENERATE] + rep->phase_s[STEP_SWITCH] + rep->phase_s[STEP_WEIGHT_SYNC];
    case CP_INFER: return rep->phase_s[STEP_INFER];
    case CP_TRAIN: return rep->phase_s[STEP_TRAIN];
    case CP_SWITCH: return rep->phase_s[STEP_SWITCH];
    case CP_SYNC: return rep->phase_s[STEP_WEIGHT_SYNC];
    case CP_STEP: return rep->step_time_s;
    }
    return 0;
}

/* Model times of every row at knobs u: out[r * CP__COUNT + p]. */
static bool eval_rows(model *m, const double *u, const bool *use_row, double *out)
{
    for (int r = 0; r < m->d->nrows; r++) {
        if (use_row && !use_row[r]) continue;
        scn_scenario s = m->row[r];
        set_knobs(m, &s, u);
        report rep;
        if (!simulate(m, &s, &rep)) return false;
        for (int p = 0; p < CP__COUNT; p++) out[r * CP__COUNT + p] = model_phase(&rep, p);
    }
    return true;
}

/* Relative residuals of the fitted (row, phase) cells, in a fixed order. */
static int residuals(const model *m, const double *mod, const bool *use_row, double *res)
{
    int n = 0;
    for (int r = 0; r < m->d->nrows; r++) {
        if (use_row && !use_row[r]) continue;
        for (int p = 0; p < CP__COUNT; p++) {
            if (!m->fit[p]) continue;
            double meas = m->d->t[r * CP__COUNT + p];
            if (!(meas > 0)) continue;
            res[n++] = (mod[r * CP__COUNT + p] - meas) / meas;
        }
    }
    return n;
}

static double sumsq(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return s;
}

/* Solve A x = b (n x n, Gaussian elimination with partial pivoting). */
static bool solve(int n, double *A, double *b, double *x)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++) if (fabs(A[r * n + c]) > fabs(A[piv * n + c])) piv = r;
        if (fabs(A[piv * n + c]) < 1e-300) return false;
        if (piv != c) {
            for (int k = 0; k < n; k++) { double t = A[c * n + k]; A[c * n + k] = A[piv * n + k]; A[piv * n + k] = t; }
            double t = b[c]; b[c] = b[piv]; b[piv] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < n; k++) s -= A[r * n + k] * x[k];
        x[r] = s / A[r * n + r];
    }
    return true;
}

static void clamp_u(const model *m, double *u)
{
    for (int i = 0; i < m->nknobs; i++) {
        double lo = KNOBS[m->knobs[i]].lo / m->scale[i], hi = KNOBS[m->knobs[i]].hi / m->scale[i];
        if (u[i] < lo) u[i] = lo;
        if (u[i] > hi) u[i] = hi;
    }
}

/* Forward-difference Jacobian of the residuals at u (residual r0, n cells). */
static bool jacobian(model *m, const double *u, const bool *use_row, const double *r0, int n, double *J,
                     double *mod)
{
    int K = m->nknobs;
    double *rr = xmalloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    bool ok = true;
    for (int i = 0; i < K && ok; i++) {
        double v[CAL_KNOBS_MAX];
        memcpy(v, u, sizeof(double) * (size_t)K);
        double h = m->fd;
        double hi = KNOBS[m->knobs[i]].hi / m->scale[i];
        if (v[i] + h > hi) h = -h;          /* step inward at the upper bound */
        v[i] += h;
        if (!eval_rows(m, v, use_row, mod)) { ok = false; break; }
        residuals(m, mod, use_row, rr);
        for (int c = 0; c < n; c++) J[c * K + i] = (rr[c] - r0[c]) / h;
    }
    free(rr);
    return ok;
}

/* Levenberg–Marquardt from u (updated in place). */
static bool lm(model *m, double *u, const bool *use_row, int iter_max, int *iters)
{
    int K = m->nknobs;
    int cells = m->d->nrows * CP__COUNT;
    double *mod = xmalloc(sizeof(double) * (size_t)cells);
    double *r = xmalloc(sizeof(double) * (size_t)cells), *rn = xmalloc(sizeof(double) * (size_t)cells);
    double *J = xmalloc(sizeof(double) * (size_t)cells * (size_t)K);
    bool ok = eval_rows(m, u, use_row, mod);
    int n = ok ? residuals(m, mod, use_row, r) : 0;
    double cost = sumsq(r, n), lambda = 1e-2;
    int it = 0;
    for (; ok && it < iter_max; it++) {
        if (!jacobian(m, u, use_row, r, n, J, mod)) { ok = false; break; }
        double A[CAL_KNOBS_MAX * CAL_KNOBS_MAX], g[CAL_KNOBS_MAX], dmean = 0;
        for (int i = 0; i < K; i++) {
            g[i] = 0;
            for (int c = 0; c < n; c++) g[i] += J[c * K + i] * r[c];
            for (int j = 0; j < K; j++) {
                double s = 0;
                for (int c = 0; c < n; c++) s += J[c * K + i] * J[c * K + j];
                A[i * K + j] = s;
            }
            dmean += A[i * K + i] / K;
        }
        bool improved = false;
        double step = 0;
        while (lambda < 1e10) {
            double B[CAL_KNOBS_MAX * CAL_KNOBS_MAX], b[CAL_KNOBS_MAX], du[CAL_KNOBS_MAX], un[CAL_KNOBS_MAX];
            memcpy(B, A, sizeof(double) * (size_t)(K * K));
            for (int i = 0; i < K; i++) {
                /* Marquardt's diagonal scaling, with a floor so a flat knob stays put */
                B[i * K + i] += lambda * (A[i * K + i] + 1e-3 * dmean + 1e-12);
                b[i] = -g[i];
            }
            if (!solve(K, B, b, du)) { lambda *= 4; continue; }
            for (int i = 0; i < K; i++) un[i] = u[i] + du[i];
            clamp_u(m, un);
            if (!eval_rows(m, un, use_row, mod)) { ok = false; break; }
            residuals(m, mod, use_row, rn);
            double cn = sumsq(rn, n);
            if (cn < cost) {
                step = 0;
                for (int i = 0; i < K; i++) step = fmax(step, fabs(un[i] - u[i]));
                double gain = cost - cn;
                memcpy(u, un, sizeof(double) * (size_t)K);
                memcpy(r, rn, sizeof(double) * (size_t)n);
                cost = cn;
                lambda = fmax(lambda / 3, 1e-7);
                improved = gain > 1e-9 * (1 + cost);
                break;
            }
            lambda *= 4;
        }
        if (!ok || !improved || step < 1e-5) break;
    }
    if (iters) *iters = it;
    free(mod);
    free(r);
    free(rn);
    free(J);
    return ok;
}

/* Eigen-decomposition of a symmetric K x K matrix by cyclic Jacobi
** rotations: A is destroyed, w gets the eigenvalues, V the eigenvectors
** (columns). */
static void jacobi_eigen(int K, double *A, double *w, double *V)
{
    for (int i = 0; i < K; i++) for (int j = 0; j < K; j++) V[i * K + j] = i == j;
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0;
        for (int i = 0; i < K; i++) for (int j = i + 1; j < K; j++) off += A[i * K + j] * A[i * K + j];
        if (off < 1e-30) break;
        for (int p = 0; p < K; p++)
            for (int q = p + 1; q < K; q++) {
                double apq = A[p * K + q];
                if (fabs(apq) < 1e-300) continue;
                double theta = (A[q * K + q] - A[p * K + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < K; k++) {
                    double akp = A[k * K + p], akq = A[k * K + q];
                    A[k * K + p] = c * akp - s * akq;
                    A[k * K + q] = s * akp + c * akq;
                }
                for (int k = 0; k < K; k++) {
                    double apk = A[p * K + k], aqk = A[q * K + k];
                    A[p * K + k] = c * apk - s * aqk;
                    A[q * K + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < K; k++) {
                    double vkp = V[k * K + p], vkq = V[k * K + q];
                    V[k * K + p] = c * vkp - s * vkq;
                    V[k * K + q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < K; i++) w[i] = A[i * K + i];
}

static int fit_rows(int nrows) { return nrows < CAL_FIT_ROWS ? nrows : CAL_FIT_ROWS; }

long cal_sims_bound(int nrows, int nknobs)
{
    long F = fit_rows(nrows), G = F < CAL_FOLDS ? F : CAL_FOLDS, K = nknobs;
    /* lengths: up to 6 runs a row; the start and the final evaluation; per
    ** Levenberg–Marquardt iteration a Jacobian (K runs a row) and about two
    ** tries; the flat-direction Jacobian over every row; each fold's refit */
    long n = 6L * nrows + 2L * nrows + K * nrows;
    n += (long)(sizeof FD_STEPS / sizeof FD_STEPS[0]) * CAL_ITER_MAX * (K + 2) * F;
    n += G * (CAL_LOO_ITER_MAX * (K + 2) * (F - F / G) + F / G + 1);
    return n < CAL_SIMS_MAX ? n : CAL_SIMS_MAX;
}

bool cal_fit(const scn_scenario *s, const cal_data *d, const int *knobs, int nknobs, cal_result *res, fs_err *err)
{
    return cal_fit_progress(s, d, knobs, nknobs, NULL, NULL, res, err);
}

bool cal_fit_progress(const scn_scenario *s, const cal_data *d, const int *knobs, int nknobs,
                      cal_progress_fn progress, void *ud, cal_result *res, fs_err *err)
{
    memset(res, 0, sizeof *res);
    if (nknobs < 1 || nknobs > CAL_KNOBS_MAX) { fs_err_set(err, 2, "calibrate: 1 to %d knobs", CAL_KNOBS_MAX); return false; }
    if (d->nrows < CAL_ROWS_MIN) {
        fs_err_set(err, 2, "calibrate: %d steps; at least %d are needed", d->nrows, CAL_ROWS_MIN);
        return false;
    }
    model m = {.base = s, .d = d, .knobs = knobs, .nknobs = nknobs, .err = err, .progress = progress, .ud = ud};
    /* the phases: all that are given, the step only when no phase is */
    bool anyphase = false;
    for (int p = 0; p < CP__COUNT; p++) if (p != CP_STEP && d->has[p]) { m.fit[p] = true; anyphase = true; }
    if (!anyphase) m.fit[CP_STEP] = true;
    memcpy(res->fitted_phase, m.fit, sizeof m.fit);
    res->nknobs = nknobs;
    double u[CAL_KNOBS_MAX];
    for (int i = 0; i < nknobs; i++) {
        int k = knobs[i];
        res->knob[i] = k;
        res->start[i] = cal_knob_get(s, k);
        res->lo[i] = KNOBS[k].lo;
        res->hi[i] = KNOBS[k].hi;
        m.scale[i] = fmax(res->start[i], KNOBS[k].floor);
        u[i] = res->start[i] / m.scale[i];
    }
    clamp_u(&m, u);

    int cells = d->nrows * CP__COUNT;
    double *mod = xmalloc(sizeof(double) * (size_t)cells);
    double *r = xmalloc(sizeof(double) * (size_t)cells);
    double *J = xmalloc(sizeof(double) * (size_t)cells * (size_t)nknobs);
    bool ok = prepare_rows(&m) && eval_rows(&m, u, NULL, mod);
    if (ok) {
        /* plausibility: measured against modelled at the start, median over rows */
        double ratios[CAL_ROWS_MAX];
        int nr = 0;
        for (int row = 0; row < d->nrows; row++) {
            double a = 0, b = 0;
            for (int p = 0; p < CP__COUNT; p++)
                if (m.fit[p] && d->t[row * CP__COUNT + p] > 0) { a += d->t[row * CP__COUNT + p]; b += mod[row * CP__COUNT + p]; }
            if (a > 0 && b > 0) ratios[nr++] = a / b;
        }
        for (int i = 1; i < nr; i++)
            for (int j = i; j > 0 && ratios[j] < ratios[j - 1]; j--) { double t = ratios[j]; ratios[j] = ratios[j - 1]; ratios[j - 1] = t; }
        res->start_ratio = nr ? ratios[nr / 2] : 0;
        if (nr == 0) {
            fs_err_set(err, 2, "calibrate: every measured phase time is 0; nothing to fit");
            ok = false;
        } else if (res->start_ratio > 50) {
            fs_err_set(err, 2, "calibrate: the measured times are %.0fx what the scenario gives at its own knobs: are "
                       "they milliseconds? Name the columns *_ms, or give 'ms' in the mapping file (docs/calibration.md); "
                       "else check that the scenario describes the measured run", res->start_ratio);
            ok = false;
        } else if (res->start_ratio < 1.0 / 50) {
            fs_err_set(err, 2, "calibrate: the measured times are 1/%.0f of what the scenario gives at its own knobs; "
                       "check the units (seconds) and that the scenario describes the measured run (model, devices, "
                       "batch)", 1 / res->start_ratio);
            ok = false;
        }
    }
    /* the rows the fit uses: all, or CAL_FIT_ROWS evenly spaced */
    int nfit = fit_rows(d->nrows);
    bool *fitset = NULL;
    int *fitrow = xmalloc(sizeof(int) * (size_t)nfit);
    if (nfit < d->nrows) fitset = xcalloc((size_t)d->nrows, sizeof(bool));
    for (int j = 0; j < nfit; j++) {
        fitrow[j] = (int)((long)j * d->nrows / nfit);
        if (fitset) fitset[fitrow[j]] = true;
    }
    for (size_t i = 0; ok && i < sizeof FD_STEPS / sizeof FD_STEPS[0]; i++) {
        int it = 0;
        m.fd = FD_STEPS[i];
        ok = lm(&m, u, fitset, CAL_ITER_MAX, &it);
        res->iterations += it;
    }
    int n = 0;
    if (ok) ok = eval_rows(&m, u, NULL, mod);
    if (ok) {
        n = residuals(&m, mod, NULL, r);
        res->fit_rms = n ? sqrt(sumsq(r, n) / n) : 0;
        for (int i = 0; i < nknobs; i++) {
            res->value[i] = u[i] * m.scale[i];
            res->at_bound[i] = res->value[i] <= res->lo[i] * (1 + 1e-9) || res->value[i] >= res->hi[i] * (1 - 1e-9);
        }
        for (int p = 0; p < CP__COUNT; p++) {
            if (!d->has[p]) continue;
            double sm = 0, sd = 0, ss = 0, sb = 0;
            int k = 0;
            for (int row = 0; row < d->nrows; row++) {
                double meas = d->t[row * CP__COUNT + p], mo = mod[row * CP__COUNT + p];
                sm += meas;
                sd += mo;
                if (meas > 0) { double e = (mo - meas) / meas; ss += e * e; sb += e; k++; }
            }
            res->meas_mean[p] = sm / d->nrows;
            res->model_mean[p] = sd / d->nrows;
            res->rms[p] = k ? sqrt(ss / k) : 0;
            res->bias[p] = k ? sb / k : 0;
        }
        double ss = 0;
        for (int row = 0; row < d->nrows; row++) {
            double a = 0, b = 0;
            for (int p = 0; p < CP__COUNT; p++)
                if (m.fit[p] && d->t[row * CP__COUNT + p] > 0) { a += d->t[row * CP__COUNT + p]; b += mod[row * CP__COUNT + p]; }
            if (a > 0) ss += (b - a) * (b - a) / (a * a);
        }
        res->step_rms = sqrt(ss / d->nrows);
        /* flat directions: JᵀJ per cell, in units of a 10% move of each knob */
        ok = jacobian(&m, u, NULL, r, n, J, mod);
    }
    if (ok) {
        int K = nknobs;
        double A[CAL_KNOBS_MAX * CAL_KNOBS_MAX], w[CAL_KNOBS_MAX], V[CAL_KNOBS_MAX * CAL_KNOBS_MAX];
        for (int i = 0; i < K; i++) {
            /* J is per unit of scale; a 10% move of the knob is 0.1 * value / scale units */
            double fi = 0.1 * fmax(u[i], 1e-3);
            for (int j = 0; j < K; j++) {
                double fj = 0.1 * fmax(u[j], 1e-3), sacc = 0;
                for (int c = 0; c < n; c++) sacc += J[c * K + i] * fi * J[c * K + j] * fj;
                A[i * K + j] = sacc / (n ? n : 1);
            }
            res->sensitivity[i] = sqrt(A[i * K + i]);
        }
        jacobi_eigen(K, A, w, V);
        for (int e = 0; e < K; e++) {
            if (sqrt(fmax(w[e], 0)) >= CAL_FLAT_REL) continue;
            for (int i = 0; i < K; i++) if (fabs(V[i * K + e]) > 0.3) res->flat[i] = true;
        }
        /* standard errors: cov(x / 10%) = s² / n · A⁻¹, s² the residual variance
        ** over n - K degrees of freedom; A⁻¹ through its eigen-decomposition */
        double s2 = n > K ? sumsq(r, n) / (n - K) : 0, se_scale[CAL_KNOBS_MAX];
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int e = 0; e < K; e++) {
                double c = V[i * K + e] * V[i * K + e];
                if (c < 1e-24) continue;
                v += w[e] > 1e-18 ? c / w[e] : INFINITY;
            }
            res->uncertainty[i] = 0.1 * sqrt(s2 / (n ? n : 1) * v);
            /* in units of the knob's scale (its start value or floor) */
            se_scale[i] = res->uncertainty[i] * fmax(u[i], 1e-3);
            if (u[i] < 1e-3) res->uncertainty[i] = INFINITY;   /* at zero: no relative figure */
        }
        /* the same covariance with each eigenvalue floored at the flat
        ** threshold: C_ij = 0.01 · s²/n · Σ_e V_ie V_je / max(w_e, flat²) */
        double C[CAL_KNOBS_MAX * CAL_KNOBS_MAX];
        for (int i = 0; i < K; i++)
            for (int j = 0; j < K; j++) {
                double c = 0;
                for (int e = 0; e < K; e++) c += V[i * K + e] * V[j * K + e] / fmax(w[e], CAL_FLAT_REL * CAL_FLAT_REL);
                C[i * K + j] = 0.01 * s2 / (n ? n : 1) * c;
            }
        for (int i = 0; i < K; i++) res->cov_sd[i] = sqrt(fmax(C[i * K + i], 0));
        for (int i = 0; i < K; i++)
            for (int j = 0; j < K; j++)
                res->corr[i][j] = i == j ? 1 : res->cov_sd[i] > 0 && res->cov_sd[j] > 0
                                  ? fmax(-1, fmin(1, C[i * K + j] / (res->cov_sd[i] * res->cov_sd[j]))) : 0;
        res->cov_rows = n;
        /* Undetermined: a standard error past CAL_SE_MAX (or none at all).
        ** That holds for every knob of an exactly flat direction (unbounded
        ** variance), and for a flat one (CAL_FLAT_REL) when the residuals'
        ** spread leaves it that wide; a flat knob the data still pins
        ** within it stays fitted (docs/calibration.md, "What it fits, and
        ** how").  A knob outside every flat direction can still take a
        ** rounding-sized part of an exactly flat one, which makes its exact
        ** variance unbounded: it is judged (and reported) by the floored
        ** covariance above instead.  A knob fitted to zero has no relative
        ** error: its error is taken relative to its scale, the fit's unit. */
        for (int i = 0; i < K; i++) {
            if (!res->flat[i] && !isfinite(se_scale[i])) {
                se_scale[i] = res->cov_sd[i] * fmax(u[i], 1e-3);
                if (u[i] >= 1e-3) res->uncertainty[i] = res->cov_sd[i];
            }
            double rel = u[i] < 1e-3 ? se_scale[i] : res->uncertainty[i];
            res->undetermined[i] = !(rel <= CAL_SE_MAX);
            if (!res->undetermined[i]) res->ndetermined++;
        }
    }
    /* cross-validation: refit without each group of the fit's rows (row j
    ** of them in group j mod G), predict the group */
    if (ok) {
        bool *use = xmalloc(sizeof(bool) * (size_t)d->nrows);
        double ss = 0;
        int cnt = 0, G = nfit < CAL_FOLDS ? nfit : CAL_FOLDS;
        for (int out = 0; out < G && ok; out++) {
            memset(use, 0, sizeof(bool) * (size_t)d->nrows);
            for (int j = 0; j < nfit; j++) use[fitrow[j]] = j % G != out;
            double v[CAL_KNOBS_MAX];
            memcpy(v, u, sizeof v);
            ok = lm(&m, v, use, CAL_LOO_ITER_MAX, NULL);
            memset(use, 0, sizeof(bool) * (size_t)d->nrows);
            for (int j = 0; j < nfit; j++) use[fitrow[j]] = j % G == out;
            if (ok) ok = eval_rows(&m, v, use, mod);
            if (ok) {
                int k = residuals(&m, mod, use, r);
                ss += sumsq(r, k);
                cnt += k;
            }
        }
        free(use);
        res->loo_error = cnt ? sqrt(ss / cnt) : 0;
    }
    /* a knob the fit could not determine is an error, never a silent default
    ** (nor a `null` in --out or --json) */
    for (int i = 0; ok && i < nknobs; i++)
        if (!isfinite(res->value[i])) {
            fs_err_set(err, 2, "calibrate: the fit left %s undetermined (no finite value); check the measured "
                       "times", cal_knob_name(knobs[i]));
            ok = false;
        }
    if (ok && !isfinite(res->loo_error)) {
        fs_err_set(err, 2, "calibrate: the cross-validation error is not finite; check the measured times");
        ok = false;
    }
    res->simulations = m.sims;
    free(fitset);
    free(fitrow);
    free(mod);
    free(r);
    free(J);
    free(m.row);
    return ok;
}

void cal_apply(scn_scenario *s, const cal_result *res)
{
    for (int i = 0; i < res->nknobs; i++)
        if (!res->undetermined[i]) cal_knob_set(s, res->knob[i], res->value[i]);
}
