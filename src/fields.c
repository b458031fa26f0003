/*
** fields.c — the table of the scenario format (see fields.h), lookups over
** it, a field-by-field comparison and the listing behind `fusync fields` and
** docs/scenarios.md.
**
** Ranges are what the model can take without overflow or nonsense, checked
** before any arithmetic; cross-field rules (pp divides the layers, pools fit
** the cluster …) stay in scn_validate().  Units: the file's unit is what a
** person writes (GB, GB/s, ms); `scale` turns it into SI (bytes, B/s, s).
**
** Past 900 lines because it is one table, the format's every field with its
** range and help text; split, the listing and docs/scenarios.md would be
** assembled from pieces.
*/
#include "fields.h"
#include "plan.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GiB (1024.0 * 1024.0 * 1024.0)
#define MiB (1024.0 * 1024.0)

const char *const DIST_NAMES[] = {"fixed", "uniform", "lognormal", "histogram", NULL};

static const char *const ALGO_NAMES[] = {"grpo", "ppo", NULL};
static const int ALGO_VALS[] = {ALGO_GRPO, ALGO_PPO};
static const char *const MODE_NAMES[] = {"separate", "colocate", "full", NULL};
static const int MODE_VALS[] = {MODE_SEPARATE, MODE_COLOCATE, MODE_FULL};
static const char *const WHERE_NAMES[] = {"packed", "spread", "spread_nodes", NULL};
static const int WHERE_VALS[] = {WHERE_PACKED, WHERE_SPREAD, WHERE_SPREAD_NODES};
static const char *const RECOMPUTE_NAMES[] = {"none", "selective", "full", NULL};
static const int RECOMPUTE_VALS[] = {RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL};
static const char *const CP_KIND_NAMES[] = {"ring", "ulysses", NULL};
static const int CP_KIND_VALS[] = {CP_RING, CP_ULYSSES};
static const char *const MOE_DISP_NAMES[] = {"alltoall", "allgather", "flex", NULL};
static const int MOE_DISP_VALS[] = {MOE_DISP_ALLTOALL, MOE_DISP_ALLGATHER, MOE_DISP_FLEX};
static const char *const GEMM_MODEL_NAMES[] = {"smooth", "roofline", NULL};
static const int GEMM_MODEL_VALS[] = {GEMM_SMOOTH, GEMM_ROOFLINE};
static const char *const SYNC_MODEL_NAMES[] = {"gather", "ideal", NULL};
static const int SYNC_MODEL_VALS[] = {SYNC_GATHER, SYNC_IDEAL};
static const char *const GRAD_DTYPE_NAMES[] = {"fp32", "bf16", NULL};
static const int GRAD_DTYPE_VALS[] = {GRAD_FP32, GRAD_BF16};
static const char *const ATTENTION_NAMES[] = {"fused", "materialized", NULL};
static const int ATTENTION_VALS[] = {ATTN_FUSED, ATTN_MATERIALIZED};
static const char *const MLP_NAMES[] = {"gated", "gelu", NULL};
static const int MLP_VALS[] = {MLP_GATED, MLP_GELU};
static const char *const LOGITS_NAMES[] = {"fp32", "eager", NULL};
static const int LOGITS_VALS[] = {LOGITS_FP32, LOGITS_EAGER};
static const char *const ENTROPY_NAMES[] = {"compiled", "eager", "chunked", "compiled_fp32", NULL};
static const int ENTROPY_VALS[] = {ENTROPY_COMPILED, ENTROPY_EAGER, ENTROPY_CHUNKED, ENTROPY_COMPILED_FP32};
static const char *const GRADBUF_NAMES[] = {"persistent", "step", "host", NULL};
static const int GRADBUF_VALS[] = {GRADS_PERSISTENT, GRADS_STEP, GRADS_HOST};
static const char *const PADDING_NAMES[] = {"none", "longest", NULL};
static const int PADDING_VALS[] = {PAD_NONE, PAD_LONGEST};
static const char *const BALANCE_NAMES[] = {"minibatch", "step", NULL};
static const int BALANCE_VALS[] = {BAL_MINIBATCH, BAL_STEP};
static const char *const LORA_TARGETS_NAMES[] = {"all-linear", "attention", NULL};
static const int LORA_TARGETS_VALS[] = {LORA_ALL_LINEAR, LORA_ATTENTION};
static const char *const AUX_SHARD_NAMES[] = {"auto", "none", "zero3", NULL};
static const int AUX_SHARD_VALS[] = {AUX_SHARD_AUTO, AUX_SHARD_NONE, AUX_SHARD_ZERO3};
static const char *const ONUPDATE_NAMES[] = {"continue", "restart", NULL};
static const int ONUPDATE_VALS[] = {ONUPD_CONTINUE, ONUPD_RESTART};
static const char *const CONTROLLER_NAMES[] = {"queue", "driver", NULL};
static const int CONTROLLER_VALS[] = {CTRL_QUEUE, CTRL_DRIVER};
static const char *const ONSTALE_NAMES[] = {"wait", "discard", NULL};
static const int ONSTALE_VALS[] = {STALE_WAIT, STALE_DISCARD};
static const char *const COLL_NAMES[] = {"nccl", "ring", "tree", "flat", NULL};
static const int COLL_VALS[] = {COLL_NCCL, COLL_RING, COLL_TREE, COLL_FLAT};
static const char *const DISPATCH_NAMES[] = {"balanced", "queue", "static", NULL};
static const int DISPATCH_VALS[] = {DISPATCH_BALANCED, DISPATCH_QUEUE, DISPATCH_STATIC};
static const char *const KV_NAMES[] = {"paged", "reserve", NULL};
static const int KV_VALS[] = {KV_PAGED, KV_RESERVE};
static const char *const PREEMPT_NAMES[] = {"recompute", "swap", NULL};
static const int PREEMPT_VALS[] = {PREEMPT_RECOMPUTE, PREEMPT_SWAP};
static const char *const ENGINE_NAMES[] = {"vllm", "sglang", "hybrid", "eager", NULL};
static const int ENGINE_VALS[] = {ENGINE_VLLM, ENGINE_SGLANG, ENGINE_HYBRID, ENGINE_EAGER};
static const char *const SLEEP_NAMES[] = {"discard", "offload", "none", NULL};
static const char *const PARAMS_NAMES[] = {"none", "after_reshard", "before_reshard", NULL};
static const int PARAMS_VALS[] = {PARAMS_RESIDENT, PARAMS_AFTER_RESHARD, PARAMS_BEFORE_RESHARD};
/* an enum whose names include "true" and "false" takes Lua's booleans (fields_lua.c) */
static const char *const AUXOFF_NAMES[] = {"false", "true", "auto", NULL};
static const int AUXOFF_VALS[] = {AUX_OFFLOAD_DEVICE, AUX_OFFLOAD_HOST, AUX_OFFLOAD_AUTO};
static const int SLEEP_VALS[] = {SLEEP_DISCARD, SLEEP_OFFLOAD, SLEEP_NONE};
static const char *const MEMSCOPE_NAMES[] = {"instance", "device", NULL};
static const int MEMSCOPE_VALS[] = {MEMSCOPE_INSTANCE, MEMSCOPE_DEVICE};
static const char *const DTYPE_NAMES[] = {"bf16", "fp8", NULL};
static const int DTYPE_VALS[] = {DTYPE_BF16, DTYPE_FP8};
static const char *const KVDTYPE_NAMES[] = {"bf16", "fp8", "auto", NULL};   /* vLLM's "auto": the model's BF16 */
static const int KVDTYPE_VALS[] = {DTYPE_BF16, DTYPE_FP8, DTYPE_BF16};
static const char *const FP8RECIPE_NAMES[] = {"delayed", "tensorwise", "blockwise", NULL};
static const int FP8RECIPE_VALS[] = {FP8_DELAYED, FP8_TENSORWISE, FP8_BLOCKWISE};

/* Row builders.  S is the enclosing struct, M the member. */
#define MEM(S, M)   offsetof(S, M), sizeof(((S *)0)->M)
#define INT(n, S, M, lo, hi, u, d)      {n, FK_INT, MEM(S, M), 1, lo, hi, 0, NULL, NULL, NULL, FC_ROWS, u, d}
#define INTF(n, S, M, lo, hi, fl, u, d) {n, FK_INT, MEM(S, M), 1, lo, hi, fl, NULL, NULL, NULL, FC_ROWS, u, d}
#define NUM(n, S, M, sc, lo, hi, fl, u, d) {n, FK_NUM, MEM(S, M), sc, lo, hi, fl, NULL, NULL, NULL, FC_ROWS, u, d}
#define BOOL(n, S, M, d)                {n, FK_BOOL, MEM(S, M), 1, 0, 1, 0, NULL, NULL, NULL, FC_ROWS, NULL, d}
#define STR(n, S, M, d)                 {n, FK_STR, MEM(S, M), 1, 0, 0, 0, NULL, NULL, NULL, FC_ROWS, NULL, d}
#define ENUM(n, S, M, names, vals, d)   {n, FK_ENUM, MEM(S, M), 1, 0, 0, 0, names, vals, NULL, FC_ROWS, NULL, d}
/* A record whose members sit directly in the enclosing struct (offset 0). */
#define FLAT(n, sub, cd, d)             {n, FK_REC, 0, 0, 1, 0, 0, 0, NULL, NULL, sub, cd, NULL, d}
#define REC(n, S, M, sub, d)            {n, FK_REC, MEM(S, M), 1, 0, 0, 0, NULL, NULL, sub, FC_ROWS, NULL, d}
#define END {NULL, FK_INT, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL, FC_ROWS, NULL, NULL}

/* A fraction in (0, 1]; below 0.001 no figure of the model means anything
** (an efficiency of 1e-300 makes every time infinite). */
#define FRACN(n, S, M, d) {n, FK_NUM, MEM(S, M), 1, 1e-3, 1, FF_LO_OPEN, NULL, NULL, NULL, FC_ROWS, NULL, d}

