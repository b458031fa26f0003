/*
** engine.c — the discrete-event simulator.
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
** With staleness 0 this is exactly the synchronous system.
*/
#include "engine.h"
#include "dist.h"
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- events */

typedef enum { EV_INST, EV_TASK, EV_AUX } ev_kind;

typedef struct {
    sim_time t;
    uint64_t seq;
    int32_t  kind;
    int32_t  a;
    uint64_t b;
} event;

typedef struct {
    event   *v;
    size_t   n, cap;
    uint64_t seq;
} evq;

static bool ev_less(const event *x, const event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void evq_push(evq *q, sim_time t, int kind, int a, uint64_t b)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 256;
        q->v = xrealloc(q->v, q->cap * sizeof *q->v);
    }
    event e = {t, q->seq++, kind, a, b};
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_less(&e, &q->v[p])) break;
        q->v[i] = q->v[p];
        i = p;
    }
    q->v[i] = e;
}

static event evq_pop(evq *q)
{
    event top = q->v[0];
    event last = q->v[--q->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const event *best = &last;
        if (l < q->n && ev_less(&q->v[l], best)) { m = l; best = &q->v[l]; }
        if (r < q->n && ev_less(&q->v[r], best)) { m = r; }
        if (m == i) break;
        q->v[i] = q->v[m];
        i = m;
    }
    if (q->n) q->v[i] = last;
    return top;
}

/* --------------------------------------------------------------- samples */

enum { S_WAIT, S_QUEUED, S_ACTIVE, S_DONE, S_TAKEN, S_TRAINED };

typedef struct {
    int32_t  prompt, resp;
    int32_t  gen;           /* response tokens decoded so far (kept) */
    int32_t  batch;
    int32_t  v_start;       /* version it started generating with (-1 not yet) */
    int32_t  v_last;
    int32_t  inst;
    uint8_t  state;
    uint8_t  resumed;       /* needs a re-prefill of prompt + gen */
    int32_t  home;          /* queue it waits in */
    int64_t  adm_step;      /* instance step minus tokens already generated */
    sim_time t_start, t_end;
} sample;

typedef struct { int64_t key; int32_t id; } hent;

typedef struct {
    int     *v;
    int64_t  head, len, cap;
} squeue;

typedef struct {
    int      pool, track, index;
    hent    *heap;
    int      hn, hcap;
    int      nactive;
    int64_t  step;
    double   ctx_sum;
    double   kv_used, kv_cap;
    sim_time seg_t0;        /* decode segment start (after any prefill) */
    int64_t  seg_step0;
    int64_t  target;        /* step at the scheduled event */
    int      cache_b;       /* batch the decode-step lines below are for */
    double   c0, cslope, m0, mslope, fixed;   /* compute and HBM time: a + slope·context */
    uint64_t evgen;
    bool     scheduled;
    bool     running;       /* allowed to generate (weights loaded, not paused) */
    int      version;
    int     *order;         /* active sample ids in admission order */
    int      norder, ocap;
} instance;

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
} pool_rt;

#define NGROUPS_MAX 4096

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
    sim_stats st;
    sim_hooks hooks;
    bool     has_hooks;
    double   wall0, wall;

    /* samples */
    sample  *smp;
    int64_t  nsmp;
    int      N;                 /* samples per step */
    int      released;          /* batches released into the queue */
    bool     queue_changed;     /* the queue's head may admit somewhere new */
    squeue  *queues;            /* generation queues: one shared, or one per instance */
    int      nqueues;
    int64_t  dq_len;            /* samples queued in all of them */
    int     *fin;               /* finished, untrained */
    int64_t  nfin, fin_cap;
    int64_t *batch_done;        /* finished samples per batch */
    int64_t *fin_v;             /* finished, untrained samples by start version */
    int64_t *open_v;            /* started, unfinished samples by start version */
    int      nver;
    int      staleness;
    double   partial;

    /* instances and pools */
    instance *inst;
    int      ninst;
    pool_rt  pr[SCN_POOLS_MAX];
    int      step_track;

    /* the trainer */
    int      version;           /* = steps trained */
    int      step_running;      /* step being processed, -1 none */
    int     *step_ids;          /* samples of the running step */
    bool     streaming;         /* StaleSync: chunks per mini-batch */
    int      nchunks, chunk_n;  /* chunks per step, samples per chunk */
    int      chunks_taken, chunks_trained;
    bool     rest_trained;      /* epochs after the first, when streaming */
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
    double  *f_end, *b_end, *f_dur, *b_dur;
    size_t   pipe_cap;
    double  *mb_tokens, *mb_sq;
    size_t   mb_cap;
};

/* --------------------------------------------------------------- helpers */

static const scn_model *actor(const sim *s) { return &s->scn.actor; }

static const scn_link *pool_link(const sim *s, const plan_pool *q, int first, int stride, int count)
{
    (void)q;
    return mdl_tier_link(&s->scn.cluster, mdl_group_tier(&s->scn.cluster, first, stride, count));
}

static void span(sim *s, int track, trace_phase ph, sim_time t0, sim_time t1, int iter, int ver, int mb, int64_t tok)
{
    if (t1 < t0) t1 = t0;
    if (tok > INT32_MAX) tok = INT32_MAX;
    trace_span sp = {t0, t1, track, (uint8_t)ph, iter, ver, mb, (int32_t)tok};
    trace_add_span(s->tr, &sp);
}

/* ----------------------------------------------------------- memory ledger */

static void mem_set(sim *s, int g, mem_bucket b, double bytes, sim_time t)
{
    if (g < 0) return;
    if (bytes < 0) bytes = 0;
    double old = s->mem[g][b];
    if (old == bytes) return;
    s->mem[g][b] = bytes;
    trace_counter c = {t, g, (uint8_t)b, bytes};
    trace_add_counter(s->tr, &c);
    if (bytes > s->mem_peak[g][b]) s->mem_peak[g][b] = bytes;
    double tot = 0;
    for (int k = 0; k < MB__COUNT; k++) tot += s->mem[g][k];
    if (tot > s->mem_peak_total[g]) { s->mem_peak_total[g] = tot; s->mem_peak_t[g] = t; }
    const trace_memgroup *mg = trace_memgroup_at(s->tr, g);
    if (bytes > old && tot > mg->capacity * (1 + 1e-9) && !s->st.overflow.happened) {
        s->st.overflow.happened = true;
        s->st.overflow.group = g;
        s->st.overflow.bucket = b;
        s->st.overflow.t = t;
        s->st.overflow.over_bytes = tot - mg->capacity;
        s->st.overflow.capacity = mg->capacity;
    }
}

static void mem_pool(sim *s, int p, mem_bucket b, double bytes, sim_time t)
{
    for (int g = 0; g < s->pr[p].ngroups; g++) mem_set(s, s->pr[p].group0 + g, b, bytes, t);
}

static double mem_group_total(const sim *s, int g)
{
    double tot = 0;
    for (int k = 0; k < MB__COUNT; k++) tot += s->mem[g][k];
    return tot;
}

/* ------------------------------------------------------------- deque ops */

/* A sample waits in its queue: the shared one (dispatch "queue": any free
** instance takes the oldest sample) or its instance's own (dispatch
** "static": the batch is cut into equal parts up front, as verl does). */
static squeue *queue_of(sim *s, int id) { return &s->queues[s->smp[id].home]; }

static void sq_reserve(squeue *q)
{
    if (q->len < q->cap) return;
    int64_t nc = q->cap ? q->cap * 2 : 256;
    int *nd = xmalloc((size_t)nc * sizeof *nd);
    for (int64_t i = 0; i < q->len; i++) nd[i] = q->v[(q->head + i) % q->cap];
    free(q->v);
    q->v = nd;
    q->head = 0;
    q->cap = nc;
}

static void dq_push_back(sim *s, int id)
{
    squeue *q = queue_of(s, id);
    s->queue_changed = true;
    sq_reserve(q);
    q->v[(q->head + q->len) % q->cap] = id;
    q->len++;
    s->dq_len++;
}

static void dq_push_front(sim *s, int id)
{
    squeue *q = queue_of(s, id);
    s->queue_changed = true;
    sq_reserve(q);
    q->head = (q->head + q->cap - 1) % q->cap;
    q->v[q->head] = id;
    q->len++;
    s->dq_len++;
}

static squeue *inst_queue(sim *s, const instance *I)
{
    return s->nqueues > 1 ? &s->queues[I - s->inst] : &s->queues[0];
}

static int sq_peek(const squeue *q) { return q->v[q->head]; }

static void sq_pop(sim *s, squeue *q)
{
    q->head = (q->head + 1) % q->cap;
    q->len--;
    s->dq_len--;
}

/* --------------------------------------------------------- instance heap */

static void heap_push(instance *I, int64_t key, int id)
{
    if (I->hn == I->hcap) {
        I->hcap = I->hcap ? I->hcap * 2 : 64;
        I->heap = xrealloc(I->heap, (size_t)I->hcap * sizeof *I->heap);
    }
    int i = I->hn++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (I->heap[p].key < key || (I->heap[p].key == key && I->heap[p].id < id)) break;
        I->heap[i] = I->heap[p];
        i = p;
    }
    I->heap[i] = (hent){key, id};
}

static hent heap_pop(instance *I)
{
    hent top = I->heap[0];
    hent last = I->heap[--I->hn];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        hent b = last;
        if (l < I->hn && (I->heap[l].key < b.key || (I->heap[l].key == b.key && I->heap[l].id < b.id))) { m = l; b = I->heap[l]; }
        if (r < I->hn && (I->heap[r].key < b.key || (I->heap[r].key == b.key && I->heap[r].id < b.id))) m = r;
        if (m == i) break;
        I->heap[i] = I->heap[m];
        i = m;
    }
    if (I->hn) I->heap[i] = last;
    return top;
}

/* ------------------------------------------------------------ decode time */

/* Sum over j = 0..k-1 of max(f(j), g(j)) for two lines given by their values
** at j = 0 and j = k-1: exact, so a segment of any length costs O(1). */
static double sum_max_lines(double f0, double f1, double g0, double g1, int64_t k)
{
    if (k <= 0) return 0;
    if (k == 1) return fmax(f0, g0);
    double d0 = f0 - g0, d1 = f1 - g1;
    if (d0 >= 0 && d1 >= 0) return k * (f0 + f1) / 2;
    if (d0 <= 0 && d1 <= 0) return k * (g0 + g1) / 2;
    double jc = d0 / (d0 - d1) * (double)(k - 1);  /* where the lines cross */
    int64_t J = (int64_t)floor(jc) + 1;             /* first index of the 2nd piece */
    if (J < 1) J = 1;
    if (J > k - 1) J = k - 1;
    double fs = (f1 - f0) / (double)(k - 1), gs = (g1 - g0) / (double)(k - 1);
    double a_last = (d0 > 0 ? f0 + fs * (J - 1) : g0 + gs * (J - 1));
    double a_first = d0 > 0 ? f0 : g0;
    double b_first = d0 > 0 ? g0 + gs * J : f0 + fs * J;
    double b_last = d0 > 0 ? g1 : f1;
    return J * (a_first + a_last) / 2 + (k - J) * (b_first + b_last) / 2;
}

