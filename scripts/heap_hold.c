/*
** heap_hold.c — for `make bench`: the engine's event rate beside the rate of
** its bare event queue, measured in the same run on the same machine.
**
**   heap_hold SCENARIO.lua [PATH=VALUE ...]     (PATH=VALUE as fusync's --set)
**
** 1. Runs the scenario event by event to learn the queue's mean length
**    (superseded instance events still waiting included).
** 2. Runs it again whole, headless: events over the run's whole wall time
**    (set-up, analytic tasks and event loop), in a warm process, as the
**    planner's and a what-if's re-runs are.  With the lengths drawn ahead on
**    their own thread as `fusync run` draws them (src/eng_draw.c), and,
**    printed beside, all in the run's thread.
** 3. Times the classic "hold" model of event-set benchmarks (D. W. Jones,
**    "An empirical comparison of priority-queue and event-set
**    implementations", CACM 29(4), 1986) on the engine's own binary heap
**    (eng_evq_pop/eng_evq_push from src/engine_int.h) at that mean length:
**    take the earliest event, put it back a random interval later.
** The ratio says how many bare queue operations one simulated event costs.
** Steps 2 to 4 go in seven rounds, one of each a round, so that both meet the
** machine in the same moments; the figures and the ratios (each a round's
** own) are the medians over the rounds.
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

/* The engine's binary heap at a fixed length, for hold slices. */
typedef struct {
    evq      q;
    uint64_t sum;           /* a sum of what the pops give, so the work is not optimised away */
} bare_heap;

static void bare_init(bare_heap *h, size_t n)
{
    *h = (bare_heap){0};
    for (size_t i = 0; i < n; i++) eng_evq_push(&h->q, (sim_time)(next_rand() % 1000000000ULL), EV_INST, (int)i);
}

/* Hold operations per second over one slice of at least 0.05 s. */
static double bare_slice(bare_heap *h)
{
    uint64_t ops = 0;
    double t0 = wall_now(), el = 0;
    do {
        for (int k = 0; k < 50000; k++) {
            event e = eng_evq_pop(&h->q);
            h->sum += (uint64_t)eng_ev_a(&e);
            eng_evq_push(&h->q, e.t + 1 + (sim_time)(next_rand() % 2000000ULL), eng_ev_kind(&e), eng_ev_a(&e));
        }
        ops += 50000;
        el = wall_now() - t0;
    } while (el < 0.05);
    return (double)ops / el;
}

/* One whole run of the engine, headless, with sim_draw_ahead at `ahead`:
** its wall time (-1 on an error), events and event-loop time.
** sim_draw_ahead_used: whether the lengths went to the thread. */
static bool sim_draw_ahead_used;

