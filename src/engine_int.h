/*
** engine_int.h — the engine's internals, shared by its source files and by
** nothing else: every other module, and the tests, include only engine.h
** (scripts/heap_hold.c, the bench's bare event-queue timing, includes it for
** the queue's own push and pop).
**
** One controller drives every deployment mode and both synchronous and
** bounded-staleness (StaleSync) operation:
**   - batches of samples are released into a generation queue when the
**     staleness bound and the partial-rollout threshold allow;
**   - rollout instances admit queued samples (continuous batching, KV-limited)
**     and decode; one event per admission/completion, never per token;
**   - the trainer takes the N oldest finished samples whose lag is within the
**     bound, runs the forward passes (old log-probs, reference, reward,
**     critic) on their pools, trains (1F1B pipeline, DP/EP communication,
**     optimizer) and publishes a new version;
**   - co-located pools switch between layouts (offload/onload over the host
**     link, bucketed resharding); separated rollout pools receive weights.
** With staleness 0 this is exactly the synchronous system.  docs/model.md
** describes every rule and formula (section 4 the controller, 5 generation,
** 6-7 forward passes and training, 8-10 switching, weight sync, DistQueue,
** 11 the memory ledger).
**
** The code is cut along those seams, one concern a file:
**   eng_ctrl.c   the event loop and the controller: batch release, what each
**                finished task leads to, the poll that starts the next work;
**                the public sim_* entry points (run, advance, getters)
**   eng_gen.c    rollout instances: admission, prefill, decode segments and
**                their closed-form time, completion, stopping and resuming
**   eng_prefix.h prefix caching: the prompt groups active on an instance
**                and the KV their samples share, static functions that
**                eng_gen.c alone includes (inlined into its event path)
**   eng_step.c   the training step: which samples it takes and when, the
**                DistQueue reads, the end of a step, co-located switching,
**                weight transfer to separate pools, and the step track
**   eng_train.c  the analytic tasks: forward passes, the 1F1B pipeline,
**                gradient reduction and optimizer
**   eng_dispatch.c  the generation queue shared out among a pool's instances
**   eng_mb.c     a step's samples cut into micro-batches (token balancing
**                over the data-parallel replicas)
**   eng_draw.c   the workload's lengths, drawn ahead on a thread of their own
**   eng_setup.c  sim_new/sim_free (workload, tracks, memory groups) and the
**                memory ledger
** This header holds the state they share (struct sim and its parts), the
** helpers of the per-event path as static inline functions (event queue,
** generation queues, spans, task scheduling: the split costs no call), and
** the prototypes of the functions that cross files.  A name that starts with
** eng_ comes from here; every other function is static in its file, or one
** of engine.h's sim_* entry points.  This header includes only public
** headers, and the eng_*.c files include only it and those (eng_gen.c
** also eng_prefix.h, which includes only this): there is no include
** cycle.
*/
#ifndef FUSYNC_ENGINE_INT_H
#define FUSYNC_ENGINE_INT_H

#include "engine.h"
#include "dist.h"
#include "fields.h"
#include "model.h"

#include <stddef.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- events */

typedef enum { EV_INST, EV_TASK, EV_AUX } ev_kind;

/* An event is 16 bytes, four to a cache line: its time and one word that
** holds its insertion number above its kind and its subject (an instance or
** a pool index: fewer than 2^20 devices, FLD_DEVICES_MAX, so fewer than
** EV_A_LIMIT instances).  Ordered by (t, word) the events are ordered by
** (t, insertion number), each number being handed out once; 40 bits of
** insertion numbers are 10^12 pushes.  An instance knows its live event by
** that number (instance.evseq):
** an event it has since replaced is superseded. */
enum { EV_A_BITS = 22, EV_KIND_BITS = 2, EV_SEQ_SHIFT = EV_A_BITS + EV_KIND_BITS };
#define EV_A_LIMIT (1 << EV_A_BITS)
_Static_assert(EV_AUX < (1 << EV_KIND_BITS), "event: a kind beyond its bits");
_Static_assert(FLD_DEVICES_MAX <= EV_A_LIMIT, "event: an instance index beyond its bits");

typedef struct {
    sim_time t;
    uint64_t w;         /* seq << EV_SEQ_SHIFT | kind << EV_A_BITS | a */
} event;
_Static_assert(sizeof(event) == 16, "event: grew beyond 16 bytes");

static inline int eng_ev_kind(const event *e) { return (int)(e->w >> EV_A_BITS & ((1u << EV_KIND_BITS) - 1)); }
static inline int eng_ev_a(const event *e) { return (int)(e->w & (EV_A_LIMIT - 1)); }
static inline uint64_t eng_ev_seq(const event *e) { return e->w >> EV_SEQ_SHIFT; }

/* The queue is a binary min-heap by (t, seq).  A pop does not remove the
** root at once: it copies it out and marks it taken, and the next push, if
** the root is still taken, puts its event in the root's place (one walk
** down instead of a walk down for the pop and one up for the push) -- an
** instance rescheduling itself after its completion pushes at once in
** almost every event.  Any other reader settles the queue first (removes a
** taken root) or peeks past it.  `n` counts the slots in use, a taken root
** included: eng_evq_len is the number of events waiting.  (t, seq) orders
** events strictly and seq is handed out at each push, into the taken root
** or not, so the order events come out in is that of any heap discipline. */
typedef struct {
    event   *v;
    size_t   n, cap;
    uint64_t seq;
    bool     taken;     /* v[0] was popped: it is no longer an event */
} evq;

