/*
** cli_sweep.c — `fusync sweep` (what-if sweeps), `fusync merge` (join the
** shards of a sweep or a plan) and what they share: result tables, their
** CSV/JSON forms and a reader of that JSON, shard metadata and a pool of
** forked workers.
**
** Determinism: rows come out in variant order whatever --jobs is, cells
** carry no wall-clock figures, and a table read back from its JSON prints
** the same bytes, so merging shards gives exactly the unsharded output.
*/
#include "cli_sweep.h"
#include "engine.h"
#include "lua_scenario.h"
#include "plugin.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ================================================================ edge */

#include "policy.h"

/* The one piece of mutable static state: a signal handler may only set a
** flag (the main loop and the worker pool poll it). */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    stop_requested = 1;
    fs_on_stop_signal(sig);     /* so a Lua call under way stops too */
}

void sweep_signals(bool on)
{
    static struct sigaction old_int, old_term;
    if (on) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
    } else {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
}

bool sweep_interrupted(void) { return stop_requested != 0; }

/* ================================================================ tables */

void rtable_init(rtable *t, const char *kind)
{
    memset(t, 0, sizeof *t);
    snprintf(t->kind, sizeof t->kind, "%s", kind);
}

static void row_free(const rtable *t, row *r)
{
    for (int i = 0; i < t->ncols; i++) free(r->c[i].text);
    free(r->c);
}

void rtable_free(rtable *t)
{
    for (int i = 0; i < t->nrows; i++) row_free(t, &t->rows[i]);
    free(t->rows);
    for (int i = 0; i < t->ncols; i++) free(t->cols[i]);
    free(t->cols);
    memset(t, 0, sizeof *t);
}

void rtable_add_col(rtable *t, const char *name)
{
    if (rtable_col(t, name) >= 0) return;
    t->cols = xrealloc(t->cols, (size_t)(t->ncols + 1) * sizeof *t->cols);
    t->cols[t->ncols++] = xstrdup(name);
}

int rtable_col(const rtable *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++) if (strcmp(t->cols[i], name) == 0) return i;
    return -1;
}

row *rtable_new_row(rtable *t, int id)
{
    if (t->nrows == t->caprows) {
        t->caprows = t->caprows ? t->caprows * 2 : 64;
        t->rows = xrealloc(t->rows, (size_t)t->caprows * sizeof *t->rows);
    }
    row *r = &t->rows[t->nrows++];
    r->id = id;
    r->c = xcalloc((size_t)(t->ncols ? t->ncols : 1), sizeof *r->c);
    return r;
}

static void cell_set(row *r, int col, cell_kind k, const char *text)
{
    if (col < 0) return;
    free(r->c[col].text);
    r->c[col].k = k;
    r->c[col].text = text ? xstrdup(text) : NULL;
}

void row_set_num(row *r, int col, double v)
{
    char b[48];
    fmt_double(b, sizeof b, v);
    cell_set(r, col, isfinite(v) ? CELL_NUM : CELL_NONE, isfinite(v) ? b : NULL);
}

void row_set_int(row *r, int col, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    cell_set(r, col, CELL_NUM, b);
}

void row_set_str(row *r, int col, const char *s) { cell_set(r, col, CELL_STR, s); }
void row_set_bool(row *r, int col, bool v) { cell_set(r, col, CELL_BOOL, v ? "true" : "false"); }

/* The JSON number grammar, exactly, so a value typed in a what-if file is a
** JSON number only when it reads back as the same text. */
static size_t json_number_len(const char *s)
{
    const char *p = s;
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
    else return 0;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    return (size_t)(p - s);
}

void row_set_value(row *r, int col, const char *text)
{
    if (!strcmp(text, "true") || !strcmp(text, "false")) cell_set(r, col, CELL_BOOL, text);
    else if (*text && json_number_len(text) == strlen(text)) cell_set(r, col, CELL_NUM, text);
    else cell_set(r, col, CELL_STR, text);
}

double row_num(const row *r, int col)
{
    if (col < 0 || r->c[col].k != CELL_NUM) return NAN;
    return strtod(r->c[col].text, NULL);
}

/* ================================================================ output */

static void csv_text(fs_buf *b, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) { buf_puts(b, s); return; }
    buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"') buf_putc(b, '"');
        buf_putc(b, *s);
    }
    buf_putc(b, '"');
}

void rtable_csv(const rtable *t, fs_buf *out)
{
    for (int i = 0; i < t->ncols; i++) {
        if (i) buf_putc(out, ',');
        csv_text(out, t->cols[i]);
    }
    buf_putc(out, '\n');
    for (int k = 0; k < t->nrows; k++) {
        const row *r = &t->rows[k];
        for (int i = 0; i < t->ncols; i++) {
            if (i) buf_putc(out, ',');
            if (r->c[i].k != CELL_NONE) csv_text(out, r->c[i].text);
        }
        buf_putc(out, '\n');
    }
}

void row_json(const rtable *t, const row *r, fs_buf *out)
{
    buf_putc(out, '{');
    for (int i = 0; i < t->ncols; i++) {
        if (i) buf_puts(out, ", ");
        json_escape(out, t->cols[i]);
        buf_puts(out, ": ");
        switch (r->c[i].k) {
        case CELL_NONE: buf_puts(out, "null"); break;
        case CELL_STR: json_escape(out, r->c[i].text); break;
        default: buf_puts(out, r->c[i].text); break;
        }
    }
    buf_putc(out, '}');
}

static void put_str_field(fs_buf *b, const char *key, const char *v)
{
    buf_puts(b, "  ");
    json_escape(b, key);
    buf_puts(b, ": ");
    json_escape(b, v);
    buf_puts(b, ",\n");
}

