/*
** trace.c — append-only run record with per-track span indices.
*/
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A span that waits for the measured window to settle (trace_add_span_at). */
typedef trace_wait wait_span;

/* Per pool: the running sums and the spans not yet in them, oldest first.
** While the window's start is not known, the spans that end before it
** surely starts leave the queue as they reach its front: they add nothing
** to the sums (a span counts from the window's start), unless the run ends
** before its warm-up, when the window starts at 0 and they count whole —
** for that case busy0, comp0 are their sums in order, and floor the latest
** bound they left under (trace_window_totals). */
typedef struct {
    double busy, comp;
    double busy0, comp0;
    sim_time floor;
    fs_vec wait;                /* wait_span */
    size_t head;                /* wait[head..] still wait */
} pool_sum;

/* Per track: its pool when its spans count towards the pool's sums (pool
** tracks, not host links or the step track), else -1; its devices. */
typedef struct {
    int32_t pool, devices;
} track_sum;

struct trace {
    fs_vec tracks, groups, spans, counters, instants, windows, vgroups;
    bool    drop;               /* store no spans, counters, instants */
    size_t  recorded, waiting;
    size_t  waiting_peak;       /* the most that waited before the last time some left (peak_mark) */
    pool_sum *psum;
    int     npsum;
    track_sum *tsum;            /* per track */
    sim_time last_w0, last_open, last_lo;
    sim_time due;               /* the earliest end at the front of a pool's queue, or INT64_MAX */
    fs_vec *track_idx;          /* per track: uint32_t span indices */
    size_t  ntrack_idx;
    fs_vec *group_ctr;          /* per group: uint32_t counter indices */
    size_t  ngroup_ctr;
    trace_sink sink;
    bool    has_sink;
};

static const char *const phase_names[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = name,
    TRACE_PHASES(X)
#undef X
};

const char *trace_phase_name(trace_phase p)
{
    return (unsigned)p < PH__COUNT ? phase_names[p] : "?";
}

static const char *const step_names[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = name,
    TRACE_STEP_PHASES(X)
#undef X
};

const char *trace_step_phase_name(trace_step_phase p)
{
    return (unsigned)p < STEP__COUNT ? step_names[p] : "?";
}

static const char *bucket_names[MB__COUNT] = {
    "weights", "grads", "optimizer", "activations", "rollout_weights",
    "kv_cache", "ref_weights", "reward_weights", "critic", "reshard_buffer",
    "host_offload", "host_models", "runtime", "trainer_cache"
};

const char *trace_bucket_name(mem_bucket b)
{
    return (unsigned)b < MB__COUNT ? bucket_names[b] : "?";
}

trace *trace_new(void)
{
    trace *t = xcalloc(1, sizeof *t);
    vec_init(&t->tracks, sizeof(trace_track));
    vec_init(&t->groups, sizeof(trace_memgroup));
    vec_init(&t->spans, sizeof(trace_span));
    vec_init(&t->counters, sizeof(trace_counter));
    vec_init(&t->instants, sizeof(trace_instant));
    vec_init(&t->windows, sizeof(trace_window));
    vec_init(&t->vgroups, sizeof(trace_vgroup));
    t->last_w0 = t->last_open = t->last_lo = -1;
    t->due = INT64_MAX;
    return t;
}

void trace_free(trace *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ntrack_idx; i++) vec_free(&t->track_idx[i]);
    for (size_t i = 0; i < t->ngroup_ctr; i++) vec_free(&t->group_ctr[i]);
    free(t->track_idx);
    free(t->group_ctr);
    for (int p = 0; p < t->npsum; p++) vec_free(&t->psum[p].wait);
    free(t->psum);
    free(t->tsum);
    vec_free(&t->tracks);
    vec_free(&t->groups);
    vec_free(&t->spans);
    vec_free(&t->counters);
    vec_free(&t->instants);
    vec_free(&t->windows);
    vec_free(&t->vgroups);
    free(t);
}

