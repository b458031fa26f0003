/*
** test_model.c — the formulas against numbers derived by hand.
*/
#include "testutil.h"
#include "dist.h"
#include "model.h"
#include "plan.h"
#include "presets.h"
#include "scenario.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b, tol) ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol) * fmax(1.0, fabs((double)(b))), \
                                      "%s = %.9g, expected %.9g", #a, (double)(a), (double)(b))

/* The gradient all-reduce times *a (over a shard group) and *r (across its
** replicas) of a one-layer dense model of psi_d parameters per TP rank, on a
** contiguous pool of gdp data-parallel ranks (plan_grad_allreduce). */
static void shard_allreduce(const scn_cluster *c, double eff, int tp, int gdp, int shard, int edp, int eshard,
                            double psi_d, double *a, double *r)
{
    scn_scenario s;
    memset(&s, 0, sizeof s);
    s.cluster = *c;
    s.eff.link = eff;
    s.actor.layers = 1;
    s.actor.params_dense = psi_d * tp;
    plan_pool q;
    memset(&q, 0, sizeof q);
    q.tp = tp;
    q.pp = q.ep = 1;
    q.dp = q.gdp = gdp;
    q.shard = shard;
    q.edp = edp;
    q.eshard = eshard;
    plan_grad_allreduce(&s, &q, &s.actor, a, r);
}

START_TEST(t_params_small_dense)
{
    /* layers 2, hidden 4, heads 2 (kv 1), head_dim 2, ffn 8, vocab 10, untied:
    ** attention q 4·4 + k,v 2·(4·2) + o 4·4 = 48, norms 8 → 56; FFN 3·4·8 = 96;
    ** per layer 152, two layers 304; embeddings + head 2·10·4 = 80 → 384. */
    scn_model m = {.layers = 2, .hidden = 4, .heads = 2, .kv_heads = 1, .head_dim = 2, .ffn = 8, .vocab = 10};
    scn_model_derive(&m);
    NEAR(m.params_total, 384, 1e-12);
    NEAR(m.params_active, 384, 1e-12);
    /* KV: 2 · L · kv · d · 2 bytes = 2·2·1·2·2 = 16 */
    NEAR(m.kv_bytes_per_token, 16, 1e-12);
}
END_TEST

START_TEST(t_params_small_moe)
{
    /* 2 layers, the first dense: attention as above (56 per layer);
    ** dense FFN 96; MoE layer: 4 experts of 3·4·2 = 24, one shared (24),
    ** router 4·4 = 16; embeddings tied 40.
    ** total = 2·56 + 96 + (4·24 + 24 + 16) + 40 = 384
    ** active (2 experts) = 112 + 96 + (2·24 + 24 + 16) + 40 = 336 */
    scn_model m = {.layers = 2, .dense_layers = 1, .hidden = 4, .heads = 2, .kv_heads = 1, .head_dim = 2,
                   .ffn = 8, .expert_ffn = 2, .experts = 4, .experts_active = 2, .shared_experts = 1,
                   .vocab = 10, .tied_embeddings = true};
    scn_model_derive(&m);
    NEAR(m.params_total, 384, 1e-12);
    NEAR(m.params_active, 336, 1e-12);
    NEAR(m.params_expert, 96, 1e-12);
}
END_TEST

START_TEST(t_mla_kv)
{
    scn_model m = {.layers = 61, .hidden = 7168, .heads = 128, .head_dim = 128, .mla_latent = 512,
                   .mla_rope = 64, .ffn = 18432, .vocab = 129280};
    scn_model_derive(&m);
    NEAR(m.kv_bytes_per_token, (512 + 64) * 61 * 2, 1e-12);
}
END_TEST

START_TEST(t_model_states)
{
    mdl_states a = mdl_model_states(1e9, 8, 0);
    NEAR(a.weights + a.grads + a.optimizer, 16e9, 1e-12);         /* 16Ψ */
    mdl_states z1 = mdl_model_states(1e9, 8, 1);
    NEAR(z1.weights + z1.grads + z1.optimizer, 4e9 + 12e9 / 8, 1e-12);   /* 4Ψ + 12Ψ/N */
    mdl_states z2 = mdl_model_states(1e9, 8, 2);
    NEAR(z2.weights + z2.grads + z2.optimizer, 2e9 + 14e9 / 8, 1e-12);   /* 2Ψ + 14Ψ/N */
    mdl_states z3 = mdl_model_states(1e9, 8, 3);
    NEAR(z3.weights + z3.grads + z3.optimizer, 16e9 / 8, 1e-12);         /* 16Ψ/N */
}
END_TEST

START_TEST(t_sharding)
{
    scn_model m = {.params_dense = 8e9, .params_expert = 64e9, .layers = 16};
    /* dense over tp·pp, experts over pp·ep·etp (the last argument ep·etp):
    ** TP4 EP8 ETP1 and TP8 EP4 with ETP 1, 2 and Megatron's default 8 */
    NEAR(mdl_train_params_per_device(&m, 4, 2, 8 * 1), 8e9 / 8 + 64e9 / 16, 1e-12);
    NEAR(mdl_train_params_per_device(&m, 8, 2, 4 * 1), 8e9 / 16 + 64e9 / 8, 1e-12);
    NEAR(mdl_train_params_per_device(&m, 8, 2, 4 * 2), 8e9 / 16 + 64e9 / 16, 1e-12);
    NEAR(mdl_train_params_per_device(&m, 8, 2, 4 * 8), 8e9 / 16 + 64e9 / 64, 1e-12);
    NEAR(mdl_rollout_params_per_device(&m, 4, 16), 8e9 / 4 + 64e9 / 16, 1e-12);
    /* uneven stages: 61 layers on 16 stages, the heaviest holds 4 */
    NEAR(mdl_stage_share(61, 16), 4.0 / 61, 1e-12);
    /* expert DP = tp·cp·dp / (ep·etp) (Megatron-Core's world / (etp·ep·pp) a stage) */
    ck_assert_int_eq(mdl_expert_dp(8, 3, 4 * 2), 3);
    ck_assert_int_eq(mdl_expert_dp(8, 3, 4 * 1), 6);
    ck_assert_int_eq(mdl_expert_dp(4, 8, 4 * 4), 2);
    ck_assert_int_eq(mdl_expert_dp(2, 8, 16), 1);
}
END_TEST

START_TEST(t_activations)
{
    /* Korthikanti et al.'s model: GeLU MLP of width 4h, dropout on */
    scn_model m = {.hidden = 8192, .heads = 64, .ffn = 4 * 8192, .mlp = MLP_GELU, .dropout = 0.1};
    double s = 8192, b = 1;
    /* Korthikanti et al.: the worked figure for h 8192, a 64, s 8192: sbh(34 + 5as/h) */
    NEAR(mdl_act_bytes_layer(&m, s, b, 1, RECOMPUTE_NONE), s * b * 8192 * (34 + 5.0 * 64 * s / 8192), 1e-12);
    NEAR(mdl_act_bytes_layer(&m, s, b, 8, RECOMPUTE_SELECTIVE), 34 * s * b * 8192 / 8, 1e-12);
    /* full recomputation keeps each layer's input, sequence-parallel over TP */
    NEAR(mdl_act_bytes_layer(&m, s, b, 8, RECOMPUTE_FULL), 2 * s * b * 8192 / 8, 1e-12);
    NEAR(mdl_act_bytes_layer(&m, s, b, 1, RECOMPUTE_FULL), 2 * s * b * 8192, 1e-12);
}
END_TEST

