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

int tui_bench_opts(const cli_opts *o, int frames)
{
    if (frames < 1) frames = 1;
    const char *scenario = o->scenario;
    tui_app *a = xcalloc(1, sizeof *a);
    fs_err err = {0, ""};
    if (!app_open(a, o, &err)) {
        free(a);
        fprintf(stderr, "fusync: %s\n", err.msg);
        return err.code ? err.code : 2;
    }
    double t0 = wall_now();
    a->goal = GOAL_END;
    while (!run_over(a->run)) app_tick(a, 0, 1u << 20);
    double sim_s = wall_now() - t0;
    /* the worst case: the whole run in view, every pool open */
    a->fit = true;
    a->cursor = run_now(a->run) / 2;
    a->cursor_follow = false;
    for (int p = 0; p < a->v.npools_open; p++) a->v.pool_open[p] = true;
    const int rows = 60, cols = 200;
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    render_frame(a, &cv, rows, cols, &L);
    t0 = wall_now();
    for (int i = 0; i < frames; i++) render_frame(a, &cv, rows, cols, &L);
    double render_ms = (wall_now() - t0) * 1e3 / frames;

    term_caps caps = {false, false, false};
    term *t = term_open_virtual(&caps, rows, cols);
    double curses_ms = -1, whatif_ms = -1;
    if (t) {
        t0 = wall_now();
        for (int i = 0; i < frames; i++) {
            render_frame(a, &cv, rows, cols, &L);
            term_draw(t, &cv, true);
        }
        curses_ms = (wall_now() - t0) * 1e3 / frames;
    }
    size_t spans = trace_nspans(sim_trace(a->run->s));
    int tracks = trace_ntracks(sim_trace(a->run->s)), devices = sim_plan(a->run->s)->used_devices;
    /* a what-if edit: reload, rebuild, one slice, first frame */
    char v[16];
    snprintf(v, sizeof v, "%d", a->run->scn.plan.staleness + 1);
    t0 = wall_now();
    bool ok = app_set(a, "plan.staleness", v);
    if (ok) {
        a->playing = true;
        app_tick(a, 1.0 / 30, 4096);
        render_frame(a, &cv, rows, cols, &L);
        if (t) term_draw(t, &cv, true);
        whatif_ms = (wall_now() - t0) * 1e3;
    }
    term_close(t);
    cv_free(&cv);
    printf("tui-bench %s: %d devices, %d tracks, %zu spans, simulated in %.2f s; frame %dx%d: render %.3f ms, "
           "with curses %.3f ms (mean of %d); what-if edit to first frame %.1f ms%s\n",
           scenario, devices, tracks, spans, sim_s, cols, rows, render_ms, curses_ms, frames, whatif_ms,
           ok ? "" : " (edit failed)");
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
