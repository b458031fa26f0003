/*
** app.c — front-end state and actions (see app.h).  No curses here.
*/
#include "app.h"
#include "pane.h"
#include "chrome.h"
#include "style.h"
#include "fields.h"
#include "svg_export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_MIN (1.0 / 64)
#define RATE_MAX 65536.0

void app_message(tui_app *a, bool err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_err = err;
}


/* Build a run from the base options plus `edits`. */
static tui_run *load_run(tui_app *a, char (*edits)[2][96], int n, fs_err *err)
{
    cli_opts *o = xmalloc(sizeof *o);
    *o = a->opts;
    char (*extra)[200] = xcalloc((size_t)(n ? n : 1), sizeof *extra);
    char label[160] = "";
    for (int i = 0; i < n; i++) {
        snprintf(extra[i], sizeof extra[i], "%s=%s", edits[i][0], edits[i][1]);
        if (o->nsets < CLI_SETS_MAX) o->sets[o->nsets++] = extra[i];
        size_t l = strlen(label);
        snprintf(label + l, sizeof label - l, "%s%s", l ? " " : "", extra[i]);
    }
    if (!n) snprintf(label, sizeof label, "as in the file");
    runner_spec spec = {.path = o->scenario, .sets = o->sets, .nsets = o->nsets, .policy = o->policy};
    tui_run *r = run_new(&spec, label, err);
    free(extra);
    free(o);
    return r;
}

static void panes_open(tui_app *a)
{
    for (int i = 0; i < PANE__COUNT; i++) {
        const pane_ops *p = pane_get(i);
        if (p && p->open) p->open(a);
    }
}

/* Wall seconds one training step takes at the default rate. */
#define APP_WALL_PER_STEP 20.0

double app_rate_for(double step_s, double wall_s)
{
    if (!(step_s > 0) || !(wall_s > 0)) return 10;
    double want = step_s / wall_s, m = 1;
    while (m * 10 <= want) m *= 10;
    while (m > want) m /= 10;
    /* the nearest of 1, 2, 5, 10 x m, by ratio */
    static const double k[] = {1, 2, 5, 10};
    double r = m, best = 1e300;
    for (int i = 0; i < 4; i++) {
        double q = k[i] * m > want ? k[i] * m / want : want / (k[i] * m);
        if (q < best) { best = q; r = k[i] * m; }
    }
    if (r < RATE_MIN) r = RATE_MIN;
    if (r > RATE_MAX) r = RATE_MAX;
    return r;
}

/* The length of the first training step, from a headless copy of the run
** (the same placed scenario, so the same figures, but without the policy's
** run hooks: a hook that hangs must meet the watchdog and Ctrl-C on the
** screen, not before it): 0 if it does not finish one within a bounded
** number of events and half a second. */
static double probe_step(const tui_run *r)
{
    fs_err err = {0, ""};
    static scn_scenario copy;
    copy = r->scn;
    copy.plan.policy[0] = '\0';
    runner_spec spec = {.scn = &copy};
    runner *rn = runner_open(&spec, &err);
    if (!rn) return 0;
    sim *s = runner_sim(rn);
    /* one event at a time, to stop at the step's end; at most half a second */
    double t0 = wall_now();
    for (long i = 0; i < (1L << 22) && !runner_done(rn) && sim_get_stats(s)->iterations_done < 1; i++) {
        runner_advance(rn, 1);
        if ((i & 1023) == 1023 && wall_now() - t0 > 0.5) break;
    }
    double t = sim_get_stats(s)->iterations_done >= 1 ? sim_secs(sim_now(s)) : 0;
    runner_free(rn);
    return t;
}

bool app_open(tui_app *a, const cli_opts *o, fs_err *err)
{
    memset(a, 0, sizeof *a);
    a->opts = *o;
    /* shorthand sets point into o->owned: point them at our copy */
    for (int i = 0; i < a->opts.nsets; i++)
        for (int k = 0; k < CLI_SETS_MAX; k++)
            if (o->sets[i] == o->owned[k]) { a->opts.sets[i] = a->opts.owned[k]; break; }
    a->rate = 10;
    a->playing = true;
    a->ls.zoom = -1;
    a->focus = PANE_TIMELINE;
    a->fit = true;
    a->cursor_follow = true;
    if (!o->scenario) { fs_err_set(err, 2, "tui: missing SCENARIO (try: fusync tui examples/qwen7b_h100x16.lua)"); return false; }
    a->run = load_run(a, a->edits, 0, err);
    if (!a->run) return false;
    panes_open(a);
    double step_s = probe_step(a->run);
    if (step_s > 0) a->rate = app_rate_for(step_s, APP_WALL_PER_STEP);
    char st[24];
    style_fmt_secs(st, sizeof st, step_s);
    if (step_s > 0)
        app_message(a, false, "Playing at x%g (a %s step in %.0f s).  space pauses, ? keys, q quits.", a->rate, st,
                    step_s / a->rate);
    else app_message(a, false, "Playing at x%g.  space pauses, ? shows every key, q quits.", a->rate);
    return true;
}

