/*
** test_report.c — the report's table (src/report_fields.c): every row is
** well formed, the sweep/plan columns keep their layout with each column
** once, and a finished run's report holds the engine's counters as they
** stood, read back through the rows.
*/
#include "testutil.h"
#include "engine.h"
#include "report.h"
#include "model.h"
#include "plan.h"
#include "report_fields.h"
#include "chrome.h"
#include "fwnames.h"
#include "jsonr.h"

#include <stdio.h>
#include <unistd.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const rfield *row_of(const char *json)
{
    for (int i = 0; i < REPORT_NFIELDS; i++)
        if (REPORT_FIELDS[i].json && !strcmp(REPORT_FIELDS[i].json, json)) return &REPORT_FIELDS[i];
    return NULL;
}

START_TEST(t_rows_well_formed)
{
    for (int i = 0; i < REPORT_NFIELDS; i++) {
        const rfield *f = &REPORT_FIELDS[i];
        const char *name = f->json ? f->json : f->column ? f->column : "?";
        ck_assert_msg(f->json || f->plugin || f->column, "row %d is nowhere", i);
        ck_assert_msg(f->doc && f->doc[0], "%s: no doc line", name);
        switch (f->kind) {
        case RV_NUM: case RV_INT: case RV_BOOL: ck_assert_msg(f->num != NULL, "%s: no number", name); break;
        case RV_STR: ck_assert_msg(f->str != NULL, "%s: no text", name); break;
        case RV_NAMED: ck_assert_msg(f->item != NULL, "%s: no items", name); break;
        case RV_CUSTOM: ck_assert_msg(f->json_write && f->json && !f->plugin && !f->column, "%s: a JSON-only row", name); break;
        }
        ck_assert_msg(!f->column_after || f->column, "%s: placed after a column but has none", name);
        for (int k = 0; k < i; k++) {
            const rfield *g = &REPORT_FIELDS[k];
            ck_assert_msg(!f->json || !g->json || strcmp(f->json, g->json), "JSON key %s twice", f->json);
            ck_assert_msg(!f->plugin || !g->plugin || strcmp(f->plugin, g->plugin), "plugin key %s twice", f->plugin);
            ck_assert_msg(!f->column || !g->column || strcmp(f->column, g->column), "column %s twice", f->column);
        }
    }
    /* a member's kind follows its C type */
    ck_assert_int_eq(row_of("events")->kind, RV_INT);
    ck_assert_int_eq(row_of("kv_cache.preemptions")->kind, RV_INT);
    ck_assert_int_eq(row_of("staleness.bound")->kind, RV_INT);
    ck_assert_int_eq(row_of("feasible")->kind, RV_BOOL);
    ck_assert_int_eq(row_of("tokens_generated")->kind, RV_NUM);
    ck_assert_int_eq(row_of("scenario")->kind, RV_STR);
}
END_TEST

typedef struct {
    char names[128][96];
    int  n;
} cols;

static void add_name(void *ud, const char *col, rvkind k, double v, const char *s)
{
    (void)k, (void)v, (void)s;
    cols *c = ud;
    ck_assert(c->n < 128);
    snprintf(c->names[c->n++], sizeof c->names[0], "%s", col);
}

