/*
** plan_cost.c — what one pool's layout costs: the collectives of its groups
** by the tier they cross, ZeRO's gathers, the optimizer's and the training
** states' bytes, the activation peak, and the weight sync and reshard
** (docs/model.md, sections 2, 3, 7, 8 and 9).  plan.c builds the pools and
** fits them; the engine, `fusync check` and the estimate price them here,
** with the same functions.
*/
#include "plan.h"
#include "model.h"
#include "model_mem.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* The links a pool's own collectives use: the callers pass the cluster, a
** pool of its own device type answers with its view. */
static const scn_cluster *links_of(const scn_cluster *c, const plan_pool *q)
{
    return q->own_device ? &q->view : c;
}


int plan_dev(const plan_pool *q, int k)
{
    for (int r = 0; r < q->nranges; r++) {
        int n = q->range[r][1] - q->range[r][0] + 1;
        if (k < n) return q->range[r][0] + k;
        k -= n;
    }
    return plan_last(q) + 1 + k;      /* past the end: as if the last range went on */
}

int plan_dev_after(const plan_pool *q, int dev, int d)
{
    if (q->nranges <= 1) return dev + d;
    int k = 0;
    for (int r = 0; r < q->nranges; r++) {
        if (dev <= q->range[r][1]) { k += dev - q->range[r][0]; break; }
        k += q->range[r][1] - q->range[r][0] + 1;
    }
    return plan_dev(q, k + d);
}

int plan_group_tier(const scn_cluster *c, const plan_pool *q, int k, int stride, int count)
{
    if (count <= 1) return 0;
    if (q->nranges <= 1) return mdl_group_tier(c, q->first + k, stride, count);
    int a = plan_dev(q, k), b = plan_dev(q, k + stride * (count - 1));
    return mdl_group_tier(c, a, b - a, 2);
}

scn_link plan_pool_link_shared(const scn_cluster *c, const plan_pool *q, int k, int stride, int count)
{
    c = links_of(c, q);
    return mdl_tier_link_shared(c, plan_group_tier(c, q, k, stride, count));
}

scn_link plan_group_link(const scn_cluster *c, const plan_pool *q, int k, int stride, int count, bool shared)
{
    c = links_of(c, q);
    if (q->nranges <= 1) return mdl_group_link(c, q->first + k, stride, count, shared);
    int tier = plan_group_tier(c, q, k, stride, count);
    if (tier == 0) return shared ? mdl_tier_link_shared(c, 0) : c->intra_node;
    /* members on the first member's node (supernode across supernodes) */
    int unit = tier == 1 ? c->devices_per_node : c->devices_per_node * c->nodes_per_supernode;
    int u0 = plan_dev(q, k) / unit, loc = 0;
    while (loc < count && plan_dev(q, k + loc * stride) / unit == u0) loc++;
    return mdl_link_hier(c, tier, loc, shared);
}

double plan_allreduce_group(const scn_cluster *c, const plan_pool *q, int k, int stride, int count, double bytes,
                            double eff)
{
    c = links_of(c, q);
    if (q->nranges <= 1) return mdl_allreduce_group(c, q->first + k, stride, count, bytes, eff);
    if (count <= 1) return 0.0;
    int tier = plan_group_tier(c, q, k, stride, count);
    /* the links as every device of a node sees them when all cross at once
    ** (mdl_tier_link_shared: NICs shared, the scale-out fabric oversubscribed) */
    if (tier < 2) {
        scn_link g = plan_group_link(c, q, k, stride, count, true);
        return mdl_allreduce(bytes, count, &g, eff);
    }
    scn_link l = mdl_link_hier(c, 2, 1, true);
    /* across supernodes: reduce-scatter inside each supernode the members
    ** touch, all-reduce of the share across them, all-gather inside */
    int per_sn = c->devices_per_node * c->nodes_per_supernode;
    int span_sn = 0, last_sn = -1;
    for (int i = 0; i < count; i++) {
        int sn = plan_dev(q, k + i * stride) / per_sn;
        if (sn != last_sn) span_sn++;
        last_sn = sn;
    }
    int inner = count / span_sn;
    if (inner < 1) inner = 1;
    scn_link li = plan_group_link(c, q, k, stride, inner, true);
    return mdl_allgather(bytes, inner, &li, eff) * 2 + mdl_allreduce(bytes / inner, span_sn, &l, eff);
}

/* Whether every `unit`-sized block holding devices of q holds some of tq. */
static bool units_shared(const plan_pool *tq, const plan_pool *q, int unit)
{
    int last = -1;
    for (int r = 0; r < q->nranges; r++)
        for (int u = q->range[r][0] / unit; u <= q->range[r][1] / unit; u++) {
            if (u == last) continue;
            last = u;
            bool has = false;
            for (int k = 0; k < tq->nranges && !has; k++)
                has = tq->range[k][0] < (u + 1) * unit && tq->range[k][1] >= u * unit;
            if (!has) return false;
        }
    return true;
}

int plan_sync_tier(const scn_cluster *c, const plan_pool *tq, const plan_pool *q)
{
    int lo = tq->first < q->first ? tq->first : q->first;
    int hi = plan_last(tq) > plan_last(q) ? plan_last(tq) : plan_last(q);
    int tier = mdl_group_tier(c, lo, hi - lo, 2);
    if (!tq->placed && !q->placed) return tier;
    if (tier > 0 && units_shared(tq, q, c->devices_per_node)) return 0;
    if (tier > 1 && units_shared(tq, q, c->devices_per_node * c->nodes_per_supernode)) return 1;
    return tier;
}

