/*
** model.c — cost and memory formulas.  See model.h for the sources.
**
** The collectives and the links they run over (mdl_allreduce and its
** NCCL tiers, the shared NICs) are in model_coll.c, the frozen models and
** LoRA in model_mem.c, the FP8 engine's bytes in model_fp8.c, the weight
** sync in model_sync.c, the activations' terms in model_act.c; every other formula docs/model.md names is one
** function here.
*/
#include "model.h"

#include <math.h>

mdl_states mdl_model_states(double psi, int dp, int zero)
{
    mdl_states s = {2.0 * psi, 2.0 * psi, 12.0 * psi};
    if (dp < 1) dp = 1;
    if (zero >= 1) s.optimizer /= dp;
    if (zero >= 2) s.grads /= dp;
    if (zero >= 3) s.weights /= dp;
    return s;
}

mdl_states mdl_train_states(double psi, int dp, int zero, scn_grad_dtype grad)
{
    if (dp < 1) dp = 1;
    if (zero >= 3 && grad == GRAD_FP32)
        return (mdl_states){4.0 * psi / dp, 4.0 * psi / dp, 8.0 * psi / dp};
    mdl_states s = mdl_model_states(psi, dp, zero);
    if (grad == GRAD_FP32) s.grads *= 2.0;
    return s;
}

static int imax(int a, int b) { return a > b ? a : b; }

double mdl_train_params_per_device(const scn_model *m, int tp, int pp, int ex)
{
    double sh = mdl_stage_share(m->layers, pp);
    return m->params_dense * sh / tp + m->params_expert * sh / imax(ex, 1);
}

double mdl_stage_share(int layers, int pp)
{
    if (layers <= 0 || pp <= 0) return 1.0;
    return (double)((layers + pp - 1) / pp) / layers;
}

int mdl_stage_layers(int layers, int pp, int stage, bool emb, bool loss)
{
    if (pp <= 1) return layers;
    if (!emb && !loss) return (layers + pp - 1) / pp;
    int n = (layers + emb + loss) / pp;
    if (stage == 0 && emb) n--;
    if (stage == pp - 1 && loss) n--;
    return n;
}

int mdl_expert_dp(int tp, int dp, int ex)
{
    int x = tp * dp / imax(ex, 1);
    return x < 1 ? 1 : x;
}

/* Experts over max(tp, ep) devices: with EP < TP each expert's matrices are
** split over the TP ranks, as vLLM and SGLang do (docs/model.md, section 5). */
double mdl_rollout_params_per_device(const scn_model *m, int tp, int ep)
{
    return m->params_dense / tp + m->params_expert / imax(tp, ep);
}

double mdl_act_bytes_layer(const scn_model *m, double seq, double mb, int tp, scn_recompute rc)
{
    /* Korthikanti et al.'s setting: the score matrix held without recompute */
    return mdl_act_bytes_tokens(m, seq * mb, seq, tp, rc, ATTN_MATERIALIZED);
}

double mdl_fwd_flops(const scn_model *m, double tokens, double seq)
{
    return 2.0 * mdl_matmul_params(m) * tokens + mdl_attn_flops_causal(m, seq * tokens);
}

double mdl_expert_touch(int experts, int k, double batch)
{
    if (experts <= 0) return 1.0;
    if (batch <= 0) return 0.0;
    /* (1 - k/E)^B as exp(B·log1p(-k/E)): one exp instead of pow, and exact
    ** for small k/E where 1 - k/E would round */
    return -expm1(batch * log1p(-(double)k / experts));
}

double mdl_bubble_share(int p, int m)
{
    if (p <= 1) return 0.0;
    return (double)(p - 1) / (m + p - 1);
}

/* Roofline of one forward step over an instance: per device compute and HBM
** traffic; communication added (no overlap assumed).  r: the engine's
** weights dtype (NULL: BF16); FP8 weights are read at mdl_fp8_param_bytes a
** parameter but for mdl_fp8_kept_params, and their GEMMs run at the
** device's FP8 peak but for the LM head's and the attention's. */
static mdl_step step_roofline(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                              const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double tokens,
                              double attn_flops, double kv_bytes, double eff_compute)
{
    mdl_step st = {0, 0, 0, 0};
    int inst = imax(tp, ep);
    double layers_moe = m->experts > 0 ? m->layers - m->dense_layers : 0;
    bool fp8 = r && r->weights_dtype == DTYPE_FP8;
    double wb = fp8 ? mdl_fp8_param_bytes() : 2.0;
    /* Compute: active matmul parameters over the whole instance
    ** (scn_validate refuses FP8 weights on a device without an FP8 peak). */
    if (fp8 && d->fp8_flops > 0) {
        double head = 2.0 * m->vocab * (double)m->hidden * tokens;
        double gemm = 2.0 * mdl_matmul_params(m) * tokens - head;
        st.compute_s = (gemm / d->fp8_flops + (head + attn_flops) / d->peak_flops) / inst / eff_compute;
    } else {
        double flops = 2.0 * mdl_matmul_params(m) * tokens + attn_flops;
        st.compute_s = flops / inst / (d->peak_flops * eff_compute);
    }
    /* HBM: dense weights sharded by tp, the touched experts over the whole
    ** instance (max(tp, ep) devices: TP-split experts when ep < tp), plus the
    ** KV cache read, spread over the instance. */
    double w_dense = 2.0 * (m->params_dense - mdl_lookup_params(m)) / tp;
    if (fp8) {
        /* the LM head and the norms in BF16, the rest of the dense read in FP8 */
        double bf = (double)m->vocab * m->hidden + 2.0 * (double)m->hidden * m->layers;
        w_dense = (2.0 * bf + wb * (m->params_dense - mdl_fp8_kept_params(m))) / tp;
    }
    double w_exp = 0;
    if (m->experts > 0) {
        /* tokens of the instance are routed over all its experts */
        double touch = mdl_expert_touch(m->experts, m->experts_active, tokens);
        w_exp = wb * m->params_expert * touch / inst;
    }
    double bytes = w_dense + w_exp + kv_bytes / inst;
    st.memory_s = bytes / (d->hbm_bw * e->hbm);
    /* Communication per layer: TP all-reduce of the activations twice (attention
    ** and MLP); EP dispatch and combine all-to-all on MoE layers. */
    double act = tokens * m->hidden * 2.0;
    int attn_groups = inst / tp;
    double comm = 0;
    if (tp > 1) comm += 2.0 * m->layers * mdl_allreduce(act / attn_groups, tp, link, e->link);
    if (ep > 1 && layers_moe > 0)
        comm += 2.0 * layers_moe * mdl_alltoall(act * m->experts_active / inst, ep, link, e->link);
    st.comm_s = comm;
    st.total_s = fmax(st.compute_s, st.memory_s) + st.comm_s;
    return st;
}