const fdesc FIELDS_DEVICE[] = {
    STR("name", scn_device, name, "display name (default \"custom device\")"),
    NUM("tflops", scn_device, peak_flops, 1e12, 1e-3, 1e7, FF_REQUIRED, "TFLOP/s", "dense BF16 peak, TFLOP/s"),
    NUM("fp8_tflops", scn_device, fp8_flops, 1e12, 0, 1e7, 0, "TFLOP/s",
        "dense FP8 peak, TFLOP/s, for FP8 rollout weights (plan.rollout.weights_dtype) and FP8 training "
        "(plan.train.precision); 0: no FP8 tensor cores"),
    NUM("hbm_gb", scn_device, hbm_bytes, GiB, 1e-3, 1e6, FF_REQUIRED, "GiB", "device memory, GiB"),
    NUM("cuda_total_gb", scn_device, cuda_total_bytes, GiB, 0, 1e6, 0, "GiB",
        "device memory as CUDA reports it (torch.cuda.mem_get_info's total, vLLM's total_gpu_memory), what "
        "vLLM's gpu_memory_utilization is a share of, and every pool's capacity (0, or above hbm_gb: hbm_gb)"),
    NUM("hbm_tbps", scn_device, hbm_bw, 1e12, 1e-6, 1e4, FF_REQUIRED, "TB/s", "device memory bandwidth, TB/s"),
    NUM("scaleup_gbps", scn_device, scaleup_bw, 1e9, 1e-3, 1e7, FF_REQUIRED, "GB/s",
        "scale-up link per device, one way, GB/s (NVLink, HCCS, UB)"),
    NUM("scaleout_gbps", scn_device, scaleout_bw, 1e9, 1e-3, 1e7, FF_REQUIRED, "GB/s",
        "scale-out NIC per device, GB/s (InfiniBand, RoCE)"),
    NUM("host_gbps", scn_device, host_bw, 1e9, 1e-3, 1e7, FF_REQUIRED, "GB/s", "device↔host link, one way peak, GB/s (PCIe)"),
    END
};

static const fdesc FIELDS_LINK[] = {
    NUM("gbps", scn_link, bw, 1e9, 1e-3, 1e7, 0, "GB/s", "one way per device"),
    NUM("latency_us", scn_link, latency_s, 1e-6, 0, 1e6, 0, "us", "per collective step"),
    END
};

static const fdesc FIELDS_LINKS[] = {
    REC("intra_node", scn_cluster, intra_node, FIELDS_LINK,
        "tier 0 (default: the device's scale-up link, 2 us)"),
    REC("intra_supernode", scn_cluster, intra_supernode, FIELDS_LINK,
        "tier 1 (default: the device's scale-out NIC, 5 us)"),
    REC("inter_supernode", scn_cluster, inter_supernode, FIELDS_LINK,
        "tier 2 (default: the device's scale-out NIC, 10 us)"),
    END
};

static const fdesc FIELDS_CLUSTER[] = {
    {"device", FK_DEVICE, MEM(scn_cluster, device), 1, 0, 0, FF_REQUIRED | FF_NO_PLACE, NULL, NULL,
     FIELDS_DEVICE, FC_DEVICE, NULL, "the accelerator, one kind for the whole cluster"},
    INT("devices_per_node", scn_cluster, devices_per_node, 1, 1024, NULL, "accelerators per node (share a host)"),
    INT("nodes_per_supernode", scn_cluster, nodes_per_supernode, 1, 65536, NULL,
        "nodes joined by the intra-supernode tier"),
    INT("supernodes", scn_cluster, supernodes, 1, 4096, NULL, "supernodes joined by the inter-supernode tier"),
    INT("nodes", scn_cluster, nodes, 0, 65536, NULL,
        "a cluster without supernodes: its nodes, joined by the intra_supernode tier (the scale-out "
        "network); sets nodes_per_supernode = nodes and supernodes = 1 (0: not used)"),
    NUM("host_mem_gb", scn_cluster, host_mem_bytes, GiB, 1e-3, 1e8, 0, "GiB", "host memory per node (offload target)"),
    NUM("host_mem_gbps", scn_cluster, host_mem_bw, 1e9, 1e-3, 1e6, 0, "GB/s",
        "host memory bandwidth per node the CPU optimizer achieves (plan.train.optimizer_offload), shared by the node's devices"),
    FLAT("links", FIELDS_LINKS, FC_LINKS, "bandwidth and latency of the three link tiers"),
    INT("devices_per_host_link", scn_cluster, devices_per_host_link, 1, 1024, NULL,
        "devices sharing one host uplink (a PCIe switch's); transfers every device makes at once (a co-located switch's offload and onload, full co-location's model loads) get host_gbps ÷ this each (1: a link per device)"),
    NUM("scaleout_oversubscription", scn_cluster, scaleout_oversub, 1, 1, 1024, 0, NULL,
        "scale-out (inter_supernode) fabric oversubscription: a collective in which every device crosses supernodes at once gets inter_supernode bandwidth ÷ this per device (1: non-blocking, every NIC at full rate)"),
    INT("devices_per_nic", scn_cluster, devices_per_nic, 1, 1024, NULL,
        "devices sharing one scale-out NIC (the intra_supernode and inter_supernode tiers' bandwidth is one NIC's); flows every device of a node makes at once across nodes (gradient and ZeRO collectives, weight sync, reshard, DistQueue reads) get the tier's bandwidth ÷ this each (1: a NIC per device)"),
    ENUM("collectives", scn_cluster, collectives, COLL_NAMES, COLL_VALS,
         "how a collective whose group spans nodes is priced (docs/model.md, section 2): \"nccl\" the cheaper of ring and tree for its size, as NCCL's tuner picks, the node's NICs driven as parallel rails; \"ring\" or \"tree\" always that one; \"flat\" one ring in which every step pays the slowest tier at one device's bandwidth (the model before rails and hierarchy)"),
    END
};

const fdesc FIELDS_MODEL[] = {
    STR("name", scn_model, name, "display name"),
    INTF("layers", scn_model, layers, 1, 4096, FF_REQUIRED, NULL, "num_hidden_layers (MTP layers not counted)"),
    INT("dense_layers", scn_model, dense_layers, 0, 4096, NULL, "MoE: leading dense layers (first_k_dense_replace)"),
    INTF("hidden", scn_model, hidden, 1, 1 << 20, FF_REQUIRED, NULL, "hidden_size"),
    INTF("heads", scn_model, heads, 1, 65536, FF_REQUIRED, NULL, "num_attention_heads"),
    INT("kv_heads", scn_model, kv_heads, 0, 65536, NULL, "num_key_value_heads (GQA); ignored with MLA"),
    INT("head_dim", scn_model, head_dim, 0, 65536, NULL, "head_dim (Qwen3: 128 ≠ hidden/heads); MLA: qk_nope_head_dim = v_head_dim"),
    INT("mla_latent", scn_model, mla_latent, 0, 1 << 20, NULL, "MLA kv_lora_rank"),
    INT("mla_rope", scn_model, mla_rope, 0, 65536, NULL, "MLA qk_rope_head_dim"),
    INT("mla_q_latent", scn_model, mla_q_latent, 0, 1 << 20, NULL, "MLA q_lora_rank"),
    INT("ffn", scn_model, ffn, 0, 1 << 22, NULL, "intermediate_size of dense layers (required for a dense model)"),
    INT("expert_ffn", scn_model, expert_ffn, 0, 1 << 22, NULL, "moe_intermediate_size (required for MoE)"),
    INT("experts", scn_model, experts, 0, 65536, NULL, "routed experts (num_experts, n_routed_experts)"),
    INT("experts_active", scn_model, experts_active, 0, 65536, NULL, "routed experts per token (num_experts_per_tok)"),
    INT("shared_experts", scn_model, shared_experts, 0, 1024, NULL, "n_shared_experts"),
    INTF("vocab", scn_model, vocab, 1, 1 << 24, FF_REQUIRED, NULL, "vocab_size"),
    BOOL("tied_embeddings", scn_model, tied_embeddings, "tie_word_embeddings"),
    INT("max_positions", scn_model, max_positions, 0, 1 << 30, "tokens",
        "max_position_embeddings: the longest sequence the model takes; verl passes it to vLLM as max_model_len "
        "when rollout.max_model_len is unset (docs/model.md, section 3; 0: not known, no effect)"),
    ENUM("mlp", scn_model, mlp, MLP_NAMES, MLP_VALS,
         "the MLP's shape: gated (SwiGLU/GeGLU: gate and up projections of width ffn, then down; hidden_act silu or "
         "gelu with gate_proj) or gelu (one up projection of width ffn and the down one, GPT-2/3); sets the parameters "
         "and the activations the backward keeps (docs/model.md, section 3)"),
    NUM("dropout", scn_model, dropout, 1, 0, 0.99, 0, NULL,
        "dropout probability in training (Megatron hidden_dropout / attention_dropout); > 0: the dropout masks are "
        "kept for the backward, h bytes a token twice a layer, and 3·a·s more a token under materialised attention; "
        "0 (the default: every RL framework trains with dropout off): none"),
    END
};

static const fdesc FIELDS_MODELS[] = {
    {"actor", FK_MODEL, MEM(scn_scenario, actor), 1, 0, 0, FF_REQUIRED, NULL, NULL, FIELDS_MODEL,
     FC_ROWS, NULL, "the policy being trained and generating rollouts"},
    {"reference", FK_MODEL, MEM(scn_scenario, ref), 1, 0, 0, 0, NULL, NULL, FIELDS_MODEL,
     FC_ROWS, NULL, "frozen reference for the KL term; true = same as the actor; false/absent: no reference forward"},
    {"reward", FK_MODEL, MEM(scn_scenario, reward), 1, 0, 0, 0, NULL, NULL, FIELDS_MODEL,
     FC_ROWS, NULL, "a rule-based reward (cost efficiency.reward_rule_ms per sample, off-device) or a reward model's forward"},
    {"critic", FK_MODEL, MEM(scn_scenario, critic), 1, 0, 0, 0, NULL, NULL, FIELDS_MODEL,
     FC_ROWS, NULL, "value model; PPO needs one"},
    END
};

