/*
** tui.c — `fusync tui SCENARIO`: load, take the terminal, run the loop,
** give the terminal back.  The engine runs in slices between frames with an
** event budget that adapts to keep a frame near 15 ms, so keys never wait.
*/
#include "tui.h"
#include "app.h"
#include "lesson_play.h"
#include "render.h"
#include "term.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FRAME_MS 33         /* ~30 frames a second while something moves */
#define IDLE_MS 500

static int loop(tui_app *a, term *t)
{
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    memset(&L, 0, sizeof L);
    uint64_t budget = 4096, snap_budget = 4096;
    double last = wall_now();
    bool dirty = true, full = true;
    while (!a->quit && !term_signal_pending()) {
        double now = wall_now(), dt = now - last;
        last = now;
        if (dt > 0.25) dt = 0.25;   /* a stalled frame must not jump the clock */
        bool busy = app_busy(a);
        if (busy) {
            uint64_t ev0 = sim_get_stats(a->run->s)->events;
            app_tick(a, dt, budget);
            double spent = wall_now() - now;
            bool exhausted = sim_get_stats(a->run->s)->events - ev0 >= budget;
            if (exhausted && spent < 0.008 && budget < (1u << 24)) budget *= 2;
            else if (spent > 0.020 && budget > 64) budget /= 2;
            /* the snapshots have a budget of their own: a paused live run
            ** spends nothing, and must not starve them */
            double s0 = wall_now();
            app_background(a, snap_budget);
            double sspent = wall_now() - s0;
            if (sspent < 0.008 && snap_budget < (1u << 24)) snap_budget *= 2;
            else if (sspent > 0.020 && snap_budget > 64) snap_budget /= 2;
            dirty = true;
        }
        if (dirty) {
            int rows, cols;
            term_size(t, &rows, &cols);
            render_frame(a, &cv, rows, cols, &L);
            lesson_draw(a, &cv, &L);
            term_draw(t, &cv, full);
            full = dirty = false;
        }
        int wait = busy ? FRAME_MS - (int)((wall_now() - now) * 1000) : IDLE_MS;
        if (wait < 1) wait = 1;
        tui_event ev = term_event(t, wait);
        while (ev.key != TK_NONE && !a->quit) {
            /* the reactions decide: a key that changes nothing draws nothing */
            int re = lesson_event(a, &ev);     /* a lesson's keys first */
            if (re == RE_NONE) re = app_event(a, &ev, &L);
            if (re & RE_REPAINT) full = true;
            if (re & (RE_REDRAW | RE_REPAINT)) dirty = true;
            if (re & RE_QUIT) break;
            ev = term_event(t, 0);
        }
    }
    cv_free(&cv);
    int sig = term_signal_pending();
    return sig ? 128 + sig : 0;
}

int cmd_tui(cli_opts *o)
{
    if (!o->scenario && !o->lesson_path) {
        fprintf(stderr, "fusync: tui: missing SCENARIO (or --lesson FILE)\nTry 'fusync help tui' for more information.\n");
        return 2;
    }
    if (o->scenario && o->lesson_path) {
        fprintf(stderr, "fusync: tui: --lesson %s names its own scenario; drop '%s'\n", o->lesson_path, o->scenario);
        return 2;
    }
    const char *bench = getenv("FUSYNC_TUI_BENCH");
    if (bench && *bench) return tui_bench_opts(o, atoi(bench) > 0 ? atoi(bench) : 100);
    /* the character type only: numbers keep the C locale everywhere */
    setlocale(LC_CTYPE, "");
    tui_app *a = xcalloc(1, sizeof *a);
    fs_err err = {0, ""};
    /* load before taking the screen, so a bad scenario or lesson prints plainly */
    if (!(o->lesson_path ? lesson_open_app(a, o, &err) : app_open(a, o, &err))) {
        free(a);
        fprintf(stderr, "fusync: %s\n", err.msg);
        return err.code ? err.code : 2;
    }
    term_caps caps = term_caps_from(o->no_color, o->ascii, o->no_mouse);
    char why[256];
    term_signals();
    term *t = term_open(&caps, why, sizeof why);
    if (!t) {
        app_close(a);
        free(a);
        fprintf(stderr, "fusync: %s\n", why);
        return 2;
    }
    a->utf8 = caps.utf8;
    a->color = caps.color;
    a->mouse = caps.mouse;
    int rc = loop(a, t);
    term_close(t);
    app_close(a);
    free(a);
    if (rc) fprintf(stderr, "fusync: interrupted\n");
    return rc;
}

/* ---------------------------------------------------------------- bench */

/* CPU time of the process: on a shared machine wall times grow, this much less */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* Median, 95th percentile (nearest rank) and worst of v[0..n), sorted in place. */
static void pct(double *v, int n, double *med, double *p95, double *worst)
{
    *med = *p95 = *worst = 0;
    if (n <= 0) return;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    int k = (int)((95 * (long)n + 99) / 100);
    *p95 = v[k > 0 ? k - 1 : 0];
    *worst = v[n - 1];
}

/* One frame as the main loop draws it: the canvas, then curses. */
static void bench_draw(tui_app *a, tui_canvas *cv, tui_layout *L, term *t, int rows, int cols)
{
    render_frame(a, cv, rows, cols, L);
    if (t) term_draw(t, cv, false);
}