void trace_set_sink(trace *t, const trace_sink *sink)
{
    if (sink) { t->sink = *sink; t->has_sink = true; }
    else { memset(&t->sink, 0, sizeof t->sink); t->has_sink = false; }
}

void trace_reserve_spans(trace *t, size_t n)
{
    if (!t->drop) vec_reserve(&t->spans, n);
}

void trace_keep(trace *t, bool keep)
{
    t->drop = !keep;
    if (t->drop && t->spans.len == 0) {
        /* give back the engine's reservation */
        vec_free(&t->spans);
        vec_init(&t->spans, sizeof(trace_span));
    }
}

bool trace_keeps(const trace *t) { return !t->drop; }
bool trace_spans_read(const trace *t) { return !t->drop || (t->has_sink && t->sink.on_span); }
bool trace_spans_streamed(const trace *t) { return t->drop && t->has_sink && t->sink.on_span; }

int trace_add_track(trace *t, const trace_track *tk)
{
    *(trace_track *)vec_push(&t->tracks) = *tk;
    if (tk->pool >= t->npsum) {
        t->psum = xrealloc(t->psum, (size_t)(tk->pool + 1) * sizeof *t->psum);
        for (int p = t->npsum; p <= tk->pool; p++) {
            memset(&t->psum[p], 0, sizeof t->psum[p]);
            vec_init(&t->psum[p].wait, sizeof(wait_span));
        }
        t->npsum = tk->pool + 1;
    }
    t->tsum = xrealloc(t->tsum, t->tracks.len * sizeof *t->tsum);
    t->tsum[t->tracks.len - 1] = (track_sum){tk->pool < 0 || tk->kind == TRK_HOSTLINK || tk->kind == TRK_STEP ? -1 : tk->pool,
                                              tk->devices};
    t->track_idx = xrealloc(t->track_idx, t->tracks.len * sizeof(fs_vec));
    vec_init(&t->track_idx[t->tracks.len - 1], sizeof(uint32_t));
    t->ntrack_idx = t->tracks.len;
    return (int)t->tracks.len - 1;
}

int trace_add_memgroup(trace *t, const trace_memgroup *g)
{
    *(trace_memgroup *)vec_push(&t->groups) = *g;
    t->group_ctr = xrealloc(t->group_ctr, t->groups.len * sizeof(fs_vec));
    vec_init(&t->group_ctr[t->groups.len - 1], sizeof(uint32_t));
    t->ngroup_ctr = t->groups.len;
    return (int)t->groups.len - 1;
}

/* A new slot the caller fills whole at once: no zeroing first (spans are
** the run's most frequent record). */
static inline void *push_filled(fs_vec *v)
{
    if (v->len == v->cap) vec_reserve(v, v->cap ? v->cap * 2 : 16);
    return (char *)v->data + v->len++ * v->item;
}

/* Indexed by a span's phase byte, any value of it: no test of its range
** on a span's path (phases past the last are not computation). */
static const bool phase_compute[256] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = compute,
    TRACE_PHASES(X)
#undef X
};

bool trace_phase_is_compute(trace_phase p)
{
    return (unsigned)p < PH__COUNT && phase_compute[p];
}

/* One span's share of the window [w0, w1] into a pool's sums: the very
** expression report.c used over the stored spans, so that the sums come out
** the same to the last bit. */
static inline void sum_span(double *busy, double *comp, const wait_span *w, sim_time w0, sim_time w1)
{
    sim_time a = w->t0 > w0 ? w->t0 : w0, b = w->t1 < w1 ? w->t1 : w1;
    if (b <= a) return;
    double dev_s = sim_secs(b - a) * w->devices;
    *busy += dev_s;
    if (w->compute) *comp += dev_s;
}

/* The count of waiting spans only grows between the times some leave: its
** most is taken then (and when asked), not at every span that joins. */
static inline void peak_mark(trace *t)
{
    if (t->waiting > t->waiting_peak) t->waiting_peak = t->waiting;
}