/* The terms of docs/model.md, section 3 (activations): the MLP by its shape,
** dropout masks only with dropout, the score matrix only materialised. */
START_TEST(t_activation_terms)
{
    double h = 4096;
    /* Llama-2-7B's shape: gated MLP of width 11008 = 2.6875h, MHA, no dropout */
    scn_model m = {.hidden = 4096, .heads = 32, .kv_heads = 32, .ffn = 11008};
    mdl_act_terms t = mdl_act_terms_of(&m, 4096, RECOMPUTE_SELECTIVE, ATTN_FUSED);
    /* 4 (norms) + 4 (inputs) + 6 (Q, K, V) + 2 (output) + 6·2.6875 (gate/up, down's input) */
    NEAR(t.total / h, 4 + 4 + 6 + 2 + 6 * 2.6875, 1e-12);
    NEAR(t.mlp / h, 16.125, 1e-12);
    ck_assert(t.dropout == 0 && t.scores == 0 && t.stats == 0);
    /* fused, no recompute: the FP32 log-sum-exp of each head beside it */
    NEAR(mdl_act_terms_of(&m, 4096, RECOMPUTE_NONE, ATTN_FUSED).total - t.total, 4.0 * 32, 1e-9);
    /* materialised without dropout: the softmax output alone, 2·a·s */
    NEAR(mdl_act_terms_of(&m, 4096, RECOMPUTE_NONE, ATTN_MATERIALIZED).total - t.total, 2.0 * 32 * 4096, 1e-9);
    /* the same width as a GeLU MLP keeps 4f, not 6f */
    m.mlp = MLP_GELU;
    NEAR(mdl_act_terms_of(&m, 4096, RECOMPUTE_SELECTIVE, ATTN_FUSED).mlp, 4.0 * 11008, 1e-9);
    /* GQA: Llama-3-8B, 8 KV heads of 128, f = 3.5h */
    scn_model l3 = {.hidden = 4096, .heads = 32, .kv_heads = 8, .ffn = 14336};
    NEAR(mdl_act_terms_of(&l3, 8192, RECOMPUTE_SELECTIVE, ATTN_FUSED).total / h, 4 + 4 + 2 + 1 + 2 + 21, 1e-12);
    /* the coefficients docs/model.md prints (section 3, activations) */
    scn_model q25 = {.hidden = 3584, .heads = 28, .kv_heads = 4, .ffn = 18944};
    NEAR(mdl_act_terms_of(&q25, 8192, RECOMPUTE_SELECTIVE, ATTN_FUSED).total / 3584, 44.2857, 1e-4);
    scn_model q32 = {.hidden = 5120, .heads = 64, .kv_heads = 8, .head_dim = 128, .ffn = 25600};
    NEAR(mdl_act_terms_of(&q32, 8192, RECOMPUTE_SELECTIVE, ATTN_FUSED).total / 5120, 45.2, 1e-9);
    /* full recompute: the input alone, whatever the shape */
    NEAR(mdl_act_terms_of(&l3, 8192, RECOMPUTE_FULL, ATTN_FUSED).total, 2 * h, 1e-12);
    /* MoE, Qwen3-30B-A3B: h 2048, 32 heads of 128, 4 KV heads, 128 experts
    ** of 768, 8 a token: each copy 2h + 6·768 + 4, the scores 2·128 */
    scn_model q = {.hidden = 2048, .heads = 32, .kv_heads = 4, .head_dim = 128, .layers = 48,
                   .experts = 128, .experts_active = 8, .expert_ffn = 768};
    mdl_act_terms tq = mdl_act_terms_of(&q, 4096, RECOMPUTE_SELECTIVE, ATTN_FUSED);
    NEAR(tq.mlp, 8 * (2 * 2048 + 6 * 768 + 4) + 2 * 128, 1e-9);
    NEAR(tq.qkv, 2 * 32 * 128 + 4 * 4 * 128, 1e-9);
    NEAR(tq.total / 2048, 51.140625, 1e-9);
    /* under expert TP the routed copies' fc1 inputs and probabilities are
    ** gathered whole on each of the etp ranks, the f_e-wide tensors split:
    ** per token (total + (etp − 1)·k·(2h + 4))/tp — at etp = tp = 4
    ** 51.14 + 3·8·4100/2048 = 99.2 h over 4 rather than 51.14 h; etp 1 is
    ** the figure without the gather */
    NEAR(tq.moe_gather, 8 * (2 * 2048 + 4), 1e-12);
    NEAR(mdl_act_bytes_etp(&q, 1000, 4096, 4, 4, RECOMPUTE_SELECTIVE, ATTN_FUSED),
         1000 * (tq.total + 3 * 8 * 4100) / 4, 1e-12);
    NEAR(mdl_act_bytes_etp(&q, 1000, 4096, 4, 1, RECOMPUTE_SELECTIVE, ATTN_FUSED),
         mdl_act_bytes_tokens(&q, 1000, 4096, 4, RECOMPUTE_SELECTIVE, ATTN_FUSED), 1e-12);
    NEAR(mdl_act_bytes_etp(&q, 1000, 4096, 4, 4, RECOMPUTE_FULL, ATTN_FUSED), 1000 * 2 * 2048 / 4.0, 1e-12);
    /* a shared expert adds a gated MLP of its width; leading dense layers
    ** weigh in by their count */
    q.shared_experts = 1;
    NEAR(mdl_act_terms_of(&q, 4096, RECOMPUTE_SELECTIVE, ATTN_FUSED).mlp - tq.mlp, 6 * 768, 1e-9);
    q.shared_experts = 0;
    q.dense_layers = 12;
    q.ffn = 6144;
    NEAR(mdl_act_terms_of(&q, 4096, RECOMPUTE_SELECTIVE, ATTN_FUSED).mlp, (12 * 6 * 6144 + 36 * tq.mlp) / 48, 1e-9);
    /* dropout on: a 1-byte mask after the attention and after the MLP */
    m.mlp = MLP_GATED;
    m.dropout = 0.1;
    NEAR(mdl_act_terms_of(&m, 4096, RECOMPUTE_SELECTIVE, ATTN_FUSED).total - t.total, 2 * h, 1e-9);
    /* the parameters follow the shape: a GeLU MLP has two matrices, not three */
    scn_model g = {.layers = 2, .hidden = 64, .heads = 4, .ffn = 256, .vocab = 100};
    scn_model_derive(&g);
    double gated = g.params_total;
    g.mlp = MLP_GELU;
    scn_model_derive(&g);
    NEAR(gated - g.params_total, 2.0 * 64 * 256, 1e-9);
}
END_TEST

START_TEST(t_bubble)
{
    NEAR(mdl_bubble_share(4, 12), 3.0 / 15, 1e-12);
    NEAR(mdl_bubble_share(1, 12), 0, 1e-12);
    NEAR(mdl_bubble_share(16, 16), 15.0 / 31, 1e-12);
}
END_TEST

START_TEST(t_collectives)
{
    scn_link l = {.bw = 100e9, .latency_s = 1e-6};
    /* all-reduce: 2(n−1)/n · S/B + 2(n−1)·α */
    NEAR(mdl_allreduce(1e9, 8, &l, 1.0), 2.0 * 7 / 8 * 1e9 / 100e9 + 14e-6, 1e-12);
    /* all-gather: (n−1)/n · S/B + (n−1)·α */
    NEAR(mdl_allgather(1e9, 4, &l, 0.5), 0.75 * 1e9 / 50e9 + 3e-6, 1e-12);
    NEAR(mdl_alltoall(8e9, 8, &l, 1.0), 7.0 / 8 * 8e9 / 100e9 + 1e-6, 1e-12);
    NEAR(mdl_broadcast(1e9, &l, 1.0), 0.01 + 1e-6, 1e-12);
    NEAR(mdl_allreduce(1e9, 1, &l, 1.0), 0, 1e-12);
}
END_TEST

START_TEST(t_expert_touch)
{
    NEAR(mdl_expert_touch(256, 8, 1), 8.0 / 256, 1e-12);
    NEAR(mdl_expert_touch(256, 8, 2), 1 - pow(1 - 8.0 / 256, 2), 1e-12);
    ck_assert(mdl_expert_touch(256, 8, 1000) > 0.9999);
    NEAR(mdl_expert_touch(0, 0, 10), 1, 1e-12);
}
END_TEST

