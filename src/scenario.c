/*
** scenario.c — defaults, derived model figures and validation of a scenario.
** Parameter counts follow the published architectures (config.json fields);
** the formulas are named next to each term.
*/
#include "scenario.h"

#include <math.h>
#include <string.h>

#define GiB (1024.0 * 1024.0 * 1024.0)

void scn_defaults(scn_scenario *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "scenario");
    scn_cluster *c = &s->cluster;
    c->devices_per_node = 8;
    c->nodes_per_supernode = 1;
    c->supernodes = 1;
    c->host_mem_bytes = 1024 * GiB;
    /* achieved STREAM-like bandwidth of a two-socket server: 16 DDR5-4800
    ** channels peak at 614 GB/s, about a third of it achieved by an
    ** optimizer sharing the node with eight device processes */
    c->host_mem_bw = 200e9;
    c->scaleout_oversub = 1.0;
    c->devices_per_host_link = 1;
    c->devices_per_nic = 1;
    c->collectives = COLL_NCCL;

    scn_workload *w = &s->work;
    w->algo = ALGO_GRPO;
    w->prompts_per_step = 64;
    w->samples_per_prompt = 8;
    w->minibatches = 1;
    w->epochs = 1;
    w->prompt_len.kind = DIST_FIXED;
    w->prompt_len.a = 512;
    w->response_len.kind = DIST_FIXED;
    w->response_len.a = 1024;
    w->max_response = 4096;
    w->response_growth = 0;
    w->iterations = 4;
    w->warmup = 1;
    w->seed = 1;
    w->recompute_logprob = true;

    scn_plan *p = &s->plan;
    p->mode = MODE_COLOCATE;
    p->rollout_fraction = 0.5;
    p->train.tp = 1;
    p->train.pp = 1;
    p->train.ep = 1;
    p->train.micro_batch = 1;
    p->train.recompute = RECOMPUTE_SELECTIVE;
    p->train.zero = 1;
    p->train.overlap = 0.5;
    p->train.cp = 1;
    p->train.cp_kind = CP_RING;
    p->train.attention = ATTN_FUSED;
    p->train.optimizer_offload = 0;
    p->train.max_tokens = 0;
    p->train.padding = PAD_NONE;
    p->train.balance = BAL_MINIBATCH;
    p->train.lora_rank = 0;
    p->train.lora_targets = LORA_ALL_LINEAR;
    p->train.logprob_batch = 0;
    p->train.logprob_chunk = 0;
    p->train.logits = LOGITS_FP32;
    p->train.entropy = ENTROPY_COMPILED;
    p->train.entropy_loss = false;
    p->train.logprob_entropy = false;
    p->train.logprob_tokens = 0;
    p->train.empty_cache_before_wake = true;
    p->train.precision = DTYPE_BF16;
    p->train.fp8_recipe = FP8_DELAYED;     /* Megatron-Core's TransformerConfig default */
    p->train.logprob_unshard = false;
    /* a PyTorch process's CUDA context with lazy module loading (PyTorch's
    ** default since 1.13, CUDA's since 12.2): 287,047,680 bytes measured in
    ** pytorch/pytorch pull request 86509 (666,632,192 loading eagerly) */
    p->cuda_context_bytes = 287047680.0;
    p->nccl_buffsize = 4194304.0;       /* NCCL_BUFFSIZE's default, NCCL's env.html */
    p->nccl_channels = 0;
    p->alloc_reserve = 0;
    p->rollout.tp = 1;
    p->rollout.ep = 1;
    p->rollout.max_seqs = 256;
    p->rollout.mem_util = 0.9;
    p->rollout.mem_scope = MEMSCOPE_INSTANCE;   /* vLLM from v0.9.1 (docs/model.md, section 8) */
    p->rollout.dispatch = DISPATCH_BALANCED;
    p->rollout.kv = KV_PAGED;
    p->rollout.kv_block = 16;
    p->rollout.spec_tokens = 0;
    p->rollout.spec_accept = 0.7;
    p->rollout.preempt = PREEMPT_RECOMPUTE;
    p->rollout.engine = ENGINE_VLLM;
    p->rollout.cuda_graphs = true;
    p->rollout.graph_max_batch = 0;
    p->rollout.max_batched_tokens = 0;
    p->rollout.prefix_caching = true;
    p->rollout.sleep = SLEEP_DISCARD;
    /* vLLM's captured graphs at its default capture sizes for a dense 8B
    ** model: "Estimated CUDA graph memory: 0.52 GiB" (Qwen3-8B, PIECEWISE
    ** up to 512 and FULL up to 256 tokens; vLLM's log quoted in
    ** LMCache/LMCache issue 3430); docs/model.md, section 8 */
    p->rollout.graph_pool_bytes = 0.52 * 1073741824.0;
    p->rollout.own_process = false;
    p->aux_tp = 1;
    p->aux_shard = AUX_SHARD_AUTO;
    p->offload_aux = AUX_OFFLOAD_AUTO;
    p->offload_optimizer = true;
    p->offload_grads = true;
    p->offload_params = PARAMS_RESIDENT;
    p->zero_redundancy = true;
    p->dq_hierarchical = true;
    p->dq_packed = true;
    p->controller = CTRL_QUEUE;
    p->reward_workers = 64;
    p->sync_every = 1;
    p->stream = false;
    p->dq_request_s = 1e-3;
    p->bucket_bytes = 512.0 * 1024 * 1024;
    p->staleness = 0;
    p->stale_share = 0;
    p->partial_rollout = 1.0;
    p->on_update = ONUPD_CONTINUE;
    p->on_stale = STALE_WAIT;

    /* Efficiency defaults: guesses in the range llm-analysis and published
    ** MFU figures suggest (training 30-45% of peak, HBM 70-90%). */
    scn_efficiency *e = &s->eff;
    e->train = 0.40;
    e->train_fp8 = 1.0;
    e->prefill = 0.50;
    e->decode = 0.50;
    e->hbm = 0.75;
    e->link = 0.70;
    e->host_link = 0.80;
    /* the decode step's fixed cost: a flat 2 ms, the model before the
    ** engine's structured cost (mdl_decode_fixed), which a scenario turns
    ** on with decode_overhead_scale > 0 (docs/model.md, section 5; on by
    ** default once the validation systems are re-fitted with it) */
    e->decode_overhead_s = 2e-3;
    e->decode_overhead_scale = 0;
    e->train_overhead_s = 0.1;
    e->switch_overhead_s = 1.0;
    e->reward_rule_s = 1e-3;
    e->gemm_shape = true;
    e->gemm_model = GEMM_SMOOTH;
}