/* Gives back the queue's settled front (a whole queue settled starts over). */
static inline void queue_trim(pool_sum *ps)
{
    if (ps->head == ps->wait.len) ps->head = ps->wait.len = 0;
    else if (ps->head > 4096 && ps->head * 2 > ps->wait.len) {
        wait_span *v = ps->wait.data;
        memmove(v, v + ps->head, (ps->wait.len - ps->head) * sizeof *v);
        ps->wait.len -= ps->head;
        ps->head = 0;
    }
}

/* A span ending at or before `open` lies inside the window's end, which is
** at or after `open`: its share needs only the settled start w0. */
static void settle(trace *t, pool_sum *ps, sim_time w0, sim_time open)
{
    const wait_span *v = ps->wait.data;
    size_t h = ps->head;
    const size_t len = ps->wait.len;
    double busy = ps->busy, comp = ps->comp;     /* the same additions, in locals */
    while (h < len && v[h].t1 <= open) {
        sum_span(&busy, &comp, &v[h], w0, v[h].t1);
        h++;
    }
    peak_mark(t);
    t->waiting -= h - ps->head;
    ps->head = h;
    ps->busy = busy;
    ps->comp = comp;
    queue_trim(ps);
}

/* The window will start at or after lo (and end at or after it): the spans
** at the queue's front that end by lo leave it (pool_sum), summed whole for
** a run that never finishes its warm-up. */
static void drop_early(trace *t, pool_sum *ps, sim_time lo)
{
    wait_span *v = ps->wait.data;
    if (ps->head == ps->wait.len || v[ps->head].t1 > lo) return;
    size_t h = ps->head;
    const size_t len = ps->wait.len;
    double busy0 = ps->busy0, comp0 = ps->comp0;
    while (h < len && v[h].t1 <= lo) {
        sum_span(&busy0, &comp0, &v[h], 0, v[h].t1);
        h++;
    }
    peak_mark(t);
    t->waiting -= h - ps->head;
    ps->head = h;
    ps->busy0 = busy0;
    ps->comp0 = comp0;
    ps->floor = lo;
    queue_trim(ps);
}

/* The earliest end at the front of the queues: a bound that leaves out no
** span (settle and drop_early take none that ends after it), so the loops
** over the pools run only when one will take a span. */
static void due_update(trace *t)
{
    sim_time d = INT64_MAX;
    for (int p = 0; p < t->npsum; p++) {
        const pool_sum *ps = &t->psum[p];
        if (ps->head < ps->wait.len) {
            sim_time e = ((const wait_span *)ps->wait.data)[ps->head].t1;
            if (e < d) d = e;
        }
    }
    t->due = d;
}

/* A span joins pool ps's queue. */
static inline void queue_push(trace *t, pool_sum *ps, const wait_span *w)
{
    fs_vec *v = &ps->wait;
    if (ps->head == v->len && w->t1 < t->due) t->due = w->t1;
    if (v->len == v->cap) vec_reserve(v, v->cap ? v->cap * 2 : 16);
    ((wait_span *)v->data)[v->len++] = *w;
}

/* The loops over the pools, apart from the span's own path (total_span,
** inlined where spans are recorded). */
static __attribute__((noinline)) void settle_all(trace *t, sim_time w0, sim_time open)
{
    for (int p = 0; p < t->npsum; p++) settle(t, &t->psum[p], w0, open);
    due_update(t);
}

static __attribute__((noinline)) void drop_early_all(trace *t, sim_time lo)
{
    for (int p = 0; p < t->npsum; p++) drop_early(t, &t->psum[p], lo);
    due_update(t);
}

