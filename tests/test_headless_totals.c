/*
** test_headless_totals.c — a headless run with no span sink computes its
** pipelines without drawing their spans whole (eng_train.c, the lean pass)
** and skips the pools' queues when nothing in them is due (trace.c): its
** running totals must stay those of the same run storing every span, bit
** for bit, at every point of the run (docs/performance.md, "Headless runs").
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"
#include "scenario.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sim *load(const char *name, const char *const *sets, int nsets, bool keep)
{
    return test_example_new(name, sets, nsets, keep);
}

/* Both runs advanced by the same events: the same clock, the same totals
** for any window asked, the same spans recorded and waiting. */
static void same_totals(const char *name, const char *const *sets, int nsets)
{
    sim *k = load(name, sets, nsets, true), *h = load(name, sets, nsets, false);
    ck_assert(trace_spans_read(sim_trace(k)));
    ck_assert(!trace_spans_read(sim_trace(h)));
    int checks = 0, pipelines = 0;
    while (!sim_done(k)) {
        sim_step_events(k, 89);
        sim_step_events(h, 89);
        ck_assert_int_eq(sim_now(k), sim_now(h));
        ck_assert_int_eq(sim_done(k), sim_done(h));
        const trace *tk = sim_trace(k), *th = sim_trace(h);
        ck_assert_uint_eq(trace_nspans_recorded(tk), trace_nspans_recorded(th));
        ck_assert_uint_eq(trace_nspans_waiting(tk), trace_nspans_waiting(th));
        pipelines = (int)sim_get_stats(h)->pipeline_ops > 0;
        const sim_stats *st = sim_get_stats(k);
        int np = sim_plan(k)->npools;
        /* the window as the report takes it, and one from 0 (a run that
        ** stops in its warm-up) */
        sim_time w1 = st->window_t1 > 0 ? st->window_t1 : sim_now(k);
        sim_time w0s[2] = {st->window_t0, 0};
        for (int w = 0; w < 2; w++) {
            double kb[SCN_POOLS_MAX], kc[SCN_POOLS_MAX], hb[SCN_POOLS_MAX], hc[SCN_POOLS_MAX];
            trace_window_totals(tk, w0s[w], w1, np, kb, kc);
            trace_window_totals(th, w0s[w], w1, np, hb, hc);
            for (int p = 0; p < np; p++)
                ck_assert_msg(memcmp(&kb[p], &hb[p], sizeof(double)) == 0 && memcmp(&kc[p], &hc[p], sizeof(double)) == 0,
                              "%s %s at %.6f s pool %d: busy %.17g vs %.17g, compute %.17g vs %.17g", name, sets[0],
                              sim_secs(sim_now(k)), p, kb[p], hb[p], kc[p], hc[p]);
        }
        checks++;
    }
    ck_assert(sim_done(h));
    ck_assert_msg(checks > 10 && pipelines, "%s %s: %d checks", name, sets[0], checks);
    ck_assert_uint_eq(trace_nspans_waiting_peak(sim_trace(k)), trace_nspans_waiting_peak(sim_trace(h)));
    sim_free(k);
    sim_free(h);
}

START_TEST(t_headless_totals_every_mode)
{
    static const char *const ex[] = {"qwen7b_h100x16.lua", "pangu718b_cm384.lua"};
    static const char *const modes[] = {"plan.mode=separate", "plan.mode=colocate", "plan.mode=full"};
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++)
        for (int m = 0; m < 3; m++)
            for (int st = 0; st < 2; st++) {
                const char *sets[] = {modes[m], st ? "plan.staleness=1" : "plan.staleness=0", "workload.warmup=2",
                                      "workload.iterations=4"};
                same_totals(ex[e], sets, 4);
            }
}
END_TEST

/* A critic (its own training pipeline, PH_CRITIC_TRAIN) and pipeline
** parallelism on the small example. */
START_TEST(t_headless_totals_critic_pp)
{
    const char *sets[] = {"plan.mode=separate", "models.critic=true", "workload.algorithm=ppo", "plan.train.pp=2",
                          "workload.warmup=1", "workload.iterations=3"};
    same_totals("qwen7b_h100x16.lua", sets, 6);
}
END_TEST

