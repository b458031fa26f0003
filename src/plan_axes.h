/*
** plan_axes.h — the vocabulary of `fusync plan`'s search: its modes and the
** allowed values of each search axis.  The planner (planner.h) searches
** them; a policy's candidates() (policy_search.c, below the planner) may
** narrow them.  Both include this; neither includes the other.
*/
#ifndef FUSYNC_PLAN_AXES_H
#define FUSYNC_PLAN_AXES_H

#include "scenario.h"

/* Search modes: "hybrid" is a rollout-only pool beside a co-located one;
** "shape" is a pool shape a policy's candidates() gave (split: its index);
** "spread" is separate with the rollout pool on the same share of every
** supernode (plan.pools[].where = "spread"; two supernodes or more). */
enum { PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID, PLANNER_SHAPE, PLANNER_SPREAD, PLANNER__MODES };

typedef struct {
    int  n;
    long v[32];
} plan_axis;

typedef struct {
    plan_axis modes;            /* 0 separate, 1 colocate, 2 full, 3 hybrid */
    plan_axis train_tp, train_pp, train_ep, micro_batch;
    plan_axis train_cp;         /* context parallel (ring or the scenario's cp_kind) */
    plan_axis train_etp;        /* expert tensor parallel (plan.train.etp; 0: the candidate's tp) */
    plan_axis rollout_tp, rollout_ep, max_seqs;
    plan_axis staleness;
    plan_axis partial_pct;      /* partial rollout threshold in percent */
    plan_axis rollout_share_pct;/* separate/hybrid: rollout-only share of devices */
    plan_axis supernodes, nodes_per_supernode;
    plan_axis dispatch;         /* plan.rollout.dispatch: the field's enum value */
    /* pool shapes from candidates() (`pools = {shape, ...}`): each a plan
    ** whose pools (and mode) are searched with the layout axes; malloc'd */
    scn_plan *shapes;
    int       nshapes;
} plan_axes;

#endif
