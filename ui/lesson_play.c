/*
** lesson_play.c — a guided lesson played in the front end (see lesson_play.h).
*/
#include "lesson_play.h"
#include "lesson.h"
#include "pane.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tui_lesson {
    lesson *l;
    bool    active;
    int     cur;                /* the step shown */
    bool    over;               /* the end card after the last step */
    char    caption[1200];
    char    warn[600];          /* a claim that did not hold, or what failed */
    char    scn[2][1024];       /* the scenario the app points at (two: swap on reload) */
    char    fset[2][LESSON_SETS_MAX][200];  /* what-ifs loaded as --set (see apply_sets) */
    int     scn_k;
    int     base_nsets;         /* the command line's own --set count */
} tui_lesson;

/* The lesson's state rides on the app, which lets it go through drop when
** it closes (app.h): the app calls nothing here. */
static void drop(void *p)
{
    tui_lesson *ls = p;
    lesson_close(ls->l);
    free(ls);
}

static tui_lesson *state(tui_app *a)
{
    if (!a->lesson) {
        a->lesson = xcalloc(1, sizeof(tui_lesson));
        a->lesson_drop = drop;
    }
    return a->lesson;
}

static const tui_lesson *peek(const tui_app *a) { return a->lesson; }

bool lesson_active(const tui_app *a) { return peek(a) && peek(a)->active; }
bool lesson_finished(const tui_app *a) { return peek(a) && peek(a)->over; }
const char *lesson_caption_text(const tui_app *a) { return peek(a) ? peek(a)->caption : ""; }
const char *lesson_warning(const tui_app *a) { return peek(a) ? peek(a)->warn : ""; }

int lesson_current(const tui_app *a, int *nsteps)
{
    const tui_lesson *ls = peek(a);
    if (nsteps) *nsteps = ls && ls->l ? lesson_nsteps(ls->l) : 0;
    return ls ? ls->cur : 0;
}

/* Let the lesson go now (app_close would, later). */
static void lesson_free(tui_app *a)
{
    if (!a->lesson) return;
    drop(a->lesson);
    a->lesson = NULL;
}

/* --------------------------------------------------------- applying */

/* Open `path` in place of the app's scenario, with the command line's --set
** list plus the what-ifs of `st` when given: a new app built aside, so a
** scenario that does not load leaves everything as it was. */
static bool reopen(tui_app *a, const char *path, const lesson_step *st, fs_err *err)
{
    tui_lesson *ls = a->lesson;
    int k = 1 - ls->scn_k;
    snprintf(ls->scn[k], sizeof ls->scn[k], "%s", path);
    cli_opts *o = xmalloc(sizeof *o);
    *o = a->opts;
    /* the base --set list, pointing into this copy */
    for (int i = 0; i < o->nsets; i++)
        for (int j = 0; j < CLI_SETS_MAX; j++)
            if (a->opts.sets[i] == a->opts.owned[j]) { o->sets[i] = o->owned[j]; break; }
    o->nsets = ls->base_nsets;
    for (int i = 0; st && i < st->nsets && o->nsets < CLI_SETS_MAX; i++) {
        snprintf(ls->fset[k][i], sizeof ls->fset[k][i], "%s=%s", st->sets[i][0], st->sets[i][1]);
        o->sets[o->nsets++] = ls->fset[k][i];
    }
    o->scenario = ls->scn[k];
    tui_app *na = xcalloc(1, sizeof *na);
    bool ok = app_open(na, o, err);
    free(o);
    if (!ok) { free(na); return false; }
    na->utf8 = a->utf8;
    na->color = a->color;
    na->mouse = a->mouse;
    a->lesson = NULL;           /* kept across the swap */
    app_close(a);
    *a = *na;
    for (int i = 0; i < a->opts.nsets; i++)
        for (int j = 0; j < CLI_SETS_MAX; j++)
            if (a->opts.sets[i] == na->opts.owned[j]) { a->opts.sets[i] = a->opts.owned[j]; break; }
    free(na);
    a->lesson = ls;
    a->lesson_drop = drop;
    ls->scn_k = k;
    return true;
}

static void finish_snapshots(tui_app *a)
{
    for (;;) {
        bool left = false;
        for (int i = 0; i < 2; i++) if (a->snap[i] && !run_over(a->snap[i])) left = true;
        if (!left) break;
        app_background(a, 1u << 20);
    }
}

