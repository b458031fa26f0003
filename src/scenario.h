/*
** scenario.h — a scenario as plain C values: devices, cluster, models,
** workload, plan and efficiencies.  Filled by the Lua loader (lua_scenario.c)
** or by hand in tests; checked by scn_validate(); never touched by Lua again.
*/
#ifndef FUSYNC_SCENARIO_H
#define FUSYNC_SCENARIO_H

#include <stdint.h>
#include <stdbool.h>
#include "util.h"

#define SCN_NAME_MAX 48
#define SCN_HIST_MAX 64
#define SCN_POOLS_MAX 8
/* Devices of a whole cluster: the engine's event and sample words hold an
** instance index below it (engine_int.h, eng_setup.c assert so); the
** format's FLD_DEVICES_MAX is this. */
#define SCN_DEVICES_MAX (1 << 20)
/* Largest StaleSync bound: samples may lag at most this many versions. */
#define SCN_STALENESS_MAX 64

/* Accelerator kind.  Figures from the vendors' data sheets and papers, each
** preset citing its own in src/presets.c; efficiencies are defaults the
** scenario may override in `efficiency`. */
typedef struct {
    char   name[SCN_NAME_MAX];
    double peak_flops;      /* dense BF16 FLOP/s */
    double fp8_flops;       /* dense FP8 FLOP/s (0: no FP8 tensor cores) */
    double hbm_bytes;       /* device memory capacity */
    double cuda_total_bytes; /* the capacity CUDA reports (torch.cuda.mem_get_info's total), what vLLM's
                             ** gpu_memory_utilization is a share of; 0 or above hbm_bytes: hbm_bytes
                             ** (docs/model.md, section 3) */
    double hbm_bw;          /* B/s */
    double scaleup_bw;      /* B/s one way per device, scale-up link (NVLink, HCCS, UB) */
    double scaleout_bw;     /* B/s per device, scale-out NIC */
    double host_bw;         /* B/s device<->host link (PCIe) */
} scn_device;

/* How a collective over a group spanning nodes is priced (docs/model.md,
** section 2): as NCCL chooses, the cheaper of ring and tree for the size;
** always ring; always tree; or one flat ring on the slowest tier (the
** model before hierarchy and rails). */
typedef enum { COLL_NCCL, COLL_RING, COLL_TREE, COLL_FLAT } scn_coll_algo;

typedef struct {
    double bw;              /* B/s per device, one way */
    double latency_s;       /* per message / collective step */
    /* A group whose members sit on several nodes (mdl_group_link fills
    ** these; a tier's own link leaves them 0 and is priced flat): */
    int    local;           /* the group's members per node (per supernode across supernodes) */
    int    algo;            /* scn_coll_algo */
    double rails;           /* the node's bandwidth out, in units of bw: the rails its members drive at once */
    double in_bw, in_lat;   /* the link joining the members of one node */
} scn_link;

typedef struct {
    scn_device device;
    int      devices_per_node;
    int      nodes_per_supernode;
    int      supernodes;
    int      nodes;            /* >0: a cluster without supernodes: this many nodes,
                               ** joined by the scale-out tier (sets the two above) */
    scn_link intra_node;       /* tier 0 */
    scn_link intra_supernode;  /* tier 1 */
    scn_link inter_supernode;  /* tier 2 */
    double   host_mem_bytes;   /* per node */
    double   host_mem_bw;      /* B/s per node the host's cores reach in memory (CPU Adam's bound) */
    double   scaleout_oversub; /* scale-out fabric oversubscription (1: non-blocking) */
    int      devices_per_host_link; /* devices sharing one host (PCIe) uplink */
    int      devices_per_nic;  /* devices sharing one scale-out NIC */
    scn_coll_algo collectives; /* how groups across nodes are priced (default COLL_NCCL) */
} scn_cluster;

/* The MLP's shape (docs/model.md, section 3, activations): gated (SwiGLU,
** GeGLU: gate and up projections of width ffn, then down; every model
** family fusync reads from config.json) or gelu (one up projection of width
** ffn and the down one, the GPT-3 MLP Korthikanti et al. assume). */
typedef enum { MLP_GATED, MLP_GELU } scn_mlp;