static mdl_step decode_roofline(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                                const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double batch,
                                double ctx_tokens)
{
    /* Attention over the context, every context token once (no mask), MLA
    ** absorbed; the KV read counts the copies the TP ranks hold, in the
    ** engine's KV dtype. */
    double attn = m->layers * mdl_attn_pair_flops(m, true) * ctx_tokens;
    double kv = ctx_tokens * mdl_kv_token_bytes(m, r) * mdl_kv_replication(m, tp);
    mdl_step st = step_roofline(m, d, e, r, link, tp, ep, batch, attn, kv, e->decode);
    st.total_s += e->decode_overhead_s;
    return st;
}

mdl_step mdl_decode_step(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                         const scn_link *link, int tp, int ep, double batch, double ctx_tokens)
{
    return decode_roofline(m, d, e, NULL, link, tp, ep, batch, ctx_tokens);
}

/* Engine profiles (docs/model.md, section 5, "The decode step's fixed
** cost", gives the source of each figure).  A kernel inside a replayed
** CUDA graph costs the GPU's gap between dependent kernels, about 1 µs
** (NVIDIA, "Getting Started with CUDA Graphs"); launched eagerly from
** PyTorch, the driver's 4–6 µs plus the Python module and dispatcher's
** share, taken as 10 µs (SGLang's Llama-3-8B batch-1 step with and without
** graphs, sgl-project/sglang PR 1401, differs by 2.7–6.8 µs a kernel).
** vLLM's scheduler, sampler and output CPU time a step, t_step + B·t_seq, is
** the least-squares fit of the residuals of 28 published vLLM decode
** timings (Mixtral 8x7B and 8x22B at TP2–8 on A100 and H100, vLLM PRs 2542,
** 3240 and 4002, 2024; Qwen3-30B-A3B on A100 and H100, 2025) over
** fusync's roofline and launches: 2.5 ms and 200 µs a sequence
** (docs/validation.md, "The decode step against serving benchmarks";
** examples/validation/decode/serving.csv; tests/test_decode_bench.c holds
** the profile to the fit).  vLLM under enforce_eager runs the same CPU
** path.  SGLang's overlap scheduler hides most of it behind the GPU
** (SGLang v0.4 blog, zero-overhead batch scheduler); a hybrid engine's
** Python generate loop pays it all. */
static const mdl_engine ENGINES[] = {
    [ENGINE_VLLM]   = {"vllm",   1e-6, 10e-6, 2.5e-3, 200e-6, 512},
    [ENGINE_SGLANG] = {"sglang", 1e-6, 10e-6, 0.1e-3, 3e-6, 512},
    [ENGINE_HYBRID] = {"hybrid", 1e-6, 10e-6, 1.0e-3, 30e-6, 0},
    [ENGINE_EAGER]  = {"eager",  1e-6, 10e-6, 2.5e-3, 200e-6, 0},
};

const mdl_engine *mdl_engine_of(scn_engine e)
{
    return (int)e >= 0 && (int)e < (int)(sizeof ENGINES / sizeof ENGINES[0]) ? &ENGINES[e] : &ENGINES[0];
}

/* Kernels of one decode layer as vLLM's fused model code launches them:
** dense — norm, QKV GEMM, rotary, KV-cache write, attention, output GEMM,
** norm, gate-up GEMM, activation, down GEMM; an MoE layer replaces the MLP's
** three by router GEMM, top-k, token alignment, two grouped GEMMs,
** activation, combine, and the shared expert's three; each TP all-reduce
** and EP all-to-all is one more (docs/model.md, section 5). */
#define KERNELS_DENSE 10
#define KERNELS_MOE   16
#define KERNELS_STEP  6             /* embedding, final norm, LM head, sampler */

mdl_fixed mdl_decode_fixed(const scn_model *m, const scn_efficiency *e, const scn_rollout_layout *r,
                           const scn_link *link, int tp, int ep, double batch)
{
    mdl_fixed f = {0};
    f.flat_s = e->decode_overhead_s;
    double moe = m->experts > 0 ? m->layers - m->dense_layers : 0, dense = m->layers - moe;
    int inst = imax(tp, ep);
    /* the collectives of step_roofline: 2 TP all-reduces a layer, the EP
    ** dispatch and combine on MoE layers */
    double n_ar = tp > 1 ? 2.0 * m->layers : 0, n_a2a = ep > 1 ? 2.0 * moe : 0;
    if (tp > 1) f.sync_s += n_ar * mdl_allreduce(0, tp, link, e->link);
    if (ep > 1 && inst > 1) f.sync_s += n_a2a * mdl_alltoall(0, ep, link, e->link);
    if (!r) {
        f.total_s = f.flat_s;
        return f;
    }
    const mdl_engine *g = mdl_engine_of(r->engine);
    int cap = r->graph_max_batch > 0 ? r->graph_max_batch : g->graph_max;
    f.graphed = r->cuda_graphs && g->graph_max > 0 && batch <= cap;
    f.kernels = dense * KERNELS_DENSE + moe * KERNELS_MOE + n_ar + n_a2a + KERNELS_STEP;
    double s = e->decode_overhead_scale;
    f.launch_s = s * f.kernels * (f.graphed ? g->launch_graph_s : g->launch_eager_s);
    f.sched_s = s * (g->step_cpu_s + batch * g->seq_cpu_s);
    f.total_s = f.launch_s + f.sched_s + f.flat_s;
    return f;
}

