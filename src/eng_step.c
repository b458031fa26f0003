/*
** eng_step.c — the training step, from its samples to its new weights.
**
** Which finished samples a step may take and when (eligibility, must-take
** samples, chunks, the "wait" and "discard" policies), the start and the end
** of a step (lags, staleness windows, hooks), the DistQueue reads that feed
** the forward passes and training (eng_train.c), the co-located pools'
** switches between layouts, the weight transfer to separate rollout pools,
** and the step track: what the training pool does or waits for at every
** moment.  The controller (eng_ctrl.c) calls these as events arrive.
** Rules and formulas: docs/model.md, sections 4 (The controller), 8
** (Switching), 9 (Weight synchronization) and 10 (DistQueue).
** Shared state and helpers: engine_int.h.
*/
#include "engine_int.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- the step */

/* Samples the step may train on: finished, lag within the bound (every
** version from step - s up). */
static int64_t eligible_count(sim *s, int step)
{
    return s->fin_total - eng_fin_upto(s, step - s->staleness - 1);
}

/* "wait": a sample that must be trained by this step is still generating
** (it started with a version <= step - s). */
static bool mandatory_unfinished(sim *s, int step)
{
    if (s->scn.plan.on_stale != STALE_WAIT) return false;
    return eng_open_upto(s, step - s->staleness) > 0;
}

/* "discard": drop finished samples too stale for `step`; their prompts are
** generated again.  Also used, whatever the policy, for samples left over
** once a step has taken all it can: they could never be trained. */
static void drop_stale(sim *s, int step)
{
    if (eng_fin_upto(s, step - s->staleness - 1) == 0) return;
    for (int64_t i = 0; i < s->nfin;) {
        sample *x = eng_smp(s, s->fin[i]);
        if (step - x->v_start > s->staleness) {
            eng_fin_add(s, x->v_start, -1);
            s->st.tokens_wasted += x->resp;
            s->st.samples_discarded++;
            s->batch_done[x->batch]--;
            s->st.samples_done--;
            x->gen = 0;
            x->v_start = -1;
            x->state = S_QUEUED;
            x->resumed = 0;
            eng_dq_push_front(s, s->fin[i]);
            s->fin[i] = s->fin[--s->nfin];
            s->fin_stamp++;
        } else i++;
    }
}