void app_close(tui_app *a)
{
    if (a->lesson && a->lesson_drop) a->lesson_drop(a->lesson);
    a->lesson = NULL;
    free(a->menu);
    a->menu = NULL;
    run_free(a->run);
    run_free(a->snap[0]);
    run_free(a->snap[1]);
    free(a->v.pool_open);
    free(a->v.track_open);
    a->run = a->snap[0] = a->snap[1] = NULL;
    a->v.pool_open = a->v.track_open = NULL;
}

/* ------------------------------------------------------------ running */

void app_window(const tui_app *a, sim_time *t0, sim_time *t1)
{
    sim_time now = run_now(a->run);
    if (a->fit) {
        *t0 = 0;
        *t1 = now > SIM_NS_PER_S / 1000 ? now : SIM_NS_PER_S;
    } else {
        *t0 = a->view_t0;
        *t1 = a->view_t1 > a->view_t0 ? a->view_t1 : a->view_t0 + 1;
    }
}

static void after_advance(tui_app *a)
{
    tui_run *r = a->run;
    bool was_over = r->report_ready;
    run_sync(r);
    sim_time now = run_now(r);
    if (a->cursor_follow) a->cursor = now;
    if (a->cursor > now) a->cursor = now;
    /* a zoomed window slides to keep the live edge in view while following */
    if (!a->fit && a->cursor_follow && now > a->view_t1) {
        sim_time w = a->view_t1 - a->view_t0;
        a->view_t1 = now + w / 20;
        a->view_t0 = a->view_t1 - w;
    }
    if (run_over(r) && !was_over) {
        a->playing = false;
        a->goal = GOAL_NONE;
        const fs_err *e = sim_error(r->s);
        if (e && e->code != 1) app_message(a, true, "the run stopped: %s", e->msg);
        else if (!r->rep.feasible) app_message(a, true, "INFEASIBLE: %s", r->rep.why);
        else {
            char tp[32];
            fmt_si(tp, sizeof tp, r->rep.throughput);
            app_message(a, false, "Run finished: %s tokens/s.  Keys: 0 to restart, e to export, a/b to snapshot.", tp);
        }
    }
}

void app_tick(tui_app *a, double wall_dt, uint64_t max_events)
{
    tui_run *r = a->run;
    if (!run_over(r)) {
        if (a->goal == GOAL_END) {
            run_advance(r, INT64_MAX, max_events);
        } else if (a->goal == GOAL_ITER) {
            for (uint64_t n = 0; n < max_events && !run_over(r); n++) {
                if (sim_get_stats(r->s)->iterations_done >= a->goal_iter) { a->goal = GOAL_NONE; break; }
                sim_step_events(r->s, 1);
            }
            if (sim_get_stats(r->s)->iterations_done >= a->goal_iter) a->goal = GOAL_NONE;
        } else if (a->playing) {
            double dt = a->rate * wall_dt * 1e9;
            sim_time step = dt > 9e17 ? (sim_time)9e17 : (sim_time)dt;
            if (step < 1) step = 1;
            run_advance(r, run_now(r) + step, max_events);
        }
    }
    after_advance(a);
}

void app_background(tui_app *a, uint64_t max_events)
{
    for (int i = 0; i < 2; i++) {
        tui_run *r = a->snap[i];
        if (!r || run_over(r)) continue;
        run_advance(r, INT64_MAX, max_events);
        if (run_over(r)) run_sync(r);
        return;     /* one at a time keeps the slice bounded */
    }
}

bool app_busy(const tui_app *a)
{
    if (!run_over(a->run) && (a->playing || a->goal != GOAL_NONE)) return true;
    for (int i = 0; i < 2; i++)
        if (a->snap[i] && !run_over(a->snap[i])) return true;
    return false;
}

void app_seek(tui_app *a, sim_time t)
{
    run_advance(a->run, t, UINT64_MAX);
    a->cursor_follow = true;
    after_advance(a);
}

/* ------------------------------------------------------------ what-if */

static bool reload(tui_app *a, char (*edits)[2][96], int n, const char *what)
{
    fs_err err = {0, ""};
    tui_run *r = load_run(a, edits, n, &err);
    if (!r) {
        app_message(a, true, "%s: %s  (the previous run stays)", what, err.msg);
        return false;
    }
    const plan *pl = sim_plan(r->s);
    if (!pl->fits) {
        app_message(a, true, "%s: infeasible: %s  (the previous run stays)", what, pl->fit_msg);
        run_free(r);
        return false;
    }
    if (!edits) memset(a->edits, 0, sizeof a->edits);
    else if (edits != a->edits) memcpy(a->edits, edits, sizeof a->edits);
    a->nedits = n;
    run_free(a->run);
    a->run = r;
    a->goal = GOAL_NONE;
    a->cursor_follow = true;
    a->fit = true;
    if (!a->rate_set) {
        /* a step of the new plan should take about as long to watch */
        double step_s = probe_step(r);
        if (step_s > 0) a->rate = app_rate_for(step_s, APP_WALL_PER_STEP);
    }
    panes_open(a);
    after_advance(a);
    app_message(a, false, "%s: restarted (%s)", what, r->label);
    return true;
}