static const fdesc FIELDS_NUM_ELEM[] = {{"", FK_NUM, 0, sizeof(double), 1, 0, 1e9, 0, NULL, NULL, NULL,
                                         FC_ROWS, NULL, NULL}, END};

const fdesc FIELDS_DIST[] = {
    {"kind", FK_STR, 0, 0, 1, 0, 0, 0, DIST_NAMES, NULL, NULL, FC_ROWS, NULL,
     "fixed, uniform, lognormal or histogram"},
    NUM("value", scn_dist, a, 1, 1, FLD_TOKENS_MAX, 0, "tokens", "fixed: the length"),
    NUM("lo", scn_dist, a, 1, 1, FLD_TOKENS_MAX, 0, "tokens", "uniform: lowest"),
    NUM("hi", scn_dist, b, 1, 1, FLD_TOKENS_MAX, 0, "tokens", "uniform: highest"),
    NUM("median", scn_dist, a, 1, 1, FLD_TOKENS_MAX, 0, "tokens", "lognormal: median"),
    NUM("mean", scn_dist, a, 1, 1, FLD_TOKENS_MAX, 0, "tokens",
        "lognormal: the mean instead of the median (median = mean * exp(-sigma^2/2), before the cap)"),
    NUM("sigma", scn_dist, b, 1, 0, 5, 0, NULL, "lognormal: sigma of the log"),
    NUM("cap", scn_dist, cap, 1, 0, FLD_TOKENS_MAX, 0, "tokens", "clip lengths to [1, cap] (0: none)"),
    {"edges", FK_ARR, 0, 0, 1, 0, 0, 0, NULL, NULL, FIELDS_NUM_ELEM, FC_ROWS, "tokens",
     "histogram: bin edges, increasing"},
    {"weights", FK_ARR, 0, 0, 1, 0, 0, 0, NULL, NULL, FIELDS_NUM_ELEM, FC_ROWS, NULL,
     "histogram: bin weights"},
    END
};

static const fdesc FIELDS_WORKLOAD[] = {
    ENUM("algorithm", scn_workload, algo, ALGO_NAMES, ALGO_VALS, "PPO needs models.critic"),
    INT("prompts_per_step", scn_workload, prompts_per_step, 1, FLD_PROMPTS_MAX, NULL, "prompts in one RL step (global batch)"),
    INT("samples_per_prompt", scn_workload, samples_per_prompt, 1, 4096, NULL, "responses generated per prompt (group size)"),
    INT("minibatches", scn_workload, minibatches, 1, 1 << 20, NULL, "optimizer steps per epoch; must divide prompts·samples"),
    INT("epochs", scn_workload, epochs, 1, 1024, NULL, "passes over a step's samples"),
    {"prompt_len", FK_DIST, MEM(scn_workload, prompt_len), 1, 0, 0, 0, NULL, NULL, FIELDS_DIST,
     FC_DIST, "tokens", "prompt length, tokens"},
    {"response_len", FK_DIST, MEM(scn_workload, response_len), 1, 0, 0, 0, NULL, NULL, FIELDS_DIST,
     FC_DIST, "tokens", "response length, tokens, before max_response"},
    INT("max_response", scn_workload, max_response, 1, FLD_TOKENS_MAX, "tokens", "hard cap on a response (the generation limit)"),
    NUM("response_growth", scn_workload, response_growth, 1, -0.5, 1, 0, "per step",
        "drift of the response lengths: step t draws from response_len scaled by (1 + g)^t, before its cap and max_response (0: every step alike)"),
    INT("iterations", scn_workload, iterations, 1, FLD_ITERATIONS_MAX, NULL, "RL steps simulated"),
    INT("warmup", scn_workload, warmup, 0, FLD_ITERATIONS_MAX - 1, NULL, "leading steps left out of the measured window"),
    {"seed", FK_INT, MEM(scn_workload, seed), 1, 0, 9007199254740991.0, 0, NULL, NULL, NULL, FC_ROWS,
     NULL, "random seed of the length sampling"},
    BOOL("recompute_logprob", scn_workload, recompute_logprob, "an actor forward for the old log-probs (verl style)"),
    BOOL("batch_per_supernode", scn_workload, batch_per_supernode,
         "prompts_per_step counts per supernode: --set cluster.supernodes=N grows the global batch N times (weak scaling)"),
    END
};

static const fdesc FIELDS_ROLE_ELEM[] = {{"", FK_STR, 0, 0, 1, 0, 0, 0, plan_role_names, NULL, NULL, FC_ROWS,
                                          NULL, NULL}, END};

/* a pool's ranges: a list of {first, last} device numbers (the pools' reader reads them) */
static const fdesc FIELDS_DEVNUM_ELEM[] = {{"", FK_INT, 0, sizeof(int), 1, 0, FLD_DEVICES_MAX - 1, 0, NULL, NULL, NULL,
                                            FC_ROWS, NULL, NULL}, END};
static const fdesc FIELDS_RANGE_ELEM[] = {{"", FK_ARR, 0, 0, 1, 2, 2, 0, NULL, NULL, FIELDS_DEVNUM_ELEM, FC_ROWS,
                                           NULL, NULL}, END};

const fdesc FIELDS_POOL[] = {
    STR("name", scn_pool, name, "default pool1, pool2, …"),
    INTF("devices", scn_pool, devices, 1, FLD_DEVICES_MAX, 0, NULL, "devices in the pool (required unless ranges gives them); the pools' sum must not exceed the cluster"),
    ENUM("where", scn_pool, where, WHERE_NAMES, WHERE_VALS, "placement of a pool without ranges: the lowest devices no other pool holds (packed), the same share of every supernode (spread: devices = 192 on two supernodes is the first 96 free devices of each), or of every node (spread_nodes)"),
    {"ranges", FK_ARR, 0, 0, 1, 1, SCN_RANGES_MAX, 0, NULL, NULL, FIELDS_RANGE_ELEM, FC_ROWS, NULL,
     "explicit devices: a list of inclusive {first, last} device numbers, e.g. {{0, 95}, {384, 479}}; placed before the other pools"},
    {"roles", FK_ARR, 0, 0, 1, 0, 0, FF_REQUIRED, plan_role_names, NULL, FIELDS_ROLE_ELEM, FC_ROWS, NULL,
     "what runs there: \"rollout\", \"train\" (actor training and old log-probs), \"ref\" (or \"reference\"), \"reward\", \"critic\""},
    {"device", FK_DEVICE, MEM(scn_pool, device), 1, 0, 0, 0, NULL, NULL, FIELDS_DEVICE, FC_OPT_DEVICE, NULL,
     "the pool's accelerator, a preset name (\"h20\") or a device table, when it is not cluster.device; such a pool "
     "lives on whole nodes of its own (absent: cluster.device)"},
    END
};
static const fdesc FIELDS_POOL_ELEM[] = {{"", FK_REC, 0, sizeof(scn_pool), 1, 0, 0, 0, NULL, NULL,
                                          FIELDS_POOL, FC_ROWS, NULL, NULL}, END};