static inline bool eng_ev_less(const event *x, const event *y)
{
    return x->t < y->t || (x->t == y->t && x->w < y->w);
}

/* The same without branches: which of two children is earlier is a coin
** toss to the branch predictor.  (t, w) compared as one unsigned 128-bit
** number (gcc and clang have the type), t's sign bit flipped so that its
** order is kept. */
static inline int eng_ev_less_bits(const event *x, const event *y)
{
    const uint64_t flip = UINT64_C(1) << 63;
    unsigned __int128 a = (unsigned __int128)((uint64_t)x->t ^ flip) << 64 | x->w;
    unsigned __int128 b = (unsigned __int128)((uint64_t)y->t ^ flip) << 64 | y->w;
    return a < b;
}

/* Fill the hole at v[0] with `e`: the hole walks down the earlier
** children to a leaf (one comparison a level), then `e` is sifted up from
** there (Floyd's bottom-up variant); `n` is the number of slots after.
** Every node above the last node's parent has two children, so the walk
** takes those levels without asking whether it has reached a leaf (a
** fixed count of turns, which the branch predictor learns), and asks once,
** at the last node's depth less one. */
static inline void eng_evq_fill_down(evq *q, size_t n, event e)
{
    size_t i = 0;
    if (n > 1) {
        const int depth = 63 - __builtin_clzll((unsigned long long)n);   /* of node n - 1 */
        for (int d = 1; d < depth; d++) {
            size_t l = 2 * i + 1;
            size_t m = l + (size_t)eng_ev_less_bits(&q->v[l + 1], &q->v[l]);
            q->v[i] = q->v[m];
            i = m;
        }
        size_t l = 2 * i + 1;
        if (l < n) {
            size_t m = l + 1 < n ? l + (size_t)eng_ev_less_bits(&q->v[l + 1], &q->v[l]) : l;
            q->v[i] = q->v[m];
            i = m;
        }
    }
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!eng_ev_less(&e, &q->v[p])) break;
        q->v[i] = q->v[p];
        i = p;
    }
    q->v[i] = e;
}

/* Remove a taken root, if there is one. */
static inline void eng_evq_settle(evq *q)
{
    if (!q->taken) return;
    q->taken = false;
    size_t n = --q->n;
    if (n > 0) eng_evq_fill_down(q, n, q->v[n]);
}

/* Events waiting. */
static inline size_t eng_evq_len(const evq *q) { return q->n - q->taken; }

/* The earliest event waiting, or NULL, without settling the queue (a taken
** root's earlier child is the earliest of the rest). */
static inline const event *eng_evq_peek(const evq *q)
{
    if (!q->taken) return q->n ? &q->v[0] : NULL;
    if (q->n < 2) return NULL;
    return q->n > 2 && eng_ev_less(&q->v[2], &q->v[1]) ? &q->v[2] : &q->v[1];
}

/* Queue an event of `kind` about `a` (0 <= a < EV_A_LIMIT) at t; returns
** its insertion number. */
static inline uint64_t eng_evq_push(evq *q, sim_time t, int kind, int a)
{
    const uint64_t seq = q->seq++;
    event e = {t, seq << EV_SEQ_SHIFT | (uint64_t)kind << EV_A_BITS | (uint64_t)a};
    if (q->taken) {
        /* in the taken root's place */
        q->taken = false;
        eng_evq_fill_down(q, q->n, e);
        return seq;
    }
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 256;
        q->v = xrealloc(q->v, q->cap * sizeof *q->v);
    }
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!eng_ev_less(&e, &q->v[p])) break;
        q->v[i] = q->v[p];
        i = p;
    }
    q->v[i] = e;
    return seq;
}

/* Take the earliest event (there is one: eng_evq_len > 0).  Its slot stays
** as the taken root until the next push fills it or a reader settles. */
static inline event eng_evq_pop(evq *q)
{
    eng_evq_settle(q);
    q->taken = true;
    return q->v[0];
}

/* --------------------------------------------------------------- samples */

enum { S_WAIT, S_QUEUED, S_ACTIVE, S_DONE, S_TAKEN, S_TRAINED };
enum { PRE_NONE, PRE_RECOMPUTE, PRE_SWAPPED };

