/*
** eng_ctrl.c — the event loop, the controller and the public entry points.
**
** Every event is an instance reaching its target decode step (eng_gen.c) or
** a pool's task ending (eng_step.c, eng_train.c); after each one the
** controller polls: it releases batches (the StaleSync bound and the
** partial-rollout threshold), moves the pool whose task ended to its next
** state, and starts whatever can start — a step's chunks, the forward
** passes, training, a switch, generation.  The sim_* functions declared in
** engine.h that run, advance and read a simulation are here too (sim_new and
** sim_free are in eng_setup.c).  Rules: docs/model.md, section 4 (The
** controller).  Shared state and helpers: engine_int.h.
*/
#include "engine_int.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------- batch release */

/* Append ids id0 .. id0 + n - 1 to queue q, in order: what n calls of
** eng_dq_push_back do (the same growth, doubling from 256 as the queue
** fills, and the same layout), with one check for room. */
static void queue_append_run(sim *s, squeue *q, int id0, int64_t n)
{
    if (n <= 0) return;
    s->queue_changed = true;
    eng_sq_room(q, n);
    int64_t at = (q->head + q->len) % q->cap, first = q->cap - at < n ? q->cap - at : n;
    for (int64_t i = 0; i < first; i++) q->v[at + i] = id0 + (int)i;
    for (int64_t i = first; i < n; i++) q->v[i - first] = id0 + (int)i;
    q->len += n;
    s->dq_len += n;
}

static void release_batches(sim *s)
{
    while (s->released < s->scn.work.iterations) {
        int b = s->released;
        if (b - s->version > s->staleness) break;           /* bound */
        if (b > 0 && !s->cut[b - 1] && s->batch_done[b - 1] < (int64_t)ceil(s->partial * s->N - 1e-9)) break;  /* threshold */
        /* the batch's samples, drawn queued, each with its queue (static
        ** dispatch: queue k holds the indexes i with ⌊i·queues/N⌋ = k, from
        ** ⌈k·N/queues⌉ on) */
        eng_draw_batch(s, b);
        const int64_t N = s->N, nq = s->nqueues;
        for (int64_t k = 0; k < nq; k++) {
            int64_t lo = (k * N + nq - 1) / nq, hi = ((k + 1) * N + nq - 1) / nq;
            queue_append_run(s, &s->queues[k], b * s->N + (int)lo, hi - lo);
        }
        s->released++;
    }
}

/* The mark a batch's finished share has reached, in hundredths: every 5%
** up to 90%, then every 1% (the long tail), 100 when it is done
** (docs/plugins.md, on_rollout_progress). */
static int progress_level(int64_t done, int n)
{
    int pct = n > 0 ? (int)(done * 100 / n) : 100;
    if (pct > 100) pct = 100;
    return pct < 90 ? pct / 5 * 5 : pct;
}

