/*
** planner_limits.c — the constraints of a plan search (planner.h,
** planner_opts: --mode, --staleness, --partial-rollout, --fix, --framework,
** --max-lag): the axes narrowed before enumeration, the header's "searched"
** text, and whether a simulated row is within them (docs/cli.md, `fusync
** plan`, "Constraints").
*/
#include "planner.h"
#include "planner_int.h"
#include "fields.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- constraints */

/* The fields the search sets, each with the axis it is (NULL: set apart). */
static const struct { const char *path; size_t off; int scale; } SEARCHED[] = {
    {"plan.train.tp", offsetof(plan_axes, train_tp), 1},
    {"plan.train.pp", offsetof(plan_axes, train_pp), 1},
    {"plan.train.ep", offsetof(plan_axes, train_ep), 1},
    {"plan.train.micro_batch", offsetof(plan_axes, micro_batch), 1},
    {"plan.train.cp", offsetof(plan_axes, train_cp), 1},
    {"plan.rollout.tp", offsetof(plan_axes, rollout_tp), 1},
    {"plan.rollout.ep", offsetof(plan_axes, rollout_ep), 1},
    {"plan.rollout.max_seqs", offsetof(plan_axes, max_seqs), 1},
    {"plan.staleness", offsetof(plan_axes, staleness), 1},
    {"plan.partial_rollout", offsetof(plan_axes, partial_pct), 100},
    {"cluster.supernodes", offsetof(plan_axes, supernodes), 1},
    {"cluster.nodes_per_supernode", offsetof(plan_axes, nodes_per_supernode), 1},
    {"plan.train.etp", offsetof(plan_axes, train_etp), 1},     /* after the cluster: admit_narrow numbers them */
};
#define NSEARCHED (sizeof SEARCHED / sizeof SEARCHED[0])
/* set apart: the mode, the dispatch, the pool split; the pools and the
** training DP the search derives */
static const char *const SEARCHED_OTHER[] = {"plan.mode", "plan.rollout.dispatch", "plan.rollout_devices",
                                             "plan.aux_devices", "plan.pools", "plan.train.dp", NULL};

/* The path of a PATH=VALUE (its length), "plan.pools.1.devices" counted as
** under "plan.pools". */
bool planner_path_is(const char *pv, const char *path)
{
    size_t n = strlen(path);
    return !strncmp(pv, path, n) && (pv[n] == '=' || pv[n] == 0 || pv[n] == '.');
}

bool planner_searches(const char *path)
{
    for (size_t i = 0; i < NSEARCHED; i++) if (planner_path_is(path, SEARCHED[i].path)) return true;
    for (int i = 0; SEARCHED_OTHER[i]; i++) if (planner_path_is(path, SEARCHED_OTHER[i])) return true;
    return false;
}

bool planner_fix_ok(const char *pv, fs_err *err)
{
    const char *eq = strchr(pv, '=');
    if (!eq || eq == pv) { fs_err_set(err, 2, "--fix: '%s' is not PATH=VALUE", pv); return false; }
    if (planner_path_is(pv, "plan.pools") || planner_path_is(pv, "plan.train.dp")) {
        fs_err_set(err, 2, "--fix %s: the search derives %s from the layout; hold the pools with a policy's "
                   "candidates() (pools = {...}, docs/plugins.md)", pv, planner_path_is(pv, "plan.pools") ? "the pools" : "plan.train.dp");
        return false;
    }
    const char *v = eq + 1;
    char *end;
    double d = strtod(v, &end);
    bool num = end != v && *end == 0 && isfinite(d);
    for (size_t k = 0; k < NSEARCHED; k++) {
        if (!planner_path_is(pv, SEARCHED[k].path) || pv[strlen(SEARCHED[k].path)] != '=') continue;
        double x = d * SEARCHED[k].scale;
        if (!num || fabs(x - (double)lround(x)) > 1e-6 || x < (SEARCHED[k].scale == 1 && k != 8 ? 1 : 0) || x > 1e7
            || (SEARCHED[k].scale != 1 && (x <= 0 || x > 100))) {
            fs_err_set(err, 2, "--fix %s: '%s' is not %s", pv, v, SEARCHED[k].scale == 1 ? "a whole number" : "a threshold in (0, 1] in hundredths");
            return false;
        }
    }
    return true;
}