mdl_step mdl_decode_step_eng(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                             const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double batch,
                             double ctx_tokens)
{
    mdl_step st = decode_roofline(m, d, e, r, link, tp, ep, batch, ctx_tokens);
    if (r) st.total_s += mdl_decode_fixed(m, e, r, link, tp, ep, batch).total_s - e->decode_overhead_s;
    return st;
}

mdl_step mdl_prefill(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                     const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double tokens, double seq)
{
    double attn = mdl_attn_flops_causal(m, seq * tokens);
    return step_roofline(m, d, e, r, link, tp, ep, tokens, attn, 0, e->prefill);
}

/* Sarathi-Serve (Agrawal et al., arXiv 2403.02310, section 4): a decode
** step is bound by reading the weights and the KV cache, and a prefill chunk
** riding along uses the compute that reading leaves idle.  The mixed step:
** compute = the decode's FLOPs at efficiency.decode + the chunk's at
** efficiency.prefill; HBM = the weights (the experts the B + chunk tokens
** touch) and the decode's KV read; communication over B + chunk tokens. */
double mdl_prefill_chunk(const scn_model *m, const scn_device *d, const scn_efficiency *e,
                         const scn_rollout_layout *r, const scn_link *link, int tp, int ep, double batch,
                         double ctx_tokens, double chunk, double chunk_attn)
{
    mdl_step pre = step_roofline(m, d, e, r, link, tp, ep, chunk, chunk_attn, 0, e->prefill);
    if (batch <= 0) return pre.total_s;
    double attn = m->layers * mdl_attn_pair_flops(m, true) * ctx_tokens;
    double kv = ctx_tokens * mdl_kv_token_bytes(m, r) * mdl_kv_replication(m, tp);
    mdl_step dec = step_roofline(m, d, e, r, link, tp, ep, batch, attn, kv, e->decode);
    mdl_step mix = step_roofline(m, d, e, r, link, tp, ep, batch + chunk, 0, kv, e->decode);
    double t = fmax(dec.compute_s + pre.compute_s, mix.memory_s) + mix.comm_s;
    return t > dec.total_s ? t - dec.total_s : 0;
}

/* ---------------------------------------------- per-phase times (model.h) */

mdl_stage mdl_stage_setup(const scn_model *m, int tp, int pp, int ep, const scn_link *ltp, const scn_link *lep,
                          const scn_link *lpp)
{
    static const scn_link none;
    mdl_stage c = {.tp = tp, .pp = pp, .ltp = ltp ? *ltp : none, .lep = lep ? *lep : none, .lpp = lpp ? *lpp : none,
                   .cp = 1, .cp_kind = CP_RING};
    c.sh = mdl_stage_share(m->layers, pp);
    c.lps = (double)((m->layers + pp - 1) / pp);
    /* Megatron's even split of the transformer layers; with uneven stages
    ** (plan.train.uneven_layers) the lighter ones are the last, so the LM
    ** head sits on a stage of ⌊L/p⌋ layers */
    c.lps_last = pp > 1 ? (double)(m->layers / pp > 0 ? m->layers / pp : 1) : c.lps;
    /* the LM head multiplies every token by V·h whether tied or not; the
    ** input embedding is a lookup (mdl_lookup_params) */
    c.vocab = m->vocab;
    c.p_head = (double)m->vocab * m->hidden;
    c.p_expert = m->params_active - m->params_dense;
    c.p_layers = mdl_matmul_params(m) - c.p_head - c.p_expert;
    if (c.p_layers < 0) c.p_layers = 0;
    /* Megatron-Core's default expert tensor parallelism, the TP size, on
    ** the TP group's link (mdl_stage_experts sets another) */
    mdl_stage_experts(&c, m, ep, tp, lep, ltp);
    return c;
}

/* Expert tensor parallelism (docs/model.md, section 3): the experts of a
** stage over ep·etp devices, each expert's matrices split etp ways (its
** GEMMs etp times narrower), and an expert's rows the tokens routed to it
** from the ep·etp/t replicas the group spans: k·(ep·etp/t)/E a token of
** the micro-batch. */
void mdl_stage_experts(mdl_stage *c, const scn_model *m, int ep, int etp, const scn_link *lep, const scn_link *letp)
{
    static const scn_link none;
    if (m->experts <= 0) return;
    c->ep = imax(ep, 1);
    c->etp = imax(etp, 1);
    c->lep = lep ? *lep : none;
    c->letp = letp ? *letp : none;
    c->efold = c->ep * c->etp;
    c->moe_frac = (double)(m->layers - m->dense_layers) / m->layers;
    c->w_exp = (double)m->expert_ffn / c->etp;
    c->x_exp = (double)m->experts_active * c->efold / c->tp / m->experts;
}

double mdl_moe_ranks_hit(int experts, int k, int ep)
{
    if (ep <= 1 || experts <= 0 || k <= 0) return ep > 1 ? 0.0 : 1.0;
    /* the chance a rank's E/ep experts all miss a token's k distinct ones:
    ** C(E − g, k)/C(E, k) = Π_{i<k} (E − g − i)/(E − i), g = E/ep */
    double g = (double)experts / ep, miss = 1.0;
    for (int i = 0; i < k && i < experts; i++) {
        double r = (experts - g - i) / (double)(experts - i);
        miss *= r > 0 ? r : 0.0;
    }
    return ep * (1.0 - miss);
}

/* The token dispatcher's kind (docs/model.md, section 7, "The token
** dispatcher"; Megatron-Core's moe_token_dispatcher_type,
** megatron/core/transformer/moe/moe_layer.py at NVIDIA/Megatron-LM
** d98e8a64dd): "allgather" and "flex" span the tp_ep group of the expert
** layout, ep·etp consecutive ranks (lx); "flex" sends a token to etp·u
** of them (mdl_moe_ranks_hit). */
void mdl_stage_dispatcher(mdl_stage *c, const scn_model *m, int kind, const scn_link *lx)
{
    static const scn_link none;
    c->disp = MOE_DISP_ALLTOALL;
    if (m->experts <= 0 || kind == MOE_DISP_ALLTOALL) return;
    c->disp = kind;
    c->lx = lx ? *lx : none;
    c->disp_ranks = c->etp * mdl_moe_ranks_hit(m->experts, m->experts_active, c->ep);
}

