/*
** test_calibrate.c — the measured-file reader and the knob fit
** (src/calibrate.c).  The fit is checked on rows the engine itself produced
** at known knobs: it must recover them (within 2%, no noise), report the
** knobs the rows do not depend on as flat, and be deterministic.
*/
#include "testutil.h"
#include "calibrate.h"
#include "lua_scenario.h"
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void parse_ok(const char *text, const char *name, const char *map, cal_data *d)
{
    fs_err err = {0, ""};
    ck_assert_msg(cal_parse(text, strlen(text), name, map, "map.txt", d, &err), "%s", err.msg);
}

static void parse_fails(const char *text, const char *name, const char *map, const char *want)
{
    cal_data d;
    fs_err err = {0, ""};
    ck_assert_msg(!cal_parse(text, strlen(text), name, map, "map.txt", &d, &err), "accepted: %s", text);
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, want) != NULL, "expected '%s' in: %s", want, err.msg);
}

START_TEST(t_csv_plain)
{
    cal_data d;
    parse_ok("step, generate_s, train_ms, response_len_mean, other\n"
             "1, 10.5, 2000, 800, 7\n"
             "2, 11.5, 2500, 900, 7\r\n"
             "\n"
             "3, \"12\", 3000, 1000, 7\n", "m.csv", NULL, &d);
    ck_assert_int_eq(d.nrows, 3);
    ck_assert(d.has[CP_GENERATE] && d.has[CP_TRAIN] && !d.has[CP_INFER]);
    ck_assert_double_eq(d.t[1 * CP__COUNT + CP_TRAIN], 2.5);        /* ms -> s */
    ck_assert_double_eq(d.t[2 * CP__COUNT + CP_GENERATE], 12);
    ck_assert(d.has_resp_mean && !d.has_resp_max);
    ck_assert_double_eq(d.resp_mean[2], 1000);
    ck_assert_msg(strstr(d.unused, "other") != NULL, "%s", d.unused);
    cal_data_free(&d);
    parse_ok("step_ms,response_tokens\n1000,5e5\n1100,6e5\n1200,7e5\n", "m.csv", NULL, &d);
    ck_assert(d.has[CP_STEP] && d.has_resp_tokens && !d.has_resp_mean);
    ck_assert_double_eq(d.resp_tokens[1], 6e5);
    ck_assert_double_eq(d.t[2 * CP__COUNT + CP_STEP], 1.2);
    cal_data_free(&d);
}
END_TEST

START_TEST(t_jsonl_verl)
{
    /* verl's names: old_log_prob and ref add up to fusync's inference */
    cal_data d;
    parse_ok("{\"timing_s/gen\": 30, \"timing_s/old_log_prob\": 2, \"timing_s/ref\": 1.5, \"timing_s/update_actor\": 9,"
             " \"response_length/mean\": 700, \"response_length/max\": 4000, \"note\": \"x\"}\n"
             "{\"timing_s/gen\": 31, \"timing_s/old_log_prob\": 2, \"timing_s/ref\": 1.5, \"timing_s/update_actor\": 9,"
             " \"response_length/mean\": 710, \"response_length/max\": 4000}\n"
             "{\"timing_s\": {\"gen\": 32, \"old_log_prob\": 2, \"ref\": 1, \"update_actor\": 9},"
             " \"response_length\": {\"mean\": 720, \"max\": 4000}}\n", "log.jsonl", NULL, &d);
    ck_assert_int_eq(d.nrows, 3);
    ck_assert(d.has[CP_GENERATE_SW] && d.has[CP_INFER] && d.has[CP_TRAIN]);
    ck_assert_double_eq(d.t[0 * CP__COUNT + CP_INFER], 3.5);
    ck_assert_double_eq(d.t[2 * CP__COUNT + CP_INFER], 3);          /* nested objects read as a/b */
    ck_assert_double_eq(d.resp_max[1], 4000);
    cal_data_free(&d);
    /* verl's file logger: {"step": N, "data": {...}} */
    parse_ok("{\"step\": 1, \"data\": {\"timing_s/gen\": 30, \"timing_s/update_actor\": 9}}\n"
             "{\"step\": 2, \"data\": {\"timing_s/gen\": 31, \"timing_s/update_actor\": 9}}\n"
             "{\"step\": 3, \"data\": {\"timing_s/gen\": 32, \"timing_s/update_actor\": 8}}\n", "log.jsonl", NULL, &d);
    ck_assert(d.has[CP_GENERATE_SW] && d.has[CP_TRAIN]);
    ck_assert_double_eq(d.t[2 * CP__COUNT + CP_TRAIN], 8);
    ck_assert_str_eq(d.unused, "");
    cal_data_free(&d);
}
END_TEST

