/*
** lesson_play.c — a guided lesson played in the front end (see lesson_play.h).
*/
#include "lesson_play.h"
#include "lesson.h"
#include "pane.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUSYNC_DATADIR
#define FUSYNC_DATADIR "/usr/local/share/fusync"
#endif

#define MENU_MAX 32

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
    /* menu */
    bool    menu;
    int     nmenu, menu_sel;
    char    menu_dir[1024];
    char    menu_file[MENU_MAX][1024];
    char    menu_title[MENU_MAX][128];
} tui_lesson;

static tui_lesson *state(tui_app *a)
{
    if (!a->lesson) a->lesson = xcalloc(1, sizeof(tui_lesson));
    return a->lesson;
}

bool lesson_active(const tui_app *a) { return a->lesson && a->lesson->active; }
bool lesson_finished(const tui_app *a) { return a->lesson && a->lesson->over; }
const char *lesson_caption_text(const tui_app *a) { return a->lesson ? a->lesson->caption : ""; }
const char *lesson_warning(const tui_app *a) { return a->lesson ? a->lesson->warn : ""; }

int lesson_current(const tui_app *a, int *nsteps)
{
    if (nsteps) *nsteps = a->lesson && a->lesson->l ? lesson_nsteps(a->lesson->l) : 0;
    return a->lesson ? a->lesson->cur : 0;
}

void lesson_free(tui_app *a)
{
    if (!a->lesson) return;
    lesson_close(a->lesson->l);
    free(a->lesson);
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
static bool apply_sets(tui_app *a, const lesson_step *st, fs_err *err)
{
    if (!st->nsets) return true;
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
        snprintf(a->edits[k][1], sizeof a->edits[k][1], "%s", st->sets[i][1]);
    }
    bool ok = app_set(a, st->sets[st->nsets - 1][0], st->sets[st->nsets - 1][1]);
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

/* Open the pool of the first track whose name holds `row`. */
static void open_row(tui_app *a, const char *row)
{
    const trace *t = sim_trace(a->run->s);
    for (int k = 0; k < trace_ntracks(t); k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (!strstr(tk->name, row) || tk->pool < 0) continue;
        if (a->v.pool_open && tk->pool < a->v.npools_open) a->v.pool_open[tk->pool] = true;
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
    ls->menu = false;
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
    if (!a->lesson || !a->lesson->l) state(a)->base_nsets = a->opts.nsets;
    return begin(a, l, err);
}

/* ----------------------------------------------------------- menu */

static int cmp_str(const void *x, const void *y) { return strcmp((const char *)x, (const char *)y); }

/* The first folder with lessons: $FUSYNC_LESSONS, ./lessons, lessons beside
** the scenario's folder, share/fusync/lessons beside the installed binary
** (PREFIX/bin/fusync), the PREFIX the binary was built for. */
static int find_lessons(tui_lesson *ls, const char *scenario)
{
    char cands[5][1024];
    int nc = 0;
    const char *env = getenv("FUSYNC_LESSONS");
    if (env && *env) snprintf(cands[nc++], sizeof cands[0], "%s", env);
    snprintf(cands[nc++], sizeof cands[0], "lessons");
    const char *slash = scenario ? strrchr(scenario, '/') : NULL;
    if (slash) snprintf(cands[nc++], sizeof cands[0], "%.*s/../lessons", (int)(slash - scenario), scenario);
    char exe[1024];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el > 0) {
        exe[el] = 0;
        char *s1 = strrchr(exe, '/');
        if (s1) {
            *s1 = 0;
            snprintf(cands[nc++], sizeof cands[0], "%.900s/../share/fusync/lessons", exe);
        }
    }
    snprintf(cands[nc++], sizeof cands[0], "%s/lessons", FUSYNC_DATADIR);
    for (int c = 0; c < nc; c++) {
        DIR *d = opendir(cands[c]);
        if (!d) continue;
        ls->nmenu = 0;
        struct dirent *e;
        while ((e = readdir(d)) && ls->nmenu < MENU_MAX) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".lua") || e->d_name[0] == '.') continue;
            snprintf(ls->menu_file[ls->nmenu++], sizeof ls->menu_file[0], "%s/%s", cands[c], e->d_name);
        }
        closedir(d);
        if (!ls->nmenu) continue;
        qsort(ls->menu_file, (size_t)ls->nmenu, sizeof ls->menu_file[0], cmp_str);
        snprintf(ls->menu_dir, sizeof ls->menu_dir, "%s", cands[c]);
        for (int i = 0; i < ls->nmenu; i++) {
            fs_err err = {0, ""};
            lesson *l = lesson_open(ls->menu_file[i], &err);
            snprintf(ls->menu_title[i], sizeof ls->menu_title[i], "%s", l ? lesson_title(l) : "(does not load; Enter says why)");
            lesson_close(l);
        }
        return ls->nmenu;
    }
    return 0;
}

