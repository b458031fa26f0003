/*
** lengths.c — empirical length distributions (see lengths.h).
*/
#include "lengths.h"

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

/* The cell number `col` (0-based) of a CSV line into buf; false if absent. */
static bool csv_cell(const char *line, size_t len, int col, char *buf, size_t n)
{
    int c = 0;
    size_t i = 0;
    while (c < col && i < len) {
        if (line[i] == ',') c++;
        i++;
    }
    if (c < col) return false;
    size_t k = 0;
    while (i < len && line[i] != ',' && k + 1 < n) buf[k++] = line[i++];
    buf[k] = '\0';
    /* trim blanks and quotes */
    char *s = buf;
    while (*s == ' ' || *s == '\t' || *s == '"') s++;
    size_t m = strlen(s);
    while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '\t' || s[m - 1] == '"' || s[m - 1] == '\r')) s[--m] = '\0';
    memmove(buf, s, m + 1);
    return true;
}

bool lengths_parse(const char *text, size_t len, const char *file, const char *column, scn_dist *out,
                   fs_err *err)
{
    if (memchr(text, '\0', len)) {
        fs_err_set(err, 2, "%s: holds a zero byte; expected text, one length per line or a CSV", file);
        return false;
    }
    size_t cap = 1024, n = 0;
    double *v = xmalloc(cap * sizeof *v);
    int col = 0, lineno = 0;
    bool header_done = false;
    char cellbuf[128];
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        lineno++;
        if (ll == 0 || (ll == 1 && line[0] == '\r') || line[0] == '#') continue;
        if (!header_done) {
            header_done = true;
            /* a first line that is not a number is a header */
            char *end;
            if (!csv_cell(line, ll, 0, cellbuf, sizeof cellbuf)) cellbuf[0] = '\0';
            strtod(cellbuf, &end);
            bool numeric = cellbuf[0] && *end == '\0';
            if (!numeric) {
                col = -1;
                for (int c = 0; csv_cell(line, ll, c, cellbuf, sizeof cellbuf); c++)
                    if (column ? strcmp(cellbuf, column) == 0 : true) { col = c; break; }
                if (col < 0) {
                    fs_err_set(err, 2, "%s:%d: no column '%s' in the header", file, lineno, column);
                    free(v);
                    return false;
                }
                continue;
            }
            if (column) {
                fs_err_set(err, 2, "%s:%d: a column '%s' was asked for but the file has no header line", file,
                           lineno, column);
                free(v);
                return false;
            }
        }
        if (!csv_cell(line, ll, col, cellbuf, sizeof cellbuf) || !cellbuf[0]) {
            fs_err_set(err, 2, "%s:%d: no length in column %d", file, lineno, col + 1);
            free(v);
            return false;
        }
        char *end;
        errno = 0;
        double x = strtod(cellbuf, &end);
        if (*end || errno || !isfinite(x) || x < 1 || x > 1e8) {
            /* the cell is not quoted: a message must not carry a file's text */
            fs_err_set(err, 2, "%s:%d: not a length in tokens (a number from 1 to 1e8)", file, lineno);
            free(v);
            return false;
        }
        if (n == cap) {
            cap *= 2;
            v = xrealloc(v, cap * sizeof *v);
        }
        v[n++] = x;
    }
    if (n < LENGTHS_MIN) {
        fs_err_set(err, 2, "%s: %zu length%s; a distribution needs at least %d", file, n, n == 1 ? "" : "s",
                   LENGTHS_MIN);
        free(v);
        return false;
    }
    qsort(v, n, sizeof *v, cmp_double);
    lengths_histogram(v, n, out);
    free(v);
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
