/*
** planner.c — the plan search (planner.h): axes, candidates, the estimate,
** selection, simulation of one candidate, ranking.
*/
#include "planner.h"
#include "dist.h"
#include "engine.h"
#include "model.h"
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const MODE_LABEL[] = {"separate", "colocate", "full", "hybrid"};

const char *planner_mode_name(int mode)
{
    return mode >= 0 && mode < PLANNER__MODES ? MODE_LABEL[mode] : "?";
}

/* ---------------------------------------------------------------- axes */

static void axis_set(plan_axis *a, const long *v, int n)
{
    a->n = 0;
    for (int i = 0; i < n && a->n < 32; i++) a->v[a->n++] = v[i];
}

static bool divides(long a, long b) { return a > 0 && b % a == 0; }

/* Default search axes for the base scenario; a plugin's candidates(ctx)
** may replace any of them. */
static void default_axes(const scn_scenario *s, plan_axes *ax)
{
    const scn_model *m = &s->actor;
    int dpn = s->cluster.devices_per_node;
    long v[32];
    int n;
    long modes[] = {PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID};
    axis_set(&ax->modes, modes, 4);
    n = 0;
    for (long t = 1; t <= 16; t *= 2) if (divides(t, m->heads) && t <= 2 * dpn) v[n++] = t;
    axis_set(&ax->train_tp, v, n);
    n = 0;
    for (long p = 1; p <= 32 && p <= m->layers; p *= 2)
        if (divides(p, m->layers) || s->plan.train.uneven_layers) v[n++] = p;
    axis_set(&ax->train_pp, v, n);
    n = 0;
    if (m->experts > 0) { for (long e = 1; e <= 64; e *= 2) if (divides(e, m->experts)) v[n++] = e; }
    else v[n++] = 1;
    axis_set(&ax->train_ep, v, n);
    long mbs[] = {1, 2};
    axis_set(&ax->micro_batch, mbs, 2);
    n = 0;
    for (long t = 1; t <= 16; t *= 2) if (divides(t, m->heads) && t <= 2 * dpn) v[n++] = t;
    axis_set(&ax->rollout_tp, v, n);
    n = 0;
    if (m->experts > 0) { for (long e = 1; e <= 64; e *= 2) if (divides(e, m->experts)) v[n++] = e; }
    else v[n++] = 1;
    axis_set(&ax->rollout_ep, v, n);
    long seqs[] = {64, 128, 256, 512};
    axis_set(&ax->max_seqs, seqs, 4);
    long st[] = {0, 1, 2, 3};
    axis_set(&ax->staleness, st, 4);
    long pr[] = {100, 80, 60};
    axis_set(&ax->partial_pct, pr, 3);
    long sh[] = {25, 33, 50, 67, 75};
    axis_set(&ax->rollout_share_pct, sh, 5);
    long one[] = {s->cluster.supernodes};
    axis_set(&ax->supernodes, one, 1);
    long nodes[] = {s->cluster.nodes_per_supernode};
    axis_set(&ax->nodes_per_supernode, nodes, 1);
}

/* --objective devices: clusters from one node up to the scenario's. */
static void device_axes(const scn_scenario *s, plan_axes *ax)
{
    long v[32];
    int n = 0;
    if (s->cluster.supernodes > 1) {
        for (long k = 1; k < s->cluster.supernodes && n < 31; k *= 2) v[n++] = k;
        v[n++] = s->cluster.supernodes;
        axis_set(&ax->supernodes, v, n);
    } else {
        for (long k = 1; k < s->cluster.nodes_per_supernode && n < 31; k *= 2) v[n++] = k;
        v[n++] = s->cluster.nodes_per_supernode;
        axis_set(&ax->nodes_per_supernode, v, n);
    }
}

/* ---------------------------------------------------------------- apply */

static unsigned aux_roles(const scn_scenario *s)
{
    return (s->has_ref ? ROLE_REF : 0) | (s->reward_is_model ? ROLE_REWARD : 0);
}