int scn_total_devices(const scn_cluster *c)
{
    return c->devices_per_node * c->nodes_per_supernode * c->supernodes;
}

bool scn_device_same(const scn_device *a, const scn_device *b)
{
    return strcmp(a->name, b->name) == 0 && a->peak_flops == b->peak_flops && a->fp8_flops == b->fp8_flops &&
           a->hbm_bytes == b->hbm_bytes && a->cuda_total_bytes == b->cuda_total_bytes &&
           a->hbm_bw == b->hbm_bw && a->scaleup_bw == b->scaleup_bw && a->scaleout_bw == b->scaleout_bw &&
           a->host_bw == b->host_bw;
}

/* A pool's own device (set: every figure positive, as cluster.device). */
static bool pool_device_ok(const scn_device *d, const char *f, const char *field, fs_err *err)
{
    if (!scn_device_set(d)) return true;
    if (d->hbm_bytes <= 0 || d->hbm_bw <= 0 || d->scaleup_bw <= 0 || d->scaleout_bw <= 0 || d->host_bw <= 0) {
        fs_err_set(err, 2, "%s: %s: tflops, hbm_gb, hbm_tbps, scaleup_gbps, scaleout_gbps and host_gbps must be "
                   "positive", f, field);
        return false;
    }
    return true;
}

int scn_prompts_per_step(const scn_scenario *s)
{
    return s->work.prompts_per_step * (s->work.batch_per_supernode ? s->cluster.supernodes : 1);
}

const char *scn_mode_name(scn_mode m)
{
    switch (m) {
    case MODE_SEPARATE: return "separate";
    case MODE_COLOCATE: return "colocate";
    case MODE_FULL: return "full";
    }
    return "?";
}

bool scn_mode_parse(const char *s, scn_mode *out)
{
    if (strcmp(s, "separate") == 0) *out = MODE_SEPARATE;
    else if (strcmp(s, "colocate") == 0) *out = MODE_COLOCATE;
    else if (strcmp(s, "full") == 0) *out = MODE_FULL;
    else return false;
    return true;
}

const char *scn_dist_name(scn_dist_kind k)
{
    switch (k) {
    case DIST_FIXED: return "fixed";
    case DIST_UNIFORM: return "uniform";
    case DIST_LOGNORMAL: return "lognormal";
    case DIST_HIST: return "histogram";
    }
    return "?";
}

