/*
** util.c — errors, allocation, buffers, JSON writing, formatting.
*/
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

void fs_err_set(fs_err *e, int code, const char *fmt, ...)
{
    if (!e) return;
    va_list ap;
    va_start(ap, fmt);
    e->code = code;
    char raw[sizeof e->msg];
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    /* every message may reach a terminal and may quote a scenario's or a
    ** plugin's text: escape control characters once, here */
    fs_term_escape(e->msg, sizeof e->msg, raw);
}

static void oom(size_t n)
{
    fprintf(stderr, "fusync: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom(n);
    return p;
}

void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) oom(n * sz);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void vec_init(fs_vec *v, size_t item)
{
    v->data = NULL;
    v->len = v->cap = 0;
    v->item = item;
}

void *vec_push(fs_vec *v)
{
    if (v->len == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->data = xrealloc(v->data, v->cap * v->item);
    }
    void *slot = (char *)v->data + v->len * v->item;
    memset(slot, 0, v->item);
    v->len++;
    return slot;
}

void vec_reserve(fs_vec *v, size_t cap)
{
    if (cap <= v->cap) return;
    v->data = xrealloc(v->data, cap * v->item);
    v->cap = cap;
}

void vec_free(fs_vec *v)
{
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

void buf_init(fs_buf *b)
{
    b->s = NULL;
    b->len = b->cap = 0;
}

static void buf_reserve(fs_buf *b, size_t extra)
{
    if (b->len + extra + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->len + extra + 1) c *= 2;
        b->s = xrealloc(b->s, c);
        b->cap = c;
    }
}