START_TEST(t_decode_roofline)
{
    /* A dense 7B-ish model, batch 1, TP1: memory-bound.  Bytes = 2·P + KV;
    ** time = bytes / (BW · η) + overhead. */
    scn_model m = {.layers = 28, .hidden = 3584, .heads = 28, .kv_heads = 4, .head_dim = 128,
                   .ffn = 18944, .vocab = 152064};
    scn_model_derive(&m);
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    scn_efficiency e = {.decode = 0.5, .hbm = 0.8, .link = 0.7, .decode_overhead_s = 1e-3};
    scn_link l = {.bw = 450e9, .latency_s = 2e-6};
    double ctx = 1000;
    mdl_step st = mdl_decode_step(&m, &d, &e, &l, 1, 1, 1, ctx);
    /* the untied embedding table is looked up, not streamed or multiplied */
    double emb = 152064.0 * 3584;
    double bytes = 2 * (m.params_total - emb) + ctx * m.kv_bytes_per_token;
    NEAR(st.memory_s, bytes / (3.35e12 * 0.8), 1e-9);
    /* attention over the real shapes: 4·L·a·d a context token, a·d = 28·128 */
    double flops = 2 * (m.params_active - emb) + 4.0 * 28 * 28 * 128 * ctx;
    NEAR(st.compute_s, flops / (989e12 * 0.5), 1e-9);
    ck_assert(st.memory_s > st.compute_s);
    NEAR(st.total_s, st.memory_s + 1e-3, 1e-9);
    /* a large batch turns it compute-bound */
    mdl_step big = mdl_decode_step(&m, &d, &e, &l, 1, 1, 4096, 4096 * 100.0);
    ck_assert(big.compute_s > 2 * 4096 * (m.params_active - emb) / (989e12 * 0.5) * 0.999);
}
END_TEST

/* The decode step's fixed cost (docs/model.md, section 5), by hand: a dense
** model of 4 layers at TP2 on a link of 2 µs a step.  Kernels: 4 layers ×
** 10, 2 all-reduces a layer (8), 6 a step: 54.  vLLM with CUDA graphs at a
** batch of 64: 54 × 1 µs launches, 2.5 ms + 64 × 200 µs scheduler (the
** serving fit, tests/test_decode_bench.c) = 15.354 ms.  Eager (cuda_graphs off, or the batch past the 512 captured): 54 ×
** 10 µs.  The sync latency is 8 all-reduces of 0 bytes, 2 ring steps of 2
** µs each: 32 µs, reported and not added.  More layers and TP add
** launches; the scale multiplies launches and scheduler, not the flat
** term; r NULL keeps the flat term alone (the model before it). */
START_TEST(t_decode_fixed_cost)
{
    scn_model m = {.layers = 4, .hidden = 1024, .heads = 8, .kv_heads = 8, .head_dim = 128, .ffn = 4096, .vocab = 32000};
    scn_model_derive(&m);
    scn_efficiency e = {.decode = 0.5, .hbm = 0.8, .link = 0.7, .decode_overhead_scale = 1};
    scn_link l = {.bw = 450e9, .latency_s = 2e-6};
    scn_rollout_layout r = {.engine = ENGINE_VLLM, .cuda_graphs = true};
    mdl_fixed g = mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64);
    NEAR(g.kernels, 54, 1e-12);
    ck_assert(g.graphed);
    NEAR(g.launch_s, 54e-6, 1e-9);
    NEAR(g.sched_s, 2.5e-3 + 64 * 200e-6, 1e-9);
    NEAR(g.total_s, 15.354e-3, 1e-9);
    NEAR(g.sync_s, 8 * 2 * 2e-6, 1e-9);
    /* without graphs: eager launches */
    r.cuda_graphs = false;
    mdl_fixed x = mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64);
    ck_assert(!x.graphed);
    NEAR(x.total_s, 540e-6 + 15.3e-3, 1e-9);
    /* graphs captured up to 512: a batch of 1024 launches eagerly, 32 still replays */
    r.cuda_graphs = true;
    mdl_fixed big = mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 1024);
    ck_assert(!big.graphed);
    NEAR(big.total_s, 540e-6 + 2.5e-3 + 1024 * 200e-6, 1e-9);
    r.graph_max_batch = 32;
    ck_assert(!mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64).graphed);
    ck_assert(mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 32).graphed);
    r.graph_max_batch = 0;
    /* TP1: no all-reduce, 46 kernels; 8 layers at TP2: 80 + 16 + 6 = 102 */
    NEAR(mdl_decode_fixed(&m, &e, &r, &l, 1, 1, 64).kernels, 46, 1e-12);
    NEAR(mdl_decode_fixed(&m, &e, &r, &l, 1, 1, 64).sync_s, 0, 1e-12);
    scn_model m8 = m;
    m8.layers = 8;
    scn_model_derive(&m8);
    NEAR(mdl_decode_fixed(&m8, &e, &r, &l, 2, 1, 64).launch_s, 102e-6, 1e-9);
    /* the hybrid engine never captures; SGLang's scheduler is overlapped */
    r.engine = ENGINE_HYBRID;
    NEAR(mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64).total_s, 540e-6 + 1e-3 + 64 * 30e-6, 1e-9);
    r.engine = ENGINE_SGLANG;
    NEAR(mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64).total_s, 54e-6 + 0.1e-3 + 64 * 3e-6, 1e-9);
    r.engine = ENGINE_VLLM;
    /* the scale multiplies launches and scheduler; the flat term is added */
    e.decode_overhead_scale = 2;
    e.decode_overhead_s = 5e-3;
    NEAR(mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64).total_s, 2 * 15.354e-3 + 5e-3, 1e-9);
    /* the step carries it once: the engine's step minus the bare roofline */
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    mdl_step a = mdl_decode_step(&m, &d, &e, &l, 2, 1, 64, 64e3);
    mdl_step b = mdl_decode_step_eng(&m, &d, &e, &r, &l, 2, 1, 64, 64e3);
    NEAR(b.total_s - a.total_s, 2 * 15.354e-3, 1e-9);
    NEAR(mdl_decode_step_eng(&m, &d, &e, NULL, &l, 2, 1, 64, 64e3).total_s, a.total_s, 1e-12);
    /* scale 0: the old model, one flat term */
    e.decode_overhead_scale = 0;
    NEAR(mdl_decode_fixed(&m, &e, &r, &l, 2, 1, 64).total_s, 5e-3, 1e-12);
}
END_TEST

/* MoE experts split over the TP ranks when EP < TP (docs/model.md, sections
** 3 and 5): Qwen3-30B-A3B at rollout TP4 holds and reads the same expert
** bytes per device at EP1 as at EP4, a quarter of the whole. */
START_TEST(t_moe_experts_over_tp)
{
    const scn_model *m = presets_model_find("qwen3_30b_a3b");
    ck_assert_ptr_nonnull(m);
    ck_assert(m->experts > 0);
    double w1 = mdl_rollout_params_per_device(m, 4, 1), w4 = mdl_rollout_params_per_device(m, 4, 4);
    NEAR(w1, w4, 1e-12);
    NEAR(w1, m->params_dense / 4 + m->params_expert / 4, 1e-12);
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    scn_efficiency e = {.decode = 0.5, .hbm = 0.8, .link = 0.7, .decode_overhead_s = 1e-3};
    scn_link l = {.bw = 450e9, .latency_s = 2e-6};
    mdl_step a = mdl_decode_step(m, &d, &e, &l, 4, 1, 64, 64 * 1000.0);
    mdl_step b = mdl_decode_step(m, &d, &e, &l, 4, 4, 64, 64 * 1000.0);
    NEAR(a.memory_s, b.memory_s, 1e-12);
}
END_TEST