START_TEST(t_verl_console)
{
    /* verl's console logger: "step:N - key:value - ...", other lines skipped,
    ** a Ray prefix before it, numpy's np.float64(x) around a value */
    cal_data d;
    parse_ok("\xef\xbb\xbf(TaskRunner pid=7) step:1 - timing_s/gen:30.5 - timing_s/update_actor:np.float64(9) - x:-1\n"
             "Training Progress: 10%\n"
             "(TaskRunner pid=7) step:2 - timing_s/gen:31 - timing_s/update_actor:9.5\n"
             "step:3 - timing_s/gen:32 - timing_s/update_actor:10\n", "out.log", NULL, &d);
    ck_assert_int_eq(d.nrows, 3);
    ck_assert_double_eq(d.t[0 * CP__COUNT + CP_GENERATE_SW], 30.5);
    ck_assert_double_eq(d.t[0 * CP__COUNT + CP_TRAIN], 9);
    ck_assert_double_eq(d.t[2 * CP__COUNT + CP_TRAIN], 10);
    cal_data_free(&d);
    /* a column only some lines have is a missing value */
    parse_fails("step:1 - timing_s/gen:30 - response_length/mean:700\nstep:2 - timing_s/gen:31\n"
                "step:3 - timing_s/gen:32 - response_length/mean:700\n", "out.log", NULL,
                "row 2 (step 2 of the file): column 'response_length/mean' has no value");
}
END_TEST

START_TEST(t_mapping)
{
    cal_data d;
    parse_ok("a,b,c,d\n1,2,3,4\n1,2,3,4\n1,2,3,4\n", "m.csv",
             "# comment\na = generate ms\nb = train\nc = response_len_max\nd = ignore\n", &d);
    ck_assert_double_eq(d.t[CP_GENERATE], 1e-3);
    ck_assert_double_eq(d.t[CP_TRAIN], 2);
    ck_assert_double_eq(d.resp_max[0], 3);
    ck_assert_str_eq(d.unused, "");
    cal_data_free(&d);
    parse_fails("a\n1\n1\n1\n", "m.csv", "a = speed\n", "'speed' is not a target");
    parse_fails("a\n1\n1\n1\n", "m.csv", "a = train minutes\n", "unit 'minutes'");
    parse_fails("a\n1\n1\n1\n", "m.csv", "a train\n", "expected COLUMN = TARGET");
    parse_fails("a\n1\n1\n1\n", "m.csv", "zz = train\n", "column 'zz' (named in map.txt) is missing");
}
END_TEST

START_TEST(t_read_errors)
{
    parse_fails("generate_s\n1\n2\n", "m.csv", NULL, "2 steps; calibrating needs at least 3");
    parse_fails("x,y\n1,2\n1,2\n1,2\n", "m.csv", NULL, "no column gives a phase time");
    parse_fails("generate_s,train_s\n1,2\n1,\n1,2\n", "m.csv", NULL, "row 2 (step 2 of the file): column 'train_s' has no value");
    parse_fails("generate_s\n1\nabc\n1\n", "m.csv", NULL, "line 3: column 'generate_s': 'abc' is not a number");
    parse_fails("generate_s\n1\n1,2\n1\n", "m.csv", NULL, "more cells (2) than the header has columns (1)");
    parse_fails("generate_s\n-1\n1\n1\n", "m.csv", NULL, "is negative");
    parse_fails("generate_s,generate_s\n1,1\n1,1\n1,1\n", "m.csv", NULL, "twice");
    parse_fails("{\"generate_s\": 1}\n[1]\n", "m.jsonl", NULL, "line 2: expected one JSON object a line");
    parse_fails("{\"generate_s\": 1\n", "m.jsonl", NULL, "line 1: not a JSON object");
}
END_TEST

