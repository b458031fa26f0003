/*
** test_tui_screen.c — golden screens and behaviour of the terminal front
** end, rendered in memory: curses draws on newterm("/dev/null") with TERM,
** LANG, TZ and the size pinned, in ASCII and monochrome, and the test reads
** the rows back.  The engine is deterministic, so a pane at a fixed simulated
** time is a fixed text.  On a mismatch the message shows the whole pane as
** drawn, ready to paste as the new golden after checking it is right.
** Behaviour: what-if edits, the reactions requests return (what the main loop
** draws), stepping, snapshots, export, the mouse, and every screen size.
*/
#include "testutil.h"
#include "app.h"
#include "pane.h"
#include "render.h"
#include "term.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROWS 30
#define COLS 100

static void pin_env(void)
{
    setenv("TERM", "xterm", 1);
    setenv("LANG", "C", 1);
    setenv("TZ", "UTC", 1);
    unsetenv("LC_ALL");
    unsetenv("NO_COLOR");
}

static char *example(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/examples/%s", test_root(), name);
    return path;
}

static tui_app *open_app(const char *scenario, const char *const *sets, int nsets)
{
    cli_opts *o = calloc(1, sizeof *o);
    o->scenario = scenario;
    for (int i = 0; i < nsets; i++) o->sets[o->nsets++] = sets[i];
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    if (!app_open(a, o, &err)) ck_abort_msg("app_open %s: %s", scenario, err.msg);
    free(o);
    return a;
}

static void close_app(tui_app *a)
{
    app_close(a);
    free(a);
}

/* Render the app through curses into memory and return the screen rows. */
typedef struct { char row[200][402]; int rows, cols; tui_layout L; } screen;

static void draw(tui_app *a, int rows, int cols, screen *sc)
{
    pin_env();
    term_caps caps = {false, false, false};
    term *t = term_open_virtual(&caps, rows, cols);
    ck_assert_msg(t != NULL, "newterm on /dev/null failed");
    int r, c;
    term_size(t, &r, &c);
    ck_assert_int_eq(r, rows);
    ck_assert_int_eq(c, cols);
    tui_canvas cv;
    cv_init(&cv);
    render_frame(a, &cv, rows, cols, &sc->L);
    term_draw(t, &cv, true);
    sc->rows = rows;
    sc->cols = cols;
    for (int y = 0; y < rows; y++) term_row_text(t, y, 0, cols, sc->row[y]);
    cv_free(&cv);
    term_close(t);
}

/* The rows of a rectangle, joined with newlines, trailing blanks cut. */
static char *rect_text(const screen *sc, tui_rect r)
{
    size_t cap = (size_t)(r.h * (r.w + 1) + 1);
    char *out = calloc(1, cap);
    for (int y = r.y; y < r.y + r.h; y++) {
        char line[402];
        snprintf(line, sizeof line, "%.*s", r.w, sc->row[y] + r.x);
        size_t l = strlen(line);
        while (l && line[l - 1] == ' ') line[--l] = 0;
        strcat(out, line);
        strcat(out, "\n");
    }
    return out;
}

