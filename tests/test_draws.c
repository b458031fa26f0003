/*
** test_draws.c — the workload's lengths drawn ahead on a thread of their own
** (src/eng_draw.c) are those the run's thread draws: the same run both ways
** gives the same clock, counts, token sums, the same lengths of every step
** already drawn and the same preview of the steps not yet drawn (which
** starts from the generator's state), at every point of the run, bit for
** bit.  Drawing ahead, the drawer also works out each batch's micro-batch
** sets (src/eng_mb.c, eng_mb_pre_fill): the clock, which the training
** tasks' times move, shows they are those of the run's thread.
*/
#include "testutil.h"
#include "engine.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    sim_time now;
    int64_t  sets_ahead;    /* micro-batch sets the drawer worked out, taken (apart: not compared) */
    int64_t  samples_done;
    double   tokens, sum0, max0, sum_last, max_last;
} mark;

/* The run to its end, a mark every 97 events; returns the marks (*n). */
static mark *run_marks(const char *name, const char *const *sets, int nsets, int ahead, bool *threaded, int *n)
{
    sim_draw_ahead = ahead;
    sim *s = test_example_new(name, sets, nsets, 0);
    const int last = sim_scenario(s)->work.iterations - 1;
    int cap = 1024;
    mark *m = malloc((size_t)cap * sizeof *m);
    *n = 0;
    *threaded = false;
    while (!sim_done(s)) {
        sim_step_events(s, 97);
        *threaded |= sim_draws_ahead(s);
        if (*n == cap) m = realloc(m, (size_t)(cap *= 2) * sizeof *m);
        mark *k = &m[(*n)++];
        memset(k, 0, sizeof *k);
        k->now = sim_now(s);
        k->samples_done = sim_get_stats(s)->samples_done;
        k->sets_ahead = sim_mb_sets_ahead(s);
        k->tokens = sim_get_stats(s)->tokens_generated;
        sim_step_lengths(s, 0, &k->sum0, &k->max0);
        sim_step_lengths(s, last, &k->sum_last, &k->max_last);
    }
    sim_free(s);
    sim_draw_ahead = -1;
    return m;
}

/* sets_ahead: at least that many micro-batch sets taken from the drawer
** when it draws, 0: none (and none when the run's thread draws) */
static void same_both_ways(const char *name, const char *const *sets, int nsets, int64_t sets_ahead)
{
    int na, nb;
    bool ta, tb;
    mark *a = run_marks(name, sets, nsets, 0, &ta, &na), *b = run_marks(name, sets, nsets, 1, &tb, &nb);
    ck_assert_msg(!ta && tb, "%s: drawn on the thread: %d off, %d forced", name, ta, tb);
    ck_assert_int_eq(na, nb);
    ck_assert_int_gt(na, 10);
    ck_assert_msg(a[na - 1].sets_ahead == 0 && (sets_ahead ? b[nb - 1].sets_ahead >= sets_ahead : b[nb - 1].sets_ahead == 0),
                  "%s %s: micro-batch sets from the drawer: %lld drawing in the run's thread, %lld drawing ahead (want %lld, 0: none)",
                  name, nsets ? sets[0] : "", (long long)a[na - 1].sets_ahead, (long long)b[nb - 1].sets_ahead, (long long)sets_ahead);
    for (int i = 0; i < na; i++) {
        a[i].sets_ahead = b[i].sets_ahead = 0;
        ck_assert_msg(memcmp(&a[i], &b[i], sizeof a[i]) == 0,
                      "%s %s: mark %d differs: t %lld/%lld, done %lld/%lld, tokens %.17g/%.17g, last step %.17g/%.17g",
                      name, nsets ? sets[0] : "", i, (long long)a[i].now, (long long)b[i].now,
                      (long long)a[i].samples_done, (long long)b[i].samples_done, a[i].tokens, b[i].tokens,
                      a[i].sum_last, b[i].sum_last);
    }
    free(a);
    free(b);
}

START_TEST(t_draw_ahead_same_runs)
{
    static const char *const ex[] = {"qwen7b_h100x16.lua", "pangu718b_cm384.lua"};
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++) {
        /* synchronous, StaleSync (batches released two ahead, in bursts),
        ** lengths that grow from step to step */
        const char *s0[] = {"plan.mode=colocate", "workload.iterations=5"};
        const char *s1[] = {"plan.mode=separate", "plan.staleness=2", "plan.partial_rollout=0.6", "workload.iterations=6"};
        const char *s2[] = {"plan.mode=full", "workload.response_growth=0.05", "workload.iterations=4"};
        /* a synchronous step's every set comes from the drawer: the whole
        ** step's and each of its four mini-batches'; a StaleSync step's
        ** mix batches, and the drawer works none out */
        same_both_ways(ex[e], s0, 2, 5 * 5);
        same_both_ways(ex[e], s1, 4, 0);
        same_both_ways(ex[e], s2, 3, 4 * 5);
    }
    /* more than 48 data-parallel replicas (60; the step kept at one
    ** supernode's 6,144 samples): the sets laid out through the tournament
    ** tree (eng_lpt_tree) on both threads */
    const char *wide[] = {"plan.mode=colocate", "cluster.supernodes=20", "workload.batch_per_supernode=false", "workload.iterations=3"};
    same_both_ways("pangu718b_cm384.lua", wide, 4, 3 * 5);
}
END_TEST

/* The default draws ahead only where it pays: a run of few samples a step
** draws in the run's thread. */
START_TEST(t_draw_ahead_default)
{
    const char *big[] = {"workload.iterations=3"};
    const char *small[] = {"workload.iterations=3", "workload.prompts_per_step=8"};
    int n;
    bool t;
    free(run_marks("pangu718b_cm384.lua", big, 1, -1, &t, &n));
    ck_assert_msg(t, "a one-supernode run of the large example draws ahead by default");
    free(run_marks("pangu718b_cm384.lua", small, 2, -1, &t, &n));
    ck_assert_msg(!t, "a run of 8 prompts a step draws in the run's thread");
}
END_TEST

static Suite *suite_draws(void)
{
    Suite *s = suite_create("draws");
    TCase *tc = tcase_create("draw_ahead");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_draw_ahead_same_runs);
    tcase_add_test(tc, t_draw_ahead_default);
    suite_add_tcase(s, tc);
    return s;
}

TEST_SUITE(suite_draws)
