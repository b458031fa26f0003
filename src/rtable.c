/*
** rtable.c — result tables (rtable.h): cells, CSV and JSON writers, the
** table reader, report metrics as columns, input hashing.
*/
#include "rtable.h"
#include "report_fields.h"
#include "jsonr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ================================================================ tables */
void rtable_init(rtable *t, const char *kind)
{
    memset(t, 0, sizeof *t);
    snprintf(t->kind, sizeof t->kind, "%s", kind);
}

static void rt_row_free(const rtable *t, rt_row *r)
{
    for (int i = 0; i < t->ncols; i++) free(r->c[i].text);
    free(r->c);
}

void rtable_free(rtable *t)
{
    free(t->scenario_fields);
    for (int i = 0; i < t->nrows; i++) rt_row_free(t, &t->rows[i]);
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

rt_row *rtable_new_row(rtable *t, int id)
{
    if (t->nrows == t->caprows) {
        t->caprows = t->caprows ? t->caprows * 2 : 64;
        t->rows = xrealloc(t->rows, (size_t)t->caprows * sizeof *t->rows);
    }
    rt_row *r = &t->rows[t->nrows++];
    r->id = id;
    r->c = xcalloc((size_t)(t->ncols ? t->ncols : 1), sizeof *r->c);
    return r;
}

static void cell_set(rt_row *r, int col, rt_cell_kind k, const char *text)
{
    if (col < 0) return;
    free(r->c[col].text);
    r->c[col].k = k;
    r->c[col].text = text ? xstrdup(text) : NULL;
}

void rt_row_set_num(rt_row *r, int col, double v)
{
    char b[48];
    fmt_double(b, sizeof b, v);
    cell_set(r, col, isfinite(v) ? RT_CELL_NUM : RT_CELL_NONE, isfinite(v) ? b : NULL);
}

void rt_row_set_int(rt_row *r, int col, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    cell_set(r, col, RT_CELL_NUM, b);
}

void rt_row_set_str(rt_row *r, int col, const char *s) { cell_set(r, col, RT_CELL_STR, s); }
void rt_row_set_bool(rt_row *r, int col, bool v) { cell_set(r, col, RT_CELL_BOOL, v ? "true" : "false"); }

/* A value typed in a what-if file is a JSON number only when it reads back
** as the same text (json_number_len is the grammar exactly). */
void rt_row_set_value(rt_row *r, int col, const char *text)
{
    if (!strcmp(text, "true") || !strcmp(text, "false")) cell_set(r, col, RT_CELL_BOOL, text);
    else if (*text && json_number_len(text) == strlen(text)) cell_set(r, col, RT_CELL_NUM, text);
    else cell_set(r, col, RT_CELL_STR, text);
}

double rt_row_num(const rt_row *r, int col)
{
    if (col < 0 || r->c[col].k != RT_CELL_NUM) return NAN;
    return strtod(r->c[col].text, NULL);
}

bool rt_row_true(const rt_row *r, int col)
{
    return col >= 0 && r->c[col].k == RT_CELL_BOOL && !strcmp(r->c[col].text, "true");
}

const char *rt_row_text(const rt_row *r, int col)
{
    return col >= 0 && r->c[col].text ? r->c[col].text : "";
}

void rtable_drop_last(rtable *t)
{
    if (t->nrows > 0) rt_row_free(t, &t->rows[--t->nrows]);
}

void rtable_move_row(rtable *dst, rtable *src, int k)
{
    rt_row *r = rtable_new_row(dst, src->rows[k].id);
    free(r->c);
    r->c = src->rows[k].c;
    src->rows[k].c = xcalloc((size_t)(src->ncols ? src->ncols : 1), sizeof(rt_cell));
}


/* ================================================================ output */

/* A cell is quoted when it holds a separator, a quote, a line break or a
** '#' (the comment prefix of the readers told to skip the file's opening
** lines: pandas and R end an unquoted cell at it).  A byte that starts no
** valid UTF-8 sequence becomes U+FFFD, as json_escape does: a name read
** from a file in another encoding still gives a CSV every reader takes. */
static void csv_text(fs_buf *b, const char *s)
{
    bool quote = strpbrk(s, ",\"\n\r#") != NULL;
    if (quote) buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            size_t n = fs_utf8_seq(p);
            if (!n) { buf_puts(b, "\xef\xbf\xbd"); continue; }
            for (size_t k = 0; k < n; k++) buf_putc(b, (char)p[k]);
            p += n - 1;
            continue;
        }
        if (*p == '"') buf_putc(b, '"');
        buf_putc(b, (char)*p);
    }
    if (quote) buf_putc(b, '"');
}

