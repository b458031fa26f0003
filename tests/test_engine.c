/*
** test_engine.c — the engine: determinism, event order, the memory ledger,
** the KV cache's bound on the batch, phase order per mode, infeasibility,
** conservation of tokens, staleness.
*/
#include "testutil.h"
#include "dist.h"
#include "engine.h"
#include "lua_scenario.h"
#include "report.h"
#include "chrome.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A small co-located GRPO run: 8 H100s, Qwen2.5-7B, short responses. */
static const char *small_lua =
    "local f = fusync\n"
    "return { name = 'small',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 4, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'full', rollout_fraction = 0.5,\n"
    "    train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 16 } },\n"
    "}\n";

static sim *make_sim(const char *const *sets, int nsets)
{
    sim *s = test_sim_text(small_lua, sets, nsets);
    return s;
}

static char *json_of(sim *s)
{
    report r;
    report_compute(s, &r);
    r.sim_wall_s = 0;
    r.sim_loop_wall_s = 0;
    r.plugin_time_s = 0;
    fs_buf b;
    buf_init(&b);
    report_json(s, &r, &b, true);
    return b.s;
}

START_TEST(t_determinism)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=colocate", "plan.mode=full"};
    for (int m = 0; m < 3; m++) {
        const char *sets[2] = {modes[m], "plan.aux_devices=4"};
        sim *a = make_sim(sets, m == 1 ? 2 : 1);
        sim *b = make_sim(sets, m == 1 ? 2 : 1);
        ck_assert(sim_run(a));
        ck_assert(sim_run(b));
        char *ja = json_of(a), *jb = json_of(b);
        ck_assert_str_eq(ja, jb);
        /* and the traces are identical, span for span */
        ck_assert_uint_eq(trace_nspans(sim_trace(a)), trace_nspans(sim_trace(b)));
        for (size_t i = 0; i < trace_nspans(sim_trace(a)); i++) {
            const trace_span *x = &trace_spans(sim_trace(a))[i], *y = &trace_spans(sim_trace(b))[i];
            ck_assert(x->t0 == y->t0 && x->t1 == y->t1 && x->track == y->track && x->phase == y->phase &&
                      x->iter == y->iter && x->version == y->version && x->mb == y->mb && x->tokens == y->tokens);
        }
        free(ja);
        free(jb);
        sim_free(a);
        sim_free(b);
    }
}
END_TEST

START_TEST(t_seed_changes_result)
{
    const char *s1[] = {"workload.seed=1"}, *s2[] = {"workload.seed=2"};
    sim *a = make_sim(s1, 1), *b = make_sim(s2, 1);
    sim_run(a);
    sim_run(b);
    ck_assert(sim_get_stats(a)->tokens_generated != sim_get_stats(b)->tokens_generated);
    sim_free(a);
    sim_free(b);
}
END_TEST

START_TEST(t_advance_resume_equals_run)
{
    /* advancing in small slices gives the same run as running at once */
    sim *a = make_sim(NULL, 0), *b = make_sim(NULL, 0);
    sim_run(a);
    sim_time t = 0;
    while (sim_advance(b, t)) t += SIM_NS_PER_S / 3;
    char *ja = json_of(a), *jb = json_of(b);
    ck_assert_str_eq(ja, jb);
    free(ja);
    free(jb);
    sim_free(a);
    sim_free(b);
}
END_TEST

START_TEST(t_spans_well_formed)
{
    sim *s = make_sim(NULL, 0);
    sim_run(s);
    const trace *t = sim_trace(s);
    const trace_span *sp = trace_spans(t);
    for (size_t i = 0; i < trace_nspans(t); i++) {
        ck_assert(sp[i].t1 >= sp[i].t0);
        ck_assert(sp[i].t0 >= 0);
        ck_assert(sp[i].track >= 0 && sp[i].track < trace_ntracks(t));
    }
    /* on one track, spans do not overlap (they stand for one group of devices) */
    for (int k = 0; k < trace_ntracks(t); k++) {
        const uint32_t *ix = trace_track_span_index(t, k);
        size_t n = trace_track_nspans(t, k);
        if (trace_track_at(t, k)->kind == TRK_HOSTLINK) continue;
        sim_time *ends = malloc((n + 1) * sizeof *ends);
        sim_time *starts = malloc((n + 1) * sizeof *starts);
        for (size_t i = 0; i < n; i++) { starts[i] = sp[ix[i]].t0; ends[i] = sp[ix[i]].t1; }
        /* sort by start (insertion: n is small) */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && starts[j] < starts[j - 1]; j--) {
                sim_time x = starts[j]; starts[j] = starts[j - 1]; starts[j - 1] = x;
                x = ends[j]; ends[j] = ends[j - 1]; ends[j - 1] = x;
            }
        for (size_t i = 1; i < n; i++)
            ck_assert_msg(starts[i] >= ends[i - 1], "track %s: overlap at span %zu", trace_track_at(t, k)->name, i);
        free(ends);
        free(starts);
    }
    sim_free(s);
}
END_TEST

START_TEST(t_memory_ledger)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full"};
    for (int m = 0; m < 2; m++) {
        sim *s = make_sim(&modes[m], 1);
        sim_run(s);
        const trace *t = sim_trace(s);
        int ng = trace_nmemgroups(t);
        double (*cur)[MB__COUNT] = calloc((size_t)ng, sizeof *cur);
        double *peak = calloc((size_t)ng, sizeof *peak);
        const trace_counter *c = trace_counters(t);
        for (size_t i = 0; i < trace_ncounters(t); i++) {
            ck_assert_msg(c[i].bytes >= 0, "negative bucket %s", trace_bucket_name((mem_bucket)c[i].bucket));
            cur[c[i].group][c[i].bucket] = c[i].bytes;
            double tot = 0;
            for (int b = 0; b < MB__COUNT; b++) tot += cur[c[i].group][b];
            if (tot > peak[c[i].group]) peak[c[i].group] = tot;
        }
        /* the engine's peak equals the peak of the sum of its buckets */
        for (int g = 0; g < ng; g++) {
            double ep = sim_mem_peak_total(s, g, NULL);
            ck_assert_msg(fabs(ep - peak[g]) <= 1e-6 * fmax(1, peak[g]), "group %d: %g vs %g", g, ep, peak[g]);
        }
        free(cur);
        free(peak);
        sim_free(s);
    }
}
END_TEST

