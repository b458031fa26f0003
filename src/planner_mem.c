/*
** planner_mem.c — the plan search's memory repair (planner.h, PLANNER_MEM_*;
** docs/cli.md, `fusync plan`, "Memory repair").  A searched layout that does
** not fit as given gets the memory features the frameworks let a user turn
** on — activation recomputation, the inference engine's sleep, the frozen
** models ZeRO-3-sharded, parameter offload, the optimizer on the host
** (docs/model.md, sections 3 and 8) — and keeps the combination that fits
** with the best closed-form estimate: each feature's time is priced there
** (recompute in the stage's backward, the sleep's and the offload's host
** copies in the switch, the frozen gathers per micro-batch, the host
** optimizer's step and its host-link traffic), so the estimate is the cost.
**
** Not a product of new search axes: a layout that fits as given is left as
** given; one whose overflow no feature can reach (the host over already, a
** rollout-only pool over, the training states left with every feature on
** over the device) costs no plan build, and one still over with every
** feature on costs one.  Between those, the combinations are tried fewest
** features first, so that a combination holding one that fits is never
** built (it can only cost more time), nor one inside a combination that
** overflows the devices (every feature only takes device memory away).
*/
#include "planner.h"
#include "planner_int.h"
#include "fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each feature's values in increasing order of time cost.  A ladder's
** later value saves at least the earlier one's device memory; the sleep's
** offload and discard free the same device memory (the weights and the KV
** cache, plan.c) and differ in time and host memory, so they are
** alternatives, neither above the other.  The optimizer's values are its
** host share in quarters (PLANNER_OPT_STEPS): Megatron's
** optimizer_offload_fraction takes any share, the device keeping 1 − f of
** the states and stepping them, the host the rest (src/plan_cost.c), so the
** device memory falls and the host step's time grows with f, and the
** smallest share that fits is the cheapest. */
#define MEM_VALS_MAX (PLANNER_OPT_STEPS + 1)
static const struct {
    const char *path, *name;
    int vals[MEM_VALS_MAX], n;
    bool alt;
} FEAT[PLANNER_MEM__N] = {
    {"plan.train.recompute", "recompute", {RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL}, 3, false},
    {"plan.rollout.sleep", "sleep", {SLEEP_NONE, SLEEP_OFFLOAD, SLEEP_DISCARD}, 3, true},
    {"plan.aux_shard", "aux_shard", {AUX_SHARD_NONE, AUX_SHARD_ZERO3}, 2, false},
    {"plan.offload.params", "offload_params", {PARAMS_RESIDENT, PARAMS_AFTER_RESHARD, PARAMS_BEFORE_RESHARD}, 3, false},
    {"plan.train.optimizer_offload", "optimizer_offload", {0, 1, 2, 3, PLANNER_OPT_STEPS}, PLANNER_OPT_STEPS + 1, false},
    /* the frozen models on the host between their passes (plan.offload.reference; docs/model.md, section 8) */
    {"plan.offload.reference", "offload_reference", {AUX_OFFLOAD_DEVICE, AUX_OFFLOAD_HOST}, 2, false},
};

const char *planner_mem_path(int f) { return f >= 0 && f < PLANNER_MEM__N ? FEAT[f].path : ""; }
const char *planner_mem_name(int f) { return f >= 0 && f < PLANNER_MEM__N ? FEAT[f].name : ""; }

static void mem_set(scn_scenario *s, int f, int v)
{
    switch (f) {
    case PLANNER_MEM_RECOMPUTE: s->plan.train.recompute = (scn_recompute)v; break;
    case PLANNER_MEM_SLEEP: s->plan.rollout.sleep = (scn_sleep)v; break;
    case PLANNER_MEM_AUX_SHARD: s->plan.aux_shard = (scn_aux_shard)v; break;
    case PLANNER_MEM_PARAMS: s->plan.offload_params = (scn_param_offload)v; break;
    case PLANNER_MEM_AUX_OFFLOAD: s->plan.offload_aux = (scn_aux_offload)v; break;
    default: s->plan.train.optimizer_offload = (double)v / PLANNER_OPT_STEPS; break;
    }
}