int plan_nodes(const scn_cluster *c, const plan_pool *q, int *most)
{
    int dpn = c->devices_per_node, nodes = 0, last = -1, here = 0;
    *most = 0;
    for (int r = 0; r < q->nranges; r++)
        for (int d = q->range[r][0]; d <= q->range[r][1]; d++) {
            if (d / dpn != last) { nodes++; here = 0; last = d / dpn; }
            if (++here > *most) *most = here;
        }
    return nodes;
}

int plan_devices_on_node(const scn_cluster *c, const plan_pool *q, int node)
{
    int dpn = c->devices_per_node, lo = node * dpn, hi = lo + dpn - 1, n = 0;
    for (int r = 0; r < q->nranges; r++) {
        int a = q->range[r][0] > lo ? q->range[r][0] : lo, b = q->range[r][1] < hi ? q->range[r][1] : hi;
        if (b >= a) n += b - a + 1;
    }
    return n;
}

int plan_host_devices(const scn_cluster *c, const plan_pool *q)
{
    /* its fullest node by its device ranges: a pool packed across a node
    ** boundary (devices 6-9 of 8-device nodes) holds 2 on each, not 4; a
    ** spread pool part of each node */
    if (q->nranges > 0) {
        int most;
        plan_nodes(c, q, &most);
        return most;
    }
    return c->devices_per_node < q->devices ? c->devices_per_node : q->devices;
}

/* docs/model.md, section 8, "One host memory a node": the processes of
** every pool on a node draw on its one host memory (the kernel's OOM killer
** and Ray's memory monitor act per node), so a node holds the sum over its
** pools of their host bytes a device times their devices there.  Each
** pool's figure is its own peak, so the sum is an upper bound when two
** pools peak at different times; the optimizer's whole-run share is exact.
** per_device[i] is pool i's host bytes a device, fills[i] whether pool i
** alone is over the node's host memory (its own message). */
void plan_host_sum_of(const scn_cluster *c, const plan *p, const double *per_device, const bool *fills,
                      plan_host_nodes *h)
{
    memset(h, 0, sizeof *h);
    h->node = h->over_node = -1;
    int dpn = c->devices_per_node, nn = (p->total_devices + dpn - 1) / dpn, holders = 0;
    for (int i = 0; i < p->npools; i++) holders += per_device[i] > 0;
    if (holders == 0 || nn < 1) return;
    double *sum = xcalloc((size_t)nn, sizeof *sum);
    unsigned char *npools = xcalloc((size_t)nn, 1), *alone = xcalloc((size_t)nn, 1);
    for (int i = 0; i < p->npools; i++) {
        const plan_pool *q = &p->pools[i];
        if (per_device[i] <= 0) continue;
        int last = -1;
        for (int r = 0; r < q->nranges; r++)
            for (int n = q->range[r][0] / dpn; n <= q->range[r][1] / dpn; n++) {
                int a = q->range[r][0] > n * dpn ? q->range[r][0] : n * dpn;
                int b = q->range[r][1] < n * dpn + dpn - 1 ? q->range[r][1] : n * dpn + dpn - 1;
                sum[n] += per_device[i] * (b - a + 1);
                if (n != last) { npools[n]++; last = n; }
                if (fills[i]) alone[n] = 1;
            }
    }
    for (int n = 0; n < nn; n++) {
        if (sum[n] > h->bytes) { h->bytes = sum[n]; h->node = n; }
        if (npools[n] > 1) h->shared = true;
        /* a node two pools overfill together; a pool that overfills one
        ** alone is the fit's per-pool message */
        if (npools[n] > 1 && !alone[n] && sum[n] > c->host_mem_bytes * (1 + 1e-9)) {
            h->over_nodes++;
            if (sum[n] > h->over_bytes) { h->over_bytes = sum[n]; h->over_node = n; }
        }
    }
    for (int i = 0; i < p->npools; i++) {
        const plan_pool *q = &p->pools[i];
        if (h->node >= 0) h->pool[i] = per_device[i] * plan_devices_on_node(c, q, h->node);
        if (h->over_node >= 0) h->over_pool[i] = per_device[i] * plan_devices_on_node(c, q, h->over_node);
    }
    free(sum);
    free(npools);
    free(alone);
}

/* The fit's message for the fullest node two pools overfill together
** (docs/model.md, section 8, "One host memory a node"), each pool's share
** named; false when no shared node is over. */
bool plan_host_over_msg(const scn_scenario *s, const plan *p, char *m, size_t n)
{
    const plan_host_nodes *h = &p->host;
    if (h->over_node < 0) return false;
    char a[32], c[32];
    fmt_bytes_of(a, sizeof a, h->over_bytes, s->cluster.host_mem_bytes);
    fmt_bytes(c, sizeof c, s->cluster.host_mem_bytes);
    int len = snprintf(m, n, "node %d host memory: %s > %s (", h->over_node, a, c);
    bool any = false;
    for (int i = 0; i < p->npools && len > 0 && (size_t)len < n; i++) {
        if (h->over_pool[i] <= 0) continue;
        fmt_bytes(a, sizeof a, h->over_pool[i]);
        len += snprintf(m + len, n - (size_t)len, "%s%s %s", any ? ", " : "", p->pools[i].name, a);
        any = true;
    }
    if (len > 0 && (size_t)len < n) {
        if (h->over_nodes > 1)
            snprintf(m + len, n - (size_t)len, "; %d other node%s over)", h->over_nodes - 1, fs_s(h->over_nodes - 1));
        else
            snprintf(m + len, n - (size_t)len, ")");
    }
    return true;
}