/* The switch in the order real systems use (docs/model.md, section 8): with
** the states offloaded, the ledger never holds the optimizer state and the
** rollout weights at once; and the fit's peak (plan.c) is the ledger's, to
** the byte, with and without offload, co-located and fully co-located. */
START_TEST(t_switch_order_and_peak)
{
    const char *cases[][4] = {
        {"plan.mode=full", "plan.offload.optimizer=true", "plan.offload.grads=true", "plan.zero_redundancy=true"},
        {"plan.mode=colocate", "plan.offload.optimizer=true", "plan.offload.grads=true", "plan.aux_devices=4"},
        {"plan.mode=colocate", "plan.offload.optimizer=false", "plan.offload.grads=false", "plan.aux_devices=4"},
    };
    for (int k = 0; k < 3; k++) {
        sim *s = make_sim(cases[k], 4);
        sim_run(s);
        const plan *pl = sim_plan(s);
        const plan_pool *q = &pl->pools[pl->train_pool];
        ck_assert(q->colocated);
        const trace *t = sim_trace(s);
        int ng = trace_nmemgroups(t);
        double (*cur)[MB__COUNT] = calloc((size_t)ng, sizeof *cur);
        const trace_counter *c = trace_counters(t);
        bool offload = k < 2;
        for (size_t i = 0; i < trace_ncounters(t); i++) {
            cur[c[i].group][c[i].bucket] = c[i].bytes;
            const trace_memgroup *mg = trace_memgroup_at(t, c[i].group);
            if (!offload || mg->host || mg->pool != pl->train_pool) continue;
            /* both set at one instant: look at the state once it settles */
            if (i + 1 < trace_ncounters(t) && c[i + 1].t == c[i].t) continue;
            for (int g = 0; g < ng; g++)
                ck_assert_msg(cur[g][MB_ROLLOUT_WEIGHTS] == 0 || cur[g][MB_OPTIMIZER] == 0,
                              "case %d: group %d holds %g B of rollout weights and %g B of optimizer at t = %.3f s",
                              k, g, cur[g][MB_ROLLOUT_WEIGHTS], cur[g][MB_OPTIMIZER], sim_secs(c[i].t));
        }
        double led = 0;
        for (int g = 0; g < ng; g++) {
            const trace_memgroup *mg = trace_memgroup_at(t, g);
            if (!mg->host && mg->pool == pl->train_pool) led = fmax(led, sim_mem_peak_total(s, g, NULL));
        }
        /* the ledger books what the processes hold beside the allocator as
        ** its runtime bucket: the fit's peak exactly (plan.c) */
        double fit = q->peak;
        ck_assert_msg(fabs(led - fit) <= 1e-9 * fit, "case %d: ledger peak %.0f B, fit %.0f B (%s)",
                      k, led, fit, q->peak_phase);
        free(cur);
        sim_free(s);
    }
}
END_TEST

/* ZeRO-2/3 cost time, not just memory (docs/model.md, section 7): at DP 4,
** FSDP's per-micro-batch all-gathers and reduce-scatters lengthen training
** and the old-log-prob pass, the more the less of them is overlapped; fully
** overlapped, ZeRO-3 has no end-of-mini-batch all-reduce and beats ZeRO-1;
** HSDP's shard groups shard the states over fewer ranks. */
static void zero_case_g(const char *zero, const char *overlap, const char *grad, double *train, double *infer,
                        double *weights)
{
    const char *sets[] = {"plan.mode=separate", "plan.train.tp=1", "plan.train.pp=1", "plan.train.recompute=full", zero, overlap,
                          "plan.train.shard_group=0", grad};
    if (!strncmp(overlap, "hsdp", 4)) { sets[5] = "plan.train.overlap=0"; sets[6] = "plan.train.shard_group=2"; }
    sim *s = make_sim(sets, 8);
    ck_assert(sim_run(s));
    report r;
    report_compute(s, &r);
    ck_assert_msg(r.feasible, "%s %s: %s", zero, overlap, r.why);
    *train = r.phase_s[STEP_TRAIN];
    *infer = r.phase_s[STEP_INFER];
    *weights = r.mem_peak[MB_WEIGHTS];
    sim_free(s);
}

/* BF16 gradients: ZeRO-1's FP32 gradients of a 7B model on DP 4 do not fit
** 80 GB beside the activations, and in BF16 ZeRO-1's reduce-scatter plus
** all-gather is the all-reduce's traffic, the comparison below. */
static void zero_case(const char *zero, const char *overlap, double *train, double *infer, double *weights)
{
    zero_case_g(zero, overlap, "plan.train.grad_dtype=bf16", train, infer, weights);
}

START_TEST(t_zero_costs_time)
{
    double t1, i1, w1, t3, i3, w3, t3h, i3h, w3h, t3f, i3f, w3f, t2, i2, w2;
    zero_case("plan.train.zero=1", "plan.train.overlap=0", &t1, &i1, &w1);
    zero_case("plan.train.zero=2", "plan.train.overlap=0", &t2, &i2, &w2);
    zero_case("plan.train.zero=3", "plan.train.overlap=0", &t3, &i3, &w3);
    zero_case("plan.train.zero=3", "plan.train.overlap=0.5", &t3h, &i3h, &w3h);
    zero_case("plan.train.zero=3", "plan.train.overlap=1", &t3f, &i3f, &w3f);
    /* HSDP: shards of 2 of the 4 DP ranks hold twice the weights */
    double th, ih, wh;
    zero_case("plan.train.zero=3", "hsdp", &th, &ih, &wh);
    ck_assert_msg(fabs(wh - 2 * w3) <= 1e-9 * wh, "HSDP weights %g B, full sharding %g B", wh, w3);
    ck_assert_msg(th != t3, "HSDP moves the collectives: %.6f s against %.6f", th, t3);
    ck_assert_msg(w3 < w1 / 3, "ZeRO-3 shards the weights: %g vs %g B", w3, w1);
    ck_assert_msg(t2 > t1, "ZeRO-2 training %.6f s, ZeRO-1 %.6f s", t2, t1);
    ck_assert_msg(t3 > t2 && t3h > t1 && t3 > t3h, "ZeRO-3 training %.6f s (o = 0), %.6f s (o = 0.5); ZeRO-1 %.6f s", t3, t3h, t1);
    ck_assert_msg(i3 > i3h && i3h > i1, "old log-probs: ZeRO-3 %.6f s (o = 0), %.6f s (o = 0.5), ZeRO-1 %.6f s", i3, i3h, i1);
    ck_assert_msg(t3f < t1 && fabs(i3f - i1) <= 1e-9 * i1, "fully overlapped ZeRO-3: training %.6f s against %.6f, passes %.6f against %.6f",
                  t3f, t1, i3f, i1);
    /* FP32 gradients (the default, docs/model.md, section 7): ZeRO-3's
    ** reduce-scatters move twice the bytes, its parameter gathers do not;
    ** the forward-only passes gather parameters only and do not move;
    ** the gradient shards take twice the memory; the weights bucket holds
    ** FSDP's FP32 master shard (docs/model.md, section 3), twice ZeRO-3's
    ** BF16 partition under BF16 gradients */
    double t3g, i3g, w3g;
    zero_case_g("plan.train.zero=3", "plan.train.overlap=0", "plan.train.grad_dtype=fp32", &t3g, &i3g, &w3g);
    ck_assert_msg(t3g > t3, "ZeRO-3 training: FP32 gradients %.6f s, BF16 %.6f s", t3g, t3);
    ck_assert_msg(fabs(i3g - i3) <= 1e-9 * i3, "ZeRO-3 old log-probs: FP32 %.6f s, BF16 %.6f s", i3g, i3);
    ck_assert_msg(fabs(w3g - 2 * w3) <= 1e-9 * w3, "FP32 master shard: %g against %g B", w3g, w3);
}
END_TEST

/* A layout run of the small scenario: training and inference phase times,
** the activation and optimizer peaks, the training pool's DP degree. */
static void layout_case(const char *const *sets, int n, double *train, double *infer, double *act, double *opt, int *dp)
{
    sim *s = make_sim(sets, n);
    ck_assert(sim_run(s));
    report r;
    report_compute(s, &r);
    ck_assert_msg(r.feasible, "%s: %s", sets[n - 1], r.why);
    *train = r.phase_s[STEP_TRAIN];
    *infer = r.phase_s[STEP_INFER];
    *act = r.mem_peak[MB_ACTIVATIONS];
    *opt = r.mem_peak[MB_OPTIMIZER];
    const plan *pl = sim_plan(s);
    *dp = pl->pools[pl->train_pool].dp;
    sim_free(s);
}