/* A transformer, dense or MoE.  Derived figures are filled by scn_model_derive(). */
typedef struct {
    char name[SCN_NAME_MAX];
    int  layers;
    int  dense_layers;      /* MoE: leading dense layers (e.g. 3 for DeepSeek-V3) */
    int  hidden;
    int  heads;
    int  kv_heads;          /* GQA; ignored when mla_latent > 0 */
    int  head_dim;          /* 0: hidden/heads */
    int  mla_latent;        /* MLA compressed KV latent (0: not MLA) */
    int  mla_rope;          /* MLA decoupled rope dims */
    int  mla_q_latent;      /* MLA query latent (0: full-rank query) */
    int  ffn;               /* dense FFN intermediate size */
    int  expert_ffn;        /* per-expert FFN intermediate size */
    int  experts;           /* routed experts (0: dense) */
    int  experts_active;    /* routed experts per token */
    int  shared_experts;
    int  vocab;
    bool tied_embeddings;
    int  max_positions;     /* config.json's max_position_embeddings: the longest sequence the model takes,
                            ** what a framework passes vLLM as max_model_len when it is given none
                            ** (docs/model.md, section 3; 0: not known) */
    scn_mlp mlp;            /* gated (default) or gelu */
    double dropout;         /* training dropout probability (0: none, masks not stored) */
    /* derived */
    double params_total;
    double params_active;
    double params_expert;   /* all routed-expert parameters */
    double params_dense;    /* params_total - params_expert */
    double params_layer_dense;  /* attention + dense-or-shared FFN per layer (avg) */
    double kv_bytes_per_token;  /* BF16 */
} scn_model;

typedef enum { DIST_FIXED, DIST_UNIFORM, DIST_LOGNORMAL, DIST_HIST } scn_dist_kind;

/* A length distribution in tokens. */
typedef struct {
    scn_dist_kind kind;
    double a, b;            /* fixed: a; uniform: [a,b]; lognormal: median a, sigma b */
    double cap;             /* lognormal and all: values clipped to [1, cap] (0: none) */
    int    nbins;           /* hist: bins [edge[i], edge[i+1]) with weight[i] */
    double edge[SCN_HIST_MAX + 1];
    double weight[SCN_HIST_MAX];
} scn_dist;

typedef enum { ALGO_GRPO, ALGO_PPO } scn_algo;

typedef struct {
    scn_algo algo;
    int      prompts_per_step;
    int      samples_per_prompt;
    int      minibatches;       /* optimizer steps per epoch */
    int      epochs;
    scn_dist prompt_len;
    scn_dist response_len;
    int      max_response;      /* hard cap applied after sampling */
    double   response_growth;   /* per step: batch t's responses scaled by (1 + g)^t */
    int      iterations;
    int      warmup;            /* iterations excluded from the measured window */
    uint64_t seed;
    bool     recompute_logprob; /* actor forward for old log-probs (verl style) */
    bool     batch_per_supernode; /* prompts_per_step counts per supernode (weak scaling) */
} scn_workload;

