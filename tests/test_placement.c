/*
** test_placement.c — pools placed by plan.pools[].where or .ranges
** (docs/model.md, section 2): the devices each pool gets, the engine's
** tracks on them, the errors that name the field, and the planner's
** estimate against the engine on a ZeRO-3 layout over placed pools.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "planner.h"
#include "engine.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two supernodes of two nodes of 8 H100s (32 devices); the pools and the
** plan's other fields are the caller's Lua. */
static bool load(const char *plan_lua, scn_scenario *sc, fs_err *err)
{
    char text[4096];
    snprintf(text, sizeof text,
             "local f = fusync\n"
             "return { name = 'placed',\n"
             "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 2, supernodes = 2 },\n"
             "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
             "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
             "    prompt_len = f.dist.fixed(256), response_len = f.dist.fixed(512),\n"
             "    max_response = 512, iterations = 2, warmup = 0, seed = 3 },\n"
             "  plan = { %s },\n"
             "}\n", plan_lua);
    char *path = test_tmpfile(".lua", text);
    ck_assert_ptr_nonnull(path);
    bool ok = lscn_load(path, NULL, 0, sc, err) && scn_validate(sc, err);
    unlink(path);
    free(path);
    return ok;
}

static void build(const char *plan_lua, scn_scenario *sc, plan *pl)
{
    fs_err err = {0, ""};
    ck_assert_msg(load(plan_lua, sc, &err), "load: %s", err.msg);
    ck_assert_msg(plan_build(sc, pl, &err), "plan_build: %s", err.msg);
}

static void ranges_are(const plan_pool *q, int n, const int *want)
{
    ck_assert_int_eq(q->nranges, n);
    for (int r = 0; r < n; r++) {
        ck_assert_int_eq(q->range[r][0], want[2 * r]);
        ck_assert_int_eq(q->range[r][1], want[2 * r + 1]);
    }
}

#define TRAIN "train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 64 }"