/* The scenario of a candidate. */
void planner_apply(const planner *P, const plan_cand *c, scn_scenario *s)
{
    if (c->explicit_idx >= 0) *s = P->plans[c->explicit_idx];
    else *s = P->base;
    s->work.iterations = P->iterations;
    s->work.warmup = P->warmup;
    if (c->mode < 0) return;
    scn_plan *p = &s->plan;
    s->cluster.supernodes = c->supernodes;
    s->cluster.nodes_per_supernode = c->nodes;
    int total = scn_total_devices(&s->cluster);
    p->npools = 0;
    p->train.tp = c->ttp;
    p->train.pp = c->tpp;
    p->train.ep = c->tep;
    p->train.dp = 0;
    p->train.micro_batch = c->mb;
    p->rollout.tp = c->rtp;
    p->rollout.ep = c->rep;
    p->rollout.max_seqs = c->seqs;
    p->staleness = c->stale;
    p->partial_rollout = c->partial_pct > 0 ? c->partial_pct / 100.0 : 1.0;
    p->rollout_devices = 0;
    switch (c->mode) {
    case PLANNER_SEPARATE:
        p->mode = MODE_SEPARATE;
        p->rollout_devices = c->split;
        break;
    case PLANNER_COLOCATE:
        p->mode = MODE_COLOCATE;
        p->aux_devices = c->split;
        break;
    case PLANNER_FULL:
        p->mode = MODE_FULL;
        break;
    case PLANNER_HYBRID: {
        unsigned critic = s->has_critic ? ROLE_CRITIC : 0;
        p->mode = MODE_COLOCATE;
        p->npools = 2;
        snprintf(p->pools[0].name, sizeof p->pools[0].name, "gen");
        p->pools[0].devices = c->split;
        p->pools[0].roles = ROLE_ROLLOUT;
        snprintf(p->pools[1].name, sizeof p->pools[1].name, "mixed");
        p->pools[1].devices = total - c->split;
        p->pools[1].roles = ROLE_ROLLOUT | ROLE_TRAIN | aux_roles(s) | critic;
        break;
    }
    }
}

/* ---------------------------------------------------------------- estimate */

static const plan_pool *train_pool(const plan *p) { return p->train_pool >= 0 ? &p->pools[p->train_pool] : NULL; }

/* Generation rate (tokens/s) of a rollout pool in steady state, and the
** time of one decode step at a small batch (the long tail). */
static void pool_gen(const planner *P, const scn_scenario *s, const plan_pool *q, double *rate, double *t_tail, double *prefill)
{
    const scn_model *m = &s->actor;
    double seqlen = P->pm + P->rm;
    double c = q->kv_tokens_per_instance / seqlen;
    if (c > s->plan.rollout.max_seqs) c = s->plan.rollout.max_seqs;
    if (c < 1) c = 1;
    int tier = mdl_group_tier(&s->cluster, q->first, 1, q->inst_devices);
    const scn_link *lk = mdl_tier_link(&s->cluster, tier);
    mdl_step st = mdl_decode_step(m, &s->cluster.device, &s->eff, lk, s->plan.rollout.tp, s->plan.rollout.ep,
                                  c, c * (P->pm + P->rm / 2));
    double small = c / 8 < 1 ? 1 : c / 8;
    mdl_step tail = mdl_decode_step(m, &s->cluster.device, &s->eff, lk, s->plan.rollout.tp, s->plan.rollout.ep,
                                    small, small * (P->pm + P->rm));
    *rate = q->instances * c / (st.total_s + s->eff.decode_overhead_s);
    *t_tail = tail.total_s + s->eff.decode_overhead_s;
    double n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt;
    mdl_step pf = mdl_prefill(m, &s->cluster.device, &s->eff, lk, s->plan.rollout.tp, s->plan.rollout.ep,
                              n * P->pm / q->instances, P->pm);
    *prefill = pf.total_s;
}

