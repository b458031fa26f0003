/*
** test_workload.c — length distributions as papers and users give them:
** a lognormal by its mean, an empirical distribution from a file of lengths.
*/
#include "testutil.h"
#include "dist.h"
#include "engine.h"
#include "lengths.h"
#include "lua_scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A long-tailed data set: lognormal-like lengths from a fixed generator. */
static char *make_lengths(size_t n, double *mean, double *median)
{
    rng_state r;
    rng_seed(&r, 7);
    double *v = malloc(n * sizeof *v);
    size_t cap = n * 16 + 64, k = 0;
    char *text = malloc(cap);
    k += (size_t)snprintf(text + k, cap - k, "step,response_length,reward\n");
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double x = floor(700 * exp(0.9 * rng_normal(&r)) + 0.5);
        if (x < 1) x = 1;
        if (x > 16384) x = 16384;
        v[i] = x;
        sum += x;
        k += (size_t)snprintf(text + k, cap - k, "%zu,%.0f,0.5\n", i, x);
    }
    *mean = sum / (double)n;
    for (size_t i = 1; i < n; i++)     /* insertion sort is fine for a test */
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) { double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    *median = v[n / 2];
    free(v);
    return text;
}

START_TEST(empirical_keeps_mean_and_median)
{
    double mean, median;
    char *text = make_lengths(20000, &mean, &median);
    scn_dist d;
    fs_err err = {0, ""};
    ck_assert_msg(lengths_parse(text, strlen(text), "l.csv", "response_length", &d, &err), "%s", err.msg);
    free(text);
    ck_assert_int_eq(d.kind, DIST_HIST);
    ck_assert_int_le(d.nbins, SCN_HIST_MAX);
    double m = dist_mean(&d, 0);
    ck_assert_msg(fabs(m - mean) / mean < 0.02, "mean %g against the data's %g", m, mean);
    /* median: draw and sort */
    rng_state r;
    rng_seed(&r, 99);
    int below = 0;
    for (int i = 0; i < 20000; i++) below += dist_sample(&d, &r, 0) <= median;
    ck_assert_msg(fabs(below / 20000.0 - 0.5) < 0.02, "%.3f of draws at or below the data's median", below / 20000.0);
}
END_TEST