static bool is_plan(const rtable *t) { return strcmp(t->kind, "plan") == 0; }

static void shard_ids(const rtable *t, fs_buf *b)
{
    buf_putc(b, '[');
    int n = 0;
    for (int k = t->shard_i - 1; k < t->total; k += t->shard_n) buf_printf(b, "%s%d", n++ ? ", " : "", k);
    buf_putc(b, ']');
}

void rtable_json(const rtable *t, fs_buf *out)
{
    char num[48];
    buf_puts(out, "{\n");
    put_str_field(out, "kind", t->kind);
    put_str_field(out, "scenario", t->scenario);
    if (!is_plan(t)) put_str_field(out, "whatif", t->input);
    put_str_field(out, "hash", t->hash);
    if (is_plan(t)) {
        put_str_field(out, "scenario_file", t->input);
        put_str_field(out, "objective", t->objective);
        fmt_double(num, sizeof num, t->target);
        buf_printf(out, "  \"target_tokens_per_s\": %s,\n", num);
        buf_printf(out, "  \"iterations\": %d,\n  \"warmup\": %d,\n", t->iterations, t->warmup);
        buf_printf(out, "  \"evaluated\": %ld,\n  \"pruned\": %ld,\n  \"simulated\": %d,\n",
                   t->evaluated, t->pruned, t->total);
    } else {
        buf_printf(out, "  \"variants\": %d,\n", t->total);
    }
    buf_puts(out, "  \"columns\": [");
    for (int i = 0; i < t->ncols; i++) {
        if (i) buf_puts(out, ", ");
        json_escape(out, t->cols[i]);
    }
    buf_puts(out, "],\n");
    if (t->shard_n > 0) {
        buf_printf(out, "  \"shard\": {\"index\": %d, \"count\": %d, \"ids\": ", t->shard_i, t->shard_n);
        shard_ids(t, out);
        buf_puts(out, "},\n");
    }
    /* a plan lists the feasible candidates best first, then the rejected */
    int fc = rtable_col(t, "feasible");
    for (int pass = 0; pass < (is_plan(t) ? 2 : 1); pass++) {
        const char *key = !is_plan(t) ? "rows" : pass == 0 ? "candidates" : "rejected";
        buf_printf(out, "%s  \"%s\": [", pass ? ",\n" : "", key);
        int k = 0;
        for (int i = 0; i < t->nrows; i++) {
            if (is_plan(t)) {
                const cell *c = &t->rows[i].c[fc];
                bool feas = c->k == CELL_BOOL && !strcmp(c->text, "true");
                if (feas != (pass == 0)) continue;
            }
            buf_puts(out, k++ ? ",\n    " : "\n    ");
            row_json(t, &t->rows[i], out);
        }
        buf_puts(out, k ? "\n  ]" : "]");
    }
    buf_puts(out, "\n}\n");
}

int write_outputs(const cli_opts *o, const rtable *t, bool csv)
{
    fs_err err = {0, ""};
    int rc = 0;
    if (csv && o->csv_path) {
        fs_buf b;
        buf_init(&b);
        rtable_csv(t, &b);
        if (!write_file_atomic(o->csv_path, b.s, b.len, &err)) rc = cli_fail(&err);
        buf_free(&b);
    }
    if (o->json_path) {
        fs_buf b;
        buf_init(&b);
        rtable_json(t, &b);
        if (!write_file_atomic(o->json_path, b.s, b.len, &err)) rc = cli_fail(&err);
        buf_free(&b);
    }
    return rc;
}

/* ================================================================ JSON in */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jv {
    jtype t;
    char *text;             /* number, string (decoded) or bool text */
    int   n;
    char **keys;            /* objects */
    struct jv *items;
} jv;

typedef struct {
    const char *s;
    size_t i, n;
    const char *err;
    int depth;
} jp;