/* Context parallelism is a layout dimension (docs/model.md, sections 2 and
** 7): at TP2 PP2 on 8 devices cp 2 leaves DP 1 of DP 2, each rank holds half of
** every sequence's activations, the CP ranks shard the optimizer states as
** DP ranks do (over cp·dp), and the two kinds cost different times; the
** forward-only passes run over the same layout. */
START_TEST(t_context_parallel)
{
    double t1, i1, a1, o1, tr, ir, ar, or_, tu, iu, au, ou;
    int d1, dr, du;
    const char *b8[] = {"plan.mode=full", "plan.train.cp=1"};
    const char *r8[] = {"plan.mode=full", "plan.train.cp=2"};
    const char *u8[] = {"plan.mode=full", "plan.train.cp_kind=ulysses", "plan.train.cp=2"};
    layout_case(b8, 2, &t1, &i1, &a1, &o1, &d1);
    layout_case(r8, 2, &tr, &ir, &ar, &or_, &dr);
    layout_case(u8, 3, &tu, &iu, &au, &ou, &du);
    ck_assert_int_eq(d1, 2);
    ck_assert_int_eq(dr, 1);
    ck_assert_msg(fabs(ar - a1 / 2) <= 1e-9 * a1, "activations at cp 2: %g B, at cp 1: %g B", ar, a1);
    ck_assert_msg(fabs(or_ - o1) <= 1e-9 * o1, "optimizer states at cp 2: %g B, at cp 1: %g B (sharded over cp·dp = 2 both)", or_, o1);
    ck_assert_msg(tr != t1 && tu != tr, "training: cp 1 %.6f s, ring %.6f s, Ulysses %.6f s", t1, tr, tu);
    ck_assert_msg(ir != i1 && iu != ir, "forward passes: cp 1 %.6f s, ring %.6f s, Ulysses %.6f s", i1, ir, iu);
}
END_TEST

/* Compute/communication overlap (docs/model.md, section 7): running the TP
** all-reduces concurrently with the GEMMs, or the gradient reduction during
** the last backward, shortens training and leaves the memory alone; 0 is
** the serial model. */
START_TEST(t_overlap_shortens_training)
{
    double t0, i0, a0, o0, tt, it, at, ot, tg, ig, ag, og;
    int d;
    const char *serial[] = {"plan.mode=full", "plan.train.overlap_tp=0"};
    const char *tpo[] = {"plan.mode=full", "plan.train.overlap_tp=1"};
    const char *grad[] = {"plan.mode=full", "plan.train.overlap_grad=1"};
    layout_case(serial, 2, &t0, &i0, &a0, &o0, &d);
    layout_case(tpo, 2, &tt, &it, &at, &ot, &d);
    layout_case(grad, 2, &tg, &ig, &ag, &og, &d);
    ck_assert_msg(tt < t0 && it < i0, "TP overlap: training %.6f s against %.6f, passes %.6f against %.6f", tt, t0, it, i0);
    ck_assert_msg(tg < t0 && ig == i0, "gradient overlap: training %.6f s against %.6f, passes %.6f against %.6f", tg, t0, ig, i0);
    ck_assert(at == a0 && og == o0);
}
END_TEST

/* The KV cache bounds the batch an instance decodes (docs/model.md, section
** 5): with kv = "reserve" admission reserves prompt + max_response tokens a
** sequence, so an
** instance with room for K tokens never holds more than K / (shortest prompt
** + max_response) sequences, and with its queue long it fills to at least
** K / (longest prompt + max_response).  Memory is cut so that this binds, not
** max_seqs.  A generate span's `mb` is the batch it decoded. */
START_TEST(t_kv_bounds_the_batch)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full"};
    const double pmin = 100, pmax = 300;    /* small_lua's prompt_len */
    for (int m = 0; m < 2; m++) {
        const char *sets[] = {modes[m], "plan.rollout.mem_util=0.19", "plan.rollout.max_seqs=64", "plan.rollout.kv=reserve"};
        sim *s = make_sim(sets, 4);
        ck_assert(sim_run(s));
        ck_assert_int_eq(sim_get_stats(s)->preemptions, 0);
        const plan *pl = sim_plan(s);
        const trace *t = sim_trace(s);
        double R = sim_scenario(s)->work.max_response;
        int instances = 0;
        for (int k = 0; k < trace_ntracks(t); k++) {
            const trace_track *tk = trace_track_at(t, k);
            if (tk->kind != TRK_INSTANCE) continue;
            double kv = pl->pools[tk->pool].kv_tokens_per_instance;
            int lo = (int)floor(kv / (pmax + R)), hi = (int)floor(kv / (pmin + R));
            ck_assert_msg(lo >= 1 && hi < 64, "%s: KV room %.0f tokens does not bind (batch %d..%d, max_seqs 64)",
                          modes[m], kv, lo, hi);
            const uint32_t *ix = trace_track_span_index(t, k);
            int most = 0;
            for (size_t i = 0; i < trace_track_nspans(t, k); i++) {
                const trace_span *sp = &trace_spans(t)[ix[i]];
                if (sp->phase == PH_GENERATE && sp->mb > most) most = sp->mb;
            }
            ck_assert_msg(most <= hi, "%s, %s: %d sequences in flight, KV room %.0f holds at most %d",
                          modes[m], tk->name, most, kv, hi);
            ck_assert_msg(most >= lo, "%s, %s: at most %d sequences in flight, KV room %.0f holds at least %d",
                          modes[m], tk->name, most, kv, lo);
            instances++;
        }
        ck_assert_int_gt(instances, 0);
        sim_free(s);
    }
}
END_TEST

/* Paged KV (docs/model.md, section 5): in the same memory as above an
** instance runs more sequences than reserving allows, fills its cache,
** preempts the newest, and every sample still trains.  The counts in the
** report match the trace's preemption instants; swap costs exactly two
** host-link copies of each preempted context. */
static const plan_pool *rollout_pool(sim *s)
{
    const plan *pl = sim_plan(s);
    for (int p = 0; p < pl->npools; p++)
        if (pl->pools[p].roles & ROLE_ROLLOUT) return &pl->pools[p];
    ck_abort_msg("no rollout pool");
    return NULL;
}

static void preempt_case(const char *policy, sim **out)
{
    /* the memory is sized for unshared prompts: prefix caching off */
    const char *sets[] = {"plan.mode=separate", "plan.rollout.mem_util=0.19", "plan.rollout.max_seqs=64",
                          "workload.samples_per_prompt=16", "plan.rollout.prefix_caching=false", policy};
    sim *s = make_sim(sets, 6);
    /* event by event: the counters kept as samples change state (those
    ** preempted back to the queue included) equal a recount */
    fs_err cerr = {0, ""};
    unsigned long long ev = 0;
    while (sim_step_events(s, 1))
        if (++ev % 5 == 0) ck_assert_msg(sim_check_counters(s, &cerr), "%s, event %llu: %s", policy, ev, cerr.msg);
    ck_assert_msg(sim_check_counters(s, &cerr), "%s, at the end: %s", policy, cerr.msg);
    ck_assert(sim_error(s) == NULL && sim_done(s));
    const sim_stats *st = sim_get_stats(s);
    ck_assert_msg(st->preemptions > 0, "%s: a full cache preempted nothing", policy);
    ck_assert_msg(st->preempt_cost_s > 0, "%s: preemption cost nothing", policy);
    ck_assert_int_eq(st->samples_trained, 4 * 256);
    double lhs = st->tokens_generated, rhs = st->tokens_trained_response + st->tokens_in_flight + st->tokens_wasted;
    ck_assert_msg(fabs(lhs - rhs) < 0.5, "%s: generated %.0f != trained + in flight + wasted %.0f", policy, lhs, rhs);
    /* the trace's instants add up to the report's counts */
    const trace *t = sim_trace(s);
    int64_t n = 0, tok = 0;
    for (size_t i = 0; i < trace_ninstants(t); i++) {
        const trace_instant *in = &trace_instants(t)[i];
        if (in->kind != INST_PREEMPT) continue;
        ck_assert_int_eq(trace_track_at(t, in->track)->kind, TRK_INSTANCE);
        n += in->count;
        tok += in->tokens;
    }
    ck_assert_int_eq(n, st->preemptions);
    ck_assert(fabs((double)tok - st->preempt_tokens) < 1.0 * (double)n);
    report r;
    report_compute(s, &r);
    ck_assert_int_eq(r.preemptions, st->preemptions);
    *out = s;
}

