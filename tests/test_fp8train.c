/*
** test_fp8train.c — FP8 training (docs/model.md, section 7, "FP8
** training"): the linear GEMMs at the FP8 peak and the casts' HBM bytes in
** a stage's forward and backward, the weights' FP8 workspace and the
** linear inputs saved in FP8 in the ledger, the weight cast after the
** optimizer, NeMo RL's FP8 export in the weight sync, the refusals, a whole
** run, and the BF16 default left as it was.  Each test holds a figure by
** hand or against the BF16 run, so it fails when its part does nothing.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "engine.h"
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

/* One node of 8 H100s, Llama-3.1-8B co-located, Megatron-style TP 2, ZeRO-1,
** a token budget of 8192 a micro-batch. */
static const char *SCN =
    "local f = fusync\n"
    "return { name = 'fp8train',\n"
    "  cluster = { device = f.devices.%s, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1,\n"
    "              host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.llama3_1_8b, reference = f.models.llama3_1_8b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 32, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 3000),\n"
    "    max_response = 3072, iterations = 2, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'full', rollout = { tp = 1, max_seqs = 64 },\n"
    "           train = { tp = 2, pp = 1, zero = 1, micro_batch = 2, max_tokens = 8192 } },\n"
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

static const plan_pool *pool_of(const plan *pl, unsigned role)
{
    for (int i = 0; i < pl->npools; i++)
        if (pl->pools[i].roles & role) return &pl->pools[i];
    ck_abort_msg("no pool with role %u", role);
    return NULL;
}

/* The casts' bytes an element and the elements a layer quantises, by hand:
** Llama-3.1-8B (h 4096, 32 heads of 128, 8 KV heads, SwiGLU 14336). */
START_TEST(t_fp8train_casts)
{
    NEAR(mdl_fp8_train_cast_bytes(FP8_DELAYED), 4.0, 1e-15);          /* BF16 read, two FP8 writes */
    NEAR(mdl_fp8_train_cast_bytes(FP8_TENSORWISE), 6.0, 1e-15);       /* and the amax pass's read */
    NEAR(mdl_fp8_train_cast_bytes(FP8_BLOCKWISE), 4.0 + 8.0 / 128.0, 1e-15);
    scn_model m = *presets_model_find("llama3_1_8b");
    scn_model_derive(&m);
    double h = 4096, ad = 32 * 128, kvd = 8 * 128, f = 14336, in, gout;
    mdl_fp8_train_elems(&m, &in, &gout);
    NEAR(in, h + ad + h + f, 1e-15);                    /* QKV, proj, fc1, fc2 inputs */
    NEAR(gout, (ad + 2 * kvd) + h + 2 * f + h, 1e-15);  /* their outputs' gradients */

    /* MoE: k routed copies of the expert MLP and the shared experts, the
    ** dense layers' MLP on the rest, the layers' mean */
    scn_model q = *presets_model_find("qwen3_30b_a3b");
    scn_model_derive(&q);
    double qh = q.hidden, qa = q.heads * mdl_head_dim(&q), qk = q.kv_heads * mdl_head_dim(&q);
    double qin, qg;
    mdl_fp8_train_elems(&q, &qin, &qg);
    ck_assert_int_eq(q.dense_layers, 0);
    ck_assert_int_eq(q.shared_experts, 0);
    NEAR(qin, qh + qa + q.experts_active * (qh + (double)q.expert_ffn), 1e-15);
    NEAR(qg, qa + 2 * qk + qh + q.experts_active * (2.0 * q.expert_ffn + qh), 1e-15);
}
END_TEST

