/*
** test_plugin.c — the plugin host's promises: every sandbox escape refused,
** runaway and memory-bomb plugins stopped with the promised message (even
** when they catch the stop with pcall), errors carrying FILE:LINE and a
** traceback, hooks that fail or answer garbage stopping the run with a
** message, the shipped policies producing their layouts, and what-if files
** giving their variants in a fixed order.
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"
#include "plan.h"
#include "plugin.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *example(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/examples/%s", test_root(), name);
    return buf;
}

static void load_qwen(scn_scenario *s)
{
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(example("qwen7b_h100x16.lua"), NULL, 0, s, &err), "%s", err.msg);
}

/* Apply a policy given as text; returns success, the message in err. */
static bool apply_text(const char *text, scn_scenario *s, fs_err *err)
{
    char *path = test_tmpfile(".lua", text);
    ck_assert_ptr_nonnull(path);
    bool ok = policy_apply(path, s, err);
    unlink(path);
    free(path);
    return ok;
}

static void expect_refused(const char *text, const char *needle)
{
    scn_scenario s;
    load_qwen(&s);
    fs_err err = {0, ""};
    ck_assert_msg(!apply_text(text, &s, &err), "plugin was not refused: %s", text);
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, needle), "expected '%s' in: %s", needle, err.msg);
}

START_TEST(t_escapes_refused)
{
    expect_refused("function place(ctx) return io.open('/etc/passwd') end", ":1: io is not available in the sandbox");
    expect_refused("function place(ctx) os.execute('true') end", "execute");
    expect_refused("function place(ctx) return os.getenv('HOME') end", "getenv");
    expect_refused("local m = require('os')", "require");
    expect_refused("package.loadlib('x', 'y')", "package");
    expect_refused("debug.sethook()", "debug");
    expect_refused("dofile('/etc/passwd')", "dofile");
    expect_refused("loadfile('/etc/passwd')", "loadfile");
    expect_refused("string.dump(print)", "dump");
    expect_refused("local f, e = load('\\27Lua', 'x', 'b') if not f then error(e) end", "binary chunk");
    expect_refused("setmetatable({}, {__gc = function() end})", "__gc");
}
END_TEST

