/*
** model.h — the cost and memory formulas, as pure functions of numbers.
** Each names its source; docs/model.md explains them.  No state, no I/O.
*/
#ifndef FUSYNC_MODEL_H
#define FUSYNC_MODEL_H

#include "scenario.h"

/* Model states of mixed-precision Adam per device (ZeRO, arXiv 1910.02054):
** weights 2Ψ, grads 2Ψ, fp32 master+m+v 12Ψ; the ZeRO stage shards grads,
** optimizer and weights over `dp` ranks.  psi: parameters held by the device
** before DP sharding. */
typedef struct {
    double weights, grads, optimizer;
} mdl_states;
mdl_states mdl_model_states(double psi, int dp, int zero);
/* The states as the frameworks hold them, gradients in `grad` (docs/model.md,
** section 7, bytes a parameter): mdl_model_states with gradients of that
** dtype, except ZeRO-3 with FP32 gradients, which is FSDP's layout — the
** sharded parameter is the FP32 master (4/d), its FP32 gradient (4/d), Adam's
** m and v (8/d): 16/d, no BF16 shard beside the master (PyTorch FSDP
** MixedPrecision: the BF16 copy exists only unsharded, per unit, in the
** all-gather; Megatron-LM's "fp32 param, fp32 grads" row).  The other stages
** keep Megatron's and DeepSpeed's BF16 working copy: 2 + g + 12 with
** g = 4 (FP32, Megatron's 18) or 2 (BF16, ZeRO's 16). */
mdl_states mdl_train_states(double psi, int dp, int zero, scn_grad_dtype grad);

/* Parameters one device holds for training with TP/PP and a stage's
** experts over ex = ep·etp devices (Megatron-Core's expert tensor and
** expert parallelism, MoE parallel folding, arXiv 2504.14960). */
double mdl_train_params_per_device(const scn_model *m, int tp, int pp, int ex);
/* Share of a model's layers on its heaviest pipeline stage: ceil(L/pp)/L.
** Stages may hold uneven layer counts (plan.train.uneven_layers); the
** heaviest one paces the pipeline and peaks in memory. */
double mdl_stage_share(int layers, int pp);
/* Transformer layers on pipeline stage `stage` of pp: ⌈L/pp⌉ (every stage
** taken as the heaviest, as mdl_stage_share does), or under Megatron's
** account_for_embedding_in_pipeline_split (emb) / account_for_loss_in_
** pipeline_split (loss) n = (L + emb + loss)/pp a stage, the first emb and
** the last loss fewer (megatron/core/transformer/transformer_block.py,
** get_num_layers_to_build); docs/model.md, section 3 */
int mdl_stage_layers(int layers, int pp, int stage, bool emb, bool loss);
/* Expert-data-parallel degree for the optimizer sharding of expert weights. */
int    mdl_expert_dp(int tp, int dp, int ex);   /* tp·dp / ex, ex = ep·etp; at least 1 */
/* Parameters one rollout device holds: dense over tp, experts over ep. */
double mdl_rollout_params_per_device(const scn_model *m, int tp, int ep);

/* FP8 rollouts (docs/model.md, section 5, "FP8 rollouts"; vLLM's Fp8Config,
** NeMo RL's and verl's block quantisation on refit).  Bytes an FP8 weight
** takes: one, and an FP32 scale a 128×128 block. */
double mdl_fp8_param_bytes(void);
/* Parameters an FP8 engine keeps in BF16: the embedding and LM head, the norms. */
double mdl_fp8_kept_params(const scn_model *m);
/* The weight bytes one rollout device holds in dtype w: BF16 2 a parameter;
** FP8 mdl_fp8_param_bytes for the quantised, 2 for mdl_fp8_kept_params. */
double mdl_rollout_weight_bytes(const scn_model *m, int tp, int ep, scn_dtype w);
/* Parameters one rollout device quantises: all but the kept, as held. */
double mdl_fp8_quant_params(const scn_model *m, int tp, int ep);
/* Bytes a token's KV takes in the engine's KV dtype (r NULL: BF16). */
double mdl_kv_token_bytes(const scn_model *m, const scn_rollout_layout *r);