static const fdesc FIELDS_TRAIN[] = {
    INT("tp", scn_train_layout, tp, 1, FLD_PARALLEL_MAX, NULL, "tensor parallel; divides the heads"),
    INT("pp", scn_train_layout, pp, 1, FLD_PARALLEL_MAX, NULL, "pipeline stages; divides the layers"),
    INT("ep", scn_train_layout, ep, 1, FLD_PARALLEL_MAX, NULL, "expert parallel; divides the experts (1 for a dense model)"),
    INT("etp", scn_train_layout, etp, 0, FLD_PARALLEL_MAX, NULL,
        "expert tensor parallel (Megatron's expert_tensor_parallel_size): each routed expert's matrices split over etp ranks, "
        "the experts of a stage over ep·etp devices, expert DP = tp·cp·dp / (ep·etp); 0 or absent: tp, as Megatron-Core "
        "sets it when unset"),
    ENUM("moe_dispatcher", scn_train_layout, moe_dispatcher, MOE_DISP_NAMES, MOE_DISP_VALS,
         "Megatron-Core's moe_token_dispatcher_type: \"alltoall\" (the routed copies all-to-all over the EP group, "
         "all-gathered over the expert-TP group), \"allgather\" (every token of the ep·etp group all-gathered, "
         "reduce-scattered back; the gathered tokens held in a buffer) or \"flex\" (DeepEP: one all-to-all over the "
         "ep·etp group, each token sent once to each rank that holds one of its experts)"),
    INT("dp", scn_train_layout, dp, 0, FLD_PARALLEL_MAX, NULL, "data parallel; 0 or absent: the pool size / (tp·pp·cp)"),
    INT("cp", scn_train_layout, cp, 1, FLD_PARALLEL_MAX, NULL, "context (sequence) parallel: each sequence split over cp ranks (activations and attention ÷ cp); devices = tp·pp·cp·dp"),
    ENUM("cp_kind", scn_train_layout, cp_kind, CP_KIND_NAMES, CP_KIND_VALS,
         "how context-parallel attention sees the whole sequence: \"ring\" (Megatron context parallelism, ring attention: K/V blocks passed round the ring, hidden behind the block attention) or \"ulysses\" (DeepSpeed-Ulysses: four all-to-alls of Q, K, V and the output a layer; cp must divide the heads per TP rank)"),
    INT("micro_batch", scn_train_layout, micro_batch, 1, 1 << 16, "sequences", "sequences per micro-batch"),
    ENUM("recompute", scn_train_layout, recompute, RECOMPUTE_NAMES, RECOMPUTE_VALS,
         "activation recomputation"),
    INT("zero", scn_train_layout, zero, 0, 3, NULL, "ZeRO stage of the distributed optimizer (3: FSDP, parameters sharded and gathered per micro-batch)"),
    INT("shard_group", scn_train_layout, shard_group, 0, FLD_PARALLEL_MAX, NULL, "HSDP: the data-parallel ranks one ZeRO shard spans, replicated across the groups (FSDP's fsdp_size); divides dp; 0: all of DP"),
    NUM("overlap", scn_train_layout, overlap, 1, 0, 1, 0, NULL, "share of ZeRO-2/3's per-micro-batch all-gathers and reduce-scatters hidden behind compute (prefetching); 0: all exposed"),
    NUM("overlap_tp", scn_train_layout, overlap_tp, 1, 0, 1, 0, NULL, "share of the TP all-reduces run concurrently with the stage's GEMMs (Megatron's --tp-comm-overlap, async TP), hidden while the compute lasts; 0: serial, Megatron's default"),
    NUM("overlap_ep", scn_train_layout, overlap_ep, 1, 0, 1, 0, NULL, "share of the EP dispatch/combine all-to-alls run concurrently with expert compute (DualPipe, Megatron's EP overlap), hidden while the compute lasts; 0: serial, Megatron's default"),
    NUM("overlap_grad", scn_train_layout, overlap_grad, 1, 0, 1, 0, NULL, "share of the end-of-mini-batch gradient reduction run in buckets during the last micro-batch's backward (Megatron's --overlap-grad-reduce, DDP's bucketed hooks), hidden while that backward lasts; 0: after the pipeline, Megatron's default"),
    ENUM("grad_dtype", scn_train_layout, grad_dtype, GRAD_DTYPE_NAMES, GRAD_DTYPE_VALS,
         "dtype gradients are accumulated and data-parallel reduced in: fp32 (Megatron-LM's default main grads, "
         "4 bytes a parameter held and reduced) or bf16 (2 bytes)"),
    ENUM("attention", scn_train_layout, attention, ATTENTION_NAMES, ATTENTION_VALS,
         "the attention kernel under recompute = \"none\": fused (FlashAttention, the default of every RL framework's "
         "training stack: no score matrix held) or materialized (the softmax of the a·s² scores kept for the backward, "
         "2·a·s bytes a token; 5·a·s with dropout, Korthikanti et al.'s term)"),
    NUM("optimizer_offload", scn_train_layout, optimizer_offload, 1, 0, 1, 0, NULL,
        "share of the optimizer states and FP32 master weights held in host memory for the whole run and stepped on the "
        "host's cores (DeepSpeed CPU Adam, OpenRLHF --adam_offload, FSDP CPU offload: 1; Megatron's optimizer_cpu_offload "
        "with optimizer_offload_fraction); gradients go down and parameters come up over the host link every step; 0: none"),
    INT("max_tokens", scn_train_layout, max_tokens, 0, 1 << 30, "tokens",
        "token-budget micro-batches: a micro-batch holds as many sequences as fit in this many tokens per device (verl "
        "use_dynamic_bsz + ppo_max_token_len_per_gpu, OpenRLHF max_tokens_per_gpu, NeMo RL dynamic batching); the "
        "activations are reserved for this many tokens; 0: micro_batch counts sequences"),
    ENUM("padding", scn_train_layout, padding, PADDING_NAMES, PADDING_VALS,
         "how a micro-batch's sequences are laid out: none (packed, remove-padding: each at its real length) or longest "
         "(every sequence padded to the micro-batch's longest, as a framework without remove-padding does)"),
    ENUM("balance", scn_train_layout, balance, BALANCE_NAMES, BALANCE_VALS,
         "how a step's sequences reach the DP ranks: minibatch (each mini-batch token-balanced over the ranks) or step "
         "(verl's balance_batch: the whole step balanced in equal counts, each rank's share cut into mini-batches in "
         "order, so a mini-batch waits for its most loaded rank); step applies without streaming"),
    INT("lora_rank", scn_train_layout, lora_rank, 0, 4096, NULL,
        "LoRA on the actor (Hu et al., arXiv 2106.09685; verl actor_rollout_ref.model.lora_rank): adapters of this rank "
        "are trained, r·(d_in + d_out) parameters an adapted matrix, with their gradients and optimizer states; the base "
        "is frozen, held as the actor's parameters are, and serves as the reference (verl's ref_in_actor); 0: every "
        "parameter trained"),
    ENUM("lora_targets", scn_train_layout, lora_targets, LORA_TARGETS_NAMES, LORA_TARGETS_VALS,
         "the matrices the LoRA adapters sit on: all-linear (every linear layer of the blocks, the LM head left out: "
         "PEFT's and verl's target_modules = all-linear) or attention (the q, k, v and output projections)"),
    INT("logprob_batch", scn_train_layout, logprob_batch, 0, 1 << 16, "sequences",
        "sequences one log-prob forward (old policy, reference) takes at once: NeMo RL logprob_batch_size, verl "
        "log_prob_micro_batch_size_per_gpu; its logits are held for that many sequences; 0: micro_batch"),
    INT("logprob_chunk", scn_train_layout, logprob_chunk, 0, 1 << 30, "tokens",
        "a chunked log-softmax (NeMo RL logprob_chunk_size): the FP32 copies of the logits exist for this many "
        "positions of each sequence at a time, the BF16 logits whole; 0: not chunked"),
    ENUM("logits", scn_train_layout, logits, LOGITS_NAMES, LOGITS_VALS,
         "the log-prob's copies of the logits, a vocabulary entry a token: fp32 (one FP32 copy, 4 bytes: a fused or "
         "Triton cross-entropy, verl's flash-attn path, Liger) or eager (BF16 logits, their FP32 upcast, the "
         "log-softmax's shifted copy and output: 2 + 3·4 bytes, as NeMo RL's DistributedLogprob holds them; 2 + 2·4 "
         "under TP 1, torch's log_softmax)"),
    ENUM("entropy", scn_train_layout, entropy, ENTROPY_NAMES, ENTROPY_VALS,
         "how the token entropy over the vocabulary is taken from the logits where entropy_loss or logprob_entropy "
         "asks for it: compiled (verl's entropy_from_logits under torch.compile, its remove-padding default: nothing "
         "beyond the LM head's backward's own copies with its gradient, none without), eager (the same function "
         "eager: 2 bytes an entry with the gradient, the softmax and its product 4 without) or chunked "
         "(entropy_from_logits_with_chunking, FP32 chunks of 2048 rows: 6 bytes with the gradient, 12 for 2048 "
         "tokens without) or compiled_fp32 (OpenRLHF's torch.compile'd compute_entropy over the FP32 logits: its FP32 "
         "gradient beside the loss's, 4 bytes an entry with the gradient, none without)"),
    BOOL("entropy_loss", scn_train_layout, entropy_loss,
         "the actor's loss takes the entropy with its gradient (verl's update_policy with entropy_coeff != 0 or "
         "calculate_entropy): its tensors at the last stage beside the logits, its passes over the vocabulary"),
    BOOL("logprob_entropy", scn_train_layout, logprob_entropy,
         "the actor's old-log-prob pass takes the entropy, no gradient (verl's compute_log_prob, calculate_entropy = "
         "not LoRA): its working set beside the pass's logits"),
    ENUM("grad_buffer", scn_train_layout, grad_buffer, GRADBUF_NAMES, GRADBUF_VALS,
         "how long the gradients live: persistent (allocated once for the run: Megatron's contiguous gradient "
         "buffer) or step (from a step's first backward to the zero_grad after its last optimizer step: PyTorch's "
         "set_to_none, as verl's and NeMo RL's FSDP workers call it); with step the log-prob passes, the switch "
         "and generation hold no gradients; or host (with plan.train.optimizer_offload: the offloaded share's "
         "gradients reduced straight to host memory, DeepSpeed ZeRO-Offload, FSDP2 CPUOffloadPolicy; the device "
         "holds the rest)"),
    BOOL("lazy_states", scn_train_layout, lazy_states,
         "the optimizer's Adam moments are created at its first step() (PyTorch's Adam, torch/optim/adam.py "
         "_init_group, under verl's and NeMo RL's FSDP and Megatron workers), not at construction (DeepSpeed's ZeRO "
         "optimizers, initialize_optimizer_states: OpenRLHF); with plan.rollout.mem_util_scope = \"device\" a "
         "co-located vLLM sizes its KV cache before they exist, and a plan that keeps them on the device through "
         "generation holds them beside it from step 2 (docs/model.md, section 8, verl pull request 1349)"),
    BOOL("empty_cache_before_wake", scn_train_layout, empty_cache_before_wake,
         "the trainer calls torch.cuda.empty_cache() between training and a co-located vLLM's wake (verl's "
         "rollout_mode, aggressive_empty_cache; NeMo RL's offload_before_refit; OpenRLHF's fit), as the frameworks "
         "do today; false: PyTorch's caching allocator keeps the training phase's peak reserved, which vLLM's "
         "CuMemAllocator cannot reuse, beside the waking engine (the trainer_cache bucket; docs/model.md, section 8, "
         "verl pull request 575)"),
    ENUM("precision", scn_train_layout, precision, DTYPE_NAMES, DTYPE_VALS,
         "the training layers' linear GEMMs (docs/model.md, section 7, FP8 training): bf16, or fp8 (Transformer Engine "
         "under Megatron-Core: NeMo RL megatron_cfg.fp8_cfg.enabled, verl override_transformer_config.fp8): those GEMMs "
         "at the device's fp8_tflops times efficiency.train_fp8, attention, norms, LM head and optimizer as in BF16, the "
         "casts' HBM traffic added, an FP8 copy of the weights held, the linear layers' saved inputs in FP8"),
    ENUM("fp8_recipe", scn_train_layout, fp8_recipe, FP8RECIPE_NAMES, FP8RECIPE_VALS,
         "FP8 training's scaling (Megatron-Core fp8_recipe): delayed (amax history, the default; the cast reads and "
         "writes once), tensorwise (current scaling: an amax pass before each cast), blockwise (1×128 activation and "
         "128×128 weight blocks, an FP32 scale each)"),
    BOOL("fp8_param", scn_train_layout, fp8_param,
         "FP8 training: the linear weights held in FP8 (Megatron-Core fp8_param, NeMo RL fp8_cfg.fp8_param) in place "
         "of the BF16 copy beside which Transformer Engine caches an FP8 one; the FP32 master and the gradients as before"),
    INT("logprob_tokens", scn_train_layout, logprob_tokens, 0, 1 << 30, "tokens",
        "token budget of one log-prob forward a device (verl log_prob_use_dynamic_bsz with "
        "log_prob_max_token_len_per_gpu, NeMo RL logprob_mb_tokens, OpenRLHF rollout.max_tokens_per_gpu); its logits "
        "are held for that many tokens; 0: logprob_batch sequences, or max_tokens when that is set"),
    BOOL("logprob_unshard", scn_train_layout, logprob_unshard,
         "the log-prob forwards (old policy, reference) run with the whole model gathered on each device at once, "
         "2·P/(tp·pp) beside the shards, as NeMo RL's DTensor v1 worker does (unshard_fsdp2_model around "
         "get_logprobs); ZeRO-3 only, not with the v2 worker (policy.dtensor_cfg._v2)"),
    BOOL("uneven_layers", scn_train_layout, uneven_layers, "allow a pp that does not divide the layers: stages of ⌈L/pp⌉ and ⌊L/pp⌋ layers; the heaviest paces the pipeline and sets the memory peak"),
    BOOL("pp_embedding_layer", scn_train_layout, pp_embedding_layer,
         "the input embedding counts as a layer in the pipeline split (Megatron account_for_embedding_in_pipeline_split): "
         "(L + this + pp_loss_layer) / pp layers a stage, the first one fewer; pp must divide that sum"),
    BOOL("pp_loss_layer", scn_train_layout, pp_loss_layer,
         "the loss counts as a layer in the pipeline split (Megatron account_for_loss_in_pipeline_split): the last stage "
         "holds one transformer layer fewer"),
    END
};

