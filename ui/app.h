/*
** app.h — the front end's state and actions, without curses.
**
** Keys become named requests through one key map (keymap.c); requests
** return reaction flags (htop style) and the main loop decides what to do
** next.  The live run is advanced in slices by app_tick; what-if edits are
** "PATH=VALUE" strings appended to the command line's --set list and loaded
** through the same scenario loader, so they get exactly its validation.
*/
#ifndef FUSYNC_UI_APP_H
#define FUSYNC_UI_APP_H

#include "cli.h"
#include "layout.h"
#include "lesson_menu.h"
#include "run.h"

/* Keys that are not characters (term.c maps curses codes to these). */
enum {
    TK_NONE = -1,
    TK_UP = 0x10000, TK_DOWN, TK_LEFT, TK_RIGHT, TK_SLEFT, TK_SRIGHT, TK_PGUP, TK_PGDN,
    TK_HOME, TK_END, TK_ENTER, TK_ESC, TK_BACKSPACE, TK_TAB, TK_BTAB, TK_RESIZE, TK_MOUSE,
    TK_F1
};
#define TK_CTRL(c) ((c) & 0x1f)

typedef struct {
    int key;
    int y, x;           /* TK_MOUSE: screen cell */
    int button;         /* TK_MOUSE: 1 left click, 4 wheel up, 5 wheel down */
} tui_event;

typedef enum {
    REQ_NONE,
    /* run */
    REQ_PLAY, REQ_STEP_EVENT, REQ_STEP_ITER, REQ_END, REQ_RESTART, REQ_FASTER, REQ_SLOWER,
    /* view */
    REQ_FOCUS_NEXT, REQ_FOCUS_PREV, REQ_ZOOM_PANE, REQ_UP, REQ_DOWN, REQ_PGUP, REQ_PGDN,
    REQ_LEFT, REQ_RIGHT, REQ_LEFT_FAST, REQ_RIGHT_FAST, REQ_HOME, REQ_FOLLOW,
    REQ_ZOOM_IN, REQ_ZOOM_OUT, REQ_FIT, REQ_EXPAND,
    /* what-if */
    REQ_MODE, REQ_STALE_UP, REQ_STALE_DOWN, REQ_PARTIAL_UP, REQ_PARTIAL_DOWN,
    REQ_SPLIT_UP, REQ_SPLIT_DOWN, REQ_RTP_UP, REQ_RTP_DOWN, REQ_SN_UP, REQ_SN_DOWN,
    REQ_ITER_UP, REQ_ITER_DOWN, REQ_RESET_EDITS, REQ_COMMAND,
    /* compare, export, general */
    REQ_SNAP_A, REQ_SNAP_B, REQ_COMPARE, REQ_EXPORT, REQ_EXPORT_SVG, REQ_LESSONS, REQ_HELP, REQ_REDRAW, REQ_QUIT,
    REQ__COUNT
} tui_req;

/* Reactions a request or an event asks of the main loop (ui/tui.c), which
** draws a frame only when one asks for it:
**   RE_NONE     not for this receiver; nothing changed
**   RE_HANDLED  taken, but nothing on the screen changes
**   RE_REDRAW   draw a new frame (only the cells that changed reach the terminal)
**   RE_QUIT     leave the loop
**   RE_REPAINT  forget what the terminal shows and repaint it all (a resize,
**               Ctrl-L); implies a new frame */
enum { RE_NONE = 0, RE_HANDLED = 1, RE_REDRAW = 2, RE_QUIT = 4, RE_REPAINT = 8 };

/* In the order the help shows them. */
typedef enum { SEC_RUN, SEC_WHATIF, SEC_COMPARE, SEC_VIEW, SEC_GENERAL, SEC__COUNT } key_section;

typedef struct {
    int         key;
    tui_req     req;
    key_section section;
    const char *help;
} tui_binding;

extern const tui_binding keymap[];
extern const int keymap_len;
tui_req     keymap_lookup(int key);
const char *keymap_key_name(int key, char *buf, size_t n);
const char *keymap_section_name(key_section s);
/* The help text, one line per entry, generated from the live key map. */
int         keymap_help_lines(char lines[][96], int max);

#define APP_EDITS_MAX 32

typedef enum { GOAL_NONE, GOAL_ITER, GOAL_END } app_goal;

