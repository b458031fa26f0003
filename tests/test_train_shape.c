/*
** test_train_shape.c — training's real shape (docs/model.md, section 7):
** the backward's communication counted, not multiplied; the LM head and
** loss on the last pipeline stage, with its vocab-parallel collectives;
** the heaviest stage's parameters in the gradient reduction and the
** optimizer; GEMM efficiency by shape.
*/
#include "testutil.h"
#include "engine.h"
#include "estimate.h"
#include "lua_scenario.h"
#include "model.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEAR(a, b, rel) ck_assert_msg(fabs((a) - (b)) <= (rel) * fabs(b) + 1e-300, "%.17g vs %.17g", (double)(a), (double)(b))

/* a 7B-class dense model (Qwen2.5-7B's shapes) */
static scn_model dense7b(void)
{
    scn_model m = {.layers = 28, .hidden = 3584, .heads = 28, .kv_heads = 4, .head_dim = 128, .ffn = 18944,
                   .vocab = 152064};
    scn_model_derive(&m);
    return m;
}

static const scn_device DEV = {.peak_flops = 989e12, .hbm_bw = 3.35e12};

/* The same stage with links so fast that its communication vanishes: the
** stage's compute alone. */
static void fb(const scn_model *m, int tp, int pp, double bw, scn_recompute rc, double tok, double *f, double *b)
{
    scn_link l = {.bw = bw, .latency_s = bw > 1e20 ? 0 : 3e-6};
    mdl_stage c = mdl_stage_setup(m, tp, pp, 1, &l, NULL, pp > 1 ? &l : NULL);
    scn_efficiency e = {.train = 0.4, .hbm = 0.8, .gemm_shape = false};
    mdl_stage_train(&c, m, &DEV, &e, rc);
    *f = mdl_stage_fb(m, &DEV, 0.7, &c, tok, tok * tok, 0.4, b);
}

/* Megatron's backward has as many TP collectives as its forward (Shoeybi
** et al., arXiv 1909.08053; Korthikanti et al., arXiv 2205.05198) and one
** pipeline send: the backward is 2× the compute plus the forward's
** communication once, not 2× the whole; full recompute adds a forward,
** its collectives included. */
START_TEST(t_bwd_comm_counted)
{
    scn_model m = dense7b();
    double tok = 4096, f, b, f0, b0;
    fb(&m, 8, 1, 1e30, RECOMPUTE_NONE, tok, &f0, &b0);
    fb(&m, 8, 1, 100e9, RECOMPUTE_NONE, tok, &f, &b);
    /* a ring all-reduce over 8 ranks: 2·7/8 of the bytes at 70 GB/s, 14 latencies */
    double act = tok * m.hidden * 2;
    double ar = 2 * 7.0 / 8 * act / 70e9 + 14 * 3e-6, ar4 = 2 * 7.0 / 8 * tok * 4 / 70e9 + 14 * 3e-6;
    double comm = 28 * 2 * ar;                  /* the layers': two a layer each way */
    ck_assert(comm > 0.05 * f);
    NEAR(b0, 2 * f0 - 0, 0.02);                 /* compute twice (the loss's softmax is once each way) */
    /* the forward's communication, once each way, and the vocab-parallel
    ** head's own: three FP32 all-reduces a token forward, the input
    ** gradient's all-reduce backward */
    NEAR(f - f0, comm + 3 * ar4, 1e-9);
    NEAR(b - b0, comm + ar, 1e-9);
    ck_assert_msg(b < 2 * f - 0.5 * comm, "backward %.6g s multiplies the forward %.6g s", b, f);
    /* full recompute: the forward again, its all-reduces too */
    double fr, br, fr0, br0;
    fb(&m, 8, 1, 1e30, RECOMPUTE_FULL, tok, &fr0, &br0);
    fb(&m, 8, 1, 100e9, RECOMPUTE_FULL, tok, &fr, &br);
    NEAR(fr, f, 1e-12);
    NEAR(br - br0, 2 * comm + ar, 1e-9);
    /* pipeline: one send of the activations forward, one of their gradient back */
    double fp, bp, fp0, bp0;
    fb(&m, 1, 2, 1e30, RECOMPUTE_NONE, tok, &fp0, &bp0);
    fb(&m, 1, 2, 100e9, RECOMPUTE_NONE, tok, &fp, &bp);
    NEAR(bp - bp0, fp - fp0, 1e-9);
    NEAR(fp - fp0, tok * m.hidden * 2 / (100e9 * 0.7) + 3e-6, 1e-9);
}
END_TEST

