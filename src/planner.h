/*
** planner.h — the search of `fusync plan` as a C API: enumerate deployment
** modes, pool splits, training and rollout layouts, staleness bounds,
** partial-rollout thresholds and dispatch within the scenario's devices;
** prune what does not fit; estimate the rest; simulate the most promising by
** successive halving; rank the rows.  cli_plan.c is the command around it.
**
** Stages, cheapest first (docs/cli.md, `fusync plan`):
**   1. every layout is built analytically (plan_build): one that does not
**      divide its pool or does not fit in memory is pruned with all its
**      variants (staleness, partial rollout, dispatch);
**   2. the variants of the rest get a closed-form estimate of throughput
**      from the engine's own cost formulas (estimate.h) — microseconds each;
**   3. the best layouts by estimate (each mode's and cluster size's best
**      first, the scenario's own plan always) are simulated with every
**      variant over a short window; the best quarter of each staleness bound
**      is simulated again over a longer one, and so on; the finalists run the
**      scenario's whole iteration count (successive halving: Jamieson and
**      Talwalkar, "Non-stochastic best arm identification and
**      hyperparameter optimization", AISTATS 2016).  Only simulated figures
**      rank; a plan that runs out of memory in simulation is infeasible.
** The rungs' candidates are the work shared out by --jobs; with --shard every
** shard runs the whole search (each rung depends on all of the one before)
** and writes its share of the rows, so all agree on what is simulated.
*/
#ifndef FUSYNC_PLANNER_H
#define FUSYNC_PLANNER_H

#include <stdbool.h>
#include <stdio.h>
#include "estimate.h"
#include "plan.h"
#include "plan_axes.h"
#include "plugin.h"
#include "rtable.h"
#include "scenario.h"

/* The search modes (PLANNER_*) and axes are plan_axes.h's. */
const char *planner_mode_name(int mode);

/* cost and time rank by the reciprocal of the cost of a run of `steps` steps
** and of its time, so that a higher score is better for every objective;
** effective by throughput times the mean value of a trained sample
** (planner_lag_value) */
typedef enum { PLAN_OBJ_THROUGHPUT, PLAN_OBJ_PER_DEVICE, PLAN_OBJ_DEVICES, PLAN_OBJ_COST, PLAN_OBJ_TIME,
               PLAN_OBJ_EFFECTIVE } plan_objective;

/* The value of a sample trained `lag` versions after the policy that
** generated it, against an on-policy one: w(lag) = 1 / (1 + c·lag), the
** share of an importance-weighted sample that counts, by Kong's effective
** sample size n / (1 + Var ρ) (Kong, Liu and Wong, JASA 1994; Owen, "Monte
** Carlo theory, methods and examples", 2013, section 9.3), with the
** importance weight ρ = π_now / π_behaviour's variance taken to grow by c
** with each policy update between them.  The default c = ε² = 0.04: PPO's
** clipped ratio stays in [1 − ε, 1 + ε] with ε = 0.2 (Schulman et al.,
** arXiv 1707.06347; verl's and AReaL's clip_ratio default), and a ratio
** bounded so has a variance of at most ε² — one update's worth.  An
** assumption, not a measurement: decoupled PPO (AReaL, arXiv 2505.24298)
** and online DPO (arXiv 2410.18252) tolerate lag better, and --lag-cost
** sets c (docs/cli.md, `fusync plan`, "Off-policy price"). */
#define PLANNER_LAG_COST 0.04
/* The mean of w(lag) over the samples of a lag histogram (hist[0..top]:
** samples trained at lag k); 1 when it has none. */
double planner_lag_value(const int64_t *hist, int top, double c);

/* --objective devices and cost search cluster sizes in the cluster's own
** unit (supernodes where it has more than one, else nodes): powers of two
** from one unit up to max_scale times the scenario's size, and its own. */
#define PLANNER_MAX_SCALE 8
/* device types --price can name */
#define PLANNER_PRICES_MAX 8