/* FP8 training (docs/model.md, section 7, "FP8 training"; Transformer
** Engine 2.8's Linear, LayerNormLinear and GroupedLinear under
** Megatron-Core's TE layers).  HBM bytes one element's cast moves: the BF16
** read, the row-wise and the column-wise (transposed) FP8 copies written
** (Hopper's FP8 GEMMs take both operands K-major), with tensorwise an amax
** pass reading the BF16 again first, with blockwise an FP32 scale each 128
** elements of each copy (1×128 tiles). */
double mdl_fp8_train_cast_bytes(scn_fp8_recipe r);
/* Elements of one token one layer quantises (the layers' mean): *in the
** linear layers' inputs in the forward, *gout their output gradients in
** the backward (the dense QKV, output projection, fc1 and fc2; each routed
** copy's expert fc1 and fc2; the shared experts'). */
void   mdl_fp8_train_elems(const scn_model *m, double *in, double *gout);
/* Bytes a token saves in one layer when the linear layers keep their
** inputs for the backward in FP8, not BF16 (the norms' outputs, the
** attention output, fc2's input; the routed copies' expert inputs):
** half of those terms less their 1×128 block scales; 0 under full
** recompute (only the layer's BF16 input is kept). */
double mdl_fp8_train_act_saving(const scn_model *m, scn_recompute rc, scn_fp8_recipe r);
/* Bytes a linear weight takes beyond its BF16 copy while FP8 training
** holds it: Transformer Engine's cached FP8 workspace (row-wise and
** column-wise, 2 bytes, and blockwise 128×128 scales); with fp8_param the
** weight itself is those FP8 copies, in place of the BF16 2 bytes. */
double mdl_fp8_train_weight_extra(scn_fp8_recipe r, bool fp8_param);
/* Linear (TE) weights a training device holds on the heaviest stage: the
** layers' matmul parameters but the norms over tp, the experts over ex. */
double mdl_fp8_train_linear_params(const scn_model *m, int tp, int pp, int ex);

/* Activation bytes for one layer and one micro-batch of mb sequences of
** length seq, the score matrix materialised under recompute none
** (Korthikanti et al., arXiv 2205.05198, who get (sbh/t)(34 + 5as/h) for a
** GeLU MLP of width 4h with dropout): mdl_act_bytes_tokens of seq·mb tokens
** with ATTN_MATERIALIZED. */
double mdl_act_bytes_layer(const scn_model *m, double seq, double mb, int tp, scn_recompute rc);

/* Forward FLOPs of `tokens` tokens in sequences of mean length `seq`:
** 2·P_matmul·tokens plus causal attention L·pair·seq·tokens/2 (QK and AV over
** the real head shapes, halved for the mask).  Backward is twice the forward. */
double mdl_fwd_flops(const scn_model *m, double tokens, double seq);

/* Decode step of `batch` sequences holding `ctx_tokens` context in all, on an
** instance of `inst` devices (dense tp, experts ep).  Roofline: max(compute,
** HBM traffic) per device, plus collectives.  Returns seconds. */
typedef struct {
    double compute_s, memory_s, comm_s, total_s;
} mdl_step;
mdl_step mdl_decode_step(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                         const scn_link *link, int tp, int ep, double batch, double ctx_tokens);
/* The same with the engine's fixed cost of the step (mdl_decode_fixed) in
** total_s; r NULL: efficiency.decode_overhead_ms alone, as before it. */
mdl_step mdl_decode_step_eng(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                             const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double batch,
                             double ctx_tokens);

/* The fixed cost of a decode step of `batch` sequences on an instance
** (docs/model.md, section 5): the kernel launches of every layer (a
** captured CUDA graph's gap per kernel when the engine replays one for
** this batch, an eager launch otherwise), the scheduler's and sampler's
** CPU time (per step and per sequence), both times
** efficiency.decode_overhead_scale, plus efficiency.decode_overhead_ms.
** sync_s is the latency-bound part of the step's TP and EP collectives
** (mdl_allreduce / mdl_alltoall of zero bytes, 2 a layer each): shown for
** the breakdown, already in the step's communication, not in total_s. */
typedef struct {
    double kernels;             /* kernel launches of a step */
    bool   graphed;             /* the step replays a captured CUDA graph */
    double launch_s, sched_s, flat_s, sync_s;
    double total_s;             /* launch_s + sched_s + flat_s */
} mdl_fixed;
mdl_fixed mdl_decode_fixed(const scn_model *m, const scn_efficiency *e, const scn_rollout_layout *r,
                           const scn_link *link, int tp, int ep, double batch);