/* The sweep and plan tables' layout, as their readers (and scripts over
** their CSV) have it. */
START_TEST(t_columns_layout)
{
    cols c = {.n = 0};
    report_fields_columns(NULL, add_name, &c);
    const char *want[128];
    int n = 0;
    const char *head[] = {"feasible", "reason", "throughput_tokens_per_s", "throughput_tokens_per_s_per_device",
                          "devices", "step_time_s"};
    for (size_t k = 0; k < sizeof head / sizeof *head; k++) want[n++] = head[k];
    char phase[STEP__COUNT][64];
    for (int k = 0; k < STEP__COUNT; k++) {
        snprintf(phase[k], sizeof phase[k], "%s_s", trace_step_phase_name((trace_step_phase)k));
        want[n++] = phase[k];
    }
    const char *tail[] = {"memory_peak_bytes", "memory_capacity_bytes", "host_memory_peak_bytes", "staleness_bound",
                          "staleness_max", "staleness_mean", "tokens_generated", "tokens_trained", "wasted_tokens",
                          "samples_trained", "iterations", "warmup", "events"};
    for (size_t k = 0; k < sizeof tail / sizeof *tail; k++) want[n++] = tail[k];
    ck_assert_int_eq(c.n, n);
    for (int k = 0; k < n; k++) ck_assert_msg(!strcmp(c.names[k], want[k]), "column %d: %s, want %s", k, c.names[k], want[k]);
    /* every row with a column gives it once (a COL_AFTER naming no column
    ** would drop its row) */
    int rows = 0;
    for (int i = 0; i < REPORT_NFIELDS; i++)
        if (REPORT_FIELDS[i].column) rows += REPORT_FIELDS[i].kind == RV_NAMED ? STEP__COUNT : 1;
    ck_assert_int_eq(rows, c.n);
}
END_TEST

/* A run's report: the engine's counters whole, read back through the rows;
** the derived rows from them. */
START_TEST(t_counters_through_rows)
{
    const char *sets[] = {"workload.iterations=3", "workload.warmup=1"};
    sim *s = test_example_new("qwen7b_h100x16.lua", sets, 2, 0);
    ck_assert(sim_run(s));
    report *r = malloc(sizeof *r);
    report_compute(s, r);
    const sim_stats *st = sim_get_stats(s);
    /* the copy is whole (arrays compared bytewise: they have no padding) */
    ck_assert(r->events == st->events && r->samples_trained == st->samples_trained && r->bound_max == st->bound_max);
    ck_assert(r->overflow.happened == st->overflow.happened && r->setup_wall_s == st->setup_wall_s);
    ck_assert(memcmp(r->lag_hist, st->lag_hist, sizeof st->lag_hist) == 0);
    ck_assert(memcmp(r->stats.step_phase_ns, st->step_phase_ns, sizeof st->step_phase_ns) == 0);
    ck_assert(st->events > 0 && st->tokens_generated > 0 && st->dq_train_in > 0);
    ck_assert(row_of("events")->num(r) == (double)st->events);
    ck_assert(row_of("tokens_generated")->num(r) == st->tokens_generated);
    ck_assert(row_of("distqueue.bytes_by_stage.queue_to_train")->num(r) == st->dq_train_in);
    ck_assert(row_of("staleness.max")->num(r) == st->lag_max);
    ck_assert(row_of("distqueue.aux_transfer_s_per_step")->num(r) == st->dq_aux_time_s / st->iterations_done);
    ck_assert(row_of("distqueue.padding_saving")->num(r) == 1 - st->dq_bytes_packed / st->dq_bytes_padded);
    ck_assert(row_of("distqueue.transfer_s_per_step")->num(r) == st->queue_time_s / st->iterations_done);
    ck_assert(row_of("feasible")->num(r) == 1);
    ck_assert_str_eq(row_of("scenario")->str(r), sim_scenario(s)->name);
    ck_assert(!row_of("infeasible_reason")->present(r));
    free(r);
    sim_free(s);
}
END_TEST

/* A figure over its capacity never reads as equal to it, in the report's
** formatter and so in every view that uses it. */
START_TEST(t_bytes_over_capacity)
{
    const double TiB = 1024.0 * 1024 * 1024 * 1024, GiB = 1024.0 * 1024 * 1024;
    char a[32];
    fmt_bytes_of(a, sizeof a, 1.027 * TiB, TiB);
    ck_assert_str_eq(a, "1.03 TiB");
    fmt_bytes_of(a, sizeof a, 1.0004 * TiB, TiB);
    ck_assert_str_eq(a, "1.0004 TiB");
    fmt_bytes_of(a, sizeof a, 0.99 * TiB, TiB);     /* under: as fmt_bytes */
    ck_assert_str_eq(a, "1013.8 GiB");
    fmt_bytes_of(a, sizeof a, 369.6 * GiB, 80 * GiB);
    ck_assert_str_eq(a, "369.6 GiB");
    fmt_bytes_of(a, sizeof a, 80.04 * GiB, 80 * GiB);
    ck_assert_str_eq(a, "80.04 GiB");
}
END_TEST

