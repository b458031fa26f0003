/*
** test_vllm_profile.c — the KV cache vLLM gets (docs/model.md, section 3,
** "What vLLM's KV cache gets"): the device's capacity as CUDA reports it,
** the profile run's activation peak and the memory outside torch that vLLM
** takes out of gpu_memory_utilization × total before it sizes its KV cache,
** its refusal when nothing is left, plan.rollout.max_model_len, and the
** figures of docs/validation.md's table "The KV cache against vLLM's logs".
** Each test compares the mechanism against its counterfactual.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "model_mem.h"
#include "plan.h"
#include "presets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double GiB = 1073741824.0;

/* A vLLM engine alone on a pool of its own (nothing else on its devices,
** so the two mem_util scopes differ only in what vLLM counts), beside a
** training pool; %s: the model table, %d: TP, %s: the device preset, %d:
** max_model_len, %s: mem_util_scope. */
static const char *SCN =
    "local f = fusync\n"
    "local M = {\n"
    "  llama3_8b = f.models.llama3_1_8b,\n"
    "  llama2_7b = { name = 'Llama-2-7b', layers = 32, hidden = 4096, heads = 32, kv_heads = 32, head_dim = 128,\n"
    "                ffn = 11008, vocab = 32000, tied_embeddings = false },\n"
    "  llama2_70b = { name = 'Llama-2-70b', layers = 80, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128,\n"
    "                 ffn = 28672, vocab = 32000, tied_embeddings = false },\n"
    "  llama3_70b = f.models.llama3_1_70b, qwen25_7b = f.models.qwen2_5_7b, qwen3_235b = f.models.qwen3_235b_a22b,\n"
    "  qwen25_72b = { name = 'Qwen2.5-72B', layers = 80, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128,\n"
    "                 ffn = 29568, vocab = 152064, tied_embeddings = false },\n"
    "  mixtral = { name = 'Mixtral-8x7B', layers = 32, hidden = 4096, heads = 32, kv_heads = 8, head_dim = 128,\n"
    "              ffn = 14336, expert_ffn = 14336, experts = 8, experts_active = 2, shared_experts = 0,\n"
    "              vocab = 32000, tied_embeddings = false },\n"
    "}\n"
    "return { name = 'vllmlog',\n"
    "  cluster = { device = f.devices.%s, devices_per_node = 8, nodes = 1, host_mem_gb = 2048 },\n"
    "  models = { actor = M.%s, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 8, samples_per_prompt = 1, minibatches = 1, prompt_len = f.dist.fixed(128),\n"
    "               response_len = f.dist.fixed(128), max_response = 128, iterations = 1, warmup = 0 },\n"
    "  plan = { mode = 'separate',\n"
    "           rollout = { tp = %d, mem_util = 0.9, max_seqs = 256, max_model_len = %d, mem_util_scope = '%s' },\n"
    "           train = { tp = 1, zero = 3 },\n"
    "           pools = { { name = 'vllm', devices = %d, roles = { 'rollout' } },\n"
    "                     { name = 'train', devices = %d, roles = { 'train' } } } },\n"
    "}\n";

static void load_log(const char *dev, const char *model, int tp, int mml, const char *scope,
                     const char *const *sets, int n, scn_scenario *sc, plan *pl)
{
    char text[4096];
    snprintf(text, sizeof text, SCN, dev, model, tp, mml, scope, tp, 8 - tp);
    test_plan_text(text, sets, n, sc, pl);
}