typedef struct {
    int32_t  prompt, resp;
    int32_t  gen;           /* response tokens decoded so far (kept) */
    int32_t  batch;
    int32_t  v_start;       /* version it started generating with (-1 not yet) */
    int32_t  v_last;
    /* four bytes for the instance and the flags: 56 bytes a sample, not 64
    ** (the samples of every batch alive are held at once).  They are also
    ** one word, so a completion writes them in one store (eng_gen.c,
    ** sample_finish) instead of a read-modify-write of a cold line. */
    union {
        struct {
            signed int   inst : 24;     /* instance index (< 2^23, the devices' bound), -1 none */
            unsigned int state : 3;     /* S_* */
            unsigned int resumed : 1;   /* needs a re-prefill of prompt + gen */
            unsigned int preempted : 2; /* paged KV: taken off a full cache (PRE_*), not yet readmitted */
        };
        uint32_t flags;
    };
    uint32_t admseq;        /* its instance's admission count (instance.nadmit) when admitted: the admission order */
    int64_t  adm_step;      /* instance step minus tokens already generated */
    sim_time t_start, t_end;
} sample;
_Static_assert(S_TRAINED < 8 && PRE_SWAPPED < 4, "sample: a state or preemption kind beyond its bits");
_Static_assert(sizeof(sample) == 56, "sample: the struct grew beyond 56 bytes");

/* An instance's active sample in its heap (eng_gen.c): one 64-bit word,
** the instance step at which it finishes, counted from the instance's
** kbase, above its id (ids are not negative), so that one unsigned
** comparison orders entries by (step, id).  Eight bytes: an instance's heap
** is a quarter of the lines it would be with the sample's figures inline (a
** completion reads those from the sample's struct, whose line it writes
** anyway).  The heap is binary with a root of one child, its array aligned
** to 128 bytes: two siblings share 16 bytes and the sixteen descendants of
** a node three levels down are two aligned lines.  A finishing step is
** at most FLD_TOKENS_MAX past the instance's step, and kbase is moved up
** before the step is 2^31 past it (eng_gen.c, heap_push), so the count
** from kbase fits its 32 bits. */
typedef uint64_t hent;
#define HENT_REL_SPAN (INT64_C(1) << 31)
_Static_assert((uint64_t)HENT_REL_SPAN + FLD_TOKENS_MAX <= UINT32_MAX, "hent: a finishing step beyond its 32 bits");

static inline int32_t hent_id(hent e) { return (int32_t)(uint32_t)e; }

typedef struct {
    int     *v;
    int64_t  head, len, cap;
} squeue;

/* The decode step's roofline lines at one batch size (eng_gen.c):
** compute and HBM time, each a + slope·context, and the rest. */
typedef struct {
    double c0, cslope, m0, mslope, fixed;
    bool   known;
} dline;

typedef struct {
    /* what an event reads and writes, first (128 bytes): a large run's
    ** event finds the next instance out of the cache (eng_gen.c,
    ** eng_inst_event, asks for these lines ahead) */
    hent    *heap;
    int      hn, nactive;
    int64_t  kbase;         /* the step its heap entries count from (hent) */
    int64_t  step;
    double   ctx_sum;
    double   kv_used, kv_cap;
    sim_time seg_t0;        /* decode segment start (after any prefill) */
    int64_t  seg_step0;
    int64_t  target;        /* step at the scheduled event */
    uint64_t evseq;         /* insertion number of its live event (evq), if scheduled */
    double   slow;          /* time factor of this instance (plan.rollout.speed_spread; 1 alike) */
    int32_t  root_hint;     /* its heap's root's sample when it last scheduled its event (eng_gen.c): a prefetch's hint */
    int      dtab;          /* its decode-step table in sim.dtab, -1 not yet known */
    int      version;
    uint32_t nadmit;        /* samples admitted so far, modulo 2^32 (sample.admseq) */
    int      quota;         /* balanced dispatch: samples it may admit now, -1 no limit */
    int      track;
    bool     scheduled;
    bool     running;       /* allowed to generate (weights loaded, not paused) */
    /* the rest: admission, dispatch, and what is looked up once */
    int      hcap;
    int      pool, index;
    double   quota_kv;      /* KV the dispatcher has counted for them */
    const scn_link *link;   /* the link its devices talk over (&lk), NULL not yet looked up */
    scn_link lk;
    int      own_b;         /* with no table (dtab < 0 once looked up): the batch of */
    dline    own;           /* the lines it computed last */
    /* prefix caching (eng_prefix.h): the prompt groups active here, each with
    ** its count of active samples (open addressing, key -1 free), and the
    ** KV tokens their sharing saves, Σ (count − 1)·cached prompt tokens */
    struct pgent *pg;
    int      pgcap;
    double   kv_shared;
} instance;
enum { INST_HOT_BYTES = 128 };
_Static_assert(offsetof(instance, hcap) <= INST_HOT_BYTES, "instance: what an event reads grew beyond its 128 bytes");

/* Lines by batch size 0..n-1 for the instances on one link: every input of
** the roofline but the batch is the same for them (model, device, rollout
** TP/EP, efficiencies), so each entry is computed once per run.  The table
** grows to the largest batch that occurs. */
/* A prefill's time by its (tokens, sum of squared lengths), for the same
** instances: admissions of one sample each repeat the same few prompt
** lengths (eng_gen.c). */
typedef struct {
    double tok, sq, total_s;
} pfent;

typedef struct {
    scn_link link;          /* a copy: instances with equal links share the table */
    const scn_device *dev;  /* and the same device type (plan_pool_device) */
    dline *v;
    int    n;
    pfent *pf;              /* direct-mapped prefill times, NULL until first used */
} dtable;

/* Micro-batches of the most loaded replica for a set of samples (eng_mb.c):
** their count, per micro-batch tokens and sum of squared lengths, the
** longest sequence; the arrays' room kept (cap). */
typedef struct {
    int     m, cap;
    double *tok, *sq;
    double  max_len;
} mb_res;