bool app_set(tui_app *a, const char *path, const char *value)
{
    char (*e)[2][96] = xmalloc(sizeof a->edits);
    memcpy(e, a->edits, sizeof a->edits);
    int n = a->nedits, k;
    for (k = 0; k < n && strcmp(e[k][0], path); k++) {}
    if (k == n) {
        if (n == APP_EDITS_MAX) { app_message(a, true, "too many edits; x drops them all"); free(e); return false; }
        n++;
    }
    snprintf(e[k][0], sizeof e[k][0], "%s", path);
    snprintf(e[k][1], sizeof e[k][1], "%s", value);
    char what[200];
    snprintf(what, sizeof what, "%s=%s", path, value);
    bool ok = reload(a, e, n, what);
    free(e);
    return ok;
}

static bool app_unset(tui_app *a, const char *path)
{
    char (*e)[2][96] = xcalloc(1, sizeof a->edits);
    int n = 0;
    for (int i = 0; i < a->nedits; i++)
        if (strcmp(a->edits[i][0], path)) memcpy(e[n++], a->edits[i], sizeof e[0]);
    bool ok = n == a->nedits ? (app_message(a, true, "unset: %s was not edited", path), false)
                             : reload(a, e, n, "unset");
    free(e);
    return ok;
}

static int rollout_pool_devices(const tui_run *r)
{
    const plan *pl = sim_plan(r->s);
    for (int p = 0; p < pl->npools; p++)
        if ((pl->pools[p].roles & ROLE_ROLLOUT) && !(pl->pools[p].roles & ROLE_TRAIN)) return pl->pools[p].devices;
    return r->scn.plan.rollout_devices;
}

static int whatif(tui_app *a, tui_req req)
{
    const scn_scenario *sc = &a->run->scn;
    char v[64];
    int step;
    switch (req) {
    case REQ_MODE: {
        scn_mode m = sc->plan.mode == MODE_SEPARATE ? MODE_COLOCATE : sc->plan.mode == MODE_COLOCATE ? MODE_FULL : MODE_SEPARATE;
        app_set(a, "plan.mode", scn_mode_name(m));
        break;
    }
    case REQ_STALE_UP: case REQ_STALE_DOWN: {
        int s = sc->plan.staleness + (req == REQ_STALE_UP ? 1 : -1);
        if (s < 0) { app_message(a, true, "the staleness bound is already 0 (synchronous)"); break; }
        snprintf(v, sizeof v, "%d", s);
        app_set(a, "plan.staleness", v);
        break;
    }
    case REQ_PARTIAL_UP: case REQ_PARTIAL_DOWN: {
        double f = sc->plan.partial_rollout + (req == REQ_PARTIAL_UP ? 0.05 : -0.05);
        if (f > 1) f = 1;
        if (f < 0.05) f = 0.05;
        snprintf(v, sizeof v, "%.2f", f);
        app_set(a, "plan.partial_rollout", v);
        break;
    }
    case REQ_SPLIT_UP: case REQ_SPLIT_DOWN: {
        if (sc->plan.mode != MODE_SEPARATE) {
            app_message(a, true, "d/D move the pool split, which exists in separate mode only (m switches mode); "
                        "%s runs rollout and training on the same devices", scn_mode_name(sc->plan.mode));
            break;
        }
        /* by whole rollout instances, and so that the training pool keeps
        ** whole pipelines (TP x PP): the smallest move that both allow */
        const plan *pl = sim_plan(a->run->s);
        int inst = 0, pipe = 1;
        for (int p = 0; p < pl->npools; p++) {
            if ((pl->pools[p].roles & ROLE_ROLLOUT) && pl->pools[p].inst_devices > 0) inst = pl->pools[p].inst_devices;
            if ((pl->pools[p].roles & ROLE_TRAIN) && pl->pools[p].tp * pl->pools[p].pp > 0) pipe = pl->pools[p].tp * pl->pools[p].pp;
        }
        if (inst <= 0) inst = sc->cluster.devices_per_node > 0 ? sc->cluster.devices_per_node : 1;
        step = inst;
        while (step % pipe) step += inst;
        int cur = rollout_pool_devices(a->run);
        if (cur <= 0) cur = scn_total_devices(&sc->cluster) / 2;
        int nv = cur + (req == REQ_SPLIT_UP ? step : -step);
        if (nv < inst) { app_message(a, true, "the rollout pool cannot shrink by %d devices: it has %d", step, cur); break; }
        if (nv >= scn_total_devices(&sc->cluster)) {
            app_message(a, true, "the training pool needs devices: the rollout pool cannot grow past %d", cur);
            break;
        }
        snprintf(v, sizeof v, "%d", nv);
        int total = scn_total_devices(&sc->cluster);    /* sc goes with the run app_set replaces */
        if (app_set(a, "plan.rollout_devices", v))
            app_message(a, false, "plan.rollout_devices=%d: rollout %d devices (%d instance%s of %d), training %d "
                        "(whole pipelines of %d); d/D move %d devices", nv, nv, nv / inst, nv / inst == 1 ? "" : "s", inst,
                        total - nv, pipe, step);
        break;
    }
    case REQ_RTP_UP: case REQ_RTP_DOWN: {
        int tp = req == REQ_RTP_UP ? sc->plan.rollout.tp * 2 : sc->plan.rollout.tp / 2;
        if (tp < 1) { app_message(a, true, "rollout TP is already 1"); break; }
        snprintf(v, sizeof v, "%d", tp);
        app_set(a, "plan.rollout.tp", v);
        break;
    }
    case REQ_SN_UP: case REQ_SN_DOWN: {
        int n = sc->cluster.supernodes + (req == REQ_SN_UP ? 1 : -1);
        if (n < 1) { app_message(a, true, "at least one supernode"); break; }
        snprintf(v, sizeof v, "%d", n);
        app_set(a, "cluster.supernodes", v);
        break;
    }
    case REQ_ITER_UP: case REQ_ITER_DOWN: {
        int n = sc->work.iterations + (req == REQ_ITER_UP ? 1 : -1);
        if (n < 1) { app_message(a, true, "at least one iteration"); break; }
        snprintf(v, sizeof v, "%d", n);
        app_set(a, "workload.iterations", v);
        break;
    }
    default:
        return RE_NONE;
    }
    return RE_REDRAW;
}

