/*
** test_tui_layout.c — the screen layout as a pure function: at every size
** from 1x1 to 400x200 and in every state, panes stay inside the body, never
** overlap and are never empty; below 80x24 only the "too small" message.
** The pane rows (pane_list.h): each pane shown, focused and named as they say.
*/
#include "testutil.h"
#include "layout.h"
#include "lesson.h"
#include "pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static bool inside(tui_rect in, tui_rect out)
{
    return in.y >= out.y && in.x >= out.x && in.y + in.h <= out.y + out.h && in.x + in.w <= out.x + out.w;
}

static bool disjoint(tui_rect a, tui_rect b)
{
    return a.y + a.h <= b.y || b.y + b.h <= a.y || a.x + a.w <= b.x || b.x + b.w <= a.x;
}

/* Returns NULL if the layout is sound, else what is wrong. */
static const char *check_layout(int rows, int cols, const layout_state *st)
{
    tui_layout L;
    layout_compute(rows, cols, st, &L);
    tui_rect screen = {0, 0, rows, cols};
    bool small = rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS;
    if (L.too_small != small) return "too_small flag wrong";
    if (small) {
        if (!inside(L.message, screen)) return "message outside the screen";
        for (int i = 0; i < PANE__COUNT; i++) if (L.visible[i]) return "a pane shown on a too-small screen";
        return NULL;
    }
    tui_rect fixed[5] = {L.header, L.status, L.keys, L.body, L.banner};
    int nfixed = st->banner ? 5 : 4;
    if (!st->banner && L.banner.h) return "a banner without an alarm";
    for (int i = 0; i < nfixed; i++) {
        if (fixed[i].h <= 0 || fixed[i].w <= 0) return "empty header/status/keys/body/banner";
        if (!inside(fixed[i], screen)) return "bar outside the screen";
        for (int j = i + 1; j < nfixed; j++) if (!disjoint(fixed[i], fixed[j])) return "bars overlap";
    }
    if (st->banner && (L.banner.y != 1 || L.banner.w != cols)) return "the banner is not full width under the header";
    int shown = 0;
    for (int i = 0; i < PANE__COUNT; i++) {
        if (!L.visible[i]) continue;
        shown++;
        tui_rect r = L.pane[i];
        if (r.h < 3 || r.w < 12) return "a pane too small to hold anything";
        if (!inside(r, L.body)) return "a pane outside the body";
        for (int j = i + 1; j < PANE__COUNT; j++)
            if (L.visible[j] && !disjoint(r, L.pane[j])) return "panes overlap";
    }
    if (!shown) return "no pane shown";
    if (st->zoom < 0 && !L.visible[PANE_TIMELINE]) return "timeline missing";
    if (st->zoom < 0 && !st->compare && !(L.visible[PANE_MEMORY] && L.visible[PANE_STALENESS] && L.visible[PANE_STATS]))
        return "a main pane missing";
    if (st->compare && st->zoom < 0 && !L.visible[PANE_COMPARE]) return "compare missing";
    if (st->help && (L.help.h <= 2 || L.help.w <= 2 || !inside(L.help, L.body))) return "help overlay misplaced";
    return NULL;
}

START_TEST(every_size_every_state)
{
    layout_state states[12];
    int ns = 0;
    states[ns++] = (layout_state){-1, false, false, false, {0}};
    states[ns++] = (layout_state){-1, true, false, false, {0}};
    states[ns++] = (layout_state){-1, false, true, false, {0}};
    states[ns++] = (layout_state){-1, false, false, true, {0}};
    states[ns++] = (layout_state){-1, true, true, true, {0}};
    for (int z = 0; z < PANE__COUNT; z++) states[ns++] = (layout_state){z, z == PANE_COMPARE, false, z % 2 == 0, {0}};
    for (int s = 0; s < ns; s++)
        for (int rows = 1; rows <= 200; rows++)
            for (int cols = 1; cols <= 400; cols++) {
                const char *why = check_layout(rows, cols, &states[s]);
                if (why) ck_abort_msg("%dx%d (state %d): %s", cols, rows, s, why);
            }
}
END_TEST