typedef enum { MODE_SEPARATE, MODE_COLOCATE, MODE_FULL } scn_mode;
typedef enum { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL } scn_recompute;
typedef enum { CP_RING, CP_ULYSSES } scn_cp_kind;
/* Megatron-Core's moe_token_dispatcher_type: the all-to-all dispatcher
** (the default here), the all-gather one, or "flex" (DeepEP's kernels) */
typedef enum { MOE_DISP_ALLTOALL, MOE_DISP_ALLGATHER, MOE_DISP_FLEX } scn_moe_dispatcher;
/* How a training GEMM's efficiency falls with its shape (docs/model.md,
** section 7): the smooth curve fitted on public GEMM benchmarks, or the
** sharp roofline min(1, AI/ridge). */
typedef enum { GEMM_SMOOTH, GEMM_ROOFLINE } scn_gemm_model;
/* Attention kernel as training sees it (docs/model.md, section 3): fused
** (FlashAttention: no a·s² score matrix held) or materialised (the score
** matrix's softmax kept for the backward, its dropout mask with dropout). */
typedef enum { ATTN_FUSED, ATTN_MATERIALIZED } scn_attention;
/* How a micro-batch's sequences are laid out (docs/model.md, section 3):
** packed (remove-padding: their real lengths) or padded to its longest. */
typedef enum { PAD_NONE, PAD_LONGEST } scn_padding;
/* How a step's sequences reach the data-parallel ranks (docs/model.md,
** section 7): each mini-batch token-balanced on its own, or the whole
** step balanced in equal counts and each rank's share cut into
** mini-batches in order (verl's balance_batch). */
typedef enum { BAL_MINIBATCH, BAL_STEP } scn_balance;
/* How the log-probs are taken from the logits (docs/model.md, section 3,
** the logits' copies): one FP32 copy (a fused or Triton cross-entropy over
** the logits, fusync's figure before this input) or an eager FP32 upcast and
** log-softmax, their copies held at once. */
typedef enum { LOGITS_FP32, LOGITS_EAGER } scn_logits;
/* How the token entropy over the vocabulary is taken from the logits
** (docs/model.md, section 3, the entropy over the logits): verl's
** entropy_from_logits under torch.compile (its remove-padding path's
** default), the same function eager (its padded path, or use_torch_compile
** false), entropy_from_logits_with_chunking (FP32 chunks of 2048 rows), or
** OpenRLHF's compiled compute_entropy over FP32 logits (compiled_fp32). */
typedef enum { ENTROPY_COMPILED, ENTROPY_EAGER, ENTROPY_CHUNKED, ENTROPY_COMPILED_FP32 } scn_entropy;
/* How long the gradients live (docs/model.md, section 3, the gradients'
** lifetime): for the whole run (Megatron's contiguous gradient buffer,
** allocated once) or from a step's first backward to the zero_grad after its
** last optimizer step (PyTorch's set_to_none, as the FSDP workers call it);
** or, with the optimizer on the host, reduced straight to host memory for the
** offloaded share (DeepSpeed ZeRO-Offload, FSDP2's CPUOffloadPolicy). */
typedef enum { GRADS_PERSISTENT, GRADS_STEP, GRADS_HOST } scn_grad_buffer;
/* the matrices LoRA adapts (PEFT target_modules): every linear layer of the
** blocks ("all-linear", the LM head left out) or the attention projections */
typedef enum { LORA_ALL_LINEAR, LORA_ATTENTION } scn_lora_targets;
/* Gradient accumulation and reduction dtype (docs/model.md, sections 3 and 7). */
typedef enum { GRAD_FP32, GRAD_BF16 } scn_grad_dtype;
/* How the frozen models (reference, reward) are held (docs/model.md,
** section 3): as the actor is (auto: ZeRO-3-sharded when plan.train.zero is
** 3, whole over TP·PP otherwise), never sharded, or always ZeRO-3. */
typedef enum { AUX_SHARD_AUTO, AUX_SHARD_NONE, AUX_SHARD_ZERO3 } scn_aux_shard;
/* Where the frozen models (reference, reward) wait between their forward
** passes (plan.offload.reference): on the device (false), on the host
** (true), or auto: on the host under full co-location, on the device
** elsewhere (docs/model.md, section 8) */
typedef enum { AUX_OFFLOAD_DEVICE, AUX_OFFLOAD_HOST, AUX_OFFLOAD_AUTO } scn_aux_offload;
typedef enum { ONUPD_CONTINUE, ONUPD_RESTART } scn_on_update;
typedef enum { STALE_WAIT, STALE_DISCARD } scn_on_stale;
/* How samples reach rollout instances (docs/model.md, section 5, Dispatch). */
typedef enum { DISPATCH_BALANCED, DISPATCH_QUEUE, DISPATCH_STATIC } scn_dispatch;
/* KV-cache admission and what a full paged cache does (docs/model.md, section 5). */
typedef enum { KV_PAGED, KV_RESERVE } scn_kv_admission;
typedef enum { PREEMPT_RECOMPUTE, PREEMPT_SWAP } scn_preempt;
typedef enum { CTRL_QUEUE, CTRL_DRIVER } scn_controller;
/* How a weight sync and a co-located reshard are priced (docs/model.md,
** sections 8 and 9): as the frameworks run them (gather, convert, transfer,
** load, bucket by bucket), or the ideal transfer bound alone. */
typedef enum { SYNC_GATHER, SYNC_IDEAL } scn_sync_model;
/* The inference engine a rollout instance runs (docs/model.md, section 5,
** the decode step's fixed cost): its kernel launches, CUDA graphs and
** scheduler CPU time per step; ENGINE_EAGER is vLLM under enforce_eager. */
typedef enum { ENGINE_VLLM, ENGINE_SGLANG, ENGINE_HYBRID, ENGINE_EAGER } scn_engine;
/* What a co-located pool's inference engine does with its memory while the
** pool trains (docs/model.md, section 8, The engine's sleep): vLLM's sleep
** level 2 (discard weights and KV cache, refilled by the reshard), level 1
** (weights to pinned host memory, KV cache discarded; wake copies them
** back), or no sleep (weights and KV cache stay on the device). */
typedef enum { SLEEP_DISCARD, SLEEP_OFFLOAD, SLEEP_NONE } scn_sleep;
/* What vLLM's gpu_memory_utilization is a share of (docs/model.md, section
** 8, "What gpu_memory_utilization means"): the whole device, every process's
** memory inside it (the V1 worker before vLLM pull request 18974), or the
** engine's own budget whatever else the device holds, with the V1 worker's
** refusal to start when less than that is free. */
typedef enum { MEMSCOPE_INSTANCE, MEMSCOPE_DEVICE } scn_mem_scope;
/* The actor's training weights on the host while a co-located pool
** generates (docs/model.md, section 3): not at all, sent down after the
** reshard (NeMo RL's offload_after_refit), or before the engine wakes, the
** reshard reading them from the host (verl's param_offload). */
/* The precision an inference engine holds its weights or its KV cache in
** (docs/model.md, section 5, FP8 rollouts): BF16, or FP8 e4m3 (vLLM's
** quantization="fp8", kv_cache_dtype="fp8"). */
typedef enum { DTYPE_BF16, DTYPE_FP8 } scn_dtype;
/* Transformer Engine's FP8 scaling recipes as Megatron-Core names them
** (TransformerConfig.fp8_recipe; docs/model.md, section 7, FP8 training) */
typedef enum { FP8_DELAYED, FP8_TENSORWISE, FP8_BLOCKWISE } scn_fp8_recipe;
typedef enum { PARAMS_RESIDENT, PARAMS_AFTER_RESHARD, PARAMS_BEFORE_RESHARD } scn_param_offload;