START_TEST(empirical_plain_file_and_errors)
{
    scn_dist d;
    fs_err err = {0, ""};
    const char *plain = "# lengths\n100\n200\n300\n\n400\n";
    ck_assert_msg(lengths_parse(plain, strlen(plain), "p.txt", NULL, &d, &err), "%s", err.msg);
    ck_assert(fabs(dist_mean(&d, 0) - 250) < 10);
    static const struct { const char *text, *column, *want; } bad[] = {
        {"a,b\n1,2\n", "c", "f:1: no column 'c' in the header"},
        {"x\n10\nten\n", NULL, "f:3: not a length in tokens"},
        {"x\n10\n", NULL, "f: 1 length; a distribution needs at least 2"},
        {"10\n0\n", NULL, "f:2: not a length"},
        {"10\n20\n", "x", "f:1: a column 'x' was asked for but the file has no header line"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(!lengths_parse(bad[i].text, strlen(bad[i].text), "f", bad[i].column, &d, &err),
                      "accepted: %s", bad[i].text);
        ck_assert_msg(strstr(err.msg, bad[i].want), "\"%s\" lacks \"%s\"", err.msg, bad[i].want);
        ck_assert_int_eq(err.code, 2);
    }
    const char nul[] = "10\n\0\n20\n";
    ck_assert(!lengths_parse(nul, sizeof nul - 1, "f", NULL, &d, &err));
    ck_assert_msg(strstr(err.msg, "zero byte"), "%s", err.msg);
    ck_assert(!lengths_read("/dev/zero", NULL, &d, &err));
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
}
END_TEST

/* RFC 4180 through the CSV reader (src/csvr.c): a quoted comma does not
** split a cell, a text column beside the lengths is not read, a column is
** chosen by its name or its number, and a quoted line break keeps the
** line numbers of messages true. */
START_TEST(empirical_rfc4180)
{
    scn_dist d;
    fs_err err = {0, ""};
    const char *quoted = "run,\"note, with a comma\",response_length\n"
                         "a,\"x, y\",100\n"
                         "\"b, c, d\",\"say \"\"hi\"\"\",300\n";
    ck_assert_msg(lengths_parse(quoted, strlen(quoted), "q.csv", "response_length", &d, &err), "%s", err.msg);
    ck_assert_double_eq_tol(dist_mean(&d, 0), 200, 0.5);
    /* the same column by its number; the header is recognised as one */
    ck_assert_msg(lengths_parse(quoted, strlen(quoted), "q.csv", "3", &d, &err), "%s", err.msg);
    ck_assert_double_eq_tol(dist_mean(&d, 0), 200, 0.5);
    /* a text column in every row, the lengths second, no header */
    const char *text = "# exported\nrun-1,500\nrun-2,700\nrun-3,900\n";
    ck_assert_msg(lengths_parse(text, strlen(text), "t.csv", "2", &d, &err), "%s", err.msg);
    ck_assert_double_eq_tol(dist_mean(&d, 0), 700, 0.5);
    /* the first column is text: its first line reads as a header, the
    ** next is named as no length */
    ck_assert(!lengths_parse(text, strlen(text), "t.csv", NULL, &d, &err));
    ck_assert_msg(strstr(err.msg, "t.csv:3: not a length in tokens"), "%s", err.msg);
    /* a quoted line break: the bad row after it is on line 4 */
    const char *nl = "note,len\n\"two\nlines\",100\nok,zero\n";
    ck_assert(!lengths_parse(nl, strlen(nl), "n.csv", "len", &d, &err));
    ck_assert_msg(strstr(err.msg, "n.csv:4: not a length in tokens"), "%s", err.msg);
    ck_assert(!lengths_parse(text, strlen(text), "t.csv", "5", &d, &err));
    ck_assert_msg(strstr(err.msg, "t.csv:2: no column 5"), "%s", err.msg);
}
END_TEST

/* A scenario reads a lengths file beside it, and a lognormal by its mean. */
START_TEST(scenario_from_file_and_by_mean)
{
    char dir[512];
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "wl"));
    char csv[600], scn[600];
    snprintf(csv, sizeof csv, "%s/lengths.csv", dir);
    snprintf(scn, sizeof scn, "%s/s.lua", dir);
    FILE *f = fopen(csv, "w");
    /* a wandb-style export: a quoted run name with a comma, the lengths second */
    fputs("\"run, seed\",response_length\n\"a, 1\",500\n\"b, 2\",1500\n\"c, 3\",1000\n", f);
    fclose(f);
    f = fopen(scn, "w");
    fputs("return { cluster = { device = 'h100' }, models = { actor = 'qwen2_5_7b' },\n"
          "  workload = { response_len = fusync.dist.from_file('lengths.csv', 2),\n"
          "               prompt_len = fusync.dist.lognormal{ mean = 1000, sigma = 0.5 } } }\n", f);
    fclose(f);
    scn_scenario s;
    fs_err err = {0, ""};
    bool ok = lscn_load(scn, NULL, 0, &s, &err);
    unlink(csv);
    unlink(scn);
    rmdir(dir);
    ck_assert_msg(ok, "%s", err.msg);
    ck_assert_int_eq(s.work.response_len.kind, DIST_HIST);
    ck_assert(fabs(dist_mean(&s.work.response_len, 0) - 1000) < 30);
    ck_assert_int_eq(s.work.prompt_len.kind, DIST_LOGNORMAL);
    ck_assert(fabs(s.work.prompt_len.a - 1000 * exp(-0.125)) < 1e-9);
    double m = dist_mean(&s.work.prompt_len, 0);
    ck_assert_msg(fabs(m - 1000) / 1000 < 0.02, "lognormal by mean 1000: mean %g", m);
}
END_TEST

