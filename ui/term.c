/*
** term.c — the ncurses wrapper (see term.h).  Nothing else calls curses.
*/
#include "term.h"
#include "trace.h"
#include "util.h"

/* curses.h declares a debugging function trace(), which would clash with the
** engine's `trace` type; we never call it, so rename its declaration away. */
#define trace curses_trace_unused
#include <curses.h>
#undef trace
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

/* The only mutable globals of the front end: what signal handlers need
** (the stop request itself is util.c's fs_stop_signal). */
static struct termios term_saved;       /* written once before handlers run */
static volatile sig_atomic_t term_have_saved, term_active;

/* A session, from term_open to term_close. */
struct term {
    SCREEN    *screen;
    FILE      *out, *in;
    term_caps  caps;
    attr_t     attr[ST__COUNT];
    short      pair[ST__COUNT];
    tui_canvas shown;       /* what is on the screen, to send only changes */
};

/* ------------------------------------------------------------- styles */

typedef struct { short fg, bg; attr_t a; } color_spec;

/* The words of the colour and attribute columns of trace.h's phase tables. */
#define TERM_C_DEFAULT          (-1)
#define TERM_C_BLACK            COLOR_BLACK
#define TERM_C_RED              COLOR_RED
#define TERM_C_GREEN            COLOR_GREEN
#define TERM_C_YELLOW           COLOR_YELLOW
#define TERM_C_BLUE             COLOR_BLUE
#define TERM_C_MAGENTA          COLOR_MAGENTA
#define TERM_C_CYAN             COLOR_CYAN
#define TERM_C_WHITE            COLOR_WHITE
#define TERM_A_NORMAL           A_NORMAL
#define TERM_A_BOLD             A_BOLD
#define TERM_A_DIM              A_DIM
#define TERM_A_UNDERLINE        A_UNDERLINE
#define TERM_A_BOLD_REVERSE     (A_BOLD | A_REVERSE)
#define TERM_A_BOLD_UNDERLINE   (A_BOLD | A_UNDERLINE)

