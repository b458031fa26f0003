/*
** plugin.h — the plugin host: one sandboxed Lua state per plugin file, with a
** memory budget, an instruction budget per call and every call protected.
**
** Plugins are code from other people.  A plugin gets base (without dofile,
** loadfile), string (without dump), table, math, utf8 and os.clock/time/date;
** `load` takes text only.  No io, package, require or debug.  An error of any
** kind (syntax, runtime, budget, a wrong return shape) becomes an fs_err with
** code 2, the plugin's FILE:LINE and a traceback; a plugin that ran out of
** budget is dead: the host refuses to call it again, so a `pcall` inside the
** plugin cannot swallow the stop.
**
** The policy modules (policy_*.c) sit on this layer: placement (place), run
** hooks (on_step, on_update, on_rollout_progress, staleness), what-if files
** (vary, variants) and the planner's candidates/score.
*/
#ifndef FUSYNC_PLUGIN_H
#define FUSYNC_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include "scenario.h"
#include "engine.h"
#include "plan_axes.h"
#include "report.h"
#include "util.h"

#define PLUGIN_MEMORY_DEFAULT       (64u << 20)     /* bytes */
#define PLUGIN_INSTRUCTIONS_DEFAULT 200000000L      /* per call: `while true do end` ~1 s */
#define PLUGIN_SECONDS_DEFAULT      10.0            /* wall clock per call */
#define PLUGIN_RUN_INSTRUCTIONS_DEFAULT 2000000000LL /* per run, every call together */
#define PLUGIN_RUN_SECONDS_DEFAULT  60.0            /* wall clock per run, every call together */

typedef struct {
    size_t memory;          /* bytes the state may hold */
    long   instructions;    /* Lua VM instructions per call */
    bool   print;           /* print() writes to stderr (else discarded) */
    double seconds;         /* wall clock per call */
    long long run_instructions; /* per run (plugin_run_reset starts one) */
    double run_seconds;     /* wall clock per run */
} plugin_limits;

/* Defaults, overridden by FUSYNC_PLUGIN_MEMORY_MB, FUSYNC_PLUGIN_INSTRUCTIONS,
** FUSYNC_PLUGIN_SECONDS, FUSYNC_PLUGIN_RUN_INSTRUCTIONS,
** FUSYNC_PLUGIN_RUN_SECONDS and FUSYNC_PLUGIN_PRINT=1 from the environment. */
void plugin_limits_default(plugin_limits *l);

typedef struct plugin plugin;

/* Load and run a plugin file.  Its hooks are the functions of the table the
** chunk returns, or, if it returns nothing, its global functions.  `lim` NULL
** means plugin_limits_default. */
plugin *plugin_open(const char *path, const plugin_limits *lim, fs_err *err);
void    plugin_close(plugin *p);
const char *plugin_path(const plugin *p);
/* Does the plugin define `name` as a function?  (Checked once at open.) */
bool    plugin_has(const plugin *p, const char *name);
/* Start a run: the run's instruction and wall-clock budgets count from here
** (a plugin's run starts when it is opened). */
void    plugin_run_reset(plugin *p);

/* ---------------------------------------------------------------- policy
** (policy_place.c) */

/* Run place(ctx) of an open plugin on `s` and write its answer into s->plan;
** then validate it like a scenario's own plan.  A plugin without place()
** leaves the plan as it is. */
bool policy_place(plugin *p, scn_scenario *s, fs_err *err);

/* (policy_hooks.c) Hooks of a run.  attach: if the scenario names a policy
** (s->plan.policy) that defines on_step, on_update, on_rollout_progress or
** staleness, open it and install them on the simulation; *out is then the
** handle to free after the run (NULL when there is nothing to install). */
typedef struct policy_run policy_run;
bool policy_hooks_attach(sim *s, policy_run **out, fs_err *err);
/* Same, with a plugin the caller already opened (not closed by free). */
policy_run *policy_hooks_install(sim *s, plugin *p);
void policy_hooks_free(policy_run *r);

/* ---------------------------------------------------------------- what-if
** (policy_whatif.c)  A variant is a list of "PATH=VALUE" overrides of the
** base scenario, with an optional name. */
typedef struct {
    char  name[64];
    int   nsets;
    char **sets;            /* "PATH=VALUE", malloc'd */
} whatif_variant;

typedef struct {
    int   nvariants;
    whatif_variant *v;
} whatif_list;

/* Read a what-if file: `vary` (cartesian product, in key order; the first
** key changes slowest) then the variants returned by `variants(base)`. */
bool whatif_load(const char *path, const scn_scenario *base, whatif_list *out, fs_err *err);
void whatif_free(whatif_list *w);

/* ---------------------------------------------------------------- planner
** (policy_search.c) */

/* candidates(ctx): a list of plan tables (each applied like place()'s answer
** to a copy of `base`), or a table of allowed values per search axis
** (plan_axes.h).  The result is written to *plans (malloc'd scenarios,
** *nplans of them) or to the axes table (see cli_plan.c); exactly one is
** filled. */
bool policy_candidates(plugin *p, const scn_scenario *base, plan_axes *axes,
                       scn_scenario **plans, int *nplans, fs_err *err);
/* score(ctx, report) → number, higher is better; or nil and a reason: the
** plan is infeasible (*score NaN, the reason in why). */
bool policy_score(plugin *p, const scn_scenario *s, const report *r, double *score, char *why, size_t nwhy, fs_err *err);

#endif