/* The LM head (V·h a token) and the loss sit on the last stage, the
** embedding on the first: with L/p layers on every stage the last one is
** the slowest by the head's GEMM, not 1/p of it everywhere. */
START_TEST(t_head_on_last_stage)
{
    scn_model m = dense7b();
    double tok = 4096, f1, b1, f4, b4;
    fb(&m, 1, 1, 1e30, RECOMPUTE_NONE, tok, &f1, &b1);
    fb(&m, 1, 4, 1e30, RECOMPUTE_NONE, tok, &f4, &b4);
    double pe = DEV.peak_flops * 0.4;
    double head = 2.0 * m.vocab * m.hidden * tok / pe;
    double layers = f1 - head;                  /* p = 1: the layers, the head and the loss */
    double ce = tok * m.vocab * 4.0 / (DEV.hbm_bw * 0.8);
    layers -= ce;
    NEAR(f4, layers / 4 + head + ce, 1e-9);     /* 7 layers and the head */
    ck_assert(f4 > 1.05 * f1 / 4);              /* the even share understates the last stage */
    /* 30 layers over 4 stages: 8, 8, 8 and the head with the last 6 */
    scn_model u = m;
    u.layers = 30;
    scn_model_derive(&u);
    double fu, bu, fu1, bu1;
    fb(&u, 1, 4, 1e30, RECOMPUTE_NONE, tok, &fu, &bu);
    fb(&u, 1, 1, 1e30, RECOMPUTE_NONE, tok, &fu1, &bu1);
    double lay = (fu1 - head - ce) / 30;
    NEAR(fu, fmax(8 * lay, 7 * lay + head + ce), 1e-9);
    /* memory: the heaviest stage's dense parameters hold a table */
    double per = m.params_layer_dense, table = (double)m.vocab * m.hidden;
    NEAR(mdl_stage_dense_params(&m, 4), 7 * per + table, 1e-12);
    NEAR(mdl_stage_dense_params(&m, 1), m.params_dense, 1e-12);
    ck_assert(mdl_stage_dense_params(&m, 4) > m.params_dense / 4);
}
END_TEST

