/*
** render.c — draw one frame into the canvas (see render.h).
*/
#include "render.h"
#include "pane.h"
#include "style.h"

#include <stdio.h>
#include <string.h>

static void too_small(tui_canvas *cv, int rows, int cols)
{
    const char *l1 = "terminal too small";
    char l2[64], l3[64];
    snprintf(l2, sizeof l2, "%dx%d, need %dx%d", cols, rows, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
    snprintf(l3, sizeof l3, "enlarge it, or q quits");
    const char *lines[3] = {l1, l2, l3};
    int y0 = rows / 2 - 1;
    if (y0 < 0) y0 = 0;
    for (int i = 0; i < 3 && y0 + i < rows; i++) {
        int len = (int)strlen(lines[i]);
        int x = cols > len ? (cols - len) / 2 : 0;
        cv_text(cv, y0 + i, x, cols - x, i == 0 ? ST_MSG_ERR : ST_NORMAL, lines[i]);
    }
}

/* The run's alarm, if any: an out-of-memory event already on the clock, or a
** plan whose memory fit fails.  Text for the banner; false if none. */
static bool alarm_text(const tui_app *a, char *out, size_t n)
{
    const tui_run *run = a->run;
    const sim_stats *st = sim_get_stats(run->s);
    const plan *pl = sim_plan(run->s);
    if (st->overflow.happened && st->overflow.t <= run_now(run)) {
        const trace_memgroup *mg = trace_memgroup_at(sim_trace(run->s), st->overflow.group);
        char over[32], at[24];
        fmt_bytes(over, sizeof over, st->overflow.over_bytes);
        style_fmt_time(at, sizeof at, st->overflow.t);
        snprintf(out, n, "OUT OF MEMORY at t=%s: %s %s over capacity by %s (%s grew).  This run's figures are invalid.",
                 at, mg ? mg->name : "?", mg && mg->host ? "host" : "device", over,
                 trace_bucket_name((mem_bucket)st->overflow.bucket));
        return true;
    }
    if (!pl->fits) {
        snprintf(out, n, "DOES NOT FIT: %s.  This run's figures are invalid.", pl->fit_msg);
        return true;
    }
    return false;
}

bool render_alarm(const tui_app *a)
{
    char b[8];
    return alarm_text(a, b, sizeof b);
}

static void banner(tui_app *a, tui_canvas *cv, tui_rect r)
{
    char text[700];
    if (r.h <= 0 || !alarm_text(a, text, sizeof text)) return;
    cv_fill(cv, r, ' ', ST_OOM);
    /* alarm_text's sentences, cut by priority: what, when, where and which
    ** bucket stay; the amount and the verdict go first */
    const sim_stats *st = sim_get_stats(a->run->s);
    if (!st->overflow.happened || st->overflow.t > run_now(a->run)) {
        cv_text(cv, r.y, r.x + 1, r.w - 1, ST_OOM, text);
        return;
    }
    const trace_memgroup *mg = trace_memgroup_at(sim_trace(a->run->s), st->overflow.group);
    char at[48], where[96], by[64], grew[64], t[24];
    style_fmt_time(t, sizeof t, st->overflow.t);
    snprintf(at, sizeof at, "OUT OF MEMORY at t=%s:", t);
    snprintf(where, sizeof where, "%s %s", mg ? mg->name : "?", mg && mg->host ? "host" : "device");
    fmt_bytes(t, sizeof t, st->overflow.over_bytes);
    snprintf(by, sizeof by, "over capacity by %s", t);
    snprintf(grew, sizeof grew, "(%s grew).", trace_bucket_name((mem_bucket)st->overflow.bucket));
    cv_seg seg[] = {
        {at, CV_KEEP, ST_OOM}, {where, CV_KEEP, ST_OOM}, {by, 5, ST_OOM}, {grew, CV_KEEP, ST_OOM},
        {"The run's figures are invalid.", 4, ST_OOM},
    };
    cv_segs(cv, r.y, r.x + 1, r.w - 1, 1, seg, 5);
}

static void header(tui_app *a, tui_canvas *cv, tui_rect r)
{
    const tui_run *run = a->run;
    const scn_scenario *sc = &run->scn;
    const sim_stats *st = sim_get_stats(run->s);
    cv_fill(cv, r, ' ', ST_HEADER);
    char now[32], name[80], mode[48], dev[32], rate[48], step[32], ab[24];
    char clock[24];
    style_fmt_time(clock, sizeof clock, run_now(run));
    snprintf(now, sizeof now, "t=%s", clock);
    const char *state = run_over(run) ? "done" : a->goal == GOAL_END ? "to end" : a->goal == GOAL_ITER ? "to step"
                        : a->playing ? "play" : "pause";
    snprintf(name, sizeof name, "%s%s", sc->name, a->nedits ? " (edited)" : "");
    snprintf(mode, sizeof mode, "%s s=%d", scn_mode_name(sc->plan.mode), sc->plan.staleness);
    snprintf(dev, sizeof dev, "%d dev", sim_plan(run->s)->used_devices);
    snprintf(rate, sizeof rate, "%s x%g", state, a->rate);
    /* the step under way, counted from 1 as everywhere on screen */
    int cur = st->iterations_done + (run_over(run) ? 0 : 1);
    if (cur > sc->work.iterations) cur = sc->work.iterations;
    snprintf(step, sizeof step, "step %d/%d", cur, sc->work.iterations);
    snprintf(ab, sizeof ab, "%s%s%s", a->snap[0] ? "A" : "", a->snap[0] && a->snap[1] ? " " : "", a->snap[1] ? "B" : "");
    bool oom = render_alarm(a);
    /* by priority: the alarm, the step and the snapshots stay; the name goes first */
    cv_seg seg[] = {
        {"fusync", 1, ST_HEADER_BOLD}, {name, 2, ST_HEADER}, {mode, 6, ST_HEADER}, {dev, 3, ST_HEADER},
        {"|", 1, ST_HEADER}, {rate, 7, ST_HEADER_BOLD}, {now, 8, ST_HEADER},
        {step, CV_KEEP, ST_HEADER_BOLD}, {ab[0] ? ab : NULL, CV_KEEP, ST_HEADER_BOLD},
        {oom ? "OOM" : NULL, CV_KEEP, ST_OOM},
    };
    cv_segs(cv, r.y, r.x + 1, r.w - 1, 2, seg, (int)(sizeof seg / sizeof seg[0]));
}

static void status(tui_app *a, tui_canvas *cv, tui_rect r)
{
    if (a->cmdline) {
        int n = cv_printf(cv, r.y, r.x, r.w, ST_BOLD, ":%s", a->cmd);
        if (n < r.w) cv_put(cv, r.y, r.x + n, ' ', ST_CURSOR);
        return;
    }
    if (a->msg[0]) cv_text(cv, r.y, r.x, r.w, a->msg_err ? ST_MSG_ERR : ST_MSG_INFO, a->msg);
}

static void keys(tui_app *a, tui_canvas *cv, tui_rect r)
{
    if (a->cmdline) {
        /* the : line is open: its keys, or what Tab completion found */
        if (a->cmd_hint[0]) cv_text(cv, r.y, r.x, r.w, a->cmd_hint_err ? ST_MSG_ERR : ST_MSG_INFO, a->cmd_hint);
        else cv_text(cv, r.y, r.x, r.w, ST_FOOTER, "Tab completes a field path  Up/Down history  Enter runs  Esc cancels");
        return;
    }
    /* left to right as they read; the help and quit keys never drop out */
    static const struct { const char *key, *what; int prio; } hints[] = {
        {"space", "play", 9}, {".", "event", 3}, {"n", "step", 7}, {"G", "end", 4}, {"Tab", "pane", 2},
        {"m", "mode", 6}, {"s/S", "stale", 5}, {":", "set", 6}, {"a/b/c", "A/B", 5}, {"e", "export", 1},
        {"?", "help", CV_KEEP}, {"q", "quit", CV_KEEP},
    };
    enum { NH = sizeof hints / sizeof hints[0] };
    bool keep[NH];
    int total = 0;
    for (int i = 0; i < NH; i++) { keep[i] = true; total += (int)(strlen(hints[i].key) + strlen(hints[i].what)) + 2; }
    while (total > r.w) {
        int drop = -1;
        for (int i = 0; i < NH; i++)
            if (keep[i] && hints[i].prio < CV_KEEP && (drop < 0 || hints[i].prio < hints[drop].prio)) drop = i;
        if (drop < 0) break;
        keep[drop] = false;
        total -= (int)(strlen(hints[drop].key) + strlen(hints[drop].what)) + 2;
    }
    int x = r.x;
    for (int i = 0; i < NH; i++) {
        if (!keep[i]) continue;
        x += cv_text(cv, r.y, x, r.w - (x - r.x), ST_KEY, hints[i].key);
        x += cv_printf(cv, r.y, x, r.w - (x - r.x), ST_FOOTER, " %s ", hints[i].what);
    }
}

/* The glyph page after the keys: every glyph the panes draw, in the glyph
** and style they draw it (so a UTF-8 terminal shows the same characters as
** the panes).  One entry per line; ch 0 starts a heading. */
typedef struct { int ch, st; const char *text; } help_glyph;

static int glyph_page(help_glyph *g, int max)
{
    int n = 0;
#define GL(c, s, t) do { if (n < max) g[n++] = (help_glyph){(c), (s), (t)}; } while (0)
    GL(0, ST_BOLD, "");
    GL(0, ST_BOLD, "Glyphs: Timeline (the step row, then pool, stage and rollout rows)");
    GL(G_FUTURE, ST_FUTURE, "not known yet (a decode under way is recorded when it ends), or not simulated yet");
    GL(' ', ST_NORMAL, "blank: idle (waiting, offloaded, or done)");
    for (int k = 0; k < STEP__COUNT; k++)
        GL(style_step_letter((trace_step_phase)k), style_step((trace_step_phase)k),
           k == STEP_INFER ? "inference (step row): log-prob, reference, reward" : style_step_label((trace_step_phase)k));
    for (int p = 0; p < PH__COUNT; p++) {
        bool dup = false;
        for (int k = 0; k < STEP__COUNT; k++) dup |= style_step((trace_step_phase)k) == style_phase((trace_phase)p);
        if (!dup) GL(style_phase_letter((trace_phase)p), style_phase((trace_phase)p), style_phase_label((trace_phase)p));
    }
    GL(0, ST_BOLD, "Glyphs: Memory (a bar per device group, host per node)");
    for (int b = 0; b < MB__COUNT; b++)
        GL(style_bucket_letter((mem_bucket)b), style_bucket((mem_bucket)b), trace_bucket_name((mem_bucket)b));
    GL(G_DOT, ST_FREE, "free, up to the capacity");
    GL(G_PEAK, ST_PEAK, "the peak so far");
    GL(G_VLINE, ST_OOM, "the capacity, drawn when something is over it");
    GL(G_SHADE, ST_OOM, "over capacity at the peak");
#undef GL
    return n;
}

static void help(tui_app *a, tui_canvas *cv, tui_rect r)
{
    char lines[128][96];
    int nk = keymap_help_lines(lines, 128);
    help_glyph gl[80];
    int ng = glyph_page(gl, 80), n = nk + ng;
    cv_fill(cv, r, ' ', ST_NORMAL);
    cv_box(cv, r, ST_BORDER_FOCUS, "Help: keys (from the live key map), then glyphs", ST_TITLE_FOCUS);
    tui_rect in = rect_inner(r);
    if (in.h <= 0) return;
    int foot = 1, room = in.h - foot;
    if (room < 1) { room = in.h; foot = 0; }
    if (a->v.help_top > n - room) a->v.help_top = n - room > 0 ? n - room : 0;
    for (int i = 0; i < room && a->v.help_top + i < n; i++) {
        int k = a->v.help_top + i;
        if (k >= nk) {
            const help_glyph *e = &gl[k - nk];
            if (!e->ch) { cv_text(cv, in.y + i, in.x + 1, in.w - 1, ST_BOLD, e->text); continue; }
            cv_put(cv, in.y + i, in.x + 3, e->ch, e->st);
            cv_text(cv, in.y + i, in.x + 5, in.w - 5, ST_NORMAL, e->text);
            continue;
        }
        const char *l = lines[k];
        cv_text(cv, in.y + i, in.x + 1, in.w - 1, l[0] && l[0] != ' ' ? ST_BOLD : ST_NORMAL, l);
    }
    if (foot) {
        char pos[64];
        snprintf(pos, sizeof pos, "Up/Down scroll (%d-%d of %d);", a->v.help_top + 1,
                 a->v.help_top + room < n ? a->v.help_top + room : n, n);
        cv_seg seg[] = {{pos, CV_KEEP, ST_DIM}, {"any other key closes.", CV_KEEP, ST_DIM},
                        {"Options: --no-color --ascii --no-mouse --out DIR --set PATH=VALUE", 3, ST_DIM}};
        cv_segs(cv, in.y + in.h - 1, in.x + 1, in.w - 1, 1, seg, 3);
    }
}

static void draw_frame(tui_app *a, tui_canvas *cv, int rows, int cols, tui_layout *L)
{
    layout_compute(rows, cols, &a->ls, L);
    cv_resize(cv, rows, cols);
    if (L->too_small) {
        too_small(cv, rows, cols);
        return;
    }
    header(a, cv, L->header);
    banner(a, cv, L->banner);
    if (a->focus < 0 || a->focus >= PANE__COUNT || !L->visible[a->focus]) a->focus = PANE_TIMELINE;
    for (int id = 0; id < PANE__COUNT; id++) {
        if (!L->visible[id]) continue;
        bool focus = a->focus == id;
        const pane_ops *p = pane_get(id);
        cv_box(cv, L->pane[id], focus ? ST_BORDER_FOCUS : ST_BORDER, p->title, focus ? ST_TITLE_FOCUS : ST_TITLE);
        p->draw(a, cv, rect_inner(L->pane[id]));
    }
    if (a->ls.help) help(a, cv, L->help);
    status(a, cv, L->status);
    keys(a, cv, L->keys);
}

void render_frame(tui_app *a, tui_canvas *cv, int rows, int cols, tui_layout *L)
{
    a->ls.banner = render_alarm(a);
    /* the panes say how many rows of content they have as they draw; when
    ** that moves the layout (the first frame, a pool opened), draw again at
    ** once, so a frame is always drawn in the layout its content asks for */
    for (int pass = 0; pass < 2; pass++) {
        int before[PANE__COUNT];
        memcpy(before, a->ls.want, sizeof before);
        draw_frame(a, cv, rows, cols, L);
        if (L->too_small || !memcmp(before, a->ls.want, sizeof before)) break;
        tui_layout again;
        layout_compute(rows, cols, &a->ls, &again);
        if (!memcmp(again.pane, L->pane, sizeof again.pane)) break;
    }
}