/* Attention from the real shapes (docs/model.md, sections 5 and 6): heads ×
** head_dim, not the hidden size.  Qwen3-30B-A3B has a·d = 32·128 = 4096
** against h = 2048; DeepSeek-V3's MLA attends over nope + rope = 192 query
** dimensions expanded and over its 512 + 64 latent absorbed (DeepSeek-V2,
** arXiv 2405.04434). */
START_TEST(t_attention_shapes)
{
    const scn_model *q = presets_model_find("qwen3_30b_a3b");
    ck_assert_ptr_nonnull(q);
    NEAR(mdl_attn_pair_flops(q, false), 4.0 * 32 * 128, 1e-12);
    NEAR(mdl_attn_pair_flops(q, true), 4.0 * 32 * 128, 1e-12);
    NEAR(mdl_attn_flops_causal(q, 1e6), 0.5 * 48 * 4.0 * 32 * 128 * 1e6, 1e-12);
    NEAR(mdl_fwd_flops(q, 4096, 4096), 2 * mdl_matmul_params(q) * 4096 + 2.0 * 48 * 32 * 128 * 4096.0 * 4096, 1e-12);
    const scn_model *v3 = presets_model_find("deepseek_v3");
    ck_assert_ptr_nonnull(v3);
    NEAR(mdl_attn_pair_flops(v3, false), 2.0 * 128 * (128 + 64 + 128), 1e-12);
    NEAR(mdl_attn_pair_flops(v3, true), 2.0 * 128 * (512 + 64 + 512), 1e-12);
    /* a decode step's compute over 1,000 context tokens counts the absorbed
    ** form; prefill of the same tokens the expanded, causal one */
    scn_device d = {.peak_flops = 1e15, .hbm_bw = 3e12};
    scn_efficiency e = {.decode = 0.5, .prefill = 0.5, .hbm = 0.8, .link = 0.7};
    scn_link l = {.bw = 400e9, .latency_s = 2e-6};
    mdl_step st = mdl_decode_step(v3, &d, &e, &l, 1, 1, 1, 1000);
    NEAR(st.compute_s, (2 * mdl_matmul_params(v3) + 61 * 2.0 * 128 * 1088 * 1000) / (1e15 * 0.5), 1e-9);
    mdl_step pf = mdl_prefill(v3, &d, &e, NULL, &l, 1, 1, 1000, 1000);
    NEAR(pf.compute_s, (2 * mdl_matmul_params(v3) * 1000 + 0.5 * 61 * 2.0 * 128 * 320 * 1000 * 1000) / (1e15 * 0.5),
         1e-9);
    /* hidden/heads when no head_dim is given */
    scn_model m = {.layers = 2, .hidden = 64, .heads = 4, .kv_heads = 2, .ffn = 8, .vocab = 10};
    NEAR(mdl_head_dim(&m), 16, 1e-12);
    NEAR(mdl_attn_pair_flops(&m, true), 4.0 * 64, 1e-12);
}
END_TEST

/* KV copies when TP exceeds the KV heads: each rank keeps ceil(kv/tp) heads,
** at least one; MLA's latent is on every rank. */
START_TEST(t_kv_replication)
{
    const scn_model *l70 = presets_model_find("llama3_1_70b");   /* 8 KV heads */
    ck_assert_ptr_nonnull(l70);
    NEAR(mdl_kv_replication(l70, 1), 1, 1e-12);
    NEAR(mdl_kv_replication(l70, 8), 1, 1e-12);
    NEAR(mdl_kv_replication(l70, 16), 2, 1e-12);
    NEAR(mdl_kv_replication(l70, 3), 9.0 / 8, 1e-12);           /* 3 heads on a rank, 9 held */
    const scn_model *q = presets_model_find("qwen3_30b_a3b");    /* 4 KV heads */
    NEAR(mdl_kv_replication(q, 8), 2, 1e-12);
    const scn_model *v3 = presets_model_find("deepseek_v3");
    NEAR(mdl_kv_replication(v3, 4), 4, 1e-12);
    /* the decode step reads every copy: at TP8 Qwen3-30B's KV traffic per
    ** device is that of 4 heads over 4 ranks, not 8 */
    scn_device d = {.peak_flops = 1e15, .hbm_bw = 3e12};
    scn_efficiency e = {.decode = 0.5, .hbm = 1.0, .link = 0.7};
    scn_link l = {.bw = 400e9, .latency_s = 2e-6};
    mdl_step a = mdl_decode_step(q, &d, &e, &l, 8, 8, 64, 0);
    mdl_step b = mdl_decode_step(q, &d, &e, &l, 8, 8, 64, 64000);
    NEAR(b.memory_s - a.memory_s, 64000 * q->kv_bytes_per_token * 2 / 8 / 3e12, 1e-9);
}
END_TEST

/* The input embedding is a lookup: an untied table is not multiplied, a tied
** one is the LM head and stays. */
START_TEST(t_embedding_lookup)
{
    scn_model m = {.layers = 2, .hidden = 4, .heads = 2, .kv_heads = 1, .head_dim = 2, .ffn = 8, .vocab = 10};
    scn_model_derive(&m);
    NEAR(mdl_lookup_params(&m), 40, 1e-12);
    NEAR(mdl_matmul_params(&m), 384 - 40, 1e-12);
    /* 10 tokens of one sequence: 2·344·10 + ½·2·(4·2·2)·100 */
    NEAR(mdl_fwd_flops(&m, 10, 10), 2.0 * 344 * 10 + 0.5 * 2 * 16 * 100, 1e-12);
    m.tied_embeddings = true;
    scn_model_derive(&m);
    NEAR(mdl_lookup_params(&m), 0, 1e-12);
    NEAR(mdl_matmul_params(&m), m.params_active, 1e-12);
}
END_TEST

/* Gradients in FP32 (Megatron-LM's default): 4 bytes a parameter held and
** reduced; bf16 keeps the old 2.  Under the distributed optimizer (ZeRO-1)
** that is Megatron's 6 + 12/d bytes a parameter. */
START_TEST(t_grad_fp32)
{
    scn_scenario s;
    memset(&s, 0, sizeof s);
    s.actor = (scn_model){.layers = 2, .hidden = 4, .heads = 2, .kv_heads = 1, .head_dim = 2, .ffn = 8, .vocab = 10};
    scn_model_derive(&s.actor);
    s.plan.train.zero = 1;
    plan_pool pp;
    memset(&pp, 0, sizeof pp);
    pp.tp = pp.pp = pp.ep = 1;
    pp.dp = pp.edp = pp.shard = pp.eshard = 8;
    double st[3];
    plan_train_states(&s, &pp, st);
    NEAR(st[0] + st[1] + st[2], 384.0 * (6 + 12.0 / 8), 1e-12);
    NEAR(mdl_grad_bytes(&s.plan.train), 4, 1e-12);
    s.plan.train.grad_dtype = GRAD_BF16;
    plan_train_states(&s, &pp, st);
    NEAR(st[0] + st[1] + st[2], 384.0 * (4 + 12.0 / 8), 1e-12);
    NEAR(mdl_grad_bytes(&s.plan.train), 2, 1e-12);
    /* the DP all-reduce moves twice the bytes in FP32 */
    scn_cluster c = {.devices_per_node = 8, .nodes_per_supernode = 1, .supernodes = 1,
                     .intra_node = {.bw = 100e9, .latency_s = 0}, .intra_supernode = {.bw = 50e9, .latency_s = 0}, .inter_supernode = {.bw = 25e9, .latency_s = 0}};
    scn_efficiency e = {.link = 1.0};
    double a, r, g4, g2;
    shard_allreduce(&c, e.link, 1, 8, 8, 8, 8, 1e9, &a, &r);
    s.plan.train.zero = 0;
    mdl_zero_comm(0, 0, mdl_grad_bytes(&s.plan.train) / 2.0, a, r, 1, 1, &g2, NULL);
    s.plan.train.grad_dtype = GRAD_FP32;
    mdl_zero_comm(0, 0, mdl_grad_bytes(&s.plan.train) / 2.0, a, r, 1, 1, &g4, NULL);
    NEAR(g4, 2.0 * 7 / 8 * 4e9 / 100e9, 1e-12);
    NEAR(g4, 2 * g2, 1e-12);
}
END_TEST

START_TEST(t_tiers)
{
    scn_cluster c = {.devices_per_node = 8, .nodes_per_supernode = 4, .supernodes = 2};
    ck_assert_int_eq(mdl_group_tier(&c, 0, 1, 8), 0);
    ck_assert_int_eq(mdl_group_tier(&c, 0, 1, 9), 1);
    ck_assert_int_eq(mdl_group_tier(&c, 0, 8, 4), 1);
    ck_assert_int_eq(mdl_group_tier(&c, 0, 8, 5), 2);
    ck_assert_int_eq(mdl_group_tier(&c, 5, 1, 1), 0);
}
END_TEST