/* The planner modes whose plans have scn_mode m. */
static bool mode_has(int planner_mode, int m)
{
    switch (planner_mode) {
    case PLANNER_SEPARATE: case PLANNER_SPREAD: return m == MODE_SEPARATE;
    case PLANNER_COLOCATE: case PLANNER_HYBRID: return m == MODE_COLOCATE;
    case PLANNER_FULL: return m == MODE_FULL;
    }
    return false;
}

static void axis_keep(plan_axis *a, long lo, long hi)
{
    int w = 0;
    for (int i = 0; i < a->n; i++) if (a->v[i] >= lo && a->v[i] <= hi) a->v[w++] = a->v[i];
    a->n = w;
}

static void searched_add(planner *P, const char *fmt, const char *a)
{
    size_t k = strlen(P->searched);
    snprintf(P->searched + k, sizeof P->searched - k, fmt, k ? ", " : "", a);
}

static long searched_value(const scn_scenario *s, int k);

/* SEARCHED[k] of a scenario set to v, in the axis' units (searched_value's inverse). */
static void searched_set(scn_scenario *s, int k, long v)
{
    scn_plan *p = &s->plan;
    switch (k) {
    case 0: p->train.tp = (int)v; break;
    case 1: p->train.pp = (int)v; break;
    case 2: p->train.ep = (int)v; break;
    case 3: p->train.micro_batch = (int)v; break;
    case 4: p->train.cp = (int)v; break;
    case 5: p->rollout.tp = (int)v; break;
    case 6: p->rollout.ep = (int)v; break;
    case 7: p->rollout.max_seqs = (int)v; break;
    case 8: p->staleness = (int)v; break;
    case 9: p->partial_rollout = (double)v / 100.0; break;
    case 10: s->cluster.supernodes = (int)v; break;
    case 12: p->train.etp = (int)v; break;
    default: s->cluster.nodes_per_supernode = (int)v; break;
    }
}

static scn_mode mode_scn(int planner_mode)
{
    return planner_mode == PLANNER_SEPARATE || planner_mode == PLANNER_SPREAD ? MODE_SEPARATE
         : planner_mode == PLANNER_FULL ? MODE_FULL : MODE_COLOCATE;
}