/* GEMM efficiency by shape (NVIDIA's matrix multiplication guide: a GEMM
** below the device's ops:byte ratio is bound by its operands' traffic;
** DeepGEMM's published table: near the ridge it is slower than either
** bound): an expert with ~100 tokens runs below efficiency.train, a large
** GEMM at it; efficiency.gemm_model = "roofline" keeps the sharp knee,
** efficiency.gemm_shape = false the flat efficiency. */
START_TEST(t_gemm_shape)
{
    /* the sharp roofline */
    NEAR(mdl_gemm_eff(8192, 8192, 8192, 200, GEMM_ROOFLINE), 1.0, 0);
    double ai = 1.0 / (1.0 / 100 + 1.0 / 768 + 1.0 / 2048);
    NEAR(mdl_gemm_eff(100, 768, 2048, 200, GEMM_ROOFLINE), ai / 200, 1e-12);
    NEAR(mdl_gemm_eff(100, 768, 2048, 0, GEMM_ROOFLINE), 1.0, 0);
    NEAR(mdl_gemm_eff(100, 768, 2048, 0, GEMM_SMOOTH), 1.0, 0);
    /* the smooth curve: (1 + r^2.5)^-0.4, r = ridge/AI */
    NEAR(mdl_gemm_eff(100, 768, 2048, 200, GEMM_SMOOTH), pow(1 + pow(200 / ai, 2.5), -0.4), 1e-12);
    double a8 = 8192.0 / 3;                     /* AI of a cube of 8192 */
    NEAR(mdl_gemm_eff(8192, 8192, 8192, 200, GEMM_SMOOTH), pow(1 + pow(200 / a8, 2.5), -0.4), 1e-12);
    ck_assert(mdl_gemm_eff(8192, 8192, 8192, 200, GEMM_SMOOTH) > 0.998);
    /* at the ridge the roofline says full speed, measured GEMMs do not:
    ** the two bounds' times blended, 2^-0.4 of it */
    double c6 = 600;                            /* AI = 1/(3/600) = 200 */
    NEAR(mdl_gemm_eff(c6, c6, c6, 200, GEMM_ROOFLINE), 1.0, 1e-12);
    NEAR(mdl_gemm_eff(c6, c6, c6, 200, GEMM_SMOOTH), pow(2, -0.4), 1e-12);
    /* far below the ridge both tend to AI/ridge */
    NEAR(mdl_gemm_eff(4, 8192, 8192, 200, GEMM_SMOOTH), mdl_gemm_eff(4, 8192, 8192, 200, GEMM_ROOFLINE), 0.01);
    /* Qwen3-30B-A3B's shapes: 128 experts of 768, top 8 */
    scn_model m = {.layers = 48, .hidden = 2048, .heads = 32, .kv_heads = 4, .head_dim = 128, .ffn = 6144,
                   .expert_ffn = 768, .experts = 128, .experts_active = 8, .vocab = 151936};
    scn_model_derive(&m);
    scn_link l = {.bw = 400e9, .latency_s = 3e-6};
    scn_efficiency on = {.train = 0.4, .hbm = 0.8, .gemm_shape = true}, off = on;
    off.gemm_shape = false;
    double t[2][2];
    const double toks[2] = {1024, 65536};       /* 64 and 4096 tokens an expert at EP 1 */
    for (int k = 0; k < 2; k++) {
        mdl_stage c = mdl_stage_setup(&m, 1, 1, 1, &l, &l, NULL), o = c;
        mdl_stage_train(&c, &m, &DEV, &on, RECOMPUTE_NONE);
        mdl_stage_train(&o, &m, &DEV, &off, RECOMPUTE_NONE);
        ck_assert(c.ridge > 0 && o.ridge == 0);
        t[k][0] = mdl_stage_fwd(&m, &DEV, 0.7, &c, toks[k], toks[k] * toks[k] / 4, 0.4);
        t[k][1] = mdl_stage_fwd(&m, &DEV, 0.7, &o, toks[k], toks[k] * toks[k] / 4, 0.4);
    }
    ck_assert_msg(t[0][0] > 1.2 * t[0][1], "64 tokens an expert: %.6g s shaped, %.6g s flat", t[0][0], t[0][1]);
    /* 4096 tokens an expert: AI ≈ 490, three times the ridge: within 3% */
    ck_assert(t[1][0] >= t[1][1] && t[1][0] < 1.03 * t[1][1]);
    /* the roofline option: that GEMM at full speed */
    scn_efficiency rf = on;
    rf.gemm_model = GEMM_ROOFLINE;
    mdl_stage c = mdl_stage_setup(&m, 1, 1, 1, &l, &l, NULL), o = c;
    mdl_stage_train(&c, &m, &DEV, &rf, RECOMPUTE_NONE);
    mdl_stage_train(&o, &m, &DEV, &off, RECOMPUTE_NONE);
    NEAR(mdl_stage_fwd(&m, &DEV, 0.7, &c, toks[1], toks[1] * toks[1] / 4, 0.4),
         mdl_stage_fwd(&m, &DEV, 0.7, &o, toks[1], toks[1] * toks[1] / 4, 0.4), 1e-12);
}
END_TEST

/* The LM head's vocab-parallel collectives sit on the last stage only:
** at PP2 TP8 the head's stage pays them, and at TP1 there are none. */
START_TEST(t_head_tp_collectives)
{
    scn_model m = dense7b();
    double tok = 2048, f, b, f0, b0, f1, b1, f10, b10;
    fb(&m, 8, 2, 1e30, RECOMPUTE_NONE, tok, &f0, &b0);
    fb(&m, 8, 2, 100e9, RECOMPUTE_NONE, tok, &f, &b);
    double act = tok * m.hidden * 2;
    double ar = 2 * 7.0 / 8 * act / 70e9 + 14 * 3e-6, ar4 = 2 * 7.0 / 8 * tok * 4 / 70e9 + 14 * 3e-6;
    double send = act / 8 / 70e9 + 3e-6;
    /* 14 layers a stage: the last (with the head) is the slowest */
    NEAR(f - f0, 14 * 2 * ar + send + 3 * ar4, 1e-9);
    NEAR(b - b0, 14 * 2 * ar + send + ar, 1e-9);
    /* TP1: no TP group, no head collective */
    fb(&m, 1, 2, 1e30, RECOMPUTE_NONE, tok, &f10, &b10);
    fb(&m, 1, 2, 100e9, RECOMPUTE_NONE, tok, &f1, &b1);
    NEAR(f1 - f10, tok * m.hidden * 2 / 70e9 + 3e-6, 1e-9);
    NEAR(b1 - b10, tok * m.hidden * 2 / 70e9 + 3e-6, 1e-9);
}
END_TEST