START_TEST(t_rng_and_dists)
{
    rng_state a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) ck_assert_uint_eq(rng_next(&a), rng_next(&b));
    scn_dist fx = {.kind = DIST_FIXED, .a = 700};
    ck_assert_int_eq(dist_sample(&fx, &a, 0), 700);
    ck_assert_int_eq(dist_sample(&fx, &a, 500), 500);        /* hard cap */
    scn_dist un = {.kind = DIST_UNIFORM, .a = 10, .b = 20};
    int lo = 99, hi = 0;
    for (int i = 0; i < 2000; i++) {
        int v = dist_sample(&un, &a, 0);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    ck_assert_int_eq(lo, 10);
    ck_assert_int_eq(hi, 20);
    /* lognormal: the median of many samples is near `median`; the cap holds */
    scn_dist ln = {.kind = DIST_LOGNORMAL, .a = 1000, .b = 0.8, .cap = 4000};
    int below = 0, n = 20000, over = 0;
    for (int i = 0; i < n; i++) {
        int v = dist_sample(&ln, &a, 0);
        below += v < 1000;
        over += v > 4000;
    }
    ck_assert_int_eq(over, 0);
    ck_assert(fabs((double)below / n - 0.5) < 0.02);
    scn_dist h = {.kind = DIST_HIST, .nbins = 2, .edge = {0, 100, 200}, .weight = {3, 1}};
    int first = 0;
    for (int i = 0; i < n; i++) first += dist_sample(&h, &a, 0) < 100;
    ck_assert(fabs((double)first / n - 0.75) < 0.02);
}
END_TEST

/* A lognormal length as the draw was first written, with floor() itself:
** the reference for the draws below. */
static int lognormal_ref(const scn_dist *d, rng_state *r, int hard_cap, double scale)
{
    double v = d->a * exp(d->b * rng_normal(r));
    v *= scale;
    if (d->cap > 0 && v > d->cap) v = d->cap;
    v = floor(v + 0.5);
    if (hard_cap > 0 && v > hard_cap) v = hard_cap;
    if (v < 1) v = 1;
    return (int)v;
}

/* dist_sample_scaled_n draws what as many dist_sample_scaled calls draw,
** and leaves the generator where they leave it; the lognormal draws match
** the floor()-based reference, also far past 2^63 (no cap, a huge median:
** then with a hard cap, as an int cannot hold such a length) and below 1. */
START_TEST(t_dist_draws_in_a_row)
{
    const scn_dist ds[] = {
        {.kind = DIST_FIXED, .a = 700},
        {.kind = DIST_UNIFORM, .a = 10, .b = 20},
        {.kind = DIST_LOGNORMAL, .a = 2048, .b = 0.85, .cap = 8192},
        {.kind = DIST_LOGNORMAL, .a = 1e19, .b = 3},
        {.kind = DIST_LOGNORMAL, .a = 0.7, .b = 1.5},
        {.kind = DIST_HIST, .nbins = 2, .edge = {0, 100, 200}, .weight = {3, 1}},
    };
    const double scales[] = {1.0, 1.37};
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++)
        for (int sc = 0; sc < 2; sc++)
            for (int hard = ds[k].a > 1e9 ? 5000 : 0; hard <= 5000; hard += 5000) {
                rng_state a, b, c;
                rng_seed(&a, 7 + k);
                b = a;
                c = a;
                int got[100];
                dist_sample_scaled_n(&ds[k], &a, hard, scales[sc], got, 100);
                for (int i = 0; i < 100; i++) {
                    int want = dist_sample_scaled(&ds[k], &b, hard, scales[sc]);
                    ck_assert_msg(got[i] == want, "dist %zu draw %d: %d in a row, %d alone", k, i, got[i], want);
                    if (ds[k].kind == DIST_LOGNORMAL)
                        ck_assert_int_eq(want, lognormal_ref(&ds[k], &c, hard, scales[sc]));
                }
                ck_assert_uint_eq(rng_next(&a), rng_next(&b));
            }
}
END_TEST

/* Context parallelism (docs/model.md, section 7): a stage's forward at cp 2
** computes half the tokens and half the attention; Ulysses adds four
** all-to-alls a layer of each rank's tok/cp tokens at its TP share of the
** Q, K, V and output widths; ring attention's K/V sends are hidden behind
** the block attention when it is long, and exposed by what they outlast it
** when it is short. */
START_TEST(t_context_parallel_stage)
{
    scn_model m = {.layers = 28, .hidden = 3584, .heads = 28, .kv_heads = 4, .head_dim = 128,
                   .ffn = 18944, .vocab = 152064};
    scn_model_derive(&m);
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    scn_link ltp = {.bw = 450e9, .latency_s = 2e-6}, lcp = {.bw = 50e9, .latency_s = 5e-6};
    double tok = 65536, sq = tok * tok, eff = 0.5, le = 0.8;
    mdl_stage c1 = mdl_stage_setup(&m, 1, 1, 1, &ltp, NULL, NULL);
    double f1 = mdl_stage_fwd(&m, &d, le, &c1, tok, sq, eff);
    double flops = 2.0 * mdl_matmul_params(&m) * tok + mdl_attn_flops_causal(&m, sq);
    NEAR(f1, flops / (989e12 * eff), 1e-12);
    /* Ulysses at cp 2: half the compute, plus 4 all-to-alls a layer */
    mdl_stage cu = c1;
    mdl_stage_par(&cu, &m, 2, CP_ULYSSES, &lcp, 0, 0);
    double local = tok / 2 * 2.0;
    double a2a = 2 * mdl_alltoall(local * 28 * 128, 2, &lcp, le) + 2 * mdl_alltoall(local * 4 * 128, 2, &lcp, le);
    NEAR(mdl_stage_fwd(&m, &d, le, &cu, tok, sq, eff), f1 / 2 + 28 * a2a, 1e-12);
    /* ring at cp 2: one send of the K/V block, hidden behind 64k tokens'
    ** block attention */
    mdl_stage cr = c1;
    mdl_stage_par(&cr, &m, 2, CP_RING, &lcp, 0, 0);
    NEAR(mdl_stage_fwd(&m, &d, le, &cr, tok, sq, eff), f1 / 2, 1e-12);
    /* short sequences (64 of 1024 tokens): the block attention is short,
    ** the send shows by what outlasts it */
    double sq_short = 64.0 * 1024 * 1024;
    double attn = mdl_attn_flops_causal(&m, sq_short) / m.layers / 2 / (989e12 * eff);
    double send = mdl_broadcast(2.0 * local * 4 * 128, &lcp, le);
    ck_assert(send > attn / 2);
    NEAR(mdl_cp_layer(&cr, tok, attn, le), send - attn / 2, 1e-12);
    NEAR(mdl_stage_fwd(&m, &d, le, &cr, tok, sq_short, eff),
         mdl_stage_fwd(&m, &d, le, &c1, tok, sq_short, eff) / 2 + 28 * (send - attn / 2), 1e-12);
    /* cp 1 leaves the stage as it was */
    mdl_stage c0 = c1;
    mdl_stage_par(&c0, &m, 1, CP_ULYSSES, NULL, 0, 0);
    ck_assert(mdl_stage_fwd(&m, &d, le, &c0, tok, sq, eff) == f1);
}
END_TEST

/* A stage's forward time as the formula reads (docs/model.md, section 7),
** each collective through its own function: mdl_stage_fwd and
** mdl_stage_fwd_n, which work the per-pipeline factors out once, must give
** the same value to the bit, and these values to rounding. */
static double stage_one_ref(const mdl_stage *c, double n, double head, double layer, double ttp, double tep,
                            double tcp, double tpp)
{
    double comp = n * layer + head, ct = n * ttp, ce = n * tep;
    double conc = c->o_tp * ct + c->o_ep * ce;
    return comp + (1.0 - c->o_tp) * ct + (1.0 - c->o_ep) * ce + (conc > comp ? conc - comp : 0.0) + n * tcp + tpp;
}