void buf_putc(fs_buf *b, char c)
{
    buf_reserve(b, 1);
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

void buf_puts(fs_buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_reserve(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void buf_shell_word(fs_buf *b, const char *w)
{
    bool plain = *w != 0;
    for (const char *p = w; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@", *p) != NULL;
    if (plain) { buf_puts(b, w); return; }
    buf_putc(b, '\'');
    for (const char *p = w; *p; p++) {
        if (*p == '\'') buf_puts(b, "'\\''");
        else buf_putc(b, *p);
    }
    buf_putc(b, '\'');
}

void buf_printf(fs_buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        buf_reserve(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void buf_free(fs_buf *b)
{
    free(b->s);
    buf_init(b);
}

/* ---- JSON ---- */

void json_init(fs_json *j, fs_buf *out, bool pretty)
{
    memset(j, 0, sizeof *j);
    j->out = out;
    j->pretty = pretty;
}

size_t fs_utf8_seq(const unsigned char *p)
{
    /* RFC 3629, section 4: no overlong forms, no surrogates, at most U+10FFFF */
    unsigned c = p[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t k = 2; k < n; k++) if (p[k] < 0x80 || p[k] > 0xBF) return 0;
    return n;
}

void json_escape(fs_buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            /* JSON text is UTF-8 (RFC 8259, section 8.1): a byte that starts
            ** no valid sequence becomes U+FFFD, so a name read from a file
            ** in another encoding still gives a file every parser reads */
            size_t n = fs_utf8_seq(p);
            if (!n) { buf_puts(b, "\\ufffd"); continue; }
            for (size_t k = 0; k < n; k++) buf_putc(b, (char)p[k]);
            p += n - 1;
            continue;
        }
        switch (*p) {
        case '"': buf_puts(b, "\\\""); break;
        case '\\': buf_puts(b, "\\\\"); break;
        case '\n': buf_puts(b, "\\n"); break;
        case '\t': buf_puts(b, "\\t"); break;
        case '\r': buf_puts(b, "\\r"); break;
        default:
            if (*p < 0x20) buf_printf(b, "\\u%04x", *p);
            else buf_putc(b, (char)*p);
        }
    }
    buf_putc(b, '"');
}

static void json_indent(fs_json *j)
{
    if (!j->pretty) return;
    buf_putc(j->out, '\n');
    for (int i = 0; i < j->depth; i++) buf_puts(j->out, "  ");
}

static void json_key(fs_json *j, const char *key)
{
    if (j->need_comma[j->depth]) buf_putc(j->out, ',');
    j->need_comma[j->depth] = true;
    if (j->depth > 0) json_indent(j);
    if (key) {
        json_escape(j->out, key);
        buf_puts(j->out, j->pretty ? ": " : ":");
    }
}

void json_obj_begin(fs_json *j, const char *key)
{
    json_key(j, key);
    buf_putc(j->out, '{');
    j->depth++;
    j->need_comma[j->depth] = false;
}

void json_obj_end(fs_json *j)
{
    bool had = j->need_comma[j->depth];
    j->depth--;
    if (had) json_indent(j);
    buf_putc(j->out, '}');
}

void json_arr_begin(fs_json *j, const char *key)
{
    json_key(j, key);
    buf_putc(j->out, '[');
    j->depth++;
    j->need_comma[j->depth] = false;
}

void json_arr_end(fs_json *j)
{
    bool had = j->need_comma[j->depth];
    j->depth--;
    if (had) json_indent(j);
    buf_putc(j->out, ']');
}

void fmt_double(char *out, size_t n, double v)
{
    if (!isfinite(v)) { snprintf(out, n, "null"); return; }
    if (v == floor(v) && fabs(v) < 1e15) { snprintf(out, n, "%.0f", v); return; }
    /* shortest of %.15g..%.17g that reads back exactly */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, v);
        if (strtod(out, NULL) == v) return;
    }
}

void json_num(fs_json *j, const char *key, double v)
{
    char tmp[40];
    json_key(j, key);
    fmt_double(tmp, sizeof tmp, v);
    buf_puts(j->out, tmp);
}

void json_int(fs_json *j, const char *key, int64_t v)
{
    json_key(j, key);
    buf_printf(j->out, "%lld", (long long)v);
}

void json_str(fs_json *j, const char *key, const char *v)
{
    json_key(j, key);
    json_escape(j->out, v);
}

void json_bool(fs_json *j, const char *key, bool v)
{
    json_key(j, key);
    buf_puts(j->out, v ? "true" : "false");
}

void json_null(fs_json *j, const char *key)
{
    json_key(j, key);
    buf_puts(j->out, "null");
}

/* ---- formatting ---- */

void fmt_bytes(char *out, size_t n, double b)
{
    const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    double v = b;
    while (fabs(v) >= 1024.0 && i < 5) { v /= 1024.0; i++; }
    if (i == 0) snprintf(out, n, "%.0f B", v);
    else snprintf(out, n, "%.1f %s", v, u[i]);
}

void fmt_bytes_of(char *out, size_t n, double b, double cap)
{
    fmt_bytes(out, n, b);
    if (!(b > cap * (1 + 1e-9)) || fabs(b) < 1024.0) return;
    const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    double v = b, c = cap;
    while (fabs(v) >= 1024.0 && i < 5) { v /= 1024.0; c /= 1024.0; i++; }
    /* the capacity as fmt_bytes prints it, in the figure's unit */
    char cs[32];
    fmt_bytes(cs, sizeof cs, cap);
    double shown = strtod(cs, NULL);
    if (strstr(cs, u[i]) == NULL) shown = c;
    for (int d = 1; d <= 4; d++) {
        double p = pow(10, d);
        if (round(v * p) / p > shown || d == 4) {
            snprintf(out, n, "%.*f %s", d, v, u[i]);
            return;
        }
    }
}

void fmt_secs(char *out, size_t n, double s)
{
    double a = fabs(s);
    if (a >= 3600) snprintf(out, n, "%.2f h", s / 3600);
    else if (a >= 60) snprintf(out, n, "%.1f min", s / 60);
    else if (a >= 1) snprintf(out, n, "%.2f s", s);
    else if (a >= 1e-3) snprintf(out, n, "%.1f ms", s * 1e3);
    else if (a >= 1e-6) snprintf(out, n, "%.1f us", s * 1e6);
    else snprintf(out, n, "%.0f ns", s * 1e9);
}

void fmt_si(char *out, size_t n, double v)
{
    double a = fabs(v);
    /* past exa, and for inf/nan, the number itself: "%.2fE" would grow without end */
    if (!isfinite(v) || a >= 1e21) snprintf(out, n, "%.3g", v);
    else if (a >= 1e18) snprintf(out, n, "%.2fE", v / 1e18);
    else if (a >= 1e15) snprintf(out, n, "%.2fP", v / 1e15);
    else if (a >= 1e12) snprintf(out, n, "%.2fT", v / 1e12);
    else if (a >= 1e9) snprintf(out, n, "%.2fG", v / 1e9);
    else if (a >= 1e6) snprintf(out, n, "%.2fM", v / 1e6);
    else if (a >= 1e4) snprintf(out, n, "%.1fk", v / 1e3);
    else snprintf(out, n, "%.0f", v);
}

bool path_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

FILE *fs_open_direct(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        /* open(2): O_WRONLY|O_NONBLOCK on a FIFO fails with ENXIO when no
        ** process has it open for reading; then writes block as usual */
        int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return NULL;
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
            int e = errno;
            close(fd);
            errno = e;
            return NULL;
        }
        FILE *f = fdopen(fd, "wb");
        if (!f) {
            int e = errno;
            close(fd);
            errno = e;
        }
        return f;
    }
    return fopen(path, "wb");
}