void mdl_stage_split(mdl_stage *c, const scn_model *m, bool emb, bool loss)
{
    if (c->pp <= 1 || (!emb && !loss)) return;
    int most = 0;
    for (int g = 0; g < c->pp - 1 && g < 2; g++)    /* the first stage, then every middle one alike */
        most = imax(most, mdl_stage_layers(m->layers, c->pp, g, emb, loss));
    c->lps = most;
    c->lps_last = mdl_stage_layers(m->layers, c->pp, c->pp - 1, emb, loss);
}

double mdl_gemm_eff(double m, double n, double k, double ridge, int model)
{
    if (ridge <= 0 || m <= 0 || n <= 0 || k <= 0) return 1.0;
    double ai = 1.0 / (1.0 / m + 1.0 / n + 1.0 / k);
    if (model == GEMM_ROOFLINE) return ai >= ridge ? 1.0 : ai / ridge;
    /* a real GEMM does not switch from memory- to compute-bound at the
    ** ridge: loads and math overlap imperfectly, so near the ridge it is
    ** slower than either bound.  Its time is the L_p norm of the two,
    ** t = (t_c^p + t_m^p)^(1/p), p = 2.5: the exponent that fits
    ** DeepGEMM's published table (deepseek-ai/DeepGEMM README, first
    ** version, 2025-02-25: 28 shapes on H800, M 64 to 8,192, grouped and
    ** not) best, 11.8% rms against 12.3% for the sharp knee with the same
    ** K-depth term (docs/model.md, section 7).  Relative to the compute time,
    ** t/t_c = (1 + (t_m/t_c)^p)^(1/p) with t_m/t_c = ridge/AI. */
    double r = ridge / ai;
    return pow(1.0 + r * r * sqrt(r), -0.4);
}

/* GEMM shapes (docs/model.md, section 7): a dense layer's thinnest shard
** is the attention's a·d/t columns (the MLP's ffn/t is wider); an expert's
** matrices are split over etp ranks, and its rows are the tokens
** routed to it: each of the e·etp/t replicas' micro-batch tokens
** chooses k of the E experts. */
void mdl_stage_train(mdl_stage *c, const scn_model *m, const scn_device *d, const scn_efficiency *e, scn_recompute rc)
{
    c->recompute = rc;
    c->hbm_eff_bw = d->hbm_bw * e->hbm;
    c->k_dim = m->hidden;
    double hd = mdl_head_dim(m);
    c->w_dense = (m->heads > 0 ? m->heads * hd : m->hidden) / c->tp;
    /* times the efficiency a stage runs at (mdl_stage_fb): peak·eff / (HBM·efficiency.hbm) */
    c->ridge = e->gemm_shape && c->hbm_eff_bw > 0 ? d->peak_flops / c->hbm_eff_bw : 0;
    c->gemm_model = e->gemm_model;
}

double mdl_stage_dense_params(const scn_model *m, int pp)
{
    double emb = m->params_dense - m->params_layer_dense * m->layers;     /* embedding and LM head */
    if (pp <= 1) return m->params_dense;
    double per = m->params_layer_dense, first = (double)((m->layers + pp - 1) / pp);
    double last = m->layers / pp > 0 ? m->layers / pp : 1;
    /* untied: the input table on the first stage, the head on the last;
    ** tied: Megatron keeps the table on both and all-reduces its gradient */
    double table = m->tied_embeddings ? emb : emb / 2;
    return fmax(first * per + table, last * per + table);
}

double mdl_tied_embedding_bytes(const scn_model *m, int tp, int pp, double grad_bytes)
{
    if (!m->tied_embeddings || pp <= 1 || m->vocab <= 0) return 0.0;
    return (double)m->vocab * m->hidden / (tp > 1 ? tp : 1) * grad_bytes;
}

/* What mdl_stage_fb computes the same for every micro-batch of a pipeline:
** each factor is the very subexpression the formula below evaluates first
** (the same operations in the same order), so a value out of the loop is
** the value the formula would have worked out for each micro-batch. */
typedef struct {
    double attn;                /* 0.5 · attention pair flops: one layer's causal attention per Σs² */
    double pe;                  /* peak flops · efficiency */
    double tp, cp, hidden, ea;
    double tp_inv;              /* 1/tp when tp is a power of two (then x·(1/tp) is x/tp to the bit), else 0 */
    double ar_f, ar_bw, ar_lat; /* TP all-reduce (mdl_allreduce): bytes factor, bandwidth, latency */
    double a2a_f, a2a_bw, a2a_lat;  /* EP all-to-all (mdl_alltoall), efold > 1 */
    double pp_bw, pp_lat;       /* send to the next stage (mdl_broadcast) */
    bool   ar_hier, a2a_hier;   /* the TP or EP group spans nodes: priced by mdl_allreduce / mdl_alltoall */
    double ridge;               /* mdl_gemm_eff's ridge at this efficiency (0: off) */
    double pl, pe_x, ph;        /* 2 · the layers' dense, expert and LM-head matmul parameters */
    double pa;                  /* 2 · the LoRA adapters' (0: none) */
    int    lora;                /* LoRA's rank (0: none): the base frozen, its weight-gradient GEMMs not run */
    double inv_layers;          /* 1 / L */
    double moe;                 /* MoE share of the layers */
    double bwd_x, bwd_c, bwd_cp;    /* the backward's compute, TP/EP and CP communication in forwards */
} stage_fwd_k;

