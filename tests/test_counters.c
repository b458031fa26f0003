/*
** test_counters.c — the controller's staleness counters (finished and
** in-flight samples by start version) are kept as samples change state:
** after every event they equal a recount from the samples, under every
** staleness policy, and reading them costs work logarithmic in the number of
** iterations, not linear (docs/model.md, section 4).
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 8 H100s, long-tailed responses so that StaleSync mixes versions. */
static const char *lua_text =
    "local f = fusync\n"
    "return { name = 'counters',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 8, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 200, sigma = 1.0, cap = 3000},\n"
    "    max_response = 3000, iterations = 6, warmup = 1, seed = 3 },\n"
    "  plan = { mode = 'full', rollout_fraction = 0.5,\n"
    "    train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 8 } },\n"
    "}\n";

static sim *make(const char *const *sets, int n)
{
    sim *s = test_sim_text(lua_text, sets, n);
    return s;
}

/* One event at a time; the kept counters equal a recount after each. */
START_TEST(t_counters_match_recount)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full"};
    const char *stales[] = {"plan.staleness=0", "plan.staleness=1", "plan.staleness=3"};
    const char *policies[] = {"plan.on_stale=wait", "plan.on_stale=discard"};
    const char *updates[] = {"plan.on_update=continue", "plan.on_update=restart"};
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 3; k++)
            for (int p = 0; p < 2; p++)
                for (int u = 0; u < 2; u++) {
                    const char *sets[5] = {modes[m], stales[k], policies[p], updates[u], "plan.partial_rollout=0.5"};
                    sim *s = make(sets, 5);
                    fs_err err = {0, ""};
                    uint64_t events = 0;
                    bool more = true;
                    while (more) {
                        more = sim_step_events(s, 1);
                        events++;
                        /* a plugin may raise the bound mid-run: the counters do not depend on it */
                        if (events == 150) sim_set_staleness(s, k + 1);
                        ck_assert_msg(sim_check_counters(s, &err), "%s %s %s %s, event %llu: %s", modes[m], stales[k],
                                      policies[p], updates[u], (unsigned long long)events, err.msg);
                    }
                    ck_assert_msg(sim_error(s) == NULL, "%s", sim_error(s) ? sim_error(s)->msg : "");
                    ck_assert_int_eq(sim_get_stats(s)->iterations_done, 6);
                    sim_free(s);
                }
}
END_TEST

static double work_per_event(const char *iters)
{
    const char *sets[3] = {"plan.staleness=2", "plan.mode=separate", iters};
    sim *s = make(sets, 3);
    ck_assert(sim_run(s));
    double w = (double)sim_counter_work(s) / (double)sim_get_stats(s)->events;
    sim_free(s);
    return w;
}

/* 16 times the iterations: a loop over every version per event costs ~16
** times the work per event; the kept tree costs ~log2(16) = 4 more nodes a
** read.  The bound sits between the two. */
START_TEST(t_counters_work_logarithmic)
{
    double a = work_per_event("workload.iterations=64");
    double b = work_per_event("workload.iterations=1024");
    ck_assert_msg(a > 0, "the counters were never read (%g)", a);
    ck_assert_msg(b < 3.0 * a, "counter work per event grew from %.2f to %.2f with 16x the iterations", a, b);
}
END_TEST

static Suite *suite_counters(void)
{
    Suite *s = suite_create("counters");
    TCase *tc = tcase_create("counters");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_counters_match_recount);
    tcase_add_test(tc, t_counters_work_logarithmic);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_counters)