static void jv_free(jv *v)
{
    for (int i = 0; i < v->n; i++) {
        jv_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
}

static void jws(jp *p) { while (p->i < p->n && strchr(" \t\r\n", p->s[p->i])) p->i++; }

static bool jstring(jp *p, char **out)
{
    fs_buf b;
    buf_init(&b);
    p->i++;     /* opening quote */
    while (p->i < p->n && p->s[p->i] != '"') {
        char c = p->s[p->i++];
        if ((unsigned char)c < 0x20) { p->err = "control character in a string"; buf_free(&b); return false; }
        if (c != '\\') { buf_putc(&b, c); continue; }
        if (p->i >= p->n) break;
        c = p->s[p->i++];
        switch (c) {
        case '"': case '\\': case '/': buf_putc(&b, c); break;
        case 'n': buf_putc(&b, '\n'); break;
        case 't': buf_putc(&b, '\t'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case 'b': buf_putc(&b, '\b'); break;
        case 'f': buf_putc(&b, '\f'); break;
        case 'u': {
            unsigned v = 0;
            for (int k = 0; k < 4; k++) {
                char h = p->i < p->n ? p->s[p->i++] : 0;
                int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (d < 0) { p->err = "bad \\u escape"; buf_free(&b); return false; }
                v = v * 16 + (unsigned)d;
            }
            if (v == 0) { p->err = "\\u0000 in a string"; buf_free(&b); return false; }
            if (v < 0x80) buf_putc(&b, (char)v);
            else if (v < 0x800) { buf_putc(&b, (char)(0xc0 | (v >> 6))); buf_putc(&b, (char)(0x80 | (v & 0x3f))); }
            else { buf_putc(&b, (char)(0xe0 | (v >> 12))); buf_putc(&b, (char)(0x80 | ((v >> 6) & 0x3f))); buf_putc(&b, (char)(0x80 | (v & 0x3f))); }
            break;
        }
        default: p->err = "bad escape in a string"; buf_free(&b); return false;
        }
    }
    if (p->i >= p->n) { p->err = "unterminated string"; buf_free(&b); return false; }
    p->i++;
    if (!b.s) buf_puts(&b, "");
    *out = b.s;
    return true;
}

static bool jvalue(jp *p, jv *v);

static bool jlist(jp *p, jv *v, bool obj)
{
    char close = obj ? '}' : ']';
    p->i++;
    int cap = 0;
    jws(p);
    if (p->i < p->n && p->s[p->i] == close) { p->i++; return true; }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            v->items = xrealloc(v->items, (size_t)cap * sizeof *v->items);
            if (obj) v->keys = xrealloc(v->keys, (size_t)cap * sizeof *v->keys);
        }
        jws(p);
        if (obj) {
            char *k = NULL;
            if (p->i >= p->n || p->s[p->i] != '"') { p->err = "expected a key"; return false; }
            if (!jstring(p, &k)) return false;
            v->keys[v->n] = k;
            jws(p);
            if (p->i >= p->n || p->s[p->i] != ':') { v->items[v->n].t = J_NULL; v->items[v->n].n = 0; v->items[v->n].text = NULL; v->items[v->n].items = NULL; v->items[v->n].keys = NULL; v->n++; p->err = "expected ':'"; return false; }
            p->i++;
        }
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        bool ok = jvalue(p, &v->items[v->n]);
        v->n++;
        if (!ok) return false;
        jws(p);
        if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
        if (p->i < p->n && p->s[p->i] == close) { p->i++; return true; }
        p->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
        return false;
    }
}

static bool jvalue(jp *p, jv *v)
{
    memset(v, 0, sizeof *v);
    jws(p);
    if (p->i >= p->n) { p->err = "unexpected end of file"; return false; }
    if (++p->depth > 32) { p->err = "nested too deeply"; return false; }
    char c = p->s[p->i];
    bool ok = true;
    if (c == '{') { v->t = J_OBJ; ok = jlist(p, v, true); }
    else if (c == '[') { v->t = J_ARR; ok = jlist(p, v, false); }
    else if (c == '"') { v->t = J_STR; ok = jstring(p, &v->text); }
    else if (!strncmp(p->s + p->i, "true", 4)) { v->t = J_BOOL; v->text = xstrdup("true"); p->i += 4; }
    else if (!strncmp(p->s + p->i, "false", 5)) { v->t = J_BOOL; v->text = xstrdup("false"); p->i += 5; }
    else if (!strncmp(p->s + p->i, "null", 4)) { v->t = J_NULL; p->i += 4; }
    else {
        size_t len = json_number_len(p->s + p->i);
        if (!len) { p->err = "unexpected character"; ok = false; }
        else {
            v->t = J_NUM;
            v->text = xmalloc(len + 1);
            memcpy(v->text, p->s + p->i, len);
            v->text[len] = 0;
            p->i += len;
        }
    }
    p->depth--;
    return ok;
}

static bool jparse(const char *text, jv *out, char *why, size_t n)
{
    jp p = {text, 0, strlen(text), NULL, 0};
    bool ok = jvalue(&p, out);
    if (ok) {
        jws(&p);
        if (p.i != p.n) { ok = false; p.err = "text after the end"; }
    }
    if (!ok) {
        int line = 1;
        for (size_t k = 0; k < p.i && k < p.n; k++) if (text[k] == '\n') line++;
        snprintf(why, n, "line %d: %s", line, p.err ? p.err : "bad JSON");
        jv_free(out);
        memset(out, 0, sizeof *out);
    }
    return ok;
}

static const jv *jget(const jv *o, const char *key)
{
    if (o->t != J_OBJ) return NULL;
    for (int i = 0; i < o->n; i++) if (!strcmp(o->keys[i], key)) return &o->items[i];
    return NULL;
}

static bool jint(const jv *o, const char *key, long *out)
{
    const jv *v = jget(o, key);
    if (!v || v->t != J_NUM) return false;
    char *end;
    long x = strtol(v->text, &end, 10);
    if (*end) return false;
    *out = x;
    return true;
}

static bool jstr(const jv *o, const char *key, char *out, size_t n)
{
    const jv *v = jget(o, key);
    if (!v || v->t != J_STR) return false;
    snprintf(out, n, "%s", v->text);
    return true;
}

/* A row object with exactly the table's columns. */
static bool row_from_jv(rtable *t, const jv *o, const char **why)
{
    if (o->t != J_OBJ || o->n != t->ncols) { *why = "a row does not have the table's columns"; return false; }
    long id;
    if (!jint(o, "id", &id) || id < 0 || id > 100000000) { *why = "a row has no valid id"; return false; }
    row *r = rtable_new_row(t, (int)id);
    for (int i = 0; i < t->ncols; i++) {
        if (strcmp(o->keys[i], t->cols[i]) != 0) { *why = "a row's fields are not the table's columns"; t->nrows--; row_free(t, r); return false; }
        const jv *v = &o->items[i];
        switch (v->t) {
        case J_NULL: break;
        case J_NUM: cell_set(r, i, CELL_NUM, v->text); break;
        case J_STR: cell_set(r, i, CELL_STR, v->text); break;
        case J_BOOL: cell_set(r, i, CELL_BOOL, v->text); break;
        default: *why = "a row holds a nested value"; t->nrows--; row_free(t, r); return false;
        }
    }
    return true;
}