static inline __attribute__((always_inline)) void total_span(trace *t, const trace_span *s, sim_time w0, sim_time open, sim_time lo)
{
    if ((uint32_t)s->track >= t->tracks.len) return;      /* a negative track too */
    const track_sum ts = t->tsum[s->track];
    if (ts.pool < 0) return;
    bool settled = w0 >= 0 && open >= 0;
    if (settled && (w0 != t->last_w0 || open != t->last_open)) {
        /* the window settled further: let the waiting spans of every pool in */
        if (open >= t->due) settle_all(t, w0, open);
        t->last_w0 = w0;
        t->last_open = open;
    }
    const bool early = !settled && lo >= 0 && open >= 0;
    if (early && lo != t->last_lo) {
        if (lo >= t->due) drop_early_all(t, lo);
        t->last_lo = lo;
    }
    pool_sum *ps = &t->psum[ts.pool];
    /* The span's ends read as two 8-byte loads, not one of 16: a caller
    ** that has just stored them one by one (the engine builds its spans on
    ** the stack) would make a 16-byte load wait for both stores to reach
    ** the cache, as a load that spans two stores is not forwarded from
    ** them (Intel 64 and IA-32 Architectures Optimization Reference Manual,
    ** "Store Forwarding").  The empty asm keeps the compiler from merging
    ** the two. */
    sim_time t0 = s->t0;
    const sim_time t1 = s->t1;
    __asm__("" : "+r"(t0));
    wait_span w = {t0, t1, ts.devices, phase_compute[s->phase]};
    if (ps->head == ps->wait.len) {
        if (settled && t1 <= open) {
            sum_span(&ps->busy, &ps->comp, &w, w0, t1);
            return;
        }
        if (early && t1 <= lo) {
            sum_span(&ps->busy0, &ps->comp0, &w, 0, t1);
            ps->floor = lo;
            return;
        }
    }
    queue_push(t, ps, &w);
    t->waiting++;
}

/* A span stored field by field, each read at its own width: the engine
** has just written them so (total_span), and a wider load of several
** fresh stores waits for them to reach the cache. */
static inline void span_store(trace_span *d, const trace_span *s)
{
    sim_time t0 = s->t0, t1 = s->t1;
    int32_t track = s->track, iter = s->iter, version = s->version, mb = s->mb, tokens = s->tokens;
    uint8_t phase = s->phase;
    __asm__("" : "+r"(t0), "+r"(t1), "+r"(track), "+r"(iter), "+r"(version), "+r"(mb), "+r"(tokens));
    *d = (trace_span){t0, t1, track, phase, iter, version, mb, tokens};
}

void trace_add_span_in(trace *t, const trace_span *s, sim_time w0, sim_time open, sim_time lo)
{
    t->recorded++;
    total_span(t, s, w0, open, lo);
    if (!t->drop) {
        uint32_t idx = (uint32_t)t->spans.len;
        span_store(push_filled(&t->spans), s);
        if (s->track >= 0 && (size_t)s->track < t->ntrack_idx)
            *(uint32_t *)push_filled(&t->track_idx[s->track]) = idx;
    }
    if (t->has_sink && t->sink.on_span) t->sink.on_span(t->sink.ud, t, s);
}

/* A batch's spans after its first, summed or queued in order (headless, no
** span sink): the queue being filled is held in locals — a task's spans are
** all of one pool — and put back when another pool's span comes, and at
** the end (batch_end). */
typedef struct {
    trace     *t;
    sim_time   w0, open, lo;
    bool       settled, early;
    pool_sum  *cur;
    wait_span *data;
    size_t     len, cap, pushed;
} span_batch;

static inline __attribute__((always_inline)) void batch_add(span_batch *b, pool_sum *ps, const wait_span *w)
{
    if (ps != b->cur) {
        if (b->cur) b->cur->wait.len = b->len;
        b->cur = ps;
        b->data = ps->wait.data;
        b->len = ps->wait.len;
        b->cap = ps->wait.cap;
    }
    if (ps->head == b->len) {
        if (b->settled && w->t1 <= b->open) {
            sum_span(&ps->busy, &ps->comp, w, b->w0, w->t1);
            return;
        }
        if (b->early && w->t1 <= b->lo) {
            sum_span(&ps->busy0, &ps->comp0, w, 0, w->t1);
            ps->floor = b->lo;
            return;
        }
        if (w->t1 < b->t->due) b->t->due = w->t1;   /* queue_push's, for the front */
    }
    if (b->len == b->cap) {
        ps->wait.len = b->len;
        vec_reserve(&ps->wait, b->cap ? b->cap * 2 : 16);
        b->data = ps->wait.data;
        b->cap = ps->wait.cap;
    }
    b->data[b->len++] = *w;
    b->pushed++;
}

