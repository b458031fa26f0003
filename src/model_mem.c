/*
** model_mem.c — the time memory-saving mechanisms cost (docs/model.md,
** sections 3, 7 and 8): ZeRO-3 gathers of frozen models, host reloads,
** LoRA's adapters.
*/
#include "model_mem.h"

#include "model.h"

double mdl_frozen_gather(double allreduce_s, double overlap, int micro)
{
    if (micro <= 0 || allreduce_s <= 0) return 0.0;
    /* an all-gather moves half the bytes of a ring all-reduce (ZeRO,
    ** arXiv 1910.02054, section 7); forward only: one gather a micro-batch */
    return micro * (1.0 - overlap) * allreduce_s / 2.0;
}

double mdl_param_reload(double bytes, const scn_cluster *c, double host_link_eff)
{
    if (bytes <= 0) return 0.0;
    return bytes / mdl_host_bw_shared(c, host_link_eff);
}

/* r·(d_in + d_out) for each adapted matrix, shapes as scn_model_derive
** counts the parameters (src/scenario.c: GQA or MLA attention, SwiGLU FFN) */
mdl_lora mdl_lora_params(const scn_model *m, int rank, scn_lora_targets t)
{
    mdl_lora o = {0};
    if (rank <= 0 || m->layers <= 0 || m->heads <= 0) return o;
    double r = rank, h = m->hidden, a = m->heads;
    double d = m->head_dim > 0 ? m->head_dim : h / a;
    double attn;
    if (m->mla_latent > 0) {
        double rp = m->mla_rope, kvl = m->mla_latent, ql = m->mla_q_latent;
        double q = ql > 0 ? (h + ql) + (ql + a * (d + rp)) : h + a * (d + rp);
        attn = q + (h + kvl + rp) + (kvl + a * 2 * d) + (a * d + h);
    } else {
        double kv = m->kv_heads > 0 ? m->kv_heads : a;
        attn = (h + a * d) + 2 * (h + kv * d) + (a * d + h);
    }
    attn *= r;
    if (t == LORA_ATTENTION) {
        o.layer_dense = o.layer_active = attn;
        return o;
    }
    double ffn1 = 3.0 * r * (h + m->ffn);                  /* gate, up: h→ffn; down: ffn→h */
    if (m->experts <= 0) {
        o.layer_dense = o.layer_active = attn + ffn1;
        return o;
    }
    double L = m->layers, moe = L - m->dense_layers;
    double e1 = 3.0 * r * (h + m->expert_ffn);
    double shared = m->shared_experts * e1 + r * (h + m->experts);     /* + the router */
    o.layer_dense = attn + (m->dense_layers * ffn1 + moe * shared) / L;
    o.layer_expert = moe * m->experts * e1 / L;
    o.layer_active = o.layer_dense + moe * m->experts_active * e1 / L;
    return o;
}

void mdl_stage_lora(mdl_stage *c, const scn_model *m, int rank, scn_lora_targets t)
{
    if (rank <= 0) return;
    c->lora = rank;
    /* the adapters' parameters a token passes, over all the layers, as
    ** p_layers counts the base's */
    c->p_lora = mdl_lora_params(m, rank, t).layer_active * m->layers;
}

void mdl_stage_entropy(mdl_stage *c, scn_entropy kind)
{
    c->ent_f = mdl_entropy_traffic(kind, &c->ent_b);
}

double mdl_logits_bytes(double tokens, int seqs, double vocab_rank, int tp, scn_logits kind, int chunk)
{
    if (tokens <= 0 || vocab_rank <= 0) return 0.0;
    if (kind == LOGITS_FP32) return tokens * vocab_rank * 4.0;
    /* eager: the BF16 logits the LM head wrote stay referenced through the
    ** log-softmax; the FP32 copies exist at once at its peak (the upcast,
    ** logits − max and the output under TP, whose max and sum are
    ** all-reduced; torch's fused log_softmax needs no shifted copy) */
    double fp32 = tp > 1 ? 3.0 : 2.0;
    double ftok = tokens;
    if (chunk > 0 && seqs > 0 && (double)chunk * seqs < tokens) ftok = (double)chunk * seqs;
    return tokens * vocab_rank * 2.0 + ftok * vocab_rank * 4.0 * fp32;
}