START_TEST(t_knobs)
{
    int k[CAL_KNOBS_MAX], n;
    fs_err err = {0, ""};
    ck_assert(cal_knobs_parse(NULL, k, &n, &err));
    ck_assert_int_eq(n, 5);                 /* train, prefill, decode, hbm, decode_overhead_ms */
    ck_assert(cal_knobs_parse("efficiency.train, hbm", k, &n, &err));
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(cal_knob_name(k[0]), "train");
    ck_assert_str_eq(cal_knob_name(k[1]), "hbm");
    ck_assert(!cal_knobs_parse("train,decode_overhead", k, &n, &err));
    ck_assert_msg(strstr(err.msg, "'decode_overhead' is not a knob (did you mean 'decode_overhead_ms'?)"), "%s", err.msg);
    ck_assert(!cal_knobs_parse("train,train", k, &n, &err));
    ck_assert_msg(strstr(err.msg, "named twice"), "%s", err.msg);
    ck_assert(!cal_knobs_parse(",", k, &n, &err));
    /* units: the scenario's (ms for the decode overhead) */
    scn_scenario s;
    scn_defaults(&s);
    ck_assert(cal_knobs_parse("decode_overhead_ms", k, &n, &err));
    cal_knob_set(&s, k[0], 7);
    ck_assert_double_eq_tol(s.eff.decode_overhead_s, 7e-3, 1e-15);
    ck_assert_double_eq_tol(cal_knob_get(&s, k[0]), 7, 1e-12);
}
END_TEST