static inline void batch_end(span_batch *b)
{
    if (b->cur) b->cur->wait.len = b->len;
    trace *t = b->t;
    t->waiting += b->pushed;
}

static inline span_batch batch_begin(trace *t, sim_time w0, sim_time open, sim_time lo)
{
    const bool settled = w0 >= 0 && open >= 0;
    return (span_batch){t, w0, open, lo, settled, !settled && lo >= 0 && open >= 0, NULL, NULL, 0, 0, 0};
}

void trace_add_spans_in(trace *t, const trace_span *s, size_t n, sim_time w0, sim_time open, sim_time lo)
{
    if (!t->drop) {
        for (size_t i = 0; i < n; i++) trace_add_span_in(t, &s[i], w0, open, lo);
        return;
    }
    /* headless: the running totals, and the sink if one watches spans, are
    ** all there is.  The sink reads no totals, so it is handed the batch
    ** after them; the window moves only at the first span (total_span, by
    ** the letter) */
    t->recorded += n;
    size_t i = 0;
    for (; i < n; i++) {
        const trace_span *sp = &s[i];
        if (sp->track < 0 || (size_t)sp->track >= t->tracks.len || t->tsum[sp->track].pool < 0) continue;
        total_span(t, sp, w0, open, lo);
        i++;
        break;
    }
    const size_t ntracks = t->tracks.len;
    const track_sum *tsum = t->tsum;
    span_batch b = batch_begin(t, w0, open, lo);
    for (; i < n; i++) {
        const trace_span *sp = &s[i];
        if (sp->track < 0 || (size_t)sp->track >= ntracks) continue;
        const track_sum ts = tsum[sp->track];
        if (ts.pool < 0) continue;
        const wait_span w = {sp->t0, sp->t1, ts.devices, phase_compute[sp->phase]};
        batch_add(&b, &t->psum[ts.pool], &w);
    }
    batch_end(&b);
    if (t->has_sink && t->sink.on_span) {
        if (t->sink.on_spans) t->sink.on_spans(t->sink.ud, t, s, n);
        else for (size_t k = 0; k < n; k++) t->sink.on_span(t->sink.ud, t, &s[k]);
    }
}


void trace_runs_begin(trace *t, trace_runs *w, sim_time w0, sim_time open, sim_time lo)
{
    *w = (trace_runs){NULL, NULL, 0, 0, 0, NULL, t, w0, open, lo, 0, 0, -1, true, false};
}

void trace_runs_begin_streamed(trace *t, trace_runs *w, sim_time w0, sim_time open, sim_time lo)
{
    trace_runs_begin(t, w, w0, open, lo);
    w->streamed = trace_spans_streamed(t);
}

void trace_stream_spans(trace *t, const trace_span *s, size_t n)
{
    if (!(t->has_sink && t->sink.on_span)) return;
    if (t->sink.on_spans) t->sink.on_spans(t->sink.ud, t, s, n);
    else for (size_t k = 0; k < n; k++) t->sink.on_span(t->sink.ud, t, &s[k]);
}

/* The runs written at the queue's tail since the room was given join it. */
static inline void runs_commit(trace_runs *w)
{
    if (w->at == w->from) return;
    const size_t k = (size_t)(w->at - w->from);
    w->t->psum[w->pool].wait.len += k;
    w->n += k;
    w->pushed += k;
    w->from = w->at;
}