/* An engine's profile: the constants of mdl_decode_fixed (docs/model.md,
** section 5, where each comes from). */
typedef struct {
    const char *name;
    double launch_graph_s;      /* per kernel inside a replayed CUDA graph */
    double launch_eager_s;      /* per kernel launched from Python */
    double step_cpu_s;          /* scheduler + sampler per step, exposed */
    double seq_cpu_s;           /* scheduler + sampler + detokenizer per sequence, exposed */
    int    graph_max;           /* default largest captured batch (0: never captures) */
} mdl_engine;
const mdl_engine *mdl_engine_of(scn_engine e);
/* Prefill of `tokens` prompt tokens (in sequences of mean length seq); r:
** the engine's weights dtype (NULL: BF16), as for mdl_prefill_chunk. */
mdl_step mdl_prefill(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                     const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double tokens, double seq);
/* Chunked prefill (docs/model.md, section 5): the time a prefill chunk of
** `chunk` tokens, with causal attention FLOPs `chunk_attn`, adds to a decode
** step of `batch` sequences holding `ctx_tokens` context — the mixed step's
** roofline less the decode step's, both without the engine's fixed cost
** (which the decode step pays either way).  batch 0: the chunk's own
** prefill step, mdl_prefill's roofline. */
double mdl_prefill_chunk(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                         const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double batch,
                         double ctx_tokens, double chunk, double chunk_attn);

/* Fraction of a layer's E experts touched by B tokens choosing k each:
** 1 − (1 − k/E)^B. */
double mdl_expert_touch(int experts, int k, double batch);

/* α–β collectives (nccl-tests PERFORMANCE.md): all-reduce 2(n−1)/n·S/B,
** all-gather / reduce-scatter / all-to-all (n−1)/n·S/B, broadcast S/B,
** plus a latency per step, on a tier's own link.  On a group link across
** nodes (mdl_group_link) NCCL's ring and tree with the node's rails, the
** cheaper for the size (docs/model.md, section 2). */
double mdl_allreduce(double bytes, int n, const scn_link *l, double eff);
double mdl_allgather(double bytes, int n, const scn_link *l, double eff);
double mdl_alltoall(double bytes, int n, const scn_link *l, double eff);
double mdl_broadcast(double bytes, const scn_link *l, double eff);

/* The link of a group whose members sit `local` to a node on tier `tier`
** (1: across nodes, 2: across supernodes, `local` then per supernode):
** the tier's link (mdl_tier_link, or mdl_tier_link_shared when every
** device of the node takes part in some group at once) with the in-node
** link and the rails filled, so that the collectives above price NCCL's
** ring and tree across nodes (docs/model.md, section 2).  Tier 0, or
** cluster.collectives = "flat": the tier's own link, priced flat. */
scn_link mdl_link_hier(const scn_cluster *c, int tier, int local, bool shared);
/* The same for the group of `count` devices `stride` apart from `first`
** (its members on the first one's node counted). */
scn_link mdl_group_link(const scn_cluster *c, int first, int stride, int count, bool shared);

/* All-reduce over a group of `count` ranks `stride` apart from `first`:
** flat on the group's tier when it stays inside a supernode; across
** supernodes hierarchical — reduce-scatter inside each supernode, all-reduce
** of the 1/n share across supernodes, all-gather inside (as NCCL/HCCL do). */
double mdl_allreduce_group(const scn_cluster *c, int first, int stride, int count, double bytes, double eff);

/* 1F1B pipeline idle share (p−1)/(m+p−1) (Narayanan et al., arXiv 2104.04473). */
double mdl_bubble_share(int p, int m);

/* The link tier joining a group of `count` devices starting at `first` with
** `stride` between members: 0 within a node, 1 within a supernode, 2 across. */
int mdl_group_tier(const scn_cluster *c, int first, int stride, int count);
const scn_link *mdl_tier_link(const scn_cluster *c, int tier);

/* ---- per-phase times shared by the engine and the planner's estimate
** (docs/model.md): the engine calls them with the lengths of the samples it
** holds, the estimate with the workload's means, so the two differ only in
** what a closed form cannot see. */