/* plan --framework: drop the modes and the axis values the framework's
** rules refuse on their own.  Each is tried on a probe: the base scenario
** with every searched axis at its smallest value (the cluster at the
** base's size where searched), synchronous, in the first mode admitted, and
** that one value changed.  A combination refused only together is kept out
** of the ranking by within().  False (err) when the probe itself is refused:
** the framework cannot run the scenario at all. */
static bool admit_narrow(planner *P, fs_err *err)
{
    const planner_opts *o = &P->o;
    plan_axes *ax = &P->ax;
    char why[256], first[256] = "";
    scn_scenario *t = xmalloc(sizeof *t), *probe = xmalloc(sizeof *probe);
    *probe = P->base;
    probe->plan.npools = 0;
    for (size_t k = 0; k < NSEARCHED; k++) {
        const plan_axis *a = (const plan_axis *)((const char *)ax + SEARCHED[k].off);
        if (a->n == 0) continue;
        long have = searched_value(&P->base, (int)k), lo = a->v[0];
        bool in = false;
        for (int i = 0; i < a->n; i++) { if (a->v[i] < lo) lo = a->v[i]; in |= a->v[i] == have; }
        if (k >= 10 && k <= 11 && in) continue; /* the cluster: the base's own */
        searched_set(probe, (int)k, k == 8 ? 0 : k == 9 ? 100 : lo);
    }
    int w = 0;
    bool crit_first = false;        /* the first mode admitted only with the critic's own pool */
    for (int i = 0; i < ax->modes.n; i++) {
        *t = *probe;
        t->plan.mode = mode_scn((int)ax->modes.v[i]);
        bool ok = o->admit(t, o->admit_ud, why, sizeof why);
        /* separate mode with the critic's own pool (OpenRLHF's critic
        ** group): a half of the devices generating, a quarter each training
        ** the actor and the critic */
        int tot = scn_total_devices(&t->cluster);
        if (!ok && ax->modes.v[i] == PLANNER_SEPARATE && planner_critic_offered(P) && tot >= 4) {
            planner_critic_pools(t, tot / 2, tot / 4);
            ok = o->admit(t, o->admit_ud, why, sizeof why);
            if (ok && w == 0) crit_first = true;
        }
        if (!ok && !first[0]) snprintf(first, sizeof first, "%s", why);
        if (ok) ax->modes.v[w++] = ax->modes.v[i];
    }
    ax->modes.n = w;
    int ws = 0;
    for (int i = 0; i < ax->nshapes; i++) {
        *t = *probe;
        t->plan = ax->shapes[i];
        if (o->admit(t, o->admit_ud, why, sizeof why)) ax->shapes[ws++] = ax->shapes[i];
    }
    ax->nshapes = ws;
    if (w == 0 && ws == 0) {
        fs_err_set(err, 2, "plan --framework %s: it cannot run the scenario in any mode searched (a field the search does not set; change it with --set): %s", o->admit_name, first);
        free(t);
        free(probe);
        return false;
    }
    probe->plan.mode = w ? mode_scn((int)ax->modes.v[0]) : ax->shapes[0].mode;
    if (crit_first) {
        int tot = scn_total_devices(&probe->cluster);
        planner_critic_pools(probe, tot / 2, tot / 4);
    }
    for (size_t k = 0; k < NSEARCHED; k++) {
        plan_axis *a = (plan_axis *)((char *)ax + SEARCHED[k].off);
        int n = 0;
        for (int i = 0; i < a->n; i++) {
            *t = *probe;
            searched_set(t, (int)k, a->v[i]);
            bool ok = o->admit(t, o->admit_ud, why, sizeof why);
            if (!ok && !first[0]) snprintf(first, sizeof first, "%s", why);
            if (ok) a->v[n++] = a->v[i];
        }
        a->n = n;
    }
    free(t);
    free(probe);
    searched_add(P, "%sonly what %s runs (fusync export's rules)", o->admit_name);
    return true;
}