START_TEST(t_bytecode_file_refused)
{
    char *path = test_tmpfile(".lua", "\x1bLuaT\x00\x19\x93");
    scn_scenario s;
    load_qwen(&s);
    fs_err err = {0, ""};
    ck_assert(!policy_apply(path, &s, &err));
    ck_assert_msg(strstr(err.msg, "precompiled"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(t_allowed_libraries)
{
    scn_scenario s;
    load_qwen(&s);
    fs_err err = {0, ""};
    ck_assert_msg(apply_text("local t = os.time(); local c = os.clock(); local d = os.date('!%Y', 0)\n"
                             "assert(d == '1970' and utf8.char(72) == 'H' and math.floor(2.5) == 2)\n"
                             "assert(table.concat({1, 2}, ',') == '1,2' and string.format('%d', 3) == '3')\n"
                             "local f = load('return 1 + 1'); assert(f() == 2)\n", &s, &err), "%s", err.msg);
}
END_TEST

START_TEST(t_runaway_stopped)
{
    expect_refused("function place(ctx)\n  while true do end\nend\n", ":2: the plugin ran more than");
}
END_TEST

START_TEST(t_runaway_caught_by_pcall_still_stopped)
{
    expect_refused("function place(ctx)\n while true do pcall(function() while true do end end) end\nend\n",
                   "instruction budget");
}
END_TEST

START_TEST(t_memory_bomb_stopped)
{
    expect_refused("function place(ctx)\n local t = {}\n while true do t[#t + 1] = {1, 2, 3, 4} end\nend\n",
                   "memory budget of 64 MiB");
    expect_refused("function place(ctx) return string.rep('x', 1 << 30) end", "memory budget");
    /* caught inside, then carrying on, is still a stop */
    expect_refused("function place(ctx)\n pcall(function() local t = {} while true do t[#t+1] = {} end end)\n"
                   " return ctx.plan\nend\n", "memory budget");
}
END_TEST

START_TEST(t_errors_have_location_and_traceback)
{
    expect_refused("function place(ctx)\n  local x = nil\n  return x.y\nend\n", ":3: attempt to index a nil value");
    expect_refused("function place(ctx)\n  local x = nil\n  return x.y\nend\n", "stack traceback");
    expect_refused("function place(ctx) return ctx.plan\n", ":2: 'end' expected");
    expect_refused("error('at load')", ":1: at load");
}
END_TEST

START_TEST(t_wrong_shapes)
{
    expect_refused("function place(ctx) return 42 end", ":1: place() returned the number 42");
    expect_refused("function place(ctx) ctx.plan.train.tp = 'x' return ctx.plan end", "plan.train.tp: expected an integer");
    expect_refused("function place(ctx) ctx.plan.trian = {} return ctx.plan end", "did you mean 'train'");
    expect_refused("function place(ctx) return {pools = {{name = 'a', devices = 16, roles = {'cook'}}}} end",
                   "plan.pools[1].roles[1]");
    /* a plan that validates field by field but not as a whole */
    expect_refused("function place(ctx) return {pools = {{name = 'a', devices = 16, roles = {'rollout'}}}} end",
                   "does not work");
}
END_TEST

/* The shipped policies produce the layouts their headers promise. */
static void policy_file(const char *name, scn_scenario *s)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/plugins/%s", test_root(), name);
    fs_err err = {0, ""};
    ck_assert_msg(policy_apply(path, s, &err), "%s", err.msg);
}

START_TEST(t_policy_separate_ratio)
{
    scn_scenario s;
    load_qwen(&s);
    s.plan.rollout_fraction = 0.75;
    policy_file("separate_ratio.lua", &s);
    ck_assert_int_eq(s.plan.mode, MODE_SEPARATE);
    ck_assert_int_eq(s.plan.npools, 2);
    ck_assert_int_eq(s.plan.pools[0].roles, ROLE_ROLLOUT);
    ck_assert_int_eq(s.plan.pools[0].devices, 12);
    ck_assert_int_eq(s.plan.pools[1].devices, 4);
    ck_assert(s.plan.pools[1].roles & ROLE_TRAIN);
    ck_assert(s.plan.pools[1].roles & ROLE_REF);
}
END_TEST

START_TEST(t_policy_colocate)
{
    scn_scenario s;
    load_qwen(&s);
    policy_file("colocate.lua", &s);
    ck_assert_int_eq(s.plan.mode, MODE_COLOCATE);
    ck_assert_int_eq(s.plan.npools, 2);
    ck_assert_int_eq(s.plan.pools[0].roles, ROLE_ROLLOUT | ROLE_TRAIN);
    ck_assert_int_eq(s.plan.pools[1].roles, ROLE_REF);
    ck_assert_int_eq(s.plan.pools[0].devices + s.plan.pools[1].devices, 16);
    ck_assert(s.plan.offload_optimizer && s.plan.zero_redundancy);
}
END_TEST

START_TEST(t_policy_full)
{
    scn_scenario s;
    load_qwen(&s);
    policy_file("full_colocate.lua", &s);
    ck_assert_int_eq(s.plan.mode, MODE_FULL);
    ck_assert_int_eq(s.plan.npools, 1);
    ck_assert_int_eq(s.plan.pools[0].devices, 16);
    ck_assert_int_eq(s.plan.pools[0].roles, ROLE_ROLLOUT | ROLE_TRAIN | ROLE_REF);
}
END_TEST

START_TEST(t_policy_stalesync_hybrid)
{
    scn_scenario s;
    load_qwen(&s);
    s.plan.rollout_devices = 0;             /* the policy's default: a quarter */
    policy_file("stalesync_hybrid.lua", &s);
    ck_assert_int_eq(s.plan.npools, 2);
    ck_assert_int_eq(s.plan.pools[0].roles, ROLE_ROLLOUT);          /* always generates */
    ck_assert_int_eq(s.plan.pools[1].roles, ROLE_ROLLOUT | ROLE_TRAIN | ROLE_REF);   /* switches */
    ck_assert_int_eq(s.plan.pools[0].devices, 4);
    ck_assert_int_ge(s.plan.staleness, 1);
    ck_assert(s.plan.partial_rollout < 1);
    plan pl;
    fs_err err = {0, ""};
    ck_assert_msg(plan_build(&s, &pl, &err), "%s", err.msg);
    ck_assert(pl.pools[1].colocated && !pl.pools[0].colocated);
}
END_TEST

/* Hooks: a failing hook stops the run with FILE:LINE; garbage is refused;
** setters change the engine. */
static bool run_with_hooks(const char *text, fs_err *out, sim_stats *st)
{
    scn_scenario s;
    load_qwen(&s);
    s.work.iterations = 3;
    char *path = test_tmpfile(".lua", text);
    snprintf(s.plan.policy, sizeof s.plan.policy, "%s", path);
    fs_err err = {0, ""};
    sim *sm = sim_new(&s, &err);
    ck_assert_msg(sm, "%s", err.msg);
    policy_run *h = NULL;
    ck_assert_msg(policy_hooks_attach(sm, &h, &err), "%s", err.msg);
    ck_assert_ptr_nonnull(h);
    bool ok = sim_run(sm);
    const fs_err *se = sim_error(sm);
    if (se) *out = *se;
    if (st) *st = *sim_get_stats(sm);
    ok = ok && !se;
    sim_free(sm);
    policy_hooks_free(h);
    unlink(path);
    free(path);
    return ok;
}

START_TEST(t_hook_error_mid_run)
{
    fs_err e = {0, ""};
    ck_assert(!run_with_hooks("local n = 0\nfunction on_step(ctx)\n  n = n + 1\n  if n == 2 then error('boom') end\nend\n", &e, NULL));
    ck_assert_int_eq(e.code, 2);
    ck_assert_msg(strstr(e.msg, ":4: boom"), "%s", e.msg);
}
END_TEST

START_TEST(t_hook_garbage)
{
    fs_err e = {0, ""};
    ck_assert(!run_with_hooks("function on_update(ctx) return 'garbage' end\n", &e, NULL));
    ck_assert_msg(strstr(e.msg, "on_update() returned a string"), "%s", e.msg);
    ck_assert(!run_with_hooks("function staleness(ctx) return 99 end\n", &e, NULL));
    ck_assert_msg(strstr(e.msg, "0..64"), "%s", e.msg);
    ck_assert(!run_with_hooks("function on_step(ctx) while true do end end\n", &e, NULL));
    ck_assert_msg(strstr(e.msg, "instruction budget"), "%s", e.msg);
}
END_TEST

START_TEST(t_hook_setters)
{
    fs_err e = {0, ""};
    sim_stats st;
    ck_assert_msg(run_with_hooks("function on_step(ctx)\n  assert(ctx.step >= 0 and ctx.samples_per_step == 1024)\n"
                                 "  ctx.set_staleness(2)\n  ctx.set_partial_rollout(0.6)\nend\n", &e, &st), "%s", e.msg);
    ck_assert_int_le(st.lag_max, 2);
    ck_assert_int_ge(st.lag_max, 1);        /* the bound was raised from 0 */
    ck_assert(!run_with_hooks("function on_update(ctx)\n  ctx.set_staleness(-1)\nend\n", &e, NULL));
    ck_assert_msg(strstr(e.msg, ":2: set_staleness: the staleness bound must be"), "%s", e.msg);
}
END_TEST

/* What-if files: cartesian product in sorted key order, then variants(). */
START_TEST(t_whatif_order)
{
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua",
        "return { vary = { ['plan.staleness'] = {0, 1}, ['cluster.supernodes'] = {1, 2, 4} },\n"
        "  variants = function(base) return { {name = 'x', set = {['plan.mode'] = 'separate'}},\n"
        "                                     {['plan.partial_rollout'] = 0.5} } end }\n");
    whatif_list w;
    fs_err err = {0, ""};
    ck_assert_msg(whatif_load(path, &s, &w, &err), "%s", err.msg);
    ck_assert_int_eq(w.nvariants, 8);
    ck_assert_str_eq(w.v[0].sets[0], "cluster.supernodes=1");
    ck_assert_str_eq(w.v[0].sets[1], "plan.staleness=0");
    ck_assert_str_eq(w.v[1].sets[1], "plan.staleness=1");
    ck_assert_str_eq(w.v[5].sets[0], "cluster.supernodes=4");
    ck_assert_str_eq(w.v[6].name, "x");
    ck_assert_str_eq(w.v[6].sets[0], "plan.mode=separate");
    ck_assert_str_eq(w.v[7].sets[0], "plan.partial_rollout=0.5");
    whatif_free(&w);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(t_whatif_errors)
{
    scn_scenario s;
    load_qwen(&s);
    const char *bad[][2] = {
        {"return {}", "neither"},
        {"return { vary = { ['plan.staleness'] = {} } }", "empty"},
        {"return { vary = { ['plan.staleness'] = { {} } } }", "number, string or boolean"},
        {"return { variants = function(base) return 7 end }", ":1: variants() returned a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *path = test_tmpfile(".lua", bad[i][0]);
        whatif_list w;
        fs_err err = {0, ""};
        ck_assert_msg(!whatif_load(path, &s, &w, &err), "accepted: %s", bad[i][0]);
        ck_assert_msg(strstr(err.msg, bad[i][1]) && strstr(err.msg, path), "%s", err.msg);
        unlink(path);
        free(path);
    }
}
END_TEST

/* The planner's candidates are feasible, sorted (the longest window first,
** then the score), and the best is at least as good as the scenario's own
** plan (which always reaches the final rung). */
START_TEST(t_planner_sorted_and_beats_baseline)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s plan %s --quiet --json - --top 5", test_fusync(), example("qwen7b_h100x16.lua"));
    int rc = test_sh(cmd, &out);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, out);
    char *cands = strstr(out, "\"candidates\": [");
    char *rej = strstr(out, "\"rejected\": [");
    ck_assert(cands && rej && rej > cands);
    double prev = 1e300, best = -1, own = -1;
    long prev_w = 1L << 30;
    int n = 0;
    for (char *p = cands; (p = strstr(p, "{\"id\": ")) && p < rej; p++) {
        char *f = strstr(p, "\"feasible\": ");
        char *sc = strstr(p, "\"score\": ");
        char *md = strstr(p, "\"mode\": ");
        char *wi = strstr(p, "\"simulated_iterations\": ");
        ck_assert(f && sc && md && wi);
        ck_assert_msg(!strncmp(f + 12, "true", 4), "an infeasible candidate in the list");
        double v = strtod(sc + 9, NULL);
        long w = strtol(wi + 24, NULL, 10);
        ck_assert_msg(w <= prev_w, "windows not sorted: %ld after %ld", w, prev_w);
        if (w < prev_w) prev = 1e300;
        ck_assert_msg(v <= prev, "candidates not sorted: %f after %f", v, prev);
        prev = v;
        prev_w = w;
        if (best < 0) best = v;
        if (!strncmp(md + 8, "\"baseline\"", 10)) {
            own = v;
            ck_assert_int_eq(w, 5);         /* the example's own iterations */
        }
        n++;
    }
    ck_assert_int_gt(n, 5);
    ck_assert_msg(own > 0, "the scenario's own plan is not among the candidates");
    ck_assert(best >= own);
    free(out);
}
END_TEST

static Suite *plugin_suite(void)
{
    Suite *s = suite_create("plugin");
    TCase *tc = tcase_create("sandbox");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, t_escapes_refused);
    tcase_add_test(tc, t_bytecode_file_refused);
    tcase_add_test(tc, t_allowed_libraries);
    tcase_add_test(tc, t_runaway_stopped);
    tcase_add_test(tc, t_runaway_caught_by_pcall_still_stopped);
    tcase_add_test(tc, t_memory_bomb_stopped);
    tcase_add_test(tc, t_errors_have_location_and_traceback);
    tcase_add_test(tc, t_wrong_shapes);
    suite_add_tcase(s, tc);
    tc = tcase_create("policies");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, t_policy_separate_ratio);
    tcase_add_test(tc, t_policy_colocate);
    tcase_add_test(tc, t_policy_full);
    tcase_add_test(tc, t_policy_stalesync_hybrid);
    tcase_add_test(tc, t_hook_error_mid_run);
    tcase_add_test(tc, t_hook_garbage);
    tcase_add_test(tc, t_hook_setters);
    suite_add_tcase(s, tc);
    tc = tcase_create("whatif_plan");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_whatif_order);
    tcase_add_test(tc, t_whatif_errors);
    tcase_add_test(tc, t_planner_sorted_and_beats_baseline);
    suite_add_tcase(s, tc);
    return s;
}

TEST_SUITE(plugin_suite)