static bool load_small(scn_scenario *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/calib/small.lua", test_root());
    fs_err err = {0, ""};
    runner_spec spec = {.path = path};
    runner *r = runner_open(&spec, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    *s = *runner_scenario(r);
    runner_free(r);
    return true;
}

/* Rows from the engine at the scenario's knobs, with response medians and
** prompt lengths varied: the calibrate command's input, made in process. */
static void make_rows_v(const scn_scenario *truth, cal_data *d, int n, bool vary)
{
    memset(d, 0, sizeof *d);
    d->nrows = n;
    d->t = calloc((size_t)n * CP__COUNT, sizeof(double));
    d->resp_mean = calloc((size_t)n, sizeof(double));
    d->resp_max = calloc((size_t)n, sizeof(double));
    d->prompt_mean = calloc((size_t)n, sizeof(double));
    d->has[CP_GENERATE] = d->has[CP_INFER] = d->has[CP_TRAIN] = true;
    d->has_resp_mean = d->has_prompt_mean = true;
    for (int i = 0; i < n; i++) {
        scn_scenario s = *truth;
        s.work.iterations = s.work.warmup + 1;
        s.work.response_len.a = vary ? 500 + 150 * i : 700;
        double ps = vary ? 1 + 3 * (i % 3) : 2;
        s.work.prompt_len.a *= ps;
        s.work.prompt_len.b *= ps;
        runner_spec spec = {.scn = &s};
        fs_err err = {0, ""};
        runner *r = runner_open(&spec, &err);
        ck_assert_msg(r != NULL, "%s", err.msg);
        report rep;
        ck_assert(runner_close(r, &rep, &err));
        runner_free(r);
        for (int p = 0; p < CP__COUNT; p++) d->t[i * CP__COUNT + p] = NAN;
        d->t[i * CP__COUNT + CP_GENERATE] = rep.phase_s[STEP_GENERATE];
        d->t[i * CP__COUNT + CP_INFER] = rep.phase_s[STEP_INFER];
        d->t[i * CP__COUNT + CP_TRAIN] = rep.phase_s[STEP_TRAIN];
        d->resp_mean[i] = rep.tokens_generated / (double)rep.samples_trained;
        d->resp_max[i] = NAN;
        d->prompt_mean[i] = 400 * ps;       /* the scenario's uniform(200, 600), scaled */
    }
}

static void make_rows(const scn_scenario *truth, cal_data *d, int n) { make_rows_v(truth, d, n, true); }

START_TEST(t_fit_recovers)
{
    scn_scenario base;
    load_small(&base);
    scn_scenario truth = base;
    truth.eff.train = 0.28;
    truth.eff.decode_overhead_s = 5e-3;
    cal_data d;
    make_rows(&truth, &d, 4);
    int k[CAL_KNOBS_MAX], n;
    fs_err err = {0, ""};
    ck_assert(cal_knobs_parse("train,decode_overhead_ms,reward_rule_ms", k, &n, &err));
    cal_result r;
    ck_assert_msg(cal_fit(&base, &d, k, n, &r, &err), "%s", err.msg);
    ck_assert_msg(fabs(r.value[0] / 0.28 - 1) < 0.02, "train %.5g, want 0.28", r.value[0]);
    ck_assert_msg(fabs(r.value[1] / 5 - 1) < 0.02, "decode_overhead_ms %.5g, want 5", r.value[1]);
    /* the rule-based reward is off the device's timeline: no phase depends on it */
    ck_assert_msg(r.flat[2] && !r.flat[0] && !r.flat[1], "flat: %d %d %d", r.flat[0], r.flat[1], r.flat[2]);
    ck_assert_msg(r.fit_rms < 0.005, "fit rms %.4g", r.fit_rms);
    ck_assert_msg(r.loo_error < 0.01, "loo %.4g", r.loo_error);
    ck_assert(r.fitted_phase[CP_GENERATE] && r.fitted_phase[CP_TRAIN] && !r.fitted_phase[CP_STEP]);
    /* deterministic */
    cal_result r2;
    ck_assert(cal_fit(&base, &d, k, n, &r2, &err));
    ck_assert_double_eq(r.value[0], r2.value[0]);
    ck_assert_double_eq(r.loo_error, r2.loo_error);
    /* applied, the scenario has the values */
    scn_scenario out = base;
    cal_apply(&out, &r);
    ck_assert_double_eq(out.eff.train, r.value[0]);

    /* times a thousand times too large: milliseconds written as seconds */
    for (int i = 0; i < d.nrows * CP__COUNT; i++) d.t[i] *= 1000;
    ck_assert(!cal_fit(&base, &d, k, n, &r, &err));
    ck_assert_msg(strstr(err.msg, "are they milliseconds"), "%s", err.msg);
    cal_data_free(&d);
}
END_TEST

/* Steps that all have the same lengths cannot tell the HBM efficiency from
** the per-step decode overhead: both only lengthen generation.  The fit
** moves along that direction; the knobs in it are undetermined and keep
** their start values, and the one the data pins (train) is applied. */
START_TEST(t_fit_undetermined)
{
    scn_scenario base;
    load_small(&base);
    scn_scenario truth = base;
    truth.eff.train = 0.28;
    truth.eff.hbm = 0.55;
    truth.eff.decode_overhead_s = 9e-3;
    cal_data d;
    make_rows_v(&truth, &d, 4, false);
    d.has[CP_INFER] = false;
    int k[CAL_KNOBS_MAX], n;
    fs_err err = {0, ""};
    ck_assert(cal_knobs_parse("train,hbm,decode_overhead_ms", k, &n, &err));
    cal_result r;
    ck_assert_msg(cal_fit(&base, &d, k, n, &r, &err), "%s", err.msg);
    /* train is pinned by the train phase; the decode overhead takes the
    ** exactly flat direction (unbounded error); with no noise every other
    ** knob's error is tiny */
    ck_assert_msg(!r.undetermined[0] && r.undetermined[2] && r.flat[2], "undetermined: %d %d %d",
                  r.undetermined[0], r.undetermined[1], r.undetermined[2]);
    ck_assert_int_eq(r.ndetermined, 3 - (int)r.undetermined[1] - 1);
    /* the fit did move it: keeping the start value is the fit's choice */
    ck_assert_msg(fabs(r.value[2] - r.start[2]) > 0.05 * r.start[2], "overhead %g (start %g)", r.value[2], r.start[2]);
    scn_scenario out = base;
    cal_apply(&out, &r);
    ck_assert_double_eq(out.eff.train, r.value[0]);
    ck_assert_double_eq(out.eff.hbm, r.undetermined[1] ? base.eff.hbm : r.value[1]);
    ck_assert_double_eq(out.eff.decode_overhead_s, base.eff.decode_overhead_s);
    cal_data_free(&d);
}
END_TEST

static Suite *calibrate_suite(void)
{
    Suite *s = suite_create("calibrate");
    TCase *tc = tcase_create("calibrate");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_csv_plain);
    tcase_add_test(tc, t_jsonl_verl);
    tcase_add_test(tc, t_verl_console);
    tcase_add_test(tc, t_mapping);
    tcase_add_test(tc, t_read_errors);
    tcase_add_test(tc, t_knobs);
    tcase_add_test(tc, t_fit_recovers);
    tcase_add_test(tc, t_fit_undetermined);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(calibrate_suite)