/* The micro-batch builder's scratch (eng_mb.c): the lengths (three regions
** of cap: the lengths, the sort's buffer, a step's sorted mini-batches),
** each sequence's replica, and the replicas' keys or heap (for dp). */
typedef struct {
    uint32_t *len;
    int      *owner;
    void     *heap;
    size_t    cap, dp;
} mb_scratch;

/* A released batch's micro-batches, worked out on the drawer's thread
** (eng_mb.c, eng_draw.c). */
typedef struct mb_pre mb_pre;
enum { MB_PRE_KEEP = 8 };

/* The running step's micro-batch sets, by the samples asked for: worked
** out here (own), or a batch's from the drawer (from). */
enum { MB_MEMO = 8 };
typedef struct {
    const int *ids;         /* the samples: a range of step_ids (NULL: none) */
    int     n, dp, mbs;
    double  budget;         /* tokens a micro-batch may hold, 0: mbs sequences */
    const mb_res *res;      /* &own, or a set of from's */
    mb_res  own;
    const mb_pre *from;
} mb_memo;

/* The 1F1B pipeline (eng_train.c): a stage's run of back-to-back ops being
** merged into one span, and its progress. */
typedef struct {
    sim_time a, b;          /* b: set when the run is drawn (eng_train.c) */
    int      phase, mb, n;
    int64_t  tokens;
} pipe_run;

typedef struct {
    double   free_at;       /* seconds after the task's start */
    int      nf, nb;        /* forwards and backwards done */
    pipe_run run;
} pipe_stage;

/* The order a 1F1B pipeline of P stages and M micro-batches resolves its
** ops in (eng_train.c): stage·2 + (1 for a backward). */
enum { PIPE_ORDERS = 4 };
typedef struct {
    int       P, M, n;
    uint32_t *ops;
} pipe_order;

/* ----------------------------------------------------------------- pools */

typedef enum { P_IDLE, P_GEN, P_SWITCH_R, P_SWITCH_T, P_INFER, P_TRAIN, P_SYNC, P_RECV } pstate;

typedef struct {
    pstate   st;
    bool     rollout_layout;    /* co-located: weights in the rollout layout */
    int      inst0, ninst;      /* its instances */
    int      track0, ntracks;   /* stage tracks (train pools) or the aux track */
    int      hostlink_track;
    int      group0, ngroups;   /* device memory groups */
    int      host_group;
    int      infer_cursor;      /* chunks of the current step it has taken up */
    int      cur_chunk;         /* chunk of the forward pass in progress */
    bool     train_rest;        /* the training task in progress is the later epochs */
    sim_time busy_until;
    sim_time class_t0;          /* start of the current step-track interval */
    int      class_phase;
    int      class_v;           /* the version when it started: the step it belongs to */
    sim_time inf_t[INF__COUNT][2];  /* the running forward task's parts: [start, end) each */
} pool_rt;

struct sim {
    scn_scenario scn;
    plan     pl;
    trace   *tr;
    evq      q;
    sim_time now;
    bool     finished;
    bool     failed;
    bool     closed;            /* finish_up has run */
    fs_err   err;
    rng_state rng;
    scn_model roll_model;       /* the actor as the rollout's busiest EP rank sees it (plan.rollout.ep_imbalance) */
    sim_stats st;
    sim_hooks hooks;
    bool     has_hooks;
    double   wall0, wall;

    /* Samples: a ring over sample ids (id = batch·N + index), smask + 1 (a
    ** power of two) slots, holding the batches alive: released and not yet
    ** wholly trained, from batch `low` up to `released`.  A batch's lengths
    ** are drawn when it is released, in batch order, from the one generator,
    ** so a run draws exactly what drawing every batch up front would. */
    sample  *smp;
    int64_t  smask;
    int64_t  nsmp;              /* samples in the run: N · iterations */
    int      N;                 /* samples per step */
    int      released;          /* batches released into the queue (and drawn) */
    struct drawer *draw;        /* batches drawn ahead on a thread of their own (eng_draw.c), or NULL */
    int      low;               /* the oldest batch with a sample not yet trained */
    int32_t *batch_trained;     /* trained samples per batch */
    double  *len_sum, *len_max; /* per drawn batch: Σ(prompt+response), the longest */
    trace_vgroup *vg;           /* per start version: its trained samples so far (emit_version_groups) */
    bool     queue_changed;     /* the queue's head may admit somewhere new */
    squeue  *queues;            /* generation queues: one shared, or one per instance */
    int      nqueues;
    int64_t  dq_len;            /* samples queued in all of them */
    int     *fin;               /* finished, untrained */
    int64_t  nfin, fin_cap;
    sim_time fin_last_t;    /* the latest finish of a sample, and its instance's track (-1: none yet) */
    int      fin_last_track;
    uint64_t *adm;              /* scratch of an instance's active samples, newest first (eng_gen.c, inst_newest_first) */
    int      adm_cap;
    uint64_t *take_k;           /* scratch of take_samples: keys, their sort buffer, kf, the leftover sorted */
    int64_t  take_cap;
    uint64_t fin_stamp;         /* changes whenever a sample leaves fin other than by take_samples (one joining changes nfin) */
    /* take_samples' eligible keys left over (take_k's fourth region, from
    ** take_c0, take_cn of them), valid while take_ok and fin, the step and
    ** the bound are as they were then */
    bool     take_ok;
    int      take_step, take_stale;
    uint64_t take_stamp;
    int64_t  take_c0, take_cn, take_nfin;
    int64_t *batch_done;        /* finished samples per batch */
    int16_t *progress_mark;     /* per batch: the last on_rollout_progress mark called (eng_ctrl.c) */
    /* Staleness counters, by the version a sample started with: finished
    ** and untrained (fin), started and unfinished (open).  Each is kept as
    ** per-version counts, a Fenwick tree over them and a total, all updated
    ** where a sample changes state (eng_fin_add, eng_open_add), so the
    ** controller's "how many at versions <= v" costs O(log versions) per
    ** event instead of a loop over every version. */
    int64_t *fin_v, *fin_bit, fin_total;
    int64_t *open_v, *open_bit, open_total;
    /* Generating now (S_ACTIVE on an instance), by start version: what the
    ** front end's Staleness pane shows, kept like the above (eng_act_add). */
    int64_t *act_v;
    uint64_t count_work;        /* Fenwick nodes read by those queries (tests) */
    int      nver;
    int      staleness;         /* the lag bound in whole versions (plus one with a share) */
    int      share_on;          /* plan.stale_share > 0: admission also counts samples */
    int64_t  share_n;           /* ⌊stale_share · N⌋ */
    bool     bound_lowered;     /* a hook lowered the bound (sim_set_staleness) */
    double   partial;

