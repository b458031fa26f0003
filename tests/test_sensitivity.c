/*
** test_sensitivity.c — `fusync sensitivity`: the step rule (how far an
** input moves, clamped to its range, the next whole value after a refused
** one), the elasticity, and the command's JSON read back with the project's
** own JSON reader (jsonr.h).
*/
#include "testutil.h"
#include "cli_sensitivity.h"
#include "jsonr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value `dir` steps from base, or "" when there is none. */
static const char *step_of(const char *path, double base, double step, int dir, int k)
{
    static char text[64];
    const fdesc *f = fields_lookup(path);
    ck_assert_msg(f != NULL, "%s", path);
    double v = NAN;
    if (!sens_step_value(f, base, step, dir, k, text, sizeof text, &v)) return "";
    ck_assert_double_eq(v, strtod(text, NULL));
    return text;
}

START_TEST(t_numbers)
{
    ck_assert_str_eq(step_of("efficiency.decode", 0.5, 0.1, -1, 0), "0.45");
    ck_assert_str_eq(step_of("efficiency.decode", 0.5, 0.1, +1, 0), "0.55");
    /* a fraction at its top moves only down; near it, up is clamped to 1 */
    ck_assert_str_eq(step_of("efficiency.decode", 1.0, 0.1, +1, 0), "");
    ck_assert_str_eq(step_of("efficiency.decode", 1.0, 0.1, -1, 0), "0.9");
    ck_assert_str_eq(step_of("efficiency.decode", 0.95, 0.1, +1, 0), "1");
    /* a number has no second try */
    ck_assert_str_eq(step_of("efficiency.decode", 0.5, 0.1, +1, 1), "");
    /* base 0: the step in the field's own unit, at most 10% of its range */
    ck_assert_str_eq(step_of("plan.train.overlap", 0, 0.1, +1, 0), "0.1");
    ck_assert_str_eq(step_of("plan.train.overlap", 0, 0.1, -1, 0), "");
    ck_assert_str_eq(step_of("workload.response_growth", 0, 0.1, -1, 0), "-0.1");
    ck_assert_str_eq(step_of("efficiency.decode_overhead_ms", 0, 0.2, +1, 0), "0.2");
    /* a negative base: down is further below zero */
    ck_assert_str_eq(step_of("workload.response_growth", -0.2, 0.1, -1, 0), "-0.22");
    ck_assert_str_eq(step_of("workload.response_growth", -0.2, 0.1, +1, 0), "-0.18");
    /* the value as set is %.6g: a step too small to print does not move */
    ck_assert_str_eq(step_of("efficiency.link", 0.7, 1e-9, +1, 0), "");
    ck_assert_str_eq(step_of("cluster.device.hbm_tbps", 3.35, 0.1, +1, 0), "3.685");
}
END_TEST

START_TEST(t_integers)
{
    /* small counts move by 1, large ones by the step rounded */
    ck_assert_str_eq(step_of("plan.train.tp", 2, 0.1, -1, 0), "1");
    ck_assert_str_eq(step_of("plan.train.tp", 2, 0.1, +1, 0), "3");
    ck_assert_str_eq(step_of("workload.prompts_per_step", 128, 0.1, -1, 0), "115");
    ck_assert_str_eq(step_of("workload.prompts_per_step", 128, 0.1, +1, 0), "141");
    /* later tries: the next whole values the same way, never out of range */
    ck_assert_str_eq(step_of("plan.train.tp", 2, 0.1, +1, 1), "4");
    ck_assert_str_eq(step_of("plan.train.tp", 2, 0.1, +1, 2), "5");
    ck_assert_str_eq(step_of("plan.train.tp", 2, 0.1, -1, 1), "");
    ck_assert_str_eq(step_of("workload.minibatches", 4, 0.1, -1, 2), "1");
    /* at the range's end: no value; a big step stops at the end */
    ck_assert_str_eq(step_of("plan.staleness", 64, 0.1, +1, 0), "");
    ck_assert_str_eq(step_of("plan.train.pp", 1, 0.1, -1, 0), "");
    ck_assert_str_eq(step_of("plan.staleness", 0, 0.1, +1, 0), "1");
    ck_assert_str_eq(step_of("plan.train.tp", 3, 0.9, -1, 0), "1");
    ck_assert_str_eq(step_of("plan.train.tp", 3, 0.9, -1, 1), "");
}
END_TEST

