/*
** eng_setup.c — building and freeing a simulation, and the memory ledger.
**
** sim_new creates the instances, the trace tracks and the memory groups of
** every pool, and books each pool's resident memory at t = 0; the workload
** (one prompt length per prompt, one response length per sample) is drawn a
** batch at a time as the controller releases it (eng_draw_batch), into a
** ring that holds only the batches alive.
** The ledger (eng_mem_*) records every change of a memgroup's bucket as a
** trace counter, keeps the peaks and notes where memory first goes over
** capacity (docs/model.md, section 11); generation, switching and training
** (eng_gen.c, eng_step.c, eng_train.c) book their memory through it.
** Shared state and helpers: engine_int.h.
*/
#include "engine_int.h"
#include "fields.h"

#include <math.h>
#include <string.h>
#include <sys/mman.h>

/* a sample's instance index has 24 bits (engine_int.h) */
_Static_assert(FLD_DEVICES_MAX < (1 << 23), "sample.inst: too narrow for FLD_DEVICES_MAX instances");
/* sim.gen_only_pools has a bit a pool */
_Static_assert(SCN_POOLS_MAX <= 32, "sim.gen_only_pools: too narrow for SCN_POOLS_MAX pools");

/* ----------------------------------------------------------- memory ledger */

void eng_mem_set(sim *s, int g, mem_bucket b, double bytes, sim_time t)
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

void eng_mem_pool(sim *s, int p, mem_bucket b, double bytes, sim_time t)
{
    for (int g = 0; g < s->pr[p].ngroups; g++) eng_mem_set(s, s->pr[p].group0 + g, b, bytes, t);
}

double eng_mem_group_total(const sim *s, int g)
{
    double tot = 0;
    for (int k = 0; k < MB__COUNT; k++) tot += s->mem[g][k];
    return tot;
}

/* ------------------------------------------------------------ samples */

/* Batch b's samples into the ring, each written whole, queued (the queue
** it waits in follows from its id, engine_int.h, eng_queue_of: with one
** queue a part, contiguous and equal, of the batch for each instance's own
** queue; eng_ctrl.c pushes the ids), from its drawn lengths: one prompt
** length per prompt, one response length per sample (eng_draw.c). */
static void store_batch(sim *s, int b, const int32_t *plen, const int32_t *resp)
{
    const int prompts = scn_prompts_per_step(&s->scn), spp = s->scn.work.samples_per_prompt;
    const int64_t id0 = (int64_t)b * s->N;
    for (int pr = 0; pr < prompts; pr++) {
        const int64_t i0 = (int64_t)pr * spp;
        for (int j = 0; j < spp; j++)
            *eng_smp(s, id0 + i0 + j) = (sample){.prompt = plen[pr], .resp = resp[i0 + j], .batch = b, .v_start = -1,
                                                 .v_last = -1, .inst = -1, .state = S_QUEUED};
    }
}

/* The sample ring, zeroed.  A large one is laid on 2 MiB pages where the
** kernel offers them on request (Linux madvise, transparent huge pages):
** samples are reached at random as they finish, and with 4 KiB pages most
** of those reaches would also miss the TLB. */
static sample *ring_alloc(int64_t cap)
{
    size_t bytes = (size_t)cap * sizeof(sample);
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    if (bytes >= 2 * huge) {
        size_t round = (bytes + huge - 1) / huge * huge;
        void *v = aligned_alloc(huge, round);
        if (v) {
            madvise(v, round, MADV_HUGEPAGE);
            memset(v, 0, bytes);
            return v;
        }
    }
#endif
    return xcalloc((size_t)cap, sizeof(sample));
}

/* Room in the ring for batch b: the live ids run from the oldest batch not
** wholly trained to b's last; a ring too small for them doubles, each live
** sample moving to its slot in the larger one. */
static void ring_fit(sim *s, int b)
{
    int64_t need = (int64_t)(b + 1 - s->low) * s->N;
    if (need <= s->smask + 1) return;
    int64_t cap = s->smask + 1;
    while (cap < need) cap *= 2;
    sample *v = ring_alloc(cap);
    for (int64_t i = (int64_t)s->low * s->N; i < (int64_t)b * s->N; i++) v[i & (cap - 1)] = *eng_smp(s, i);
    free(s->smp);
    s->smp = v;
    s->smask = cap - 1;
}

/* Batch b's lengths (drawn from the one generator, in batch order, here or
** ahead on the drawer's thread: eng_draw.c) into the ring; the samples are
** written queued: the caller queues them at once. */
void eng_draw_batch(sim *s, int b)
{
    ring_fit(s, b);
    int32_t *plen, *resp;
    eng_drawer_take(s, b, &plen, &resp, &s->len_sum[b], &s->len_max[b]);
    store_batch(s, b, plen, resp);
    eng_drawer_done(s, b);
}