/* The forward on the slowest stage: ⌈L/p⌉ layers, or the last stage's
** ⌊L/p⌋ layers with the LM head and its TP collectives (no GEMM-shape
** roofline, no loss term: mdl_stage_train is not called). */
static double stage_fwd_ref(const scn_model *m, const scn_device *d, double le, const mdl_stage *c, double tok,
                            double sq, double eff)
{
    int cp = c->cp > 1 ? c->cp : 1;
    double pe = d->peak_flops * eff;
    double head = (double)m->vocab * m->hidden;
    double p_exp = m->params_active - m->params_dense;
    double p_lay = mdl_matmul_params(m) - head - p_exp;
    double attn_l = mdl_attn_flops_causal(m, sq) / m->layers;
    double layer = (2.0 * tok * (p_lay + p_exp) / m->layers + attn_l) / c->tp / cp / pe;
    double hf = 2.0 * head * tok / c->tp / cp / pe;
    double act = tok / cp * m->hidden * 2.0;
    double ttp = 0, tep = 0, tcp = 0, tpp = 0;
    if (c->tp > 1) ttp = 2.0 * mdl_allreduce(act, c->tp, &c->ltp, le);
    /* the dispatcher: all-to-all over EP, all-gather (and its reduce-scatter) over ETP */
    double routed = act * m->experts_active / c->tp;
    if (m->experts > 0)
        tep = 2.0 * c->moe_frac * (mdl_alltoall(routed, c->ep, &c->lep, le) +
                                   mdl_allgather(c->etp * routed, c->etp, &c->letp, le));
    if (cp > 1) tcp = mdl_cp_layer(c, tok, attn_l / c->tp / cp / pe, le);
    /* the vocab-parallel loss: three FP32 all-reduces a token, exposed */
    double hc = c->tp > 1 ? 3.0 * mdl_allreduce(tok / cp * 4.0, c->tp, &c->ltp, le) : 0.0;
    if (c->pp <= 1) return stage_one_ref(c, m->layers, hf, layer, ttp, tep, tcp, 0) + hc;
    tpp = mdl_broadcast(act / c->tp, &c->lpp, le);
    double body = stage_one_ref(c, (m->layers + c->pp - 1) / c->pp, 0, layer, ttp, tep, tcp, tpp);
    double last = stage_one_ref(c, m->layers / c->pp, hf, layer, ttp, tep, tcp, tpp) + hc;
    return body > last ? body : last;
}

START_TEST(t_stage_fwd_exact)
{
    scn_model dense = {.layers = 28, .hidden = 3584, .heads = 28, .kv_heads = 4, .head_dim = 128,
                       .ffn = 18944, .vocab = 152064};
    scn_model_derive(&dense);
    const scn_model *pm = presets_model_find("qwen3_30b_a3b");
    ck_assert_ptr_nonnull(pm);
    scn_model moe = *pm;
    scn_model_derive(&moe);
    const scn_model *models[2] = {&dense, &moe};
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    scn_link ltp = {.bw = 450e9, .latency_s = 2e-6}, lep = {.bw = 200e9, .latency_s = 3e-6}, lpp = {.bw = 50e9, .latency_s = 7e-6}, lcp = {.bw = 100e9, .latency_s = 5e-6};
    const int tps[] = {1, 2, 3, 4, 6, 8}, cps[] = {1, 2, 3};
    uint64_t x = 99;
    int checked = 0;
    for (int mi = 0; mi < 2; mi++)
        for (size_t ti = 0; ti < sizeof tps / sizeof tps[0]; ti++)
            for (int pp = 1; pp <= 3; pp += 2)
                for (int ep = 1; ep <= 8; ep *= 8)
                    for (size_t ci = 0; ci < sizeof cps / sizeof cps[0]; ci++) {
                        const scn_model *m = models[mi];
                        mdl_stage c = mdl_stage_setup(m, tps[ti], pp, ep, &ltp, &lep, &lpp);
                        /* EP8 with ETP 1; EP1 with Megatron's default ETP = TP */
                        if (ep == 8) mdl_stage_experts(&c, m, ep, 1, &lep, &ltp);
                        mdl_stage_par(&c, m, cps[ci], ci == 2 ? CP_ULYSSES : CP_RING, &lcp, ci ? 0.5 : 0, 0.25 * mi);
                        double tok[16], sq[16], got[16];
                        for (int i = 0; i < 16; i++) {
                            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                            double len = 1 + (double)((x >> 40) % 9000);
                            tok[i] = len * (1 + i % 3);
                            sq[i] = len * len * (1 + i % 3);
                        }
                        double eff = 0.17 + 0.01 * (double)ti, le = 0.6 + 0.05 * ci;
                        mdl_stage_fwd_n(m, &d, le, &c, tok, sq, eff, got, 16);
                        for (int i = 0; i < 16; i++) {
                            double want = stage_fwd_ref(m, &d, le, &c, tok[i], sq[i], eff);
                            double one = mdl_stage_fwd(m, &d, le, &c, tok[i], sq[i], eff);
                            ck_assert_msg(memcmp(&got[i], &one, sizeof one) == 0 && fabs(one - want) <= 1e-12 * want,
                                          "model %d tp %d pp %d ep %d cp %d: %.17g, %.17g vs %.17g", mi, tps[ti], pp, ep,
                                          cps[ci], got[i], one, want);
                            checked++;
                        }
                    }
    ck_assert_int_eq(checked, 2 * 6 * 2 * 2 * 3 * 16);
}
END_TEST

/* Compute/communication overlap (docs/model.md, section 7): a share o of a
** collective runs concurrently with the compute and is hidden while the
** compute lasts; TP and EP share that compute. */
START_TEST(t_overlap)
{
    NEAR(mdl_exposed(10, 0, 100), 10, 1e-15);
    NEAR(mdl_exposed(10, 1, 100), 0, 1e-15);
    NEAR(mdl_exposed(10, 0.5, 100), 5, 1e-15);
    NEAR(mdl_exposed(10, 1, 4), 6, 1e-15);           /* what outlasts the compute */
    NEAR(mdl_exposed(10, 0.5, 2), 5 + 3, 1e-15);
    const scn_model *pm = presets_model_find("qwen3_30b_a3b");
    ck_assert_ptr_nonnull(pm);
    scn_model dm = *pm;
    scn_model_derive(&dm);
    const scn_model *m = &dm;
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    scn_link l = {.bw = 900e9, .latency_s = 1e-6};
    double tok = 16384, sq = 16384.0 * 16384, eff = 0.5;
    mdl_stage c = mdl_stage_setup(m, 4, 1, 8, &l, &l, NULL);
    double comp = (2.0 * mdl_matmul_params(m) * tok + mdl_attn_flops_causal(m, sq)) * c.sh / 4 / (989e12 * eff);
    double serial = mdl_stage_fwd(m, &d, 1.0, &c, tok, sq, eff);
    double comm = serial - comp;
    ck_assert(comm > 0);
    mdl_stage o = c;
    mdl_stage_par(&o, m, 1, CP_RING, NULL, 1, 0);
    double tpo = mdl_stage_fwd(m, &d, 1.0, &o, tok, sq, eff);
    ck_assert_msg(tpo < serial && tpo > comp, "TP overlapped %.9g s, serial %.9g, compute %.9g", tpo, serial, comp);
    mdl_stage_par(&o, m, 1, CP_RING, NULL, 1, 1);
    double all = mdl_stage_fwd(m, &d, 1.0, &o, tok, sq, eff);
    ck_assert(comm < comp);
    /* the vocab-parallel loss's three FP32 all-reduces a token wait on
    ** the logits: exposed whatever the overlap */
    double head = 3 * (2.0 * 3 / 4 * tok * 4 / 900e9 + 6 * 1e-6);
    NEAR(all, comp + head, 1e-12);     /* the layers' all hidden: shorter than the compute */
    mdl_stage_par(&o, m, 1, CP_RING, NULL, 0.5, 0.5);
    NEAR(mdl_stage_fwd(m, &d, 1.0, &o, tok, sq, eff), comp + (comm - head) / 2 + head, 1e-12);
}
END_TEST