void planner_mem_apply(const plan_cand *c, scn_scenario *s)
{
    for (int f = 0; f < PLANNER_MEM__N; f++) if (c->mem[f]) mem_set(s, f, c->mem[f] - 1);
}

bool planner_mem_any(const plan_cand *c)
{
    for (int f = 0; f < PLANNER_MEM__N; f++) if (c->mem[f]) return true;
    return false;
}

/* A feature's value as its field writes it: an enum's name, the share. */
static const char *mem_value(int f, int v, char *buf, size_t n)
{
    if (f == PLANNER_MEM_OPTIMIZER) { snprintf(buf, n, "%g", (double)v / PLANNER_OPT_STEPS); return buf; }
    const fdesc *d = fields_lookup(FEAT[f].path);
    const char *e = d ? fields_enum_name(d, v) : NULL;
    snprintf(buf, n, "%s", e ? e : "?");
    return buf;
}

void planner_mem_text(const plan_cand *c, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int f = 0; f < PLANNER_MEM__N && k < n; f++) {
        if (!c->mem[f]) continue;
        char v[32];
        k += (size_t)snprintf(buf + k, n - k, "%s%s=%s", k ? " " : "", FEAT[f].name, mem_value(f, c->mem[f] - 1, v, sizeof v));
    }
}

void planner_mem_sets(const plan_cand *c, fs_buf *b)
{
    for (int f = 0; f < PLANNER_MEM__N; f++) {
        if (!c->mem[f]) continue;
        char v[32];
        buf_printf(b, " --set %s=%s", FEAT[f].path, mem_value(f, c->mem[f] - 1, v, sizeof v));
    }
}

/* ---------------------------------------------------------------- repair */

/* Whether every pool's device memory fits (the device half of plan.c's
** fit_check: training, the peak phase, room for a KV cache). */
static bool devices_fit(const plan *pl)
{
    for (int i = 0; i < pl->npools; i++) {
        const plan_pool *q = &pl->pools[i];
        double tsum = 0;
        for (int b = 0; b < MB__COUNT; b++) tsum += q->train_mem[b];
        if (tsum + q->outside > q->capacity || q->peak > q->capacity) return false;
        if ((q->roles & ROLE_ROLLOUT) && q->kv_bytes <= 0) return false;
    }
    return true;
}

/* Whether a feature can change anything of this layout. */
static bool feature_applies(const scn_scenario *s, const plan *pl, int f)
{
    for (int i = 0; i < pl->npools; i++) {
        const plan_pool *q = &pl->pools[i];
        bool coloc = q->colocated && (q->roles & ROLE_ROLLOUT);
        bool aux = (s->has_ref && (q->roles & ROLE_REF)) || (s->reward_is_model && (q->roles & ROLE_REWARD));
        switch (f) {
        case PLANNER_MEM_RECOMPUTE: if (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) return true; break;
        case PLANNER_MEM_SLEEP: if (coloc) return true; break;
        case PLANNER_MEM_AUX_SHARD: if (aux && !q->aux_sharded) return true; break;
        case PLANNER_MEM_PARAMS: if (coloc && (q->roles & ROLE_TRAIN)) return true; break;
        case PLANNER_MEM_AUX_OFFLOAD: if (aux && !q->swap_aux && (q->roles & (ROLE_TRAIN | ROLE_CRITIC))) return true; break;
        default: if (q->roles & ROLE_TRAIN) return true; break;
        }
    }
    return false;
}

/* The ladder position of the scenario's own value of feature f. */
static int base_pos(const scn_scenario *s, int f)
{
    int v;
    switch (f) {
    case PLANNER_MEM_RECOMPUTE: v = (int)s->plan.train.recompute; break;
    case PLANNER_MEM_SLEEP: v = (int)s->plan.rollout.sleep; break;
    case PLANNER_MEM_AUX_SHARD: return s->plan.aux_shard == AUX_SHARD_ZERO3;
    case PLANNER_MEM_PARAMS: v = (int)s->plan.offload_params; break;
    /* "auto" is the host under full co-location, the device elsewhere */
    case PLANNER_MEM_AUX_OFFLOAD:
        return s->plan.offload_aux == AUX_OFFLOAD_HOST || (s->plan.offload_aux == AUX_OFFLOAD_AUTO && s->plan.mode == MODE_FULL);
    /* the scenario's share, rounded down to a step: the values above it */
    default: return (int)floor(s->plan.train.optimizer_offload * PLANNER_OPT_STEPS + 1e-9);
    }
    for (int k = 0; k < FEAT[f].n; k++) if (FEAT[f].vals[k] == v) return k;
    return FEAT[f].n - 1;
}

