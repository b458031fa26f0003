/*
** estimate.c — the closed-form estimate of a built plan (estimate.h): the
** engine's own cost functions (src/model.c, and plan_train_tail of
** src/plan.c) for a decode step, a forward pass, a 1F1B stage, a switch and
** a weight sync, put together over one step; what a closed form cannot see
** (the long tail, staleness dynamics) is modelled in docs/plugins.md's terms.
*/
#include "estimate.h"
#include "dist.h"
#include "model.h"
#include "model_mem.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- lengths */

void est_lengths_of(const scn_workload *w, est_lengths *out)
{
    enum { NS = 4096 };
    double *v = xmalloc(NS * sizeof *v);
    rng_state r;
    rng_seed(&r, w->seed);
    for (int i = 0; i < NS; i++) v[i] = dist_sample(&w->response_len, &r, w->max_response);
    for (int i = 1; i < NS; i++) {      /* insertion sort: small, once */
        double x = v[i];
        int k = i - 1;
        while (k >= 0 && v[k] > x) { v[k + 1] = v[k]; k--; }
        v[k + 1] = x;
    }
    for (int q = 0; q <= 100; q++) out->rq[q] = v[q == 100 ? NS - 1 : q * NS / 100];
    out->pm = dist_mean(&w->prompt_len, 0);
    out->rm = dist_mean(&w->response_len, w->max_response);
    /* E[(prompt + response)^2], the attention term of a forward pass: the
    ** responses drawn above with prompts of the same seed's second stream */
    rng_state rp;
    rng_seed(&rp, w->seed + 1);
    double l2 = 0;
    for (int i = 0; i < NS; i++) {
        double L = dist_sample(&w->prompt_len, &rp, 0) + v[i];
        l2 += L * L;
    }
    out->l2m = l2 / NS;
    double r2 = 0;
    for (int i = 0; i < NS; i++) r2 += (v[i] - out->rm) * (v[i] - out->rm);
    out->rsd = sqrt(r2 / NS);
    free(v);
}

/* ---------------------------------------------------------------- estimate */


/* The link joining pool q's devices k, k + stride, … (as the engine's
** eng_pool_link: the pool's placement decides the tier). */
static scn_link group_link(const scn_scenario *s, const plan_pool *q, int k, int stride, int count)
{
    return plan_group_link(&s->cluster, q, k, stride, count, false);
}

/* Sequences a rollout instance holds at once, by the engine's admission
** rule (src/eng_gen.c): paged KV admits on the context a sequence holds — on
** average its prompt, half its response and a partly filled block —,
** "reserve" on prompt + max_response; never more than plan.rollout.max_seqs,
** nor more than its share of the pool's `n` samples.  *busy: instances that
** generate — all of them, except that one shared queue filled in instance
** order (dispatch "queue") fills each to the brim before the next. */
static double admitted(const est_lengths *len, const scn_scenario *s, const plan_pool *q, double n, double *busy)
{
    const scn_rollout_layout *r = &s->plan.rollout;
    double held = r->kv == KV_PAGED ? len->pm + len->rm / 2 + (r->kv_block - 1) : len->pm + s->work.max_response;
    double kv = q->kv_tokens_per_instance * (r->kv == KV_PAGED ? 0.99 : 1.0);
    double c = kv / held;
    if (c > r->max_seqs) c = r->max_seqs;
    if (c < 1) c = 1;
    *busy = q->instances;
    if (r->dispatch == DISPATCH_QUEUE && n / c < *busy) *busy = fmax(ceil(n / c - 1e-9), 1);
    if (c > n / *busy) c = n / *busy;
    return c < 1 ? 1 : c;
}

/* The engine's decode step (mdl_decode_step_eng, its fixed cost included once) for a
** pool's instance holding `batch` sequences of mean context `ctx`. */
double est_decode_step(const scn_scenario *s, const plan_pool *q, double batch, double ctx)
{
    const scn_link lk_v = group_link(s, q, 0, 1, q->inst_devices), *lk = &lk_v;
    const scn_rollout_layout *r = &s->plan.rollout;
    if (r->spec_tokens > 0) {
        /* speculative decoding as src/eng_gen.c prices it (docs/model.md,
        ** section 5): a step k + 1 tokens wide, each attending to its
        ** context, the KV read once, yielding E = 1 + α + … + α^k tokens */
        double w = r->spec_tokens + 1, E = 0, ak = 1;
        for (int i = 0; i <= r->spec_tokens; i++) { E += ak; ak *= r->spec_accept; }
        mdl_step c = mdl_decode_step_eng(&s->actor, plan_pool_device(s, q), &s->eff, r, lk, r->tp, r->ep, w * batch, w * batch * ctx);
        mdl_step m = mdl_decode_step_eng(&s->actor, plan_pool_device(s, q), &s->eff, r, lk, r->tp, r->ep, w * batch, batch * ctx);
        return (fmax(c.compute_s, m.memory_s) + c.total_s - fmax(c.compute_s, c.memory_s)) / E;
    }
    return mdl_decode_step_eng(&s->actor, plan_pool_device(s, q), &s->eff, r, lk, r->tp, r->ep, batch, batch * ctx).total_s;
}