/* Expert tensor parallelism's dispatch (docs/model.md, section 7;
** Megatron-Core's MoEAlltoAllTokenDispatcher at NVIDIA/Megatron-LM
** d98e8a64dd): the routed tokens all-to-all over EP, then all-gathered over
** the expert-TP group and reduce-scattered back.  The same eight devices
** for the experts, EP4 ETP2 against EP8 ETP1, one flat link: the forward
** differs by 2·moe·L·(a2a(B, 4) + all-gather(2B, 2) − a2a(B, 8)), B the
** routed copies of a rank's tokens, k·T·h·2/t bytes; the GEMMs are not
** shaped here (no mdl_stage_train), so the compute is the same. */
START_TEST(t_expert_tp_dispatch)
{
    const scn_model *pm = presets_model_find("qwen3_30b_a3b");
    ck_assert_ptr_nonnull(pm);
    scn_model m = *pm;
    scn_model_derive(&m);
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    const double bw = 400e9, lat = 2e-6;
    scn_link l = {.bw = bw, .latency_s = lat};
    double tok = 8192, sq = 8192.0 * 8192, eff = 0.5;
    mdl_stage a = mdl_stage_setup(&m, 2, 1, 4, &l, &l, NULL), b = a;
    mdl_stage_experts(&a, &m, 4, 2, &l, &l);
    mdl_stage_experts(&b, &m, 8, 1, &l, &l);
    ck_assert_int_eq(a.efold, 8);
    ck_assert_int_eq(b.efold, 8);
    NEAR(a.w_exp, m.expert_ffn / 2.0, 1e-12);      /* each expert's matrices split in two */
    NEAR(b.w_exp, (double)m.expert_ffn, 1e-12);
    double B = tok * m.hidden * 2.0 * m.experts_active / 2;
    double ta = 0.75 * B / bw + lat + 0.5 * 2 * B / bw + lat;   /* a2a over 4, all-gather of 2B over 2 */
    double tb = 7.0 / 8 * B / bw + lat;                          /* a2a over 8 */
    double want = 2.0 * a.moe_frac * m.layers * (ta - tb);
    double fa = mdl_stage_fwd(&m, &d, 1.0, &a, tok, sq, eff), fb = mdl_stage_fwd(&m, &d, 1.0, &b, tok, sq, eff);
    ck_assert_double_gt(want, 0);
    NEAR(fa - fb, want, 1e-9);
    /* Megatron-Core's default, etp = tp, is what mdl_stage_setup lays out */
    mdl_stage c = mdl_stage_setup(&m, 4, 1, 2, &l, &l, NULL);
    ck_assert_int_eq(c.etp, 4);
    ck_assert_int_eq(c.efold, 8);
}
END_TEST

/* The token dispatcher's kind (docs/model.md, section 7, "The token
** dispatcher"), by hand on one flat link, TP2, EP4 × ETP2 (8 ranks),
** Qwen3-30B-A3B (E 128, k 8, h 2048), T tokens a rank's micro-batch.
** allgather: all-gather of 8·(T/2)·(2h + 3E) bytes over 8 and a
** reduce-scatter of 8·(T/2)·2h; flex: one all-to-all over 8 of
** etp·u·(T/2)·2h, u = 4·(1 − C(96, 8)/C(128, 8)) ranks of the EP group;
** alltoall as t_expert_tp_dispatch.  Each against the all-to-all stage,
** the rest of the layer the same. */
START_TEST(t_moe_dispatcher)
{
    const scn_model *pm = presets_model_find("qwen3_30b_a3b");
    ck_assert_ptr_nonnull(pm);
    scn_model m = *pm;
    scn_model_derive(&m);
    scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    const double bw = 400e9, lat = 2e-6;
    scn_link l = {.bw = bw, .latency_s = lat};
    double tok = 8192, sq = 8192.0 * 8192, eff = 0.5;
    mdl_stage a = mdl_stage_setup(&m, 2, 1, 4, &l, &l, NULL);
    mdl_stage_experts(&a, &m, 4, 2, &l, &l);
    mdl_stage g = a, x = a, t = a;
    mdl_stage_dispatcher(&g, &m, MOE_DISP_ALLGATHER, &l);
    mdl_stage_dispatcher(&x, &m, MOE_DISP_FLEX, &l);
    mdl_stage_dispatcher(&t, &m, MOE_DISP_ALLTOALL, &l);
    ck_assert_int_eq(g.disp, MOE_DISP_ALLGATHER);
    ck_assert_int_eq(t.disp, MOE_DISP_ALLTOALL);
    /* u: E/ep = 32 experts a rank; the chance all 8 miss a rank's 32 */
    double miss = 1;
    for (int i = 0; i < 8; i++) miss *= (96.0 - i) / (128.0 - i);
    NEAR(mdl_moe_ranks_hit(128, 8, 4), 4 * (1 - miss), 1e-12);
    NEAR(x.disp_ranks, 2 * 4 * (1 - miss), 1e-12);
    ck_assert_double_lt(mdl_moe_ranks_hit(128, 8, 4), 4.0);
    NEAR(mdl_moe_ranks_hit(128, 8, 1), 1.0, 1e-15);
    NEAR(mdl_moe_ranks_hit(8, 8, 8), 8.0, 1e-12);      /* every expert chosen: every rank */
    double h = m.hidden, E = m.experts, tr = tok / 2, L = m.layers * a.moe_frac;
    double B = tok * h * 2.0 * m.experts_active / 2;
    double ta2a = 2.0 * (0.75 * B / bw + lat + 0.5 * 2 * B / bw + lat);
    double tag = 7.0 / 8 * 8 * tr * (2 * h + 3 * E) / bw + 7 * lat + 7.0 / 8 * 8 * tr * 2 * h / bw + 7 * lat;
    double tfx = 2.0 * (7.0 / 8 * tr * 2 * h * x.disp_ranks / bw + lat);
    double f0 = mdl_stage_fwd(&m, &d, 1.0, &t, tok, sq, eff);
    double fa = mdl_stage_fwd(&m, &d, 1.0, &a, tok, sq, eff);
    NEAR(f0, fa, 1e-15);     /* alltoall is the stage as mdl_stage_experts leaves it */
    NEAR(mdl_stage_fwd(&m, &d, 1.0, &g, tok, sq, eff) - f0, L * (tag - ta2a), 1e-9);
    NEAR(mdl_stage_fwd(&m, &d, 1.0, &x, tok, sq, eff) - f0, L * (tfx - ta2a), 1e-9);
    /* a dense model takes none of it */
    const scn_model *dm = presets_model_find("qwen2_5_7b");
    ck_assert_ptr_nonnull(dm);
    scn_model dn = *dm;
    scn_model_derive(&dn);
    mdl_stage s = mdl_stage_setup(&dn, 2, 1, 1, &l, NULL, NULL);
    mdl_stage_dispatcher(&s, &dn, MOE_DISP_FLEX, &l);
    ck_assert_int_eq(s.disp, MOE_DISP_ALLTOALL);
}
END_TEST

