/*
** test_headless_totals.c — a headless run with no span sink computes its
** pipelines without drawing their spans whole (eng_train.c, the lean pass)
** and skips the pools' queues when nothing in them is due (trace.c): its
** running totals must stay those of the same run storing every span, bit
** for bit, at every point of the run (docs/architecture.md, "Headless runs").
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"
#include "scenario.h"
#include "trace.h"

#include <stdio.h>
#include <string.h>

static sim *load(const char *name, const char *const *sets, int nsets, bool keep)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/%s", test_root(), name);
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(path, sets, nsets, &sc, &err), "%s: %s", name, err.msg);
    sim *s = sim_new(&sc, &err);
    ck_assert_msg(s != NULL, "sim_new: %s", err.msg);
    trace_keep(sim_trace_mut(s), keep);
    return s;
}

/* Both runs advanced by the same events: the same clock, the same totals
** for any window asked, the same spans recorded and waiting. */
static void same_totals(const char *name, const char *const *sets, int nsets)
{
    sim *k = load(name, sets, nsets, true), *h = load(name, sets, nsets, false);
    ck_assert(trace_spans_read(sim_trace(k)));
    ck_assert(!trace_spans_read(sim_trace(h)));
    int checks = 0, pipelines = 0;
    while (!sim_done(k)) {
        sim_step_events(k, 89);
        sim_step_events(h, 89);
        ck_assert_int_eq(sim_now(k), sim_now(h));
        ck_assert_int_eq(sim_done(k), sim_done(h));
        const trace *tk = sim_trace(k), *th = sim_trace(h);
        ck_assert_uint_eq(trace_nspans_recorded(tk), trace_nspans_recorded(th));
        ck_assert_uint_eq(trace_nspans_waiting(tk), trace_nspans_waiting(th));
        pipelines = (int)sim_get_stats(h)->pipeline_ops > 0;
        const sim_stats *st = sim_get_stats(k);
        int np = sim_plan(k)->npools;
        /* the window as the report takes it, and one from 0 (a run that
        ** stops in its warm-up) */
        sim_time w1 = st->window_t1 > 0 ? st->window_t1 : sim_now(k);
        sim_time w0s[2] = {st->window_t0, 0};
        for (int w = 0; w < 2; w++) {
            double kb[SCN_POOLS_MAX], kc[SCN_POOLS_MAX], hb[SCN_POOLS_MAX], hc[SCN_POOLS_MAX];
            trace_window_totals(tk, w0s[w], w1, np, kb, kc);
            trace_window_totals(th, w0s[w], w1, np, hb, hc);
            for (int p = 0; p < np; p++)
                ck_assert_msg(memcmp(&kb[p], &hb[p], sizeof(double)) == 0 && memcmp(&kc[p], &hc[p], sizeof(double)) == 0,
                              "%s %s at %.6f s pool %d: busy %.17g vs %.17g, compute %.17g vs %.17g", name, sets[0],
                              sim_secs(sim_now(k)), p, kb[p], hb[p], kc[p], hc[p]);
        }
        checks++;
    }
    ck_assert(sim_done(h));
    ck_assert_msg(checks > 10 && pipelines, "%s %s: %d checks", name, sets[0], checks);
    ck_assert_uint_eq(trace_nspans_waiting_peak(sim_trace(k)), trace_nspans_waiting_peak(sim_trace(h)));
    sim_free(k);
    sim_free(h);
}

START_TEST(t_headless_totals_every_mode)
{
    static const char *const ex[] = {"qwen7b_h100x16.lua", "pangu718b_cm384.lua"};
    static const char *const modes[] = {"plan.mode=separate", "plan.mode=colocate", "plan.mode=full"};
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++)
        for (int m = 0; m < 3; m++)
            for (int st = 0; st < 2; st++) {
                const char *sets[] = {modes[m], st ? "plan.staleness=1" : "plan.staleness=0", "workload.warmup=2",
                                      "workload.iterations=4"};
                same_totals(ex[e], sets, 4);
            }
}
END_TEST

/* A critic (its own training pipeline, PH_CRITIC_TRAIN) and pipeline
** parallelism on the small example. */
START_TEST(t_headless_totals_critic_pp)
{
    const char *sets[] = {"plan.mode=separate", "models.critic=true", "workload.algorithm=ppo", "plan.train.pp=2",
                          "workload.warmup=1", "workload.iterations=3"};
    same_totals("qwen7b_h100x16.lua", sets, 6);
}
END_TEST

static Suite *suite_headless_totals(void)
{
    Suite *s = suite_create("headless_totals");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_headless_totals_every_mode);
    tcase_add_test(tc, t_headless_totals_critic_pp);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_headless_totals)