static void play(tui_app *a, const lesson_step *st)
{
    switch (st->play) {
    case LPLAY_NONE: break;
    case LPLAY_TIME: {
        sim_time t = sim_from_secs(st->play_value);
        if (t > run_now(a->run)) app_seek(a, t);
        break;
    }
    case LPLAY_STEP:
        a->goal = GOAL_ITER;
        a->goal_iter = (int)st->play_value;
        while (a->goal != GOAL_NONE && !run_over(a->run)) app_tick(a, 0, 1u << 20);
        break;
    case LPLAY_END:
        a->goal = GOAL_END;
        while (!run_over(a->run)) app_tick(a, 0, 1u << 20);
        break;
    }
    a->goal = GOAL_NONE;
    a->playing = false;
}

/* Every what-if of the step at once: all but the last written into the
** edits, the last through app_set, which reloads once with them all.  The
** front end refuses an edit whose plan does not fit by the analytic check;
** a lesson may want to show such a run (how it runs out of memory), so then
** the scenario is loaded again with the what-ifs as --set, as
** `fusync tui SCENARIO --set ...` would load it. */
/* A lesson's number as a person writes it: Lua hands 0.6 over as
** 0.59999999999999998 (every digit of the double); the shortest form that
** reads back as the same double is the same value, and it is what the
** message bar and the edit list show.  Anything else is kept as given. */
static void tidy_value(const char *in, char *out, size_t n)
{
    char *end;
    double v = strtod(in, &end);
    snprintf(out, n, "%s", in);
    if (end == in || *end || !isfinite(v)) return;
    for (int prec = 1; prec <= 17; prec++) {
        char b[40];
        snprintf(b, sizeof b, "%.*g", prec, v);
        if (strtod(b, NULL) == v) { snprintf(out, n, "%s", b); return; }
    }
}

static bool apply_sets(tui_app *a, const lesson_step *st, fs_err *err)
{
    if (!st->nsets) return true;
    char last[96];
    tidy_value(st->sets[st->nsets - 1][1], last, sizeof last);
    char (*keep)[2][96] = xmalloc(sizeof a->edits);
    memcpy(keep, a->edits, sizeof a->edits);
    int nkeep = a->nedits;
    for (int i = 0; i + 1 < st->nsets; i++) {
        int k;
        for (k = 0; k < a->nedits && strcmp(a->edits[k][0], st->sets[i][0]); k++) {}
        if (k == a->nedits) {
            if (a->nedits == APP_EDITS_MAX) break;
            a->nedits++;
        }
        snprintf(a->edits[k][0], sizeof a->edits[k][0], "%s", st->sets[i][0]);
        tidy_value(st->sets[i][1], a->edits[k][1], sizeof a->edits[k][1]);
    }
    bool ok = app_set(a, st->sets[st->nsets - 1][0], last);
    if (!ok) {
        memcpy(a->edits, keep, sizeof a->edits);
        a->nedits = nkeep;
        char scn[1024];
        snprintf(scn, sizeof scn, "%s", a->opts.scenario);
        ok = reopen(a, scn, st, err);
    }
    free(keep);
    return ok;
}

/* Open the pool of the first track whose name holds `row`, and the fold
** of its pipeline stages when it is a stage (Pangu folds 16 of them into
** one row); the timeline selects the row on its next draw, so it is on
** screen at any size. */
static void open_row(tui_app *a, const char *row)
{
    const trace *t = sim_trace(a->run->s);
    snprintf(a->v.want_row, sizeof a->v.want_row, "%s", row);
    for (int k = 0; k < trace_ntracks(t); k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (!strstr(tk->name, row) || tk->pool < 0) continue;
        if (a->v.pool_open && tk->pool < a->v.npools_open) a->v.pool_open[tk->pool] = true;
        if (tk->kind == TRK_STAGE && tk->pool < SCN_POOLS_MAX) a->v.stages_open[tk->pool] = true;
        return;
    }
}

static void figures(tui_app *a, lesson_figs *f, report *live)
{
    memset(f, 0, sizeof *f);
    const sim *s = a->run->s;
    f->time_s = sim_secs(run_now(a->run));
    f->step = sim_get_stats(s)->iterations_done;
    f->steps = a->run->scn.work.iterations;
    report_compute(s, live);
    f->run = a->run->report_ready ? &a->run->rep : live;
    f->a = a->snap[0] && a->snap[0]->report_ready ? &a->snap[0]->rep : NULL;
    f->b = a->snap[1] && a->snap[1]->report_ready ? &a->snap[1]->rep : NULL;
    const plan *pl = sim_plan(s);
    for (int p = 0; p < pl->npools && p < 8; p++) {
        snprintf(f->pools[p].name, sizeof f->pools[p].name, "%s", pl->pools[p].name);
        f->pools[p].devices = pl->pools[p].devices;
        run_pool_shares(a->run, p, &f->pools[p].compute, &f->pools[p].busy);
        f->npools = p + 1;
    }
}