/* The decode step's compute and HBM times are linear in the context held:
** evaluate the roofline once per batch size and keep the two lines. */
static void decode_lines(const sim *s, instance *I)
{
    if (I->cache_b == I->nactive) return;
    const scn_plan *p = &s->scn.plan;
    const plan_pool *pp = &s->pl.pools[I->pool];
    const scn_link *l = pool_link(s, pp, pp->first + I->index * pp->inst_devices, 1, pp->inst_devices);
    double B = I->nactive, X = 1e6;
    mdl_step a = mdl_decode_step(actor(s), &s->scn.cluster.device, &s->scn.eff, l, p->rollout.tp, p->rollout.ep, B, 0);
    mdl_step b = mdl_decode_step(actor(s), &s->scn.cluster.device, &s->scn.eff, l, p->rollout.tp, p->rollout.ep, B, X);
    I->c0 = a.compute_s;
    I->m0 = a.memory_s;
    I->cslope = (b.compute_s - a.compute_s) / X;
    I->mslope = (b.memory_s - a.memory_s) / X;
    I->fixed = a.total_s - fmax(a.compute_s, a.memory_s);      /* communication + overhead */
    I->cache_b = I->nactive;
}

static double decode_time(const sim *s, instance *I, int64_t k)
{
    if (k <= 0 || I->nactive <= 0) return 0;
    decode_lines(s, I);
    double B = I->nactive, x0 = I->ctx_sum, x1 = I->ctx_sum + B * (double)(k - 1);
    return sum_max_lines(I->c0 + I->cslope * x0, I->c0 + I->cslope * x1, I->m0 + I->mslope * x0,
                         I->m0 + I->mslope * x1, k) + I->fixed * (double)k;
}

/* Steps completed within `dt` seconds of decoding (binary search). */
static int64_t decode_steps_within(const sim *s, instance *I, double dt, int64_t kmax)
{
    int64_t lo = 0, hi = kmax;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (decode_time(s, I, mid) <= dt) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* ------------------------------------------------------------- forwards */

static void ctl_poll(sim *s);
static void pool_class(sim *s, int p, pstate next);

static void sched_task(sim *s, int p, sim_time at)
{
    s->pr[p].busy_until = at;
    evq_push(&s->q, at, EV_TASK, p, 0);
}

/* ------------------------------------------------------------ generation */

static double sample_reserve(const sim *s, const sample *x)
{
    /* Admission reserves the prompt and the whole response budget: a
    ** scheduler that never needs to preempt (see docs/model.md). */
    return (double)x->prompt + s->scn.work.max_response;
}

static void inst_schedule(sim *s, instance *I)
{
    I->evgen++;
    I->scheduled = false;
    if (I->nactive == 0 || !I->running) return;
    int64_t k = I->heap[0].key - I->step;
    if (k < 0) k = 0;
    double dt = decode_time(s, I, k);
    I->target = I->step + k;
    I->scheduled = true;
    evq_push(&s->q, I->seg_t0 + sim_from_secs(dt), EV_INST, (int)(I - s->inst), I->evgen);
}

/* Admit what fits; prefill the newcomers; returns the prefill end. */
static sim_time inst_admit(sim *s, instance *I, sim_time now)
{
    const scn_plan *p = &s->scn.plan;
    double ptok = 0, psq = 0;
    int n = 0;
    squeue *q = inst_queue(s, I);
    while (q->len > 0 && I->nactive < p->rollout.max_seqs) {
        int id = sq_peek(q);
        sample *x = &s->smp[id];
        /* staleness: a sample of batch b may start on version v only if b - v <= s */
        if (x->batch - I->version > s->staleness) break;
        double need = sample_reserve(s, x);
        if (I->kv_used + need > I->kv_cap) {
            if (I->nactive == 0 && n == 0) {
                /* cannot hold even one sequence: the plan is infeasible */
                fs_err_set(&s->err, 1, "rollout instance %d cannot hold one sequence of %.0f tokens (KV room %.0f)",
                           I->index, need, I->kv_cap);
            }
            break;
        }
        sq_pop(s, q);
        x->state = S_ACTIVE;
        x->inst = (int)(I - s->inst);
        if (x->v_start < 0) { x->v_start = I->version; x->t_start = now; s->open_v[x->v_start]++; }
        x->v_last = I->version;
        x->adm_step = I->step - x->gen;
        double ctx = (double)x->prompt + x->gen;
        I->ctx_sum += ctx;
        I->kv_used += need;
        I->nactive++;
        heap_push(I, x->adm_step + x->resp, id);
        if (I->norder == I->ocap) {
            I->ocap = I->ocap ? I->ocap * 2 : 64;
            I->order = xrealloc(I->order, (size_t)I->ocap * sizeof *I->order);
        }
        I->order[I->norder++] = id;
        ptok += ctx;
        psq += ctx * ctx;
        n++;
    }
    if (n == 0) return now;
    const plan_pool *pp = &s->pl.pools[I->pool];
    const scn_link *l = pool_link(s, pp, pp->first + I->index * pp->inst_devices, 1, pp->inst_devices);
    mdl_step st = mdl_prefill(actor(s), &s->scn.cluster.device, &s->scn.eff, l, p->rollout.tp, p->rollout.ep,
                              ptok, psq / ptok);
    sim_time t1 = now + sim_from_secs(st.total_s);
    span(s, I->track, PH_PREFILL, now, t1, s->smp[I->order[I->norder - 1]].batch, I->version, -1, (int64_t)ptok);
    return t1;
}

/* Close the decode segment at the instance's target step (event time). */
static void inst_close_segment(sim *s, instance *I, sim_time now, int64_t upto)
{
    int64_t k = upto - I->step;
    if (k > 0) {
        span(s, I->track, PH_GENERATE, I->seg_t0, now, s->version, I->version, I->nactive, (int64_t)I->nactive * k);
        s->st.tokens_generated += (double)I->nactive * (double)k;
        I->ctx_sum += (double)I->nactive * (double)k;
        I->step = upto;
    }
}

static void inst_compact_order(instance *I, const sample *smp, int self)
{
    int w = 0;
    for (int i = 0; i < I->norder; i++) {
        const sample *x = &smp[I->order[i]];
        if (x->state == S_ACTIVE && x->inst == self) I->order[w++] = I->order[i];
    }
    I->norder = w;
}

static void sample_finish(sim *s, int id, sim_time now)
{
    sample *x = &s->smp[id];
    x->state = S_DONE;
    x->gen = x->resp;
    x->t_end = now;
    x->inst = -1;
    if (s->nfin == s->fin_cap) {
        s->fin_cap = s->fin_cap ? s->fin_cap * 2 : 1024;
        s->fin = xrealloc(s->fin, (size_t)s->fin_cap * sizeof *s->fin);
    }
    s->fin[s->nfin++] = id;
    s->open_v[x->v_start]--;
    s->fin_v[x->v_start]++;
    s->batch_done[x->batch]++;
    s->st.samples_done++;
    s->st.dq_rollout_out += ((double)x->prompt + x->resp) * 8.0;   /* token ids + rollout log-probs */
}

static void inst_event(sim *s, instance *I, sim_time now)
{
    I->scheduled = false;
    inst_close_segment(s, I, now, I->target);
    int self = (int)(I - s->inst);
    bool any = false;
    while (I->hn > 0 && I->heap[0].key <= I->step) {
        hent h = heap_pop(I);
        sample *x = &s->smp[h.id];
        if (x->state != S_ACTIVE || x->inst != self) continue;   /* stale entry */
        I->ctx_sum -= (double)x->prompt + x->resp;
        I->kv_used -= sample_reserve(s, x);
        I->nactive--;
        sample_finish(s, h.id, now);
        any = true;
    }
    /* the admission-order list keeps finished entries until they are half
    ** of it: compacting on every completion would cost O(batch) each */
    if (any && I->norder > 2 * I->nactive + 16) inst_compact_order(I, s->smp, self);
    if (I->nactive == 0) { I->ctx_sum = 0; I->kv_used = 0; }
    I->seg_t0 = inst_admit(s, I, now);
    I->seg_step0 = I->step;
    inst_schedule(s, I);
}

/* Would the next queued sample be admitted now? */
static bool inst_can_admit(const sim *s, const instance *I)
{
    const squeue *q = inst_queue((sim *)s, I);
    if (q->len == 0 || I->nactive >= s->scn.plan.rollout.max_seqs) return false;
    const sample *x = &s->smp[sq_peek(q)];
    if (x->batch - I->version > s->staleness) return false;
    return I->kv_used + sample_reserve(s, x) <= I->kv_cap || I->nactive == 0;
}

/* Start (or resume) generation on an instance. */
static void inst_kick(sim *s, instance *I, sim_time now)
{
    if (!I->running) return;
    if (I->scheduled) {
        /* admit newcomers between events: close the segment so far first */
        if (!inst_can_admit(s, I) || now < I->seg_t0) return;
        int64_t k = decode_steps_within(s, I, sim_secs(now - I->seg_t0), I->target - I->step);
        inst_close_segment(s, I, now, I->step + k);
    }
    I->seg_t0 = inst_admit(s, I, now > I->seg_t0 ? now : I->seg_t0);
    I->seg_step0 = I->step;
    inst_schedule(s, I);
}

/* Stop an instance at `now`: decode progress so far is kept in the samples;
** `evict` also takes every active sample off it (KV released). */
static void inst_stop(sim *s, instance *I, sim_time now, bool evict, bool restart)
{
    if (I->scheduled && now > I->seg_t0) {
        int64_t k = decode_steps_within(s, I, sim_secs(now - I->seg_t0), I->target - I->step);
        inst_close_segment(s, I, now, I->step + k);
    }
    I->evgen++;
    I->scheduled = false;
    I->running = false;
    if (!evict) return;
    int self = (int)(I - s->inst);
    /* newest first back to the queue front, so the oldest resumes first */
    for (int i = I->norder - 1; i >= 0; i--) {
        int id = I->order[i];
        sample *x = &s->smp[id];
        if (x->state != S_ACTIVE || x->inst != self) continue;
        int64_t g = I->step - x->adm_step;
        if (g > x->resp) g = x->resp;
        x->gen = (int32_t)g;
        x->inst = -1;
        x->state = S_QUEUED;
        if (restart) {
            s->st.tokens_wasted += x->gen;
            x->gen = 0;
            s->open_v[x->v_start]--;
            x->v_start = -1;
        }
        x->resumed = x->gen > 0;
        dq_push_front(s, id);
    }
    I->norder = 0;
    I->hn = 0;
    I->nactive = 0;
    I->ctx_sum = 0;
    I->kv_used = 0;
}

static void pool_start_gen(sim *s, int p, sim_time now)
{
    pool_rt *r = &s->pr[p];
    pool_class(s, p, P_GEN);
    r->st = P_GEN;
    for (int i = 0; i < r->ninst; i++) {
        instance *I = &s->inst[r->inst0 + i];
        I->running = true;
        I->version = s->version;
        I->seg_t0 = now;
    }
    /* each instance admits what it can, in index order */
    for (int i = 0; i < r->ninst; i++) {
        instance *I = &s->inst[r->inst0 + i];
        inst_kick(s, I, now);
    }
}

/* --------------------------------------------------------- batch release */

static void release_batches(sim *s)
{
    while (s->released < s->scn.work.iterations) {
        int b = s->released;
        if (b - s->version > s->staleness) break;           /* bound */
        if (b > 0 && !s->cut[b - 1] && s->batch_done[b - 1] < (int64_t)ceil(s->partial * s->N - 1e-9)) break;  /* threshold */
        for (int i = 0; i < s->N; i++) {
            int id = b * s->N + i;
            s->smp[id].state = S_QUEUED;
            /* static dispatch: contiguous equal parts, prompt groups together */
            s->smp[id].home = s->nqueues > 1 ? (int)((int64_t)i * s->nqueues / s->N) : 0;
            dq_push_back(s, id);
        }
        s->released++;
    }
}

/* ------------------------------------------------------------- switching */

static double pool_tier_bw(const sim *s, const plan_pool *q)
{
    const scn_link *l = pool_link(s, q, q->first, 1, q->devices);
    return l->bw * s->scn.eff.link;
}

/* Co-located pool: training layout -> rollout layout. */
static void switch_to_rollout(sim *s, int p, sim_time now)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    const scn_plan *sp = &s->scn.plan;
    double rw = plan_rollout_weights(&s->scn, q);
    int nb = (int)ceil(rw / sp->bucket_bytes);
    const scn_link *l = pool_link(s, q, q->first, 1, q->devices);
    double t_reshard = rw / pool_tier_bw(s, q) + nb * l->latency_s;
    double hostbw = s->scn.cluster.device.host_bw * s->scn.eff.host_link;
    int per_node = s->scn.cluster.devices_per_node < q->devices ? s->scn.cluster.devices_per_node : q->devices;
    double off = 0;
    int g0 = r->group0;
    if (sp->offload_grads) off += s->mem[g0][MB_GRADS];
    if (sp->offload_optimizer) off += s->mem[g0][MB_OPTIMIZER] + s->mem[g0][MB_CRITIC];
    double t_off = off / hostbw;
    sim_time tr_end = now + sim_from_secs(t_reshard);
    sim_time to_end = now + sim_from_secs(t_off);
    sim_time end = (tr_end > to_end ? tr_end : to_end) + sim_from_secs(s->scn.eff.switch_overhead_s);
    for (int k = 0; k < r->ntracks; k++)
        span(s, r->track0 + k, PH_RESHARD, now, tr_end, s->version, s->version, -1, 0);
    if (off > 0 && r->hostlink_track >= 0)
        span(s, r->hostlink_track, PH_OFFLOAD, now, to_end, s->version, s->version, -1, 0);
    /* memory: bucket buffers while resharding; rollout weights built up */
    mem_pool(s, p, MB_RESHARD, 2 * sp->bucket_bytes, now);
    mem_pool(s, p, MB_ROLLOUT_WEIGHTS, rw, now);
    if (sp->zero_redundancy) mem_pool(s, p, MB_WEIGHTS, 0, tr_end);
    mem_pool(s, p, MB_RESHARD, 0, tr_end);
    if (off > 0) {
        mem_set(s, r->host_group, MB_HOST_OFFLOAD, off * per_node, now);
        if (sp->offload_grads) mem_pool(s, p, MB_GRADS, 0, to_end);
        if (sp->offload_optimizer) { mem_pool(s, p, MB_OPTIMIZER, 0, to_end); mem_pool(s, p, MB_CRITIC, 0, to_end); }
    }
    /* KV cache: what the rollout may use, less what is resident */
    for (int g = 0; g < r->ngroups; g++) {
        int gg = r->group0 + g;
        double kv = q->capacity * sp->rollout.mem_util - (mem_group_total(s, gg) - s->mem[gg][MB_KV_CACHE]);
        mem_set(s, gg, MB_KV_CACHE, kv, end);
    }
    r->rollout_layout = true;
    pool_class(s, p, P_SWITCH_R);
    r->st = P_SWITCH_R;
    sched_task(s, p, end);
}

