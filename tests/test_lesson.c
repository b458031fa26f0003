/*
** test_lesson.c — guided lessons (src/plugin_lesson.c, ui/lesson_play.c):
** every lesson in lessons/ runs to its end headless, each step's screen
** rendered in memory at 80x24 and 200x50 with its caption on it and every
** claim the lesson checks holding; a golden caption; going back a step
** replays the same run; the menu; and lesson files that are wrong are refused
** with the file and the field named, in the plugins' sandbox.
*/
#include "testutil.h"
#include "app.h"
#include "lesson.h"
#include "lesson_play.h"
#include "lesson_menu.h"
#include "render.h"
#include "style.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { char row[80][256]; int rows, cols; tui_layout L; char mark[80]; } scr;

static void draw(tui_app *a, int rows, int cols, scr *s)
{
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    render_frame(a, &cv, rows, cols, &L);
    lesson_draw(a, &cv, &L);
    s->rows = rows;
    s->cols = cols;
    s->L = L;
    for (int y = 0; y < rows; y++) {
        cv_row_text(&cv, y, 0, cols, s->row[y]);
        /* the lesson's highlight: '>' left of the row, in the select style */
        const cv_cell *k = cv_at(&cv, y, L.pane[PANE_TIMELINE].x);
        s->mark[y] = L.visible[PANE_TIMELINE] && k && k->ch == '>' && k->st == ST_SELECT;
    }
    cv_free(&cv);
}

static bool on_screen(const scr *s, const char *text)
{
    for (int y = 0; y < s->rows; y++) if (strstr(s->row[y], text)) return true;
    return false;
}

static char *screen_text(const scr *s)
{
    char *out = calloc(1, (size_t)s->rows * 260 + 1);
    for (int y = 0; y < s->rows; y++) { strcat(out, s->row[y]); strcat(out, "\n"); }
    return out;
}

/* What a step points at is on screen at this size: the row it highlights,
** marked and not under the caption box, and, on a memory step of a run that
** ran out of memory, the bucket that grew, on a bar of the Memory pane. */
static void check_pointed(tui_app *a, const lesson *l, int cur, const scr *s, const char *file)
{
    const lesson_step *st = lesson_step_at(l, cur);
    char *t = NULL;
    if (st->row[0]) {
        int y = -1;
        for (int i = 0; i < s->rows; i++) if (s->mark[i] && strstr(s->row[i], st->row)) y = i;
        if (y < 0 || on_screen(s, "is not on screen")) {
            t = screen_text(s);
            ck_abort_msg("%s step %d at %dx%d: the row '%s' is not highlighted on screen:\n%s", file, cur + 1, s->cols,
                         s->rows, st->row, t);
        }
    }
    const sim_stats *ss = sim_get_stats(a->run->s);
    if (!strcmp(st->pane, "memory") && ss->overflow.happened) {
        char letter = style_bucket_letter((mem_bucket)ss->overflow.bucket);
        ck_assert_msg(s->L.visible[PANE_MEMORY], "%s step %d: no Memory pane", file, cur + 1);
        tui_rect m = rect_inner(s->L.pane[PANE_MEMORY]);
        bool found = false;
        for (int y = m.y + 1; y < m.y + m.h - 1 && !found; y++) {
            /* a bar: right of the group's name, left of its figures */
            char bar[256];
            snprintf(bar, sizeof bar, "%.*s", m.w - 12, s->row[y] + m.x + 4);
            found = strchr(bar, letter) != NULL;
        }
        if (!found) {
            t = screen_text(s);
            ck_abort_msg("%s step %d at %dx%d: the %s bucket ('%c') is on no bar:\n%s", file, cur + 1, s->cols, s->rows,
                         trace_bucket_name((mem_bucket)ss->overflow.bucket), letter, t);
        }
    }
    free(t);
}

/* FUSYNC_LESSON_DUMP=DIR: every step's screen, to check by eye. */
static void dump_screen(const char *file, int step, const scr *s)
{
    const char *dir = getenv("FUSYNC_LESSON_DUMP");
    if (!dir || !*dir) return;
    const char *base = strrchr(file, '/');
    char path[1400];
    snprintf(path, sizeof path, "%s/%s.%d.%dx%d.txt", dir, base ? base + 1 : file, step + 1, s->cols, s->rows);
    FILE *f = fopen(path, "w");
    if (!f) return;
    char *t = screen_text(s);
    fputs(t, f);
    free(t);
    fclose(f);
}

