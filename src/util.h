/*
** util.h — small helpers shared by every module: error values, checked
** allocation, growable buffers and a streaming JSON writer.
** Library code never prints or exits; it fills an fs_err and returns.
*/
#ifndef FUSYNC_UTIL_H
#define FUSYNC_UTIL_H

/* The version: the Makefile sets it (unquoted) from `git describe --tags`
** when the checkout has a tag, else from its FUSYNC_VERSION_FALLBACK (every
** object that names FUSYNC_VERSION_STR is in its VERSION_USERS);
** FUSYNC_VERSION_STR is its text.  Built by hand, the default below. */
#ifndef FUSYNC_VERSION
#define FUSYNC_VERSION 0.2.0
#endif
#define FUSYNC_STR_(x) #x
#define FUSYNC_STR(x) FUSYNC_STR_(x)
#define FUSYNC_VERSION_STR FUSYNC_STR(FUSYNC_VERSION)

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>

/* An error for the user: what, where, what to do.  `code` is the exit status
** the command line should use (2 bad input or unwritable output, 1 infeasible). */
typedef struct {
    int  code;
    char msg[1024];
} fs_err;

void fs_err_set(fs_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Allocation that cannot fail silently: on exhaustion prints and aborts,
** because a simulator that has run out of memory has nothing to save. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Growable array of fixed-size items. */
typedef struct {
    void  *data;
    size_t len, cap, item;
} fs_vec;

void  vec_init(fs_vec *v, size_t item);
void *vec_push(fs_vec *v);              /* returns a zeroed new slot */
void  vec_reserve(fs_vec *v, size_t cap);
void  vec_free(fs_vec *v);
#define VEC_AT(v, T, i) (((T *)(v)->data)[i])

/* Growable string. */
typedef struct {
    char  *s;
    size_t len, cap;
} fs_buf;

void buf_init(fs_buf *b);
void buf_putc(fs_buf *b, char c);
void buf_puts(fs_buf *b, const char *s);
void buf_printf(fs_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One word of a POSIX shell command: as it is when it holds only characters
** no shell treats specially in an argument (letters, digits, _ . / = : , + - @),
** else in single quotes, each ' written as '\'' (POSIX, Shell Command
** Language, 2.2.3 Single-Quotes); the empty word is ''. */
void buf_shell_word(fs_buf *b, const char *w);
void buf_free(fs_buf *b);

/* Streaming JSON writer into an fs_buf (no DOM).  Tracks commas itself. */
typedef struct {
    fs_buf *out;
    int     depth;
    bool    need_comma[64];
    bool    pretty;
} fs_json;

void json_init(fs_json *j, fs_buf *out, bool pretty);
void json_obj_begin(fs_json *j, const char *key);   /* key NULL inside arrays/top */
void json_obj_end(fs_json *j);
void json_arr_begin(fs_json *j, const char *key);
void json_arr_end(fs_json *j);
void json_num(fs_json *j, const char *key, double v);
void json_int(fs_json *j, const char *key, int64_t v);
void json_str(fs_json *j, const char *key, const char *v);
void json_bool(fs_json *j, const char *key, bool v);
void json_null(fs_json *j, const char *key);
/* Quoted, escaped; bytes that are not valid UTF-8 are written as \ufffd. */
void json_escape(fs_buf *b, const char *s);
/* Length of the valid UTF-8 sequence starting at p (1 for ASCII), 0 when
** the bytes there are not one (RFC 3629). */
size_t fs_utf8_seq(const unsigned char *p);
/* Shortest round-trip text of a double, deterministic ("%.17g" trimmed). */
void fmt_double(char *out, size_t n, double v);

/* Human-readable figures: 1.23 GiB, 45.6 ms, 12.3k. */
void fmt_bytes(char *out, size_t n, double bytes);
void fmt_secs(char *out, size_t n, double s);
void fmt_si(char *out, size_t n, double v);
/* `bytes` against a capacity: fmt_bytes, with as many more decimals (up to
** four) as it takes for a figure over `capacity` to read larger than
** fmt_bytes(capacity) ("1.027 TiB", not "1.0 TiB" of 1.0 TiB).  A figure
** at or under capacity reads as fmt_bytes prints it. */
void fmt_bytes_of(char *out, size_t n, double bytes, double capacity);

/* Write a whole file atomically: to PATH.tmp, fsync, rename.  "-" is stdout;
** a path that exists and is not a regular file (a device, a FIFO) is
** written in place. */
bool path_is_special(const char *path);
/* Open a device or a pipe for writing in place.  A FIFO with no reader is
** refused at once (NULL, errno ENXIO) instead of blocking until one comes;
** fs_direct_error names that case for a message. */
FILE *fs_open_direct(const char *path);
const char *fs_direct_error(int err);
bool write_file_atomic(const char *path, const char *data, size_t len, fs_err *err);

/* Read a whole input file of at most `max` bytes into *text (malloc'd,
** NUL-terminated; *len its length).  Refuses what is not a regular file
** (a device, pipe or folder), a larger file and a file with a NUL byte;
** `what` names the file's kind in those messages ("config.json"). */
bool read_small_file(const char *path, long max, const char *what, char **text, size_t *len, fs_err *err);

/* Create PATH's temporary sibling "PATH.tmp.XXXXXX" with O_EXCL (mkstemp:
** never through a symbolic link), mode 0666 less the umask, and track it for
** removal on a signal.  Returns the open stream with the name in *tmp
** (malloc'd), or NULL with errno set. */
FILE *fs_tmp_create(const char *path, char **tmp);
/* Done with a temporary (renamed or removed by the caller): stop tracking. */
void  fs_tmp_forget(const char *tmp);

/* ------------------------------------------------------------ signals
** One place for the stop request (docs/security.md).  fs_signals_install
** makes SIGINT, SIGTERM, SIGHUP and SIGQUIT set fs_stop_signal (the signal
** number); loops read it, the Lua count hook reads it.  A second signal, or a
** first one that a stuck call does not notice within a second, ends the
** process at once through fs_fatal_exit. */
extern volatile sig_atomic_t fs_stop_signal;
void fs_signals_install(void);
/* The handler itself, for a module that chains its own (cli_sweep.c). */
void fs_on_stop_signal(int sig);
/* The exit status for a stop request: 130 for SIGINT and SIGTERM (as
** documented), 128 + the signal otherwise; 0 when none. */
int  fs_stop_status(void);
/* An async-signal-safe function that gives the terminal back (the TUI's). */
void fs_set_terminal_restore(void (*fn)(void));
/* End the process now from any context, signal handlers included: give the
** terminal back, remove tracked temporaries, write msg to stderr, _exit. */
_Noreturn void fs_fatal_exit(int status, const char *msg);

/* The budget of one command (docs/security.md): sweep, plan and calibrate
** stop with status 2 once the command has run FS_COMMAND_SECONDS of wall
** clock (FUSYNC_COMMAND_SECONDS sets it), whatever its plugins' per-call and
** per-run budgets allow.  fs_signals_install starts it; forked workers
** inherit the deadline.  fs_budget_spent fills err when it is spent. */
#define FS_COMMAND_SECONDS 3600.0
void fs_budget_start(void);
bool fs_budget_spent(fs_err *err);

/* Wall-clock watchdog for a call into code from other people.  The caller's
** own check (the Lua count hook) stops the call at its deadline and calls
** fs_watch_tick as it goes.  A call that has not ticked for `stuck` seconds
** (0: not checked) is stuck inside a library function, and one still
** running FS_WATCH_GRACE seconds after its deadline could not be stopped:
** either ends the process with `stuck_msg` or `late_msg`, exit status 2.
** Calls nest; fs_watch_end closes the innermost. */
#define FS_WATCH_GRACE 1.0
#define FS_WATCH_STUCK 4.0
void fs_watch_begin(double deadline, double stuck, const char *stuck_msg, const char *late_msg);
void fs_watch_tick(double now);
void fs_watch_end(void);

/* Terminal-safe text: control characters (C0 but newline and tab, DEL, C1)
** and invalid UTF-8 bytes become \xNN or \uNNNN escapes, so a name or a
** message cannot move the cursor, retitle the window or hide output. */
void fs_term_escape(char *out, size_t n, const char *s);
void buf_put_term(fs_buf *b, const char *s);

/* Edit distance for "did you mean". */
int  str_distance(const char *a, const char *b);

double wall_now(void);          /* monotonic seconds, for sim_wall_s only */

/* "s" unless n is 1, for counts in messages: "%d device%s", n, fs_s(n). */
static inline const char *fs_s(long n) { return n == 1 ? "" : "s"; }

#endif
