/*
** eng_gen.c — rollout instances: continuous batching and decoding.
**
** The dispatcher (eng_dispatch.c) shares the queue out among the generating
** instances.  An instance admits samples from
** its generation queue while they fit (batch size, KV reservation, staleness
** bound at admission, its dispatcher's share), prefills them
** together, then decodes in segments: one event at the step where its next
** sample finishes, never one per token.  A segment's time is the closed-form
** sum of the decode step's roofline over the context it holds.  Instances
** are stopped for a switch or a weight transfer (eng_step.c), keeping or
** throwing away what they decoded, and started again by the controller
** (eng_ctrl.c).  Rules and formulas: docs/model.md, section 5 (Generation)
** and section 4, rules 2 and 8.  Shared state and helpers: engine_int.h;
** prefix caching's prompt groups (pg_*): eng_prefix.h, inlined here.
*/
#include "engine_int.h"
#include "eng_prefix.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* --------------------------------------------------------- instance heap */

/* The heap's shape (engine_int.h, hent): binary, but the root has one
** child, 1, and node i > 0 the children 2i and 2i + 1, so that with the
** array aligned to 128 bytes two siblings of 8 bytes are one aligned 16
** bytes (an ordinary binary heap's siblings straddle lines), and the
** sixteen descendants of a node three levels down one aligned 128 bytes,
** two lines, which a pop asks for while it compares the children: in a
** large run the instances' heaps do not stay in the cache from one
** completion to the next.  (step, id)
** orders entries strictly, so the sequence of roots is that of any other
** heap discipline. */
enum { HEAP_ALIGN = 128 };

static inline int heap_first_child(int i) { return i ? 2 * i : 1; }
static inline int heap_parent(int j) { return j / 2; }

/* The step at which entry e's sample finishes. */
static inline int64_t hent_step(const instance *I, hent e) { return I->kbase + (int64_t)(e >> 32); }

/* The smaller of node i's children, which exist (first child < n); which
** one is a coin toss to the branch predictor, so the choice is a sum. */
static inline int heap_min_child(const hent *h, int i, int n)
{
    int c = heap_first_child(i);
    return i && c + 1 < n ? c + (h[c + 1] < h[c]) : c;
}

static void heap_grow(instance *I)
{
    int cap = I->hcap ? I->hcap * 2 : 64;
    size_t bytes = (size_t)cap * sizeof *I->heap;   /* a multiple of HEAP_ALIGN: cap is 64·2^k, hent 8 bytes */
    hent *v = aligned_alloc(HEAP_ALIGN, bytes);
    if (!v) v = xmalloc(bytes);   /* it reports the shortage (unaligned room would only be slower) */
    if (I->hn > 0) memcpy(v, I->heap, (size_t)I->hn * sizeof *v);
    free(I->heap);
    I->heap = v;
    I->hcap = cap;
}

/* The entries count from the instance's step from now on: every sample on
** the heap finishes at or after that step (the instance never decodes past
** its earliest finish), so each count only shrinks, by the same amount,
** and the order stays. */
static void heap_rebase(instance *I)
{
    const uint64_t d = (uint64_t)(I->step - I->kbase) << 32;
    for (int k = 0; k < I->hn; k++) I->heap[k] -= d;
    I->kbase = I->step;
}