void trace_runs_take(trace_runs *w, sim_time a, sim_time b, int32_t track)
{
    trace *t = w->t;
    runs_commit(w);
    if (trace_spans_read(t) && !w->streamed) {
        /* spans are stored or watched: the run is made whole */
        const trace_span sp = {a, b, track, PH_TRAIN_1F1B, -1, -1, -1, 0};
        trace_add_span_in(t, &sp, w->w0, w->open, w->wlo);
        return;
    }
    w->n++;
    w->at = w->end = w->from = NULL;
    if (track < 0 || (size_t)track >= t->tracks.len) return;
    const track_sum ts = t->tsum[track];
    if (ts.pool < 0) return;
    pool_sum *ps = &t->psum[ts.pool];
    if (w->first) {
        /* the window moves only here (total_span, by the letter) */
        const trace_span sp = {a, b, track, PH_TRAIN_1F1B, -1, -1, -1, 0};
        total_span(t, &sp, w->w0, w->open, w->wlo);
        w->first = false;
    } else {
        /* batch_add's path for one span */
        const wait_span ws = {a, b, ts.devices, 1};
        const bool settled = w->w0 >= 0 && w->open >= 0, early = !settled && w->wlo >= 0 && w->open >= 0;
        if (ps->head == ps->wait.len) {
            if (settled && b <= w->open) {
                sum_span(&ps->busy, &ps->comp, &ws, w->w0, b);
                return;
            }
            if (early && b <= w->wlo) {
                sum_span(&ps->busy0, &ps->comp0, &ws, 0, b);
                ps->floor = w->wlo;
                return;
            }
            if (b < t->due) t->due = b;         /* queue_push's, for the front */
        }
        fs_vec *v = &ps->wait;
        if (v->len == v->cap) vec_reserve(v, v->cap ? v->cap * 2 : 16);
        ((wait_span *)v->data)[v->len++] = ws;
        w->pushed++;
    }
    if (ps->head == ps->wait.len) return;
    /* the queue waits: room at its tail for the runs that follow on the
    ** tracks next to this one of the same pool and devices (a pipeline's
    ** stages), which join it with no test on their ends */
    fs_vec *v = &ps->wait;
    if (v->cap - v->len < 64) vec_reserve(v, v->cap * 2 > v->len + 64 ? v->cap * 2 : v->len + 64);
    const track_sum *tsum = t->tsum;
    const size_t ntracks = t->tracks.len;
    int32_t tlo = track, thi = track;
    while (tlo > 0 && tsum[tlo - 1].pool == ts.pool && tsum[tlo - 1].devices == ts.devices) tlo--;
    while ((size_t)thi + 1 < ntracks && tsum[thi + 1].pool == ts.pool && tsum[thi + 1].devices == ts.devices) thi++;
    w->pool = ts.pool;
    w->lo = tlo;
    w->span = (uint32_t)(thi - tlo);
    w->devices = ts.devices;
    w->at = w->from = (wait_span *)v->data + v->len;
    w->end = (wait_span *)v->data + v->cap;
}

void trace_runs_end(trace_runs *w)
{
    runs_commit(w);
    w->at = w->end = w->from = NULL;
    trace *t = w->t;
    t->recorded += w->n;
    t->waiting += w->pushed;
    w->n = w->pushed = 0;
}

void trace_add_runs_in(trace *t, const trace_run *r, size_t n, sim_time w0, sim_time open, sim_time lo)
{
    trace_runs w;
    trace_runs_begin(t, &w, w0, open, lo);
    for (size_t i = 0; i < n; i++) trace_runs_add(&w, r[i].t0, r[i].t1, r[i].track);
    trace_runs_end(&w);
}

void trace_add_span_at(trace *t, const trace_span *s, sim_time w0, sim_time open)
{
    trace_add_span_in(t, s, w0, open, -1);
}

void trace_add_span(trace *t, const trace_span *s)
{
    trace_add_span_in(t, s, -1, -1, -1);
}

void trace_window_totals(const trace *t, sim_time w0, sim_time w1, int npools, double *busy, double *comp)
{
    for (int p = 0; p < npools; p++) {
        busy[p] = comp[p] = 0;
        if (p >= t->npsum) continue;
        const pool_sum *ps = &t->psum[p];
        /* a window that starts before the spans that left early ended: the
        ** run stopped before its warm-up, and they count whole */
        const bool whole = w0 < ps->floor;
        busy[p] = whole ? ps->busy0 : ps->busy;
        comp[p] = whole ? ps->comp0 : ps->comp;
        const wait_span *v = ps->wait.data;
        for (size_t i = ps->head; i < ps->wait.len; i++) sum_span(&busy[p], &comp[p], &v[i], w0, w1);
    }
}