static const fdesc FIELDS_ROLLOUT[] = {
    INT("tp", scn_rollout_layout, tp, 1, FLD_PARALLEL_MAX, NULL, "tensor parallel of one inference instance"),
    INT("ep", scn_rollout_layout, ep, 1, FLD_PARALLEL_MAX, NULL, "expert parallel; an instance spans max(tp, ep) devices, one a multiple of the other"),
    INT("max_seqs", scn_rollout_layout, max_seqs, 1, FLD_SEQS_MAX, NULL, "concurrent sequences per instance (also limited by KV-cache memory)"),
    FRACN("mem_util", scn_rollout_layout, mem_util, "share of HBM the inference engine may use (vLLM gpu_memory_utilization; what it is a share of: mem_util_scope)"),
    ENUM("mem_util_scope", scn_rollout_layout, mem_scope, MEMSCOPE_NAMES, MEMSCOPE_VALS,
         "what mem_util is a share of (docs/model.md, section 8): instance (vLLM's V1 worker from pull request 18974, "
         "v0.9.1: the engine takes mem_util × HBM for its weights and KV cache whatever else the device holds, and "
         "refuses to start when less than that is free) or device (the V1 worker before it: the whole device, other "
         "processes' memory inside the share, the KV cache what is left)"),
    ENUM("dispatch", scn_rollout_layout, dispatch, DISPATCH_NAMES, DISPATCH_VALS,
         "how samples reach instances: each to the instance with the fewest outstanding sequences (balanced), one shared queue filled in instance order (queue), or the batch cut into equal parts per instance up front (static)"),
    ENUM("kv", scn_rollout_layout, kv, KV_NAMES, KV_VALS,
         "KV-cache admission: paged (admit on the context held, grow block by block, preempt the newest sequences when full) or reserve (prompt + max_response held from admission, never full)"),
    INT("kv_block", scn_rollout_layout, kv_block, 1, 65536, "tokens", "paged KV: tokens per block"),
    ENUM("preempt", scn_rollout_layout, preempt, PREEMPT_NAMES, PREEMPT_VALS,
         "paged KV, cache full: the preempted sequence's context is recomputed (prefilled again) on readmission, or swapped to host memory and back over the host link"),
    NUM("speed_spread", scn_rollout_layout, speed_spread, 1, 0, 2, 0, NULL,
        "stragglers: each instance's decode and prefill times are multiplied by exp(spread·z), z a seeded standard normal per instance (0: every instance alike)"),
    NUM("ep_imbalance", scn_rollout_layout, ep_imbalance, 1, 0, 4, 0, NULL,
        "expert-routing imbalance: coefficient of variation of the tokens each EP rank receives; the busiest rank, 1 + cv·sqrt(2 ln ep) times the mean, sets the step (0: uniform routing)"),
    INT("spec_tokens", scn_rollout_layout, spec_tokens, 0, 16, "tokens",
        "speculative decoding or multi-token prediction: draft tokens k verified per decode step, a step k + 1 tokens wide yielding 1 + α + … + α^k tokens (0: none)"),
    NUM("spec_accept", scn_rollout_layout, spec_accept, 1, 0, 1, 0, NULL,
        "speculative decoding: acceptance rate α of each draft token (used when spec_tokens > 0)"),
    ENUM("engine", scn_rollout_layout, engine, ENGINE_NAMES, ENGINE_VALS,
         "the inference engine, for the decode step's fixed cost (docs/model.md, section 5): kernel launches per layer, CUDA graphs, scheduler and sampler CPU time per sequence; vllm, sglang (overlapped scheduler), hybrid (a DeepSpeed-style hybrid engine: eager kernels, a Python generate loop) or eager (vLLM under enforce_eager)"),
    BOOL("cuda_graphs", scn_rollout_layout, cuda_graphs,
         "decode steps of at most graph_max_batch sequences replay captured CUDA graphs (false: enforce_eager; the hybrid and eager engines never capture)"),
    INT("graph_max_batch", scn_rollout_layout, graph_max_batch, 0, FLD_SEQS_MAX, "sequences",
        "largest batch captured as a CUDA graph; larger steps launch eagerly (0: the engine's default, 512 for vllm and sglang)"),
    INT("max_model_len", scn_rollout_layout, max_model_len, 0, FLD_TOKENS_MAX, "tokens",
        "vLLM's max_model_len: the engine refuses to start when its KV cache holds fewer tokens, and profiles "
        "max(max_model_len, 2048) tokens without chunked prefill (0: the prompt's cap + max_response)"),
    INT("max_batched_tokens", scn_rollout_layout, max_batched_tokens, 0, FLD_TOKENS_MAX, "tokens",
        "chunked prefill (vLLM max_num_batched_tokens, SGLang chunked_prefill_size): tokens one engine step carries, "
        "one per decoding sequence and the rest prefill chunks riding on the decode step; must exceed max_seqs "
        "(0: a prefill is a step of its own and the batch waits, vLLM V0 without chunked prefill)"),
    BOOL("prefix_caching", scn_rollout_layout, prefix_caching,
         "paged KV: the samples of one prompt on one instance share the prompt's full KV blocks and prefill it once "
         "(vLLM automatic prefix caching, on by default in the V1 engine; SGLang RadixAttention)"),
    ENUM("sleep", scn_rollout_layout, sleep, SLEEP_NAMES, SLEEP_VALS,
         "co-located: what the inference engine does with its memory while the pool trains (docs/model.md, section 8): "
         "discard (vLLM sleep level 2, SGLang release_memory_occupation: weights and KV cache freed, the reshard refills "
         "the weights; verl's default), offload (vLLM sleep level 1: weights copied to pinned host memory and back over "
         "the host link before the reshard, KV cache freed; OpenRLHF --vllm.enable_sleep, NeMo RL) or none (no sleep: "
         "weights and KV cache stay, training gets what is left; verl free_cache_engine=false, OpenRLHF without enable_sleep)"),
    NUM("graph_pool_mb", scn_rollout_layout, graph_pool_bytes, MiB, 0, 1e6, 0, "MiB",
        "per device: the memory pool of the engine's captured CUDA graphs (used when cuda_graphs is on and the engine "
        "is vllm or sglang), outside gpu_memory_utilization and kept while the engine sleeps: vLLM's sleep frees only "
        "what its CuMemAllocator tagged (weights, KV cache); 532 MiB, vLLM's 0.52 GiB for a dense 8B model at its "
        "default capture sizes (docs/model.md, section 8)"),
    BOOL("own_process", scn_rollout_layout, own_process,
         "co-located: the inference engine runs in a process of its own beside the trainer's (a second CUDA context "
         "on each device, plan.cuda_context_mb): NeMo RL's VllmGenerationWorker and OpenRLHF's LLMRayActor are Ray "
         "actors, verl's vLLM server spawns its workers with the mp executor; false: one process (an in-process engine)"),
    ENUM("weights_dtype", scn_rollout_layout, weights_dtype, DTYPE_NAMES, DTYPE_VALS,
         "the engine's weights (docs/model.md, section 5, FP8 rollouts): bf16, or fp8 (vLLM quantization=\"fp8\", "
         "NeMo RL vllm_cfg.precision, verl rollout.quantization): the blocks' linear layers in e4m3 with an FP32 scale "
         "a 128×128 block, embeddings, norms and LM head in BF16, the GEMMs at the device's FP8 peak (fp8_tflops), "
         "each weight sync quantised on the rollout devices"),
    ENUM("kv_dtype", scn_rollout_layout, kv_dtype, KVDTYPE_NAMES, KVDTYPE_VALS,
         "the engine's KV cache (vLLM kv_cache_dtype): bf16 (or auto, the model's dtype), or fp8, one byte an element, "
         "twice the tokens in the same memory and half the bytes a decode step reads"),
    NUM("kv_cache_gb", scn_rollout_layout, kv_cache_bytes, GiB, 0, 1e6, 0, "GiB",
        "per device: the KV cache's size given outright (vLLM kv_cache_memory_bytes, vLLM 0.11 on; NeMo RL "
        "vllm_kwargs, verl engine_kwargs.vllm): the engine's KV cache is this, whatever mem_util and the profile "
        "run leave; vLLM still refuses to start when less than mem_util × HBM is free, or when the cache holds "
        "fewer than max_model_len tokens (docs/model.md, section 3; 0: unset, the cache sized from mem_util)"),
    END
};