const char *fs_direct_error(int err)
{
    return err == ENXIO ? "no process is reading this FIFO (start the reader first)" : strerror(err);
}

bool write_file_atomic(const char *path, const char *data, size_t len, fs_err *err)
{
    if (!*path) {
        fs_err_set(err, 2, "an output file name is empty; give a path, or '-' for stdout");
        return false;
    }
    if (strcmp(path, "-") != 0 && path_is_special(path)) {
        /* a device or a pipe (/dev/null, /dev/stdout, a FIFO): write in
        ** place; renaming over it would replace the device with a file */
        FILE *f = fs_open_direct(path);
        if (!f) {
            fs_err_set(err, 2, "%s: cannot write: %s", path, fs_direct_error(errno));
            return false;
        }
        bool ok = fwrite(data, 1, len, f) == len;
        if (fclose(f) != 0) ok = false;
        if (!ok) fs_err_set(err, 2, "%s: write failed: %s", path, strerror(errno));
        return ok;
    }
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            fs_err_set(err, 2, "writing to stdout: %s", strerror(errno));
            return false;
        }
        return true;
    }
    char *tmp = NULL;
    FILE *f = fs_tmp_create(path, &tmp);
    if (!f) {
        fs_err_set(err, 2, "%s: cannot write: %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0 || errno == EINVAL) && ok;
    int saved = errno;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        if (ok) saved = errno;
        unlink(tmp);
        fs_tmp_forget(tmp);
        fs_err_set(err, 2, "%s: write failed: %s (nothing written)", path, strerror(saved));
        free(tmp);
        return false;
    }
    fs_tmp_forget(tmp);
    free(tmp);
    return true;
}

int str_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    int d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t k = 0; k <= lb; k++) d[0][k] = (int)k;
    for (size_t i = 1; i <= la; i++)
        for (size_t k = 1; k <= lb; k++) {
            int c = d[i - 1][k - 1] + (a[i - 1] != b[k - 1]);
            if (d[i - 1][k] + 1 < c) c = d[i - 1][k] + 1;
            if (d[i][k - 1] + 1 < c) c = d[i][k - 1] + 1;
            d[i][k] = c;
        }
    return d[la][lb];
}

double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ temporaries */

#define TMP_TRACKED 16
/* Read by signal handlers: a slot is set after its string is complete and
** cleared before the string is freed. */
static char *volatile tmp_paths[TMP_TRACKED];

static void tmp_track(char *copy)
{
    for (int i = 0; i < TMP_TRACKED; i++)
        if (!tmp_paths[i]) { tmp_paths[i] = copy; return; }
    free(copy);     /* more than TMP_TRACKED at once: left to the caller's cleanup */
}

void fs_tmp_forget(const char *tmp)
{
    for (int i = 0; tmp && i < TMP_TRACKED; i++) {
        char *t = tmp_paths[i];
        if (t && strcmp(t, tmp) == 0) {
            tmp_paths[i] = NULL;
            free(t);
            return;
        }
    }
}

FILE *fs_tmp_create(const char *path, char **tmp)
{
    size_t n = strlen(path) + 16;
    char *name = xmalloc(n);
    snprintf(name, n, "%s.tmp.XXXXXX", path);
    /* mkstemp opens with O_CREAT|O_EXCL: a planted symbolic link or file of
    ** that name is never followed or truncated */
    int fd = mkstemp(name);
    if (fd < 0) {
        int e = errno;
        free(name);
        errno = e;
        return NULL;
    }
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0) { /* keep 0600 */ }
    tmp_track(xstrdup(name));
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(name);
        fs_tmp_forget(name);
        free(name);
        errno = e;
        return NULL;
    }
    *tmp = name;
    return f;
}

