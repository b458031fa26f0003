/*
** shard.c — shard files in, a whole table out (shard.h).
*/
#include "shard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rows of shard i/n (1-based) of `total` work units: ids i-1, i-1+n, ... */
static long share(long total, long i, long n) { return total > i - 1 ? (total - i) / n + 1 : 0; }

/* Exactly the rows of its share, each once. */
static bool check_rows(const rtable *t, const char *name, fs_err *err)
{
    long own = share(t->total, t->shard_i, t->shard_n);
    const char *what = rtable_is_plan(t) ? "simulated candidates" : "rows";
    if (t->nrows != own) {
        fs_err_set(err, 2, "%s: broken: shard %d/%d should hold %ld %s, it holds %d", name, t->shard_i, t->shard_n,
                   own, what, t->nrows);
        return false;
    }
    unsigned char *seen = xcalloc((size_t)(own ? own : 1), 1);
    bool ok = true;
    for (int r = 0; r < t->nrows && ok; r++) {
        int id = t->rows[r].id;
        if (id >= t->total || id % t->shard_n != t->shard_i - 1) {
            fs_err_set(err, 2, "%s: broken: row id %d is not in shard %d/%d of %d %s", name, id, t->shard_i,
                       t->shard_n, t->total, what);
            ok = false;
        } else if (seen[id / t->shard_n]++) {
            fs_err_set(err, 2, "%s: broken: row id %d appears twice", name, id);
            ok = false;
        }
    }
    free(seen);
    return ok;
}