    /* instances and pools */
    instance *inst;
    int      ninst;
    int64_t *disp;          /* scratch of the balanced dispatcher: a heap of instances, keyed (eng_gen.c) */
    pool_rt  pr[SCN_POOLS_MAX];
    dtable   dtab[4];           /* decode-step tables, one per link in use */
    int      ndtab;
    int      step_track;
    unsigned gen_only_pools;    /* bit p: pool p generates and is not the training pool (eng_ctrl.c) */
    int8_t   heaps_cold;        /* eng_gen.c, heaps_cold: 0 not yet worked out, 1 no, 2 yes */

    /* the trainer */
    int      version;           /* = steps trained */
    int      step_running;      /* step being processed, -1 none */
    int     *step_ids;          /* samples of the running step */
    int     *bal_ids;           /* plan.train.balance = step: per mini-batch, its most loaded rank's samples (eng_train.c) */
    int     *bal_n;             /* and their count, per mini-batch */
    int      bal_step, bal_dp;  /* the step and DP degree bal_ids is for (-1: none) */
    bool     streaming;         /* StaleSync: chunks per mini-batch */
    int      nchunks, chunk_n;  /* chunks per step, samples per chunk */
    int      chunks_taken, chunks_trained;
    bool     rest_trained;      /* epochs after the first, when streaming */
    /* the critic on a pool of its own (plan.critic_pool; docs/model.md,
    ** section 2): each training task the actor's pool starts is also the
    ** critic's, run there in turn; of this step's, how many the actor has
    ** started, the critic started and done; actor_trained: the actor's last
    ** is done, the step waits for the critic's (the barrier after both) */
    int      crit_avail, crit_next, crit_done;
    bool     actor_trained;
    int     *chunk_infer_left;  /* forward passes outstanding per chunk */
    bool    *cut;               /* per batch: a hook cut its rollout short */
    sim_time step_done_t[2];

    /* memory ledger: per group current bytes per bucket */
    double  (*mem)[MB__COUNT];
    double  (*mem_peak)[MB__COUNT];
    double  *mem_peak_total;
    sim_time *mem_peak_t;
    int      ngroups;

    /* scratch for training */
    double  *f_end, *f_dur, *b_dur;
    size_t   pipe_cap, pipe_mcap, pipe_pcap;
    pipe_stage *pipe_st;
    pipe_order porder[PIPE_ORDERS];   /* 1F1B op orders by shape, kept */
    int      porder_next;
    mb_memo  mbm[MB_MEMO];      /* micro-batch sets of the running step (eng_mb.c) */
    int      nmbm, mbm_next;
    mb_scratch mbw;             /* scratch of the micro-batch builder */
    mb_pre  *mbpre[MB_PRE_KEEP];  /* batches' micro-batches from the drawer, at b % MB_PRE_KEEP */
    int64_t  mbpre_taken;       /* sets taken from them (sim_mb_sets_ahead) */
    /* eng_mb.c: the running step's lengths, longest first, per
    ** mini-batch of mb_per samples, from the one sort of the whole step
    ** (kept after the builder's scratch in mbw.len); mb_sorted says they
    ** are there (eng_mb_forget clears it) */
    bool     mb_sorted;
    int      mb_per;
};

/* --------------------------------------------------------------- helpers */

/* Sample `id` (a live one: released, not in a batch wholly trained). */
static inline sample *eng_smp(const sim *s, int64_t id) { return &s->smp[id & s->smask]; }

