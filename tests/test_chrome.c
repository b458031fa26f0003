/*
** test_chrome.c — the Chrome trace writer (src/chrome.c): the spans
** formatted by hand on the writer's thread give the bytes of the printf
** formats on the run's thread, for whole runs; a write that fails reports it
** and leaves no file.
*/
#include "testutil.h"
#include "chrome.h"
#include "engine.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole file, malloc'd; *n its length. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    ck_assert_int_ge(len, 0);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    text[len] = 0;
    *n = (size_t)len;
    return text;
}

/* examples/NAME run headless (the spans streamed, not stored), or storing
** its spans (keep), with its trace written the way `how` says; the trace's
** bytes. */
static char *trace_of(const char *name, const char *const *sets, int nsets, chrome_span_path how, bool keep, size_t *n)
{
    sim *s = test_example_new(name, sets, nsets, keep);
    char *path = test_tmpfile(".json", "");
    ck_assert_ptr_nonnull(path);
    fs_err err = {0, ""};
    chrome_spans = how;
    chrome_writer *w = chrome_open(s, path, &err);
    chrome_spans = CHROME_SPANS_THREAD;
    ck_assert_msg(w != NULL, "chrome_open: %s", err.msg);
    ck_assert(sim_run(s));
    ck_assert_msg(chrome_close(w, &err), "chrome_close: %s", err.msg);
    char *text = slurp(path, n);
    unlink(path);
    free(path);
    sim_free(s);
    return text;
}

/* Three ways of writing, and a fourth run that stores its spans: its
** pipelines are drawn op by op, where a headless run's are drawn by the
** lean pass, each run whole (eng_train.c, rec_draw). */
static void same_three_ways(const char *name, const char *const *sets, int nsets, size_t at_least)
{
    size_t n[4];
    char *t[4];
    static const chrome_span_path how[4] = {CHROME_SPANS_PRINTF, CHROME_SPANS_INLINE, CHROME_SPANS_THREAD, CHROME_SPANS_THREAD};
    for (int k = 0; k < 4; k++) t[k] = trace_of(name, sets, nsets, how[k], k == 3, &n[k]);
    ck_assert_msg(n[0] >= at_least, "%s: a trace of %zu bytes, fewer than the %zu wanted", name, n[0], at_least);
    ck_assert_msg(n[0] > 4 && memcmp(t[0] + n[0] - 4, "\n]}\n", 4) == 0, "%s: the trace does not end", name);
    for (int k = 1; k < 4; k++) {
        size_t i = 0;
        while (i < n[0] && i < n[k] && t[0][i] == t[k][i]) i++;
        ck_assert_msg(n[k] == n[0] && i == n[0], "%s, %s: %zu bytes against printf's %zu, first difference at byte %zu: ...%.80s",
                      name, k == 1 ? "by hand" : k == 2 ? "on the writer's thread" : "storing the spans", n[k], n[0], i, t[k] + (i > 40 ? i - 40 : 0));
    }
    for (int k = 0; k < 4; k++) free(t[k]);
}

/* More blocks of records than go round between the threads (about 6 MiB of
** them, 4 MiB in the ring) and every kind of event: spans, memory counters,
** instants, staleness windows, version groups. */
START_TEST(t_chrome_same_bytes_every_way)
{
    const char *sets[] = {"workload.iterations=150"};
    same_three_ways("qwen7b_h100x16.lua", sets, 1, 20u << 20);
    const char *modes[] = {"plan.mode=colocate", "plan.staleness=2"};
    same_three_ways("qwen7b_h100x16.lua", modes, 2, 100000);
    const char *pp[] = {"plan.mode=separate", "plan.train.pp=2", "workload.iterations=4"};
    same_three_ways("qwen7b_h100x16.lua", pp, 3, 100000);
}
END_TEST