/* What one pipeline stage's forward time needs besides the micro-batch:
** fixed for a model on a training layout (tp, pp, ep) and its links (TP
** group, EP group, next stage; NULL when unused; the expert group of
** ep·etp devices by mdl_stage_experts). */
typedef struct {
    int    tp, pp;
    double sh, lps, moe_frac;   /* layer share (mdl_stage_share), layers, MoE share */
    int    efold;               /* ep·etp: the devices a stage's experts are spread over */
    int    ep, etp;             /* expert parallel, expert tensor parallel (mdl_stage_experts) */
    scn_link ltp, lep, lpp;
    scn_link letp;              /* the expert-TP group's link (etp consecutive devices) */
    int    disp;                /* scn_moe_dispatcher (mdl_stage_dispatcher; 0: all-to-all) */
    double disp_ranks;          /* flex: ranks of the ep·etp group a token is sent to (mdl_stage_dispatcher) */
    scn_link lx;                /* the ep·etp group's link (allgather, flex; zero otherwise) */     /* by value: group links (mdl_group_link) are made for the stage; zero when unused */
    /* context parallelism and overlap (mdl_stage_par; cp 1, no overlap:
    ** as mdl_stage_setup leaves them) */
    int    cp, cp_kind;         /* ranks a sequence is split over; scn_cp_kind */
    double qdim, kvdim;         /* query and K/V widths of a layer (heads·head_dim) */
    double o_tp, o_ep;          /* shares of TP and EP communication run concurrently with compute */
    scn_link lcp;               /* zero when cp is 1 */
    /* training's real shape (docs/model.md, section 7; mdl_stage_setup
    ** fills the split, mdl_stage_train the rest): the last stage holds
    ** lps_last layers and the LM head with the loss, the others lps layers
    ** (the first one the embedding, a lookup) */
    double lps_last;
    double p_head;              /* LM head V·h: a matmul on the last stage */
    double p_layers, p_expert;  /* the layers' dense and active routed-expert matmul parameters */
    double vocab;
    int    recompute;           /* scn_recompute: full repeats the forward in the backward */
    double ridge;               /* FLOP/B at which a GEMM turns compute-bound at the achieved rates; 0: off */
    int    gemm_model;          /* scn_gemm_model: the curve mdl_gemm_eff follows */
    double w_dense, w_exp, k_dim;   /* thinnest dense shard width (a·d/t), expert shard width, GEMM depth h */
    double x_exp;               /* tokens an expert sees per token of the micro-batch: k·(ep·etp/t)/E */
    double hbm_eff_bw;          /* achieved HBM B/s (the loss's softmax over the logits) */
    int    lora;                /* LoRA's rank (mdl_stage_lora; 0: none): the base frozen, no weight gradients */
    double f8_mm;               /* FP8 training: the layers' matmul time times peak/(fp8 peak·train_fp8); 0: BF16 */
    double f8_cast_f, f8_cast_b;    /* FP8 training: the casts' HBM bytes a token a layer, forward and backward */
    double p_lora;              /* the adapters' matmul parameters a token passes, all layers */
    double ent_f, ent_b;        /* the loss's entropy: HBM bytes a vocabulary entry, forward and backward
                                ** (mdl_stage_entropy; 0: none) */
} mdl_stage;
mdl_stage mdl_stage_setup(const scn_model *m, int tp, int pp, int ep, const scn_link *ltp, const scn_link *lep,
                          const scn_link *lpp);
/* The expert layout of a stage (docs/model.md, section 3): ep·etp devices,
** the all-to-all over the EP group (lep, ep ranks etp apart) and the
** expert-TP all-gather over etp consecutive ranks (letp).  mdl_stage_setup
** sets etp = tp on the TP group's link, Megatron-Core's default. */
void   mdl_stage_experts(mdl_stage *c, const scn_model *m, int ep, int etp, const scn_link *lep, const scn_link *letp);
/* The token dispatcher's kind (plan.train.moe_dispatcher; docs/model.md,
** section 7, "The token dispatcher"), after mdl_stage_experts: the
** all-gather and flex dispatchers move their tokens over the whole ep·etp
** group (lx, ep·etp consecutive ranks); all-to-all keeps lep and letp. */
void   mdl_stage_dispatcher(mdl_stage *c, const scn_model *m, int kind, const scn_link *lx);
/* DeepEP's dispatch (flex): the ep ranks of the EP group a token's k
** distinct experts land on, E/ep experts a rank, the k drawn uniformly:
** ep·(1 − C(E − E/ep, k)/C(E, k)). */
double mdl_moe_ranks_hit(int experts, int k, int ep);
/* Megatron's split with the embedding and/or the loss counted as layers
** (plan.train.pp_embedding_layer, pp_loss_layer; mdl_stage_layers): the
** heaviest stage before the last and the last one's layers, which
** mdl_stage_setup leaves at the even split's ⌈L/p⌉ and ⌊L/p⌋. */
void   mdl_stage_split(mdl_stage *c, const scn_model *m, bool emb, bool loss);
/* The training parts of a stage (docs/model.md, section 7): the recompute
** mode (the backward's count of forward work and communication), and,
** with gemm_shape, each GEMM's roofline at the achieved rates
** (mdl_gemm_eff; ridge peak·eff_train / (HBM·efficiency.hbm)). */
void   mdl_stage_train(mdl_stage *c, const scn_model *m, const scn_device *d, const scn_efficiency *e,
                       scn_recompute rc);