/* trace_add_runs_in gives the totals of trace_add_spans_in over the same
** spans with a computation phase: headless, and when the spans are stored
** (then it stores them whole).  A clock moves on; the window's start is
** unknown, then settled; the spans end before it, at it and after it; a
** pool's tracks stand for the same devices or not. */
START_TEST(t_runs_equal_spans)
{
    trace *tr[3] = {trace_new(), trace_new(), trace_new()};
    for (int k = 0; k < 3; k++) {
        trace_track a = {"stage 0", TRK_STAGE, 0, 0, 8, -1}, b = {"stage 1", TRK_STAGE, 0, 8, 8, -1},
                    e = {"stage 2", TRK_STAGE, 0, 16, 4, -1}, h = {"host", TRK_HOSTLINK, 0, 0, 2, -1},
                    c = {"aux", TRK_AUX, 1, 16, 3, -1};
        trace_add_track(tr[k], &a);
        trace_add_track(tr[k], &b);
        trace_add_track(tr[k], &e);     /* the same pool, other devices */
        trace_add_track(tr[k], &h);
        trace_add_track(tr[k], &c);
        trace_keep(tr[k], k == 0);
    }
    uint64_t x = 12345;
    size_t total = 0;
    for (int step = 0; step < 400; step++) {
        sim_time now = (sim_time)step * 1000;
        sim_time w0 = step < 150 ? -1 : 150000, open = step < 380 ? now : -1, lo = step < 150 ? now - 2000 : -1;
        trace_run runs[160];
        trace_span spans[160];
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int n = (int)((x >> 33) % 160);   /* past the room a queue's tail is given at once */
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            sim_time t0 = now - 3000 + (sim_time)(x >> 40) % 6000, t1 = t0 + (sim_time)(x >> 20) % 2500;
            int32_t track = (int32_t)((x >> 8) % 6) - (i == 7);   /* also -1 and one past the tracks */
            runs[i] = (trace_run){t0, t1, track};
            spans[i] = (trace_span){t0, t1, track, PH_TRAIN_1F1B, step, 0, -1, 0};
        }
        trace_add_runs_in(tr[0], runs, (size_t)n, w0, open, lo);
        trace_add_runs_in(tr[1], runs, (size_t)n, w0, open, lo);
        trace_add_spans_in(tr[2], spans, (size_t)n, w0, open, lo);
        total += (size_t)n;
        for (int k = 1; k < 3; k++) {
            ck_assert_uint_eq(trace_nspans_recorded(tr[k]), total);
            ck_assert_uint_eq(trace_nspans_waiting(tr[k]), trace_nspans_waiting(tr[0]));
        }
        sim_time ws[3] = {0, 150000, 200000};
        for (int w = 0; w < 3; w++) {
            double b[3][2], c[3][2];
            for (int k = 0; k < 3; k++) trace_window_totals(tr[k], ws[w], now + 500, 2, b[k], c[k]);
            for (int k = 1; k < 3; k++)
                for (int p = 0; p < 2; p++)
                    ck_assert_msg(memcmp(&b[k][p], &b[0][p], sizeof(double)) == 0 && memcmp(&c[k][p], &c[0][p], sizeof(double)) == 0,
                                  "step %d window %d trace %d pool %d: %.17g vs %.17g", step, w, k, p, b[k][p], b[0][p]);
        }
    }
    double b[2], c[2];
    trace_window_totals(tr[0], 150000, 400000, 2, b, c);
    ck_assert_msg(b[0] > 0 && b[1] > 0 && b[0] == c[0], "%g %g %g", b[0], b[1], c[0]);
    ck_assert_uint_eq(trace_nspans(tr[0]), total);
    ck_assert_uint_eq(trace_nspans(tr[1]), 0);
    for (int k = 0; k < 3; k++) trace_free(tr[k]);
}
END_TEST

/* A sink that keeps the spans it is handed, one by one or in batches. */
typedef struct {
    trace_span *v;
    size_t      n, cap;
    size_t      batches;
} span_log;

static void log_span(void *ud, const trace *t, const trace_span *sp)
{
    (void)t;
    span_log *l = ud;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        ck_assert_ptr_nonnull(l->v);
    }
    l->v[l->n++] = *sp;
}

static void log_spans(void *ud, const trace *t, const trace_span *sp, size_t n)
{
    ((span_log *)ud)->batches++;
    for (size_t i = 0; i < n; i++) log_span(ud, t, &sp[i]);
}

