/*
** test_uncert.c — the interval of a run (src/uncert.c): the calibration
** block's knob names agree with calibrate's, the draws follow the block's
** covariance and are deterministic, the quantile is type 7, and the two
** sources fill the report.
*/
#include "testutil.h"
#include "calibrate.h"
#include "runner.h"
#include "uncert.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

START_TEST(t_knob_names)
{
    /* the block's fields are named by scenario.c, the fit's knobs by calibrate.c */
    for (int k = 0; k < SCN_CAL_KNOBS; k++) {
        ck_assert_ptr_nonnull(cal_knob_name(k));
        ck_assert_str_eq(cal_knob_name(k), scn_cal_knob_name(k));
    }
    ck_assert_ptr_null(cal_knob_name(SCN_CAL_KNOBS));
}
END_TEST

START_TEST(t_quantile)
{
    double v[] = {4, 1, 3, 2, 5};
    ck_assert_double_eq_tol(unc_quantile(v, 5, 0.5), 3, 1e-12);
    double w[] = {4, 1, 3, 2, 5};
    ck_assert_double_eq_tol(unc_quantile(w, 5, 0.1), 1.4, 1e-12);
    double x[] = {4, 1, 3, 2, 5};
    ck_assert_double_eq_tol(unc_quantile(x, 5, 0.9), 4.6, 1e-12);
}
END_TEST

static void load(scn_scenario *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/calib/small.lua", test_root());
    fs_err err = {0, ""};
    runner_spec spec = {.path = path};
    runner *r = runner_open(&spec, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    *s = *runner_scenario(r);
    runner_free(r);
}

START_TEST(t_draws)
{
    scn_scenario s, d1, d2;
    load(&s);
    ck_assert(!unc_draw(&s, 0, &d1));          /* no block: no draw */
    s.cal.rows = 10;
    s.cal.sd[0] = 0.05;     /* train */
    s.cal.sd[3] = 0.02;     /* hbm */
    s.cal.corr[0][3] = -0.8;
    fs_err err = {0, ""};
    ck_assert_msg(scn_validate(&s, &err), "%s", err.msg);
    /* deterministic, and one draw does not depend on the others */
    ck_assert(unc_draw(&s, 3, &d1));
    ck_assert(unc_draw(&s, 3, &d2));
    ck_assert(d1.eff.train == d2.eff.train && d1.eff.hbm == d2.eff.hbm);
    /* the sample covariance of many draws is the block's, relative to the values */
    int n = 4000;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        ck_assert(unc_draw(&s, i, &d1));
        double x = d1.eff.train / s.eff.train - 1, y = d1.eff.hbm / s.eff.hbm - 1;
        ck_assert(d1.eff.decode == s.eff.decode);      /* not fitted: not moved */
        sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y;
    }
    double mx = sx / n, my = sy / n;
    double vx = sxx / n - mx * mx, vy = syy / n - my * my, c = (sxy / n - mx * my) / sqrt(vx * vy);
    ck_assert_msg(fabs(sqrt(vx) - 0.05) < 0.005, "sd train %g", sqrt(vx));
    ck_assert_msg(fabs(sqrt(vy) - 0.02) < 0.002, "sd hbm %g", sqrt(vy));
    ck_assert_msg(fabs(c + 0.8) < 0.05, "corr %g", c);
    /* not positive semi-definite: refused naming the block */
    s.cal.sd[1] = 0.05;
    s.cal.corr[0][1] = 0.9;
    s.cal.corr[1][3] = 0.9;
    ck_assert(!scn_validate(&s, &err));
    ck_assert_msg(strstr(err.msg, "calibration.corr") != NULL, "%s", err.msg);
}
END_TEST

START_TEST(t_sources)
{
    scn_scenario s;
    load(&s);
    fs_err err = {0, ""};
    runner_spec spec = {.scn = &s, .headless = true};
    runner *r = runner_open(&spec, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    report rep;
    ck_assert(runner_close(r, &rep, &err));
    runner_free(r);
    ck_assert(rep.feasible);
    /* uncalibrated: the validation table's spread, around the figure */
    report v = rep;
    ck_assert(unc_interval(&s, UNC_DRAWS, &v, &err));
    ck_assert_str_eq(v.interval_source, "validation");
    ck_assert(v.interval_rows > 0 && v.interval_q > 0);
    ck_assert(v.step_lo < v.step_time_s && v.step_time_s < v.step_hi);
    ck_assert(v.tput_lo < v.throughput && v.throughput < v.tput_hi);
    /* calibrated: draws simulated; a wider covariance gives a wider interval */
    s.cal.rows = 10;
    s.cal.sd[0] = 0.03;
    s.cal.sd[3] = 0.03;
    report c1 = rep, c2 = rep;
    ck_assert_msg(unc_interval(&s, UNC_DRAWS, &c1, &err), "%s", err.msg);
    ck_assert_str_eq(c1.interval_source, "calibration");
    ck_assert_int_eq(c1.interval_draws, UNC_DRAWS);
    ck_assert(c1.step_lo <= c1.step_time_s && c1.step_time_s <= c1.step_hi && c1.step_lo < c1.step_hi);
    s.cal.sd[0] = 0.09;
    s.cal.sd[3] = 0.09;
    ck_assert(unc_interval(&s, UNC_DRAWS, &c2, &err));
    ck_assert_msg(c2.step_hi - c2.step_lo > 2 * (c1.step_hi - c1.step_lo), "[%g, %g] against [%g, %g]", c2.step_lo,
                  c2.step_hi, c1.step_lo, c1.step_hi);
}
END_TEST

static Suite *uncert_suite(void)
{
    Suite *s = suite_create("uncert");
    TCase *tc = tcase_create("uncert");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_knob_names);
    tcase_add_test(tc, t_quantile);
    tcase_add_test(tc, t_draws);
    tcase_add_test(tc, t_sources);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(uncert_suite)