/* A sweep's or a plan's JSON starts with {"kind": (rtable.c writes "kind"
** first): anything else is some other file, not a shard cut short. */
static bool looks_like_table(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
    if (i >= len || text[i] != '{') return false;
    for (i++; i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'); i++) {}
    /* a shard cut short within its first key still reads as "broken" */
    static const char key[] = "\"kind\"";
    size_t k = 0;
    while (k < sizeof key - 1 && i + k < len && text[i + k] == key[k]) k++;
    return k == sizeof key - 1 || i + k == len;
}

bool shard_parse(const char *text, size_t len, const char *name, rtable *t, fs_err *err)
{
    const char *nul = memchr(text, 0, len);
    if (nul) {
        fs_err_set(err, 2, "%s: broken: a NUL byte at offset %ld; a shard file is JSON text", name, (long)(nul - text));
        return false;
    }
    if (!looks_like_table(text, len)) {
        fs_err_set(err, 2, "%s: is not a shard: a shard is the JSON file that `fusync sweep|plan --shard I/N "
                   "--json FILE` writes (an object with \"kind\": \"sweep\" or \"plan\" first)", name);
        return false;
    }
    if (!rtable_read_json(t, text, len, name, err)) return false;
    if (t->shard_n == 0) {
        fs_err_set(err, 2, "%s: is a whole %s, not a shard (made without --shard)", name, t->kind);
        return false;
    }
    return check_rows(t, name, err);
}

bool shard_load(const char *path, rtable *t, fs_err *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { fs_err_set(err, 2, "%s: cannot read: %s", path, strerror(errno)); return false; }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fs_err_set(err, 2, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        fs_err_set(err, 2, "%s: not a regular file (a device, pipe or folder); merge reads the JSON files that "
                   "--shard I/N --json FILE wrote", path);
        close(fd);
        return false;
    }
    if (st.st_size > SHARD_FILE_MAX) {
        fs_err_set(err, 2, "%s: %lld bytes, more than a shard file may have (%ld MiB); is it a shard?", path,
                   (long long)st.st_size, SHARD_FILE_MAX >> 20);
        close(fd);
        return false;
    }
    /* read at most the cap and a byte: a file that grows is caught too */
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *text = xmalloc(cap + 1);
    bool ok = true;
    for (;;) {
        if (len == cap) {
            if (cap > (size_t)SHARD_FILE_MAX) {
                fs_err_set(err, 2, "%s: more than a shard file may have (%ld MiB); is it a shard?", path, SHARD_FILE_MAX >> 20);
                ok = false;
                break;
            }
            cap = cap * 2 > (size_t)SHARD_FILE_MAX + 1 ? (size_t)SHARD_FILE_MAX + 1 : cap * 2;
            text = xrealloc(text, cap + 1);
        }
        ssize_t got = read(fd, text + len, cap - len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) { fs_err_set(err, 2, "%s: cannot read: %s", path, strerror(errno)); ok = false; break; }
        if (got == 0) break;
        len += (size_t)got;
    }
    close(fd);
    if (ok) {
        text[len] = 0;
        ok = shard_parse(text, len, path, t, err);
    }
    free(text);
    return ok;
}

bool shard_check_set(const rtable *sh, int n, char *const *names, fs_err *err)
{
    const rtable *a = &sh[0];
    for (int i = 1; i < n; i++) {
        const rtable *x = &sh[i];
        const char *what = strcmp(x->kind, a->kind) ? "kind" : strcmp(x->hash, a->hash) ? "scenario, what-if file or options (hash)"
                         : x->shard_n != a->shard_n ? "shard count" : x->total != a->total ? "number of variants"
                         : strcmp(x->version, a->version) ? "fusync versions"
                         : x->ncols != a->ncols ? "columns"
                         : x->evaluated != a->evaluated || x->pruned != a->pruned || x->estimated != a->estimated ? "search" : NULL;
        for (int k = 0; !what && k < a->ncols; k++) if (strcmp(x->cols[k], a->cols[k])) what = "columns";
        if (what) {
            fs_err_set(err, 2, "%s and %s are not shards of the same run: their %s differ", names[0], names[i], what);
            return false;
        }
    }
    /* every shard_i is in 1..N, N is the same for all (checked above) */
    int N = a->shard_n;
    int *seen = xcalloc((size_t)N + 1, sizeof *seen);
    fs_buf dup, miss;
    buf_init(&dup);
    buf_init(&miss);
    for (int i = 0; i < n; i++) {
        int k = sh[i].shard_i;
        if (seen[k]) buf_printf(&dup, "%s shard %d/%d (%s and %s)", dup.len ? ";" : "", k, N, names[seen[k] - 1], names[i]);
        else seen[k] = i + 1;
    }
    int nmiss = 0;
    for (int k = 1; k <= N; k++) {
        if (seen[k]) continue;
        if (nmiss < 10) buf_printf(&miss, "%s%d/%d", nmiss ? ", " : "", k, N);
        nmiss++;
    }
    if (nmiss > 10) buf_printf(&miss, " and %d more", nmiss - 10);
    bool ok = true;
    if (dup.len) { fs_err_set(err, 2, "merge: duplicate%s; nothing written", dup.s); ok = false; }
    else if (nmiss) {
        fs_err_set(err, 2, "merge: missing shard%s %s of %s %s; nothing written", nmiss > 1 ? "s" : "", miss.s, a->kind, a->scenario);
        ok = false;
    }
    buf_free(&dup);
    buf_free(&miss);
    free(seen);
    return ok;
}

static int cmp_row_id(const void *a, const void *b)
{
    const rt_row *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

void shard_join(rtable *sh, int n, rtable *out)
{
    const rtable *a = &sh[0];
    rtable_init(out, a->kind);
    snprintf(out->scenario, sizeof out->scenario, "%s", a->scenario);
    snprintf(out->input, sizeof out->input, "%s", a->input);
    snprintf(out->hash, sizeof out->hash, "%s", a->hash);
    rtable_copy_made(out, a);
    snprintf(out->objective, sizeof out->objective, "%s", a->objective);
    out->target = a->target;
    out->iterations = a->iterations;
    out->warmup = a->warmup;
    out->total = a->total;
    out->evaluated = a->evaluated;
    out->pruned = a->pruned;
    out->estimated = a->estimated;
    for (int k = 0; k < a->ncols; k++) rtable_add_col(out, a->cols[k]);
    for (int i = 0; i < n; i++)
        for (int r = 0; r < sh[i].nrows; r++) rtable_move_row(out, &sh[i], r);
    qsort(out->rows, (size_t)out->nrows, sizeof *out->rows, cmp_row_id);
}