void plan_host_sum(const scn_scenario *s, plan *p)
{
    double per[SCN_POOLS_MAX];
    bool fills[SCN_POOLS_MAX];
    for (int i = 0; i < p->npools; i++) {
        per[i] = p->pools[i].host_per_device;
        fills[i] = p->pools[i].host_mem_per_node > s->cluster.host_mem_bytes;
    }
    plan_host_sum_of(&s->cluster, p, per, fills, &p->host);
}

/* The parameters a device of the heaviest pipeline stage trains
** (docs/model.md, section 7, "Gradient reduction and optimizer"): dense,
** the larger of the first stage's ⌈L/p⌉ layers with the input table and
** the last's ⌊L/p⌋ with the LM head (mdl_stage_dense_params, the same
** split as the stage time and the memory), over TP; routed experts,
** ⌈L/p⌉ layers' share over EP·ETP.  Every stage reduces and steps
** its own parameters at once, so the heaviest one decides the tail. */
static void stage_psi(const plan_pool *q, const scn_model *m, double *psi_d, double *psi_e)
{
    *psi_d = mdl_stage_dense_params(m, q->pp) / q->tp;
    *psi_e = m->params_expert * mdl_stage_share(m->layers, q->pp) / plan_pool_ex(q);
}

/* All-reduce times of one stage's bf16 gradients (docs/model.md, section 7):
** *a over a ZeRO shard group (dense: DP ranks, stride tp; experts: expert-DP
** ranks), *r across the shard groups' replicas of a 1/shard share (HSDP;
** 0 when a shard spans all of DP). */
void plan_grad_allreduce(const scn_scenario *s, const plan_pool *q, const scn_model *m, double *a, double *r)
{
    double psi_d, psi_e;
    stage_psi(q, m, &psi_d, &psi_e);
    const scn_cluster *cl = &s->cluster;
    double eff = s->eff.link;
    int es = q->tp * q->gdp / q->edp;      /* stride of the expert-DP group */
    *a = plan_allreduce_group(cl, q, 0, q->tp, q->shard, 2.0 * psi_d, eff)
       + plan_allreduce_group(cl, q, 0, es, q->eshard, 2.0 * psi_e, eff);
    *r = plan_allreduce_group(cl, q, 0, q->tp * q->shard, q->gdp / q->shard, 2.0 * psi_d / q->shard, eff)
       + plan_allreduce_group(cl, q, 0, es * q->eshard, q->edp / q->eshard, 2.0 * psi_e / q->eshard, eff);
}

/* LoRA's trainable parameters per device (docs/model.md, section 3): the
** adapters of the heaviest stage's ⌈L/PP⌉ layers, the dense ones over TP,
** the routed experts' over EP·ETP, as the base's are split.  Both 0
** without LoRA. */
static void lora_psi(const scn_scenario *s, const plan_pool *q, double *ad, double *ae)
{
    const scn_train_layout *tl = &s->plan.train;
    const scn_model *m = &s->actor;
    mdl_lora lo = mdl_lora_params(m, tl->lora_rank, tl->lora_targets);
    double nl = mdl_stage_share(m->layers, q->pp) * m->layers;
    *ad = lo.layer_dense * nl / q->tp;
    *ae = lo.layer_expert * nl / plan_pool_ex(q);
}

/* LoRA: the share of the actor's parameters that is trained (gradients
** reduced, optimizer stepped, new weights gathered): the adapters' over the
** base's; 1 without LoRA. */
static double lora_share(const scn_scenario *s, const plan_pool *q, const scn_model *m)
{
    if (s->plan.train.lora_rank <= 0 || m != &s->actor) return 1.0;
    double ad, ae;
    lora_psi(s, q, &ad, &ae);
    double pd, pe;
    stage_psi(q, m, &pd, &pe);
    double base = pd + pe;
    return base > 0 ? (ad + ae) / base : 1.0;
}

/* Sharded data parallelism (docs/model.md, section 7; mdl_zero_comm, with
** gradients in mdl_grad_bytes): the exposed per-micro-batch part for `micro`
** micro-batches; *grad the gradient reduction at the end of the mini-batch
** (it may run during the last backward), *after the ZeRO-1/2 parameter
** all-gather that follows the optimizer.  train = false: a forward-only pass. */
double plan_zero_comm(const scn_scenario *s, const plan_pool *q, const scn_model *m, int micro, bool train,
                      double *grad, double *after)
{
    double a, r;
    plan_grad_allreduce(s, q, m, &a, &r);
    if (s->plan.train.lora_rank > 0 && m == &s->actor) {
        /* LoRA: the base is gathered as before; only the adapters'
        ** gradients are reduced and their new values gathered */
        double k = lora_share(s, q, m);
        double t = mdl_zero_comm(s->plan.train.zero, s->plan.train.overlap, k * mdl_grad_bytes(&s->plan.train) / 2.0,
                                 a, r, micro, train, grad, after);
        if (after) *after *= k;
        return t;
    }
    return mdl_zero_comm(s->plan.train.zero, s->plan.train.overlap, mdl_grad_bytes(&s->plan.train) / 2.0, a, r, micro,
                         train, grad, after);
}

double plan_fwd_gather(const scn_scenario *s, const plan_pool *q, const scn_model *m, int micro)
{
    if (m != &s->ref && m != &s->reward) return plan_zero_comm(s, q, m, micro, false, NULL, NULL);
    if (!q->aux_sharded) return 0;
    double a, r;
    plan_grad_allreduce(s, q, m, &a, &r);
    return mdl_frozen_gather(a, s->plan.train.overlap, micro);
}