/* The gradient reduction and the optimizer take the heaviest stage's own
** parameters (the head's or the table's stage), not ⌈L/p⌉/L of all. */
START_TEST(t_tail_stage_share)
{
    scn_scenario s;
    memset(&s, 0, sizeof s);
    s.cluster = (scn_cluster){.devices_per_node = 8, .nodes_per_supernode = 1, .supernodes = 1,
                              .intra_node = {.bw = 100e9}, .intra_supernode = {.bw = 50e9},
                              .inter_supernode = {.bw = 25e9}, .device = DEV};
    s.eff = (scn_efficiency){.link = 1.0, .hbm = 0.8, .train = 0.4};
    s.plan.train.grad_dtype = GRAD_BF16;
    s.actor = dense7b();
    plan_pool q;
    memset(&q, 0, sizeof q);
    q.tp = q.ep = 1;
    q.pp = 4;
    q.dp = q.gdp = q.edp = 2;
    q.shard = q.eshard = 2;
    double a, r, g, o;
    plan_grad_allreduce(&s, &q, &s.actor, &a, &r);
    double psi = mdl_stage_dense_params(&s.actor, 4);
    NEAR(psi, 7 * s.actor.params_layer_dense + s.actor.vocab * (double)s.actor.hidden, 1e-12);
    NEAR(a, 2 * 0.5 * 2 * psi / 100e9, 1e-12);         /* a two-rank ring, BF16 parameters */
    ck_assert(psi > 1.1 * s.actor.params_dense * mdl_stage_share(28, 4));
    plan_train_tail(&s, &q, &s.actor, 4, 0, &g, &o);
    NEAR(g, a, 1e-12);                                  /* ZeRO-0, BF16 gradients: the all-reduce */
    NEAR(o, 30 * psi / (DEV.hbm_bw * 0.8), 1e-12);      /* Adam over the whole stage (ZeRO-0) */
}
END_TEST

/* A tied table under PP > 1 (Megatron-LM's finalize_model_grads,
** _allreduce_word_embedding_grads): the first stage's lookup and the last
** stage's head are one weight, whose gradient the two stages' ranks
** all-reduce after the backward: V·h/t at the gradients' width, once per
** mini-batch, in the tail the engine and the estimate share. */
START_TEST(t_tied_embedding_grad)
{
    scn_scenario s;
    memset(&s, 0, sizeof s);
    s.cluster = (scn_cluster){.devices_per_node = 8, .nodes_per_supernode = 2, .supernodes = 1,
                              .intra_node = {.bw = 100e9}, .intra_supernode = {.bw = 50e9},
                              .inter_supernode = {.bw = 25e9}, .device = DEV};
    s.eff = (scn_efficiency){.link = 1.0, .hbm = 0.8, .train = 0.4};
    s.plan.train.grad_dtype = GRAD_BF16;
    s.actor = dense7b();
    s.actor.tied_embeddings = true;
    scn_model_derive(&s.actor);
    double vh = (double)s.actor.vocab * s.actor.hidden;
    NEAR(mdl_tied_embedding_bytes(&s.actor, 2, 4, 2), vh, 1e-12);
    ck_assert(mdl_tied_embedding_bytes(&s.actor, 1, 1, 2) == 0);        /* one stage holds both */
    scn_model un = s.actor;
    un.tied_embeddings = false;
    ck_assert(mdl_tied_embedding_bytes(&un, 1, 4, 2) == 0);              /* two tables, two gradients */
    plan_pool q;
    memset(&q, 0, sizeof q);
    q.tp = q.ep = 1;
    q.pp = 4;
    q.dp = q.gdp = q.edp = 2;
    q.shard = q.eshard = 2;
    double a, r, g, o;
    plan_grad_allreduce(&s, &q, &s.actor, &a, &r);
    plan_train_tail(&s, &q, &s.actor, 4, 0, &g, &o);
    /* stages 0 and 3 are ranks 0 and 6 of one node: a two-rank ring of V·h·2 bytes */
    NEAR(g - a, 2 * 0.5 * 2 * vh / 100e9, 1e-9);
    /* TP2 on two nodes: the last stage starts at rank 2·2·3 = 12, across the
    ** nodes; each TP rank sends its V/2 shard */
    q.tp = 2;
    plan_grad_allreduce(&s, &q, &s.actor, &a, &r);
    plan_train_tail(&s, &q, &s.actor, 4, 0, &g, &o);
    double across = plan_allreduce_group(&s.cluster, &q, 0, 12, 2, vh, 1.0);
    ck_assert(across > vh / 100e9);
    NEAR(g - a, across, 1e-9);
    /* LoRA freezes the table: no gradient to reduce */
    s.plan.train.lora_rank = 8;
    double gl, ol;
    plan_train_tail(&s, &q, &s.actor, 4, 0, &gl, &ol);
    ck_assert(gl < g);
}
END_TEST