static stage_fwd_k stage_fwd_prep(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c,
                                  double eff)
{
    stage_fwd_k k = {0};
    int cp = c->cp > 1 ? c->cp : 1;
    k.attn = 0.5 * mdl_attn_pair_flops(m, false);
    k.pe = d->peak_flops * eff;
    k.tp = c->tp;
    k.tp_inv = c->tp > 0 && (c->tp & (c->tp - 1)) == 0 ? 1.0 / c->tp : 0.0;
    k.cp = cp;
    k.hidden = m->hidden;
    k.ea = m->experts_active;
    k.ridge = c->ridge * eff;
    k.pl = 2.0 * c->p_layers;
    k.pe_x = 2.0 * c->p_expert;
    k.ph = 2.0 * c->p_head;
    k.pa = 2.0 * c->p_lora;
    k.lora = c->lora;
    k.inv_layers = 1.0 / m->layers;
    /* backward (Korthikanti et al., arXiv 2205.05198; Shoeybi et al., arXiv
    ** 1909.08053): data and weight gradients, twice the forward's FLOPs; the
    ** same collectives as the forward, conjugate (an all-reduce for each
    ** identity, a reduce-scatter for each all-gather), and the EP dispatch
    ** and combine again; full recompute adds the forward, its collectives
    ** included.  Ring attention's backward passes K/V and their gradients
    ** round (twice the forward's), Ulysses the same four all-to-alls. */
    int rc = c->recompute == RECOMPUTE_FULL;
    k.bwd_x = 2.0 + rc;
    k.bwd_c = 1.0 + rc;
    k.bwd_cp = (c->cp_kind == CP_ULYSSES ? 1.0 : 2.0) + rc;
    if (c->tp > 1) {
        const int n = c->tp;
        k.ar_f = 2.0 * (n - 1) / n;
        k.ar_bw = c->ltp.bw * link_eff;
        k.ar_lat = 2 * (n - 1) * c->ltp.latency_s;
        k.ar_hier = c->ltp.local > 0;
    }
    if (m->experts > 0) {
        k.moe = c->moe_frac;
        if (c->ep > 1) {
            const int n = c->ep;
            k.a2a_f = (double)(n - 1) / n;
            k.a2a_bw = c->lep.bw * link_eff;
            k.a2a_lat = 1 * c->lep.latency_s;
            k.a2a_hier = c->lep.local > 0;
        }
    }
    if (c->pp > 1) {
        k.pp_bw = c->lpp.bw * link_eff;
        k.pp_lat = 1 * c->lpp.latency_s;
    }
    return k;
}

/* x/tp and x/cp: IEEE division and multiplication both round the exact
** quotient, so a division by a power of two is the product by its inverse,
** and one by 1 is x itself */
static inline double by_tp(const stage_fwd_k *k, double x) { return k->tp_inv > 0 ? x * k->tp_inv : x / k->tp; }
static inline double by_cp(const stage_fwd_k *k, double x) { return k->cp == 1 ? x : x / k->cp; }

/* One stage of n layers (with the LM head and loss when `head`): forward
** and backward from the per-layer compute and communication. */
static inline void stage_kind(const mdl_stage *c, const stage_fwd_k *k, double n, double head_f, double head_b,
                              double head_cf, double head_cb, double layer, double wsave, double ttp, double tep,
                              double tcp, double tpp, double castf, double castb, double *f, double *b)
{
    double comp = n * layer + head_f;
    /* FP8 training: each layer's casts, memory-bound, in line with its GEMMs */
    if (castf > 0) comp += n * castf;
    double ct = n * ttp, ce = n * tep;
    /* the shares run concurrently with the compute are hidden, together,
    ** while it lasts; the rest is exposed (docs/model.md, section 7) */
    double conc = c->o_tp * ct + c->o_ep * ce;
    double t = comp + (1.0 - c->o_tp) * ct + (1.0 - c->o_ep) * ce + (conc > comp ? conc - comp : 0.0);
    /* the LM head's own TP collectives (head_cf, head_cb) wait on the
    ** logits or their gradient: exposed, outside the overlap above */
    *f = t + n * tcp + tpp + head_cf;
    double bcomp = k->bwd_x * n * layer + head_b;
    if (castb > 0) bcomp += n * castb;
    /* LoRA: the frozen base's weight-gradient GEMMs (a forward's matmul
    ** FLOPs a layer) are not run (mdl_stage_lora) */
    if (wsave > 0) bcomp -= n * wsave;
    ct *= k->bwd_c;
    ce *= k->bwd_c;
    conc *= k->bwd_c;
    t = bcomp + (1.0 - c->o_tp) * ct + (1.0 - c->o_ep) * ce + (conc > bcomp ? conc - bcomp : 0.0);
    *b = t + k->bwd_cp * n * tcp + tpp + head_cb;
}

/* One all-reduce of `bytes` over the stage's TP group, as the layers'
** are priced (mdl_allreduce when the group spans nodes). */
static inline double tp_allreduce(const mdl_stage *c, const stage_fwd_k *k, double bytes, double link_eff)
{
    return k->ar_hier ? mdl_allreduce(bytes, c->tp, &c->ltp, link_eff) : k->ar_f * bytes / k->ar_bw + k->ar_lat;
}

