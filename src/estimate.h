/*
** estimate.h — the closed-form throughput of a built plan: the engine's own
** per-phase times (model.h) for a decode step, a forward pass, a 1F1B stage,
** a switch and a weight sync, put together over one step at the workload's
** mean lengths.  Not the engine — it sees neither the long tail's shape nor
** the staleness dynamics —, a guide to which plans are worth simulating:
** `fusync plan` ranks its candidates by it, and plugins call it as
** fusync.estimate(plan) (docs/plugins.md).
**
** It reads the scenario and its plan only; it knows no planner, no plugin
** and no Lua, so the plugin host and the planner both sit above it.
*/
#ifndef FUSYNC_ESTIMATE_H
#define FUSYNC_ESTIMATE_H

#include "plan.h"
#include "scenario.h"

/* The workload's length figures the estimate reads, drawn once from the
** workload's seed (est_lengths_of): the response-length quantiles (rq[k]:
** the k-th percentile, rq[100] the longest draw), the mean prompt and
** response, the mean of (prompt + response)^2 (the attention term of a
** forward pass) and the standard deviation of the response length. */
typedef struct {
    double rq[101];
    double pm, rm;
    double l2m;
    double rsd;
} est_lengths;

void est_lengths_of(const scn_workload *w, est_lengths *out);

/* Closed-form tokens/s of a built plan p of scenario s. */
double est_throughput(const est_lengths *len, const scn_scenario *s, const plan *p);
/* The same for a scenario alone (fusync.estimate): its lengths drawn first. */
double est_scenario_throughput(const scn_scenario *s, const plan *p);

/* The estimate's parts, for the tests that hold them to the engine's: a
** decode step of a rollout instance of pool q holding `batch` sequences of
** mean context `ctx`; the forward time of one micro-batch of mean-length
** samples on a stage of pool q, a forward pass over a step's chunk (the whole
** batch unless it streams) and one mini-batch's training (1F1B, then the
** tail of plan_train_tail) of model m. */
double est_decode_step(const scn_scenario *s, const plan_pool *q, double batch, double ctx);
double est_stage_fwd(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m);
double est_fwd_pass(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m);
double est_train_minibatch(const est_lengths *len, const scn_scenario *s, const plan_pool *q, const scn_model *m);

#endif