/* Ask for sample `id`'s struct, to be written: both lines, as a 56-byte
** struct in the ring straddles two 64-byte lines at six of its eight
** offsets. */
static inline void eng_smp_prefetch(const sim *s, int64_t id)
{
    const char *x = (const char *)eng_smp(s, id);
    __builtin_prefetch(x, 1);
    __builtin_prefetch(x + sizeof(sample) - 1, 1);
}

static inline const scn_model *eng_actor(const sim *s) { return &s->scn.actor; }

/* May sample x start on an instance at version v?  Its batch b must satisfy
** b - v <= s (docs/model.md, section 4, rule 2).  With a stale share f the
** bound s is the scenario's plus one, and the samples an instance at
** version v may have started are counted as well: those numbered below
** (v + 1 + s_scenario + f)·N, verl's fully async budget of
** (1 + staleness_threshold) sync windows of samples (section 4, "Fractional
** staleness"). */
/* The test as two comparisons with bounds worked out once for a version
** (a loop over samples, eng_gen.c, inst_admit, takes them once): b - v <= s
** is b <= v + s (no overflow in 64 bits), and with no stale share every id
** passes. */
typedef struct {
    int64_t batch_max, id_lim;
} eng_start_bound;

static inline eng_start_bound eng_start_bound_at(const sim *s, int v)
{
    eng_start_bound b = {(int64_t)v + s->staleness, INT64_MAX};
    if (s->share_on) b.id_lim = (int64_t)(v + s->staleness) * s->N + s->share_n;
    return b;
}

static inline bool eng_start_ok(eng_start_bound b, int id, const sample *x)
{
    return x->batch <= b.batch_max && (int64_t)id < b.id_lim;
}

static inline bool eng_may_start(const sim *s, int id, const sample *x, int v)
{
    return eng_start_ok(eng_start_bound_at(s, v), id, x);
}

/* The link joining pool q's devices k, k + stride, … (k counts within the
** pool: plan_dev gives the device number). */
static inline scn_link eng_pool_link(const sim *s, const plan_pool *q, int k, int stride, int count)
{
    return plan_group_link(&s->scn.cluster, q, k, stride, count, false);
}

/* A span as the trace records it: its end not before its start, its tokens
** clipped to the field. */
static inline trace_span eng_span_make(int track, trace_phase ph, sim_time t0, sim_time t1, int iter, int ver, int mb,
                                       int64_t tok)
{
    if (t1 < t0) t1 = t0;
    if (tok > INT32_MAX) tok = INT32_MAX;
    return (trace_span){t0, t1, track, (uint8_t)ph, iter, ver, mb, (int32_t)tok};
}

/* The report's window so far, for trace_add_span_in: its start is final
** once the warm-up step's version is passed (it is set while the version
** equals the warm-up); until its end is set, it ends at or after now.
** Before, it starts at or after now (the warm-up's last step ends later),
** then at or after its start so far (that step's weights are published
** later still). */
static inline void eng_span_window(const sim *s, sim_time *w0, sim_time *open, sim_time *lo)
{
    const int v = s->version, wu = s->scn.work.warmup;
    *w0 = v > wu ? s->st.window_t0 : -1;
    *open = s->st.window_t1 > 0 ? -1 : s->now;
    *lo = v < wu ? s->now : v == wu ? s->st.window_t0 : -1;
}

static inline void eng_span(sim *s, int track, trace_phase ph, sim_time t0, sim_time t1, int iter, int ver, int mb, int64_t tok)
{
    trace_span sp = eng_span_make(track, ph, t0, t1, iter, ver, mb, tok);
    sim_time w0, open, lo;
    eng_span_window(s, &w0, &open, &lo);
    trace_add_span_in(s->tr, &sp, w0, open, lo);
}

/* ------------------------------------------------------------- deque ops */

/* A sample waits in its queue: the shared one (dispatch "balanced": the
** router gives it to the least-loaded instance, eng_dispatch; "queue": the
** instances take from it in index order) or its instance's own (dispatch
** "static": the batch is cut into equal parts up front, as verl does). */
static inline squeue *eng_queue_of(sim *s, int id)
{
    /* static dispatch: queue k holds the indexes i with ⌊i·queues/N⌋ = k */
    const int64_t i = id % s->N;
    return &s->queues[s->nqueues > 1 ? (int)(i * s->nqueues / s->N) : 0];
}

/* Room for n more ids: the capacity doubles (from 256) until they fit, and
** the ids move to the front of the new array in queue order. */
static inline void eng_sq_room(squeue *q, int64_t n)
{
    if (q->len + n <= q->cap) return;
    int64_t nc = q->cap ? q->cap : 256;
    while (nc < q->len + n) nc *= 2;
    int *nd = xmalloc((size_t)nc * sizeof *nd);
    for (int64_t i = 0; i < q->len; i++) nd[i] = q->v[(q->head + i) % q->cap];
    free(q->v);
    q->v = nd;
    q->head = 0;
    q->cap = nc;
}

static inline void eng_sq_reserve(squeue *q) { eng_sq_room(q, 1); }

static inline void eng_dq_push_back(sim *s, int id)
{
    squeue *q = eng_queue_of(s, id);
    s->queue_changed = true;
    eng_sq_reserve(q);
    q->v[(q->head + q->len) % q->cap] = id;
    q->len++;
    s->dq_len++;
}