START_TEST(t_not_numbers)
{
    char text[64];
    double v;
    ck_assert(!sens_step_value(fields_lookup("plan.mode"), 0, 0.1, +1, 0, text, sizeof text, &v));
    ck_assert(!sens_step_value(fields_lookup("plan.stream"), 0, 0.1, +1, 0, text, sizeof text, &v));
    ck_assert(!sens_step_value(fields_lookup("efficiency.decode"), 0.5, 0, +1, 0, text, sizeof text, &v));
    ck_assert(!sens_step_value(fields_lookup("efficiency.decode"), 0.5, 0.1, 0, 0, text, sizeof text, &v));
}
END_TEST

START_TEST(t_elasticity)
{
    /* y = x: elasticity 1 from either side and from both */
    ck_assert_double_eq_tol(sens_elasticity(10, 10, true, 9, 9, true, 11, 11), 1, 1e-12);
    ck_assert_double_eq_tol(sens_elasticity(10, 10, true, 9, 9, false, 0, 0), 1, 1e-12);
    ck_assert_double_eq_tol(sens_elasticity(10, 10, false, 0, 0, true, 11, 11), 1, 1e-12);
    /* y = 1/x about 1: central difference (1/1.1 - 1/0.9) / 0.2 */
    ck_assert_double_eq_tol(sens_elasticity(1, 1, true, 0.9, 1 / 0.9, true, 1.1, 1 / 1.1), (1 / 1.1 - 1 / 0.9) / 0.2,
                            1e-12);
    /* no change: 0; undefined: NaN */
    ck_assert_double_eq(sens_elasticity(2, 5, true, 1.8, 5, true, 2.2, 5), 0);
    ck_assert(isnan(sens_elasticity(0, 5, false, 0, 0, true, 0.1, 6)));
    ck_assert(isnan(sens_elasticity(2, 0, true, 1.8, 1, false, 0, 0)));
    ck_assert(isnan(sens_elasticity(2, 5, false, 0, 0, false, 0, 0)));
}
END_TEST

/* The command's JSON: it parses, names the scenario and the base, ranks
** 1..n, and a knob known to matter (HBM efficiency: decode is
** bandwidth-bound) moves the throughput the way it should. */
START_TEST(t_command_json)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s sensitivity %s/examples/qwen7b_h100x16.lua --iterations 2 --set workload.warmup=0 "
             "--json - 2>&1", test_fusync(), test_root());
    char *out = NULL;
    int rc = test_sh(cmd, &out);
    ck_assert_msg(rc == 0, "status %d: %.300s", rc, out);
    jv v;
    char why[160];
    ck_assert_msg(jsonr_parse(out, strlen(out), &v, why, sizeof why), "%s: %.300s", why, out);
    const jv *sc = jv_get(&v, "scenario"), *base = jv_get(&v, "base"), *in = jv_get(&v, "inputs");
    ck_assert(sc && sc->t == J_STR && !strcmp(sc->text, "qwen7b_h100x16"));
    ck_assert(jv_get(&v, "fusync_version") != NULL);
    ck_assert(base && base->t == J_OBJ);
    const jv *tp = jv_get(base, "throughput_tokens_per_s");
    ck_assert(tp && tp->t == J_NUM && strtod(tp->text, NULL) > 0);
    ck_assert(in && in->t == J_ARR && in->n > 20);
    bool hbm = false;
    for (int i = 0; i < in->n; i++) {
        const jv *r = &in->items[i], *rank = jv_get(r, "rank"), *name = jv_get(r, "input");
        ck_assert(rank && rank->t == J_NUM && atoi(rank->text) == i + 1);
        if (name && !strcmp(name->text, "efficiency.hbm")) {
            const jv *up = jv_get(r, "dthroughput_up_pct"), *dn = jv_get(r, "dthroughput_down_pct");
            ck_assert(up && dn && up->t == J_NUM && dn->t == J_NUM);
            ck_assert_msg(strtod(up->text, NULL) > 0 && strtod(dn->text, NULL) < 0, "hbm %s %s", dn->text, up->text);
            hbm = true;
        }
    }
    ck_assert(hbm);
    jv_free(&v);
    free(out);
}
END_TEST

static Suite *sensitivity_suite(void)
{
    Suite *s = suite_create("sensitivity");
    TCase *tc = tcase_create("sensitivity");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_numbers);
    tcase_add_test(tc, t_integers);
    tcase_add_test(tc, t_not_numbers);
    tcase_add_test(tc, t_elasticity);
    tcase_add_test(tc, t_command_json);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(sensitivity_suite)