bool row_read_json(rtable *t, const char *text, fs_err *err)
{
    jv v;
    char why[160];
    if (!jparse(text, &v, why, sizeof why)) { fs_err_set(err, 2, "worker result: %s", why); return false; }
    const char *w = NULL;
    bool ok = row_from_jv(t, &v, &w);
    if (!ok) fs_err_set(err, 2, "worker result: %s", w);
    jv_free(&v);
    return ok;
}

bool rtable_read_json(rtable *t, const char *text, const char *file, fs_err *err)
{
    jv v;
    char why[160];
    if (!jparse(text, &v, why, sizeof why)) {
        fs_err_set(err, 2, "%s: broken: not JSON (%s); was the shard cut short?", file, why);
        return false;
    }
    const char *bad = NULL;
    long x;
    const jv *cols, *rows;
    if (v.t != J_OBJ || !jstr(&v, "kind", t->kind, sizeof t->kind)) bad = "no \"kind\"";
    else if (strcmp(t->kind, "sweep") && strcmp(t->kind, "plan")) bad = "\"kind\" is neither sweep nor plan";
    else if (!jstr(&v, "scenario", t->scenario, sizeof t->scenario) || !jstr(&v, "hash", t->hash, sizeof t->hash)) bad = "no scenario or hash";
    else if (!(cols = jget(&v, "columns")) || cols->t != J_ARR) bad = "no columns";
    else if (!(rows = jget(&v, is_plan(t) ? "candidates" : "rows")) || rows->t != J_ARR) bad = "no rows";
    if (!bad && is_plan(t)) {
        const jv *tg = jget(&v, "target_tokens_per_s");
        long it, wu, ev, pr, si;
        if (!jstr(&v, "objective", t->objective, sizeof t->objective) || !tg || tg->t != J_NUM || !jint(&v, "iterations", &it)
            || !jint(&v, "warmup", &wu) || !jint(&v, "evaluated", &ev) || !jint(&v, "pruned", &pr)
            || !jint(&v, "simulated", &si) || !jstr(&v, "scenario_file", t->input, sizeof t->input))
            bad = "plan fields missing";
        else {
            t->target = strtod(tg->text, NULL);
            t->iterations = (int)it; t->warmup = (int)wu; t->total = (int)si;
            t->evaluated = ev; t->pruned = pr;
        }
    } else if (!bad) {
        if (!jstr(&v, "whatif", t->input, sizeof t->input) || !jint(&v, "variants", &x)) bad = "no whatif or variants";
        else t->total = (int)x;
    }
    if (!bad) {
        for (int i = 0; i < cols->n && !bad; i++) {
            if (cols->items[i].t != J_STR) bad = "a column name is not a string";
            else rtable_add_col(t, cols->items[i].text);
        }
        if (!bad && t->ncols != cols->n) bad = "duplicate column names";
    }
    const jv *sh = bad ? NULL : jget(&v, "shard");
    if (sh) {
        long i, n;
        const jv *ids = jget(sh, "ids");
        if (!jint(sh, "index", &i) || !jint(sh, "count", &n) || n < 1 || i < 1 || i > n || !ids || ids->t != J_ARR)
            bad = "bad shard metadata";
        else {
            t->shard_i = (int)i;
            t->shard_n = (int)n;
            /* the ids must be exactly this shard's share */
            int k = (int)i - 1, m = 0;
            for (; m < ids->n && !bad; m++, k += (int)n)
                if (ids->items[m].t != J_NUM || strtol(ids->items[m].text, NULL, 10) != k) bad = "the shard's ids are not its share";
            if (!bad && k < t->total) bad = "the shard's ids are not its share";
        }
    }
    for (int k = 0; !bad && k < rows->n; k++) {
        const char *w = NULL;
        if (!row_from_jv(t, &rows->items[k], &w)) bad = w;
    }
    const jv *rej = bad || !is_plan(t) ? NULL : jget(&v, "rejected");
    if (!bad && is_plan(t) && (!rej || rej->t != J_ARR)) bad = "no rejected list";
    for (int k = 0; !bad && rej && k < rej->n; k++) {
        const char *w = NULL;
        if (!row_from_jv(t, &rej->items[k], &w)) bad = w;
    }
    jv_free(&v);
    if (bad) {
        fs_err_set(err, 2, "%s: broken: %s", file, bad);
        return false;
    }
    return true;
}

/* ================================================================ metrics */

static const char *const METRIC_COLS[] = {
    "feasible", "reason", "throughput_tokens_per_s", "throughput_tokens_per_s_per_device", "devices",
    "step_time_s", NULL
};
static const char *const METRIC_TAIL[] = {
    "memory_peak_bytes", "memory_capacity_bytes", "host_memory_peak_bytes", "staleness_bound",
    "staleness_max", "staleness_mean", "tokens_generated", "tokens_trained", "wasted_tokens",
    "samples_trained", "iterations", "warmup", "events", NULL
};

void metrics_add_cols(rtable *t)
{
    char name[64];
    for (int i = 0; METRIC_COLS[i]; i++) rtable_add_col(t, METRIC_COLS[i]);
    for (int i = 0; i < STEP__COUNT; i++) {
        snprintf(name, sizeof name, "%s_s", trace_step_phase_name((trace_step_phase)i));
        rtable_add_col(t, name);
    }
    for (int i = 0; METRIC_TAIL[i]; i++) rtable_add_col(t, METRIC_TAIL[i]);
}