/* Sets a stage's FP8 factors (mdl_stage f8_*) from the training layout;
** leaves them 0 (BF16) unless precision is FP8 and the device has an FP8 peak. */
void   mdl_stage_fp8(mdl_stage *c, const scn_model *m, const scn_device *d, const scn_efficiency *e,
                     const scn_train_layout *t);
/* The share of efficiency.train an m×k by k×n BF16 GEMM reaches
** (docs/model.md, section 7; NVIDIA, "Matrix Multiplication Background
** User's Guide", math and memory bounds): with its arithmetic intensity
** AI = mnk/(mk + kn + mn) FLOP per byte and r = ridge/AI, the smooth
** curve (model GEMM_SMOOTH) (1 + r^2.5)^-0.4 — its compute and memory
** times blended as an L2.5 norm, fitted on DeepGEMM's published H800
** table — or the sharp roofline (GEMM_ROOFLINE) min(1, 1/r); 1 when
** ridge is 0 (off). */
double mdl_gemm_eff(double m, double n, double k, double ridge, int model);
/* Dense (non-expert) parameters the heaviest pipeline stage holds
** (docs/model.md, section 7): the layers' share of ⌈L/p⌉ (first and middle
** stages, the first with the input embedding) or the last stage's
** ⌊L/p⌋ layers with the LM head; all of them at p = 1. */
double mdl_stage_dense_params(const scn_model *m, int pp);
/* The tied embedding's gradient all-reduce (docs/model.md, section 7,
** "The tied embedding's gradient"): under PP > 1 a model with
** tie_word_embeddings holds the table on the first stage (the lookup) and
** on the last (the LM head), and Megatron-LM all-reduces its gradient
** between the two stages' ranks after every backward (finalize_model_grads,
** _allreduce_word_embedding_grads, the "embedding group"): each TP rank its
** vocab-parallel V/t·h shard at `grad_bytes` a parameter.  The bytes one
** rank sends into that 2-rank all-reduce; 0 when untied or PP = 1. */
double mdl_tied_embedding_bytes(const scn_model *m, int tp, int pp, double grad_bytes);
/* Forward time (s) of a micro-batch of `tok` tokens whose squared sequence
** lengths sum to `sq`, on the heaviest stage: compute over tp devices at
** efficiency `eff`, TP all-reduces and EP all-to-alls per layer, the send to
** the next stage. */
double mdl_stage_fwd(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c, double tok,
                     double sq, double eff);
/* Forward and backward (into *bwd) of the micro-batch on the slowest
** stage for each (docs/model.md, section 7): the backward's compute twice
** the forward's (three times under full recompute, which runs the layers'
** forward again), its communication counted — the same TP all-reduces
** (or SP reduce-scatter/all-gather pairs) and EP all-to-alls as the
** forward, again for a recompute, and one pipeline send — not multiplied. */
double mdl_stage_fb(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c, double tok,
                    double sq, double eff, double *bwd);
/* mdl_stage_fb for n micro-batches into fwd[i] and bwd[i] (bwd NULL: forwards only). */
void   mdl_stage_fb_n(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c,
                      const double *tok, const double *sq, double eff, double *fwd, double *bwd, int n);
/* The same for n micro-batches (tok[i], sq[i]) into out[i]: the value
** mdl_stage_fwd gives for each, its per-pipeline factors worked out once. */
void   mdl_stage_fwd_n(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c,
                       const double *tok, const double *sq, double eff, double *out, int n);
