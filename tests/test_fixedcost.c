/*
** test_fixedcost.c — what does not shrink with more devices, shared links,
** the queue's CPU side, the weight-sync interval and streaming at bound 0
** (docs/model.md, sections 2, 4, 9 and 10).
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"
#include "model.h"
#include "plan.h"
#include "report.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEAR(a, b, tol) ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol) * fmax(1e-12, fabs((double)(b))), \
                                      "%s = %.9g, expected %.9g", #a, (double)(a), (double)(b))

/* Separate pools on two nodes of 8 H100s (rollout 8, training 8 at TP2 DP4),
** Qwen2.5-7B, a rule-based reward, no reference model. */
static const char *base_lua =
    "local f = fusync\n"
    "return { name = 'fixedcost',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 2 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 6, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'separate', rollout_fraction = 0.5,\n"
    "    train = { tp = 2, pp = 1, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 16 } },\n"
    "}\n";

static sim *run_base(const char *const *sets, int nsets, bool keep)
{
    sim *s = test_sim_text(base_lua, sets, nsets);
    trace_keep(sim_trace_mut(s), keep);
    ck_assert_msg(sim_run(s), "run: %s", sim_error(s) ? sim_error(s)->msg : "stalled");
    return s;
}

static report report_of(sim *s)
{
    report r;
    report_compute(s, &r);
    ck_assert_msg(r.feasible, "infeasible: %s", r.why);
    return r;
}

/* The rule-based reward runs on plan.reward_workers CPU processes however
** many devices train: 64 samples × 100 ms over 8 workers is 0.8 s a step on 8
** training devices and on 16; with one worker per device (0) it halves. */
START_TEST(t_reward_pool_does_not_shrink)
{
    double got[2][2];
    const char *workers[2] = {"plan.reward_workers=8", "plan.reward_workers=0"};
    const char *size[2] = {"cluster.nodes_per_supernode=2", "cluster.nodes_per_supernode=4"};
    for (int w = 0; w < 2; w++)
        for (int n = 0; n < 2; n++) {
            const char *sets[] = {"efficiency.reward_rule_ms=100", workers[w], size[n]};
            sim *s = run_base(sets, 3, false);
            report r = report_of(s);
            got[w][n] = r.infer_s[INF_REWARD];
            sim_free(s);
        }
    NEAR(got[0][0], 64 * 0.1 / 8, 1e-6);
    NEAR(got[0][1], 64 * 0.1 / 8, 1e-6);
    NEAR(got[1][0], 64 * 0.1 / 8, 1e-6);
    NEAR(got[1][1], 64 * 0.1 / 16, 1e-6);
    NEAR(mdl_reward_cpu(6144, 5e-3, 64), 0.48, 1e-12);
    NEAR(mdl_reward_cpu(10, 1.0, 0), 10.0, 1e-12);
}
END_TEST

/* A single controller gathers the whole batch into one process and scatters
** it back: 2 · bytes over one NIC, whatever the DP degree, and one call to
** every worker (16 or 32 calls against the queue's 4 or 8 readers). */
START_TEST(t_driver_gather)
{
    double tq[2], td[2], bytes[2];
    const char *size[2] = {"cluster.nodes_per_supernode=2", "cluster.nodes_per_supernode=4"};
    for (int n = 0; n < 2; n++) {
        const char *a[] = {size[n], "plan.controller=queue"}, *b[] = {size[n], "plan.controller=driver"};
        sim *x = run_base(a, 2, false), *y = run_base(b, 2, false);
        tq[n] = sim_get_stats(x)->queue_time_s;
        td[n] = sim_get_stats(y)->queue_time_s;
        bytes[n] = sim_get_stats(y)->dq_train_in;
        NEAR(sim_get_stats(x)->dq_train_in, bytes[n], 1e-12);
        /* 6 steps, one chunk each; the H100 preset's scale-out link at η 0.7;
        ** one call of 1 ms to each of the 16 or 32 devices */
        const scn_link *l = &sim_scenario(y)->cluster.inter_supernode;
        NEAR(td[n], 2.0 * bytes[n] / (l->bw * 0.7) + 6 * 2.0 * l->latency_s + 6 * 16 * (n + 1) * 1e-3, 1e-9);
        ck_assert_msg(td[n] > tq[n], "driver %.6f s against the queue's %.6f s", td[n], tq[n]);
        sim_free(x);
        sim_free(y);
    }
    /* the same samples (same seed): the driver's time grows with the devices */
    NEAR(bytes[1], bytes[0], 1e-12);
    ck_assert_msg(td[1] > td[0], "driver %.6f s on 32 devices, %.6f s on 16", td[1], td[0]);
}
END_TEST