/* The writer must fail the trace when the disk does: a device that is always
** full. */
START_TEST(t_chrome_full_device)
{
    if (access("/dev/full", W_OK) != 0) return;
    sim *s = test_example_new("qwen7b_h100x16.lua", NULL, 0, 0);
    fs_err err = {0, ""};
    chrome_writer *w = chrome_open(s, "/dev/full", &err);
    ck_assert_msg(w != NULL, "chrome_open: %s", err.msg);
    ck_assert(sim_run(s));
    ck_assert(!chrome_close(w, &err));
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, "/dev/full: writing the trace failed: ") && strstr(err.msg, strerror(ENOSPC)) &&
                  strstr(err.msg, "(no trace written)"), "%s", err.msg);
    sim_free(s);
}
END_TEST

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* The folder of the trace removed during the run: the rename fails, the
** error says so, nothing is left; and an aborted trace leaves nothing. */
START_TEST(t_chrome_folder_vanishes)
{
    char dir[512], path[600];
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "chrome"));
    snprintf(path, sizeof path, "%s/t.json", dir);
    sim *s = test_example_new("qwen7b_h100x16.lua", NULL, 0, 0);
    fs_err err = {0, ""};
    chrome_writer *w = chrome_open(s, path, &err);
    ck_assert_msg(w != NULL, "chrome_open: %s", err.msg);
    ck_assert_int_eq(entries(dir), 1);          /* the temporary file */
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    char tmp[1200] = "";
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "t.json.tmp.", 11) == 0) snprintf(tmp, sizeof tmp, "%s/%s", dir, e->d_name);
    closedir(d);
    ck_assert_msg(*tmp, "no temporary file in %s", dir);
    ck_assert_int_eq(unlink(tmp), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    ck_assert(sim_run(s));
    ck_assert(!chrome_close(w, &err));
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, "t.json: writing the trace failed: ") && strstr(err.msg, "(no trace written)"), "%s",
                  err.msg);
    struct stat st;
    ck_assert_int_ne(stat(path, &st), 0);
    ck_assert_int_ne(stat(dir, &st), 0);
    sim_free(s);

    /* given up half way: the partial file goes */
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "chrome"));
    snprintf(path, sizeof path, "%s/t.json", dir);
    s = test_example_new("qwen7b_h100x16.lua", NULL, 0, 0);
    w = chrome_open(s, path, &err);
    ck_assert_msg(w != NULL, "chrome_open: %s", err.msg);
    ck_assert(sim_step_events(s, 2000));      /* not over yet */
    chrome_abort(w);
    ck_assert_int_eq(entries(dir), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    sim_free(s);
}
END_TEST

/* A decimal "123.456" (microseconds with nanosecond digits) as whole
** nanoseconds, read exactly: no floating point between the text and the
** comparison. */
static long long ns_of(const char *p)
{
    long long us = 0, frac = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') us = us * 10 + (*p++ - '0');
    if (*p == '.') for (p++; *p >= '0' && *p <= '9'; p++, digits++) if (digits < 3) frac = frac * 10 + (*p - '0');
    for (; digits < 3; digits++) frac *= 10;
    return us * 1000 + frac;
}

typedef struct { int pid, tid; long long t0, t1; } xev;

static int xev_cmp(const void *a, const void *b)
{
    const xev *x = a, *y = b;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    if (x->t0 != y->t0) return x->t0 < y->t0 ? -1 : 1;
    return x->t1 > y->t1 ? -1 : x->t1 < y->t1;      /* the longer first: it holds the other */
}

/* The complete events of one track nest, as Perfetto and chrome://tracing
** need to stack them: two of one (pid, tid) are apart or one holds the
** other, compared in integer nanoseconds.  Returns how many do not. */
static int overlaps(const char *text, int *nevents)
{
    size_t cap = 1024, n = 0;
    xev *v = malloc(cap * sizeof *v);
    for (const char *p = text; (p = strstr(p, "\"ph\":\"X\"")); p++) {
        const char *eol = strchr(p, '\n');
        const char *pid = strstr(p, "\"pid\":"), *tid = strstr(p, "\"tid\":"), *ts = strstr(p, "\"ts\":"),
                   *dur = strstr(p, "\"dur\":");
        ck_assert_msg(pid && tid && ts && dur && (!eol || (pid < eol && tid < eol && ts < eol && dur < eol)),
                      "an X event without pid, tid, ts and dur");
        if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        v[n].pid = atoi(pid + 6);
        v[n].tid = atoi(tid + 6);
        v[n].t0 = ns_of(ts + 5);
        v[n].t1 = v[n].t0 + ns_of(dur + 6);
        n++;
    }
    qsort(v, n, sizeof *v, xev_cmp);
    int bad = 0;
    long long stack[64];
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (v[i].pid != v[i - 1].pid || v[i].tid != v[i - 1].tid)) depth = 0;
        while (depth > 0 && stack[depth - 1] <= v[i].t0) depth--;
        if (depth > 0 && v[i].t1 > stack[depth - 1]) bad++;
        else if (depth < 64) stack[depth++] = v[i].t1;
    }
    free(v);
    *nevents = (int)n;
    return bad;
}