START_TEST(odd_inputs)
{
    layout_state st = {-1, false, false, false, {0}};
    tui_layout L;
    layout_compute(0, 0, &st, &L);
    ck_assert(L.too_small);
    layout_compute(-5, -7, &st, &L);
    ck_assert(L.too_small);
    ck_assert_int_ge(L.message.h, 0);
    /* a zoom on the compare pane without compare mode falls back to all panes */
    st.zoom = PANE_COMPARE;
    layout_compute(30, 100, &st, &L);
    ck_assert(L.visible[PANE_TIMELINE] && L.visible[PANE_STATS] && !L.visible[PANE_COMPARE]);
    /* NULL state is the default layout */
    layout_compute(24, 80, NULL, &L);
    ck_assert(!L.too_small && L.visible[PANE_MEMORY]);
}
END_TEST

START_TEST(wide_puts_three_panes_in_a_row)
{
    layout_state st = {-1, false, false, false, {0}};
    tui_layout L;
    layout_compute(50, 200, &st, &L);
    ck_assert_int_eq(L.pane[PANE_MEMORY].y, L.pane[PANE_STATS].y);
    ck_assert_int_eq(L.pane[PANE_MEMORY].y, L.pane[PANE_STALENESS].y);
    layout_compute(24, 80, &st, &L);
    ck_assert_int_lt(L.pane[PANE_MEMORY].y, L.pane[PANE_STALENESS].y);
    ck_assert_int_ge(L.pane[PANE_TIMELINE].h, 9);
}
END_TEST

/* Every row of pane_list.h: a name of its own that finds it again, its
** ops, shown in the states its `where` says, and a name a lesson file may
** give (src/plugin_lesson.c checks the names on its own). */
START_TEST(pane_rows)
{
    layout_state plain = {-1, false, false, false, {0}}, cmp = {-1, true, false, false, {0}};
    for (int id = 0; id < PANE__COUNT; id++) {
        const char *name = layout_pane_name(id);
        ck_assert_msg(name[0] && layout_pane_named(name) == id, "pane %d: name '%s'", id, name);
        ck_assert_msg(pane_get(id) && pane_get(id)->draw && pane_title(id)[0], "pane %s: no ops", name);
        layout_where w = layout_pane_where(id);
        ck_assert_msg(layout_pane_shown(&plain, id) == (w != LAYOUT_COMPARE), "pane %s shown alone", name);
        ck_assert_msg(layout_pane_shown(&cmp, id) == (w != LAYOUT_LOWER), "pane %s shown comparing", name);
        layout_state z = {id, w == LAYOUT_COMPARE, false, false, {0}};
        for (int j = 0; j < PANE__COUNT; j++) ck_assert(layout_pane_shown(&z, j) == (j == id));
        char text[256];
        snprintf(text, sizeof text, "return {title='t', scenario='x.lua', steps={{caption='c', pane='%s'}}}", name);
        char *path = test_tmpfile(".lua", text);
        fs_err err = {0, ""};
        lesson *l = lesson_open(path, &err);
        ck_assert_msg(l != NULL, "a lesson may not name pane '%s': %s", name, err.msg);
        lesson_close(l);
        unlink(path);
        free(path);
    }
    ck_assert_int_eq(layout_pane_named("nope"), -1);
}
END_TEST

static Suite *tui_layout_suite(void)
{
    Suite *s = suite_create("tui_layout");
    TCase *tc = tcase_create("layout");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_size_every_state);
    tcase_add_test(tc, odd_inputs);
    tcase_add_test(tc, wide_puts_three_panes_in_a_row);
    tcase_add_test(tc, pane_rows);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(tui_layout_suite)