START_TEST(t_paged_kv_preempts)
{
    /* reserving: at most K / (100 + max_response) sequences, no preemption */
    const char *res[] = {"plan.mode=separate", "plan.rollout.mem_util=0.19", "plan.rollout.max_seqs=64",
                         "workload.samples_per_prompt=16", "plan.rollout.kv=reserve"};
    sim *r = make_sim(res, 5);
    ck_assert(sim_run(r));
    ck_assert_int_eq(sim_get_stats(r)->preemptions, 0);
    double K = rollout_pool(r)->kv_tokens_per_instance;
    int hi = (int)floor(K / (100 + sim_scenario(r)->work.max_response));
    sim *s;
    preempt_case("plan.rollout.preempt=recompute", &s);
    /* paged runs larger batches than reserving could */
    const trace *t = sim_trace(s);
    int most = 0;
    for (size_t i = 0; i < trace_nspans(t); i++)
        if (trace_spans(t)[i].phase == PH_GENERATE && trace_spans(t)[i].mb > most) most = trace_spans(t)[i].mb;
    ck_assert_msg(most > hi, "paged: at most %d sequences, reserving allows %d", most, hi);
    report a, b;
    report_compute(r, &a);
    report_compute(s, &b);
    ck_assert_msg(b.throughput > a.throughput, "paged %.1f tokens/s, reserve %.1f", b.throughput, a.throughput);
    sim_free(s);
    sim_free(r);
    /* swap: each preempted context goes to host and back over the host link */
    preempt_case("plan.rollout.preempt=swap", &s);
    const sim_stats *st = sim_get_stats(s);
    const plan_pool *pp = rollout_pool(s);
    const scn_scenario *sc = sim_scenario(s);
    double per_tok = pp->kv_bytes / pp->kv_tokens_per_instance;
    double want = 2 * st->preempt_tokens * per_tok / (sc->cluster.device.host_bw * sc->eff.host_link);
    ck_assert_msg(fabs(st->preempt_cost_s - want) <= 1e-6 * want, "swap cost %.9g s, two copies of %.0f tokens take %.9g s",
                  st->preempt_cost_s, st->preempt_tokens, want);
    sim_free(s);
}
END_TEST

/* kv = "reserve" with dispatch = "queue" is the engine as it was before
** paged admission and balanced dispatch: in the KV-bound case above it
** gives, to the last bit, the figures that engine printed (recorded from it:
** throughput, events, step time).  The co-located figure was re-recorded when
** the switch took its real order (offload, then onload; docs/model.md,
** section 8), which lengthens each switch, and both again when attention and
** training took the model's real shapes (docs/model.md, sections 3, 5-7:
** head_dim, the embedding a lookup, FP32 gradients), and again when the
** vocab-parallel LM head's TP collectives and the smooth GEMM curve came
** in (section 7), and again when vLLM's KV cache lost its profile run's
** share and the H100 its capacity as CUDA reports it (section 3, "What
** vLLM's KV cache gets": the KV-bound case's cache is smaller). */
START_TEST(t_reserve_reproduces_before)
{
    const struct { const char *mode; double tput; uint64_t events; double step; } want[] = {
        {"plan.mode=separate", 1904.4945210104372, 1039, 78.832991297000007},
        {"plan.mode=full", 3112.3682234797875, 1036, 48.238829476333336},
    };
    for (int m = 0; m < 2; m++) {
        /* the reward on one worker per training device and no queue request
        ** cost, as that engine had them (docs/model.md, section 4) */
        const char *sets[] = {want[m].mode, "plan.rollout.mem_util=0.19", "plan.rollout.max_seqs=64",
                              "workload.samples_per_prompt=16", "plan.rollout.kv=reserve", "plan.rollout.dispatch=queue",
                              "plan.reward_workers=0", "plan.distqueue.request_us=0",
                              "plan.sync_model=ideal"};    /* that engine's weight sync: the ideal bound */
        sim *s = make_sim(sets, 9);
        ck_assert(sim_run(s));
        report r;
        report_compute(s, &r);
        ck_assert_msg(fabs(r.throughput - want[m].tput) <= 1e-12 * want[m].tput, "%s: %.17g tokens/s, was %.17g",
                      want[m].mode, r.throughput, want[m].tput);
        ck_assert_msg(fabs(r.step_time_s - want[m].step) <= 1e-12 * want[m].step, "%s: step %.17g s, was %.17g",
                      want[m].mode, r.step_time_s, want[m].step);
        ck_assert_uint_eq(r.events, want[m].events);
        ck_assert_int_eq(r.preemptions, 0);
        sim_free(s);
    }
}
END_TEST

/* The order of step phases on the training pool's timeline. */
static void step_sequence(sim *s, char *out, size_t n)
{
    const trace *t = sim_trace(s);
    int step_track = -1;
    for (int k = 0; k < trace_ntracks(t); k++) if (trace_track_at(t, k)->kind == TRK_STEP) step_track = k;
    ck_assert_int_ge(step_track, 0);
    const uint32_t *ix = trace_track_span_index(t, step_track);
    size_t len = 0;
    int last = -1;
    out[0] = 0;
    for (size_t i = 0; i < trace_track_nspans(t, step_track); i++) {
        int ph = trace_spans(t)[ix[i]].phase;
        if (ph == last) continue;
        last = ph;
        const char *letters = "GSWITw";     /* generate switch weight_sync inference train wait */
        if (len + 2 < n) { out[len++] = letters[ph]; out[len] = 0; }
    }
}

START_TEST(t_phase_order)
{
    char seq[256];
    const char *full[] = {"plan.mode=full"};
    sim *s = make_sim(full, 1);
    sim_run(s);
    step_sequence(s, seq, sizeof seq);
    /* per step: switch to rollout, generate, switch back, forward passes, train */
    ck_assert_str_eq(seq, "SGSITSGSITSGSITSGSIT");
    sim_free(s);
    const char *sep[] = {"plan.mode=separate"};
    s = make_sim(sep, 1);
    sim_run(s);
    step_sequence(s, seq, sizeof seq);
    /* the training pool waits for generation, runs the passes, trains, syncs */
    ck_assert_str_eq(seq, "GITWGITWGITWGITW");
    sim_free(s);
}
END_TEST