/* Narrow the axes to the constraints (planner_opts) and say what is
** searched.  An axis left empty is an error naming the constraint. */
bool planner_constrain(planner *P, fs_err *err)
{
    const planner_opts *o = &P->o;
    plan_axes *ax = &P->ax;
    int mode_only = o->has_mode ? o->mode_only : -1;
    char what[160];
    for (int i = 0; i < o->nfixes; i++) {
        const char *pv = o->fixes[i], *eq = strchr(pv, '=');
        if (!planner_fix_ok(pv, err)) return false;
        const char *v = eq + 1;
        char *end;
        double d = strtod(v, &end);
        bool num = end != v && *end == 0 && isfinite(d);
        bool done = false;
        for (size_t k = 0; k < NSEARCHED && !done; k++) {
            if (!planner_path_is(pv, SEARCHED[k].path) || pv[strlen(SEARCHED[k].path)] != '=') continue;
            long iv = lround(d * SEARCHED[k].scale);
            if (!num || fabs(d * SEARCHED[k].scale - (double)iv) > 1e-6 || iv < 0) {
                fs_err_set(err, 2, "--fix %s: '%s' is not a %s", pv, v, SEARCHED[k].scale == 1 ? "whole number" : "number in (0, 1] in hundredths");
                return false;
            }
            plan_axis *a = (plan_axis *)((char *)ax + SEARCHED[k].off);
            a->n = 1;
            a->v[0] = iv;
            /* a partial rollout is a staleness bound's: staleness 0 runs whole */
            if (a == &ax->partial_pct && iv < 100) axis_keep(&ax->staleness, 1, SCN_STALENESS_MAX);
            done = true;
        }
        if (!done && planner_path_is(pv, "plan.mode") && pv[9] == '=') {
            scn_mode m;
            if (!scn_mode_parse(v, &m)) { fs_err_set(err, 2, "--fix %s: '%s' is not one of separate, colocate, full", pv, v); return false; }
            if (mode_only >= 0 && mode_only != (int)m) {
                fs_err_set(err, 2, "--fix %s contradicts --mode %s", pv, scn_mode_name((scn_mode)mode_only));
                return false;
            }
            mode_only = (int)m;
            done = true;
        }
        if (!done && planner_path_is(pv, "plan.rollout.dispatch") && pv[21] == '=') {
            const fdesc *f = fields_lookup("plan.rollout.dispatch");
            int e = f ? fields_enum_value(f, v) : -1;
            if (e < 0) { fs_err_set(err, 2, "--fix %s: not a value of plan.rollout.dispatch (fusync fields plan.rollout)", pv); return false; }
            ax->dispatch.n = 1;
            ax->dispatch.v[0] = e;
            done = true;
        }
        bool rd = planner_path_is(pv, "plan.rollout_devices") && pv[20] == '=', ad = planner_path_is(pv, "plan.aux_devices") && pv[16] == '=';
        if (!done && (rd || ad)) {
            if (!num || d < 1 || d != floor(d) || d > 1e6) { fs_err_set(err, 2, "--fix %s: '%s' is not a whole number of devices", pv, v); return false; }
            if (rd) P->fix_rollout_devices = (int)d;
            else P->fix_aux_devices = (int)d;
            done = true;
        }
        if (!done && (planner_path_is(pv, "plan.pools") || planner_path_is(pv, "plan.train.dp"))) {
            fs_err_set(err, 2, "--fix %s: the search derives %s from the layout; hold the pools with a policy's "
                       "candidates() (pools = {...}, docs/plugins.md)", pv, planner_path_is(pv, "plan.pools") ? "the pools" : "plan.train.dp");
            return false;
        }
        /* any other field: the caller applied it to the scenario, which the
        ** search never changes */
        if (!done) searched_add(P, "%s%s", pv);
    }
    if (o->has_stale_max) axis_keep(&ax->staleness, 0, o->stale_max);
    if (o->partial_min_pct > 0) axis_keep(&ax->partial_pct, o->partial_min_pct, 100);
    if (mode_only >= 0) {
        int w = 0;
        for (int i = 0; i < ax->modes.n; i++) if (mode_has((int)ax->modes.v[i], mode_only)) ax->modes.v[w++] = ax->modes.v[i];
        ax->modes.n = w;
        int ws = 0;
        for (int i = 0; i < ax->nshapes; i++) if ((int)ax->shapes[i].mode == mode_only) ax->shapes[ws++] = ax->shapes[i];
        ax->nshapes = ws;
    }
    P->mode_only = mode_only;
    if (o->admit && !admit_narrow(P, err)) return false;
    /* the header: what was searched, axis by axis where narrowed */
    if (mode_only >= 0) {
        size_t k = 0;
        what[0] = 0;
        for (int i = 0; i < ax->modes.n; i++)
            k += (size_t)snprintf(what + k, k < sizeof what ? sizeof what - k : 0, "%s%s", i ? "/" : "", planner_mode_name((int)ax->modes.v[i]));
        if (ax->nshapes) snprintf(what + k, k < sizeof what ? sizeof what - k : 0, "%s%d pool shapes", k ? "/" : "", ax->nshapes);
        searched_add(P, "%smodes %s", what);
    }
    plan_axis *show[] = {&ax->staleness, &ax->partial_pct};
    const char *sname[] = {"staleness", "partial rollout"};
    bool sync_only = ax->staleness.n == 1 && ax->staleness.v[0] == 0;
    for (int j = 0; j < (sync_only ? 1 : 2); j++) {
        size_t k = 0;
        what[0] = 0;
        for (int i = 0; i < show[j]->n; i++)
            k += (size_t)(j ? snprintf(what + k, k < sizeof what ? sizeof what - k : 0, "%s%g", i ? "," : "", show[j]->v[i] / 100.0)
                            : snprintf(what + k, k < sizeof what ? sizeof what - k : 0, "%s%ld", i ? "," : "", show[j]->v[i]));
        char w2[200];
        snprintf(w2, sizeof w2, "%s {%s}", sname[j], what);
        searched_add(P, "%s%s", w2);
    }
    for (size_t k = 0; k < NSEARCHED; k++) {
        const plan_axis *a = (const plan_axis *)((const char *)ax + SEARCHED[k].off);
        if (a->n != 1 || a == &ax->staleness || a == &ax->partial_pct) continue;
        bool fixed = false;
        for (int i = 0; i < o->nfixes; i++) fixed |= planner_path_is(o->fixes[i], SEARCHED[k].path);
        if (!fixed) continue;
        snprintf(what, sizeof what, "%s=%ld", SEARCHED[k].path, a->v[0]);
        searched_add(P, "%s%s held", what);
    }
    for (int i = 0; i < o->nfixes; i++)
        if (planner_path_is(o->fixes[i], "plan.rollout.dispatch") || planner_path_is(o->fixes[i], "plan.mode")) searched_add(P, "%s%s held", o->fixes[i]);
    if (P->fix_rollout_devices) { snprintf(what, sizeof what, "plan.rollout_devices=%d", P->fix_rollout_devices); searched_add(P, "%s%s held", what); }
    if (P->fix_aux_devices) { snprintf(what, sizeof what, "plan.aux_devices=%d", P->fix_aux_devices); searched_add(P, "%s%s held", what); }
    if (o->has_max_lag) { snprintf(what, sizeof what, "%g", o->max_lag); searched_add(P, "%smax lag %s", what); }
    const char *empty = ax->staleness.n == 0 ? "staleness" : ax->partial_pct.n == 0 ? "partial rollout"
                      : ax->modes.n + ax->nshapes == 0 ? "modes" : NULL;
    for (size_t k = 0; k < NSEARCHED && !empty; k++) {
        const plan_axis *a = (const plan_axis *)((const char *)ax + SEARCHED[k].off);
        if (a->n == 0) empty = SEARCHED[k].path;
    }
    if (empty) {
        fs_err_set(err, 2, "plan: the constraints leave no value of %s to search (searched: %s)", empty, P->searched);
        return false;
    }
    return true;
}

