/*
** trace.h — the one product of a run: an append-only record of tracks,
** spans, memory counters, instants and staleness windows.  The report, the
** exports and the terminal screens all read it; nothing else is kept.
** A sink may watch appends (the streaming Chrome trace writer does).
*/
#ifndef FUSYNC_TRACE_H
#define FUSYNC_TRACE_H

#include <stdint.h>
#include <stdbool.h>
#include "util.h"

typedef int64_t sim_time;               /* simulated nanoseconds */
#define SIM_NS_PER_S 1000000000LL
static inline double sim_secs(sim_time t) { return (double)t * 1e-9; }
/* Seconds to simulated time: rounded up to whole ns, at least 0. */
/* The simulator's horizon: about 3.2 years of simulated time.  A duration is
** clipped to it, so that sums of a few stay far from int64's end, and the
** engine stops a run whose clock passes it (inputs that make a step take
** years are a mistake, not a figure). */
#define SIM_HORIZON_NS 1e17

static inline sim_time sim_from_secs(double s)
{
    if (!(s > 0)) return 0;
    double ns = s * 1e9;
    if (ns > SIM_HORIZON_NS) return (sim_time)SIM_HORIZON_NS;     /* the engine stops there */
    sim_time t = (sim_time)ns;
    return (double)t < ns ? t + 1 : t;
}

/* The phases a span of a device track is in: one row each, and every
** reader expands these rows (the trace's names and compute flags, the
** Chrome trace, the SVG, the terminal's letters, legends and colours), so a
** new phase is one row here plus the engine code that records it
** (docs/architecture.md, "Adding a phase").  The columns:
**   id       the trace_phase constant; the rows' order is the enum's
**   name     as the report, the Chrome trace and the SVG's legend write it
**   label    as the terminal's legends show it
**   letter   the terminal's glyph: lower case for rollout-side work, upper
**            case for training, symbols for moving data, so that a screen
**            without colour still tells the phases apart
**   compute  1 for computation, 0 for moving data or waiting (the report's
**            compute share counts the first)
**   rgb      the SVG's fill
**   fg, bg   the terminal's colour pair (curses COLOR_<fg> on COLOR_<bg>,
**            DEFAULT for the terminal's own); no two phases share a pair, so
**            a legend's colour names one phase
**   attr     the attribute with colour, mono the one without (NORMAL, BOLD,
**            DIM, UNDERLINE, BOLD_REVERSE, BOLD_UNDERLINE) */
#define TRACE_PHASES(X) \
    X(PH_GENERATE,     "generate",     "generate",       'g', 1, "#4e79a7", BLACK,   GREEN,   NORMAL,       NORMAL) \
    X(PH_PREFILL,      "prefill",      "prefill",        'p', 1, "#a0cbe8", BLACK,   CYAN,    NORMAL,       NORMAL) \
    X(PH_LOGPROB,      "logprob",      "log-prob",       'l', 1, "#f28e2b", WHITE,   BLUE,    NORMAL,       NORMAL) \
    X(PH_REF,          "reference",    "reference",      'r', 1, "#ffbe7d", BLACK,   MAGENTA, NORMAL,       NORMAL) \
    X(PH_REWARD,       "reward",       "reward",         'w', 1, "#8cd17d", WHITE,   MAGENTA, NORMAL,       NORMAL) \
    X(PH_CRITIC_FWD,   "critic_fwd",   "critic fwd",     'c', 1, "#b6992d", BLUE,    WHITE,   NORMAL,       NORMAL) \
    X(PH_TRAIN_FWD,    "train_fwd",    "forward",        'F', 1, "#59a14f", YELLOW,  BLUE,    NORMAL,       BOLD)   \
    X(PH_TRAIN_BWD,    "train_bwd",    "backward",       'B', 1, "#499894", YELLOW,  RED,     NORMAL,       BOLD)   \
    X(PH_TRAIN_1F1B,   "train_1f1b",   "train",          'T', 1, "#e15759", BLACK,   YELLOW,  NORMAL,       BOLD)   \
    X(PH_GRAD_SYNC,    "grad_sync",    "grad sync",      'S', 0, "#ff9d9a", BLACK,   WHITE,   NORMAL,       NORMAL) \
    X(PH_OPTIMIZER,    "optimizer",    "optimizer",      'O', 1, "#79706e", WHITE,   RED,     NORMAL,       BOLD)   \
    X(PH_CRITIC_TRAIN, "critic_train", "critic train",   'C', 1, "#d37295", RED,     YELLOW,  NORMAL,       BOLD)   \
    X(PH_OFFLOAD,      "offload",      "offload",        'v', 0, "#b07aa1", CYAN,    BLUE,    NORMAL,       NORMAL) \
    X(PH_ONLOAD,       "onload",       "onload",         '^', 0, "#d4a6c8", BLUE,    CYAN,    NORMAL,       NORMAL) \
    X(PH_RESHARD,      "reshard",      "switch/reshard", 'x', 0, "#9d7660", WHITE,   BLACK,   BOLD_REVERSE, NORMAL) \
    X(PH_WEIGHT_SYNC,  "weight_sync",  "weight sync",    'W', 0, "#d7b5a6", YELLOW,  MAGENTA, NORMAL,       NORMAL) \
    X(PH_QUEUE,        "queue",        "queue",          'q', 0, "#bab0ac", MAGENTA, WHITE,   NORMAL,       NORMAL) \
    X(PH_IDLE,         "idle",         "idle",           '.', 0, "#eeeeee", DEFAULT, DEFAULT, DIM,          DIM)

