/*
** lengths.c — empirical length distributions (see lengths.h), read through
** the one CSV reader (csvr.c: RFC 4180, libcsv).
*/
#include "lengths.h"
#include "csvr.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void lengths_histogram(const double *v, size_t n, scn_dist *out)
{
    memset(out, 0, sizeof *out);
    out->kind = DIST_HIST;
    /* Lengths are whole tokens and a draw is rounded, so a bin [e - 1/2,
    ** e' - 1/2) gives back the lengths e .. e'-1.  Few distinct lengths: one
    ** bin each, exact.  Otherwise edges at quantile levels p = 1 - (1 - k/B)^2,
    ** denser toward the tail, where a wide bin's uniform draw would overstate
    ** the mean most. */
    double edges[SCN_HIST_MAX + 1];
    int ne = 0, distinct = 0;
    for (size_t i = 0; i < n; i++) distinct += i == 0 || v[i] > v[i - 1];
    if (2 * distinct - 1 <= SCN_HIST_MAX) {
        /* a bin of width one around each distinct length, empty bins between */
        int nb = 0;
        size_t i = 0;
        while (i < n) {
            double x = floor(v[i]);
            size_t c = 0;
            while (i < n && floor(v[i]) == x) { c++; i++; }
            if (nb > 0 && out->edge[nb] < x - 0.5) {     /* a gap */
                out->weight[nb] = 0;
                nb++;
            }
            out->edge[nb] = x - 0.5;
            out->weight[nb] = (double)c / (double)n;
            out->edge[nb + 1] = x + 0.5;
            nb++;
        }
        out->nbins = nb;
        return;
    }
    for (int k = 0; k < SCN_HIST_MAX; k++) {
        double q = 1.0 - (1.0 - (double)k / SCN_HIST_MAX) * (1.0 - (double)k / SCN_HIST_MAX);
        size_t at = (size_t)(q * (double)n);
        if (at >= n) at = n - 1;
        double e = floor(v[at]) - 0.5;
        if (ne == 0 || e > edges[ne - 1]) edges[ne++] = e;
    }
    double top = floor(v[n - 1]) + 0.5;
    if (ne == SCN_HIST_MAX + 1) ne--;
    edges[ne++] = top;
    int nb = ne - 1;
    size_t j = 0;
    for (int b = 0; b < nb; b++) {
        size_t c = 0;
        while (j < n && (v[j] < edges[b + 1] || b == nb - 1)) { c++; j++; }
        out->weight[b] = (double)c / (double)n;
        out->edge[b] = edges[b];
    }
    out->edge[nb] = edges[nb];
    out->nbins = nb;
}

/* The state of a parse: the column read, and the first row until its end
** says whether it is a header. */
typedef struct {
    const char *file;
    const char *column;         /* a header name, a column number or NULL */
    int want;                   /* the column's number (0-based) when column is NULL or a number */
    int col;                    /* the column read; -1 until the first row ends */
    int match;                  /* first row: the cell named `column`, -1 none */
    bool first_numeric;         /* first row: its cells so far are numbers */
    char cell[128];             /* the current row's cell in the read column */
    bool have;
    double *v;
    size_t n, cap;
} lctx_len;

/* The cell without blanks on either side, into dst. */
static void trim_into(char *dst, size_t n, const char *s, size_t len)
{
    while (len && (*s == ' ' || *s == '\t')) { s++; len--; }
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r')) len--;
    if (len >= n) len = n - 1;
    memcpy(dst, s, len);
    dst[len] = '\0';
}

static bool is_number(const char *s)
{
    char *end;
    errno = 0;
    strtod(s, &end);
    return *s && !*end;
}

static bool len_cell(const char *cell, size_t len, int c, int line, void *ud, fs_err *err)
{
    (void)line; (void)err;
    lctx_len *x = ud;
    char buf[128];
    trim_into(buf, sizeof buf, cell, len);
    if (x->col < 0) {
        if (x->match < 0 && x->column && strcmp(buf, x->column) == 0) x->match = c;
        if (!is_number(buf)) x->first_numeric = false;
    }
    int at = x->col >= 0 ? x->col : x->want;
    if (c == at) { memcpy(x->cell, buf, sizeof buf); x->have = true; }
    return true;
}