typedef struct {
    /* timeline */
    int   sel_row, top_row;
    bool *pool_open;            /* per pool */
    bool *track_open;           /* per track: expanded to single devices */
    bool  stages_open[SCN_POOLS_MAX];   /* a pool's pipeline stages shown one by one */
    char  want_row[64];     /* select (and scroll to) the first row whose label holds this, next draw */
    int   ntracks_open, npools_open;
    bool  auto_open;            /* open pools that fit at the next draw */
    /* names of the open pools and tracks, to reopen them after an edit */
#define APP_OPEN_NAMES 64
    char  open_pool_names[APP_OPEN_NAMES][64], open_track_names[APP_OPEN_NAMES][64];
    int   nopen_pool_names, nopen_track_names;
    int   plot_x, plot_w;       /* screen columns of the plot, from the last draw */
    int   rows_y, rows_h;       /* screen rows of the track rows */
    /* memory, staleness, stats, compare: a scroll offset each */
    int   scroll[PANE__COUNT];
    /* help */
    int   help_top;
} app_view;

typedef struct tui_app {
    cli_opts   opts;            /* as given; its sets are the base of every load */
    char       edits[APP_EDITS_MAX][2][96];     /* path, value */
    int        nedits;

    tui_run   *run;             /* the live run */
    tui_run   *snap[2];         /* A and B */

    bool       playing;
    double     rate;            /* simulated seconds per wall second */
    app_goal   goal;
    int        goal_iter;

    layout_state ls;
    int        focus;           /* pane_id */
    bool       fit;             /* timeline shows [0, now] */
    sim_time   view_t0, view_t1;
    bool       cursor_follow;
    sim_time   cursor;
    app_view   v;

    char       msg[512];
    bool       msg_err;
    bool       cmdline;
    char       cmd[256];
    int        cmdlen;
    /* what Tab completion says while the : line is open (the candidates,
    ** a field's documentation, or why nothing completes), drawn on the
    ** line under it; cleared by the next key */
    char       cmd_hint[512];
    bool       cmd_hint_err;
    /* the command line's history, oldest first; hist_pos while browsing */
#define APP_HIST_MAX 32
    char       hist[APP_HIST_MAX][256];
    int        nhist, hist_pos;
    bool       rate_set;        /* the user chose a rate: keep it across restarts */

    bool       quit;
    bool       utf8, color, mouse;

    /* A guided lesson drives the app from above (lesson_play.c) and keeps
    ** its state here, or NULL; the app knows no more of it than how to let
    ** it go when it closes: lesson_drop(lesson). */
    void      *lesson;
    void     (*lesson_drop)(void *lesson);
    lesson_menu *menu;          /* the lessons `o` lists, or NULL */
} tui_app;

/* Load the scenario and build the first run.  False with err (nothing taken). */
bool app_open(tui_app *a, const cli_opts *o, fs_err *err);
void app_close(tui_app *a);

/* Advance the live run by wall_dt seconds of play (or toward a goal), using
** at most max_events engine events; then bring the indices up to date. */
void app_tick(tui_app *a, double wall_dt, uint64_t max_events);
/* Run snapshots A and B toward their end, at most max_events events (their
** own budget: the main loop adapts it apart from the live run's). */
void app_background(tui_app *a, uint64_t max_events);
/* Is there work left for app_tick? (playing, or a goal, or a snapshot running) */
bool app_busy(const tui_app *a);
/* Move the live run to simulated time t (tests, golden screens). */
void app_seek(tui_app *a, sim_time t);

/* Both return RE_* flags. */
int  app_request(tui_app *a, tui_req req);
int  app_event(tui_app *a, const tui_event *ev, const tui_layout *L);
/* Apply one what-if edit, reloading through the scenario loader.  On error
** the message bar says why and the previous run stays. */
bool app_set(tui_app *a, const char *path, const char *value);
/* Run a ':' command line. */
int  app_command(tui_app *a, const char *line);
/* Complete the command line's field path (Tab): the longest common
** completion is appended; several candidates are listed in cmd_hint
** (drawn under the : line).  Returns the number of candidates. */
int  app_complete(tui_app *a);
/* A play rate that shows one training step in about `wall_s` seconds,
** rounded to 1, 2 or 5 times a power of ten. */
double app_rate_for(double step_s, double wall_s);
void app_message(tui_app *a, bool err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* `E`: the view as an SVG picture (svg_export.h), the A/B pair when the
** comparison is shown; the message bar says where it went.  The path
** written goes to `out` (size n) when given, "" on failure.  True when a
** file was written. */
bool app_export_svg(tui_app *a, char *out, size_t n);

/* The timeline's visible time window. */
void app_window(const tui_app *a, sim_time *t0, sim_time *t1);

#endif