typedef enum {
#define TRACE_PHASE_ID(id, name, label, letter, compute, rgb, fg, bg, attr, mono) id,
    TRACE_PHASES(TRACE_PHASE_ID)
#undef TRACE_PHASE_ID
    PH__COUNT
} trace_phase;
const char *trace_phase_name(trace_phase p);

/* The step track's phases, for the step-time split, in the same columns
** but for `as`: a step phase that is one trace phase (its id, else -1) is
** drawn on the terminal with that phase's glyph and colours, so the step
** row, the track rows and the legend agree; its own letter and colours
** serve only when `as` is -1. */
#define TRACE_STEP_PHASES(X) \
    X(STEP_GENERATE,    "generate",    "generate",    'g', PH_GENERATE,    "#4e79a7", BLACK,   WHITE,   NORMAL,         NORMAL)    \
    X(STEP_SWITCH,      "switch",      "switch",      'x', PH_RESHARD,     "#9d7660", BLACK,   WHITE,   NORMAL,         NORMAL)    \
    X(STEP_WEIGHT_SYNC, "weight_sync", "weight sync", 'W', PH_WEIGHT_SYNC, "#d7b5a6", BLACK,   WHITE,   NORMAL,         NORMAL)    \
    X(STEP_INFER,       "inference",   "inference",   'i', -1,             "#f28e2b", MAGENTA, DEFAULT, BOLD_UNDERLINE, UNDERLINE) \
    X(STEP_TRAIN,       "train",       "train",       'T', PH_TRAIN_1F1B,  "#e15759", BLACK,   WHITE,   NORMAL,         NORMAL)    \
    X(STEP_WAIT,        "wait",        "wait",        '.', -1,             "#dddddd", DEFAULT, DEFAULT, DIM,            DIM)

typedef enum {
#define TRACE_STEP_PHASE_ID(id, name, label, letter, as, rgb, fg, bg, attr, mono) id,
    TRACE_STEP_PHASES(TRACE_STEP_PHASE_ID)
#undef TRACE_STEP_PHASE_ID
    STEP__COUNT
} trace_step_phase;
const char *trace_step_phase_name(trace_step_phase p);