/* Role bits a device pool can hold. */
enum {
    ROLE_ROLLOUT = 1u << 0,
    ROLE_TRAIN   = 1u << 1,   /* actor training and old log-probs */
    ROLE_REF     = 1u << 2,
    ROLE_REWARD  = 1u << 3,
    ROLE_CRITIC  = 1u << 4
};

typedef struct {
    int tp, pp, dp, ep;         /* dp 0: derived from the pool size */
    int etp;                    /* expert tensor parallel: ranks one expert's matrices span (0: tp, Megatron's default) */
    int micro_batch;            /* sequences per micro-batch */
    scn_recompute recompute;
    int zero;                   /* 0..3: ZeRO stage of the distributed optimizer */
    double overlap;             /* share of ZeRO-2/3 per-micro-batch collectives hidden behind compute */
    int shard_group;            /* HSDP: DP ranks a ZeRO shard spans (0: all of DP) */
    bool uneven_layers;         /* allow stages of ceil(L/pp) and floor(L/pp) layers */
    bool pp_embedding_layer;    /* Megatron's account_for_embedding_in_pipeline_split: the input
                                ** embedding counts as a layer of the first stage */
    bool pp_loss_layer;         /* account_for_loss_in_pipeline_split: the loss counts as one of the last */
    int cp;                     /* context parallel: ranks a sequence is split over */
    scn_cp_kind cp_kind;        /* ring attention (K/V passed round) or Ulysses (all-to-all of heads) */
    scn_moe_dispatcher moe_dispatcher;  /* how a MoE layer's routed tokens reach the experts */
    double overlap_tp;          /* share of TP collectives run concurrently with the stage's compute */
    double overlap_ep;          /* share of EP all-to-alls run concurrently with the stage's compute */
    double overlap_grad;        /* share of the end-of-mini-batch gradient reduction run during the last backward */
    scn_grad_dtype grad_dtype;  /* gradients held and reduced in FP32 (default) or BF16 */
    scn_attention attention;    /* fused (default) or materialised score matrix under recompute none */
    double optimizer_offload;   /* share of the optimizer states and FP32 master weights held and stepped
                                ** on the host for the whole run (0: none; DeepSpeed CPU Adam 1) */
    int    max_tokens;          /* token-budget micro-batches: tokens per device a micro-batch may hold
                                ** (verl ppo_max_token_len_per_gpu); 0: micro_batch counts sequences */
    scn_padding padding;        /* packed (remove-padding, default) or padded to the longest */
    scn_balance balance;        /* DP token balancing per mini-batch (default) or per step */
    int    lora_rank;           /* LoRA adapters of this rank on the actor, the base frozen (0: full training) */
    scn_lora_targets lora_targets;  /* the matrices the adapters sit on */
    int    logprob_batch;       /* sequences a log-prob forward takes at once (NeMo RL logprob_batch_size;
                                ** 0: micro_batch) */
    int    logprob_chunk;       /* sequence positions a chunked log-softmax takes at once (NeMo RL
                                ** logprob_chunk_size; 0: the whole micro-batch) */
    scn_logits logits;          /* the log-prob's copies of the logits: fp32 (one) or eager */
    scn_entropy entropy;        /* how the entropy over the logits is taken, where it is */
    bool   entropy_loss;        /* the actor's loss takes the entropy with its gradient (verl entropy_coeff != 0) */
    bool   logprob_entropy;     /* the actor's log-prob pass takes it, no gradient (verl compute_log_prob) */
    int    logprob_tokens;      /* token budget of a log-prob forward a device (verl log_prob_max_token_len_per_gpu,
                                ** NeMo RL logprob_mb_tokens); 0: logprob_batch sequences, else max_tokens */
    bool   logprob_unshard;     /* the log-prob forwards run with the whole model gathered on each device
                                ** (NeMo RL's DTensor v1 worker, unshard_fsdp2_model); ZeRO-3 only */
    scn_grad_buffer grad_buffer; /* gradients held for the run (persistent) or only while a step trains */
    bool   lazy_states;         /* the optimizer's moments created at its first step(), not at construction */
    bool   empty_cache_before_wake; /* the trainer empties its caching allocator before a co-located vLLM wakes
                                ** (false: its training peak stays reserved beside the engine; docs/model.md, section 8) */
    scn_dtype precision;        /* the layers' linear GEMMs in BF16 or FP8 (Transformer Engine; docs/model.md, section 7) */
    scn_fp8_recipe fp8_recipe;  /* FP8's scaling recipe: the casts' traffic and the scales held */
    bool   fp8_param;           /* the linear weights held in FP8 instead of BF16 (Megatron-Core fp8_param) */
} scn_train_layout;