void eng_preview_lengths(const sim *s, int b, double *sum, double *max)
{
    rng_state r = s->rng;
    for (int k = s->released; k <= b; k++) eng_draw_into(&s->scn, &r, k, NULL, NULL, sum, max);
}

int64_t sim_sample_slots(const sim *s) { return s->smask + 1; }

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
        mg.first_device = plan_dev(q, g * (q->devices / n));
        trace_add_memgroup(s->tr, &mg);
    }
    r->ngroups = n;
    r->host_group = -1;
    /* a host group where the host holds something: offloaded states, swapped
    ** models, an optimizer on the host (plan.train.optimizer_offload) */
    if (q->colocated || q->swap_aux || q->host_opt > 0) {
        int dpn = s->scn.cluster.devices_per_node;
        int most, nodes = plan_nodes(&s->scn.cluster, q, &most);
        if (!q->placed) nodes = (q->devices + dpn - 1) / dpn;
        trace_memgroup hg = {{0}, p, true, q->first, nodes, s->scn.cluster.host_mem_bytes};
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
            trace_track tk = {{0}, TRK_STAGE, p, plan_dev(q, st * q->tp * q->gdp), q->tp * q->gdp, r->group0 + st};
            if (q->cp > 1)
                snprintf(tk.name, sizeof tk.name, "%s stage %d (TP%d x CP%d x DP%d)", q->name, st, q->tp, q->cp, q->dp);
            else
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
            trace_track tk = {{0}, TRK_INSTANCE, p, plan_dev(q, i * q->inst_devices), q->inst_devices,
                              r->group0 + (q->pp > 1 && (q->roles & ROLE_TRAIN) ? (i * q->inst_devices) / (q->tp * q->gdp) : 0)};
            if (tk.memgroup >= r->group0 + r->ngroups) tk.memgroup = r->group0 + r->ngroups - 1;
            snprintf(tk.name, sizeof tk.name, "%s rollout %d", q->name, i);
            instance *I = &s->inst[s->ninst++];
            memset(I, 0, sizeof *I);
            I->pool = p;
            I->index = i;
            I->track = trace_add_track(s->tr, &tk);
            I->kv_cap = q->kv_tokens_per_instance;
            I->dtab = -1;
            I->quota = -1;
            I->slow = 1.0;
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
    /* what the processes hold beside the allocator's buckets, for the whole
    ** run (plan.c, pool_peak; docs/model.md, section 11): booked first, so
    ** an overflow names the bucket that grew into it */
    eng_mem_pool(s, p, MB_RUNTIME, q->outside, 0);
    if (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) {
        double st[3];
        plan_train_states(&s->scn, q, st);
        if (q->roles & ROLE_TRAIN) {
            eng_mem_pool(s, p, MB_WEIGHTS, st[0], 0);
            /* gradients freed between steps appear with the first backward
            ** (start_train_, plan.train.grad_buffer = step) */
            eng_mem_pool(s, p, MB_GRADS, s->scn.plan.train.grad_buffer == GRADS_STEP ? 0 : st[1], 0);
            eng_mem_pool(s, p, MB_OPTIMIZER, st[2], 0);
        }
        eng_mem_pool(s, p, MB_CRITIC, q->train_mem[MB_CRITIC], 0);
    }
    if (!q->swap_aux) {
        eng_mem_pool(s, p, MB_REF_WEIGHTS, q->train_mem[MB_REF_WEIGHTS], 0);
        eng_mem_pool(s, p, MB_REWARD_WEIGHTS, q->train_mem[MB_REWARD_WEIGHTS], 0);
    }
    if ((q->roles & ROLE_ROLLOUT) && !q->colocated) {
        eng_mem_pool(s, p, MB_ROLLOUT_WEIGHTS, q->rollout_mem[MB_ROLLOUT_WEIGHTS], 0);
        eng_mem_pool(s, p, MB_KV_CACHE, q->rollout_mem[MB_KV_CACHE], 0);
    }
    if (r->host_group >= 0 && q->host_opt > 0) {
        /* the optimizer's host share, for the whole run: per node, as
        ** plan.c books it (its fullest node) */
        int per_node = plan_host_devices(&s->scn.cluster, q);
        eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, q->host_opt * per_node, 0);
    }
    plan_switch_host hb = plan_switch_host_bytes(&s->scn, q);
    if (r->host_group >= 0 && hb.engine > 0) {
        /* a sleeping engine (plan.rollout.sleep = "offload") is built and
        ** put to sleep before the first step (OpenRLHF's create_vllm_engines
        ** ends with sleep(); verl starts in trainer mode): its weights wait
        ** on the host for the first wake */
        int per_node = plan_host_devices(&s->scn.cluster, q);   /* its fullest node, as plan.c books it */
        eng_mem_set(s, r->host_group, MB_HOST_OFFLOAD, (q->host_opt + hb.engine) * per_node, 0);
    }
    if (r->host_group >= 0 && q->swap_aux) {
        int dpn = plan_host_devices(&s->scn.cluster, q);
        double hm = q->aux_bytes[0] + q->aux_bytes[1];      /* as plan.c holds them (aux_weight_bytes) */
        eng_mem_set(s, r->host_group, MB_HOST_MODELS, hm * dpn, 0);
    }
}

