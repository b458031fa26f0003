/*
** planner.c — the plan search (planner.h): axes, candidates, selection,
** simulation of one candidate.  The estimate it ranks by is src/estimate.c,
** the table's ranking and text planner_table.c.
**
** The constraints (--mode, --staleness, --fix, --framework, --max-lag) are
** planner_limits.c; choosing what to simulate, and the successive-halving
** rungs, planner_select.c; the command a row prints, planner_cmd.c.
*/
#include "planner.h"
#include "planner_int.h"
#include "engine.h"
#include "fields.h"
#include "presets.h"
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const MODE_LABEL[] = {"separate", "colocate", "full", "hybrid", "shape", "spread"};

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
    long modes[] = {PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID, PLANNER_SPREAD};
    axis_set(&ax->modes, modes, 5);
    n = 0;
    for (long t = 1; t <= 16; t *= 2) if (divides(t, m->heads) && t <= 2 * dpn) v[n++] = t;
    axis_set(&ax->train_tp, v, n);
    n = 0;
    for (long p = 1; p <= 32 && p <= m->layers; p *= 2)
        if (s->plan.train.pp_embedding_layer || s->plan.train.pp_loss_layer
                ? p == 1 || divides(p, m->layers + s->plan.train.pp_embedding_layer + s->plan.train.pp_loss_layer)
                : divides(p, m->layers) || s->plan.train.uneven_layers)
            v[n++] = p;
    axis_set(&ax->train_pp, v, n);
    n = 0;
    if (m->experts > 0) { for (long e = 1; e <= 64; e *= 2) if (divides(e, m->experts)) v[n++] = e; }
    else v[n++] = 1;
    axis_set(&ax->train_ep, v, n);
    long mbs[] = {1, 2};
    axis_set(&ax->micro_batch, mbs, 2);
    /* context parallelism only where sequences are long (docs/model.md,
    ** section 7): below 16k tokens it adds communication and saves little */
    long cps[] = {1, 2, 4};
    axis_set(&ax->train_cp, cps, plan_max_seq(s) >= 16384 ? 3 : 1);
    /* expert tensor parallelism for a MoE actor: each expert whole (1) or
    ** split over the TP ranks (0, Megatron-Core's default; docs/model.md,
    ** section 3); a dense actor keeps the scenario's */
    long etps[] = {1, 0};
    if (m->experts > 0) axis_set(&ax->train_etp, etps, 2);
    else { v[0] = s->plan.train.etp; axis_set(&ax->train_etp, v, 1); }
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
    /* every way of dispatching the field table knows (docs/scenarios.md) */
    const fdesc *f = fields_lookup("plan.rollout.dispatch");
    n = 0;
    for (int i = 0; f && f->enames && f->enames[i] && n < 32; i++) v[n++] = f->evals ? f->evals[i] : i;
    axis_set(&ax->dispatch, v, n);
}

/* plan.rollout.dispatch through its row of the field table, whatever C type
** holds it. */
void planner_set_dispatch(scn_scenario *s, int value)
{
    const fdesc *f = fields_lookup("plan.rollout.dispatch");
    if (!f) return;
    void *p = fields_at(f, &s->plan.rollout);
    if (f->size == sizeof(bool)) *(bool *)p = value != 0;
    else if (f->size == sizeof(int)) *(int *)p = value;
}

const char *planner_dispatch_name(int value)
{
    const fdesc *f = fields_lookup("plan.rollout.dispatch");
    const char *n = f ? fields_enum_name(f, value) : NULL;
    return n ? n : "?";
}

static int dispatch_of(const scn_scenario *s)
{
    const fdesc *f = fields_lookup("plan.rollout.dispatch");
    return f ? (int)fields_get_num(f, &s->plan.rollout) : 0;
}

/* --objective devices and cost: cluster sizes in the cluster's own unit
** (supernodes where it has more than one, else nodes), powers of two from
** one unit up to `scale` times the scenario's size, and its own size; the
** range goes into `range` for the header. */
static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void device_axes(const scn_scenario *s, int scale, plan_axes *ax, char *range, size_t rn)
{
    bool super = s->cluster.supernodes > 1;
    long own = super ? s->cluster.supernodes : s->cluster.nodes_per_supernode, hi = own * scale;
    long v[34];
    int n = 0;
    for (long k = 1; k <= hi && n < 31; k *= 2) v[n++] = k;
    v[n++] = own;
    v[n++] = hi;
    qsort(v, (size_t)n, sizeof *v, cmp_long);
    int w = 0;
    for (int i = 0; i < n; i++) if (w == 0 || v[i] != v[w - 1]) v[w++] = v[i];
    n = w < 32 ? w : 32;
    axis_set(super ? &ax->supernodes : &ax->nodes_per_supernode, v, n);
    long per = scn_total_devices(&s->cluster) / own;
    size_t k = (size_t)snprintf(range, rn, "clusters of");
    for (int i = 0; i < n && k < rn; i++) k += (size_t)snprintf(range + k, rn - k, "%s%ld", i ? "," : " ", v[i]);
    if (k < rn)
        snprintf(range + k, rn - k, " %s (%ld to %ld devices: up to %dx the scenario's %ld, --max-scale)",
                 super ? "supernodes" : "nodes", per * v[0], per * v[n - 1], scale, own);
}