static color_spec color_of(int st)
{
    color_spec c = {-1, -1, A_NORMAL};
    if (st >= ST_PHASE0 && st < ST_STEP0) {
        /* the phase's row in trace.h; the step row uses the same styles
        ** (style.c), so a colour means the same thing everywhere */
        static const color_spec phase[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = {TERM_C_##fg, TERM_C_##bg, TERM_A_##attr},
            TRACE_PHASES(X)
#undef X
        };
        int p = st - ST_PHASE0;
        return p < PH__COUNT ? phase[p] : (color_spec){COLOR_BLACK, COLOR_WHITE, A_NORMAL};
    }
    if (st >= ST_STEP0 && st < ST_BUCKET0) {
        /* only the step phases with no trace phase of their own are drawn
        ** in these (style.c) */
        static const color_spec step[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = {TERM_C_##fg, TERM_C_##bg, TERM_A_##attr},
            TRACE_STEP_PHASES(X)
#undef X
        };
        int p = st - ST_STEP0;
        return p < STEP__COUNT ? step[p] : (color_spec){COLOR_BLACK, COLOR_WHITE, A_NORMAL};
    }
    if (st >= ST_BUCKET0) {
        static const short bg[MB__COUNT] = {
            [MB_WEIGHTS] = COLOR_BLUE, [MB_GRADS] = COLOR_RED, [MB_OPTIMIZER] = COLOR_MAGENTA,
            [MB_ACTIVATIONS] = COLOR_YELLOW, [MB_ROLLOUT_WEIGHTS] = COLOR_CYAN, [MB_KV_CACHE] = COLOR_GREEN,
            [MB_REF_WEIGHTS] = COLOR_BLUE, [MB_REWARD_WEIGHTS] = COLOR_MAGENTA, [MB_CRITIC] = COLOR_YELLOW,
            [MB_RESHARD] = COLOR_WHITE, [MB_HOST_OFFLOAD] = COLOR_CYAN, [MB_HOST_MODELS] = COLOR_BLUE,
            [MB_RUNTIME] = COLOR_WHITE, [MB_TRAIN_CACHE] = COLOR_RED,
        };
        int p = st - ST_BUCKET0;
        c.fg = COLOR_BLACK;
        c.bg = p < MB__COUNT ? bg[p] : COLOR_WHITE;
        return c;
    }
    switch (st) {
    case ST_DIM: case ST_AXIS: case ST_FREE: case ST_FUTURE: c.a = A_DIM; break;
    case ST_BOLD: case ST_TITLE: c.a = A_BOLD; break;
    case ST_BORDER: c.fg = COLOR_BLUE; break;
    case ST_BORDER_FOCUS: c.fg = COLOR_CYAN; c.a = A_BOLD; break;
    case ST_TITLE_FOCUS: c.fg = COLOR_BLACK; c.bg = COLOR_CYAN; c.a = A_BOLD; break;
    case ST_HEADER: c.fg = COLOR_BLACK; c.bg = COLOR_CYAN; break;
    case ST_HEADER_BOLD: c.fg = COLOR_BLACK; c.bg = COLOR_CYAN; c.a = A_BOLD; break;
    case ST_KEY: c.fg = COLOR_CYAN; c.a = A_BOLD; break;
    case ST_MSG_INFO: c.fg = COLOR_GREEN; break;
    case ST_MSG_ERR: c.fg = COLOR_WHITE; c.bg = COLOR_RED; c.a = A_BOLD; break;
    case ST_CURSOR: c.a = A_REVERSE; break;
    case ST_SELECT: c.a = A_REVERSE | A_BOLD; break;
    case ST_OOM: c.fg = COLOR_WHITE; c.bg = COLOR_RED; c.a = A_BOLD; break;
    case ST_GOOD: c.fg = COLOR_GREEN; c.a = A_BOLD; break;
    case ST_BAD: c.fg = COLOR_RED; c.a = A_BOLD; break;
    case ST_BOUND: c.fg = COLOR_YELLOW; break;
    case ST_PEAK: c.fg = COLOR_MAGENTA; c.a = A_BOLD; break;
    default: break;
    }
    return c;
}

/* Monochrome (htop's scheme): bold, reverse, dim, underline only.  The
** letters in the cells already tell phases and buckets apart. */
static attr_t mono_of(int st)
{
    if (st >= ST_PHASE0 && st < ST_STEP0) {
        static const attr_t phase[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = TERM_A_##mono,
            TRACE_PHASES(X)
#undef X
        };
        int p = st - ST_PHASE0;
        return p < PH__COUNT ? phase[p] : A_NORMAL;
    }
    if (st >= ST_STEP0 && st < ST_BUCKET0) {
        static const attr_t step[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = TERM_A_##mono,
            TRACE_STEP_PHASES(X)
#undef X
        };
        int p = st - ST_STEP0;
        return p < STEP__COUNT ? step[p] : A_NORMAL;
    }
    if (st >= ST_BUCKET0) return A_NORMAL;
    switch (st) {
    case ST_DIM: case ST_AXIS: case ST_FREE: case ST_FUTURE: return A_DIM;
    case ST_BOLD: case ST_TITLE: case ST_BORDER_FOCUS: case ST_KEY: case ST_GOOD: case ST_PEAK: return A_BOLD;
    case ST_TITLE_FOCUS: case ST_HEADER_BOLD: case ST_MSG_ERR: case ST_OOM: return A_REVERSE | A_BOLD;
    case ST_HEADER: case ST_CURSOR: case ST_SELECT: return A_REVERSE;
    case ST_BAD: return A_BOLD | A_UNDERLINE;
    case ST_BOUND: return A_UNDERLINE;
    default: return A_NORMAL;
    }
}

static void setup_styles(term *T)
{
    bool color = T->caps.color && has_colors();
    T->caps.color = color;
    if (color) {
        start_color();
        use_default_colors();   /* keep the terminal's own background */
    }
    short next = 1;
    for (int st = 0; st < ST__COUNT; st++) {
        T->pair[st] = 0;
        if (!color) { T->attr[st] = mono_of(st); continue; }
        color_spec c = color_of(st);
        T->attr[st] = c.a;
        if (c.fg < 0 && c.bg < 0) continue;
        /* reuse a pair with the same colors */
        short found = 0;
        for (int k = 0; k < st && !found; k++) {
            color_spec o = color_of(k);
            if (T->pair[k] && o.fg == c.fg && o.bg == c.bg) found = T->pair[k];
        }
        if (!found && next < COLOR_PAIRS) {
            init_pair(next, c.fg, c.bg);
            found = next++;
        }
        T->pair[st] = found;
    }
}

/* ------------------------------------------------------------- glyphs */

static wchar_t wide_of(int ch)
{
    switch (ch) {
    case G_HLINE: return 0x2500;
    case G_VLINE: return 0x2502;
    case G_ULCORNER: return 0x250C;
    case G_URCORNER: return 0x2510;
    case G_LLCORNER: return 0x2514;
    case G_LRCORNER: return 0x2518;
    case G_LTEE: return 0x251C;
    case G_RTEE: return 0x2524;
    case G_BTEE: return 0x2534;
    case G_TTEE: return 0x252C;
    case G_BLOCK: return 0x2588;
    case G_SHADE: return 0x2591;
    case G_PEAK: return 0x2503;
    case G_DOT: return 0x00B7;
    case G_PLAY: return 0x25B6;
    case G_PAUSE: return 0x2016;
    case G_FUTURE: return 0x2508;
    case G_DASH: return 0x2014;
    default: return (wchar_t)cv_ascii(ch);
    }
}

/* ------------------------------------------------------------ set-up */

term_caps term_caps_from(bool no_color, bool ascii, bool no_mouse)
{
    term_caps c;
    const char *nc = getenv("NO_COLOR");
    c.color = !no_color && !(nc && *nc);
    const char *cs = nl_langinfo(CODESET);
    c.utf8 = !ascii && cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
    c.mouse = !no_mouse;
    return c;
}

static void common_setup(term *T)
{
    cbreak();               /* not raw: Ctrl-C stays a signal, handled as a flag */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    setup_styles(T);
    /* only ask for mouse reports when wanted: while the terminal reports the
    ** mouse, selecting text with it needs Shift held */
    if (T->caps.mouse) {
        mousemask(BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        mouseinterval(0);
    }
    cv_init(&T->shown);
    term_active = 1;
}

term *term_open(term_caps *caps, char *why, size_t n)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        snprintf(why, n, "tui: needs a terminal (use 'fusync run' for a report)");
        return NULL;
    }
    term *T = xcalloc(1, sizeof *T);
    T->caps = *caps;
    if (tcgetattr(STDIN_FILENO, &term_saved) == 0) term_have_saved = 1;
    const char *tn = getenv("TERM");
    T->screen = newterm(tn && *tn ? NULL : "vt100", stdout, stdin);
    if (!T->screen) {
        snprintf(why, n, "tui: cannot use terminal type '%s' (set TERM)", tn ? tn : "");
        free(T);
        return NULL;
    }
    set_term(T->screen);
    /* a terminal that cannot place the cursor (TERM=dumb) would draw every
    ** frame on one line */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (char *)-1) {
        endwin();
        delscreen(T->screen);
        snprintf(why, n, "tui: terminal type '%s' cannot place the cursor; set TERM to your terminal's "
                 "type (e.g. xterm-256color) or use 'fusync run' for a report", tn && *tn ? tn : "vt100");
        free(T);
        return NULL;
    }
    common_setup(T);
    *caps = T->caps;
    return T;
}