static void log_counter(void *ud, const trace *t, const trace_counter *c) { (void)ud, (void)t, (void)c; }
static void log_instant(void *ud, const trace *t, const trace_instant *i) { (void)ud, (void)t, (void)i; }
static void log_window(void *ud, const trace *t, const trace_window *w) { (void)ud, (void)t, (void)w; }

/* A headless run whose spans only a sink reads (the Chrome trace writer's
** case) draws its pipelines by the lean pass, each run whole
** (eng_train.c, rec_draw): the sink must be handed the very spans, field
** for field and in the same order, that the same run stores when it keeps
** them (drawn op by op), whether it takes batches or one span at a time. */
static void same_spans(const char *name, const char *const *sets, int nsets)
{
    for (int batched = 0; batched < 2; batched++) {
        sim *k = load(name, sets, nsets, true), *h = load(name, sets, nsets, false);
        span_log l = {NULL, 0, 0, 0};
        trace_sink sk = {log_span, log_counter, log_instant, log_window, &l, NULL, batched ? log_spans : NULL};
        trace_set_sink(sim_trace_mut(h), &sk);
        ck_assert(trace_spans_streamed(sim_trace(h)));
        ck_assert(!trace_spans_streamed(sim_trace(k)));
        ck_assert(sim_run(k));
        ck_assert(sim_run(h));
        ck_assert(sim_get_stats(h)->pipeline_ops > 0);
        const trace *tk = sim_trace(k);
        const trace_span *ks = trace_spans(tk);
        ck_assert_uint_eq(trace_nspans_recorded(sim_trace(h)), trace_nspans(tk));
        ck_assert_msg(l.n == trace_nspans(tk), "%s %s: the sink saw %zu spans, the stored run has %zu", name, sets[0], l.n,
                      trace_nspans(tk));
        ck_assert(!batched || l.batches > 0);
        for (size_t i = 0; i < l.n; i++) {
            const trace_span *a = &ks[i], *b = &l.v[i];
            ck_assert_msg(a->t0 == b->t0 && a->t1 == b->t1 && a->track == b->track && a->phase == b->phase &&
                              a->iter == b->iter && a->version == b->version && a->mb == b->mb && a->tokens == b->tokens,
                          "%s %s: span %zu stored {%lld %lld track %d %s iter %d v%d mb %d tok %d}, streamed "
                          "{%lld %lld track %d %s iter %d v%d mb %d tok %d}",
                          name, sets[0], i, (long long)a->t0, (long long)a->t1, a->track, trace_phase_name((trace_phase)a->phase),
                          a->iter, a->version, a->mb, a->tokens, (long long)b->t0, (long long)b->t1, b->track,
                          trace_phase_name((trace_phase)b->phase), b->iter, b->version, b->mb, b->tokens);
        }
        free(l.v);
        sim_free(k);
        sim_free(h);
    }
}

START_TEST(t_sink_spans_every_mode)
{
    static const char *const ex[] = {"qwen7b_h100x16.lua", "pangu718b_cm384.lua"};
    static const char *const modes[] = {"plan.mode=separate", "plan.mode=colocate", "plan.mode=full"};
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++)
        for (int m = 0; m < 3; m++) {
            const char *sets[] = {modes[m], "plan.staleness=1", "workload.warmup=1", "workload.iterations=3"};
            same_spans(ex[e], sets, 4);
        }
    /* a critic (PH_CRITIC_TRAIN both ways), pipeline stages, more
    ** micro-batches than stages and fewer */
    const char *critic[] = {"plan.mode=separate", "models.critic=true", "workload.algorithm=ppo", "plan.train.pp=2",
                            "workload.warmup=1", "workload.iterations=3"};
    same_spans("qwen7b_h100x16.lua", critic, 6);
    const char *deep[] = {"plan.mode=separate", "plan.train.pp=4", "workload.iterations=2"};
    same_spans("qwen7b_h100x16.lua", deep, 3);
    /* two micro-batches on four stages: the first stages' warm-up is cut at M */
    const char *few[] = {"plan.mode=separate", "plan.train.pp=4", "plan.train.micro_batch=128", "workload.iterations=2"};
    same_spans("qwen7b_h100x16.lua", few, 4);
}
END_TEST