/* Parameters of one attention block.
** GQA: Wq h·(a·d), Wk,Wv h·(kv·d), Wo (a·d)·h.
** MLA (DeepSeek-V2/V3): q = h·qL + qL·a·(d+r) (or h·a·(d+r) without a q latent),
** kv down h·(kvL+r), kv up kvL·a·2d, o a·d·h. */
static double attn_params(const scn_model *m)
{
    double h = m->hidden, a = m->heads;
    double d = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
    if (m->mla_latent > 0) {
        double r = m->mla_rope, kvl = m->mla_latent, ql = m->mla_q_latent;
        double q = ql > 0 ? h * ql + ql * a * (d + r) : h * a * (d + r);
        return q + h * (kvl + r) + kvl * a * 2 * d + a * d * h;
    }
    double kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    return h * a * d + 2 * h * kv * d + a * d * h;
}

void scn_model_derive(scn_model *m)
{
    if (m->layers <= 0 || m->hidden <= 0 || m->heads <= 0) return;
    double h = m->hidden;
    double attn = attn_params(m) + 2 * h;          /* + two RMSNorm vectors */
    /* gated (SwiGLU): gate, up, down; gelu: up, down */
    double mats = m->mlp == MLP_GELU ? 2.0 : 3.0;
    double dense_ffn = mats * h * m->ffn;
    double emb = (double)m->vocab * h * (m->tied_embeddings ? 1 : 2);
    double total, active, expert = 0;
    if (m->experts > 0) {
        /* in double: layer and expert counts multiply past int */
        double moe_layers = (double)m->layers - m->dense_layers;
        double e1 = mats * h * m->expert_ffn;      /* one expert */
        double router = h * m->experts;
        expert = moe_layers * m->experts * e1;
        double shared = moe_layers * ((double)m->shared_experts * e1 + router);
        double dense_part = (double)m->dense_layers * dense_ffn;
        total = m->layers * attn + dense_part + shared + expert + emb;
        active = m->layers * attn + dense_part + shared
               + moe_layers * m->experts_active * e1 + emb;
    } else {
        total = m->layers * (attn + dense_ffn) + emb;
        active = total;
    }
    m->params_total = total;
    m->params_active = active;
    m->params_expert = expert;
    m->params_dense = total - expert;
    m->params_layer_dense = (total - expert - emb) / m->layers;
    /* KV cache per token, BF16: GQA 2·L·kv·d·2; MLA (latent + rope)·L·2. */
    double d = m->head_dim > 0 ? m->head_dim : h / m->heads;
    if (m->mla_latent > 0)
        m->kv_bytes_per_token = ((double)m->mla_latent + m->mla_rope) * m->layers * 2.0;
    else
        m->kv_bytes_per_token = 2.0 * m->layers * (m->kv_heads > 0 ? m->kv_heads : m->heads) * d * 2.0;
}

static bool check_model(const scn_scenario *s, const scn_model *m, const char *role, fs_err *err)
{
    const char *f = s->path;
    if (m->layers <= 0 || m->hidden <= 0 || m->heads <= 0 || m->vocab <= 0) {
        fs_err_set(err, 2, "%s: models.%s: layers, hidden, heads and vocab must be positive", f, role);
        return false;
    }
    if (m->experts > 0) {
        if (m->experts_active <= 0 || m->experts_active > m->experts) {
            fs_err_set(err, 2, "%s: models.%s.experts_active: must be in 1..%d (experts)", f, role, m->experts);
            return false;
        }
        if (m->expert_ffn <= 0) {
            fs_err_set(err, 2, "%s: models.%s.expert_ffn: must be positive for a MoE model", f, role);
            return false;
        }
        if (m->dense_layers < 0 || m->dense_layers >= m->layers) {
            fs_err_set(err, 2, "%s: models.%s.dense_layers: must be in 0..%d", f, role, m->layers - 1);
            return false;
        }
    } else if (m->ffn <= 0) {
        fs_err_set(err, 2, "%s: models.%s.ffn: must be positive for a dense model", f, role);
        return false;
    }
    return true;
}

#define BAD(...) do { fs_err_set(err, 2, __VA_ARGS__); return false; } while (0)

static bool check_calibration(const scn_calibration *c, const char *f, fs_err *err);

