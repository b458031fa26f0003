/*
** calibrate_read.c — the measured-run file of `fusync calibrate`
** (calibrate.h): CSV, JSON lines, verl's file logger and console log, the
** known column names and a mapping file, into one table of steps.  The fit
** is in calibrate.c.
*/
#include "calibrate.h"
#include "csvr.h"
#include "fields.h"
#include "dist.h"
#include "jsonr.h"
#include "runner.h"
#include "util.h"
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- columns */

/* The phase names live with the reader, which matches columns against
** them; the fit (calibrate.c) uses them too, so the dependency runs one
** way: calibrate.c on calibrate_read.c, never back. */
static const char *const PHASE_NAMES[CP__COUNT] = {
    "generate", "generate_with_switch", "inference", "train", "switch", "weight_sync", "step"
};

const char *cal_phase_name(cal_phase p) { return p < CP__COUNT ? PHASE_NAMES[p] : "?"; }

enum { T_RESP_MEAN = CP__COUNT, T_RESP_MAX, T_PROMPT_MEAN, T_RESP_TOKENS, T_IGNORE, T__COUNT };

static const char *target_name(int t)
{
    switch (t) {
    case T_RESP_MEAN: return "response_len_mean";
    case T_RESP_MAX: return "response_len_max";
    case T_PROMPT_MEAN: return "prompt_len_mean";
    case T_RESP_TOKENS: return "response_tokens";
    case T_IGNORE: return "ignore";
    default: return cal_phase_name((cal_phase)t);
    }
}

/* Column names as frameworks log them.  verl: its trainer's timing_s/... and
** response_length/... metrics; SkyRL: timing/... and generate/avg_num_tokens;
** OpenRLHF: train/response_length.  Several columns on one phase add up
** (verl's old_log_prob + ref + values are fusync's inference). */
static const struct { const char *col; int target; double scale; } KNOWN[] = {
    {"timing_s/gen", CP_GENERATE_SW, 1}, {"timing_s/old_log_prob", CP_INFER, 1},
    {"timing_s/ref", CP_INFER, 1}, {"timing_s/values", CP_INFER, 1}, {"timing_s/reward", CP_INFER, 1},
    {"timing_s/update_actor", CP_TRAIN, 1}, {"timing_s/update_critic", CP_TRAIN, 1},
    {"timing_s/step", CP_STEP, 1},
    /* current verl times the rollout's weight update on its own (ray_trainer.py,
    ** marked_timer("update_weights")): the switch, or the sync to a separate
    ** pool; fitted as the switch (timing_s/gen then excludes it, below) */
    {"timing_s/update_weights", CP_SWITCH, 1},
    /* OpenRLHF 0.11 (ppo_trainer.py, logged under train/) */
    {"train/timing/generation", CP_GENERATE, 1}, {"train/timing/make_experience", CP_INFER, 1},
    {"train/timing/ppo_train", CP_TRAIN, 1}, {"train/timing/broadcast", CP_SWITCH, 1},
    {"train/timing/step_total", CP_STEP, 1},
    {"timing/make_experience", CP_INFER, 1}, {"timing/ppo_train", CP_TRAIN, 1},
    {"timing/broadcast", CP_SWITCH, 1}, {"timing/step_total", CP_STEP, 1}, {"timing/generation", CP_GENERATE, 1},
    /* NeMo RL 0.6 (nemo_rl/algorithms/grpo.py, prefix timing/train) */
    {"timing/train/generation", CP_GENERATE, 1},
    {"timing/train/prepare_for_generation/total", CP_SWITCH, 1},
    {"timing/train/policy_and_reference_logprobs", CP_INFER, 1},
    {"timing/train/reward_calculation", CP_INFER, 1},
    {"timing/train/policy_training", CP_TRAIN, 1},
    {"timing/train/total_step_time", CP_STEP, 1},
    {"train/mean_gen_tokens_per_sample", T_RESP_MEAN, 1},
    {"_step", T_IGNORE, 1}, {"Step", T_IGNORE, 1},
    {"response_length/mean", T_RESP_MEAN, 1}, {"response_length/max", T_RESP_MAX, 1},
    {"prompt_length/mean", T_PROMPT_MEAN, 1},
    {"timing/generate", CP_GENERATE, 1}, {"timing/fwd_logprobs_values_reward", CP_INFER, 1},
    {"timing/policy_train", CP_TRAIN, 1}, {"timing/train_critic_and_policy", CP_TRAIN, 1},
    {"timing/sync_weights", CP_SYNC, 1}, {"timing/step", CP_STEP, 1},
    {"generate/avg_num_tokens", T_RESP_MEAN, 1},
    {"train/response_length", T_RESP_MEAN, 1},
    {"response_len_mean", T_RESP_MEAN, 1}, {"response_len_max", T_RESP_MAX, 1},
    {"prompt_len_mean", T_PROMPT_MEAN, 1}, {"response_tokens", T_RESP_TOKENS, 1},
    {"step", T_IGNORE, 1}, {"global_step", T_IGNORE, 1}, {"training/global_step", T_IGNORE, 1},
    {"trainer/global_step", T_IGNORE, 1},
};
#define NKNOWN ((int)(sizeof KNOWN / sizeof KNOWN[0]))