/* A combination: for each feature 0 (as given) or 1 + the index of a value
** in its option list; rank = how far up the ladders it goes. */
typedef struct {
    unsigned char o[PLANNER_MEM__N];
    int rank;
    double est;
} combo;

static int cmp_rank(const void *a, const void *b)
{
    const combo *x = a, *y = b;
    if (x->rank != y->rank) return x->rank - y->rank;
    /* the same count: the cheaper features first (the costliest compared first) */
    for (int f = PLANNER_MEM__N - 1; f >= 0; f--) if (x->o[f] != y->o[f]) return x->o[f] - y->o[f];
    return 0;
}

static int cmp_est_desc(const void *a, const void *b)
{
    const combo *x = a, *y = b;
    if (x->est != y->est) return x->est < y->est ? 1 : -1;
    return cmp_rank(a, b);
}

typedef struct {
    int n[PLANNER_MEM__N];              /* options of each feature */
    int val[PLANNER_MEM__N][MEM_VALS_MAX];  /* their field values */
} options;

/* a holds b: every feature of b is on in a, at least as far up its ladder
** (an alternative: the same value) */
static bool holds(const combo *a, const combo *b)
{
    for (int f = 0; f < PLANNER_MEM__N; f++) {
        if (!b->o[f]) continue;
        if (FEAT[f].alt ? a->o[f] != b->o[f] : a->o[f] < b->o[f]) return false;
    }
    return true;
}

static void combo_apply(const options *op, const combo *k, const scn_scenario *base, scn_scenario *out)
{
    *out = *base;
    for (int f = 0; f < PLANNER_MEM__N; f++) if (k->o[f]) mem_set(out, f, op->val[f][k->o[f] - 1]);
}