/* Closed-form tokens/s of a built plan: not the engine, only a guide to
** which candidates are worth simulating. */
double planner_estimate(const planner *P, const scn_scenario *s, const plan *p)
{
    const plan_pool *tq = train_pool(p);
    if (!tq) return 0;
    const scn_model *m = &s->actor;
    double n = (double)scn_prompts_per_step(s) * s->work.samples_per_prompt;
    double seq = P->pm + P->rm;
    double tokens = n * seq;
    const scn_device *d = &s->cluster.device;
    /* training: 6·P·T (+attention) over the pool, with the 1F1B bubble */
    double micro = n / s->work.minibatches / tq->dp / s->plan.train.micro_batch;
    if (micro < 1) micro = 1;
    double bubble = mdl_bubble_share(tq->pp, (int)micro);
    double train = 3.0 * mdl_fwd_flops(m, tokens, seq) * s->work.epochs / (tq->devices * d->peak_flops * s->eff.train)
                 / (1 - bubble) + s->work.minibatches * s->work.epochs * s->eff.train_overhead_s;
    /* forward passes: old log-probs, reference, reward model */
    double fwd = s->work.recompute_logprob ? mdl_fwd_flops(m, tokens, seq) : 0;
    if (s->has_ref) fwd += mdl_fwd_flops(&s->ref, tokens, seq);
    if (s->reward_is_model) fwd += mdl_fwd_flops(&s->reward, tokens, seq);
    double infer = fwd / (tq->devices * d->peak_flops * s->eff.prefill);
    /* generation: rates of the rollout pools, split into always-generating
    ** pools and the co-located pool */
    double rate_only = 0, rate_mixed = 0, t_tail = 0, prefill = 0, wsync = 0;
    for (int i = 0; i < p->npools; i++) {
        const plan_pool *q = &p->pools[i];
        if (!(q->roles & ROLE_ROLLOUT)) continue;
        double r, tt, pf;
        pool_gen(P, s, q, &r, &tt, &pf);
        if (q->colocated) rate_mixed += r;
        else {
            rate_only += r;
            wsync = plan_rollout_weights(s, q) / (s->cluster.inter_supernode.bw * s->eff.link);
        }
        if (tt > t_tail) t_tail = tt;
        if (pf > prefill) prefill = pf;
    }
    double pr = s->plan.staleness > 0 ? s->plan.partial_rollout : 1.0;
    int qi = (int)lround(pr * 100);
    double tail = P->rq[qi < 0 ? 0 : qi > 100 ? 100 : qi] * t_tail;
    double work = n * P->rm;
    double sw = 0;
    if (tq->colocated) {
        double bytes = 0;
        if (s->plan.offload_grads) bytes += tq->train_mem[MB_GRADS];
        if (s->plan.offload_optimizer) bytes += tq->train_mem[MB_OPTIMIZER];
        sw = 2 * bytes / (d->host_bw * s->eff.host_link) + 2 * s->eff.switch_overhead_s;
    }
    double busy = train + infer + sw;     /* the training pool, per step */
    double step;
    if (rate_mixed <= 0) {              /* separate pools */
        double gen = fmax(work / rate_only, tail) + prefill;
        step = s->plan.staleness > 0 ? fmax(gen, busy + wsync) : gen + busy + wsync;
    } else {
        /* generating-only pools keep going while the mixed pool trains,
        ** if the staleness bound lets the next batch start */
        double ahead = s->plan.staleness > 0 ? rate_only * (busy + wsync) : 0;
        double g = fmax((work - ahead) / (rate_only + rate_mixed), 0);
        g = fmax(g, tail) + prefill;
        step = g + busy + (rate_only > 0 ? wsync : 0);
    }
    return step > 0 ? tokens / step : 0;
}

/* ---------------------------------------------------------------- enumerate */

static void push_cand(planner *P, const plan_cand *c)
{
    if (P->nc == P->capc) {
        P->capc = P->capc ? P->capc * 2 : 1024;
        P->c = xrealloc(P->c, (size_t)P->capc * sizeof *P->c);
    }
    P->c[P->nc] = *c;
    P->c[P->nc].index = P->nc;
    P->nc++;
}

/* Build a layout; when it fits, estimate it for every staleness and
** partial-rollout setting, which change neither layouts nor memory. */
static void consider(planner *P, plan_cand *c)
{
    scn_scenario s;
    planner_apply(P, c, &s);
    fs_err err = {0, ""};
    plan pl;
    bool sweep_stale = c->mode >= 0 && c->explicit_idx < 0;
    long variants = sweep_stale ? 0 : 1;
    if (sweep_stale)
        for (int i = 0; i < P->ax.staleness.n; i++) variants += P->ax.staleness.v[i] == 0 ? 1 : P->ax.partial_pct.n;
    P->evaluated += variants;
    bool fits = scn_validate(&s, &err) && plan_build(&s, &pl, &err) && pl.fits;
    if (P->visit) P->visit(P->visit_ud, c, fits);
    if (!fits) { P->pruned += variants; return; }
    c->devices = scn_total_devices(&s.cluster);
    if (!sweep_stale) {
        c->est = planner_estimate(P, &s, &pl);
        push_cand(P, c);
        return;
    }
    for (int i = 0; i < P->ax.staleness.n; i++) {
        int np = P->ax.staleness.v[i] == 0 ? 1 : P->ax.partial_pct.n;
        for (int k = 0; k < np; k++) {
            plan_cand x = *c;
            x.stale = (int)P->ax.staleness.v[i];
            x.partial_pct = x.stale == 0 ? 100 : (int)P->ax.partial_pct.v[k];
            s.plan.staleness = x.stale;
            s.plan.partial_rollout = x.partial_pct / 100.0;
            x.est = planner_estimate(P, &s, &pl);
            push_cand(P, &x);
        }
    }
}

