/*
** util.c — errors, allocation, buffers, JSON writing, formatting.
*/
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

void fs_err_set(fs_err *e, int code, const char *fmt, ...)
{
    if (!e) return;
    va_list ap;
    va_start(ap, fmt);
    e->code = code;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
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

void json_escape(fs_buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
    if (a >= 1e12) snprintf(out, n, "%.2fT", v / 1e12);
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

bool write_file_atomic(const char *path, const char *data, size_t len, fs_err *err)
{
    if (strcmp(path, "-") != 0 && path_is_special(path)) {
        /* a device or a pipe (/dev/null, /dev/stdout, a FIFO): write in
        ** place; renaming over it would replace the device with a file */
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(data, 1, len, f) == len;
        if (f && fclose(f) != 0) ok = false;
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
    size_t pl = strlen(path);
    char *tmp = xmalloc(pl + 8);
    snprintf(tmp, pl + 8, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fs_err_set(err, 2, "%s: cannot write: %s", path, strerror(errno));
        free(tmp);
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
        fs_err_set(err, 2, "%s: write failed: %s (nothing written)", path, strerror(saved));
        free(tmp);
        return false;
    }
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

long peak_rss_kib(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
    return ru.ru_maxrss;
}