/* The spans waiting, and the most that ever waited, against a model of
** the queue's rule: a span waits when spans wait before it or its share is
** not known yet (the window's start unsettled, or its end past the clock);
** the front leaves as the clock, or the bound the window starts at or
** after, passes its ends.  The most is taken only when some leave
** (trace.c), so it is asked after every span.  The totals at the end are
** the stored spans' sums over the window, in order, bit for bit. */
START_TEST(t_waiting_counts)
{
    for (int keep = 0; keep < 2; keep++) {
        trace *tr = trace_new();
        trace_track a = {"inst 0", TRK_INSTANCE, 0, 0, 8, -1}, h = {"host", TRK_HOSTLINK, 0, 0, 2, -1};
        trace_add_track(tr, &a);
        trace_add_track(tr, &h);
        trace_keep(tr, keep);
        enum { NSPANS = 6000 };
        static trace_span all[NSPANS];
        static sim_time q[NSPANS];      /* the model's queue: the waiting spans' ends */
        size_t qh = 0, qn = 0, peak = 0, n = 0;
        sim_time last_w0 = -1, last_open = -1, last_lo = -1;
        sim_time W0 = -1;
        uint64_t x = 987654321;
        sim_time now = 0;
        for (int i = 0; i < NSPANS; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            now += 100 + (sim_time)(x >> 56);
            /* warm-up (the start known to come no earlier than lo), then
            ** settled, then the window's end set: nothing more is known */
            const int phase = i < 2000 ? 0 : i < 5500 ? 1 : 2;
            if (i == 2000) W0 = now;    /* at or after every bound before */
            const sim_time w0 = phase ? W0 : -1, open = phase < 2 ? now : -1, lo = phase ? -1 : now - 700;
            sim_time t0 = now - (sim_time)(x >> 40) % 900, t1 = t0 + (sim_time)(x >> 20) % 1400;
            const bool long_one = i == 1000 || i == 3000;
            /* a long span now and then: the spans after it pile up, more
            ** each time, and leave at once */
            if (long_one) t1 += i * 60;
            const int track = !long_one && (x >> 8) % 5 == 0;    /* a host link's spans count nowhere */
            const trace_span sp = {t0, t1, track, (x >> 12) % 3 ? PH_GENERATE : PH_QUEUE, 0, 0, -1, 0};
            trace_add_span_in(tr, &sp, w0, open, lo);
            all[n++] = sp;
            if (track == 0) {
                const bool settled = w0 >= 0 && open >= 0, early = !settled && lo >= 0 && open >= 0;
                if (settled && (w0 != last_w0 || open != last_open)) {
                    while (qh < qn && q[qh] <= open) qh++;
                    last_w0 = w0;
                    last_open = open;
                }
                if (early && lo != last_lo) {
                    while (qh < qn && q[qh] <= lo) qh++;
                    last_lo = lo;
                }
                if (!(qh == qn && ((settled && t1 <= open) || (early && t1 <= lo)))) q[qn++] = t1;
            }
            if (qn - qh > peak) peak = qn - qh;
            ck_assert_uint_eq(trace_nspans_waiting(tr), qn - qh);
            ck_assert_uint_eq(trace_nspans_waiting_peak(tr), peak);
        }
        ck_assert_msg(peak > 400 && qn - qh > 300, "peak %zu, waiting %zu", peak, qn - qh);
        double b[1], c[1], sb = 0, sc = 0;
        trace_window_totals(tr, W0, now, 1, b, c);
        for (size_t i = 0; i < n; i++) {
            if (all[i].track != 0) continue;
            sim_time lo_ = all[i].t0 > W0 ? all[i].t0 : W0, hi = all[i].t1 < now ? all[i].t1 : now;
            if (hi <= lo_) continue;
            double d = sim_secs(hi - lo_) * 8;
            sb += d;
            if (all[i].phase == PH_GENERATE) sc += d;
        }
        ck_assert_msg(memcmp(&b[0], &sb, sizeof sb) == 0 && memcmp(&c[0], &sc, sizeof sc) == 0, "busy %.17g vs %.17g, compute %.17g vs %.17g",
                      b[0], sb, c[0], sc);
        ck_assert(sb > 0 && sc > 0 && sc < sb);
        trace_free(tr);
    }
}
END_TEST

static Suite *suite_headless_totals(void)
{
    Suite *s = suite_create("headless_totals");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_headless_totals_every_mode);
    tcase_add_test(tc, t_headless_totals_critic_pp);
    tcase_add_test(tc, t_runs_equal_spans);
    tcase_add_test(tc, t_sink_spans_every_mode);
    tcase_add_test(tc, t_waiting_counts);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_headless_totals)