static bool rollout_ok(const scn_model *m, long tp, long ep)
{
    if (m->experts == 0) return ep == 1;
    return (ep >= tp && ep % tp == 0) || (tp > ep && tp % ep == 0);
}

/* Splits of `total` devices: shares in whole nodes (or instances). */
static int splits(const planner *P, int total, int unit, int *out)
{
    int n = 0;
    for (int i = 0; i < P->ax.rollout_share_pct.n; i++) {
        int d = (int)lround(total * P->ax.rollout_share_pct.v[i] / 100.0 / unit) * unit;
        if (d < unit || d >= total) continue;
        bool dup = false;
        for (int k = 0; k < n; k++) if (out[k] == d) dup = true;
        if (!dup) out[n++] = d;
    }
    return n;
}

void planner_enumerate(planner *P)
{
    const scn_scenario *b = &P->base;
    /* the scenario's own plan first: the baseline every search must beat */
    plan_cand own = {.mode = -1, .explicit_idx = -1};
    consider(P, &own);
    for (int i = 0; i < P->nplans; i++) {
        plan_cand e = {.mode = -1, .explicit_idx = i};
        consider(P, &e);
    }
    if (P->nplans > 0) return;      /* candidates(ctx) listed the plans */
    const plan_axes *ax = &P->ax;
    unsigned aux = aux_roles(b);
    for (int si = 0; si < ax->supernodes.n; si++)
    for (int ni = 0; ni < ax->nodes_per_supernode.n; ni++) {
        int sn = (int)ax->supernodes.v[si], nodes = (int)ax->nodes_per_supernode.v[ni];
        int total = b->cluster.devices_per_node * nodes * sn;
        int unit = b->cluster.devices_per_node;
        if (unit > total) unit = total;
        for (int mi = 0; mi < ax->modes.n; mi++) {
            int mode = (int)ax->modes.v[mi];
            int sp[32], nsp = 1;
            sp[0] = 0;
            if (mode == PLANNER_SEPARATE || mode == PLANNER_HYBRID) nsp = splits(P, total, unit, sp);
            if (mode == PLANNER_COLOCATE && aux) {
                /* reference/reward on their own nodes: an eighth or a quarter */
                int a1 = total / 8 / unit * unit, a2 = total / 4 / unit * unit;
                nsp = 0;
                if (a1 >= unit) sp[nsp++] = a1;
                if (a2 >= unit && a2 != a1) sp[nsp++] = a2;
            }
            if (mode == PLANNER_COLOCATE && !aux) continue;   /* the same as full */
            for (int k = 0; k < nsp; k++)
            for (int a = 0; a < ax->train_tp.n; a++)
            for (int bb = 0; bb < ax->train_pp.n; bb++)
            for (int e = 0; e < ax->train_ep.n; e++)
            for (int mb = 0; mb < ax->micro_batch.n; mb++)
            for (int rt = 0; rt < ax->rollout_tp.n; rt++)
            for (int re = 0; re < ax->rollout_ep.n; re++) {
                if (!rollout_ok(&b->actor, ax->rollout_tp.v[rt], ax->rollout_ep.v[re])) continue;
                for (int ms = 0; ms < ax->max_seqs.n; ms++) {
                    plan_cand c = {
                        .mode = mode, .split = sp[k], .supernodes = sn, .nodes = nodes,
                        .ttp = (int)ax->train_tp.v[a], .tpp = (int)ax->train_pp.v[bb], .tep = (int)ax->train_ep.v[e],
                        .mb = (int)ax->micro_batch.v[mb], .rtp = (int)ax->rollout_tp.v[rt],
                        .rep = (int)ax->rollout_ep.v[re], .seqs = (int)ax->max_seqs.v[ms], .explicit_idx = -1,
                    };
                    consider(P, &c);
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- select */

static int cmp_est(const void *a, const void *b)
{
    const plan_cand *x = a, *y = b;
    if (x->est != y->est) return x->est < y->est ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

/* What is simulated: the scenario's own plan and listed plans, the best
** estimate of each mode and cluster size, then the best estimates overall. */
void planner_select(planner *P, int budget)
{
    qsort(P->c, (size_t)P->nc, sizeof *P->c, cmp_est);
    P->sel = xcalloc((size_t)(P->nc ? P->nc : 1), sizeof *P->sel);
    char *taken = xcalloc((size_t)(P->nc ? P->nc : 1), 1);
    int n = 0;
    for (long i = 0; i < P->nc && n < budget; i++)
        if (P->c[i].mode < 0) { P->sel[n++] = P->c[i]; taken[i] = 1; }
    int per_group = P->objective == PLAN_OBJ_DEVICES ? 4 : 1;
    for (int m = 0; m < PLANNER__MODES; m++)
    for (int si = 0; si < P->ax.supernodes.n; si++)
    for (int ni = 0; ni < P->ax.nodes_per_supernode.n; ni++) {
        int got = 0;
        for (long i = 0; i < P->nc && got < per_group; i++) {
            const plan_cand *c = &P->c[i];
            if (taken[i] || c->mode != m || c->supernodes != P->ax.supernodes.v[si] || c->nodes != P->ax.nodes_per_supernode.v[ni]) continue;
            P->sel[n++] = *c;
            taken[i] = 1;
            got++;
        }
    }
    for (long i = 0; i < P->nc && n < budget; i++)
        if (!taken[i]) { P->sel[n++] = P->c[i]; taken[i] = 1; }
    P->nsel = n;
    free(taken);
}

/* ---------------------------------------------------------------- simulate */

static void pools_text(const plan *pl, char *out, size_t n)
{
    out[0] = 0;
    size_t len = 0;
    for (int i = 0; i < pl->npools; i++) {
        int w = snprintf(out + len, n - len, "%s%s:%d", i ? " " : "", pl->pools[i].name, pl->pools[i].devices);
        if (w < 0 || (size_t)w >= n - len) break;
        len += (size_t)w;
    }
}

/* The --set options that make `fusync run` simulate this candidate. */
static void sets_text(const planner *P, const plan_cand *c, fs_buf *b)
{
    if (c->mode < 0) {
        buf_puts(b, c->explicit_idx < 0 ? "(the scenario's own plan)" : "(a plan listed by candidates())");
        return;
    }
    const scn_scenario *base = &P->base;
    if (c->supernodes != base->cluster.supernodes) buf_printf(b, "--set cluster.supernodes=%d ", c->supernodes);
    if (c->nodes != base->cluster.nodes_per_supernode) buf_printf(b, "--set cluster.nodes_per_supernode=%d ", c->nodes);
    if (c->mode == PLANNER_HYBRID) {
        int total = base->cluster.devices_per_node * c->nodes * c->supernodes;
        buf_printf(b, "--set plan.pools.1.name=gen --set plan.pools.1.devices=%d --set plan.pools.1.roles.1=rollout "
                   "--set plan.pools.2.name=mixed --set plan.pools.2.devices=%d --set plan.pools.2.roles.1=rollout "
                   "--set plan.pools.2.roles.2=train ", c->split, total - c->split);
        int k = 3;
        if (base->has_ref) buf_printf(b, "--set plan.pools.2.roles.%d=ref ", k++);
        if (base->reward_is_model) buf_printf(b, "--set plan.pools.2.roles.%d=reward ", k++);
        if (base->has_critic) buf_printf(b, "--set plan.pools.2.roles.%d=critic ", k++);
    } else {
        buf_printf(b, "--mode %s ", planner_mode_name(c->mode));
        if (c->mode == PLANNER_SEPARATE) buf_printf(b, "--set plan.rollout_devices=%d ", c->split);
        if (c->mode == PLANNER_COLOCATE) buf_printf(b, "--set plan.aux_devices=%d ", c->split);
    }
    buf_printf(b, "--set plan.train.tp=%d --set plan.train.pp=%d --set plan.train.ep=%d --set plan.train.micro_batch=%d "
               "--set plan.rollout.tp=%d --set plan.rollout.ep=%d --set plan.rollout.max_seqs=%d --staleness %d "
               "--set plan.partial_rollout=%g", c->ttp, c->tpp, c->tep, c->mb, c->rtp, c->rep, c->seqs, c->stale,
               c->partial_pct / 100.0);
}

void planner_cols(const planner *P, rtable *t)
{
    static const char *const cols[] = {
        "id", "mode", "pools", "supernodes", "train_tp", "train_pp", "train_dp", "train_ep", "micro_batch",
        "rollout_tp", "rollout_ep", "max_seqs", "staleness", "partial_rollout", "estimate_tokens_per_s", "score", NULL
    };
    for (int i = 0; cols[i]; i++) rtable_add_col(t, cols[i]);
    if (P->objective == PLAN_OBJ_DEVICES) rtable_add_col(t, "meets_target");
    metrics_add_cols(t);
    rtable_add_col(t, "run_with");
}

bool planner_simulate(planner *P, int id, rtable *t, fs_err *err)
{
    const plan_cand *c = &P->sel[id];
    scn_scenario s;
    planner_apply(P, c, &s);
    row *r = rtable_new_row(t, id);
    row_set_int(r, rtable_col(t, "id"), id);
    plan pl;
    fs_err e = {0, ""};
    if (!plan_build(&s, &pl, &e)) memset(&pl, 0, sizeof pl);
    char pools[256];
    pools_text(&pl, pools, sizeof pools);
    const plan_pool *tq = train_pool(&pl);
    row_set_str(r, rtable_col(t, "mode"), c->mode >= 0 ? planner_mode_name(c->mode) : pl.npools > 1 && pl.npools == s.plan.npools ? "pools" : scn_mode_name(s.plan.mode));
    row_set_str(r, rtable_col(t, "pools"), pools);
    row_set_int(r, rtable_col(t, "supernodes"), s.cluster.supernodes);
    row_set_int(r, rtable_col(t, "train_tp"), s.plan.train.tp);
    row_set_int(r, rtable_col(t, "train_pp"), s.plan.train.pp);
    row_set_int(r, rtable_col(t, "train_dp"), tq ? tq->dp : 0);
    row_set_int(r, rtable_col(t, "train_ep"), s.plan.train.ep);
    row_set_int(r, rtable_col(t, "micro_batch"), s.plan.train.micro_batch);
    row_set_int(r, rtable_col(t, "rollout_tp"), s.plan.rollout.tp);
    row_set_int(r, rtable_col(t, "rollout_ep"), s.plan.rollout.ep);
    row_set_int(r, rtable_col(t, "max_seqs"), s.plan.rollout.max_seqs);
    row_set_int(r, rtable_col(t, "staleness"), s.plan.staleness);
    row_set_num(r, rtable_col(t, "partial_rollout"), s.plan.partial_rollout);
    row_set_num(r, rtable_col(t, "estimate_tokens_per_s"), c->est);
    fs_buf b;
    buf_init(&b);
    sets_text(P, c, &b);
    row_set_str(r, rtable_col(t, "run_with"), b.s);
    buf_free(&b);

    /* the scenario as built, with the policy's run hooks (the same plugin) */
    runner_spec spec = {.scn = &s, .plugin = P->pl};
    runner *run = runner_open(&spec, &e);
    report rep;
    bool ran = run && runner_close(run, &rep, &e);
    bool ok = true;
    if (ran) {
        metrics_fill(t, r, &rep);
        double score = P->objective == PLAN_OBJ_PER_DEVICE ? rep.throughput_per_device : rep.throughput;
        if (rep.feasible && P->has_score) ok = policy_score(P->pl, &s, &rep, &score, err);
        row_set_num(r, rtable_col(t, "score"), rep.feasible ? score : 0);
        if (P->objective == PLAN_OBJ_DEVICES) row_set_bool(r, rtable_col(t, "meets_target"), rep.feasible && rep.throughput >= P->target);
    } else {
        row_set_bool(r, rtable_col(t, "feasible"), false);
        char *nl = strchr(e.msg, '\n');     /* the message, not the traceback */
        if (nl) *nl = 0;
        row_set_str(r, rtable_col(t, "reason"), e.msg);
        if (P->objective == PLAN_OBJ_DEVICES) row_set_bool(r, rtable_col(t, "meets_target"), false);
    }
    runner_free(run);
    return ok;
}

/* ---------------------------------------------------------------- ranking */

static int rank_cmp(const rtable *t, const row *a, const row *b)
{
    int fc = rtable_col(t, "feasible"), mc = rtable_col(t, "meets_target");
    int fa = row_true(a, fc), fb = row_true(b, fc);
    if (fa != fb) return fb - fa;
    if (fa) {
        if (mc >= 0) {
            int ma = row_true(a, mc), mb = row_true(b, mc);
            if (ma != mb) return mb - ma;
            if (ma) {
                double da = row_num(a, rtable_col(t, "devices")), db = row_num(b, rtable_col(t, "devices"));
                if (da != db) return da < db ? -1 : 1;
            }
        }
        double sa = row_num(a, rtable_col(t, "score")), sb = row_num(b, rtable_col(t, "score"));
        if (sa != sb) return sa > sb ? -1 : 1;
    }
    return (a->id > b->id) - (a->id < b->id);
}

/* qsort has no context argument; an insertion-merge sort does. */
void plan_sort(rtable *t)
{
    int n = t->nrows;
    row *tmp = xmalloc((size_t)(n ? n : 1) * sizeof *tmp);
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = rank_cmp(t, &t->rows[j], &t->rows[i]) < 0 ? t->rows[j++] : t->rows[i++];
            while (i < mid) tmp[k++] = t->rows[i++];
            while (j < hi) tmp[k++] = t->rows[j++];
        }
        memcpy(t->rows, tmp, (size_t)n * sizeof *tmp);
    }
    free(tmp);
}

void plan_print(const rtable *t, int top, FILE *f)
{
    int fc = rtable_col(t, "feasible");
    int nfeas = 0;
    for (int i = 0; i < t->nrows; i++) if (row_true(&t->rows[i], fc)) nfeas++;
    fprintf(f, "Plan search: %s (%s)\n", t->scenario, t->input);
    fprintf(f, "  %ld candidates: %ld do not fit (memory or layout), %ld fit; %d simulated "
            "(best by estimate, each mode's best, the scenario's own plan), %d feasible\n",
            t->evaluated, t->pruned, t->evaluated - t->pruned, t->total, nfeas);
    fprintf(f, "  objective: %s", t->objective);
    if (!strcmp(t->objective, "devices")) fprintf(f, " (smallest cluster reaching %.0f tokens/s)", t->target);
    fprintf(f, "; ranked on %d iteration%s (%d warm-up)\n\n", t->iterations, fs_s(t->iterations), t->warmup);
    if (nfeas == 0) {
        fprintf(f, "No feasible plan was found.\n");
        for (int i = 0; i < t->nrows && i < 3; i++)
            fprintf(f, "  #%s: %s\n", row_text(&t->rows[i], rtable_col(t, "id")), row_text(&t->rows[i], rtable_col(t, "reason")));
        return;
    }
    fprintf(f, "  %-3s %-9s %-20s %-14s %-13s %-3s %-5s %10s %9s %9s\n", "#", "mode", "pools", "train tp/pp/ep/mb",
            "rollout tp/ep/seqs", "s", "part", "tokens/s", "per dev", "step");
    int shown = 0;
    char a[40], b2[40], st[32];
    for (int i = 0; i < t->nrows && shown < top; i++) {
        const row *r = &t->rows[i];
        if (!row_true(r, fc)) continue;
        shown++;
        snprintf(a, sizeof a, "%s/%s/%s/%s", row_text(r, rtable_col(t, "train_tp")), row_text(r, rtable_col(t, "train_pp")),
                 row_text(r, rtable_col(t, "train_ep")), row_text(r, rtable_col(t, "micro_batch")));
        snprintf(b2, sizeof b2, "%s/%s/%s", row_text(r, rtable_col(t, "rollout_tp")), row_text(r, rtable_col(t, "rollout_ep")),
                 row_text(r, rtable_col(t, "max_seqs")));
        char tp[32], pd[32];
        fmt_si(tp, sizeof tp, row_num(r, rtable_col(t, "throughput_tokens_per_s")));
        snprintf(pd, sizeof pd, "%.1f", row_num(r, rtable_col(t, "throughput_tokens_per_s_per_device")));
        fmt_secs(st, sizeof st, row_num(r, rtable_col(t, "step_time_s")));
        fprintf(f, "  %-3d %-9s %-20.20s %-14s %-13s %-3s %-5s %10s %9s %9s\n", shown, row_text(r, rtable_col(t, "mode")),
                row_text(r, rtable_col(t, "pools")), a, b2, row_text(r, rtable_col(t, "staleness")),
                row_text(r, rtable_col(t, "partial_rollout")), tp, pd, st);
    }
    const row *best = &t->rows[0];
    fprintf(f, "\n");
    if (nfeas > 1) {
        const row *second = &t->rows[1];
        double s1 = row_num(best, rtable_col(t, "step_time_s")), s2 = row_num(second, rtable_col(t, "step_time_s"));
        fmt_secs(a, sizeof a, s1);
        fmt_secs(b2, sizeof b2, s2);
        fprintf(f, "Why #1 wins over #2: step %s against %s", a, b2);
        double t1 = row_num(best, rtable_col(t, "throughput_tokens_per_s")), t2 = row_num(second, rtable_col(t, "throughput_tokens_per_s"));
        if (t2 > 0) fprintf(f, " (%+.1f%% tokens/s)", 100 * (t1 / t2 - 1));
        fprintf(f, "\n");
        for (int k = 0; k < STEP__COUNT; k++) {
            char name[48];
            snprintf(name, sizeof name, "%s_s", trace_step_phase_name((trace_step_phase)k));
            double x = row_num(best, rtable_col(t, name)), y = row_num(second, rtable_col(t, name));
            if (!(fabs(x) > 1e-9 || fabs(y) > 1e-9)) continue;
            fmt_secs(a, sizeof a, x);
            fmt_secs(b2, sizeof b2, y);
            char d[40];
            fmt_secs(d, sizeof d, fabs(x - y));
            fprintf(f, "  %-12s %10s  vs %10s   %s%s\n", trace_step_phase_name((trace_step_phase)k), a, b2,
                    x < y - 1e-9 ? "-" : x > y + 1e-9 ? "+" : " ", fabs(x - y) > 1e-9 ? d : "same");
        }
        int sm1 = (int)row_num(best, rtable_col(t, "staleness_max")), sm2 = (int)row_num(second, rtable_col(t, "staleness_max"));
        if (sm1 != sm2) fprintf(f, "  staleness max %d vs %d\n", sm1, sm2);
    }
    fprintf(f, "Run the best: fusync run %s %s\n", t->input, row_text(best, rtable_col(t, "run_with")));
}


static void quantiles(planner *P)
{
    const scn_workload *w = &P->base.work;
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
    for (int q = 0; q <= 100; q++) P->rq[q] = v[q == 100 ? NS - 1 : q * NS / 100];
    free(v);
    P->pm = dist_mean(&w->prompt_len, 0);
    P->rm = dist_mean(&w->response_len, w->max_response);
}

/* ---------------------------------------------------------------- set-up */

bool planner_init(planner *P, const scn_scenario *base, plugin *pl, const planner_opts *po, fs_err *err)
{
    memset(P, 0, sizeof *P);
    P->base = *base;
    P->pl = pl;
    P->objective = po->objective;
    P->target = po->target;
    if (pl) {
        snprintf(P->base.plan.policy, sizeof P->base.plan.policy, "%s", plugin_path(pl));
        /* its place() sets the baseline; candidates() and score() steer the search */
        if (!policy_place(pl, &P->base, err)) return false;
        P->has_score = plugin_has(pl, "score");
    }
    /* short runs rank as well as long ones and cost a fraction */
    P->iterations = P->base.work.iterations;
    P->warmup = P->base.work.warmup;
    if (po->short_runs && P->iterations > P->warmup + 3) P->iterations = P->warmup + 3;
    default_axes(&P->base, &P->ax);
    if (P->objective == PLAN_OBJ_DEVICES) device_axes(&P->base, &P->ax);
    if (pl && !policy_candidates(pl, &P->base, &P->ax, &P->plans, &P->nplans, err)) return false;
    quantiles(P);
    return true;
}

void planner_free(planner *P)
{
    free(P->c);
    free(P->sel);
    free(P->plans);
    memset(P, 0, sizeof *P);
}
