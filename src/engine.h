/*
** engine.h — the discrete-event simulator of an RL post-training cluster.
**
** A simulation is a value: create it from a validated scenario, advance it
** to a simulated time (the terminal front end animates this way) or run it to
** the end, read its trace, free it.  Several can live in one process.
** Time is integer nanoseconds; ties in the event queue go by insertion order,
** so the same scenario and seed give the same trace, byte for byte.
*/
#ifndef FUSYNC_ENGINE_H
#define FUSYNC_ENGINE_H

#include "scenario.h"
#include "plan.h"
#include "trace.h"

typedef struct sim sim;

/* Where memory first went over capacity. */
typedef struct {
    bool     happened;
    int      group;             /* trace memgroup */
    int      bucket;            /* mem_bucket that was growing */
    sim_time t;
    double   over_bytes;
    double   capacity;
} sim_overflow;

enum { SIM_BOUND_LOG = 32 };

/* The parts of the training pool's "inference" step phase, in the order a
** chunk's forward work runs (docs/model.md, section 12). */
typedef enum { INF_QUEUE, INF_LOGPROB, INF_REF, INF_REWARD, INF_CRITIC, INF__COUNT } sim_infer_part;
const char *sim_infer_part_name(sim_infer_part k);

/* The engine's counters, as a member list: sim_stats is these members,
** and the report (report.h) holds them by the same names, taken in one
** copy when the run is read, so a counter the engine adds here is a member
** of the report too and a row of src/report_fields.c can name it. */
#define SIM_STATS_MEMBERS \
    uint64_t events;            /* events taken off the queue */ \
    uint64_t pipeline_ops;      /* 1F1B forward/backward ops resolved */ \
    int      iterations_done; \
    int      version;           /* current policy version (= steps trained) */ \
    int64_t  samples_total, samples_done, samples_trained, samples_discarded; \
    int64_t  samples_mixed;     /* trained samples decoded with more than one version */ \
    double   tokens_generated;  /* response tokens decoded */ \
    double   tokens_trained;    /* prompt + response tokens trained on */ \
    double   tokens_trained_response;  /* of which response tokens */ \
    double   tokens_wasted;     /* decoded then thrown away */ \
    int64_t  preemptions;       /* paged KV: sequences taken off a full cache */ \
    double   preempt_tokens;    /* their context when taken off (prompt + decoded) */ \
    double   preempt_cost_s;    /* instance time it cost: re-prefills (recompute) or host transfers (swap) */ \
    double   tokens_in_flight;  /* decoded, not yet trained or wasted */ \
    double   measured_tokens;   /* trained tokens in the measured window */ \
    sim_time window_t0, window_t1; \
    sim_time step_phase_ns[STEP__COUNT];  /* in the measured window */ \
    sim_time infer_part_ns[INF__COUNT];   /* STEP_INFER split by part, same window */ \
    int64_t  lag_hist[SCN_STALENESS_MAX + 1];   /* trained samples by lag t - v */ \
    int      lag_max; \
    double   lag_sum; \
    /* DistQueue bytes of the training pool's reads, every step's batch \
    ** padded and packed, and those reads counted without and with \
    ** hierarchical transfer */ \
    double   dq_bytes_padded, dq_bytes_packed; \
    double   dq_reads_flat, dq_reads_hier; \
    double   queue_time_s;      /* DistQueue reads by the training pool, all steps */ \
    /* DistQueue bytes between stages, all steps: rollout -> queue (token ids \
    ** and rollout log-probs), queue -> reference/reward pools (token ids), \
    ** reference/reward -> queue (log-probs, rewards), queue -> training */ \
    double   dq_rollout_out, dq_aux_in, dq_aux_out, dq_train_in; \
    double   dq_aux_time_s;     /* reads by the reference/reward pools, all steps */ \
    double   plugin_time_s; \
    double   task_wall_s;       /* wall time computing training and forward-pass tasks (bench only) */ \
    double   setup_wall_s;      /* wall time of sim_new: sampling the workload, building tracks */ \
    sim_overflow overflow; \
    /* The staleness bound as hooks changed it: the first SIM_BOUND_LOG \
    ** changes (the step about to be trained when it changed, the new \
    ** bound), how many there were, and the largest bound the run had. */ \
    int      bound_changes; \
    int      bound_step[SIM_BOUND_LOG], bound_value[SIM_BOUND_LOG]; \
    int      bound_max;

typedef struct { SIM_STATS_MEMBERS } sim_stats;