static bool len_value(lctx_len *x, int line, fs_err *err)
{
    if (!x->have || !x->cell[0]) {
        fs_err_set(err, 2, "%s:%d: no length in column %d", x->file, line, x->col + 1);
        return false;
    }
    char *end;
    errno = 0;
    double v = strtod(x->cell, &end);
    if (*end || errno || !isfinite(v) || v < 1 || v > 1e8) {
        /* the cell is not quoted: a message must not carry a file's text */
        fs_err_set(err, 2, "%s:%d: not a length in tokens (a number from 1 to 1e8)", x->file, line);
        return false;
    }
    if (x->n == x->cap) {
        x->cap *= 2;
        x->v = xrealloc(x->v, x->cap * sizeof *x->v);
    }
    x->v[x->n++] = v;
    return true;
}

static bool len_row(int ncells, int line, void *ud, fs_err *err)
{
    (void)ncells;
    lctx_len *x = ud;
    bool ok = true;
    if (x->col >= 0) ok = len_value(x, line, err);
    else if (x->match >= 0) x->col = x->match;                 /* a header naming the column */
    else if (x->want < 0) {
        /* a name no cell of the first row has */
        if (x->first_numeric)
            fs_err_set(err, 2, "%s:%d: a column '%s' was asked for but the file has no header line", x->file, line,
                       x->column);
        else
            fs_err_set(err, 2, "%s:%d: no column '%s' in the header", x->file, line, x->column);
        ok = false;
    } else {
        x->col = x->want;
        if (!x->have) {
            fs_err_set(err, 2, "%s:%d: no column %d (the line has %d)", x->file, line, x->want + 1, ncells);
            ok = false;
        } else if (is_number(x->cell)) ok = len_value(x, line, err);    /* no header: a length */
        /* else a header: its cell in the column read is a name */
    }
    x->have = false;
    return ok;
}

bool lengths_parse(const char *text, size_t len, const char *file, const char *column, scn_dist *out,
                   fs_err *err)
{
    if (memchr(text, '\0', len)) {
        fs_err_set(err, 2, "%s: holds a zero byte; expected text, one length per line or a CSV", file);
        return false;
    }
    lctx_len x = {.file = file, .column = column, .want = 0, .col = -1, .match = -1, .first_numeric = true,
                  .cap = 1024};
    if (column) {
        /* a whole number from 1 is a column's number, unless the header names a column so */
        char *end;
        long k = strtol(column, &end, 10);
        x.want = *column && !*end && k >= 1 && k <= 100000 ? (int)k - 1 : -1;
    }
    x.v = xmalloc(x.cap * sizeof *x.v);
    if (!csvr_parse(text, len, file, CSVR_COMMENTS, len_cell, len_row, &x, err)) {
        free(x.v);
        return false;
    }
    if (x.n < LENGTHS_MIN) {
        fs_err_set(err, 2, "%s: %zu length%s; a distribution needs at least %d", file, x.n, x.n == 1 ? "" : "s",
                   LENGTHS_MIN);
        free(x.v);
        return false;
    }
    qsort(x.v, x.n, sizeof *x.v, cmp_double);
    lengths_histogram(x.v, x.n, out);
    free(x.v);
    return true;
}

bool lengths_read(const char *path, const char *column, scn_dist *out, fs_err *err)
{
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        fs_err_set(err, 2, "%s: cannot read the lengths file: %s", path, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fs_err_set(err, 2, "%s: not a regular file; give a CSV or text file of lengths", path);
        close(fd);
        return false;
    }
    if ((unsigned long long)st.st_size > LENGTHS_FILE_MAX) {
        fs_err_set(err, 2, "%s: more than the %u MiB a lengths file may have", path, LENGTHS_FILE_MAX >> 20);
        close(fd);
        return false;
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *buf = xmalloc(len + 1);
    while (got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    bool ok = lengths_parse(buf, got, path, column, out, err);
    free(buf);
    return ok;
}
