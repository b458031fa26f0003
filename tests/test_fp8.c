/*
** test_fp8.c — FP8 rollouts (docs/model.md, section 5, "FP8 rollouts"):
** the engine's weight bytes, the KV bytes a token and the KV room, the
** decode and prefill rooflines at the FP8 bytes and peak, the weight
** sync's quantisation pass, the refusal on a device without FP8 tensor
** cores, and a whole run.  Each test holds a figure by hand or against the
** BF16 run, so it fails when its part does nothing.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "engine.h"
#include "estimate.h"
#include "model.h"
#include "plan.h"
#include "presets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEAR(a, b, tol) ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol) * fmax(1.0, fabs((double)(b))), \
                                      "%s = %.9g, expected %.9g", #a, (double)(a), (double)(b))
#define GiB (1024.0 * 1024.0 * 1024.0)

/* One node of 8 H100s, Qwen2.5-7B co-located, one device an instance. */
static const char *SCN =
    "local f = fusync\n"
    "return { name = 'fp8',\n"
    "  cluster = { device = f.devices.%s, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1,\n"
    "              host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 32, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 3000),\n"
    "    max_response = 3072, iterations = 2, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'full', rollout = { tp = 1, max_seqs = 64 },\n"
    "           train = { tp = 1, pp = 1, zero = 3, micro_batch = 2 } },\n"
    "}\n";

static bool load_dev(const char *dev, const char *const *sets, int n, scn_scenario *sc, fs_err *err)
{
    char text[2048];
    snprintf(text, sizeof text, SCN, dev);
    return test_scn_text(text, sets, n, sc, err);
}

static void load(const char *const *sets, int n, scn_scenario *sc, plan *pl)
{
    char text[2048];
    snprintf(text, sizeof text, SCN, "h100");
    test_plan_text(text, sets, n, sc, pl);
}

static const plan_pool *rollout_pool(const plan *pl)
{
    for (int i = 0; i < pl->npools; i++)
        if (pl->pools[i].roles & ROLE_ROLLOUT) return &pl->pools[i];
    ck_abort_msg("no rollout pool");
    return NULL;
}

/* The weights one device holds: BF16 2 bytes a parameter; FP8 one byte
** and an FP32 scale a 128×128 block for all but the embedding, LM head and
** norms.  Qwen2.5-7B: 14.2 GiB and 8.1 GiB (the figures docs/model.md
** prints). */
START_TEST(t_fp8_weight_bytes)
{
    scn_model m = *presets_model_find("qwen2_5_7b");
    scn_model_derive(&m);
    double h = m.hidden, kept = 2.0 * m.vocab * h + 2.0 * h * m.layers;
    NEAR(mdl_fp8_param_bytes(), 1.0 + 4.0 / 16384.0, 1e-15);
    NEAR(mdl_fp8_kept_params(&m), kept, 1e-12);
    NEAR(mdl_rollout_weight_bytes(&m, 1, 1, DTYPE_BF16), 2.0 * m.params_total, 1e-12);
    double f8 = 2.0 * kept + (1.0 + 4.0 / 16384.0) * (m.params_total - kept);
    NEAR(mdl_rollout_weight_bytes(&m, 1, 1, DTYPE_FP8), f8, 1e-12);
    NEAR(mdl_rollout_weight_bytes(&m, 4, 1, DTYPE_FP8), f8 / 4, 1e-12);
    NEAR(mdl_fp8_quant_params(&m, 2, 1), (m.params_total - kept) / 2, 1e-12);
    char a[16], b[16];
    snprintf(a, sizeof a, "%.1f", mdl_rollout_weight_bytes(&m, 1, 1, DTYPE_BF16) / GiB);
    snprintf(b, sizeof b, "%.1f", f8 / GiB);
    ck_assert_str_eq(a, "14.2");
    ck_assert_str_eq(b, "8.1");

    /* MoE: the experts at the FP8 bytes over max(tp, ep) */
    scn_model q = *presets_model_find("qwen3_30b_a3b");
    scn_model_derive(&q);
    double qk = mdl_fp8_kept_params(&q), b8 = mdl_fp8_param_bytes();
    NEAR(mdl_rollout_weight_bytes(&q, 2, 4, DTYPE_FP8),
         (2.0 * qk + b8 * (q.params_dense - qk)) / 2 + b8 * q.params_expert / 4, 1e-12);
}
END_TEST