typedef struct {
    int    tp, ep;              /* instance = max(tp, ep) devices; dp derived */
    int    max_seqs;            /* per instance */
    double mem_util;            /* fraction of HBM the rollout engine may use */
    scn_mem_scope mem_scope;    /* mem_util: the engine's own budget, or a share of the whole device */
    scn_dispatch dispatch;      /* least outstanding requests, index-order filling, or equal parts */
    scn_kv_admission kv;        /* paged (admit on current use, grow per block) or reserve prompt + max_response */
    int    kv_block;            /* paged: tokens per KV block */
    scn_preempt preempt;        /* paged, cache full: recompute the victim's context, or swap it to host */
    double speed_spread;        /* σ of ln(an instance's time factor): stragglers (0: all alike) */
    double ep_imbalance;        /* CV of the tokens routed to each EP rank (0: uniform routing) */
    int    spec_tokens;         /* speculative decoding: draft tokens per step (0: none) */
    double spec_accept;         /* each draft token's acceptance rate α */
    scn_engine engine;          /* the decode step's fixed cost: launches, graphs, scheduler (mdl_decode_fixed) */
    bool   cuda_graphs;         /* decode steps replay captured CUDA graphs up to graph_max_batch */
    int    graph_max_batch;     /* largest captured batch (0: the engine's default) */
    int    max_model_len;       /* vLLM's max_model_len (0: the prompt's cap + max_response, plan_max_model_len) */
    int    max_batched_tokens;  /* chunked prefill: tokens an engine step carries, decode and prefill chunks
                                ** (vLLM max_num_batched_tokens); 0: a prefill is a step of its own */
    bool   prefix_caching;      /* a prompt group's prompt KV shared and prefilled once per instance */
    scn_sleep sleep;            /* co-located: the engine's memory while the pool trains */
    double graph_pool_bytes;    /* per device: the captured CUDA graphs' memory pool, kept while asleep */
    bool   own_process;         /* co-located: the engine in a process of its own (a second CUDA context) */
    scn_dtype weights_dtype;    /* the blocks' linear layers in BF16 or FP8 (embeddings, norms, LM head BF16) */
    scn_dtype kv_dtype;         /* the KV cache in BF16 or FP8 */
    double kv_cache_bytes;      /* per device: vLLM's kv_cache_memory_bytes, the KV cache's size given
                                ** in place of the profile's (0: unset, sized from mem_util) */
} scn_rollout_layout;