static void switch_to_train(sim *s, int p, sim_time now)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    const scn_plan *sp = &s->scn.plan;
    for (int i = 0; i < r->ninst; i++)
        inst_stop(s, &s->inst[r->inst0 + i], now, true, sp->on_update == ONUPD_RESTART);
    double rw = plan_rollout_weights(&s->scn, q);
    int nb = (int)ceil(rw / sp->bucket_bytes);
    const scn_link *l = pool_link(s, q, q->first, 1, q->devices);
    double t_reshard = rw / pool_tier_bw(s, q) + nb * l->latency_s;
    double hostbw = s->scn.cluster.device.host_bw * s->scn.eff.host_link;
    double st[3];
    plan_train_states(&s->scn, q, st);
    double crit = q->train_mem[MB_CRITIC];
    double on = (sp->offload_grads ? st[1] : 0) + (sp->offload_optimizer ? st[2] + crit : 0);
    double t_on = on / hostbw;
    sim_time tr_end = now + sim_from_secs(t_reshard);
    sim_time to_end = now + sim_from_secs(t_on);
    sim_time end = (tr_end > to_end ? tr_end : to_end) + sim_from_secs(s->scn.eff.switch_overhead_s);
    mem_pool(s, p, MB_KV_CACHE, 0, now);
    for (int k = 0; k < r->ntracks; k++)
        span(s, r->track0 + k, PH_RESHARD, now, tr_end, s->version, s->version, -1, 0);
    if (on > 0 && r->hostlink_track >= 0)
        span(s, r->hostlink_track, PH_ONLOAD, now, to_end, s->version, s->version, -1, 0);
    mem_pool(s, p, MB_RESHARD, 2 * sp->bucket_bytes, now);
    mem_pool(s, p, MB_WEIGHTS, st[0], now);
    mem_pool(s, p, MB_ROLLOUT_WEIGHTS, 0, tr_end);
    mem_pool(s, p, MB_RESHARD, 0, tr_end);
    if (on > 0) {
        if (sp->offload_grads) mem_pool(s, p, MB_GRADS, st[1], now);
        if (sp->offload_optimizer) { mem_pool(s, p, MB_OPTIMIZER, st[2], now); mem_pool(s, p, MB_CRITIC, crit, now); }
        mem_set(s, r->host_group, MB_HOST_OFFLOAD, 0, to_end);
    }
    r->rollout_layout = false;
    pool_class(s, p, P_SWITCH_T);
    r->st = P_SWITCH_T;
    sched_task(s, p, end);
}

/* ------------------------------------------------------- training passes */

typedef struct {
    int     m;              /* micro-batches of the representative replica */
    double *tok, *sq;       /* per micro-batch tokens and sum of squared lengths */
    double  max_len;
} mb_set;

/* Sort lengths longest first: LSD radix on 32-bit keys, 11 bits a pass
** (lengths are whole tokens; qsort was the hot spot of large runs). */
static void sort_lengths_desc(uint32_t *v, uint32_t *tmp, int n)
{
    uint32_t mx = 0;
    for (int i = 0; i < n; i++) if (v[i] > mx) mx = v[i];
    for (int shift = 0; shift < 32 && (mx >> shift) > 0; shift += 11) {
        int cnt[2048] = {0};
        for (int i = 0; i < n; i++) cnt[2047 - ((v[i] >> shift) & 2047)]++;   /* descending */
        int pos = 0;
        for (int b = 0; b < 2048; b++) { int c = cnt[b]; cnt[b] = pos; pos += c; }
        for (int i = 0; i < n; i++) tmp[cnt[2047 - ((v[i] >> shift) & 2047)]++] = v[i];
        memcpy(v, tmp, (size_t)n * sizeof *v);
    }
}

/* Spread sequences over DP replicas, longest first onto the least loaded
** (token balancing), and cut the most loaded replica into micro-batches:
** the whole step waits for it at the gradient reduction. */
static mb_set build_microbatches(sim *s, const int *ids, int n, int dp, int mbs)
{
    uint32_t *len = xmalloc((size_t)n * 2 * sizeof *len);
    for (int i = 0; i < n; i++) len[i] = (uint32_t)(s->smp[ids[i]].prompt + s->smp[ids[i]].resp);
    sort_lengths_desc(len, len + n, n);
    /* a min-heap of replicas by load: O(n log dp) */
    double *load = xcalloc((size_t)dp, sizeof *load);
    int *heap = xmalloc((size_t)dp * sizeof *heap);
    for (int r = 0; r < dp; r++) heap[r] = r;
    int *owner = xmalloc((size_t)n * sizeof *owner);
    for (int i = 0; i < n; i++) {
        int best = heap[0];
        load[best] += len[i];
        owner[i] = best;
        /* sift the root down (ties by index keep it deterministic) */
        int k = 0;
        for (;;) {
            int l = 2 * k + 1, r = l + 1, m = k;
            if (l < dp && (load[heap[l]] < load[heap[m]] || (load[heap[l]] == load[heap[m]] && heap[l] < heap[m]))) m = l;
            if (r < dp && (load[heap[r]] < load[heap[m]] || (load[heap[r]] == load[heap[m]] && heap[r] < heap[m]))) m = r;
            if (m == k) break;
            int t = heap[k]; heap[k] = heap[m]; heap[m] = t;
            k = m;
        }
    }
    free(heap);
    int worst = 0;
    for (int r = 1; r < dp; r++) if (load[r] > load[worst]) worst = r;
    int cnt = 0;
    for (int i = 0; i < n; i++) cnt += owner[i] == worst;
    mb_set ms = {0, NULL, NULL, 0};
    ms.m = (cnt + mbs - 1) / mbs;
    if (ms.m < 1) ms.m = 1;
    if ((size_t)ms.m > s->mb_cap) {
        s->mb_cap = (size_t)ms.m;
        s->mb_tokens = xrealloc(s->mb_tokens, s->mb_cap * sizeof(double));
        s->mb_sq = xrealloc(s->mb_sq, s->mb_cap * sizeof(double));
    }
    memset(s->mb_tokens, 0, (size_t)ms.m * sizeof(double));
    memset(s->mb_sq, 0, (size_t)ms.m * sizeof(double));
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (owner[i] != worst) continue;
        int mb = (k++) % ms.m;                  /* interleave long and short */
        s->mb_tokens[mb] += len[i];
        s->mb_sq[mb] += len[i] * len[i];
        if (len[i] > ms.max_len) ms.max_len = len[i];
    }
    ms.tok = s->mb_tokens;
    ms.sq = s->mb_sq;
    free(len);
    free(load);
    free(owner);
    return ms;
}

/* Forward time of one micro-batch on one pipeline stage (per device):
** compute over tp devices, TP collectives and EP all-to-all per layer. */
static double stage_fwd_time(const sim *s, const scn_model *m, const plan_pool *q, double tok, double sq, double eff)
{
    const scn_device *d = &s->scn.cluster.device;
    double flops = 2.0 * m->params_active * tok + 2.0 * m->layers * (double)m->hidden * sq;
    double sh = mdl_stage_share(m->layers, q->pp);
    double t = flops * sh / q->tp / (d->peak_flops * eff);
    double lps = (double)((m->layers + q->pp - 1) / q->pp);
    const scn_link *ltp = pool_link(s, q, q->first, 1, q->tp);
    double act = tok * m->hidden * 2.0;
    if (q->tp > 1) t += 2.0 * lps * mdl_allreduce(act, q->tp, ltp, s->scn.eff.link);
    if (m->experts > 0) {
        int efold = q->tp > q->ep ? q->tp : q->ep;
        double moe_frac = (double)(m->layers - m->dense_layers) / m->layers;
        const scn_link *lep = pool_link(s, q, q->first, 1, efold);
        t += 2.0 * lps * moe_frac * mdl_alltoall(act * m->experts_active / q->tp, efold, lep, s->scn.eff.link);
    }
    /* pipeline send of the activations to the next stage */
    if (q->pp > 1) {
        const scn_link *lpp = pool_link(s, q, q->first, q->tp * q->dp, 2);
        t += mdl_broadcast(act / q->tp, lpp, s->scn.eff.link);
    }
    return t;
}