static void dump(const char *name, const char *text)
{
    const char *dir = getenv("FUSYNC_GOLDEN_DUMP");
    if (!dir || !*dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.txt", dir, name);
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

/* Compare a pane with its golden; print the difference and return false. */
static bool expect_pane(const screen *sc, int pane, const char *name, const char *golden)
{
    ck_assert_msg(sc->L.visible[pane], "%s not visible", name);
    char *got = rect_text(sc, sc->L.pane[pane]);
    dump(name, got);
    bool ok = strcmp(got, golden) == 0;
    if (!ok) fprintf(stderr, "golden screen %s differs; drawn:\n%s\nexpected:\n%s\n", name, got, golden);
    free(got);
    return ok;
}

static bool screen_has(const screen *sc, const char *text)
{
    for (int y = 0; y < sc->rows; y++) if (strstr(sc->row[y], text)) return true;
    return false;
}

#define AT_T (130 * SIM_NS_PER_S)

/* ------------------------------------------------------------ goldens */

/* GOLDENS-BEGIN: regenerate with FUSYNC_GOLDEN_DUMP=DIR, check each by eye */
#define GOLDEN_TIMELINE \
    "+ Timeline ----------------------------------------------------------------------------------------+\n" \
    "|0..2m10s fit            |+0-------------------------------+1m-------------------------------+2m---|\n" \
    "|step phase              |xgggggggggggggggggggggggggggggggggggggggggiiiiiiiiiTTTTTTTTTTTTxggggggggg|\n" \
    "|- all 16 dev            |pggggggggggggggggggggggggggggggggggggggggxlllllrrrrTTTTTTTTTTTTgggggggggg|\n" \
    "|  + stage 0 (TP2 x DP8) |x                                        xlllllrrrrTTTTTTTTTTTTx         |\n" \
    "|    rollout 0       67% |pgggggggggggggggggggggggggggggggggggggggg                      gggggggggg|\n" \
    "|    rollout 1       66% |pgggggggggggggggggggggggggggggggggggggggg                      gggggggggg|\n" \
    "|    rollout 2       53% |gggggggggggggggggggggggggggggg                                 gggggggggg|\n" \
    "|    rollout 3       67% |pgggggggggggggggggggggggggggggggggggggggg                      gggggggggg|\n" \
    "|t=2m10s (live) g generate  step 2  v1  mb 26  672ms (2m09s-2m10s)  1924 tokens            row 2/20|\n" \
    "|g generate  x switch  i inference (l r w)  T train  p prefill  l log-prob  r reference  blank idle|\n" \
    "+--------------------------------------------------------------------------------------------------+\n" \
    ""
#define GOLDEN_MEMORY \
    "+ Memory ----------------------------------------+\n" \
    "|t=2m10s  per device, host per node              |\n" \
    "|all      RRRRRKKKKKKKKKKKKKKKKKKKx.. 72.1G/79.2G|\n" \
    "|all/host HHM.......................... 213G/2.0T|\n" \
    "|                                                |\n" \
    "|R rollout-w K kv H host-off M host-models       |\n" \
    "|x runtime                                       |\n" \
    "+------------------------------------------------+\n" \
    ""
#define GOLDEN_STALENESS \
    "+ Staleness -------------------------------------+\n" \
    "|bound s=0  lag max 0  mean 0.00 so far          |\n" \
    "|in flight: v1:435                               |\n" \
    "|trained lags: 0:1024                            |\n" \
    "|step 1     #                            v0..0   |\n" \
    "|                                                |\n" \
    "+------------------------------------------------+\n" \
    ""
#define GOLDEN_STATS \
    "+ Stats -----------------------------------------+\n" \
    "|tok/s  last step 24.9k  so far 21.5k            |\n" \
    "|measured after 1 warm-up step                   |\n" \
    "|progress  step 2/5  t=2m10s  1591 events        |\n" \
    "|Step split (training pool, so far)              |\n" \
    "|g generate     68.6% gggggggggggggg....... 1m29s|\n" \
    "|x switch        3.5% x..................... 4.5s|\n" \
    "|i inference    11.1% ii................... 14.4s|\n" \
    "|T train        16.8% TTTT................. 21.8s|\n" \
    "|Pool         dev   busy   idle compute          |\n" \
    "| all           16  92.6%   7.4%   91.9%         |\n" \
    "|tokens  generated 3.47M  trained 2.79M          |\n" \
    "|        wasted 0  in flight 0                   |\n" \
    "|plan  full s=0  partial 1.00  TP1 1SN  5 steps  |\n" \
    "+------------------------------------------------+\n" \
    ""
#define GOLDEN_HEADER \
    " fusync  qwen7b_h100x16  full s=0  16 dev  |  pause x5  t=2m10s  step 2/5\n" \
    ""
#define GOLDEN_STALENESS_S2 \
    "+ Staleness -------------------------------------------------------------------+\n" \
    "|bound s=2  lag max 1  mean 0.75 so far  (4096 samples)                        |\n" \
    "|in flight: v3:55                                                              |\n" \
    "|trained lags: 0:1024 1:3072                                                   |\n" \
    "|step 1     #                                                          v0..0   |\n" \
    "|step 2     #-                                                         v0..1   |\n" \
    "|step 3     -#-                                                        v0..2   |\n" \
    "|step 4      -#-                                                       v1..3   |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "+------------------------------------------------------------------------------+\n" \
    ""
#define GOLDEN_MEMORY_OOM \
    "+ Memory ----------------------------------------------------------------------+\n" \
    "|t=10s  over capacity: actor, actor/host  per device, host per node            |\n" \
    "|actor      RRRRRRKKKKKKKKKKKKKKKKKKKKx..|::::::::::::::::::::::::! 72.1G/79.2G|\n" \
    "|actor/host HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH| 1.03T/1.00T|\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|                                                                              |\n" \
    "|: over R rollout-w K kv H host-off x runtime ! peak | capacity                |\n" \
    "+------------------------------------------------------------------------------+\n" \
    ""
#define GOLDEN_COMPARE_SIDE_BY_SIDE \
    "+ Compare A/B -----------------------------------------------------------------------------------------------+\n" \
    "|A: as in the file                                                                                           |\n" \
    "|B: plan.mode=separate                                                                                       |\n" \
    "|now (the live run): plan.mode=separate, step 1/5                                                            |\n" \
    "|0..12m55s           |+0-----------+2m----------+4m-----------+6m----------+8m-----------+10m---------+12m---|\n" \
    "|A step              |ggggggggiiTTTggggggggiiTTgggggggggiiTTggggggggiiTTTggggggggiiTTT                       |\n" \
    "|A all               |gggggggggrTTggggggggglrTTggggggggglrTTgggggggggrTTpgggggggggrTTT                       |\n" \
    "|B step              |gggggggggiiiTTTTTgggggggggiiiTTTTTggggggggggiiiTTTTggggggggggiiiTTTTTgggggggggiiiiTTTTT|\n" \
    "|B rollout           |ggggggggg       Wgggggggggg       gggggggggg       gggggggggg       Wgggggggggg       W|\n" \
    "|B train             |        lllrTTTTT         llrTTTTTT        llrrTTTTT        llrrTTTTTW        llrrTTTTT|\n" \
    "|now step            |~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n" \
    "|now rollout         |~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n" \
    "|now train           |~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~|\n" \
    "|A 1 step            |gggggggggggggggggggggggggggggggggggggxxiiiiiiiiTTTTTTTTTTT 1m54s                       |\n" \
    "|B 1 step            |ggggggggggggggggggggggggggggggggggggggggggWiiiiiiiiiiiiiiTTTTTTTTTTTTTTTTTTTTTT 2m36s  |\n" \
    "|B-A step +41.7s:  generate +8.9s  switch -3.1s  weight sync +484ms  inference +14.4s  train +21s            |\n" \
    "|A full: devices idle 7% of the time (one pool: no device waits for another pool)                            |\n" \
    "|B separate: train pool idle 53% of the time (51% of all device-time idle)                                   |\n" \
    "|                                        A                       B  B - A                                    |\n" \
    "|throughput tok/s                    25.0k                   18.3k  -6696 (-26.8%)                           |\n" \
    "|  per device                         1564                    1145  -419 (-26.8%)                            |\n" \
    "|step time                           1m54s                   2m36s  +41.7s (+36.5%)                          |\n" \
    "|  generate                          1m14s                   1m23s  +8.9s (+12.0%)                           |\n" \
    "|  switch                             3.1s                       -  -3.1s (-100.0%)                          |\n" \
    "|  weight sync                           -                   484ms  +484ms                                   |\n" \
    "|  inference                         14.8s                   29.2s  +14.4s (+97.8%)                          |\n" \
    "|  train                             22.4s                   43.4s  +21s (+93.9%)                            |\n" \
    "|idle device-time                     6.6%                   51.1%  +44.5 pt                                 |\n" \
    "|  all busy                          93.4%                       -                                           |\n" \
    "|  rollout busy                          -                   50.9%                                           |\n" \
    "|  train busy                            -                   46.9%                                           |\n" \
    "|memory peak/device               72.1 GiB                73.1 GiB  +1.0 GiB (+1.4%)                         |\n" \
    "|host peak/node                  212.8 GiB                       -  -212.8 GiB (-100.0%)                     |\n" \
    "+------------------------------------------------------------------------------------------------------------+\n" \
    ""
#define GOLDEN_OOM_BANNER_80 \
    " fusync  does_not_fit  colocate s=0  8 dev  |  play x10  t=10s  step 1/2  OOM\n" \
    " OUT OF MEMORY at t=0: actor device over capacity by 69.4 GiB (optimizer grew).\n" \
    ""
#define GOLDEN_OOM_BANNER_200 \
    " fusync  does_not_fit  colocate s=0  8 dev  |  play x10  t=10s  step 1/2  OOM\n" \
    " OUT OF MEMORY at t=0: actor device over capacity by 69.4 GiB (optimizer grew). The run's figures are invalid.\n" \
    ""
#define GOLDEN_STEP_DETAIL_0 \
    "t=1m (live) g generate  step 1  58.5s so far (since 1.5s)  under way  row 1/20\n" \
    "~ not known yet (recorded when it ends)  g generate  x switch  blank idle\n" \
    ""
#define GOLDEN_STEP_DETAIL_1 \
    "t=500ms x switch  step 1  v0  1.5s (0-1.5s)                           row 1/20\n" \
    "~ not known yet (recorded when it ends)  g generate  x switch  blank idle\n" \
    ""
#define GOLDEN_STEP_DETAIL_2 \
    "t=1m (live) g generate  step 1  58.5s so far (since 1.5s)  under way\n" \
    "~ not known yet (recorded when it ends)  g generate  x switch  p prefill  v offload  blank idle\n" \
    ""
#define GOLDEN_COMPARE_80X24 \
    "+ Compare A/B -----------------------------------------------------------------+\n" \
    "|A: as in the file                                                             |\n" \
    "|B: plan.mode=separate                                                         |\n" \
    "|                                    A                   B  B - A              |\n" \
    "|throughput tok/s                25.0k               18.3k  -6696 (-26.8%)     |\n" \
    "|  per device                     1564                1145  -419 (-26.8%)      |\n" \
    "|step time                       1m54s               2m36s  +41.7s (+36.5%)    |\n" \
    "|  generate                      1m14s               1m23s  +8.9s (+12.0%)     |\n" \
    "|  switch                         3.1s                   -  -3.1s (-100.0%)    |\n" \
    "|  weight sync                       -               484ms  +484ms             |\n" \
    "|  inference                     14.8s               29.2s  +14.4s (+97.8%)    |\n" \
    "+------------------------------------------------------------------------------+\n" \
    ""
#define GOLDEN_COLOCATE_TRAIN_80X24 \
    "+ Timeline --------------------------------------------------------------------+\n" \
    "|0..1m41s fit     |+0---------------------------------+1m----------------------|\n" \
    "|step phase       |xggggggggggggggggggggggggggggggggggggggggggggxiiiiii.......T|\n" \
    "|+ actor 12 dev   |pgggggggggggggggggggggggggggggggggggggggggggglllllll      TT|\n" \
    "|- aux 4 dev ref  |                                             rrrrrrrrrrrrrr |\n" \
    "|  + (4 x TP1)    |                                             rrrrrrrrrrrrrr |\n" \
    "|t=1m41s (live) T train  step 1  2.7s so far (since 1m38s)  under way          |\n" \
    "|g generate  x switch  i inference (l r w)  T train  . wait  p prefill  ...    |\n" \
    "+------------------------------------------------------------------------------+\n" \
    ""
#define GOLDEN_OOM_MEMORY_120X40 \
    "+ Memory --------------------------------------------------+\n" \
    "|t=10s  over capacity: actor, actor/host                   |\n" \
    "|actor      RRRRKKKKKKKKKKKKK..|::::::::::::::! 72.1G/79.2G|\n" \
    "|actor/host HHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH| 1.03T/1.00T|\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|: over R rollout-w K kv H host-off ! peak | capacity      |\n" \
    "+----------------------------------------------------------+\n" \
    ""
#define GOLDEN_OOM_STATS_120X40 \
    "+ Stats ---------------------------------------------------+\n" \
    "|INFEASIBLE: no throughput (the banner says why)           |\n" \
    "|measured invalid: out of memory                           |\n" \
    "|progress  step 1/2  t=10s  1 event                        |\n" \
    "|Step split (training pool, so far)                        |\n" \
    "|g generate     57.2% ggggggggggggggggg............. 5.7s  |\n" \
    "|x switch       42.8% xxxxxxxxxxxxx................. 4.3s  |\n" \
    "|Pool         dev   busy   idle compute                    |\n" \
    "| actor          8  13.9%  86.1%    8.6%  rollout+train    |\n" \
    "|tokens  generated 0  trained 0                            |\n" \
    "|        wasted 0  in flight 0                             |\n" \
    "|plan  colocate s=0  partial 1.00  TP8 1SN  2 steps        |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "|                                                          |\n" \
    "+----------------------------------------------------------+\n" \
    ""
#define GOLDEN_SEPARATE_BUBBLE_200X60 \
    "+ Timeline --------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+\n" \
    "|0..1m50s fit            |+0-------------+10s------------+20s------------+30s-----------+40s------------+50s------------+1m-------------+1m10s---------+1m20s----------+1m30s----------+1m40s----------|\n" \
    "|step phase              |gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiTTT|\n" \
    "|- rollout 8 dev rollout |ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                |\n" \
    "|    rollout 0       71% |pggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                 |\n" \
    "|    rollout 1       69% |ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                      |\n" \
    "|    rollout 2       71% |ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                  |\n" \
    "|    rollout 3       71% |pgggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                  |\n" \
    "|    rollout 4       71% |gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                 |\n" \
    "|    rollout 5       72% |gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                 |\n" \
    "|    rollout 6       70% |pgggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                    |\n" \
    "|    rollout 7       72% |pgggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg                                                |\n" \
    "|- train 8 dev train+ref |                                                                                                                            lllllllllllllllllllllllrrrrrrrrrrrrrrrrrrrrrrrTTT|\n" \
    "|  + stage 0 (TP2 x DP4) |                                                                                                                            lllllllllllllllllllllllrrrrrrrrrrrrrrrrrrrrrrrTTT|\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|                                                                                                                                                                                                      |\n" \
    "|t=1m50s (live) T train  step 1  2.1s so far (since 1m48s)  under way                                                                                                                                  |\n" \
    "|g generate  i inference (l r w)  T train  p prefill  l log-prob  r reference  blank idle                                                                                                              |\n" \
    "+------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------+\n" \
    ""
/* GOLDENS-END */

START_TEST(golden_panes_at_130s)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_seek(a, AT_T);
    /* open the pool to show the stage and rollout instance rows */
    a->v.sel_row = 1;
    app_request(a, REQ_EXPAND);
    app_request(a, REQ_PLAY);       /* paused: the header says so */
    a->msg[0] = 0;
    screen sc;
    draw(a, ROWS, COLS, &sc);
    int bad = 0;
    bad += !expect_pane(&sc, PANE_TIMELINE, "timeline", GOLDEN_TIMELINE);
    bad += !expect_pane(&sc, PANE_MEMORY, "memory", GOLDEN_MEMORY);
    bad += !expect_pane(&sc, PANE_STALENESS, "staleness", GOLDEN_STALENESS);
    bad += !expect_pane(&sc, PANE_STATS, "stats", GOLDEN_STATS);
    char *hdr = rect_text(&sc, sc.L.header);
    dump("header", hdr);
    bad += strcmp(hdr, GOLDEN_HEADER) != 0;
    free(hdr);
    ck_assert_msg(bad == 0, "%d golden screen(s) differ (drawn screens on stderr)", bad);
    close_app(a);
}
END_TEST

START_TEST(golden_staleness_stalesync)
{
    const char *sets[] = {"plan.mode=separate", "plan.staleness=2"};
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), sets, 2);
    app_seek(a, 400 * SIM_NS_PER_S);
    a->ls.zoom = PANE_STALENESS;
    screen sc;
    draw(a, 24, 80, &sc);
    ck_assert_msg(expect_pane(&sc, PANE_STALENESS, "staleness_s2", GOLDEN_STALENESS_S2), "golden differs");
    /* what the strips draw: every trained version inside its window */
    const trace *t = sim_trace(a->run->s);
    for (size_t i = 0; i < trace_nwindows(t); i++) {
        const trace_window *w = &trace_windows(t)[i];
        ck_assert_int_ge(w->vhi - w->lag_max, w->vlo);
        ck_assert_int_le(w->lag_max, 2);
    }
    close_app(a);
}
END_TEST

