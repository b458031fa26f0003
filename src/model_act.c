/*
** model_act.c — the activations a training micro-batch keeps for its
** backward, term by term (docs/model.md, section 3: "Activations", the
** attention kernel, token budgets, expert tensor parallelism), declared in
** model.h.  Split from model.c, which keeps the time formulas.
*/
#include "model.h"

/* The MLP's stored bytes a token of width f (docs/model.md, section 3, the
** table of terms), its input not counted (the norm's output, counted once
** for the block): Megatron-LM megatron/core/transformer/mlp.py, MLP.forward —
** linear_fc1 keeps its input; the activation keeps fc1's output (gelu: f
** wide, bias_gelu; gated: 2f, bias_swiglu_impl saves the whole [gate, up]
** input, megatron/core/fusions/fused_bias_swiglu.py); linear_fc2 keeps the
** activation's output, f wide.  GeLU 2f + 2f, gated 4f + 2f, BF16. */
static double mlp_bytes(scn_mlp kind, double f)
{
    return kind == MLP_GELU ? 4.0 * f : 6.0 * f;
}

mdl_act_terms mdl_act_terms_of(const scn_model *m, double seq_max, scn_recompute rc, scn_attention attn)
{
    mdl_act_terms t = {0};
    double h = m->hidden, a = m->heads, d = mdl_head_dim(m);
    if (rc == RECOMPUTE_FULL) {
        /* only each layer's input (Korthikanti et al., section 4.2.3) */
        t.total = 2.0 * h;
        return t;
    }
    bool drop = m->dropout > 0;
    /* two norms (input and pre-MLP), each keeping its input: 2h each; and
    ** the linear after each keeps the norm's output: 2h each (Korthikanti
    ** et al., section 4.1: "LayerNorm ... 4sbh", "QKV matrix multiplies
    ** 2sbh", "first linear layer 2sbh") */
    t.norms = 4.0 * h;
    t.inputs = 4.0 * h;
    if (m->mla_latent > 0) {
        /* MLA (DeepSeek-V2, arXiv 2405.04434): the down projections' outputs
        ** feed a norm and an up projection each (2 · 2 bytes a latent), the
        ** rope part of K rides with the KV latent; heads of d + r for Q, K */
        double r = m->mla_rope, c = m->mla_latent, cq = m->mla_q_latent;
        t.inputs += 4.0 * (c + cq) + 2.0 * r;
        t.qkv = 2.0 * a * (d + r) * 2.0 + 2.0 * a * d;
        t.attn_out = 2.0 * a * d;
    } else {
        double kv = m->kv_heads > 0 ? m->kv_heads : a;
        /* Q of a heads, K and V of kv heads (GQA), as the attention kernel
        ** keeps them; its output is the output projection's input, kept once */
        t.qkv = 2.0 * a * d + 4.0 * kv * d;
        t.attn_out = 2.0 * a * d;
    }
    if (rc == RECOMPUTE_NONE) {
        if (attn == ATTN_MATERIALIZED)
            /* the softmax output, 2·a·s bytes a token; with dropout its mask
            ** (a·s) and output (2·a·s) too: Korthikanti et al.'s 5as */
            t.scores = (drop ? 5.0 : 2.0) * a * seq_max;
        else
            /* FlashAttention keeps the FP32 log-sum-exp of each head and
            ** regenerates its dropout mask from the RNG state (Dao et al.,
            ** arXiv 2205.14135, section 3.1) */
            t.stats = 4.0 * a;
    }
    /* hidden dropout after the attention and the MLP: a 1-byte mask each
    ** (Megatron-LM megatron/core/transformer/transformer_layer.py,
    ** self_attn_bda and mlp_bda: bias-dropout-add at hidden_dropout) */
    if (drop) t.dropout = 2.0 * h;
    double dense = mlp_bytes(m->mlp, m->ffn > 0 ? m->ffn : 4.0 * h);
    if (m->experts > 0) {
        /* a MoE layer (Megatron-LM megatron/core/transformer/moe/experts.py,
        ** TEGroupedMLP.forward): k routed copies of the token, each the
        ** expert fc1's input (2h) and an MLP of width expert_ffn, the
        ** router's probabilities applied in the activation (weighted
        ** swiglu, the probs kept: 4 bytes a copy); the router's scores, E
        ** a token (BF16, moe_router_dtype unset); the shared experts an MLP
        ** of width shared·expert_ffn on the token itself.  Routing is
        ** taken as balanced over the devices. */
        double k = m->experts_active, fe = m->expert_ffn;
        double moe = k * (2.0 * h + mlp_bytes(m->mlp, fe) + 4.0) + 2.0 * m->experts;
        if (m->shared_experts > 0) moe += mlp_bytes(m->mlp, (double)m->shared_experts * fe);
        double L = m->layers > 0 ? m->layers : 1, ld = m->dense_layers;
        /* the layers' mean: dense_layers dense ones, the rest MoE */
        t.mlp = (ld * dense + (L - ld) * moe) / L;
        /* of it, what an expert-TP group gathers whole on each of its ranks:
        ** the fc1 input and the probability of each copy (mdl_act_bytes_etp) */
        t.moe_gather = (L - ld) * k * (2.0 * h + 4.0) / L;
    } else {
        t.mlp = dense;
    }
    t.total = t.norms + t.inputs + t.qkv + t.attn_out + t.stats + t.scores + t.dropout + t.mlp;
    return t;
}

double mdl_act_bytes_tokens(const scn_model *m, double tokens, double seq_max, int tp, scn_recompute rc,
                            scn_attention attn)
{
    /* everything a layer keeps is split over the TP ranks: the hidden-wide
    ** tensors by sequence parallelism, the heads and the MLP's width by TP */
    return tokens * mdl_act_terms_of(m, seq_max, rc, attn).total / tp;
}

/* Expert tensor parallelism (docs/model.md, section 3, "Activations"):
** under sequence parallelism a MoE layer's input is the s·b/tp tokens of
** the rank (megatron/core/transformer/moe/token_dispatcher.py, NVIDIA/
** Megatron-LM d98e8a64dd: "[S/TP, B, H] -> [S*B/TP, H]").  The all-to-all
** dispatcher permutes their k copies, exchanges them over the EP group and,
** with an expert-TP group of etp > 1, all-gathers them over it
** (MoEAlltoAllTokenDispatcher.dispatch_postprocess,
** gather_from_sequence_parallel_region on the expt_tp group); the
** all-gather dispatcher gathers the tp_ep group's tokens and keeps the local
** experts' copies, the same count.  So each rank of an expert holds
** etp·(s·b/tp)·k copies, balanced: TEGroupedMLP's fc1 (experts.py, its TE
** GroupedLinear built without TP communication, explicit_expert_comm) keeps
** that input whole, 2h a copy, and the weighted SwiGLU the probabilities,
** 4 bytes a copy; fc1's output and fc2's input are 2f_e/etp and f_e/etp
** wide, 6f_e/etp a copy, so etp·6f_e/etp = 6f_e: split tp ways as before.
** Per token of the micro-batch: (total + (etp − 1)·k·(2h + 4))/tp. */
double mdl_act_bytes_etp(const scn_model *m, double tokens, double seq_max, int tp, int etp, scn_recompute rc,
                         scn_attention attn)
{
    mdl_act_terms t = mdl_act_terms_of(m, seq_max, rc, attn);
    double g = etp > 1 ? (double)(etp - 1) * t.moe_gather : 0.0;
    return tokens * (t.total + g) / tp;
}