size_t trace_nspans_recorded(const trace *t) { return t->recorded; }
size_t trace_nspans_waiting(const trace *t) { return t->waiting; }
size_t trace_nspans_waiting_peak(const trace *t) { return t->waiting > t->waiting_peak ? t->waiting : t->waiting_peak; }

void trace_add_counter(trace *t, const trace_counter *c)
{
    if (!t->drop) {
        uint32_t idx = (uint32_t)t->counters.len;
        *(trace_counter *)vec_push(&t->counters) = *c;
        if (c->group >= 0 && (size_t)c->group < t->ngroup_ctr)
            *(uint32_t *)vec_push(&t->group_ctr[c->group]) = idx;
    }
    if (t->has_sink && t->sink.on_counter) t->sink.on_counter(t->sink.ud, t, c);
}

void trace_add_instant(trace *t, const trace_instant *i)
{
    if (!t->drop) *(trace_instant *)vec_push(&t->instants) = *i;
    if (t->has_sink && t->sink.on_instant) t->sink.on_instant(t->sink.ud, t, i);
}

void trace_add_window(trace *t, const trace_window *w)
{
    *(trace_window *)vec_push(&t->windows) = *w;
    if (t->has_sink && t->sink.on_window) t->sink.on_window(t->sink.ud, t, w);
}

void trace_add_vgroup(trace *t, const trace_vgroup *g)
{
    *(trace_vgroup *)vec_push(&t->vgroups) = *g;
    if (t->has_sink && t->sink.on_vgroup) t->sink.on_vgroup(t->sink.ud, t, g);
}

size_t trace_nvgroups(const trace *t) { return t->vgroups.len; }
const trace_vgroup *trace_vgroups(const trace *t) { return t->vgroups.data; }

int trace_ntracks(const trace *t) { return (int)t->tracks.len; }
const trace_track *trace_track_at(const trace *t, int i) { return &VEC_AT(&t->tracks, trace_track, i); }
int trace_nmemgroups(const trace *t) { return (int)t->groups.len; }
const trace_memgroup *trace_memgroup_at(const trace *t, int i) { return &VEC_AT(&t->groups, trace_memgroup, i); }
size_t trace_nspans(const trace *t) { return t->spans.len; }
const trace_span *trace_spans(const trace *t) { return t->spans.data; }
size_t trace_ncounters(const trace *t) { return t->counters.len; }
const trace_counter *trace_counters(const trace *t) { return t->counters.data; }
size_t trace_ninstants(const trace *t) { return t->instants.len; }
const trace_instant *trace_instants(const trace *t) { return t->instants.data; }
size_t trace_nwindows(const trace *t) { return t->windows.len; }
const trace_window *trace_windows(const trace *t) { return t->windows.data; }

size_t trace_track_nspans(const trace *t, int track)
{
    return (track >= 0 && (size_t)track < t->ntrack_idx) ? t->track_idx[track].len : 0;
}

const uint32_t *trace_track_span_index(const trace *t, int track)
{
    return (track >= 0 && (size_t)track < t->ntrack_idx) ? t->track_idx[track].data : NULL;
}

double trace_mem_at(const trace *t, int group, mem_bucket b, sim_time at)
{
    if (group < 0 || (size_t)group >= t->ngroup_ctr) return 0;
    const fs_vec *v = &t->group_ctr[group];
    const uint32_t *ix = v->data;
    const trace_counter *c = t->counters.data;
    double val = 0;
    /* counters of a group are appended in time order per bucket; scan back */
    for (size_t i = v->len; i-- > 0;) {
        const trace_counter *k = &c[ix[i]];
        if (k->bucket == b && k->t <= at) { val = k->bytes; break; }
    }
    return val;
}