/* The ledger and the KV room read the same function: FP8 weights leave the
** KV cache what they free; an FP8 KV cache holds twice the tokens in the
** same bytes. */
START_TEST(t_fp8_memory)
{
    scn_scenario a, w, k;
    static plan pa, pw, pk;
    const char *fw[] = {"plan.rollout.weights_dtype=fp8"};
    const char *fk[] = {"plan.rollout.kv_dtype=fp8"};
    load(NULL, 0, &a, &pa);
    load(fw, 1, &w, &pw);
    load(fk, 1, &k, &pk);
    const plan_pool *qa = rollout_pool(&pa), *qw = rollout_pool(&pw), *qk = rollout_pool(&pk);
    NEAR(qw->rollout_mem[MB_ROLLOUT_WEIGHTS], mdl_rollout_weight_bytes(&w.actor, 1, 1, DTYPE_FP8), 1e-12);
    NEAR(qw->rollout_mem[MB_ROLLOUT_WEIGHTS], plan_rollout_weights(&w), 1e-12);
    double freed = qa->rollout_mem[MB_ROLLOUT_WEIGHTS] - qw->rollout_mem[MB_ROLLOUT_WEIGHTS];
    ck_assert(freed > 5 * GiB);
    NEAR(qw->rollout_mem[MB_KV_CACHE], qa->rollout_mem[MB_KV_CACHE] + freed, 1e-9);
    /* the tokens are what vLLM's KV cache gets of the reservation, after its
    ** profile run (docs/model.md, section 3, "What vLLM's KV cache gets") */
    NEAR(qw->kv_bytes - qa->kv_bytes, freed, 1e-9);
    NEAR(qw->kv_tokens_per_instance, qw->kv_bytes / a.actor.kv_bytes_per_token, 1e-9);
    NEAR(mdl_kv_token_bytes(&k.actor, &k.plan.rollout), a.actor.kv_bytes_per_token / 2, 1e-12);
    NEAR(mdl_kv_token_bytes(&a.actor, NULL), a.actor.kv_bytes_per_token, 1e-12);
    NEAR(qk->rollout_mem[MB_KV_CACHE], qa->rollout_mem[MB_KV_CACHE], 1e-12);
    NEAR(qk->kv_tokens_per_instance, 2 * qa->kv_tokens_per_instance, 1e-9);
    /* what the sync carries stays BF16 */
    NEAR(plan_rollout_wire_bytes(&w), plan_rollout_weights(&a), 1e-12);
}
END_TEST

/* The decode roofline by hand: FP8 weights read at b8 but the LM head and
** norms, the GEMMs at the FP8 peak but the head's and the attention; the
** KV read halves with an FP8 cache.  The prefill's compute likewise. */
START_TEST(t_fp8_roofline)
{
    scn_model m = *presets_model_find("llama3_1_8b");
    scn_model_derive(&m);
    scn_device d = *presets_device_find("h100");
    scn_efficiency e = {.decode = 0.5, .prefill = 0.6, .hbm = 0.8, .link = 0.7};
    scn_link l = {.bw = 450e9, .latency_s = 2e-6};
    scn_rollout_layout bf = {.tp = 1, .ep = 1}, w8 = bf, kv8 = bf;
    w8.weights_dtype = DTYPE_FP8;
    kv8.kv_dtype = DTYPE_FP8;
    double B = 64, C = 64 * 2000.0;
    mdl_step sb = mdl_decode_step(&m, &d, &e, &l, 1, 1, B, C);
    mdl_step s0 = mdl_decode_step_eng(&m, &d, &e, NULL, &l, 1, 1, B, C);
    NEAR(s0.memory_s, sb.memory_s, 1e-15);

    /* mdl_decode_step_eng with r adds the fixed cost; the roofline parts
    ** are the same function of r */
    double vh = (double)m.vocab * m.hidden, h = m.hidden, b8 = mdl_fp8_param_bytes();
    double kept = mdl_fp8_kept_params(&m), kv = C * m.kv_bytes_per_token;
    double wbf = 2.0 * (m.params_dense - vh);             /* untied: the input table is not read */
    NEAR(sb.memory_s, (wbf + kv) / (d.hbm_bw * e.hbm), 1e-12);
    double w8b = 2.0 * (vh + 2.0 * h * m.layers) + b8 * (m.params_dense - kept);
    mdl_step sw = mdl_decode_step_eng(&m, &d, &e, &w8, &l, 1, 1, B, C);
    mdl_step sbr = mdl_decode_step_eng(&m, &d, &e, &bf, &l, 1, 1, B, C);
    NEAR(sw.memory_s, (w8b + kv) / (d.hbm_bw * e.hbm), 1e-12);
    NEAR(sbr.memory_s, sb.memory_s, 1e-15);
    ck_assert(sw.total_s < sbr.total_s);
    double attn = m.layers * mdl_attn_pair_flops(&m, true) * C;
    double gemm = 2.0 * mdl_matmul_params(&m) * B - 2.0 * vh * B;
    NEAR(sw.compute_s, (gemm / d.fp8_flops + (2.0 * vh * B + attn) / d.peak_flops) / e.decode, 1e-12);
    mdl_step sk = mdl_decode_step_eng(&m, &d, &e, &kv8, &l, 1, 1, B, C);
    NEAR(sk.memory_s, (wbf + kv / 2) / (d.hbm_bw * e.hbm), 1e-12);
    NEAR(sk.compute_s, sbr.compute_s, 1e-15);

    double tok = 4096, seq = 1024;
    mdl_step pb = mdl_prefill(&m, &d, &e, NULL, &l, 1, 1, tok, seq);
    mdl_step pw = mdl_prefill(&m, &d, &e, &w8, &l, 1, 1, tok, seq);
    double pa = mdl_attn_flops_causal(&m, seq * tok);
    double pg = 2.0 * mdl_matmul_params(&m) * tok - 2.0 * vh * tok;
    NEAR(pb.compute_s, (pg + 2.0 * vh * tok + pa) / d.peak_flops / e.prefill, 1e-12);
    NEAR(pw.compute_s, (pg / d.fp8_flops + (2.0 * vh * tok + pa) / d.peak_flops) / e.prefill, 1e-12);
    /* a chunk riding on a decode step: cheaper in FP8 */
    double cb = mdl_prefill_chunk(&m, &d, &e, &bf, &l, 1, 1, B, C, 1024, pa / 4);
    double cw = mdl_prefill_chunk(&m, &d, &e, &w8, &l, 1, 1, B, C, 1024, pa / 4);
    ck_assert_msg(cw < cb, "chunk FP8 %.6g s, BF16 %.6g s", cw, cb);
}
END_TEST