/* ------------------------------------------------------------ signals */

volatile sig_atomic_t fs_stop_signal = 0;
static void (*volatile terminal_restore)(void);
static volatile sig_atomic_t stop_count;
static struct timespec stop_at;

void fs_set_terminal_restore(void (*fn)(void)) { terminal_restore = fn; }

static void write_all(int fd, const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

_Noreturn void fs_fatal_exit(int status, const char *msg)
{
    void (*r)(void) = terminal_restore;
    if (r) r();
    for (int i = 0; i < TMP_TRACKED; i++) {
        char *t = tmp_paths[i];
        if (t) unlink(t);
    }
    if (msg) write_all(STDERR_FILENO, msg);
    _exit(status);
}

int fs_stop_status(void)
{
    int sig = fs_stop_signal;
    if (!sig) return 0;
    return sig == SIGINT || sig == SIGTERM ? 130 : 128 + sig;
}

void fs_on_stop_signal(int sig)
{
    if (stop_count++ > 0) fs_fatal_exit(fs_stop_signal == SIGINT || fs_stop_signal == SIGTERM ? 130 : 128 + sig,
                                        "\nfusync: interrupted\n");
    clock_gettime(CLOCK_MONOTONIC, &stop_at);
    fs_stop_signal = sig;
}

static double budget_seconds, budget_deadline;

void fs_budget_start(void)
{
    const char *e = getenv("FUSYNC_COMMAND_SECONDS");
    double v = e ? atof(e) : 0;
    budget_seconds = v > 0 && isfinite(v) ? v : FS_COMMAND_SECONDS;
    budget_deadline = wall_now() + budget_seconds;
}

bool fs_budget_spent(fs_err *err)
{
    if (!(budget_deadline > 0) || wall_now() <= budget_deadline) return false;
    fs_err_set(err, 2, "the command ran past its budget of %g s of wall clock (FUSYNC_COMMAND_SECONDS "
               "raises it; docs/security.md); no output written", budget_seconds);
    return true;
}

void fs_signals_install(void)
{
    fs_budget_start();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fs_on_stop_signal;
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (int i = 0; i < 4; i++) sigaddset(&sa.sa_mask, sigs[i]);
    for (int i = 0; i < 4; i++) sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* ------------------------------------------------------------ watchdog */

#define WATCH_DEPTH 4
#define WATCH_TICK_US 200000
static struct {
    double deadline, stuck_after;
    volatile double tick;       /* the last sign of progress (wall_now) */
    char stuck[600], late[600];
} watch[WATCH_DEPTH];
static volatile sig_atomic_t watch_depth;
static bool watch_handler_set;

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void on_watch_tick(int sig)
{
    (void)sig;
    int d = watch_depth;
    if (d <= 0) return;
    double now = mono();
    if (d <= WATCH_DEPTH && watch[d - 1].tick > 0 && watch[d - 1].stuck_after > 0 &&
        now > watch[d - 1].tick + watch[d - 1].stuck_after)
        fs_fatal_exit(2, watch[d - 1].stuck);
    for (int i = 0; i < d && i < WATCH_DEPTH; i++)
        if (watch[i].deadline > 0 && now > watch[i].deadline + FS_WATCH_GRACE) fs_fatal_exit(2, watch[i].late);
    if (fs_stop_signal) {
        double at = (double)stop_at.tv_sec + stop_at.tv_nsec * 1e-9;
        if (now > at + FS_WATCH_GRACE) fs_fatal_exit(fs_stop_status(), "\nfusync: interrupted\n");
    }
}

static void watch_timer(bool on)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (on) {
        it.it_interval.tv_usec = WATCH_TICK_US;
        it.it_value.tv_usec = WATCH_TICK_US;
    }
    setitimer(ITIMER_REAL, &it, NULL);
}

void fs_watch_begin(double deadline, double stuck, const char *stuck_msg, const char *late_msg)
{
    if (!watch_handler_set) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_watch_tick;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGALRM, &sa, NULL);
        watch_handler_set = true;
    }
    int d = watch_depth;
    if (d < WATCH_DEPTH) {
        watch[d].deadline = 0;      /* not armed while being written */
        watch[d].tick = 0;
        char m[sizeof watch[d].stuck - 16];
        fs_term_escape(m, sizeof m, stuck_msg);
        snprintf(watch[d].stuck, sizeof watch[d].stuck, "fusync: %s\n", m);
        fs_term_escape(m, sizeof m, late_msg);
        snprintf(watch[d].late, sizeof watch[d].late, "fusync: %s\n", m);
        /* wall_now and mono read the same clock */
        watch[d].stuck_after = stuck;
        watch[d].tick = mono();
        watch[d].deadline = deadline;
    }
    watch_depth = d + 1;
    if (d == 0) watch_timer(true);
}

