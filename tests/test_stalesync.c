/*
** test_stalesync.c — bounded staleness, partial rollout and DistQueue:
** invariants over many seeds and settings, and hand-computed figures.
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 8 H100s; mode and pools from the sets.  Long-tailed responses. */
static const char *lua_text =
    "local f = fusync\n"
    "return { name = 'stale',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 8, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 200, sigma = 1.0, cap = 3000},\n"
    "    max_response = 3000, iterations = 6, warmup = 1, seed = 1 },\n"
    "  plan = { mode = 'full', rollout_fraction = 0.5,\n"
    "    train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 8 } },\n"
    "}\n";

static sim *make(const char *const *sets, int n)
{
    sim *s = test_sim_text(lua_text, sets, n);
    return s;
}

static char *json_without_wall(sim *s)
{
    report r;
    report_compute(s, &r);
    r.sim_wall_s = 0;
    r.sim_loop_wall_s = 0;
    fs_buf b;
    buf_init(&b);
    report_json(s, &r, &b, false);
    return b.s;
}

START_TEST(t_invariants_many_seeds)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full"};
    const char *stales[] = {"plan.staleness=0", "plan.staleness=1", "plan.staleness=2", "plan.staleness=3"};
    const char *parts[] = {"plan.partial_rollout=1", "plan.partial_rollout=0.75", "plan.partial_rollout=0.5"};
    const char *upd[] = {"plan.on_update=continue", "plan.on_update=restart"};
    const char *onst[] = {"plan.on_stale=wait", "plan.on_stale=discard"};
    int runs = 0;
    for (int seed = 1; seed <= 3; seed++)
        for (int m = 0; m < 2; m++)
            for (int k = 0; k < 4; k++)
                for (int p = 0; p < 3; p++)
                    for (int u = 0; u < 2; u++) {
                        char sd[32];
                        snprintf(sd, sizeof sd, "workload.seed=%d", seed);
                        const char *sets[6] = {modes[m], stales[k], parts[p], upd[u], onst[(seed + p) % 2], sd};
                        sim *s = make(sets, 6);
                        ck_assert_msg(sim_run(s), "run failed: %s", sim_error(s) ? sim_error(s)->msg : "?");
                        const sim_stats *st = sim_get_stats(s);
                        /* no trained sample staler than the bound, ever */
                        ck_assert_int_le(st->lag_max, k);
                        for (int l = k + 1; l <= 64; l++) ck_assert_int_eq(st->lag_hist[l], 0);
                        /* every step trained exactly N samples: none lost, none twice */
                        ck_assert_int_eq(st->samples_trained, 6 * 32);
                        int64_t h = 0;
                        for (int l = 0; l <= 64; l++) h += st->lag_hist[l];
                        ck_assert_int_eq(h, st->samples_trained);
                        /* tokens conserved */
                        double rhs = st->tokens_trained_response + st->tokens_in_flight + st->tokens_wasted;
                        ck_assert_msg(fabs(st->tokens_generated - rhs) < 0.5, "generated %.0f vs %.0f",
                                      st->tokens_generated, rhs);
                        /* versions published in order */
                        const trace *t = sim_trace(s);
                        int last = 0;
                        for (size_t i = 0; i < trace_ninstants(t); i++) {
                            const trace_instant *in = &trace_instants(t)[i];
                            if (in->kind != INST_VERSION) continue;
                            ck_assert_int_eq(in->version, last + 1);
                            last = in->version;
                        }
                        ck_assert_int_eq(last, 6);
                        /* every staleness window admits [t - s, t] */
                        for (size_t i = 0; i < trace_nwindows(t); i++) {
                            const trace_window *w = &trace_windows(t)[i];
                            ck_assert_int_le(w->lag_max, k);
                            ck_assert_int_eq(w->vhi, w->iter);
                        }
                        sim_free(s);
                        runs++;
                    }
    ck_assert_int_eq(runs, 3 * 2 * 4 * 3 * 2);
}
END_TEST