void eng_discard_stale(sim *s, int step, sim_time now)
{
    (void)now;
    if (s->scn.plan.on_stale == STALE_DISCARD) drop_stale(s, step);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* After a hook lowered the bound: finished samples too stale for `step` can
** never be trained (a later step only sees them staler), so they are
** generated again whatever on_stale says; waiting for them would wait for
** ever (docs/model.md, section 4). */
void eng_drop_untrainable(sim *s, int step)
{
    drop_stale(s, step);
    /* a queued sample that started too long ago (evicted or preempted with
    ** its tokens kept) can no longer be trained either: it starts afresh */
    for (int qi = 0; qi < s->nqueues; qi++) {
        squeue *q = &s->queues[qi];
        for (int64_t i = 0; i < q->len; i++) {
            sample *x = eng_smp(s, q->v[(q->head + i) % q->cap]);
            if (x->v_start < 0 || step - x->v_start <= s->staleness) continue;
            s->st.tokens_wasted += x->gen;
            eng_open_add(s, x->v_start, -1);
            x->gen = 0;
            x->v_start = -1;
            x->resumed = 0;
            x->preempted = PRE_NONE;
            s->queue_changed = true;
        }
    }
}

/* After a hook lowered the bound, recycled samples (pushed to the queues'
** fronts) may belong to batches the bound does not let start yet, ahead of
** samples that may: admission stops at the first sample it may not start,
** so each queue is put back in batch order (stable) before it is offered. */
void eng_queue_by_batch(sim *s)
{
    for (int qi = 0; qi < s->nqueues; qi++) {
        squeue *q = &s->queues[qi];
        if (q->len < 2) continue;
        uint64_t *k = xmalloc((size_t)q->len * sizeof *k);
        int *ids = xmalloc((size_t)q->len * sizeof *ids);
        for (int64_t i = 0; i < q->len; i++) {
            ids[i] = q->v[(q->head + i) % q->cap];
            k[i] = (uint64_t)(uint32_t)eng_smp(s, ids[i])->batch << 32 | (uint64_t)i;
        }
        qsort(k, (size_t)q->len, sizeof *k, cmp_u64);
        for (int64_t i = 0; i < q->len; i++) q->v[(q->head + i) % q->cap] = ids[k[i] & 0xffffffffu];
        free(k);
        free(ids);
    }
}

/* Samples that must be in step `step` (they would be too stale after it):
** started with a version <= step - s; in flight, and finished untaken. */
static int64_t must_take(sim *s, int step, int64_t *finished)
{
    if (finished) *finished = eng_fin_upto(s, step - s->staleness);
    return eng_open_upto(s, step - s->staleness);
}

/* May the next chunk be taken now?  Enough eligible samples, and (waiting
** policy) room left in the step for every sample that must be in it. */
bool eng_chunk_ready(sim *s, int step)
{
    /* "wait": after the overflow rule below took a chunk without waiting,
    ** samples then in flight can finish too stale for any step (a later
    ** step sees them staler); they are generated again.  "wait" leaves
    ** none otherwise, so this changes no run that did not stall. */
    if (s->scn.plan.on_stale == STALE_WAIT && eng_fin_upto(s, step - s->staleness - 1) > 0) drop_stale(s, step);
    if (eligible_count(s, step) < s->chunk_n) return false;
    if (s->scn.plan.on_stale != STALE_WAIT) return true;
    /* after a hook lowered the bound, samples released under the old one can
    ** be more than the step holds: waiting for them all to fit would wait
    ** for ever; the step takes what is ready and the rest is recycled */
    if (s->bound_lowered) return true;
    int64_t fin, inflight = must_take(s, step, &fin);
    int left_after = (s->nchunks - s->chunks_taken - 1) * s->chunk_n;
    /* More samples must be in this step than it can still hold (with a
    ** small partial_rollout, samples started on old versions pile up):
    ** their count only grows while the step waits, so waiting for room would
    ** wait for ever.  The chunk is taken now; what the step cannot hold is
    ** recycled after it, as the samples left over always are (drop_stale). */
    if (inflight + fin > (int64_t)left_after + s->chunk_n) return true;
    if (left_after == 0) return inflight == 0;
    int64_t rest = fin > s->chunk_n ? fin - s->chunk_n : 0;
    return inflight + rest <= left_after;
}

bool eng_trainer_ready(sim *s)
{
    int step = s->version;
    if (step >= s->scn.work.iterations || s->step_running >= 0) return false;
    if (s->scn.plan.on_stale == STALE_DISCARD) eng_discard_stale(s, step, s->now);
    /* fewer finished samples than a step: no need to count the eligible */
    if (s->fin_total < s->N || eligible_count(s, step) < s->N) return false;
    if (mandatory_unfinished(s, step)) return false;
    return true;
}

/* Move the `count` oldest eligible finished samples into the step, at
** step_ids[off..]. */
static void take_samples(sim *s, int step, int off, int count)
{
    const int64_t nfin = s->nfin;
    const int *fin = s->fin;
    /* A synchronous step takes every finished sample, all started with one
    ** version (the counters say so: that version holds them all) and their
    ** ids a contiguous run: oldest first is then id order, each id goes to
    ** its rank, and only the samples' states are written, in id order.
    ** The list holds each sample once, so its ranks are filled in id order
    ** too, with no read of the list (in finishing order, its writes would
    ** go all over the step's ids, a cache miss each in a large step). */
    if (count == nfin && nfin > 0) {
        int v = eng_smp(s, fin[0])->v_start;
        if (v >= 0 && v < s->nver && s->fin_v[v] == nfin && s->fin_total == nfin && step - v <= s->staleness) {
            int mn = fin[0], mx = fin[0];
            for (int64_t i = 1; i < nfin; i++) {
                if (fin[i] < mn) mn = fin[i];
                if (fin[i] > mx) mx = fin[i];
            }
            if ((int64_t)mx - mn == nfin - 1) {
                int *ids = s->step_ids + off;
                for (int64_t id = mn; id <= mx; id++) {
                    ids[id - mn] = (int)id;
                    eng_smp(s, id)->state = S_TAKEN;
                }
                eng_fin_add(s, v, -nfin);
                s->nfin = 0;
                return;
            }
        }
    }
    /* Oldest first: by start version, then batch, then index — a sample's id
    ** is batch·N + index, so the key (version, id) orders all three.  Each
    ** finished sample's key is kept in list order (kf, all ones when it is
    ** not eligible), so that the ones left are found without reading their
    ** samples again.  Scratch kept across steps, four regions of R keys:
    ** the keys, the sort's buffer, kf, and the eligible keys left over,
    ** sorted.  A step taken in chunks takes them one after another from
    ** the same finished samples when none finished (the list is as long as
    ** the last call left it: samples join only at its end, sample_finish)
    ** or was dropped (fin_stamp) meanwhile: the next chunk is then the head
    ** of what was left over, and kf the last call's, compacted with it. */
    int64_t R = s->take_cap / 4;
    if (nfin > R) {
        R = nfin;
        s->take_cap = 4 * R;
        free(s->take_k);
        s->take_k = xmalloc((size_t)s->take_cap * sizeof *s->take_k);
        s->take_ok = false;
    }
    uint64_t *k = s->take_k, *tmp = k + R, *kf = tmp + R, *left = kf + R;
    int64_t n = 0;
    if (s->take_ok && s->take_stamp == s->fin_stamp && s->take_step == step && s->take_stale == s->staleness
        && s->take_nfin == nfin && count > 0 && count <= s->take_cn) {
        k = left + s->take_c0;
        n = s->take_cn;
    } else {
        uint64_t mx = 0, mn = UINT64_MAX;
        int imin = INT_MAX, imax = -1;
        for (int64_t i = 0; i < nfin; i++) {
            const sample *x = eng_smp(s, fin[i]);
            kf[i] = UINT64_MAX;
            if (step - x->v_start <= s->staleness) {
                uint64_t key = ((uint64_t)x->v_start << 40) | (uint64_t)fin[i];
                k[n++] = kf[i] = key;
                if (key > mx) mx = key;
                if (key < mn) mn = key;
                if (fin[i] < imin) imin = fin[i];
                if (fin[i] > imax) imax = fin[i];
            }
        }
        if (n == count && n > 0 && mx - mn == (uint64_t)(n - 1)) {
            /* every eligible sample is taken and their keys are n consecutive
            ** integers: the sorted order is known, each key goes to its rank */
            for (int64_t i = 0; i < n; i++) tmp[k[i] - mn] = k[i];
            k = tmp;
        } else if (count > 0 && n > 0) {
            /* The keys sorted are (version - its least, id - its least), the
            ** id's bits as few as its range needs: the same order in fewer
            ** radix passes.  All are sorted, the next chunk's too. */
            const int vmin = (int)(mn >> 40);
            const uint64_t idm = (1ULL << 40) - 1;
            const int ib = imax > imin ? 64 - __builtin_clzll((uint64_t)(imax - imin)) : 0;
            for (int64_t i = 0; i < n; i++)
                k[i] = (uint64_t)((int)(k[i] >> 40) - vmin) << ib | ((k[i] & idm) - (uint64_t)imin);
            eng_sort_u64(k, n, tmp);
            const uint64_t im = ib ? (UINT64_MAX >> (64 - ib)) : 0;
            for (int64_t i = 0; i < n; i++)
                k[i] = (uint64_t)((int)(k[i] >> ib) + vmin) << 40 | ((k[i] & im) + (uint64_t)imin);
        }
    }
    s->take_ok = false;
    /* the keys taken are sorted by version: one counter update a version */
    int run_v = -1;
    int64_t run_n = 0;
    for (int i = 0; i < count; i++) {
        int id = (int)(k[i] & ((1ULL << 40) - 1));
        int v = (int)(k[i] >> 40);
        s->step_ids[off + i] = id;
        eng_smp(s, id)->state = S_TAKEN;
        if (v != run_v) {
            if (run_n) eng_fin_add(s, run_v, -run_n);
            run_v = v;
            run_n = 0;
        }
        run_n++;
    }
    if (run_n) eng_fin_add(s, run_v, -run_n);
    /* keep the rest in the finished list, in its order: the keys after the
    ** last one taken (keys are distinct) and the samples not eligible */
    if (count == nfin) { s->nfin = 0; return; }
    const uint64_t last = count > 0 ? k[count - 1] : 0;
    int64_t w = 0;
    for (int64_t i = 0; i < nfin; i++)
        if (count == 0 || kf[i] > last) {
            s->fin[w] = fin[i];
            kf[w++] = kf[i];
        }
    s->nfin = w;
    /* what the next chunk takes from, unless the list changes meanwhile */
    if (count > 0 && count < n) {
        if (k == left + s->take_c0) s->take_c0 += count;
        else {
            memcpy(left, k + count, (size_t)(n - count) * sizeof *k);
            s->take_c0 = 0;
        }
        s->take_cn = n - count;
        s->take_ok = true;
        s->take_stamp = s->fin_stamp;
        s->take_step = step;
        s->take_stale = s->staleness;
        s->take_nfin = w;
    }
}

/* Does pool p run a forward pass for each step? */
bool eng_pool_infers(const sim *s, int p)
{
    unsigned roles = s->pl.pools[p].roles;
    return ((roles & ROLE_TRAIN) && (s->scn.work.recompute_logprob || !s->scn.reward_is_model))
        || ((roles & ROLE_REF) && s->scn.has_ref) || ((roles & ROLE_REWARD) && s->scn.reward_is_model)
        || ((roles & ROLE_CRITIC) && s->scn.has_critic);
}

/* A step is processed in chunks: one chunk of N samples when synchronous;
** with StaleSync (s > 0) one chunk per mini-batch, so the forward passes run
** on samples as they finish and training starts once a mini-batch is ready. */
void eng_take_chunk(sim *s)
{
    int k = s->chunks_taken++;
    take_samples(s, s->step_running, k * s->chunk_n, s->chunk_n);
    /* the batch's arrow in the trace: from the instance whose sample
    ** finished last before the take (docs/model.md, section 13) */
    if (s->fin_last_track >= 0) {
        trace_instant b = {s->now, INST_BATCH, s->step_running, s->version, s->fin_last_track, s->chunk_n, 0, s->fin_last_t};
        trace_add_instant(s->tr, &b);
    }
    /* more must-take samples than the step holds: the excess can never be
    ** trained within the bound, so it is generated again (wasted) */
    if (s->chunks_taken == s->nchunks) drop_stale(s, s->step_running + 1);
    s->chunk_infer_left[k] = 0;
    for (int p = 0; p < s->pl.npools; p++) if (eng_pool_infers(s, p)) s->chunk_infer_left[k]++;
}

void eng_start_step(sim *s, sim_time now)
{
    int step = s->version;
    s->step_running = step;
    eng_mb_forget(s);
    s->chunks_taken = 0;
    s->chunks_trained = 0;
    s->rest_trained = false;
    for (int p = 0; p < s->pl.npools; p++) s->pr[p].infer_cursor = 0;
    trace_instant in = {now, INST_ITER_BEGIN, step, step, -1, 0, 0, 0};
    trace_add_instant(s->tr, &in);
    eng_take_chunk(s);
    if (s->has_hooks && s->hooks.on_step) {
        double t0 = wall_now();
        fs_err e = {0, ""};
        if (!s->hooks.on_step(s->hooks.ud, s, step, &e)) { s->failed = true; s->err = e; }
        s->st.plugin_time_s += wall_now() - t0;
    }
}

/* The step's samples are trained: the lag figures, the version groups, the
** tokens, and (for the step's staleness window) the lags by count, the
** largest and the earliest start, in one pass over the samples.  The
** samples come by start version, then batch (take_samples): what is kept
** per version (its group, its lag's counts) and per batch is added a run
** at a time, the runs' counts in registers.  Every figure is a sum of
** integers (the doubles' too, exact far below 2^53) or a least or greatest
** one, so the grouping gives the very values adding sample by sample
** gives: an exact sum does not depend on its order. */
typedef struct {
    int      lagmax;
    int32_t  counts[TRACE_LAGS];
    sim_time first;
} step_lags;

typedef struct {
    int      v, n;              /* start version, samples */
    sim_time t0, t1;            /* their earliest start, latest end */
} vrun;

static void vrun_flush(sim *s, int step, const vrun *r, double *lag_sum, int *lag_max, int *lagmax, int32_t *counts)
{
    if (r->n == 0) return;
    const int raw = step - r->v;
    int lag = raw < 0 ? 0 : raw > 64 ? 64 : raw;
    s->st.lag_hist[lag] += r->n;
    *lag_sum += (double)lag * r->n;
    if (lag > *lag_max) *lag_max = lag;
    if (raw > *lagmax) *lagmax = raw;
    counts[raw < TRACE_LAGS - 1 ? raw : TRACE_LAGS - 1] += r->n;
    /* its start version's group, final now (emit_version_groups) */
    trace_vgroup *g = &s->vg[r->v];
    if (g->t0 < 0 || r->t0 < g->t0) g->t0 = r->t0;
    if (r->t1 > g->t1) g->t1 = r->t1;
    g->samples += r->n;
    g->trained += r->n;
}

static void record_trained(sim *s, int step, sim_time now, step_lags *w)
{
    sim_stats *st = &s->st;
    double tok = 0, lag_sum = st->lag_sum, resp_sum = st->tokens_trained_response;
    int lag_max = st->lag_max, lagmax = 0;
    int64_t mixed = 0;
    int32_t counts[TRACE_LAGS] = {0};
    const int *ids = s->step_ids;
    vrun vr = {-1, 0, 0, 0};
    int cur_b = -1, nb = 0;
    sim_time first = now;
    for (int i = 0; i < s->N; i++) {
        sample *x = eng_smp(s, ids[i]);
        const int v = x->v_start;
        if (v != vr.v) {
            vrun_flush(s, step, &vr, &lag_sum, &lag_max, &lagmax, counts);
            if (vr.n && vr.t0 < first) first = vr.t0;
            vr = (vrun){v, 0, x->t_start, x->t_end};
        }
        vr.n++;
        if (x->t_start < vr.t0) vr.t0 = x->t_start;
        if (x->t_end > vr.t1) vr.t1 = x->t_end;
        if (x->batch != cur_b) {
            if (nb) s->batch_trained[cur_b] += nb;
            cur_b = x->batch;
            nb = 0;
        }
        nb++;
        x->state = S_TRAINED;
        tok += (double)x->prompt + x->resp;
        resp_sum += x->resp;
        mixed += x->v_last > v;
    }
    vrun_flush(s, step, &vr, &lag_sum, &lag_max, &lagmax, counts);
    if (vr.n && vr.t0 < first) first = vr.t0;
    if (nb) s->batch_trained[cur_b] += nb;
    st->lag_sum = lag_sum;
    st->lag_max = lag_max;
    st->tokens_trained_response = resp_sum;
    st->samples_trained += s->N;
    st->samples_mixed += mixed;
    st->tokens_trained += tok;
    if (step >= s->scn.work.warmup) st->measured_tokens += tok;
    w->lagmax = lagmax;
    memcpy(w->counts, counts, sizeof counts);
    w->first = first;
    /* batches wholly trained leave the ring (their slots are reused as later
    ** batches are released) */
    while (s->low < s->released && s->batch_trained[s->low] == s->N) s->low++;
}

void eng_step_finished(sim *s, sim_time now)
{
    int step = s->step_running;
    step_lags lags;
    record_trained(s, step, now, &lags);
    s->version = step + 1;
    s->st.version = s->version;
    s->st.iterations_done = s->version;
    s->step_running = -1;
    trace_instant end = {now, INST_ITER_END, step, s->version, -1, 0, 0, 0};
    trace_add_instant(s->tr, &end);
    trace_instant in = {now, INST_VERSION, step, s->version, -1, 0, 0, 0};
    trace_add_instant(s->tr, &in);
    if (s->version == s->scn.work.warmup) s->st.window_t0 = now;
    if (s->version >= s->scn.work.iterations) s->st.window_t1 = now;
    /* staleness window of this step: the admissible versions [step - s, step];
    ** the oldest version actually trained on is step - lag_max */
    trace_window wnd = {lags.first, now, step, step - s->staleness < 0 ? 0 : step - s->staleness, step, lags.lagmax, {0}};
    memcpy(wnd.lag_count, lags.counts, sizeof lags.counts);
    trace_add_window(s->tr, &wnd);
    if (s->has_hooks && s->hooks.on_update) {
        double t0 = wall_now();
        fs_err e = {0, ""};
        if (!s->hooks.on_update(s->hooks.ud, s, s->version, &e)) { s->failed = true; s->err = e; }
        s->st.plugin_time_s += wall_now() - t0;
    }
}

/* ------------------------------------------------------------- DistQueue */

/* Nodes holding the queue (those that generate): each serves it through one
** NIC of the scale-out tier. */
static double queue_serving_bw(const sim *s, double *nic_out)
{
    const scn_cluster *c = &s->scn.cluster;
    double nic = c->inter_supernode.bw * s->scn.eff.link;
    int gen_nodes = 0;
    for (int k = 0; k < s->pl.npools; k++) {
        const plan_pool *q = &s->pl.pools[k];
        int most;
        if (!(q->roles & ROLE_ROLLOUT)) continue;
        /* a pool serves from every node it holds devices on (a packed pool
        ** across a node boundary from both) */
        gen_nodes += plan_nodes(c, q, &most);
    }
    if (gen_nodes < 1) gen_nodes = 1;
    *nic_out = nic;
    return gen_nodes * nic;
}

/* A forward-only pool reads the chunk's token ids (4 bytes a token) from the
** queue, one reader per replica with hierarchy (then a broadcast inside its
** TP group), every device without; it writes back its log-probs (4 bytes a
** token) or rewards (4 bytes a sample). */
double eng_queue_aux(sim *s, int p, sim_time now, const int *ids, int n)
{
    const plan_pool *q = &s->pl.pools[p];
    const scn_plan *sp = &s->scn.plan;
    double tok = 0;
    for (int i = 0; i < n; i++) tok += (double)eng_smp(s, ids[i])->prompt + eng_smp(s, ids[i])->resp;
    /* a critic's pool (a training layout, no aux replicas) reads one copy a
    ** data-parallel rank, broadcast over its TP·PP group */
    int group = q->aux_tp > 0 ? q->aux_tp : q->tp * q->pp;
    int replicas = q->aux_tp > 0 ? (q->aux_replicas > 0 ? q->aux_replicas : 1) : (q->dp > 0 ? q->dp : 1);
    double per_replica = tok * 4.0 / replicas;
    int readers = sp->dq_hierarchical ? replicas : q->devices;
    double nic, serve = queue_serving_bw(s, &nic);
    double t;
    if (sp->controller == CTRL_DRIVER) {
        /* a single controller gathers the token ids and sends them on */
        t = mdl_driver_gather(tok * 4.0, q->devices, sp->dq_request_s, &s->scn.cluster.inter_supernode, s->scn.eff.link);
    } else {
        /* the readers behind one NIC share it (docs/model.md, section 10) */
        int nr = mdl_nic_readers(&s->scn.cluster, sp->dq_hierarchical ? group : 1, readers);
        t = fmax(fmax(readers * per_replica / serve, nr * per_replica / nic), mdl_queue_requests(readers, sp->dq_request_s));
        if (sp->dq_hierarchical && group > 1)
            {
                const scn_link l = eng_pool_link(s, q, 0, 1, group);
                t += mdl_broadcast(per_replica, &l, s->scn.eff.link);
            }
    }
    s->st.dq_aux_in += tok * 4.0;
    if (s->scn.has_ref && (q->roles & ROLE_REF)) s->st.dq_aux_out += tok * 4.0;
    if (s->scn.reward_is_model && (q->roles & ROLE_REWARD)) s->st.dq_aux_out += n * 4.0;
    if (s->scn.has_critic && (q->roles & ROLE_CRITIC)) s->st.dq_aux_out += tok * 4.0;   /* its values */
    s->st.dq_aux_time_s += t;
    pool_rt *r = &s->pr[p];
    for (int k = 0; k < r->ntracks; k++)
        eng_span(s, r->track0 + k, PH_QUEUE, now, now + sim_from_secs(t), s->step_running, s->version, -1, (int64_t)tok);
    return t;
}

/* DistQueue: the training pool reads the step's batch from the queue.
** Per token: id, old log-prob, reference log-prob, advantage (4 bytes each).
** Packed (zero-redundancy) batches carry Σ lengths, padded ones n · max per
** mini-batch.  Without hierarchy every device reads its replica's share
** (load × TP·PP); with it one device per TP×PP group reads and broadcasts
** over the fast link.  The queue lives in the host memory of the nodes that
** generate; each such node serves it at one NIC's bandwidth (scale-out tier),
** so the reads of every training device queue up there. */
/* A single controller calls every worker once a chunk: each generating
** device to gather its samples, each training device to hand it its share. */
static int driver_workers(const sim *s)
{
    int n = 0;
    for (int k = 0; k < s->pl.npools; k++)
        if (s->pl.pools[k].roles & (ROLE_ROLLOUT | ROLE_TRAIN)) n += s->pl.pools[k].devices;
    return n;
}

double eng_queue_transfer(sim *s, int p, sim_time now, const int *ids, int n)
{
    const plan_pool *q = &s->pl.pools[p];
    const scn_plan *sp = &s->scn.plan;
    const double per_token = 16.0;
    int per = s->N / s->scn.work.minibatches, mbs = n / per;
    double sum = 0, padded = 0;
    for (int m = 0; m < mbs; m++) {
        double mx = 0;
        for (int i = 0; i < per; i++) {
            const sample *x = eng_smp(s, ids[m * per + i]);
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
    double t;
    if (sp->controller == CTRL_DRIVER) {
        /* a single controller (plan.controller = "driver") gathers the whole
        ** chunk into one process over one NIC and scatters it to the trainer
        ** (docs/model.md, section 10) */
        t = mdl_driver_gather(bytes, driver_workers(s), sp->dq_request_s, &s->scn.cluster.inter_supernode, s->scn.eff.link);
    } else {
        /* the queue's CPU side: every serving node answers one request of
        ** each reader, one after another (docs/model.md, section 10) */
        int nr = mdl_nic_readers(&s->scn.cluster, sp->dq_hierarchical ? q->tp * q->pp : 1, readers);
        t = fmax(fmax(readers * per_replica / serve, nr * per_replica / nic), mdl_queue_requests(readers, sp->dq_request_s));
        if (sp->dq_hierarchical && q->tp * q->pp > 1)
            {
                const scn_link l = eng_pool_link(s, q, 0, 1, q->devices);
                t += mdl_broadcast(per_replica, &l, s->scn.eff.link);
            }
    }
    s->st.dq_bytes_padded += padded * per_token;
    s->st.dq_bytes_packed += sum * per_token;
    s->st.dq_reads_flat += (double)q->devices * mbs;
    s->st.dq_reads_hier += (double)q->dp * mbs;
    s->st.queue_time_s += t;
    s->st.dq_train_in += bytes;
    pool_rt *r = &s->pr[p];
    for (int k = 0; k < r->ntracks; k++)
        eng_span(s, r->track0 + k, PH_QUEUE, now, now + sim_from_secs(t), s->step_running, s->version, -1, (int64_t)sum);
    return t;
}

/* ------------------------------------------------------------- switching */

/* Co-located pool: training layout -> rollout layout, in the order real
** systems use (docs/model.md, section 8): the training states go to the host
** first, then the rollout weights are onloaded bucket by bucket beside the
** training weights; the memory booked at each instant is what plan.c's
** pool_peak counts. */
void eng_switch_to_rollout(sim *s, int p, sim_time now)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    const scn_plan *sp = &s->scn.plan;
    double rw = plan_rollout_weights(&s->scn);
    /* gathered out of the training layout, converted and loaded bucket by
    ** bucket, as plan.sync_model prices it (docs/model.md, section 8) */
    double t_reshard = plan_weight_sync(&s->scn, q, q).total_s;
    double hostbw = mdl_host_bw_shared(plan_pool_cluster(&s->scn, q), s->scn.eff.host_link);   /* every device at once */
    int per_node = plan_host_devices(&s->scn.cluster, q);   /* its fullest node, as plan.c books it */
    double off = 0;
    int g0 = r->group0;
    if (plan_grads_move(sp)) off += s->mem[g0][MB_GRADS];
    if (sp->offload_optimizer) off += s->mem[g0][MB_OPTIMIZER] + s->mem[g0][MB_CRITIC];
    /* the engine's weights up from the host (sleep level 1) before the
    ** reshard overwrites them; the training weights down after it
    ** (parameter offload), as NeMo RL's refit orders them (docs/model.md,
    ** section 8) */
    plan_switch_host hb = plan_switch_host_bytes(&s->scn, q);
    /* verl's order (params_first): the training weights go down with the
    ** states, before the engine wakes, and the reshard reads each tensor
    ** back up from the host as it gathers it */
    double pdown = hb.params_first ? hb.params : 0, pafter = hb.params_first ? 0 : hb.params;
    double t_off = (off + pdown) / hostbw;
    sim_time to_end = now + sim_from_secs(t_off);
    sim_time wk_end = to_end + sim_from_secs(hb.engine / hostbw);
    sim_time tr_end = wk_end + sim_from_secs(t_reshard + pdown / hostbw);
    sim_time pf_end = tr_end + sim_from_secs(pafter / hostbw);
    sim_time end = pf_end + sim_from_secs(s->scn.eff.switch_overhead_s);
    if (off + pdown > 0 && r->hostlink_track >= 0)
        eng_span(s, r->hostlink_track, PH_OFFLOAD, now, to_end, s->version, s->version, -1, 0);
    if (hb.engine > 0 && r->hostlink_track >= 0)
        eng_span(s, r->hostlink_track, PH_ONLOAD, to_end, wk_end, s->version, s->version, -1, 0);
    for (int k = 0; k < r->ntracks; k++)
        eng_span(s, r->track0 + k, PH_RESHARD, wk_end, tr_end, s->version, s->version, -1, 0);
    if (pafter > 0 && r->hostlink_track >= 0)
        eng_span(s, r->hostlink_track, PH_OFFLOAD, tr_end, pf_end, s->version, s->version, -1, 0);
    /* offload: the states leave the device as they reach the host; the
    ** engine's sleeping copy is there until its wake ends */
    if (off + pdown > 0 || hb.engine > 0)
        eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, (off + pdown + q->host_opt + hb.engine) * per_node, now);
    if (pdown > 0) eng_mem_pool(s, p, MB_WEIGHTS, 0, to_end);
    if (off > 0) {
        if (plan_grads_move(sp)) eng_mem_pool(s, p, MB_GRADS, 0, to_end);
        if (sp->offload_optimizer) { eng_mem_pool(s, p, MB_OPTIMIZER, 0, to_end); eng_mem_pool(s, p, MB_CRITIC, 0, to_end); }
    }
    /* onload: bucket buffers while resharding; the rollout weights' memory
    ** is allocated when onloading starts (the wake, or the reshard) and
    ** filled bucket by bucket */
    eng_mem_pool(s, p, MB_RESHARD, 2 * sp->bucket_bytes, to_end);
    eng_mem_pool(s, p, MB_ROLLOUT_WEIGHTS, rw, to_end);
    if (hb.engine > 0) eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, (off + pdown + q->host_opt) * per_node, wk_end);
    if (sp->zero_redundancy && hb.params <= 0) eng_mem_pool(s, p, MB_WEIGHTS, 0, tr_end);
    eng_mem_pool(s, p, MB_RESHARD, 0, tr_end);
    if (pafter > 0) {
        /* the host takes the shard as the copy starts, the device frees it
        ** at its end */
        eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, (off + q->host_opt + hb.params) * per_node, tr_end);
        eng_mem_pool(s, p, MB_WEIGHTS, 0, pf_end);
    }
    /* plan.train.empty_cache_before_wake false: what the trainer's caching
    ** allocator still reserves of its peak once the trainer's own buckets
    ** have shrunk to what it keeps, there when the engine maps its KV cache
    ** (plan_wake_cache; docs/model.md, section 8): from the first wake after
    ** an update, none before the first training step */
    if (q->wake_cache > 0 && s->version > 0) eng_mem_pool(s, p, MB_TRAIN_CACHE, q->wake_cache, pf_end);
    /* KV cache: what the rollout may use, less what is resident (an engine
    ** that does not sleep still holds its reservation: the same figure);
    ** the runtime bucket lies beside the engine's share, as plan.c counts
    ** it (docs/model.md, section 11) */
    for (int g = 0; g < r->ngroups; g++) {
        int gg = r->group0 + g;
        /* plan.rollout.mem_util_scope: a share of the device less all it
        ** holds, or the engine's own budget less its weights */
        double held = sp->rollout.mem_scope == MEMSCOPE_INSTANCE ? s->mem[gg][MB_ROLLOUT_WEIGHTS]
                    : eng_mem_group_total(s, gg) - s->mem[gg][MB_KV_CACHE] - s->mem[gg][MB_RUNTIME]
                      - s->mem[gg][MB_TRAIN_CACHE];
        double kv = q->engine_share - held;
        /* plan.rollout.kv_cache_gb: vLLM's kv_cache_memory_bytes fixes the
        ** reservation whatever the device holds (docs/model.md, section 3);
        ** plan.train.lazy_states: sized at start-up, before the optimizer's
        ** moments existed (section 8) */
        if (sp->rollout.kv_cache_bytes > 0 || q->lazy_states > 0) kv = q->rollout_mem[MB_KV_CACHE];
        eng_mem_set(s, gg, MB_KV_CACHE, kv, end);
    }
    r->rollout_layout = true;
    eng_pool_class(s, p, P_SWITCH_R);
    r->st = P_SWITCH_R;
    eng_sched_task(s, p, end);
}

