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

static void header(tui_app *a, tui_canvas *cv, tui_rect r)
{
    const tui_run *run = a->run;
    const scn_scenario *sc = &run->scn;
    const sim_stats *st = sim_get_stats(run->s);
    cv_fill(cv, r, ' ', ST_HEADER);
    char now[24];
    style_fmt_time(now, sizeof now, run_now(run));
    const char *state = run_over(run) ? "done" : a->goal == GOAL_END ? "to end" : a->goal == GOAL_ITER ? "to step"
                        : a->playing ? "play" : "pause";
    int n = cv_text(cv, r.y, r.x, r.w, ST_HEADER_BOLD, " fusync ");
    n += cv_printf(cv, r.y, r.x + n, r.w - n, ST_HEADER, " %s  %s s=%d  %d dev%s  |  ", sc->name,
                   scn_mode_name(sc->plan.mode), sc->plan.staleness, sim_plan(run->s)->used_devices,
                   a->nedits ? " (edited)" : "");
    n += cv_printf(cv, r.y, r.x + n, r.w - n, ST_HEADER_BOLD, "%s", state);
    n += cv_printf(cv, r.y, r.x + n, r.w - n, ST_HEADER, " x%g  t=%s  step %d/%d", a->rate, now, st->iterations_done,
                   sc->work.iterations);
    if (a->snap[0] || a->snap[1])
        cv_printf(cv, r.y, r.x + n, r.w - n, ST_HEADER, "  |  %s%s", a->snap[0] ? "A " : "", a->snap[1] ? "B" : "");
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

static void keys(tui_canvas *cv, tui_rect r)
{
    static const char *hints[][2] = {
        {"space", "play"}, {".", "event"}, {"n", "iter"}, {"G", "end"}, {"Tab", "pane"}, {"m", "mode"},
        {"s/S", "stale"}, {":", "set"}, {"a/b/c", "A/B"}, {"e", "export"}, {"?", "help"}, {"q", "quit"},
    };
    int x = r.x;
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        int need = (int)(strlen(hints[i][0]) + strlen(hints[i][1]) + 2);
        if (x + need > r.x + r.w) break;
        x += cv_text(cv, r.y, x, r.w - (x - r.x), ST_KEY, hints[i][0]);
        x += cv_printf(cv, r.y, x, r.w - (x - r.x), ST_FOOTER, " %s ", hints[i][1]);
    }
}

static void help(tui_app *a, tui_canvas *cv, tui_rect r)
{
    char lines[128][96];
    int n = keymap_help_lines(lines, 128);
    cv_fill(cv, r, ' ', ST_NORMAL);
    cv_box(cv, r, ST_BORDER_FOCUS, "Help: keys (from the live key map)", ST_TITLE_FOCUS);
    tui_rect in = rect_inner(r);
    if (in.h <= 0) return;
    int foot = 1, room = in.h - foot;
    if (room < 1) { room = in.h; foot = 0; }
    if (a->v.help_top > n - room) a->v.help_top = n - room > 0 ? n - room : 0;
    for (int i = 0; i < room && a->v.help_top + i < n; i++) {
        const char *l = lines[a->v.help_top + i];
        cv_text(cv, in.y + i, in.x + 1, in.w - 1, l[0] && l[0] != ' ' ? ST_BOLD : ST_NORMAL, l);
    }
    if (foot)
        cv_printf(cv, in.y + in.h - 1, in.x + 1, in.w - 1, ST_DIM, "Up/Down scroll (%d-%d of %d); any other key closes.  "
                  "Options: --no-color --ascii --no-mouse --out DIR --set PATH=VALUE", a->v.help_top + 1,
                  a->v.help_top + room < n ? a->v.help_top + room : n, n);
}

void render_frame(tui_app *a, tui_canvas *cv, int rows, int cols, tui_layout *L)
{
    layout_compute(rows, cols, &a->ls, L);
    cv_resize(cv, rows, cols);
    if (L->too_small) {
        too_small(cv, rows, cols);
        return;
    }
    header(a, cv, L->header);
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
    keys(cv, L->keys);
}