/* How many steps' time `steps` steps take against the mean step of the
** window simulated (batches warmup..iterations-1): batch b's responses are
** scaled by (1 + g)^b (workload.response_growth), and a step's time is taken
** to grow in proportion to them (an upper bound: prompts, weight syncs and
** fixed costs do not grow). */
static double growth_steps(const scn_workload *w, int steps)
{
    double g = w->response_growth;
    if (g == 0) return steps;
    double win = 0;
    int lo = w->warmup < w->iterations ? w->warmup : 0;
    for (int b = lo; b < w->iterations; b++) win += pow(1 + g, b);
    win /= w->iterations - lo;
    double all = 0;
    for (int b = 0; b < steps; b++) all += pow(1 + g, b);
    return win > 0 ? all / win : steps;
}

/* The price an hour of a scenario's devices (docs/cli.md, "Cost and
** time"): every device at --price, or with prices per device type each
** pool's own type at its price and the rest of the cluster at
** cluster.device's.  A type without a price: false, its preset key (or
** name) in `missing`.  `pl` is the scenario's built plan. */
static bool device_price(const planner *P, const scn_scenario *s, const plan *pl, double *per_h, char *missing, size_t n)
{
    int dev = scn_total_devices(&s->cluster);
    if (P->o.nprices == 0) { *per_h = dev * P->o.price; return true; }
    double sum = 0;
    int own = 0;
    for (int i = 0; i <= pl->npools; i++) {
        const scn_device *d = i < pl->npools ? plan_pool_device(s, &pl->pools[i]) : &s->cluster.device;
        int k = i < pl->npools ? pl->pools[i].devices : dev - own;
        if (i < pl->npools && !pl->pools[i].own_device) continue;   /* of cluster.device: with the rest */
        if (i < pl->npools) own += k;
        int at = -1;
        for (int j = 0; j < P->o.nprices && at < 0; j++) {
            const scn_device *pd = presets_device_find(P->o.price_key[j]);
            if (pd && !strcmp(pd->name, d->name)) at = j;
        }
        if (at < 0) {
            const char *key = d->name;
            for (int j = 0; j < presets_device_count(); j++)
                if (!strcmp(presets_device(j)->name, d->name)) key = presets_device_key(j);
            snprintf(missing, n, "%s", key);
            return false;
        }
        sum += k * P->o.price_of[at];
    }
    *per_h = sum;
    return true;
}

/* ---------------------------------------------------------------- apply */

bool planner_shape_at(const planner *P, int idx, int supernodes, int nodes, scn_plan *out)
{
    *out = P->ax.shapes[idx];
    long own = (long)P->base.cluster.supernodes * P->base.cluster.nodes_per_supernode, now = (long)supernodes * nodes;
    if (now == own) return true;
    if (!P->scale_shapes || own <= 0) return false;
    /* Proportional: a pool of k of the scenario's n nodes keeps k/n of the
    ** cluster, so the types keep their ratio (the hardware mix is the
    ** scenario's; the planner does not invent a different one) and a pool
    ** of whole nodes of its own type stays on whole nodes (docs/model.md,
    ** section 2, Heterogeneous pools). */
    int per = P->base.cluster.devices_per_node;
    for (int i = 0; i < out->npools; i++) {
        scn_pool *q = &out->pools[i];
        long d = (long)q->devices * now;
        if (q->nranges > 0 || d % own) return false;
        d /= own;
        if (d < 1 || (per > 0 && q->devices % per == 0 && d % per)) return false;
        q->devices = (int)d;
    }
    return true;
}

static unsigned aux_roles(const scn_scenario *s)
{
    return (s->has_ref ? ROLE_REF : 0) | (s->reward_is_model ? ROLE_REWARD : 0);
}

/* (planner_int.h) Separate mode with the critic on a pool of its own (docs/model.md,
** section 2): the rollout pool, the actor's with the reference, the
** critic's with the reward model — OpenRLHF's --train.colocate_actor_ref
** and --train.colocate_critic_reward, the shape of its
** examples/scripts/train_ppo_ray_slurm.sh (v0.11.0): each frozen model
** beside the trained one whose pass it feeds, so that the critic's pool
** carries the value and reward forwards while the actor's carries the
** log-prob and reference ones.  The pools in the derived order (rollout
** first, plan_build's separate mode). */
void planner_critic_pools(scn_scenario *s, int split, int critic)
{
    scn_plan *p = &s->plan;
    int total = scn_total_devices(&s->cluster);
    p->mode = MODE_SEPARATE;
    p->rollout_devices = 0;
    p->npools = 3;
    memset(p->pools, 0, 3 * sizeof p->pools[0]);
    snprintf(p->pools[0].name, sizeof p->pools[0].name, "rollout");
    p->pools[0].devices = split;
    p->pools[0].roles = ROLE_ROLLOUT;
    snprintf(p->pools[1].name, sizeof p->pools[1].name, "actor");
    p->pools[1].devices = total - split - critic;
    p->pools[1].roles = ROLE_TRAIN | (s->has_ref ? ROLE_REF : 0);
    snprintf(p->pools[2].name, sizeof p->pools[2].name, "critic");
    p->pools[2].devices = critic;
    p->pools[2].roles = ROLE_CRITIC | (s->reward_is_model ? ROLE_REWARD : 0);
}

