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

#endif