/* Generation of a rollout pool taking `share` of the step's samples: its
** steady rate (tokens/s), the time of a decode step in the long tail (an
** eighth of the batch left, at full length) and the prefill of its share. */
static void pool_gen(const est_lengths *len, const scn_scenario *s, const plan_pool *q, double share, double *rate,
                     double *t_tail, double *prefill)
{
    double busy, c = admitted(len, s, q, (double)scn_prompts_per_step(s) * s->work.samples_per_prompt * share, &busy);
    *rate = busy * c / est_decode_step(s, q, c, len->pm + len->rm / 2);
    /* Static dispatch cuts the batch into equal parts up front: the pool
    ** waits for its most loaded instance, whose k samples' response tokens
    ** exceed the mean by about σ·sqrt(2 ln I)/sqrt(k) of it (the largest of
    ** I sums of k lengths, taken as normal); the other ways of dispatching
    ** hand work to whichever instance is free. */
    double k = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt * share / q->instances;
    if (s->plan.rollout.dispatch == DISPATCH_STATIC && q->instances > 1 && k >= 1 && len->rm > 0)
        *rate /= 1 + len->rsd / len->rm * sqrt(2 * log((double)q->instances) / k);
    double small = c / 8 < 1 ? 1 : c / 8;
    *t_tail = est_decode_step(s, q, small, len->pm + len->rm);
    double n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt * share;
    const scn_link lk_v = group_link(s, q, 0, 1, q->inst_devices), *lk = &lk_v;
    /* prefix caching (docs/model.md, section 5): a group's prompt is
    ** prefilled once on each instance that holds one of its samples — the
    ** balanced router spreads a group over min(n, instances) of them, the
    ** other routers keep it whole; the rest pay about half a block each */
    const scn_rollout_layout *r = &s->plan.rollout;
    double ptok = n * len->pm / q->instances, spp = s->work.samples_per_prompt;
    if (r->prefix_caching && r->kv == KV_PAGED && spp > 1) {
        double spread = r->dispatch == DISPATCH_BALANCED ? fmin(spp, q->instances) : 1;
        ptok = ptok * spread / spp + n / q->instances * (1 - spread / spp) * r->kv_block / 2.0;
    }
    mdl_step pf = mdl_prefill(&s->actor, plan_pool_device(s, q), &s->eff, r, lk, r->tp, r->ep, ptok, len->pm);
    *prefill = pf.total_s;
    if (r->max_batched_tokens > 0 && ptok > r->max_batched_tokens) {
        /* chunked: the empty instances' first prefill in steps of the budget */
        double nk = ceil(ptok / r->max_batched_tokens), ck = ptok / nk;
        *prefill = nk * mdl_prefill_chunk(&s->actor, plan_pool_device(s, q), &s->eff, r, lk, r->tp, r->ep, 0, 0, ck,
                                         mdl_attn_flops_causal(&s->actor, ck * len->pm));
    }
}