/* The memory features the search turns on where a layout does not fit as
** given (docs/cli.md, `fusync plan`, "Memory repair"), in increasing order
** of their time cost: activation recomputation, the inference engine's
** sleep, the frozen models ZeRO-3-sharded, the actor's parameters on the
** host during rollout, the optimizer on the host (docs/model.md, sections 3
** and 8).  plan_cand.mem[f] is 0 where the feature is as the scenario has
** it, else 1 + the C value of its field set (the optimizer: 1 + its host
** share in steps of 1/PLANNER_OPT_STEPS, 1 + PLANNER_OPT_STEPS all of it). */
#define PLANNER_OPT_STEPS 4
enum { PLANNER_MEM_RECOMPUTE, PLANNER_MEM_SLEEP, PLANNER_MEM_AUX_SHARD, PLANNER_MEM_PARAMS, PLANNER_MEM_OPTIMIZER,
       PLANNER_MEM_AUX_OFFLOAD, PLANNER_MEM__N };
/* the scenario field of feature f ("plan.train.recompute"), its short name
** for the table ("recompute") */
const char *planner_mem_path(int f);
const char *planner_mem_name(int f);

typedef struct {
    int    mode;                /* PLANNER_*, or -1: the scenario's own plan / a listed plan */
    int    split;               /* separate/hybrid: rollout-only devices; colocate: aux devices */
    int    critic;              /* separate: the critic's own pool's devices (0: on the training pool) */
    int    supernodes, nodes;   /* cluster size */
    int    ttp, tpp, tep, mb;   /* training tp, pp, ep, micro-batch */
    int    tcp;                 /* training cp (0 taken as 1) */
    int    tetp;                /* training expert TP (plan.train.etp; 0: the tp) */
    int    rtp, rep, seqs;      /* rollout tp, ep, max sequences */
    int    stale, partial_pct;
    int    dispatch;            /* plan.rollout.dispatch (the field's C value); -1: as the scenario */
    int    explicit_idx;        /* >= 0: plans[explicit_idx] from candidates() */
    long   index;               /* enumeration order of its layout */
    double est;                 /* estimated tokens/s (in P->c: the best of the layout's variants) */
    double key;                 /* what planner_select orders by: est, or est per price an hour (cost) */
    int    devices;
    bool   near;                /* misses the analytic fit by at most PLANNER_FIT_SLACK */
    unsigned char mem[PLANNER_MEM__N];  /* the memory repair (PLANNER_MEM_*): all 0 as given */
    /* successive halving (selected candidates only) */
    int    rung;                /* the last rung it was simulated in, -1: none */
    double figure;              /* its score there (objective or score()); -inf infeasible */
    double fig_rung[4];         /* its score in each rung (NaN: not simulated there) */
} plan_cand;

#define PLANNER_RUNGS_MAX 4

typedef struct {
    plan_objective objective;
    double target;              /* PLAN_OBJ_DEVICES: tokens/s to reach */
    int    max_scale;           /* cluster sizes up to this times the scenario's (0: PLANNER_MAX_SCALE) */
    /* cost and time (docs/cli.md, `fusync plan`, "Cost and time"): a run of
    ** `steps` steps (0: the scenario's iterations) at `price` per
    ** device-hour and `host_price` per node-hour (0: not priced) */
    double price, host_price;
    /* --price NAME=PRICE,...: a price per device-hour of each device type
    ** (presets' keys); nprices > 0 replaces `price` (docs/cli.md, "Cost
    ** and time") */
    int    nprices;
    char   price_key[PLANNER_PRICES_MAX][24];
    double price_of[PLANNER_PRICES_MAX];
    int    steps;
    /* the off-policy price (PLANNER_LAG_COST): has_lag_cost or the
    ** effective objective adds the effective_tokens_per_s column */
    bool   has_lag_cost;
    double lag_cost;
    int    budget;              /* candidates of the first rung (0: the default, 320) */
    int    top;                 /* plans listed: the final rung holds at least this many */
    int    jobs;                /* worker processes of the interval draws (planner_intervals) */
    /* the command that reproduces a row: `fusync run INPUT [SETS] [--policy POLICY] ...` */
    const char *input;
    const char *const *sets;
    int    nsets;
    const char *policy;
    /* constraints (docs/cli.md, `fusync plan`: "Constraints"): each narrows
    ** the axes before enumeration, and a simulated row outside them (the
    ** scenario's own plan, a listed plan, a lag past max_lag) is simulated
    ** for comparison but never ranked */
    bool   has_mode, has_stale_max, has_max_lag;   /* false: no such limit */
    int    mode_only;           /* scn_mode the plans must have */
    int    stale_max;           /* largest staleness bound */
    int    partial_min_pct;     /* smallest partial-rollout threshold in percent; 0: any */
    double max_lag;             /* largest lag a row may train (staleness.max) */
    const char *const *fixes;   /* PATH=VALUE held: applied to the base and the axis narrowed */
    int    nfixes;
    /* a framework's limits (plan --framework): whether it can run a plan,
    ** else why not.  The caller gives the rules (the planner knows no
    ** framework); they narrow the axes value by value before enumeration
    ** and keep every simulated row they refuse out of the ranking.  NULL:
    ** none. */
    bool (*admit)(const scn_scenario *s, void *ud, char *why, size_t n);
    void *admit_ud;
    const char *admit_name;     /* for the header: "verl can run" */
} planner_opts;