START_TEST(golden_out_of_memory)
{
    tui_app *a = open_app(example("does_not_fit.lua"), NULL, 0);
    app_seek(a, 10 * SIM_NS_PER_S);
    a->ls.zoom = PANE_MEMORY;
    a->focus = PANE_MEMORY;
    screen sc;
    draw(a, 24, 80, &sc);
    ck_assert_msg(expect_pane(&sc, PANE_MEMORY, "memory_oom", GOLDEN_MEMORY_OOM), "golden differs");
    /* the banner: full width under the header, at 80 and 200 columns, with
    ** the time, the group and the bucket; the header keeps its flag and the
    ** Stats mark the run's figures invalid */
    a->ls.zoom = -1;
    a->focus = PANE_TIMELINE;
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        int rows = i ? 50 : 24, cols = i ? 200 : 80;
        draw(a, rows, cols, &sc);
        ck_assert(sc.L.banner.h == 1 && sc.L.banner.w == cols);
        char *top = rect_text(&sc, (tui_rect){0, 0, 2, cols});
        char name[32];
        snprintf(name, sizeof name, "oom_banner_%d", cols);
        dump(name, top);
        bad += strcmp(top, i ? GOLDEN_OOM_BANNER_200 : GOLDEN_OOM_BANNER_80) != 0;
        if (strcmp(top, i ? GOLDEN_OOM_BANNER_200 : GOLDEN_OOM_BANNER_80)) fprintf(stderr, "%s differs:\n%s", name, top);
        free(top);
        char *stats = rect_text(&sc, sc.L.pane[PANE_STATS]);
        ck_assert_msg(strstr(stats, "measured invalid") && !strstr(stats, "/dev"), "stats:\n%s", stats);
        /* no throughput headline, as `fusync run` prints INFEASIBLE */
        ck_assert_msg(strstr(stats, "INFEASIBLE: no throughput") && !strstr(stats, "tok/s"), "stats:\n%s", stats);
        free(stats);
    }
    ck_assert_msg(bad == 0, "%d banner golden(s) differ", bad);
    close_app(a);
}
END_TEST

/* The detail line of the step row (selected by default) says what the row
** shows under the cursor, the phase under way included, at 80 and 200
** columns; the legend explains every glyph of the step row. */
START_TEST(golden_step_row_detail)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_seek(a, 60 * SIM_NS_PER_S);
    app_request(a, REQ_PLAY);
    a->msg[0] = 0;
    ck_assert_int_eq(a->v.sel_row, 0);
    int bad = 0;
    screen sc;
    for (int i = 0; i < 3; i++) {
        int rows = i == 2 ? 50 : 24, cols = i == 2 ? 200 : 80;
        if (i == 1) {
            /* a finished phase: the cursor back in the first switch */
            a->cursor = 500 * SIM_NS_PER_S / 1000;
            a->cursor_follow = false;
        }
        if (i == 2) a->cursor_follow = true, a->cursor = run_now(a->run);
        draw(a, rows, cols, &sc);
        tui_rect tl = rect_inner(sc.L.pane[PANE_TIMELINE]);
        char *two = rect_text(&sc, (tui_rect){tl.y + tl.h - 2, tl.x, 2, tl.w});
        char name[32];
        snprintf(name, sizeof name, "step_detail_%d", i);
        dump(name, two);
        const char *want = i == 0 ? GOLDEN_STEP_DETAIL_0 : i == 1 ? GOLDEN_STEP_DETAIL_1 : GOLDEN_STEP_DETAIL_2;
        if (strcmp(two, want)) { fprintf(stderr, "%s differs:\n%s", name, two); bad++; }
        ck_assert_msg(!strstr(two, "nothing running"), "%s", two);
        free(two);
    }
    ck_assert_msg(bad == 0, "%d step-row golden(s) differ", bad);
    /* the last train span of the run is step 5 of 5, trained with v4 */
    app_seek(a, INT64_MAX / 4);
    ck_assert(run_over(a->run));
    a->cursor = run_now(a->run) - SIM_NS_PER_S;
    a->cursor_follow = false;
    draw(a, 24, 80, &sc);
    ck_assert_msg(screen_has(&sc, "T train  step 5  v4"), "%s", sc.row[sc.L.pane[PANE_TIMELINE].y + sc.L.pane[PANE_TIMELINE].h - 3]);
    close_app(a);
}
END_TEST


/* The timeline draws "not known yet" only where it is: on an instance with a
** decode open (recorded when it ends).  Co-located and separate (staleness 0)
** runs training: every rollout instance waits or is offloaded, known idle,
** drawn blank, and neither the legend nor the detail line says otherwise. */
static bool plot_has_future(const screen *sc, const tui_app *a, const char *label, int *rows_seen)
{
    tui_rect tl = rect_inner(sc->L.pane[PANE_TIMELINE]);
    bool any = false;
    for (int y = a->v.rows_y; y < a->v.rows_y + a->v.rows_h && y < tl.y + tl.h; y++) {
        char lab[128];
        snprintf(lab, sizeof lab, "%.*s", a->v.plot_x - tl.x, sc->row[y] + tl.x);
        if (!strstr(lab, label)) continue;
        ++*rows_seen;
        if (memchr(sc->row[y] + a->v.plot_x, '~', (size_t)a->v.plot_w)) any = true;
    }
    return any;
}

START_TEST(unknown_only_where_unknown)
{
    const char *modes[] = {"plan.mode=colocate", "plan.mode=separate"};
    for (int m = 0; m < 2; m++) {
        tui_app *a = open_app(example("qwen7b_h100x16.lua"), &modes[m], 1);
        sim_time since = 0;
        for (sim_time t = SIM_NS_PER_S; t < 400 * SIM_NS_PER_S; t += SIM_NS_PER_S) {
            app_seek(a, t);
            if (sim_step_phase_open(a->run->s, &since) == STEP_TRAIN) break;
        }
        ck_assert_int_eq(sim_step_phase_open(a->run->s, &since), STEP_TRAIN);
        app_seek(a, run_now(a->run) + 2 * SIM_NS_PER_S);
        screen sc;
        draw(a, 40, 120, &sc);
        int seen = 0;
        bool fut = plot_has_future(&sc, a, "rollout", &seen);
        char *tl = rect_text(&sc, sc.L.pane[PANE_TIMELINE]);
        ck_assert_msg(seen > 0 && !fut, "%s: rollout rows %d, drawn as not known:\n%s", modes[m], seen, tl);
        ck_assert_msg(!strstr(tl, "not known yet"), "%s:\n%s", modes[m], tl);
        free(tl);
        close_app(a);
    }
    /* generating: an instance with a decode open is not known after its
    ** last span, and the legend and the detail line on it say so */
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_seek(a, 40 * SIM_NS_PER_S);     /* inside the first generation (about 2 s to 70 s) */
    screen sc;
    draw(a, 40, 120, &sc);
    int seen = 0;
    ck_assert(plot_has_future(&sc, a, "rollout", &seen));
    ck_assert(screen_has(&sc, "not known yet"));
    int rows_y = a->v.rows_y, found = -1;
    for (int i = 0; i < a->v.rows_h && found < 0; i++)
        if (strstr(sc.row[rows_y + i], "rollout") && memchr(sc.row[rows_y + i] + a->v.plot_x, '~', (size_t)a->v.plot_w))
            found = a->v.top_row + i;
    ck_assert_int_ge(found, 0);
    a->v.sel_row = found;
    a->cursor = run_now(a->run) - 1;
    draw(a, 40, 120, &sc);
    tui_rect in = rect_inner(sc.L.pane[PANE_TIMELINE]);
    ck_assert_msg(strstr(sc.row[in.y + in.h - 2], "not known yet: a decode under way"), "%s", sc.row[in.y + in.h - 2]);
    close_app(a);
}
END_TEST