START_TEST(t_tokens_conserved)
{
    const char *cases[][3] = {
        {"plan.mode=full", "plan.staleness=0", "plan.partial_rollout=1"},
        {"plan.mode=separate", "plan.staleness=1", "plan.partial_rollout=1"},
        {"plan.mode=separate", "plan.staleness=2", "plan.partial_rollout=0.5"},
        {"plan.mode=full", "plan.staleness=1", "plan.partial_rollout=0.6"},
    };
    for (int i = 0; i < 4; i++) {
        sim *s = make_sim(cases[i], 3);
        ck_assert(sim_run(s));
        const sim_stats *st = sim_get_stats(s);
        double lhs = st->tokens_generated;
        double rhs = st->tokens_trained_response + st->tokens_in_flight + st->tokens_wasted;
        ck_assert_msg(fabs(lhs - rhs) < 0.5, "case %d: generated %.0f != trained %.0f + in flight %.0f + wasted %.0f",
                      i, lhs, st->tokens_trained_response, st->tokens_in_flight, st->tokens_wasted);
        ck_assert_int_eq(st->samples_trained, 4 * 64);
        sim_free(s);
    }
}
END_TEST

START_TEST(t_infeasible)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/does_not_fit.lua", test_root());
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(path, NULL, 0, &sc, &err), "%s", err.msg);
    sim *s = sim_new(&sc, &err);
    ck_assert_ptr_nonnull(s);
    sim_run(s);
    report r;
    report_compute(s, &r);
    ck_assert(!r.feasible);
    ck_assert_msg(strstr(r.why, "optimizer") && strstr(r.why, "devices 0..7") && strstr(r.why, "over capacity by"),
                  "%s", r.why);
    sim_free(s);
}
END_TEST

START_TEST(t_more_devices_not_slower)
{
    /* full co-location on 16 instead of 8 devices generates and trains faster */
    const char *a[] = {"plan.mode=full"};
    const char *b[] = {"plan.mode=full", "cluster.devices_per_node=16"};
    sim *s8 = make_sim(a, 1), *s16 = make_sim(b, 2);
    sim_run(s8);
    sim_run(s16);
    report r8, r16;
    report_compute(s8, &r8);
    report_compute(s16, &r16);
    ck_assert(r16.step_time_s < r8.step_time_s);
    ck_assert(r16.throughput > r8.throughput);
    sim_free(s8);
    sim_free(s16);
}
END_TEST

/* An example run with --set options, checked to have loaded and run; the
** trace stores its spans or, as a headless run's, only sums them. */
static sim *example_sim_kept(const char *name, const char *const *sets, int nsets, bool keep)
{
    sim *s = test_example_new(name, sets, nsets, keep);
    sim_run(s);
    return s;
}

/* An example run with --set options, checked to have loaded and run. */
static sim *example_sim(const char *name, const char *const *sets, int nsets)
{
    sim *s = test_example_new(name, sets, nsets, -1);
    ck_assert_msg(sim_run(s), "%s did not run", name);
    return s;
}

/* Tokens each rollout instance decoded (the generate spans of its track). */
static int idle_instances(sim *s, char *names, size_t n)
{
    const trace *t = sim_trace(s);
    int idle = 0;
    names[0] = 0;
    for (int k = 0; k < trace_ntracks(t); k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (tk->kind != TRK_INSTANCE) continue;
        const uint32_t *ix = trace_track_span_index(t, k);
        int64_t tok = 0;
        for (size_t i = 0; i < trace_track_nspans(t, k); i++)
            if (trace_spans(t)[ix[i]].phase == PH_GENERATE) tok += trace_spans(t)[ix[i]].tokens;
        if (tok == 0) {
            idle++;
            size_t l = strlen(names);
            snprintf(names + l, n - l, "%s%s", l ? ", " : "", tk->name);
        }
    }
    return idle;
}

/* The default dispatch (balanced, docs/model.md section 5) gives every one
** of the Qwen example's 16 rollout instances work; index-order filling left
** 7 of them idle, since 9 instances could hold the whole batch. */
START_TEST(t_dispatch_uses_every_instance)
{
    char names[1024];
    const char *modes[] = {"plan.mode=full", "plan.mode=colocate", "plan.mode=separate"};
    for (int m = 0; m < 3; m++) {
        sim *s = example_sim("qwen7b_h100x16.lua", &modes[m], 1);
        ck_assert_int_eq(sim_scenario(s)->plan.rollout.dispatch, DISPATCH_BALANCED);
        int idle = idle_instances(s, names, sizeof names);
        ck_assert_msg(idle == 0, "%s: %d rollout instances never decoded: %s", modes[m], idle, names);
        sim_free(s);
    }
    /* the old behaviour stays an option, and it does leave instances idle */
    const char *q[] = {"plan.mode=full", "plan.rollout.dispatch=queue"};
    sim *s = example_sim("qwen7b_h100x16.lua", q, 2);
    ck_assert_int_gt(idle_instances(s, names, sizeof names), 0);
    sim_free(s);
}
END_TEST

/* More device memory never makes a run slower: each instance may batch more,
** and the dispatcher still spreads the batch over all of them. */
START_TEST(t_more_memory_not_slower)
{
    /* 76 GB, not 72: the example's separate training pool needs 73.5 GiB
    ** a device with FP32 gradients (docs/model.md, section 3) */
    const char *hbm[] = {"cluster.device.hbm_gb=76", "cluster.device.hbm_gb=80", "cluster.device.hbm_gb=96",
                         "cluster.device.hbm_gb=120", "cluster.device.hbm_gb=141", "cluster.device.hbm_gb=192"};
    const char *modes[] = {"plan.mode=full", "plan.mode=separate", "plan.mode=colocate"};
    for (int m = 0; m < 3; m++) {
        double last = 0;
        for (int i = 0; i < 6; i++) {
            const char *sets[] = {modes[m], hbm[i], "workload.iterations=3"};
            sim *s = example_sim("qwen7b_h100x16.lua", sets, 3);
            report r;
            report_compute(s, &r);
            ck_assert_msg(r.feasible, "%s %s: %s", modes[m], hbm[i], r.why);
            ck_assert_msg(r.throughput >= last * (1 - 1e-9), "%s: %s gives %.1f tokens/s, less memory gave %.1f",
                          modes[m], hbm[i], r.throughput, last);
            last = r.throughput;
            sim_free(s);
        }
    }
}
END_TEST