bool scn_validate(const scn_scenario *s, fs_err *err)
{
    const char *f = s->path[0] ? s->path : "scenario";
    const scn_cluster *c = &s->cluster;
    const scn_device *d = &c->device;
    if (d->peak_flops <= 0 || d->hbm_bytes <= 0 || d->hbm_bw <= 0)
        BAD("%s: cluster.device: tflops, hbm_gb and hbm_tbps must be positive", f);
    if (d->scaleup_bw <= 0 || d->scaleout_bw <= 0 || d->host_bw <= 0)
        BAD("%s: cluster.device: scaleup_gbps, scaleout_gbps and host_gbps must be positive", f);
    if (c->devices_per_node < 1) BAD("%s: cluster.devices_per_node: must be at least 1", f);
    if (c->nodes_per_supernode < 1) BAD("%s: cluster.nodes_per_supernode: must be at least 1", f);
    if (c->supernodes < 1 || c->supernodes > 4096) BAD("%s: cluster.supernodes: must be in 1..4096", f);
    long long cluster_devices = (long long)c->devices_per_node * c->nodes_per_supernode * c->supernodes;
    if (cluster_devices > SCN_DEVICES_MAX)
        BAD("%s: cluster: %lld devices (supernodes x nodes_per_supernode x devices_per_node), at most %d; "
            "lower one of them", f, cluster_devices, SCN_DEVICES_MAX);
    if (c->host_mem_bytes <= 0) BAD("%s: cluster.host_mem_gb: must be positive", f);
    if (c->devices_per_host_link > c->devices_per_node)
        BAD("%s: cluster.devices_per_host_link: %d devices cannot share one host uplink in a node of %d; "
            "set it to at most cluster.devices_per_node", f, c->devices_per_host_link, c->devices_per_node);
    if (c->devices_per_nic > c->devices_per_node)
        BAD("%s: cluster.devices_per_nic: %d devices cannot share one NIC in a node of %d; "
            "set it to at most cluster.devices_per_node", f, c->devices_per_nic, c->devices_per_node);
    const scn_link *links[3] = {&c->intra_node, &c->intra_supernode, &c->inter_supernode};
    const char *lname[3] = {"intra_node", "intra_supernode", "inter_supernode"};
    for (int i = 0; i < 3; i++)
        if (links[i]->bw <= 0 || links[i]->latency_s < 0)
            BAD("%s: cluster.links.%s: gbps must be positive and latency_us not negative", f, lname[i]);

    if (!check_model(s, &s->actor, "actor", err)) return false;
    if (s->has_ref && !check_model(s, &s->ref, "reference", err)) return false;
    if (s->reward_is_model && !check_model(s, &s->reward, "reward", err)) return false;
    if (s->has_critic && !check_model(s, &s->critic, "critic", err)) return false;

    const scn_workload *w = &s->work;
    if (w->algo == ALGO_PPO && !s->has_critic)
        BAD("%s: workload.algorithm: ppo needs models.critic (or use \"grpo\")", f);
    if (w->prompts_per_step < 1) BAD("%s: workload.prompts_per_step: must be at least 1", f);
    if (w->samples_per_prompt < 1) BAD("%s: workload.samples_per_prompt: must be at least 1", f);
    if (w->minibatches < 1) BAD("%s: workload.minibatches: must be at least 1", f);
    if (w->epochs < 1) BAD("%s: workload.epochs: must be at least 1", f);
    if (w->iterations < 1 || w->iterations > 100000) BAD("%s: workload.iterations: must be in 1..100000", f);
    if (w->warmup < 0) BAD("%s: workload.warmup: must be 0 or more, got %d", f, w->warmup);
    if (w->warmup >= w->iterations)
        /* the warm-up steps are left out of the measured window: at least
        ** one step must remain */
        BAD("%s: workload.warmup: %d warm-up step%s (workload.warmup = N) must be fewer than the %d iteration%s "
            "(workload.iterations, --iterations); give --set workload.warmup=%d or --iterations %d",
            f, w->warmup, w->warmup == 1 ? "" : "s", w->iterations, w->iterations == 1 ? "" : "s",
            w->iterations > 1 ? w->iterations - 1 : 0, w->warmup + 1);
    if (w->max_response < 1) BAD("%s: workload.max_response: must be at least 1", f);
    if (!(w->response_growth >= -0.5 && w->response_growth <= 1))
        BAD("%s: workload.response_growth: %g must be in [-0.5, 1] (a share per step: 0.002 is +0.2%% a step)", f,
            w->response_growth);
    long samples = (long)scn_prompts_per_step(s) * w->samples_per_prompt;
    if (samples > 50L * 1000 * 1000) BAD("%s: workload: %ld samples per step is more than the 50M supported", f, samples);
    if (samples % w->minibatches != 0)
        BAD("%s: workload.minibatches: %d does not divide the %ld samples of a step", f, w->minibatches, samples);
    const scn_dist *ds[2] = {&w->prompt_len, &w->response_len};
    const char *dn[2] = {"prompt_len", "response_len"};
    for (int i = 0; i < 2; i++) {
        const scn_dist *x = ds[i];
        switch (x->kind) {
        case DIST_FIXED:
            if (x->a < 1) BAD("%s: workload.%s: a fixed length must be at least 1", f, dn[i]);
            break;
        case DIST_UNIFORM:
            if (x->a < 1 || x->b < x->a) BAD("%s: workload.%s: uniform needs 1 <= lo <= hi", f, dn[i]);
            break;
        case DIST_LOGNORMAL:
            if (x->a < 1 || x->b < 0 || x->b > 5) BAD("%s: workload.%s: lognormal needs median >= 1 and sigma in 0..5", f, dn[i]);
            break;
        case DIST_HIST:
            if (x->nbins < 1 || x->nbins > SCN_HIST_MAX) BAD("%s: workload.%s: a histogram needs 1..%d bins", f, dn[i], SCN_HIST_MAX);
            {
                double tw = 0;
                for (int k = 0; k < x->nbins; k++) {
                    if (x->weight[k] < 0 || x->edge[k + 1] <= x->edge[k] || x->edge[k] < 0)
                        BAD("%s: workload.%s: histogram edges must increase and weights be >= 0 (bin %d)", f, dn[i], k + 1);
                    tw += x->weight[k];
                }
                if (tw <= 0) BAD("%s: workload.%s: histogram weights sum to zero", f, dn[i]);
            }
            break;
        }
        if (x->cap < 0) BAD("%s: workload.%s.cap: must not be negative", f, dn[i]);
    }

    const scn_plan *p = &s->plan;
    int total = scn_total_devices(c);
    const scn_train_layout *t = &p->train;
    if (t->tp < 1 || t->pp < 1 || t->ep < 1 || t->dp < 0 || t->micro_batch < 1)
        BAD("%s: plan.train: tp, pp, ep and micro_batch must be at least 1", f);
    if (t->zero < 0 || t->zero > 3) BAD("%s: plan.train.zero: must be 0, 1, 2 or 3", f);
    int extra = t->pp_embedding_layer + t->pp_loss_layer;
    /* Megatron's TransformerConfig refuses a split whose layers, the
    ** embedding and loss counted in, pp does not divide
    ** (megatron/core/transformer/transformer_config.py, __post_init__) */
    if (extra > 0 && t->pp > 1 && (s->actor.layers + extra) % t->pp != 0)
        BAD("%s: plan.train.pp: %d does not divide the actor's %d layers with the embedding and loss counted in "
            "(plan.train.pp_embedding_layer, pp_loss_layer): %d", f, t->pp, s->actor.layers, s->actor.layers + extra);
    if (extra > 0 && t->pp > 1 && (s->actor.layers + extra) / t->pp <= 1)
        BAD("%s: plan.train.pp: %d stages leave the first or last no transformer layer", f, t->pp);
    if (extra == 0 && s->actor.layers % t->pp != 0 && !t->uneven_layers)
        BAD("%s: plan.train.pp: %d does not divide the actor's %d layers (set plan.train.uneven_layers = true "
            "to allow stages of %d and %d layers)", f, t->pp, s->actor.layers,
            s->actor.layers / t->pp + (s->actor.layers % t->pp != 0), s->actor.layers / t->pp);
    if (t->pp > s->actor.layers) BAD("%s: plan.train.pp: %d is more than the actor's %d layers", f, t->pp, s->actor.layers);
    if (s->actor.experts > 0 && s->actor.experts % t->ep != 0)
        BAD("%s: plan.train.ep: %d does not divide the actor's %d experts", f, t->ep, s->actor.experts);
    if (s->actor.experts == 0 && t->ep != 1)
        BAD("%s: plan.train.ep: the actor is dense; ep must be 1", f);
    if (s->actor.heads % t->tp != 0)
        BAD("%s: plan.train.tp: %d does not divide the actor's %d heads", f, t->tp, s->actor.heads);
    if (t->cp < 1) BAD("%s: plan.train.cp: must be at least 1", f);
    if (t->cp > 1 && t->cp_kind == CP_ULYSSES && (s->actor.heads / t->tp) % t->cp != 0)
        BAD("%s: plan.train.cp: Ulysses splits each TP rank's %d heads over the %d context-parallel ranks, and %d does "
            "not divide them (use a cp that divides heads/tp = %d, or plan.train.cp_kind = \"ring\")",
            f, s->actor.heads / t->tp, t->cp, t->cp, s->actor.heads / t->tp);
    if (!(t->optimizer_offload >= 0 && t->optimizer_offload <= 1))
        BAD("%s: plan.train.optimizer_offload: %g must be in [0, 1] (the share of the optimizer states on the host)",
            f, t->optimizer_offload);
    if (t->optimizer_offload > 0 && t->zero < 1)
        BAD("%s: plan.train.optimizer_offload: the host optimizer steps a ZeRO shard of the states; set "
            "plan.train.zero to 1 or more (DeepSpeed's CPU Adam needs ZeRO-1..3)", f);
    if (t->max_tokens < 0) BAD("%s: plan.train.max_tokens: must not be negative (0: micro_batch counts sequences)", f);
    if (t->max_tokens > 0 && t->padding == PAD_LONGEST)
        BAD("%s: plan.train.max_tokens: token-budget micro-batches pack their sequences; set plan.train.padding = "
            "\"none\" or plan.train.max_tokens = 0", f);
    if (c->host_mem_bw <= 0) BAD("%s: cluster.host_mem_gbps: must be positive", f);
    const scn_rollout_layout *r = &p->rollout;
    if (r->tp < 1 || r->ep < 1 || r->max_seqs < 1)
        BAD("%s: plan.rollout: tp, ep and max_seqs must be at least 1", f);
    if (r->mem_util <= 0 || r->mem_util > 1) BAD("%s: plan.rollout.mem_util: must be in (0, 1]", f);
    /* kv_cache_memory_bytes is vLLM's (vllm/config/cache.py, from 0.11), whose
    ** V1 worker budgets per instance (docs/model.md, section 3) */
    if (r->kv_cache_bytes < 0) BAD("%s: plan.rollout.kv_cache_gb: must not be negative (0: unset)", f);
    if (r->kv_cache_bytes > 0 && r->engine != ENGINE_VLLM && r->engine != ENGINE_EAGER)
        BAD("%s: plan.rollout.kv_cache_gb: vLLM's kv_cache_memory_bytes; plan.rollout.engine must be \"vllm\" or "
            "\"eager\" (0: unset)", f);
    if (r->kv_cache_bytes > 0 && r->mem_scope != MEMSCOPE_INSTANCE)
        BAD("%s: plan.rollout.kv_cache_gb: vLLM's kv_cache_memory_bytes (vLLM 0.11 on) comes with the per-instance "
            "budget; set plan.rollout.mem_util_scope = \"instance\" (0: unset)", f);
    /* a step schedules every running decode first (vLLM's scheduler): a
    ** budget of max_seqs or fewer could leave no room for a prefill chunk */
    if (r->max_batched_tokens < 0 || (r->max_batched_tokens > 0 && r->max_batched_tokens <= r->max_seqs))
        BAD("%s: plan.rollout.max_batched_tokens: %d must exceed plan.rollout.max_seqs (%d), each decoding sequence "
            "taking one token of a step's budget (0: no chunked prefill)", f, r->max_batched_tokens, r->max_seqs);
    if (s->actor.experts > 0 && s->actor.experts % r->ep != 0)
        BAD("%s: plan.rollout.ep: %d does not divide the actor's %d experts", f, r->ep, s->actor.experts);
    if (s->actor.experts == 0 && r->ep != 1)
        BAD("%s: plan.rollout.ep: the actor is dense; ep must be 1", f);
    if (s->actor.heads % r->tp != 0)
        BAD("%s: plan.rollout.tp: %d does not divide the actor's %d heads", f, r->tp, s->actor.heads);
    if (r->ep > r->tp && r->ep % r->tp != 0)
        BAD("%s: plan.rollout: ep %d must be a multiple of tp %d (attention is data-parallel inside an instance)", f, r->ep, r->tp);
    if (r->tp > r->ep && r->tp % r->ep != 0)
        BAD("%s: plan.rollout: tp %d must be a multiple of ep %d", f, r->tp, r->ep);
    if (p->aux_tp < 1) BAD("%s: plan.aux_tp: must be at least 1", f);
    if (p->bucket_bytes < 1024 * 1024) BAD("%s: plan.bucket_mb: must be at least 1", f);
    if (p->staleness < 0 || p->staleness > SCN_STALENESS_MAX) BAD("%s: plan.staleness: must be in 0..%d", f, SCN_STALENESS_MAX);
    if (p->stale_share < 0 || p->stale_share >= 1)
        BAD("%s: plan.stale_share: %g must be in [0, 1) (a whole further step is plan.staleness + 1)", f, p->stale_share);
    if (p->sync_every > 1 && p->staleness < p->sync_every - 1)
        BAD("%s: plan.sync_every: %d optimizer steps between weight syncs leave the rollout up to %d version(s) behind; "
            "set plan.staleness to at least %d, or plan.sync_every to 1", f, p->sync_every, p->sync_every - 1, p->sync_every - 1);
    if (p->stale_share > 0 && p->staleness >= SCN_STALENESS_MAX)
        BAD("%s: plan.stale_share: needs plan.staleness below %d (the share counts as one more version)", f, SCN_STALENESS_MAX);
    if (p->partial_rollout <= 0 || p->partial_rollout > 1) BAD("%s: plan.partial_rollout: must be in (0, 1]", f);
    if (p->rollout_devices < 0 || p->rollout_devices >= total)
        BAD("%s: plan.rollout_devices: %d must be below the cluster's %d device%s", f, p->rollout_devices, total, fs_s(total));
    if (p->aux_devices < 0 || p->aux_devices >= total)
        BAD("%s: plan.aux_devices: %d must be below the cluster's %d device%s", f, p->aux_devices, total, fs_s(total));
    if (p->npools < 0 || p->npools > SCN_POOLS_MAX) BAD("%s: plan.pools: at most %d pools", f, SCN_POOLS_MAX);
    if (!pool_device_ok(&p->rollout_device, f, "plan.rollout_device", err)) return false;
    if (scn_device_set(&p->rollout_device) && (p->mode != MODE_SEPARATE || p->npools > 0))
        BAD("%s: plan.rollout_device: a rollout pool of its own device type needs mode \"separate\" and the "
            "derived pools (rollout and training on other devices); with plan.pools give plan.pools[i].device", f);
    int sum = 0;
    for (int i = 0; i < p->npools; i++) {
        char field[64];
        snprintf(field, sizeof field, "plan.pools[%d].device", i + 1);
        if (!pool_device_ok(&p->pools[i].device, f, field, err)) return false;
        if (p->pools[i].devices < 1) BAD("%s: plan.pools[%d].devices: must be at least 1", f, i + 1);
        if (p->pools[i].roles == 0) BAD("%s: plan.pools[%d].roles: a pool needs at least one role", f, i + 1);
        sum += p->pools[i].devices;
    }
    if (sum > total)
        BAD("%s: plan.pools: %d devices asked for, the cluster has %d (cluster.supernodes = %d)", f, sum, total, c->supernodes);
    /* FP8 weights need FP8 tensor cores: without them (A100, the Ascend
    ** NPUs) vLLM's Fp8LinearMethod falls back to weight-only FP8 Marlin
    ** kernels, BF16 GEMMs over dequantised weights, which fusync does not
    ** model (docs/model.md, section 5, FP8 rollouts) */
    if (r->weights_dtype == DTYPE_FP8) {
        int n = p->npools > 0 ? p->npools : 1;
        for (int i = 0; i < n; i++) {
            const scn_device *dv = &c->device;
            if (p->npools > 0) {
                if (!(p->pools[i].roles & ROLE_ROLLOUT)) continue;
                if (scn_device_set(&p->pools[i].device)) dv = &p->pools[i].device;
            } else if (scn_device_set(&p->rollout_device)) dv = &p->rollout_device;
            if (!(dv->fp8_flops > 0))
                BAD("%s: plan.rollout.weights_dtype: \"fp8\" needs FP8 tensor cores, and the rollout's %s has none "
                    "(its fp8_tflops is 0): vLLM would run weight-only FP8 (Marlin) kernels there, which fusync does "
                    "not model; set \"bf16\", or give the device's fp8_tflops", f, dv->name[0] ? dv->name : "device");
        }
    }
    /* FP8 training (docs/model.md, section 7, FP8 training): Transformer
    ** Engine's FP8 GEMMs need FP8 tensor cores on the training devices;
    ** LoRA's adapters and FSDP's sharded parameters under FP8 are not
    ** modelled */
    if (p->train.precision == DTYPE_FP8) {
        const scn_device *dv = &c->device;
        for (int i = 0; i < p->npools; i++)
            if ((p->pools[i].roles & (ROLE_TRAIN | ROLE_CRITIC)) && scn_device_set(&p->pools[i].device)) dv = &p->pools[i].device;
        if (!(dv->fp8_flops > 0))
            BAD("%s: plan.train.precision: \"fp8\" needs FP8 tensor cores, and the training %s has none (its "
                "fp8_tflops is 0); set \"bf16\", or give the device's fp8_tflops", f, dv->name[0] ? dv->name : "device");
        if (p->train.lora_rank > 0)
            BAD("%s: plan.train.precision: \"fp8\" with LoRA (plan.train.lora_rank) is not modelled; set \"bf16\"", f);
        /* NeMo RL exports blockwise FP8 parameters as FP8 (_is_fp8_export),
        ** which a BF16 engine cannot take ("FP8 storage on train side has no
        ** BF16 gen consumer", nemo_rl/weight_sync/nccl_reshard_utils.py) */
        if (p->train.fp8_param && p->train.fp8_recipe == FP8_BLOCKWISE && r->weights_dtype != DTYPE_FP8)
            BAD("%s: plan.train.fp8_param with fp8_recipe \"blockwise\": the trainer's weights are exported to the "
                "engine in FP8, which a BF16 engine cannot take; set plan.rollout.weights_dtype = \"fp8\", or "
                "fp8_param = false", f);
        if (p->train.zero >= 3)
            BAD("%s: plan.train.precision: \"fp8\" under ZeRO-3/FSDP (plan.train.zero = 3) is not modelled: fusync "
                "prices Transformer Engine's FP8 under Megatron-Core's data parallelism; set \"bf16\" or zero < 3", f);
    }
    return check_calibration(&s->cal, f, err);
}