void metrics_fill(const rtable *t, row *r, const report *rep)
{
    char name[64];
    row_set_bool(r, rtable_col(t, "feasible"), rep->feasible);
    row_set_str(r, rtable_col(t, "reason"), rep->feasible ? "" : rep->why);
    row_set_num(r, rtable_col(t, "throughput_tokens_per_s"), rep->throughput);
    row_set_num(r, rtable_col(t, "throughput_tokens_per_s_per_device"), rep->throughput_per_device);
    row_set_int(r, rtable_col(t, "devices"), rep->devices);
    row_set_num(r, rtable_col(t, "step_time_s"), rep->step_time_s);
    for (int i = 0; i < STEP__COUNT; i++) {
        snprintf(name, sizeof name, "%s_s", trace_step_phase_name((trace_step_phase)i));
        row_set_num(r, rtable_col(t, name), rep->phase_s[i]);
    }
    row_set_num(r, rtable_col(t, "memory_peak_bytes"), rep->mem_peak_total);
    row_set_num(r, rtable_col(t, "memory_capacity_bytes"), rep->mem_capacity);
    row_set_num(r, rtable_col(t, "host_memory_peak_bytes"), rep->host_peak);
    row_set_int(r, rtable_col(t, "staleness_bound"), rep->staleness_bound);
    row_set_int(r, rtable_col(t, "staleness_max"), rep->lag_max);
    row_set_num(r, rtable_col(t, "staleness_mean"), rep->lag_mean);
    row_set_num(r, rtable_col(t, "tokens_generated"), rep->tokens_generated);
    row_set_num(r, rtable_col(t, "tokens_trained"), rep->tokens_trained);
    row_set_num(r, rtable_col(t, "wasted_tokens"), rep->tokens_wasted);
    row_set_int(r, rtable_col(t, "samples_trained"), rep->samples_trained);
    row_set_int(r, rtable_col(t, "iterations"), rep->iterations);
    row_set_int(r, rtable_col(t, "warmup"), rep->warmup);
    row_set_int(r, rtable_col(t, "events"), (long long)rep->events);
}

/* ================================================================ hashing */

uint64_t hash_str(uint64_t h, const char *s)
{
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
    h ^= 0xff;      /* separator, so "ab"+"c" differs from "a"+"bc" */
    return h * 1099511628211ULL;
}

uint64_t hash_file(uint64_t h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return hash_str(h, path);
    int c;
    while ((c = getc(f)) != EOF) { h ^= (unsigned char)c; h *= 1099511628211ULL; }
    fclose(f);
    return hash_str(h, "");
}

/* ================================================================ workers */

static void progress_draw(const char *label, int done, int n)
{
    int w = 30, k = n ? (int)((long)done * w / n) : w;
    fprintf(stderr, "\r  %s [", label);
    for (int i = 0; i < w; i++) fputc(i < k ? '#' : '.', stderr);
    fprintf(stderr, "] %d/%d ", done, n);
    fflush(stderr);
}

/* A worker: items w, w+jobs, ...; each result is a line "ITEM ROWJSON\n",
** a failure "ITEM !MESSAGE\n". */
static void worker_main(rtable *t, int n, int jobs, int w, pool_fn fn, void *ud, int fd)
{
    signal(SIGINT, SIG_IGN);    /* the parent decides; it ends us with SIGTERM */
    signal(SIGTERM, SIG_DFL);
    FILE *out = fdopen(fd, "w");
    if (!out) _exit(3);
    fs_buf b;
    buf_init(&b);
    for (int i = w; i < n; i += jobs) {
        fs_err err = {0, ""};
        int before = t->nrows;
        bool ok = fn(ud, t, i, &err);
        b.len = 0;
        if (b.s) b.s[0] = 0;
        if (!ok) {
            for (char *c = err.msg; *c; c++) if (*c == '\n') *c = '\v';
            fprintf(out, "%d !%d %s\n", i, err.code ? err.code : 2, err.msg);
            fflush(out);
            _exit(0);
        }
        if (t->nrows == before) { fprintf(out, "%d -\n", i); continue; }
        row_json(t, &t->rows[t->nrows - 1], &b);
        fprintf(out, "%d %s\n", i, b.s);
        row_free(t, &t->rows[--t->nrows]);
    }
    if (fflush(out) != 0) _exit(3);
    _exit(0);
}

typedef struct {
    pid_t  pid;
    int    fd;
    fs_buf in;
    bool   open;
} worker;

/* Take the complete lines a worker sent. */
static bool take_lines(rtable *tmp, worker *wk, int *slot, int *done, fs_err *err)
{
    char *s = wk->in.s;
    size_t used = 0;
    for (;;) {
        char *nl = memchr(s + used, '\n', wk->in.len - used);
        if (!nl) break;
        *nl = 0;
        char *line = s + used;
        used = (size_t)(nl - s) + 1;
        char *sp = strchr(line, ' ');
        int item = atoi(line);
        if (!sp) { fs_err_set(err, 2, "a worker sent a broken line"); return false; }
        sp++;
        if (*sp == '!') {
            int code = atoi(sp + 1);
            char *m = strchr(sp, ' ');
            fs_err_set(err, code ? code : 2, "%s", m ? m + 1 : "a worker failed");
            for (char *c = err->msg; *c; c++) if (*c == '\v') *c = '\n';
            return false;
        }
        if (*sp != '-') {
            if (!row_read_json(tmp, sp, err)) return false;
            slot[item] = tmp->nrows - 1;
        }
        (*done)++;
    }
    memmove(s, s + used, wk->in.len - used);
    wk->in.len -= used;
    if (wk->in.s) wk->in.s[wk->in.len] = 0;
    return true;
}