/* The first line of a message (a Lua error's traceback does not fit a box). */
static void say(char *out, size_t n, const char *prefix, const char *msg)
{
    const char *nl = strchr(msg, '\n');
    int len = nl ? (int)(nl - msg) : (int)strlen(msg);
    snprintf(out, n, "%s%.*s", prefix, len, msg);
}

/* Apply step i's actions; `show` also computes its caption and check. */
static void apply_step(tui_app *a, int i, bool show)
{
    tui_lesson *ls = a->lesson;
    const lesson_step *st = lesson_step_at(ls->l, i);
    fs_err err = {0, ""};
    if (show) ls->warn[0] = 0;
    char pre[64];
    snprintf(pre, sizeof pre, "step %d: ", i + 1);
    if (st->scenario[0] && !reopen(a, st->scenario, NULL, &err)) say(ls->warn, sizeof ls->warn, pre, err.msg);
    if (st->reset && a->nedits) app_request(a, REQ_RESET_EDITS);
    if (!apply_sets(a, st, &err)) say(ls->warn, sizeof ls->warn, pre, err.msg);
    if (st->snapshot >= 0) {
        app_request(a, st->snapshot ? REQ_SNAP_B : REQ_SNAP_A);
        finish_snapshots(a);
    }
    play(a, st);
    if (st->compare >= 0 && (bool)st->compare != a->ls.compare && (a->snap[0] || a->snap[1]))
        app_request(a, REQ_COMPARE);
    if (st->row[0]) {
        a->focus = PANE_TIMELINE;
        open_row(a, st->row);
    }
    if (st->pane[0]) a->focus = layout_pane_named(st->pane);
    const sim_stats *ss = sim_get_stats(a->run->s);
    if (!st->has_at && st->pane[0] && layout_pane_named(st->pane) == PANE_MEMORY && ss->overflow.happened
        && ss->overflow.t <= run_now(a->run)) {
        /* a memory step of a run that ran out: the moment it did, so the
        ** bucket that grew is on the bar the caption explains */
        a->cursor = ss->overflow.t;
        a->cursor_follow = false;
    }
    if (st->has_at) {
        sim_time t = sim_from_secs(st->at), now = run_now(a->run);
        a->cursor = t < now ? t : now;
        a->cursor_follow = false;
    }
    if (!show) return;
    lesson_figs f;
    report *live = xmalloc(sizeof *live);
    figures(a, &f, live);
    if (!lesson_caption(ls->l, i, &f, ls->caption, sizeof ls->caption, &err)) {
        snprintf(ls->caption, sizeof ls->caption, "(the caption failed)");
        snprintf(pre, sizeof pre, "steps[%d].caption(): ", i + 1);
        if (!ls->warn[0]) say(ls->warn, sizeof ls->warn, pre, err.msg);
    }
    bool holds;
    char why[400];
    if (ls->warn[0]) {}     /* what failed first is what to say */
    else if (!lesson_check(ls->l, i, &f, &holds, why, sizeof why, &err))
        say(ls->warn, sizeof ls->warn, "", err.msg);
    else if (!holds)
        snprintf(ls->warn, sizeof ls->warn, "this lesson's claim does not hold for this run%s%s", why[0] ? ": " : "", why);
    free(live);
}

/* Show step i: forward one step applies it alone; anything else replays
** the lesson from its scenario, so a step always shows the same run. */
static void goto_step(tui_app *a, int i)
{
    tui_lesson *ls = a->lesson;
    ls->over = false;
    if (i == ls->cur + 1 && ls->active) {
        ls->cur = i;
        apply_step(a, i, true);
        return;
    }
    fs_err err = {0, ""};
    if (!reopen(a, lesson_scenario(ls->l), NULL, &err)) {
        snprintf(ls->warn, sizeof ls->warn, "%s", err.msg);
        return;
    }
    a->playing = false;
    ls->active = true;
    for (int k = 0; k <= i; k++) apply_step(a, k, k == i);
    ls->cur = i;
}

static bool begin(tui_app *a, lesson *l, fs_err *err)
{
    tui_lesson *ls = state(a);
    lesson_close(ls->l);
    ls->l = l;
    if (a->menu) a->menu->open = false;
    ls->over = false;
    ls->cur = -1;
    ls->active = false;
    goto_step(a, 0);
    if (!ls->active) {
        fs_err_set(err, 2, "%s", ls->warn);
        return false;
    }
    app_message(a, false, "Lesson: %s (%d steps).  space next, Backspace back, Esc leaves the lesson.",
                lesson_title(l), lesson_nsteps(l));
    return true;
}