START_TEST(t_s0_is_synchronous)
{
    /* with s = 0 the partial-rollout threshold and update policy cannot matter */
    const char *a[] = {"plan.staleness=0"};
    const char *b[] = {"plan.staleness=0", "plan.partial_rollout=0.5", "plan.on_update=restart"};
    for (int m = 0; m < 2; m++) {
        const char *mode = m ? "plan.mode=separate" : "plan.mode=full";
        const char *sa[2] = {a[0], mode};
        const char *sb[4] = {b[0], b[1], b[2], mode};
        sim *x = make(sa, 2), *y = make(sb, 4);
        sim_run(x);
        sim_run(y);
        char *jx = json_without_wall(x), *jy = json_without_wall(y);
        ck_assert_str_eq(jx, jy);
        ck_assert_int_eq(sim_get_stats(x)->lag_max, 0);
        ck_assert_int_eq(sim_get_stats(x)->samples_mixed, 0);      /* no update while generating */
        ck_assert(sim_get_stats(x)->tokens_wasted == 0);
        free(jx);
        free(jy);
        sim_free(x);
        sim_free(y);
    }
}
END_TEST

START_TEST(t_partial_rollout)
{
    /* threshold 1.0 on a co-located pool: nothing carries over, all lags 0 */
    const char *one[] = {"plan.staleness=1", "plan.partial_rollout=1"};
    sim *s = make(one, 2);
    sim_run(s);
    ck_assert_int_eq(sim_get_stats(s)->lag_max, 0);
    sim_free(s);
    /* 0.5: long-tail samples are carried and trained one version later */
    const char *half[] = {"plan.staleness=1", "plan.partial_rollout=0.5"};
    s = make(half, 2);
    sim_run(s);
    const sim_stats *st = sim_get_stats(s);
    ck_assert_int_eq(st->lag_max, 1);
    ck_assert(st->lag_hist[1] > 0);
    /* carried samples resume on the newer weights: decoded across an update */
    ck_assert(st->samples_mixed > 0 && st->samples_mixed <= st->samples_trained);
    sim_free(s);
}
END_TEST

START_TEST(t_stalesync_faster)
{
    /* separated pools: one-step-off overlap makes steps shorter */
    const char *sync[] = {"plan.mode=separate", "plan.staleness=0"};
    const char *async[] = {"plan.mode=separate", "plan.staleness=1"};
    sim *a = make(sync, 2), *b = make(async, 2);
    sim_run(a);
    sim_run(b);
    report ra, rb;
    report_compute(a, &ra);
    report_compute(b, &rb);
    ck_assert_msg(rb.throughput > ra.throughput * 1.05, "sync %.0f, s=1 %.0f", ra.throughput, rb.throughput);
    sim_free(a);
    sim_free(b);
}
END_TEST

/* A hook lowers the bound mid-run (docs/model.md, section 4).  Samples
** started under the old bound can then never be trained; with on_stale =
** "wait" the controller used to wait for them for ever and the run stalled.
** Now they are generated again: the run trains every step, no trained lag
** after the change exceeds the new bound, and the report logs the change
** and the whole histogram. */
static bool lower_at_3(void *ud, sim *s, int step, fs_err *err)
{
    (void)ud;
    (void)err;
    if (step == 3) sim_set_staleness(s, 0);
    return true;
}

START_TEST(t_lowered_bound_does_not_stall)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full", "plan.mode=colocate"};
    for (int m = 0; m < 3; m++) {
        const char *sets[] = {modes[m], "plan.staleness=2", "plan.on_stale=wait", "plan.partial_rollout=0.5",
                              "plan.aux_devices=2"};
        sim *s = make(sets, m == 2 ? 5 : 4);
        sim_hooks h = {lower_at_3, NULL, NULL, NULL};
        sim_set_hooks(s, &h);
        sim_run(s);
        ck_assert_msg(sim_error(s) == NULL, "%s: %s", modes[m], sim_error(s) ? sim_error(s)->msg : "");
        const sim_stats *st = sim_get_stats(s);
        ck_assert_int_eq(st->samples_trained, 6 * 32);
        double lhs = st->tokens_generated, rhs = st->tokens_trained_response + st->tokens_in_flight + st->tokens_wasted;
        ck_assert_msg(fabs(lhs - rhs) < 0.5, "%s: generated %.0f != trained + in flight + wasted %.0f", modes[m], lhs, rhs);
        ck_assert_int_eq(st->bound_changes, 1);
        ck_assert_int_eq(st->bound_step[0], 3);
        ck_assert_int_eq(st->bound_value[0], 0);
        ck_assert_int_eq(st->bound_max, 2);
        /* steps after 3 train only fresh samples (the first mini-batch of
        ** step 3 is taken before its hook runs) */
        const trace *t = sim_trace(s);
        for (size_t i = 0; i < trace_nwindows(t); i++) {
            const trace_window *w = &trace_windows(t)[i];
            if (w->iter > 3) ck_assert_msg(w->lag_max == 0, "%s: step %d trained lag %d", modes[m], w->iter, w->lag_max);
        }
        report r;
        report_compute(s, &r);
        ck_assert(r.feasible);
        ck_assert_int_eq(r.bound_final, 0);
        ck_assert_int_eq(r.lag_top, 2);
        int64_t n = 0;
        for (int k = 0; k <= r.lag_top; k++) n += r.lag_hist[k];
        ck_assert_int_eq(n, 6 * 32);
        char *j = json_without_wall(s);
        char hist[128];
        snprintf(hist, sizeof hist, "\"histogram\":[%lld,%lld,%lld]", (long long)r.lag_hist[0], (long long)r.lag_hist[1],
                 (long long)r.lag_hist[2]);
        ck_assert_msg(strstr(j, "\"bound_changes\":[{\"step\":3,\"bound\":0}]") && strstr(j, hist), "%s", j);
        free(j);
        sim_free(s);
    }
}
END_TEST