/* Where a pool's devices lie (docs/model.md, section 2): the lowest free
** devices (packed, today's default), the same share of every supernode or of
** every node (spread, spread_nodes), or explicit ranges (scn_pool.ranges). */
typedef enum { WHERE_PACKED, WHERE_SPREAD, WHERE_SPREAD_NODES } scn_where;
#define SCN_RANGES_MAX 16

typedef struct {
    char     name[SCN_NAME_MAX];
    int      devices;
    unsigned roles;             /* ROLE_* */
    scn_where where;
    int      nranges;           /* >0: the devices are these inclusive ranges */
    int      range[SCN_RANGES_MAX][2];
    /* the pool's accelerator when it is not the cluster's (docs/model.md,
    ** section 2, Heterogeneous pools); peak_flops 0: cluster.device */
    scn_device device;
} scn_pool;

typedef struct {
    scn_mode mode;
    int      rollout_devices;   /* separate: rollout pool size (0: rollout_fraction) */
    double   rollout_fraction;  /* separate: share of the devices that generate */
    int      aux_devices;       /* colocate: pool for reference/reward models */
    int      npools;            /* >0: explicit pools (policies); else derived from mode */
    scn_pool pools[SCN_POOLS_MAX];
    scn_device rollout_device;  /* separate, derived pools: the rollout pool's accelerator (peak_flops 0: cluster.device) */
    scn_train_layout   train;
    scn_rollout_layout rollout;
    int      aux_tp;            /* layout of forward-only models on their pool */
    scn_aux_shard aux_shard;    /* frozen models ZeRO-3-sharded over their data-parallel ranks */
    scn_aux_offload offload_aux; /* reference/reward parameters on the host between their passes */
    bool     offload_optimizer; /* co-located: optimizer states to host during rollout */
    bool     offload_grads;
    scn_param_offload offload_params;  /* co-located: the actor's training weights to host during rollout */
    bool     zero_redundancy;   /* reshard weights in place, bucket by bucket */
    bool     dq_hierarchical;   /* DistQueue: one reader per TP×PP group, then broadcast */
    bool     dq_packed;         /* DistQueue: samples concatenated, not padded */
    scn_controller controller;  /* how samples reach the trainer: DistQueue or one driver */
    int      reward_workers;    /* CPU processes scoring rule-based rewards (0: one per training device) */
    int      sync_every;        /* optimizer steps between weight syncs to separate rollout pools */
    bool     stream;            /* mini-batches train as they are ready, also at bound 0 */
    double   dq_request_s;      /* DistQueue: CPU time a serving node spends on one read request */
    double   bucket_bytes;
    double   cuda_context_bytes;    /* per process and device: the CUDA context, outside the allocator */
    double   nccl_buffsize;     /* NCCL_BUFFSIZE: bytes a channel's buffer to one peer */
    int      nccl_channels;     /* channels a communicator opens (0: NCCL's buffers not counted) */
    double   alloc_reserve;     /* the caching allocator's reserved-but-unallocated share of the peak */
    scn_sync_model sync_model;  /* weight sync and reshard: framework steps or ideal bound */
    int      staleness;
    double   stale_share;       /* share of a further step the rollout may start ahead (0: none) */
    double   partial_rollout;   /* fraction of a step's samples that must finish */
    scn_on_update on_update;
    scn_on_stale  on_stale;
    char     policy[256];       /* policy plugin path ("" none) */
} scn_plan;