/* Whether `path` is a field the search sets (an axis of plan_axes, the pool
** split, the mode): a --set of it on `fusync plan` holds it like --fix, and
** a row's command sets it itself. */
bool planner_searches(const char *path);
/* Whether a --fix PATH=VALUE can be held: a searched axis' value of its
** kind, not the pools or the DP the search derives (err names the option). */
bool planner_fix_ok(const char *pv, fs_err *err);

typedef struct {
    scn_scenario  base;         /* place() applied */
    plugin       *pl;           /* the caller's policy, or NULL */
    bool          has_score;
    plan_objective objective;
    double        target;
    int           iterations, warmup;   /* of the scenario: the final rung's window */
    planner_opts  o;
    plan_axes     ax;
    scn_scenario *plans;        /* listed by candidates(ctx) */
    int           nplans;
    est_lengths   len;          /* the workload's length figures, for the estimate */
    /* stage 1-2: every candidate that fits, in enumeration order until
    ** planner_select sorts them by estimate */
    plan_cand    *c;
    long          nc, capc;
    long          evaluated, pruned;    /* variants: enumerated, of which pruned */
    long          estimated;            /* variant estimates computed */
    long          repaired;             /* layouts that fit only with memory features (planner_mem.c) */
    /* stage 3: what is simulated, in selection order (its id) */
    plan_cand    *sel;
    int           nsel;
    /* the rungs: iterations simulated and candidates kept for each */
    int           nrungs;
    int           rung_iters[PLANNER_RUNGS_MAX], rung_n[PLANNER_RUNGS_MAX];
    int           ndispatch;            /* values of plan.rollout.dispatch swept */
    int           fix_rollout_devices, fix_aux_devices;  /* > 0: the pool split held */
    /* the scenario's typed pools (plan.pools[i].device) are the one shape,
    ** scaled with the cluster size under --objective devices and cost
    ** (planner_shape_at) */
    bool          scale_shapes;
    int           mode_only;            /* scn_mode of --mode or --fix plan.mode; -1: any */
    char          searched[512];        /* the constraints as searched, for the header */
    char          range[256];           /* the cluster sizes searched ("" : the scenario's only) */
    bool          costing;              /* the table has the cost and time columns */
    bool          lag_col;              /* ... the effective_tokens_per_s column */
    double        lag_cost;             /* c of planner_lag_value */
    bool          calibrated;           /* the base has a calibration block: the interval_* columns */
    double        price_dev;            /* the base's mean price per device-hour (selection's cost key) */
    int           steps;                /* of a run, for the cost and time columns */
    /* optional: told of every layout stage 1 builds, and whether it fits
    ** (before its staleness settings are spread) */
    void        (*visit)(void *ud, const plan_cand *c, bool fits);
    void         *visit_ud;
} planner;

/* Shape `idx` of the search on a cluster of `supernodes` x `nodes`: at the
** scenario's own size as listed; with P->scale_shapes, at another size each
** pool's devices scaled by the cluster's node count over the scenario's,
** whole nodes staying whole nodes.  False when the shape cannot be held at
** that size (a pool would get a fraction of a device or of a node, or has
** explicit ranges). */
bool planner_shape_at(const planner *P, int idx, int supernodes, int nodes, scn_plan *out);

/* Set up a search of `base` (loaded without place()).  With a policy `pl`
** (the caller keeps it open): its place() sets the baseline, candidates()
** may narrow the axes or list plans, score() ranks.  Then the default axes
** (and for PLAN_OBJ_DEVICES, cluster sizes up to the scenario's). */
bool planner_init(planner *P, const scn_scenario *base, plugin *pl, const planner_opts *po, fs_err *err);
void planner_free(planner *P);