/* A stage's forward and backward: the layers' linear GEMMs (2·p_layers
** FLOPs a token) at the FP8 peak times efficiency.train_fp8 in place of
** the BF16 peak, the attention and the LM head unchanged, the casts at HBM
** rate added; the backward's twice the GEMMs and the gradients' casts, and
** under full recompute the forward's casts again.  No GEMM-shape roofline,
** TP 1: the differences are these terms alone. */
START_TEST(t_fp8train_stage)
{
    scn_model m = *presets_model_find("llama3_1_8b");
    scn_model_derive(&m);
    scn_device d = *presets_device_find("h100");
    scn_efficiency e = {.train = 0.4, .train_fp8 = 0.8, .hbm = 0.8, .link = 0.7};
    scn_train_layout tb = {.precision = DTYPE_BF16}, t8 = {.precision = DTYPE_FP8, .fp8_recipe = FP8_TENSORWISE};
    for (int rc = 0; rc < 2; rc++) {
        scn_recompute r = rc ? RECOMPUTE_FULL : RECOMPUTE_SELECTIVE;
        mdl_stage cb = mdl_stage_setup(&m, 1, 1, 1, NULL, NULL, NULL);
        mdl_stage_train(&cb, &m, &d, &e, r);
        mdl_stage c8 = cb;
        mdl_stage_fp8(&cb, &m, &d, &e, &tb);
        ck_assert(cb.f8_mm == 0 && cb.f8_cast_f == 0 && cb.f8_cast_b == 0);
        mdl_stage_fp8(&c8, &m, &d, &e, &t8);
        NEAR(c8.f8_mm, 989.0 / (1979.0 * 0.8), 1e-12);
        double tok = 8192, sq = 4.0 * 2048 * 2048, pe = d.peak_flops * e.train, bw = d.hbm_bw * e.hbm;
        double bb, b8;
        double fb = mdl_stage_fb(&m, &d, e.link, &cb, tok, sq, e.train, &bb);
        double f8 = mdl_stage_fb(&m, &d, e.link, &c8, tok, sq, e.train, &b8);
        double gemm = 2.0 * cb.p_layers * tok / pe, in, gout;
        mdl_fp8_train_elems(&m, &in, &gout);
        double castf = tok * in * 6.0 / bw, castb = tok * gout * 6.0 / bw;
        NEAR(f8 - fb, gemm * (c8.f8_mm - 1.0) + m.layers * castf, 1e-9);
        NEAR(b8 - bb, (rc ? 3.0 : 2.0) * gemm * (c8.f8_mm - 1.0) + m.layers * (castb + (rc ? castf : 0.0)), 1e-9);
        ck_assert_msg(f8 < fb && b8 < bb, "FP8 %.4g + %.4g s, BF16 %.4g + %.4g s", f8, b8, fb, bb);
    }
    /* a device without FP8 tensor cores leaves the stage in BF16 */
    scn_device a = *presets_device_find("a100_80g");
    mdl_stage ca = mdl_stage_setup(&m, 1, 1, 1, NULL, NULL, NULL);
    mdl_stage_fp8(&ca, &m, &a, &e, &t8);
    ck_assert(ca.f8_mm == 0);
}
END_TEST

/* The ledger: the weights gain Transformer Engine's row- and column-wise
** FP8 copies of the linear weights (2 bytes a parameter, and 128×128 FP32
** scales under blockwise), fp8_param trades the BF16 copy for them; the
** gradients and the optimizer as in BF16; the activations lose half the
** linear inputs (the norms' outputs 4h, the attention output 2·a·d, fc2's
** input 2f bytes a token) over TP. */
START_TEST(t_fp8train_memory)
{
    scn_scenario sb, s8, sp, sk;
    static plan pb, p8, ppm, pk;
    const char *f8[] = {"plan.train.precision=fp8"};
    const char *fp[] = {"plan.train.precision=fp8", "plan.train.fp8_param=true"};
    const char *fk[] = {"plan.train.precision=fp8", "plan.train.fp8_recipe=blockwise", "plan.rollout.weights_dtype=fp8",
                        "plan.train.fp8_param=true"};
    load(NULL, 0, &sb, &pb);
    load(f8, 1, &s8, &p8);
    load(fp, 2, &sp, &ppm);
    load(fk, 4, &sk, &pk);
    const plan_pool *qb = pool_of(&pb, ROLE_TRAIN), *q8 = pool_of(&p8, ROLE_TRAIN);
    const plan_pool *qp = pool_of(&ppm, ROLE_TRAIN), *qk = pool_of(&pk, ROLE_TRAIN);
    ck_assert_int_eq(qb->tp, 2);
    const scn_model *m = &sb.actor;
    double lin = (m->params_layer_dense - 2.0 * m->hidden) * m->layers / 2;
    NEAR(mdl_fp8_train_linear_params(m, 2, 1, 1), lin, 1e-12);
    double stb[3], st8[3], stp[3], stk[3];
    plan_train_states(&sb, qb, stb);
    plan_train_states(&s8, q8, st8);
    plan_train_states(&sp, qp, stp);
    plan_train_states(&sk, qk, stk);
    NEAR(st8[0] - stb[0], 2.0 * lin, 1e-9);
    NEAR(stp[0], stb[0], 1e-12);                       /* delayed: 1 + 1 bytes for the BF16 2 */
    NEAR(stk[0] - stb[0], 2.0 * 4.0 / 16384.0 * lin, 1e-9);
    for (int i = 1; i < 3; i++) {
        NEAR(st8[i], stb[i], 1e-12);
        NEAR(stp[i], stb[i], 1e-12);
    }
    NEAR(q8->train_mem[MB_WEIGHTS] - qb->train_mem[MB_WEIGHTS], 2.0 * lin, 1e-9);

    double h = 4096, ad = 32 * 128, f = 14336, tok = 8192;
    double save = (4 * h + 2 * ad + 2 * f) / 2;
    NEAR(mdl_fp8_train_act_saving(m, RECOMPUTE_SELECTIVE, FP8_DELAYED), save, 1e-12);
    NEAR(mdl_fp8_train_act_saving(m, RECOMPUTE_SELECTIVE, FP8_BLOCKWISE),
         save * 2 - save * (1 + 4.0 / 128.0), 1e-12);
    NEAR(mdl_fp8_train_act_saving(m, RECOMPUTE_FULL, FP8_DELAYED), 0, 1e-15);
    NEAR(plan_act_peak(&sb, qb, 0) - plan_act_peak(&s8, q8, 0), m->layers * tok * save / 2, 1e-9);
    NEAR(qb->train_mem[MB_ACTIVATIONS] - q8->train_mem[MB_ACTIVATIONS], m->layers * tok * save / 2, 1e-9);

    /* full recompute keeps each layer's BF16 input alone: no saving */
    scn_scenario rb, r8;
    static plan prb, pr8;
    const char *rcb[] = {"plan.train.recompute=full"};
    const char *rc8[] = {"plan.train.recompute=full", "plan.train.precision=fp8"};
    load(rcb, 1, &rb, &prb);
    load(rc8, 2, &r8, &pr8);
    NEAR(plan_act_peak(&r8, pool_of(&pr8, ROLE_TRAIN), 0), plan_act_peak(&rb, pool_of(&prb, ROLE_TRAIN), 0), 1e-12);
}
END_TEST