typedef struct {
    double train;           /* achieved fraction of peak, training */
    double train_fp8;       /* an FP8 training GEMM's share of the FP8 peak relative to train's of the BF16 peak */
    double prefill;
    double decode;          /* compute-side, decode */
    double hbm;             /* achieved fraction of HBM bandwidth */
    double link;            /* achieved fraction of link bandwidth */
    double host_link;       /* achieved fraction of host-link bandwidth */
    double decode_overhead_s;   /* flat per decode step, added to the engine's fixed cost (0 by default) */
    double decode_overhead_scale; /* multiplier of the engine's software fixed cost (mdl_decode_fixed) */
    double train_overhead_s;    /* fixed per optimizer step */
    double switch_overhead_s;   /* fixed per co-located switch (allocator, graph) */
    double sync_bucket_s;       /* fixed host time per bucket of a weight sync or reshard (0 by default) */
    double reward_rule_s;       /* rule-based reward, per sample, off-device */
    bool   gemm_shape;          /* training GEMMs near or below the device's ridge point run slower (mdl_gemm_eff) */
    scn_gemm_model gemm_model;  /* the curve gemm_shape follows */
} scn_efficiency;

/* The efficiency knobs `fusync calibrate` fits, in the order of its knob
** table (src/calibrate.c) and of the calibration block's fields. */
#define SCN_CAL_KNOBS 10

/* What a calibration knows of its own fit (docs/calibration.md): one
** standard error of each fitted knob, relative to its fitted value, and the
** knobs' correlations, from the fit's s²/n·(JᵀJ)⁻¹.  `fusync run` draws knob
** vectors from it and re-simulates them (src/uncert.c). */
typedef struct {
    int    rows;                /* measured steps the fit used; 0: no calibration block */
    double held_out;            /* the fit's cross-validated rms relative error of a phase time */
    double sd[SCN_CAL_KNOBS];   /* relative standard error; 0: the knob was not fitted */
    /* correlation of knobs i and j, as written (either triangle; the
    ** diagonal is 1 whatever it holds) */
    double corr[SCN_CAL_KNOBS][SCN_CAL_KNOBS];
} scn_calibration;

typedef struct {
    char  name[SCN_NAME_MAX];
    char  path[512];            /* file it came from */
    scn_cluster  cluster;
    scn_model    actor;
    bool         has_ref;
    scn_model    ref;
    bool         reward_is_model;
    scn_model    reward;
    bool         has_critic;    /* PPO */
    scn_model    critic;
    scn_workload work;
    scn_plan     plan;
    scn_efficiency eff;
    scn_calibration cal;
} scn_scenario;

/* Fill a scenario with defaults (no devices or models). */
void scn_defaults(scn_scenario *s);
/* Compute derived model figures (params, KV bytes/token). */
void scn_model_derive(scn_model *m);
/* Check every field and the plan's layouts.  On error fills err with the field
** path and what to do, returns false. */
bool scn_validate(const scn_scenario *s, fs_err *err);

int  scn_total_devices(const scn_cluster *c);
/* Whether a pool's device field is set (a zero device is the cluster's). */
static inline bool scn_device_set(const scn_device *d) { return d->peak_flops > 0; }
/* The capacity CUDA reports for the device: cuda_total_bytes, or the data
** sheet's hbm_bytes when no measurement is given, and never more than
** hbm_bytes (a preset's hbm_gb set lower is what the device has)
** (docs/model.md, section 3, "What vLLM's KV cache gets"). */
static inline double scn_device_cuda_total(const scn_device *d)
{
    return d->cuda_total_bytes > 0 && d->cuda_total_bytes < d->hbm_bytes ? d->cuda_total_bytes : d->hbm_bytes;
}
/* Whether two devices are one type: the same name and figures. */
bool scn_device_same(const scn_device *a, const scn_device *b);
/* Prompts of one step: workload.prompts_per_step, times the supernodes when
** workload.batch_per_supernode is set. */
int  scn_prompts_per_step(const scn_scenario *s);
const char *scn_mode_name(scn_mode m);
bool scn_mode_parse(const char *s, scn_mode *out);
const char *scn_dist_name(scn_dist_kind k);
/* The correlation of calibration knobs i and j (the written triangle; 1 on
** the diagonal). */
double scn_cal_corr(const scn_calibration *c, int i, int j);
/* Whether the scenario carries a calibration block with a fitted knob. */
bool scn_has_calibration(const scn_scenario *s);
/* A calibration knob's field name under calibration.sd ("train", ...). */
const char *scn_cal_knob_name(int k);
/* The lower Cholesky factor L (row-major, SCN_CAL_KNOBS²) of the knobs'
** relative covariance sd_i·sd_j·corr_ij, so that L·z for z standard normal
** has that covariance; false when it is not positive semi-definite. */
bool scn_cal_cholesky(const scn_calibration *c, double *L);

#endif