/* The inference phase split by part: the parts sum to the phase in every
** mode and with StaleSync, a part whose model is absent is 0, and the
** reference costs what the actor's own log-prob pass does (same model,
** same layout, docs/model.md section 12). */
START_TEST(t_inference_split)
{
    const char *modes[] = {"plan.mode=full", "plan.mode=colocate", "plan.mode=separate"};
    const char *extra[] = {"plan.rollout_fraction=0.5", "plan.aux_devices=4", "plan.rollout_fraction=0.5"};
    const char *stale[] = {"plan.staleness=0", "plan.staleness=1"};
    for (int m = 0; m < 3; m++)
        for (int k = 0; k < 2; k++) {
            const char *sets[3] = {modes[m], stale[k], extra[m]};
            sim *s = make_sim(sets, 3);
            ck_assert(sim_run(s));
            report r;
            report_compute(s, &r);
            double sum = 0;
            for (int i = 0; i < INF__COUNT; i++) sum += r.infer_s[i];
            ck_assert_msg(r.phase_s[STEP_INFER] > 0, "%s: no inference phase", modes[m]);
            ck_assert_msg(fabs(sum - r.phase_s[STEP_INFER]) < 1e-6 * r.phase_s[STEP_INFER] + 1e-9,
                          "%s s%d: parts %.9f s, phase %.9f s", modes[m], k, sum, r.phase_s[STEP_INFER]);
            ck_assert(r.infer_s[INF_CRITIC] == 0);
            if (m == 0) {
                /* full co-location: both passes on the training pool */
                ck_assert(r.infer_s[INF_LOGPROB] > 0 && r.infer_s[INF_REWARD] > 0);
                ck_assert(r.infer_s[INF_REF] >= r.infer_s[INF_LOGPROB]);  /* plus its load from the host */
            }
            sim_free(s);
        }
    /* no log-prob pass: its part is 0 and the phase shrinks by it */
    const char *a[] = {"plan.mode=full"}, *b[] = {"plan.mode=full", "workload.recompute_logprob=false"};
    sim *x = make_sim(a, 1), *y = make_sim(b, 2);
    ck_assert(sim_run(x) && sim_run(y));
    report rx, ry;
    report_compute(x, &rx);
    report_compute(y, &ry);
    ck_assert(ry.infer_s[INF_LOGPROB] == 0 && rx.infer_s[INF_LOGPROB] > 0);
    ck_assert(ry.phase_s[STEP_INFER] < rx.phase_s[STEP_INFER]);
    sim_free(x);
    sim_free(y);
}
END_TEST

/* Seconds each rollout instance spends prefilling and decoding. */
static int instance_busy(sim *s, double *busy, int max)
{
    const trace *t = sim_trace(s);
    int n = 0;
    for (int k = 0; k < trace_ntracks(t) && n < max; k++) {
        if (trace_track_at(t, k)->kind != TRK_INSTANCE) continue;
        const uint32_t *ix = trace_track_span_index(t, k);
        double b = 0;
        for (size_t i = 0; i < trace_track_nspans(t, k); i++) {
            const trace_span *sp = &trace_spans(t)[ix[i]];
            if (sp->phase == PH_GENERATE || sp->phase == PH_PREFILL) b += sim_secs(sp->t1 - sp->t0);
        }
        busy[n++] = b;
    }
    return n;
}

/* Stragglers: one instance, synchronous, so it does the same work in the
** same order; its busy time scales by exactly its factor exp(spread·z), z
** the first normal of the generator seeded with seed ^ 0x9e3779b97f4a7c15
** (docs/model.md, section 5). */
START_TEST(t_straggler_factor)
{
    const char *base[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.rollout.tp=4", "plan.train.tp=2",
                          "plan.train.pp=2"};
    const char *slow[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.rollout.tp=4", "plan.train.tp=2",
                          "plan.train.pp=2", "plan.rollout.speed_spread=0.3"};
    sim *a = make_sim(base, 5), *b = make_sim(slow, 6);
    ck_assert(sim_run(a) && sim_run(b));
    double ba[4], bb[4];
    ck_assert_int_eq(instance_busy(a, ba, 4), 1);
    ck_assert_int_eq(instance_busy(b, bb, 4), 1);
    rng_state r;
    rng_seed(&r, 5 ^ 0x9e3779b97f4a7c15ULL);       /* the scenario's seed is 5 */
    double want = exp(0.3 * rng_normal(&r));
    ck_assert_msg(fabs(bb[0] / ba[0] / want - 1) < 1e-6, "busy %.6f s vs %.6f s: factor %.6f, expected %.6f", bb[0],
                  ba[0], bb[0] / ba[0], want);
    ck_assert(sim_get_stats(a)->tokens_generated == sim_get_stats(b)->tokens_generated);
    sim_free(a);
    sim_free(b);
    /* several instances: the factors differ, seeded (the same run twice is identical) */
    const char *many[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.rollout.tp=1", "plan.train.tp=2",
                          "plan.train.pp=2", "plan.rollout.speed_spread=0.5"};
    sim *x = make_sim(many, 6), *y = make_sim(many, 6);
    ck_assert(sim_run(x) && sim_run(y));
    char *jx = json_of(x), *jy = json_of(y);
    ck_assert_str_eq(jx, jy);
    free(jx);
    free(jy);
    sim_free(x);
    sim_free(y);
}
END_TEST