/* examples/does_not_fit.lua overflows the device and the host: the
** reason and the text name both, the host figure reads over capacity. */
START_TEST(t_every_overflow_named)
{
    sim *s = test_example_new("does_not_fit.lua", NULL, 0, 0);
    sim_run(s);
    report *r = malloc(sizeof *r);
    report_compute(s, r);
    ck_assert(!r->feasible);
    ck_assert(r->host_peak > r->host_capacity);
    ck_assert_msg(strstr(r->why, "device memory of actor") && strstr(r->why, "host memory of"), "%s", r->why);
    fs_buf b;
    buf_init(&b);
    report_text(s, r, &b, false);
    ck_assert_msg(strstr(b.s, "1.03 TiB of 1.0 TiB per node  OVER CAPACITY"), "%s", b.s);
    ck_assert(!strstr(b.s, "1.0 TiB of 1.0 TiB"));
    /* no headline throughput or step time for a plan that cannot run */
    ck_assert_msg(strstr(b.s, "Throughput   — (infeasible: not valid; ") && strstr(b.s, "Step time    — (infeasible"), "%s", b.s);
    ck_assert(r->throughput > 0);     /* the JSON keeps the figure, beside feasible: false */
    buf_free(&b);
    free(r);
    sim_free(s);
}
END_TEST

