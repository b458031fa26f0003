/*
** runner.h — one run of a scenario, the recipe every front end shares
** (`fusync run`, the terminal front end, sweeps, the planner):
**
**   load the scenario (or take one already loaded), open its policy plugin
**   once, apply the plugin's place(), build the plan and the simulation with
**   the plugin's run hooks installed; advance it in slices; finish it and
**   compute the report; free it.
**
** The layer above the engine: src/engine*.c knows no plugin, this does.
** Nothing here prints.
*/
#ifndef FUSYNC_RUNNER_H
#define FUSYNC_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include "engine.h"
#include "plugin.h"
#include "report.h"

typedef struct runner runner;

typedef struct {
    /* Either a scenario file with "PATH=VALUE" overrides (--set), whose
    ** policy (`policy`, else its plan.policy) is opened and whose place()
    ** is applied ... */
    const char *path;
    const char *const *sets;
    int         nsets;
    const char *policy;
    /* ... or a scenario already loaded and placed (a restart, a planner
    ** candidate): copied as it is; its plan.policy is opened for the run
    ** hooks only. */
    const scn_scenario *scn;
    /* A policy the caller keeps open (the planner's): its run hooks are
    ** installed and no other plugin is opened.  Not closed by the runner. */
    plugin *plugin;
    /* Nothing will read the run's spans (no terminal front end, no SVG):
    ** the trace stores none, only streams them to a sink and sums them for
    ** the report (trace_keep), so memory stays bounded in iterations. */
    bool headless;
    /* runner_load only: the file and its overrides, no place() (the
    ** planner chooses the plan itself). */
    bool no_place;
} runner_spec;

/* The one scenario loader of every command: the file with its overrides,
** then its policy's place() (spec->policy, else the scenario's
** plan.policy), exactly as runner_open loads it.  `overrides` (n bytes, may
** be NULL) receives the --set values place() replaced, as
** runner_overrides says them.  False with err when anything is refused. */
bool runner_load(const runner_spec *spec, scn_scenario *out, char *overrides, size_t n, fs_err *err);

/* Load, place, build.  NULL with err (code 2: bad input) when the scenario,
** the plugin or the plan is refused. */
runner *runner_open(const runner_spec *spec, fs_err *err);

/* Process at most `budget` events.  False when the run is over. */
bool runner_advance(runner *r, uint64_t budget);
/* Process the events at or before `until`, at most `budget` of them, never
** one past `until`; then move the clock to `until` if nothing is due.  True
** when every event at or before `until` was processed. */
bool runner_advance_to(runner *r, sim_time until, uint64_t budget);
bool runner_done(const runner *r);

/* Run what is left to the end and fill *rep.  False with err when the run
** was stopped by an error (a plugin hook failed, ...); a plan that turns
** out infeasible (the run stalled, memory overflowed) is a report with
** feasible = false, not an error.  *rep is filled either way. */
bool runner_close(runner *r, report *rep, fs_err *err);
void runner_free(runner *r);

/* The simulation (for traces, reports, views), the scenario as run
** (overrides and place() applied: open it again with .scn to restart), and
** the policy plugin (NULL when none). */
sim                *runner_sim(runner *r);
const sim          *runner_sim_c(const runner *r);
const scn_scenario *runner_scenario(const runner *r);
plugin             *runner_plugin(runner *r);
/* The --set values the policy's place() replaced ("plan.staleness=2 -> 0;
** ..."), or "" when it replaced none (docs/plugins.md, section 3). */
const char         *runner_overrides(const runner *r);

#endif