/* ------------------------------------------------------ snapshots, export */

static void snapshot(tui_app *a, int which)
{
    fs_err err = {0, ""};
    runner_spec spec = {.scn = &a->run->scn};
    tui_run *r = run_new(&spec, a->run->label, &err);
    if (!r) { app_message(a, true, "snapshot: %s", err.msg); return; }
    run_free(a->snap[which]);
    a->snap[which] = r;
    app_message(a, false, "Snapshot %c: %s (computed in the background).  c compares.", "AB"[which], r->label);
}

/* Exports go to --out, else the current folder: never beside the scenario,
** which may be a file shipped in the project's examples/ (a checkout's
** `git status` would list them). */
static void export_run(tui_app *a)
{
    const char *scn = a->opts.scenario;
    const char *slash = strrchr(scn, '/');
    const char *base = slash ? slash + 1 : scn;
    size_t bl = strlen(base);
    if (bl > 4 && !strcmp(base + bl - 4, ".lua")) bl -= 4;
    const char *dir = a->opts.out_dir ? a->opts.out_dir : ".";
    char tpath[1100], jpath[1100];
    snprintf(tpath, sizeof tpath, "%s/%.*s.trace.json", dir, (int)bl, base);
    snprintf(jpath, sizeof jpath, "%s/%.*s.report.json", dir, (int)bl, base);
    fs_err err = {0, ""};
    if (!chrome_write_trace(a->run->s, tpath, &err)) {
        if (a->opts.out_dir) app_message(a, true, "export: %s (--out %s)", err.msg, a->opts.out_dir);
        else app_message(a, true, "export: %s (use --out DIR)", err.msg);
        return;
    }
    report rp;
    report_compute(a->run->s, &rp);
    fs_buf b;
    buf_init(&b);
    report_json_steps(a->run->s, &rp, NULL, &b, true);
    bool ok = write_file_atomic(jpath, b.s, b.len, &err);
    buf_free(&b);
    if (!ok) { app_message(a, true, "export: %s", err.msg); return; }
    app_message(a, false, "Exported %s and %s%s", tpath, jpath, run_over(a->run) ? "" : " (run not finished)");
}

bool app_export_svg(tui_app *a, char *out, size_t n)
{
    svg_run runs[2];
    char labels[2][200];
    int nr = 0;
    svg_view v = {0, 0, 0, 0};
    bool pair = a->ls.compare && (a->snap[0] || a->snap[1]);
    if (pair) {
        /* both on one axis, each as far as it has run */
        for (int i = 0; i < 2; i++) {
            const tui_run *sr = a->snap[i];
            if (!sr) continue;
            snprintf(labels[i], sizeof labels[i], "%c: %s", "AB"[i], sr->label);
            runs[nr++] = (svg_run){sr->s, labels[i], sr->report_ready && !sr->rep.feasible ? sr->rep.why : NULL};
        }
    } else {
        const tui_run *lr = a->run;
        runs[nr++] = (svg_run){lr->s, NULL, lr->report_ready && !lr->rep.feasible ? lr->rep.why : NULL};
        app_window(a, &v.t0, &v.t1);
    }
    bool done = pair ? (!a->snap[0] || run_over(a->snap[0])) && (!a->snap[1] || run_over(a->snap[1])) : run_over(a->run);
    svg_export_job j = {a->opts.scenario, a->opts.out_dir, runs, nr, &v, pair, done};
    char msg[sizeof a->msg];
    bool ok = svg_export_write(&j, out, n, msg, sizeof msg);
    app_message(a, !ok, "%s", msg);
    return ok;
}