/* Collectives across nodes (docs/model.md, section 2), by hand.  TP16 on
** two nodes of eight H100-like devices (NVLink 450 GB/s 3 µs, a 400 Gb/s
** NIC each, 50 GB/s 8 µs).  Ring: 2·15/16·S/min(450, 8·50) + 26·3 µs
** + 4·8 µs; tree: 2·S/400 GB/s + 2·(7·3 + 1·8) µs.  The old flat ring:
** 2·15/16·S/50 GB/s + 30·8 µs. */
START_TEST(t_coll_nodes)
{
    scn_cluster c = {.devices_per_node = 8, .nodes_per_supernode = 2, .supernodes = 1, .devices_per_nic = 1,
                     .intra_node = {.bw = 450e9, .latency_s = 3e-6}, .intra_supernode = {.bw = 50e9, .latency_s = 8e-6},
                     .inter_supernode = {.bw = 50e9, .latency_s = 8e-6}};
    scn_link g = mdl_group_link(&c, 0, 1, 16, false);
    ck_assert_int_eq(g.local, 8);
    NEAR(g.rails, 8, 1e-15);
    /* a decode step's all-reduce, 8 KiB: the tree, 58 µs */
    double small = mdl_allreduce(8192, 16, &g, 1.0);
    NEAR(small, 2 * 8192 / 400e9 + 58e-6, 1e-15);
    /* 1 GB: the ring, 4.6875 ms + 110 µs */
    double big = mdl_allreduce(1e9, 16, &g, 1.0);
    NEAR(big, 1.875e9 / 400e9 + 110e-6, 1e-12);
    /* the old flat ring on the cross-node tier: 240 µs, 8x the bandwidth time */
    double flat_small = mdl_allreduce(8192, 16, &c.intra_supernode, 1.0);
    NEAR(flat_small, 1.875 * 8192 / 50e9 + 240e-6, 1e-15);
    ck_assert_msg(small < flat_small / 4 && big < flat_small + 1.875e9 / 50e9 / 7,
                  "across nodes priced as one flat ring: %.9g / %.9g s", small, big);
    /* forced algorithms; "flat" gives the tier's own link back */
    c.collectives = COLL_RING;
    scn_link gr = mdl_group_link(&c, 0, 1, 16, false);
    NEAR(mdl_allreduce(8192, 16, &gr, 1.0), 1.875 * 8192 / 400e9 + 110e-6, 1e-15);
    c.collectives = COLL_FLAT;
    scn_link gf = mdl_group_link(&c, 0, 1, 16, false);
    NEAR(mdl_allreduce(8192, 16, &gf, 1.0), flat_small, 1e-18);
    c.collectives = COLL_NCCL;
    /* a group inside one node on a group link: the in-node link */
    NEAR(mdl_allreduce(8192, 4, &g, 1.0), 1.5 * 8192 / 450e9 + 6 * 3e-6, 1e-15);
    /* all-gather over the 16: ring, 15/16·S/400 GB/s + 13·3 µs + 2·8 µs */
    NEAR(mdl_allgather(1e9, 16, &g, 1.0), 0.9375e9 / 400e9 + 13 * 3e-6 + 2 * 8e-6, 1e-12);
    /* all-to-all: 7/16 over NVLink, 8/16 over each member's NIC, at once */
    NEAR(mdl_alltoall(1.6e7, 16, &g, 1.0), 8e6 / 50e9 + 8e-6, 1e-12);
    /* a DP group, one member per node (stride 8): 16 nodes of a 16-node
    ** supernode; PAT for the gather (log2 16 = 4 steps), tree for a small
    ** all-reduce: 2·S/50 GB/s + 2·4·8 µs */
    c.nodes_per_supernode = 16;
    scn_link d = mdl_group_link(&c, 0, 8, 16, true);
    ck_assert_int_eq(d.local, 1);
    NEAR(mdl_allgather(8192, 16, &d, 1.0), 0.9375 * 8192 / 50e9 + 4 * 8e-6, 1e-15);
    NEAR(mdl_allreduce(8192, 16, &d, 1.0), 2 * 8192 / 50e9 + 64e-6, 1e-15);
    /* two devices share a NIC and all cross at once: half a NIC each */
    c.devices_per_nic = 2;
    scn_link h = mdl_group_link(&c, 0, 1, 16, true);
    NEAR(mdl_allreduce(1e9, 16, &h, 1.0), 1.875e9 / 200e9 + 110e-6, 1e-12);
}
END_TEST

/* HSDP (docs/model.md, section 7): with 16 ranks that hold the same
** parameters, shard groups of 8 reduce inside a node (A on tier 0) and
** all-reduce an eighth across the two groups (R, across nodes); ZeRO-3 at
** the end of a mini-batch pays R, ZeRO-1 A + R, ZeRO-2 R and then A/2. */
START_TEST(t_hsdp_levels)
{
    scn_cluster c = {.devices_per_node = 8, .nodes_per_supernode = 4, .supernodes = 1,
                     .intra_node = {.bw = 400e9, .latency_s = 2e-6}, .intra_supernode = {.bw = 50e9, .latency_s = 5e-6}, .inter_supernode = {.bw = 25e9, .latency_s = 1e-5}};
    double a, r, af, rf;
    shard_allreduce(&c, 1.0, 1, 16, 8, 1, 1, 1e9, &a, &r);
    NEAR(a, mdl_allreduce(2e9, 8, &c.intra_node, 1.0), 1e-12);
    NEAR(r, mdl_allreduce(2e9 / 8, 2, &c.intra_supernode, 1.0), 1e-12);
    shard_allreduce(&c, 1.0, 1, 16, 16, 1, 1, 1e9, &af, &rf);
    /* across the two nodes: NCCL's ring over the node's eight rails
    ** (mdl_link_hier), 2·15/16·2 GB / min(400, 8·50) GB/s + 26·2 µs + 4·5 µs */
    scn_link g16 = mdl_link_hier(&c, 1, 8, true);
    NEAR(af, mdl_allreduce(2e9, 16, &g16, 1.0), 1e-12);
    NEAR(af, 3.75e9 / 400e9 + 26 * 2e-6 + 4 * 5e-6, 1e-12);
    NEAR(rf, 0, 1e-15);
    double g, after;
    /* BF16 gradients (g = 1) */
    NEAR(mdl_zero_comm(3, 0, 1, a, r, 4, 1, &g, &after), 4 * 1.5 * a, 1e-12);
    NEAR(g, r, 1e-15);
    NEAR(after, 0, 1e-15);
    NEAR(mdl_zero_comm(0, 0, 1, a, r, 4, 1, &g, &after), 0, 1e-15);
    NEAR(g, a + r, 1e-15);
    NEAR(after, 0, 1e-15);
    NEAR(mdl_zero_comm(1, 0, 1, a, r, 4, 1, &g, &after), 0, 1e-15);
    NEAR(g + after, a + r, 1e-15);      /* a reduce-scatter and an all-gather: one all-reduce */
    NEAR(after, a / 2, 1e-15);
    NEAR(mdl_zero_comm(2, 0.5, 1, a, r, 4, 1, &g, &after), 4 * 0.5 * a / 2, 1e-12);
    NEAR(g, r, 1e-15);
    NEAR(after, a / 2, 1e-15);
    NEAR(mdl_zero_comm(3, 0, 1, a, r, 4, 0, &g, &after), 4 * a / 2, 1e-12);
    NEAR(g, 0, 1e-15);
    /* FP32 gradients (g = 2) double the gradient bytes, not the parameters' */
    NEAR(mdl_zero_comm(3, 0, 2, a, r, 4, 1, &g, &after), 4 * 2.0 * a, 1e-12);
    NEAR(g, 2 * r, 1e-15);
    NEAR(mdl_zero_comm(1, 0, 2, a, r, 4, 1, &g, &after), 0, 1e-15);
    NEAR(g, a + 2 * r, 1e-15);
    NEAR(after, a / 2, 1e-15);
    NEAR(mdl_zero_comm(3, 0, 2, a, r, 4, 0, &g, &after), 4 * a / 2, 1e-12);
}
END_TEST

static Suite *suite_model(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("formulas");
    tcase_add_test(tc, t_params_small_dense);
    tcase_add_test(tc, t_params_small_moe);
    tcase_add_test(tc, t_mla_kv);
    tcase_add_test(tc, t_model_states);
    tcase_add_test(tc, t_sharding);
    tcase_add_test(tc, t_activations);
    tcase_add_test(tc, t_activation_terms);
    tcase_add_test(tc, t_bubble);
    tcase_add_test(tc, t_collectives);
    tcase_add_test(tc, t_expert_touch);
    tcase_add_test(tc, t_decode_roofline);
    tcase_add_test(tc, t_decode_fixed_cost);
    tcase_add_test(tc, t_moe_experts_over_tp);
    tcase_add_test(tc, t_attention_shapes);
    tcase_add_test(tc, t_kv_replication);
    tcase_add_test(tc, t_embedding_lookup);
    tcase_add_test(tc, t_grad_fp32);
    tcase_add_test(tc, t_tiers);
    tcase_add_test(tc, t_context_parallel_stage);
    tcase_add_test(tc, t_stage_fwd_exact);
    tcase_add_test(tc, t_overlap);
    tcase_add_test(tc, t_expert_tp_dispatch);
    tcase_add_test(tc, t_moe_dispatcher);
    tcase_add_test(tc, t_hsdp_levels);
    tcase_add_test(tc, t_coll_nodes);
    tcase_add_test(tc, t_rng_and_dists);
    tcase_add_test(tc, t_dist_draws_in_a_row);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_model)