/* Stages 1-2: every candidate built, those that do not fit counted in
** `pruned`, the rest estimated into P->c. */
void planner_enumerate(planner *P);
/* Stage 3: pick the first rung's candidates into P->sel: the scenario's own
** plan and listed plans, then whole layouts (every variant) by estimate,
** each mode's and cluster size's best first, until `budget` (0: P->o.budget)
** is reached; layouts tied with the last one taken come too.  Then the rung
** schedule (P->nrungs, rung_iters, rung_n). */
void planner_select(planner *P, int budget);
/* Of the candidates `ids` (n of them) simulated in a rung, the ids to
** simulate in the next: the best `keep` by figure, shared out among the
** staleness bounds by how many each has (a short window penalises a higher
** bound); the scenario's own plan always.  Returns how many were written. */
int planner_survivors(const planner *P, const int *ids, int n, int keep, int *out);

/* Whether the search keeps a built plan: it fits by the analytic fit of
** `fusync check`, or misses it by at most PLANNER_FIT_SLACK of a device's
** memory — the fit takes every micro-batch and sequence at its longest, and a
** run whose lengths stay shorter can fit where it does not; such a plan is
** simulated and the run's memory ledger decides. */
#define PLANNER_FIT_SLACK 0.2
bool planner_keeps(const scn_scenario *s, const plan *pl);

/* The values of memory feature f (PLANNER_MEM_*) the search may set, a bit
** (1u << value) each (the optimizer: bit k, a share k/PLANNER_OPT_STEPS on
** the host): every value without --framework, else the values the
** framework has a setting for (docs/frameworks.md); a share below 1 only
** where the training is Megatron's (plan.train.zero 0 or 1: its
** optimizer_offload_fraction; DeepSpeed's and FSDP's offload are on or
** off); none where the user holds the field (a --set or --fix of it). */
unsigned planner_mem_offered(const planner *P, int f);

/* Whether the search may put the critic on a pool of its own (PPO: a
** critic to train): always without --framework, else where the framework
** has a setting for it (planner_limits.c, docs/frameworks.md). */
bool planner_critic_offered(const planner *P);
/* The devices of the critic's own pool in a candidate's plan, 0 when the
** critic trains on the training pool or there is none. */
int planner_critic_devices(const planner *P, const plan_cand *c);

/* The scenario a candidate stands for. */
void planner_apply(const planner *P, const plan_cand *c, scn_scenario *out);
/* The columns of a plan table, and one row: simulate P->sel[id] over
** `iterations` iterations (the scenario's warm-up) and set its figure. */
void planner_cols(const planner *P, rtable *t);
bool planner_simulate(planner *P, int id, int iterations, rtable *t, fs_err *err);
/* The figure of a candidate the search dropped before the final rung, over
** the scenario's whole window: its last rung's figure times the median
** ratio final/that rung of the finalists like it (same mode, staleness bound
** and partial rollout; else same bound; else all).  A short window
** misjudges a staleness bound by tens of percent (the pipeline fills over
** several steps), the same way for plans alike.  *n is how many finalists
** the ratio comes from; returns NaN when none can tell. */
double planner_extrapolate(const planner *P, int id, int *n);
/* The figure a row of a rung scored (objective or score()), -inf when
** infeasible. */
double planner_row_figure(const rtable *t, const rt_row *r);

/* Calibrated intervals (uncert.h) on the rows plan_print lists first: the
** top `top` feasible finalists within the constraints (by plan_sort's
** order) and the scenario's own plan, each re-simulated with UNC_DRAWS knob
** vectors; set in the interval_* columns (planner_cols adds them when the
** scenario has a calibration block).  Nothing when it has none. */
bool planner_intervals(planner *P, rtable *t, int top, fs_err *err);

/* Rank a plan table best first (feasible, longest window, meets the target,
** fewest devices, score, id) and print the top K with why #1 beats #2. */
void plan_sort(rtable *t);
/* Whether a listed row meets the target (true without a target). */
bool plan_reaches_target(const rtable *t);
void plan_print(const rtable *t, int top, FILE *f);
/* The same with what was searched (planner.searched) in the header. */
void plan_print_searched(const rtable *t, int top, const char *searched, FILE *f);

#endif