/* ----------------------------------------------------------- requests */

static void cursor_move(tui_app *a, int cols)
{
    sim_time t0, t1;
    app_window(a, &t0, &t1);
    int w = a->v.plot_w > 0 ? a->v.plot_w : 80;
    sim_time col = (t1 - t0) / w;
    if (col < 1) col = 1;
    sim_time now = run_now(a->run), c = a->cursor + col * cols;
    if (c < 0) c = 0;
    if (c > now) c = now;
    a->cursor = c;
    a->cursor_follow = c == now && cols > 0;
    if (!a->fit && (c < t0 || c >= t1)) {
        sim_time span = t1 - t0;
        a->view_t0 = c - span / 2 < 0 ? 0 : c - span / 2;
        a->view_t1 = a->view_t0 + span;
    }
}

static void zoom(tui_app *a, bool in)
{
    sim_time t0, t1;
    app_window(a, &t0, &t1);
    sim_time span = t1 - t0, now = run_now(a->run);
    span = in ? span / 2 : span * 2;
    if (span < 1000) span = 1000;
    if (!in && span >= now) { a->fit = true; return; }
    a->fit = false;
    sim_time c = a->cursor;
    a->view_t0 = c - span / 2 < 0 ? 0 : c - span / 2;
    a->view_t1 = a->view_t0 + span;
}