typedef struct {
    char col[128];
    int  target;
    double scale;
} colmap;

typedef struct {
    colmap m[256];
    int n;
} mapping;

/* Plain form: PHASE_s and PHASE_ms. */
static bool plain_column(const char *c, int *target, double *scale)
{
    for (int p = 0; p < CP__COUNT; p++) {
        size_t n = strlen(cal_phase_name((cal_phase)p));
        if (strncmp(c, cal_phase_name((cal_phase)p), n) != 0) continue;
        if (!strcmp(c + n, "_s")) { *target = p; *scale = 1; return true; }
        if (!strcmp(c + n, "_ms")) { *target = p; *scale = 1e-3; return true; }
    }
    return false;
}

/* A wandb CSV export names a column "RUN NAME - metric", with
** "RUN NAME - metric__MIN" and "__MAX" beside it (the band of a sampled
** panel): the metric is what follows the last " - "; the bands are not
** steps' values and are ignored. */
static const char *wandb_metric(const char *c, bool *band)
{
    *band = false;
    const char *m = NULL;
    for (const char *p = strstr(c, " - "); p; p = strstr(p + 1, " - ")) m = p + 3;
    if (!m) return c;
    size_t n = strlen(m);
    if (n > 5 && (!strcmp(m + n - 5, "__MIN") || !strcmp(m + n - 5, "__MAX"))) *band = true;
    return m;
}

static bool resolve_name(const mapping *mp, const char *c, int *target, double *scale);

static bool resolve(const mapping *mp, const char *c, int *target, double *scale)
{
    if (resolve_name(mp, c, target, scale)) return true;
    bool band;
    const char *m = wandb_metric(c, &band);
    if (m == c) return false;
    if (band) { *target = T_IGNORE; *scale = 1; return true; }
    return resolve_name(mp, m, target, scale);
}

static bool resolve_name(const mapping *mp, const char *c, int *target, double *scale)
{
    for (int i = 0; i < mp->n; i++)
        if (!strcmp(mp->m[i].col, c)) { *target = mp->m[i].target; *scale = mp->m[i].scale; return true; }
    if (plain_column(c, target, scale)) return true;
    for (int i = 0; i < NKNOWN; i++)
        if (!strcmp(KNOWN[i].col, c)) { *target = KNOWN[i].target; *scale = KNOWN[i].scale; return true; }
    return false;
}

