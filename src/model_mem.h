/*
** model_mem.h — the time memory-saving mechanisms cost: frozen models
** sharded ZeRO-3 (their parameters gathered for every micro-batch) and
** parameters parked on the host between phases (reloaded over the host
** link).  Pure functions of numbers, as model.h; docs/model.md, sections 3
** and 8, gives the formulas and their sources.
*/
#ifndef FUSYNC_MODEL_MEM_H
#define FUSYNC_MODEL_MEM_H

#include "model.h"
#include "scenario.h"

/* A frozen model held ZeRO-3 (verl's FSDP reference worker, DeepSpeed-Chat's
** and OpenRLHF's reference under ZeRO-3) gathers its whole parameters once
** per micro-batch of a forward-only pass: `allreduce_s` is the time of an
** all-reduce of the unsharded BF16 parameters over the shard group, an
** all-gather half of it; `overlap` the share prefetching hides.  No
** backward, so no second gather and no reduce-scatter. */
double mdl_frozen_gather(double allreduce_s, double overlap, int micro);

/* Parameters parked on the host between their phases (verl param_offload,
** DeepSpeed-Chat offload_reference_model) come back over the device's share
** of the host link before the phase: bytes / (host GB/s ÷ devices a host
** link · efficiency.host_link), every device in parallel. */
double mdl_param_reload(double bytes, const scn_cluster *c, double host_link_eff);

/* LoRA (Hu et al., arXiv 2106.09685, section 4.1): an adapted d_in×d_out
** matrix W gains B·A, A r×d_in and B d_out×r, r·(d_in + d_out) trainable
** parameters; W is frozen.  The adapted matrices (PEFT target_modules):
** all-linear, every linear layer of the blocks (attention projections, the
** dense, shared and routed experts' gate, up and down, the router), the LM
** head left out as PEFT leaves it; attention, the projections alone.  Means
** over the layers, as scn_model's params_layer_dense: `layer_dense` the
** adapters of the attention and dense or shared FFN, `layer_expert` those of
** every routed expert, `layer_active` those a token passes (its k experts). */
typedef struct {
    double layer_dense, layer_expert, layer_active;
} mdl_lora;
mdl_lora mdl_lora_params(const scn_model *m, int rank, scn_lora_targets t);

/* A training stage with LoRA (docs/model.md, section 3): the forward adds
** the adapters' GEMMs, 2·r·(d_in + d_out) FLOPs a token an adapted matrix;
** the backward computes the activation gradients through the frozen base
** (one forward's FLOPs, not two) and both gradients of the adapters.  The
** base's weight-gradient GEMMs, the LM head's included, are not run.
** rank 0 leaves the stage as it is. */
void mdl_stage_lora(mdl_stage *c, const scn_model *m, int rank, scn_lora_targets t);
/* The actor's loss takes the entropy with its gradient (plan.train.entropy_loss): its passes over the
** logits at the last stage (mdl_entropy_traffic). */
void mdl_stage_entropy(mdl_stage *c, scn_entropy kind);

/* The bytes the log-probs' copies of the logits take at their peak, for
** `tokens` tokens of `seqs` sequences (docs/model.md, section 3, the logits'
** copies), `vocab_rank` vocabulary entries a device (V/TP).  LOGITS_FP32:
** one FP32 copy, 4 bytes an entry.  LOGITS_EAGER: the BF16 logits (2) and,
** with TP > 1, three FP32 copies (the upcast, the max-shifted copy, the
** log-softmax's output: NeMo RL's DistributedLogprob), with TP 1 two
** (torch's log_softmax); a chunked log-softmax (`chunk` positions of every
** sequence at a time, 0: none) holds the FP32 copies for a chunk only. */
double mdl_logits_bytes(double tokens, int seqs, double vocab_rank, int tp, scn_logits kind, int chunk);
/* The bytes the token entropy over the vocabulary adds beside the logits'
** copies (docs/model.md, section 3, the entropy over the logits), for
** `tokens` tokens over a vocabulary shard of `vocab_rank` entries: with its
** gradient (`grad`, the training loss) the most it holds at once between
** its forward and the LM head's backward, without (a log-prob pass under
** no_grad) its forward's working set.  The logits are BF16 (2 bytes). */
double mdl_entropy_bytes(double tokens, double vocab_rank, scn_entropy kind, bool grad);
/* Bytes of HBM traffic a vocabulary entry of a token the entropy's passes
** move, forward (`bwd` NULL or not) and backward (docs/model.md, section 7). */
double mdl_entropy_traffic(scn_entropy kind, double *bwd);

/* Per device, what a process holds outside the allocator's ledger
** (docs/model.md, section 11): its CUDA context, and NCCL's buffers,
** `comms` communicators × channels × 2 ring peers × NCCL_BUFFSIZE. */
double mdl_runtime_bytes(const scn_plan *p, int comms);

/* Per device, what an inference engine holds outside the allocations its
** sleep frees (docs/model.md, section 8): the captured CUDA graphs' pool
** (cuda_graphs on a vllm or sglang engine) and, beside a trainer on the
** same devices (`beside_trainer`) when the engine has a process of its own,
** that process's CUDA context.  Held in every phase, asleep or awake. */
double mdl_engine_kept(const scn_plan *p, bool beside_trainer);

/* vLLM's profile run's activation peak per device of a TP-t instance
** (docs/model.md, section 3, "What vLLM's KV cache gets"): the larger of
** the forward over `tokens` (max_num_batched_tokens) and the sampler over
** min(seqs, tokens) rows of the vocabulary, sorted (`sort`: the PyTorch
** top-k/top-p path) or through FlashInfer's sampler. */
double mdl_vllm_profile_peak(const scn_model *m, int tp, double tokens, int seqs, bool sort);

/* What vLLM's profile counts outside torch's allocator per device, by what
** gpu_memory_utilization is a share of: vLLM's measured figures (no formula). */
double mdl_vllm_non_torch(scn_mem_scope scope, int tp);

#endif
