/*
** heap_hold.c — for `make bench`: the engine's event rate beside the rate of
** its bare event queue, measured in the same run on the same machine.
**
**   heap_hold SCENARIO.lua [PATH=VALUE ...]     (PATH=VALUE as fusync's --set)
**
** 1. Runs the scenario event by event to learn the queue's mean length
**    (superseded instance events still waiting included).
** 2. Runs it again whole, headless, five times: events over the run's
**    whole wall time (set-up, analytic tasks and event loop), the median;
**    in a warm process, as the planner's and a what-if's re-runs are.  With
**    the lengths drawn ahead on their own thread as `fusync run` draws them
**    (src/eng_draw.c), and, printed beside, all in the run's thread.
** 3. Times the classic "hold" model of event-set benchmarks (D. W. Jones,
**    "An empirical comparison of priority-queue and event-set
**    implementations", CACM 29(4), 1986) on the engine's own binary heap
**    (eng_evq_pop/eng_evq_push from src/engine_int.h) at that mean length:
**    take the earliest event, put it back a random interval later.
** The ratio says how many bare queue operations one simulated event costs.
** 4. Times the same hold model at the mean number of pending finishes: the
**    engine keeps each instance's active samples in a heap of its own and
**    only the instances' next events in its queue; a flat event set (one
**    event per generating sample, as a textbook discrete-event simulator
**    would hold them) would be this long.  Printed beside, labelled: the
**    target is taken against step 3's queue, the engine's real one.
** The Makefile links it with the library's objects (`make build/heap_hold`;
** `make bench` does), and bench.sh runs it.
*/
#include "engine_int.h"
#include "lua_scenario.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t xs = 88172645463325252ULL;
static uint64_t next_rand(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 7;
    xs ^= xs << 17;
    return xs;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Hold operations per second on the engine's binary heap at length n: the
** median of seven slices of at least 0.05 s each (a shared machine's rate
** moves from moment to moment); *check collects a sum so the work is not
** optimised away. */
static double hold_rate(size_t n, uint64_t *check)
{
    evq q = {0};
    for (size_t i = 0; i < n; i++) eng_evq_push(&q, (sim_time)(next_rand() % 1000000000ULL), EV_INST, (int)i);
    enum { SLICES = 7 };
    double rates[SLICES];
    uint64_t sum = 0;
    for (int sl = 0; sl < SLICES; sl++) {
        uint64_t ops = 0;
        double t0 = wall_now(), el = 0;
        do {
            for (int k = 0; k < 50000; k++) {
                event e = eng_evq_pop(&q);
                sum += (uint64_t)eng_ev_a(&e);
                eng_evq_push(&q, e.t + 1 + (sim_time)(next_rand() % 2000000ULL), eng_ev_kind(&e), eng_ev_a(&e));
            }
            ops += 50000;
            el = wall_now() - t0;
        } while (el < 0.05);
        rates[sl] = (double)ops / el;
    }
    free(q.v);
    *check += sum;
    qsort(rates, SLICES, sizeof rates[0], cmp_double);
    return rates[SLICES / 2];
}

/* The engine's whole-run wall time, headless, the median of five runs
** with sim_draw_ahead at `ahead`; its events and event-loop time; -1 on an
** error.  sim_draw_ahead_used: whether the lengths went to the thread. */
static bool sim_draw_ahead_used;

static double engine_wall(const scn_scenario *sc, int ahead, double *ev, double *loop)
{
    enum { RUNS = 5 };
    double walls[RUNS], loops[RUNS];
    fs_err err = {0, ""};
    sim_draw_ahead = ahead;
    for (int r = 0; r < RUNS; r++) {
        sim *s = sim_new(sc, &err);
        if (!s) {
            fprintf(stderr, "heap_hold: %s\n", err.msg);
            return -1;
        }
        trace_keep(sim_trace_mut(s), false);
        sim_run(s);
        if (ahead != 0) sim_draw_ahead_used = sim_draws_ahead(s);
        *ev = (double)sim_get_stats(s)->events;
        walls[r] = sim_wall_seconds(s);
        loops[r] = walls[r] - sim_get_stats(s)->task_wall_s - sim_get_stats(s)->setup_wall_s;
        sim_free(s);
    }
    sim_draw_ahead = -1;
    qsort(walls, RUNS, sizeof walls[0], cmp_double);
    qsort(loops, RUNS, sizeof loops[0], cmp_double);
    *loop = loops[RUNS / 2];
    return walls[RUNS / 2];
}

/* "<pre><v with one decimal><post>" in a static buffer (one use a call). */
static const char *fmt_pct(const char *pre, double v, const char *post)
{
    static char b[2][64];
    static int k;
    k ^= 1;
    snprintf(b[k], sizeof b[k], "%s%.1f%s", pre, v, post);
    return b[k];
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: heap_hold SCENARIO.lua [PATH=VALUE ...]\n");
        return 2;
    }
    scn_scenario sc;
    fs_err err = {0, ""};
    if (!lscn_load(argv[1], (const char *const *)argv + 2, argc - 2, &sc, &err)) {
        fprintf(stderr, "heap_hold: %s\n", err.msg);
        return 2;
    }
    /* 1. the queue's length, event by event */
    sim *s = sim_new(&sc, &err);
    if (!s) {
        fprintf(stderr, "heap_hold: %s\n", err.msg);
        return 2;
    }
    double qsum = 0, fsum = 0;
    size_t qmax = 0;
    uint64_t nq = 0;
    while (sim_step_events(s, 1)) {
        size_t n = sim_queue_len(s);
        qsum += (double)n;
        if (n > qmax) qmax = n;
        size_t f = n;
        for (int i = 0; i < s->ninst; i++) f += (size_t)s->inst[i].hn;
        fsum += (double)f;
        nq++;
    }
    sim_free(s);
    size_t qlen = nq ? (size_t)(qsum / (double)nq + 0.5) : 1;
    if (qlen < 1) qlen = 1;
    size_t flen = nq ? (size_t)(fsum / (double)nq + 0.5) : 1;
    if (flen < 1) flen = 1;

    /* 2. the engine, whole run, headless as `fusync run` runs it (no span
    ** stored: the report's running totals only), the median of five runs,
    ** with the lengths drawn ahead on their own thread as `fusync run` does
    ** where a step is large enough (src/eng_draw.c), and again all in one
    ** thread, as the bare heap runs.  The process is warm by then (step 1 ran
    ** the scenario): the planner's and a what-if's re-runs are like that; a
    ** fresh `fusync run` pays its page faults on top, and `make bench`'s rows
    ** show that figure. */
    double ev = 0, loop = 0, loop1 = 0;
    const double wall = engine_wall(&sc, -1, &ev, &loop);
    const double wall1 = engine_wall(&sc, 0, &ev, &loop1);
    if (wall < 0 || wall1 < 0) return 2;
    const bool ahead = sim_draw_ahead_used;

    /* 3. the bare heap at that length; 4. at the flat event set's */
    uint64_t sum = 0;
    double hold = hold_rate(qlen, &sum);
    double flat = hold_rate(flen, &sum);
    double rate = wall > 0 ? ev / wall : 0, rate1 = wall1 > 0 ? ev / wall1 : 0;
    printf("  event queue: mean length %zu (max %zu) over %.0f events\n", qlen, qmax, ev);
    printf("  engine, whole run:     %8.3f M events/s  (%.0f events in %.3f s, median of 5 in this process; loop alone %.3f M/s;\n"
           "                                            %s)\n",
           rate / 1e6, ev, wall, loop > 0 ? ev / loop / 1e6 : 0,
           ahead ? "lengths drawn ahead on a second thread, as fusync run draws them" : "one thread: the run is too small to draw ahead");
    if (ahead)
        printf("  engine, one thread:    %8.3f M events/s  (the same with the lengths drawn in the run's thread, %.3f s; loop alone %.3f M/s)\n",
               rate1 / 1e6, wall1, loop1 > 0 ? ev / loop1 / 1e6 : 0);
    printf("  bare heap hold:        %8.3f M ops/s     (pop + push at length %zu, median of 7 slices; checksum %llu)\n", hold / 1e6, qlen,
           (unsigned long long)(sum % 1000));
    printf("  ratio bare/engine:     %8.1f             (queue operations one simulated event costs: the engine's\n"
           "                                            whole-run rate is %.1f%% of the bare heap's%s; target >= 20%%)\n",
           rate > 0 ? hold / rate : 0, hold > 0 ? 100 * rate / hold : 0,
           ahead ? (hold > 0 ? fmt_pct(" (one thread: ", 100 * rate1 / hold, "%)") : "") : "");
    printf("  bare heap, flat set:   %8.3f M ops/s     (at length %zu, the mean number of pending finishes: one event per\n"
           "                                            generating sample; the engine's rate is %.1f%% of it%s)\n",
           flat / 1e6, flen, flat > 0 ? 100 * rate / flat : 0,
           ahead ? (flat > 0 ? fmt_pct(", one thread ", 100 * rate1 / flat, "%") : "") : "");
    return 0;
}