/* Response lengths that drift: step t draws from the distribution scaled by
** (1 + g)^t, then the caps (docs/model.md, section 4, "Workload lengths"). */
static sim *drift_sim(const char *resp, double g, int max_response, int iterations)
{
    char lua[1024];
    snprintf(lua, sizeof lua,
             "local f = fusync\n"
             "return { cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
             "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
             "  workload = { prompts_per_step = 64, samples_per_prompt = 16, minibatches = 1,\n"
             "    prompt_len = f.dist.fixed(100), response_len = %s, max_response = %d,\n"
             "    response_growth = %g, iterations = %d, warmup = 0, seed = 3 },\n"
             "  plan = { mode = 'full', train = { tp = 2 }, rollout = { tp = 1 } } }\n",
             resp, max_response, g, iterations);
    sim *s = test_sim_text(lua, NULL, 0);
    return s;
}

START_TEST(response_lengths_drift)
{
    const int N = 64 * 16;
    double sum, mbmax;
    /* fixed lengths: exactly round(1000 * 1.1^t), capped by max_response */
    sim *s = drift_sim("f.dist.fixed(1000)", 0.1, 1500, 6);
    for (int t = 0; t < 6; t++) {
        sim_step_lengths(s, t, &sum, &mbmax);
        double r = floor(1000 * pow(1.1, t) + 0.5);
        if (r > 1500) r = 1500;
        ck_assert_msg(fabs(sum - N * (100 + r)) < 0.5, "step %d: %.0f tokens, expected %.0f", t, sum, N * (100 + r));
    }
    sim_free(s);
    /* a lognormal's mean grows by the same factor; responses shrink with g < 0 */
    const double gs[] = {0.05, -0.05};
    for (int k = 0; k < 2; k++) {
        s = drift_sim("f.dist.lognormal{median = 800, sigma = 0.5}", gs[k], 100000, 6);
        double first, last;
        sim_step_lengths(s, 0, &first, &mbmax);
        sim_step_lengths(s, 5, &last, &mbmax);
        double ratio = (last / N - 100) / (first / N - 100), want = pow(1 + gs[k], 5);
        ck_assert_msg(fabs(ratio / want - 1) < 0.06, "g %.2f: mean grew %.3fx over 5 steps, expected %.3fx", gs[k],
                      ratio, want);
        sim_free(s);
    }
    /* g = 0 draws exactly what the unscaled sampler draws */
    rng_state r;
    scn_dist d = {0};
    d.kind = DIST_LOGNORMAL;
    d.a = 800;
    d.b = 0.5;
    rng_seed(&r, 9);
    rng_state r2 = r;
    for (int i = 0; i < 1000; i++) ck_assert_int_eq(dist_sample(&d, &r, 4096), dist_sample_scaled(&d, &r2, 4096, 1.0));
}
END_TEST

/* A small workload (16 samples a step) in a mode, a bound and iterations. */
static sim *small_sim(const char *mode, int staleness, int iterations)
{
    char lua[1024];
    snprintf(lua, sizeof lua,
             "local f = fusync\n"
             "return { cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
             "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
             "  workload = { prompts_per_step = 4, samples_per_prompt = 4, minibatches = 2,\n"
             "    prompt_len = f.dist.uniform(50, 150), response_len = f.dist.lognormal{median = 200, sigma = 0.8},\n"
             "    max_response = 1024, iterations = %d, warmup = 0, seed = 5 },\n"
             "  plan = { mode = '%s', staleness = %d, train = { tp = 2 }, rollout = { tp = 1 } } }\n",
             iterations, mode, staleness);
    sim *s = test_sim_text(lua, NULL, 0);
    return s;
}