/* Hooks a plugin host may install (all optional).  They run between events
** and may change the staleness bound and the partial-rollout threshold only
** through the setters below.  A hook returning false stops the run with the
** error it filled in. */
typedef struct {
    bool (*on_step)(void *ud, sim *s, int step, fs_err *err);
    bool (*on_update)(void *ud, sim *s, int version, fs_err *err);
    bool (*on_rollout_progress)(void *ud, sim *s, int step, double done_fraction, bool *cut, fs_err *err);
    void *ud;
} sim_hooks;

sim  *sim_new(const scn_scenario *s, fs_err *err);
void  sim_free(sim *s);
/* The workload's lengths are drawn ahead of their release on a thread of
** their own in a run of at least 2,048 samples a step (-1, the default);
** 0: always in the run's thread; 1: on the thread in every run.  The
** lengths and every result are the same either way (src/eng_draw.c). */
extern int sim_draw_ahead;
/* Whether this run's lengths are being drawn on that thread; how many
** micro-batch sets the run has taken as that thread worked them out for
** its batches (src/eng_mb.c: the same sets as the run's thread makes). */
bool sim_draws_ahead(const sim *s);
int64_t sim_mb_sets_ahead(const sim *s);
void  sim_set_hooks(sim *s, const sim_hooks *h);

/* Process every event at or before `until`.  Returns false when the run is
** over (finished or stopped by an error: see sim_error). */
bool  sim_advance(sim *s, sim_time until);
/* Process at most n events. */
bool  sim_step_events(sim *s, uint64_t n);
/* Run to the end.  False if a hook failed. */
bool  sim_run(sim *s);

bool  sim_done(const sim *s);
sim_time sim_now(const sim *s);
sim_time sim_next_event_time(const sim *s);     /* -1 when none */
const fs_err *sim_error(const sim *s);          /* NULL if none */

const scn_scenario *sim_scenario(const sim *s);
const plan  *sim_plan(const sim *s);
const trace *sim_trace(const sim *s);
trace       *sim_trace_mut(sim *s);             /* to attach a sink before running */
const sim_stats *sim_get_stats(const sim *s);
double sim_wall_seconds(const sim *s);

/* Setters for hooks. */
void sim_set_staleness(sim *s, int bound);
int  sim_get_staleness(const sim *s);
void sim_set_partial_rollout(sim *s, double fraction);

/* The step phase the training pool is in now (a trace_step_phase) and since
** when: its span is only recorded when the phase ends. */
int  sim_step_phase_open(const sim *s, sim_time *since);

/* Memory peaks of a trace memgroup (bytes per device or per node). */
double sim_mem_peak(const sim *s, int group, int bucket);
double sim_mem_peak_total(const sim *s, int group, sim_time *when);

/* Lengths of batch `step`: Σ(prompt+response) and its longest sample.  A
** batch is drawn when it is released; one not yet released is previewed
** from a copy of the generator (what it will be). */
void sim_step_lengths(const sim *s, int step, double *sum, double *max);
/* Sample slots the engine holds: the batches alive (released, not wholly
** trained), a power of two; bounded by the staleness, not the iterations. */
int64_t sim_sample_slots(const sim *s);

/* Self-checks, for the tests.  sim_check_counters recounts, from every
** sample's state, the staleness counters the controller keeps as samples
** change state (finished untrained, started unfinished, generating, by
** start version)
** and compares them with the kept counts, their totals and every prefix sum
** it reads, and that every rollout instance's finishing heap holds only its
** active samples, with their current lengths, start version and batch;
** false with the first mismatch in err.  sim_counter_work is the
** work those reads have cost so far (tree nodes visited): it grows with the
** logarithm of the iterations per event, not with the iterations. */
bool sim_check_counters(const sim *s, fs_err *err);
/* Events pending in the queue, superseded ones not yet popped included (for
** the bench's bare-queue comparison). */
size_t sim_queue_len(const sim *s);
uint64_t sim_counter_work(const sim *s);

/* Samples, for views: how many are generating on an instance now, by the
** version they started with, oldest version first (at most max versions).
** Kept as samples change state: O(versions), not O(samples). */
int  sim_inflight_by_version(const sim *s, int *versions, int *counts, int max);
/* Whether the rollout instance drawn on trace track `track` has a decode
** segment open now (recorded only when it closes): false for any other
** track, so a view knows where the trace is not complete up to now. */
bool sim_track_decoding(const sim *s, int track);

#endif