/* The knobs' names, in the order of calibrate.c's table (a unit test holds
** the two together). */
static const char *const CAL_KNOB_NAMES[SCN_CAL_KNOBS] = {
    "train", "prefill", "decode", "hbm", "link", "host_link",
    "decode_overhead_ms", "train_overhead_ms", "switch_overhead_s", "reward_rule_ms",
};

const char *scn_cal_knob_name(int k) { return k >= 0 && k < SCN_CAL_KNOBS ? CAL_KNOB_NAMES[k] : NULL; }

double scn_cal_corr(const scn_calibration *c, int i, int j)
{
    if (i == j) return 1;
    return c->corr[i][j] != 0 ? c->corr[i][j] : c->corr[j][i];
}

bool scn_has_calibration(const scn_scenario *s)
{
    for (int k = 0; k < SCN_CAL_KNOBS; k++) if (s->cal.sd[k] > 0) return true;
    return false;
}

bool scn_cal_cholesky(const scn_calibration *c, double *L)
{
    /* covariance in units of each knob's fitted value: sd_i sd_j corr_ij;
    ** a knob not fitted (sd 0) has a zero row and column */
    int n = SCN_CAL_KNOBS;
    for (int i = 0; i < n * n; i++) L[i] = 0;
    for (int i = 0; i < n; i++) {
        if (!(c->sd[i] > 0)) continue;
        for (int j = 0; j <= i; j++) {
            if (!(c->sd[j] > 0)) continue;
            double a = c->sd[i] * c->sd[j] * scn_cal_corr(c, i, j);
            for (int k = 0; k < j; k++) a -= L[i * n + k] * L[j * n + k];
            if (i == j) {
                /* semi-definite to rounding: a correlation of exactly ±1 leaves 0 here */
                if (a < -1e-9 * c->sd[i] * c->sd[i]) return false;
                L[i * n + i] = a > 0 ? sqrt(a) : 0;
            } else {
                L[i * n + j] = L[j * n + j] > 0 ? a / L[j * n + j] : 0;
            }
        }
    }
    return true;
}