static inline void eng_dq_push_front(sim *s, int id)
{
    squeue *q = eng_queue_of(s, id);
    s->queue_changed = true;
    eng_sq_reserve(q);
    q->head = (q->head + q->cap - 1) % q->cap;
    q->v[q->head] = id;
    q->len++;
    s->dq_len++;
}

static inline squeue *eng_inst_queue(sim *s, const instance *I)
{
    return s->nqueues > 1 ? &s->queues[I - s->inst] : &s->queues[0];
}

static inline int eng_sq_peek(const squeue *q) { return q->v[q->head]; }

static inline void eng_sq_pop(sim *s, squeue *q)
{
    q->head = q->head + 1 < q->cap ? q->head + 1 : 0;   /* no division: a pop per admission */
    q->len--;
    s->dq_len--;
}

/* ------------------------------------------------- staleness counters */

/* Fenwick (binary indexed) tree over versions 0..n-1, stored 1-based. */
static inline void eng_bit_add(int64_t *bit, int n, int v, int64_t d)
{
    for (int i = v + 1; i <= n; i += i & -i) bit[i] += d;
}

/* Samples counted in `bit` at versions 0..v (v clamped to the range). */
static inline int64_t eng_bit_upto(sim *s, const int64_t *bit, int v)
{
    if (v < 0) return 0;
    if (v >= s->nver) v = s->nver - 1;
    int64_t c = 0;
    for (int i = v + 1; i > 0; i -= i & -i) { c += bit[i]; s->count_work++; }
    return c;
}

static inline void eng_fin_add(sim *s, int v, int64_t d)
{
    s->fin_v[v] += d;
    s->fin_total += d;
    eng_bit_add(s->fin_bit, s->nver, v, d);
}

static inline void eng_open_add(sim *s, int v, int64_t d)
{
    s->open_v[v] += d;
    s->open_total += d;
    eng_bit_add(s->open_bit, s->nver, v, d);
}

/* A sample started with version v finishes: one fewer open, one more
** finished, the two trees walked together (the same nodes: eng_bit_add). */
static inline void eng_open_to_fin(sim *s, int v)
{
    s->open_v[v]--;
    s->open_total--;
    s->fin_v[v]++;
    s->fin_total++;
    for (int i = v + 1; i <= s->nver; i += i & -i) {
        s->open_bit[i]--;
        s->fin_bit[i]++;
    }
}

static inline void eng_act_add(sim *s, int v, int64_t d) { s->act_v[v] += d; }

static inline int64_t eng_fin_upto(sim *s, int v) { return eng_bit_upto(s, s->fin_bit, v); }
static inline int64_t eng_open_upto(sim *s, int v) { return eng_bit_upto(s, s->open_bit, v); }

/* A pool's task ends at `at`: one event, handled by the controller. */
static inline void eng_sched_task(sim *s, int p, sim_time at)
{
    s->pr[p].busy_until = at;
    eng_evq_push(&s->q, at, EV_TASK, p);
}

/* ------------------------------------------------ functions across files */

/* eng_setup.c: draw the lengths of batch b (the next one) into the ring,
** making room first; called as the batch is released. */
void   eng_draw_batch(sim *s, int b);
/* eng_draw.c: a batch's lengths into arrays (one prompt length per prompt,
** one response length per sample), their sum and longest, from generator r;
** and the thread that draws the batches ahead of their release. */
void   eng_draw_into(const scn_scenario *scn, rng_state *r, int b, int32_t *plen, int32_t *resp, double *sum, double *max);
void   eng_drawer_take(sim *s, int b, int32_t **plen, int32_t **resp, double *sum, double *max);
void   eng_drawer_done(sim *s, int b);
void   eng_drawer_free(sim *s);
/* eng_setup.c: the lengths batch b (not yet drawn) will have: Σ(prompt +
** response) and the longest, drawn from a copy of the generator. */
void   eng_preview_lengths(const sim *s, int b, double *sum, double *max);
/* eng_setup.c: the memory ledger, per trace memgroup and bucket. */
void   eng_mem_set(sim *s, int g, mem_bucket b, double bytes, sim_time t);
void   eng_mem_pool(sim *s, int p, mem_bucket b, double bytes, sim_time t);
double eng_mem_group_total(const sim *s, int g);

/* KV accounting (docs/model.md, section 5, KV cache).  "reserve": admission
** holds prompt + max_response for the sample until it finishes, and the
** cache is never full.  "paged": a sequence holds the blocks of the context
** it has; counting its last block as full, it holds ctx + block − 1 tokens,
** and every decode step adds one token per sequence (eng_gen.c,
** eng_dispatch.c). */
static inline bool kv_paged(const sim *s) { return s->scn.plan.rollout.kv == KV_PAGED; }
static inline double kv_slack(const sim *s) { return kv_paged(s) ? s->scn.plan.rollout.kv_block - 1 : 0; }
/* Prefix caching is on: paged KV (blocks are what is shared) and groups of
** more than one sample. */
static inline bool kv_prefix(const sim *s)
{
    return s->scn.plan.rollout.prefix_caching && kv_paged(s) && s->scn.work.samples_per_prompt > 1;
}