term *term_open_virtual(term_caps *caps, int rows, int cols)
{
    term *T = xcalloc(1, sizeof *T);
    T->caps = *caps;
    /* never O_CREAT: if /dev/null were missing we must not make a file of it */
    int fo = open("/dev/null", O_WRONLY), fi = open("/dev/null", O_RDONLY);
    T->out = fo >= 0 ? fdopen(fo, "w") : NULL;
    T->in = fi >= 0 ? fdopen(fi, "r") : NULL;
    if (!T->out && fo >= 0) close(fo);
    if (!T->in && fi >= 0) close(fi);
    if (T->out && T->in) T->screen = newterm("xterm", T->out, T->in);
    if (!T->screen) {
        if (T->out) fclose(T->out);
        if (T->in) fclose(T->in);
        free(T);
        return NULL;
    }
    set_term(T->screen);
    common_setup(T);
    resizeterm(rows, cols);
    *caps = T->caps;
    return T;
}

void term_close(term *T)
{
    if (!T) return;
    if (T->caps.mouse) mousemask(0, NULL);
    curs_set(1);
    endwin();
    delscreen(T->screen);
    term_active = 0;
    if (T->out) fclose(T->out);
    if (T->in) fclose(T->in);
    cv_free(&T->shown);
    bool real = T->out == NULL;
    free(T);
    if (real && term_have_saved) tcsetattr(STDIN_FILENO, TCSANOW, &term_saved);
}

void term_size(term *T, int *rows, int *cols)
{
    (void)T;
    *rows = LINES;
    *cols = COLS;
}

/* ------------------------------------------------------------ drawing */

static void put_cell(term *T, int y, int x, const cv_cell *k)
{
    int st = k->st < ST__COUNT ? k->st : ST_NORMAL;
    attr_t at = T->attr[st];
    short pr = T->pair[st];
    if (T->caps.utf8) {
        wchar_t w[2] = {wide_of(k->ch), 0};
        cchar_t cc;
        setcchar(&cc, w, at, pr, NULL);
        mvadd_wch(y, x, &cc);
    } else {
        mvaddch(y, x, (chtype)(unsigned char)cv_ascii(k->ch) | at | COLOR_PAIR(pr));
    }
}