double plan_aux_gather(const scn_scenario *s, const plan_pool *q, const scn_model *m, double samples)
{
    if (!q->aux_sharded || q->aux_tp <= 0 || q->aux_replicas <= 1) return 0;
    /* the replicas are aux_tp ranks apart; each all-gathers its TP share */
    double a = plan_allreduce_group(&s->cluster, q, 0, q->aux_tp, q->aux_replicas,
                                    2.0 * m->params_total / q->aux_tp, s->eff.link);
    int micro = (int)ceil(samples / q->aux_replicas / s->plan.train.micro_batch - 1e-9);
    return mdl_frozen_gather(a, s->plan.train.overlap, micro < 1 ? 1 : micro);
}

void plan_train_tail(const scn_scenario *s, const plan_pool *q, const scn_model *m, int micro, double last_bwd,
                     double *grad_s, double *opt_s)
{
    const scn_train_layout *tl = &s->plan.train;
    double psi_d, psi_e;
    stage_psi(q, m, &psi_d, &psi_e);
    if (tl->lora_rank > 0 && m == &s->actor) lora_psi(s, q, &psi_d, &psi_e);   /* the optimizer steps the adapters */
    double grad, after;
    double tg = plan_zero_comm(s, q, m, micro, true, &grad, &after);
    *grad_s = tg + (mdl_exposed(grad, tl->overlap_grad, last_bwd) + after);
    /* a tied table's gradient between the first and the last stage (rank
    ** order tp, cp, dp, pp: tp·gdp·(pp − 1) apart), after the backward and
    ** before the optimizer, not overlapped; LoRA freezes the table */
    double emb = tl->lora_rank > 0 && m == &s->actor ? 0 : mdl_tied_embedding_bytes(m, q->tp, q->pp, mdl_grad_bytes(tl));
    if (emb > 0) *grad_s += plan_allreduce_group(&s->cluster, q, 0, q->tp * q->gdp * (q->pp - 1), 2, emb, s->eff.link);
    /* Adam touches ~30 bytes per local parameter: fp32 master, m, v read
    ** and written, bf16 grads read, bf16 weights written (mdl_optimizer) */
    double f = tl->optimizer_offload;
    /* FP8 training: the new weights cast once a mini-batch, at the next
    ** one's first micro-batch (Transformer Engine's weight workspace,
    ** is_first_microbatch; docs/model.md, section 7), a memory-bound pass
    ** counted with the step; the critic trains in BF16 */
    double w8 = 0.0;
    if (tl->precision == DTYPE_FP8 && m != &s->critic) {
        const scn_device *d = plan_pool_device(s, q);
        double r = tl->fp8_recipe == FP8_BLOCKWISE ? 4.0 / (128.0 * 128.0) : 0.0;
        double per = 2.0 + 2.0 * (1.0 + r) + (tl->fp8_recipe == FP8_TENSORWISE ? 2.0 : 0.0);
        if (d->hbm_bw * s->eff.hbm > 0)
            w8 = mdl_fp8_train_linear_params(m, q->tp, q->pp, plan_pool_ex(q)) * per / (d->hbm_bw * s->eff.hbm);
    }
    if (f <= 0) {
        *opt_s = mdl_optimizer(plan_pool_device(s, q), &s->eff, tl->zero, q->shard, q->eshard, psi_d, psi_e);
        if (w8 > 0) *opt_s += w8;
        return;
    }
    /* the optimizer on the host (docs/model.md, section 7): the device
    ** steps its 1 − f share, the host's cores the rest after the gradients
    ** come down; the BF16 parameters go back up.  Not overlapped: DeepSpeed
    ** and Megatron start the host step once the reduction is done. */
    *opt_s = mdl_optimizer(plan_pool_device(s, q), &s->eff, tl->zero, q->shard, q->eshard, psi_d * (1 - f), psi_e * (1 - f))
           + mdl_optimizer_host(plan_pool_cluster(s, q), s->eff.host_link, f * (psi_d / q->shard + psi_e / q->eshard),
                                mdl_grad_bytes(tl));
    if (w8 > 0) *opt_s += w8;
}

double plan_host_optimizer(const scn_scenario *s, const plan_pool *pp)
{
    double f = s->plan.train.optimizer_offload;
    if (f <= 0 || !(pp->roles & (ROLE_TRAIN | ROLE_CRITIC))) return 0;
    double shard = 0;
    if (pp->roles & ROLE_TRAIN) {
        const scn_model *m = &s->actor;
        double psi_d, psi_e;
        stage_psi(pp, m, &psi_d, &psi_e);
        shard = psi_d / pp->shard + psi_e / pp->eshard;
        if (s->plan.train.lora_rank > 0) {
            double ad, ae;
            lora_psi(s, pp, &ad, &ae);
            shard = ad / pp->shard + ae / pp->eshard;     /* LoRA: the adapters' states alone */
        }
    }
    /* the critic where it trains, held as critic_bytes holds it (src/plan.c):
    ** its optimizer goes to the host with the actor's (one DeepSpeed
    ** strategy in OpenRLHF) */
    if (s->has_critic && (pp->roles & ROLE_CRITIC)) {
        const scn_model *c = &s->critic;
        shard += c->params_total * mdl_stage_share(c->layers, pp->pp) / pp->tp / pp->shard;
    }
    /* FP32 master, m and v (12 bytes) and the FP32 gradient CPU Adam reads
    ** (4 bytes) for the offloaded share of the shard */
    return f * 16.0 * shard;
}