typedef enum {
    MB_WEIGHTS, MB_GRADS, MB_OPTIMIZER, MB_ACTIVATIONS, MB_ROLLOUT_WEIGHTS,
    MB_KV_CACHE, MB_REF_WEIGHTS, MB_REWARD_WEIGHTS, MB_CRITIC, MB_RESHARD,
    MB_HOST_OFFLOAD, MB_HOST_MODELS,
    /* what the processes hold beside the allocator's buckets (CUDA contexts,
    ** NCCL buffers, the allocator's reserve, an engine's graph pool;
    ** docs/model.md, section 11): on the devices, constant over the run */
    MB_RUNTIME,
    /* what a trainer's caching allocator still reserves of its training
    ** peak while a co-located vLLM is awake, when nothing emptied it
    ** before the wake (plan.train.empty_cache_before_wake = false;
    ** docs/model.md, section 8) */
    MB_TRAIN_CACHE,
    MB__COUNT
} mem_bucket;
const char *trace_bucket_name(mem_bucket b);

typedef enum { TRK_INSTANCE, TRK_STAGE, TRK_AUX, TRK_HOSTLINK, TRK_STEP } trace_track_kind;

typedef struct {
    char name[64];
    trace_track_kind kind;
    int  pool;              /* -1 for the step track */
    int  first_device;
    int  devices;           /* devices this track stands for (they behave alike) */
    int  memgroup;          /* memory group its devices belong to (-1 none) */
} trace_track;

typedef struct {
    char   name[64];
    int    pool;
    bool   host;            /* a host (per node) group, else per device */
    int    first_device;
    int    devices;         /* devices (or nodes, for host groups) it stands for */
    double capacity;        /* bytes per device (or per node) */
} trace_memgroup;

typedef struct {
    sim_time t0, t1;
    int32_t  track;
    uint8_t  phase;         /* trace_phase, or trace_step_phase on the step track */
    int32_t  iter;          /* training step it serves */
    int32_t  version;       /* policy version in use */
    int32_t  mb;            /* micro-batch index or -1 */
    int32_t  tokens;        /* clipped at INT32_MAX; 40 bytes a span in all */
} trace_span;

typedef struct {
    sim_time t;
    int32_t  group;
    uint8_t  bucket;
    double   bytes;         /* new value of the bucket, per device (or node) */
} trace_counter;

/* INST_BATCH: the training pool takes a batch of finished samples at t; the
** sample that finished last before it did so on `track` at t_from (the
** trace's arrow from that instance to the step, docs/model.md section 13). */
typedef enum { INST_ITER_BEGIN, INST_ITER_END, INST_VERSION, INST_PREEMPT, INST_BATCH } trace_instant_kind;
typedef struct {
    sim_time t;
    uint8_t  kind;
    int32_t  iter;
    int32_t  version;
    int32_t  track;         /* INST_PREEMPT: the instance's track */
    int32_t  count;         /* INST_PREEMPT: sequences taken off */
    int64_t  tokens;        /* INST_PREEMPT: their context */
    sim_time t_from;        /* INST_BATCH: when its last sample finished */
} trace_instant;

#define TRACE_LAGS 8

/* A training step's admissible version window [lo, hi], from when its first
** sample started generating to when it trained. */
typedef struct {
    sim_time t0, t1;
    int32_t  iter;
    int32_t  vlo, vhi;
    int32_t  lag_max;       /* largest lag among its trained samples */
    int32_t  lag_count[TRACE_LAGS];   /* trained samples by lag; the last counts that lag and more */
} trace_window;

/* The samples that started generating with one policy version: from the
** first start to the last finish, and how many (written when the run ends). */
typedef struct {
    sim_time t0, t1;
    int32_t  version;
    int32_t  samples;
    int32_t  trained;
} trace_vgroup;

typedef struct trace trace;

