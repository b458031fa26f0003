/*
** model_fp8.c — the bytes an FP8 rollout engine holds and reads
** (docs/model.md, section 5, "FP8 rollouts"; declared in model.h): its
** weights, the parameters it keeps in BF16 and those it quantises on each
** weight sync, and the KV bytes a token.  The rooflines that read them are
** model.c's step_roofline; the sync's quantisation pass is mdl_sync_gather.
*/
#include "model.h"

static int imax(int a, int b) { return a > b ? a : b; }

double mdl_fp8_param_bytes(void)
{
    /* e4m3, one byte, and one FP32 scale a 128×128 block (NeMo RL's and
    ** verl's FP8_BLOCK_QUANT_KWARGS, weight_block_size [128, 128]) */
    return 1.0 + 4.0 / (128.0 * 128.0);
}

double mdl_fp8_kept_params(const scn_model *m)
{
    /* vLLM's Fp8Config quantises LinearBase and FusedMoE layers only: the
    ** embedding and the LM head (VocabParallelEmbedding, ParallelLMHead) and
    ** the RMSNorm vectors (two a layer, as scn_model_derive counts them)
    ** stay in the model's dtype */
    double h = m->hidden;
    return (double)m->vocab * h * (m->tied_embeddings ? 1 : 2) + 2.0 * h * m->layers;
}

double mdl_rollout_weight_bytes(const scn_model *m, int tp, int ep, scn_dtype w)
{
    if (w != DTYPE_FP8) return 2.0 * mdl_rollout_params_per_device(m, tp, ep);
    double kept = mdl_fp8_kept_params(m), f8 = mdl_fp8_param_bytes();
    return (2.0 * kept + f8 * (m->params_dense - kept)) / tp + f8 * m->params_expert / imax(tp, ep);
}

double mdl_fp8_quant_params(const scn_model *m, int tp, int ep)
{
    return (m->params_dense - mdl_fp8_kept_params(m)) / tp + m->params_expert / imax(tp, ep);
}

double mdl_kv_token_bytes(const scn_model *m, const scn_rollout_layout *r)
{
    /* vLLM's FP8 KV cache: one byte an element, a per-layer k_scale and
    ** v_scale (scalars, not counted) */
    return r && r->kv_dtype == DTYPE_FP8 ? 0.5 * m->kv_bytes_per_token : m->kv_bytes_per_token;
}