char *cal_trim(char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static bool parse_map(const char *text, const char *name, mapping *mp, fs_err *err)
{
    mp->n = 0;
    if (!text) return true;
    int line = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        line++;
        char buf[512];
        if (n >= sizeof buf) { fs_err_set(err, 2, "%s: line %d: too long", name, line); return false; }
        memcpy(buf, p, n);
        buf[n] = 0;
        p = e ? e + 1 : p + n;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *s = cal_trim(buf);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            fs_err_set(err, 2, "%s: line %d: expected COLUMN = TARGET [ms|s]", name, line);
            return false;
        }
        *eq = 0;
        char *col = cal_trim(s), *rest = cal_trim(eq + 1);
        char *unit = rest;
        while (*unit && !isspace((unsigned char)*unit)) unit++;
        if (*unit) *unit++ = 0;
        unit = cal_trim(unit);
        int t = -1;
        for (int k = 0; k < T__COUNT; k++) if (!strcmp(rest, target_name(k))) t = k;
        if (t < 0) {
            fs_err_set(err, 2, "%s: line %d: '%s' is not a target; use one of generate, generate_with_switch, "
                       "inference, train, switch, weight_sync, step, response_len_mean, response_len_max, "
                       "response_tokens, prompt_len_mean, ignore", name, line, rest);
            return false;
        }
        double sc = 1;
        if (!strcmp(unit, "ms")) sc = 1e-3;
        else if (*unit && strcmp(unit, "s")) {
            fs_err_set(err, 2, "%s: line %d: unit '%s': use s or ms", name, line, unit);
            return false;
        }
        if (!*col || strlen(col) >= sizeof mp->m[0].col || mp->n == (int)(sizeof mp->m / sizeof mp->m[0])) {
            fs_err_set(err, 2, "%s: line %d: empty or too long column name, or too many lines", name, line);
            return false;
        }
        snprintf(mp->m[mp->n].col, sizeof mp->m[0].col, "%s", col);
        mp->m[mp->n].target = t;
        mp->m[mp->n].scale = sc;
        mp->n++;
    }
    return true;
}

/* One parsed row: column index -> value (NAN absent). */
typedef struct {
    char  **names;
    int     ncols;
    double *vals;       /* rows x ncols */
    int     nrows, cap;
} table;

static int table_col(table *t, const char *name, bool add)
{
    for (int i = 0; i < t->ncols; i++) if (!strcmp(t->names[i], name)) return i;
    if (!add) return -1;
    if (t->ncols >= 512) return -1;
    t->names = xrealloc(t->names, sizeof(char *) * (size_t)(t->ncols + 1));
    t->names[t->ncols] = xstrdup(name);
    /* widen the rows read so far */
    double *nv = xmalloc(sizeof(double) * (size_t)(t->cap > 0 ? t->cap : 1) * (size_t)(t->ncols + 1));
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) nv[r * (t->ncols + 1) + c] = t->vals[r * t->ncols + c];
        nv[r * (t->ncols + 1) + t->ncols] = NAN;
    }
    free(t->vals);
    t->vals = nv;
    return t->ncols++;
}

static double *table_row(table *t)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->vals = xrealloc(t->vals, sizeof(double) * (size_t)t->cap * (size_t)(t->ncols > 0 ? t->ncols : 1));
    }
    double *r = t->vals + (size_t)t->nrows * (size_t)t->ncols;
    for (int c = 0; c < t->ncols; c++) r[c] = NAN;
    t->nrows++;
    return r;
}

static void table_free(table *t)
{
    for (int i = 0; i < t->ncols; i++) free(t->names[i]);
    free(t->names);
    free(t->vals);
    memset(t, 0, sizeof *t);
}

static bool number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && !*cal_trim(end) && isfinite(*v);
}

/* CSV as RFC 4180 has it, through the one CSV reader (csvr.c, over
** Debian's libcsv): quoted cells with commas, quotes and line breaks in
** them.  The first row is the header.  A cell that is not a number leaves
** the value absent and marks its column as text (a run name, a timestamp):
** an error only if the column is one the fit uses (cal_parse). */
typedef struct {
    table *t;
    const char *name;
    bool header_done;
    int ncol;
    int idx[512];
    double *row;
    int *text_line;             /* per column: the first line with text, 0 none */
    char (*text_val)[48];       /* and that text */
} csv_ctx;