START_TEST(t_chrome_slices_nest)
{
    static const char *const sep[] = {"plan.mode=separate"};
    static const char *const stale[] = {"plan.mode=separate", "plan.staleness=2", "plan.partial_rollout=0.8"};
    static const char *const colo[] = {"plan.mode=colocate", "plan.staleness=1", "plan.partial_rollout=0.6"};
    /* small instances admit often: weight syncs land during prefills, which
    ** run to their end before the instance takes the weights */
    static const char *const busy[] = {"plan.mode=separate", "plan.staleness=2", "plan.partial_rollout=0.6",
                                       "plan.rollout.max_seqs=8", "plan.rollout.tp=1", "workload.iterations=6",
                                       "workload.seed=1"};
    struct { const char *name; const char *const *sets; int nsets; } runs[] = {
        {"qwen7b_h100x16.lua", busy, 7},
        {"qwen7b_h100x16.lua", sep, 1},
        {"qwen7b_h100x16.lua", stale, 3},       /* StaleSync, separate pools */
        {"qwen7b_h100x16.lua", colo, 3},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        size_t n;
        char *text = trace_of(runs[i].name, runs[i].sets, runs[i].nsets, CHROME_SPANS_THREAD, false, &n);
        int nev = 0, bad = overlaps(text, &nev);
        ck_assert_msg(nev > 100, "%s: only %d slices", runs[i].name, nev);
        ck_assert_msg(bad == 0, "%s run %zu: %d slices cross another on their track", runs[i].name, i, bad);
        free(text);
    }
    /* the checker sees a crossing */
    const char *crossed = "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1.000,\"dur\":2.000}\n"
                          "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":2.999,\"dur\":0.002}\n";
    int nev = 0;
    ck_assert_int_eq(overlaps(crossed, &nev), 1);
    const char *nested = "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1.000,\"dur\":2.000}\n"
                         "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":2.998,\"dur\":0.002}\n"
                         "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3.000,\"dur\":1}\n";
    ck_assert_int_eq(overlaps(nested, &nev), 0);
}
END_TEST

/* Is there a weight_sync slice on (pid, tid) holding time t? */
static bool in_sync_slice(const char *text, int pid, int tid, long long t)
{
    for (const char *p = text; (p = strstr(p, "{\"name\":\"weight_sync\",\"cat\":\"device\",\"ph\":\"X\"")); p++) {
        const char *pp = strstr(p, "\"pid\":"), *tp = strstr(p, "\"tid\":"), *ts = strstr(p, "\"ts\":"),
                   *dur = strstr(p, "\"dur\":");
        if (atoi(pp + 6) != pid || atoi(tp + 6) != tid) continue;
        long long t0 = ns_of(ts + 5), t1 = t0 + ns_of(dur + 6);
        if (t0 <= t && t <= t1) return true;
    }
    return false;
}