/* devices = 16, where = "spread" on two supernodes of 16: the first half of
** every supernode; the training pool after it takes the rest of each. */
START_TEST(t_spread_first_half_of_every_supernode)
{
    scn_scenario sc;
    plan pl;
    build("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', devices = 16, where = 'spread', roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }", &sc, &pl);
    ranges_are(&pl.pools[0], 2, (const int[]){0, 7, 16, 23});
    ranges_are(&pl.pools[1], 2, (const int[]){8, 15, 24, 31});
    ck_assert(pl.pools[0].placed && pl.pools[1].placed);
    ck_assert_int_eq(plan_dev(&pl.pools[0], 8), 16);
    ck_assert_int_eq(plan_dev(&pl.pools[1], 15), 31);
    ck_assert_int_eq(plan_dev_after(&pl.pools[1], 14, 2), 24);
    /* training TP2 PP2 DP4 on 8..15, 24..31: stage 1 starts at device 24, and
    ** the pipeline's send crosses supernodes while a TP pair stays in a node */
    ck_assert_int_eq(plan_group_tier(&sc.cluster, &pl.pools[1], 0, 1, 2), 0);
    ck_assert_int_eq(plan_group_tier(&sc.cluster, &pl.pools[1], 0, 8, 2), 2);
    /* weight sync: every supernode with rollout devices has training ones */
    ck_assert_int_eq(plan_sync_tier(&sc.cluster, &pl.pools[1], &pl.pools[0]), 1);
    /* the engine's tracks carry the real device numbers */
    fs_err err = {0, ""};
    sim *s = sim_new(&sc, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    const trace *tr = sim_trace(s);
    int inst = 0, stage = 0;
    for (int k = 0; k < trace_ntracks(tr); k++) {
        const trace_track *tk = trace_track_at(tr, k);
        if (tk->kind == TRK_INSTANCE && tk->pool == 0) {
            ck_assert_int_eq(tk->first_device, inst < 8 ? inst : 16 + inst - 8);
            inst++;
        }
        if (tk->kind == TRK_STAGE) {
            ck_assert_int_eq(tk->first_device, stage == 0 ? 8 : 24);
            stage++;
        }
    }
    ck_assert_int_eq(inst, 16);
    ck_assert_int_eq(stage, 2);
    sim_run(s);
    ck_assert(sim_error(s) == NULL);
    sim_free(s);
    /* check's text shows the ranges */
    fs_buf b;
    buf_init(&b);
    plan_describe(&sc, &pl, &b);
    ck_assert_msg(strstr(b.s, "16 devices [0..7, 16..23]  roles rollout") != NULL, "%s", b.s);
    buf_free(&b);
}
END_TEST

/* Explicit ranges, given in any order, are placed first; a packed pool takes
** the lowest devices left, which may be several ranges. */
START_TEST(t_ranges_pool)
{
    scn_scenario sc;
    plan pl;
    build("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'train', roles = {'train', 'ref'}, devices = 16 },\n"
          "  { name = 'gen', ranges = {{24, 31}, {0, 7}}, roles = {'rollout'} } }", &sc, &pl);
    ck_assert_int_eq(pl.pools[1].devices, 16);      /* the ranges' sum */
    ranges_are(&pl.pools[1], 2, (const int[]){0, 7, 24, 31});
    ranges_are(&pl.pools[0], 1, (const int[]){8, 23});
    ck_assert_int_eq(pl.pools[0].first, 8);
    ck_assert(pl.fits);
    /* spread_nodes: the same share of every node */
    build("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', devices = 16, where = 'spread_nodes', roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }", &sc, &pl);
    ranges_are(&pl.pools[0], 4, (const int[]){0, 3, 8, 11, 16, 19, 24, 27});
    ranges_are(&pl.pools[1], 4, (const int[]){4, 7, 12, 15, 20, 23, 28, 31});
    int most = 0;
    ck_assert_int_eq(plan_nodes(&sc.cluster, &pl.pools[0], &most), 4);
    ck_assert_int_eq(most, 4);
    /* without a placement the pools are numbered one after another, as ever */
    build("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', devices = 16, roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }", &sc, &pl);
    ranges_are(&pl.pools[0], 1, (const int[]){0, 15});
    ranges_are(&pl.pools[1], 1, (const int[]){16, 31});
    ck_assert(!pl.pools[0].placed && !pl.pools[1].placed);
}
END_TEST

static void fails(const char *plan_lua, const char *want)
{
    scn_scenario sc;
    plan pl;
    fs_err err = {0, ""};
    bool ok = load(plan_lua, &sc, &err) && plan_build(&sc, &pl, &err);
    ck_assert_msg(!ok, "accepted: %s", plan_lua);
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, want) != NULL, "error '%s' lacks '%s'", err.msg, want);
}

