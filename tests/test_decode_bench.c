/*
** test_decode_bench.c — the decode step's fixed cost against published
** serving benchmarks (docs/validation.md, "The decode step against serving
** benchmarks"; docs/model.md, section 5).
**
** Each row of examples/validation/decode/serving.csv is a measured decode
** timing of one engine on one model, device and TP degree; its case names
** the scenario beside it that carries them.  For each row fusync's own
** functions give the roofline of the step (mdl_decode_step with no fixed
** cost: weights and KV over HBM at efficiency.hbm, the TP all-reduces) and
** the kernel launches of mdl_decode_fixed; the residual, measured less
** both, is what the engine's CPU time a step must explain:
** t_step + B·t_seq.  The least-squares fit of those two over the vLLM rows
** is the vllm profile's (src/model.c); the test holds the profile to the
** fit and the fit's error per row to the figures docs/validation.md prints.
** FUSYNC_DECODE_TABLE=1 prints the table.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 64

typedef struct {
    char   cas[64], kind[16];
    double batch, input, output, measured_s;
    /* derived */
    double step_s;              /* the measured decode step */
    double roof_s, launch_s;    /* fusync's roofline and launches of it */
    double resid_s;             /* step − roofline − launches */
    bool   vllm;                /* a vLLM row: enters the fit */
    double cpu_coef[2];         /* the profile's CPU terms: 1, B */
    scn_scenario sc;
} bench_row;

static int load_rows(bench_row *rows)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/validation/decode/serving.csv", test_root());
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s", path);
    char line[512];
    int n = 0;
    bool header = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (!header) { header = true; continue; }
        ck_assert(n < MAX_ROWS);
        bench_row *r = &rows[n];
        memset(r, 0, sizeof *r);
        double ms;
        ck_assert_msg(sscanf(line, "%63[^,],%15[^,],%lf,%lf,%lf,%lf", r->cas, r->kind, &r->batch, &r->input,
                             &r->output, &ms) == 6, "bad row: %s", line);
        r->measured_s = ms * 1e-3;
        char scn[1024];
        snprintf(scn, sizeof scn, "%s/examples/validation/decode/%s.lua", test_root(), r->cas);
        fs_err err = {0, ""};
        ck_assert_msg(lscn_load(scn, NULL, 0, &r->sc, &err), "%s: %s", scn, err.msg);
        n++;
    }
    fclose(f);
    return n;
}

/* The decode step a row measured, and fusync's parts of it.  A latency row
** is one prefill of B·input tokens and output − 1 decode steps; a tpot row,
** at a concurrency of B with fixed lengths, carries the prefills of the B −
** 1 other requests over its output − 1 steps (each request is replaced as
** it ends, so B prefills a request's lifetime, one of them its own, before
** its first token); a step row is the step itself.  The decode context is
** the mean over the output: B·(input + output/2). */
static void derive(bench_row *r)
{
    const scn_scenario *s = &r->sc;
    const scn_rollout_layout *rl = &s->plan.rollout;
    scn_efficiency e = s->eff;
    e.decode_overhead_s = 0;
    e.decode_overhead_scale = 0;
    const scn_link *link = mdl_tier_link(&s->cluster, 0);
    int tp = rl->tp, ep = rl->ep > 0 ? rl->ep : 1;
    double B = r->batch, steps = r->output - 1;
    double ctx = B * (r->input + r->output / 2);
    mdl_step d = mdl_decode_step(&s->actor, &s->cluster.device, &e, link, tp, ep, B, ctx);
    r->roof_s = d.total_s;
    scn_efficiency one = e;
    one.decode_overhead_scale = 1;
    mdl_fixed fx = mdl_decode_fixed(&s->actor, &one, rl, link, tp, ep, B);
    r->launch_s = fx.launch_s;
    r->vllm = rl->engine == ENGINE_VLLM;
    r->cpu_coef[0] = 1;
    r->cpu_coef[1] = B;
    if (!strcmp(r->kind, "latency")) {
        double pf = mdl_prefill(&s->actor, &s->cluster.device, &e, rl, link, tp, ep, B * r->input, r->input).total_s;
        r->step_s = (r->measured_s - pf) / steps;
    } else if (!strcmp(r->kind, "tpot")) {
        double pf = mdl_prefill(&s->actor, &s->cluster.device, &e, rl, link, tp, ep, r->input, r->input).total_s;
        r->step_s = r->measured_s - (B - 1) * pf / steps;
    } else {
        ck_assert_msg(!strcmp(r->kind, "step"), "kind %s", r->kind);
        r->step_s = r->measured_s;
    }
    r->resid_s = r->step_s - r->roof_s - r->launch_s;
}