int app_request(tui_app *a, tui_req req)
{
    int re = whatif(a, req);
    if (re) return re;
    switch (req) {
    case REQ_NONE: return RE_NONE;
    case REQ_PLAY:
        if (run_over(a->run)) { app_message(a, false, "The run is over: press 0 to restart it."); return RE_REDRAW; }
        a->playing = !a->playing;
        a->goal = GOAL_NONE;
        if (a->playing) app_message(a, false, "Playing at x%g (simulated seconds per second).", a->rate);
        else {
            char t[24];
            style_fmt_time(t, sizeof t, run_now(a->run));
            app_message(a, false, "Paused at t=%s (simulated).  space plays, . steps one event, n to the end of the step.", t);
        }
        return RE_REDRAW;
    case REQ_STEP_EVENT: {
        a->playing = false;
        a->goal = GOAL_NONE;
        if (run_over(a->run)) { app_message(a, false, "The run is over: press 0 to restart it."); return RE_REDRAW; }
        const trace *t = sim_trace(a->run->s);
        size_t ns = trace_nspans(t), ni = trace_ninstants(t);
        sim_time before = run_now(a->run);
        sim_step_events(a->run->s, 1);
        after_advance(a);
        char what[300], at[24];
        run_describe_since(a->run, ns, ni, what, sizeof what);
        style_fmt_time(at, sizeof at, run_now(a->run));
        app_message(a, false, "Event at t=%s%s: %s", at, run_now(a->run) == before ? "" : " (the clock moved)",
                    what[0] ? what : "the engine's state changed; nothing recorded yet (a span is recorded when it ends)");
        return RE_REDRAW;
    }
    case REQ_STEP_ITER:
        a->playing = false;
        a->goal = GOAL_ITER;
        a->goal_iter = sim_get_stats(a->run->s)->iterations_done + 1;
        app_message(a, false, "Running to the end of step %d, then pausing.", a->goal_iter);
        return RE_REDRAW;
    case REQ_END:
        a->goal = GOAL_END;
        app_message(a, false, "Running to the end.");
        a->cursor_follow = true;
        return RE_REDRAW;
    case REQ_RESTART: {
        fs_err err = {0, ""};
        runner_spec spec = {.scn = &a->run->scn};
    tui_run *r = run_new(&spec, a->run->label, &err);
        if (!r) { app_message(a, true, "restart: %s", err.msg); return RE_REDRAW; }
        run_free(a->run);
        a->run = r;
        a->goal = GOAL_NONE;
        a->playing = true;
        a->cursor_follow = true;
        a->fit = true;
        panes_open(a);
        after_advance(a);
        app_message(a, false, "Restarted from t = 0.");
        return RE_REDRAW;
    }
    case REQ_FASTER: case REQ_SLOWER:
        a->rate = req == REQ_FASTER ? a->rate * 2 : a->rate / 2;
        if (a->rate > RATE_MAX) a->rate = RATE_MAX;
        if (a->rate < RATE_MIN) a->rate = RATE_MIN;
        a->rate_set = true;
        app_message(a, false, "Rate x%g (simulated seconds per second).", a->rate);
        return RE_REDRAW;
    case REQ_FOCUS_NEXT: case REQ_FOCUS_PREV: {
        /* among the panes shown, in their rows' order (pane_list.h) */
        int ids[PANE__COUNT], n = 0, k = 0, was = a->focus;
        for (int i = 0; i < PANE__COUNT; i++) if (layout_pane_shown(&a->ls, i)) ids[n++] = i;
        for (int i = 0; i < n; i++) if (ids[i] == a->focus) k = i;
        k = (k + (req == REQ_FOCUS_NEXT ? 1 : n - 1)) % n;
        a->focus = ids[k];
        return a->focus != was ? RE_REDRAW : RE_HANDLED;
    }
    case REQ_ZOOM_PANE:
        a->ls.zoom = a->ls.zoom >= 0 ? -1 : a->focus;
        return RE_REDRAW;
    case REQ_LEFT: cursor_move(a, -1); return RE_REDRAW;
    case REQ_RIGHT: cursor_move(a, 1); return RE_REDRAW;
    case REQ_LEFT_FAST: cursor_move(a, -10); return RE_REDRAW;
    case REQ_RIGHT_FAST: cursor_move(a, 10); return RE_REDRAW;
    case REQ_HOME: a->cursor = 0; a->cursor_follow = false; if (!a->fit) { sim_time w = a->view_t1 - a->view_t0; a->view_t0 = 0; a->view_t1 = w; } return RE_REDRAW;
    case REQ_FOLLOW: a->cursor_follow = true; a->cursor = run_now(a->run); return RE_REDRAW;
    case REQ_ZOOM_IN: zoom(a, true); return RE_REDRAW;
    case REQ_ZOOM_OUT: zoom(a, false); return RE_REDRAW;
    case REQ_FIT:
        if (a->fit) return RE_HANDLED;
        a->fit = true;
        return RE_REDRAW;
    case REQ_UP: case REQ_DOWN: case REQ_PGUP: case REQ_PGDN: case REQ_EXPAND: {
        /* the focused pane's own reaction: RE_NONE if the request is not one it takes */
        const pane_ops *p = pane_get(a->focus);
        return p && p->request ? p->request(a, req, (tui_rect){0, 0, 0, 0}) : RE_NONE;
    }
    case REQ_RESET_EDITS:
        if (!a->nedits) { app_message(a, false, "No edits: the run is as in the scenario file."); return RE_REDRAW; }
        reload(a, NULL, 0, "reset");
        return RE_REDRAW;
    case REQ_COMMAND:
        a->cmdline = true;
        a->cmdlen = 0;
        a->cmd[0] = 0;
        a->cmd_hint[0] = 0;
        a->hist_pos = a->nhist;
        return RE_REDRAW;
    case REQ_SNAP_A: snapshot(a, 0); return RE_REDRAW;
    case REQ_SNAP_B: snapshot(a, 1); return RE_REDRAW;
    case REQ_COMPARE:
        if (!a->snap[0] && !a->snap[1]) {
            app_message(a, true, "No snapshots yet: a keeps this plan as A; edit; b keeps the next as B.");
            return RE_REDRAW;
        }
        a->ls.compare = !a->ls.compare;
        if (a->ls.compare) a->focus = PANE_COMPARE;
        else if (a->focus == PANE_COMPARE) a->focus = PANE_TIMELINE;
        if (a->ls.zoom == PANE_COMPARE && !a->ls.compare) a->ls.zoom = -1;
        return RE_REDRAW;
    case REQ_EXPORT: export_run(a); return RE_REDRAW;
    case REQ_EXPORT_SVG: app_export_svg(a, NULL, 0); return RE_REDRAW;
    case REQ_LESSONS: {
        char why[512];
        if (!a->menu) a->menu = xcalloc(1, sizeof *a->menu);
        if (!lesson_menu_open(a->menu, a->opts.scenario, why, sizeof why)) app_message(a, true, "%s", why);
        return RE_REDRAW;
    }
    case REQ_HELP: a->ls.help = !a->ls.help; a->v.help_top = 0; return RE_REDRAW;
    case REQ_REDRAW: return RE_REPAINT;
    case REQ_QUIT: a->quit = true; return RE_QUIT;
    default: return RE_NONE;
    }
}