/* The sync: BF16 on the wire (gather and convert unchanged), the load
** copies the FP8 bytes, and a quantisation pass reads 2 bytes a quantised
** parameter and writes b8 on the rollout device's HBM. */
START_TEST(t_fp8_sync)
{
    scn_scenario a, w;
    static plan pa, pw;
    const char *fw[] = {"plan.rollout.weights_dtype=fp8"};
    load(NULL, 0, &a, &pa);
    load(fw, 1, &w, &pw);
    const plan_pool *qa = rollout_pool(&pa), *qw = rollout_pool(&pw);
    mdl_sync sa = plan_weight_sync(&a, qa, qa), sw = plan_weight_sync(&w, qw, qw);
    NEAR(sw.gather_s, sa.gather_s, 1e-12);
    NEAR(sw.convert_s, sa.convert_s, 1e-12);
    ck_assert_int_eq(sw.buckets, sa.buckets);
    NEAR(sa.quant_s, 0, 1e-15);
    NEAR(sw.load_s, sa.load_s * plan_rollout_weights(&w) / plan_rollout_weights(&a), 1e-9);
    double pq = mdl_fp8_quant_params(&w.actor, 1, 1);
    NEAR(sw.quant_s, 2.0 * pq * (1.0 + mdl_fp8_param_bytes() / 2.0) / (w.cluster.device.hbm_bw * w.eff.hbm), 1e-12);
    NEAR(sw.total_s, sw.gather_s + sw.convert_s + sw.transfer_s + sw.load_s + sw.fixed_s + sw.quant_s, 1e-12);
}
END_TEST

/* No FP8 tensor cores: FP8 weights refused naming the key, an FP8 KV cache
** accepted. */
START_TEST(t_fp8_refused)
{
    scn_scenario sc;
    fs_err err = {0, ""};
    const char *fw[] = {"plan.rollout.weights_dtype=fp8"};
    const char *fk[] = {"plan.rollout.kv_dtype=fp8"};
    ck_assert(!load_dev("a100_80g", fw, 1, &sc, &err));
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, "plan.rollout.weights_dtype") && strstr(err.msg, "A100"), "%s", err.msg);
    fs_err e2 = {0, ""};
    ck_assert_msg(load_dev("a100_80g", fk, 1, &sc, &e2), "%s", e2.msg);
    fs_err e3 = {0, ""};
    ck_assert_msg(load_dev("h20", fw, 1, &sc, &e3), "%s", e3.msg);
    NEAR(sc.cluster.device.fp8_flops, 296e12, 1e-12);
}
END_TEST

/* A whole run: the engine's generation is faster with FP8 weights and KV,
** and the estimate follows it. */
START_TEST(t_fp8_run)
{
    const char *fw[] = {"plan.rollout.weights_dtype=fp8", "plan.rollout.kv_dtype=fp8"};
    char text[2048];
    snprintf(text, sizeof text, SCN, "h100");
    sim *a = test_sim_text(text, NULL, 0);
    sim *b = test_sim_text(text, fw, 2);
    ck_assert(sim_run(a));
    ck_assert(sim_run(b));
    double ta = sim_secs(sim_now(a)), tb = sim_secs(sim_now(b));
    ck_assert_msg(tb < ta, "FP8 %.3f s, BF16 %.3f s", tb, ta);
    const plan_pool *qa = rollout_pool(sim_plan(a)), *qb = rollout_pool(sim_plan(b));
    double da = est_decode_step(sim_scenario(a), qa, 64, 64 * 1500.0);
    double db = est_decode_step(sim_scenario(b), qb, 64, 64 * 1500.0);
    ck_assert_msg(db < da, "estimate's decode step FP8 %.6g s, BF16 %.6g s", db, da);
    sim_free(a);
    sim_free(b);
}
END_TEST

static Suite *suite_fp8(void)
{
    Suite *s = suite_create("fp8");
    TCase *tc = tcase_create("fp8");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_fp8_weight_bytes);
    tcase_add_test(tc, t_fp8_memory);
    tcase_add_test(tc, t_fp8_roofline);
    tcase_add_test(tc, t_fp8_sync);
    tcase_add_test(tc, t_fp8_refused);
    tcase_add_test(tc, t_fp8_run);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_fp8)