int lesson_menu_open(tui_app *a)
{
    tui_lesson *ls = state(a);
    if (!find_lessons(ls, a->opts.scenario)) {
        app_message(a, true, "No lessons found: looked in $FUSYNC_LESSONS, ./lessons, beside the scenario's folder, "
                    "share/fusync/lessons beside the program and %s/lessons", FUSYNC_DATADIR);
        return RE_REDRAW;
    }
    ls->menu = true;
    ls->menu_sel = 0;
    return RE_REDRAW;
}

static int menu_key(tui_app *a, int key)
{
    tui_lesson *ls = a->lesson;
    if (key == TK_UP || key == 'k') { if (ls->menu_sel > 0) ls->menu_sel--; return RE_REDRAW; }
    if (key == TK_DOWN || key == 'j') { if (ls->menu_sel + 1 < ls->nmenu) ls->menu_sel++; return RE_REDRAW; }
    if (key >= '1' && key <= '9' && key - '1' < ls->nmenu) { ls->menu_sel = key - '1'; key = TK_ENTER; }
    if (key == TK_ENTER) {
        fs_err err = {0, ""};
        ls->menu = false;
        if (!lesson_start(a, ls->menu_file[ls->menu_sel], &err)) app_message(a, true, "lesson: %s", err.msg);
        return RE_REDRAW;
    }
    if (key == TK_CTRL('l')) return RE_REPAINT;
    ls->menu = false;       /* Esc, q, any other key closes it */
    return RE_REDRAW;
}

/* ----------------------------------------------------------- keys */

int lesson_event(tui_app *a, const tui_event *ev)
{
    tui_lesson *ls = a->lesson;
    if (!ls || ev->key == TK_RESIZE || ev->key == TK_MOUSE || ev->key == TK_NONE) return RE_NONE;
    if (ls->menu) return menu_key(a, ev->key);
    if (!ls->active || a->cmdline || a->ls.help) return RE_NONE;
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

static void draw_menu(tui_lesson *ls, tui_canvas *cv, const tui_layout *L)
{
    int w = L->body.w - 4 < 76 ? L->body.w - 4 : 76, h = ls->nmenu + 4;
    if (h > L->body.h) h = L->body.h;
    tui_rect r = {L->body.y + (L->body.h - h) / 2, L->body.x + (L->body.w - w) / 2, h, w};
    cv_fill(cv, r, ' ', ST_NORMAL);
    char title[96];
    snprintf(title, sizeof title, "Guided lessons (%s)", ls->menu_dir);
    cv_box(cv, r, ST_BORDER_FOCUS, title, ST_TITLE_FOCUS);
    tui_rect in = rect_inner(r);
    for (int i = 0; i < ls->nmenu && i < in.h - 1; i++)
        cv_printf(cv, in.y + i, in.x + 1, in.w - 2, i == ls->menu_sel ? ST_SELECT : ST_NORMAL, "%d  %s", i + 1,
                  ls->menu_title[i]);
    cv_text(cv, in.y + in.h - 1, in.x + 1, in.w - 2, ST_DIM, "Up/Down choose, Enter starts, Esc closes");
}

void lesson_draw(tui_app *a, tui_canvas *cv, const tui_layout *L)
{
    tui_lesson *ls = a->lesson;
    if (!ls || L->too_small) return;
    if (ls->menu) { draw_menu(ls, cv, L); return; }
    if (!ls->active || a->ls.help) return;
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