/* on_rollout_progress: what each batch's calls saw */
typedef struct {
    int    n[8];
    double first[8], last[8];
    bool   rising;
    double cut_at;              /* > 0: cut a batch at this share */
} progress_log;

static bool log_progress(void *ud, sim *s, int step, double frac, bool *cut, fs_err *err)
{
    (void)s;
    (void)err;
    progress_log *g = ud;
    if (step < 0 || step >= 8) return true;
    if (g->n[step] == 0) g->first[step] = frac;
    else if (frac <= g->last[step]) g->rising = false;
    g->last[step] = frac;
    g->n[step]++;
    if (g->cut_at > 0 && frac >= g->cut_at) *cut = true;
    return true;
}

/* The hook is called while a batch generates, not only once a step is over:
** a call before 50% and one at 100% for every batch, shares rising, at most
** one call per mark (18 to 90%, then 10 in the tail). */
START_TEST(t_rollout_progress_while_generating)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full"};
    const char *stales[] = {"plan.staleness=0", "plan.staleness=1"};
    for (int m = 0; m < 2; m++)
    for (int k = 0; k < 2; k++)
    for (int c = 0; c < 2; c++) {
        const char *sets[] = {modes[m], stales[k]};
        sim *s = make(sets, 2);
        progress_log g = {.rising = true, .cut_at = c ? 0.6 : 0};
        sim_hooks h = {NULL, NULL, log_progress, &g};
        sim_set_hooks(s, &h);
        sim_run(s);
        ck_assert_msg(sim_error(s) == NULL, "%s", sim_error(s) ? sim_error(s)->msg : "");
        ck_assert_int_eq(sim_get_stats(s)->samples_trained, 6 * 32);
        ck_assert_msg(g.rising, "%s %s: a batch's share fell between calls", modes[m], stales[k]);
        for (int b = 0; b < 6; b++) {
            ck_assert_msg(g.n[b] >= 2 && g.first[b] < 0.5, "%s %s: batch %d: %d calls, first at %.3f",
                          modes[m], stales[k], b, g.n[b], g.first[b]);
            ck_assert_msg(g.n[b] <= 28, "%s %s: batch %d: %d calls", modes[m], stales[k], b, g.n[b]);
            /* without a cut every batch is seen done; with one, a batch may be taken first */
            if (!c) ck_assert_msg(g.last[b] == 1.0, "%s %s: batch %d: last call at %.3f", modes[m], stales[k], b, g.last[b]);
        }
        sim_free(s);
    }
}
END_TEST