/* The value of SEARCHED[k] in a scenario, in the axis' units. */
static long searched_value(const scn_scenario *s, int k)
{
    const scn_plan *p = &s->plan;
    switch (k) {
    case 0: return p->train.tp;
    case 1: return p->train.pp;
    case 2: return p->train.ep;
    case 3: return p->train.micro_batch;
    case 4: return p->train.cp > 0 ? p->train.cp : 1;
    case 5: return p->rollout.tp;
    case 6: return p->rollout.ep;
    case 7: return p->rollout.max_seqs;
    case 8: return p->staleness;
    case 9: return lround(p->partial_rollout * 100);
    case 10: return s->cluster.supernodes;
    case 12: return p->train.etp;
    default: return s->cluster.nodes_per_supernode;
    }
}

/* Whether a simulated scenario is within the constraints; else why not. */
bool planner_within(const planner *P, const scn_scenario *s, const report *rep, char *why, size_t n)
{
    const planner_opts *o = &P->o;
    why[0] = 0;
    if (P->mode_only >= 0 && (int)s->plan.mode != P->mode_only)
        snprintf(why, n, "mode %s, not %s", scn_mode_name(s->plan.mode), scn_mode_name((scn_mode)P->mode_only));
    else if (o->has_stale_max && s->plan.staleness > o->stale_max)
        snprintf(why, n, "staleness %d > %d", s->plan.staleness, o->stale_max);
    else if (o->partial_min_pct > 0 && s->plan.staleness > 0 && s->plan.partial_rollout * 100 < o->partial_min_pct - 1e-6)
        snprintf(why, n, "partial rollout %g < %g", s->plan.partial_rollout, o->partial_min_pct / 100.0);
    else if (rep && o->has_max_lag && rep->lag_max > o->max_lag)
        snprintf(why, n, "lag %d > %g", rep->lag_max, o->max_lag);
    else if (o->admit) {
        char fw[256];
        if (!o->admit(s, o->admit_ud, fw, sizeof fw)) snprintf(why, n, "%s cannot run it: %s", o->admit_name, fw);
    }
    if (why[0]) return false;
    {
        for (size_t k = 0; k < NSEARCHED && !why[0]; k++) {
            bool fixed = false;
            for (int i = 0; i < o->nfixes; i++) fixed |= planner_path_is(o->fixes[i], SEARCHED[k].path) && o->fixes[i][strlen(SEARCHED[k].path)] == '=';
            const plan_axis *a = (const plan_axis *)((const char *)&P->ax + SEARCHED[k].off);
            if (!fixed || a->n != 1) continue;
            long have = searched_value(s, (int)k);
            if (have != a->v[0]) snprintf(why, n, "%s %ld, held at %ld", SEARCHED[k].path, have, a->v[0]);
        }
    }
    return why[0] == 0;
}

