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