int app_command(tui_app *a, const char *line)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", line);
    char *s = buf;
    while (*s == ' ') s++;
    size_t l = strlen(s);
    while (l && s[l - 1] == ' ') s[--l] = 0;
    if (!*s) return RE_REDRAW;
    if (!strncmp(s, "set ", 4)) { s += 4; while (*s == ' ') s++; }
    char *eq = strchr(s, '=');
    if (eq && !strchr(s, ' ')) {
        *eq = 0;
        if (!*s) { app_message(a, true, ":set: expected PATH=VALUE, e.g. :set plan.staleness=2"); return RE_REDRAW; }
        app_set(a, s, eq + 1);
        return RE_REDRAW;
    }
    if (!strncmp(s, "unset ", 6)) { app_unset(a, s + 6); return RE_REDRAW; }
    if (!strcmp(s, "reset")) return app_request(a, REQ_RESET_EDITS);
    if (!strcmp(s, "q") || !strcmp(s, "quit")) return app_request(a, REQ_QUIT);
    if (!strcmp(s, "help")) return app_request(a, REQ_HELP);
    if (!strcmp(s, "export")) return app_request(a, REQ_EXPORT);
    if (!strcmp(s, "svg")) return app_request(a, REQ_EXPORT_SVG);
    if (!strcmp(s, "a")) return app_request(a, REQ_SNAP_A);
    if (!strcmp(s, "b")) return app_request(a, REQ_SNAP_B);
    if (!strcmp(s, "compare")) return app_request(a, REQ_COMPARE);
    if (!strncmp(s, "rate ", 5)) {
        char *end;
        double r = strtod(s + 5, &end);
        if (end == s + 5 || *end || !(r >= RATE_MIN && r <= RATE_MAX)) {
            app_message(a, true, ":rate: expected a number of simulated seconds per second in %g..%g", RATE_MIN, RATE_MAX);
        } else {
            a->rate = r;
            a->rate_set = true;
            app_message(a, false, "Rate x%g (simulated seconds per second).", r);
        }
        return RE_REDRAW;
    }
    app_message(a, true, "unknown command '%s'; try set PATH=VALUE, unset PATH, reset, rate N, a, b, compare, export, svg, help, quit", s);
    return RE_REDRAW;
}

/* ---------------------------------------------------------- completion */

static const fdesc *fields_sub(const fdesc *f)
{
    if (!f || !f->sub) return NULL;
    return f->kind == FK_ARR ? NULL : f->sub;
}

/* What completion says, under the : line (the message bar is the : line
** while it is open). */
static void cmd_say(tui_app *a, bool err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->cmd_hint, sizeof a->cmd_hint, fmt, ap);
    va_end(ap);
    a->cmd_hint_err = err;
}

int app_complete(tui_app *a)
{
    static const char *const cmds[] = {"set ", "unset ", "reset", "rate ", "a", "b", "compare", "export", "help", "quit"};
    /* the word under completion: after "set " / "unset ", or the whole line */
    char *w = a->cmd;
    if (!strncmp(w, "set ", 4)) w += 4;
    else if (!strncmp(w, "unset ", 6)) w += 6;
    else if (!strchr(w, '.') && !strchr(w, ' ')) {
        /* a command name, or the first part of a path */
        int nc = 0, last = -1;
        for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
            if (!strncmp(cmds[i], w, strlen(w))) { nc++; last = (int)i; }
        if (nc == 1 && strlen(w) < strlen(cmds[last])) {
            snprintf(a->cmd, sizeof a->cmd, "%s", cmds[last]);
            a->cmdlen = (int)strlen(a->cmd);
            return 1;
        }
    }
    while (*w == ' ') w++;
    if (strchr(w, '=')) return 0;
    /* walk the records named before the last dot */
    const fdesc *rec = FIELDS_TOP;
    char *p = w, *dot;
    while (rec && (dot = strchr(p, '.'))) {
        char part[96];
        snprintf(part, sizeof part, "%.*s", (int)(dot - p), p);
        rec = fields_sub(fields_find(rec, part));
        p = dot + 1;
    }
    if (!rec) { cmd_say(a, true, "no field path starts with '%s' (fusync fields lists them)", w); return 0; }
    size_t pl = strlen(p);
    const fdesc *only = NULL;
    int n = 0;
    size_t common = 0;
    char list[400] = "";
    size_t ll = 0;
    for (const fdesc *f = rec; f->name; f++) {
        if (strncmp(f->name, p, pl) || (f->flags & FF_DERIVED)) continue;
        if (!only) { only = f; common = strlen(f->name); }
        else {
            size_t k = 0;
            while (k < common && f->name[k] == only->name[k]) k++;
            common = k;
        }
        n++;
        if (ll < sizeof list - 1) ll += (size_t)snprintf(list + ll, sizeof list - ll, "%s%s", ll ? " " : "", f->name);
    }
    if (n == 0) { cmd_say(a, true, "no field '%s' here (fusync fields lists them)", p); return 0; }
    size_t base = (size_t)(p - a->cmd);
    char add[128];
    if (n == 1) snprintf(add, sizeof add, "%s%s", only->name, fields_sub(only) ? "." : "=");
    else snprintf(add, sizeof add, "%.*s", (int)common, only->name);
    if (base + strlen(add) < sizeof a->cmd) {
        snprintf(a->cmd + base, sizeof a->cmd - base, "%s", add);
        a->cmdlen = (int)strlen(a->cmd);
    }
    if (n > 1) cmd_say(a, false, "%d fields: %s", n, list);
    else if (!fields_sub(only) && only->doc) cmd_say(a, false, "%s: %s", only->name, only->doc);
    return n;
}