/* The optimizer's tail: after the step the weights are cast once again
** (read 2 bytes, write the two FP8 copies, tensorwise's amax read), a
** memory-bound pass over the device's linear weights. */
START_TEST(t_fp8train_tail)
{
    scn_scenario sb, s8, st;
    static plan pb, p8, pt;
    const char *f8[] = {"plan.train.precision=fp8"};
    const char *ft[] = {"plan.train.precision=fp8", "plan.train.fp8_recipe=tensorwise"};
    load(NULL, 0, &sb, &pb);
    load(f8, 1, &s8, &p8);
    load(ft, 2, &st, &pt);
    const plan_pool *qb = pool_of(&pb, ROLE_TRAIN), *q8 = pool_of(&p8, ROLE_TRAIN), *qt = pool_of(&pt, ROLE_TRAIN);
    double gb, ob, g8, o8, gt, ot;
    plan_train_tail(&sb, qb, &sb.actor, 4, 0.1, &gb, &ob);
    plan_train_tail(&s8, q8, &s8.actor, 4, 0.1, &g8, &o8);
    plan_train_tail(&st, qt, &st.actor, 4, 0.1, &gt, &ot);
    double lin = mdl_fp8_train_linear_params(&sb.actor, 2, 1, 1), bw = sb.cluster.device.hbm_bw * sb.eff.hbm;
    NEAR(g8, gb, 1e-12);
    NEAR(o8 - ob, lin * 4.0 / bw, 1e-9);
    NEAR(ot - ob, lin * 6.0 / bw, 1e-9);
}
END_TEST

/* The weight sync: BF16 from an FP8 trainer as from a BF16 one, unless the
** weights are blockwise FP8 parameters going to an FP8 engine (NeMo RL's FP8
** export): then the FP8 bytes on the wire and nothing to quantise. */
START_TEST(t_fp8train_sync)
{
    scn_scenario sw, s8, sx;
    static plan pw, p8, px;
    const char *fw[] = {"plan.rollout.weights_dtype=fp8"};
    const char *f8[] = {"plan.rollout.weights_dtype=fp8", "plan.train.precision=fp8"};
    const char *fx[] = {"plan.rollout.weights_dtype=fp8", "plan.train.precision=fp8", "plan.train.fp8_recipe=blockwise",
                        "plan.train.fp8_param=true"};
    load(fw, 1, &sw, &pw);
    load(f8, 2, &s8, &p8);
    load(fx, 4, &sx, &px);
    ck_assert(!plan_sync_fp8_export(&sw) && !plan_sync_fp8_export(&s8) && plan_sync_fp8_export(&sx));
    NEAR(plan_rollout_wire_bytes(&s8), plan_rollout_wire_bytes(&sw), 1e-12);
    NEAR(plan_rollout_wire_bytes(&sx), plan_rollout_weights(&sx), 1e-12);
    ck_assert(plan_rollout_wire_bytes(&sx) < 0.6 * plan_rollout_wire_bytes(&sw));
    const plan_pool *tw = pool_of(&pw, ROLE_TRAIN), *rw = pool_of(&pw, ROLE_ROLLOUT);
    const plan_pool *t8 = pool_of(&p8, ROLE_TRAIN), *r8 = pool_of(&p8, ROLE_ROLLOUT);
    const plan_pool *tx = pool_of(&px, ROLE_TRAIN), *rx = pool_of(&px, ROLE_ROLLOUT);
    mdl_sync yw = plan_weight_sync(&sw, tw, rw), y8 = plan_weight_sync(&s8, t8, r8), yx = plan_weight_sync(&sx, tx, rx);
    NEAR(y8.total_s, yw.total_s, 1e-12);
    ck_assert(yw.quant_s > 0);
    NEAR(yx.quant_s, 0, 1e-15);
    ck_assert_msg(yx.total_s < yw.total_s, "FP8 export %.4g s, BF16 %.4g s", yx.total_s, yw.total_s);
}
END_TEST

