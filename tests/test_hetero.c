/*
** test_hetero.c — pools of their own device type (docs/model.md, section
** 2, Heterogeneous pools): a pool's compute, memory and links are its
** device's, read through plan_pool_device.  Each test sets a pool's type and
** compares it with the same pool on cluster.device, so it fails when the
** engine, the plan or the estimate read the cluster's device instead.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "engine.h"
#include "estimate.h"
#include "model.h"
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two nodes of 8 H100s, separate: the rollout pool is the first node; the
** caller may add plan fields (%s). */
static const char *SCN =
    "local f = fusync\n"
    "return { name = 'hetero',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes = 2, host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 32, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 2000),\n"
    "    max_response = 2048, iterations = 2, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'separate', rollout_devices = 8, rollout = { tp = 1, max_seqs = 64 }, %s\n"
    "           train = { tp = 2, pp = 1, zero = 1, micro_batch = 2 } },\n"
    "}\n";

static const char *extra = "";

static bool try_load(const char *const *sets, int n, scn_scenario *sc, plan *pl, fs_err *err)
{
    char text[4096];
    snprintf(text, sizeof text, SCN, extra);
    char *path = test_tmpfile(".lua", text);
    ck_assert_ptr_nonnull(path);
    bool ok = lscn_load(path, sets, n, sc, err) && scn_validate(sc, err) && plan_build(sc, pl, err);
    unlink(path);
    free(path);
    return ok;
}

static void load(const char *const *sets, int n, scn_scenario *sc, plan *pl)
{
    fs_err err = {0, ""};
    ck_assert_msg(try_load(sets, n, sc, pl, &err), "load: %s", err.msg);
}

static int rollout_pool(const plan *pl)
{
    for (int i = 0; i < pl->npools; i++)
        if (pl->pools[i].roles & ROLE_ROLLOUT) return i;
    ck_abort_msg("no rollout pool");
    return -1;
}

/* The simulated time of the whole run. */
static double run_secs(const scn_scenario *sc)
{
    fs_err err = {0, ""};
    sim *s = sim_new(sc, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert(sim_run(s));
    double t = sim_secs(sim_now(s));
    sim_free(s);
    return t;
}

/* A rollout pool of A100s (a third of the H100's FLOP/s, 60% of its HBM
** bandwidth) decodes slower than the same pool of H100s: in the estimate's
** decode step at every batch, and in the engine's run.  Training is on the
** H100s in both. */
START_TEST(t_slower_device_decodes_slower)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *slow[] = {"plan.rollout_device=a100_80g"};
    load(NULL, 0, &a, &pa);
    load(slow, 1, &b, &pb);
    const plan_pool *qa = &pa.pools[rollout_pool(&pa)], *qb = &pb.pools[rollout_pool(&pb)];
    ck_assert(!qa->own_device);
    ck_assert(qb->own_device);
    ck_assert_double_eq(plan_pool_device(&b, qb)->peak_flops, 312e12);
    ck_assert_double_eq(plan_pool_device(&b, &pb.pools[pb.train_pool])->peak_flops, 989e12);
    for (int batch = 1; batch <= 64; batch *= 4) {
        double ta = est_decode_step(&a, qa, batch, 1500), tb = est_decode_step(&b, qb, batch, 1500);
        ck_assert_msg(tb > ta * 1.2, "batch %d: A100 %.6f s, H100 %.6f s a step", batch, tb, ta);
    }
    double ra = run_secs(&a), rb = run_secs(&b);
    ck_assert_msg(rb > ra * 1.1, "A100 rollout %.3f s, H100 %.3f s", rb, ra);
}
END_TEST