/* Whether text[0..n) is UTF-8 (RFC 3629), checked here on its own terms
** rather than with the writer's validator. */
static bool utf8_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!k || i + k > n) return false;
        uint32_t cp = k == 1 ? c : k == 2 ? c & 0x1F : k == 3 ? c & 0x0F : c & 0x07;
        for (size_t j = 1; j < k; j++) {
            if ((p[i + j] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (p[i + j] & 0x3F);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[k] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += k;
    }
    return true;
}

static char *slurp_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *t = malloc((size_t)len + 1);
    ck_assert_uint_eq(fread(t, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    t[len] = 0;
    *n = (size_t)len;
    return t;
}

/* A scenario named with bytes that are not UTF-8 (a lone continuation
** byte, an overlong form, a surrogate, a truncated sequence): its JSON report
** and its trace are UTF-8 and parse, and the name reads back with U+FFFD
** where the bad bytes were. */
START_TEST(t_invalid_utf8_name)
{
    const char *sets[] = {"name=bad\x80name\xc0\xaf\xed\xa0\x80\xe2\x82", "workload.iterations=3"};
    sim *s = test_example_new("qwen7b_h100x16.lua", sets, 2, 0);
    char *tpath = test_tmpfile(".json", "");
    fs_err err = {0, ""};
    chrome_writer *w = chrome_open(s, tpath, &err);
    ck_assert_msg(w != NULL, "chrome_open: %s", err.msg);
    report_steps *steps = report_steps_attach(s, chrome_sink(w));
    ck_assert(sim_run(s));
    report_steps_finish(steps, s);
    ck_assert_msg(chrome_close(w, &err), "chrome_close: %s", err.msg);
    report *r = malloc(sizeof *r);
    report_compute(s, r);
    fs_buf b;
    buf_init(&b);
    report_json_steps(s, r, steps, &b, true);
    size_t tn;
    char *ttext = slurp_file(tpath, &tn);
    const char *texts[2] = {b.s, ttext};
    size_t lens[2] = {b.len, tn};
    for (int k = 0; k < 2; k++) {
        ck_assert_msg(utf8_ok((const unsigned char *)texts[k], lens[k]), "%s is not UTF-8", k ? "trace" : "report");
        jv v;
        char why[256];
        ck_assert_msg(jsonr_parse(texts[k], lens[k], &v, why, sizeof why), "%s: %s", k ? "trace" : "report", why);
        const jv *o = k ? jv_get(&v, "otherData") : &v;
        ck_assert_ptr_nonnull(o);
        char name[128];
        ck_assert(jv_str(o, "scenario", name, sizeof name));
        ck_assert_msg(strncmp(name, "bad\xef\xbf\xbdname\xef\xbf\xbd", 13) == 0, "name read back as %s", name);
        ck_assert(utf8_ok((const unsigned char *)name, strlen(name)));
        const jv *fv = jv_get(o, "scenario_fields");
        ck_assert_ptr_nonnull(fv);
        ck_assert(jv_str(fv, "name", name, sizeof name));
        if (!k) {
            const jv *st = jv_get(&v, "steps");
            ck_assert_ptr_nonnull(st);
            ck_assert_int_eq(st->n, 3);
        }
        jv_free(&v);
    }
    unlink(tpath);
    free(tpath);
    free(ttext);
    buf_free(&b);
    free(r);
    report_steps_free(steps);
    sim_free(s);
}
END_TEST

/* The per-step series adds up: each step's phases tile its [start, end],
** and the framework keys read the phases the table names. */
START_TEST(t_steps_and_names)
{
    const char *sets[] = {"workload.iterations=4"};
    sim *s = test_example_new("qwen7b_h100x16.lua", sets, 1, 0);
    report_steps *steps = report_steps_attach(s, NULL);
    ck_assert(sim_run(s));
    report_steps_finish(steps, s);
    ck_assert_int_eq(report_steps_count(steps), 4);
    double prev_end = 0;
    for (int i = 0; i < 4; i++) {
        const report_step *x = report_steps_at(steps, i);
        double sum = 0;
        for (int k = 0; k < STEP__COUNT; k++) sum += x->phase_s[k];
        ck_assert_msg(fabs(sum - (x->end_s - x->start_s)) < 1e-6 * (x->end_s + 1), "step %d: %g vs %g", i, sum,
                      x->end_s - x->start_s);
        ck_assert(x->start_s >= prev_end - 1e-9);
        ck_assert(x->tokens > 0);
        prev_end = x->end_s;
    }
    report *r = malloc(sizeof *r);
    report_compute(s, r);
    ck_assert(r->mfu_train > 0 && r->mfu_train < 1);
    ck_assert(r->mfu_generate > 0 && r->mfu_generate < 1);
    fwn_active = fwn_parse("verl");
    ck_assert_int_eq(fwn_active, FWN_VERL);
    fs_buf b;
    buf_init(&b);
    report_json(s, r, &b, false);
    jv v;
    char why[256];
    ck_assert_msg(jsonr_parse(b.s, b.len, &v, why, sizeof why), "%s", why);
    const jv *fw = jv_get(&v, "framework");
    ck_assert_ptr_nonnull(fw);
    const jv *gen = jv_get(fw, "timing_s/gen"), *upd = jv_get(fw, "timing_s/update_weights");
    ck_assert(gen && upd);
    ck_assert(fabs(strtod(gen->text, NULL) - r->phase_s[STEP_GENERATE]) <= 1e-9 * r->phase_s[STEP_GENERATE]);
    ck_assert(fabs(strtod(upd->text, NULL) - r->phase_s[STEP_SWITCH] - r->phase_s[STEP_WEIGHT_SYNC]) < 1e-6);
    jv_free(&v);
    fwn_active = -1;
    ck_assert_int_eq(fwn_parse("nemo"), -1);
    buf_free(&b);
    free(r);
    report_steps_free(steps);
    sim_free(s);
}
END_TEST

/* Inference MFU counts the forwards the training pool runs in its inference
** phase: with the reference and reward models on pools of their own
** (OpenRLHF's groups, running beside generation) it counts the old
** log-probs alone, and cannot pass the prefill efficiency a forward is
** priced at (docs/model.md, section 6). */
START_TEST(t_mfu_inference_own_pools)
{
    sim *s = test_example_new("openrlhf_style_pools.lua", NULL, 0, 1);
    ck_assert(sim_run(s));
    report *r = malloc(sizeof *r);
    report_compute(s, r);
    const scn_scenario *sc = sim_scenario(s);
    ck_assert(sc->has_ref && sc->reward_is_model);
    ck_assert_msg(r->mfu_inference > 0 && r->mfu_inference <= sc->eff.prefill + 1e-9, "MFU inference %g, prefill %g",
                  r->mfu_inference, sc->eff.prefill);
    free(r);
    sim_free(s);
}
END_TEST

/* Generation's MFU on a pool of its own under one step of staleness: the
** rollout devices decode while the trainer trains, so the trainer's
** generate phase is near zero; the figure is over the rollout devices'
** own decode and prefill time, a share of every device in the window. */
START_TEST(t_mfu_generate_async_pools)
{
    const char *sets[] = {"plan.mode=separate", "plan.staleness=1"};
    sim *s = test_example_new("validation/verl_onestep_7b_h20.lua", sets, 2, 0);
    ck_assert(sim_run(s));
    report *r = malloc(sizeof *r);
    report_compute(s, r);
    const plan *pl = sim_plan(s);
    int rp = -1;
    for (int p = 0; p < pl->npools; p++)
        if (p != pl->train_pool && (pl->pools[p].roles & ROLE_ROLLOUT)) rp = p;
    ck_assert_int_ge(rp, 0);
    /* the trainer hardly waits: the old figure's denominator */
    ck_assert_msg(r->phase_s[STEP_GENERATE] < 0.5 * r->step_time_s, "generate %g of %g s",
                  r->phase_s[STEP_GENERATE], r->step_time_s);
    ck_assert_msg(r->mfu_generate > 0 && r->mfu_generate < 1, "MFU generate %g", r->mfu_generate);
    /* by hand: the response tokens' forward FLOPs a step over the rollout
    ** pool's peak × its compute device-seconds a step (its utilization) */
    const scn_scenario *sc = sim_scenario(s);
    int measured = r->stats.iterations_done - sc->work.warmup;
    double tok = r->stats.measured_tokens / measured;
    double seq = r->stats.tokens_trained / (double)r->stats.samples_trained;
    double resp = tok * (r->stats.tokens_trained_response / r->stats.tokens_trained);
    double dev_s = r->pools[rp].utilization * r->pools[rp].devices * r->step_time_s;
    ck_assert(r->pools[rp].utilization > 0 && r->pools[rp].utilization < 1);
    double want = mdl_fwd_flops(&sc->actor, resp, seq) / (plan_pool_device(sc, &pl->pools[rp])->peak_flops * dev_s);
    ck_assert_msg(fabs(r->mfu_generate - want) < 1e-9 * want, "MFU generate %.9g, by hand %.9g", r->mfu_generate, want);
    free(r);
    sim_free(s);
}
END_TEST

static Suite *suite_report(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_rows_well_formed);
    tcase_add_test(tc, t_columns_layout);
    tcase_add_test(tc, t_counters_through_rows);
    tcase_add_test(tc, t_bytes_over_capacity);
    tcase_add_test(tc, t_every_overflow_named);
    tcase_add_test(tc, t_invalid_utf8_name);
    tcase_add_test(tc, t_steps_and_names);
    tcase_add_test(tc, t_mfu_inference_own_pools);
    tcase_add_test(tc, t_mfu_generate_async_pools);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_report)