static const fdesc FIELDS_OFFLOAD[] = {
    BOOL("optimizer", scn_plan, offload_optimizer, "optimizer states to host memory during rollout"),
    BOOL("grads", scn_plan, offload_grads, "gradients to host memory during rollout"),
    ENUM("params", scn_plan, offload_params, PARAMS_NAMES, PARAMS_VALS,
         "co-located: the actor's training weights in host memory while the pool generates, back over the host link "
         "before training: none; after_reshard (copied down once the engine has its weights: NeMo RL's "
         "offload_after_refit); before_reshard (down before the engine wakes, the reshard reading them from the "
         "host: verl actor.fsdp_config.param_offload)"),
    ENUM("reference", scn_plan, offload_aux, AUXOFF_NAMES, AUXOFF_VALS,
         "where the reference and reward parameters wait between their forward passes on a training pool: true, in "
         "host memory, loaded over the host link for each pass (verl ref.fsdp_config.param_offload and "
         "ref.megatron.param_offload, DeepSpeed-Chat offload_reference_model, OpenRLHF --ref_reward_offload, NeMo RL's "
         "reference state dict); false, on the device for the whole run, through generation and training, their "
         "bytes in every phase (verl's default); auto, on the host under full co-location and on the device "
         "elsewhere (docs/model.md, section 8)"),
    END
};

static const fdesc FIELDS_DISTQUEUE[] = {
    BOOL("hierarchical", scn_plan, dq_hierarchical, "DistQueue: one reader per TP×PP group, then a broadcast over the fast link (else every device reads)"),
    BOOL("packed", scn_plan, dq_packed, "DistQueue: samples concatenated (zero-redundancy) rather than padded to the longest of the mini-batch"),
    NUM("request_us", scn_plan, dq_request_s, 1e-6, 0, 1e9, 0, "µs",
        "DistQueue: CPU time a serving node spends on one read request (lookup, serialization, RPC); its requests are served one after another"),
    END
};

const fdesc FIELDS_PLAN[] = {
    ENUM("mode", scn_plan, mode, MODE_NAMES, MODE_VALS, "separate: disaggregated rollout and training pools; colocate: actor training and rollout share the devices, reference/reward on their own pool; full: actor, reference and reward all share the devices"),
    INT("rollout_devices", scn_plan, rollout_devices, 0, FLD_DEVICES_MAX, NULL,
        "separate: devices of the rollout pool"),
    FRACN("rollout_fraction", scn_plan, rollout_fraction, "separate, when rollout_devices is 0: share of the cluster that generates, rounded to whole rollout instances (so it scales with cluster.supernodes)"),
    INT("aux_devices", scn_plan, aux_devices, 0, FLD_DEVICES_MAX, NULL, "colocate: devices of the reference/reward pool"),
    {"rollout_device", FK_DEVICE, MEM(scn_plan, rollout_device), 1, 0, 0, 0, NULL, NULL, FIELDS_DEVICE, FC_OPT_DEVICE,
     NULL, "separate, without plan.pools: the rollout pool's accelerator, a preset name (\"h20\") or a device table, "
     "training staying on cluster.device; the rollout pool then takes whole nodes (absent: cluster.device)"},
    {"pools", FK_ARR, MEM(scn_plan, pools), 1, 0, SCN_POOLS_MAX, 0, NULL, NULL, FIELDS_POOL_ELEM,
     FC_POOLS, NULL, "explicit pools (policies use this)"},
    REC("train", scn_plan, train, FIELDS_TRAIN, "training layout"),
    REC("rollout", scn_plan, rollout, FIELDS_ROLLOUT, "rollout layout"),
    INT("aux_tp", scn_plan, aux_tp, 1, FLD_PARALLEL_MAX, NULL, "TP of the forward-only models (reference, reward) on a pool that does not train; the critic always runs on the training pool"),
    ENUM("aux_shard", scn_plan, aux_shard, AUX_SHARD_NAMES, AUX_SHARD_VALS,
         "frozen models (reference, reward): auto holds them as the actor is, ZeRO-3-sharded over the data-parallel ranks when plan.train.zero = 3 (verl's FSDP workers, DeepSpeed-Chat, OpenRLHF) and whole over TP·PP otherwise; none never shards them; zero3 always does, gathering their parameters for every micro-batch"),
    FLAT("offload", FIELDS_OFFLOAD, FC_ROWS, "what co-located training moves to the host during rollout"),
    FLAT("distqueue", FIELDS_DISTQUEUE, FC_ROWS, "DistQueue transfer"),
    ENUM("controller", scn_plan, controller, CONTROLLER_NAMES, CONTROLLER_VALS,
         "how a step's samples reach the trainer: through the DistQueue (queue), or gathered into one driver process over its NIC and scattered back to the trainer, as single-controller frameworks do (driver)"),
    INT("reward_workers", scn_plan, reward_workers, 0, 1 << 20, NULL,
        "CPU processes that score rule-based rewards, however many devices train (64: verl's prime reward manager's pool; 1: scored in the driver one by one; 0: one per training device)"),
    BOOL("zero_redundancy", scn_plan, zero_redundancy, "reshard weights between layouts in place, bucket by bucket, instead of holding a second full copy"),
    NUM("bucket_mb", scn_plan, bucket_bytes, MiB, 1, 1e7, 0, "MiB", "bucket size of resharding and weight sync"),
    NUM("cuda_context_mb", scn_plan, cuda_context_bytes, MiB, 0, 1e5, 0, "MiB",
        "device memory a process's CUDA context takes outside the allocator, per device (274 MiB: PyTorch with lazy "
        "module loading, pytorch/pytorch pull request 86509; 636 loading eagerly)"),
    NUM("nccl_buffsize_mb", scn_plan, nccl_buffsize, MiB, 0, 1e5, 0, "MiB",
        "NCCL_BUFFSIZE: a channel's buffer to one peer (NCCL's default 4 MiB)"),
    INT("nccl_channels", scn_plan, nccl_channels, 0, 1024, NULL,
        "channels each NCCL communicator opens (NCCL picks them from the topology, NCCL_MIN/MAX_NCHANNELS bound "
        "them); each holds NCCL_BUFFSIZE to each of its two ring peers; 0: NCCL's buffers not counted"),
    NUM("alloc_reserve", scn_plan, alloc_reserve, 1, 0, 1, 0, NULL,
        "the caching allocator's reserved-but-unallocated memory as a share of the ledger's peak (PyTorch's CUDA "
        "semantics: reserved vs allocated); no public figure, 0"),
    ENUM("sync_model", scn_plan, sync_model, SYNC_MODEL_NAMES, SYNC_MODEL_VALS,
         "how a weight sync and a co-located reshard are priced: gather (the default: the trained weights are gathered out of the training layout over its TP/PP/EP groups, converted, sent and loaded bucket by bucket, as verl, NeMo RL and OpenRLHF do) or ideal (each rollout device's shard over the link at full bandwidth, the earlier bound)"),
    INT("staleness", scn_plan, staleness, 0, SCN_STALENESS_MAX, "versions", "StaleSync bound: a sample may be generated by a policy at most this many versions older than the one it is trained on (0: synchronous)"),
    NUM("stale_share", scn_plan, stale_share, 1, 0, 1, FF_HI_OPEN, "steps", "a fractional bound on top of staleness, as verl's staleness_threshold: between two weight syncs the rollout may start samples up to (staleness + stale_share) steps ahead of the step being trained, counted in samples; 0: whole steps only"),
    INT("sync_every", scn_plan, sync_every, 1, SCN_STALENESS_MAX + 1, "steps",
        "optimizer steps between weight syncs to separate rollout pools (the rollout runs up to sync_every - 1 versions behind; needs staleness >= sync_every - 1); co-located pools reshard at every switch"),
    BOOL("stream", scn_plan, stream,
         "mini-batches start training as soon as enough samples of the step have finished, also at staleness 0 (a training-only pool; with staleness >= 1 and several mini-batches steps always stream)"),
    FRACN("partial_rollout", scn_plan, partial_rollout, "share of a step's samples that must finish before the step moves on; the rest keep generating and are trained on later"),
    ENUM("on_update", scn_plan, on_update, ONUPDATE_NAMES, ONUPDATE_VALS,
         "in-flight samples at a weight update: keep generating on the old weights, or abort and re-prefill on the new"),
    ENUM("on_stale", scn_plan, on_stale, ONSTALE_NAMES, ONSTALE_VALS,
         "a sample that would exceed the staleness bound: hold the trainer back, or drop the sample"),
    {"policy", FK_STR, MEM(scn_plan, policy), 1, 0, 0, FF_NO_PLACE, NULL, NULL, NULL, FC_ROWS, NULL,
     "a policy plugin's path, stored as given (relative paths are relative to the working directory)"},
    END
};