/* A stale share f (verl's staleness_threshold, docs/model.md section 4):
** samples that started on versions <= v number at most (v + 1 + f)·N, lags
** stay within one version, every step trains, and the share is used. */
START_TEST(t_stale_share_counts_samples)
{
    const char *modes[] = {"plan.mode=separate", "plan.mode=full"};
    const char *shares[] = {"plan.stale_share=0.25", "plan.stale_share=0.5"};
    const double f[] = {0.25, 0.5};
    const char *upd[] = {"plan.on_update=continue", "plan.on_update=restart"};
    const char *onst[] = {"plan.on_stale=wait", "plan.on_stale=discard"};
    const int N = 32;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < 2; k++)
            for (int u = 0; u < 2; u++)
                for (int o = 0; o < 2; o++) {
                    const char *sets[6] = {modes[m], "plan.staleness=0", shares[k], upd[u], onst[o],
                                           "plan.partial_rollout=0.25"};
                    sim *s = make(sets, 6);
                    ck_assert_msg(sim_run(s), "run failed: %s", sim_error(s) ? sim_error(s)->msg : "?");
                    const sim_stats *st = sim_get_stats(s);
                    ck_assert_int_eq(st->samples_trained, 6 * N);
                    ck_assert_int_le(st->lag_max, 1);
                    ck_assert_int_eq(sim_get_staleness(s), 0);
                    const trace *t = sim_trace(s);
                    int64_t started[16] = {0};
                    for (size_t i = 0; i < trace_nvgroups(t); i++) {
                        const trace_vgroup *g = &trace_vgroups(t)[i];
                        ck_assert_int_lt(g->version, 16);
                        started[g->version] += g->samples;
                    }
                    int64_t cum = 0;
                    bool ahead = false;
                    for (int v = 0; v < 16; v++) {
                        cum += started[v];
                        ck_assert_msg(cum <= (int64_t)(v + 1) * N + (int64_t)floor(f[k] * N),
                                      "mode %d share %.2f: %lld samples started by version %d", m, f[k],
                                      (long long)cum, v);
                        if (cum > (int64_t)(v + 1) * N) ahead = true;
                    }
                    /* separate pools generate while the trainer trains: the share is used */
                    if (m == 0) ck_assert(ahead && st->lag_hist[1] > 0);
                    sim_free(s);
                }
}
END_TEST

START_TEST(t_distqueue_load_factor)
{
    /* TP2 PP2 on 4 training devices (separate): one reader per TP×PP group */
    const char *sets[] = {"plan.mode=separate"};
    sim *s = make(sets, 1);
    sim_run(s);
    report r;
    report_compute(s, &r);
    ck_assert(fabs(r.dq_load_factor - 1.0 / (2 * 2)) < 1e-12);
    sim_free(s);
}
END_TEST

START_TEST(t_distqueue_padding)
{
    /* Fixed lengths: padded equals packed. */
    const char *text =
        "local f = fusync\n"
        "return { name = 'dq',\n"
        "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
        "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
        "  workload = { prompts_per_step = 2, samples_per_prompt = 2, minibatches = 1,\n"
        "    prompt_len = f.dist.fixed(100), response_len = f.dist.fixed(500),\n"
        "    max_response = 3000, iterations = 2, warmup = 0 },\n"
        "  plan = { mode = 'full', train = { tp = 2, pp = 2 }, rollout = { tp = 1, max_seqs = 8 } } }\n";
    char *path = test_tmpfile(".lua", text);
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(path, NULL, 0, &sc, &err), "%s", err.msg);
    unlink(path);
    free(path);
    sim *s = sim_new(&sc, &err);
    sim_run(s);
    report r;
    report_compute(s, &r);
    /* 2 steps × 4 samples × 600 tokens × 16 bytes, padded = packed */
    ck_assert(fabs(r.dq_bytes_packed - 2 * 4 * 600 * 16.0) < 1e-6);
    ck_assert(fabs(r.dq_bytes_padded - r.dq_bytes_packed) < 1e-6);
    sim_free(s);
    /* uniform 1..k responses: padded = n·max per mini-batch; the saving is 1 − Σ/(n·max) */
    double sum = 0, mbmax = 0;
    sc.work.response_len.kind = DIST_UNIFORM;
    sc.work.response_len.a = 10;
    sc.work.response_len.b = 1000;
    s = sim_new(&sc, &err);
    sim_run(s);
    report_compute(s, &r);
    for (int st = 0; st < 2; st++) {
        double a, b;
        sim_step_lengths(s, st, &a, &b);
        sum += a;
        mbmax += b * 4;
    }
    ck_assert(fabs(r.dq_bytes_packed - sum * 16) < 1e-6);
    ck_assert(fabs(r.dq_bytes_padded - mbmax * 16) < 1e-6);
    ck_assert(r.dq_bytes_padded > r.dq_bytes_packed);
    sim_free(s);
}
END_TEST

static Suite *suite_stalesync(void)
{
    Suite *s = suite_create("stalesync");
    TCase *tc = tcase_create("stalesync");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_invariants_many_seeds);
    tcase_add_test(tc, t_s0_is_synchronous);
    tcase_add_test(tc, t_partial_rollout);
    tcase_add_test(tc, t_stalesync_faster);
    tcase_add_test(tc, t_lowered_bound_does_not_stall);
    tcase_add_test(tc, t_rollout_progress_while_generating);
    tcase_add_test(tc, t_stale_share_counts_samples);
    tcase_add_test(tc, t_distqueue_load_factor);
    tcase_add_test(tc, t_distqueue_padding);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_stalesync)
