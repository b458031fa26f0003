/*
** planner_int.h — what the planner's files call of each other:
** planner_limits.c (the constraints of a search) and planner.c's helpers
** for planner_select.c.  Internal to the planner group: the CLI and the
** tests go through planner.h.
*/
#ifndef FUSYNC_PLANNER_INT_H
#define FUSYNC_PLANNER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "planner.h"
#include "report.h"

/* Whether a PATH=VALUE (or a bare path) is under `path`: its path equals
** it, or "plan.pools.1.devices" under "plan.pools". */
bool planner_path_is(const char *pv, const char *path);
/* Narrow P->ax to the constraints of P->o and write P->searched (the
** header's "searched" text); false (err names the constraint) when one
** leaves an axis empty or a --fix is not a value of its field. */
bool planner_constrain(planner *P, fs_err *err);
/* Whether a simulated scenario (its report, NULL when the run failed) is
** within the constraints; else false with why not in `why`. */
bool planner_within(const planner *P, const scn_scenario *s, const report *rep, char *why, size_t n);

/* (planner.c) plan.rollout.dispatch of a scenario set through its field
** row; the dispatch values the search sweeps (at least one). */
void planner_set_dispatch(scn_scenario *s, int value);
int planner_ndispatch(const planner *P);
/* plan.rollout.dispatch's value as its field names it ("?" when unknown). */
const char *planner_dispatch_name(int value);

/* (planner_cmd.c) A plan's pools as "name:devices" words, "/placed" on a
** pool the placement split; the whole `fusync run` command that simulates
** candidate c over `iterations`, appended to b. */
void planner_pools_text(const plan *pl, char *out, size_t n);
void planner_run_line(const planner *P, const plan_cand *c, int iterations, fs_buf *b);

/* (planner.c) s's plan set to separate mode with three pools: `split`
** rollout devices, the actor's with the reference, `critic` devices for the
** critic with the reward model, the actor's pool the rest. */
void planner_critic_pools(scn_scenario *s, int split, int critic);

/* (planner_mem.c) The memory repair of a searched layout that does not fit
** as given: `s` is the candidate's scenario and `pl` its plan as built.
** Tries the features planner_mem_offered allows, keeps the combination that
** fits with the best estimate, and then writes it into c->mem, s and pl
** (true); false, all three unchanged, when none fits. */
bool planner_mem_repair(planner *P, plan_cand *c, scn_scenario *s, plan *pl);
/* The features of c->mem set in s (planner_apply). */
void planner_mem_apply(const plan_cand *c, scn_scenario *s);
/* Whether any feature is set; as "recompute=full optimizer_offload=1" in
** buf; as `--set PATH=VALUE` options appended to b. */
bool planner_mem_any(const plan_cand *c);
void planner_mem_text(const plan_cand *c, char *buf, size_t n);
void planner_mem_sets(const plan_cand *c, fs_buf *b);

#endif