static bool csv_cell(const char *field, size_t len, int c, int line, void *ud, fs_err *err)
{
    csv_ctx *x = ud;
    char buf[512];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, field, len);
    buf[len] = 0;
    char *v = cal_trim(buf);
    if (!x->header_done) {
        if (c >= 512) { fs_err_set(err, 2, "%s: more than 512 columns", x->name); return false; }
        if (!*v) { fs_err_set(err, 2, "%s: line %d: column %d has no name", x->name, line, c + 1); return false; }
        if (table_col(x->t, v, false) >= 0) {
            fs_err_set(err, 2, "%s: line %d: a column name appears twice ('%s')", x->name, line, v);
            return false;
        }
        x->idx[c] = table_col(x->t, v, true);
        if (x->idx[c] < 0) { fs_err_set(err, 2, "%s: more than 512 columns", x->name); return false; }
        return true;
    }
    if (c >= x->ncol) {
        fs_err_set(err, 2, "%s: line %d: more cells (%d) than the header has columns (%d)", x->name, line, c + 1,
                   x->ncol);
        return false;
    }
    if (!x->row) x->row = table_row(x->t);
    double d;
    if (!*v) return true;
    if (number(v, &d)) x->row[x->idx[c]] = d;
    else if (!x->text_line[x->idx[c]]) {
        x->text_line[x->idx[c]] = line;
        snprintf(x->text_val[x->idx[c]], sizeof x->text_val[0], "%s", v);
    }
    return true;
}

static bool csv_row_end(int ncells, int line, void *ud, fs_err *err)
{
    (void)line;
    csv_ctx *x = ud;
    if (!x->header_done) {
        x->ncol = ncells;
        x->header_done = ncells > 0;
    } else if (x->t->nrows > CAL_ROWS_MAX) {
        fs_err_set(err, 2, "%s: more than %d rows", x->name, CAL_ROWS_MAX);
        return false;
    }
    x->row = NULL;
    return true;
}

static bool parse_csv(char *text, const char *name, table *t, int *text_line, char (*text_val)[48], fs_err *err)
{
    csv_ctx x = {t, name, false, 0, {0}, NULL, text_line, text_val};
    /* '#' lines before a row are skipped: fusync's own CSV (run
    ** --steps-csv) opens with its version and scenario as such lines */
    return csvr_parse(text, strlen(text), name, CSVR_COMMENTS, csv_cell, csv_row_end, &x, err);
}

/* An object's numbers into row rowi; nested objects as "a/b", except a
** top-level "data" object (verl's file logger writes {"step": N, "data":
** {metrics}}), whose members are read as they are named. */
static bool add_members(table *t, const jv *o, const char *prefix, int rowi, const char *name, int line, fs_err *err)
{
    for (int i = 0; i < o->n; i++) {
        char key[256];
        if (prefix[0]) snprintf(key, sizeof key, "%s/%s", prefix, o->keys[i]);
        else snprintf(key, sizeof key, "%s", o->keys[i]);
        const jv *v = &o->items[i];
        if (v->t == J_OBJ) {
            bool unwrap = !prefix[0] && !strcmp(o->keys[i], "data");
            if (!add_members(t, v, unwrap ? "" : key, rowi, name, line, err)) return false;
            continue;
        }
        if (v->t != J_NUM) continue;    /* strings, flags: not measurements */
        int c = table_col(t, key, true);
        if (c < 0) { fs_err_set(err, 2, "%s: line %d: more than 512 columns", name, line); return false; }
        double x = strtod(v->text, NULL);
        t->vals[(size_t)rowi * (size_t)t->ncols + (size_t)c] = isfinite(x) ? x : NAN;
    }
    return true;
}