sim *sim_new(const scn_scenario *scn, fs_err *err)
{
    if (!scn_validate(scn, err)) return NULL;
    sim *s = xcalloc(1, sizeof *s);
    s->fin_last_track = -1;
    s->scn = *scn;
    if (!plan_build(&s->scn, &s->pl, err)) { free(s); return NULL; }
    int64_t run_samples = (int64_t)scn_prompts_per_step(&s->scn) * scn->work.samples_per_prompt * scn->work.iterations;
    if (run_samples > INT32_MAX) {
        /* a sample's id, batch·N + index, is a 32-bit integer */
        fs_err_set(err, 2, "workload: %lld samples in the run (samples per step x %d iterations) is more than the %d "
                   "the engine numbers; lower workload.iterations or the samples per step",
                   (long long)run_samples, scn->work.iterations, INT32_MAX);
        free(s);
        return NULL;
    }
    s->tr = trace_new();
    s->wall0 = wall_now();
    rng_seed(&s->rng, scn->work.seed);
    s->share_on = scn->plan.stale_share > 0;
    s->staleness = scn->plan.staleness + s->share_on;
    s->st.bound_max = s->staleness;
    s->partial = scn->plan.partial_rollout;
    s->step_running = -1;
    const scn_workload *w = &scn->work;
    s->N = scn_prompts_per_step(&s->scn) * w->samples_per_prompt;
    s->nsmp = (int64_t)s->N * w->iterations;
    /* the ring starts with room for the batches the bound lets be alive at
    ** once (released up to staleness ahead, plus the one training) and grows
    ** if more are (ring_fit) */
    int64_t live = (int64_t)s->N * (s->staleness + 2), cap = 1;
    if (live > s->nsmp) live = s->nsmp;
    while (cap < live) cap *= 2;
    s->smp = ring_alloc(cap);
    s->smask = cap - 1;
    s->batch_trained = xcalloc((size_t)w->iterations + 1, sizeof *s->batch_trained);
    s->len_sum = xcalloc((size_t)w->iterations, sizeof *s->len_sum);
    s->len_max = xcalloc((size_t)w->iterations, sizeof *s->len_max);
    s->batch_done = xcalloc((size_t)w->iterations + 1, sizeof *s->batch_done);
    s->nver = w->iterations + 2;
    s->fin_v = xcalloc((size_t)s->nver, sizeof *s->fin_v);
    s->open_v = xcalloc((size_t)s->nver, sizeof *s->open_v);
    s->act_v = xcalloc((size_t)s->nver, sizeof *s->act_v);
    s->fin_bit = xcalloc((size_t)s->nver + 1, sizeof *s->fin_bit);
    s->open_bit = xcalloc((size_t)s->nver + 1, sizeof *s->open_bit);
    s->vg = xcalloc((size_t)s->nver, sizeof *s->vg);
    for (int v = 0; v < s->nver; v++) { s->vg[v].version = v; s->vg[v].t0 = -1; }
    s->share_n = (int64_t)floor(scn->plan.stale_share * s->N);
    s->step_ids = xcalloc((size_t)s->N, sizeof *s->step_ids);
    s->streaming = (s->staleness > 0 || scn->plan.stream) && w->minibatches > 1;
    s->nchunks = s->streaming ? w->minibatches : 1;
    s->chunk_n = s->N / s->nchunks;
    s->chunk_infer_left = xcalloc((size_t)s->nchunks, sizeof *s->chunk_infer_left);
    s->cut = xcalloc((size_t)w->iterations + 1, sizeof *s->cut);
    s->progress_mark = xcalloc((size_t)w->iterations + 1, sizeof *s->progress_mark);
    s->st.samples_total = s->nsmp;
    int ninst = 0;
    for (int p = 0; p < s->pl.npools; p++) ninst += s->pl.pools[p].instances;
    s->inst = xcalloc((size_t)(ninst ? ninst : 1), sizeof *s->inst);
    s->disp = xcalloc((size_t)(ninst ? ninst : 1), sizeof *s->disp);
    for (int p = 0; p < s->pl.npools; p++) add_memgroups(s, p);
    s->ngroups = trace_nmemgroups(s->tr);
    s->mem = xcalloc((size_t)s->ngroups, sizeof *s->mem);
    s->mem_peak = xcalloc((size_t)s->ngroups, sizeof *s->mem_peak);
    s->mem_peak_total = xcalloc((size_t)s->ngroups, sizeof *s->mem_peak_total);
    s->mem_peak_t = xcalloc((size_t)s->ngroups, sizeof *s->mem_peak_t);
    trace_track stk = {"step (training pool)", TRK_STEP, -1, 0, 0, -1};
    s->step_track = trace_add_track(s->tr, &stk);
    for (int p = 0; p < s->pl.npools; p++) add_tracks(s, p);
    /* Stragglers: each instance's time factor exp(spread·z), from its own
    ** generator so that the lengths drawn above do not move (docs/model.md,
    ** section 5, "Stragglers and expert imbalance"); the lengths are drawn
    ** as batches are released. */
    const scn_rollout_layout *ro = &scn->plan.rollout;
    if (ro->speed_spread > 0) {
        rng_state sr;
        rng_seed(&sr, w->seed ^ 0x9e3779b97f4a7c15ULL);
        for (int i = 0; i < s->ninst; i++) s->inst[i].slow = exp(ro->speed_spread * rng_normal(&sr));
    }
    /* Expert imbalance: the busiest of ep ranks receives 1 + cv·sqrt(2 ln ep)
    ** times the mean tokens (the bound on the expected maximum of ep normal
    ** loads) and sets the step: its touched experts and their FLOPs scale by
    ** that factor in the rollout's roofline. */
    s->roll_model = scn->actor;
    if (ro->ep_imbalance > 0 && ro->ep > 1 && scn->actor.experts > 0) {
        scn_model *m = &s->roll_model;
        double f = 1 + ro->ep_imbalance * sqrt(2 * log((double)ro->ep));
        m->params_active += (f - 1) * (m->params_active - m->params_dense);
        m->params_expert *= f;
    }
    /* about two spans per sample (decode segment, prefill) and the pipelines'
    ** runs: reserved once, as untouched memory costs nothing — up to 2^24
    ** spans, beyond which the address space asked for could be refused (a
    ** headless run gives it back: trace_keep) */
    size_t spans = (size_t)s->nsmp * 3 + 4096;
    trace_reserve_spans(s->tr, spans < ((size_t)1 << 24) ? spans : ((size_t)1 << 24));
    s->nqueues = scn->plan.rollout.dispatch == DISPATCH_STATIC && s->ninst > 0 ? s->ninst : 1;
    s->queues = xcalloc((size_t)s->nqueues, sizeof *s->queues);
    for (int p = 0; p < s->pl.npools; p++) initial_memory(s, p);
    s->pr[s->pl.train_pool].class_phase = STEP_WAIT;
    for (int p = 0; p < s->pl.npools; p++)
        if (p != s->pl.train_pool && (s->pl.pools[p].roles & ROLE_ROLLOUT)) s->gen_only_pools |= 1u << p;
    if (w->warmup == 0) s->st.window_t0 = 0;
    s->st.setup_wall_s = wall_now() - s->wall0;
    return s;
}