/* The profile run's peak from the model's shape: Llama-3-8B over 8,192
** tokens and 256 requests.  The sampler's whole-vocabulary rows (gathered
** over TP) set it at TP 1 and 2 alike on the PyTorch path, as vLLM pull
** request 10511's log has the same activation peak at both; FlashInfer's
** sampler holds 14 bytes an entry, and then the TP-1 forward's MLP
** transients are the larger. */
START_TEST(t_profile_peak)
{
    const scn_model *m = presets_model_find("llama3_1_8b");
    ck_assert_ptr_nonnull(m);
    double T = 8192, S = 256, h = 4096, f = 14336, V = 128256;
    double hid = T * h * 2;
    double fwd1 = T * (2 * h + 3 * f) * 2, fwd2 = T * (2 * h + 3 * f / 2) * 2;
    double sort = hid + S * V * 24, fi = hid + S * V * 14;
    ck_assert_double_gt(sort, fwd1);
    ck_assert_double_eq_tol(mdl_vllm_profile_peak(m, 1, T, 256, true), sort, 1);
    ck_assert_double_eq_tol(mdl_vllm_profile_peak(m, 2, T, 256, true), sort, 1);
    ck_assert_double_eq_tol(mdl_vllm_profile_peak(m, 1, T, 256, false), fwd1, 1);
    ck_assert_double_eq_tol(mdl_vllm_profile_peak(m, 2, T, 256, false), fi > fwd2 ? fi : fwd2, 1);
    /* fewer tokens than requests: one request a token */
    ck_assert_double_eq_tol(mdl_vllm_profile_peak(m, 1, 100, 256, true), 100 * h * 2 + 100 * V * 24, 1);
    ck_assert_double_eq(mdl_vllm_profile_peak(m, 1, 0, 256, true), 0);
    /* the memory outside torch, by what the budget counts */
    ck_assert_double_eq_tol(mdl_vllm_non_torch(MEMSCOPE_DEVICE, 1), 1.79 * GiB, 1);
    ck_assert_double_eq_tol(mdl_vllm_non_torch(MEMSCOPE_DEVICE, 2), 3.58 * GiB, 1);
    ck_assert_double_eq_tol(mdl_vllm_non_torch(MEMSCOPE_INSTANCE, 1), 0.16 * GiB, 1);
    ck_assert_double_eq_tol(mdl_vllm_non_torch(MEMSCOPE_INSTANCE, 4), 0.20 * GiB, 1);
}
END_TEST