/* Expert imbalance: the busiest EP rank sets the step, so generation is
** slower as the spread grows; without EP (or without experts) it is inert. */
START_TEST(t_ep_imbalance)
{
    double gen[3];
    const char *cv[] = {"plan.rollout.ep_imbalance=0", "plan.rollout.ep_imbalance=0.3", "plan.rollout.ep_imbalance=1"};
    for (int k = 0; k < 3; k++) {
        const char *sets[] = {"models.actor=qwen3_30b_a3b", "models.reference=qwen3_30b_a3b", "plan.mode=separate",
                              "plan.rollout_devices=4", "plan.rollout.tp=1", "plan.rollout.ep=4", cv[k]};
        sim *s = make_sim(sets, 7);
        ck_assert_msg(sim_run(s), "%s", sim_error(s) ? sim_error(s)->msg : "?");
        double b[4];
        ck_assert_int_eq(instance_busy(s, b, 4), 1);
        gen[k] = b[0];
        sim_free(s);
    }
    ck_assert_msg(gen[0] < gen[1] && gen[1] < gen[2], "busy %.3f, %.3f, %.3f s", gen[0], gen[1], gen[2]);
    /* a dense actor: nothing changes */
    const char *d0[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.rollout.tp=4"};
    const char *d1[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.rollout.tp=4", "plan.rollout.ep_imbalance=1"};
    sim *x = make_sim(d0, 3), *y = make_sim(d1, 4);
    ck_assert(sim_run(x) && sim_run(y));
    char *jx = json_of(x), *jy = json_of(y);
    ck_assert_str_eq(jx, jy);
    free(jx);
    free(jy);
    sim_free(x);
    sim_free(y);
}
END_TEST

/* Decode seconds (generate spans alone) of the lone rollout instance. */
static double decode_secs(sim *s)
{
    const trace *t = sim_trace(s);
    double b = 0;
    for (size_t i = 0; i < trace_nspans(t); i++) {
        const trace_span *sp = &trace_spans(t)[i];
        if (sp->phase == PH_GENERATE && trace_track_at(t, sp->track)->kind == TRK_INSTANCE) b += sim_secs(sp->t1 - sp->t0);
    }
    return b;
}

/* Speculative decoding: with the same draft length the verification step is
** the same, so decode time goes as 1 / E with E = 1 + α + … + α^k; with
** nothing accepted (α = 0) the wider step only costs. */
START_TEST(t_speculative_decoding)
{
    const char *accept[] = {"plan.rollout.spec_accept=0.5", "plan.rollout.spec_accept=1", "plan.rollout.spec_accept=0"};
    double t[4];
    for (int k = 0; k < 4; k++) {
        const char *sets[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.rollout.tp=4", "plan.train.tp=2",
                              "plan.train.pp=2", "plan.rollout.spec_tokens=3", k < 3 ? accept[k] : "plan.rollout.spec_tokens=0"};
        sim *s = make_sim(sets, 7);
        ck_assert(sim_run(s));
        t[k] = decode_secs(s);
        sim_free(s);
    }
    double e05 = 1 + 0.5 + 0.25 + 0.125, e1 = 4;
    ck_assert_msg(fabs(t[0] / t[1] / (e1 / e05) - 1) < 1e-6, "decode %.6f s at α 0.5, %.6f s at α 1: ratio %.6f, expected %.6f",
                  t[0], t[1], t[0] / t[1], e1 / e05);
    ck_assert_msg(t[2] > t[3], "nothing accepted: %.6f s, no speculation %.6f s", t[2], t[3]);
    ck_assert_msg(t[1] < t[3], "all accepted: %.6f s, no speculation %.6f s", t[1], t[3]);
}
END_TEST

/* A headless run stores no span and holds only the spans that wait for the
** measured window to settle: four times the iterations, four times the spans
** recorded, no more held (docs/performance.md, "Headless runs"). */
START_TEST(t_headless_memory_bounded)
{
    const char *few[] = {"workload.iterations=10"}, *many[] = {"workload.iterations=40"};
    sim *a = example_sim_kept("qwen7b_h100x16.lua", few, 1, false);
    sim *b = example_sim_kept("qwen7b_h100x16.lua", many, 1, false);
    const trace *ta = sim_trace(a), *tb = sim_trace(b);
    ck_assert_int_eq(sim_get_stats(b)->iterations_done, 40);
    ck_assert_uint_eq(trace_nspans(ta), 0);
    ck_assert_uint_eq(trace_nspans(tb), 0);
    /* the set-up's memory counters only, stored before the run was made headless */
    ck_assert_uint_eq(trace_ncounters(tb), trace_ncounters(ta));
    ck_assert_msg(trace_nspans_recorded(tb) > 3 * trace_nspans_recorded(ta), "recorded %zu and %zu spans",
                  trace_nspans_recorded(ta), trace_nspans_recorded(tb));
    /* what waits is the warm-up and a step's tail, whatever the iterations */
    size_t held_a = trace_nspans_waiting_peak(ta), held_b = trace_nspans_waiting_peak(tb);
    ck_assert_msg(held_b <= held_a + held_a / 4, "spans held grew with iterations: %zu at 10, %zu at 40", held_a, held_b);
    ck_assert_msg(held_b * 4 < trace_nspans_recorded(tb), "held %zu of %zu spans", held_b, trace_nspans_recorded(tb));
    sim_free(a);
    sim_free(b);
}
END_TEST

/* The report's per-pool sums over the stored spans of a run as it stands
** (report.c's window: its start so far, its end or the clock). */
static void stored_span_sums(const sim *s, double *busy, double *comp)
{
    const trace *t = sim_trace(s);
    const sim_stats *k = sim_get_stats(s);
    sim_time w0 = k->window_t0, w1 = k->window_t1 > 0 ? k->window_t1 : sim_now(s);
    const trace_span *sp = trace_spans(t);
    for (size_t i = 0; i < trace_nspans(t); i++) {
        const trace_track *tk = trace_track_at(t, sp[i].track);
        if (tk->pool < 0 || tk->kind == TRK_HOSTLINK || tk->kind == TRK_STEP) continue;
        sim_time a = sp[i].t0 > w0 ? sp[i].t0 : w0, b = sp[i].t1 < w1 ? sp[i].t1 : w1;
        if (b <= a) continue;
        double dev_s = sim_secs(b - a) * tk->devices;
        busy[tk->pool] += dev_s;
        if (trace_phase_is_compute((trace_phase)sp[i].phase)) comp[tk->pool] += dev_s;
    }
}

/* The running totals equal, bit for bit, the sums over the stored spans
** that the report made before (the same spans in the same order), on every
** example in every mode, with and without StaleSync; and a headless run's
** report is the stored one's. */
START_TEST(t_totals_equal_span_sums)
{
    static const char *const ex[] = {"qwen7b_h100x16.lua", "llama70b_h100x64.lua", "pangu718b_cm384.lua"};
    static const char *const modes[] = {"plan.mode=separate", "plan.mode=colocate", "plan.mode=full"};
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++)
        for (int m = 0; m < 3; m++)
            for (int st = 0; st < 2; st++) {
                const char *sets[] = {modes[m], st ? "plan.staleness=2" : "plan.staleness=0", "workload.iterations=4"};
                sim *s = example_sim_kept(ex[e], sets, 3, true);
                const trace *t = sim_trace(s);
                const sim_stats *k = sim_get_stats(s);
                sim_time w0 = k->window_t0, w1 = k->window_t1 > 0 ? k->window_t1 : sim_now(s);
                double busy[SCN_POOLS_MAX] = {0}, comp[SCN_POOLS_MAX] = {0};
                stored_span_sums(s, busy, comp);
                int np = sim_plan(s)->npools;
                double tb[SCN_POOLS_MAX], tc[SCN_POOLS_MAX];
                trace_window_totals(t, w0, w1, np, tb, tc);
                for (int p = 0; p < np; p++) {
                    ck_assert_msg(memcmp(&busy[p], &tb[p], sizeof(double)) == 0 && memcmp(&comp[p], &tc[p], sizeof(double)) == 0,
                                  "%s %s %s pool %d: busy %.17g vs %.17g, compute %.17g vs %.17g", ex[e], sets[0], sets[1], p,
                                  busy[p], tb[p], comp[p], tc[p]);
                }
                ck_assert(busy[0] > 0 || !sim_get_stats(s)->iterations_done);
                report r1, r2;
                report_compute(s, &r1);
                sim *h = example_sim_kept(ex[e], sets, 3, false);
                report_compute(h, &r2);
                for (int p = 0; p < np; p++) {
                    ck_assert(memcmp(&r1.pools[p].utilization, &r2.pools[p].utilization, sizeof(double)) == 0);
                    ck_assert(memcmp(&r1.pools[p].busy, &r2.pools[p].busy, sizeof(double)) == 0);
                }
                sim_free(h);
                sim_free(s);
            }
}
END_TEST

/* During the warm-up the spans that end before the window can start leave
** the queue early (trace_add_span_in): a report asked for at any point of
** it — the run stopped there, the window starting at 0 — and one asked for
** later still equal the stored spans' sums bit for bit, in every mode; and a
** headless run holds far fewer spans than its warm-up records
** (docs/performance.md, "Headless runs"). */
START_TEST(t_totals_during_warmup)
{
    static const char *const ex[] = {"qwen7b_h100x16.lua", "pangu718b_cm384.lua"};
    static const char *const modes[] = {"plan.mode=separate", "plan.mode=colocate", "plan.mode=full"};
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++)
        for (int m = 0; m < 3; m++) {
            const char *sets[] = {modes[m], "workload.warmup=2", "workload.iterations=4"};
            char path[1024];
            snprintf(path, sizeof path, "%s/examples/%s", test_root(), ex[e]);
            scn_scenario sc;
            fs_err err = {0, ""};
            ck_assert_msg(lscn_load(path, sets, 3, &sc, &err), "%s: %s", ex[e], err.msg);
            sim *s = sim_new(&sc, &err);
            ck_assert_msg(s != NULL, "sim_new: %s", err.msg);
            int checks = 0, early = 0;
            while (!sim_done(s)) {
                sim_step_events(s, 97);
                int np = sim_plan(s)->npools;
                const sim_stats *k = sim_get_stats(s);
                sim_time w0 = k->window_t0, w1 = k->window_t1 > 0 ? k->window_t1 : sim_now(s);
                double busy[SCN_POOLS_MAX] = {0}, comp[SCN_POOLS_MAX] = {0}, tb[SCN_POOLS_MAX], tc[SCN_POOLS_MAX];
                stored_span_sums(s, busy, comp);
                trace_window_totals(sim_trace(s), w0, w1, np, tb, tc);
                for (int p = 0; p < np; p++)
                    ck_assert_msg(memcmp(&busy[p], &tb[p], sizeof(double)) == 0 && memcmp(&comp[p], &tc[p], sizeof(double)) == 0,
                                  "%s %s at %.6f s (version %d) pool %d: busy %.17g vs %.17g, compute %.17g vs %.17g", ex[e],
                                  sets[0], sim_secs(sim_now(s)), k->version, p, busy[p], tb[p], comp[p], tc[p]);
                checks++;
                early += k->version < 2 && busy[0] > 0;
            }
            ck_assert_msg(checks > 10 && early > 0, "%s %s: %d checks, %d in the warm-up with spans", ex[e], sets[0], checks, early);
            ck_assert_int_eq(sim_get_stats(s)->iterations_done, 4);
            sim_free(s);
            /* headless: the warm-up's spans do not all wait for it to end */
            sim *h = example_sim_kept(ex[e], sets, 3, false);
            const trace *t = sim_trace(h);
            ck_assert_msg(trace_nspans_waiting_peak(t) * 4 < trace_nspans_recorded(t), "%s %s: held %zu of %zu spans", ex[e],
                          sets[0], trace_nspans_waiting_peak(t), trace_nspans_recorded(t));
            sim_free(h);
        }
}
END_TEST