void rtable_csv(const rtable *t, fs_buf *out)
{
    report_csv_made(t->version[0] ? t->version : FUSYNC_VERSION_STR, t->scenario_fields, out);
    for (int i = 0; i < t->ncols; i++) {
        if (i) buf_putc(out, ',');
        csv_text(out, t->cols[i]);
    }
    buf_putc(out, '\n');
    for (int k = 0; k < t->nrows; k++) {
        const rt_row *r = &t->rows[k];
        for (int i = 0; i < t->ncols; i++) {
            if (i) buf_putc(out, ',');
            if (r->c[i].k != RT_CELL_NONE) csv_text(out, r->c[i].text);
        }
        buf_putc(out, '\n');
    }
}

void rt_row_json(const rtable *t, const rt_row *r, fs_buf *out)
{
    buf_putc(out, '{');
    for (int i = 0; i < t->ncols; i++) {
        if (i) buf_puts(out, ", ");
        json_escape(out, t->cols[i]);
        buf_puts(out, ": ");
        switch (r->c[i].k) {
        case RT_CELL_NONE: buf_puts(out, "null"); break;
        case RT_CELL_STR: json_escape(out, r->c[i].text); break;
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

bool rtable_is_plan(const rtable *t) { return strcmp(t->kind, "plan") == 0; }

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
    if (!rtable_is_plan(t)) put_str_field(out, "whatif", t->input);
    put_str_field(out, "hash", t->hash);
    if (t->version[0]) put_str_field(out, "fusync_version", t->version);
    if (rtable_is_plan(t)) {
        put_str_field(out, "scenario_file", t->input);
        put_str_field(out, "objective", t->objective);
        fmt_double(num, sizeof num, t->target);
        buf_printf(out, "  \"target_tokens_per_s\": %s,\n", num);
        buf_printf(out, "  \"iterations\": %d,\n  \"warmup\": %d,\n", t->iterations, t->warmup);
        buf_printf(out, "  \"evaluated\": %ld,\n  \"pruned\": %ld,\n  \"estimated\": %ld,\n  \"simulated\": %d,\n",
                   t->evaluated, t->pruned, t->estimated, t->total);
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
    for (int pass = 0; pass < (rtable_is_plan(t) ? 2 : 1); pass++) {
        const char *key = !rtable_is_plan(t) ? "rows" : pass == 0 ? "candidates" : "rejected";
        buf_printf(out, "%s  \"%s\": [", pass ? ",\n" : "", key);
        int k = 0;
        for (int i = 0; i < t->nrows; i++) {
            if (rtable_is_plan(t)) {
                bool feas = rt_row_true(&t->rows[i], fc);     /* no column: none feasible */
                if (feas != (pass == 0)) continue;
            }
            buf_puts(out, k++ ? ",\n    " : "\n    ");
            rt_row_json(t, &t->rows[i], out);
        }
        buf_puts(out, k ? "\n  ]" : "]");
    }
    if (t->scenario_fields) {
        buf_puts(out, ",\n  \"scenario_fields\": ");
        buf_puts(out, t->scenario_fields);
    }
    buf_puts(out, "\n}\n");
}

static bool write_one(const rtable *t, const char *path, bool csv, fs_err *err)
{
    fs_buf b;
    buf_init(&b);
    if (csv) rtable_csv(t, &b);
    else rtable_json(t, &b);
    if (csv && !strcmp(path, "-") && isatty(STDOUT_FILENO)) {
        /* names come from scenarios, plugins and shards: on a terminal the
        ** CSV is shown terminal-safe (docs/security.md); JSON escapes them */
        fs_buf tb;
        buf_init(&tb);
        buf_put_term(&tb, b.s ? b.s : "");
        buf_free(&b);
        b = tb;
    }
    bool ok = write_file_atomic(path, b.s, b.len, err);
    buf_free(&b);
    return ok;
}

bool rtable_write(const rtable *t, const char *csv_path, const char *json_path, fs_err *err)
{
    if (csv_path && !write_one(t, csv_path, true, err)) return false;
    if (json_path && !write_one(t, json_path, false, err)) return false;
    return true;
}

static void set_fields_jv(rtable *t, const jv *o)
{
    fs_buf b;
    buf_init(&b);
    report_jv_write(&b, o);
    free(t->scenario_fields);
    t->scenario_fields = xstrdup(b.s ? b.s : "{}");
    buf_free(&b);
}

void rtable_set_scenario(rtable *t, const scn_scenario *sc)
{
    snprintf(t->version, sizeof t->version, "%s", FUSYNC_VERSION_STR);
    /* the one writer of the resolved scenario (report.c), read back into
    ** the form a shard's copy takes, so both print alike */
    fs_buf b;
    buf_init(&b);
    fs_json j;
    json_init(&j, &b, false);
    report_scenario_json(sc, &j, NULL);
    jv v;
    char why[160];
    if (b.s && jsonr_parse(b.s, b.len, &v, why, sizeof why)) {
        set_fields_jv(t, &v);
        jv_free(&v);
    }
    buf_free(&b);
}

void rtable_copy_made(rtable *dst, const rtable *src)
{
    snprintf(dst->version, sizeof dst->version, "%s", src->version);
    free(dst->scenario_fields);
    dst->scenario_fields = src->scenario_fields ? xstrdup(src->scenario_fields) : NULL;
}

/* ================================================================ JSON in */

/* A row object with exactly the table's columns. */
static bool row_from_jv(rtable *t, const jv *o, const char **why)
{
    if (o->t != J_OBJ || o->n != t->ncols) { *why = "a row does not have the table's columns"; return false; }
    long id;
    if (!jv_int(o, "id", 0, RTABLE_ROWS_MAX - 1, &id)) { *why = "a row has no valid id"; return false; }
    rt_row *r = rtable_new_row(t, (int)id);
    for (int i = 0; i < t->ncols; i++) {
        if (strcmp(o->keys[i], t->cols[i]) != 0) { *why = "a row's fields are not the table's columns"; rtable_drop_last(t); return false; }
        const jv *v = &o->items[i];
        switch (v->t) {
        case J_NULL: break;
        case J_NUM: cell_set(r, i, RT_CELL_NUM, v->text); break;
        case J_STR: cell_set(r, i, RT_CELL_STR, v->text); break;
        case J_BOOL: cell_set(r, i, RT_CELL_BOOL, v->text); break;
        default: *why = "a row holds a nested value"; rtable_drop_last(t); return false;
        }
    }
    return true;
}

bool rt_row_read_json(rtable *t, const char *text, fs_err *err)
{
    jv v;
    char why[160];
    if (!jsonr_parse(text, strlen(text), &v, why, sizeof why)) { fs_err_set(err, 2, "worker result: %s", why); return false; }
    const char *w = NULL;
    bool ok = row_from_jv(t, &v, &w);
    if (!ok) fs_err_set(err, 2, "worker result: %s", w);
    jv_free(&v);
    return ok;
}

/* The plan fields of a plan table. */
static const char *read_plan_fields(rtable *t, const jv *v)
{
    const jv *tg = jv_get(v, "target_tokens_per_s");
    long it, wu, ev, pr, es, si;
    if (!jv_str(v, "objective", t->objective, sizeof t->objective) || !tg || tg->t != J_NUM
        || !jv_str(v, "scenario_file", t->input, sizeof t->input))
        return "plan fields missing";
    if (!jv_int(v, "iterations", 0, 1000000000, &it) || !jv_int(v, "warmup", 0, 1000000000, &wu))
        return "\"iterations\" or \"warmup\" missing or not a whole number in 0..1e9";
    if (!jv_int(v, "evaluated", 0, 1L << 50, &ev) || !jv_int(v, "pruned", 0, ev, &pr))
        return "\"evaluated\" or \"pruned\" missing or out of range";
    if (!jv_int(v, "estimated", 0, 1L << 50, &es))
        return "\"estimated\" missing or out of range";
    if (!jv_int(v, "simulated", 0, RTABLE_ROWS_MAX, &si))
        return "\"simulated\" missing or not a whole number in 0..100000000";
    t->target = strtod(tg->text, NULL);
    t->iterations = (int)it;
    t->warmup = (int)wu;
    t->total = (int)si;
    t->evaluated = ev;
    t->pruned = pr;
    t->estimated = es;
    return NULL;
}

/* "shard": {"index": I, "count": N, "ids": [...]}, the ids exactly I's share
** of t->total.  Checked as numbers before anything is sized by them. */
static const char *read_shard(rtable *t, const jv *sh, char *why, size_t n)
{
    long i, cnt;
    if (sh->t != J_OBJ) return "\"shard\" is not an object";
    if (!jv_int(sh, "count", 1, RTABLE_SHARDS_MAX, &cnt)) {
        snprintf(why, n, "shard \"count\" is missing or not a whole number in 1..%d", RTABLE_SHARDS_MAX);
        return why;
    }
    if (!jv_int(sh, "index", 1, cnt, &i)) {
        snprintf(why, n, "shard \"index\" is missing or not a whole number in 1..%ld (the count)", cnt);
        return why;
    }
    const jv *ids = jv_get(sh, "ids");
    if (!ids || ids->t != J_ARR) return "shard \"ids\" is missing or not a list";
    long own = t->total > i - 1 ? (t->total - i) / cnt + 1 : 0;
    if (ids->n != own) {
        snprintf(why, n, "shard %ld/%ld of %d should list %ld ids, it lists %d", i, cnt, t->total, own, ids->n);
        return why;
    }
    for (int m = 0; m < ids->n; m++) {
        long id;
        if (!jv_as_int(&ids->items[m], 0, RTABLE_ROWS_MAX, &id) || id != i - 1 + (long)m * cnt)
            return "the shard's ids are not its share";
    }
    t->shard_i = (int)i;
    t->shard_n = (int)cnt;
    return NULL;
}

bool rtable_read_json(rtable *t, const char *text, size_t len, const char *file, fs_err *err)
{
    jv v;
    char why[160];
    if (!jsonr_parse(text, len, &v, why, sizeof why)) {
        fs_err_set(err, 2, "%s: broken: not JSON (%s); was the shard cut short?", file, why);
        return false;
    }
    const char *bad = NULL;
    long x;
    const jv *cols = NULL, *rows = NULL;
    if (v.t != J_OBJ || !jv_str(&v, "kind", t->kind, sizeof t->kind)) bad = "no \"kind\"";
    else if (strcmp(t->kind, "sweep") && strcmp(t->kind, "plan")) bad = "\"kind\" is neither sweep nor plan";
    else if (!jv_str(&v, "scenario", t->scenario, sizeof t->scenario) || !jv_str(&v, "hash", t->hash, sizeof t->hash)) bad = "no scenario or hash";
    else if (!(cols = jv_get(&v, "columns")) || cols->t != J_ARR) bad = "no columns";
    else if (!(rows = jv_get(&v, rtable_is_plan(t) ? "candidates" : "rows")) || rows->t != J_ARR) bad = "no rows";
    if (!bad && rtable_is_plan(t)) {
        bad = read_plan_fields(t, &v);
    } else if (!bad) {
        if (!jv_str(&v, "whatif", t->input, sizeof t->input)) bad = "no whatif";
        else if (!jv_int(&v, "variants", 0, RTABLE_ROWS_MAX, &x)) bad = "\"variants\" missing or not a whole number in 0..100000000";
        else t->total = (int)x;
    }
    if (!bad) {
        for (int i = 0; i < cols->n && !bad; i++) {
            if (cols->items[i].t != J_STR) bad = "a column name is not a string";
            else rtable_add_col(t, cols->items[i].text);
        }
        if (!bad && t->ncols != cols->n) bad = "duplicate column names";
    }
    /* what made it: optional (older files have neither) */
    const jv *ver = bad ? NULL : jv_get(&v, "fusync_version");
    const jv *sf = bad ? NULL : jv_get(&v, "scenario_fields");
    if (ver && !jv_str(&v, "fusync_version", t->version, sizeof t->version)) bad = "\"fusync_version\" is not a short string";
    if (!bad && sf && sf->t != J_OBJ) bad = "\"scenario_fields\" is not an object";
    else if (!bad && sf) set_fields_jv(t, sf);
    const jv *sh = bad ? NULL : jv_get(&v, "shard");
    if (sh) bad = read_shard(t, sh, why, sizeof why);
    for (int k = 0; !bad && k < rows->n; k++) {
        const char *w = NULL;
        if (!row_from_jv(t, &rows->items[k], &w)) bad = w;
    }
    const jv *rej = bad || !rtable_is_plan(t) ? NULL : jv_get(&v, "rejected");
    if (!bad && rtable_is_plan(t) && (!rej || rej->t != J_ARR)) bad = "no rejected list";
    for (int k = 0; !bad && rej && k < rej->n; k++) {
        const char *w = NULL;
        if (!row_from_jv(t, &rej->items[k], &w)) bad = w;
    }
    if (bad) fs_err_set(err, 2, "%s: broken: %s", file, bad);
    jv_free(&v);
    return !bad;
}

/* ================================================================ metrics */

/* The report's columns come from its one description (report_fields.c). */
static void add_col(void *ud, const char *col, rvkind k, double v, const char *str)
{
    (void)k, (void)v, (void)str;
    rtable_add_col(ud, col);
}

void rt_metrics_add_cols(rtable *t)
{
    report_fields_columns(NULL, add_col, t);
}

typedef struct {
    const rtable *t;
    rt_row *r;
} fill_ud;

static void set_cell(void *ud, const char *col, rvkind k, double v, const char *str)
{
    fill_ud *u = ud;
    int c = rtable_col(u->t, col);
    switch (k) {
    case RV_INT: rt_row_set_int(u->r, c, (long long)v); break;
    case RV_BOOL: rt_row_set_bool(u->r, c, v != 0); break;
    case RV_STR: rt_row_set_str(u->r, c, str); break;
    default: rt_row_set_num(u->r, c, v); break;
    }
}

void rt_metrics_fill(const rtable *t, rt_row *r, const report *rep)
{
    fill_ud u = {t, r};
    report_fields_columns(rep, set_cell, &u);
}

/* ================================================================ hashing */

uint64_t rt_hash_str(uint64_t h, const char *s)
{
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
    h ^= 0xff;      /* separator, so "ab"+"c" differs from "a"+"bc" */
    return h * 1099511628211ULL;
}

uint64_t rt_hash_file(uint64_t h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return rt_hash_str(h, path);
    int c;
    while ((c = getc(f)) != EOF) { h ^= (unsigned char)c; h *= 1099511628211ULL; }
    fclose(f);
    return rt_hash_str(h, "");
}