static bool check_calibration(const scn_calibration *c, const char *f, fs_err *err)
{
    bool any = false;
    for (int k = 0; k < SCN_CAL_KNOBS; k++) any |= c->sd[k] > 0;
    if (!any) {
        for (int i = 0; i < SCN_CAL_KNOBS; i++)
            for (int j = 0; j < SCN_CAL_KNOBS; j++)
                if (i != j && c->corr[i][j] != 0)
                    BAD("%s: calibration.corr.%s.%s: a correlation needs both knobs' calibration.sd", f,
                        CAL_KNOB_NAMES[i], CAL_KNOB_NAMES[j]);
        return true;
    }
    if (c->rows < 1) BAD("%s: calibration.rows: required with calibration.sd (the measured steps the fit used)", f);
    for (int i = 0; i < SCN_CAL_KNOBS; i++)
        for (int j = 0; j < SCN_CAL_KNOBS; j++) {
            if (i == j || c->corr[i][j] == 0) continue;
            if (!(c->sd[i] > 0) || !(c->sd[j] > 0))
                BAD("%s: calibration.corr.%s.%s: a correlation needs both knobs' calibration.sd", f,
                    CAL_KNOB_NAMES[i], CAL_KNOB_NAMES[j]);
            if (c->corr[j][i] != 0 && fabs(c->corr[j][i] - c->corr[i][j]) > 1e-9)
                BAD("%s: calibration.corr.%s.%s: %g, but calibration.corr.%s.%s is %g; a correlation is symmetric: "
                    "give one of them", f, CAL_KNOB_NAMES[i], CAL_KNOB_NAMES[j], c->corr[i][j], CAL_KNOB_NAMES[j],
                    CAL_KNOB_NAMES[i], c->corr[j][i]);
        }
    double L[SCN_CAL_KNOBS * SCN_CAL_KNOBS];
    if (!scn_cal_cholesky(c, L))
        BAD("%s: calibration.corr: not a correlation matrix (not positive semi-definite); write the one "
            "`fusync calibrate --out` wrote", f);
    return true;
}