/* The queue's CPU side: each serving node answers every reader's request
** one after another.  At 0.1 s a request it dominates: 8 readers flat (every
** training device) cost 0.8 s a step, 4 hierarchical (one per TP group of 2)
** 0.4 s plus the broadcast inside the group. */
START_TEST(t_queue_requests)
{
    const char *flat[] = {"plan.distqueue.request_us=100000", "plan.distqueue.hierarchical=false"};
    const char *hier[] = {"plan.distqueue.request_us=100000", "plan.distqueue.hierarchical=true"};
    sim *x = run_base(flat, 2, false), *y = run_base(hier, 2, false);
    NEAR(sim_get_stats(x)->queue_time_s, 6 * 8 * 0.1, 1e-9);
    double h = sim_get_stats(y)->queue_time_s;
    ck_assert_msg(h >= 6 * 4 * 0.1 && h < 6 * 4 * 0.1 + 0.1, "hierarchical reads %.6f s", h);
    NEAR(mdl_queue_requests(128, 1e-3), 0.128, 1e-12);
    sim_free(x);
    sim_free(y);
}
END_TEST

/* The scale-out fabric: an all-reduce whose members all cross supernodes at
** once gets inter_supernode ÷ oversubscription per device; a weight sync
** between pools on two supernodes likewise. */
START_TEST(t_scaleout_oversubscription)
{
    scn_cluster c = {.devices_per_node = 8, .nodes_per_supernode = 1, .supernodes = 2,
                     .intra_node = {400e9, 2e-6}, .intra_supernode = {400e9, 3e-6},
                     .inter_supernode = {50e9, 1e-5}, .scaleout_oversub = 1};
    /* two ranks, one per supernode: a flat all-reduce over the scale-out tier */
    double S = 1e9;
    NEAR(mdl_allreduce_group(&c, 0, 8, 2, S, 1.0), S / 50e9 + 2e-5, 1e-12);
    c.scaleout_oversub = 4;
    NEAR(mdl_allreduce_group(&c, 0, 8, 2, S, 1.0), S / 12.5e9 + 2e-5, 1e-12);
    /* inside a supernode nothing changes */
    NEAR(mdl_allreduce_group(&c, 0, 1, 8, S, 1.0), 2.0 * 7 / 8 * S / 400e9 + 14 * 2e-6, 1e-12);
    scn_link l = mdl_tier_link_shared(&c, 2);
    NEAR(l.bw, 12.5e9, 1e-12);
    l = mdl_tier_link_shared(&c, 1);
    NEAR(l.bw, 400e9, 1e-12);

    /* the engine: separate pools on two supernodes of one node each */
    const char *a[] = {"cluster.nodes_per_supernode=1", "cluster.supernodes=2"};
    const char *b[] = {"cluster.nodes_per_supernode=1", "cluster.supernodes=2", "cluster.scaleout_oversubscription=4"};
    sim *x = run_base(a, 2, false), *y = run_base(b, 3, false);
    report rx = report_of(x), ry = report_of(y);
    ck_assert_msg(ry.phase_s[STEP_WEIGHT_SYNC] > 3.5 * rx.phase_s[STEP_WEIGHT_SYNC],
                  "weight sync %.6f s oversubscribed 4:1, %.6f s non-blocking", ry.phase_s[STEP_WEIGHT_SYNC],
                  rx.phase_s[STEP_WEIGHT_SYNC]);
    sim_free(x);
    sim_free(y);
}
END_TEST