/* The stage constants of model m on the training layout of pool q, as
** src/eng_train.c sets them up. */
static mdl_stage train_stage(const scn_scenario *s, const scn_model *m, const plan_pool *q)
{
    scn_link ltp = group_link(s, q, 0, 1, q->tp), lep = {0}, lpp = {0}, lcp = {0};
    scn_link letp = {0};
    if (m->experts > 0) {      /* the groups src/eng_train.c lays out */
        lep = group_link(s, q, 0, q->etp, q->ep);
        letp = group_link(s, q, 0, 1, q->etp);
    }
    if (q->pp > 1) lpp = group_link(s, q, 0, q->tp * q->gdp, 2);
    mdl_stage c = mdl_stage_setup(m, q->tp, q->pp, q->ep, &ltp, m->experts > 0 ? &lep : NULL, q->pp > 1 ? &lpp : NULL);
    if (m->experts > 0) mdl_stage_experts(&c, m, q->ep, q->etp, &lep, &letp);
    if (m->experts > 0 && s->plan.train.moe_dispatcher != MOE_DISP_ALLTOALL) {
        /* the all-gather and flex dispatchers span the ep·etp group */
        scn_link lx = group_link(s, q, 0, 1, q->ex);
        mdl_stage_dispatcher(&c, m, s->plan.train.moe_dispatcher, &lx);
    }
    const scn_train_layout *tl = &s->plan.train;
    if (q->cp > 1) lcp = group_link(s, q, 0, q->tp, q->cp);
    mdl_stage_par(&c, m, q->cp, tl->cp_kind, q->cp > 1 ? &lcp : NULL, tl->overlap_tp, tl->overlap_ep);
    mdl_stage_train(&c, m, plan_pool_device(s, q), &s->eff, tl->recompute);
    if (m != &s->critic) mdl_stage_fp8(&c, m, plan_pool_device(s, q), &s->eff, tl);
    if (m == &s->actor) mdl_stage_lora(&c, m, tl->lora_rank, tl->lora_targets);
    if (m == &s->actor) mdl_stage_split(&c, m, tl->pp_embedding_layer, tl->pp_loss_layer);
    if (m == &s->actor && tl->entropy_loss) mdl_stage_entropy(&c, tl->entropy);
    return c;
}

/* A stage's forward of a micro-batch of mb mean sequences: packed, their
** mean tokens; padded (plan.train.padding = "longest"), each as long as the
** longest of mb draws, the mb/(mb + 1) quantile of the response lengths. */
static double stage_fwd_mb(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m,
                           double mb, double *bwd)
{
    mdl_stage st = train_stage(s, m, q);
    if (s->plan.train.padding == PAD_LONGEST) {
        int k = (int)(100.0 * mb / (mb + 1.0) + 0.5);
        double L = len->pm + len->rq[k < 0 ? 0 : k > 100 ? 100 : k];
        return mdl_stage_fb(m, plan_pool_device(s, q), s->eff.link, &st, mb * L, mb * L * L, s->eff.train, bwd);
    }
    return mdl_stage_fb(m, plan_pool_device(s, q), s->eff.link, &st, mb * (len->pm + len->rm), mb * len->l2m, s->eff.train,
                        bwd);
}

double est_stage_fwd(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m)
{
    return stage_fwd_mb(len, s, q, m, s->plan.train.micro_batch, NULL);
}

/* Micro-batches of the most loaded DP replica for `samples` samples, and
** into *mb the sequences of one: micro_batch, or under a token budget
** (plan.train.max_tokens) as many micro-batches as the replica's mean
** tokens need, as the engine cuts them (src/eng_mb.c). */
static int micro_count_at(const est_lengths *len, const plan_pool *q, double samples, int mbs, double budget,
                          double *mb)
{
    double per = ceil(samples / q->dp - 1e-9);
    *mb = mbs;
    if (budget > 0) {
        double m = ceil(per * (len->pm + len->rm) / budget - 1e-9);
        if (m > per) m = per;
        if (m < 1) m = 1;
        *mb = per / m;
        return (int)m;
    }
    int m = (int)ceil(per / mbs - 1e-9);
    return m < 1 ? 1 : m;
}

static int micro_count(const est_lengths *len, const scn_scenario *s, const plan_pool *q, double samples, double *mb)
{
    return micro_count_at(len, q, samples, s->plan.train.micro_batch,
                          s->plan.train.max_tokens > 0 ? (double)s->plan.train.max_tokens * q->cp : 0, mb);
}

static int chunks_of(const scn_scenario *s)
{
    return s->plan.staleness > 0 && s->work.minibatches > 1 ? s->work.minibatches : 1;
}

double est_fwd_pass(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m)
{
    double n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt / chunks_of(s);
    if (q->aux_tp > 0) {
        const scn_link l = group_link(s, q, 0, 1, q->aux_tp);
        return mdl_aux_fwd(m, plan_pool_device(s, q), &s->eff, &l, q->devices, q->aux_tp, q->aux_replicas,
                           n * (len->pm + len->rm), n * len->l2m) + plan_aux_gather(s, q, m, n);
    }
    /* a ZeRO-3 model gathers its parameters for every micro-batch, as the
    ** engine's forward pass (plan_zero_comm) */
    /* the log-prob forwards (old policy, reference) on their own
    ** micro-batches, as the engine's fwd_pass (plan_logprob_budget) */
    double mb;
    int micro;
    if (m == &s->actor || m == &s->ref) {
        int mbs;
        double budget = plan_logprob_budget(s, q->cp, &mbs);
        micro = micro_count_at(len, q, n, mbs, budget, &mb);
    } else {
        micro = micro_count(len, s, q, n, &mb);
    }
    return mdl_1f1b(q->pp, micro, stage_fwd_mb(len, s, q, m, mb, NULL), 0) + plan_fwd_gather(s, q, m, micro);
}