static tui_app *open_lesson(const char *file)
{
    cli_opts *o = calloc(1, sizeof *o);
    o->lesson_path = file;
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    ck_assert_msg(lesson_open_app(a, o, &err), "%s: %s", file, err.msg);
    free(o);
    return a;
}

static void key(tui_app *a, int k)
{
    tui_event ev = {k, 0, 0, 0};
    int re = lesson_event(a, &ev);
    if (re == RE_NONE) app_event(a, &ev, NULL);
}

/* The first words of the caption (up to 24 characters, cut at a space), as
** the box's first line shows them. */
static void caption_head(const char *cap, char *out, size_t n)
{
    snprintf(out, n, "%.24s", cap);
    char *sp = strrchr(out, ' ');
    if (sp && strlen(cap) > 24) *sp = 0;
}

static int run_lesson(const char *file)
{
    tui_app *a = open_lesson(file);
    fs_err lerr = {0, ""};
    lesson *l = lesson_open(file, &lerr);
    ck_assert_msg(l != NULL, "%s: %s", file, lerr.msg);
    int n = 0, steps = 0;
    scr *s = malloc(sizeof *s);
    for (int guard = 0; guard < 100 && lesson_active(a); guard++) {
        int cur = lesson_current(a, &n);
        if (lesson_finished(a)) {
            draw(a, 24, 80, s);
            ck_assert_msg(on_screen(s, "End of the lesson"), "%s: no end card", file);
            key(a, ' ');
            break;
        }
        ck_assert_msg(cur == steps, "%s: at step %d, expected %d", file, cur + 1, steps + 1);
        const char *warn = lesson_warning(a);
        ck_assert_msg(!warn[0], "%s step %d: %s (caption: %s)", file, cur + 1, warn, lesson_caption_text(a));
        const char *cap = lesson_caption_text(a);
        ck_assert_msg(strlen(cap) > 20, "%s step %d: caption '%s'", file, cur + 1, cap);
        char head[32];
        caption_head(cap, head, sizeof head);
        static const int sizes[3][2] = {{24, 80}, {40, 120}, {50, 200}};
        for (int k = 0; k < 3; k++) {
            draw(a, sizes[k][0], sizes[k][1], s);
            dump_screen(file, cur, s);
            if (k < 2) check_pointed(a, l, cur, s, file);
            char title[32];
            snprintf(title, sizeof title, "Lesson %d/%d", cur + 1, n);
            if (!on_screen(s, title) || !on_screen(s, head)) {
                char *t = screen_text(s);
                ck_abort_msg("%s step %d at %dx%d: no caption box (%s / %s):\n%s", file, cur + 1, sizes[k][1],
                             sizes[k][0], title, head, t);
            }
            ck_assert_msg(on_screen(s, "space/Enter next"), "%s: no key hint", file);
        }
        steps++;
        key(a, ' ');
    }
    ck_assert_msg(!lesson_active(a), "%s: the lesson did not end", file);
    ck_assert_int_eq(steps, n);
    lesson_close(l);
    free(s);
    app_close(a);
    free(a);
    return steps;
}

static char *lesson_path(const char *name)
{
    static char p[1024];
    snprintf(p, sizeof p, "%s/lessons/%s", test_root(), name);
    return p;
}

START_TEST(every_lesson_runs_to_its_end)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/lessons", test_root());
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "no %s", dir);
    struct dirent *e;
    int nles = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".lua")) continue;
        char path[2200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ck_assert_int_ge(run_lesson(path), 3);
        nles++;
    }
    closedir(d);
    ck_assert_int_ge(nles, 5);
}
END_TEST

/* GOLDEN: the caption box of the first lesson's first step at 100x30 */
#define GOLDEN_CAPTION \
    "+ Lesson 1/5: Why co-location beats separate pools ------------------------------------------------+\n" \
    "| Separate pools: 8 GPUs only generate, 8 only train. Step 2 is done. Look at the rollout rows:    |\n" \
    "| they are blank while the training pool trains, and the training pool is blank while they         |\n" \
    "| generate. So far the rollout pool was busy 51% of the time, the training pool 47%.               |\n" \
    "| space/Enter next  Backspace back  Esc leave the lesson  q quit                                   |\n" \
    "+--------------------------------------------------------------------------------------------------+\n" \
    ""