START_TEST(t_placement_errors)
{
    /* overlapping pools */
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', ranges = {{0, 15}}, roles = {'rollout'} },\n"
          "  { name = 'train', ranges = {{16, 23}, {8, 15}}, roles = {'train', 'ref'} } }",
          "plan.pools[2].ranges[2]: device 8 is already in pool 'gen'");
    /* past the cluster */
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', ranges = {{0, 7}, {30, 37}}, roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }",
          "plan.pools[1].ranges[2]: {30, 37} goes past the cluster's last device 31");
    /* a training TP group split over two nodes: from device 21 the second
    ** TP pair is devices 23 and 24, on either side of a node boundary */
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'train', ranges = {{21, 23}, {24, 28}}, roles = {'train', 'ref'} },\n"
          "  { name = 'gen', devices = 16, roles = {'rollout'} } }",
          "plan.pools[1].ranges[1]: a training TP group of 2 devices (plan.train.tp) would take devices 23 and 24");
    /* a spread that does not split evenly over the supernodes */
    fails("mode = 'separate', train = { tp = 1, pp = 1 }, rollout = { tp = 1, max_seqs = 64 }, pools = {\n"
          "  { name = 'gen', devices = 15, where = 'spread', roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }",
          "plan.pools[1].devices: 15 does not split evenly over the 2 supernodes");
    /* devices that disagree with the ranges, and ranges with a where */
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', devices = 12, ranges = {{0, 7}, {16, 23}}, roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }",
          "plan.pools[1].devices: 12, but its ranges hold 16 devices");
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', ranges = {{7, 0}}, roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }",
          "plan.pools[1].ranges[1]: {7, 0}: the last device comes before the first");
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', ranges = {{0, 15}}, where = 'spread', roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }",
          "plan.pools[1].where: a pool with ranges is placed by them");
    /* a packed pool that finds too few free devices beside the ranges */
    fails("mode = 'separate', " TRAIN ", pools = {\n"
          "  { name = 'gen', ranges = {{4, 19}}, roles = {'rollout'} },\n"
          "  { name = 'train', devices = 16, where = 'spread', roles = {'train', 'ref'} } }",
          "plan.pools[2].where: supernode 0 has 4 free devices, the pool needs 8 of each");
}
END_TEST

/* The estimate's parts are the engine's on a ZeRO-3 layout (overlap 0.5)
** over spread pools, whose pipeline send crosses supernodes: forward passes
** (a parameter gather per micro-batch) and a mini-batch's training
** (all-gathers and reduce-scatters per micro-batch, then the optimizer). */
START_TEST(t_estimate_zero3_placed)
{
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert_msg(load("mode = 'separate', rollout = { tp = 1, max_seqs = 64 },\n"
                       "  train = { tp = 2, pp = 2, micro_batch = 2, zero = 3, overlap = 0.5 }, pools = {\n"
                       "  { name = 'gen', devices = 16, where = 'spread', roles = {'rollout'} },\n"
                       "  { name = 'train', devices = 16, roles = {'train', 'ref'} } }", &sc, &err), "%s", err.msg);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "placed.lua"};
    planner P;
    ck_assert_msg(planner_init(&P, &sc, NULL, &po, &err), "%s", err.msg);
    plan pl;
    ck_assert_msg(plan_build(&P.base, &pl, &err), "%s", err.msg);
    const plan_pool *tq = &pl.pools[pl.train_pool];
    ck_assert(tq->placed);
    /* ZeRO-3 costs time here: the per-micro-batch part is not zero */
    ck_assert(plan_zero_comm(&P.base, tq, &P.base.actor, 4, true, NULL, NULL) > 0);
    sim *s = sim_new(&P.base, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    sim_run(s);
    ck_assert(sim_error(s) == NULL);
    const trace *tr = sim_trace(s);
    const trace_span *sp = trace_spans(tr);
    double a = INFINITY, b = -INFINITY, ta = INFINITY, tb = -INFINITY;
    for (size_t i = 0; i < trace_nspans(tr); i++) {
        if (sp[i].iter != 0 || trace_track_at(tr, sp[i].track)->kind == TRK_STEP) continue;
        double t0 = sp[i].t0 * 1e-9, t1 = sp[i].t1 * 1e-9;
        if (sp[i].phase >= PH_LOGPROB && sp[i].phase <= PH_REF) { a = fmin(a, t0); b = fmax(b, t1); }
        if (sp[i].phase >= PH_TRAIN_FWD && sp[i].phase <= PH_OPTIMIZER) { ta = fmin(ta, t0); tb = fmax(tb, t1); }
    }
    double want = est_fwd_pass(&P.len, &P.base, tq, &P.base.actor) + est_fwd_pass(&P.len, &P.base, tq, &P.base.ref);
    ck_assert_msg(isfinite(a) && fabs((b - a) - want) <= 1e-6 * want, "forward passes: engine %.9g s, estimate %.9g s",
                  b - a, want);
    want = P.base.work.minibatches * P.base.work.epochs * est_train_minibatch(&P.len, &P.base, tq, &P.base.actor);
    ck_assert_msg(isfinite(ta) && fabs((tb - ta) - want) <= 1e-6 * want, "training: engine %.9g s, estimate %.9g s",
                  tb - ta, want);
    sim_free(s);
    planner_free(&P);
}
END_TEST