double est_train_minibatch(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m)
{
    double n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt / s->work.minibatches;
    double mb;
    int micro = micro_count(len, s, q, n, &mb);
    double b;
    double f = stage_fwd_mb(len, s, q, m, mb, &b);
    double t = mdl_1f1b(q->pp, micro, f, b);
    /* plan.train.balance = step: the mini-batch waits for its most loaded
    ** rank's slice, which the engine cuts from the step's own balance
    ** (src/eng_train.c); here its expected excess (mdl_step_balance) */
    if (s->plan.train.balance == BAL_STEP && q->dp > 1 && chunks_of(s) == 1) {
        double mean = len->pm + len->rm, var = len->l2m - mean * mean;
        if (mean > 0 && var > 0) t *= mdl_step_balance(q->dp, s->work.minibatches, n / q->dp, sqrt(var) / mean);
    }
    /* the engine's own tail (src/eng_train.c calls the same function), with
    ** a mean micro-batch's backward as the last one */
    double grad, opt;
    plan_train_tail(s, q, m, micro, b, &grad, &opt);
    return t + grad + opt;
}

/* The forward passes of a step on pool q (src/eng_train.c, in turn: old
** log-probs, reference, reward model, critic; a model swapped in from the
** host for each use; the rule-based reward on the hosts). */
static double pool_infer(const est_lengths *len, const scn_scenario *s, const plan_pool *q)
{
    int chunks = chunks_of(s);
    double t = 0, n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt;
    if ((q->roles & ROLE_TRAIN) && s->work.recompute_logprob) t += chunks * est_fwd_pass(len, s, q, &s->actor);
    const scn_model *aux[2] = {s->has_ref && (q->roles & ROLE_REF) ? &s->ref : NULL,
                               s->reward_is_model && (q->roles & ROLE_REWARD) ? &s->reward : NULL};
    for (int a = 0; a < 2; a++) {
        if (!aux[a]) continue;
        t += chunks * est_fwd_pass(len, s, q, aux[a]);
        if (q->swap_aux) {
            double bytes = q->aux_bytes[a];
            t += chunks * mdl_param_reload(bytes, plan_pool_cluster(s, q), s->eff.host_link);
        }
    }
    if (s->has_critic && (q->roles & ROLE_CRITIC)) t += chunks * est_fwd_pass(len, s, q, &s->critic);
    if (!s->reward_is_model && (q->roles & ROLE_TRAIN))
        t += mdl_reward_cpu(n, s->eff.reward_rule_s, s->plan.reward_workers > 0 ? s->plan.reward_workers : q->devices);
    return t;
}

/* A co-located pool's two switches (src/eng_step.c): the host offload of
** what the plan offloads, then the reshard into the rollout layout; back,
** the reshard into the training layout, then the onload — one after the
** other, as the engine runs them (docs/model.md, section 8). */
static double pool_switches(const scn_scenario *s, const plan_pool *q)
{
    double to_rollout = plan_weight_sync(s, q, q).total_s, to_train = plan_reshard_back(s, q);
    double hostbw = mdl_host_bw_shared(plan_pool_cluster(s, q), s->eff.host_link), st[3];
    plan_train_states(s, q, st);
    double crit = q->train_mem[MB_CRITIC];
    double off = (plan_grads_move(&s->plan) ? st[1] : 0) + (s->plan.offload_optimizer ? st[2] + crit : 0);
    /* a sleeping engine's weights and offloaded training weights cross the
    ** host link once each way, the training weights a third time when the
    ** reshard reads them from the host (plan_switch_host_bytes) */
    plan_switch_host hb = plan_switch_host_bytes(s, q);
    return to_rollout + to_train + 2 * (off / hostbw + s->eff.switch_overhead_s)
         + (2 * hb.engine + (hb.params_first ? 3 : 2) * hb.params) / hostbw;
}

/* The pool that trains the actor, or NULL. */
static const plan_pool *train_pool(const plan *p)
{
    return p->train_pool >= 0 ? &p->pools[p->train_pool] : NULL;
}