void sim_free(sim *s)
{
    if (!s) return;
    eng_drawer_free(s);
    for (int i = 0; i < s->ninst; i++) { free(s->inst[i].heap); free(s->inst[i].pg); }
    free(s->inst);
    free(s->disp);
    for (int i = 0; i < s->ndtab; i++) { free(s->dtab[i].v); free(s->dtab[i].pf); }
    free(s->smp);
    free(s->batch_trained);
    free(s->len_sum);
    free(s->len_max);
    free(s->vg);
    for (int i = 0; i < s->nqueues; i++) free(s->queues[i].v);
    free(s->queues);
    free(s->fin);
    free(s->take_k);
    free(s->adm);
    free(s->batch_done);
    free(s->fin_v);
    free(s->open_v);
    free(s->act_v);
    free(s->fin_bit);
    free(s->open_bit);
    free(s->step_ids);
    free(s->bal_ids);
    free(s->bal_n);
    free(s->chunk_infer_left);
    free(s->cut);
    free(s->progress_mark);
    free(s->mem);
    free(s->mem_peak);
    free(s->mem_peak_total);
    free(s->mem_peak_t);
    free(s->f_end);
    free(s->f_dur);
    free(s->b_dur);
    free(s->pipe_st);
    for (int i = 0; i < PIPE_ORDERS; i++) free(s->porder[i].ops);
    for (int i = 0; i < MB_MEMO; i++) { free(s->mbm[i].own.tok); free(s->mbm[i].own.sq); }
    eng_mb_scratch_free(&s->mbw);
    for (int i = 0; i < MB_PRE_KEEP; i++) eng_mb_pre_free(s->mbpre[i]);
    free(s->q.v);
    trace_free(s->tr);
    free(s);
}