/* ---------------------------------------------------------------- memory features */

#define B(v) (1u << (v))
/* the optimizer's shares (PLANNER_OPT_STEPS): all of it, or a fraction */
#define OPT_ALL B(PLANNER_OPT_STEPS)
#define OPT_SHARES (B(1) | B(2) | B(3))
/* What each framework lets a user choose of the memory features the search
** may turn on (docs/frameworks.md, "Export: the reverse mapping"; the keys
** src/import_export.c writes), a bit (1u << value) per value of the field:
**   verl      recompute: FSDP enable_gradient_checkpointing (full), Megatron
**             recompute_granularity (selective, full); sleep: free_cache_engine
**             (false: none, true: discard) and layered_summon (offload);
**             actor param_offload (before the reshard); optimizer: FSDP2
**             offload_policy (all), Megatron optimizer_cpu_offload with
**             optimizer_offload_fraction (a share: verl b178a3c,
**             docs/perf/best_practices.rst, the 96 GB Megatron GRPO scripts);
**   openrlhf  gradient_checkpointing_enable (full); vllm.enable_sleep (its
**             engines sleep at level 1: offload); ds.adam_offload (all);
**   nemo-rl   activation_checkpointing (DTensor: full; Megatron with
**             recompute_granularity: selective, full); dtensor_cfg.cpu_offload
**             (all), Megatron optimizer_cpu_offload with
**             optimizer_offload_fraction (a share: nemo_rl/models/policy/
**             __init__.py, MegatronConfig).  Co-located NeMo RL always
**             sleeps at level 1 and offloads the parameters after the refit:
**             no key chooses either, so the search never changes them.
** offload_reference: verl ref.fsdp_config / ref.megatron param_offload,
**             OpenRLHF --ref.offload (the frozen models to the host between
**             their passes); NeMo RL keeps its reference on the host with no
**             key, so the search never changes it.
** None has a key for the frozen models' sharding: verl, OpenRLHF and NeMo RL
** hold the reference as the actor is held (plan.aux_shard = "auto").  The
** backend a value needs (selective recompute under Megatron) is the
** exporter's to check: a repair the framework's rules refuse is not kept
** (planner_mem_repair asks admit).  A share of the optimizer is offered
** only where the backend takes one (planner_mem_offered): a share refused
** by the rules would keep the ladder from reaching the whole optimizer,
** which a share that fits rules out.
**
** critic_pool: whether the critic can train on devices of its own
** (planner_critic_offered): OpenRLHF's --critic.num_nodes and
** --critic.num_gpus_per_node place a critic group of its own, with the
** reward model (--train.colocate_critic_reward) and the reference beside
** the actor (--train.colocate_actor_ref) (openrlhf/cli/train_ppo_ray.py,
** v0.11.0); verl's main_ppo maps Role.Critic to the one "global_pool" of
** every role (verl/trainer/main_ppo.py, b178a3c); NeMo RL's GRPO has no
** critic. */
static const struct { const char *name; unsigned offers[PLANNER_MEM__N]; bool critic_pool; } MEM_OFFERS[] = {
    {"verl", {B(RECOMPUTE_SELECTIVE) | B(RECOMPUTE_FULL), B(SLEEP_NONE) | B(SLEEP_OFFLOAD) | B(SLEEP_DISCARD), 0,
              B(PARAMS_BEFORE_RESHARD), OPT_ALL | OPT_SHARES, B(AUX_OFFLOAD_HOST)}, false},
    {"openrlhf", {B(RECOMPUTE_FULL), B(SLEEP_NONE) | B(SLEEP_OFFLOAD), 0, 0, OPT_ALL, B(AUX_OFFLOAD_HOST)}, true},
    {"nemo-rl", {B(RECOMPUTE_SELECTIVE) | B(RECOMPUTE_FULL), 0, 0, 0, OPT_ALL | OPT_SHARES, 0}, false},
    {"nemorl", {B(RECOMPUTE_SELECTIVE) | B(RECOMPUTE_FULL), 0, 0, 0, OPT_ALL | OPT_SHARES, 0}, false},
};