static void move_row(rtable *dst, rtable *src, int k)
{
    row *r = rtable_new_row(dst, src->rows[k].id);
    free(r->c);
    r->c = src->rows[k].c;
    src->rows[k].c = xcalloc((size_t)(src->ncols ? src->ncols : 1), sizeof(cell));
}

bool pool_run(rtable *t, int n, int jobs, pool_fn fn, void *ud, const char *progress, fs_err *err)
{
    bool show = progress && isatty(STDERR_FILENO);
    double last = 0;
    if (jobs > n) jobs = n;
    if (jobs <= 1) {
        for (int i = 0; i < n; i++) {
            if (sweep_interrupted()) { fs_err_set(err, 130, "interrupted; no output written"); return false; }
            if (!fn(ud, t, i, err)) return false;
            if (show && wall_now() - last > 0.1) { last = wall_now(); progress_draw(progress, i + 1, n); }
        }
        if (show) fprintf(stderr, "\r\033[K");
        return true;
    }
    fflush(stdout);
    fflush(stderr);
    worker *wk = xcalloc((size_t)jobs, sizeof *wk);
    int started = 0;
    bool ok = true;
    for (int w = 0; w < jobs; w++) {
        int fds[2];
        if (pipe(fds) != 0) { fs_err_set(err, 2, "cannot start workers: %s", strerror(errno)); ok = false; break; }
        pid_t pid = fork();
        if (pid < 0) {
            close(fds[0]);
            close(fds[1]);
            fs_err_set(err, 2, "cannot start workers: %s", strerror(errno));
            ok = false;
            break;
        }
        if (pid == 0) {
            close(fds[0]);
            for (int k = 0; k < w; k++) close(wk[k].fd);
            worker_main(t, n, jobs, w, fn, ud, fds[1]);
        }
        close(fds[1]);
        wk[w].pid = pid;
        wk[w].fd = fds[0];
        wk[w].open = true;
        buf_init(&wk[w].in);
        started++;
    }
    rtable tmp;
    rtable_init(&tmp, t->kind);
    for (int i = 0; i < t->ncols; i++) rtable_add_col(&tmp, t->cols[i]);
    int *slot = xmalloc((size_t)(n ? n : 1) * sizeof *slot);
    for (int i = 0; i < n; i++) slot[i] = -1;
    int done = 0, open = started;
    struct pollfd *pf = xcalloc((size_t)jobs, sizeof *pf);
    while (ok && open > 0) {
        if (sweep_interrupted()) { fs_err_set(err, 130, "interrupted; no output written"); ok = false; break; }
        int np = 0;
        for (int w = 0; w < started; w++) if (wk[w].open) { pf[np].fd = wk[w].fd; pf[np].events = POLLIN; pf[np].revents = 0; np++; }
        int r = poll(pf, (nfds_t)np, 200);
        if (r < 0 && errno != EINTR) { fs_err_set(err, 2, "poll: %s", strerror(errno)); ok = false; break; }
        for (int w = 0, k = 0; ok && w < started; w++) {
            if (!wk[w].open) continue;
            short re = pf[k++].revents;
            if (!re) continue;
            char buf[65536];
            ssize_t got = read(wk[w].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) { close(wk[w].fd); wk[w].open = false; open--; continue; }
            for (ssize_t i = 0; i < got; i++) buf_putc(&wk[w].in, buf[i]);
            if (!take_lines(&tmp, &wk[w], slot, &done, err)) ok = false;
        }
        if (show && wall_now() - last > 0.1) { last = wall_now(); progress_draw(progress, done, n); }
    }
    if (show) fprintf(stderr, "\r\033[K");
    for (int w = 0; w < started; w++) {
        if (!ok) kill(wk[w].pid, SIGTERM);
        if (wk[w].open) close(wk[w].fd);
        int st = 0;
        while (waitpid(wk[w].pid, &st, 0) < 0 && errno == EINTR) {}
        if (ok && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
            fs_err_set(err, 2, "worker %d of %d failed (%s %d)", w + 1, jobs,
                       WIFSIGNALED(st) ? "signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
            ok = false;
        }
        buf_free(&wk[w].in);
    }
    if (ok && done != n) { fs_err_set(err, 2, "the workers returned %d of %d results", done, n); ok = false; }
    if (ok) for (int i = 0; i < n; i++) if (slot[i] >= 0) move_row(t, &tmp, slot[i]);
    free(pf);
    free(slot);
    free(wk);
    rtable_free(&tmp);
    return ok;
}

/* ================================================================ sweep */

typedef struct {
    const cli_opts *o;
    const whatif_list *w;
    const int *ids;         /* item -> variant id */
    int npaths;
    char **paths;           /* varied columns */
} sweep_ctx;

/* Run one variant: the base scenario with its overrides after the user's
** own --set options, loaded and validated exactly like `fusync run`. */
static bool sweep_one(void *ud, rtable *t, int item, fs_err *unused)
{
    (void)unused;
    sweep_ctx *c = ud;
    int id = c->ids[item];
    const whatif_variant *v = &c->w->v[id];
    row *r = rtable_new_row(t, id);
    row_set_int(r, rtable_col(t, "id"), id);
    row_set_str(r, rtable_col(t, "name"), v->name);
    for (int k = 0; k < v->nsets; k++) {
        const char *eq = strchr(v->sets[k], '=');
        char path[256];
        snprintf(path, sizeof path, "%.*s", (int)(eq - v->sets[k]), v->sets[k]);
        row_set_value(r, rtable_col(t, path), eq + 1);
    }
    cli_opts o = *c->o;
    fs_err err = {0, ""};
    for (int k = 0; k < v->nsets && o.nsets < CLI_SETS_MAX; k++) o.sets[o.nsets++] = v->sets[k];
    if (o.nsets - c->o->nsets < v->nsets) fs_err_set(&err, 2, "too many --set overrides with this variant");
    scn_scenario sc;
    sim *s = NULL;
    policy_run *hooks = NULL;
    if (!err.code && cli_load_scenario(&o, &sc, &err) && (s = sim_new(&sc, &err)) != NULL
        && policy_hooks_attach(s, &hooks, &err)) {
        sim_run(s);
        const fs_err *se = sim_error(s);
        if (se && se->code != 1) err = *se;
        else {
            report rep;
            report_compute(s, &rep);
            metrics_fill(t, r, &rep);
        }
    }
    if (s) sim_free(s);
    policy_hooks_free(hooks);
    if (err.code) {
        row_set_bool(r, rtable_col(t, "feasible"), false);
        char *nl = strchr(err.msg, '\n');     /* the message, not the traceback */
        if (nl) *nl = 0;
        row_set_str(r, rtable_col(t, "reason"), err.msg);
    }
    return true;
}

static void read_whole(const char *path, fs_buf *b, bool *ok)
{
    FILE *f = fopen(path, "rb");
    *ok = f != NULL;
    if (!f) return;
    char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) for (size_t i = 0; i < n; i++) buf_putc(b, tmp[i]);
    if (ferror(f)) *ok = false;
    fclose(f);
    if (!b->s) buf_puts(b, "");
}