#define BENCH_ROWS 60
#define BENCH_COLS 200
#define BENCH_FPS 30.0

int tui_bench_opts(const cli_opts *o, int frames)
{
    if (frames < 1) frames = 1;
    const int rows = BENCH_ROWS, cols = BENCH_COLS;
    tui_app *a = xcalloc(1, sizeof *a);
    fs_err err = {0, ""};
    if (!app_open(a, o, &err)) {
        free(a);
        fprintf(stderr, "fusync: %s\n", err.msg);
        return err.code ? err.code : 2;
    }
    /* 1. how long the run is: played to its end with no frame drawn */
    double t0 = wall_now();
    a->goal = GOAL_END;
    while (!run_over(a->run)) app_tick(a, 0, 1u << 20);
    double sim_s = wall_now() - t0;
    sim_time end = run_now(a->run);
    app_close(a);

    /* 2. the app's own loop, from a fresh start: each frame advances the run
    ** by a frame's worth of simulated time (a rate that spreads the run over
    ** `frames` frames at 30 a second), then draws, until the run is over.
    ** Timed per frame: the engine's slice with the indices' update, and the
    ** drawing (canvas and curses on an in-memory screen). */
    if (!app_open(a, o, &err)) {
        free(a);
        fprintf(stderr, "fusync: %s\n", err.msg);
        return err.code ? err.code : 2;
    }
    a->rate = sim_secs(end) * BENCH_FPS / frames * 1.0001;
    term_caps caps = {false, false, false};
    term *t = term_open_virtual(&caps, rows, cols);
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    memset(&L, 0, sizeof L);
    int cap = frames + 16, n = 0;
    double *draw = xcalloc((size_t)cap * 3, sizeof *draw), *whole = draw + cap, *cpu = whole + cap;
    bench_draw(a, &cv, &L, t, rows, cols);
    while (!run_over(a->run) && n < cap) {
        double f0 = wall_now();
        app_tick(a, 1.0 / BENCH_FPS, UINT64_MAX);
        double f1 = wall_now(), c1 = cpu_now();
        bench_draw(a, &cv, &L, t, rows, cols);
        double f2 = wall_now();
        cpu[n] = (cpu_now() - c1) * 1e3;
        draw[n] = (f2 - f1) * 1e3;
        whole[n++] = (f2 - f0) * 1e3;
    }
    bool ended = run_over(a->run);
    size_t spans = trace_nspans(sim_trace(a->run->s));
    int tracks = trace_ntracks(sim_trace(a->run->s)), devices = sim_plan(a->run->s)->used_devices;
    double dm, dp, dw, wm, wp, ww, cm, cp, cw;
    pct(draw, n, &dm, &dp, &dw);
    pct(cpu, n, &cm, &cp, &cw);
    pct(whole, n, &wm, &wp, &ww);
    free(draw);

    /* 3. a what-if edit on the finished run (staleness + 2), timed to its
    ** final answer: the new run played to its end and the frame showing its
    ** headline figure drawn */
    int s0 = a->run->scn.plan.staleness;
    char v[16];
    snprintf(v, sizeof v, "%d", s0 + 2);
    double whatif_first = -1, whatif_ms = -1, whatif_cpu = -1, tput = 0;
    t0 = wall_now();
    double c0 = cpu_now();
    bool ok = app_set(a, "plan.staleness", v);
    if (ok) {
        bench_draw(a, &cv, &L, t, rows, cols);
        whatif_first = (wall_now() - t0) * 1e3;
        a->goal = GOAL_END;
        while (!run_over(a->run)) app_tick(a, 1.0 / BENCH_FPS, 1u << 20);
        bench_draw(a, &cv, &L, t, rows, cols);
        whatif_ms = (wall_now() - t0) * 1e3;
        whatif_cpu = (cpu_now() - c0) * 1e3;
        tput = a->run->report_ready ? a->run->rep.throughput : 0;
    }
    term_close(t);
    cv_free(&cv);
    printf("tui-bench %s: %d devices, %d iterations, %d tracks, %zu spans; run alone %.2f s; "
           "played over %d frames of %dx%d%s:\n",
           o->scenario, devices, a->run->scn.work.iterations, tracks, spans, sim_s, n, cols, rows,
           ended ? "" : " (not to the end)");
    printf("  frame drawn (canvas + curses): median %.2f ms, p95 %.2f ms, worst %.2f ms\n", dm, dp, dw);
    printf("  its CPU time:                  median %.2f ms, p95 %.2f ms, worst %.2f ms\n", cm, cp, cw);
    printf("  with the engine's slice:       median %.2f ms, p95 %.2f ms, worst %.2f ms\n", wm, wp, ww);
    if (ok)
        printf("  what-if plan.staleness %d->%d: first frame %.1f ms; final answer (run over, %.0f tokens/s shown) %.1f ms, "
               "CPU %.1f ms\n", s0, s0 + 2, whatif_first, tput, whatif_ms, whatif_cpu);
    else printf("  what-if plan.staleness %d->%d: the edit failed: %s\n", s0, s0 + 2, a->msg);
    app_close(a);
    free(a);
    return 0;
}

int tui_bench(const char *scenario, int frames)
{
    cli_opts *o = xcalloc(1, sizeof *o);
    o->scenario = scenario;
    o->jobs = 1;
    int rc = tui_bench_opts(o, frames);
    free(o);
    return rc;
}