static inline __attribute__((always_inline)) void stage_fb_one(const scn_model *m, double link_eff,
                                                               const mdl_stage *c, const stage_fwd_k *k, double tok,
                                                               double sq, double *fwd, double *bwd)
{
    double tk = by_cp(k, tok);
    /* context parallelism: each rank computes 1/cp of the tokens and of the
    ** attention (the load-balanced split of causal attention); GEMMs below
    ** near or below the ridge run slower (mdl_gemm_eff) */
    double ed = 1.0, ex = 1.0;
    if (k->ridge > 0) {
        ed = mdl_gemm_eff(tk, c->w_dense, c->k_dim, k->ridge, c->gemm_model);
        if (k->pe_x > 0) ex = mdl_gemm_eff(tk * c->x_exp, c->w_exp, c->k_dim, k->ridge, c->gemm_model);
    }
    double attn = k->attn * sq;
    double mm = k->inv_layers * tok * (k->pl / ed + k->pe_x / ex);
    /* FP8 training (mdl_stage_fp8): the layers' linear GEMMs at the FP8
    ** peak, and their operands' casts at HBM rate — the linear inputs in
    ** the forward, the output gradients in the backward, the forward's
    ** again under full recompute */
    double castf = 0.0, castb = 0.0;
    if (c->f8_mm > 0) {
        mm *= c->f8_mm;
        if (c->hbm_eff_bw > 0) {
            castf = by_cp(k, by_tp(k, tok * c->f8_cast_f)) / c->hbm_eff_bw;
            castb = by_cp(k, by_tp(k, tok * c->f8_cast_b)) / c->hbm_eff_bw + (k->bwd_x - 2.0) * castf;
        }
    }
    /* LoRA's adapters: GEMMs r wide (tok×d_in by d_in×r, then tok×r by
    ** r×d_out), their intensity about r FLOP/B, far below the ridge */
    double ma = 0.0;
    if (k->lora) ma = k->inv_layers * tok * k->pa / (k->ridge > 0 ? mdl_gemm_eff(tk, k->lora, c->k_dim, k->ridge, c->gemm_model) : 1.0);
    double layer = by_cp(k, by_tp(k, k->lora ? mm + attn + ma : mm + attn)) / k->pe;
    double wsave = k->lora ? by_cp(k, by_tp(k, mm)) / k->pe : 0.0;
    double act = tk * k->hidden * 2.0;
    double ttp = 0, tep = 0, tcp = 0, tpp = 0;
    double hcf = 0, hcb = 0;
    if (c->tp > 1) {
        ttp = 2.0 * tp_allreduce(c, k, act, link_eff);
        /* the LM head under TP is vocab-parallel (Shoeybi et al., arXiv
        ** 1909.08053, section 3; Megatron-Core's VocabParallelCrossEntropy):
        ** the loss all-reduces, over the TP group, each token's logit
        ** maximum, its target logit and its sum of exponentials, three
        ** FP32 values a token, in the forward; the backward's softmax
        ** gradient is local, and the head's input gradient — the sum of
        ** every vocabulary shard's — is one all-reduce of the activations
        ** (the conjugate of the column-parallel head's identity) */
        hcf = 3.0 * tp_allreduce(c, k, tk * 4.0, link_eff);
        hcb = tp_allreduce(c, k, act, link_eff);
    }
    /* the token dispatcher (Megatron-Core's MoEAlltoAllTokenDispatcher,
    ** megatron/core/transformer/moe/token_dispatcher.py at NVIDIA/
    ** Megatron-LM d98e8a64dd): the routed copies of a rank's tokens
    ** all-to-all over the EP group, then, with etp > 1, all-gathered over
    ** the expert-TP group before the experts
    ** (gather_from_sequence_parallel_region) and reduce-scattered after
    ** them (reduce_scatter_to_sequence_parallel_region) before the
    ** all-to-all back: per MoE layer 2·(a2a(B, ep) + all-gather(etp·B,
    ** etp)), B = k·T·h·2/t bytes (docs/model.md, section 7) */
    if (m->experts > 0 && c->efold > 1 && c->disp == MOE_DISP_ALLGATHER) {
        /* MoEAllGatherTokenDispatcher (same file): every rank's s·b/t
        ** tokens all-gathered over the ep·etp group with their router
        ** probabilities (BF16, E a token: type_as(logits) in moe_utils.py,
        ** moe_router_dtype unset) and routing map (1 byte an expert), the
        ** local experts' copies picked from them; the outputs
        ** reduce-scattered back in the probabilities' dtype, 2h a token:
        ** all-gather(X·T·(2h + 3E)/t, X) + reduce-scatter(X·T·2h/t, X),
        ** priced as an all-gather of the same bytes */
        double x = c->efold, tr = by_tp(k, tk);
        double gin = x * tr * (2.0 * k->hidden + 3.0 * m->experts), gout = x * by_tp(k, act);
        tep = k->moe * (mdl_allgather(gin, c->efold, &c->lx, link_eff) + mdl_allgather(gout, c->efold, &c->lx, link_eff));
    } else if (m->experts > 0 && c->efold > 1 && c->disp == MOE_DISP_FLEX) {
        /* MoEFlexTokenDispatcher (same file) with DeepEP: one all-to-all
        ** over the tp·ep world of the expert layout (expt_tp · ep), each
        ** expert taken as etp experts, one on each rank of its expert-TP
        ** group (router_topk = tp·k, num_experts = tp·E), and each token
        ** sent once to each rank that holds one of its experts
        ** (is_token_in_rank of DeepEP's get_dispatch_layout,
        ** deep_ep/buffers/legacy.py at deepseek-ai/DeepEP dd758ca): etp·u
        ** ranks, u = mdl_moe_ranks_hit; combined back the same way:
        ** 2·a2a(etp·u·T·h·2/t, X) */
        double b = by_tp(k, act * c->disp_ranks);
        tep = 2.0 * k->moe * mdl_alltoall(b, c->efold, &c->lx, link_eff);
    } else if (m->experts > 0 && c->efold > 1) {
        double b = by_tp(k, act * k->ea);
        double a2a = 0.0;
        if (c->ep > 1) a2a = k->a2a_hier ? mdl_alltoall(b, c->ep, &c->lep, link_eff) : k->a2a_f * b / k->a2a_bw + k->a2a_lat;
        if (c->etp > 1) a2a += mdl_allgather(c->etp * b, c->etp, &c->letp, link_eff);
        tep = 2.0 * k->moe * a2a;
    }
    if (c->cp > 1) tcp = mdl_cp_layer(c, tok, attn / k->tp / k->cp / k->pe, link_eff);
    /* pipeline send of the activations to the next stage (its gradient
    ** back in the backward) */
    if (c->pp > 1) tpp = by_tp(k, act) / k->pp_bw + k->pp_lat;
    /* the LM head's GEMM over the vocabulary shard, forward and backward
    ** (twice), and the loss's softmax: the logits read twice (max, then
    ** the exponentials' sum) in the forward, read and the gradient written
    ** in the backward, 2 bytes each, at HBM rate */
    double hg = by_cp(k, by_tp(k, k->ph * tok)) / k->pe;
    if (k->ridge > 0) hg /= mdl_gemm_eff(tk, by_tp(k, c->vocab), c->k_dim, k->ridge, c->gemm_model);
    double ce = c->hbm_eff_bw > 0 ? by_tp(k, tk * c->vocab) * 4.0 / c->hbm_eff_bw : 0.0;
    /* the entropy in the actor's loss: its passes over the logits
    ** (mdl_entropy_traffic), at the same rate */
    double ef = c->hbm_eff_bw > 0 ? by_tp(k, tk * c->vocab) * c->ent_f / c->hbm_eff_bw : 0.0;
    double eb = c->hbm_eff_bw > 0 ? by_tp(k, tk * c->vocab) * c->ent_b / c->hbm_eff_bw : 0.0;
    /* LoRA leaves the LM head frozen: its backward is the input gradient alone */
    double hf = hg + ce + ef, hb = (k->lora ? 1.0 : 2.0) * hg + ce + eb;
    double f1, b1;
    if (c->pp <= 1) {
        stage_kind(c, k, c->lps, hf, hb, hcf, hcb, layer, wsave, ttp, tep, tcp, 0.0, castf, castb, &f1, &b1);
    } else {
        double f2, b2;
        stage_kind(c, k, c->lps, 0.0, 0.0, 0.0, 0.0, layer, wsave, ttp, tep, tcp, tpp, castf, castb, &f1, &b1);
        stage_kind(c, k, c->lps_last, hf, hb, hcf, hcb, layer, wsave, ttp, tep, tcp, tpp, castf, castb, &f2, &b2);
        if (f2 > f1) f1 = f2;
        if (b2 > b1) b1 = b2;
    }
    *fwd = f1;
    if (bwd) *bwd = b1;
}