/* Context parallelism and overlap on a stage (docs/model.md, section 7):
** cp ranks a sequence is split over (link lcp joins them), ring attention
** or Ulysses (scn_cp_kind), and the shares o_tp, o_ep of the TP all-reduces
** and EP all-to-alls that run concurrently with the stage's compute. */
void   mdl_stage_par(mdl_stage *c, const scn_model *m, int cp, int cp_kind, const scn_link *lcp, double o_tp,
                     double o_ep);
/* Context-parallel communication (s) one layer exposes for `tok` tokens of
** the micro-batch whose squared lengths sum to `sq`; `attn_s` is the
** rank's attention compute time of the layer.  Ulysses (Jacobs et al.,
** arXiv 2309.14509): all-to-alls of Q, K, V and the output, each rank's
** tok/cp tokens at its TP share of the widths.  Ring (Liu et al., arXiv
** 2310.01889; Megatron context parallelism): cp − 1 sends of the local K/V
** block, each hidden behind the block's attention, attn_s/cp. */
double mdl_cp_layer(const mdl_stage *c, double tok, double attn_s, double link_eff);
/* Exposed time (s) of `comm` seconds of communication of which a share
** `o` runs concurrently with `compute` seconds of work: (1 − o)·comm, and
** of o·comm what outlasts the compute. */
double mdl_exposed(double comm, double o, double compute);
/* ZeRO's data-parallel communication of a mini-batch of `micro`
** micro-batches from A and R above (docs/model.md, section 7): returns the
** exposed per-micro-batch part (prefetching hides the share `overlap`);
** *grad gets the gradient reduction at the end of the mini-batch (which
** plan.train.overlap_grad may run during the last backward, mdl_exposed),
** *after the parameter all-gather after the optimizer (ZeRO-2).  A
** forward-only pass (train false) gathers ZeRO-3 parameters once a
** micro-batch and has no end part. */
double mdl_zero_comm(int zero, double overlap, double g, double a, double r, int micro, int train, double *grad,
                     double *after);

/* plan.train.balance = step in closed form (docs/model.md, section 7):
** the expected most loaded of dp ranks' mini-batch slices over their mean,
** each slice c of a rank's nmb·c sequences of length coefficient of
** variation cv (drawn without replacement: variance c·σ²·(1 − 1/nmb)),
** the largest of dp near-normal sums at Blom's quantile
** Φ⁻¹((dp − 0.375)/(dp + 0.25)): 1 + z·cv·sqrt((1 − 1/nmb)/c). */
double mdl_step_balance(int dp, int nmb, double c, double cv);

/* 1F1B over p stages and m equal micro-batches (forward f, backward b):
** (m + p − 1)(f + b); forward-only passes the same with b = 0. */
double mdl_1f1b(int p, int m, double f, double b);
/* Forward pass (s) of an aux pool (data-parallel replicas of aux_tp devices
** each) over `tok` tokens with squared lengths summing to `sq`. */
double mdl_aux_fwd(const scn_model *m, const scn_device *d, const scn_efficiency *e, const scn_link *l, int devices,
                   int aux_tp, int aux_replicas, double tok, double sq);
/* Optimizer step (s): ~30 bytes of HBM traffic per local parameter (Adam's
** fp32 master, m, v read and written, bf16 grads read and weights written),
** sharded by ZeRO >= 1 over the shard groups (dp: dense, edp: expert
** parameters), plus the per-step overhead. */
double mdl_optimizer(const scn_device *d, const scn_efficiency *e, int zero, int dp, int edp, double psi_d,
                     double psi_e);
/* Resharding `bytes` of rollout weights over link l in buckets. */
double mdl_reshard(double bytes, double bucket_bytes, const scn_link *l, double link_eff);
/* Weight sync to a separate rollout pool: its devices receive their shards
** (`bytes` each) while the training devices push one full copy (2 bytes a
** parameter) per instance; bucketed. */
double mdl_weight_sync(double bytes, double params_total, int instances, int train_devices, double bucket_bytes,
                       const scn_link *l, double link_eff);

