/*
** planner.h — the search of `fusync plan` as a C API: enumerate deployment
** modes, pool splits, training and rollout layouts, staleness bounds and
** partial-rollout thresholds within the scenario's devices; prune what does
** not fit; estimate the rest; pick what to simulate; simulate one candidate
** into a table row; rank the rows.  cli_plan.c is the command around it.
**
** Three stages, cheapest first (docs/cli.md, `fusync plan`):
**   1. every candidate is built analytically (plan_build): a layout that
**      does not divide its pool or a plan that does not fit in memory is
**      pruned;
**   2. the rest get a closed-form estimate of throughput from the engine's
**      own cost formulas (model.h) — microseconds each;
**   3. the best by estimate (and the best of each mode and cluster size, and
**      the scenario's own plan) are simulated; only simulated figures rank.
** Stage 3 is the work shared out by --jobs and --shard; stages 1-2 are the
** same in every shard, so all agree on what is simulated.
*/
#ifndef FUSYNC_PLANNER_H
#define FUSYNC_PLANNER_H

#include <stdbool.h>
#include <stdio.h>
#include "plan.h"
#include "plugin.h"
#include "rtable.h"
#include "scenario.h"

/* Search modes: "hybrid" is a rollout-only pool beside a co-located one. */
enum { PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID, PLANNER__MODES };
const char *planner_mode_name(int mode);

typedef enum { PLAN_OBJ_THROUGHPUT, PLAN_OBJ_PER_DEVICE, PLAN_OBJ_DEVICES } plan_objective;

typedef struct {
    int    mode;                /* PLANNER_*, or -1: the scenario's own plan / a listed plan */
    int    split;               /* separate/hybrid: rollout-only devices; colocate: aux devices */
    int    supernodes, nodes;   /* cluster size */
    int    ttp, tpp, tep, mb;   /* training tp, pp, ep, micro-batch */
    int    rtp, rep, seqs;      /* rollout tp, ep, max sequences */
    int    stale, partial_pct;
    int    explicit_idx;        /* >= 0: plans[explicit_idx] from candidates() */
    long   index;               /* enumeration order (ties) */
    double est;                 /* estimated tokens/s */
    int    devices;
} plan_cand;

typedef struct {
    plan_objective objective;
    double target;              /* PLAN_OBJ_DEVICES: tokens/s to reach */
    bool   short_runs;          /* rank on warm-up + 3 iterations */
} planner_opts;

typedef struct {
    scn_scenario  base;         /* place() applied */
    plugin       *pl;           /* the caller's policy, or NULL */
    bool          has_score;
    plan_objective objective;
    double        target;
    int           iterations, warmup;   /* of the simulated runs */
    plan_axes     ax;
    scn_scenario *plans;        /* listed by candidates(ctx) */
    int           nplans;
    /* response-length quantiles and means, for the tail estimate */
    double        rq[101];
    double        pm, rm;
    /* stage 1-2: every candidate that fits, in enumeration order until
    ** planner_select sorts them by estimate */
    plan_cand    *c;
    long          nc, capc;
    long          evaluated, pruned;
    /* stage 3: what is simulated, in selection order */
    plan_cand    *sel;
    int           nsel;
    /* optional: told of every layout stage 1 builds, and whether it fits
    ** (before its staleness settings are spread) */
    void        (*visit)(void *ud, const plan_cand *c, bool fits);
    void         *visit_ud;
} planner;

/* Set up a search of `base` (loaded without place()).  With a policy `pl`
** (the caller keeps it open): its place() sets the baseline, candidates()
** may narrow the axes or list plans, score() ranks.  Then the default axes
** (and for PLAN_OBJ_DEVICES, cluster sizes up to the scenario's). */
bool planner_init(planner *P, const scn_scenario *base, plugin *pl, const planner_opts *po, fs_err *err);
void planner_free(planner *P);

/* Stages 1-2: every candidate built, those that do not fit counted in
** `pruned`, the rest estimated into P->c. */
void planner_enumerate(planner *P);
/* Stage 3: pick at most `budget` candidates (beyond each mode's best) into
** P->sel. */
void planner_select(planner *P, int budget);

/* The scenario a candidate stands for. */
void planner_apply(const planner *P, const plan_cand *c, scn_scenario *out);
/* Closed-form tokens/s of a built plan of scenario s: a guide to which
** candidates are worth simulating, not the engine. */
double planner_estimate(const planner *P, const scn_scenario *s, const plan *p);

/* The columns of a plan table, and one row: simulate P->sel[id]. */
void planner_cols(const planner *P, rtable *t);
bool planner_simulate(planner *P, int id, rtable *t, fs_err *err);

/* Rank a plan table best first (feasible, meets the target, fewest devices,
** score, id) and print the top K with why #1 beats #2. */
void plan_sort(rtable *t);
void plan_print(const rtable *t, int top, FILE *f);

#endif