/* Every legend lists what its pane drew: the timeline's glyphs on the plot
** (the not-known glyph first when drawn, "..." when the list is cut), the
** memory buckets and marks the bars drew, at 80x24, 120x40 and 200x60; the
** glyph page in ? holds the overshoot glyph as the bars draw it. */
static void glyphs_in(const tui_canvas *cv, tui_rect r, bool *set, bool styled_only)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            const cv_cell *k = cv_at(cv, y, x);
            if (!k || k->ch == ' ' || k->ch >= 512) continue;
            if (styled_only && (k->st == ST_DIM || k->st == ST_NORMAL || (k->st == ST_OOM && k->ch < 256))) continue;
            set[k->ch] = true;
        }
}

START_TEST(legends_list_what_is_drawn)
{
    static const int sizes[3][2] = {{24, 80}, {40, 120}, {60, 200}};
    const char *sep[] = {"plan.mode=separate"};
    for (int sc_i = 0; sc_i < 3; sc_i++) {
        tui_app *a = sc_i == 2 ? open_app(example("does_not_fit.lua"), NULL, 0)
                               : open_app(example("qwen7b_h100x16.lua"), sc_i ? sep : NULL, sc_i);
        app_seek(a, (sc_i == 2 ? 10 : 150) * SIM_NS_PER_S);
        for (int z = 0; z < 3; z++) {
            tui_canvas cv;
            cv_init(&cv);
            tui_layout L;
            render_frame(a, &cv, sizes[z][0], sizes[z][1], &L);
            tui_rect in = rect_inner(L.pane[PANE_TIMELINE]);
            bool plot[512] = {false}, leg[512] = {false};
            glyphs_in(&cv, (tui_rect){a->v.rows_y, a->v.plot_x, a->v.rows_h, a->v.plot_w}, plot, false);
            glyphs_in(&cv, (tui_rect){in.y + in.h - 1, in.x, 1, in.w}, leg, true);
            char legend_line[512];
            cv_row_text(&cv, in.y + in.h - 1, in.x, in.w, legend_line);
            bool cut = strstr(legend_line, "...") != NULL;
            for (int c = 1; c < 512; c++) {
                ck_assert_msg(!leg[c] || plot[c], "%dx%d: legend lists '%c', not drawn: %s", sizes[z][1], sizes[z][0],
                              cv_ascii(c), legend_line);
                ck_assert_msg(cut || !plot[c] || leg[c], "%dx%d: '%c' drawn, not in the legend: %s", sizes[z][1],
                              sizes[z][0], cv_ascii(c), legend_line);
            }
            if (plot[G_FUTURE]) ck_assert_msg(legend_line[0] == '~', "%s", legend_line);
            if (L.visible[PANE_MEMORY]) {
                tui_rect m = rect_inner(L.pane[PANE_MEMORY]);
                bool bars[512] = {false}, mleg[512] = {false};
                /* the bars: right of the names; the legend: its last line(s) */
                glyphs_in(&cv, (tui_rect){m.y + 1, m.x, m.h - 3, m.w}, bars, true);
                glyphs_in(&cv, (tui_rect){m.y + m.h - 2, m.x, 2, m.w}, mleg, true);
                char ml[2][512];
                cv_row_text(&cv, m.y + m.h - 2, m.x, m.w, ml[0]);
                cv_row_text(&cv, m.y + m.h - 1, m.x, m.w, ml[1]);
                bool mcut = strstr(ml[1], "...") != NULL;
                for (int c = 'A'; c <= 'z'; c++)
                    ck_assert_msg(mcut || !bars[c] || mleg[c], "%dx%d memory: '%c' drawn, not in the legend:\n%s\n%s",
                                  sizes[z][1], sizes[z][0], c, ml[0], ml[1]);
                if (sc_i == 2) {
                    ck_assert_msg(mleg[G_SHADE] && (mcut || mleg[G_PEAK]), "%s\n%s", ml[0], ml[1]);
                }
            }
            cv_free(&cv);
        }
        close_app(a);
    }
    /* the glyph page: ? then down to the end */
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_request(a, REQ_HELP);
    a->v.help_top = 1000;
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    render_frame(a, &cv, 40, 120, &L);
    bool shade = false, future = false;
    for (int y = 0; y < 40; y++)
        for (int x = 0; x < 120; x++) {
            shade |= cv_at(&cv, y, x)->ch == G_SHADE;
            future |= cv_at(&cv, y, x)->ch == G_FUTURE;
        }
    char row[200];
    bool heading = false;
    for (int y = 0; y < 40; y++) { cv_row_text(&cv, y, 0, 120, row); heading |= strstr(row, "Glyphs: Memory") != NULL; }
    ck_assert(shade && heading);
    (void)future;
    cv_free(&cv);
    close_app(a);
}
END_TEST

/* Goldens of the views this round changed, at the three sizes: a
** co-located step training (rollout rows known idle, blank) at 80x24; the
** host overflow in Memory and the infeasible Stats at 120x40; the
** separate pools' bubble at staleness 0 at 200x60, the Timeline given the
** rows the lower panes leave. */
static void seek_phase(tui_app *a, int phase)
{
    sim_time since;
    for (sim_time t = SIM_NS_PER_S; t < 600 * SIM_NS_PER_S; t += SIM_NS_PER_S) {
        app_seek(a, t);
        if (sim_step_phase_open(a->run->s, &since) == phase) break;
    }
    ck_assert_int_eq(sim_step_phase_open(a->run->s, &since), phase);
    app_seek(a, run_now(a->run) + 2 * SIM_NS_PER_S);
    app_request(a, REQ_PLAY);
    a->msg[0] = 0;
}

START_TEST(golden_changed_views)
{
    int bad = 0;
    screen sc;
    const char *colo[] = {"plan.mode=colocate"};
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), colo, 1);
    seek_phase(a, STEP_TRAIN);
    draw(a, 24, 80, &sc);
    bad += !expect_pane(&sc, PANE_TIMELINE, "colocate_train_80x24", GOLDEN_COLOCATE_TRAIN_80X24);
    close_app(a);

    a = open_app(example("does_not_fit.lua"), NULL, 0);
    app_seek(a, 10 * SIM_NS_PER_S);
    app_request(a, REQ_PLAY);
    a->msg[0] = 0;
    draw(a, 40, 120, &sc);
    bad += !expect_pane(&sc, PANE_MEMORY, "oom_memory_120x40", GOLDEN_OOM_MEMORY_120X40);
    bad += !expect_pane(&sc, PANE_STATS, "oom_stats_120x40", GOLDEN_OOM_STATS_120X40);
    close_app(a);

    const char *sep[] = {"plan.mode=separate"};
    a = open_app(example("qwen7b_h100x16.lua"), sep, 1);
    seek_phase(a, STEP_TRAIN);
    draw(a, 60, 200, &sc);
    bad += !expect_pane(&sc, PANE_TIMELINE, "separate_bubble_200x60", GOLDEN_SEPARATE_BUBBLE_200X60);
    close_app(a);
    ck_assert_msg(bad == 0, "%d golden(s) differ (drawn screens on stderr)", bad);
}
END_TEST

/* ----------------------------------------------------------- behaviour */

/* Row y of the canvas from column x, as ASCII. */
static const char *cv_line(const tui_canvas *cv, int y, int x, int w)
{
    static char buf[512];
    if (w > (int)sizeof buf - 1) w = (int)sizeof buf - 1;
    cv_row_text(cv, y, x, w, buf);
    return buf;
}

/* Does row y hold `text` at column x, clipped to w columns? */
static bool cv_has_at(const tui_canvas *cv, int y, int x, int w, const char *text)
{
    int n = (int)strlen(text) < w ? (int)strlen(text) : w;
    return n <= 0 || strncmp(cv_line(cv, y, x, n), text, (size_t)n) == 0;
}