/* Sample `id`, finishing at instance step `at` (not before the instance's
** step), onto the heap. */
static void heap_push(instance *I, int64_t at, int id)
{
    if (I->hn == 0) I->kbase = I->step;
    else if (I->step - I->kbase >= HENT_REL_SPAN) heap_rebase(I);
    if (I->hn == I->hcap) heap_grow(I);
    const hent e = (uint64_t)(at - I->kbase) << 32 | (uint32_t)id;
    hent *h = I->heap;
    size_t i = (size_t)I->hn++;
    while (i > 0) {
        const size_t p = i / 2;     /* heap_parent */
        if (h[p] < e) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

/* Remove the root: its hole walks down the smaller children to a leaf,
** then the last entry is sifted up from there (Floyd's bottom-up variant).
** `ahead`: ask for the descendants three levels below each node on the
** way, so that each level's pair has been asked for three comparisons
** before (see heaps_cold); a constant at each call, so each version is
** compiled apart. */
__attribute__((always_inline)) static inline hent heap_pop_impl(instance *I, bool ahead)
{
    hent *h = I->heap;
    hent top = h[0];
    int n = --I->hn;
    if (n == 0) return top;
    hent last = h[n];
    size_t i = 0;
    if (n > 1) {
        h[0] = h[1];    /* the root's only child */
        i = 1;
        /* The nodes of depth d below node 1 are 2^d .. 2^(d+1) - 1, the
        ** last node n - 1 is at depth D: every node above depth D - 1 (each
        ** below 2^(D-1)) has both children, so the walk takes those levels
        ** without asking, and asks once, at depth D - 1, as eng_evq_fill_down
        ** does (engine_int.h). */
        const size_t half = (size_t)1 << (31 - __builtin_clz((unsigned)(n - 1))) >> 1;
        while (i < half) {
            const size_t c = 2 * i;
            /* node i's descendants three levels down, two 64-byte lines */
            if (ahead && 8 * c < (size_t)n) {
                __builtin_prefetch(&h[8 * c]);
                __builtin_prefetch(&h[8 * c + 8]);
            }
            const size_t m = c + (h[c + 1] < h[c]);
            h[i] = h[m];
            i = m;
        }
        const size_t c = 2 * i;
        if (c < (size_t)n) {
            const size_t m = c + 1 < (size_t)n ? c + (h[c + 1] < h[c]) : c;
            h[i] = h[m];
            i = m;
        }
    }
    while (i > 0) {
        size_t p = i / 2;
        if (!(last < h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = last;
    return top;
}

/* Are the instances' heaps, all together, likely out of the cache by the
** time an instance's next completion comes (the instances take turns)?
** Then a pop asks for each level ahead of its comparisons, which only costs
** instructions when they are in the cache.  The bound is a quarter of the
** 2 MiB of level-2 cache a core of a current server processor has (Intel
** Xeon Sapphire Rapids; AMD EPYC Zen 4 has 1 MiB), the heaps sharing it
** with the structs of the samples that completions read and write: at 256
** sequences an instance, more than 256 instances. */
enum { HEAPS_COLD_BYTES = 1 << 19 };

static __attribute__((noinline)) bool heaps_cold_find(sim *s)
{
    const bool cold = (double)s->ninst * s->scn.plan.rollout.max_seqs * sizeof(hent) > HEAPS_COLD_BYTES;
    s->heaps_cold = cold ? 2 : 1;
    return cold;
}

/* Worked out once (the instances and max_seqs are fixed for the run). */
static inline bool heaps_cold(sim *s)
{
    return s->heaps_cold ? s->heaps_cold == 2 : heaps_cold_find(s);
}

/* ------------------------------------------------------------ decode time */

/* Sum over j = 0..k-1 of max(f(j), g(j)) for two lines given by their values
** at j = 0 and j = k-1: exact, so a segment of any length costs O(1).  Here
** for k >= 2 and lines that cross (d0, d1: f - g at the two ends, of
** opposite signs), the sum of each piece's ends. */
static __attribute__((noinline)) double sum_max_crossing(double f0, double f1, double g0, double g1, int64_t k,
                                                          double d0, double d1)
{
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

/* The sum over j = 0..k-1 of max(f(j), g(j)), inlined where a segment is
** timed: one line above the other throughout (nearly always) is a sum of
** two ends; lines that cross go to sum_max_crossing. */
static inline double sum_max_lines(double f0, double f1, double g0, double g1, int64_t k)
{
    if (k <= 0) return 0;
    if (k == 1) return fmax(f0, g0);
    double d0 = f0 - g0, d1 = f1 - g1;
    if (d0 >= 0 && d1 >= 0) return k * (f0 + f1) / 2;
    if (d0 <= 0 && d1 <= 0) return k * (g0 + g1) / 2;
    return sum_max_crossing(f0, f1, g0, g1, k, d0, d1);
}

/* The link an instance's devices talk over: fixed for the run, looked up once. */
static const scn_link *inst_link(const sim *s, instance *I)
{
    if (!I->link) {
        const plan_pool *pp = &s->pl.pools[I->pool];
        I->lk = eng_pool_link(s, pp, I->index * pp->inst_devices, 1, pp->inst_devices);
        I->link = &I->lk;
    }
    return &I->lk;
}

/* The decode step's compute and HBM times are linear in the context held:
** evaluate the roofline once per batch size and keep the two lines.  The
** lines of every batch size are kept in a table shared by the instances on
** the same link, filled as sizes first occur: a draining tail, whose batch
** changes at every completion, costs a table read per event. */
static void line_compute(const sim *s, const scn_device *dev, const scn_link *l, int nb, dline *d)
{
    const scn_plan *p = &s->scn.plan;
    double B = nb, X = 1e6;
    int k = p->rollout.spec_tokens;
    if (k > 0) {
        /* Speculative decoding (docs/model.md, section 5): a verification
        ** step is k + 1 tokens wide for each sequence — (k + 1)·B tokens
        ** through the weights, each attending to its context, the KV read
        ** once — and yields E = 1 + α + … + α^k tokens a sequence (Leviathan
        ** et al., arXiv 2211.17192).  The engine counts steps of one token,
        ** so each is the wide step's time over E. */
        double w = k + 1, E = 0, ak = 1;
        for (int i = 0; i <= k; i++) { E += ak; ak *= p->rollout.spec_accept; }
        const scn_device *dv = dev;
        mdl_step a = mdl_decode_step_eng(&s->roll_model, dv, &s->scn.eff, &p->rollout, l, p->rollout.tp, p->rollout.ep, w * B, 0);
        mdl_step c = mdl_decode_step_eng(&s->roll_model, dv, &s->scn.eff, &p->rollout, l, p->rollout.tp, p->rollout.ep, w * B, w * X);
        mdl_step m = mdl_decode_step_eng(&s->roll_model, dv, &s->scn.eff, &p->rollout, l, p->rollout.tp, p->rollout.ep, w * B, X);
        d->c0 = a.compute_s / E;
        d->m0 = a.memory_s / E;
        d->cslope = (c.compute_s - a.compute_s) / X / E;   /* attention of k + 1 queries */
        d->mslope = (m.memory_s - a.memory_s) / X / E;     /* the context's KV, read once */
        d->fixed = (a.total_s - fmax(a.compute_s, a.memory_s)) / E;
        d->known = true;
        return;
    }
    mdl_step a = mdl_decode_step_eng(&s->roll_model, dev, &s->scn.eff, &p->rollout, l, p->rollout.tp, p->rollout.ep, B, 0);
    mdl_step b = mdl_decode_step_eng(&s->roll_model, dev, &s->scn.eff, &p->rollout, l, p->rollout.tp, p->rollout.ep, B, X);
    d->c0 = a.compute_s;
    d->m0 = a.memory_s;
    d->cslope = (b.compute_s - a.compute_s) / X;
    d->mslope = (b.memory_s - a.memory_s) / X;
    d->fixed = a.total_s - fmax(a.compute_s, a.memory_s);      /* communication + the engine's fixed cost */
    d->known = true;
}

static bool link_same(const scn_link *a, const scn_link *b)
{
    return a->bw == b->bw && a->latency_s == b->latency_s && a->local == b->local && a->algo == b->algo &&
           a->rails == b->rails && a->in_bw == b->in_bw && a->in_lat == b->in_lat;
}

static int inst_dtable(sim *s, instance *I)
{
    const scn_link *l = inst_link(s, I);
    const scn_device *dev = plan_pool_device(&s->scn, &s->pl.pools[I->pool]);
    for (int i = 0; i < s->ndtab; i++)
        if (link_same(&s->dtab[i].link, l) && s->dtab[i].dev == dev) return i;
    /* instances of a pool share a shape: their links are few */
    if (s->ndtab == (int)(sizeof s->dtab / sizeof s->dtab[0])) return -1;
    dtable *t = &s->dtab[s->ndtab];
    t->link = *l;
    t->dev = dev;
    t->n = 0;
    t->v = NULL;
    t->pf = NULL;
    return s->ndtab++;
}

/* Entry `b` of table t, the table grown (doubling) to hold it: batch sizes
** are bounded by max_seqs, but only the sizes that occur take room. */
static dline *dtable_at(dtable *t, int b)
{
    if (b >= t->n) {
        int n = t->n ? t->n : 64;
        while (n <= b) n = n > INT_MAX / 2 ? INT_MAX : 2 * n;
        t->v = xrealloc(t->v, (size_t)n * sizeof *t->v);
        memset(t->v + t->n, 0, (size_t)(n - t->n) * sizeof *t->v);
        t->n = n;
    }
    return &t->v[b];
}

/* The lines at the instance's batch size, computed if they are not yet
** known: the entry of its link's table, or its own when it has none
** (more links in use than the tables). */
static __attribute__((noinline)) const dline *decode_line_fill(sim *s, instance *I)
{
    if (I->dtab < 0) I->dtab = inst_dtable(s, I);
    if (I->dtab >= 0) {
        dline *d = dtable_at(&s->dtab[I->dtab], I->nactive);
        if (!d->known) line_compute(s, s->dtab[I->dtab].dev, &s->dtab[I->dtab].link, I->nactive, d);
        return d;
    }
    if (!I->own.known || I->own_b != I->nactive) {
        line_compute(s, plan_pool_device(&s->scn, &s->pl.pools[I->pool]), inst_link(s, I), I->nactive, &I->own);
        I->own_b = I->nactive;
    }
    return &I->own;
}

/* The lines at the instance's batch size: read from the table where the
** size has occurred before (nearly always), no copy kept. */
static inline const dline *decode_line(sim *s, instance *I)
{
    const int b = I->nactive;
    if (I->dtab >= 0) {
        const dtable *t = &s->dtab[I->dtab];
        if (b < t->n && t->v[b].known) return &t->v[b];
    }
    return decode_line_fill(s, I);
}

/* Inlined into inst_schedule, once an event; k > 0 and a batch to decode
** are the caller's to check. */
__attribute__((always_inline)) static inline double decode_time_of(sim *s, instance *I, int64_t k)
{
    const dline *d = decode_line(s, I);
    double B = I->nactive, x0 = I->ctx_sum, x1 = I->ctx_sum + B * (double)(k - 1);
    /* the lines are shared by batch size; a straggler's factor applies to its own time */
    return (sum_max_lines(d->c0 + d->cslope * x0, d->c0 + d->cslope * x1, d->m0 + d->mslope * x0,
                          d->m0 + d->mslope * x1, k) + d->fixed * (double)k) * I->slow;
}

static double decode_time(sim *s, instance *I, int64_t k)
{
    if (k <= 0 || I->nactive <= 0) return 0;
    return decode_time_of(s, I, k);
}

/* Steps completed within `dt` seconds of decoding (binary search). */
static int64_t decode_steps_within(sim *s, instance *I, double dt, int64_t kmax)
{
    int64_t lo = 0, hi = kmax;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (decode_time(s, I, mid) <= dt) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* ------------------------------------------------------------ generation */

/* KV the instance holds at its current step: a prompt group's shared
** prompt blocks once (kv_shared, eng_prefix.h). */
static inline double inst_kv(const sim *s, const instance *I)
{
    return kv_paged(s) ? I->ctx_sum + I->nactive * kv_slack(s) - I->kv_shared : I->kv_used;
}

/* KV a sample needs to be admitted. */
static double sample_reserve(const sim *s, const sample *x)
{
    if (kv_paged(s)) return (double)x->prompt + x->gen + kv_slack(s);
    return (double)x->prompt + s->scn.work.max_response;
}

/* Room an admission may fill up to. */
static inline double kv_admit_cap(const sim *s, const instance *I)
{
    return kv_paged(s) ? I->kv_cap * (1 - KV_WATERMARK) : I->kv_cap;
}

/* The longest sequence a sample may become must fit an empty instance. */
static inline double sample_most(const sim *s, const sample *x)
{
    return (double)x->prompt + s->scn.work.max_response + kv_slack(s);
}

/* Swap: seconds to move `tokens` of context between an instance's devices
** and host memory, each device over its own host link. */
static double swap_secs(const sim *s, const instance *I, double tokens)
{
    const plan_pool *pp = &s->pl.pools[I->pool];
    if (pp->kv_tokens_per_instance <= 0) return 0;
    double per_dev = tokens * pp->kv_bytes / pp->kv_tokens_per_instance;
    return per_dev / (plan_pool_device(&s->scn, pp)->host_bw * s->scn.eff.host_link);
}

static void inst_schedule(sim *s, instance *I)
{
    I->scheduled = false;
    const int na = I->nactive;
    if (na == 0 || !I->running) return;
    int64_t k = hent_step(I, I->heap[0]) - I->step;
    if (k < 0) k = 0;
    if (kv_paged(s)) {
        /* the step at which the cache fills: an event like a completion
        ** (inst_kv's sum; room / na > 0, so truncation is its floor) */
        double room = I->kv_cap - inst_kv(s, I);
        int64_t kf = room > 0 ? (int64_t)(room / na) : 0;
        if (kf < k) k = kf;
    }
    double dt = k > 0 ? decode_time_of(s, I, k) : 0;
    I->target = I->step + k;
    I->root_hint = hent_id(I->heap[0]);
    I->scheduled = true;
    I->evseq = eng_evq_push(&s->q, I->seg_t0 + sim_from_secs(dt), EV_INST, (int)(I - s->inst));
}

/* The prefill of `tok` tokens whose lengths' squares sum to `sq`, on the
** instance's link.  Every other input is fixed for the run, so its time is
** remembered by (tok, sq) in a direct-mapped table of the link's decode
** table: the value is the one mdl_prefill returns for those inputs. */
enum { PF_SLOTS = 4096 };

static double prefill_secs(sim *s, instance *I, double tok, double sq)
{
    const scn_plan *p = &s->scn.plan;
    if (I->dtab < 0) I->dtab = inst_dtable(s, I);
    pfent *e = NULL;
    if (I->dtab >= 0) {
        dtable *t = &s->dtab[I->dtab];
        if (!t->pf) {
            t->pf = xmalloc(PF_SLOTS * sizeof *t->pf);
            for (int i = 0; i < PF_SLOTS; i++) t->pf[i] = (pfent){-1, -1, 0};
        }
        uint64_t a, b;
        memcpy(&a, &tok, sizeof a);
        memcpy(&b, &sq, sizeof b);
        uint64_t h = (a * 0x9E3779B97F4A7C15u) ^ (b * 0xC2B2AE3D27D4EB4Fu);
        e = &t->pf[(h >> 40) & (PF_SLOTS - 1)];
        if (e->tok == tok && e->sq == sq) return e->total_s;
    }
    mdl_step st = mdl_prefill(&s->roll_model, plan_pool_device(&s->scn, &s->pl.pools[I->pool]), &s->scn.eff,
                              &p->rollout, inst_link(s, I), p->rollout.tp, p->rollout.ep, tok, sq / tok);
    if (e) *e = (pfent){tok, sq, st.total_s};
    return st.total_s;
}

/* Chunked prefill (plan.rollout.max_batched_tokens = T; docs/model.md,
** section 5): the `tok` prefill tokens ride along with the b0 sequences
** already decoding, T − b0 a step (each decoding sequence takes one token
** of the budget, vLLM's scheduler serving the running requests first), in
** k = ⌈tok/(T − b0)⌉ steps.  The time they add is what each chunk adds to
** its decode step (mdl_prefill_chunk), the attention shared out by tokens;
** the b0 sequences' own steps are timed by their decode segment.  Every
** chunk but the last is full, so it is two evaluations. */
static double chunked_prefill_secs(sim *s, instance *I, double tok, double sq, int b0, double ctx0)
{
    const scn_plan *p = &s->scn.plan;
    const double room = (double)p->rollout.max_batched_tokens - b0;
    const double k = ceil(tok / room - 1e-9), last = tok - (k - 1) * room;
    const double attn = mdl_attn_flops_causal(&s->roll_model, sq) / tok;    /* a token's share */
    const scn_link *l = inst_link(s, I);
    const scn_device *d = plan_pool_device(&s->scn, &s->pl.pools[I->pool]);
    const scn_rollout_layout *r = &p->rollout;
    double t = mdl_prefill_chunk(&s->roll_model, d, &s->scn.eff, r, l, r->tp, r->ep, b0, ctx0, last, attn * last);
    if (k > 1)
        t += (k - 1) * mdl_prefill_chunk(&s->roll_model, d, &s->scn.eff, r, l, r->tp, r->ep, b0, ctx0, room, attn * room);
    return t;
}

enum { ADMIT_AHEAD = 4 };

/* A sample's flags word once admitted to instance `inst`: active there, no
** longer preempted, its re-prefill bit (resumed) kept.  The word is
** (old & sample_resumed_bit()) | sample_active_flags(inst), worked out in a
** register: the struct's line is written with one store. */
static inline uint32_t sample_active_flags(int inst)
{
    /* the constant part and the instance field's bits, each folded at
    ** compile time; inst (0 <= inst < 2^23) goes in as the bit-field would
    ** store it, shifted by the field's lowest bit (mask & -mask): the word
    ** is built whole, never stored field by field and read back (a byte
    ** store read as a word cannot be forwarded) */
    sample t;
    t.flags = 0;
    t.state = S_ACTIVE;
    t.resumed = 0;
    t.preempted = PRE_NONE;
    const uint32_t base = t.flags;
    t.flags = 0;
    t.inst = -1;
    const uint32_t mask = t.flags;
    return base | ((uint32_t)inst * (mask & -mask) & mask);
}

static inline uint32_t sample_resumed_bit(void)
{
    sample t;
    t.flags = 0;
    t.resumed = 1;
    return t.flags;
}

/* Admit what fits; prefill the newcomers; returns the prefill end.  `cold`:
** heaps_cold(s), which the caller knows.  inst_admit below makes the
** loop's first test, which many events fail, before the call.  The loop
** keeps the instance's and the queue's figures in locals and stores them
** once at the end:
** its stores into sample structs (64-bit fields among them) would
** otherwise make the compiler load them again after each.  The sums are
** the same operations in the same order as one sample at a time
** (inst_kv, sample_reserve, kv_admit_cap, eng_may_start). */
static __attribute__((noinline)) sim_time inst_admit_some(sim *s, instance *I, sim_time now, bool cold)
{
    const scn_plan *p = &s->scn.plan;
    squeue *q = eng_inst_queue(s, I);
    const int max_seqs = p->rollout.max_seqs, quota = I->quota;
    int nactive = I->nactive;
    const int b0 = nactive;             /* decoding when these arrive (chunked prefill) */
    const double ctx0 = I->ctx_sum;
    const bool pfx = kv_prefix(s);
    const bool paged = kv_paged(s);
    const double slack = kv_slack(s), admit_cap = kv_admit_cap(s, I), kv_cap = I->kv_cap;
    const int32_t max_response = s->scn.work.max_response;
    const int self = (int)(I - s->inst), version = I->version;
    const uint32_t active = sample_active_flags(self), keep = sample_resumed_bit();
    const int64_t step = I->step, qcap = q->cap;
    const eng_start_bound bound = eng_start_bound_at(s, version);
    sample *const smp = s->smp;
    const int64_t smask = s->smask;
    const int *const qv = q->v;
    int64_t head = q->head, len = q->len;
    double ctx_sum = I->ctx_sum, kv_used = I->kv_used;
    uint32_t nadmit = I->nadmit;
    double ptok = 0, psq = 0, pre_tok = 0, swap_tok = 0;
    int n = 0, last_batch = 0;     /* admitted, the batch of the last of them */
    int opened = 0;                 /* of them starting (with this version): eng_open_add once */
    while (len > 0 && nactive < max_seqs && (quota < 0 || n < quota)) {
        const int id = qv[head];
        sample *x = &smp[id & smask];
        /* the samples queued behind are likely admitted next: ask for the
        ** one ADMIT_AHEAD places on (a sample struct is a cold line) */
        if (cold && len > ADMIT_AHEAD) {
            int64_t j = head + ADMIT_AHEAD;
            eng_smp_prefetch(s, qv[j < qcap ? j : j - qcap]);
        }
        /* staleness: a sample of batch b may start on version v only if b - v <= s */
        if (!eng_start_ok(bound, id, x)) break;
        double need = paged ? (double)x->prompt + x->gen + slack : (double)x->prompt + max_response;
        /* prefix caching: the group's prompt blocks already held here */
        const size_t slot = pfx ? pg_slot(s, I, smp_group(s, id)) : 0;
        const double hit = pfx && I->pg[slot].key != -1 ? prompt_hit(s, x->prompt) : 0;
        need -= hit;
        if (nactive == 0 && n == 0 && (double)x->prompt + max_response + slack > kv_cap) {
            /* cannot hold even one sequence: the plan is infeasible */
            fs_err_set(&s->err, 1, "rollout instance %d cannot hold one sequence of %.0f tokens (KV room %.0f)",
                       I->index, sample_most(s, x), kv_cap);
            break;
        }
        const double held = paged ? ctx_sum + nactive * slack - I->kv_shared : kv_used;
        /* paged: room also for the next decode step's token of every
        ** sequence then active, or the step after the admission preempts
        ** what it admitted (and the instance cycles: admit, preempt, admit) */
        if (held + need + (paged ? nactive + 1 : 0) > admit_cap && !(paged && nactive == 0 && n == 0)) break;
        if (pfx) pg_join(s, I, slot, id, x->prompt);
        head = head + 1 < qcap ? head + 1 : 0;      /* eng_sq_pop, the counts stored below */
        len--;
        const uint32_t flags = x->flags;
        const unsigned pre = x->preempted;
        x->flags = (flags & keep) | active;
        int v_start = x->v_start;
        if (v_start < 0) { x->v_start = v_start = version; x->t_start = now; opened++; }
        eng_act_add(s, v_start, 1);
        x->v_last = version;
        const int32_t gen = x->gen;
        const int64_t adm_step = step - gen;
        x->adm_step = adm_step;
        double ctx = (double)x->prompt + gen;
        ctx_sum += ctx;
        if (!paged) kv_used += need;
        nactive++;
        x->admseq = nadmit++;
        heap_push(I, adm_step + x->resp, id);
        last_batch = x->batch;
        n++;
        if (pre == PRE_SWAPPED) {
            /* its KV comes back from host memory: no prefill */
            swap_tok += ctx;
            continue;
        }
        /* a cached prompt is not computed again: the rest of the context
        ** attends to it (causal pairs ctx² − hit², halved in the FLOPs) */
        if (pre == PRE_RECOMPUTE) pre_tok += ctx - hit;
        ptok += ctx - hit;
        psq += ctx * ctx - hit * hit;
    }
    q->head = head;
    s->dq_len -= q->len - len;
    q->len = len;
    I->ctx_sum = ctx_sum;
    I->kv_used = kv_used;
    I->nactive = nactive;
    I->nadmit = nadmit;
    if (opened > 0) eng_open_add(s, version, opened);
    if (n == 0) return now;
    sim_time t0 = now;
    if (swap_tok > 0) {
        double sw = swap_secs(s, I, swap_tok);
        s->st.preempt_cost_s += sw;
        t0 = now + sim_from_secs(sw);
    }
    if (ptok <= 0) return t0;
    double pre_s = (p->rollout.max_batched_tokens > 0 ? chunked_prefill_secs(s, I, ptok, psq, b0, ctx0)
                                                       : prefill_secs(s, I, ptok, psq)) * I->slow;   /* a straggler prefills slower too */
    sim_time t1 = t0 + sim_from_secs(pre_s);
    /* recompute: the share of the prefill spent on preempted contexts */
    if (pre_tok > 0) s->st.preempt_cost_s += pre_s * pre_tok / ptok;
    eng_span(s, I->track, PH_PREFILL, t0, t1, last_batch, I->version, -1, (int64_t)ptok);
    return t1;
}

/* Admit what fits (inst_admit_some), if the queue, the batch and the
** dispatcher's share leave room for one. */
static inline sim_time inst_admit(sim *s, instance *I, sim_time now, bool cold)
{
    if (eng_inst_queue(s, I)->len == 0 || I->nactive >= s->scn.plan.rollout.max_seqs || I->quota == 0) return now;
    return inst_admit_some(s, I, now, cold);
}

/* Close the decode segment at the instance's target step (event time).
** Inlined into eng_inst_event, which closes one each event. */
__attribute__((always_inline)) static inline void inst_close_segment_in(sim *s, instance *I, sim_time now, int64_t upto)
{
    int64_t k = upto - I->step;
    if (k > 0) {
        const int na = I->nactive;
        const double tok = (double)na * (double)k;
        eng_span(s, I->track, PH_GENERATE, I->seg_t0, now, s->version, I->version, na, (int64_t)na * k);
        s->st.tokens_generated += tok;
        I->ctx_sum += tok;
        I->step = upto;
    }
}

static void inst_close_segment(sim *s, instance *I, sim_time now, int64_t upto)
{
    inst_close_segment_in(s, I, now, upto);
}

/* The samples active on the instance, newest admission first, into s->adm
** (each: its age in admissions above its id); returns how many.  The heap
** holds exactly them, and each struct holds the instance's admission count
** when it was admitted: counted modulo 2^32, the ages of the samples active
** at once are right while fewer than 2^32 admissions separate the oldest
** from now.  Only preemption and eviction ask, and they read the structs
** anyway.  The ages are distinct (one admission each) and span little more
** than the samples (the oldest active one was admitted a few batches ago):
** each key goes to the slot its age names (eng_place_hi), or when they
** span too far, a radix sort orders them. */
static int inst_newest_first(sim *s, const instance *I)
{
    const int n = I->hn;
    if (5 * n + 64 > s->adm_cap) {      /* the keys and 4n + 64 slots (bitmap included) */
        s->adm_cap = 5 * n + 64;
        free(s->adm);
        s->adm = xmalloc((size_t)s->adm_cap * sizeof *s->adm);
    }
    for (int k = 0; k < n; k++) {
        const int32_t id = hent_id(I->heap[k]);
        const uint32_t age = I->nadmit - eng_smp(s, id)->admseq;
        s->adm[k] = (uint64_t)age << 32 | (uint32_t)id;
    }
    uint64_t *slots = s->adm + n;
    if (!eng_place_hi(s->adm, n, slots, s->adm_cap - n)) eng_sort_u64(s->adm, n, slots);
    return n;
}

/* A finished sample's instance and flags word: no instance, S_DONE, no
** re-prefill needed, not preempted (an active sample never is). */
static inline uint32_t sample_done_flags(void)
{
    sample t;
    t.flags = 0;
    t.inst = -1;
    t.state = S_DONE;
    t.resumed = 0;
    t.preempted = PRE_NONE;
    return t.flags;
}

/* Finishing reads the sample's figures from its struct, whose line it
** writes anyway (the instance asks for it, for writing, when its event
** begins): a heap entry that carried them would be twice the size, and a
** separate array of them one more line a completion. */
static void sample_finish(sim *s, int id, sample *x, sim_time now)
{
    const int32_t v_start = x->v_start, resp = x->resp, prompt = x->prompt, batch = x->batch;
    x->flags = sample_done_flags();
    eng_act_add(s, v_start, -1);
    x->gen = resp;
    x->t_end = now;
    if (s->nfin == s->fin_cap) {
        s->fin_cap = s->fin_cap ? s->fin_cap * 2 : 1024;
        s->fin = xrealloc(s->fin, (size_t)s->fin_cap * sizeof *s->fin);
    }
    s->fin[s->nfin++] = id;
    eng_open_to_fin(s, v_start);
    s->batch_done[batch]++;
    s->st.samples_done++;
    s->st.dq_rollout_out += ((double)prompt + resp) * 8.0;   /* token ids + rollout log-probs */
}

/* Restore the heap property over the whole heap (after removals). */
static void heap_build(instance *I)
{
    for (int i = I->hn > 1 ? heap_parent(I->hn - 1) : -1; i >= 0; i--) {
        int c = i;
        hent e = I->heap[c];
        while (heap_first_child(c) < I->hn) {
            int m = heap_min_child(I->heap, c, I->hn);
            if (!(I->heap[m] < e)) break;
            I->heap[c] = I->heap[m];
            c = m;
        }
        I->heap[c] = e;
    }
}

/* The paged cache is full: the next decode step needs a token for every
** sequence and there is no room.  Take the newest sequences off (the
** lowest priority under first-come-first-served, as vLLM's scheduler
** does) until the next step fits; each goes back to the front of the queue
** keeping what it decoded.  Recompute: its context is prefilled again when
** it is readmitted.  Swap: its KV is copied to host memory now and back on
** readmission, over the host link, the instance waiting for each.  Returns
** when the instance can decode again.  docs/model.md, section 5. */
static sim_time inst_preempt(sim *s, instance *I, sim_time now)
{
    int self = (int)(I - s->inst);
    int count = 0;
    double tokens = 0;
    const int na = inst_newest_first(s, I);
    for (int i = 0; i < na && inst_kv(s, I) + I->nactive > I->kv_cap; i++) {
        const int id = (int32_t)(uint32_t)s->adm[i];
        sample *x = eng_smp(s, id);
        if (I->nactive == 1) {
            fs_err_set(&s->err, 1, "rollout instance %d cannot hold one sequence of %.0f tokens (KV room %.0f)",
                       I->index, (double)x->prompt + x->resp + kv_slack(s), I->kv_cap);
            return now;
        }
        int64_t g = I->step - x->adm_step;
        if (g > x->resp) g = x->resp;
        x->gen = (int32_t)g;
        x->inst = -1;
        x->state = S_QUEUED;
        eng_act_add(s, x->v_start, -1);
        x->resumed = x->gen > 0;
        x->preempted = s->scn.plan.rollout.preempt == PREEMPT_SWAP ? PRE_SWAPPED : PRE_RECOMPUTE;
        if (kv_prefix(s)) pg_leave(s, I, id, x->prompt);
        double ctx = (double)x->prompt + x->gen;
        I->ctx_sum -= ctx;
        I->nactive--;
        tokens += ctx;
        count++;
        eng_dq_push_front(s, id);
    }
    /* drop the taken samples from the heap (they are no longer active here) */
    int w = 0;
    for (int k = 0; k < I->hn; k++) {
        const sample *x = eng_smp(s, hent_id(I->heap[k]));
        if (x->state == S_ACTIVE && x->inst == self) I->heap[w++] = I->heap[k];
    }
    I->hn = w;
    heap_build(I);
    s->st.preemptions += count;
    s->st.preempt_tokens += tokens;
    trace_instant in = {now, INST_PREEMPT, s->version, I->version, I->track, count, (int64_t)tokens, 0};
    trace_add_instant(s->tr, &in);
    if (s->scn.plan.rollout.preempt != PREEMPT_SWAP) return now;
    double sw = swap_secs(s, I, tokens);
    s->st.preempt_cost_s += sw;
    return now + sim_from_secs(sw);
}

void eng_inst_event(sim *s, instance *I, sim_time now)
{
    const bool cold = heaps_cold(s);
    /* in a large run the next event is most likely another instance's
    ** completion, whose struct, heap and finishing sample are out of the
    ** cache: ask for the struct and, by the hint it left when it scheduled
    ** that event (its root's sample then, which the event reads and writes
    ** first), for the sample now; for the top of its heap once the struct
    ** is in (below) */
    const instance *J = NULL;
    const event *next = cold ? eng_evq_peek(&s->q) : NULL;
    if (next && eng_ev_kind(next) == EV_INST) {
        J = &s->inst[eng_ev_a(next)];
        for (size_t o = 0; o < INST_HOT_BYTES; o += 64) __builtin_prefetch((const char *)J + o);
        __builtin_prefetch((const char *)J + INST_HOT_BYTES - 1);     /* the struct is not aligned to a line */
        eng_smp_prefetch(s, J->root_hint);
    }
    I->scheduled = false;
    /* the sample at the root finishes now, most likely, and its struct is
    ** read and written below: start loading it while the segment is closed */
    if (I->hn > 0) eng_smp_prefetch(s, hent_id(I->heap[0]));
    inst_close_segment_in(s, I, now, I->target);
    const bool pfx = kv_prefix(s);
    const int64_t nfin0 = s->nfin;
    /* every entry is an active sample of this instance: an eviction empties
    ** the heap (sim_check_counters verifies it) */
    while (I->hn > 0 && hent_step(I, I->heap[0]) <= I->step) {
        const int id = hent_id(cold ? heap_pop_impl(I, true) : heap_pop_impl(I, false));
        sample *x = eng_smp(s, id);
        if (pfx) pg_leave(s, I, id, x->prompt);
        I->ctx_sum -= (double)x->prompt + x->resp;
        if (!kv_paged(s)) I->kv_used -= (double)x->prompt + s->scn.work.max_response;   /* sample_reserve */
        I->nactive--;
        sample_finish(s, id, x, now);
    }
    if (s->nfin != nfin0) { s->fin_last_t = now; s->fin_last_track = I->track; }
    /* the next instance's heap: its top six levels (entries 0..31, four
    ** lines; a heap is never smaller than 64 entries) and its last entry,
    ** which a pop moves */
    if (J && J->hn > 0) {
        for (int j = 0; j < 32; j += 8) __builtin_prefetch(&J->heap[j]);
        __builtin_prefetch(&J->heap[J->hn - 1]);
    }
    if (I->nactive == 0) { I->ctx_sum = 0; I->kv_used = 0; I->kv_shared = 0; }
    /* a full paged cache preempts, and admits nothing in the same step */
    if (kv_paged(s) && I->nactive > 0 && inst_kv(s, I) + I->nactive > I->kv_cap) {
        I->seg_t0 = inst_preempt(s, I, now);
        I->seg_step0 = I->step;
        if (!s->err.code) inst_schedule(s, I);
        return;
    }
    I->seg_t0 = inst_admit(s, I, now, cold);
    I->seg_step0 = I->step;
    inst_schedule(s, I);
}

/* Would the next queued sample be admitted now? */
bool eng_inst_can_admit(const sim *s, const instance *I)
{
    const squeue *q = eng_inst_queue((sim *)s, I);
    if (q->len == 0 || I->nactive >= s->scn.plan.rollout.max_seqs) return false;
    int id = eng_sq_peek(q);
    const sample *x = eng_smp(s, id);
    if (!eng_may_start(s, id, x, I->version)) return false;
    return inst_kv(s, I) + sample_reserve(s, x) <= kv_admit_cap(s, I) || I->nactive == 0;
}

/* Start (or resume) generation on an instance. */
void eng_inst_kick(sim *s, instance *I, sim_time now)
{
    if (!I->running) return;
    if (I->scheduled) {
        /* admit newcomers between events: close the segment so far first */
        if (!eng_inst_can_admit(s, I) || now < I->seg_t0) return;
        int64_t k = decode_steps_within(s, I, sim_secs(now - I->seg_t0), I->target - I->step);
        inst_close_segment(s, I, now, I->step + k);
    }
    I->seg_t0 = inst_admit(s, I, now > I->seg_t0 ? now : I->seg_t0, heaps_cold(s));
    I->seg_step0 = I->step;
    inst_schedule(s, I);
}

/* Stop an instance at `now`: decode progress so far is kept in the samples;
** `evict` also takes every active sample off it (KV released). */
void eng_inst_stop(sim *s, instance *I, sim_time now, bool evict, bool restart)
{
    if (I->scheduled && now > I->seg_t0) {
        int64_t k = decode_steps_within(s, I, sim_secs(now - I->seg_t0), I->target - I->step);
        inst_close_segment(s, I, now, I->step + k);
    }
    I->scheduled = false;
    I->running = false;
    if (!evict) return;
    /* newest first back to the queue front, so the oldest resumes first */
    const int na = inst_newest_first(s, I);
    for (int i = 0; i < na; i++) {
        const int id = (int32_t)(uint32_t)s->adm[i];
        sample *x = eng_smp(s, id);
        int64_t g = I->step - x->adm_step;
        if (g > x->resp) g = x->resp;
        x->gen = (int32_t)g;
        x->inst = -1;
        x->state = S_QUEUED;
        eng_act_add(s, x->v_start, -1);
        if (restart) {
            s->st.tokens_wasted += x->gen;
            x->gen = 0;
            eng_open_add(s, x->v_start, -1);
            x->v_start = -1;
        }
        x->resumed = x->gen > 0;
        eng_dq_push_front(s, id);
    }
    I->hn = 0;
    I->nactive = 0;
    I->ctx_sum = 0;
    I->kv_used = 0;
    if (I->pg) pg_clear(I);
}