static void ensure_pipe(sim *s, size_t n)
{
    if (n <= s->pipe_cap) return;
    s->pipe_cap = n;
    s->f_end = xrealloc(s->f_end, n * sizeof(double));
    s->b_end = xrealloc(s->b_end, n * sizeof(double));
}

/* 1F1B schedule (PipeDream-flush, Narayanan et al. 2021) at micro-batch
** granularity: stage s runs min(p-s-1, m) warm-up forwards, then alternates
** one forward and one backward, then drains.  Emits a span per op and returns
** the time the last stage finishes, relative to t0. */
/* Pipeline ops are recorded merged while they run back to back on a stage:
** a steady 1F1B run becomes one "train_1f1b" span, and every gap — the
** warm-up and drain bubbles, waits on a neighbour — stays exact. */
typedef struct {
    sim_time a, b;
    int      phase, mb, n;
    int64_t  tokens;
} pipe_run;

static void run_flush(sim *s, int track, pipe_run *pr, int iter)
{
    if (pr->n == 0) return;
    span(s, track, (trace_phase)pr->phase, pr->a, pr->b, iter, s->version, pr->n == 1 ? pr->mb : -1, pr->tokens);
    pr->n = 0;
}

static void run_add(sim *s, int track, pipe_run *pr, int iter, trace_phase ph, sim_time a, sim_time b, int mb, int64_t tok)
{
    if (pr->n > 0 && a == pr->b) {
        if ((int)ph != pr->phase) pr->phase = (ph == PH_TRAIN_FWD || ph == PH_TRAIN_BWD) ? PH_TRAIN_1F1B : (int)ph;
        pr->b = b;
        pr->tokens += tok;
        pr->n++;
        return;
    }
    run_flush(s, track, pr, iter);
    *pr = (pipe_run){a, b, (int)ph, mb, 1, tok};
}

static double run_1f1b(sim *s, int p0, const scn_model *m, const mb_set *ms, sim_time t0, int iter,
                       trace_phase fph, trace_phase bph, bool backward, double *act_per_mb)
{
    const plan_pool *q = &s->pl.pools[p0];
    pool_rt *r = &s->pr[p0];
    int P = q->pp, M = ms->m;
    ensure_pipe(s, (size_t)P * M);
    double *fe = s->f_end, *be = s->b_end;
    if ((size_t)M > s->mb_cap) return 0;
    double *fd = xmalloc((size_t)M * sizeof *fd), *bd = xmalloc((size_t)M * sizeof *bd);
    double mult = s->scn.plan.train.recompute == RECOMPUTE_FULL ? 3.0 : 2.0;   /* bwd = 2 fwd (+1 recompute) */
    for (int i = 0; i < M; i++) {
        fd[i] = stage_fwd_time(s, m, q, ms->tok[i], ms->sq[i], s->scn.eff.train);
        bd[i] = backward ? fd[i] * mult : 0;
    }
    double end = 0;
    double *free_at = xcalloc((size_t)P, sizeof *free_at);
    int *nf = xcalloc((size_t)P, sizeof *nf), *nb = xcalloc((size_t)P, sizeof *nb);
    pipe_run *runs = xcalloc((size_t)P, sizeof *runs);
    int total_ops = backward ? 2 * P * M : P * M, done = 0;
    /* Next op of stage st: in the 1F1B order, forward if the warm-up is not
    ** over or the last op was a backward, backward otherwise. */
    while (done < total_ops) {
        bool progress = false;
        for (int st = 0; st < P; st++) {
            for (;;) {
                int warm = P - st - 1 < M ? P - st - 1 : M;
                bool want_f;
                if (!backward) want_f = nf[st] < M;
                else if (nf[st] < warm) want_f = true;
                else if (nf[st] >= M) want_f = false;
                else want_f = (nf[st] - warm) <= nb[st] ? true : false;
                if (backward && !want_f && nb[st] >= M) break;
                if (!backward && !want_f) break;
                double ready;
                if (want_f) {
                    int i = nf[st];
                    ready = st == 0 ? 0 : (nf[st - 1] > i ? fe[(size_t)(st - 1) * M + i] : -1);
                    if (ready < 0) break;
                    double t = fmax(ready, free_at[st]);
                    fe[(size_t)st * M + i] = t + fd[i];
                    free_at[st] = t + fd[i];
                    run_add(s, r->track0 + st, &runs[st], iter, fph, t0 + sim_from_secs(t), t0 + sim_from_secs(t + fd[i]), i,
                            (int64_t)ms->tok[i]);
                    nf[st]++;
                } else {
                    int i = nb[st];
                    if (st == P - 1) ready = nf[st] > i ? fe[(size_t)st * M + i] : -1;
                    else ready = nb[st + 1] > i ? be[(size_t)(st + 1) * M + i] : -1;
                    if (ready < 0) break;
                    double t = fmax(ready, free_at[st]);
                    be[(size_t)st * M + i] = t + bd[i];
                    free_at[st] = t + bd[i];
                    run_add(s, r->track0 + st, &runs[st], iter, bph, t0 + sim_from_secs(t), t0 + sim_from_secs(t + bd[i]), i,
                            (int64_t)ms->tok[i]);
                    nb[st]++;
                }
                done++;
                progress = true;
            }
        }
        if (!progress) break;   /* cannot happen with a valid schedule */
    }
    for (int st = 0; st < P; st++) {
        if (free_at[st] > end) end = free_at[st];
        run_flush(s, r->track0 + st, &runs[st], iter);
    }
    s->st.pipeline_ops += (uint64_t)done;
    if (act_per_mb) {
        double layer = mdl_act_bytes_layer(m, ms->max_len, 1, q->tp, s->scn.plan.train.recompute);
        *act_per_mb = layer * ((m->layers + P - 1) / P) * s->scn.plan.train.micro_batch;
    }
    free(fd); free(bd); free(free_at); free(nf); free(nb); free(runs);
    return end;
}

/* Forward-only pass of model m over samples `ids` on pool p0.
** Train-layout pools use the pipeline; aux pools data-parallel replicas. */
static double fwd_pass(sim *s, int p0, const scn_model *m, trace_phase ph, sim_time t0, const int *ids, int n)
{
    const plan_pool *q = &s->pl.pools[p0];
    pool_rt *r = &s->pr[p0];
    if (q->aux_tp > 0) {
        double tok = 0, sq = 0;
        for (int i = 0; i < n; i++) {
            double L = (double)s->smp[ids[i]].prompt + s->smp[ids[i]].resp;
            tok += L;
            sq += L * L;
        }
        const scn_device *d = &s->scn.cluster.device;
        double flops = 2.0 * m->params_active * tok + 2.0 * m->layers * (double)m->hidden * sq;
        double t = flops / q->devices / (d->peak_flops * s->scn.eff.prefill);
        const scn_link *l = pool_link(s, q, q->first, 1, q->aux_tp);
        if (q->aux_tp > 1) t += 2.0 * m->layers * mdl_allreduce(tok / q->aux_replicas * m->hidden * 2.0, q->aux_tp, l, s->scn.eff.link);
        span(s, r->track0, ph, t0, t0 + sim_from_secs(t), s->step_running, s->version, -1, (int64_t)tok);
        return t;
    }
    mb_set ms = build_microbatches(s, ids, n, q->dp, s->scn.plan.train.micro_batch);
    return run_1f1b(s, p0, m, &ms, t0, s->step_running, ph, ph, false, NULL);
}

/* ------------------------------------------------------------- the step */

/* Samples the step may train on: finished, lag within the bound. */
static int64_t eligible_count(const sim *s, int step)
{
    int64_t c = 0;
    int lo = step - s->staleness < 0 ? 0 : step - s->staleness;
    for (int v = lo; v < s->nver; v++) c += s->fin_v[v];
    return c;
}

/* "wait": a sample that must be trained by this step is still generating. */
static bool mandatory_unfinished(const sim *s, int step)
{
    if (s->scn.plan.on_stale != STALE_WAIT) return false;
    for (int v = 0; v <= step - s->staleness && v < s->nver; v++)
        if (s->open_v[v] > 0) return true;
    return false;
}

/* "discard": drop finished samples too stale for `step`; their prompts are
** generated again.  Also used, whatever the policy, for samples left over
** once a step has taken all it can: they could never be trained. */
static void drop_stale(sim *s, int step)
{
    int64_t stale = 0;
    for (int v = 0; v < step - s->staleness && v < s->nver; v++) stale += s->fin_v[v];
    if (stale == 0) return;
    for (int64_t i = 0; i < s->nfin;) {
        sample *x = &s->smp[s->fin[i]];
        if (step - x->v_start > s->staleness) {
            s->fin_v[x->v_start]--;
            s->st.tokens_wasted += x->resp;
            s->st.samples_discarded++;
            s->batch_done[x->batch]--;
            s->st.samples_done--;
            x->gen = 0;
            x->v_start = -1;
            x->state = S_QUEUED;
            x->resumed = 0;
            dq_push_front(s, s->fin[i]);
            s->fin[i] = s->fin[--s->nfin];
        } else i++;
    }
}

static void discard_stale(sim *s, int step, sim_time now)
{
    (void)now;
    if (s->scn.plan.on_stale == STALE_DISCARD) drop_stale(s, step);
}

/* Samples that must be in step `step` (they would be too stale after it):
** started with a version <= step - s; in flight, and finished untaken. */
static int64_t must_take(const sim *s, int step, int64_t *finished)
{
    int64_t inflight = 0, fin = 0;
    for (int v = 0; v <= step - s->staleness && v < s->nver; v++) {
        inflight += s->open_v[v];
        fin += s->fin_v[v];
    }
    if (finished) *finished = fin;
    return inflight;
}

/* May the next chunk be taken now?  Enough eligible samples, and (waiting
** policy) room left in the step for every sample that must be in it. */
static bool chunk_ready(const sim *s, int step)
{
    if (eligible_count(s, step) < s->chunk_n) return false;
    if (s->scn.plan.on_stale != STALE_WAIT) return true;
    int64_t fin, inflight = must_take(s, step, &fin);
    int left_after = (s->nchunks - s->chunks_taken - 1) * s->chunk_n;
    if (left_after == 0) return inflight == 0;
    int64_t rest = fin > s->chunk_n ? fin - s->chunk_n : 0;
    return inflight + rest <= left_after;
}

static bool trainer_ready(sim *s)
{
    int step = s->version;
    if (step >= s->scn.work.iterations || s->step_running >= 0) return false;
    if (s->scn.plan.on_stale == STALE_DISCARD) discard_stale(s, step, s->now);
    if (eligible_count(s, step) < s->N) return false;
    if (mandatory_unfinished(s, step)) return false;
    return true;
}