/* On two supernodes the planner searches the spread split: separate pools
** with the rollout pool on the same share of every supernode. */
START_TEST(t_planner_spread_mode)
{
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert_msg(load("mode = 'separate', " TRAIN, &sc, &err), "%s", err.msg);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "placed.lua"};
    planner P;
    ck_assert_msg(planner_init(&P, &sc, NULL, &po, &err), "%s", err.msg);
    planner_enumerate(&P);
    long spread = 0;
    for (long i = 0; i < P.nc; i++) {
        if (P.c[i].mode != PLANNER_SPREAD) continue;
        scn_scenario s;
        planner_apply(&P, &P.c[i], &s);
        plan pl;
        ck_assert_msg(plan_build(&s, &pl, &err), "%s", err.msg);
        ck_assert_int_eq(pl.pools[0].devices, 16);       /* half of each supernode, in whole nodes */
        ranges_are(&pl.pools[0], 2, (const int[]){0, 7, 16, 23});
        ranges_are(&pl.pools[1], 2, (const int[]){8, 15, 24, 31});
        ck_assert_str_eq(planner_mode_name(P.c[i].mode), "spread");
        spread++;
    }
    ck_assert_int_gt(spread, 0);
    planner_free(&P);
}
END_TEST

/* A pool packed across a node boundary holds its devices on two nodes: the
** actor's 4 devices after a rollout pool of 6 are devices 6-9, 2 on each of
** the first two nodes, so its host share a node (the optimizer on the host,
** docs/model.md section 8, "One host memory a node") is 2 devices' worth,
** in the plan and in the run's ledger alike. */
START_TEST(t_host_straddling_pool)
{
    scn_scenario sc;
    plan pl;
    build("mode = 'separate', rollout = { tp = 1, max_seqs = 64 },\n"
          "  train = { tp = 1, pp = 1, zero = 3, micro_batch = 2, optimizer_offload = 1 },\n"
          "  pools = { { name = 'gen', devices = 6, roles = { 'rollout' } },\n"
          "            { name = 'actor', devices = 4, roles = { 'train', 'ref' } } }", &sc, &pl);
    const plan_pool *q = &pl.pools[1];
    ranges_are(q, 1, (const int[]){6, 9});
    ck_assert_int_eq(plan_host_devices(&sc.cluster, q), 2);
    ck_assert_double_gt(q->host_per_device, 0);
    ck_assert_double_eq_tol(q->host_mem_per_node, 2 * q->host_per_device, 1.0);
    ck_assert_double_eq_tol(pl.host.bytes, 2 * q->host_per_device, 1.0);
    fs_err err = {0, ""};
    sim *s = sim_new(&sc, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert(sim_run(s));
    const trace *tr = sim_trace(s);
    double host = 0;
    for (int g = 0; g < trace_nmemgroups(tr); g++)
        if (trace_memgroup_at(tr, g)->host && trace_memgroup_at(tr, g)->pool == 1)
            host = fmax(host, sim_mem_peak_total(s, g, NULL));
    ck_assert_double_eq_tol(host, 2 * q->host_per_device, 1.0);
    sim_free(s);
}
END_TEST

static Suite *placement_suite(void)
{
    Suite *s = suite_create("placement");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_spread_first_half_of_every_supernode);
    tcase_add_test(tc, t_ranges_pool);
    tcase_add_test(tc, t_placement_errors);
    tcase_add_test(tc, t_estimate_zero3_placed);
    tcase_add_test(tc, t_planner_spread_mode);
    tcase_add_test(tc, t_host_straddling_pool);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(placement_suite)
