/*
** run.h — one simulation as the front end sees it: a run object (runner.h:
** the scenario, its policy, the sim) plus indices the panes need to draw a
** frame without scanning the trace.
**
** The trace is append-only and some spans arrive with times in the
** simulated future, so per track we keep span indices sorted by start time
** with a running maximum of end times (a binary search then finds what covers
** any instant), per (memory group, bucket) the counters sorted by time, and
** running totals for utilization and the step split.  run_sync() folds in
** whatever the engine appended since the last call: O(new items), not O(trace).
*/
#ifndef FUSYNC_UI_RUN_H
#define FUSYNC_UI_RUN_H

#include "engine.h"
#include "report.h"
#include "runner.h"

/* One span of a track, in start order.  The times are copied out of the
** trace (spans never change once recorded) so that the searches and scans of
** run_span_in() read one contiguous array instead of jumping through the
** trace's: a frame asks for a span per track for every visible cell. */
typedef struct {
    sim_time t0, t1;
    sim_time maxt1;         /* max t1 over this entry and every one before it */
    uint32_t idx;           /* the span's index in the trace */
} run_span_ent;

typedef struct {
    run_span_ent *e;        /* sorted by (t0, idx) */
    size_t        n, cap;
} run_track_idx;

typedef struct {
    uint32_t *ord;          /* counter indices sorted by (t, index) */
    size_t    n, cap;
} run_ctr_idx;

typedef struct {
    uint32_t idx;           /* a span not yet wholly in the past */
} run_pending;

typedef struct {
    runner       *rn;           /* the run: scenario, policy, sim */
    sim          *s;            /* runner_sim(rn), for the panes */
    scn_scenario  scn;          /* as run, placed (for restarts) */
    char          label[160];   /* the edits that made it, for A/B */

    /* indices */
    int            ntracks;
    run_track_idx *tracks;
    /* per track: where run_span_in()'s last search landed.  A frame asks
    ** for the cells of a row left to right, so the next answer is at or just
    ** after it: a gallop from there replaces a search of the whole track. */
    size_t        *span_hint;
    int            ngroups;
    run_ctr_idx   *ctr;         /* ngroups * MB__COUNT */
    size_t         ctr_seen;

    /* running totals over [0, synced_to): device-seconds per pool */
    sim_time       synced_to;
    size_t         spans_seen;
    double         busy[SCN_POOLS_MAX], comp[SCN_POOLS_MAX];
    double         step_ns[STEP__COUNT];
    run_pending   *pend;        /* spans ending after synced_to */
    size_t         npend, cappend;
    double         pend_busy[SCN_POOLS_MAX], pend_comp[SCN_POOLS_MAX], pend_step[STEP__COUNT];

    /* per finished step: when its version was published */
    sim_time      *ver_t;
    int            nver, capver;
    /* (time of the newest version, tokens trained) at syncs that saw new
    ** versions: two of these give the throughput of the latest steps */
    sim_time       tok_t[2];
    double         tok_v[2];
    int            ntok;
    size_t         inst_seen;

    uint32_t       phases_seen;     /* bit per trace_phase, for legends */
    uint32_t       steps_seen;      /* bit per trace_step_phase on the step track */
    /* per track: device-seconds busy over [0, synced_to) (pending spans
    ** clipped to the clock) and spans seen: a rollout instance's load */
    double        *track_busy, *track_pend;
    int           *track_spans;
    bool           report_ready;
    report         rep;         /* when the run is over */
} tui_run;

/* Open a run (a scenario file with its overrides, or a scenario already
** placed, as runner.h says); NULL with err if it is refused. */
tui_run *run_new(const runner_spec *spec, const char *label, fs_err *err);
void     run_free(tui_run *r);

/* Advance: process events up to `until`, at most max_events of them.
** Returns true when every event at or before `until` was processed. */
bool     run_advance(tui_run *r, sim_time until, uint64_t max_events);
/* Bring the indices up to date with the trace and the clock. */
void     run_sync(tui_run *r);
bool     run_over(const tui_run *r);
sim_time run_now(const tui_run *r);

/* The span of `track` that best covers [a, b) clipped to the clock; -1 none. */
long     run_span_in(const tui_run *r, int track, sim_time a, sim_time b);
/* Value of a memory bucket of a group at time t. */
double   run_mem_at(const tui_run *r, int group, mem_bucket b, sim_time t);

/* Utilization over [0, now) per pool: compute and busy shares. */
void     run_pool_shares(const tui_run *r, int pool, double *compute, double *busy);
/* Step-split share of [0, now) on the step track (seconds per step phase). */
void     run_step_split(const tui_run *r, double secs[STEP__COUNT]);
/* From when a track's record may be incomplete: an instance with a decode
** open now (recorded only when it ends) is unknown after the latest end of
** its spans; -1 when the record is complete up to now (any other track, an
** instance waiting, offloaded or done: known idle after its last span). */
sim_time run_track_known_to(const tui_run *r, int track);
/* Policy versions published at or before t: the training step under way at
** t is this + 1, and its policy version this. */
int      run_versions_at(const tui_run *r, sim_time t);
/* Share of [0, now) a track was busy (0..1). */
double   run_track_load(const tui_run *r, int track);
/* What the trace gained since it held `nspans` spans and `ninst` instants,
** in words ("t=12.5s rollout 3: generate started, step 1"): what a single
** engine event did.  Empty if nothing was recorded. */
void     run_describe_since(const tui_run *r, size_t nspans, size_t ninst, char *out, size_t n);
/* Tokens per second of the last finished step (0 if none). */
double   run_current_throughput(const tui_run *r);

#endif
