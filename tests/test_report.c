/*
** test_report.c — the report's table (src/report_fields.c): every row is
** well formed, the sweep/plan columns keep their layout with each column
** once, and a finished run's report holds the engine's counters as they
** stood, read back through the rows.
*/
#include "testutil.h"
#include "engine.h"
#include "report.h"
#include "report_fields.h"

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
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_report)