bool lesson_open_app(tui_app *a, const cli_opts *o, fs_err *err)
{
    lesson *l = lesson_open(o->lesson_path, err);
    if (!l) return false;
    cli_opts *c = xmalloc(sizeof *c);
    *c = *o;
    for (int i = 0; i < c->nsets; i++)
        for (int j = 0; j < CLI_SETS_MAX; j++)
            if (o->sets[i] == o->owned[j]) { c->sets[i] = c->owned[j]; break; }
    c->scenario = lesson_scenario(l);
    bool ok = app_open(a, c, err);
    free(c);
    if (!ok) { lesson_close(l); return false; }
    tui_lesson *ls = state(a);
    ls->base_nsets = a->opts.nsets;
    snprintf(ls->scn[0], sizeof ls->scn[0], "%s", lesson_scenario(l));
    a->opts.scenario = ls->scn[0];
    if (!begin(a, l, err)) { lesson_free(a); app_close(a); return false; }
    return true;
}

bool lesson_start(tui_app *a, const char *file, fs_err *err)
{
    lesson *l = lesson_open(file, err);
    if (!l) return false;
    if (!peek(a) || !peek(a)->l) state(a)->base_nsets = a->opts.nsets;
    return begin(a, l, err);
}

/* ----------------------------------------------------------- menu */

static int menu_key(tui_app *a, int key)
{
    lesson_menu *m = a->menu;
    if (key == TK_UP || key == 'k') { if (m->sel > 0) m->sel--; return RE_REDRAW; }
    if (key == TK_DOWN || key == 'j') { if (m->sel + 1 < m->n) m->sel++; return RE_REDRAW; }
    if (key >= '1' && key <= '9' && key - '1' < m->n) { m->sel = key - '1'; key = TK_ENTER; }
    if (key == TK_ENTER) {
        fs_err err = {0, ""};
        char file[sizeof m->file[0]];
        snprintf(file, sizeof file, "%s", m->file[m->sel]);     /* the lesson's app replaces this one, menu and all */
        m->open = false;
        if (!lesson_start(a, file, &err)) app_message(a, true, "lesson: %s", err.msg);
        return RE_REDRAW;
    }
    if (key == TK_CTRL('l')) return RE_REPAINT;
    m->open = false;        /* Esc, q, any other key closes it */
    return RE_REDRAW;
}

/* ----------------------------------------------------------- keys */

int lesson_event(tui_app *a, const tui_event *ev)
{
    tui_lesson *ls = a->lesson;
    if (ev->key == TK_RESIZE || ev->key == TK_MOUSE || ev->key == TK_NONE) return RE_NONE;
    if (a->menu && a->menu->open) return menu_key(a, ev->key);
    if (!ls || !ls->active || a->cmdline || a->ls.help) return RE_NONE;
    int n = lesson_nsteps(ls->l);
    switch (ev->key) {
    case ' ': case TK_ENTER:
        if (ls->over) {
            ls->active = false;
            app_message(a, false, "Left the lesson; the run stays.  o opens the lessons again.");
        } else if (ls->cur + 1 < n) {
            goto_step(a, ls->cur + 1);
        } else {
            ls->over = true;
        }
        return RE_REDRAW;
    case TK_BACKSPACE:
        if (ls->over) ls->over = false;
        else if (ls->cur > 0) goto_step(a, ls->cur - 1);
        return RE_REDRAW;
    case TK_ESC:
        ls->active = false;
        app_message(a, false, "Left the lesson at step %d of %d; the run stays.  o opens the lessons again.",
                    ls->cur + 1, n);
        return RE_REDRAW;
    default:
        return RE_NONE;
    }
}

/* ----------------------------------------------------------- drawing */

/* Word-wrap `s` into lines of at most w columns; returns the count. */
static int wrap(const char *s, int w, char lines[][256], int max)
{
    int n = 0;
    if (w > 255) w = 255;
    if (w < 8) w = 8;
    while (*s && n < max) {
        if (*s == '\n') { lines[n++][0] = 0; s++; continue; }
        int len = 0;
        while (s[len] && s[len] != '\n') len++;
        int cut = len;
        if (len > w) {
            cut = w;
            while (cut > w / 2 && s[cut] != ' ') cut--;
            if (s[cut] != ' ') cut = w;
        }
        snprintf(lines[n++], 256, "%.*s", cut, s);
        s += cut;
        while (*s == ' ') s++;
        if (*s == '\n') s++;
    }
    return n;
}