/* Move the `count` oldest eligible finished samples into the step, at
** step_ids[off..]. */
static void take_samples(sim *s, int step, int off, int count)
{
    /* Oldest first: by start version, then batch, then index — a sample's id
    ** is batch·N + index, so the key (version, id) orders all three.  LSD
    ** radix on 64-bit keys, 11 bits a pass. */
    uint64_t *k = xmalloc((size_t)s->nfin * 2 * sizeof *k), *tmp = k + s->nfin;
    int64_t n = 0;
    uint64_t mx = 0;
    for (int64_t i = 0; i < s->nfin; i++) {
        const sample *x = &s->smp[s->fin[i]];
        if (step - x->v_start <= s->staleness) {
            k[n] = ((uint64_t)x->v_start << 40) | (uint64_t)s->fin[i];
            if (k[n] > mx) mx = k[n];
            n++;
        }
    }
    for (int shift = 0; shift < 64 && (mx >> shift) > 0; shift += 11) {
        int64_t cnt[2048] = {0};
        for (int64_t i = 0; i < n; i++) cnt[(k[i] >> shift) & 2047]++;
        int64_t pos = 0;
        for (int b = 0; b < 2048; b++) { int64_t c = cnt[b]; cnt[b] = pos; pos += c; }
        for (int64_t i = 0; i < n; i++) tmp[cnt[(k[i] >> shift) & 2047]++] = k[i];
        memcpy(k, tmp, (size_t)n * sizeof *k);
    }
    for (int i = 0; i < count; i++) {
        int id = (int)(k[i] & ((1ULL << 40) - 1));
        s->step_ids[off + i] = id;
        s->smp[id].state = S_TAKEN;
        s->fin_v[s->smp[id].v_start]--;
    }
    /* keep the rest in the finished list */
    int64_t w = 0;
    for (int64_t i = 0; i < s->nfin; i++) if (s->smp[s->fin[i]].state == S_DONE) s->fin[w++] = s->fin[i];
    s->nfin = w;
    free(k);
}

/* Does pool p run a forward pass for each step? */
static bool pool_infers(const sim *s, int p)
{
    unsigned roles = s->pl.pools[p].roles;
    return ((roles & ROLE_TRAIN) && (s->scn.work.recompute_logprob || !s->scn.reward_is_model))
        || ((roles & ROLE_REF) && s->scn.has_ref) || ((roles & ROLE_REWARD) && s->scn.reward_is_model)
        || ((roles & ROLE_CRITIC) && s->scn.has_critic);
}

/* A step is processed in chunks: one chunk of N samples when synchronous;
** with StaleSync (s > 0) one chunk per mini-batch, so the forward passes run
** on samples as they finish and training starts once a mini-batch is ready. */
static void take_chunk(sim *s)
{
    int k = s->chunks_taken++;
    take_samples(s, s->step_running, k * s->chunk_n, s->chunk_n);
    /* more must-take samples than the step holds: the excess can never be
    ** trained within the bound, so it is generated again (wasted) */
    if (s->chunks_taken == s->nchunks) drop_stale(s, s->step_running + 1);
    s->chunk_infer_left[k] = 0;
    for (int p = 0; p < s->pl.npools; p++) if (pool_infers(s, p)) s->chunk_infer_left[k]++;
}

static void start_step(sim *s, sim_time now)
{
    int step = s->version;
    s->step_running = step;
    s->chunks_taken = 0;
    s->chunks_trained = 0;
    s->rest_trained = false;
    for (int p = 0; p < s->pl.npools; p++) s->pr[p].infer_cursor = 0;
    trace_instant in = {now, INST_ITER_BEGIN, step, step};
    trace_add_instant(s->tr, &in);
    take_chunk(s);
    if (s->has_hooks && s->hooks.on_step) {
        double t0 = wall_now();
        fs_err e = {0, ""};
        if (!s->hooks.on_step(s->hooks.ud, s, step, &e)) { s->failed = true; s->err = e; }
        s->st.plugin_time_s += wall_now() - t0;
    }
}

/* DistQueue: the training pool reads the step's batch from the queue.
** Per token: id, old log-prob, reference log-prob, advantage (4 bytes each).
** Packed (zero-redundancy) batches carry Σ lengths, padded ones n · max per
** mini-batch.  Without hierarchy every device reads its replica's share
** (load × TP·PP); with it one device per TP×PP group reads and broadcasts
** over the fast link.  The queue lives in the host memory of the nodes that
** generate; each such node serves it at one NIC's bandwidth (scale-out tier),
** so the reads of every training device queue up there. */
/* Nodes holding the queue (those that generate): each serves it through one
** NIC of the scale-out tier. */
static double queue_serving_bw(const sim *s, double *nic_out)
{
    const scn_cluster *c = &s->scn.cluster;
    double nic = c->inter_supernode.bw * s->scn.eff.link;
    int gen_nodes = 0;
    for (int k = 0; k < s->pl.npools; k++)
        if (s->pl.pools[k].roles & ROLE_ROLLOUT)
            gen_nodes += (s->pl.pools[k].devices + c->devices_per_node - 1) / c->devices_per_node;
    if (gen_nodes < 1) gen_nodes = 1;
    *nic_out = nic;
    return gen_nodes * nic;
}

/* A forward-only pool reads the chunk's token ids (4 bytes a token) from the
** queue, one reader per replica with hierarchy (then a broadcast inside its
** TP group), every device without; it writes back its log-probs (4 bytes a
** token) or rewards (4 bytes a sample). */
static double queue_aux(sim *s, int p, sim_time now, const int *ids, int n)
{
    const plan_pool *q = &s->pl.pools[p];
    const scn_plan *sp = &s->scn.plan;
    double tok = 0;
    for (int i = 0; i < n; i++) tok += (double)s->smp[ids[i]].prompt + s->smp[ids[i]].resp;
    int replicas = q->aux_replicas > 0 ? q->aux_replicas : 1;
    double per_replica = tok * 4.0 / replicas;
    int readers = sp->dq_hierarchical ? replicas : q->devices;
    double nic, serve = queue_serving_bw(s, &nic);
    double t = fmax(readers * per_replica / serve, per_replica / nic);
    if (sp->dq_hierarchical && q->aux_tp > 1)
        t += mdl_broadcast(per_replica, pool_link(s, q, q->first, 1, q->aux_tp), s->scn.eff.link);
    s->st.dq_aux_in += tok * 4.0;
    if (s->scn.has_ref && (q->roles & ROLE_REF)) s->st.dq_aux_out += tok * 4.0;
    if (s->scn.reward_is_model && (q->roles & ROLE_REWARD)) s->st.dq_aux_out += n * 4.0;
    s->st.dq_aux_time_s += t;
    pool_rt *r = &s->pr[p];
    for (int k = 0; k < r->ntracks; k++)
        span(s, r->track0 + k, PH_QUEUE, now, now + sim_from_secs(t), s->step_running, s->version, -1, (int64_t)tok);
    return t;
}

static double queue_transfer(sim *s, int p, sim_time now, const int *ids, int n)
{
    const plan_pool *q = &s->pl.pools[p];
    const scn_plan *sp = &s->scn.plan;
    const double per_token = 16.0;
    int per = s->N / s->scn.work.minibatches, mbs = n / per;
    double sum = 0, padded = 0;
    for (int m = 0; m < mbs; m++) {
        double mx = 0;
        for (int i = 0; i < per; i++) {
            const sample *x = &s->smp[ids[m * per + i]];
            double L = (double)x->prompt + x->resp;
            sum += L;
            if (L > mx) mx = L;
        }
        padded += mx * per;
    }
    double bytes = (sp->dq_packed ? sum : padded) * per_token;
    double per_replica = bytes / q->dp;
    int readers = sp->dq_hierarchical ? q->dp : q->devices;
    double nic, serve = queue_serving_bw(s, &nic);
    double t = fmax(readers * per_replica / serve, per_replica / nic);
    if (sp->dq_hierarchical && q->tp * q->pp > 1)
        t += mdl_broadcast(per_replica, pool_link(s, q, q->first, 1, q->devices), s->scn.eff.link);
    s->st.queue_bytes_padded += padded * per_token;
    s->st.queue_bytes_packed += sum * per_token;
    s->st.queue_reads_flat += (double)q->devices * mbs;
    s->st.queue_reads_hier += (double)q->dp * mbs;
    s->st.queue_time_s += t;
    s->st.dq_train_in += bytes;
    pool_rt *r = &s->pr[p];
    for (int k = 0; k < r->ntracks; k++)
        span(s, r->track0 + k, PH_QUEUE, now, now + sim_from_secs(t), s->step_running, s->version, -1, (int64_t)sum);
    return t;
}

static void start_infer_on_(sim *s, int p, sim_time now)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    double t = 0;
    sim_time cur = now;
    int k = r->infer_cursor++;
    r->cur_chunk = k;
    const int *ids = s->step_ids + k * s->chunk_n;
    int n = s->chunk_n;
    if (q->roles & ROLE_TRAIN) cur += sim_from_secs(queue_transfer(s, p, cur, ids, n));
    else if (q->aux_tp > 0) cur += sim_from_secs(queue_aux(s, p, cur, ids, n));
    if ((q->roles & ROLE_TRAIN) && s->scn.work.recompute_logprob) {
        t = fwd_pass(s, p, actor(s), PH_LOGPROB, cur, ids, n);
        cur += sim_from_secs(t);
    }
    const scn_model *aux[2] = {s->scn.has_ref && (q->roles & ROLE_REF) ? &s->scn.ref : NULL,
                               s->scn.reward_is_model && (q->roles & ROLE_REWARD) ? &s->scn.reward : NULL};
    trace_phase aph[2] = {PH_REF, PH_REWARD};
    mem_bucket ab[2] = {MB_REF_WEIGHTS, MB_REWARD_WEIGHTS};
    for (int a = 0; a < 2; a++) {
        if (!aux[a]) continue;
        if (q->swap_aux) {
            /* full co-location: the model waits on the host and is loaded per use */
            double bytes = q->train_mem[ab[a]] > 0 ? q->train_mem[ab[a]] : 2.0 * aux[a]->params_total / (q->tp * q->pp);
            double tl = bytes / (s->scn.cluster.device.host_bw * s->scn.eff.host_link);
            if (r->hostlink_track >= 0) span(s, r->hostlink_track, PH_ONLOAD, cur, cur + sim_from_secs(tl), s->step_running, s->version, -1, 0);
            mem_pool(s, p, ab[a], bytes, cur);
            cur += sim_from_secs(tl);
            t = fwd_pass(s, p, aux[a], aph[a], cur, ids, n);
            cur += sim_from_secs(t);
            mem_pool(s, p, ab[a], 0, cur);
        } else {
            t = fwd_pass(s, p, aux[a], aph[a], cur, ids, n);
            cur += sim_from_secs(t);
        }
    }
    if (s->scn.has_critic && (q->roles & ROLE_CRITIC)) {
        t = fwd_pass(s, p, &s->scn.critic, PH_CRITIC_FWD, cur, ids, n);
        cur += sim_from_secs(t);
    }
    if (!s->scn.reward_is_model && (q->roles & ROLE_TRAIN)) {
        /* rule-based reward: CPU work on the training pool's hosts, one worker
        ** per device; the pool waits for it */
        double tr = n * s->scn.eff.reward_rule_s / q->devices;
        if (r->hostlink_track >= 0 && tr > 0)
            span(s, r->hostlink_track, PH_REWARD, cur, cur + sim_from_secs(tr), s->step_running, s->version, -1, n);
        cur += sim_from_secs(tr);
    }
    pool_class(s, p, P_INFER);
    r->st = P_INFER;
    sched_task(s, p, cur);
}

/* The analytic tasks (pipelines, passes) are timed apart from the event
** loop, so the bench can report the loop's own rate. */
static void start_infer_on(sim *s, int p, sim_time now)
{
    double w0 = wall_now();
    start_infer_on_(s, p, now);
    s->st.task_wall_s += wall_now() - w0;
}