/* What a frame of rows x cols must hold: the canvas is that size and every
** cell a glyph and a style the terminal module knows; below the minimum size,
** the "terminal too small" lines where there is room for them; from it up,
** the header with the program and scenario names, the message bar, the key
** hints, each visible pane's border and title, and the help box when open. */
static void check_frame(const tui_app *a, const tui_canvas *cv, const tui_layout *L, int rows, int cols)
{
    ck_assert_int_eq(cv->rows, rows);
    ck_assert_int_eq(cv->cols, cols);
    /* (a check per cell would be slow through ck_assert: it reports every pass) */
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            const cv_cell *k = cv_at(cv, y, x);
            if (!k) ck_abort_msg("%dx%d: no cell at %d,%d", cols, rows, y, x);
            if (!((k->ch >= 32 && k->ch < 127) || (k->ch >= G_HLINE && k->ch < G__END)) || k->st >= ST__COUNT)
                ck_abort_msg("%dx%d: glyph %d style %d at %d,%d", cols, rows, k->ch, k->st, y, x);
        }
    if (L->too_small) {
        ck_assert(rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS);
        int y0 = rows / 2 - 1 > 0 ? rows / 2 - 1 : 0;
        const char *l1 = "terminal too small";
        char l2[64];
        snprintf(l2, sizeof l2, "%dx%d, need %dx%d", cols, rows, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
        int x1 = cols > (int)strlen(l1) ? (cols - (int)strlen(l1)) / 2 : 0;
        int x2 = cols > (int)strlen(l2) ? (cols - (int)strlen(l2)) / 2 : 0;
        ck_assert_msg(cv_has_at(cv, y0, x1, cols - x1, l1), "%dx%d: row %d is '%s'", cols, rows, y0,
                      cv_line(cv, y0, 0, cols));
        if (y0 + 1 < rows)
            ck_assert_msg(cv_has_at(cv, y0 + 1, x2, cols - x2, l2), "%dx%d: row %d is '%s'", cols, rows, y0 + 1,
                          cv_line(cv, y0 + 1, 0, cols));
        return;
    }
    ck_assert(rows >= LAYOUT_MIN_ROWS && cols >= LAYOUT_MIN_COLS);
    char head[96];
    snprintf(head, sizeof head, " fusync  %s  ", a->run->scn.name);
    ck_assert_msg(cv_has_at(cv, L->header.y, 0, cols, head), "%dx%d: header '%s'", cols, rows,
                  cv_line(cv, L->header.y, 0, cols));
    ck_assert_msg(cv_has_at(cv, L->keys.y, 0, cols, "space play . event"), "%dx%d: key hints '%s'", cols, rows,
                  cv_line(cv, L->keys.y, 0, cols));
    ck_assert_msg(cv_has_at(cv, L->status.y, 0, cols, a->msg), "%dx%d: message bar '%s'", cols, rows,
                  cv_line(cv, L->status.y, 0, cols));
    int shown = 0;
    for (int id = 0; id < PANE__COUNT; id++) {
        if (!L->visible[id]) continue;
        tui_rect r = L->pane[id];
        ck_assert_msg(r.y >= 1 && r.x >= 0 && r.y + r.h <= rows - 2 && r.x + r.w <= cols && r.h >= 3 && r.w >= 8,
                      "%dx%d: pane %d at %d,%d %dx%d", cols, rows, id, r.y, r.x, r.w, r.h);
        if (!a->ls.help) {
            char corner[2] = {0};
            int cy[4] = {r.y, r.y, r.y + r.h - 1, r.y + r.h - 1}, cx[4] = {r.x, r.x + r.w - 1, r.x, r.x + r.w - 1};
            for (int i = 0; i < 4; i++) {
                corner[0] = cv_ascii(cv_at(cv, cy[i], cx[i])->ch);
                ck_assert_msg(corner[0] == '+', "%dx%d: pane %d corner %d is '%s'", cols, rows, id, i, corner);
            }
            ck_assert_msg(cv_has_at(cv, r.y, r.x + 2, r.w - 5, pane_title(id)), "%dx%d: pane %d top '%s'", cols,
                          rows, id, cv_line(cv, r.y, r.x, r.w));
        }
        shown++;
    }
    ck_assert_int_eq(shown, 4);     /* timeline, memory, staleness, stats */
    if (a->ls.help)
        ck_assert_msg(cv_has_at(cv, L->help.y, L->help.x + 2, L->help.w - 5, "Help: keys"), "%dx%d: help top '%s'",
                      cols, rows, cv_line(cv, L->help.y, 0, cols));
}

/* Each visible pane, drawn alone on a canvas filled with a mark, leaves every
** cell outside its inner rectangle marked. */
static void check_panes_stay_inside(tui_app *a, tui_canvas *cv, const tui_layout *L)
{
    for (int id = 0; id < PANE__COUNT; id++) {
        if (!L->visible[id]) continue;
        tui_rect in = rect_inner(L->pane[id]);
        cv_fill(cv, (tui_rect){0, 0, cv->rows, cv->cols}, '~', ST_BAD);
        pane_get(id)->draw(a, cv, in);
        for (int y = 0; y < cv->rows; y++)
            for (int x = 0; x < cv->cols; x++) {
                if (rect_has(in, y, x)) continue;
                const cv_cell *k = cv_at(cv, y, x);
                if (k->ch != '~' || k->st != ST_BAD)
                    ck_abort_msg("%dx%d: pane %d drew at %d,%d, outside %d,%d %dx%d", cv->cols, cv->rows, id, y, x,
                                 in.y, in.x, in.w, in.h);
            }
    }
}

START_TEST(too_small_and_back)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_seek(a, 50 * SIM_NS_PER_S);
    screen sc;
    draw(a, 12, 40, &sc);
    ck_assert(sc.L.too_small);
    ck_assert(screen_has(&sc, "terminal too small"));
    ck_assert(screen_has(&sc, "40x12, need 80x24"));
    /* help open while small, then grown: the help comes back */
    app_request(a, REQ_HELP);
    draw(a, 23, 80, &sc);
    ck_assert(screen_has(&sc, "terminal too small"));
    draw(a, 40, 120, &sc);
    ck_assert(!sc.L.too_small);
    ck_assert(screen_has(&sc, "Help: keys"));
    ck_assert(screen_has(&sc, "staleness bound +1"));
    /* every size renders what its layout promises, down to 1x1, with the
    ** help open and closed, and no pane draws outside its box */
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    for (int r = 1; r <= 60; r++)
        for (int c = 1; c <= 220; c += 3) {
            a->ls.help = (r + c) % 2 == 0;
            render_frame(a, &cv, r, c, &L);
            check_frame(a, &cv, &L, r, c);
            if (r % 7 == 0 || r == LAYOUT_MIN_ROWS) check_panes_stay_inside(a, &cv, &L);
        }
    a->ls.help = false;
    render_frame(a, &cv, 200, 400, &L);
    check_frame(a, &cv, &L, 200, 400);
    check_panes_stay_inside(a, &cv, &L);
    cv_free(&cv);
    close_app(a);
}
END_TEST

START_TEST(help_is_the_key_map)
{
    char lines[128][96];
    int n = keymap_help_lines(lines, 128);
    ck_assert_int_gt(n, 20);
    /* every request a key can make is described, and no key is bound twice */
    for (int i = 0; i < keymap_len; i++) {
        if (!keymap[i].help) continue;
        bool found = false;
        for (int k = 0; k < n && !found; k++) found = strstr(lines[k], keymap[i].help) != NULL;
        ck_assert_msg(found, "help lacks '%s'", keymap[i].help);
        for (int j = i + 1; j < keymap_len; j++) ck_assert_msg(keymap[i].key != keymap[j].key, "key %d bound twice", keymap[i].key);
    }
    for (int i = 0; i < keymap_len; i++) {
        bool described = false;
        for (int j = 0; j < keymap_len; j++) described |= keymap[j].req == keymap[i].req && keymap[j].help;
        ck_assert_msg(described, "request of key %d has no help line", keymap[i].key);
    }
}
END_TEST

static int key(tui_app *a, int k)
{
    tui_event ev = {k, 0, 0, 0};
    return app_event(a, &ev, NULL);
}

START_TEST(whatif_edits)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_seek(a, 60 * SIM_NS_PER_S);
    ck_assert_int_eq(a->run->scn.plan.staleness, 0);
    key(a, 's');
    ck_assert_int_eq(a->run->scn.plan.staleness, 1);
    ck_assert_int_eq(run_now(a->run), 0);       /* restarted at once */
    ck_assert(!a->msg_err);
    key(a, ':');
    for (const char *p = "set plan.staleness=3"; *p; p++) key(a, *p);
    key(a, TK_ENTER);
    ck_assert_int_eq(a->run->scn.plan.staleness, 3);
    ck_assert_int_eq(a->nedits, 1);             /* the same path is replaced, not stacked */
    key(a, 'm');
    ck_assert_int_eq(a->run->scn.plan.mode, MODE_SEPARATE);
    key(a, 'i');
    ck_assert_int_eq(a->run->scn.work.iterations, 6);
    key(a, 't');
    ck_assert_int_eq(a->run->scn.plan.rollout.tp, 2);

    /* an invalid edit: message, the previous run stays */
    tui_run *before = a->run;
    ck_assert(!app_set(a, "plan.no_such_field", "1"));
    ck_assert(a->msg_err);
    ck_assert_msg(strstr(a->msg, "no_such_field") != NULL, "message: %s", a->msg);
    ck_assert_ptr_eq(a->run, before);
    /* an infeasible edit (activations of 65536-sequence micro-batches): the same */
    ck_assert(!app_set(a, "plan.train.micro_batch", "65536"));
    ck_assert_msg(strstr(a->msg, "infeasible") != NULL, "message: %s", a->msg);
    ck_assert_ptr_eq(a->run, before);
    /* an unknown command */
    app_command(a, "frobnicate");
    ck_assert(a->msg_err);
    /* unset and reset */
    app_command(a, "unset plan.staleness");
    ck_assert_int_eq(a->run->scn.plan.staleness, 0);
    key(a, 'x');
    ck_assert_int_eq(a->nedits, 0);
    ck_assert_int_eq(a->run->scn.plan.mode, MODE_FULL);
    close_app(a);
}
END_TEST