int planner_critic_devices(const planner *P, const plan_cand *c)
{
    if (c->critic > 0) return c->critic;
    if (!P->base.has_critic || (c->mode >= 0 && c->mode != PLANNER_SHAPE)) return 0;
    /* the scenario's own, a listed plan or a shape: its pools as given */
    scn_scenario *s = xmalloc(sizeof *s);
    planner_apply(P, c, s);
    int d = 0;
    for (int i = 0; i < s->plan.npools; i++)
        if ((s->plan.pools[i].roles & ROLE_CRITIC) && !(s->plan.pools[i].roles & ROLE_TRAIN)) d = s->plan.pools[i].devices;
    free(s);
    return d;
}

/* The scenario of a candidate. */
void planner_apply(const planner *P, const plan_cand *c, scn_scenario *s)
{
    if (c->explicit_idx >= 0) *s = P->plans[c->explicit_idx];
    else *s = P->base;
    s->work.iterations = P->iterations;
    s->work.warmup = P->warmup;
    if (c->mode < 0) return;
    if (c->dispatch >= 0) planner_set_dispatch(s, c->dispatch);
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
    p->train.cp = c->tcp > 0 ? c->tcp : 1;
    p->train.etp = c->tetp;
    p->rollout.tp = c->rtp;
    p->rollout.ep = c->rep;
    p->rollout.max_seqs = c->seqs;
    p->staleness = c->stale;
    p->partial_rollout = c->partial_pct > 0 ? c->partial_pct / 100.0 : 1.0;
    p->rollout_devices = 0;
    switch (c->mode) {
    case PLANNER_SEPARATE:
        p->mode = MODE_SEPARATE;
        if (c->critic > 0) {
            planner_critic_pools(s, c->split, c->critic);
            break;
        }
        p->rollout_devices = c->split;
        break;
    case PLANNER_COLOCATE:
        p->mode = MODE_COLOCATE;
        p->aux_devices = c->split;
        break;
    case PLANNER_FULL:
        p->mode = MODE_FULL;
        break;
    case PLANNER_SHAPE: {
        scn_plan sh;
        /* enumerate keeps only the sizes the shape scales to */
        if (!planner_shape_at(P, c->split, c->supernodes, c->nodes, &sh)) sh = P->ax.shapes[c->split];
        p->mode = sh.mode;
        p->npools = sh.npools;
        memcpy(p->pools, sh.pools, sizeof p->pools);
        break;
    }
    case PLANNER_SPREAD: {
        unsigned critic = s->has_critic ? ROLE_CRITIC : 0;
        p->mode = MODE_SEPARATE;
        p->npools = 2;
        memset(p->pools, 0, 2 * sizeof p->pools[0]);
        snprintf(p->pools[0].name, sizeof p->pools[0].name, "rollout");
        p->pools[0].devices = c->split;
        p->pools[0].roles = ROLE_ROLLOUT;
        p->pools[0].where = WHERE_SPREAD;
        snprintf(p->pools[1].name, sizeof p->pools[1].name, "train");
        p->pools[1].devices = total - c->split;
        p->pools[1].roles = ROLE_TRAIN | aux_roles(s) | critic;
        break;
    }
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
    planner_mem_apply(c, s);
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

bool planner_keeps(const scn_scenario *s, const plan *pl)
{
    if (pl->fits) return true;
    double worst = 0;
    for (int i = 0; i < pl->npools; i++) {
        const plan_pool *q = &pl->pools[i];
        /* the peak the run's ledger reaches (plan.c), switches included,
        ** against the pool's own device (plan_pool_device) */
        worst = fmax(worst, q->peak / q->capacity);
        if (s->cluster.host_mem_bytes > 0) worst = fmax(worst, q->host_mem_per_node / s->cluster.host_mem_bytes);
    }
    /* a node's host memory over the pools sharing it (plan_host_sum) */
    if (s->cluster.host_mem_bytes > 0) worst = fmax(worst, pl->host.bytes / s->cluster.host_mem_bytes);
    return worst <= 1 + PLANNER_FIT_SLACK;
}

/* Variants of a searched layout: staleness x partial-rollout settings (one
** at staleness 0), each with every dispatch value. */
static long stale_variants(const planner *P)
{
    long v = 0;
    for (int i = 0; i < P->ax.staleness.n; i++) v += P->ax.staleness.v[i] == 0 ? 1 : P->ax.partial_pct.n;
    return v;
}

int planner_ndispatch(const planner *P) { return P->ax.dispatch.n > 0 ? P->ax.dispatch.n : 1; }

/* Keep a layout that fits: estimate every staleness and partial-rollout
** setting of a searched one (they change neither layouts nor memory) and
** keep it once, with the best of those estimates (at the scenario's
** dispatch; a variant's own row is estimated with its own). */
static void keep_layout(planner *P, plan_cand *c, scn_scenario *s, const plan *pl, bool sweep_stale)
{
    c->devices = scn_total_devices(&s->cluster);
    c->near = !pl->fits;
    if (!sweep_stale) {
        c->est = est_throughput(&P->len, s, pl);
        P->estimated++;
        push_cand(P, c);
        return;
    }
    double best = 0;
    for (int i = 0; i < P->ax.staleness.n; i++) {
        int np = P->ax.staleness.v[i] == 0 ? 1 : P->ax.partial_pct.n;
        for (int k = 0; k < np; k++) {
            s->plan.staleness = (int)P->ax.staleness.v[i];
            s->plan.partial_rollout = s->plan.staleness == 0 ? 1.0 : P->ax.partial_pct.v[k] / 100.0;
            double e = est_throughput(&P->len, s, pl);
            P->estimated++;
            if (e > best) best = e;
        }
    }
    c->est = best;
    push_cand(P, c);
}

/* Build a layout and keep it when it fits.  A searched layout that misses
** the fit by more than PLANNER_FIT_SLACK gets the memory features that make
** it fit, if any do (planner_mem.c); one within the slack is simulated as
** given, the run's ledger deciding (planner_keeps).  The scenario's own and
** listed plans stay as they are given. */
static void consider(planner *P, plan_cand *c)
{
    scn_scenario s;
    c->dispatch = -1;
    planner_apply(P, c, &s);
    fs_err err = {0, ""};
    plan pl;
    bool sweep_stale = c->mode >= 0 && c->explicit_idx < 0;
    long variants = sweep_stale ? stale_variants(P) * planner_ndispatch(P) : 1;
    P->evaluated += variants;
    bool built = scn_validate(&s, &err) && plan_build(&s, &pl, &err);
    /* the scenario's own plan is simulated whenever it builds: the run says
    ** whether it fits, and the baseline is always listed */
    bool own = c->mode < 0 && c->explicit_idx < 0;
    bool fits = built && (planner_keeps(&s, &pl) || own);
    if (built && !fits && sweep_stale && planner_mem_repair(P, c, &s, &pl)) {
        fits = true;
        P->repaired++;
    }
    if (P->visit) P->visit(P->visit_ud, c, fits);
    if (!fits) { P->pruned += variants; return; }
    keep_layout(P, c, &s, &pl, sweep_stale);
}

static bool rollout_ok(const scn_model *m, long tp, long ep)
{
    if (m->experts == 0) return ep == 1;
    return (ep >= tp && ep % tp == 0) || (tp > ep && tp % ep == 0);
}

/* The critic's own pools of a separate layout's `train` training devices
** (planner_critic_offered): a quarter, a third and a half of them.  The
** critic trains beside the actor and the step waits for both (docs/model.md,
** section 2), so the split that balances them gives the critic the share of
** its work: a half for a critic of the actor's size (OpenRLHF's example
** above gives 4 of 8), less for a smaller critic or where the actor's pool
** carries more forward passes; below a quarter the critic's pool is the
** step's bound for any critic of the actor's order of size.  In whole nodes,
** and on a cluster of up to four nodes in half and quarter nodes too (as
** splits()), each share at the grain nearest it, at most a half; none where
** it leaves the actor nothing.  0 first: the critic on the training pool. */
static int critic_splits(const planner *P, int train, int unit, int total, int *out)
{
    static const int share[] = {25, 33, 50};
    int n = 0;
    out[n++] = 0;
    if (!planner_critic_offered(P)) return n;
    int ng = total <= 4 * unit ? 3 : 1;
    for (size_t i = 0; i < sizeof share / sizeof share[0]; i++) {
        double want = train * share[i] / 100.0;
        int best = 0;
        for (int g = 0; g < ng; g++) {
            int grain = unit >> g;
            if (grain < 1 || (g > 0 && grain * 2 != unit >> (g - 1))) break;
            /* never more than the actor's pool: it carries the log-prob
            ** and reference passes beside the actor's training */
            long m = lround(want / grain), cap = train / 2 / grain;
            int d = (int)(m < cap ? m : cap) * grain;
            if (d < grain || d >= train) continue;
            if (best == 0 || fabs(d - want) < fabs(best - want)) best = d;
        }
        bool dup = best == 0;
        for (int k = 0; k < n && !dup; k++) dup = out[k] == best;
        if (!dup) out[n++] = best;
    }
    return n;
}

/* Splits of `total` devices: shares in whole nodes, and on a cluster of up
** to four nodes in half and quarter nodes too (a 4:12 split of two nodes of
** eight: the rollout pool rarely needs a whole node there, and a split inside
** a node keeps both pools' groups whole when the layout's TP divides it;
** plan_build says when it does not), unless `fine` is false (spread: a
** supernode's share in whole nodes).  A held plan.rollout_devices is the
** only split. */
static int splits(const planner *P, int total, int unit, bool fine, int *out)
{
    if (P->fix_rollout_devices > 0) {
        out[0] = P->fix_rollout_devices;
        return P->fix_rollout_devices < total ? 1 : 0;
    }
    int n = 0;
    int grains[3] = {unit, unit / 2, unit / 4}, ng = fine && total <= 4 * unit ? 3 : 1;
    for (int g = 0; g < ng; g++) {
        if (grains[g] < 1 || (g > 0 && grains[g] * 2 != grains[g - 1])) break;
        for (int i = 0; i < P->ax.rollout_share_pct.n && n < 32; i++) {
            int d = (int)lround(total * P->ax.rollout_share_pct.v[i] / 100.0 / grains[g]) * grains[g];
            if (d < grains[g] || d >= total) continue;
            bool dup = false;
            for (int k = 0; k < n; k++) if (out[k] == d) dup = true;
            if (!dup) out[n++] = d;
        }
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
        bool own_size = sn == b->cluster.supernodes && nodes == b->cluster.nodes_per_supernode;
        for (int mi = 0; mi < ax->modes.n + (own_size || P->scale_shapes ? ax->nshapes : 0); mi++) {
            int mode = mi < ax->modes.n ? (int)ax->modes.v[mi] : PLANNER_SHAPE;
            int sp[32], nsp = 1;
            sp[0] = mi < ax->modes.n ? 0 : mi - ax->modes.n;
            scn_plan scaled;
            if (mode == PLANNER_SHAPE && !planner_shape_at(P, sp[0], sn, nodes, &scaled)) continue;
            if (mode == PLANNER_SEPARATE || mode == PLANNER_HYBRID) nsp = splits(P, total, unit, true, sp);
            if (mode == PLANNER_SPREAD) {
                /* the rollout share of each supernode, in whole nodes */
                if (sn < 2 || unit > total / sn) continue;
                if (P->fix_rollout_devices > 0) {
                    sp[0] = P->fix_rollout_devices;
                    nsp = sp[0] < total && sp[0] % sn == 0;
                } else {
                    nsp = splits(P, total / sn, unit, false, sp);
                    for (int k = 0; k < nsp; k++) sp[k] *= sn;
                }
            }
            if (mode == PLANNER_COLOCATE && aux) {
                /* reference/reward on their own nodes: an eighth or a quarter */
                int a1 = total / 8 / unit * unit, a2 = total / 4 / unit * unit;
                nsp = 0;
                if (P->fix_aux_devices > 0) sp[nsp++] = P->fix_aux_devices;
                else {
                    if (a1 >= unit) sp[nsp++] = a1;
                    if (a2 >= unit && a2 != a1) sp[nsp++] = a2;
                }
            }
            if (mode == PLANNER_COLOCATE && !aux) continue;   /* the same as full */
            /* a pool of the rollout device's type (plan.rollout_device) is
            ** plan_build's to derive: no explicit critic pool beside it */
            bool crit = mode == PLANNER_SEPARATE && !scn_device_set(&b->plan.rollout_device);
            for (int k = 0; k < nsp; k++) {
            int cs[8], ncs = crit ? critic_splits(P, total - sp[k], unit, total, cs) : 1;
            if (!crit) cs[0] = 0;
            for (int ci = 0; ci < ncs; ci++)
            for (int a = 0; a < ax->train_tp.n; a++)
            for (int bb = 0; bb < ax->train_pp.n; bb++)
            for (int e = 0; e < ax->train_ep.n; e++)
            for (int mb = 0; mb < ax->micro_batch.n; mb++)
            for (int cq = 0; cq < ax->train_cp.n; cq++)
            for (int et = 0; et < ax->train_etp.n; et++)
            for (int rt = 0; rt < ax->rollout_tp.n; rt++)
            for (int re = 0; re < ax->rollout_ep.n; re++) {
                if (!rollout_ok(&b->actor, ax->rollout_tp.v[rt], ax->rollout_ep.v[re])) continue;
                /* a context-parallel group stays inside a node with its TP ranks */
                if (ax->train_cp.v[cq] > 1 && ax->train_tp.v[a] * ax->train_cp.v[cq] > b->cluster.devices_per_node) continue;
                /* etp 0 is the tp: at tp 1 the same layout as etp 1 */
                if (ax->train_etp.n > 1 && ax->train_etp.v[et] == 0 && ax->train_tp.v[a] == 1) continue;
                /* a stop request ends the enumeration; the pool then reports it */
                if (fs_stop_signal) return;
                for (int ms = 0; ms < ax->max_seqs.n; ms++) {
                    plan_cand c = {
                        .mode = mode, .split = sp[k], .critic = cs[ci], .supernodes = sn, .nodes = nodes,
                        .ttp = (int)ax->train_tp.v[a], .tpp = (int)ax->train_pp.v[bb], .tep = (int)ax->train_ep.v[e],
                        .mb = (int)ax->micro_batch.v[mb], .tcp = (int)ax->train_cp.v[cq],
                        .tetp = (int)ax->train_etp.v[et], .rtp = (int)ax->rollout_tp.v[rt],
                        .rep = (int)ax->rollout_ep.v[re], .seqs = (int)ax->max_seqs.v[ms], .explicit_idx = -1,
                    };
                    consider(P, &c);
                }
            }
            }
        }
    }
}

/* ---------------------------------------------------------------- simulate */

void planner_cols(const planner *P, rtable *t)
{
    static const char *const cols[] = {
        "id", "mode", "pools", "supernodes", "train_tp", "train_pp", "train_dp", "train_ep", "train_cp", "micro_batch", "train_etp",
        "rollout_tp", "rollout_ep", "max_seqs", "staleness", "partial_rollout", "dispatch", "simulated_iterations",
        "estimate_tokens_per_s", "figure", "score", "extrapolated_score", "within", "outside", NULL
    };
    for (int i = 0; cols[i]; i++) rtable_add_col(t, cols[i]);
    if (P->objective == PLAN_OBJ_DEVICES) rtable_add_col(t, "meets_target");
    if (P->lag_col) { rtable_add_col(t, "lag_value"); rtable_add_col(t, "effective_tokens_per_s"); rtable_add_col(t, "lag_cost"); }
    if (P->calibrated) {
        static const char *const ic[] = {"interval_source", "interval_tput_lo", "interval_tput_hi", "interval_step_lo",
                                         "interval_step_hi", NULL};
        for (int i = 0; ic[i]; i++) rtable_add_col(t, ic[i]);
    }
    if (P->costing) {
        static const char *const cc[] = {"steps", "time_to_steps_s", "device_hours_per_step", "device_hours_per_run",
                                         "price_per_device_hour", "price_per_node_hour", "cost_per_step", "cost_per_run", NULL};
        for (int i = 0; cc[i]; i++) rtable_add_col(t, cc[i]);
        if (P->o.nprices) rtable_add_col(t, "device_prices");
    }
    /* the memory features the repair turned on: where a simulated plan has
    ** any, so that a search that repairs none writes the table it did */
    bool mem = false;
    for (int i = 0; i < P->nsel && !mem; i++) mem = planner_mem_any(&P->sel[i]);
    if (mem) rtable_add_col(t, "memory_features");
    /* the critic's own pool: where a simulated plan has one */
    bool crit = false;
    for (int i = 0; i < P->nsel && !crit; i++) crit = planner_critic_devices(P, &P->sel[i]) > 0;
    if (crit) rtable_add_col(t, "critic_devices");
    rt_metrics_add_cols(t);
    rtable_add_col(t, "run_with");
}

double planner_row_figure(const rtable *t, const rt_row *r)
{
    if (!rt_row_true(r, rtable_col(t, "feasible"))) return -INFINITY;
    int wc = rtable_col(t, "within");
    if (wc >= 0 && !rt_row_true(r, wc)) return -INFINITY;
    double v = rt_row_num(r, rtable_col(t, "score"));
    return isfinite(v) ? v : -INFINITY;
}

bool planner_simulate(planner *P, int id, int iterations, rtable *t, fs_err *err)
{
    plan_cand *c = &P->sel[id];
    scn_scenario s;
    planner_apply(P, c, &s);
    s.work.iterations = iterations;
    rt_row *r = rtable_new_row(t, id);
    rt_row_set_int(r, rtable_col(t, "id"), id);
    plan pl;
    fs_err e = {0, ""};
    if (!plan_build(&s, &pl, &e)) memset(&pl, 0, sizeof pl);
    char pools[256];
    planner_pools_text(&pl, pools, sizeof pools);
    const plan_pool *tq = pl.train_pool >= 0 ? &pl.pools[pl.train_pool] : NULL;
    rt_row_set_str(r, rtable_col(t, "mode"), c->mode >= 0 ? planner_mode_name(c->mode)
                : c->explicit_idx < 0 ? "baseline" : "listed");
    rt_row_set_str(r, rtable_col(t, "pools"), pools);
    rt_row_set_int(r, rtable_col(t, "supernodes"), s.cluster.supernodes);
    rt_row_set_int(r, rtable_col(t, "train_tp"), s.plan.train.tp);
    rt_row_set_int(r, rtable_col(t, "train_pp"), s.plan.train.pp);
    rt_row_set_int(r, rtable_col(t, "train_dp"), tq ? tq->dp : 0);
    rt_row_set_int(r, rtable_col(t, "train_ep"), s.plan.train.ep);
    rt_row_set_int(r, rtable_col(t, "train_cp"), s.plan.train.cp);
    /* a MoE actor's expert TP as laid out (the tp when 0); a dense one's as given */
    rt_row_set_int(r, rtable_col(t, "train_etp"), tq && s.actor.experts > 0 ? tq->etp : s.plan.train.etp);
    rt_row_set_int(r, rtable_col(t, "micro_batch"), s.plan.train.micro_batch);
    rt_row_set_int(r, rtable_col(t, "rollout_tp"), s.plan.rollout.tp);
    rt_row_set_int(r, rtable_col(t, "rollout_ep"), s.plan.rollout.ep);
    rt_row_set_int(r, rtable_col(t, "max_seqs"), s.plan.rollout.max_seqs);
    rt_row_set_int(r, rtable_col(t, "staleness"), s.plan.staleness);
    rt_row_set_num(r, rtable_col(t, "partial_rollout"), s.plan.partial_rollout);
    rt_row_set_str(r, rtable_col(t, "dispatch"), planner_dispatch_name(dispatch_of(&s)));
    rt_row_set_int(r, rtable_col(t, "simulated_iterations"), iterations);
    rt_row_set_str(r, rtable_col(t, "figure"), "simulated");
    rt_row_set_num(r, rtable_col(t, "estimate_tokens_per_s"), c->est);
    if (rtable_col(t, "memory_features") >= 0) {
        char mf[160];
        planner_mem_text(c, mf, sizeof mf);
        rt_row_set_str(r, rtable_col(t, "memory_features"), mf);
    }
    if (rtable_col(t, "critic_devices") >= 0)
        rt_row_set_int(r, rtable_col(t, "critic_devices"), pl.critic_pool >= 0 ? pl.pools[pl.critic_pool].devices : 0);
    fs_buf b;
    buf_init(&b);
    planner_run_line(P, c, iterations, &b);
    rt_row_set_str(r, rtable_col(t, "run_with"), b.s);
    buf_free(&b);

    /* the scenario as built, with the policy's run hooks (the same plugin) */
    runner_spec spec = {.scn = &s, .plugin = P->pl, .headless = true};
    runner *run = runner_open(&spec, &e);
    report rep;
    bool ran = run && runner_close(run, &rep, &e);
    bool ok = true;
    if (ran) {
        rt_metrics_fill(t, r, &rep);
        double score = P->objective == PLAN_OBJ_PER_DEVICE ? rep.throughput_per_device : rep.throughput;
        if (P->lag_col) {
            /* the off-policy price: each trained sample valued by its lag */
            double v = planner_lag_value(rep.lag_hist, rep.lag_top, P->lag_cost);
            rt_row_set_num(r, rtable_col(t, "lag_value"), v);
            rt_row_set_num(r, rtable_col(t, "effective_tokens_per_s"), rep.throughput * v);
            rt_row_set_num(r, rtable_col(t, "lag_cost"), P->lag_cost);
            if (P->objective == PLAN_OBJ_EFFECTIVE) score = rep.throughput * v;
        }
        char why[256] = "";
        if (rep.feasible && P->has_score) ok = policy_score(P->pl, &s, &rep, &score, why, sizeof why, err);
        if (ok && rep.feasible && isnan(score)) {      /* the policy marked it infeasible */
            rt_row_set_bool(r, rtable_col(t, "feasible"), false);
            rt_row_set_str(r, rtable_col(t, "reason"), why);
            rep.feasible = false;
        }
        if (P->costing) {
            /* docs/cli.md, "Cost and time": devices and nodes held for the
            ** whole step, nothing else priced */
            double step = rep.step_time_s, run_s = step * growth_steps(&s.work, P->steps);
            int dev = scn_total_devices(&s.cluster), nodes = dev / (s.cluster.devices_per_node > 0 ? s.cluster.devices_per_node : 1);
            double dev_h = 0;
            char missing[64];
            if (!device_price(P, &s, &pl, &dev_h, missing, sizeof missing)) dev_h = NAN;   /* planner_init checked the types */
            double per_h = dev_h + nodes * P->o.host_price;
            rt_row_set_int(r, rtable_col(t, "steps"), P->steps);
            rt_row_set_num(r, rtable_col(t, "time_to_steps_s"), run_s);
            rt_row_set_num(r, rtable_col(t, "device_hours_per_step"), dev * step / 3600);
            rt_row_set_num(r, rtable_col(t, "device_hours_per_run"), dev * run_s / 3600);
            /* with prices per type: the mean over the cluster's devices */
            rt_row_set_num(r, rtable_col(t, "price_per_device_hour"), P->o.nprices && dev > 0 ? dev_h / dev : P->o.price);
            rt_row_set_num(r, rtable_col(t, "price_per_node_hour"), P->o.host_price);
            if (P->o.nprices) {
                char dp[PLANNER_PRICES_MAX * 40] = "";
                size_t k = 0;
                for (int i = 0; i < P->o.nprices; i++)
                    k += (size_t)snprintf(dp + k, k < sizeof dp ? sizeof dp - k : 0, "%s%s=%g", i ? " " : "", P->o.price_key[i], P->o.price_of[i]);
                rt_row_set_str(r, rtable_col(t, "device_prices"), dp);
            }
            rt_row_set_num(r, rtable_col(t, "cost_per_step"), per_h * step / 3600);
            rt_row_set_num(r, rtable_col(t, "cost_per_run"), per_h * run_s / 3600);
            if (!P->has_score && rep.feasible && step > 0) {
                if (P->objective == PLAN_OBJ_COST) score = per_h > 0 ? 3600 / (per_h * run_s) : 0;
                if (P->objective == PLAN_OBJ_TIME) score = 3600 / run_s;
            }
        }
        rt_row_set_num(r, rtable_col(t, "score"), rep.feasible ? score : 0);
        char out[160];
        bool in = planner_within(P, &s, &rep, out, sizeof out);
        rt_row_set_bool(r, rtable_col(t, "within"), in);
        rt_row_set_str(r, rtable_col(t, "outside"), out);
        if (P->objective == PLAN_OBJ_DEVICES) rt_row_set_bool(r, rtable_col(t, "meets_target"), rep.feasible && rep.throughput >= P->target);
    } else {
        rt_row_set_bool(r, rtable_col(t, "feasible"), false);
        char *nl = strchr(e.msg, '\n');     /* the message, not the traceback */
        if (nl) *nl = 0;
        rt_row_set_str(r, rtable_col(t, "reason"), e.msg);
        char out[160];
        rt_row_set_bool(r, rtable_col(t, "within"), planner_within(P, &s, NULL, out, sizeof out));
        rt_row_set_str(r, rtable_col(t, "outside"), out);
        if (P->objective == PLAN_OBJ_DEVICES) rt_row_set_bool(r, rtable_col(t, "meets_target"), false);
    }
    runner_free(run);
    c->figure = planner_row_figure(t, r);
    return ok;
}

/* ---------------------------------------------------------------- set-up */

/* Pools of their own device type (docs/model.md, section 2): the hardware
** fixes how many devices of each type there are, so the search holds them.
** plan.rollout_device: separate mode only, the rollout pool's size held (the
** training pool takes the rest, of cluster.device); plan.pools[i].device:
** the scenario's pools are the one pool shape, its layouts searched. */
static bool hetero_axes(planner *P, fs_err *err)
{
    const scn_plan *bp = &P->base.plan;
    bool pools_own = false;
    for (int i = 0; i < bp->npools; i++) pools_own |= scn_device_set(&bp->pools[i].device);
    if (scn_device_set(&bp->rollout_device) && bp->npools == 0) {
        plan pl;
        if (!plan_build(&P->base, &pl, err)) return false;
        for (int i = 0; i < pl.npools; i++)
            if (pl.pools[i].roles & ROLE_ROLLOUT) P->fix_rollout_devices = pl.pools[i].devices;
        long sep[] = {PLANNER_SEPARATE};
        axis_set(&P->ax.modes, sep, 1);
    } else if (pools_own) {
        P->ax.modes.n = 0;
        free(P->ax.shapes);
        P->ax.shapes = xcalloc(1, sizeof *P->ax.shapes);
        P->ax.shapes[0] = *bp;
        P->ax.nshapes = 1;
        P->scale_shapes = true;
        /* the header says which sizes the pools cannot scale to */
        size_t k = strlen(P->range);
        int nbad = 0;
        const plan_axis *sz = P->base.cluster.supernodes > 1 ? &P->ax.supernodes : &P->ax.nodes_per_supernode;
        for (int i = 0; i < sz->n && k && k < sizeof P->range; i++) {
            bool super = sz == &P->ax.supernodes;
            int sn = super ? (int)sz->v[i] : P->base.cluster.supernodes;
            int nd = super ? P->base.cluster.nodes_per_supernode : (int)sz->v[i];
            scn_plan tmp;
            if (planner_shape_at(P, 0, sn, nd, &tmp)) continue;
            k += (size_t)snprintf(P->range + k, sizeof P->range - k, "%s%ld", nbad++ ? "," : "; the pools scaled with it (not at ", sz->v[i]);
        }
        if (nbad && k < sizeof P->range) snprintf(P->range + k, sizeof P->range - k, ")");
        else if (k && k < sizeof P->range) snprintf(P->range + k, sizeof P->range - k, "; the pools scaled with it");
    }
    return true;
}

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
    P->o = *po;
    P->mode_only = -1;
    /* the final rung's window: the scenario's own */
    P->iterations = P->base.work.iterations;
    P->warmup = P->base.work.warmup;
    default_axes(&P->base, &P->ax);
    if (P->objective == PLAN_OBJ_DEVICES || P->objective == PLAN_OBJ_COST)
        device_axes(&P->base, po->max_scale > 0 ? po->max_scale : PLANNER_MAX_SCALE, &P->ax, P->range, sizeof P->range);
    P->steps = po->steps > 0 ? po->steps : P->base.work.iterations;
    P->costing = po->price > 0 || po->nprices > 0 || po->host_price > 0 || po->steps > 0 || P->objective == PLAN_OBJ_COST
              || P->objective == PLAN_OBJ_TIME;
    P->lag_col = po->has_lag_cost || P->objective == PLAN_OBJ_EFFECTIVE;
    P->lag_cost = po->has_lag_cost ? po->lag_cost : PLANNER_LAG_COST;
    P->calibrated = scn_has_calibration(&P->base);
    if (!hetero_axes(P, err)) return false;
    /* prices per device type: every type of the scenario's pools priced
    ** (the search holds the types: hetero_axes) */
    P->price_dev = po->price;
    if (po->nprices > 0) {
        plan bp;
        char missing[64];
        double per_h;
        if (!plan_build(&P->base, &bp, err)) return false;
        if (!device_price(P, &P->base, &bp, &per_h, missing, sizeof missing)) {
            fs_err_set(err, 2, "--price: no price for device type %s of the scenario; give %s=PRICE", missing, missing);
            return false;
        }
        int dev = scn_total_devices(&P->base.cluster);
        P->price_dev = dev > 0 ? per_h / dev : 0;
    }
    if (pl && !policy_candidates(pl, &P->base, &P->ax, &P->plans, &P->nplans, err)) return false;
    if (!planner_constrain(P, err)) return false;
    est_lengths_of(&P->base.work, &P->len);
    return true;
}

void planner_free(planner *P)
{
    free(P->ax.shapes);
    free(P->c);
    free(P->sel);
    free(P->plans);
    memset(P, 0, sizeof *P);
}