static void record_trained(sim *s, int step)
{
    double tok = 0;
    for (int i = 0; i < s->N; i++) {
        sample *x = &s->smp[s->step_ids[i]];
        int lag = step - x->v_start;
        if (lag < 0) lag = 0;
        if (lag > 64) lag = 64;
        s->st.lag_hist[lag]++;
        s->st.lag_sum += lag;
        if (lag > s->st.lag_max) s->st.lag_max = lag;
        x->state = S_TRAINED;
        tok += (double)x->prompt + x->resp;
        s->st.tokens_trained_response += x->resp;
        s->st.samples_trained++;
        if (x->v_last > x->v_start) s->st.samples_mixed++;
    }
    s->st.tokens_trained += tok;
    if (step >= s->scn.work.warmup) s->st.measured_tokens += tok;
}

/* Train mini-batches [mb0, mb1) for epochs [e0, e1): each a 1F1B pipeline,
** the gradient reduction and the optimizer step. */
static void start_train_(sim *s, int p, sim_time now, int e0, int e1, int mb0, int mb1)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    const scn_workload *w = &s->scn.work;
    int per_mb = s->N / w->minibatches;
    sim_time cur = now;
    const scn_model *models[2] = {actor(s), s->scn.has_critic && (q->roles & ROLE_CRITIC) ? &s->scn.critic : NULL};
    for (int e = e0; e < e1; e++) {
        for (int mbi = mb0; mbi < mb1; mbi++) {
            for (int mi = 0; mi < 2; mi++) {
                const scn_model *m = models[mi];
                if (!m) continue;
                mb_set ms = build_microbatches(s, s->step_ids + mbi * per_mb, per_mb, q->dp, s->scn.plan.train.micro_batch);
                double act_mb = 0;
                double tp = run_1f1b(s, p, m, &ms, cur, s->step_running, mi ? PH_CRITIC_TRAIN : PH_TRAIN_FWD,
                                     mi ? PH_CRITIC_TRAIN : PH_TRAIN_BWD, true, &act_mb);
                /* activations: stage s holds up to min(p - s, m) micro-batches (1F1B) */
                for (int g = 0; g < r->ngroups; g++) {
                    int infl = q->pp - g < ms.m ? q->pp - g : ms.m;
                    double a = infl * act_mb;
                    if (g == q->pp - 1) a += s->scn.plan.train.micro_batch * ms.max_len * (double)m->vocab / q->tp * 4.0;
                    mem_set(s, r->group0 + g, MB_ACTIVATIONS, a, cur);
                }
                sim_time pend = cur + sim_from_secs(tp);
                mem_pool(s, p, MB_ACTIVATIONS, 0, pend);
                /* gradient reduction over DP (dense) and expert-DP (experts) */
                double sh = mdl_stage_share(m->layers, q->pp);
                double psi_d = m->params_dense * sh / q->tp;
                double psi_e = m->params_expert * sh / (q->tp > q->ep ? q->tp : q->ep);
                const scn_cluster *cl = &s->scn.cluster;
                double tg = mdl_allreduce_group(cl, q->first, q->tp, q->dp, 2.0 * psi_d, s->scn.eff.link)
                          + mdl_allreduce_group(cl, q->first, q->tp * q->dp / q->edp, q->edp, 2.0 * psi_e, s->scn.eff.link);
                /* Adam touches ~30 bytes per local parameter: fp32 master, m, v
                ** read and written, bf16 grads read, bf16 weights written. */
                double shard = s->scn.plan.train.zero >= 1 ? psi_d / q->dp + psi_e / q->edp : psi_d + psi_e;
                double to = 30.0 * shard / (s->scn.cluster.device.hbm_bw * s->scn.eff.hbm) + s->scn.eff.train_overhead_s;
                sim_time g1 = pend + sim_from_secs(tg), o1 = g1 + sim_from_secs(to);
                for (int k = 0; k < r->ntracks; k++) {
                    if (tg > 0) span(s, r->track0 + k, PH_GRAD_SYNC, pend, g1, s->step_running, s->version, -1, 0);
                    span(s, r->track0 + k, PH_OPTIMIZER, g1, o1, s->step_running, s->version, -1, 0);
                }
                cur = o1;
            }
        }
    }
    pool_class(s, p, P_TRAIN);
    r->st = P_TRAIN;
    sched_task(s, p, cur);
}

static void start_train(sim *s, int p, sim_time now, int e0, int e1, int mb0, int mb1)
{
    double w0 = wall_now();
    start_train_(s, p, now, e0, e1, mb0, mb1);
    s->st.task_wall_s += wall_now() - w0;
}

/* Separated rollout pools receive the new weights from the training pool. */
static sim_time start_weight_sync(sim *s, sim_time now)
{
    int tp = s->pl.train_pool;
    const plan_pool *tq = &s->pl.pools[tp];
    sim_time end = now;
    for (int p = 0; p < s->pl.npools; p++) {
        const plan_pool *q = &s->pl.pools[p];
        if (!(q->roles & ROLE_ROLLOUT) || p == tp) continue;
        pool_rt *r = &s->pr[p];
        double rw = plan_rollout_weights(&s->scn, q);
        int lo = tq->first < q->first ? tq->first : q->first;
        int hi = (tq->first + tq->devices > q->first + q->devices ? tq->first + tq->devices : q->first + q->devices) - 1;
        const scn_link *l = pool_link(s, q, lo, hi - lo, 2);
        double bw = l->bw * s->scn.eff.link;
        /* receivers each take their shard; senders push one full copy per
        ** instance, spread over the training devices */
        double t_recv = rw / bw;
        double t_send = 2.0 * actor(s)->params_total * q->instances / (tq->devices * bw);
        int nb = (int)ceil(rw / s->scn.plan.bucket_bytes);
        double t = fmax(t_recv, t_send) + nb * l->latency_s;
        sim_time e = now + sim_from_secs(t);
        for (int i = 0; i < r->ninst; i++) {
            instance *I = &s->inst[r->inst0 + i];
            inst_stop(s, I, now, s->scn.plan.on_update == ONUPD_RESTART, true);
            span(s, I->track, PH_WEIGHT_SYNC, now, e, s->version, s->version, -1, 0);
        }
        mem_pool(s, p, MB_RESHARD, 2 * s->scn.plan.bucket_bytes, now);
        mem_pool(s, p, MB_RESHARD, 0, e);
        pool_class(s, p, P_RECV);
        r->st = P_RECV;
        sched_task(s, p, e);
        for (int k = 0; k < s->pr[tp].ntracks; k++)
            span(s, s->pr[tp].track0 + k, PH_WEIGHT_SYNC, now, e, s->version, s->version, -1, 0);
        if (e > end) end = e;
    }
    return end;
}

/* ----------------------------------------------- step-track classification */

/* The step split is read off the training pool's own timeline: what it does,
** or what it waits for, at every moment. */
static int class_of(const sim *s, int p, pstate st)
{
    switch (st) {
    case P_GEN: return STEP_GENERATE;
    case P_SWITCH_R: case P_SWITCH_T: return STEP_SWITCH;
    case P_INFER: return STEP_INFER;
    case P_TRAIN: return STEP_TRAIN;
    case P_SYNC: case P_RECV: return STEP_WEIGHT_SYNC;
    case P_IDLE:
    default:
        for (int q = 0; q < s->pl.npools; q++)
            if (q != p && s->pr[q].st == P_GEN) return STEP_GENERATE;
        return STEP_WAIT;
    }
}

static void account_window(sim *s, int phase, sim_time t0, sim_time t1)
{
    sim_time a = t0 > s->st.window_t0 ? t0 : s->st.window_t0;
    if (s->version < s->scn.work.warmup && s->step_running < s->scn.work.warmup) return;
    if (t1 > a) s->st.step_phase_ns[phase] += t1 - a;
}

static void pool_class(sim *s, int p, pstate next)
{
    if (p != s->pl.train_pool) return;
    pool_rt *r = &s->pr[p];
    (void)next;
    if (s->now > r->class_t0) {
        span(s, s->step_track, (trace_phase)r->class_phase, r->class_t0, s->now, s->version, s->version, -1, 0);
        account_window(s, r->class_phase, r->class_t0, s->now);
    }
    r->class_t0 = s->now;
    r->class_phase = class_of(s, p, next);
}

/* When other pools change state, an idle training pool's "waiting" may turn
** into "waiting for generation" or back. */
static void reclass_idle_trainer(sim *s)
{
    int p = s->pl.train_pool;
    pool_rt *r = &s->pr[p];
    if (r->st != P_IDLE) return;
    int c = class_of(s, p, P_IDLE);
    if (c != r->class_phase) pool_class(s, p, P_IDLE);
}

/* ------------------------------------------------------------ controller */

static void step_finished(sim *s, sim_time now)
{
    int step = s->step_running;
    record_trained(s, step);
    s->version = step + 1;
    s->st.version = s->version;
    s->st.iterations_done = s->version;
    s->step_running = -1;
    trace_instant end = {now, INST_ITER_END, step, s->version};
    trace_add_instant(s->tr, &end);
    trace_instant in = {now, INST_VERSION, step, s->version};
    trace_add_instant(s->tr, &in);
    if (s->version == s->scn.work.warmup) s->st.window_t0 = now;
    if (s->version >= s->scn.work.iterations) s->st.window_t1 = now;
    /* staleness window of this step: the admissible versions [step - s, step];
    ** the oldest version actually trained on is step - lag_max */
    int lagmax = 0;
    int32_t counts[TRACE_LAGS] = {0};
    sim_time first = now;
    for (int i = 0; i < s->N; i++) {
        const sample *x = &s->smp[s->step_ids[i]];
        int lag = step - x->v_start;
        if (lag > lagmax) lagmax = lag;
        counts[lag < TRACE_LAGS - 1 ? lag : TRACE_LAGS - 1]++;
        if (x->t_start < first) first = x->t_start;
    }
    trace_window wnd = {first, now, step, step - s->staleness < 0 ? 0 : step - s->staleness, step, lagmax, {0}};
    memcpy(wnd.lag_count, counts, sizeof counts);
    trace_add_window(s->tr, &wnd);
    if (s->has_hooks && s->hooks.on_update) {
        double t0 = wall_now();
        fs_err e = {0, ""};
        if (!s->hooks.on_update(s->hooks.ud, s, s->version, &e)) { s->failed = true; s->err = e; }
        s->st.plugin_time_s += wall_now() - t0;
    }
}