/* -------------------------------------------------------------- events */

static int cmdline_key(tui_app *a, int key)
{
    if (key == TK_CTRL('l')) return RE_REPAINT;
    a->cmd_hint[0] = 0;     /* what the last Tab said is about the line before this key */
    if (key == TK_ESC || key == TK_CTRL('g')) { a->cmdline = false; return RE_REDRAW; }
    if (key == TK_ENTER) {
        a->cmdline = false;
        if (a->cmdlen && (!a->nhist || strcmp(a->hist[a->nhist - 1], a->cmd))) {
            if (a->nhist == APP_HIST_MAX) { memmove(a->hist[0], a->hist[1], sizeof a->hist[0] * (APP_HIST_MAX - 1)); a->nhist--; }
            snprintf(a->hist[a->nhist++], sizeof a->hist[0], "%s", a->cmd);
        }
        a->hist_pos = a->nhist;
        return app_command(a, a->cmd) | RE_REDRAW;
    }
    if (key == TK_UP || key == TK_DOWN) {
        int p = a->hist_pos + (key == TK_UP ? -1 : 1);
        if (p < 0 || p > a->nhist) return RE_HANDLED;
        a->hist_pos = p;
        snprintf(a->cmd, sizeof a->cmd, "%s", p < a->nhist ? a->hist[p] : "");
        a->cmdlen = (int)strlen(a->cmd);
        return RE_REDRAW;
    }
    if (key == TK_TAB) return app_complete(a) >= 0 ? RE_REDRAW : RE_HANDLED;
    if (key == TK_BACKSPACE) {
        if (a->cmdlen > 0) a->cmd[--a->cmdlen] = 0;
        else a->cmdline = false;
        return RE_REDRAW;
    }
    if (key == TK_CTRL('u')) { a->cmdlen = 0; a->cmd[0] = 0; return RE_REDRAW; }
    if (key >= 32 && key < 127 && a->cmdlen < (int)sizeof a->cmd - 1) {
        a->cmd[a->cmdlen++] = (char)key;
        a->cmd[a->cmdlen] = 0;
        return RE_REDRAW;
    }
    return RE_HANDLED;      /* a key the command line does not take */
}

static int help_key(tui_app *a, int key)
{
    tui_req r = keymap_lookup(key);
    switch (r) {
    case REQ_UP:
        if (a->v.help_top == 0) return RE_HANDLED;
        a->v.help_top--;
        return RE_REDRAW;
    case REQ_DOWN: a->v.help_top++; return RE_REDRAW;       /* clamped when drawn */
    case REQ_PGUP:
        if (a->v.help_top == 0) return RE_HANDLED;
        a->v.help_top = a->v.help_top > 10 ? a->v.help_top - 10 : 0;
        return RE_REDRAW;
    case REQ_PGDN: a->v.help_top += 10; return RE_REDRAW;
    case REQ_REDRAW: return RE_REPAINT;
    default: break;
    }
    a->ls.help = false;     /* any other key closes help (q too: it does not quit here) */
    return RE_REDRAW;
}

int app_event(tui_app *a, const tui_event *ev, const tui_layout *L)
{
    if (ev->key == TK_NONE) return RE_NONE;
    if (ev->key == TK_RESIZE) return RE_REPAINT;
    if (a->cmdline && ev->key != TK_MOUSE) return cmdline_key(a, ev->key);
    if (a->ls.help) return ev->key == TK_MOUSE ? RE_NONE : help_key(a, ev->key);
    if (ev->key == TK_MOUSE) {
        if (!a->mouse || !L || L->too_small) return RE_NONE;
        for (int id = 0; id < PANE__COUNT; id++) {
            if (!L->visible[id] || !rect_has(L->pane[id], ev->y, ev->x)) continue;
            int re = a->focus != id ? RE_REDRAW : RE_HANDLED;      /* the focus border moves */
            a->focus = id;
            const pane_ops *p = pane_get(id);
            tui_rect in = rect_inner(L->pane[id]);
            if (ev->button == 4 || ev->button == 5) {
                if (p->request) re |= p->request(a, ev->button == 4 ? REQ_UP : REQ_DOWN, in);
            } else if (p->click) {
                re |= p->click(a, in, ev->y - in.y, ev->x - in.x, ev->button);
            }
            return re;
        }
        return RE_NONE;
    }
    if (ev->key == TK_ESC) {
        if (a->ls.zoom >= 0) { a->ls.zoom = -1; return RE_REDRAW; }
        if (a->ls.compare) return app_request(a, REQ_COMPARE);
        return RE_HANDLED;
    }
    tui_req r = keymap_lookup(ev->key);
    if (r == REQ_NONE) {
        char kb[16];
        app_message(a, true, "%s is not bound to anything; ? lists the keys", keymap_key_name(ev->key, kb, sizeof kb));
        return RE_REDRAW;
    }
    return app_request(a, r);
}