/* verl's entropy over the logits (verl/utils/torch_functional.py at
** b178a3c): entropy_from_logits is p = softmax(x), then logsumexp(x) −
** Σ p·x; entropy_from_logits_with_chunking runs the same on x[i : i+2048]
** cast to FP32.  With the gradient (verl/workers/actor/dp_actor.py,
** update_policy: calculate_entropy or entropy_coeff != 0) the flash-attn
** cross-entropy runs with inplace_backward = False: its gradient of the
** logits is a new [T, V] tensor, the entropy's another, summed into it.
** The figure is what the entropy holds beyond the LM head's backward's own
** peak, which every run has: the logits are divided in place by the
** temperature through a view (logits_rmpad.div_), so autograd's CopySlices
** (torch/csrc/autograd/functions/tensor.cpp) holds the incoming gradient,
** its copy in the base's shape, a clone of the slice and the division's
** output at once, 4 BF16 copies.  Beside the logits (BF16, 2 bytes an entry):
**   compiled: the logits, the loss's gradient and the entropy's, 3 copies,
**     below the 4: 0 (Inductor saves x and per-row reductions and recomputes
**     p in the backward; allenai/open-instruct pull request 584 measures the
**     compiled log-softmax's full-size intermediate gone);
**   eager: p kept for SoftmaxBackward (2) beside the logits, the summed
**     gradient and MulBackward's two outputs (g·x for p, g·p for x), then
**     the softmax's backward output: 5 copies, 2 bytes over the 4;
**   chunked: every chunk's FP32 copy and FP32 softmax kept (4 + 4) beside
**     the logits, the summed gradient and SliceBackward's zero-filled
**     full-size gradient of a chunk: 14 bytes, 6 over the 4 copies' 8.
** Without the gradient (compute_log_prob under no_grad, no CopySlices):
** compiled fuses, nothing of [T, V]; eager p and p·x (2 + 2); chunked the
** FP32 copy, its softmax and their product for 2048 rows (3 · 4).
** OpenRLHF's compute_entropy (openrlhf/models/utils.py at 3c3be62, under
** torch.compile) takes the logits cast to FP32 (openrlhf/models/actor.py);
** the temperature division is on that copy, no view, and the flash-attn
** cross-entropy's gradient is a new FP32 tensor (inplace_backward False, its
** default): the entropy's FP32 gradient beside the two is 4 bytes over the
** head's backward (compiled_fp32); nothing of [T, V] without the gradient.
** torch.utils.checkpoint around it (entropy_checkpointing) recomputes the
** forward at the head's backward, where these figures are taken: it changes
** none of them. */
double mdl_entropy_bytes(double tokens, double vocab_rank, scn_entropy kind, bool grad)
{
    if (tokens <= 0 || vocab_rank <= 0) return 0.0;
    if (grad) {
        double b = kind == ENTROPY_CHUNKED ? 6.0 : kind == ENTROPY_EAGER ? 2.0 : kind == ENTROPY_COMPILED_FP32 ? 4.0 : 0.0;
        return tokens * vocab_rank * b;
    }
    if (kind == ENTROPY_COMPILED || kind == ENTROPY_COMPILED_FP32) return 0.0;
    if (kind == ENTROPY_EAGER) return tokens * vocab_rank * 4.0;
    return (tokens < 2048.0 ? tokens : 2048.0) * vocab_rank * 12.0;
}

/* HBM traffic, a tensor of [T, V] read or written once costing its bytes a
** entry: compiled, the forward reads the BF16 logits twice (the maximum,
** then the exponentials' and Σ p·x sums) and the backward reads them, writes
** the gradient and adds it into the loss's (2 + 2 + 6); eager, each kernel a
** pass (softmax 6, logsumexp 8, p·x 6, its sum 2: 22 forward; twice that
** backward); chunked, the same passes on FP32 copies plus the cast (50
** forward, 88 backward); compiled_fp32 the compiled passes on FP32 logits
** (8 and 20). */
double mdl_entropy_traffic(scn_entropy kind, double *bwd)
{
    static const double F[] = {4.0, 22.0, 50.0, 8.0}, B[] = {10.0, 44.0, 88.0, 20.0};
    double f = F[kind];
    if (bwd) *bwd = B[kind];
    return f;
}

double mdl_runtime_bytes(const scn_plan *p, int comms)
{
    double nccl = p->nccl_channels > 0 && comms > 0 ? (double)comms * p->nccl_channels * 2.0 * p->nccl_buffsize : 0.0;
    return p->cuda_context_bytes + nccl;
}

double mdl_engine_kept(const scn_plan *p, bool beside_trainer)
{
    const scn_rollout_layout *r = &p->rollout;
    /* vLLM's sleep unmaps only the CuMemAllocator's tagged pools ("weights",
    ** "kv_cache": vllm/device_allocator/cumem.py); the graphs are captured
    ** into torch's own graph pool after the KV cache is allocated and stay
    ** mapped.  The hybrid and eager engines capture nothing. */
    bool graphs = r->cuda_graphs && (r->engine == ENGINE_VLLM || r->engine == ENGINE_SGLANG);
    double kept = graphs ? r->graph_pool_bytes : 0.0;
    /* a second process on the device has its own context (one is counted
    ** for the trainer by mdl_runtime_bytes) */
    if (beside_trainer && r->own_process) kept += p->cuda_context_bytes;
    return kept;
}