static double engine_run(const scn_scenario *sc, int ahead, double *ev, double *loop)
{
    fs_err err = {0, ""};
    sim_draw_ahead = ahead;
    sim *s = sim_new(sc, &err);
    if (!s) {
        sim_draw_ahead = -1;
        fprintf(stderr, "heap_hold: %s\n", err.msg);
        return -1;
    }
    trace_keep(sim_trace_mut(s), false);
    sim_run(s);
    if (ahead != 0) sim_draw_ahead_used = sim_draws_ahead(s);
    *ev = (double)sim_get_stats(s)->events;
    const double wall = sim_wall_seconds(s);
    *loop = wall - sim_get_stats(s)->task_wall_s - sim_get_stats(s)->setup_wall_s;
    sim_free(s);
    sim_draw_ahead = -1;
    return wall;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
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

    /* 2-4, in rounds, so that the engine and the bare heap meet the
    ** machine in the same moments (a shared machine's rate moves from one
    ** to the next): each round runs the engine whole, headless as `fusync
    ** run` runs it (no span stored: the report's running totals only), with
    ** the lengths drawn ahead on their own thread as `fusync run` does where
    ** a step is large enough (src/eng_draw.c), and again all in one thread,
    ** as the bare heap runs; then one slice of the bare heap at the queue's
    ** length and one at the flat event set's.  Each figure is the median
    ** over the rounds, and so is each ratio (of a round's own figures).  The
    ** process is warm by then (step 1 ran the scenario): the planner's and a
    ** what-if's re-runs are like that; a fresh `fusync run` pays its page
    ** faults on top, and `make bench`'s rows show that figure. */
    enum { ROUNDS = 7 };
    double walls[ROUNDS], loops[ROUNDS], walls1[ROUNDS], loops1[ROUNDS], holds[ROUNDS], flats[ROUNDS];
    double r_hold[ROUNDS], r_hold1[ROUNDS], r_flat[ROUNDS], r_flat1[ROUNDS];
    double ev = 0;
    bare_heap hq, hf;
    bare_init(&hq, qlen);
    bare_init(&hf, flen);
    for (int r = 0; r < ROUNDS; r++) {
        walls[r] = engine_run(&sc, -1, &ev, &loops[r]);
        walls1[r] = engine_run(&sc, 0, &ev, &loops1[r]);
        if (walls[r] <= 0 || walls1[r] <= 0) return 2;
        holds[r] = bare_slice(&hq);
        flats[r] = bare_slice(&hf);
        r_hold[r] = 100 * ev / walls[r] / holds[r];
        r_hold1[r] = 100 * ev / walls1[r] / holds[r];
        r_flat[r] = 100 * ev / walls[r] / flats[r];
        r_flat1[r] = 100 * ev / walls1[r] / flats[r];
    }
    const bool ahead = sim_draw_ahead_used;
    const double wall = median(walls, ROUNDS), loop = median(loops, ROUNDS), wall1 = median(walls1, ROUNDS),
                 loop1 = median(loops1, ROUNDS), hold = median(holds, ROUNDS), flat = median(flats, ROUNDS);
    const double pct = median(r_hold, ROUNDS), pct1 = median(r_hold1, ROUNDS), pctf = median(r_flat, ROUNDS),
                 pctf1 = median(r_flat1, ROUNDS);
    const uint64_t sum = hq.sum + hf.sum;
    free(hq.q.v);
    free(hf.q.v);
    double rate = wall > 0 ? ev / wall : 0, rate1 = wall1 > 0 ? ev / wall1 : 0;
    printf("  event queue: mean length %zu (max %zu) over %.0f events\n", qlen, qmax, ev);
    printf("  engine, whole run:     %8.3f M events/s  (%.0f events in %.3f s, median of %d rounds in this process; loop alone %.3f M/s;\n"
           "                                            %s)\n",
           rate / 1e6, ev, wall, ROUNDS, loop > 0 ? ev / loop / 1e6 : 0,
           ahead ? "lengths drawn ahead on a second thread, as fusync run draws them" : "one thread: the run is too small to draw ahead");
    if (ahead)
        printf("  engine, one thread:    %8.3f M events/s  (the same with the lengths drawn in the run's thread, %.3f s; loop alone %.3f M/s)\n",
               rate1 / 1e6, wall1, loop1 > 0 ? ev / loop1 / 1e6 : 0);
    printf("  bare heap hold:        %8.3f M ops/s     (pop + push at length %zu, a slice of 0.05 s a round; checksum %llu)\n", hold / 1e6,
           qlen, (unsigned long long)(sum % 1000));
    printf("  ratio bare/engine:     %8.1f             (queue operations one simulated event costs: the engine's\n"
           "                                            whole-run rate is %.1f%% of the bare heap's%s; target >= 20%%;\n"
           "                                            each the median of the rounds' own ratios)\n",
           100 / pct, pct, ahead ? fmt_pct(" (one thread: ", pct1, "%)") : "");
    printf("  bare heap, flat set:   %8.3f M ops/s     (at length %zu, the mean number of pending finishes: one event per\n"
           "                                            generating sample; the engine's rate is %.1f%% of it%s)\n",
           flat / 1e6, flen, pctf, ahead ? fmt_pct(", one thread ", pctf1, "%") : "");
    return 0;
}