/* A weight sync or a co-located reshard as the frameworks run it
** (docs/model.md, sections 8 and 9; plan.sync_model "gather"): the trained
** weights are gathered out of the training layout bucket by bucket (the
** owning pipeline stage broadcasts its TP/EP shard to the other stages, the
** ZeRO-3 shard group all-gathers it, the TP and expert groups all-gather the
** full tensor, as verl's Megatron per_tensor_generator and FSDP's full state
** dict do), converted to the inference layout in HBM, sent to a separate
** rollout pool by NCCL broadcast (co-located: already on the device), and
** loaded by the engine, which copies its own shard out of the full tensor.
** The steps of one bucket run one after another, and the buckets in turn. */
typedef struct {
    double full_bytes;      /* the whole model in the inference dtype (2 bytes a parameter) */
    double expert_share;    /* the experts' share of full_bytes */
    double rollout_bytes;   /* R: the weights one rollout device keeps */
    int    tp, pp, ex, shard;   /* training TP, PP, expert group (EP·ETP), ZeRO-3 shard group (1: none) */
    scn_link ltp, lpp, lex, ldp;    /* the links of those groups, every group at once */
    bool   local;           /* co-located: no network transfer */
    scn_link lxfer;         /* separate: the link the broadcast crosses */
    double bucket_bytes;
    double hbm_bw;          /* a device's HBM bytes/s, efficiency applied */
    double link_eff;
    double bucket_s;        /* fixed host time per bucket (efficiency.sync_bucket_ms) */
    /* An FP8 engine (plan.rollout.weights_dtype): the BF16 bytes of the
    ** weights one rollout device quantises as they load (0: none), read once
    ** and written in FP8, on HBM of quant_hbm_bw (efficiency applied);
    ** rollout_bytes is then what the device holds, FP8 and BF16 */
    double quant_bytes, quant_hbm_bw;
} mdl_sync_in;

typedef struct {
    int    buckets;
    double gather_s, convert_s, transfer_s, load_s, fixed_s;   /* sums over the buckets */
    double quant_s;         /* the FP8 quantisation of the loaded weights (load_s excludes it) */
    double total_s;
} mdl_sync;

mdl_sync mdl_sync_gather(const mdl_sync_in *in);

/* ---- costs that do not shrink with more devices, and shared links
** (docs/model.md, sections 2, 4 and 10) */

/* Rule-based reward of `samples` samples scored on a pool of `workers` CPU
** processes (verl's reward managers: one process in the driver, or a
** process pool of 64): samples · per-sample time / workers.  The pool does
** not grow with the devices. */
double mdl_reward_cpu(double samples, double per_sample_s, int workers);
/* A single controller gathers `bytes` of per-sample tensors into its one
** process over its NIC and scatters them back to the trainer, one remote
** call per worker (`workers` of them, request_s each, one after another):
** 2 · bytes / (B · η) + 2α + workers · request_s.  The driver's NIC does not
** grow with the devices, and its calls grow with them. */
double mdl_driver_gather(double bytes, int workers, double request_s, const scn_link *nic, double link_eff);
/* Devices sharing one scale-out NIC: cluster.devices_per_nic, at least 1. */
int mdl_nic_share(const scn_cluster *c);
/* Readers behind one NIC when one device in every `group` reads (DistQueue
** with hierarchy: one per TP×PP group) and `readers` read in all:
** min(ceil(devices_per_nic / group), readers), at least 1. */
int mdl_nic_readers(const scn_cluster *c, int group, int readers);
/* The scale-out tier as each device sees it when every device of a
** supernode crosses at once (a cross-supernode all-reduce of all DP groups):
** inter_supernode bandwidth ÷ (cluster.scaleout_oversubscription ·
** cluster.devices_per_nic). */
scn_link mdl_scaleout_shared(const scn_cluster *c);
/* A tier's link for a transfer in which every device of a node takes part
** at once (collectives of every group, weight sync, reshard): tier 2 as
** above, tier 1 (across nodes) intra_supernode ÷ cluster.devices_per_nic,
** tier 0 unchanged. */
scn_link mdl_tier_link_shared(const scn_cluster *c, int tier);
/* The queue's CPU side: a serving node answers each of `readers` read
** requests (each reader asks every node holding part of its share) one after
** another, request_s each.  Hierarchy cuts the readers by TP·PP. */
double mdl_queue_requests(int readers, double request_s);
/* Host-link bandwidth per device when every device moves data at once:
** host_gbps · η / cluster.devices_per_host_link (devices behind one PCIe
** switch share its uplink). */
double mdl_host_bw_shared(const scn_cluster *c, double host_link_eff);