void fs_watch_tick(double now)
{
    int d = watch_depth;
    if (d > 0 && d <= WATCH_DEPTH) watch[d - 1].tick = now;
}

void fs_watch_end(void)
{
    int d = watch_depth;
    if (d <= 0) return;
    watch_depth = d - 1;
    if (d == 1) watch_timer(false);
}

/* ------------------------------------------------------------ terminal text */

static size_t utf8_seq(const unsigned char *p, unsigned *cp)
{
    unsigned c = p[0];
    size_t n;
    unsigned min;
    if (c < 0x80) { *cp = c; return 1; }
    if (c >= 0xC2 && c <= 0xDF) { n = 2; c &= 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; c &= 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; c &= 0x07; min = 0x10000; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
    *cp = c;
    return n;
}

/* Appends through `put` so one routine serves a fixed buffer and fs_buf. */
static void term_escape_to(const char *s, void (*put)(void *, const char *, size_t), void *ud)
{
    const unsigned char *p = (const unsigned char *)s;
    char esc[12];
    while (*p) {
        unsigned cp;
        size_t n = utf8_seq(p, &cp);
        if (n == 0) {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            put(ud, esc, 4);
            p++;
        } else if ((cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
            int k = cp < 0x80 ? snprintf(esc, sizeof esc, "\\x%02x", cp) : snprintf(esc, sizeof esc, "\\u%04x", cp);
            put(ud, esc, (size_t)k);
            p += n;
        } else {
            put(ud, (const char *)p, n);
            p += n;
        }
    }
}

typedef struct { char *out; size_t n, len; bool full; } fixed_out;

static void put_fixed(void *ud, const char *s, size_t n)
{
    fixed_out *f = ud;
    if (f->full || f->len + n >= f->n) { f->full = true; return; }   /* whole escapes only */
    memcpy(f->out + f->len, s, n);
    f->len += n;
    f->out[f->len] = '\0';
}

void fs_term_escape(char *out, size_t n, const char *s)
{
    if (n == 0) return;
    out[0] = '\0';
    fixed_out f = {out, n, 0, false};
    term_escape_to(s, put_fixed, &f);
}

static void put_buf(void *ud, const char *s, size_t n)
{
    fs_buf *b = ud;
    for (size_t i = 0; i < n; i++) buf_putc(b, s[i]);
}

void buf_put_term(fs_buf *b, const char *s)
{
    term_escape_to(s, put_buf, b);
}

bool read_small_file(const char *path, long max, const char *what, char **text, size_t *len, fs_err *err)
{
    *text = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { fs_err_set(err, 2, "%s: cannot read the %s: %s", path, what, strerror(errno)); return false; }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fs_err_set(err, 2, "%s: cannot read the %s: %s", path, what, strerror(errno));
        close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        fs_err_set(err, 2, "%s: not a regular file (a device, pipe or folder); give the %s itself", path, what);
        close(fd);
        return false;
    }
    if (st.st_size > max) {
        fs_err_set(err, 2, "%s: %lld bytes, more than a %s may have here (%ld KiB); is it the right file?", path,
                   (long long)st.st_size, what, max >> 10);
        close(fd);
        return false;
    }
    size_t cap = (size_t)max + 1, n = 0;
    char *buf = xmalloc(cap + 1);
    for (;;) {
        if (n == cap) break;
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            fs_err_set(err, 2, "%s: cannot read the %s: %s", path, what, strerror(errno));
            close(fd);
            free(buf);
            return false;
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (n > (size_t)max) {
        fs_err_set(err, 2, "%s: more than a %s may have here (%ld KiB); is it the right file?", path, what, max >> 10);
        free(buf);
        return false;
    }
    if (memchr(buf, 0, n)) {
        fs_err_set(err, 2, "%s: has a NUL byte; a %s is text", path, what);
        free(buf);
        return false;
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return true;
}