/* ------------------------------------------------------------ memory */

void plan_train_states(const scn_scenario *s, const plan_pool *pp, double out[3])
{
    const scn_model *m = &s->actor;
    const scn_train_layout *tl = &s->plan.train;
    double sh = mdl_stage_share(m->layers, pp->pp);
    /* the heaviest stage's own dense parameters: the first holds the
    ** embedding, the last the LM head (mdl_stage_dense_params) */
    double psi_d = mdl_stage_dense_params(m, pp->pp) / pp->tp;
    double psi_e = m->params_expert * sh / plan_pool_ex(pp);    /* over EP·ETP (docs/model.md, section 3) */
    mdl_states a = mdl_train_states(psi_d, pp->shard, tl->zero, tl->grad_dtype);
    mdl_states b = mdl_train_states(psi_e, pp->eshard, tl->zero, tl->grad_dtype);
    double f = tl->optimizer_offload;
    if (tl->lora_rank > 0) {
        /* LoRA (docs/model.md, section 3): the base frozen, held as the
        ** actor's parameters are held and sharded — verl's FSDP actor keeps
        ** them in its model_dtype, FP32 by default (verl/workers/
        ** fsdp_workers.py), Megatron in BF16 beside an FP32 master that a
        ** frozen weight does not need; gradients, optimizer states and
        ** master copies for the adapters alone */
        double ad, ae;
        lora_psi(s, pp, &ad, &ae);
        mdl_states la = mdl_train_states(ad, pp->shard, tl->zero, tl->grad_dtype);
        mdl_states lb = mdl_train_states(ae, pp->eshard, tl->zero, tl->grad_dtype);
        double lw = la.weights + lb.weights;
        if (f > 0 && tl->zero >= 3 && tl->grad_dtype == GRAD_FP32) lw *= 1 - f / 2;
        out[0] = a.weights + b.weights + lw;
        out[1] = la.grads + lb.grads;
        if (f > 0 && tl->grad_buffer == GRADS_HOST) out[1] *= 1 - f;
        out[2] = (la.optimizer + lb.optimizer) * (f > 0 ? 1 - f : 1);
        return;
    }
    out[0] = a.weights + b.weights;
    /* FP8 training (docs/model.md, section 7): Transformer Engine's FP8
    ** copies of the linear weights, cached across micro-batches, or with
    ** fp8_param those copies in place of the BF16 weights */
    if (tl->precision == DTYPE_FP8)
        out[0] += mdl_fp8_train_linear_params(m, pp->tp, pp->pp, plan_pool_ex(pp))
                * mdl_fp8_train_weight_extra(tl->fp8_recipe, tl->fp8_param);
    out[1] = a.grads + b.grads;
    out[2] = a.optimizer + b.optimizer;
    if (f <= 0) return;
    /* plan.train.optimizer_offload: that share of the optimizer lives on the
    ** host (plan_host_optimizer).  Under FSDP's layout the master is the
    ** parameter shard: its offloaded share leaves a BF16 copy (2 of its 4
    ** bytes) on the device for the all-gather, as DeepSpeed's offload keeps
    ** its BF16 partition. */
    out[2] *= 1 - f;
    if (tl->zero >= 3 && tl->grad_dtype == GRAD_FP32) out[0] *= 1 - f / 2;
    /* plan.train.grad_buffer = host: the offloaded share's gradients are
    ** copied to the host as the reduction produces them and live there (the
    ** 4 bytes plan_host_optimizer counts); the device keeps the rest (ZeRO-
    ** Offload, Ren et al., arXiv 2101.06840; PyTorch FSDP2's
    ** CPUOffloadPolicy: "sharded gradients are copied device-to-host in
    ** backward") */
    if (tl->grad_buffer == GRADS_HOST) out[1] *= 1 - f;
}

double plan_max_seq(const scn_scenario *s)
{
    const scn_dist *d = &s->work.prompt_len;
    double pmax = d->kind == DIST_FIXED ? d->a
                : d->kind == DIST_UNIFORM ? d->b
                : d->kind == DIST_HIST ? d->edge[d->nbins]
                : (d->cap > 0 ? d->cap : d->a * exp(3 * d->b));
    if (d->cap > 0 && pmax > d->cap) pmax = d->cap;
    return pmax + s->work.max_response;
}

double plan_act_peak(const scn_scenario *s, const plan_pool *pp, int stage)
{
    return plan_act_peak_model(s, pp, &s->actor, stage);
}

/* The all-gather dispatcher's buffer (docs/model.md, section 3): the
** tokens of the ep·etp group gathered into Megatron-Core's global memory
** buffer (MoEAllGatherTokenDispatcher.token_dispatch,
** gather_from_sequence_parallel_region(..., use_global_buffer=True),
** megatron/core/transformer/moe/token_dispatcher.py at NVIDIA/Megatron-LM
** d98e8a64dd), one buffer a process that every layer reuses: X·(T/t)·2h
** bytes for the T tokens a rank's micro-batch holds. */
static double disp_buffer(const scn_scenario *s, const plan_pool *pp, const scn_model *m, double tok, int tp)
{
    if (m->experts <= 0 || s->plan.train.moe_dispatcher != MOE_DISP_ALLGATHER || plan_pool_ex(pp) <= 1) return 0.0;
    return plan_pool_ex(pp) * tok / tp * 2.0 * m->hidden;
}