/* on_rollout_progress for each released batch not yet trained (a step may
** be training one while it still generates) whose finished share passed a
** new mark since its last call: one call per poll with the share now,
** whatever marks it passed. */
static void rollout_progress(sim *s)
{
    for (int b = s->version; b < s->released && !s->failed; b++) {
        int lv = progress_level(s->batch_done[b], s->N);
        if (lv <= s->progress_mark[b]) continue;
        s->progress_mark[b] = (int16_t)lv;
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
}

/* ------------------------------------------------------------ controller */

/* The step's trained: its figures, then the weight sync from the actor's
** pool tp to the rollout pools, or the pool idle. */
static void step_end(sim *s, int tp, sim_time now)
{
    pool_rt *r = &s->pr[tp];
    eng_step_finished(s, now);
    bool others = false;
    for (int k = 0; k < s->pl.npools; k++)
        if (k != tp && (s->pl.pools[k].roles & ROLE_ROLLOUT)) others = true;
    /* plan.sync_every: the rollout pools receive every k-th version
    ** (and the last); in between they generate on the weights they have */
    int every = s->scn.plan.sync_every > 1 ? s->scn.plan.sync_every : 1;
    if (others && (s->version % every == 0 || s->version >= s->scn.work.iterations)) {
        sim_time e = eng_start_weight_sync(s, now);
        eng_pool_class(s, tp, P_SYNC);
        r->st = P_SYNC;
        eng_sched_task(s, tp, e);
    } else {
        eng_pool_class(s, tp, P_IDLE);
        r->st = P_IDLE;
    }
}

/* The actor's pool starts training task (e0, e1, mb0, mb1) of the step; a
** critic on a pool of its own gets the same task (ctl_poll starts it when
** that pool is free: OpenRLHF's PPOTrainer.ppo_train launches the critic's
** and the actor's fit together and waits for both, openrlhf/trainer/
** ppo_trainer.py at v0.11.0). */
static void train_start(sim *s, int tp, sim_time now, int e0, int e1, int mb0, int mb1)
{
    if (s->pl.critic_pool >= 0) s->crit_avail++;
    eng_start_train(s, tp, now, e0, e1, mb0, mb1);
}

/* The critic's pool's next training task: the actor's i-th of the step. */
static void critic_train_next(sim *s, int p, sim_time now)
{
    int i = s->crit_next++, E = s->scn.work.epochs, MB = s->scn.work.minibatches;
    if (!s->streaming) eng_start_train(s, p, now, 0, E, 0, MB);
    else if (i < s->nchunks) eng_start_train(s, p, now, 0, 1, i, i + 1);
    else eng_start_train(s, p, now, 1, E, 0, MB);
}

static void task_done(sim *s, int p, sim_time now)
{
    pool_rt *r = &s->pr[p];
    const plan_pool *q = &s->pl.pools[p];
    switch (r->st) {
    case P_SWITCH_R:
        eng_pool_start_gen(s, p, now);
        break;
    case P_SWITCH_T:
        eng_pool_class(s, p, P_IDLE);
        r->st = P_IDLE;
        break;
    case P_INFER:
        eng_pool_class(s, p, P_IDLE);
        r->st = P_IDLE;
        s->chunk_infer_left[r->cur_chunk]--;
        break;
    case P_TRAIN: {
        if (p == s->pl.critic_pool) {
            /* the critic's task: the step ends with the last of both */
            eng_pool_class(s, p, P_IDLE);
            r->st = P_IDLE;
            s->crit_done++;
            if (s->actor_trained && s->crit_done == s->crit_avail) {
                s->actor_trained = false;
                step_end(s, s->pl.train_pool, now);
            }
            break;
        }
        if (r->train_rest) s->rest_trained = true;
        else s->chunks_trained++;
        bool done = s->chunks_trained == s->nchunks && (!s->streaming || s->scn.work.epochs == 1 || s->rest_trained);
        if (done && s->crit_done < s->crit_avail) {
            s->actor_trained = true;        /* the barrier: the critic's pool still trains */
            done = false;
        }
        if (!done) {
            eng_pool_class(s, p, P_IDLE);
            r->st = P_IDLE;
            break;
        }
        step_end(s, p, now);
        break;
    }
    case P_SYNC:
        /* a step ends when its weights have reached the rollout pools: move
        ** the window before the transfer is accounted */
        if (s->version >= s->scn.work.iterations) s->st.window_t1 = now;
        if (s->version == s->scn.work.warmup) s->st.window_t0 = now;
        eng_pool_class(s, p, P_IDLE);
        r->st = P_IDLE;
        break;
    case P_RECV:
        for (int i = 0; i < r->ninst; i++) {
            instance *I = &s->inst[r->inst0 + i];
            I->version = s->version;
            /* samples generating on: each version they decode with is in
            ** [v_start, v_last] (updates come one version at a time) */
            for (int k = 0; k < I->hn; k++) eng_smp(s, hent_id(I->heap[k]))->v_last = s->version;
        }
        eng_pool_start_gen(s, p, now);
        break;
    default:
        break;
    }
    (void)q;
}

/* Nearly every poll follows an instance's event and finds nothing to do:
** fewer finished samples than a step, the next batch beyond the bound, every
** pool busy or generating.  This makes ctl_poll's own tests, cheapest
** first, for the case where the poll would do nothing but reclassify an
** idle trainer, and does that; when any test fails it answers false and
** the whole poll runs, so a run takes the same steps with or without it.
** A rule added to ctl_poll needs its test here. */
static bool ctl_poll_quiet(sim *s)
{
    const int tp = s->pl.train_pool;
    const pool_rt *tr = &s->pr[tp];
    if (s->failed || s->bound_lowered || s->step_running >= 0 || s->version >= s->scn.work.iterations) return false;
    if (s->released < s->scn.work.iterations && s->released - s->version <= s->staleness) return false;   /* release */
    if (s->streaming && !s->pl.pools[tp].colocated) return false;          /* the streaming start */
    if (s->scn.plan.on_stale == STALE_DISCARD || s->fin_total >= s->N) return false;   /* eng_trainer_ready */
    if (s->pl.pools[tp].colocated && tr->st == P_IDLE && !tr->rollout_layout) return false;   /* switch */
    for (unsigned m = s->gen_only_pools; m; m &= m - 1)
        if (s->pr[__builtin_ctz(m)].st == P_IDLE) return false;           /* start generating */
    if (s->queue_changed && s->dq_len > 0) return false;                   /* dispatch */
    if (s->has_hooks && s->hooks.on_rollout_progress) return false;        /* progress marks */
    if (tr->st == P_IDLE) eng_reclass_idle_trainer(s);
    return true;
}

/* The controller (docs/model.md, section 4); sim_process asks
** ctl_poll_quiet first. */
static void ctl_poll(sim *s)
{
    if (s->failed) return;
    if (s->bound_lowered) eng_drop_untrainable(s, s->step_running >= 0 ? s->step_running : s->version);
    /* most polls find the next batch beyond the bound: that test first */
    if (s->released < s->scn.work.iterations && s->released - s->version <= s->staleness) release_batches(s);
    sim_time now = s->now;
    int tp = s->pl.train_pool;
    pool_rt *tr = &s->pr[tp];
    const plan_pool *tq = &s->pl.pools[tp];

    if (s->step_running >= 0) {
        int step = s->step_running;
        while (s->chunks_taken < s->nchunks) {
            if (s->scn.plan.on_stale == STALE_DISCARD) eng_discard_stale(s, step, now);
            if (!eng_chunk_ready(s, step)) break;
            eng_take_chunk(s);
        }
        /* the training pool trains what is ready, else runs its passes */
        if (tr->st == P_IDLE && !tr->rollout_layout) {
            int k = s->chunks_trained;
            if (k < s->chunks_taken && s->chunk_infer_left[k] == 0) {
                tr->train_rest = false;
                if (s->streaming) train_start(s, tp, now, 0, 1, k, k + 1);
                else train_start(s, tp, now, 0, s->scn.work.epochs, 0, s->scn.work.minibatches);
            } else if (k == s->nchunks && s->streaming && !s->rest_trained) {
                tr->train_rest = true;
                train_start(s, tp, now, 1, s->scn.work.epochs, 0, s->scn.work.minibatches);
            } else if (eng_pool_infers(s, tp) && tr->infer_cursor < s->chunks_taken) {
                eng_start_infer_on(s, tp, now);
            }
        }
        /* the critic's pool trains what the actor's has started, else runs
        ** its passes */
        int cp = s->pl.critic_pool;
        if (cp >= 0 && s->pr[cp].st == P_IDLE && s->crit_next < s->crit_avail) critic_train_next(s, cp, now);
        for (int p = 0; p < s->pl.npools; p++)
            if (p != tp && eng_pool_infers(s, p) && s->pr[p].st == P_IDLE && s->pr[p].infer_cursor < s->chunks_taken)
                eng_start_infer_on(s, p, now);
        /* A co-located step starts with its whole batch at hand; only a hook
        ** lowering the bound after it began can leave it short (what it had
        ** counted on is now too stale).  Its pool then generates the rest
        ** and comes back once the step's last mini-batch is there. */
        if (s->bound_lowered && tq->colocated) {
            if (tr->st == P_IDLE && !tr->rollout_layout && s->chunks_taken < s->nchunks &&
                s->chunks_trained == s->chunks_taken && tr->infer_cursor == s->chunks_taken)
                eng_switch_to_rollout(s, tp, now);
            else if (tr->st == P_GEN && s->chunks_taken == s->nchunks)
                eng_switch_to_train(s, tp, now);
        }
    } else if (s->version < s->scn.work.iterations) {
        /* A pool that also generates can only start once the whole batch is
        ** there; a training-only pool streams from the first mini-batch. */
        bool ready;
        if (s->streaming && !tq->colocated) {
            if (s->scn.plan.on_stale == STALE_DISCARD) eng_discard_stale(s, s->version, now);
            s->chunks_taken = 0;
            ready = eng_chunk_ready(s, s->version);
        } else {
            /* fewer finished samples than a step: not ready (what
            ** eng_trainer_ready finds, once "discard" has dropped any) */
            ready = (s->scn.plan.on_stale == STALE_DISCARD || s->fin_total >= s->N) && eng_trainer_ready(s);
        }
        if (ready) {
            if (tq->colocated && tr->st == P_GEN) eng_switch_to_train(s, tp, now);
            else if (tr->st == P_IDLE && !tr->rollout_layout) {
                eng_start_step(s, now);
                s->crit_avail = s->crit_next = s->crit_done = 0;
                s->actor_trained = false;
                ctl_poll(s);        /* take what is ready and start the passes */
                return;
            }
        } else if (tq->colocated && tr->st == P_IDLE && !tr->rollout_layout) {
            /* nothing to train yet: generate */
            if (s->dq_len > 0 || s->released < s->scn.work.iterations) eng_switch_to_rollout(s, tp, now);
        }
    }
    /* start idle rollout-only pools (first iteration) */
    for (unsigned m = s->gen_only_pools; m; m &= m - 1) {
        int p = __builtin_ctz(m);
        if (s->pr[p].st == P_IDLE) eng_pool_start_gen(s, p, now);
    }
    /* Instances admit for themselves when a sequence finishes; others are
    ** woken only when the queue gained samples they might take. */
    if (s->queue_changed && s->dq_len > 0) {
        s->queue_changed = false;
        eng_dispatch(s, now, -1);
    }
    if (s->has_hooks && s->hooks.on_rollout_progress) rollout_progress(s);
    if (tr->st == P_IDLE) eng_reclass_idle_trainer(s);
    if (s->version >= s->scn.work.iterations && tr->st == P_IDLE) {
        bool busy = false;
        for (int p = 0; p < s->pl.npools; p++)
            if (s->pr[p].st == P_SYNC || s->pr[p].st == P_RECV || s->pr[p].st == P_INFER || s->pr[p].st == P_TRAIN) busy = true;
        if (!busy) s->finished = true;
    }
}

/* --------------------------------------------------- public entry points */

void sim_set_hooks(sim *s, const sim_hooks *h)
{
    if (h) { s->hooks = *h; s->has_hooks = true; }
    else { memset(&s->hooks, 0, sizeof s->hooks); s->has_hooks = false; }
}

/* Samples grouped by the version they started with, for the trace: the
** trained ones were counted as they were trained (eng_step.c), the others
** are in the ring. */
static void emit_version_groups(sim *s)
{
    int nv = s->nver;
    trace_vgroup *g = xmalloc((size_t)nv * sizeof *g);
    memcpy(g, s->vg, (size_t)nv * sizeof *g);
    for (int64_t i = (int64_t)s->low * s->N; i < (int64_t)s->released * s->N; i++) {
        const sample *x = eng_smp(s, i);
        if (x->state == S_TRAINED || x->v_start < 0 || x->v_start >= nv) continue;
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
    eng_pool_class(s, s->pl.train_pool, P_IDLE);
    emit_version_groups(s);
    double inflight = 0;
    for (int64_t i = (int64_t)s->low * s->N; i < (int64_t)s->released * s->N; i++) {
        const sample *x = eng_smp(s, i);
        if (x->state == S_DONE || x->state == S_TAKEN) inflight += x->resp;
        else if (x->state == S_QUEUED) inflight += x->gen;
    }
    for (int i = 0; i < s->ninst; i++) {
        instance *I = &s->inst[i];
        /* its heap holds exactly its active samples (integers: the sum is
        ** exact in any order) */
        for (int k = 0; k < I->hn; k++) {
            const sample *x = eng_smp(s, hent_id(I->heap[k]));
            int64_t g = I->step - x->adm_step;
            inflight += (double)(g < x->resp ? g : x->resp);
        }
    }
    s->st.tokens_in_flight = inflight;
}

static bool sim_process(sim *s, const event *e)
{
    s->now = e->t;
    s->st.events++;
    if (e->t >= (sim_time)SIM_HORIZON_NS) {
        fs_err_set(&s->err, 2, "simulated time passed %.1f years after %d of %d steps: the inputs make the run "
                   "longer than the simulator's horizon; check the device, link and efficiency figures",
                   SIM_HORIZON_NS / 1e9 / 3.15576e7, s->version, s->scn.work.iterations);
        s->failed = true;
        return false;
    }
    switch (eng_ev_kind(e)) {
    case EV_INST: {
        instance *I = &s->inst[eng_ev_a(e)];
        /* (the next event's instance is asked for ahead in eng_inst_event) */
        if (!I->scheduled || eng_ev_seq(e) != I->evseq) return true;   /* superseded */
        eng_inst_event(s, I, e->t);
        break;
    }
    case EV_TASK:
        task_done(s, eng_ev_a(e), e->t);
        break;
    default:
        break;
    }
    if (s->err.code && !s->failed) s->failed = true;
    if (!ctl_poll_quiet(s)) ctl_poll(s);
    return !s->finished && !s->failed;
}

static void sim_begin(sim *s)
{
    if (s->st.events == 0 && eng_evq_len(&s->q) == 0 && !s->finished) {
        ctl_poll(s);
    }
}

/* After a batch of events: an empty queue before the end is a stall (a
** plan the controller cannot carry on); a finished run is closed once. */
static bool sim_after(sim *s)
{
    if (!s->finished && !s->failed && eng_evq_len(&s->q) == 0) {
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
    /* each pop leaves its root taken for the handler's push (engine_int.h,
    ** evq): the queue is settled before its head is compared */
    while (!s->finished && !s->failed) {
        eng_evq_settle(&s->q);
        if (s->q.n == 0 || s->q.v[0].t > until) break;
        event e = eng_evq_pop(&s->q);
        sim_process(s, &e);
    }
    if (!sim_after(s)) return false;
    if (until > s->now) s->now = until < eng_evq_peek(&s->q)->t ? until : s->now;
    return true;
}

bool sim_step_events(sim *s, uint64_t n)
{
    sim_begin(s);
    for (uint64_t i = 0; i < n && !s->finished && !s->failed && eng_evq_len(&s->q) > 0; i++) {
        event e = eng_evq_pop(&s->q);
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
sim_time sim_next_event_time(const sim *s)
{
    const event *e = eng_evq_peek(&s->q);
    return e ? e->t : -1;
}
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

/* A hook changes the bound.  The change is logged for the report; lowering
** it may leave finished samples that no later step can take (their lag only
** grows), so from then on the controller recycles those (ctl_poll). */
void sim_set_staleness(sim *s, int bound)
{
    bound = bound < 0 ? 0 : bound > SCN_STALENESS_MAX ? SCN_STALENESS_MAX : bound;
    bound += s->share_on;           /* a stale share keeps its extra version */
    if (bound == s->staleness) return;
    sim_stats *st = &s->st;
    if (st->bound_changes < SIM_BOUND_LOG) {
        st->bound_step[st->bound_changes] = s->step_running >= 0 ? s->step_running : s->version;
        st->bound_value[st->bound_changes] = bound - s->share_on;
    }
    st->bound_changes++;
    if (bound > st->bound_max) st->bound_max = bound;
    if (bound < s->staleness) s->bound_lowered = true;
    s->staleness = bound;
}
const char *sim_infer_part_name(sim_infer_part k)
{
    static const char *const names[INF__COUNT] = {"queue", "logprob", "reference", "reward", "critic"};
    return k >= 0 && k < INF__COUNT ? names[k] : "?";
}

int  sim_get_staleness(const sim *s) { return s->staleness - s->share_on; }
void sim_set_partial_rollout(sim *s, double f) { s->partial = f <= 0 ? 0.01 : f > 1 ? 1 : f; }

int sim_inflight_by_version(const sim *s, int *versions, int *counts, int max)
{
    int n = 0;
    for (int v = 0; v < s->nver && n < max; v++)
        if (s->act_v[v] > 0) {
            versions[n] = v;
            counts[n++] = (int)s->act_v[v];
        }
    return n;
}

bool sim_track_decoding(const sim *s, int track)
{
    for (int i = 0; i < s->ninst; i++)
        if (s->inst[i].track == track) return s->inst[i].scheduled;
    return false;
}

double sim_mem_peak(const sim *s, int group, int bucket) { return s->mem_peak[group][bucket]; }
double sim_mem_peak_total(const sim *s, int group, sim_time *when)
{
    if (when) *when = s->mem_peak_t[group];
    return s->mem_peak_total[group];
}

void sim_step_lengths(const sim *s, int step, double *sum, double *max)
{
    *sum = 0;
    *max = 0;
    if (step < 0 || step >= s->scn.work.iterations) return;
    if (step < s->released) {
        *sum = s->len_sum[step];
        *max = s->len_max[step];
        return;
    }
    eng_preview_lengths(s, step, sum, max);
}

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

bool sim_check_counters(const sim *s, fs_err *err)
{
    int nv = s->nver;
    int64_t *fin = xcalloc((size_t)nv * 3, sizeof *fin), *open = fin + nv, *act = open + nv;
    for (int64_t i = (int64_t)s->low * s->N; i < (int64_t)s->released * s->N; i++) {
        const sample *x = eng_smp(s, i);
        if (x->v_start < 0) continue;
        if (x->v_start >= nv) {
            fs_err_set(err, 1, "sample %lld started with version %d, past the %d counted", (long long)i, x->v_start, nv);
            free(fin);
            return false;
        }
        if (x->state == S_DONE) fin[x->v_start]++;
        else if (x->state == S_ACTIVE || x->state == S_QUEUED) open[x->v_start]++;
        if (x->state == S_ACTIVE) act[x->v_start]++;
    }
    bool ok = true;
    int64_t cf = 0, co = 0;
    sim *m = (sim *)s;          /* the prefix reads count their work: put it back */
    uint64_t work = s->count_work;
    for (int v = 0; v < nv && ok; v++) {
        cf += fin[v];
        co += open[v];
        if (s->fin_v[v] != fin[v] || s->open_v[v] != open[v]) {
            fs_err_set(err, 1, "version %d: kept %lld finished / %lld open, recounted %lld / %lld", v,
                       (long long)s->fin_v[v], (long long)s->open_v[v], (long long)fin[v], (long long)open[v]);
            ok = false;
        } else if (s->act_v[v] != act[v]) {
            fs_err_set(err, 1, "version %d: kept %lld generating, recounted %lld", v, (long long)s->act_v[v],
                       (long long)act[v]);
            ok = false;
        } else if (eng_fin_upto(m, v) != cf || eng_open_upto(m, v) != co) {
            fs_err_set(err, 1, "versions 0..%d: prefix sums %lld finished / %lld open, recounted %lld / %lld", v,
                       (long long)eng_fin_upto(m, v), (long long)eng_open_upto(m, v), (long long)cf, (long long)co);
            ok = false;
        }
    }
    for (int i = 0; i < s->ninst && ok; i++) {
        const instance *I = &s->inst[i];
        if (I->hn != I->nactive) {
            fs_err_set(err, 1, "instance %d: %d heap entries for %d active samples", i, I->hn, I->nactive);
            ok = false;
            break;
        }
        /* the heap's admission counts, to see that they are distinct */
        uint32_t *adm = xmalloc(((size_t)I->hn + 1) * sizeof *adm);
        for (int k = 0; k < I->hn && ok; k++) {
            /* the entry is an active sample of this instance, keyed by the
            ** step it finishes at as the sample is now (not before the
            ** instance's step, counted from its kbase in 32 bits), admitted
            ** before now (a completion reads the sample's figures from its
            ** struct: there is no copy to check) */
            const int32_t id = hent_id(I->heap[k]);
            const int64_t at = I->kbase + (int64_t)(I->heap[k] >> 32);
            const sample *x = eng_smp(s, id);
            adm[k] = I->nadmit - x->admseq;
            if (id < 0 || x->state != S_ACTIVE || x->inst != i || at != x->adm_step + x->resp || at < I->step ||
                adm[k] == 0) {
                fs_err_set(err, 1, "instance %d: heap entry of sample %d is not one of its active samples as they are now",
                           i, id);
                ok = false;
            }
        }
        /* the heap's order (eng_gen.c): no entry below its parent, node j's
        ** parent being j / 2 (the root's one child is 1) */
        for (int k = 1; k < I->hn && ok; k++)
            if (I->heap[k] < I->heap[k / 2]) {
                fs_err_set(err, 1, "instance %d: heap entry %d is below its parent %d", i, k, k / 2);
                ok = false;
            }
        qsort(adm, (size_t)I->hn, sizeof *adm, cmp_u32);
        for (int k = 1; k < I->hn && ok; k++)
            if (adm[k] == adm[k - 1]) {
                fs_err_set(err, 1, "instance %d: two active samples admitted %u admissions ago", i, adm[k]);
                ok = false;
            }
        free(adm);
    }
    if (ok && (s->fin_total != cf || s->open_total != co)) {
        fs_err_set(err, 1, "totals %lld finished / %lld open, recounted %lld / %lld", (long long)s->fin_total,
                   (long long)s->open_total, (long long)cf, (long long)co);
        ok = false;
    }
    m->count_work = work;
    free(fin);
    return ok;
}

uint64_t sim_counter_work(const sim *s) { return s->count_work; }
size_t sim_queue_len(const sim *s) { return eng_evq_len(&s->q); }