typedef struct {
    void (*on_span)(void *ud, const trace *t, const trace_span *s);
    void (*on_counter)(void *ud, const trace *t, const trace_counter *c);
    void (*on_instant)(void *ud, const trace *t, const trace_instant *i);
    void (*on_window)(void *ud, const trace *t, const trace_window *w);
    void *ud;
    void (*on_vgroup)(void *ud, const trace *t, const trace_vgroup *g);   /* optional */
    /* optional: n spans recorded one after the other, the same as n calls
    ** of on_span (a task's pipeline hands its spans over in batches) */
    void (*on_spans)(void *ud, const trace *t, const trace_span *s, size_t n);
} trace_sink;

trace *trace_new(void);
void   trace_free(trace *t);
void   trace_set_sink(trace *t, const trace_sink *sink);   /* NULL to remove */
/* Room for about this many spans (the engine's estimate; avoids regrowing). */
void   trace_reserve_spans(trace *t, size_t n);

int  trace_add_track(trace *t, const trace_track *tk);
int  trace_add_memgroup(trace *t, const trace_memgroup *g);
void trace_add_span(trace *t, const trace_span *s);
/* The same, telling how far the report's measured window is settled: w0 its
** start once it will not move again (else -1), open a time the window is
** known to end at or after (else -1).  Spans whose share of the window is then
** known go into the running totals at once; the others wait, in order. */
void trace_add_span_at(trace *t, const trace_span *s, sim_time w0, sim_time open);
/* The same, with lo a time the window is known to start at or after while
** its start is not settled (else -1): a span that ends by lo adds nothing
** then, and waits no more — its whole length is kept aside for a run that
** stops before its warm-up (docs/performance.md, "Headless runs"). */
void trace_add_span_in(trace *t, const trace_span *s, sim_time w0, sim_time open, sim_time lo);
/* n spans recorded one after the other with the same window: the same as
** n calls of trace_add_span_in (a task's pipeline records its spans so). */
void trace_add_spans_in(trace *t, const trace_span *s, size_t n, sim_time w0, sim_time open, sim_time lo);
/* Spans of computation given only as what the running totals read, their
** track and ends: the same as trace_add_spans_in of those spans with a
** computation phase.  For a pipeline whose spans nothing reads one by one
** (!trace_spans_read); the spans are made whole if something does. */
typedef struct {
    sim_time t0, t1;
    int32_t  track;
} trace_run;
void trace_add_runs_in(trace *t, const trace_run *r, size_t n, sim_time w0, sim_time open, sim_time lo);

/* A span waiting in its pool's queue for the report's window to settle
** (trace.c): its ends, the devices its track stands for, whether it is
** computation (1 or 0). */
typedef struct {
    sim_time t0, t1;
    int32_t  devices;
    uint8_t  compute;
} trace_wait;

/* Runs of computation handed over one by one as they are drawn, all with
** the same window (w0, open, lo): the same as trace_add_runs_in of them in
** that order (which is written with it).  Once a run waits in its pool's
** queue, the runs that follow on tracks next to its own, of the same pool
** and devices (lo .. lo + span), go straight to the queue's tail
** (trace_runs_add); any other goes through trace_runs_take, which also
** gives the tail its room.  Nothing else may be recorded into the trace
** between trace_runs_begin and trace_runs_end. */
typedef struct {
    trace_wait *at, *end;       /* the queue's tail and the end of its room (NULL: none) */
    int32_t     lo, devices;
    uint32_t    span;
    /* the rest is trace.c's */
    trace_wait *from;           /* the tail when the room was given */
    trace      *t;
    sim_time    w0, open, wlo;
    size_t      n, pushed;      /* runs taken, and queued, apart from those since from */
    int         pool;
    bool        first;          /* no run of a pool yet: the window moves at the first */
    bool        streamed;       /* the caller hands the sink the spans (trace_stream_spans) */
} trace_runs;
void trace_runs_begin(trace *t, trace_runs *w, sim_time w0, sim_time open, sim_time lo);
/* The same for a trace whose spans only its sink reads (trace_spans_streamed):
** the runs go to the running totals alone, and the caller hands the sink
** the same runs drawn whole, in the same order, by trace_stream_spans before
** trace_runs_end. */
void trace_runs_begin_streamed(trace *t, trace_runs *w, sim_time w0, sim_time open, sim_time lo);
void trace_stream_spans(trace *t, const trace_span *s, size_t n);
void trace_runs_take(trace_runs *w, sim_time a, sim_time b, int32_t track);
void trace_runs_end(trace_runs *w);
static inline void trace_runs_add(trace_runs *w, sim_time a, sim_time b, int32_t track)
{
    if (w->at != w->end && (uint32_t)track - (uint32_t)w->lo <= w->span) {
        *w->at++ = (trace_wait){a, b, w->devices, 1};
        return;
    }
    trace_runs_take(w, a, b, track);
}
void trace_add_counter(trace *t, const trace_counter *c);
void trace_add_instant(trace *t, const trace_instant *i);
void trace_add_window(trace *t, const trace_window *w);
void trace_add_vgroup(trace *t, const trace_vgroup *g);