static const fdesc FIELDS_EFFICIENCY[] = {
    FRACN("train", scn_efficiency, train, "training FLOP/s ÷ peak (MFU)"),
    FRACN("train_fp8", scn_efficiency, train_fp8,
          "plan.train.precision = \"fp8\": the share of the FP8 peak an FP8 training GEMM reaches, relative to "
          "efficiency.train's share of the BF16 peak (1: the same share, the default; docs/model.md, section 7)"),
    FRACN("prefill", scn_efficiency, prefill, "prefill FLOP/s ÷ peak"),
    FRACN("decode", scn_efficiency, decode, "decode compute ÷ peak"),
    FRACN("hbm", scn_efficiency, hbm, "achieved ÷ peak HBM bandwidth"),
    FRACN("link", scn_efficiency, link, "achieved ÷ link bandwidth (collectives, weight sync)"),
    FRACN("host_link", scn_efficiency, host_link, "achieved ÷ host-link bandwidth (offload)"),
    NUM("decode_overhead_ms", scn_efficiency, decode_overhead_s, 1e-3, 0, 1e5, 0, "ms",
        "flat time added to every decode step, on top of the engine's fixed cost when decode_overhead_scale > 0 (with the scale 0, the default: the one fitted scalar a step)"),
    NUM("decode_overhead_scale", scn_efficiency, decode_overhead_scale, 1, 0, 1000, 0, NULL,
        "multiplier of the engine's software fixed cost of a decode step — kernel launches and scheduler CPU time (docs/model.md, section 5); the calibration knob that carries across batch, TP and model size (0, the default: off, decode_overhead_ms alone)"),
    NUM("train_overhead_ms", scn_efficiency, train_overhead_s, 1e-3, 0, 1e7, 0, "ms", "fixed per optimizer step"),
    NUM("switch_overhead_s", scn_efficiency, switch_overhead_s, 1, 0, 1e5, 0, "s",
        "fixed per co-located switch (allocator, graph capture)"),
    NUM("sync_bucket_ms", scn_efficiency, sync_bucket_s, 1e-3, 0, 1e7, 0, "ms",
        "fixed host time per bucket of a weight sync or co-located reshard with plan.sync_model \"gather\" (the framework's Python per bucket: name mapping, tensor bookkeeping); 0, the default, charges the mechanisms alone"),
    NUM("reward_rule_ms", scn_efficiency, reward_rule_s, 1e-3, 0, 1e6, 0, "ms", "rule-based reward per sample, off-device"),
    BOOL("gemm_shape", scn_efficiency, gemm_shape,
         "training GEMMs near or below the device's ridge point (thin TP shards, experts with few tokens) run below efficiency.train, as efficiency.gemm_model says (false: every GEMM at efficiency.train)"),
    ENUM("gemm_model", scn_efficiency, gemm_model, GEMM_MODEL_NAMES, GEMM_MODEL_VALS,
         "the curve of efficiency.gemm_shape: smooth, the compute and HBM times blended as measured GEMMs show (1 + (ridge/AI)^2.5)^-0.4, or roofline, the sharp min(1, AI/ridge)"),
    END
};

/* The calibration block `fusync calibrate --out` writes (scenario.h,
** scn_calibration; docs/calibration.md): the fitted knobs' relative standard
** errors and their correlations.  The knobs are efficiency's, in the order of
** scn_cal_knob_name (a unit test holds the names together). */
#define CAL_SD(n, k) {n, FK_NUM, (k) * sizeof(double), sizeof(double), 1, 0, 10, 0, \
                      NULL, NULL, NULL, FC_ROWS, NULL, "one standard error of efficiency." n ", relative to its value"}
#define CAL_CORR_NUM(n, k) {n, FK_NUM, (k) * sizeof(double), sizeof(double), 1, -1, 1, 0, NULL, NULL, NULL, FC_ROWS, \
                            NULL, "correlation with efficiency." n}
#define CAL_CORR(n, k) {n, FK_REC, (k) * SCN_CAL_KNOBS * sizeof(double), SCN_CAL_KNOBS * sizeof(double), 1, 0, 0, 0, \
                        NULL, NULL, FIELDS_CAL_CORR_ROW, FC_ROWS, NULL, "efficiency." n "'s correlations with the other knobs"}

static const fdesc FIELDS_CAL_CORR_ROW[] = {
    CAL_CORR_NUM("train", 0),
    CAL_CORR_NUM("prefill", 1),
    CAL_CORR_NUM("decode", 2),
    CAL_CORR_NUM("hbm", 3),
    CAL_CORR_NUM("link", 4),
    CAL_CORR_NUM("host_link", 5),
    CAL_CORR_NUM("decode_overhead_ms", 6),
    CAL_CORR_NUM("train_overhead_ms", 7),
    CAL_CORR_NUM("switch_overhead_s", 8),
    CAL_CORR_NUM("reward_rule_ms", 9),
    END
};

static const fdesc FIELDS_CAL_SD[] = {
    CAL_SD("train", 0),
    CAL_SD("prefill", 1),
    CAL_SD("decode", 2),
    CAL_SD("hbm", 3),
    CAL_SD("link", 4),
    CAL_SD("host_link", 5),
    CAL_SD("decode_overhead_ms", 6),
    CAL_SD("train_overhead_ms", 7),
    CAL_SD("switch_overhead_s", 8),
    CAL_SD("reward_rule_ms", 9),
    END
};

static const fdesc FIELDS_CAL_CORR[] = {
    CAL_CORR("train", 0),
    CAL_CORR("prefill", 1),
    CAL_CORR("decode", 2),
    CAL_CORR("hbm", 3),
    CAL_CORR("link", 4),
    CAL_CORR("host_link", 5),
    CAL_CORR("decode_overhead_ms", 6),
    CAL_CORR("train_overhead_ms", 7),
    CAL_CORR("switch_overhead_s", 8),
    CAL_CORR("reward_rule_ms", 9),
    END
};

static const fdesc FIELDS_CALIBRATION[] = {
    INT("rows", scn_calibration, rows, 0, 1 << 30, NULL, "measured steps the fit used"),
    NUM("held_out_error", scn_calibration, held_out, 1, 0, 1, 0, NULL,
        "the fit's cross-validated rms relative error of a phase time (leave-one-out): no knob value removes it, "
        "so it widens the interval"),
    REC("sd", scn_calibration, sd, FIELDS_CAL_SD,
        "one standard error of each fitted knob, relative to its value (s²/n·(JᵀJ)⁻¹ of the fit); 0 or absent: not fitted"),
    REC("corr", scn_calibration, corr, FIELDS_CAL_CORR,
        "correlations of the fitted knobs, corr.A.B (one triangle; absent: 0)"),
    END
};

const fdesc FIELDS_TOP[] = {
    STR("name", scn_scenario, name, "shown in reports (default: the file's name)"),
    {"cluster", FK_REC, MEM(scn_scenario, cluster), 1, 0, 0, FF_REQUIRED, NULL, NULL, FIELDS_CLUSTER, FC_ROWS,
     NULL, "devices and links"},
    {"models", FK_REC, 0, 0, 1, 0, 0, FF_REQUIRED, NULL, NULL, FIELDS_MODELS, FC_MODELS, NULL,
     "actor, reference, reward, critic"},
    REC("workload", scn_scenario, work, FIELDS_WORKLOAD, "the RL step"),
    REC("plan", scn_scenario, plan, FIELDS_PLAN, "placement, layouts, StaleSync"),
    REC("efficiency", scn_scenario, eff, FIELDS_EFFICIENCY, "achieved fractions and fixed costs"),
    REC("calibration", scn_scenario, cal, FIELDS_CALIBRATION,
        "what `fusync calibrate --out` knew of its fit: fusync run draws knob vectors from it for an interval"),
    END
};

/* ------------------------------------------------------------- lookups */

const fdesc *fields_find(const fdesc *rec, const char *key)
{
    for (; rec && rec->name; rec++)
        if (strcmp(rec->name, key) == 0) return rec;
    return NULL;
}

const fdesc *fields_lookup(const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const fdesc *rec = FIELDS_TOP, *f = NULL;
    for (char *save = NULL, *p = strtok_r(buf, ".", &save); p; p = strtok_r(NULL, ".", &save)) {
        if (!rec) return NULL;
        if (f && f->kind == FK_ARR) {
            char *end;
            long i = strtol(p, &end, 10);
            if (*end || i < 1) return NULL;
            f = &rec[0];
        } else {
            f = fields_find(rec, p);
            if (!f) return NULL;
        }
        rec = f->sub;
    }
    return f;
}

void *fields_path_member(const char *path, scn_scenario *s, const fdesc **row)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const fdesc *rec = FIELDS_TOP, *f = NULL;
    char *base = (char *)s;
    for (char *save = NULL, *p = strtok_r(buf, ".", &save); p; p = strtok_r(NULL, ".", &save)) {
        if (!rec || (f && f->kind != FK_REC)) return NULL;     /* lists, devices, models: not here */
        if (f) base += f->off;
        f = fields_find(rec, p);
        if (!f) return NULL;
        rec = f->sub;
    }
    if (!f || f->kind > FK_ENUM) return NULL;
    *row = f;
    return base + f->off;
}

double fields_get_num(const fdesc *f, const void *base)
{
    const void *p = fields_cat(f, base);
    switch (f->kind) {
    case FK_BOOL: return *(const bool *)p;
    case FK_NUM: return *(const double *)p;
    case FK_INT:
    case FK_ENUM:
        if (f->size == sizeof(bool)) return *(const bool *)p;
        if (f->size == sizeof(int)) return *(const int *)p;
        if (f->size == sizeof(uint64_t)) return (double)*(const uint64_t *)p;
        return NAN;
    default: return NAN;
    }
}

int fields_enum_value(const fdesc *f, const char *name)
{
    for (int i = 0; f->enames && f->enames[i]; i++)
        if (strcmp(f->enames[i], name) == 0) return f->evals ? f->evals[i] : i;
    return -1;
}

const char *fields_enum_name(const fdesc *f, int value)
{
    for (int i = 0; f->enames && f->enames[i]; i++)
        if ((f->evals ? f->evals[i] : i) == value) return f->enames[i];
    return "?";
}

/* ---------------------------------------------------------- comparison */

static bool num_equal(double a, double b)
{
    if (a == b) return true;
    double m = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= 1e-12 * m;
}