/* Highlight the timeline row whose label holds `row`, and the cell at the
** cursor; false when no row on screen has it. */
static bool highlight_row(tui_app *a, tui_canvas *cv, const tui_layout *L, const lesson_step *st)
{
    if (!L->visible[PANE_TIMELINE]) return false;
    tui_rect in = rect_inner(L->pane[PANE_TIMELINE]);
    int lw = a->v.plot_x > in.x && a->v.plot_x < in.x + in.w ? a->v.plot_x - in.x : 24;
    if (lw > in.w) lw = in.w;
    char buf[512];
    for (int y = in.y; y < in.y + in.h; y++) {
        cv_row_text(cv, y, in.x, lw, buf);
        if (!strstr(buf, st->row)) continue;
        cv_restyle(cv, (tui_rect){y, in.x, 1, lw}, ST_SELECT);
        cv_put(cv, y, in.x - 1, '>', ST_SELECT);
        if (st->has_at && a->v.plot_w > 0) {
            sim_time t0, t1;
            app_window(a, &t0, &t1);
            if (a->cursor >= t0 && a->cursor < t1 && t1 > t0) {
                int x = a->v.plot_x + (int)((double)(a->cursor - t0) / (double)(t1 - t0) * a->v.plot_w);
                if (x >= a->v.plot_x && x < a->v.plot_x + a->v.plot_w) cv_restyle(cv, (tui_rect){y, x, 1, 1}, ST_CURSOR);
            }
        }
        return true;
    }
    return false;
}

void lesson_draw(tui_app *a, tui_canvas *cv, const tui_layout *L)
{
    tui_lesson *ls = a->lesson;
    if (L->too_small) return;
    if (a->menu && a->menu->open) { lesson_menu_draw(a->menu, cv, L); return; }
    if (!ls || !ls->active || a->ls.help) return;
    const lesson_step *st = lesson_step_at(ls->l, ls->cur);
    bool found = !st || !st->row[0] || ls->over || highlight_row(a, cv, L, st);
    int n = lesson_nsteps(ls->l);
    int w = L->body.w;
    char lines[24][256];
    int nl = 0;
    if (ls->over) {
        nl = wrap("End of the lesson.  Space leaves it; the run stays for you to explore (? lists the keys, "
                  "o opens another lesson).  Backspace shows the last step again.", w - 4, lines, 24);
    } else {
        nl = wrap(ls->caption, w - 4, lines, 20);
        if (!found && nl < 22) {
            char m[160];
            snprintf(m, sizeof m, "(the row '%s' is not on screen: scroll the timeline with j/k)", st->row);
            nl += wrap(m, w - 4, lines + nl, 24 - nl);
        }
    }
    int warn_lines = 0;
    char wl[4][256];
    if (ls->warn[0] && !ls->over) {
        char m[700];
        snprintf(m, sizeof m, "Note: %s", ls->warn);
        warn_lines = wrap(m, w - 4, wl, 4);
    }
    int h = nl + warn_lines + 3;
    int maxh = L->body.h - 3 > 5 ? L->body.h - 3 : L->body.h;
    if (h > maxh) h = maxh;
    /* away from what the step points at: on top when it is a lower pane */
    bool top = st && st->pane[0] && layout_pane_where(layout_pane_named(st->pane)) != LAYOUT_TOP && !ls->over;
    tui_rect r = {top ? L->body.y : L->body.y + L->body.h - h, L->body.x, h, w};
    cv_fill(cv, r, ' ', ST_NORMAL);
    char title[200];
    if (ls->over) snprintf(title, sizeof title, "Lesson: %s (done)", lesson_title(ls->l));
    else snprintf(title, sizeof title, "Lesson %d/%d: %s", ls->cur + 1, n, lesson_title(ls->l));
    cv_box(cv, r, ST_BORDER_FOCUS, title, ST_TITLE_FOCUS);
    tui_rect in = rect_inner(r);
    int y = in.y, room = in.h - 1;
    for (int i = 0; i < nl && room > 0; i++, room--) cv_text(cv, y++, in.x + 1, in.w - 2, ST_NORMAL, lines[i]);
    for (int i = 0; i < warn_lines && room > 0; i++, room--) cv_text(cv, y++, in.x + 1, in.w - 2, ST_MSG_ERR, wl[i]);
    cv_text(cv, in.y + in.h - 1, in.x + 1, in.w - 2, ST_DIM,
            ls->over ? "space leave the lesson  Backspace back  q quit"
                     : "space/Enter next  Backspace back  Esc leave the lesson  q quit");
}