/* Paged admission leaves this share of the blocks free, as vLLM's block
** manager keeps a watermark (1% of the blocks by default) so that a newly
** admitted sequence does not force a preemption at once. */
#define KV_WATERMARK 0.01

/* eng_gen.c: rollout instances. */
void eng_inst_event(sim *s, instance *I, sim_time now);
bool eng_inst_can_admit(const sim *s, const instance *I);
void eng_inst_kick(sim *s, instance *I, sim_time now);
void eng_inst_stop(sim *s, instance *I, sim_time now, bool evict, bool restart);
/* eng_dispatch.c: the queue shared out among a pool's instances; a pool's
** instances started on a generation phase. */
void eng_dispatch(sim *s, sim_time now, int pool);
void eng_pool_start_gen(sim *s, int p, sim_time now);

/* eng_step.c: taking samples into the step. */
void eng_discard_stale(sim *s, int step, sim_time now);
void eng_drop_untrainable(sim *s, int step);
void eng_queue_by_batch(sim *s);
bool eng_chunk_ready(sim *s, int step);
/* eng_sort.c: sorting 64-bit keys ascending (tests/test_engsort.c checks
** both against qsort): a radix sort, tmp holding n keys; a placement by the
** keys' high 32 bits when those are distinct and their span and its bitmap
** (a word for 64 values) fit nslots (false otherwise, k untouched). */
void eng_sort_u64(uint64_t *k, int64_t n, uint64_t *tmp);
bool eng_place_hi(uint64_t *k, int64_t n, uint64_t *slots, int64_t nslots);
/* eng_mb.c: n sequences (lengths longest first) spread over dp > 1
** replicas, each to the least loaded, through a tournament tree of the keys
** (load << rbits | replica) in t (2 dp slots): each one's replica in
** owner, each replica's count in rc; every replica's final key is in
** t[0, L), and it returns L. */
int  eng_lpt_tree(uint64_t *t, int dp, int rbits, const uint32_t *len, int n, int *owner, int *rc);
bool eng_trainer_ready(sim *s);
bool eng_pool_infers(const sim *s, int p);
void eng_take_chunk(sim *s);
void eng_start_step(sim *s, sim_time now);
void eng_step_finished(sim *s, sim_time now);
/* eng_step.c: DistQueue reads (seconds), by the training pool and by a
** forward-only pool. */
double eng_queue_transfer(sim *s, int p, sim_time now, const int *ids, int n);
double eng_queue_aux(sim *s, int p, sim_time now, const int *ids, int n);
/* eng_step.c: layouts and weights. */
void eng_switch_to_rollout(sim *s, int p, sim_time now);
void eng_switch_to_train(sim *s, int p, sim_time now);
sim_time eng_start_weight_sync(sim *s, sim_time now);
/* eng_step.c: the step track; call before a pool's state changes to `next`. */
void eng_pool_class(sim *s, int p, pstate next);
void eng_reclass_idle_trainer(sim *s);

/* eng_train.c: the analytic tasks, timed apart from the event loop. */
void eng_start_infer_on(sim *s, int p, sim_time now);
void eng_start_train(sim *s, int p, sim_time now, int e0, int e1, int mb0, int mb1);
/* eng_mb.c: the micro-batches of the most loaded of dp replicas for the
** samples ids[0..n) (kept for the running step); a new step's samples:
** forget the sets kept. */
typedef struct {
    int     m;              /* micro-batches of the representative replica */
    const double *tok, *sq; /* per micro-batch tokens and sum of squared lengths */
    double  max_len;
} mb_set;
/* budget: the tokens one micro-batch may hold (eng_mb_budget for training,
** plan_logprob_budget for a log-prob forward), 0 for mbs sequences each. */
mb_set eng_build_microbatches(sim *s, const int *ids, int n, int dp, int mbs, double budget);
/* Tokens a micro-batch of a data-parallel replica may hold under
** plan.train.max_tokens (a device's budget times the cp ranks a sequence is
** split over), 0 without a budget. */
static inline double eng_mb_budget(const scn_scenario *s)
{
    return s->plan.train.max_tokens > 0 ? (double)s->plan.train.max_tokens * (s->plan.train.cp > 1 ? s->plan.train.cp : 1) : 0;
}
void eng_mb_forget(sim *s);
/* eng_mb.c: a batch's micro-batch sets worked out ahead, on the drawer's
** thread, from its lengths as drawn: for the whole batch and each of its
** mini-batches, at the data-parallel sizes of the pools that run forward
** passes or training.  eng_mb_pre_new: an empty one for the sim's plan (NULL
** when none applies); eng_mb_pre_fill: the drawer's (its own scratch);
** eng_mb_pre_keep: the run's thread keeps one filled for batch b and hands
** back one to fill again. */
mb_pre *eng_mb_pre_new(const sim *s);
void eng_mb_pre_fill(mb_pre *p, mb_scratch *w, int b, const int32_t *plen, const int32_t *resp);
void eng_mb_pre_keep(sim *s, mb_pre **p, int b);
void eng_mb_pre_free(mb_pre *p);
void eng_mb_scratch_free(mb_scratch *w);

#endif