static bool dist_equal(const scn_dist *a, const scn_dist *b)
{
    if (a->kind != b->kind || !num_equal(a->cap, b->cap)) return false;
    if (a->kind == DIST_HIST) {
        if (a->nbins != b->nbins) return false;
        for (int i = 0; i < a->nbins; i++)
            if (!num_equal(a->weight[i], b->weight[i]) || !num_equal(a->edge[i], b->edge[i])) return false;
        return num_equal(a->edge[a->nbins], b->edge[b->nbins]);
    }
    return num_equal(a->a, b->a) && (a->kind == DIST_FIXED || num_equal(a->b, b->b));
}

static bool rec_equal(const fdesc *rec, const void *a, const void *b, const char *path, char *where, size_t n)
{
    for (const fdesc *f = rec; f->name; f++) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", f->name);
        bool ok = true;
        switch (f->kind) {
        case FK_INT: case FK_NUM: case FK_BOOL: case FK_ENUM:
            ok = num_equal(fields_get_num(f, a), fields_get_num(f, b));
            break;
        case FK_STR:
            if (f->size) ok = strcmp(fields_cat(f, a), fields_cat(f, b)) == 0;
            break;
        case FK_DEVICE: case FK_MODEL: case FK_REC:
            if (f->sub && f->size == 0 && f->codec == FC_MODELS) {
                const scn_scenario *sa = a, *sb = b;
                ok = sa->has_ref == sb->has_ref && sa->reward_is_model == sb->reward_is_model &&
                     sa->has_critic == sb->has_critic;
                if (ok && !rec_equal(f->sub, a, b, sub, where, n)) return false;
            } else if (f->sub && !rec_equal(f->sub, fields_cat(f, a), fields_cat(f, b), sub, where, n)) {
                return false;
            }
            break;
        case FK_DIST:
            ok = dist_equal(fields_cat(f, a), fields_cat(f, b));
            break;
        case FK_ARR:
            if (f->codec == FC_POOLS) {
                const scn_plan *pa = a, *pb = b;
                ok = pa->npools == pb->npools;
                for (int i = 0; ok && i < pa->npools; i++)
                    ok = pa->pools[i].devices == pb->pools[i].devices && pa->pools[i].roles == pb->pools[i].roles &&
                         strcmp(pa->pools[i].name, pb->pools[i].name) == 0 && pa->pools[i].where == pb->pools[i].where &&
                         pa->pools[i].nranges == pb->pools[i].nranges &&
                         scn_device_same(&pa->pools[i].device, &pb->pools[i].device) &&
                         memcmp(pa->pools[i].range, pb->pools[i].range, sizeof pa->pools[i].range) == 0;
            }
            break;
        }
        if (!ok) {
            snprintf(where, n, "%s", sub);
            return false;
        }
    }
    return true;
}

bool fields_equal(const scn_scenario *a, const scn_scenario *b, char *where, size_t n)
{
    return rec_equal(FIELDS_TOP, a, b, "", where, n);
}

/* ------------------------------------------------------------- listing */

static const char *kind_text(const fdesc *f)
{
    switch (f->kind) {
    case FK_INT: return "integer";
    case FK_NUM: return "number";
    case FK_BOOL: return "boolean";
    case FK_STR: return "string";
    case FK_ENUM: return "enum";
    case FK_REC: return "table";
    case FK_ARR: return "list";
    case FK_DEVICE: return "device";
    case FK_MODEL: return "model";
    case FK_DIST: return "distribution";
    }
    return "?";
}

static void fmt_num(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) snprintf(buf, n, "%.0f", v);
    else snprintf(buf, n, "%g", v);
}

static void range_text(const fdesc *f, char *buf, size_t n)
{
    char lo[32], hi[32];
    buf[0] = '\0';
    if (f->kind == FK_ENUM || (f->kind == FK_STR && f->enames) || (f->kind == FK_ARR && f->enames)) {
        size_t used = 0;
        for (int i = 0; f->enames[i] && used < n; i++)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", f->enames[i]);
        return;
    }
    if (f->kind != FK_INT && f->kind != FK_NUM) return;
    if (f->flags & FF_LO_OPEN) {
        fmt_num(lo, sizeof lo, f->lo);
        fmt_num(hi, sizeof hi, f->hi);
        snprintf(buf, n, "(0, %s], at least %s", hi, lo);
        return;
    }
    fmt_num(lo, sizeof lo, f->lo);
    fmt_num(hi, sizeof hi, f->hi);
    snprintf(buf, n, f->kind == FK_INT ? "%s..%s" : (f->flags & FF_HI_OPEN) ? "[%s, %s)" : "[%s, %s]", lo, hi);
}

static void default_text(const fdesc *f, const void *base, char *buf, size_t n)
{
    buf[0] = '\0';
    if (!base) return;
    switch (f->kind) {
    case FK_INT: case FK_NUM:
        fmt_num(buf, n, fields_get_num(f, base) / f->scale);
        break;
    case FK_BOOL:
        snprintf(buf, n, "%s", fields_get_num(f, base) != 0 ? "true" : "false");
        break;
    case FK_ENUM:
        snprintf(buf, n, "%s", fields_enum_name(f, (int)fields_get_num(f, base)));
        break;
    case FK_STR:
        if (f->size && ((const char *)fields_cat(f, base))[0])
            snprintf(buf, n, "\"%s\"", (const char *)fields_cat(f, base));
        break;
    case FK_DIST: {
        const scn_dist *d = fields_cat(f, base);
        if (d->kind == DIST_FIXED) fmt_num(buf, n, d->a);
        break;
    }
    default: break;
    }
}

/* Markdown cells must not hold a bare '|'. */
static void cell(fs_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') buf_puts(out, "\\|");
        else buf_putc(out, *s);
    }
}

static void describe_rec(fs_buf *out, bool md, const fdesc *rec, const char *path, const void *base, bool shallow)
{
    for (const fdesc *f = rec; f->name; f++) {
        char sub[160], rng[160], def[64];
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", f->name);
        bool leafish = f->kind != FK_REC || !f->sub;
        const void *mine = base ? fields_cat(f, base) : NULL;
        if (f->kind == FK_ARR && f->sub && f->sub[0].kind == FK_REC) {
            char item[170];
            snprintf(item, sizeof item, "%s.N", sub);
            if (md) {
                buf_printf(out, "| `%s` | list | | 1..%d items | | ", sub, (int)f->hi);
                cell(out, f->doc ? f->doc : "");
                buf_puts(out, " |\n");
            } else {
                buf_printf(out, "%-40s %-12s %-8s %-24s %-10s %s\n", sub, "list", "", "", "", f->doc ? f->doc : "");
            }
            if (!shallow) describe_rec(out, md, f->sub[0].sub, item, NULL, false);
            continue;
        }
        if (!leafish && f->kind == FK_REC) {
            if (shallow) {
                if (md) {
                    buf_printf(out, "| `%s` | table | | | | ", sub);
                    cell(out, f->doc ? f->doc : "");
                    buf_puts(out, " |\n");
                } else {
                    buf_printf(out, "%-40s %-12s %-8s %-24s %-10s %s\n", sub, "table", "", "", "", f->doc ? f->doc : "");
                }
                continue;
            }
            describe_rec(out, md, f->sub, sub, f->size || f->off ? mine : base, false);
            continue;
        }
        range_text(f, rng, sizeof rng);
        default_text(f, base, def, sizeof def);
        const char *unit = f->unit ? f->unit : "";
        char flags[64] = "";
        if (f->flags & FF_REQUIRED) snprintf(flags, sizeof flags, "required");
        if (f->flags & FF_NO_PLACE) snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%snot from place()",
                                             flags[0] ? "; " : "");
        if (md) {
            buf_printf(out, "| `%s` | %s | %s | ", sub, kind_text(f), unit);
            cell(out, rng);
            buf_printf(out, " | %s | ", def);
            cell(out, f->doc ? f->doc : "");
            if (flags[0]) buf_printf(out, " (%s)", flags);
            buf_puts(out, " |\n");
        } else {
            buf_printf(out, "%-40s %-12s %-8s %-24s %-10s %s%s%s%s\n", sub, kind_text(f), unit, rng, def,
                       f->doc ? f->doc : "", flags[0] ? " (" : "", flags, flags[0] ? ")" : "");
        }
        if (!shallow && (f->kind == FK_DEVICE || f->kind == FK_MODEL || f->kind == FK_DIST) && f->sub &&
            !(f->kind == FK_MODEL && strcmp(f->name, "actor") != 0))
            describe_rec(out, md, f->sub, f->kind == FK_MODEL ? "models.ROLE" : sub, NULL, false);
    }
}

/* The default scenario's member for a path, or NULL where defaults mean
** nothing (inside a device, a model, a pool). */
static const void *base_for(const char *prefix, const scn_scenario *def, const fdesc **rec)
{
    *rec = FIELDS_TOP;
    if (!prefix[0]) return def;
    const fdesc *f = fields_lookup(prefix);
    if (!f || !f->sub) return NULL;
    *rec = f->kind == FK_ARR ? f->sub[0].sub : f->sub;
    char buf[160];
    snprintf(buf, sizeof buf, "%s", prefix);
    const void *base = def;
    const fdesc *r = FIELDS_TOP;
    for (char *save = NULL, *p = strtok_r(buf, ".", &save); p; p = strtok_r(NULL, ".", &save)) {
        const fdesc *g = fields_find(r, p);
        if (!g || g->kind != FK_REC) return NULL;
        if (g->size || g->off) base = fields_cat(g, base);
        r = g->sub;
    }
    return base;
}

void fields_describe_under(fs_buf *out, bool markdown, const char *prefix)
{
    static scn_scenario def;
    scn_defaults(&def);
    const fdesc *rec;
    const void *base = base_for(prefix, &def, &rec);
    if (markdown) {
        buf_puts(out, "| field | type | unit | range | default | meaning |\n");
        buf_puts(out, "|---|---|---|---|---|---|\n");
    } else {
        buf_printf(out, "%-40s %-12s %-8s %-24s %-10s %s\n", "FIELD", "TYPE", "UNIT", "RANGE", "DEFAULT", "MEANING");
    }
    describe_rec(out, markdown, rec, prefix, base, prefix[0] != 0);
}
