/*
** test_runner.c — the run object (runner.h): open/advance/close gives the
** same report however it is sliced and however often it is done; a restart
** from the placed scenario is the same run; the policy is opened once, so
** place() and the run hooks share one plugin state.
*/
#include "testutil.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *small_lua =
    "local f = fusync\n"
    "return { name = 'small',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 4, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'full', rollout_fraction = 0.5,\n"
    "    train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 16 } },\n"
    "}\n";

/* The report as JSON, wall-clock figures zeroed. */
static char *report_of(runner *r, const report *rep)
{
    report x = *rep;
    x.sim_wall_s = 0;
    x.sim_loop_wall_s = 0;
    x.plugin_time_s = 0;
    fs_buf b;
    buf_init(&b);
    report_json(runner_sim(r), &x, &b, true);
    return b.s;
}

/* Open, advance in slices of `slice` events (0: not at all), close. */
static char *one_run(const runner_spec *spec, uint64_t slice, scn_scenario *placed)
{
    fs_err err = {0, ""};
    runner *r = runner_open(spec, &err);
    ck_assert_msg(r != NULL, "open: %s", err.msg);
    if (slice) while (runner_advance(r, slice)) {}
    if (slice) ck_assert(runner_done(r));
    report rep;
    ck_assert_msg(runner_close(r, &rep, &err), "close: %s", err.msg);
    ck_assert(rep.feasible);
    ck_assert_int_eq(rep.iterations, 4);
    if (placed) *placed = *runner_scenario(r);
    char *j = report_of(r, &rep);
    runner_free(r);
    return j;
}

START_TEST(t_twice_same_report)
{
    char *path = test_tmpfile(".lua", small_lua);
    const char *sets[] = {"plan.staleness=1"};
    runner_spec spec = {.path = path, .sets = sets, .nsets = 1};
    scn_scenario placed;
    char *a = one_run(&spec, 1000, &placed);
    char *b = one_run(&spec, 1000, NULL);
    char *c = one_run(&spec, 7, NULL);          /* other slices */
    char *d = one_run(&spec, 0, NULL);          /* close runs it all */
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(a, c);
    ck_assert_str_eq(a, d);
    ck_assert_int_eq(placed.plan.staleness, 1);
    /* a restart from the scenario as run */
    runner_spec again = {.scn = &placed};
    char *e = one_run(&again, 500, NULL);
    ck_assert_str_eq(a, e);
    /* and the same with advance_to in steps of simulated time */
    fs_err err = {0, ""};
    runner *r = runner_open(&spec, &err);
    ck_assert_ptr_nonnull(r);
    sim_time t = 0;
    while (!runner_done(r)) {
        t += 2000000000LL;          /* 2 s */
        while (!runner_advance_to(r, t, 50)) {}
        ck_assert(sim_now(runner_sim(r)) <= t);
    }
    report rep;
    ck_assert(runner_close(r, &rep, &err));
    char *f = report_of(r, &rep);
    ck_assert_str_eq(a, f);
    runner_free(r);
    free(a); free(b); free(c); free(d); free(e); free(f);
    unlink(path);
    free(path);
}
END_TEST

/* place() counts itself in a global; the hook refuses to run unless it sees
** exactly one place() in its own state. */
static const char *once_lua =
    "function place(ctx)\n"
    "  placed = (placed or 0) + 1\n"
    "  local p = ctx.plan\n"
    "  p.staleness = 2\n"
    "  return p\n"
    "end\n"
    "function on_step(ctx)\n"
    "  if placed ~= 1 then error('place() ran ' .. tostring(placed) .. ' times in this state') end\n"
    "  steps = (steps or 0) + 1\n"
    "  return nil\n"
    "end\n";

START_TEST(t_policy_opened_once)
{
    char *path = test_tmpfile(".lua", small_lua);
    char *pol = test_tmpfile(".lua", once_lua);
    runner_spec spec = {.path = path, .policy = pol};
    fs_err err = {0, ""};
    runner *r = runner_open(&spec, &err);
    ck_assert_msg(r != NULL, "%s", err.msg);
    ck_assert_ptr_nonnull(runner_plugin(r));
    ck_assert_int_eq(runner_scenario(r)->plan.staleness, 2);    /* place() applied */
    ck_assert_str_eq(runner_scenario(r)->plan.policy, pol);
    report rep;
    ck_assert_msg(runner_close(r, &rep, &err), "%s", err.msg);
    ck_assert(rep.feasible);
    runner_free(r);
    /* a failing hook is an error of the run, with the plugin's FILE:LINE */
    char *bad = test_tmpfile(".lua", "function on_step(ctx)\n  error('no')\nend\n");
    runner_spec sb = {.path = path, .policy = bad};
    r = runner_open(&sb, &err);
    ck_assert_ptr_nonnull(r);
    ck_assert(!runner_close(r, &rep, &err));
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, ":2: no"), "%s", err.msg);
    runner_free(r);
    unlink(bad);
    free(bad);
    unlink(pol);
    free(pol);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(t_open_errors)
{
    fs_err err = {0, ""};
    runner_spec none = {.path = "/nonexistent/x.lua"};
    ck_assert_ptr_null(runner_open(&none, &err));
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, "/nonexistent/x.lua"), "%s", err.msg);
    char *path = test_tmpfile(".lua", small_lua);
    const char *sets[] = {"plan.train.tp=3"};
    runner_spec bad = {.path = path, .sets = sets, .nsets = 1};
    err.code = 0;
    ck_assert_ptr_null(runner_open(&bad, &err));
    ck_assert_int_eq(err.code, 2);
    runner_spec nopol = {.path = path, .policy = "/nonexistent/p.lua"};
    err.code = 0;
    ck_assert_ptr_null(runner_open(&nopol, &err));
    ck_assert_msg(strstr(err.msg, "/nonexistent/p.lua"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

static Suite *runner_suite(void)
{
    Suite *s = suite_create("runner");
    TCase *tc = tcase_create("run");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_twice_same_report);
    tcase_add_test(tc, t_policy_opened_once);
    tcase_add_test(tc, t_open_errors);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(runner_suite)