/* Memory is checked against each pool's own HBM: a rollout pool of H200s
** (141 GiB) holds more KV cache than one of H100s; one of a 12 GiB device
** cannot hold the 7B model's weights, and the fit check names that pool
** while the H100 training pool still fits. */
START_TEST(t_memory_per_pool_hbm)
{
    scn_scenario a, b, c;
    plan pa, pb, pc;
    const char *big[] = {"plan.rollout_device=h200"};
    load(NULL, 0, &a, &pa);
    load(big, 1, &b, &pb);
    extra = "rollout_device = {name='small', tflops=100, hbm_gb=12, hbm_tbps=1, scaleup_gbps=100, "
            "scaleout_gbps=25, host_gbps=32},";
    load(NULL, 0, &c, &pc);
    extra = "";
    const plan_pool *qa = &pa.pools[rollout_pool(&pa)], *qb = &pb.pools[rollout_pool(&pb)];
    ck_assert_double_eq_tol(qa->capacity, 79.22 * (1 << 30), 1);     /* the H100 as CUDA reports it */
    ck_assert_double_eq_tol(qb->capacity, 141.0 * (1 << 30), 1);
    ck_assert_double_gt(qb->kv_tokens_per_instance, qa->kv_tokens_per_instance * 1.5);
    ck_assert_double_eq_tol(pb.pools[pb.train_pool].capacity, 79.22 * (1 << 30), 1);
    ck_assert(pa.fits && pb.fits);
    ck_assert(!pc.fits);
    ck_assert_msg(strstr(pc.fit_msg, "pool 'rollout'") && !strstr(pc.fit_msg, "pool 'train'"), "%s", pc.fit_msg);
}
END_TEST

/* Explicit pools take a type each (plan.pools[i].device); two types on one
** node are refused, naming the field; weight sync between the types runs at
** the slower pool's scale-out link. */
START_TEST(t_pool_device_nodes_and_link)
{
    scn_scenario a;
    plan pa;
    extra = "pools = {{name='gen', devices=8, roles={'rollout'}, device='a100_80g'}, "
            "{name='trn', devices=8, roles={'train', 'ref'}}},";
    load(NULL, 0, &a, &pa);
    extra = "";
    ck_assert(pa.pools[0].own_device && !pa.pools[1].own_device);
    ck_assert_double_eq_tol(pa.pools[0].capacity, 79.25 * (1 << 30), 1);   /* the A100 80GB as CUDA reports it */
    ck_assert_double_eq(plan_pool_device(&a, &pa.pools[0])->hbm_bw, 2.0e12);
    scn_link l = plan_sync_link(&a, &pa.pools[1], &pa.pools[0]);
    int tier = plan_sync_tier(&a.cluster, &pa.pools[1], &pa.pools[0]);
    ck_assert_int_ge(tier, 1);
    scn_link h = mdl_tier_link_shared(&a.cluster, tier);
    ck_assert_double_eq_tol(l.bw, h.bw * 25.0 / 50.0, 1);   /* the A100's 200 Gb/s NIC against the H100's 400 */
    /* sharing a node */
    scn_scenario b;
    plan pb;
    fs_err err = {0, ""};
    const char *shared[] = {"plan.rollout_device=h20", "plan.rollout_devices=4"};
    ck_assert(!try_load(shared, 2, &b, &pb, &err));
    ck_assert_msg(strstr(err.msg, "plan.rollout_device:") && strstr(err.msg, "node 0"), "%s", err.msg);
    const char *colo[] = {"plan.rollout_device=h20", "plan.mode=full"};
    err = (fs_err){0, ""};
    ck_assert(!try_load(colo, 2, &b, &pb, &err));
    ck_assert_msg(strstr(err.msg, "plan.rollout_device") != NULL, "%s", err.msg);
    /* the same type as the cluster's is no type of its own */
    const char *same[] = {"plan.rollout_device=h100"};
    load(same, 1, &b, &pb);
    ck_assert(!pb.pools[rollout_pool(&pb)].own_device);
}
END_TEST

static Suite *hetero_suite(void)
{
    Suite *s = suite_create("hetero");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_slower_device_decodes_slower);
    tcase_add_test(tc, t_memory_per_pool_hbm);
    tcase_add_test(tc, t_pool_device_nodes_and_link);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(hetero_suite)