static bool parse_jsonl(char *text, const char *name, table *t, fs_err *err)
{
    int line = 0;
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        if (e) *e = 0;
        char *ln = p;
        p = e ? e + 1 : p + strlen(p);
        line++;
        char *s = cal_trim(ln);
        if (!*s) continue;
        jv o;
        char why[256];
        if (!jsonr_parse(s, strlen(s), &o, why, sizeof why)) {
            fs_err_set(err, 2, "%s: line %d: not a JSON object: %s", name, line, why);
            return false;
        }
        if (o.t != J_OBJ) {
            jv_free(&o);
            fs_err_set(err, 2, "%s: line %d: expected one JSON object a line (one training step)", name, line);
            return false;
        }
        table_row(t);
        bool ok = add_members(t, &o, "", t->nrows - 1, name, line, err);
        jv_free(&o);
        if (!ok) return false;
        if (t->nrows > CAL_ROWS_MAX) { fs_err_set(err, 2, "%s: more than %d rows", name, CAL_ROWS_MAX); return false; }
    }
    return true;
}

/* Where a console line of verl's logger starts: "step:N - key:value - ...",
** maybe after a prefix (Ray writes "(TaskRunner pid=12) " before it). */
static char *console_start(char *ln)
{
    for (char *p = strstr(ln, "step:"); p; p = strstr(p + 1, "step:")) {
        if (p > ln && !isspace((unsigned char)p[-1]) && p[-1] != ')') continue;
        char *q = p + 5;
        if (!isdigit((unsigned char)*q)) continue;
        while (isdigit((unsigned char)*q)) q++;
        if (!strncmp(q, " - ", 3)) return p;
    }
    return NULL;
}

/* verl's console output: the lines console_start finds, one step each;
** every other line (warnings, progress) is skipped.  A value may be
** wrapped as numpy prints it, np.float64(1.5). */
static bool parse_console(char *text, const char *name, table *t, fs_err *err)
{
    int line = 0;
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        if (e) *e = 0;
        char *ln = p;
        p = e ? e + 1 : p + strlen(p);
        line++;
        char *st = console_start(ln);
        if (!st) continue;
        table_row(t);
        int rowi = t->nrows - 1;
        for (char *item = st; item;) {
            char *sep = strstr(item, " - ");
            if (sep) *sep = 0;
            char *colon = strrchr(item, ':');
            if (colon) {
                *colon = 0;
                char *key = cal_trim(item), *val = cal_trim(colon + 1);
                char *open = strchr(val, '(');
                size_t vl = strlen(val);
                if (open && vl > 0 && val[vl - 1] == ')') { val[vl - 1] = 0; val = open + 1; }
                double x;
                if (*key && number(val, &x)) {
                    int c = table_col(t, key, true);
                    if (c < 0) { fs_err_set(err, 2, "%s: line %d: more than 512 columns", name, line); return false; }
                    t->vals[(size_t)rowi * (size_t)t->ncols + (size_t)c] = x;
                }
            }
            item = sep ? sep + 3 : NULL;
        }
        if (t->nrows > CAL_ROWS_MAX) { fs_err_set(err, 2, "%s: more than %d rows", name, CAL_ROWS_MAX); return false; }
    }
    return true;
}

void cal_list_add(char *list, size_t n, const char *item)
{
    size_t l = strlen(list);
    if (l + strlen(item) + 3 >= n) return;
    snprintf(list + l, n - l, "%s%s", l ? ", " : "", item);
}