/* The plan takes the profile out of the engine's share: the KV cache is
** mem_util × the capacity CUDA reports (79.22 GiB for the H100 preset) less
** the weights, the activation peak and the memory outside torch, and the
** tokens follow it; the kv_cache bucket keeps the whole reservation (the
** engine's share less its weights).  An SGLang engine sets nothing aside. */
START_TEST(t_profile_in_plan)
{
    scn_scenario sc, sg;
    plan pl, pg;
    load_log("h100", "llama3_8b", 1, 8192, "instance", NULL, 0, &sc, &pl);
    const plan_pool *q = &pl.pools[0];
    ck_assert_str_eq(q->name, "vllm");
    ck_assert_double_eq_tol(q->capacity, 79.22 * GiB, 1);
    double rw = plan_rollout_weights(&sc);
    double prof = mdl_vllm_profile_peak(&sc.actor, 1, 8192, 256, false) + 0.16 * GiB;
    ck_assert_double_eq_tol(q->engine_profile, prof, 1);
    ck_assert_double_eq_tol(q->kv_bytes, 0.9 * 79.22 * GiB - rw - prof, 1);
    ck_assert_double_eq_tol(q->rollout_mem[MB_KV_CACHE], 0.9 * 79.22 * GiB - rw, 1);
    ck_assert_double_eq_tol(q->kv_tokens_per_instance, q->kv_bytes / sc.actor.kv_bytes_per_token, 1e-6);
    const char *sgl[] = {"plan.rollout.engine=sglang"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", sgl, 1, &sg, &pg);
    ck_assert_double_eq(pg.pools[0].engine_profile, 0);
    ck_assert_double_eq_tol(pg.pools[0].kv_bytes, pg.pools[0].rollout_mem[MB_KV_CACHE], 1);
    ck_assert_double_gt(pg.pools[0].kv_tokens_per_instance, q->kv_tokens_per_instance);
    /* the profile's tokens: max_num_batched_tokens, or max(max_model_len, 2048) */
    ck_assert_double_eq(plan_profile_tokens(&sc), 8192);
    const char *chunk[] = {"plan.rollout.max_batched_tokens=4096"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", chunk, 1, &sg, &pg);
    ck_assert_double_eq(plan_profile_tokens(&sg), 4096);
    ck_assert_double_eq_tol(pg.pools[0].engine_profile,
                            mdl_vllm_profile_peak(&sg.actor, 1, 4096, 256, false) + 0.16 * GiB, 1);
    load_log("h100", "llama3_8b", 1, 1000, "instance", NULL, 0, &sg, &pg);
    ck_assert_double_eq(plan_max_model_len(&sg), 1000);
    ck_assert_double_eq(plan_profile_tokens(&sg), 2048);
    load_log("h100", "llama3_8b", 1, 0, "instance", NULL, 0, &sg, &pg);
    ck_assert_double_eq(plan_max_model_len(&sg), 256);            /* the prompt's 128 + max_response */
}
END_TEST

/* The device's capacity as CUDA reports it: cuda_total_gb, the data
** sheet's hbm_gb when it is not given, and never more than hbm_gb. */
START_TEST(t_cuda_total)
{
    scn_scenario sc;
    plan pl;
    load_log("a100_80g", "llama3_8b", 1, 8192, "instance", NULL, 0, &sc, &pl);
    ck_assert_double_eq_tol(pl.pools[0].capacity, 79.25 * GiB, 1);
    ck_assert_double_eq_tol(pl.pools[0].engine_share, 0.9 * 79.25 * GiB, 1);
    load_log("h20", "llama3_8b", 1, 8192, "instance", NULL, 0, &sc, &pl);
    ck_assert_double_eq_tol(pl.pools[0].capacity, sc.cluster.device.hbm_bytes, 1);
    /* a preset's hbm_gb set below its measured total caps it; one above it
    ** leaves the measurement */
    const char *less[] = {"cluster.device.hbm_gb=40"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", less, 1, &sc, &pl);
    ck_assert_double_eq_tol(pl.pools[0].capacity, 40 * GiB, 1);
    const char *total[] = {"cluster.device.cuda_total_gb=70"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", total, 1, &sc, &pl);
    ck_assert_double_eq_tol(pl.pools[0].capacity, 70 * GiB, 1);
    const char *none[] = {"cluster.device.cuda_total_gb=0"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", none, 1, &sc, &pl);
    ck_assert_double_eq_tol(pl.pools[0].capacity, 80 * GiB, 1);
}
END_TEST

/* vLLM refuses to start when the profile leaves nothing for the cache
** ("No available memory for the cache blocks"), a start-up failure; the
** same share without the profile (SGLang) fits. */
START_TEST(t_no_cache_blocks)
{
    scn_scenario sc;
    plan pl;
    load_log("h100", "llama3_8b", 1, 8192, "instance", NULL, 0, &sc, &pl);
    const plan_pool *q = &pl.pools[0];
    /* a share 0.3 GiB over the weights: short of the profile's ~0.9 GiB */
    char mu[64];
    snprintf(mu, sizeof mu, "plan.rollout.mem_util=%.6f", (plan_rollout_weights(&sc) + 0.3 * GiB) / q->capacity);
    ck_assert_double_gt(q->engine_profile, 0.3 * GiB);
    const char *tight[] = {mu};
    load_log("h100", "llama3_8b", 1, 8192, "instance", tight, 1, &sc, &pl);
    ck_assert(!pl.fits);
    ck_assert_double_le(pl.pools[0].kv_bytes, 0);
    ck_assert_double_eq(pl.pools[0].kv_tokens_per_instance, 0);
    ck_assert_msg(strstr(pl.fit_msg, "pool 'vllm' while starting the engine: vLLM start-up: no available memory "
                                     "for the cache blocks") != NULL, "%s", pl.fit_msg);
    const char *sgl[] = {mu, "plan.rollout.engine=sglang", "plan.rollout.max_model_len=0"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", sgl, 3, &sc, &pl);
    ck_assert_msg(pl.fits, "%s", pl.fit_msg);
}
END_TEST

/* docs/validation.md, "The KV cache against vLLM's logs": fusync's KV cache
** a device for each published log, GiB, and OpenRLHF 336's row refusing to
** start for its reason (7,408 tokens an instance under max_model_len 8,192). */
START_TEST(t_logs_table)
{
    static const struct { const char *dev, *model; int tp, mml; double kv; } rows[] = {
        {"h100", "llama3_8b", 1, 8192, 53.75},       /* vLLM pull request 10511, TP 1: 53.29 */
        {"h100", "llama3_8b", 2, 8192, 59.44},       /* TP 2: 58.97 */
        {"a100_80g", "llama2_7b", 1, 4096, 56.67},   /* vLLM pull request 2031: 7,351 blocks, 57.43 */
        {"a100_80g", "llama2_70b", 4, 4096, 35.34},  /* 20,865 blocks, 25.47 */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        scn_scenario sc;
        plan pl;
        load_log(rows[i].dev, rows[i].model, rows[i].tp, rows[i].mml, "device", NULL, 0, &sc, &pl);
        ck_assert_msg(fabs(pl.pools[0].kv_bytes / GiB - rows[i].kv) < 0.005, "row %zu: %.4f GiB", i,
                      pl.pools[0].kv_bytes / GiB);
    }
    /* vLLM issue 10517: Llama-3.1-8B on an RTX 3090 (CUDA's 23.58 GiB from
    ** the log) at 20,000 and 29,000 tokens: 3.81 and 2.89 GiB in vLLM's log;
    ** the profile's forward 102,400 bytes a token */
    const char *rtx[] = {"cluster.device.hbm_gb=24", "cluster.device.cuda_total_gb=23.58"};
    static const struct { int mml; double kv, act; } r3090[] = {{20000, 2.57, 1.91}, {29000, 1.71, 2.77}};
    for (size_t i = 0; i < 2; i++) {
        scn_scenario sc;
        plan pl;
        load_log("h100", "llama3_8b", 1, r3090[i].mml, "device", rtx, 2, &sc, &pl);
        ck_assert_msg(fabs(pl.pools[0].kv_bytes / GiB - r3090[i].kv) < 0.005, "3090 row %zu: %.4f GiB", i,
                      pl.pools[0].kv_bytes / GiB);
        double fwd = mdl_vllm_profile_peak(&sc.actor, 1, r3090[i].mml, 256, true);
        ck_assert_double_eq_tol(fwd, r3090[i].mml * 102400.0, 1);
        ck_assert_double_eq_tol(fwd / GiB, r3090[i].act, 0.005);
    }
    /* vLLM 0.19.0 (V1, the engine's own budget) on H100, CUDA's 79.19 GiB,
    ** gpu_memory_utilization 0.95, the API server's max_num_batched_tokens
    ** 8,192 and max_num_seqs 1,024, max_model_len 8,192: llm-d-planner's
    ** accuracy sweep (github.com/llm-d-incubation/llm-d-planner, commit
    ** d3121e059da8, accuracy/results/v0.19.0/logs/), "Available KV cache
    ** memory" in the comments */
    const char *v1[] = {"plan.rollout.mem_util=0.95", "plan.rollout.max_seqs=1024",
                        "plan.rollout.max_batched_tokens=8192", "cluster.device.cuda_total_gb=79.19",
                        "plan.rollout.weights_dtype=fp8"};
    static const struct { const char *model; int tp; bool fp8; double kv; } v19[] = {
        {"llama3_8b", 1, false, 58.34},  /* 58.11 */
        {"qwen25_7b", 1, false, 58.80},  /* 58.53 */
        {"llama3_8b", 2, false, 65.78},  /* 63.76 */
        {"qwen25_7b", 2, false, 65.85},  /* 63.84 */
        {"llama3_8b", 4, false, 69.52},  /* 67.44 */
        {"qwen25_7b", 4, false, 69.40},  /* 67.34 */
        {"qwen25_72b", 2, false, 5.16},  /* 3.04 */
        {"qwen25_72b", 4, false, 39.02}, /* Kimi-Dev-72B (Qwen2ForCausalLM): 36.72 */
        {"llama3_70b", 2, true, 39.35},  /* Llama-3.3-70B-Instruct-fp8-dynamic: 37.28 */
        {"llama3_70b", 4, true, 56.27},  /* 54.09 */
        {"mixtral", 2, false, 30.75},    /* 28.44 */
    };
    for (size_t i = 0; i < sizeof v19 / sizeof v19[0]; i++) {
        scn_scenario sc;
        plan pl;
        load_log("h100", v19[i].model, v19[i].tp, 8192, "instance", v1, v19[i].fp8 ? 5 : 4, &sc, &pl);
        ck_assert_msg(fabs(pl.pools[0].kv_bytes / GiB - v19[i].kv) < 0.005, "v0.19 row %zu: %.4f GiB", i,
                      pl.pools[0].kv_bytes / GiB);
    }
    /* vLLM issue 21348 (V1, July 2025): Qwen3-235B-A22B-FP8 at TP 4 on H100,
    ** gpu_memory_utilization 0.9, the model's 40,960 positions: 8.11 GiB */
    {
        const char *q235[] = {"plan.rollout.max_seqs=1024", "plan.rollout.max_batched_tokens=8192",
                              "plan.rollout.weights_dtype=fp8"};
        scn_scenario sc;
        plan pl;
        load_log("h100", "qwen3_235b", 4, 40960, "instance", q235, 3, &sc, &pl);
        ck_assert_msg(fabs(pl.pools[0].kv_bytes / GiB - 13.97) < 0.005, "issue 21348: %.4f GiB",
                      pl.pools[0].kv_bytes / GiB);
    }
    scn_scenario sc;
    plan pl;
    fs_err err = {0, ""};
    const char *row = "examples/validation/feasibility/openrlhf_llama3_70b_ppo_16xa100_issue336.lua";
    ck_assert_msg(lscn_load(row, NULL, 0, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    const plan_pool *q = &pl.pools[0];
    ck_assert_double_eq_tol(q->kv_bytes / GiB, 1.13, 0.005);
    ck_assert_double_eq_tol(q->engine_profile / GiB, 4.49, 0.005);
    ck_assert_double_eq(floor(q->kv_tokens_per_instance), 7408);
    ck_assert_msg(strstr(pl.fit_msg, "pool 'vllm' while starting the engine: vLLM start-up: max_model_len 8192 "
                                     "tokens > the 7408 tokens") != NULL, "%s", pl.fit_msg);
}
END_TEST

/* docs/model.md, section 3, "A KV cache given in bytes": vLLM's
** kv_cache_memory_bytes (plan.rollout.kv_cache_gb) is the KV cache a device
** whatever mem_util leaves, the profile's memory held beside it; vLLM's
** start-up checks still apply (gpu_worker.py init_device's free-memory
** check, kv_cache_utils.py's max_model_len check), and the field is refused
** off vLLM's per-instance budget. */
START_TEST(t_kv_bytes)
{
    scn_scenario sc, s0;
    plan pl, p0;
    load_log("h100", "llama3_8b", 1, 8192, "instance", NULL, 0, &s0, &p0);
    const char *kv20[] = {"plan.rollout.kv_cache_gb=20"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", kv20, 1, &sc, &pl);
    const plan_pool *q = &pl.pools[0], *q0 = &p0.pools[0];
    ck_assert_double_gt(q0->kv_bytes, 40 * GiB);                  /* sized from mem_util: ~61 GiB */
    ck_assert_double_eq_tol(q->kv_bytes, 20 * GiB, 1);
    ck_assert_double_eq_tol(q->engine_profile, q0->engine_profile, 1);
    ck_assert_double_eq_tol(q->rollout_mem[MB_KV_CACHE], 20 * GiB + q->engine_profile, 1);
    ck_assert_double_eq_tol(q->kv_tokens_per_instance, 20 * GiB / sc.actor.kv_bytes_per_token, 1e-6);
    ck_assert_double_eq_tol(q->engine_share, q0->engine_share, 1);
    ck_assert_msg(pl.fits, "%s", pl.fit_msg);
    ck_assert_double_lt(q->peak, q0->peak);
    /* a cache shorter than one max_model_len sequence: 0.5 GiB is 4,096 tokens */
    const char *small[] = {"plan.rollout.kv_cache_gb=0.5"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", small, 1, &sc, &pl);
    ck_assert(!pl.fits);
    ck_assert_msg(strstr(pl.fit_msg, "vLLM start-up: max_model_len 8192 tokens > the 4096 tokens") != NULL, "%s",
                  pl.fit_msg);
    /* more than the device holds: the generating peak overflows */
    const char *big[] = {"plan.rollout.kv_cache_gb=75"};
    load_log("h100", "llama3_8b", 1, 8192, "instance", big, 1, &sc, &pl);
    ck_assert(!pl.fits);
    ck_assert_msg(strstr(pl.fit_msg, "pool 'vllm' while receiving weights") != NULL, "%s", pl.fit_msg);
    /* co-located: init_device still asks mem_util × total free at start-up */
    fs_err err = {0, ""};
    const char *row = "examples/validation/feasibility/nemo_llama31_8b_8xh100_fp8_rollouts.lua";
    ck_assert_msg(lscn_load(row, NULL, 0, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_double_eq_tol(sc.plan.rollout.kv_cache_bytes, 20 * GiB, 1);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    ck_assert_double_eq_tol(pl.pools[0].kv_bytes, 20 * GiB, 1);
    ck_assert_msg(pl.fits, "%s", pl.fit_msg);
    const char *greedy[] = {"plan.rollout.mem_util=1"};
    ck_assert_msg(lscn_load(row, greedy, 1, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    ck_assert_double_eq_tol(pl.pools[0].kv_bytes, 20 * GiB, 1);
    ck_assert(!pl.fits);
    ck_assert_msg(strstr(pl.fit_msg, "vLLM start-up: free") != NULL, "%s", pl.fit_msg);
    /* another engine, or the device-wide budget of vLLM before 0.9.1: refused */
    const char *sgl[] = {"plan.rollout.kv_cache_gb=20", "plan.rollout.engine=sglang"};
    const char *dev[] = {"plan.rollout.kv_cache_gb=20", "plan.rollout.mem_util_scope=device"};
    const char *const *bad[] = {sgl, dev};
    for (int i = 0; i < 2; i++) {
        err = (fs_err){0, ""};
        ck_assert(!(lscn_load(row, bad[i], 2, &sc, &err) && scn_validate(&sc, &err)));
        ck_assert_msg(strstr(err.msg, "plan.rollout.kv_cache_gb") != NULL, "%s", err.msg);
    }
}
END_TEST

/* docs/model.md, section 8, "The KV cache sized before the optimizer's
** states exist" (verl pull request 1349): a device-scope vLLM co-located
** with a trainer whose Adam moments come at the first step() sizes its
** cache without them; kept on the device through generation, they overflow
** it from step 2.  No effect under the instance scope, with the optimizer
** offloaded, or with the states made at construction. */
static const char *LAZY =
    "local f = fusync\n"
    "return { name = 'lazy',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes = 1, host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.llama3_1_8b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 32, samples_per_prompt = 8, minibatches = 1, prompt_len = f.dist.fixed(512),\n"
    "               response_len = f.dist.fixed(1024), max_response = 1024, iterations = 2, warmup = 0 },\n"
    "  plan = { mode = 'full', offload = { optimizer = false },\n"
    "           rollout = { tp = 1, mem_util = 0.9, max_seqs = 256, mem_util_scope = 'device' },\n"
    "           train = { tp = 1, zero = 3, micro_batch = 1, recompute = 'full' } },\n"
    "}\n";

static void load_lazy(const char *const *sets, int n, scn_scenario *sc, plan *pl)
{
    test_plan_text(LAZY, sets, n, sc, pl);
}

START_TEST(t_lazy_states)
{
    scn_scenario sc, s0;
    plan pl, p0;
    load_lazy(NULL, 0, &s0, &p0);
    const char *lazy[] = {"plan.train.lazy_states=true"};
    load_lazy(lazy, 1, &sc, &pl);
    const plan_pool *q = &pl.pools[0], *q0 = &p0.pools[0];
    ck_assert_msg(p0.fits, "%s", p0.fit_msg);
    ck_assert_double_eq(q0->lazy_states, 0);
    /* FSDP's FP32 layout: the optimizer bucket is the moments alone */
    ck_assert_double_gt(q->rollout_mem[MB_OPTIMIZER], 7 * GiB);
    ck_assert_double_eq_tol(q->lazy_states, q->rollout_mem[MB_OPTIMIZER], 1);
    ck_assert_double_eq_tol(q->kv_bytes, q0->kv_bytes + q->lazy_states, 1);
    ck_assert_double_eq_tol(q->peak, q0->peak + q->lazy_states * (1 + sc.plan.alloc_reserve), 1e3);
    ck_assert(!pl.fits);
    ck_assert_msg(strstr(pl.fit_msg, "pool 'all' while generating: ") != NULL
                  && strstr(pl.fit_msg, "from step 2 (vLLM sized its KV cache before the optimizer's first step") != NULL,
                  "%s", pl.fit_msg);
    /* a master created at construction (BF16 gradients: 12 bytes, 4 of them the master) */
    const char *bf16[] = {"plan.train.lazy_states=true", "plan.train.grad_dtype=bf16"};
    load_lazy(bf16, 2, &sc, &pl);
    ck_assert_double_eq_tol(pl.pools[0].lazy_states, pl.pools[0].rollout_mem[MB_OPTIMIZER] * 8 / 12, 1);
    const char *inst[] = {"plan.train.lazy_states=true", "plan.rollout.mem_util_scope=instance"};
    const char *off[] = {"plan.train.lazy_states=true", "plan.offload.optimizer=true"};
    const char *const *none[] = {inst, off};
    for (int i = 0; i < 2; i++) {
        load_lazy(none[i], 2, &sc, &pl);
        ck_assert_double_eq(pl.pools[0].lazy_states, 0);
    }
}
END_TEST

static Suite *vllm_profile_suite(void)
{
    Suite *s = suite_create("vllm_profile");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, t_profile_peak);
    tcase_add_test(tc, t_profile_in_plan);
    tcase_add_test(tc, t_cuda_total);
    tcase_add_test(tc, t_no_cache_blocks);
    tcase_add_test(tc, t_logs_table);
    tcase_add_test(tc, t_kv_bytes);
    tcase_add_test(tc, t_lazy_states);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(vllm_profile_suite)