/* One layer's saved activations for tok tokens (mdl_act_bytes_etp: the
** routed copies gathered over the expert-TP group),
** less, under FP8 training, the linear inputs Transformer Engine keeps in
** FP8 (mdl_fp8_train_act_saving; docs/model.md, section 7, FP8 training);
** the critic trains in BF16. */
static double train_act_layer(const scn_scenario *s, const scn_model *m, double tok, double seq, int tp, int etp)
{
    const scn_train_layout *tl = &s->plan.train;
    double a = mdl_act_bytes_etp(m, tok, seq, tp, etp, tl->recompute, tl->attention);
    if (tl->precision == DTYPE_FP8 && m != &s->critic)
        a -= tok * mdl_fp8_train_act_saving(m, tl->recompute, tl->fp8_recipe) / tp;
    return a;
}

double plan_act_peak_model(const scn_scenario *s, const plan_pool *pp, const scn_model *m, int stage)
{
    double seq = plan_max_seq(s);
    double mb = s->plan.train.micro_batch;
    long per_rep = (long)scn_prompts_per_step(s) * s->work.samples_per_prompt
                 / s->work.minibatches / pp->dp;
    long micro = (per_rep + (long)mb - 1) / (long)mb;
    if (micro < 1) micro = 1;
    long inflight = pp->pp - stage;
    if (inflight > micro) inflight = micro;
    const scn_train_layout *tl = &s->plan.train;
    /* the stage's transformer layers: Megatron's split of the actor's
    ** (plan.train.pp_embedding_layer, pp_loss_layer: the actor's
    ** override_transformer_config); a critic keeps the even split */
    bool own = m == &s->actor;
    double nl = mdl_stage_layers(m->layers, pp->pp, stage, own && tl->pp_embedding_layer, own && tl->pp_loss_layer);
    /* a MoE layer's routed copies, gathered over the expert-TP group
    ** (mdl_act_bytes_etp; docs/model.md, section 3, "Activations") */
    int etp = pp->etp > 0 ? pp->etp : 1;
    if (tl->max_tokens > 0) {
        /* token budget (docs/model.md, section 3): a micro-batch holds at most
        ** max_tokens tokens a device (cp ranks share a sequence), and at
        ** most as many micro-batches as the longest sequences would need */
        double tok = fmax(tl->max_tokens, seq / pp->cp);     /* a longer sequence is a micro-batch alone */
        long need = (long)ceil((double)per_rep * seq / (tok * pp->cp));
        long inf = pp->pp - stage;
        if (inf > need) inf = need;
        if (inf < 1) inf = 1;
        double a = inf * train_act_layer(s, m, tok, seq, pp->tp, etp) * nl;
        a += disp_buffer(s, pp, m, tok, pp->tp);
        if (stage == pp->pp - 1) a += mdl_logits_bytes(tok, 1, (double)m->vocab / pp->tp, pp->tp, tl->logits, 0);
        if (stage == pp->pp - 1 && own) a += plan_entropy_act(s, pp);
        return a;
    }
    /* a micro-batch's tokens.  Padded, tok = mb·s_max.  Packed
    ** (remove-padding), a micro-batch holds its sequences' real tokens, and
    ** both the layers' activations and the logits are taken over those alone
    ** (docs/model.md, section 3; verl's use_remove_padding runs the model on
    ** the unpadded tokens, verl/workers/actor/dp_actor.py): reserved for the
    ** largest micro-batch one expects, mb − 1 sequences of the mean length
    ** and one of the longest. */
    double ltok = mb * seq;
    if (tl->padding == PAD_NONE && pp->seq_mean > 0 && pp->seq_mean < seq)
        ltok = fmin(ltok, (mb - 1) * pp->seq_mean + seq);
    double layer = train_act_layer(s, m, ltok, seq, pp->tp, etp);
    double act = inflight * layer * nl + disp_buffer(s, pp, m, ltok, pp->tp);
    /* the last stage also holds the logits of a micro-batch: ltok·V/t entries */
    /* the loss's copies (plan.train.logits); the chunking of log-prob
    ** forwards does not reach the training loss (NVIDIA-NeMo/RL issue 2871) */
    if (stage == pp->pp - 1) act += mdl_logits_bytes(ltok, (int)mb, (double)m->vocab / pp->tp, pp->tp, tl->logits, 0);
    /* context parallelism: each rank holds 1/cp of every sequence's tokens */
    if (pp->cp > 1) act /= pp->cp;
    if (stage == pp->pp - 1 && own) act += plan_entropy_act(s, pp);
    return act;
}

/* The entropy with its gradient in the actor's loss (docs/model.md,
** section 3, the entropy over the logits; mdl_entropy_bytes), a device of
** the last stage: over the tokens its logits are taken on, as above. */
double plan_entropy_act(const scn_scenario *s, const plan_pool *pp)
{
    const scn_train_layout *tl = &s->plan.train;
    if (!tl->entropy_loss) return 0.0;
    double seq = plan_max_seq(s), v = (double)s->actor.vocab / pp->tp;
    if (tl->max_tokens > 0) return mdl_entropy_bytes(fmax(tl->max_tokens, seq / pp->cp), v, tl->entropy, true);
    double mb = tl->micro_batch, ltok = mb * seq;
    if (tl->padding == PAD_NONE && pp->seq_mean > 0 && pp->seq_mean < seq)
        ltok = fmin(ltok, (mb - 1) * pp->seq_mean + seq);
    return mdl_entropy_bytes(ltok, v, tl->entropy, true) / (pp->cp > 1 ? pp->cp : 1);
}

