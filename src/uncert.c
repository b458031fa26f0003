/*
** uncert.c — the interval on a run's throughput and step time (uncert.h;
** docs/model.md, section 12, "Intervals").
**
** Calibrated: the knobs' covariance is the fit's s²/n·(JᵀJ)⁻¹, the
** Gauss–Newton estimate of a least-squares fit's parameter covariance
** (Seber and Wild, Nonlinear Regression, 1989, section 2.1).  It is
** propagated by simulation, not by a linearisation: the step time is not
** linear in the knobs (a slower decode changes which samples share a batch,
** a co-located step adds its phases, a separate one overlaps them), so each
** drawn knob vector is simulated and the interval is read off the simulated
** figures.  Uncalibrated: the error spread of the validation table's
** predicted rows (src/uncert_table.h).
*/
#include "uncert.h"
#include "dist.h"
#include "fields.h"
#include "engine.h"
#include "rtable.h"
#include "runner.h"
#include "workers.h"
#include "uncert_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double unc_quantile(double *v, int n, double p)
{
    if (n <= 0) return NAN;
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && v[k - 1] > v[k]; k--) { double t = v[k]; v[k] = v[k - 1]; v[k - 1] = t; }
    double h = (n - 1) * p;
    int lo = (int)h;
    if (lo >= n - 1) return v[n - 1];
    return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}

/* The efficiency member of knob k, with its field row. */
static double *knob_member(scn_scenario *s, int k, const fdesc **row)
{
    char path[64];
    snprintf(path, sizeof path, "efficiency.%s", scn_cal_knob_name(k));
    return fields_path_member(path, s, row);
}

bool unc_draw(const scn_scenario *s, int d, scn_scenario *out)
{
    *out = *s;
    if (!scn_has_calibration(s)) return false;
    double L[SCN_CAL_KNOBS * SCN_CAL_KNOBS];
    if (!scn_cal_cholesky(&s->cal, L)) return false;   /* scn_validate refused it already */
    /* draw d's normals: its own stream, so a draw does not depend on how
    ** many were taken before it */
    rng_state g;
    rng_seed(&g, UNC_SEED ^ (0x9e3779b97f4a7c15ull * (uint64_t)(d + 1)));
    double z[SCN_CAL_KNOBS];
    for (int k = 0; k < SCN_CAL_KNOBS; k++) z[k] = rng_normal(&g);
    for (int i = 0; i < SCN_CAL_KNOBS; i++) {
        if (!(s->cal.sd[i] > 0)) continue;
        double x = 0;
        for (int k = 0; k <= i; k++) x += L[i * SCN_CAL_KNOBS + k] * z[k];
        const fdesc *f;
        double *p = knob_member(out, i, &f);
        if (!p || !f) continue;
        /* in the file's unit, within the field's range (an efficiency stays
        ** in (0.001, 1], a fixed cost at or above 0) */
        double v = *p / f->scale * (1 + x);
        double lo = f->lo, hi = f->hi;
        if (f->flags & FF_LO_OPEN) lo = nextafter(lo, hi);
        v = fmin(fmax(v, lo), hi);
        *p = v * f->scale;
    }
    return true;
}

void unc_from_validation(report *r)
{
    int n = (int)(sizeof UNCERT_VALIDATION / sizeof UNCERT_VALIDATION[0]), e = -1;
    for (int i = 0; i < n; i++) if (!strcmp(UNCERT_VALIDATION[i].kind, "step")) e = i;
    if (e < 0 || UNCERT_VALIDATION[e].rows == 0 || !(r->step_time_s > 0)) return;
    /* e = (predicted - true) / true, |e| <= q: true = predicted / (1 + e) */
    double q = fmin(UNCERT_VALIDATION[e].q80, 0.95);
    snprintf(r->interval_source, sizeof r->interval_source, "validation");
    r->interval_rows = UNCERT_VALIDATION[e].rows;
    r->interval_q = q;
    r->step_lo = r->step_time_s / (1 + q);
    r->step_hi = r->step_time_s / (1 - q);
    r->tput_lo = r->throughput * (1 - q);
    r->tput_hi = r->throughput * (1 + q);
}

/* One draw on the job pool: its run's throughput and step time as a row
** (item d), or a row saying it was infeasible. */
typedef struct {
    const scn_scenario *s;
} draw_job;