/* The framework's row of MEM_OFFERS, -1: no --framework, or one the
** planner does not know by name (every value, the rules judge). */
static int offers_row(const planner *P)
{
    const planner_opts *o = &P->o;
    if (!o->admit || !o->admit_name) return -1;
    for (size_t k = 0; k < sizeof MEM_OFFERS / sizeof MEM_OFFERS[0]; k++)
        if (!strcmp(o->admit_name, MEM_OFFERS[k].name)) return (int)k;
    return -1;
}

unsigned planner_mem_offered(const planner *P, int f)
{
    const planner_opts *o = &P->o;
    const char *path = planner_mem_path(f);
    /* the user's own value of the field is held */
    for (int i = 0; i < o->nsets; i++) if (planner_path_is(o->sets[i], path)) return 0;
    for (int i = 0; i < o->nfixes; i++) if (planner_path_is(o->fixes[i], path)) return 0;
    int k = offers_row(P);
    unsigned offer = k >= 0 ? MEM_OFFERS[k].offers[f] : ~0u;
    /* a share below 1: Megatron's distributed optimizer (ZeRO-1 here, as
    ** the exporters write plan.train.zero 0 or 1 for Megatron); DeepSpeed's
    ** ZeRO-Offload and FSDP2's CPUOffloadPolicy hold all of the optimizer
    ** on the host or none of it */
    if (f == PLANNER_MEM_OPTIMIZER && P->base.plan.train.zero != 1) offer &= ~OPT_SHARES;
    return offer;
}

bool planner_critic_offered(const planner *P)
{
    if (!P->base.has_critic) return false;
    int k = offers_row(P);
    return k < 0 || MEM_OFFERS[k].critic_pool;
}
#undef OPT_ALL
#undef OPT_SHARES
#undef B