/* A log-prob forward (old policy, reference; docs/model.md, section 3):
** under no_grad each layer's intermediates are freed when the next layer
** runs, so one layer's working set (the selective figure of
** mdl_act_terms_of, T tokens over t)
** and the logits' copies of the micro-batch are held.  T: logprob_batch
** sequences (0: micro_batch), packed or padded as training lays them out,
** or the token budget (logprob_tokens, else the training one when no
** logprob_batch is given); divided over the cp ranks.
** With logprob_unshard (NeMo RL's DTensor v1 worker wraps get_logprobs in
** unshard_fsdp2_model, nemo_rl/models/policy/dtensor_policy_worker.py: every
** FSDPModule's unshard() before the forward, reshard() after it) the whole
** model's BF16 parameters are gathered on each device for the pass, 2·P/(t·p)
** beside the ZeRO-3 shards, instead of one layer at a time. */
/* verl's compute_log_prob cuts its micro-batches by the rollout's
** log_prob_max_token_len_per_gpu (times the Ulysses size, dp_actor.py) or
** log_prob_micro_batch_size_per_gpu, not by the actor's ppo budget
** (verl/workers/fsdp_workers.py, compute_log_prob and compute_ref_log_prob);
** NeMo RL's get_logprobs by logprob_batch_size or logprob_mb_tokens. */
double plan_logprob_budget(const scn_scenario *s, int cp, int *mbs)
{
    const scn_train_layout *tl = &s->plan.train;
    if (cp < 1) cp = 1;
    *mbs = tl->logprob_batch > 0 ? tl->logprob_batch : tl->micro_batch;
    if (tl->logprob_tokens > 0) return (double)tl->logprob_tokens * cp;
    if (tl->max_tokens > 0 && tl->logprob_batch <= 0) return (double)tl->max_tokens * cp;
    return 0;
}

double plan_logprob_act(const scn_scenario *s, const plan_pool *pp, const scn_model *m)
{
    const scn_train_layout *tl = &s->plan.train;
    double seq = plan_max_seq(s);
    bool aux = pp->aux_tp > 0 && !(pp->roles & ROLE_TRAIN);
    int tp = aux ? pp->aux_tp : pp->tp;
    int cp = pp->cp > 1 ? pp->cp : 1;
    if (tp < 1) tp = 1;
    /* in the training layout the expert-TP group gathers the routed copies
    ** as in training (mdl_act_bytes_etp); a forward-only replica of its own
    ** (aux_tp) is counted at etp 1 */
    int etp = !aux && pp->etp > 1 ? pp->etp : 1;
    int b = tl->logprob_batch > 0 ? tl->logprob_batch : tl->micro_batch;
    double tok = b * seq;
    if (tl->logprob_tokens > 0) tok = fmax(tl->logprob_tokens * (double)cp, seq);
    else if (tl->max_tokens > 0 && tl->logprob_batch <= 0) tok = fmax(tl->max_tokens * (double)cp, seq);
    else if (tl->padding == PAD_NONE && pp->seq_mean > 0 && pp->seq_mean < seq)
        tok = fmin(tok, (b - 1) * pp->seq_mean + seq);
    double layer = mdl_act_bytes_etp(m, tok, seq, tp, etp, RECOMPUTE_SELECTIVE, ATTN_FUSED);
    if (!aux) layer += disp_buffer(s, pp, m, tok, tp);
    double lg = mdl_logits_bytes(tok, b, (double)m->vocab / tp, tp, tl->logits, tl->logprob_chunk);
    /* the actor's old-log-prob pass with the entropy, no gradient (verl's
    ** compute_log_prob; the reference's pass takes none) */
    if (m == &s->actor && tl->logprob_entropy) lg += mdl_entropy_bytes(tok, (double)m->vocab / tp, tl->entropy, false);
    double whole = tl->logprob_unshard && tl->zero == 3 && (pp->roles & ROLE_TRAIN)
                 ? 2.0 * mdl_train_params_per_device(m, tp, pp->pp, plan_pool_ex(pp)) : 0.0;
    return (layer + lg) / cp + whole;
}

double plan_rollout_weights(const scn_scenario *s)
{
    return mdl_rollout_weight_bytes(&s->actor, s->plan.rollout.tp, s->plan.rollout.ep, s->plan.rollout.weights_dtype);
}

bool plan_sync_fp8_export(const scn_scenario *s)
{
    /* NeMo RL's refit from FP8 training (docs/model.md, section 7, FP8
    ** training; nemo_rl/models/policy/workers/megatron_policy_worker.py,
    ** _is_fp8_export and _build_refit_conversion_tasks, 7ea279a): with
    ** fp8_param and the blockwise recipe the trainer's weights are TE
    ** blockwise FP8 and Megatron-Bridge exports them as they are, the FP8
    ** data and a scale_inv tensor each (build_export_fp8_tasks), which an
    ** FP8 engine takes without casting.  Otherwise the export is BF16. */
    const scn_train_layout *t = &s->plan.train;
    return t->precision == DTYPE_FP8 && t->fp8_param && t->fp8_recipe == FP8_BLOCKWISE &&
           s->plan.rollout.weights_dtype == DTYPE_FP8;
}

double plan_rollout_wire_bytes(const scn_scenario *s)
{
    if (plan_sync_fp8_export(s)) return plan_rollout_weights(s);
    return 2.0 * mdl_rollout_params_per_device(&s->actor, s->plan.rollout.tp, s->plan.rollout.ep);
}