void term_draw(term *T, const tui_canvas *cv, bool full)
{
    if (!T) return;
    bool same = !full && T->shown.rows == cv->rows && T->shown.cols == cv->cols;
    if (!same) {
        cv_resize(&T->shown, cv->rows, cv->cols);
        if (full) clearok(curscr, TRUE);
    }
    for (int y = 0; y < cv->rows; y++) {
        for (int x = 0; x < cv->cols; x++) {
            const cv_cell *k = cv_at(cv, y, x), *o = cv_at(&T->shown, y, x);
            if (same && k->ch == o->ch && k->st == o->st) continue;
            put_cell(T, y, x, k);
            cv_put(&T->shown, y, x, k->ch, k->st);
        }
    }
    refresh();
}

void term_row_text(term *T, int y, int x, int w, char *buf)
{
    buf[0] = 0;
    if (!T || w <= 0) return;
    int n = 0;
    for (int i = 0; i < w; i++) {
        chtype c = mvinch(y, x + i);
        char ch = (char)(c & A_CHARTEXT);
        buf[n++] = ch ? ch : ' ';
    }
    buf[n] = 0;
}

/* --------------------------------------------------------------- input */

static int map_key(int k)
{
    switch (k) {
    case KEY_UP: return TK_UP;
    case KEY_DOWN: return TK_DOWN;
    case KEY_LEFT: return TK_LEFT;
    case KEY_RIGHT: return TK_RIGHT;
    case KEY_SLEFT: return TK_SLEFT;
    case KEY_SRIGHT: return TK_SRIGHT;
    case KEY_PPAGE: return TK_PGUP;
    case KEY_NPAGE: return TK_PGDN;
    case KEY_HOME: return TK_HOME;
    case KEY_END: return TK_END;
    case KEY_ENTER: return TK_ENTER;
    case KEY_BACKSPACE: return TK_BACKSPACE;
    case KEY_BTAB: return TK_BTAB;
    case KEY_RESIZE: return TK_RESIZE;
    case KEY_F(1): return TK_F1;
    default: return TK_NONE;
    }
}

tui_event term_event(term *T, int timeout_ms)
{
    tui_event ev = {TK_NONE, 0, 0, 0};
    if (!T) return ev;
    timeout(timeout_ms);
    wint_t wc;
    int r = get_wch(&wc);
    if (r == ERR) return ev;
    if (r == KEY_CODE_YES) {
        if (wc == KEY_MOUSE) {
            MEVENT me;
            if (getmouse(&me) != OK) return ev;
            ev.key = TK_MOUSE;
            ev.y = me.y;
            ev.x = me.x;
            if (me.bstate & BUTTON4_PRESSED) ev.button = 4;
            else if (me.bstate & BUTTON5_PRESSED) ev.button = 5;
            else if (me.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED)) ev.button = 1;
            else ev.key = TK_NONE;
            return ev;
        }
        ev.key = map_key((int)wc);
        return ev;
    }
    switch (wc) {
    case '\r': case '\n': ev.key = TK_ENTER; break;
    case 27: ev.key = TK_ESC; break;
    case 127: case 8: ev.key = TK_BACKSPACE; break;
    case '\t': ev.key = TK_TAB; break;
    default: ev.key = wc < 0x10000 ? (int)wc : TK_NONE; break;
    }
    return ev;
}

/* ------------------------------------------------------------- signals */

/* Put the terminal back with async-signal-safe calls only: for a crash, and
** for fs_fatal_exit (a second Ctrl-C, a plugin stuck past its watchdog). */
static void emergency_restore(void)
{
    if (term_active) {
        term_active = 0;
        static const char reset[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?25h\033[?1049l\r\n";
        ssize_t w = write(STDOUT_FILENO, reset, sizeof reset - 1);
        (void)w;
        if (term_have_saved) tcsetattr(STDIN_FILENO, TCSANOW, &term_saved);
    }
}

/* A crash: give the terminal back, then die of the same signal so the exit
** status tells what happened. */
static void on_crash(int sig)
{
    emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

void term_signals(void)
{
    /* SIGINT, SIGTERM, SIGHUP, SIGQUIT: a stop request the loop reads */
    fs_signals_install();
    fs_set_terminal_restore(emergency_restore);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
}

int term_signal_pending(void)
{
    return (int)fs_stop_signal;
}
