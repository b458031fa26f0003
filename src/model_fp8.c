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


/* ---- FP8 training (docs/model.md, section 7, "FP8 training").  Read in
** NVIDIA/TransformerEngine v2.8 (40c69e7, the version NeMo RL v0.5.0 pins),
** transformer_engine/pytorch/module/linear.py, and Megatron-Core
** (NVIDIA/Megatron-LM d98e8a6) megatron/core/extensions/transformer_engine.py. */

double mdl_fp8_train_cast_bytes(scn_fp8_recipe r)
{
    /* _Linear.forward quantises its input with row-wise usage for the
    ** forward GEMM and column-wise usage for the weight gradient
    ** (input_quantizer.set_usage(rowwise=True, columnwise=backward_needs_input));
    ** on Hopper the column-wise data is a transposed FP8 copy: a BF16 read
    ** (2) and two 1-byte writes.  The backward quantises each output
    ** gradient the same way (row-wise for dgrad, column-wise for wgrad).
    ** Current scaling (Float8CurrentScalingQuantizer) computes the tensor's
    ** amax before it casts: one more BF16 read.  Delayed scaling takes its
    ** scale from the amax history and reduces the new amax in the cast
    ** kernel.  Blockwise (Float8BlockQuantizer, 1×128 tiles for activations
    ** and gradients) writes an FP32 scale each 128 elements of each copy. */
    double b = 2.0 + 1.0 + 1.0;
    if (r == FP8_TENSORWISE) b += 2.0;
    if (r == FP8_BLOCKWISE) b += 2.0 * 4.0 / 128.0;
    return b;
}

/* the MLP's linear inputs and output gradients a token, width f: fc1's
** input h, fc2's input f; fc1's output 2f gated (f GeLU), fc2's h */
static void mlp_elems(scn_mlp kind, double h, double f, double *in, double *gout)
{
    *in = h + f;
    *gout = (kind == MLP_GELU ? f : 2.0 * f) + h;
}

void mdl_fp8_train_elems(const scn_model *m, double *in, double *gout)
{
    double h = m->hidden, a = m->heads > 0 ? m->heads : 1, d = mdl_head_dim(m);
    double kv = m->kv_heads > 0 ? m->kv_heads : a;
    /* attention: QKV's input h and output (a + 2·kv)·d, the output
    ** projection's input a·d and output h (MLA's down and up projections
    ** are counted as this GQA shape: an approximation) */
    double ai = h + a * d, ag = (a + 2.0 * kv) * d + h;
    double di, dg;
    mlp_elems(m->mlp, h, m->ffn > 0 ? m->ffn : 4.0 * h, &di, &dg);
    double mi = di, mg = dg;
    if (m->experts > 0) {
        /* a MoE layer: each of the k routed copies passes the expert's fc1
        ** and fc2 (TEGroupedLinear), the shared experts a gated MLP of
        ** width shared·expert_ffn on the token; the layers' mean */
        double k = m->experts_active, fe = m->expert_ffn, ei, eg;
        mlp_elems(m->mlp, h, fe, &ei, &eg);
        double moe_i = k * ei, moe_g = k * eg;
        if (m->shared_experts > 0) {
            double si, sg;
            mlp_elems(m->mlp, h, (double)m->shared_experts * fe, &si, &sg);
            moe_i += si;
            moe_g += sg;
        }
        double L = m->layers > 0 ? m->layers : 1, ld = m->dense_layers;
        mi = (ld * di + (L - ld) * moe_i) / L;
        mg = (ld * dg + (L - ld) * moe_g) / L;
    }
    *in = ai + mi;
    *gout = ag + mg;
}