/* Devices behind one scale-out NIC share it when they all cross nodes at
** once: with 8 devices a NIC the cross-node and cross-supernode all-reduces,
** the weight sync between pools on two nodes and a co-located pool's
** reshard across them run at 1/8 of a NIC each;
** inside a node nothing changes; the DistQueue's readers behind one NIC
** share it; more devices a NIC than a node holds is refused. */
START_TEST(t_nic_shared)
{
    scn_cluster c = {.devices_per_node = 8, .nodes_per_supernode = 2, .supernodes = 2,
                     .intra_node = {400e9, 2e-6}, .intra_supernode = {50e9, 3e-6},
                     .inter_supernode = {50e9, 1e-5}, .scaleout_oversub = 1, .devices_per_nic = 1};
    double S = 1e9;
    /* two ranks on two nodes of one supernode, then on two supernodes */
    NEAR(mdl_allreduce_group(&c, 0, 8, 2, S, 1.0), S / 50e9 + 2 * 3e-6, 1e-12);
    NEAR(mdl_allreduce_group(&c, 0, 16, 2, S, 1.0), S / 50e9 + 2e-5, 1e-12);
    c.devices_per_nic = 8;
    NEAR(mdl_allreduce_group(&c, 0, 8, 2, S, 1.0), 8 * S / 50e9 + 2 * 3e-6, 1e-12);
    NEAR(mdl_allreduce_group(&c, 0, 16, 2, S, 1.0), 8 * S / 50e9 + 2e-5, 1e-12);
    /* NICs and an oversubscribed fabric multiply */
    c.scaleout_oversub = 2;
    NEAR(mdl_tier_link_shared(&c, 2).bw, 50e9 / 16, 1e-12);
    NEAR(mdl_tier_link_shared(&c, 1).bw, 50e9 / 8, 1e-12);
    NEAR(mdl_tier_link_shared(&c, 0).bw, 400e9, 1e-12);
    c.scaleout_oversub = 1;
    /* inside a node nothing changes */
    NEAR(mdl_allreduce_group(&c, 0, 1, 8, S, 1.0), 2.0 * 7 / 8 * S / 400e9 + 14 * 2e-6, 1e-12);
    /* a placed pool's groups see the same links (plan_allreduce_group):
    ** devices 0 and 8, two ranges */
    plan_pool q = {.first = 0, .nranges = 2, .range = {{0, 0}, {8, 8}}, .devices = 2};
    NEAR(plan_allreduce_group(&c, &q, 0, 1, 2, S, 1.0), 8 * S / 50e9 + 2 * 3e-6, 1e-12);
    /* DistQueue readers behind one NIC: every device, one per TP×PP group
    ** of 4 (two behind a NIC of 8), one per group of 16, never more than read */
    ck_assert_int_eq(mdl_nic_readers(&c, 1, 64), 8);
    ck_assert_int_eq(mdl_nic_readers(&c, 4, 64), 2);
    ck_assert_int_eq(mdl_nic_readers(&c, 16, 64), 1);
    ck_assert_int_eq(mdl_nic_readers(&c, 1, 3), 3);
    c.devices_per_nic = 1;
    ck_assert_int_eq(mdl_nic_readers(&c, 1, 64), 1);

    /* the engine: the weight sync crosses from node 0 to node 1 */
    const char *a[] = {"cluster.devices_per_nic=1"};
    const char *b[] = {"cluster.devices_per_nic=8"};
    sim *x = run_base(a, 1, false), *y = run_base(b, 1, false);
    report rx = report_of(x), ry = report_of(y);
    ck_assert_msg(ry.phase_s[STEP_WEIGHT_SYNC] > 4 * rx.phase_s[STEP_WEIGHT_SYNC],
                  "weight sync %.6f s with 8 devices a NIC, %.6f s with one each", ry.phase_s[STEP_WEIGHT_SYNC],
                  rx.phase_s[STEP_WEIGHT_SYNC]);
    sim_free(x);
    sim_free(y);
    /* a co-located pool on both nodes reshards across them */
    const char *ca[] = {"plan.mode=colocate", "cluster.devices_per_nic=1"};
    const char *cb[] = {"plan.mode=colocate", "cluster.devices_per_nic=8"};
    x = run_base(ca, 2, false);
    y = run_base(cb, 2, false);
    rx = report_of(x);
    ry = report_of(y);
    ck_assert_msg(ry.phase_s[STEP_SWITCH] > rx.phase_s[STEP_SWITCH], "switch %.6f s with 8 devices a NIC, %.6f s with one each",
                  ry.phase_s[STEP_SWITCH], rx.phase_s[STEP_SWITCH]);
    sim_free(x);
    sim_free(y);

    char *path = test_tmpfile(".lua", base_lua);
    const char *bad[] = {"cluster.devices_per_nic=16"};
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert(!lscn_load(path, bad, 1, &sc, &err));
    ck_assert_msg(strstr(err.msg, "cluster.devices_per_nic"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

/* Devices behind one host uplink share it when they all offload at once: a
** co-located switch's host transfers take twice as long with two devices a
** link; more devices a link than a node holds is refused. */
START_TEST(t_host_link_shared)
{
    scn_cluster c = {.devices_per_node = 8, .devices_per_host_link = 1};
    c.device.host_bw = 64e9;
    NEAR(mdl_host_bw_shared(&c, 0.8), 51.2e9, 1e-12);
    c.devices_per_host_link = 2;
    NEAR(mdl_host_bw_shared(&c, 0.8), 25.6e9, 1e-12);

    const char *a[] = {"plan.mode=colocate", "cluster.devices_per_host_link=1"};
    const char *b[] = {"plan.mode=colocate", "cluster.devices_per_host_link=2"};
    sim *x = run_base(a, 2, false), *y = run_base(b, 2, false);
    report rx = report_of(x), ry = report_of(y);
    ck_assert_msg(ry.phase_s[STEP_SWITCH] > rx.phase_s[STEP_SWITCH], "switch %.6f s with a shared uplink, %.6f s without",
                  ry.phase_s[STEP_SWITCH], rx.phase_s[STEP_SWITCH]);
    sim_free(x);
    sim_free(y);

    char *path = test_tmpfile(".lua", base_lua);
    const char *bad[] = {"cluster.devices_per_host_link=16"};
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert(!lscn_load(path, bad, 1, &sc, &err));
    ck_assert_msg(strstr(err.msg, "cluster.devices_per_host_link"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

/* Weight-sync spans on the first rollout instance's track. */
static int syncs_on_instance(sim *s)
{
    const trace *t = sim_trace(s);
    for (int k = 0; k < trace_ntracks(t); k++) {
        if (trace_track_at(t, k)->kind != TRK_INSTANCE) continue;
        const uint32_t *ix = trace_track_span_index(t, k);
        int n = 0;
        for (size_t i = 0; i < trace_track_nspans(t, k); i++)
            if (trace_spans(t)[ix[i]].phase == PH_WEIGHT_SYNC) n++;
        return n;
    }
    return -1;
}

/* plan.sync_every = 2: the rollout receives versions 2, 4 and 6 of six, not
** every one; no trained sample lags more than the bound; the bound must
** allow the interval. */
START_TEST(t_sync_every)
{
    const char *one[] = {"plan.staleness=1", "plan.sync_every=1"};
    const char *two[] = {"plan.staleness=1", "plan.sync_every=2"};
    sim *x = run_base(one, 2, true), *y = run_base(two, 2, true);
    ck_assert_int_eq(syncs_on_instance(x), 6);
    ck_assert_int_eq(syncs_on_instance(y), 3);
    report ry = report_of(y);
    ck_assert_int_le(ry.lag_max, 1);
    ck_assert_int_eq(sim_get_stats(y)->iterations_done, 6);
    sim_free(x);
    sim_free(y);

    char *path = test_tmpfile(".lua", base_lua);
    const char *bad[] = {"plan.staleness=0", "plan.sync_every=3"};
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert(!lscn_load(path, bad, 2, &sc, &err));
    ck_assert_msg(strstr(err.msg, "plan.sync_every") && strstr(err.msg, "plan.staleness"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

/* plan.stream at bound 0: the training-only pool takes each mini-batch as
** soon as enough of the step's samples have finished, so training overlaps
** the long tail; every trained sample is still on-policy (lag 0). */
START_TEST(t_stream_bound0)
{
    const char *off[] = {"plan.staleness=0", "plan.stream=false"};
    const char *on[] = {"plan.staleness=0", "plan.stream=true"};
    sim *x = run_base(off, 2, false), *y = run_base(on, 2, false);
    report rx = report_of(x), ry = report_of(y);
    ck_assert_int_eq(ry.lag_max, 0);
    ck_assert_int_eq(rx.lag_max, 0);
    ck_assert_msg(ry.throughput > rx.throughput, "streaming %.3f tokens/s, whole steps %.3f", ry.throughput, rx.throughput);
    NEAR(sim_get_stats(y)->tokens_trained, sim_get_stats(x)->tokens_trained, 1e-12);
    sim_free(x);
    sim_free(y);
}
END_TEST

static Suite *suite_fixedcost(void)
{
    Suite *s = suite_create("fixedcost");
    TCase *tc = tcase_create("fixedcost");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_reward_pool_does_not_shrink);
    tcase_add_test(tc, t_driver_gather);
    tcase_add_test(tc, t_queue_requests);
    tcase_add_test(tc, t_scaleout_oversubscription);
    tcase_add_test(tc, t_host_link_shared);
    tcase_add_test(tc, t_nic_shared);
    tcase_add_test(tc, t_sync_every);
    tcase_add_test(tc, t_stream_bound0);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_fixedcost)
