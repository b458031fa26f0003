/*
** test_sync.c — the weight sync and the co-located reshard as the frameworks
** run them (plan.sync_model "gather", docs/model.md, sections 8 and 9): the
** formula by hand, the engine's spans and the planner's estimate against the
** one function (plan_weight_sync), and the ideal bound kept as an option.
*/
#include "testutil.h"
#include "engine.h"
#include "estimate.h"
#include "model.h"
#include "plan.h"
#include "trace.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b, tol) ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol) * fmax(1e-12, fabs((double)(b))), \
                                      "%s = %.9g, expected %.9g", #a, (double)(a), (double)(b))

/* Qwen2.5-7B on two nodes of 8 H100s: separate pools (rollout 8 at TP1,
** training 8 at TP2 DP4), or one co-located pool of 16. */
static const char *sep_lua =
    "local f = fusync\n"
    "return { name = 'sync',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 2 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 4, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'separate', rollout_fraction = 0.5,\n"
    "    train = { tp = 2, pp = 1, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 16 } },\n"
    "}\n";

static const char *co_lua =
    "local f = fusync\n"
    "return { name = 'sync_co',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 2 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 4, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'colocate', offload = { optimizer = true, grads = true },\n"
    "    train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 2, max_seqs = 16 } },\n"
    "}\n";

/* A flat link: bandwidth 100 GB/s, latency 10 µs. */
static scn_link flat(double bw, double lat)
{
    scn_link l;
    memset(&l, 0, sizeof l);
    l.bw = bw;
    l.latency_s = lat;
    return l;
}

/* The formula by hand on flat links: a dense model of 8 GB in 4 buckets of
** 2 GB, TP2 PP2, a rollout device keeping 4 GB, η_link 0.5, HBM 1 TB/s.
** Per bucket: PP broadcast of σ·b = 1 GB at 50 GB/s (20 ms + 10 µs), TP
** all-gather of 2 GB over 2 ranks (1/2 · 2 GB / 50 GB/s = 20 ms + 10 µs),
** convert 2·2 GB / 1 TB/s = 4 ms, load 2·2 GB·(4/8) / 1 TB/s = 2 ms; the
** separate transfer a broadcast of 2 GB (40 ms + 10 µs). */
START_TEST(t_formula_by_hand)
{
    mdl_sync_in in;
    memset(&in, 0, sizeof in);
    in.full_bytes = 8e9;
    in.rollout_bytes = 4e9;
    in.tp = 2;
    in.pp = 2;
    in.ex = 1;
    in.shard = 1;
    in.ltp = in.lpp = in.lxfer = flat(100e9, 10e-6);
    in.bucket_bytes = 2e9;
    in.hbm_bw = 1e12;
    in.link_eff = 0.5;
    in.local = true;
    mdl_sync r = mdl_sync_gather(&in);
    ck_assert_int_eq(r.buckets, 4);
    NEAR(r.gather_s, 4 * (0.020 + 10e-6 + 0.020 + 10e-6), 1e-12);
    NEAR(r.convert_s, 4 * 0.004, 1e-12);
    NEAR(r.load_s, 4 * 0.002, 1e-12);
    NEAR(r.transfer_s, 0, 1e-12);
    NEAR(r.total_s, r.gather_s + r.convert_s + r.load_s, 1e-12);
    in.local = false;
    in.bucket_s = 0.1;
    r = mdl_sync_gather(&in);
    NEAR(r.transfer_s, 4 * (0.040 + 10e-6), 1e-12);
    NEAR(r.fixed_s, 0.4, 1e-12);
    /* experts: a quarter of the model over an expert group of 4 — σ is
    ** 3/4 / 2 + 1/4 / 4, the TP gather takes 3/4 of a bucket, the expert
    ** gather 1/4 of it over 4 ranks */
    in.local = true;
    in.bucket_s = 0;
    in.expert_share = 0.25;
    in.ex = 4;
    in.lex = flat(100e9, 10e-6);
    r = mdl_sync_gather(&in);
    double sig = 0.375 + 0.0625, b = 2e9;
    double g = sig * b / 50e9 + 10e-6 + 0.5 * 0.75 * b / 50e9 + 10e-6 + 0.75 * 0.25 * b / 50e9 + 3 * 10e-6;
    NEAR(r.gather_s, 4 * g, 1e-12);
}
END_TEST

static sim *run_text(const char *lua, const char *const *sets, int nsets)
{
    sim *s = test_sim_text(lua, sets, nsets);
    trace_keep(sim_trace_mut(s), true);
    ck_assert_msg(sim_run(s), "run: %s", sim_error(s) ? sim_error(s)->msg : "stalled");
    return s;
}

/* The duration of the first span of phase ph on a track of kind `kind` (-1: any). */
static double first_span(const sim *s, int kind, int ph)
{
    const trace *t = sim_trace(s);
    for (int k = 0; k < trace_ntracks(t); k++) {
        if (kind >= 0 && (int)trace_track_at(t, k)->kind != kind) continue;
        const uint32_t *ix = trace_track_span_index(t, k);
        for (size_t i = 0; i < trace_track_nspans(t, k); i++) {
            const trace_span *sp = &trace_spans(t)[ix[i]];
            if (sp->phase == ph) return sim_secs(sp->t1 - sp->t0);
        }
    }
    return -1;
}