START_TEST(reactions_say_what_to_draw)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    app_seek(a, 50 * SIM_NS_PER_S);
    ck_assert_int_eq(key(a, TK_RESIZE), RE_REPAINT);
    ck_assert_int_eq(key(a, TK_CTRL('l')), RE_REPAINT);
    ck_assert_int_eq(key(a, ' '), RE_REDRAW);             /* pause: the header changes */
    ck_assert_int_eq(key(a, 'w'), RE_HANDLED);            /* already fitted */
    ck_assert_int_eq(key(a, TK_ESC), RE_HANDLED);         /* nothing to close */
    /* the focused pane answers for its own requests */
    ck_assert_int_eq(key(a, TK_TAB), RE_REDRAW);
    ck_assert_int_eq(a->focus, PANE_MEMORY);
    ck_assert_int_eq(key(a, 'k'), RE_HANDLED);            /* at the top already */
    ck_assert_int_eq(key(a, 'j'), RE_REDRAW);
    ck_assert_int_eq(key(a, 'k'), RE_REDRAW);
    ck_assert_int_eq(key(a, TK_ENTER), RE_NONE);          /* not the memory pane's */
    a->focus = PANE_TIMELINE;
    a->v.sel_row = 0;
    ck_assert_int_eq(key(a, TK_UP), RE_HANDLED);          /* the first row stops it */
    ck_assert_int_eq(key(a, TK_DOWN), RE_REDRAW);
    ck_assert_int_eq(key(a, TK_ENTER), RE_REDRAW);        /* the pool row opens */
    /* zoom, then Esc closes it */
    ck_assert_int_eq(key(a, 'z'), RE_REDRAW);
    ck_assert_int_eq(key(a, TK_ESC), RE_REDRAW);
    /* help: Up at the top changes nothing, Ctrl-L still repaints, a key closes it */
    ck_assert_int_eq(key(a, '?'), RE_REDRAW);
    ck_assert_int_eq(key(a, 'k'), RE_HANDLED);
    ck_assert_int_eq(key(a, TK_CTRL('l')), RE_REPAINT);
    ck_assert_int_eq(key(a, 'x'), RE_REDRAW);
    ck_assert(!a->ls.help && a->nedits == 0);
    /* the command line: typing draws, Ctrl-L repaints, Esc closes */
    ck_assert_int_eq(key(a, ':'), RE_REDRAW);
    ck_assert_int_eq(key(a, 's'), RE_REDRAW);
    ck_assert_int_eq(key(a, TK_UP), RE_HANDLED);
    ck_assert_int_eq(key(a, TK_CTRL('l')), RE_REPAINT);
    ck_assert_int_eq(key(a, TK_ESC), RE_REDRAW);
    /* the mouse while it is off */
    tui_event ev = {TK_MOUSE, 3, 3, 1};
    ck_assert_int_eq(app_event(a, &ev, NULL), RE_NONE);
    ck_assert_int_eq(key(a, 'q'), RE_QUIT);
    ck_assert(a->quit);
    close_app(a);
}
END_TEST

START_TEST(stepping)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    key(a, ' ');                                /* pause */
    ck_assert(!a->playing);
    uint64_t ev = sim_get_stats(a->run->s)->events;
    key(a, '.');
    ck_assert(sim_get_stats(a->run->s)->events == ev + 1);
    key(a, 'n');
    while (a->goal != GOAL_NONE) app_tick(a, 0, 100);
    ck_assert_int_eq(sim_get_stats(a->run->s)->iterations_done, 1);
    /* the default rate shows this first step in about 20 s of wall time */
    double step1 = sim_secs(run_now(a->run));
    ck_assert_msg(step1 / a->rate >= 10 && step1 / a->rate <= 40, "step %g s at x%g", step1, a->rate);
    ck_assert(app_rate_for(920, 20) == 50 && app_rate_for(128, 20) == 5 && app_rate_for(3, 20) == 0.2);
    key(a, 'n');
    while (a->goal != GOAL_NONE) app_tick(a, 0, 100);
    ck_assert_int_eq(sim_get_stats(a->run->s)->iterations_done, 2);
    key(a, 'G');
    while (!run_over(a->run)) app_tick(a, 0, 1000);
    ck_assert_int_eq(sim_get_stats(a->run->s)->iterations_done, 5);
    ck_assert(a->run->report_ready);
    /* play at a rate: one second of wall time at xR moves R simulated
    ** seconds; the default rate shows a step in about 20 s */
    key(a, '0');
    ck_assert(a->playing);
    double r = a->rate;
    app_tick(a, 1.0, UINT64_MAX);
    ck_assert_int_eq(run_now(a->run), (sim_time)(r * SIM_NS_PER_S));
    key(a, '+');
    app_tick(a, 1.0, UINT64_MAX);
    ck_assert_int_eq(run_now(a->run), (sim_time)(3 * r * SIM_NS_PER_S));
    /* the cursor follows the clock until moved */
    ck_assert_int_eq(a->cursor, run_now(a->run));
    key(a, TK_LEFT);
    ck_assert(!a->cursor_follow && a->cursor < run_now(a->run));
    key(a, 'f');
    ck_assert(a->cursor_follow);
    close_app(a);
}
END_TEST

START_TEST(snapshots_compare_and_export)
{
    char dir[512];
    ck_assert(test_tmpdir(dir, sizeof dir, "tui") != NULL);
    cli_opts *o = calloc(1, sizeof *o);
    o->scenario = example("qwen7b_h100x16.lua");
    o->out_dir = dir;
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    ck_assert(app_open(a, o, &err));
    key(a, 'c');
    ck_assert(a->msg_err && !a->ls.compare);    /* nothing to compare yet */
    key(a, 'a');
    app_set(a, "plan.mode", "separate");
    key(a, 'b');
    while (app_busy(a) && !(a->snap[0] && run_over(a->snap[0]) && a->snap[1] && run_over(a->snap[1])))
        app_background(a, 5000);
    ck_assert(a->snap[0]->report_ready && a->snap[1]->report_ready);
    key(a, 'c');
    ck_assert(a->ls.compare);
    screen sc;
    draw(a, 64, 110, &sc);
    ck_assert(sc.L.visible[PANE_COMPARE]);
    char *cmp = rect_text(&sc, sc.L.pane[PANE_COMPARE]);
    ck_assert_msg(strstr(cmp, "throughput") && strstr(cmp, "A: as in the file") && strstr(cmp, "B: plan.mode=separate"),
                  "compare pane:\n%s", cmp);
    ck_assert_msg(strstr(cmp, "%)") != NULL, "no delta in:\n%s", cmp);
    free(cmp);
    /* the side-by-side view: A and B on one time axis, a step of each by
    ** parts, the difference, where the idle time goes, busy per pool */
    ck_assert_msg(expect_pane(&sc, PANE_COMPARE, "compare_side_by_side", GOLDEN_COMPARE_SIDE_BY_SIDE), "golden differs");
    /* at 80x24 the strips would push the table off the pane: the table
    ** comes first, with no Tab or scrolling */
    draw(a, 24, 80, &sc);
    ck_assert_msg(expect_pane(&sc, PANE_COMPARE, "compare_80x24", GOLDEN_COMPARE_80X24), "golden differs");

    key(a, 'e');
    ck_assert_msg(!a->msg_err, "export: %s", a->msg);
    char p1[1100], p2[1100];
    snprintf(p1, sizeof p1, "%s/qwen7b_h100x16.trace.json", dir);
    snprintf(p2, sizeof p2, "%s/qwen7b_h100x16.report.json", dir);
    struct stat st;
    ck_assert(stat(p1, &st) == 0 && st.st_size > 0);
    ck_assert(stat(p2, &st) == 0 && st.st_size > 0);
    ck_assert(strstr(a->msg, p1) != NULL);
    unlink(p1);
    unlink(p2);
    rmdir(dir);
    close_app(a);
    free(o);
}
END_TEST

/* Leave a pattern on the stack below the caller, where the next calls'
** locals will lie: uninitialized reads then see 0xff bytes (NaN doubles, an
** invalid bool for UBSan) instead of whatever zeros happened to be there. */
static __attribute__((noinline)) void poison_stack(void)
{
    volatile unsigned char junk[256 * 1024];
    memset((void *)junk, 0xff, sizeof junk);
}