/* The engine holds the samples of the batches alive, not of every step: its
** sample storage after 10,000 iterations is what it is after 100, within the
** ring the bound sizes ((s + 2) batches, rounded up to a power of two); and
** the lengths a batch is drawn with when released are those previewed before
** the run (one generator, drawn in batch order). */
START_TEST(samples_bounded_in_iterations)
{
    const char *modes[] = {"full", "separate"};
    const int N = 16;
    for (int m = 0; m < 2; m++)
        for (int st = 0; st <= 2; st += 2) {
            int64_t slots[2];
            const int iters[2] = {100, 10000};
            for (int k = 0; k < 2; k++) {
                sim *s = small_sim(modes[m], st, iters[k]);
                double pre_sum[8], pre_max[8], sum, max;
                for (int b = 0; b < 8; b++) sim_step_lengths(s, b * (iters[k] / 8), &pre_sum[b], &pre_max[b]);
                ck_assert_msg(sim_run(s), "%s s=%d: %s", modes[m], st, sim_error(s) ? sim_error(s)->msg : "");
                ck_assert_int_eq(sim_get_stats(s)->samples_trained, (int64_t)N * iters[k]);
                for (int b = 0; b < 8; b++) {
                    sim_step_lengths(s, b * (iters[k] / 8), &sum, &max);
                    ck_assert_msg(sum == pre_sum[b] && max == pre_max[b], "%s s=%d, batch %d: drawn %g/%g, previewed %g/%g",
                                  modes[m], st, b * (iters[k] / 8), sum, max, pre_sum[b], pre_max[b]);
                }
                slots[k] = sim_sample_slots(s);
                sim_free(s);
            }
            int64_t ring = 1;
            while (ring < (int64_t)N * (st + 2)) ring *= 2;
            ck_assert_msg(slots[1] == slots[0] && slots[1] <= 2 * ring, "%s s=%d: %lld sample slots after 10000 steps, %lld after 100",
                          modes[m], st, (long long)slots[1], (long long)slots[0]);
        }
    /* memory no longer stops a run of more samples than a 32-bit id numbers:
    ** the engine refuses it by name */
    sim *s = small_sim("full", 0, 100);
    scn_scenario sc = *sim_scenario(s);
    sim_free(s);
    sc.work.prompts_per_step = 4000000;
    sc.work.iterations = 200;
    fs_err err = {0, ""};
    ck_assert(sim_new(&sc, &err) == NULL);
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, "workload: 3200000000 samples in the run") != NULL, "%s", err.msg);
}
END_TEST

/* A cluster of plain nodes: cluster.nodes sets the flat shape. */
START_TEST(cluster_of_nodes)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/llama70b_h100x64.lua", test_root());
    const char *sets[] = {"cluster.nodes_per_supernode=1", "cluster.nodes=8"};
    scn_scenario s;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(path, sets, 2, &s, &err), "%s", err.msg);
    ck_assert_int_eq(scn_total_devices(&s.cluster), 64);
    ck_assert_int_eq(s.cluster.nodes_per_supernode, 8);
    const char *bad[] = {"cluster.nodes=4"};
    ck_assert(!lscn_load(path, bad, 1, &s, &err));
    ck_assert_msg(strstr(err.msg, "cluster.nodes: give nodes for a cluster without supernodes"), "%s", err.msg);
    const char *bad2[] = {"cluster.nodes_per_supernode=1", "cluster.nodes=8", "cluster.supernodes=2"};
    ck_assert(!lscn_load(path, bad2, 3, &s, &err));
}
END_TEST

static Suite *workload_suite(void)
{
    Suite *s = suite_create("workload");
    TCase *tc = tcase_create("lengths");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, empirical_keeps_mean_and_median);
    tcase_add_test(tc, empirical_plain_file_and_errors);
    tcase_add_test(tc, empirical_rfc4180);
    tcase_add_test(tc, scenario_from_file_and_by_mean);
    tcase_add_test(tc, cluster_of_nodes);
    tcase_add_test(tc, response_lengths_drift);
    tcase_add_test(tc, samples_bounded_in_iterations);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(workload_suite)