/* Separate pools: the engine's weight-sync span is plan_weight_sync's
** figure; gathering, converting and loading cost more than the ideal
** bound, which "ideal" still gives (mdl_weight_sync); the planner's
** estimate moves with it. */
START_TEST(t_separate_engine_and_estimate)
{
    const char *ideal[] = {"plan.sync_model=ideal"};
    sim *g = run_text(sep_lua, NULL, 0), *id = run_text(sep_lua, ideal, 1);
    const scn_scenario *sc = sim_scenario(g);
    const plan *pl = sim_plan(g);
    const plan_pool *tq = &pl->pools[pl->train_pool], *rq = NULL;
    for (int i = 0; i < pl->npools; i++)
        if (i != pl->train_pool && (pl->pools[i].roles & ROLE_ROLLOUT)) rq = &pl->pools[i];
    ck_assert_ptr_nonnull(rq);
    mdl_sync w = plan_weight_sync(sc, tq, rq);
    ck_assert_int_gt(w.buckets, 1);
    ck_assert_msg(w.gather_s > 0 && w.convert_s > 0 && w.transfer_s > 0 && w.load_s > 0, "a step is missing");
    NEAR(first_span(g, TRK_INSTANCE, PH_WEIGHT_SYNC), w.total_s, 1e-6);

    const scn_scenario *si = sim_scenario(id);
    mdl_sync wi = plan_weight_sync(si, tq, rq);
    scn_link l = mdl_tier_link_shared(&si->cluster, plan_sync_tier(&si->cluster, tq, rq));
    NEAR(wi.total_s, mdl_weight_sync(plan_rollout_weights(si), si->actor.params_total, rq->instances, tq->devices,
                                     si->plan.bucket_bytes, &l, si->eff.link), 1e-12);
    NEAR(first_span(id, TRK_INSTANCE, PH_WEIGHT_SYNC), wi.total_s, 1e-6);
    /* 8 instances from 8 training devices: the ideal bound's send is one
    ** full copy over the link, the gather's broadcast the same, and the
    ** gather, conversion and load come on top */
    ck_assert_msg(w.total_s > wi.total_s + w.gather_s, "gather %.4f s, ideal %.4f s", w.total_s, wi.total_s);

    est_lengths len;
    est_lengths_of(&sc->work, &len);
    double eg = est_throughput(&len, sc, pl), ei = est_throughput(&len, si, sim_plan(id));
    ck_assert_msg(eg < ei, "estimate: gather %.3f tokens/s, ideal %.3f", eg, ei);
    sim_free(g);
    sim_free(id);
}
END_TEST

/* Co-located: the switch into the rollout layout is the gather; back, the
** training weights stay unless zero_redundancy freed them, and then only
** their own shard is rebuilt; bucketed, smaller buckets pay more calls. */
START_TEST(t_colocated_switch)
{
    const char *keep[] = {"plan.zero_redundancy=false"};
    const char *small[] = {"plan.bucket_mb=16"};
    sim *zr = run_text(co_lua, NULL, 0), *kp = run_text(co_lua, keep, 1);
    const scn_scenario *sc = sim_scenario(zr);
    const plan_pool *q = &sim_plan(zr)->pools[sim_plan(zr)->train_pool];
    ck_assert(q->colocated);
    mdl_sync w = plan_weight_sync(sc, q, q);
    NEAR(w.transfer_s, 0, 1e-12);
    ck_assert(w.gather_s > 0);
    NEAR(first_span(zr, -1, PH_RESHARD), w.total_s, 1e-6);
    double st[3];
    plan_train_states(sc, q, st);
    scn_link l = plan_pool_link_shared(&sc->cluster, q, 0, 1, q->devices);
    NEAR(plan_reshard_back(sc, q), mdl_reshard(st[0], sc->plan.bucket_bytes, &l, sc->eff.link), 1e-12);
    NEAR(plan_reshard_back(sim_scenario(kp), q), 0, 1e-12);

    sim *sm = test_sim_text(co_lua, small, 1);
    mdl_sync ws = plan_weight_sync(sim_scenario(sm), q, q);
    ck_assert_int_gt(ws.buckets, w.buckets);
    ck_assert_msg(ws.gather_s > w.gather_s, "16 MiB buckets %.6f s, default %.6f s", ws.gather_s, w.gather_s);
    NEAR(ws.convert_s, w.convert_s, 1e-9);
    sim_free(sm);
    sim_free(zr);
    sim_free(kp);
}
END_TEST

static Suite *suite_sync(void)
{
    Suite *s = suite_create("sync");
    TCase *tc = tcase_create("sync");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_formula_by_hand);
    tcase_add_test(tc, t_separate_engine_and_estimate);
    tcase_add_test(tc, t_colocated_switch);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_sync)