/* ---- attention and training from the real shapes (docs/model.md) */

/* head_dim, or hidden/heads when the model gives none. */
double mdl_head_dim(const scn_model *m);
/* Attention FLOPs per layer per (query, key) pair: GQA 4·a·d; MLA expanded
** 2·a·(2d + r), absorbed (decode) 2·a·(2·kv_lora + r) (DeepSeek-V2,
** arXiv 2405.04434). */
double mdl_attn_pair_flops(const scn_model *m, bool absorbed);
/* Causal attention FLOPs of sequences whose squared lengths sum to sq. */
double mdl_attn_flops_causal(const scn_model *m, double sq);
/* Parameters that are a lookup, not a matmul: the untied input embedding. */
double mdl_lookup_params(const scn_model *m);
/* Active parameters that multiply each token: P_active less the lookup. */
double mdl_matmul_params(const scn_model *m);
/* Copies of the KV cache over a TP group: GQA tp·ceil(kv/tp)/kv, MLA tp. */
double mdl_kv_replication(const scn_model *m, int tp);
/* Bytes a gradient is accumulated and reduced in: 4 (FP32, Megatron's
** default) or 2 (plan.train.grad_dtype = "bf16"). */
double mdl_grad_bytes(const scn_train_layout *t);

/* ---- memory mechanisms of the RL frameworks (docs/model.md, sections 3, 7) */

/* Bytes one token keeps for the backward in one layer, before TP, term by
** term (docs/model.md, section 3, activations; Korthikanti et al., arXiv
** 2205.05198, section 4.1, BF16): the two norms' inputs (norms), the QKV and
** MLP input projections' inputs (inputs, MLA's latents too), Q/K/V as the
** attention kernel keeps them, its output, the fused kernel's FP32
** log-sum-exp (stats, recompute none, fused) or the softmax output and its
** dropout (scores, materialised), the hidden dropout masks (dropout > 0),
** the MLP (gelu 4f, gated 6f; MoE: k copies of 2h + 6f_e, the router's
** scores, the shared experts; the mean over the layers).  Selective: the
** attention core recomputed, no stats or scores.  Full: the layer's input,
** 2h, alone in total.  moe_gather: the part of mlp an expert-TP group
** all-gathers, k·(2h + 4) a token of a MoE layer (the expert fc1's input
** and the routing probability of each routed copy), the layers' mean;
** counted once in total, etp times by mdl_act_bytes_etp. */
typedef struct {
    double norms, inputs, qkv, attn_out, stats, scores, dropout, mlp;
    double moe_gather;
    double total;
} mdl_act_terms;
mdl_act_terms mdl_act_terms_of(const scn_model *m, double seq_max, scn_recompute rc, scn_attention attn);
/* Activation bytes one layer holds for a micro-batch of `tokens` tokens
** whose longest sequence is seq_max: tokens · mdl_act_terms_of(...).total
** / tp (sequence parallelism splits the hidden-wide tensors, TP the heads
** and the MLP's width).  A materialised score matrix is bounded by
** Σ s_i² ≤ s_max·Σ s_i over a token budget's worst mix. */
double mdl_act_bytes_tokens(const scn_model *m, double tokens, double seq_max, int tp, scn_recompute rc,
                            scn_attention attn);
/* The same under expert tensor parallelism (docs/model.md, section 3,
** "Activations"): a MoE layer's token dispatcher all-gathers the routed
** copies over the etp ranks of an expert-TP group, so each holds etp times
** the h-wide routed tensors while the f_e-wide ones stay split etp ways:
** tokens · (total + (etp − 1)·moe_gather) / tp.  etp 1 (or ≤ 0) is
** mdl_act_bytes_tokens. */
double mdl_act_bytes_etp(const scn_model *m, double tokens, double seq_max, int tp, int etp, scn_recompute rc,
                         scn_attention attn);
/* The host's share of an offloaded optimizer step (s) for psi_shard
** parameters a device's shard puts on the host (ZeRO-Offload, Ren et al.,
** arXiv 2101.06840): the gradients down over the device's share of the
** host link (grad_bytes a parameter), CPU Adam's 30 bytes a parameter at
** the device's share of the node's host memory bandwidth, the BF16
** parameters up. */
double mdl_optimizer_host(const scn_cluster *c, double host_link_eff, double psi_shard, double grad_bytes);

#endif