/* Co-located pool: rollout layout -> training layout, the reverse order:
** the engine sleeps (its KV cache freed, its weights discarded or copied to
** the host, or both kept: plan.rollout.sleep), the training weights rebuilt
** bucket by bucket as the rollout weights are released, then the states
** (and, under parameter offload, the training weights) come back from the
** host. */
void eng_switch_to_train(sim *s, int p, sim_time now)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    const scn_plan *sp = &s->scn.plan;
    for (int i = 0; i < r->ninst; i++)
        eng_inst_stop(s, &s->inst[r->inst0 + i], now, true, sp->on_update == ONUPD_RESTART);
    /* the training weights are rebuilt only when zero_redundancy freed
    ** them (docs/model.md, section 8) */
    double t_reshard = plan_reshard_back(&s->scn, q);
    double hostbw = mdl_host_bw_shared(plan_pool_cluster(&s->scn, q), s->scn.eff.host_link);   /* every device at once */
    double st[3];
    plan_train_states(&s->scn, q, st);
    double crit = q->train_mem[MB_CRITIC];
    double on = (plan_grads_move(sp) ? st[1] : 0) + (sp->offload_optimizer ? st[2] + crit : 0);
    plan_switch_host hb = plan_switch_host_bytes(&s->scn, q);
    bool keep = sp->rollout.sleep == SLEEP_NONE;
    double t_on = (on + hb.params) / hostbw;
    sim_time sl_end = now + sim_from_secs(hb.engine / hostbw);
    sim_time tr_end = sl_end + sim_from_secs(t_reshard);
    sim_time to_end = tr_end + sim_from_secs(t_on);
    sim_time end = to_end + sim_from_secs(s->scn.eff.switch_overhead_s);
    int per_node = plan_host_devices(&s->scn.cluster, q);   /* its fullest node, as plan.c books it */
    if (!keep) eng_mem_pool(s, p, MB_KV_CACHE, 0, now);
    /* the trainer's allocations grow again out of its cached blocks */
    if (q->wake_cache > 0) eng_mem_pool(s, p, MB_TRAIN_CACHE, 0, now);
    if (hb.engine > 0) {
        /* sleep level 1: the engine's weights down to pinned host memory,
        ** freed on the device when the copy ends */
        if (r->hostlink_track >= 0)
            eng_span(s, r->hostlink_track, PH_OFFLOAD, now, sl_end, s->version, s->version, -1, 0);
        eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, s->mem[r->host_group][MB_HOST_OFFLOAD] + hb.engine * per_node, now);
        eng_mem_pool(s, p, MB_ROLLOUT_WEIGHTS, 0, sl_end);
    }
    for (int k = 0; k < r->ntracks; k++)
        eng_span(s, r->track0 + k, PH_RESHARD, sl_end, tr_end, s->version, s->version, -1, 0);
    if (on + hb.params > 0 && r->hostlink_track >= 0)
        eng_span(s, r->hostlink_track, PH_ONLOAD, tr_end, to_end, s->version, s->version, -1, 0);
    eng_mem_pool(s, p, MB_RESHARD, 2 * sp->bucket_bytes, sl_end);
    if (hb.params <= 0) eng_mem_pool(s, p, MB_WEIGHTS, st[0], sl_end);
    if (!keep) eng_mem_pool(s, p, MB_ROLLOUT_WEIGHTS, 0, tr_end);
    eng_mem_pool(s, p, MB_RESHARD, 0, tr_end);
    if (on + hb.params > 0) {
        /* onload: room is taken as the transfer starts */
        if (hb.params > 0) eng_mem_pool(s, p, MB_WEIGHTS, st[0], tr_end);
        if (plan_grads_move(sp)) eng_mem_pool(s, p, MB_GRADS, st[1], tr_end);
        if (sp->offload_optimizer) { eng_mem_pool(s, p, MB_OPTIMIZER, st[2], tr_end); eng_mem_pool(s, p, MB_CRITIC, crit, tr_end); }
        /* what stays: the optimizer's host share (plan.train.optimizer_offload)
        ** and a sleeping engine's weights */
        eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, (q->host_opt + hb.engine) * per_node, to_end);
    }
    r->rollout_layout = false;
    eng_pool_class(s, p, P_SWITCH_T);
    r->st = P_SWITCH_T;
    eng_sched_task(s, p, end);
}