/* The hash of what a run depends on: its kind, files and options. */
static void run_hash(const cli_opts *o, const char *kind, const scn_scenario *sc, char *out, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    h = hash_str(h, kind);
    h = hash_file(h, o->scenario);
    if (o->whatif) h = hash_file(h, o->whatif);
    const char *pol = o->policy ? o->policy : sc->plan.policy;
    if (pol && *pol) h = hash_file(h, pol);
    for (int i = 0; i < o->nsets; i++) h = hash_str(h, o->sets[i]);
    h = hash_str(h, o->objective ? o->objective : "");
    char tg[48];
    fmt_double(tg, sizeof tg, o->target);
    h = hash_str(h, tg);
    snprintf(out, n, "%016llx", (unsigned long long)h);
}

int cmd_sweep(cli_opts *o)
{
    if (!o->scenario || !o->whatif) {
        fprintf(stderr, "fusync: sweep: usage: fusync sweep SCENARIO WHATIF.lua [--csv FILE|-] [--json FILE|-] [--jobs N] [--shard I/N]\n");
        return 2;
    }
    scn_scenario base;
    fs_err err = {0, ""};
    if (!cli_load_scenario(o, &base, &err)) return cli_fail(&err);
    sweep_signals(true);
    whatif_list w;
    if (!whatif_load(o->whatif, &base, &w, &err)) return cli_fail(&err);

    rtable t;
    rtable_init(&t, "sweep");
    snprintf(t.scenario, sizeof t.scenario, "%s", base.name);
    snprintf(t.input, sizeof t.input, "%s", o->whatif);
    run_hash(o, "sweep", &base, t.hash, sizeof t.hash);
    t.total = w.nvariants;
    t.shard_i = o->shard_i;
    t.shard_n = o->shard_n;
    rtable_add_col(&t, "id");
    rtable_add_col(&t, "name");
    for (int i = 0; i < w.nvariants; i++)
        for (int k = 0; k < w.v[i].nsets; k++) {
            char path[256];
            const char *eq = strchr(w.v[i].sets[k], '=');
            snprintf(path, sizeof path, "%.*s", (int)(eq - w.v[i].sets[k]), w.v[i].sets[k]);
            rtable_add_col(&t, path);
        }
    metrics_add_cols(&t);

    int *ids = xmalloc((size_t)w.nvariants * sizeof *ids);
    int n = 0;
    for (int k = 0; k < w.nvariants; k++)
        if (!o->shard_n || k % o->shard_n == o->shard_i - 1) ids[n++] = k;
    sweep_ctx c = {o, &w, ids, 0, NULL};
    int rc = 0;
    if (!pool_run(&t, n, o->jobs, sweep_one, &c, o->quiet ? NULL : "sweep", &err)) rc = cli_fail(&err);
    if (!rc) {
        rc = write_outputs(o, &t, true);
        if (!rc && !o->csv_path && !o->json_path) {
            /* no output named: the CSV on stdout, the useful default */
            fs_buf b;
            buf_init(&b);
            rtable_csv(&t, &b);
            if (isatty(STDOUT_FILENO)) {
                /* names come from the scenario and the what-if file */
                fs_buf tb;
                buf_init(&tb);
                buf_put_term(&tb, b.s);
                fputs(tb.s ? tb.s : "", stdout);
                buf_free(&tb);
            } else fputs(b.s, stdout);
            buf_free(&b);
        }
        if (!rc && !o->quiet && (o->csv_path || o->json_path)) {
            int infeasible = 0, fc = rtable_col(&t, "feasible");
            for (int i = 0; i < t.nrows; i++) if (strcmp(t.rows[i].c[fc].text ? t.rows[i].c[fc].text : "", "true")) infeasible++;
            fprintf(stderr, "fusync: sweep: %d variant%s", t.nrows, t.nrows == 1 ? "" : "s");
            if (o->shard_n) fprintf(stderr, " (shard %d/%d of %d)", o->shard_i, o->shard_n, t.total);
            fprintf(stderr, ", %d infeasible\n", infeasible);
        }
    }
    free(ids);
    whatif_free(&w);
    rtable_free(&t);
    return rc;
}

/* ================================================================ merge */