/* Ordinary least squares of resid = a + b·B over the vLLM rows. */
static void fit(const bench_row *rows, int n, double *a, double *b)
{
    double s1 = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        if (!rows[i].vllm) continue;
        double x = rows[i].batch, y = rows[i].resid_s;
        s1 += 1; sx += x; sxx += x * x; sy += y; sxy += x * y;
    }
    double det = s1 * sxx - sx * sx;
    ck_assert(det > 0);
    *b = (s1 * sxy - sx * sy) / det;
    *a = (sy - *b * sx) / s1;
}

/* The step the row's engine profile predicts: roofline, launches, CPU. */
static double predicted(const bench_row *r)
{
    const mdl_engine *g = mdl_engine_of(r->sc.plan.rollout.engine);
    return r->roof_s + r->launch_s + g->step_cpu_s + r->batch * g->seq_cpu_s;
}

/* The vllm profile's t_step and t_seq are the fit of the rows' residuals
** (to the 2 significant figures the profile keeps); the predicted step's
** error on each row stays within the bound docs/validation.md prints. */
START_TEST(t_decode_serving_fit)
{
    static bench_row rows[MAX_ROWS];
    int n = load_rows(rows);
    ck_assert_int_ge(n, 20);
    for (int i = 0; i < n; i++) derive(&rows[i]);
    double a, b;
    fit(rows, n, &a, &b);
    const mdl_engine *g = mdl_engine_of(ENGINE_VLLM);
    bool table = getenv("FUSYNC_DECODE_TABLE") != NULL;
    if (table) {
        printf("fit over the vLLM rows: t_step %.3f ms, t_seq %.2f us\n", a * 1e3, b * 1e6);
        printf("%-24s %-7s %4s %5s %5s %9s %9s %8s %8s %8s %8s %7s\n", "case", "kind", "B", "in", "out",
               "meas ms", "step ms", "roof ms", "launch", "resid", "pred ms", "err");
    }
    double worst = 0, sum = 0;
    int nv = 0;
    for (int i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        double p = predicted(r);
        double err = p / r->step_s - 1;
        if (table)
            printf("%-24s %-7s %4.0f %5.0f %5.0f %9.2f %9.3f %8.3f %8.3f %8.3f %8.3f %+6.1f%%\n", r->cas, r->kind,
                   r->batch, r->input, r->output, r->measured_s * 1e3, r->step_s * 1e3, r->roof_s * 1e3,
                   r->launch_s * 1e3, r->resid_s * 1e3, p * 1e3, err * 100);
        if (!r->vllm) continue;
        worst = fmax(worst, fabs(err));
        sum += fabs(err);
        nv++;
    }
    if (table) printf("vLLM rows: %d, mean |error| %.1f%%, max %.1f%%\n", nv, 100 * sum / nv, 100 * worst);
    /* the figures docs/validation.md and docs/model.md print */
    ck_assert_int_eq(nv, 28);
    ck_assert_msg(fabs(a * 1e3 - 2.489) < 0.0005, "fit t_step %.4f ms", a * 1e3);
    ck_assert_msg(fabs(b * 1e6 - 198.9) < 0.05, "fit t_seq %.2f us", b * 1e6);
    ck_assert_msg(fabs(100 * sum / nv - 20.4) < 0.05, "mean |error| %.2f%%", 100 * sum / nv);
    ck_assert_msg(fabs(100 * worst - 41.0) < 0.05, "max |error| %.2f%%", 100 * worst);
    ck_assert_msg(fabs(g->step_cpu_s - a) <= 0.05 * fabs(a) + 5e-6, "t_step %.4g s, fit %.4g s", g->step_cpu_s, a);
    ck_assert_msg(fabs(g->seq_cpu_s - b) <= 0.05 * fabs(b) + 0.2e-6, "t_seq %.4g s, fit %.4g s", g->seq_cpu_s, b);
}
END_TEST

static Suite *suite_decode_bench(void)
{
    Suite *s = suite_create("decode_bench");
    TCase *tc = tcase_create("decode_bench");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_decode_serving_fit);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_decode_bench)