START_TEST(golden_caption)
{
    tui_app *a = open_lesson(lesson_path("1_colocation.lua"));
    scr s;
    draw(a, 30, 100, &s);
    /* the box: from its title row to the bottom of the body */
    int y0 = -1;
    for (int y = 0; y < s.rows; y++) if (strstr(s.row[y], "+ Lesson 1/5")) { y0 = y; break; }
    ck_assert_msg(y0 >= 0, "no caption box");
    char got[4096] = "";
    for (int y = y0; y < s.rows && strlen(got) < sizeof got - 200; y++) {
        char line[256];
        snprintf(line, sizeof line, "%s", s.row[y]);
        size_t l = strlen(line);
        while (l && line[l - 1] == ' ') line[--l] = 0;
        strcat(got, line);
        strcat(got, "\n");
        if (line[0] == '+' && y > y0) break;
    }
    if (strcmp(got, GOLDEN_CAPTION)) ck_abort_msg("caption box differs; drawn:\n%s\nexpected:\n%s", got, GOLDEN_CAPTION);
    /* the highlighted row is the one the step names */
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    render_frame(a, &cv, 30, 100, &L);
    lesson_draw(a, &cv, &L);
    bool marked = false;
    for (int y = 0; y < 30; y++) {
        char row[128];
        cv_row_text(&cv, y, 0, 100, row);
        if (strstr(row, "rollout 0") && cv_at(&cv, y, L.pane[PANE_TIMELINE].x + 1)->st == ST_SELECT) marked = true;
    }
    ck_assert_msg(marked, "the row 'rollout 0' is not highlighted");
    cv_free(&cv);
    app_close(a);
    free(a);
}
END_TEST

START_TEST(back_replays_the_same_run)
{
    tui_app *a = open_lesson(lesson_path("3_staleness.lua"));
    key(a, ' ');
    ck_assert_int_eq(lesson_current(a, NULL), 1);
    char cap1[1200];
    snprintf(cap1, sizeof cap1, "%s", lesson_caption_text(a));
    sim_time t1 = run_now(a->run);
    key(a, ' ');
    ck_assert_int_eq(lesson_current(a, NULL), 2);
    key(a, TK_BACKSPACE);
    ck_assert_int_eq(lesson_current(a, NULL), 1);
    ck_assert_str_eq(lesson_caption_text(a), cap1);
    ck_assert_int_eq(run_now(a->run), t1);
    /* Esc leaves the lesson; the run stays and the keys are the app's again */
    key(a, TK_ESC);
    ck_assert(!lesson_active(a));
    ck_assert_ptr_nonnull(strstr(a->msg, "Left the lesson"));
    tui_event ev = {' ', 0, 0, 0};
    ck_assert_int_eq(lesson_event(a, &ev), RE_NONE);
    app_close(a);
    free(a);
}
END_TEST

START_TEST(menu_lists_and_starts_lessons)
{
    char scn[1024], dir[1024];
    snprintf(scn, sizeof scn, "%s/examples/qwen7b_h100x16.lua", test_root());
    snprintf(dir, sizeof dir, "%s/lessons", test_root());
    setenv("FUSYNC_LESSONS", dir, 1);
    cli_opts *o = calloc(1, sizeof *o);
    o->scenario = scn;
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    ck_assert_msg(app_open(a, o, &err), "%s", err.msg);
    ck_assert_int_eq(keymap_lookup('o'), REQ_LESSONS);
    app_request(a, REQ_LESSONS);
    scr s;
    draw(a, 24, 80, &s);
    ck_assert_msg(on_screen(&s, "Guided lessons") && on_screen(&s, "Why co-location beats separate pools") &&
                  on_screen(&s, "Scaling to more supernodes"), "menu not drawn");
    key(a, TK_DOWN);
    key(a, TK_ENTER);
    ck_assert(lesson_active(a));
    draw(a, 24, 80, &s);
    ck_assert_msg(on_screen(&s, "Lesson 1/4: The long tail"), "the second lesson did not start");
    app_close(a);
    free(a);
    free(o);
    unsetenv("FUSYNC_LESSONS");
}
END_TEST

/* The menu reads titles from the files' text: a lesson whose main chunk
** fails (or would run long) still shows its title, and no chunk runs. */
START_TEST(menu_titles_without_running_lessons)
{
    char dir[1024], path[1100];
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "menu"));
    static const char *files[][2] = {
        {"a.lua", "-- title = \"not this one\"\nerror('the main chunk ran')\nreturn { title = \"Peeked \\\"quoted\\\"\", steps = {} }\n"},
        {"b.lua", "local subtitle = 'x'\nreturn { steps = {} }\n"},
    };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(files[i][1], f);
        fclose(f);
    }
    setenv("FUSYNC_LESSONS", dir, 1);
    lesson_menu m;
    memset(&m, 0, sizeof m);
    char why[512];
    ck_assert(lesson_menu_open(&m, NULL, why, sizeof why));
    ck_assert_int_eq(m.n, 2);
    ck_assert_str_eq(m.title[0], "Peeked \"quoted\"");
    ck_assert_str_eq(m.title[1], "b.lua (no title line; Enter opens it)");
    unsetenv("FUSYNC_LESSONS");
}
END_TEST