static void task_done(sim *s, int p, sim_time now)
{
    pool_rt *r = &s->pr[p];
    const plan_pool *q = &s->pl.pools[p];
    switch (r->st) {
    case P_SWITCH_R:
        pool_start_gen(s, p, now);
        break;
    case P_SWITCH_T:
        pool_class(s, p, P_IDLE);
        r->st = P_IDLE;
        break;
    case P_INFER:
        pool_class(s, p, P_IDLE);
        r->st = P_IDLE;
        s->chunk_infer_left[r->cur_chunk]--;
        break;
    case P_TRAIN: {
        if (r->train_rest) s->rest_trained = true;
        else s->chunks_trained++;
        bool done = s->chunks_trained == s->nchunks && (!s->streaming || s->scn.work.epochs == 1 || s->rest_trained);
        if (!done) {
            pool_class(s, p, P_IDLE);
            r->st = P_IDLE;
            break;
        }
        step_finished(s, now);
        bool others = false;
        for (int k = 0; k < s->pl.npools; k++)
            if (k != p && (s->pl.pools[k].roles & ROLE_ROLLOUT)) others = true;
        if (others) {
            sim_time e = start_weight_sync(s, now);
            pool_class(s, p, P_SYNC);
            r->st = P_SYNC;
            sched_task(s, p, e);
        } else {
            pool_class(s, p, P_IDLE);
            r->st = P_IDLE;
        }
        break;
    }
    case P_SYNC:
        /* a step ends when its weights have reached the rollout pools: move
        ** the window before the transfer is accounted */
        if (s->version >= s->scn.work.iterations) s->st.window_t1 = now;
        if (s->version == s->scn.work.warmup) s->st.window_t0 = now;
        pool_class(s, p, P_IDLE);
        r->st = P_IDLE;
        break;
    case P_RECV:
        for (int i = 0; i < r->ninst; i++) {
            instance *I = &s->inst[r->inst0 + i];
            I->version = s->version;
            /* samples generating on: each version they decode with is in
            ** [v_start, v_last] (updates come one version at a time) */
            for (int k = 0; k < I->norder; k++) {
                sample *x = &s->smp[I->order[k]];
                if (x->state == S_ACTIVE && x->inst == r->inst0 + i) x->v_last = s->version;
            }
        }
        pool_start_gen(s, p, now);
        break;
    default:
        break;
    }
    (void)q;
}

static void ctl_poll(sim *s)
{
    if (s->failed) return;
    release_batches(s);
    sim_time now = s->now;
    int tp = s->pl.train_pool;
    pool_rt *tr = &s->pr[tp];
    const plan_pool *tq = &s->pl.pools[tp];

    if (s->step_running >= 0) {
        int step = s->step_running;
        while (s->chunks_taken < s->nchunks) {
            if (s->scn.plan.on_stale == STALE_DISCARD) discard_stale(s, step, now);
            if (!chunk_ready(s, step)) break;
            take_chunk(s);
        }
        /* the training pool trains what is ready, else runs its passes */
        if (tr->st == P_IDLE && !tr->rollout_layout) {
            int k = s->chunks_trained;
            if (k < s->chunks_taken && s->chunk_infer_left[k] == 0) {
                tr->train_rest = false;
                if (s->streaming) start_train(s, tp, now, 0, 1, k, k + 1);
                else start_train(s, tp, now, 0, s->scn.work.epochs, 0, s->scn.work.minibatches);
            } else if (k == s->nchunks && s->streaming && !s->rest_trained) {
                tr->train_rest = true;
                start_train(s, tp, now, 1, s->scn.work.epochs, 0, s->scn.work.minibatches);
            } else if (pool_infers(s, tp) && tr->infer_cursor < s->chunks_taken) {
                start_infer_on(s, tp, now);
            }
        }
        for (int p = 0; p < s->pl.npools; p++)
            if (p != tp && pool_infers(s, p) && s->pr[p].st == P_IDLE && s->pr[p].infer_cursor < s->chunks_taken)
                start_infer_on(s, p, now);
    } else if (s->version < s->scn.work.iterations) {
        /* A pool that also generates can only start once the whole batch is
        ** there; a training-only pool streams from the first mini-batch. */
        bool ready;
        if (s->streaming && !tq->colocated) {
            if (s->scn.plan.on_stale == STALE_DISCARD) discard_stale(s, s->version, now);
            s->chunks_taken = 0;
            ready = chunk_ready(s, s->version);
        } else {
            ready = trainer_ready(s);
        }
        if (ready) {
            if (tq->colocated && tr->st == P_GEN) switch_to_train(s, tp, now);
            else if (tr->st == P_IDLE && !tr->rollout_layout) {
                start_step(s, now);
                ctl_poll(s);        /* take what is ready and start the passes */
                return;
            }
        } else if (tq->colocated && tr->st == P_IDLE && !tr->rollout_layout) {
            /* nothing to train yet: generate */
            if (s->dq_len > 0 || s->released < s->scn.work.iterations) switch_to_rollout(s, tp, now);
        }
    }
    /* start idle rollout-only pools (first iteration) */
    for (int p = 0; p < s->pl.npools; p++) {
        if (p == tp || !(s->pl.pools[p].roles & ROLE_ROLLOUT)) continue;
        if (s->pr[p].st == P_IDLE) pool_start_gen(s, p, now);
    }
    /* Instances admit for themselves when a sequence finishes; others are
    ** woken only when the queue gained samples they might take. */
    if (s->queue_changed && s->dq_len > 0) {
        s->queue_changed = false;
        for (int p = 0; p < s->pl.npools; p++) {
            if (s->pr[p].st != P_GEN) continue;
            for (int i = 0; i < s->pr[p].ninst; i++) {
                instance *I = &s->inst[s->pr[p].inst0 + i];
                if (s->dq_len == 0) break;
                if (inst_can_admit(s, I)) inst_kick(s, I, now);
            }
        }
    }
    if (s->has_hooks && s->hooks.on_rollout_progress && s->step_running < 0 && s->version < s->released) {
        int b = s->version;
        double frac = (double)s->batch_done[b] / s->N;
        bool cut = false;
        double t0 = wall_now();
        fs_err e = {0, ""};
        if (!s->hooks.on_rollout_progress(s->hooks.ud, s, b, frac, &cut, &e)) { s->failed = true; s->err = e; }
        s->st.plugin_time_s += wall_now() - t0;
        /* a cut counts as the partial-rollout threshold reached */
        if (cut && !s->cut[b]) {
            s->cut[b] = true;
            release_batches(s);
        }
    }
    reclass_idle_trainer(s);
    if (s->version >= s->scn.work.iterations && tr->st == P_IDLE) {
        bool busy = false;
        for (int p = 0; p < s->pl.npools; p++)
            if (s->pr[p].st == P_SYNC || s->pr[p].st == P_RECV || s->pr[p].st == P_INFER || s->pr[p].st == P_TRAIN) busy = true;
        if (!busy) s->finished = true;
    }
}

/* ------------------------------------------------------------- set-up */

static void add_memgroups(sim *s, int p)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    r->group0 = trace_nmemgroups(s->tr);
    int n = (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) ? q->pp : 1;
    for (int g = 0; g < n; g++) {
        trace_memgroup mg = {{0}, p, false, q->first, q->devices / n, q->capacity};
        if (n > 1) snprintf(mg.name, sizeof mg.name, "%s/stage%d", q->name, g);
        else snprintf(mg.name, sizeof mg.name, "%s", q->name);
        mg.first_device = q->first + g * (q->devices / n);
        trace_add_memgroup(s->tr, &mg);
    }
    r->ngroups = n;
    r->host_group = -1;
    if (q->colocated || q->swap_aux) {
        int dpn = s->scn.cluster.devices_per_node;
        trace_memgroup hg = {{0}, p, true, q->first, (q->devices + dpn - 1) / dpn, s->scn.cluster.host_mem_bytes};
        snprintf(hg.name, sizeof hg.name, "%s/host", q->name);
        r->host_group = trace_add_memgroup(s->tr, &hg);
    }
}

static void add_tracks(sim *s, int p)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    r->track0 = trace_ntracks(s->tr);
    r->ntracks = 0;
    r->hostlink_track = -1;
    if (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) {
        for (int st = 0; st < q->pp; st++) {
            trace_track tk = {{0}, TRK_STAGE, p, q->first + st * q->tp * q->dp, q->tp * q->dp, r->group0 + st};
            snprintf(tk.name, sizeof tk.name, "%s stage %d (TP%d x DP%d)", q->name, st, q->tp, q->dp);
            trace_add_track(s->tr, &tk);
            r->ntracks++;
        }
    } else if (q->aux_tp > 0) {
        trace_track tk = {{0}, TRK_AUX, p, q->first, q->devices, r->group0};
        snprintf(tk.name, sizeof tk.name, "%s (%d x TP%d)", q->name, q->aux_replicas, q->aux_tp);
        trace_add_track(s->tr, &tk);
        r->ntracks = 1;
    }
    if (q->roles & ROLE_ROLLOUT) {
        r->inst0 = s->ninst;
        r->ninst = q->instances;
        for (int i = 0; i < q->instances; i++) {
            trace_track tk = {{0}, TRK_INSTANCE, p, q->first + i * q->inst_devices, q->inst_devices,
                              r->group0 + (q->pp > 1 && (q->roles & ROLE_TRAIN) ? (i * q->inst_devices) / (q->tp * q->dp) : 0)};
            if (tk.memgroup >= r->group0 + r->ngroups) tk.memgroup = r->group0 + r->ngroups - 1;
            snprintf(tk.name, sizeof tk.name, "%s rollout %d", q->name, i);
            instance *I = &s->inst[s->ninst++];
            memset(I, 0, sizeof *I);
            I->pool = p;
            I->index = i;
            I->track = trace_add_track(s->tr, &tk);
            I->kv_cap = q->kv_tokens_per_instance;
        }
    }
    if (r->host_group >= 0) {
        trace_track tk = {{0}, TRK_HOSTLINK, p, q->first, q->devices, r->host_group};
        snprintf(tk.name, sizeof tk.name, "%s host link", q->name);
        r->hostlink_track = trace_add_track(s->tr, &tk);
    }
}

static void initial_memory(sim *s, int p)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    if (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) {
        double st[3];
        plan_train_states(&s->scn, q, st);
        if (q->roles & ROLE_TRAIN) {
            mem_pool(s, p, MB_WEIGHTS, st[0], 0);
            mem_pool(s, p, MB_GRADS, st[1], 0);
            mem_pool(s, p, MB_OPTIMIZER, st[2], 0);
        }
        mem_pool(s, p, MB_CRITIC, q->train_mem[MB_CRITIC], 0);
    }
    if (!q->swap_aux) {
        mem_pool(s, p, MB_REF_WEIGHTS, q->train_mem[MB_REF_WEIGHTS], 0);
        mem_pool(s, p, MB_REWARD_WEIGHTS, q->train_mem[MB_REWARD_WEIGHTS], 0);
    }
    if ((q->roles & ROLE_ROLLOUT) && !q->colocated) {
        mem_pool(s, p, MB_ROLLOUT_WEIGHTS, q->rollout_mem[MB_ROLLOUT_WEIGHTS], 0);
        mem_pool(s, p, MB_KV_CACHE, q->rollout_mem[MB_KV_CACHE], 0);
    }
    if (r->host_group >= 0 && q->swap_aux) {
        int dpn = s->scn.cluster.devices_per_node < q->devices ? s->scn.cluster.devices_per_node : q->devices;
        double hm = 0;
        if (s->scn.has_ref && (q->roles & ROLE_REF)) hm += 2.0 * s->scn.ref.params_total / (q->tp * q->pp);
        if (s->scn.reward_is_model && (q->roles & ROLE_REWARD)) hm += 2.0 * s->scn.reward.params_total / (q->tp * q->pp);
        mem_set(s, r->host_group, MB_HOST_MODELS, hm * dpn, 0);
    }
}