/* An unready side of the A/B pane is drawn from its (empty) report, never
** from uninitialized memory: `a` then `c` at once, before A has run. */
START_TEST(compare_unready_side)
{
    tui_app *a = open_app(example("pangu718b_cm384.lua"), NULL, 0);
    key(a, 'a');
    key(a, 'c');
    ck_assert(a->ls.compare);
    ck_assert(a->snap[0] && !a->snap[0]->report_ready);
    tui_canvas cv;
    cv_init(&cv);
    tui_layout L;
    memset(&L, 0, sizeof L);
    poison_stack();
    render_frame(a, &cv, ROWS, COLS, &L);
    ck_assert(L.visible[PANE_COMPARE]);
    tui_rect r = L.pane[PANE_COMPARE];
    char line[COLS + 2];
    for (int y = r.y; y < r.y + r.h; y++) {
        cv_row_text(&cv, y, r.x, r.w, line);
        /* neither side has a step yet: no phase rows, no figures, no deltas */
        ck_assert_msg(!strstr(line, "generate") && !strstr(line, "nan") && !strstr(line, "%)"),
                      "compare pane row %d: %s", y - r.y, line);
    }
    cv_free(&cv);
    close_app(a);
}
END_TEST

START_TEST(mouse_selects)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    a->mouse = true;
    app_seek(a, 100 * SIM_NS_PER_S);
    screen sc;
    draw(a, 30, 100, &sc);
    /* click on the memory pane focuses it; on the timeline plot moves the cursor */
    tui_rect m = sc.L.pane[PANE_MEMORY];
    tui_event ev = {TK_MOUSE, m.y + 2, m.x + 3, 1};
    app_event(a, &ev, &sc.L);
    ck_assert_int_eq(a->focus, PANE_MEMORY);
    tui_rect t = sc.L.pane[PANE_TIMELINE];
    ev = (tui_event){TK_MOUSE, t.y + 3, a->v.plot_x + a->v.plot_w / 2, 1};
    app_event(a, &ev, &sc.L);
    ck_assert_int_eq(a->focus, PANE_TIMELINE);
    ck_assert_int_eq(a->v.sel_row, 1);
    ck_assert(!a->cursor_follow);
    ck_assert(a->cursor > 40 * SIM_NS_PER_S && a->cursor < 60 * SIM_NS_PER_S);
    close_app(a);
}
END_TEST