/* ----------------------------------------------------------- weight sync */

/* Separated rollout pools receive the new weights from the training pool. */
sim_time eng_start_weight_sync(sim *s, sim_time now)
{
    int tp = s->pl.train_pool;
    const plan_pool *tq = &s->pl.pools[tp];
    sim_time end = now;
    for (int p = 0; p < s->pl.npools; p++) {
        const plan_pool *q = &s->pl.pools[p];
        if (!(q->roles & ROLE_ROLLOUT) || p == tp) continue;
        pool_rt *r = &s->pr[p];
        /* gather, convert, send and load, bucket by bucket; every device of
        ** both pools at once (docs/model.md, section 9) */
        double t = plan_weight_sync(&s->scn, tq, q).total_s;
        /* An engine step under way (a prefill, a swap back from host) runs
        ** to its end: a device does not stop mid-kernel and the engine
        ** aborts requests between steps.  The broadcast is collective, so
        ** the transfer starts when the last receiver is free; an instance
        ** free earlier waits stopped. */
        sim_time s0 = now;
        for (int i = 0; i < r->ninst; i++) {
            instance *I = &s->inst[r->inst0 + i];
            sim_time at = I->scheduled && I->seg_t0 > now ? I->seg_t0 : now;
            eng_inst_stop(s, I, at, s->scn.plan.on_update == ONUPD_RESTART, true);
            if (at > s0) s0 = at;
        }
        sim_time e = s0 + sim_from_secs(t);
        for (int i = 0; i < r->ninst; i++)
            eng_span(s, s->inst[r->inst0 + i].track, PH_WEIGHT_SYNC, s0, e, s->version, s->version, -1, 0);
        eng_mem_pool(s, p, MB_RESHARD, 2 * s->scn.plan.bucket_bytes, now);
        eng_mem_pool(s, p, MB_RESHARD, 0, e);
        eng_pool_class(s, p, P_RECV);
        r->st = P_RECV;
        eng_sched_task(s, p, e);
        for (int k = 0; k < s->pr[tp].ntracks; k++)
            eng_span(s, s->pr[tp].track0 + k, PH_WEIGHT_SYNC, now, e, s->version, s->version, -1, 0);
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
        if (s->actor_trained) return STEP_TRAIN;       /* the critic's pool still trains */
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
    if (phase != STEP_INFER) return;
    /* the forward task's parts tile [t0, t1): the same window, part by part */
    const pool_rt *r = &s->pr[s->pl.train_pool];
    for (int k = 0; k < INF__COUNT; k++) {
        sim_time x = r->inf_t[k][0] > a ? r->inf_t[k][0] : a, y = r->inf_t[k][1] < t1 ? r->inf_t[k][1] : t1;
        if (y > x) s->st.infer_part_ns[k] += y - x;
    }
}

void eng_pool_class(sim *s, int p, pstate next)
{
    if (p != s->pl.train_pool) return;
    pool_rt *r = &s->pr[p];
    (void)next;
    if (s->now > r->class_t0) {
        /* tagged with the version it started under: a training interval
        ** ends after its step has advanced the version */
        eng_span(s, s->step_track, (trace_phase)r->class_phase, r->class_t0, s->now, r->class_v, r->class_v, -1, 0);
        account_window(s, r->class_phase, r->class_t0, s->now);
    }
    r->class_t0 = s->now;
    r->class_v = s->version;
    r->class_phase = class_of(s, p, next);
}

/* When other pools change state, an idle training pool's "waiting" may turn
** into "waiting for generation" or back. */
void eng_reclass_idle_trainer(sim *s)
{
    int p = s->pl.train_pool;
    pool_rt *r = &s->pr[p];
    if (r->st != P_IDLE) return;
    int c = class_of(s, p, P_IDLE);
    if (c != r->class_phase) eng_pool_class(s, p, P_IDLE);
}