bool planner_mem_repair(planner *P, plan_cand *c, scn_scenario *s, plan *pl)
{
    /* a host that overflows already is not helped: the features move bytes
    ** to the host or leave it as it is; a rollout-only pool over its
    ** memory neither (its weights and KV cache are the engine's) */
    if (s->cluster.host_mem_bytes > 0) {
        for (int i = 0; i < pl->npools; i++) if (pl->pools[i].host_mem_per_node > s->cluster.host_mem_bytes) return false;
        if (pl->host.bytes > s->cluster.host_mem_bytes) return false;   /* a node its pools overfill together */
    }
    options op;
    int total = 1;
    for (int f = 0; f < PLANNER_MEM__N; f++) {
        op.n[f] = 0;
        unsigned offer = planner_mem_offered(P, f);
        if (!offer || !feature_applies(s, pl, f)) continue;
        for (int k = base_pos(s, f) + 1; k < FEAT[f].n; k++)
            if (offer & (1u << FEAT[f].vals[k])) op.val[f][op.n[f]++] = FEAT[f].vals[k];
        total *= op.n[f] + 1;
    }
    if (total <= 1) return false;
    bool reach = false;
    for (int i = 0; i < pl->npools; i++) {
        const plan_pool *q = &pl->pools[i];
        const double *tm = q->train_mem;
        double tsum = 0;
        for (int b = 0; b < MB__COUNT; b++) tsum += tm[b];
        bool over = tsum + q->outside > q->capacity || q->peak > q->capacity
                 || ((q->roles & ROLE_ROLLOUT) && q->kv_bytes <= 0);
        if (!over) continue;
        if (!(q->roles & (ROLE_TRAIN | ROLE_CRITIC | ROLE_REF | ROLE_REWARD)) && !q->colocated) return false;
        /* what training holds with every feature on, at the least: each
        ** feature takes at most its buckets away (the optimizer's; half the
        ** weights, the FP32 master's share under ZeRO-3; the activations;
        ** the awake engine's weights and KV cache; the frozen models'), and
        ** nothing takes the gradients or the critic; over the device, no
        ** combination fits, and no plan is built to find it out */
        int no = op.n[PLANNER_MEM_OPTIMIZER];
        double fo = no ? (double)op.val[PLANNER_MEM_OPTIMIZER][no - 1] / PLANNER_OPT_STEPS : 0;
        double least = tm[MB_GRADS] + tm[MB_CRITIC] + tm[MB_RESHARD] + tm[MB_WEIGHTS] * (1 - fo / 2)
                     + tm[MB_OPTIMIZER] * (1 - fo) + (op.n[PLANNER_MEM_RECOMPUTE] ? 0 : tm[MB_ACTIVATIONS])
                     + (op.n[PLANNER_MEM_SLEEP] ? 0 : tm[MB_ROLLOUT_WEIGHTS] + tm[MB_KV_CACHE])
                     + (op.n[PLANNER_MEM_AUX_SHARD] || op.n[PLANNER_MEM_AUX_OFFLOAD] ? 0 : tm[MB_REF_WEIGHTS] + tm[MB_REWARD_WEIGHTS]);
        if (least > q->capacity) return false;
        reach = true;
    }
    if (!reach) return false;
    combo *all = xmalloc((size_t)total * sizeof *all);
    for (int i = 0; i < total; i++) {
        int r = i;
        all[i].rank = 0;
        for (int f = 0; f < PLANNER_MEM__N; f++) {
            all[i].o[f] = (unsigned char)(r % (op.n[f] + 1));
            r /= op.n[f] + 1;
            all[i].rank += FEAT[f].alt ? all[i].o[f] > 0 : all[i].o[f];
        }
        all[i].est = 0;
    }
    qsort(all, (size_t)total, sizeof *all, cmp_rank);
    scn_scenario *t = xmalloc(sizeof *t);
    plan *tp = xmalloc(sizeof *tp);
    fs_err err = {0, ""};
    /* every feature at its last value: when the devices still overflow,
    ** nothing less fits (the sleep's alternatives free the same device
    ** memory) */
    combo top = all[total - 1];
    for (int f = 0; f < PLANNER_MEM__N; f++) top.o[f] = (unsigned char)op.n[f];
    combo_apply(&op, &top, s, t);
    bool ok = plan_build(t, tp, &err) && devices_fit(tp);
    /* the minimal combinations that fit, and those whose devices overflow */
    combo *fit = xmalloc((size_t)total * sizeof *fit), *over = xmalloc((size_t)total * sizeof *over);
    int nfit = 0, nover = 0;
    for (int i = 1; i < total && ok; i++) {      /* all[0]: the layout as given */
        const combo *k = &all[i];
        bool skip = false;
        for (int j = 0; j < nfit && !skip; j++) skip = holds(k, &fit[j]);
        for (int j = 0; j < nover && !skip; j++) skip = holds(&over[j], k);
        if (skip) continue;
        combo_apply(&op, k, s, t);
        if (!plan_build(t, tp, &err)) continue;
        if (tp->fits) {
            fit[nfit] = *k;
            fit[nfit++].est = est_throughput(&P->len, t, tp);
        } else if (!devices_fit(tp)) over[nover++] = *k;
    }
    /* the best estimate the framework's rules (if any) admit */
    qsort(fit, (size_t)nfit, sizeof *fit, cmp_est_desc);
    bool done = false;
    for (int j = 0; j < nfit && !done; j++) {
        combo_apply(&op, &fit[j], s, t);
        char why[256];
        if (P->o.admit && !P->o.admit(t, P->o.admit_ud, why, sizeof why)) continue;
        if (!scn_validate(t, &err) || !plan_build(t, tp, &err)) continue;
        for (int f = 0; f < PLANNER_MEM__N; f++)
            c->mem[f] = (unsigned char)(fit[j].o[f] ? 1 + op.val[f][fit[j].o[f] - 1] : 0);
        *s = *t;
        *pl = *tp;
        done = true;
    }
    free(all);
    free(fit);
    free(over);
    free(t);
    free(tp);
    return done;
}