static int cmp_row_id(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int cmd_merge(cli_opts *o)
{
    if (o->nfiles < 1) {
        fprintf(stderr, "fusync: merge: usage: fusync merge SHARD.json... [--csv FILE|-] [--json FILE|-]\n");
        return 2;
    }
    int nf = o->nfiles;
    rtable *sh = xcalloc((size_t)nf, sizeof *sh);
    fs_err err = {0, ""};
    int rc = 0;
    for (int i = 0; i < nf && !rc; i++) {
        fs_buf b;
        buf_init(&b);
        bool ok;
        read_whole(o->files[i], &b, &ok);
        if (!ok) { fs_err_set(&err, 2, "%s: cannot read: %s", o->files[i], strerror(errno)); rc = cli_fail(&err); }
        else if (!rtable_read_json(&sh[i], b.s, o->files[i], &err)) rc = cli_fail(&err);
        else if (sh[i].shard_n == 0) {
            fs_err_set(&err, 2, "%s: is a whole %s, not a shard (made without --shard)", o->files[i], sh[i].kind);
            rc = cli_fail(&err);
        }
        buf_free(&b);
    }
    /* all of one run, each shard once, none missing */
    const rtable *a = &sh[0];
    for (int i = 1; i < nf && !rc; i++) {
        const rtable *x = &sh[i];
        const char *what = strcmp(x->kind, a->kind) ? "kind" : strcmp(x->hash, a->hash) ? "scenario, what-if file or options (hash)"
                         : x->shard_n != a->shard_n ? "shard count" : x->total != a->total ? "number of variants"
                         : x->ncols != a->ncols ? "columns"
                         : x->evaluated != a->evaluated || x->pruned != a->pruned ? "search" : NULL;
        for (int k = 0; !what && k < a->ncols; k++) if (strcmp(x->cols[k], a->cols[k])) what = "columns";
        if (what) {
            fs_err_set(&err, 2, "%s and %s are not shards of the same run: their %s differ", o->files[0], o->files[i], what);
            rc = cli_fail(&err);
        }
    }
    if (!rc) {
        int N = a->shard_n;
        int *seen = xcalloc((size_t)N + 1, sizeof *seen);
        fs_buf dup, miss;
        buf_init(&dup);
        buf_init(&miss);
        for (int i = 0; i < nf; i++) {
            if (seen[sh[i].shard_i]) buf_printf(&dup, "%s shard %d/%d (%s and %s)", dup.len ? ";" : "", sh[i].shard_i, N,
                                               o->files[seen[sh[i].shard_i] - 1], o->files[i]);
            else seen[sh[i].shard_i] = i + 1;
        }
        int nmiss = 0;
        for (int k = 1; k <= N; k++) if (!seen[k]) buf_printf(&miss, "%s%d/%d", nmiss++ ? ", " : "", k, N);
        if (dup.len) { fs_err_set(&err, 2, "merge: duplicate%s; nothing written", dup.s); rc = cli_fail(&err); }
        else if (nmiss) {
            fs_err_set(&err, 2, "merge: missing shard%s %s of %s %s; nothing written", nmiss > 1 ? "s" : "", miss.s, a->kind, a->scenario);
            rc = cli_fail(&err);
        }
        buf_free(&dup);
        buf_free(&miss);
        free(seen);
    }
    /* every shard holds exactly its rows */
    for (int i = 0; i < nf && !rc; i++) {
        const rtable *x = &sh[i];
        int own = 0;
        for (int k = x->shard_i - 1; k < x->total; k += x->shard_n) own++;
        bool bad = x->nrows != own;
        for (int r = 0; r < x->nrows && !bad; r++)
            if (x->rows[r].id % x->shard_n != x->shard_i - 1 || x->rows[r].id >= x->total) bad = true;
        if (bad) {
            fs_err_set(&err, 2, "%s: broken: shard %d/%d should hold %d %s, it holds %d", o->files[i], x->shard_i, x->shard_n, own,
                       is_plan(x) ? "simulated candidates" : "rows", x->nrows);
            rc = cli_fail(&err);
        }
    }
    if (!rc) {
        rtable m;
        rtable_init(&m, a->kind);
        snprintf(m.scenario, sizeof m.scenario, "%s", a->scenario);
        snprintf(m.input, sizeof m.input, "%s", a->input);
        snprintf(m.hash, sizeof m.hash, "%s", a->hash);
        snprintf(m.objective, sizeof m.objective, "%s", a->objective);
        m.target = a->target;
        m.iterations = a->iterations;
        m.warmup = a->warmup;
        m.total = a->total;
        m.evaluated = a->evaluated;
        m.pruned = a->pruned;
        for (int k = 0; k < a->ncols; k++) rtable_add_col(&m, a->cols[k]);
        for (int i = 0; i < nf; i++) {
            for (int r = 0; r < sh[i].nrows; r++) move_row(&m, &sh[i], r);
        }
        if (is_plan(&m)) plan_sort(&m);
        else qsort(m.rows, (size_t)m.nrows, sizeof *m.rows, cmp_row_id);
        rc = write_outputs(o, &m, true);
        bool to_stdout = (o->json_path && !strcmp(o->json_path, "-")) || (o->csv_path && !strcmp(o->csv_path, "-"));
        if (!rc && is_plan(&m) && !o->quiet && !to_stdout) plan_print(&m, o->top, stdout);
        else if (!rc && !o->quiet)
            fprintf(stderr, "fusync: merged %d shards: %d %s\n", nf, m.nrows, is_plan(&m) ? "candidates" : "rows");
        rtable_free(&m);
    }
    for (int i = 0; i < nf; i++) rtable_free(&sh[i]);
    free(sh);
    return rc;
}