/* verl's balance per step (docs/model.md, section 7): the whole step
** balanced over DP 8, each rank's share cut into four mini-batches in
** order; every mini-batch waits for its most loaded rank, so training is
** slower than balancing each mini-batch, and the estimate's closed form
** (mdl_step_balance) follows the engine. */
static const char *BAL_SCN =
    "local f = fusync\n"
    "return { name = 'bal',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1,\n"
    "              host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { algorithm = 'grpo', prompts_per_step = 64, samples_per_prompt = 8, minibatches = 4,\n"
    "    prompt_len = f.dist.uniform(100, 600), response_len = f.dist.lognormal{ median = 1200, sigma = 0.9, cap = 8192 },\n"
    "    max_response = 8192, iterations = 2, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'colocate', rollout = { tp = 1, max_seqs = 64 },\n"
    "           train = { tp = 1, pp = 1, zero = 3, max_tokens = 10240 } },\n"
    "}\n";

/* BAL_SCN with one setting (or none): its run's report, and the plan the
** estimate reads. */
static void bal_run(const char *set, scn_scenario *sc, plan *pl, report *r)
{
    char *path = test_tmpfile(".lua", BAL_SCN);
    fs_err err = {0, ""};
    const char *sets[] = {set};
    ck_assert_msg(lscn_load(path, sets, set ? 1 : 0, sc, &err) && scn_validate(sc, &err), "%s", err.msg);
    unlink(path);
    free(path);
    sim *s = sim_new(sc, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert(sim_run(s));
    report_compute(s, r);
    ck_assert_msg(r->feasible, "%s", r->why);
    sim_free(s);
    ck_assert(plan_build(sc, pl, &err));
}

static double bal_train(const char *bal, double *est)
{
    scn_scenario sc;
    plan pl;
    report r;
    bal_run(bal, &sc, &pl, &r);
    est_lengths len;
    est_lengths_of(&sc.work, &len);
    *est = est_train_minibatch(&len, &sc, &pl.pools[pl.train_pool], &sc.actor);
    return r.phase_s[STEP_TRAIN];
}

START_TEST(t_step_balance)
{
    /* Blom's quantile of the largest of two normals, Φ⁻¹(1.625/2.25) ≈ 0.5894 */
    NEAR(mdl_step_balance(2, 4, 64, 1.0), 1 + 0.5894 * sqrt(0.75 / 64), 1e-4);
    NEAR(mdl_step_balance(1, 4, 64, 1.0), 1.0, 0);
    ck_assert(mdl_step_balance(32, 4, 64, 1.0) > mdl_step_balance(8, 4, 256, 1.0));
    double em, es;
    double tm = bal_train("plan.train.balance=minibatch", &em);
    double ts = bal_train("plan.train.balance=step", &es);
    ck_assert_msg(ts > 1.05 * tm, "step balance %.4g s, per mini-batch %.4g s", ts, tm);
    /* the estimate's excess within a factor of two of the engine's */
    double xe = es / em - 1, xs = ts / tm - 1;
    ck_assert_msg(xe > 0.5 * xs && xe < 2 * xs, "estimate +%.1f%%, engine +%.1f%%", 100 * xe, 100 * xs);
}
END_TEST

/* The log-prob forwards cut their own micro-batches (plan_logprob_budget;
** verl's log_prob_max_token_len_per_gpu, NeMo RL's logprob_batch_size):
** under ZeRO-3 each micro-batch gathers the parameters, so a log-prob
** budget a tenth of the training one makes the pass slower, in the engine
** and in the estimate alike, and the training phase does not move. */
static double lp_pass(const char *set, double *est, double *train)
{
    scn_scenario sc;
    plan pl;
    report r;
    bal_run(set, &sc, &pl, &r);
    *train = r.phase_s[STEP_TRAIN];
    est_lengths len;
    est_lengths_of(&sc.work, &len);
    *est = est_fwd_pass(&len, &sc, &pl.pools[pl.train_pool], &sc.actor);
    return r.infer_s[INF_LOGPROB];
}

START_TEST(t_logprob_budget)
{
    scn_scenario sc;
    memset(&sc, 0, sizeof sc);
    sc.plan.train.micro_batch = 2;
    int mbs = 0;
    ck_assert(plan_logprob_budget(&sc, 4, &mbs) == 0 && mbs == 2);
    sc.plan.train.max_tokens = 1000;
    ck_assert(plan_logprob_budget(&sc, 4, &mbs) == 4000);
    sc.plan.train.logprob_batch = 3;
    ck_assert(plan_logprob_budget(&sc, 4, &mbs) == 0 && mbs == 3);
    sc.plan.train.logprob_tokens = 1500;
    ck_assert(plan_logprob_budget(&sc, 1, &mbs) == 1500);
    double e0, e1, tr0, tr1;
    double t0 = lp_pass(NULL, &e0, &tr0);
    double t1 = lp_pass("plan.train.logprob_tokens=1024", &e1, &tr1);
    ck_assert_msg(t1 > 1.05 * t0, "log-prob pass %.4g s at a 1,024-token budget, %.4g s at 10,240", t1, t0);
    ck_assert_msg(e1 > 1.05 * e0, "estimate %.4g s at 1,024, %.4g s at 10,240", e1, e0);
    NEAR(tr1, tr0, 1e-9);
}
END_TEST

/* Megatron's pipeline split with the embedding and the loss counted as
** layers (account_for_embedding_in_pipeline_split, account_for_loss_in_
** pipeline_split; megatron/core/transformer/transformer_block.py,
** get_num_layers_to_build): (L + 2)/pp layers a stage, the first and the
** last one fewer.  Qwen2.5-7B's 28 layers on 6 stages: 4, 5, 5, 5, 5, 4.
** Under 1F1B stage g holds pp − g micro-batches, so the first holds 6 × 4
** layers' activations and the second 5 × 5, the peak; the even split
** (uneven_layers, ⌈28/6⌉ = 5 everywhere) 6 × 5. */
static const char *PPS_SCN =
    "local f = fusync\n"
    "return { name = 'pps',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 6, nodes_per_supernode = 1, supernodes = 1,\n"
    "              host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 32, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(512), response_len = f.dist.fixed(512), max_response = 512,\n"
    "    iterations = 2, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'full', rollout = { tp = 1, max_seqs = 64 },\n"
    "           train = { tp = 1, pp = 6, zero = 1, micro_batch = 2 } },\n"
    "}\n";

static bool pps_load(const char *const *sets, int n, scn_scenario *sc, plan *pl, fs_err *err)
{
    char *path = test_tmpfile(".lua", PPS_SCN);
    bool ok = lscn_load(path, sets, n, sc, err) && scn_validate(sc, err) && plan_build(sc, pl, err);
    unlink(path);
    free(path);
    return ok;
}

START_TEST(t_pp_split)
{
    ck_assert_int_eq(mdl_stage_layers(94, 8, 0, true, true), 11);
    ck_assert_int_eq(mdl_stage_layers(94, 8, 3, true, true), 12);
    ck_assert_int_eq(mdl_stage_layers(94, 8, 7, true, true), 11);
    ck_assert_int_eq(mdl_stage_layers(95, 8, 7, false, true), 11);
    ck_assert_int_eq(mdl_stage_layers(95, 8, 0, false, true), 12);
    ck_assert_int_eq(mdl_stage_layers(94, 8, 0, false, false), 12);
    ck_assert_int_eq(mdl_stage_layers(62, 2, 1, true, true), 31);
    const char *even[] = {"plan.train.uneven_layers=true"};
    const char *split[] = {"plan.train.pp_embedding_layer=true", "plan.train.pp_loss_layer=true"};
    scn_scenario a, b;
    plan pa, pb;
    fs_err err = {0, ""};
    ck_assert_msg(pps_load(even, 1, &a, &pa, &err), "%s", err.msg);
    ck_assert_msg(pps_load(split, 2, &b, &pb, &err), "%s", err.msg);
    NEAR(pb.pools[0].train_mem[MB_ACTIVATIONS], pa.pools[0].train_mem[MB_ACTIVATIONS] * 25.0 / 30.0, 1e-9);
    NEAR(plan_act_peak(&b, &pb.pools[0], 0), plan_act_peak(&a, &pa.pools[0], 0) * 24.0 / 30.0, 1e-9);
    /* the stage times follow the same split: 32 layers and the embedding
    ** on 3 stages are 10, 11 and 11 layers, so the last stage carries 11
    ** layers and the head where the even split's ⌊32/3⌋ gave it 10 */
    scn_model m = dense7b();
    m.layers = 32;
    scn_model_derive(&m);
    scn_link l = {.bw = 1e30};
    scn_efficiency e = {.train = 0.4, .hbm = 0.8, .gemm_shape = false};
    double tok = 4096, f1, f3, fe;
    mdl_stage c1 = mdl_stage_setup(&m, 1, 1, 1, &l, NULL, NULL);
    mdl_stage_train(&c1, &m, &DEV, &e, RECOMPUTE_NONE);
    f1 = mdl_stage_fb(&m, &DEV, 0.7, &c1, tok, tok * tok, 0.4, NULL);
    mdl_stage c3 = mdl_stage_setup(&m, 1, 3, 1, &l, NULL, &l);
    mdl_stage_train(&c3, &m, &DEV, &e, RECOMPUTE_NONE);
    fe = mdl_stage_fb(&m, &DEV, 0.7, &c3, tok, tok * tok, 0.4, NULL);
    mdl_stage_split(&c3, &m, true, false);
    ck_assert_int_eq((int)c3.lps, 11);
    ck_assert_int_eq((int)c3.lps_last, 11);
    f3 = mdl_stage_fb(&m, &DEV, 0.7, &c3, tok, tok * tok, 0.4, NULL);
    double headce = 2.0 * m.vocab * m.hidden * tok / (DEV.peak_flops * 0.4) + tok * m.vocab * 4.0 / (DEV.hbm_bw * 0.8);
    double lay = (f1 - headce) / 32;
    NEAR(f3, 11 * lay + headce, 1e-9);
    NEAR(fe, 10 * lay + headce, 1e-9);
    /* Megatron refuses a split pp does not divide: 28 + 1 on 6 stages */
    const char *one[] = {"plan.train.pp_loss_layer=true"};
    ck_assert(!pps_load(one, 1, &b, &pb, &err));
    ck_assert_msg(strstr(err.msg, "with the embedding and loss counted in") != NULL, "%s", err.msg);
}
END_TEST

static Suite *suite_train_shape(void)
{
    Suite *s = suite_create("train_shape");
    TCase *tc = tcase_create("train_shape");
    tcase_add_test(tc, t_bwd_comm_counted);
    tcase_add_test(tc, t_head_on_last_stage);
    tcase_add_test(tc, t_gemm_shape);
    tcase_add_test(tc, t_head_tp_collectives);
    tcase_add_test(tc, t_tail_stage_share);
    tcase_add_test(tc, t_tied_embedding_grad);
    tcase_add_test(tc, t_step_balance);
    tcase_add_test(tc, t_logprob_budget);
    tcase_add_test(tc, t_pp_split);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_train_shape)