mdl_sync plan_weight_sync(const scn_scenario *s, const plan_pool *tq, const plan_pool *q)
{
    const scn_cluster *c = &s->cluster;
    /* the trained BF16 weights cross the wire; an FP8 engine quantises
    ** them where it holds them (docs/model.md, section 5, FP8 rollouts) */
    double rw = plan_rollout_wire_bytes(s);
    bool local = q == tq;
    mdl_sync r = {0};
    if (s->plan.sync_model == SYNC_IDEAL) {
        /* every device transfers at once: across nodes they share the NICs,
        ** across supernodes the scale-out fabric (docs/model.md, section 2) */
        if (local) {
            scn_link l = plan_pool_link_shared(c, q, 0, 1, q->devices);
            r.transfer_s = mdl_reshard(rw, s->plan.bucket_bytes, &l, s->eff.link);
        } else {
            scn_link l = plan_sync_link(s, tq, q);
            r.transfer_s = mdl_weight_sync(rw, s->actor.params_total, q->instances, tq->devices, s->plan.bucket_bytes,
                                           &l, s->eff.link);
        }
        r.buckets = (int)ceil(rw / s->plan.bucket_bytes);
        r.total_s = r.transfer_s;
        return r;
    }
    const scn_model *m = &s->actor;
    mdl_sync_in in = {0};
    in.full_bytes = 2.0 * (m->params_dense + m->params_expert);
    in.expert_share = in.full_bytes > 0 ? 2.0 * m->params_expert / in.full_bytes : 0;
    in.rollout_bytes = rw;
    if (plan_sync_fp8_export(s)) {
        /* the FP8 bytes gathered, sent and loaded; nothing to quantise */
        in.full_bytes = mdl_rollout_weight_bytes(m, 1, 1, DTYPE_FP8);
        in.expert_share = in.full_bytes > 0 ? mdl_fp8_param_bytes() * m->params_expert / in.full_bytes : 0;
        in.rollout_bytes = plan_rollout_weights(s);
    } else if (s->plan.rollout.weights_dtype == DTYPE_FP8) {
        in.rollout_bytes = plan_rollout_weights(s);
        in.quant_bytes = 2.0 * mdl_fp8_quant_params(m, s->plan.rollout.tp, s->plan.rollout.ep);
        in.quant_hbm_bw = plan_pool_device(s, q)->hbm_bw * s->eff.hbm;
    }
    in.tp = tq->tp;
    in.pp = tq->pp;
    in.ex = m->experts > 0 ? plan_pool_ex(tq) : 1;     /* ep·etp: the expert group a stage's experts are gathered over */
    in.shard = s->plan.train.zero >= 3 ? tq->shard : 1;
    /* every group of the pool gathers at once (shared links), in the
    ** training layout's groups as src/eng_train.c lays them out */
    in.ltp = plan_group_link(c, tq, 0, 1, tq->tp, true);
    if (in.ex > 1) in.lex = plan_group_link(c, tq, 0, 1, in.ex, true);
    if (in.pp > 1) in.lpp = plan_group_link(c, tq, 0, tq->tp * tq->gdp, tq->pp, true);
    if (in.shard > 1) in.ldp = plan_group_link(c, tq, 0, tq->tp, in.shard, true);
    in.local = local;
    if (!local) in.lxfer = plan_sync_link(s, tq, q);
    in.bucket_bytes = s->plan.bucket_bytes;
    in.hbm_bw = plan_pool_device(s, tq)->hbm_bw * s->eff.hbm;   /* converted where it was trained */
    in.link_eff = s->eff.link;
    in.bucket_s = s->eff.sync_bucket_s;
    return mdl_sync_gather(&in);
}

plan_switch_host plan_switch_host_bytes(const scn_scenario *s, const plan_pool *q)
{
    plan_switch_host h = {0, 0, false};
    if (!q->colocated || !(q->roles & ROLE_ROLLOUT)) return h;
    /* vLLM's sleep(level=1) copies every weight allocation of its
    ** CuMemAllocator to a pinned host buffer and wake_up copies it back
    ** (vllm/device_allocator/cumem.py); the reshard then overwrites them,
    ** as the actor has trained since: the copies are time, not a saving */
    if (s->plan.rollout.sleep == SLEEP_OFFLOAD) h.engine = plan_rollout_weights(s);
    if (s->plan.offload_params != PARAMS_RESIDENT && (q->roles & ROLE_TRAIN)) {
        double st[3];
        plan_train_states(s, q, st);
        h.params = st[0];
        h.params_first = s->plan.offload_params == PARAMS_BEFORE_RESHARD;
    }
    return h;
}

double plan_reshard_back(const scn_scenario *s, const plan_pool *q)
{
    /* parameter offload: the training weights come back over the host link
    ** with the states (plan_switch_host_bytes), not rebuilt on the devices */
    if (s->plan.offload_params != PARAMS_RESIDENT && q->colocated && (q->roles & ROLE_TRAIN)) return 0.0;
    /* the training weights stay on the device through generation unless
    ** zero_redundancy freed them (verl's trainer_mode wakes the training
    ** weights where they are and drops the engine's copy): only then are
    ** they rebuilt, each device its own shard over the pool's link */
    scn_link l = plan_pool_link_shared(&s->cluster, q, 0, 1, q->devices);
    if (s->plan.sync_model == SYNC_IDEAL) return mdl_reshard(plan_rollout_wire_bytes(s), s->plan.bucket_bytes, &l, s->eff.link);
    if (!s->plan.zero_redundancy) return 0.0;
    double st[3];
    plan_train_states(s, q, st);
    return mdl_reshard(st[0], s->plan.bucket_bytes, &l, s->eff.link);
}