double mdl_stage_fb(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c, double tok,
                    double sq, double eff, double *bwd)
{
    const stage_fwd_k k = stage_fwd_prep(m, d, link_eff, c, eff);
    double f;
    stage_fb_one(m, link_eff, c, &k, tok, sq, &f, bwd);
    return f;
}

double mdl_stage_fwd(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c, double tok,
                     double sq, double eff)
{
    return mdl_stage_fb(m, d, link_eff, c, tok, sq, eff, NULL);
}

void mdl_stage_fb_n(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c, const double *tok,
                    const double *sq, double eff, double *fwd, double *bwd, int n)
{
    const stage_fwd_k k = stage_fwd_prep(m, d, link_eff, c, eff);
    for (int i = 0; i < n; i++) stage_fb_one(m, link_eff, c, &k, tok[i], sq[i], &fwd[i], bwd ? &bwd[i] : NULL);
}

void mdl_stage_fwd_n(const scn_model *m, const scn_device *d, double link_eff, const mdl_stage *c, const double *tok,
                     const double *sq, double eff, double *out, int n)
{
    mdl_stage_fb_n(m, d, link_eff, c, tok, sq, eff, out, NULL, n);
}

double mdl_step_balance(int dp, int nmb, double c, double cv)
{
    if (dp <= 1 || c <= 0 || cv <= 0) return 1.0;
    /* Φ⁻¹ by bisection on Φ(x) = erfc(−x/√2)/2, monotone on [0, 8] */
    double p = (dp - 0.375) / (dp + 0.25), lo = 0.0, hi = 8.0;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(-mid / sqrt(2.0)) < p) lo = mid;
        else hi = mid;
    }
    double share = nmb > 1 ? 1.0 - 1.0 / nmb : 1.0;
    return 1.0 + 0.5 * (lo + hi) * cv * sqrt(share / c);
}

double mdl_1f1b(int p, int m, double f, double b)
{
    if (m <= 0) return 0.0;
    return (double)(m + (p > 1 ? p : 1) - 1) * (f + b);
}

double mdl_aux_fwd(const scn_model *m, const scn_device *d, const scn_efficiency *e, const scn_link *l, int devices,
                   int aux_tp, int aux_replicas, double tok, double sq)
{
    double flops = 2.0 * mdl_matmul_params(m) * tok + mdl_attn_flops_causal(m, sq);
    double t = flops / devices / (d->peak_flops * e->prefill);
    if (aux_tp > 1) t += 2.0 * m->layers * mdl_allreduce(tok / aux_replicas * m->hidden * 2.0, aux_tp, l, e->link);
    return t;
}

double mdl_optimizer(const scn_device *d, const scn_efficiency *e, int zero, int dp, int edp, double psi_d,
                     double psi_e)
{
    double shard = zero >= 1 ? psi_d / dp + psi_e / edp : psi_d + psi_e;
    return 30.0 * shard / (d->hbm_bw * e->hbm) + e->train_overhead_s;
}

/* ------------------- context parallelism, overlap, sharded data parallelism
** (docs/model.md, section 7) */

void mdl_stage_par(mdl_stage *c, const scn_model *m, int cp, int cp_kind, const scn_link *lcp, double o_tp, double o_ep)
{
    c->cp = cp > 1 ? cp : 1;
    c->cp_kind = cp_kind;
    static const scn_link none;
    c->lcp = lcp && c->cp > 1 ? *lcp : none;
    c->o_tp = o_tp;
    c->o_ep = o_ep;
    double hd = m->head_dim > 0 ? m->head_dim : (m->heads > 0 ? (double)m->hidden / m->heads : 0);
    c->qdim = m->heads > 0 ? m->heads * hd : m->hidden;
    /* GQA keeps kv_heads K/V heads; MLA expands its latent to full heads for
    ** training's attention */
    c->kvdim = m->mla_latent > 0 || m->kv_heads <= 0 ? c->qdim : m->kv_heads * hd;
}

double mdl_exposed(double comm, double o, double compute)
{
    double conc = o * comm;
    return (1.0 - o) * comm + (conc > compute ? conc - compute : 0.0);
}

double mdl_cp_layer(const mdl_stage *c, double tok, double attn_s, double link_eff)
{
    if (c->cp <= 1 || c->lcp.bw <= 0) return 0.0;
    double local = tok / c->cp * 2.0 / c->tp;       /* bf16 bytes per unit of width, this rank's tokens */
    if (c->cp_kind == CP_ULYSSES)
        return 2.0 * mdl_alltoall(local * c->qdim, c->cp, &c->lcp, link_eff)          /* Q in, output back */
             + 2.0 * mdl_alltoall(local * c->kvdim, c->cp, &c->lcp, link_eff);        /* K, V */
    double send = mdl_broadcast(2.0 * local * c->kvdim, &c->lcp, link_eff);           /* the K and V block */
    double block = attn_s / c->cp;
    return (c->cp - 1) * (send > block ? send - block : 0.0);
}