static bool draw_one(void *ud, rtable *t, int d, fs_err *err)
{
    const draw_job *j = ud;
    scn_scenario *x = xmalloc(sizeof *x);
    unc_draw(j->s, d, x);
    runner_spec spec = {.scn = x, .headless = true};
    runner *run = runner_open(&spec, err);
    report rd;
    bool ok = run && runner_close(run, &rd, err);
    runner_free(run);
    free(x);
    if (!ok) return false;
    rt_row *row = rtable_new_row(t, d);
    rt_row_set_int(row, rtable_col(t, "id"), d);
    rt_row_set_bool(row, rtable_col(t, "feasible"), rd.feasible && rd.step_time_s > 0);
    rt_row_set_num(row, rtable_col(t, "throughput"), rd.throughput);
    rt_row_set_num(row, rtable_col(t, "step_time_s"), rd.step_time_s);
    return true;
}

bool unc_interval(const scn_scenario *s, int draws, report *r, fs_err *err)
{
    return unc_interval_jobs(s, draws, 1, r, err);
}

bool unc_interval_jobs(const scn_scenario *s, int draws, int jobs, report *r, fs_err *err)
{
    if (!scn_has_calibration(s) || draws < 2) {
        unc_from_validation(r);
        return true;
    }
    /* The draws on the job pool: each draw is its own seeded stream
    ** (unc_draw) and rows come back in draw order, and a figure goes
    ** through the row's text exactly (fmt_double reads back), so the
    ** interval is the same bytes whatever `jobs` is. */
    rtable t;
    rtable_init(&t, "draws");
    rtable_add_col(&t, "id");           /* a worker's row carries its item (src/rtable.c) */
    rtable_add_col(&t, "feasible");
    rtable_add_col(&t, "throughput");
    rtable_add_col(&t, "step_time_s");
    draw_job job = {s};
    int ahead = sim_draw_ahead;
    if (jobs > 1) sim_draw_ahead = 0;       /* the workers fill the cores (src/eng_draw.c) */
    bool ok = workers_run(&t, draws, jobs, draw_one, &job, NULL, err);
    sim_draw_ahead = ahead;
    double *tp = malloc(sizeof(double) * (size_t)draws), *st = malloc(sizeof(double) * (size_t)draws);
    if (!tp || !st) { free(tp); free(st); rtable_free(&t); fs_err_set(err, 2, "out of memory"); return false; }
    int n = 0, bad = 0;
    int cf = rtable_col(&t, "feasible"), ct = rtable_col(&t, "throughput"), cs = rtable_col(&t, "step_time_s");
    for (int i = 0; ok && i < t.nrows; i++) {
        const rt_row *row = &t.rows[i];
        if (!rt_row_true(row, cf)) { bad++; continue; }
        tp[n] = rt_row_num(row, ct);
        st[n] = rt_row_num(row, cs);
        n++;
    }
    rtable_free(&t);
    if (ok && n >= 2) {
        snprintf(r->interval_source, sizeof r->interval_source, "calibration");
        r->interval_draws = draws;
        r->interval_infeasible = bad;
        r->tput_lo = unc_quantile(tp, n, UNC_LO_PCT);
        r->tput_hi = unc_quantile(tp, n, UNC_HI_PCT);
        r->step_lo = unc_quantile(st, n, UNC_LO_PCT);
        r->step_hi = unc_quantile(st, n, UNC_HI_PCT);
        /* the central figure is the fitted knobs' own run: an interval that
        ** misses it (a skewed spread over few draws) is widened to hold it */
        r->tput_lo = fmin(r->tput_lo, r->throughput);
        r->tput_hi = fmax(r->tput_hi, r->throughput);
        r->step_lo = fmin(r->step_lo, r->step_time_s);
        r->step_hi = fmax(r->step_hi, r->step_time_s);
        /* the fit's held-out error is the model's, not the knobs': every
        ** knob vector leaves it, so it widens both ends */
        double e = s->cal.held_out;
        r->tput_lo *= 1 - e;
        r->tput_hi *= 1 + e;
        r->step_lo *= 1 - e;
        r->step_hi *= 1 + e;
    }
    free(tp);
    free(st);
    return ok;
}