sim *sim_new(const scn_scenario *scn, fs_err *err)
{
    if (!scn_validate(scn, err)) return NULL;
    sim *s = xcalloc(1, sizeof *s);
    s->scn = *scn;
    if (!plan_build(&s->scn, &s->pl, err)) { free(s); return NULL; }
    s->tr = trace_new();
    s->wall0 = wall_now();
    rng_seed(&s->rng, scn->work.seed);
    s->staleness = scn->plan.staleness;
    s->partial = scn->plan.partial_rollout;
    s->step_running = -1;
    const scn_workload *w = &scn->work;
    s->N = scn_prompts_per_step(&s->scn) * w->samples_per_prompt;
    s->nsmp = (int64_t)s->N * w->iterations;
    s->smp = xcalloc((size_t)s->nsmp, sizeof *s->smp);
    s->batch_done = xcalloc((size_t)w->iterations + 1, sizeof *s->batch_done);
    s->nver = w->iterations + 2;
    s->fin_v = xcalloc((size_t)s->nver, sizeof *s->fin_v);
    s->open_v = xcalloc((size_t)s->nver, sizeof *s->open_v);
    s->step_ids = xcalloc((size_t)s->N, sizeof *s->step_ids);
    s->streaming = scn->plan.staleness > 0 && w->minibatches > 1;
    s->nchunks = s->streaming ? w->minibatches : 1;
    s->chunk_n = s->N / s->nchunks;
    s->chunk_infer_left = xcalloc((size_t)s->nchunks, sizeof *s->chunk_infer_left);
    s->cut = xcalloc((size_t)w->iterations + 1, sizeof *s->cut);
    s->st.samples_total = s->nsmp;
    /* lengths: one prompt length per prompt, one response length per sample */
    int prompts = scn_prompts_per_step(&s->scn);
    for (int it = 0; it < w->iterations; it++) {
        for (int pr = 0; pr < prompts; pr++) {
            int plen = dist_sample(&w->prompt_len, &s->rng, 0);
            for (int k = 0; k < w->samples_per_prompt; k++) {
                sample *x = &s->smp[(int64_t)it * s->N + pr * w->samples_per_prompt + k];
                x->prompt = plen;
                x->resp = dist_sample(&w->response_len, &s->rng, w->max_response);
                x->batch = it;
                x->v_start = -1;
                x->v_last = -1;
                x->inst = -1;
                x->state = S_WAIT;
            }
        }
    }
    int ninst = 0;
    for (int p = 0; p < s->pl.npools; p++) ninst += s->pl.pools[p].instances;
    s->inst = xcalloc((size_t)(ninst ? ninst : 1), sizeof *s->inst);
    for (int p = 0; p < s->pl.npools; p++) add_memgroups(s, p);
    s->ngroups = trace_nmemgroups(s->tr);
    s->mem = xcalloc((size_t)s->ngroups, sizeof *s->mem);
    s->mem_peak = xcalloc((size_t)s->ngroups, sizeof *s->mem_peak);
    s->mem_peak_total = xcalloc((size_t)s->ngroups, sizeof *s->mem_peak_total);
    s->mem_peak_t = xcalloc((size_t)s->ngroups, sizeof *s->mem_peak_t);
    trace_track stk = {"step (training pool)", TRK_STEP, -1, 0, 0, -1};
    s->step_track = trace_add_track(s->tr, &stk);
    for (int p = 0; p < s->pl.npools; p++) add_tracks(s, p);
    /* about two spans per sample (decode segment, prefill) and the pipelines'
    ** runs: reserved once, as untouched memory costs nothing */
    trace_reserve_spans(s->tr, (size_t)s->nsmp * 3 + 4096);
    s->nqueues = scn->plan.rollout.static_dispatch && s->ninst > 0 ? s->ninst : 1;
    s->queues = xcalloc((size_t)s->nqueues, sizeof *s->queues);
    for (int p = 0; p < s->pl.npools; p++) initial_memory(s, p);
    s->pr[s->pl.train_pool].class_phase = STEP_WAIT;
    if (w->warmup == 0) s->st.window_t0 = 0;
    s->st.setup_wall_s = wall_now() - s->wall0;
    return s;
}

void sim_free(sim *s)
{
    if (!s) return;
    for (int i = 0; i < s->ninst; i++) { free(s->inst[i].heap); free(s->inst[i].order); }
    free(s->inst);
    free(s->smp);
    for (int i = 0; i < s->nqueues; i++) free(s->queues[i].v);
    free(s->queues);
    free(s->fin);
    free(s->batch_done);
    free(s->fin_v);
    free(s->open_v);
    free(s->step_ids);
    free(s->chunk_infer_left);
    free(s->cut);
    free(s->mem);
    free(s->mem_peak);
    free(s->mem_peak_total);
    free(s->mem_peak_t);
    free(s->f_end);
    free(s->b_end);
    free(s->mb_tokens);
    free(s->mb_sq);
    free(s->q.v);
    trace_free(s->tr);
    free(s);
}

void sim_set_hooks(sim *s, const sim_hooks *h)
{
    if (h) { s->hooks = *h; s->has_hooks = true; }
    else { memset(&s->hooks, 0, sizeof s->hooks); s->has_hooks = false; }
}

/* Samples grouped by the version they started with, for the trace. */
static void emit_version_groups(sim *s)
{
    int nv = s->nver;
    trace_vgroup *g = xcalloc((size_t)nv, sizeof *g);
    for (int v = 0; v < nv; v++) { g[v].version = v; g[v].t0 = -1; }
    for (int64_t i = 0; i < s->nsmp; i++) {
        const sample *x = &s->smp[i];
        if (x->v_start < 0 || x->v_start >= nv) continue;
        trace_vgroup *k = &g[x->v_start];
        if (k->t0 < 0 || x->t_start < k->t0) k->t0 = x->t_start;
        sim_time end = x->state == S_ACTIVE || x->state == S_QUEUED ? s->now : x->t_end;
        if (end > k->t1) k->t1 = end;
        k->samples++;
        k->trained += x->state == S_TRAINED;
    }
    for (int v = 0; v < nv; v++)
        if (g[v].samples > 0) trace_add_vgroup(s->tr, &g[v]);
    free(g);
}

static void finish_up(sim *s)
{
    s->wall = wall_now() - s->wall0;
    pool_class(s, s->pl.train_pool, P_IDLE);
    emit_version_groups(s);
    double inflight = 0;
    for (int64_t i = 0; i < s->nsmp; i++) {
        const sample *x = &s->smp[i];
        if (x->state == S_DONE || x->state == S_TAKEN) inflight += x->resp;
        else if (x->state == S_QUEUED) inflight += x->gen;
    }
    for (int i = 0; i < s->ninst; i++) {
        instance *I = &s->inst[i];
        for (int k = 0; k < I->norder; k++) {
            const sample *x = &s->smp[I->order[k]];
            if (x->state == S_ACTIVE && x->inst == i) {
                int64_t g = I->step - x->adm_step;
                inflight += (double)(g < x->resp ? g : x->resp);
            }
        }
    }
    s->st.tokens_in_flight = inflight;
}

static bool sim_process(sim *s, const event *e)
{
    s->now = e->t;
    s->st.events++;
    switch (e->kind) {
    case EV_INST: {
        instance *I = &s->inst[e->a];
        if (e->b != I->evgen || !I->scheduled) return true;   /* superseded */
        inst_event(s, I, e->t);
        break;
    }
    case EV_TASK:
        task_done(s, e->a, e->t);
        break;
    default:
        break;
    }
    if (s->err.code && !s->failed) s->failed = true;
    ctl_poll(s);
    return !s->finished && !s->failed;
}

static void sim_begin(sim *s)
{
    if (s->st.events == 0 && s->q.n == 0 && !s->finished) {
        ctl_poll(s);
    }
}

/* After a batch of events: an empty queue before the end is a stall (a
** plan the controller cannot carry on); a finished run is closed once. */
static bool sim_after(sim *s)
{
    if (!s->finished && !s->failed && s->q.n == 0) {
        fs_err_set(&s->err, 1, "the run stalled at %.3f s with %d of %d steps trained (nothing left to happen)",
                   sim_secs(s->now), s->version, s->scn.work.iterations);
        s->failed = true;
    }
    if (s->finished || s->failed) {
        if (!s->closed) finish_up(s);
        s->closed = true;
        return false;
    }
    return true;
}

bool sim_advance(sim *s, sim_time until)
{
    sim_begin(s);
    while (!s->finished && !s->failed && s->q.n > 0 && s->q.v[0].t <= until) {
        event e = evq_pop(&s->q);
        sim_process(s, &e);
    }
    if (!sim_after(s)) return false;
    if (until > s->now) s->now = until < s->q.v[0].t ? until : s->now;
    return true;
}

bool sim_step_events(sim *s, uint64_t n)
{
    sim_begin(s);
    for (uint64_t i = 0; i < n && !s->finished && !s->failed && s->q.n > 0; i++) {
        event e = evq_pop(&s->q);
        sim_process(s, &e);
    }
    return sim_after(s);
}

bool sim_run(sim *s)
{
    while (sim_advance(s, INT64_MAX)) {}
    return !s->failed;
}

bool sim_done(const sim *s) { return s->finished || s->failed; }
sim_time sim_now(const sim *s) { return s->now; }
sim_time sim_next_event_time(const sim *s) { return s->q.n ? s->q.v[0].t : -1; }
const fs_err *sim_error(const sim *s) { return s->err.code ? &s->err : NULL; }
const scn_scenario *sim_scenario(const sim *s) { return &s->scn; }
const plan *sim_plan(const sim *s) { return &s->pl; }
const trace *sim_trace(const sim *s) { return s->tr; }
trace *sim_trace_mut(sim *s) { return s->tr; }
const sim_stats *sim_get_stats(const sim *s) { return &s->st; }
double sim_wall_seconds(const sim *s) { return s->wall > 0 ? s->wall : wall_now() - s->wall0; }
int sim_step_phase_open(const sim *s, sim_time *since)
{
    const pool_rt *r = &s->pr[s->pl.train_pool];
    if (since) *since = r->class_t0;
    return r->class_phase;
}

void sim_set_staleness(sim *s, int bound) { s->staleness = bound < 0 ? 0 : bound > 64 ? 64 : bound; }
int  sim_get_staleness(const sim *s) { return s->staleness; }
void sim_set_partial_rollout(sim *s, double f) { s->partial = f <= 0 ? 0.01 : f > 1 ? 1 : f; }

int sim_inflight_by_version(const sim *s, int *versions, int *counts, int max)
{
    int n = 0;
    for (int64_t i = 0; i < s->nsmp; i++) {
        const sample *x = &s->smp[i];
        if (x->state != S_ACTIVE) continue;
        int k;
        for (k = 0; k < n; k++) if (versions[k] == x->v_start) break;
        if (k == n) {
            if (n == max) continue;
            versions[n] = x->v_start;
            counts[n++] = 0;
        }
        counts[k]++;
    }
    return n;
}

double sim_mem_peak(const sim *s, int group, int bucket) { return s->mem_peak[group][bucket]; }
double sim_mem_peak_total(const sim *s, int group, sim_time *when)
{
    if (when) *when = s->mem_peak_t[group];
    return s->mem_peak_total[group];
}

void sim_step_lengths(const sim *s, int step, double *sum, double *sum_mbmax, int mbs)
{
    *sum = 0;
    *sum_mbmax = 0;
    if (step < 0 || step >= s->scn.work.iterations || mbs < 1) return;
    int per = s->N / mbs;
    for (int m = 0; m < mbs; m++) {
        double mx = 0;
        for (int i = 0; i < per; i++) {
            const sample *x = &s->smp[(int64_t)step * s->N + m * per + i];
            double L = (double)x->prompt + x->resp;
            *sum += L;
            if (L > mx) mx = L;
        }
        *sum_mbmax += mx;
    }
}