/* The interactions docs/tui.md describes: the : line's history and
** completion, d/D by whole instances (and refused outside separate mode),
** . naming its event, export to the current folder (not the scenario's), opened
** rows kept across an edit. */
START_TEST(interactions)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    key(a, ' ');
    /* . names the event */
    key(a, '.');
    ck_assert_msg(strncmp(a->msg, "Event at t=", 11) == 0, "%s", a->msg);
    /* completion: a unique field completes with '=', a record with '.' */
    key(a, ':');
    for (const char *p = "set plan.stalen"; *p; p++) key(a, *p);
    ck_assert_int_eq(key(a, TK_TAB), RE_REDRAW);
    ck_assert_str_eq(a->cmd, "set plan.staleness=");
    key(a, TK_CTRL('u'));
    for (const char *p = "pla"; *p; p++) key(a, *p);
    key(a, TK_TAB);
    ck_assert_str_eq(a->cmd, "plan.");
    key(a, 'r');
    key(a, 'o');
    key(a, TK_TAB);                 /* several fields: the common part, and the list */
    ck_assert_msg(strncmp(a->cmd, "plan.rollout", 12) == 0, "%s", a->cmd);
    ck_assert_msg(strstr(a->cmd_hint, "rollout_devices") != NULL, "%s", a->cmd_hint);
    {
        /* the list is drawn: on the line under the : line, at 80x24 */
        screen sc;
        draw(a, 24, 80, &sc);
        ck_assert_msg(strncmp(sc.row[sc.L.status.y], ":plan.rollout", 13) == 0, "%s", sc.row[sc.L.status.y]);
        ck_assert_msg(strstr(sc.row[sc.L.keys.y], "fields: ") && strstr(sc.row[sc.L.keys.y], "rollout"), "%s",
                      sc.row[sc.L.keys.y]);
        /* the next key takes it away */
        key(a, 'x');
        draw(a, 24, 80, &sc);
        ck_assert_msg(!strstr(sc.row[sc.L.keys.y], "fields: "), "%s", sc.row[sc.L.keys.y]);
        key(a, TK_BACKSPACE);
    }
    key(a, TK_CTRL('u'));
    for (const char *p = "set plan.staleness=2"; *p; p++) key(a, *p);
    key(a, TK_ENTER);
    ck_assert_int_eq(a->run->scn.plan.staleness, 2);
    /* history: Up brings the last line back, Down past the end clears it */
    key(a, ':');
    ck_assert_int_eq(key(a, TK_UP), RE_REDRAW);
    ck_assert_str_eq(a->cmd, "set plan.staleness=2");
    ck_assert_int_eq(key(a, TK_UP), RE_HANDLED);        /* nothing older */
    key(a, TK_DOWN);
    ck_assert_str_eq(a->cmd, "");
    key(a, TK_ESC);
    /* d outside separate mode: refused, nothing applied */
    int nedits = a->nedits;
    key(a, 'd');
    ck_assert(a->msg_err && strstr(a->msg, "separate mode only"));
    ck_assert_int_eq(a->nedits, nedits);
    /* in separate mode: whole instances and whole training pipelines */
    app_set(a, "plan.mode", "separate");
    int before = a->run->scn.plan.rollout_devices;
    key(a, 'd');
    ck_assert_msg(!a->msg_err, "%s", a->msg);
    ck_assert_int_eq(a->run->scn.plan.rollout_devices, before + 2);
    key(a, 'D');
    ck_assert_int_eq(a->run->scn.plan.rollout_devices, before);
    /* rows as the user left them survive an edit that changes the run's
    ** shape (rollout TP x2: fewer instance tracks): by name */
    screen sc;
    draw(a, 30, 100, &sc);
    ck_assert(a->v.pool_open[0] && a->v.pool_open[1]);      /* opened to fill the pane */
    a->focus = PANE_TIMELINE;
    a->v.sel_row = 0;
    key(a, TK_DOWN);
    key(a, TK_ENTER);               /* row 1: the rollout pool closes */
    ck_assert(!a->v.pool_open[0]);
    int ntracks = a->v.ntracks_open;
    key(a, 't');
    ck_assert_int_eq(a->run->scn.plan.rollout.tp, 2);
    draw(a, 30, 100, &sc);
    ck_assert_int_ne(a->v.ntracks_open, ntracks);
    ck_assert(!a->v.pool_open[0] && a->v.pool_open[1]);
    close_app(a);

    /* export: e and E write to the current folder, never beside the
    ** scenario (a file shipped in examples/, in a checkout) */
    char dir[512], cwd[1024], path[1200];
    ck_assert(test_tmpdir(dir, sizeof dir, "tui") != NULL);
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(path, sizeof path, "cp '%s' '%s/q.lua' && mkdir '%s/work'", example("qwen7b_h100x16.lua"), dir, dir);
    ck_assert_int_eq(system(path), 0);
    static char scn[1200];          /* the app keeps pointing at it */
    snprintf(scn, sizeof scn, "%s/q.lua", dir);
    a = open_app(scn, NULL, 0);
    snprintf(path, sizeof path, "%s/work", dir);
    ck_assert_int_eq(chdir(path), 0);
    key(a, 'e');
    ck_assert_msg(!a->msg_err && strstr(a->msg, "./q.trace.json"), "%s", a->msg);
    key(a, 'E');
    ck_assert_msg(!a->msg_err && strstr(a->msg, "./q.svg"), "%s", a->msg);
    struct stat st;
    ck_assert(stat("q.trace.json", &st) == 0 && st.st_size > 0);
    ck_assert(stat("q.report.json", &st) == 0 && st.st_size > 0);
    ck_assert(stat("q.svg", &st) == 0 && st.st_size > 0);
    const char *beside[] = {"q.trace.json", "q.report.json", "q.svg"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, beside[i]);
        ck_assert_msg(stat(path, &st) != 0, "%s written beside the scenario", path);
    }
    ck_assert_int_eq(chdir(cwd), 0);
    close_app(a);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* The Memory pane folds identical groups into one bar with a count (the 16
** stages of Pangu's pipeline); the Timeline's pools open to fill it, with
** the stages folded into one row that Enter opens. */
START_TEST(pangu_uses_the_space)
{
    tui_app *a = open_app(example("pangu718b_cm384.lua"), NULL, 0);
    app_seek(a, 60 * SIM_NS_PER_S);
    screen sc;
    draw(a, 70, 250, &sc);
    ck_assert(screen_has(&sc, "actor/stage0-15 x16"));
    ck_assert(!screen_has(&sc, "actor/stage1 "));
    /* the pool is open: its sixteen stages folded into one row, then every
    ** rollout instance, all on screen without scrolling */
    ck_assert(screen_has(&sc, "- actor 384 dev"));
    ck_assert(screen_has(&sc, "+ 16 stages (TP8 x DP3)"));
    ck_assert(screen_has(&sc, "rollout 11"));
    ck_assert(!screen_has(&sc, " row 1/"));
    /* at 80x24 the rows scroll, and the pane has no blank row */
    draw(a, 24, 80, &sc);
    tui_rect tl = rect_inner(sc.L.pane[PANE_TIMELINE]);
    int blank = 0;
    for (int y = tl.y + 1; y < tl.y + tl.h - 2; y++) blank += sc.row[y][tl.x] == ' ' && sc.row[y][tl.x + 4] == ' ';
    ck_assert_msg(blank == 0, "%d blank timeline rows at 80x24", blank);
    /* Enter on the fold opens the stages one by one */
    a->focus = PANE_TIMELINE;
    a->v.sel_row = 2;
    key(a, TK_ENTER);
    draw(a, 70, 250, &sc);
    ck_assert(screen_has(&sc, "- 16 stages") && screen_has(&sc, "stage 15 (TP8 x DP3)"));
    close_app(a);
}
END_TEST

/* At 200x60 the lower panes keep the rows their content takes and the
** Timeline gets the rest: Pangu's sixteen stages, opened, need more than
** the usual 45% of the body; every lower pane still shows all it has. */
START_TEST(lower_space_goes_to_the_timeline)
{
    tui_app *a = open_app(example("pangu718b_cm384.lua"), NULL, 0);
    app_seek(a, 60 * SIM_NS_PER_S);
    screen sc;
    draw(a, 60, 200, &sc);
    a->focus = PANE_TIMELINE;
    a->v.sel_row = 2;
    key(a, TK_ENTER);       /* open the 16 stages */
    ck_assert(a->v.stages_open[0]);
    draw(a, 60, 200, &sc);
    int body = sc.L.body.h, tl = sc.L.pane[PANE_TIMELINE].h;
    ck_assert_msg(tl > body * 45 / 100, "timeline %d rows of a %d-row body", tl, body);
    for (int id = 0; id < PANE__COUNT; id++) {
        if (!sc.L.visible[id] || id == PANE_TIMELINE) continue;
        ck_assert_msg(sc.L.pane[id].h >= a->ls.want[id] + 2, "%s: %d rows for %d of content", pane_title(id),
                      sc.L.pane[id].h, a->ls.want[id]);
        /* rows left over in the lower panes only once the timeline has all it has */
        if (sc.L.pane[PANE_TIMELINE].h < a->ls.want[PANE_TIMELINE] + 2)
            ck_assert_msg(sc.L.pane[id].h <= a->ls.want[PANE_STATS] + 2 || sc.L.pane[id].h <= a->ls.want[id] + 2,
                          "%s: %d rows while the timeline scrolls", pane_title(id), sc.L.pane[id].h);
    }
    ck_assert(screen_has(&sc, "plan  colocate"));       /* the last line of Stats */
    /* every row of the opened pool on screen: no scrolling */
    ck_assert_msg(a->v.rows_h >= a->ls.want[PANE_TIMELINE] - 3 && screen_has(&sc, "stage 15 (TP8 x DP3)"),
                  "timeline scrolls: %d rows shown of %d", a->v.rows_h, a->ls.want[PANE_TIMELINE] - 3);
    close_app(a);
}
END_TEST

START_TEST(command_line_errors_before_the_screen)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s tui %s/examples/no_such_file.lua </dev/null 2>&1", test_fusync(), test_root());
    int rc = test_sh(cmd, &out);
    ck_assert_int_eq(rc, 2);
    ck_assert_msg(strstr(out, "no_such_file.lua") != NULL && !strstr(out, "\033["), "output: %s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "%s tui %s/examples/qwen7b_h100x16.lua </dev/null 2>&1", test_fusync(), test_root());
    rc = test_sh(cmd, &out);
    ck_assert_int_eq(rc, 2);
    ck_assert_msg(strstr(out, "needs a terminal") != NULL, "output: %s", out);
    free(out);
}
END_TEST

/* run_span_in() starts its search where the track's last one landed: its
** answers, asked left to right as a frame does, at random, and for
** instants, equal those of a search of the whole index from scratch (the
** same pick: the best overlap among at most 24 spans each side of the
** cell's middle), while the run plays and once it is over. */
static sim_time ref_overlap(const run_span_ent *s, sim_time a, sim_time b)
{
    sim_time lo = s->t0 > a ? s->t0 : a, hi = s->t1 < b ? s->t1 : b;
    if (s->t0 == s->t1 && s->t0 >= a && s->t0 < b) return 1;
    return hi > lo ? hi - lo : 0;
}

static long ref_span_in(const tui_run *r, int track, sim_time a, sim_time b)
{
    const run_track_idx *x = &r->tracks[track];
    sim_time now = run_now(r);
    if (b > now) b = now;
    if (b <= a) {
        if (a == b && a <= now) b = a + 1;
        else return -1;
    }
    if (x->n == 0) return -1;
    sim_time mid = a + (b - a) / 2;
    size_t i = 0, hi = x->n;                    /* a binary search from scratch */
    while (i < hi) {
        size_t m = i + (hi - i) / 2;
        if (x->e[m].t0 <= mid) i = m + 1;
        else hi = m;
    }
    long best = -1;
    sim_time bestov = 0;
    int budget = 24;
    for (size_t k = i; k-- > 0 && budget-- > 0;) {
        if (x->e[k].maxt1 <= a) break;
        sim_time ov = ref_overlap(&x->e[k], a, b);
        if (ov > bestov) { bestov = ov; best = (long)x->e[k].idx; }
    }
    budget = 24;
    for (size_t k = i; k < x->n && budget-- > 0; k++) {
        if (x->e[k].t0 >= b) break;
        sim_time ov = ref_overlap(&x->e[k], a, b);
        if (ov > bestov) { bestov = ov; best = (long)x->e[k].idx; }
    }
    return best;
}

START_TEST(span_lookup_from_the_last)
{
    tui_app *a = open_app(example("qwen7b_h100x16.lua"), NULL, 0);
    uint64_t xs = 0x9e3779b97f4a7c15ULL;
    int checked = 0, found = 0;
    for (int round = 0; round < 3; round++) {
        if (round < 2) app_seek(a, run_now(a->run) + 40 * SIM_NS_PER_S);
        else {
            a->goal = GOAL_END;
            while (!run_over(a->run)) app_tick(a, 0, 1u << 20);
        }
        tui_run *r = a->run;
        sim_time now = run_now(r);
        for (int k = 0; k < r->ntracks; k++) {
            for (int w = 7; w <= 400; w *= 3) {
                for (int c = 0; c < w; c++) {       /* a row's cells, left to right */
                    sim_time c0 = now * c / w, c1 = now * (c + 1) / w;
                    long got = run_span_in(r, k, c0, c1);
                    ck_assert_msg(got == ref_span_in(r, k, c0, c1), "track %d, cell %d/%d", k, c, w);
                    checked++;
                    found += got >= 0;
                }
            }
            for (int q = 0; q < 300; q++) {         /* anywhere, and instants */
                xs ^= xs << 13; xs ^= xs >> 7; xs ^= xs << 17;
                sim_time t0 = (sim_time)(xs % (uint64_t)(now + 1)), len = q % 3 ? (sim_time)(xs >> 40) % (now / 10 + 1) : 0;
                long got = run_span_in(r, k, t0, t0 + len);
                ck_assert_msg(got == ref_span_in(r, k, t0, t0 + len), "track %d, [%lld, +%lld)", k, (long long)t0,
                              (long long)len);
                checked++;
            }
        }
    }
    ck_assert_int_gt(found, checked / 10);
    close_app(a);
}
END_TEST

static Suite *tui_screen_suite(void)
{
    Suite *s = suite_create("tui_screen");
    TCase *tc = tcase_create("golden");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, golden_panes_at_130s);
    tcase_add_test(tc, golden_staleness_stalesync);
    tcase_add_test(tc, golden_out_of_memory);
    tcase_add_test(tc, golden_step_row_detail);
    tcase_add_test(tc, unknown_only_where_unknown);
    tcase_add_test(tc, legends_list_what_is_drawn);
    tcase_add_test(tc, golden_changed_views);
    suite_add_tcase(s, tc);
    tc = tcase_create("behaviour");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, too_small_and_back);
    tcase_add_test(tc, help_is_the_key_map);
    tcase_add_test(tc, whatif_edits);
    tcase_add_test(tc, reactions_say_what_to_draw);
    tcase_add_test(tc, stepping);
    tcase_add_test(tc, snapshots_compare_and_export);
    tcase_add_test(tc, compare_unready_side);
    tcase_add_test(tc, mouse_selects);
    tcase_add_test(tc, command_line_errors_before_the_screen);
    tcase_add_test(tc, interactions);
    tcase_add_test(tc, pangu_uses_the_space);
    tcase_add_test(tc, lower_space_goes_to_the_timeline);
    tcase_add_test(tc, span_lookup_from_the_last);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(tui_screen_suite)