bool cal_parse(const char *text, size_t len, const char *name, const char *map_text, const char *map_name,
               cal_data *d, fs_err *err)
{
    memset(d, 0, sizeof *d);
    mapping *mp = xcalloc(1, sizeof *mp);
    table t = {0};
    bool ok = parse_map(map_text, map_name ? map_name : "mapping file", mp, err);
    char *buf = xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = 0;
    char *body = buf;
    if (!strncmp(body, "\xef\xbb\xbf", 3)) body += 3;     /* a UTF-8 byte-order mark (spreadsheets write one) */
    const char *first = body;
    while (*first && isspace((unsigned char)*first)) first++;
    size_t nl = strlen(name);
    bool jsonl = *first == '{' || (nl > 6 && !strcmp(name + nl - 6, ".jsonl")) || (nl > 5 && !strcmp(name + nl - 5, ".json"));
    bool console = false;
    if (!jsonl) {
        /* verl's console log: a line "step:N - key:value ..." anywhere */
        char *copy = xstrdup(body);
        for (char *l = strtok(copy, "\n"); l && !console; l = strtok(NULL, "\n")) console = console_start(l) != NULL;
        free(copy);
    }
    int text_line[512] = {0};
    char (*text_val)[48] = xcalloc(512, sizeof *text_val);
    if (ok) ok = jsonl ? parse_jsonl(body, name, &t, err) : console ? parse_console(body, name, &t, err)
                                                                : parse_csv(body, name, &t, text_line, text_val, err);
    free(buf);
    if (!ok) goto out;

    int target[512];
    double scale[512];
    /* verl times the weight update apart from generation once it logs
    ** timing_s/update_weights: timing_s/gen is then generation alone */
    bool upd = false;
    for (int c = 0; c < t.ncols; c++) {
        bool band;
        upd |= !strcmp(wandb_metric(t.names[c], &band), "timing_s/update_weights") && !band;
    }
    for (int c = 0; c < t.ncols; c++) {
        if (!resolve(mp, t.names[c], &target[c], &scale[c])) { target[c] = -1; cal_list_add(d->unused, sizeof d->unused, t.names[c]); continue; }
        if (target[c] == T_IGNORE) continue;
        if (upd && target[c] == CP_GENERATE_SW) target[c] = CP_GENERATE;
        if (text_line[c]) {
            fs_err_set(err, 2, "%s: line %d: column '%s': '%.40s' is not a number", name, text_line[c], t.names[c],
                       text_val[c]);
            ok = false;
            goto out;
        }
        char item[200];
        snprintf(item, sizeof item, "%s -> %s%s", t.names[c], target_name(target[c]), scale[c] != 1 ? " (ms)" : "");
        cal_list_add(d->used, sizeof d->used, item);
    }
    for (int i = 0; i < mp->n; i++) {
        bool seen = false;
        for (int c = 0; c < t.ncols; c++) if (!strcmp(t.names[c], mp->m[i].col)) seen = true;
        if (!seen) {
            fs_err_set(err, 2, "%s: column '%s' (named in %s) is missing; the file's columns: %.600s", name,
                       mp->m[i].col, map_name ? map_name : "the mapping file", d->unused[0] ? d->unused : d->used);
            ok = false;
            goto out;
        }
    }
    d->nrows = t.nrows;
    d->t = xmalloc(sizeof(double) * (size_t)(t.nrows > 0 ? t.nrows : 1) * CP__COUNT);
    d->resp_mean = xmalloc(sizeof(double) * (size_t)(t.nrows > 0 ? t.nrows : 1));
    d->resp_max = xmalloc(sizeof(double) * (size_t)(t.nrows > 0 ? t.nrows : 1));
    d->prompt_mean = xmalloc(sizeof(double) * (size_t)(t.nrows > 0 ? t.nrows : 1));
    d->resp_tokens = xmalloc(sizeof(double) * (size_t)(t.nrows > 0 ? t.nrows : 1));
    for (int r = 0; r < t.nrows; r++) {
        double *row = t.vals + (size_t)r * (size_t)t.ncols;
        for (int p = 0; p < CP__COUNT; p++) d->t[r * CP__COUNT + p] = NAN;
        d->resp_mean[r] = d->resp_max[r] = d->prompt_mean[r] = d->resp_tokens[r] = NAN;
        for (int c = 0; c < t.ncols; c++) {
            int tg = target[c];
            if (tg < 0 || tg == T_IGNORE) continue;
            double v = row[c];
            if (isnan(v)) {
                fs_err_set(err, 2, "%s: row %d (step %d of the file): column '%s' has no value; every step needs "
                           "every column it maps (drop the row, or the column with a mapping file's 'ignore')",
                           name, r + 1, r + 1, t.names[c]);
                ok = false;
                goto out;
            }
            if (v < 0) {
                fs_err_set(err, 2, "%s: row %d: column '%s' is negative (%g)", name, r + 1, t.names[c], v);
                ok = false;
                goto out;
            }
            v *= scale[c];
            /* each cell within its field's range (docs/calibration.md): a
            ** phase 0 (absent) or 1 us .. 1e6 s, a length 1 .. FLD_TOKENS_MAX
            ** tokens (the range of workload.max_response and the
            ** distributions), a step's response tokens up to that times the
            ** largest batch; outside, the fit would divide by 0 or overflow */
            {
                double lo = 0, hi = 0;
                const char *unit = "s";
                if (tg < CP__COUNT) { lo = 1e-6; hi = 1e6; }
                else if (tg == T_RESP_TOKENS) { lo = 1; hi = (double)FLD_TOKENS_MAX * FLD_PROMPTS_MAX * 64; unit = "tokens"; }
                else { lo = 1; hi = FLD_TOKENS_MAX; unit = "tokens"; }
                if (!(tg < CP__COUNT && v == 0) && !(v >= lo && v <= hi)) {
                    fs_err_set(err, 2, "%s: row %d: column '%s': %.4g %s is outside %g..%g %s%s", name, r + 1,
                               t.names[c], v, unit, lo, hi, unit, tg < CP__COUNT ? " (or 0)" : "");
                    ok = false;
                    goto out;
                }
            }
            if (tg < CP__COUNT) {
                double *slot = &d->t[r * CP__COUNT + tg];
                *slot = isnan(*slot) ? v : *slot + v;
                d->has[tg] = true;
            } else if (tg == T_RESP_MEAN) { d->resp_mean[r] = v; d->has_resp_mean = true; }
            else if (tg == T_RESP_MAX) { d->resp_max[r] = v; d->has_resp_max = true; }
            else if (tg == T_PROMPT_MEAN) { d->prompt_mean[r] = v; d->has_prompt_mean = true; }
            else if (tg == T_RESP_TOKENS) { d->resp_tokens[r] = v; d->has_resp_tokens = true; }
        }
    }
    {
        bool any = false;
        for (int p = 0; p < CP__COUNT; p++) any |= d->has[p];
        if (!any) {
            fs_err_set(err, 2, "%s: no column gives a phase time; name them generate_s, inference_s, train_s, "
                       "step_s (or _ms), use verl's timing_s/* names, or map yours with --map FILE "
                       "(docs/calibration.md); the file's columns: %.500s", name,
                       d->unused[0] ? d->unused : "(none)");
            ok = false;
            goto out;
        }
    }
    if (d->nrows < CAL_ROWS_MIN) {
        fs_err_set(err, 2, "%s: %d step%s; calibrating needs at least %d measured steps (the leave-one-out "
                   "error needs some to leave out)", name, d->nrows, d->nrows == 1 ? "" : "s", CAL_ROWS_MIN);
        ok = false;
    }
out:
    table_free(&t);
    free(text_val);
    free(mp);
    if (!ok) cal_data_free(d);
    return ok;
}

bool cal_read(const char *path, const char *map_path, cal_data *d, fs_err *err)
{
    char *text = NULL, *map = NULL;
    size_t len, mlen;
    memset(d, 0, sizeof *d);
    if (!read_small_file(path, CAL_FILE_MAX, "measured-run file", &text, &len, err)) return false;
    if (map_path && !read_small_file(map_path, 1L << 20, "mapping file", &map, &mlen, err)) {
        free(text);
        return false;
    }
    bool ok = cal_parse(text, len, path, map, map_path, d, err);
    free(text);
    free(map);
    return ok;
}

void cal_data_free(cal_data *d)
{
    free(d->t);
    free(d->resp_mean);
    free(d->resp_max);
    free(d->prompt_mean);
    free(d->resp_tokens);
    memset(d, 0, sizeof *d);
}