/* docs/model.md, section 3, "What vLLM's KV cache gets": the peak of the
** profile run vLLM makes before it sizes its KV cache (`profile_run`:
** `_dummy_run` over max_num_batched_tokens tokens, then
** `_dummy_sampler_run` on the last token of min(max_num_seqs, tokens)
** dummy requests; vllm/v1/worker/gpu_model_runner.py), per device of the
** TP group, bytes.  The forward holds the residual stream and a layer's
** input ([T, h] BF16 each) beside the larger of a layer's transients: the
** MLP's gate-up output and its activation ([T, 2f/t] and [T, f/t]; for an
** MoE layer, per routed copy of a token, the experts' [k·T, 2f_e/t] and
** [k·T, f_e/t]) or the attention's QKV and output ([T, (a + 2·kv)·d/t]
** and [T, a·d/t]).  The sampler runs on the whole vocabulary (the logits
** are gathered over the TP ranks; vllm/v1/worker/gpu_model_runner.py's
** dummy sampler asks for top-k and top-p).  At its peak an entry holds
** the LM head's BF16 logits kept by the caller (2 bytes) and their FP32
** copy (4), and then either (`sort`: the PyTorch path,
** apply_top_k_top_p_pytorch, vllm/v1/sample/ops/topk_topp_sampler.py at
** 01fa3fe7, the V1 worker's path before FlashInfer's sampler was on by
** default) the sorted values and int64 indices (4 + 8), the top-k mask
** (1), the top-p softmax that cumsum overwrites (4) and the top-p mask (1):
** 24 bytes; or (FlashInfer's sampler, on by default on CUDA at 01fa3fe7:
** flashinfer's top_k_top_p_sampling_from_logits, top_k_mask_logits then
** softmax) the masked logits and their probabilities (4 + 4): 14 bytes.
** The forward's [T, h] hidden states are still referenced. */
double mdl_vllm_profile_peak(const scn_model *m, int tp, double tokens, int seqs, bool sort)
{
    if (tokens <= 0 || m->layers <= 0 || m->hidden <= 0) return 0.0;
    double t = tp > 0 ? tp : 1, T = tokens, h = m->hidden;
    double a = m->heads > 0 ? m->heads : 1;
    double d = m->head_dim > 0 ? m->head_dim : h / a;
    double kv = m->kv_heads > 0 ? m->kv_heads : a;
    double layer = 0;
    if (m->experts <= 0 || m->dense_layers > 0) layer = 3.0 * m->ffn / t;
    if (m->experts > 0) {
        double moe = (m->experts_active + m->shared_experts) * 3.0 * m->expert_ffn / t;
        if (moe > layer) layer = moe;
    }
    double attn = m->mla_latent > 0 ? a * (d + m->mla_rope) * 2.0 / t + a * d / t : ((a + 2.0 * kv) * d + a * d) / t;
    if (attn > layer) layer = attn;
    double fwd = T * (2.0 * h + layer) * 2.0;
    double S = seqs > 0 && seqs < T ? seqs : T;
    double samp = T * h * 2.0 + S * m->vocab * (sort ? 24.0 : 14.0);
    return fwd > samp ? fwd : samp;
}

/* docs/model.md, section 3, "What vLLM's KV cache gets": what vLLM's
** profile counts outside torch's allocator, per device.  No formula of its
** parts is applied (NCCL's, the custom all-reduce's and cuBLAS's buffers
** together); the figures are vLLM's own measurements, by what the budget
** counts (scn_mem_scope).  The engine's own budget (instance) counts the
** increase since its start-up snapshot: 0.16 GiB at TP 1 (vLLM pull
** request 12126's log, H100) and 0.20 GiB a rank at TP > 1 (pull request
** 14447's log).  A share of the whole device (device) counts everything
** the device holds outside torch, the CUDA context included: 1.79 GiB at
** TP 1 and 3.58 GiB at TP 2 (pull request 10511's log, H100, where
** non_torch_memory was the device's use less torch's).  vLLM 0.19.0's H100
** logs print 2.06-2.21 GiB for the instance's increase at TP 2 and 4
** (docs/validation.md, "The engine's own budget"); not taken here, the
** reason is given there. */
double mdl_vllm_non_torch(scn_mem_scope scope, int tp)
{
    const double g = 1073741824.0;
    if (scope == MEMSCOPE_DEVICE) return (tp > 1 ? 3.58 : 1.79) * g;
    return (tp > 1 ? 0.20 : 0.16) * g;
}