/* Refused: a device without FP8 tensor cores, ZeRO-3, LoRA, and blockwise
** FP8 parameters into a BF16 engine (NeMo RL has no BF16 consumer for
** them); each names its key. */
START_TEST(t_fp8train_refused)
{
    scn_scenario sc;
    const char *f8[] = {"plan.train.precision=fp8"};
    fs_err e1 = {0, ""};
    ck_assert(!load_dev("a100_80g", f8, 1, &sc, &e1));
    ck_assert_msg(strstr(e1.msg, "plan.train.precision") && strstr(e1.msg, "fp8_tflops"), "%s", e1.msg);
    const char *z3[] = {"plan.train.precision=fp8", "plan.train.zero=3"};
    fs_err e2 = {0, ""};
    ck_assert(!load_dev("h100", z3, 2, &sc, &e2));
    ck_assert_msg(strstr(e2.msg, "ZeRO-3"), "%s", e2.msg);
    const char *lo[] = {"plan.train.precision=fp8", "plan.train.lora_rank=16"};
    fs_err e3 = {0, ""};
    ck_assert(!load_dev("h100", lo, 2, &sc, &e3));
    ck_assert_msg(strstr(e3.msg, "LoRA"), "%s", e3.msg);
    const char *bx[] = {"plan.train.precision=fp8", "plan.train.fp8_recipe=blockwise", "plan.train.fp8_param=true"};
    fs_err e4 = {0, ""};
    ck_assert(!load_dev("h100", bx, 3, &sc, &e4));
    ck_assert_msg(strstr(e4.msg, "weights_dtype"), "%s", e4.msg);
    /* BF16 training on an A100 as before */
    fs_err e5 = {0, ""};
    ck_assert_msg(load_dev("a100_80g", NULL, 0, &sc, &e5), "%s", e5.msg);
}
END_TEST

/* The default is BF16, and the recipe and fp8_param do nothing under it:
** the plan's ledger and a whole run's time are those of the scenario
** without them, to the bit.  FP8 training makes the run's training faster. */
START_TEST(t_fp8train_default)
{
    scn_scenario sb, sr;
    static plan pb, pr;
    const char *fr[] = {"plan.train.fp8_recipe=blockwise", "plan.train.fp8_param=true"};
    load(NULL, 0, &sb, &pb);
    load(fr, 2, &sr, &pr);
    ck_assert_int_eq(sb.plan.train.precision, DTYPE_BF16);
    ck_assert_int_eq(sb.plan.train.fp8_recipe, FP8_DELAYED);
    NEAR(sb.eff.train_fp8, 1.0, 1e-15);
    const plan_pool *qb = pool_of(&pb, ROLE_TRAIN), *qr = pool_of(&pr, ROLE_TRAIN);
    for (int i = 0; i < MB__COUNT; i++) ck_assert(qb->train_mem[i] == qr->train_mem[i]);

    const char *f8[] = {"plan.train.precision=fp8"};
    char text[2048];
    snprintf(text, sizeof text, SCN, "h100");
    sim *a = test_sim_text(text, NULL, 0);
    sim *r = test_sim_text(text, fr, 2);
    sim *b = test_sim_text(text, f8, 1);
    ck_assert(sim_run(a));
    ck_assert(sim_run(r));
    ck_assert(sim_run(b));
    ck_assert(sim_now(a) == sim_now(r));
    double ta = sim_secs(sim_now(a)), tb = sim_secs(sim_now(b));
    ck_assert_msg(tb < ta, "FP8 training %.3f s, BF16 %.3f s", tb, ta);
    sim_free(a);
    sim_free(r);
    sim_free(b);
}
END_TEST

static Suite *suite_fp8train(void)
{
    Suite *s = suite_create("fp8train");
    TCase *tc = tcase_create("fp8train");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_fp8train_casts);
    tcase_add_test(tc, t_fp8train_stage);
    tcase_add_test(tc, t_fp8train_memory);
    tcase_add_test(tc, t_fp8train_tail);
    tcase_add_test(tc, t_fp8train_sync);
    tcase_add_test(tc, t_fp8train_refused);
    tcase_add_test(tc, t_fp8train_default);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_fp8train)