double mdl_fp8_train_act_saving(const scn_model *m, scn_recompute rc, scn_fp8_recipe r)
{
    if (rc == RECOMPUTE_FULL) return 0.0;
    /* _Linear.forward keeps the quantised input for the backward
    ** (saved_inputmat = inputmat, the row-wise data discarded:
    ** update_usage(rowwise_usage=False, columnwise_usage=True)), one byte an
    ** element, with blockwise its 1×128 FP32 scales; _LayerNormLinear keeps
    ** its quantised ln_out the same way.  The norms' inputs, Q, K, V and the
    ** attention's statistics, the SwiGLU's [gate, up] input stay BF16. */
    mdl_act_terms t = mdl_act_terms_of(m, 1.0, rc, ATTN_FUSED);
    double h = m->hidden, f = m->ffn > 0 ? m->ffn : 4.0 * h;
    double mlp = 2.0 * f;    /* fc2's input */
    if (m->experts > 0) {
        double k = m->experts_active, fe = m->expert_ffn;
        double moe = k * (2.0 * h + 2.0 * fe);
        if (m->shared_experts > 0) moe += 2.0 * (double)m->shared_experts * fe;
        double L = m->layers > 0 ? m->layers : 1, ld = m->dense_layers;
        mlp = (ld * mlp + (L - ld) * moe) / L;
    }
    double bf16 = t.inputs + t.attn_out + mlp;
    double per = 1.0 + (r == FP8_BLOCKWISE ? 4.0 / 128.0 : 0.0);   /* an element kept in FP8 */
    return bf16 - bf16 / 2.0 * per;
}

double mdl_fp8_train_weight_extra(scn_fp8_recipe r, bool fp8_param)
{
    /* Megatron-Core's TE layers pass is_first_microbatch (TELinear.forward,
    ** disable_parameter_transpose_cache false), so Transformer Engine casts
    ** each weight once a mini-batch and keeps the result in the module's
    ** workspace (get_weight_workspace(cache_name="weight")): row-wise and,
    ** for the backward, column-wise FP8, each with its 128×128 scales
    ** under blockwise.  fp8_param (Megatron-Core fp8_param, TE's
    ** quantized_model_init) makes the parameter that FP8 tensor, in place
    ** of the BF16 copy; the FP32 master stays in the distributed optimizer
    ** and the gradients in their buffer. */
    double copies = 2.0 * (1.0 + (r == FP8_BLOCKWISE ? 4.0 / (128.0 * 128.0) : 0.0));
    return fp8_param ? copies - 2.0 : copies;
}

double mdl_fp8_train_linear_params(const scn_model *m, int tp, int pp, int ex)
{
    double sh = mdl_stage_share(m->layers, pp);
    double dense = (m->params_layer_dense - 2.0 * m->hidden) * m->layers * sh;
    if (dense < 0) dense = 0;
    return dense / (tp > 0 ? tp : 1) + m->params_expert * sh / (ex > 0 ? ex : 1);
}

void mdl_stage_fp8(mdl_stage *c, const scn_model *m, const scn_device *d, const scn_efficiency *e,
                   const scn_train_layout *t)
{
    c->f8_mm = c->f8_cast_f = c->f8_cast_b = 0.0;
    if (t->precision != DTYPE_FP8 || !(d->fp8_flops > 0)) return;
    /* the layers' linear GEMMs (Megatron-Core's TE modules: QKV, output
    ** projection, fc1, fc2, the grouped experts) run at the FP8 peak, the
    ** forward and both backward GEMMs (dgrad and wgrad take FP8 operands);
    ** the LM head (Megatron's ColumnParallelLinear, not a TE module), the
    ** attention core and the norms stay BF16.  An FP8 GEMM's operands are 1
    ** byte, so its arithmetic intensity in FLOP/B and the ridge both double
    ** and mdl_gemm_eff's r is as in BF16. */
    double eff = e->train_fp8 > 0 ? e->train_fp8 : 1.0;
    c->f8_mm = d->peak_flops / (d->fp8_flops * eff);
    double in, gout, b = mdl_fp8_train_cast_bytes(t->fp8_recipe);
    mdl_fp8_train_elems(m, &in, &gout);
    c->f8_cast_f = in * b;
    c->f8_cast_b = gout * b;
}