static void expect_refused(const char *text, const char *want)
{
    char *path = test_tmpfile(".lua", text);
    fs_err err = {0, ""};
    lesson *l = lesson_open(path, &err);
    ck_assert_msg(l == NULL, "accepted: %s", text);
    ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, path), "for %s: '%s' lacks '%s' or the file", text, err.msg, want);
    unlink(path);
    free(path);
}

START_TEST(bad_lessons_are_refused)
{
    expect_refused("return {}", "title");
    expect_refused("return {title='t', steps={{caption='c'}}}", "scenario");
    expect_refused("return {title='t', scenario='x.lua', steps={}}", "no step");
    expect_refused("return {title='t', scenario='x.lua', steps={{}}}", "steps[1].caption");
    expect_refused("return {title='t', scenario='x.lua', steps={{caption='c', pley='end'}}}", "unknown field 'pley'");
    expect_refused("return {title='t', scenario='x.lua', steps={{caption='c', play='stp 2'}}}", "steps[1].play");
    expect_refused("return {title='t', scenario='x.lua', steps={{caption='c', pane='nope'}}}", "steps[1].pane");
    expect_refused("return {title='t', scenario='x.lua', steps={{caption='c', snapshot='C'}}}", "steps[1].snapshot");
    expect_refused("return {title='t', scenario='x.lua', steps={{caption='c', set={['a.b']={}}}}}", "steps[1].set");
    /* the plugins' sandbox: no os.execute, no io, an endless loop stopped */
    expect_refused("os.execute('true') return {}", "not available in the sandbox");
    expect_refused("io.open('/etc/passwd') return {}", "not available in the sandbox");
    setenv("FUSYNC_PLUGIN_INSTRUCTIONS", "1000000", 1);
    expect_refused("while true do end", "instruction budget");
    unsetenv("FUSYNC_PLUGIN_INSTRUCTIONS");
}
END_TEST

START_TEST(a_caption_that_fails_is_shown_not_fatal)
{
    char rel[1024], scn[PATH_MAX], text[2048];
    snprintf(rel, sizeof rel, "%s/examples/qwen7b_h100x16.lua", test_root());
    ck_assert_ptr_nonnull(realpath(rel, scn));
    snprintf(text, sizeof text,
             "return {title='t', scenario='%s', steps={"
             "{caption=function(ctx) return ctx.nothing.here end},"
             "{caption='second', check=function(ctx) return false, 'never true' end},"
             "{caption='third', set={['plan.staleness']=99}}}}", scn);
    char *path = test_tmpfile(".lua", text);
    tui_app *a = open_lesson(path);
    ck_assert_msg(strstr(lesson_warning(a), "steps[1].caption()") && strstr(lesson_warning(a), "nothing"), "warning: %s", lesson_warning(a));
    key(a, ' ');
    ck_assert_str_eq(lesson_caption_text(a), "second");
    ck_assert_ptr_nonnull(strstr(lesson_warning(a), "does not hold for this run: never true"));
    key(a, ' ');
    ck_assert_ptr_nonnull(strstr(lesson_warning(a), "plan.staleness"));
    scr s;
    draw(a, 24, 80, &s);
    ck_assert_msg(on_screen(&s, "Note: step 3"), "the failure is not on screen");
    app_close(a);
    free(a);
    unlink(path);
    free(path);
}
END_TEST

static Suite *lesson_suite(void)
{
    Suite *s = suite_create("lesson");
    TCase *tc = tcase_create("lesson");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_lesson_runs_to_its_end);
    tcase_add_test(tc, golden_caption);
    tcase_add_test(tc, back_replays_the_same_run);
    tcase_add_test(tc, menu_lists_and_starts_lessons);
    tcase_add_test(tc, menu_titles_without_running_lessons);
    tcase_add_test(tc, bad_lessons_are_refused);
    tcase_add_test(tc, a_caption_that_fails_is_shown_not_fatal);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(lesson_suite)