/* With A the all-reduce of a stage's BF16 parameters over a shard group (a
** reduce-scatter or an all-gather of the same bytes takes A/2), R the
** all-reduce across its replicas (HSDP), g the gradients' bytes over 2
** (mdl_grad_bytes: 2 for FP32 gradients) and o = plan.train.overlap:
**   ZeRO-0    g·(A + R) at the end of the mini-batch;
**   ZeRO-1    gradients reduce-scattered, g·A/2 + g·R, and after the
**             optimizer the updated BF16 parameters all-gathered, A/2;
**   ZeRO-2    a reduce-scatter per micro-batch, (1 - o)·g·A/2 exposed, and at
**             the end g·R and, after the optimizer, the all-gather A/2;
**   ZeRO-3    (FSDP) parameters all-gathered before the forward and again
**             before the backward of every micro-batch, gradients
**             reduce-scattered after it: (1 - o)·(1 + g/2)·A exposed per
**             micro-batch, g·R at the end.
** *grad is the part that can run during the last backward, *after the part
** that follows the optimizer.  A forward-only pass of a ZeRO-3 model gathers
** once per micro-batch: (1 - o)·A/2. */
double mdl_zero_comm(int zero, double overlap, double g, double a, double r, int micro, int train, double *grad,
                     double *after)
{
    double hid = 1.0 - overlap;
    if (grad) *grad = !train ? 0 : zero == 0 ? g * (a + r) : zero == 1 ? g * a / 2 + g * r : g * r;
    if (after) *after = train && (zero == 1 || zero == 2) ? a / 2 : 0;
    if (!train) return zero >= 3 ? micro * hid * a / 2 : 0;
    return zero == 2 ? micro * hid * g * a / 2 : zero >= 3 ? micro * hid * (1 + g / 2) * a : 0;
}

/* ------------------------------ costs that do not shrink with more devices
** and shared links (docs/model.md, sections 2, 4 and 10) */

double mdl_reward_cpu(double samples, double per_sample_s, int workers)
{
    if (samples <= 0 || per_sample_s <= 0) return 0.0;
    return samples * per_sample_s / (workers > 1 ? workers : 1);
}

double mdl_queue_requests(int readers, double request_s)
{
    return readers > 0 && request_s > 0 ? readers * request_s : 0.0;
}

double mdl_driver_gather(double bytes, int workers, double request_s, const scn_link *nic, double link_eff)
{
    if (bytes <= 0) return 0.0;
    return 2.0 * bytes / (nic->bw * link_eff) + 2.0 * nic->latency_s + mdl_queue_requests(workers, request_s);
}

/* ------------------------------- attention and training from the real shapes
** (docs/model.md, sections 3, 5, 6 and 7) */

double mdl_head_dim(const scn_model *m)
{
    return m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
}

/* Per layer and per (query, key) pair: QK·a·d_qk and AV·a·d_v multiply-adds,
** 2 FLOPs each.  GQA: d_qk = d_v = head_dim (the KV heads are shared, not
** the FLOPs).  MLA (DeepSeek-V2, arXiv 2405.04434, section 2.1): expanded,
** as in prefill and training, d_qk = nope + rope and d_v = nope; absorbed,
** as in decode, W_UK and W_UV fold into the query and output projections and
** every head attends over the cached latent, d_qk = kv_lora + rope and
** d_v = kv_lora. */
double mdl_attn_pair_flops(const scn_model *m, bool absorbed)
{
    double a = m->heads, d = mdl_head_dim(m);
    if (m->mla_latent <= 0) return 4.0 * a * d;
    double r = m->mla_rope, kvl = m->mla_latent;
    if (absorbed) return 2.0 * a * (2.0 * kvl + r);
    return 2.0 * a * (2.0 * d + r);
}

/* Causal attention over sequences whose squared lengths sum to sq: half the
** pairs of each sequence, expanded (MLA not absorbed). */
double mdl_attn_flops_causal(const scn_model *m, double sq)
{
    return 0.5 * m->layers * mdl_attn_pair_flops(m, false) * sq;
}

/* The untied input embedding is a table lookup: it is neither multiplied nor
** streamed whole.  A tied table is the LM head's matmul and stays counted. */
double mdl_lookup_params(const scn_model *m)
{
    return m->tied_embeddings ? 0.0 : (double)m->vocab * m->hidden;
}

double mdl_matmul_params(const scn_model *m)
{
    return m->params_active - mdl_lookup_params(m);
}

/* KV copies over a TP group of tp ranks: the heads are split over the ranks,
** but a KV head cannot be; each rank holds ceil(kv/tp) KV heads (at least
** one), tp·ceil(kv/tp)/kv copies in all.  MLA's latent is shared by every
** head: each rank holds all of it, tp copies. */
double mdl_kv_replication(const scn_model *m, int tp)
{
    if (tp <= 1) return 1.0;
    if (m->mla_latent > 0) return tp;
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    int per_rank = (kv + tp - 1) / tp;
    return (double)tp * per_rank / kv;
}

/* Megatron-LM accumulates and all-reduces gradients in FP32 with BF16
** (main_grad, --accumulate-allreduce-grads-in-fp32); its distributed
** optimizer guide (Megatron-LM, docs/source/api-guide/dist_optimizer.md)
** gives 16-bit parameters with FP32 gradients 18 bytes a parameter, 6 + 12/d
** under the distributed optimizer. */
double mdl_grad_bytes(const scn_train_layout *t)
{
    return t->grad_dtype == GRAD_BF16 ? 2.0 : 4.0;
}

/* ------------------------------ the optimizer on the host (docs/model.md,
** section 7); the activations' terms are in model_act.c */

double mdl_optimizer_host(const scn_cluster *c, double host_link_eff, double psi_shard, double grad_bytes)
{
    if (psi_shard <= 0) return 0.0;
    /* a node's cores step the shards of all its devices: its memory
    ** bandwidth is split among them */
    double mem_bw = c->host_mem_bw / (c->devices_per_node > 0 ? c->devices_per_node : 1);
    double link = mdl_host_bw_shared(c, host_link_eff);
    double down = grad_bytes * psi_shard, up = 2.0 * psi_shard;
    /* CPU Adam reads FP32 master, m, v and the FP32 gradient and writes
    ** master, m, v and the BF16 parameter: 30 bytes a parameter */
    return down / link + 30.0 * psi_shard / mem_bw + up / link;
}