double est_throughput(const est_lengths *len, const scn_scenario *s, const plan *p)
{
    const plan_pool *tq = train_pool(p);
    if (!tq) return 0;
    double n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt;
    double tokens = n * (len->pm + len->rm);
    /* training: every epoch's mini-batches, actor and critic */
    double train = 0;
    double per_mb = est_train_minibatch(len, s, tq, &s->actor);
    if (s->has_critic && (tq->roles & ROLE_CRITIC)) per_mb += est_train_minibatch(len, s, tq, &s->critic);
    train = per_mb * s->work.minibatches * s->work.epochs;
    /* a critic on a pool of its own trains beside the actor, the step
    ** waiting for both (src/eng_ctrl.c; docs/model.md, section 2) */
    if (p->critic_pool >= 0)
        train = fmax(train, est_train_minibatch(len, s, &p->pools[p->critic_pool], &s->critic) * s->work.minibatches
                                * s->work.epochs);
    /* forward passes: the training pool's and the aux and critic pools'
    ** side by side */
    double infer = pool_infer(len, s, tq);
    for (int i = 0; i < p->npools; i++)
        if (i != p->train_pool && (p->pools[i].aux_tp > 0 || i == p->critic_pool))
            infer = fmax(infer, pool_infer(len, s, &p->pools[i]));
    /* generation: rollout pools share the samples by instance count */
    double inst = 0;
    for (int i = 0; i < p->npools; i++)
        if (p->pools[i].roles & ROLE_ROLLOUT) inst += p->pools[i].instances;
    double rate_only = 0, rate_mixed = 0, t_tail = 0, prefill = 0, wsync = 0;
    for (int i = 0; i < p->npools; i++) {
        const plan_pool *q = &p->pools[i];
        if (!(q->roles & ROLE_ROLLOUT)) continue;
        double r, tt, pf;
        pool_gen(len, s, q, inst > 0 ? q->instances / inst : 1, &r, &tt, &pf);
        if (q->colocated) rate_mixed += r;
        else {
            rate_only += r;
            double w = plan_weight_sync(s, tq, q).total_s;     /* the engine's (src/eng_step.c) */
            /* plan.sync_every: one transfer every k steps (docs/model.md, section 4) */
            wsync = fmax(wsync, w / (s->plan.sync_every > 1 ? s->plan.sync_every : 1));
        }
        if (tt > t_tail) t_tail = tt;
        if (pf > prefill) prefill = pf;
    }
    double pr = s->plan.staleness > 0 ? s->plan.partial_rollout : 1.0;
    int qi = (int)lround(pr * 100);
    double tail = len->rq[qi < 0 ? 0 : qi > 100 ? 100 : qi] * t_tail;
    double work = n * len->rm;
    double sw = tq->colocated ? pool_switches(s, tq) : 0;
    double busy = train + infer + sw;     /* the training pool, per step */
    double step, gen, sync_step;
    if (rate_mixed <= 0) {              /* separate pools */
        gen = fmax(work / rate_only, tail) + prefill;
        sync_step = gen + busy + wsync;
        step = s->plan.staleness > 0 ? fmax(gen, busy + wsync) : sync_step;
    } else {
        /* generating-only pools keep going while the mixed pool trains,
        ** if the staleness bound lets the next batch start */
        double ahead = s->plan.staleness > 0 ? rate_only * (busy + wsync) : 0;
        double g = fmax((work - ahead) / (rate_only + rate_mixed), 0);
        gen = fmax(g, tail) + prefill;
        step = gen + busy + (rate_only > 0 ? wsync : 0);
        sync_step = fmax(work / (rate_only + rate_mixed), fmax(len->rq[100] * t_tail, tail)) + prefill + busy
                  + (rate_only > 0 ? wsync : 0);
    }
    /* What a higher bound buys: generation and training overlap through a
    ** buffer of s batches; a step's generation time varies by about its long
    ** tail, and a buffer of s batches absorbs all but 1/(s+1) of that
    ** variation (two stages with a finite buffer between them).  With s = 0
    ** the stages alternate and nothing is absorbed; a bound never makes a
    ** step slower than without one. */
    if (s->plan.staleness > 0)
        step = fmin(step + fmin(tail, fmin(gen, busy)) / (s->plan.staleness + 1), sync_step);
    return step > 0 ? tokens / step : 0;
}

double est_scenario_throughput(const scn_scenario *s, const plan *p)
{
    est_lengths len;
    est_lengths_of(&s->work, &len);
    return est_throughput(&len, s, p);
}