/* Separate pools: each weight sync draws one arrow per receiving rollout
** instance, from the training pool's track to the instance's weight_sync
** slice; each start has its end, and both sit inside a weight_sync slice. */
START_TEST(t_chrome_sync_flows)
{
    static const char *const sep[] = {"plan.mode=separate", "workload.iterations=4"};
    size_t n;
    char *text = trace_of("qwen7b_h100x16.lua", sep, 2, CHROME_SPANS_THREAD, false, &n);
    int starts = 0, ends = 0;
    for (const char *p = text; (p = strstr(p, "\"cat\":\"weight_sync\",\"ph\":\"s\"")); p++) {
        int id = atoi(strstr(p, "\"id\":") + 5), pid = atoi(strstr(p, "\"pid\":") + 6), tid = atoi(strstr(p, "\"tid\":") + 6);
        long long t = ns_of(strstr(p, "\"ts\":") + 5);
        ck_assert_msg(in_sync_slice(text, pid, tid, t), "flow %d starts outside a weight_sync slice", id);
        char want[64];
        snprintf(want, sizeof want, "\"ph\":\"f\",\"bp\":\"e\",\"id\":%d,", id);
        const char *f = strstr(text, want);
        ck_assert_msg(f != NULL, "flow %d has no end", id);
        int fpid = atoi(strstr(f, "\"pid\":") + 6), ftid = atoi(strstr(f, "\"tid\":") + 6);
        ck_assert_msg(fpid != pid, "flow %d ends in its own pool", id);
        ck_assert_msg(in_sync_slice(text, fpid, ftid, ns_of(strstr(f, "\"ts\":") + 5)), "flow %d ends outside a weight_sync slice", id);
        starts++;
    }
    for (const char *p = text; (p = strstr(p, "\"ph\":\"f\",\"bp\":\"e\"")); p++) ends++;
    ck_assert_msg(starts > 0 && starts == ends, "%d flow starts, %d ends", starts, ends);
    free(text);
    /* co-located: no weight sync between pools, no arrows of that kind */
    static const char *const colo[] = {"plan.mode=colocate", "workload.iterations=3"};
    text = trace_of("qwen7b_h100x16.lua", colo, 2, CHROME_SPANS_THREAD, false, &n);
    ck_assert_ptr_null(strstr(text, "\"cat\":\"weight_sync\",\"ph\":\"s\""));
    free(text);
}
END_TEST

/* Is there a generate slice on (pid, tid) holding time t? */
static bool in_generate(const char *text, int pid, int tid, long long t)
{
    for (const char *p = text; (p = strstr(p, "{\"name\":\"generate\",\"cat\":\"device\",\"ph\":\"X\"")); p++) {
        if (atoi(strstr(p, "\"pid\":") + 6) != pid || atoi(strstr(p, "\"tid\":") + 6) != tid) continue;
        long long t0 = ns_of(strstr(p, "\"ts\":") + 5), t1 = t0 + ns_of(strstr(p, "\"dur\":") + 6);
        if (t0 <= t && t <= t1) return true;
    }
    return false;
}

/* Every batch the training pool takes draws an arrow from the generate
** slice that finished its last sample to the training pool, later; one per
** batch taken (a step takes one, or one per chunk). */
START_TEST(t_chrome_batch_flows)
{
    static const char *const sep[] = {"plan.mode=separate", "workload.iterations=4"};
    static const char *const full[] = {"workload.iterations=4"};
    const char *const *sets[] = {sep, full};
    for (int k = 0; k < 2; k++) {
        size_t n;
        char *text = trace_of("qwen7b_h100x16.lua", sets[k], k ? 1 : 2, CHROME_SPANS_THREAD, false, &n);
        int flows = 0;
        for (const char *p = text; (p = strstr(p, "\"cat\":\"batch\",\"ph\":\"s\"")); p++) {
            int id = atoi(strstr(p, "\"id\":") + 5), pid = atoi(strstr(p, "\"pid\":") + 6), tid = atoi(strstr(p, "\"tid\":") + 6);
            long long t = ns_of(strstr(p, "\"ts\":") + 5);
            ck_assert_msg(in_generate(text, pid, tid, t), "run %d: batch flow %d starts outside a generate slice", k, id);
            char want[64];
            snprintf(want, sizeof want, "\"cat\":\"batch\",\"ph\":\"f\",\"id\":%d,", id);
            const char *f = strstr(text, want);
            ck_assert_msg(f != NULL, "run %d: batch flow %d has no end", k, id);
            ck_assert_msg(ns_of(strstr(f, "\"ts\":") + 5) >= t, "run %d: batch flow %d ends before it starts", k, id);
            flows++;
        }
        ck_assert_msg(flows >= 4, "run %d: %d batch arrows for 4 steps", k, flows);
        free(text);
    }
}
END_TEST

static Suite *suite_chrome(void)
{
    Suite *s = suite_create("chrome");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_chrome_same_bytes_every_way);
    tcase_add_test(tc, t_chrome_full_device);
    tcase_add_test(tc, t_chrome_folder_vanishes);
    tcase_add_test(tc, t_chrome_slices_nest);
    tcase_add_test(tc, t_chrome_sync_flows);
    tcase_add_test(tc, t_chrome_batch_flows);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_chrome)