/* The Chrome trace writes a span's numbers by hand: the same digits as the
** printf formats it replaced, at the ends of every field's range. */
START_TEST(t_trace_digits_as_printf)
{
    sim *s = make_sim(NULL, 0);
    trace *t = sim_trace_mut(s);
    int step = -1, inst = -1;
    for (int k = 0; k < trace_ntracks(t); k++) {
        if (trace_track_at(t, k)->kind == TRK_STEP && step < 0) step = k;
        if (trace_track_at(t, k)->kind == TRK_INSTANCE && inst < 0) inst = k;
    }
    ck_assert(step >= 0 && inst >= 0);
    char *path = test_tmpfile(".json", "");
    fs_err err = {0, ""};
    chrome_writer *w = chrome_open(s, path, &err);
    ck_assert_msg(w != NULL, "chrome_open: %s", err.msg);
    static const sim_time times[] = {0, 1, 9, 10, 99, 100, 999, 1000, 1001, 123456789012345LL, 99999999999999999LL, -1500};
    static const int32_t ints[] = {0, -1, 1, 9, 10, 99, 100, 12345, INT32_MAX, INT32_MIN};
    char want[4096], line[1024];
    size_t nw = 0;
    fs_buf got;
    buf_init(&got);
    for (size_t a = 0; a < sizeof times / sizeof *times; a++)
        for (size_t b = 0; b < sizeof ints / sizeof *ints; b++) {
            int track = b % 2 ? step : inst;
            trace_phase ph = b % 3 ? PH_GENERATE : PH_TRAIN_FWD;
            sim_time t0 = times[a], t1 = times[(a + b) % (sizeof times / sizeof *times)];
            if (t1 < t0) t1 = t0 + times[b % 9];
            trace_span sp = {t0, t1, track, (uint8_t)ph, ints[b], ints[(b + 3) % 10], ints[(b + 5) % 10], ints[(b + 7) % 10]};
            trace_add_span(t, &sp);
            const trace_track *tk = trace_track_at(t, track);
            sim_time d = t1 - t0;
            int n = snprintf(line, sizeof line, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d"
                             ",\"ts\":%lld.%03lld,\"dur\":%lld.%03lld,\"args\":{\"iteration\":%d,\"version\":%d",
                             tk->kind == TRK_STEP ? trace_step_phase_name((trace_step_phase)ph) : trace_phase_name(ph),
                             tk->kind == TRK_STEP ? "step" : "device", tk->pool < 0 ? 0 : tk->pool + 1, track,
                             (long long)(t0 / 1000), (long long)(t0 % 1000), (long long)(d / 1000), (long long)(d % 1000),
                             sp.iter, sp.version);
            if (sp.mb >= 0) n += snprintf(line + n, sizeof line - (size_t)n, ",\"%s\":%d", ph == PH_GENERATE ? "batch" : "micro_batch", sp.mb);
            if (sp.tokens > 0) n += snprintf(line + n, sizeof line - (size_t)n, ",\"tokens\":%lld", (long long)sp.tokens);
            snprintf(line + n, sizeof line - (size_t)n, "}}");
            buf_puts(&got, line);
            buf_puts(&got, "\n");
            nw++;
        }
    ck_assert(chrome_close(w, &err));
    /* the spans are the file's last lines, one each, before the closing "]}" */
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    fs_buf file;
    buf_init(&file);
    while (fgets(want, sizeof want, f)) buf_puts(&file, want);
    fclose(f);
    unlink(path);
    free(path);
    ck_assert_uint_gt(file.len, got.len);
    /* strip the writer's ",\n" separators and the closing line */
    const char *tail = file.s + file.len - strlen("\n]}\n");
    ck_assert_str_eq(tail, "\n]}\n");
    size_t k = nw;
    const char *p = tail;
    while (k > 0 && p > file.s) { p--; if (*p == '\n') k--; }
    fs_buf mine;
    buf_init(&mine);
    for (const char *q = p + 1; q < tail; q++) {
        if (q[0] == ',' && q[1] == '\n') { buf_puts(&mine, "\n"); q++; }
        else buf_putc(&mine, *q);
    }
    buf_puts(&mine, "\n");
    size_t at = 0;
    while (mine.s[at] && mine.s[at] == got.s[at]) at++;
    size_t from = at > 60 ? at - 60 : 0;
    ck_assert_msg(mine.s[at] == 0 && got.s[at] == 0, "trace differs from printf at byte %zu: ...%.120s vs ...%.120s", at,
                  mine.s + from, got.s + from);
    buf_free(&mine);
    buf_free(&file);
    buf_free(&got);
    sim_free(s);
}
END_TEST

static Suite *suite_engine(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_determinism);
    tcase_add_test(tc, t_seed_changes_result);
    tcase_add_test(tc, t_advance_resume_equals_run);
    tcase_add_test(tc, t_spans_well_formed);
    tcase_add_test(tc, t_memory_ledger);
    tcase_add_test(tc, t_switch_order_and_peak);
    tcase_add_test(tc, t_zero_costs_time);
    tcase_add_test(tc, t_context_parallel);
    tcase_add_test(tc, t_overlap_shortens_training);
    tcase_add_test(tc, t_kv_bounds_the_batch);
    tcase_add_test(tc, t_paged_kv_preempts);
    tcase_add_test(tc, t_reserve_reproduces_before);
    tcase_add_test(tc, t_phase_order);
    tcase_add_test(tc, t_tokens_conserved);
    tcase_add_test(tc, t_infeasible);
    tcase_add_test(tc, t_more_devices_not_slower);
    tcase_add_test(tc, t_dispatch_uses_every_instance);
    tcase_add_test(tc, t_more_memory_not_slower);
    tcase_add_test(tc, t_inference_split);
    tcase_add_test(tc, t_straggler_factor);
    tcase_add_test(tc, t_ep_imbalance);
    tcase_add_test(tc, t_speculative_decoding);
    tcase_add_test(tc, t_headless_memory_bounded);
    tcase_add_test(tc, t_totals_equal_span_sums);
    tcase_add_test(tc, t_totals_during_warmup);
    tcase_add_test(tc, t_trace_digits_as_printf);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_engine)