/* Whether spans, counters and instants are stored (the default) or only
** streamed to the sink and summed into the running totals: a run that nothing
** will read spans from (no terminal front end, no SVG) keeps memory bounded
** in iterations.  Windows and version groups, one a step, are always kept.
** Turning storing off keeps what was stored until then. */
void trace_keep(trace *t, bool keep);
bool trace_keeps(const trace *t);
/* Whether spans are read one by one: stored, or watched by a sink.  When
** not, only their running totals are kept, which read a span's track, ends
** and whether its phase is computation, nothing else (trace_add_spans_in). */
bool trace_spans_read(const trace *t);
/* Whether the only reader of spans one by one is the sink, streaming them
** as they come (none stored): a producer may then make its spans in
** batches its own way, so long as the sink sees the same spans in the same
** order (eng_train.c's lean 1F1B pass). */
bool trace_spans_streamed(const trace *t);
/* Spans recorded in all, stored or not; spans waiting for the window to
** settle now, and the most that ever waited (what a run holds of its spans
** when it stores none). */
size_t trace_nspans_recorded(const trace *t);
size_t trace_nspans_waiting(const trace *t);
size_t trace_nspans_waiting_peak(const trace *t);
/* Whether a phase is computation (not communication, memory moves or waits). */
bool trace_phase_is_compute(trace_phase p);
/* Per pool, device-seconds of the spans of pool tracks (not host links, not
** the step track) inside the window [w0, w1] (the run's final one): all of
** them, and those of computation.  The same sums, span by span in the order
** they were recorded, as report.c's loop over stored spans (docs/performance.md, "Headless runs"). */
void trace_window_totals(const trace *t, sim_time w0, sim_time w1, int npools, double *busy, double *comp);

int  trace_ntracks(const trace *t);
const trace_track *trace_track_at(const trace *t, int i);
int  trace_nmemgroups(const trace *t);
const trace_memgroup *trace_memgroup_at(const trace *t, int i);
size_t trace_nspans(const trace *t);
const trace_span *trace_spans(const trace *t);
size_t trace_ncounters(const trace *t);
const trace_counter *trace_counters(const trace *t);
size_t trace_ninstants(const trace *t);
const trace_instant *trace_instants(const trace *t);
size_t trace_nwindows(const trace *t);
const trace_window *trace_windows(const trace *t);
size_t trace_nvgroups(const trace *t);
const trace_vgroup *trace_vgroups(const trace *t);

/* Spans of one track in the order they were added (indices into trace_spans). */
size_t trace_track_nspans(const trace *t, int track);
const uint32_t *trace_track_span_index(const trace *t, int track);
/* Value of a memory bucket of a group at time `at` (last counter at or before). */
double trace_mem_at(const trace *t, int group, mem_bucket b, sim_time at);

#endif
