/*
** calibrate.c — the measured file's reader and the knob fit (calibrate.h).
**
** The fit: Levenberg–Marquardt (Levenberg 1944, Marquardt 1963) on the
** relative residuals (model - measured) / measured of every fitted (row,
** phase), with knobs in units of their start value, a forward-difference
** Jacobian and box bounds by projection.  Flat directions are the
** eigenvectors of JᵀJ (Jacobi rotations) whose eigenvalue is too small for
** the data to move: a 10% move along one changes the fitted times by less
** than CAL_FLAT_REL rms.  docs/calibration.md describes it for users.
*/
#include "calibrate.h"
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

#define CAL_ITER_MAX 40
#define CAL_LOO_ITER_MAX 12
/* Difference steps, in units of a knob's scale.  The simulated times are
** not smooth at every scale (a decode overhead changes which samples join
** which batch), so the fit first follows differences over 10% of a knob,
** which step over those ripples, then refines with 3%. */
static const double FD_STEPS[] = {0.10, 0.03};

static const char *const PHASE_NAMES[CP__COUNT] = {
    "generate", "generate_with_switch", "inference", "train", "switch", "weight_sync", "step"
};

const char *cal_phase_name(cal_phase p) { return p < CP__COUNT ? PHASE_NAMES[p] : "?"; }

/* ------------------------------------------------------------- columns */

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
        size_t n = strlen(PHASE_NAMES[p]);
        if (strncmp(c, PHASE_NAMES[p], n) != 0) continue;
        if (!strcmp(c + n, "_s")) { *target = p; *scale = 1; return true; }
        if (!strcmp(c + n, "_ms")) { *target = p; *scale = 1e-3; return true; }
    }
    return false;
}

static bool resolve(const mapping *mp, const char *c, int *target, double *scale)
{
    for (int i = 0; i < mp->n; i++)
        if (!strcmp(mp->m[i].col, c)) { *target = mp->m[i].target; *scale = mp->m[i].scale; return true; }
    if (plain_column(c, target, scale)) return true;
    for (int i = 0; i < NKNOWN; i++)
        if (!strcmp(KNOWN[i].col, c)) { *target = KNOWN[i].target; *scale = KNOWN[i].scale; return true; }
    return false;
}

static char *trim(char *s)
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
        char *s = trim(buf);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            fs_err_set(err, 2, "%s: line %d: expected COLUMN = TARGET [ms|s]", name, line);
            return false;
        }
        *eq = 0;
        char *col = trim(s), *rest = trim(eq + 1);
        char *unit = rest;
        while (*unit && !isspace((unsigned char)*unit)) unit++;
        if (*unit) *unit++ = 0;
        unit = trim(unit);
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
    return end != s && !*trim(end) && isfinite(*v);
}

/* CSV: a header, then one row a line; cells split on commas, quotes around
** a cell dropped.  An empty cell is an absent value. */
static bool parse_csv(char *text, const char *name, table *t, fs_err *err)
{
    int line = 0, ncol = 0;
    int idx[512];
    for (char *p = text; *p;) {
        char *e = strchr(p, '\n');
        if (e) *e = 0;
        char *ln = p;
        p = e ? e + 1 : p + strlen(p);
        line++;
        size_t n = strlen(ln);
        if (n > 0 && ln[n - 1] == '\r') ln[--n] = 0;
        if (!*trim(ln)) continue;
        int c = 0;
        double *row = NULL;
        if (ncol > 0) row = table_row(t);
        for (char *cell = ln;; c++) {
            char *comma = strchr(cell, ',');
            if (comma) *comma = 0;
            char *v = trim(cell);
            size_t vl = strlen(v);
            if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') { v[vl - 1] = 0; v++; }
            if (ncol == 0 && !row) {
                if (c >= 512) { fs_err_set(err, 2, "%s: more than 512 columns", name); return false; }
                if (!*v) { fs_err_set(err, 2, "%s: line %d: column %d has no name", name, line, c + 1); return false; }
                idx[c] = table_col(t, v, true);
                if (idx[c] < 0) { fs_err_set(err, 2, "%s: column '%s' twice or too many columns", name, v); return false; }
            } else {
                if (c >= ncol) {
                    fs_err_set(err, 2, "%s: line %d: more cells (%d) than the header has columns (%d)", name, line,
                               c + 1, ncol);
                    return false;
                }
                double x;
                if (*v && !number(v, &x)) {
                    fs_err_set(err, 2, "%s: line %d: column '%s': '%.40s' is not a number", name, line,
                               t->names[idx[c]], v);
                    return false;
                }
                row[idx[c]] = *v ? x : NAN;
            }
            if (!comma) break;
            cell = comma + 1;
        }
        if (ncol == 0) {
            ncol = c + 1;
            if (t->ncols != ncol) { fs_err_set(err, 2, "%s: line %d: a column name appears twice", name, line); return false; }
        }
        if (t->nrows > CAL_ROWS_MAX) { fs_err_set(err, 2, "%s: more than %d rows", name, CAL_ROWS_MAX); return false; }
    }
    return true;
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
        char *s = trim(ln);
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
                char *key = trim(item), *val = trim(colon + 1);
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

static void list_add(char *list, size_t n, const char *item)
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
    if (ok) ok = jsonl ? parse_jsonl(body, name, &t, err) : console ? parse_console(body, name, &t, err)
                                                                : parse_csv(body, name, &t, err);
    free(buf);
    if (!ok) goto out;

    int target[512];
    double scale[512];
    for (int c = 0; c < t.ncols; c++) {
        if (!resolve(mp, t.names[c], &target[c], &scale[c])) { target[c] = -1; list_add(d->unused, sizeof d->unused, t.names[c]); continue; }
        if (target[c] == T_IGNORE) continue;
        char item[200];
        snprintf(item, sizeof item, "%s -> %s%s", t.names[c], target_name(target[c]), scale[c] != 1 ? " (ms)" : "");
        list_add(d->used, sizeof d->used, item);
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

/* --------------------------------------------------------------- knobs */

/* Knobs in the scenario's units (docs/scenarios.md, efficiency), with the
** fit's bounds and the floor of the scale a knob is fitted in. */
static const struct {
    const char *name;
    size_t off;
    double unit;            /* scenario unit -> C value */
    double lo, hi, floor;
} KNOBS[] = {
    {"train", offsetof(scn_efficiency, train), 1, 0.005, 1, 0.01},
    {"prefill", offsetof(scn_efficiency, prefill), 1, 0.005, 1, 0.01},
    {"decode", offsetof(scn_efficiency, decode), 1, 0.005, 1, 0.01},
    {"hbm", offsetof(scn_efficiency, hbm), 1, 0.01, 1, 0.01},
    {"link", offsetof(scn_efficiency, link), 1, 0.005, 1, 0.01},
    {"host_link", offsetof(scn_efficiency, host_link), 1, 0.005, 1, 0.01},
    {"decode_overhead_ms", offsetof(scn_efficiency, decode_overhead_s), 1e-3, 0, 1000, 0.1},
    {"train_overhead_ms", offsetof(scn_efficiency, train_overhead_s), 1e-3, 0, 1e6, 1},
    {"switch_overhead_s", offsetof(scn_efficiency, switch_overhead_s), 1, 0, 1e4, 0.01},
    {"reward_rule_ms", offsetof(scn_efficiency, reward_rule_s), 1e-3, 0, 1e4, 0.01},
};
#define NKNOBS ((int)(sizeof KNOBS / sizeof KNOBS[0]))

static const int DEFAULT_KNOBS[] = {0, 1, 2, 3, 6};   /* the efficiencies of compute and HBM, the decode overhead */

int cal_knob_count(void) { return NKNOBS; }
const char *cal_knob_name(int k) { return k >= 0 && k < NKNOBS ? KNOBS[k].name : NULL; }

double cal_knob_get(const scn_scenario *s, int k)
{
    const double *p = (const double *)((const char *)&s->eff + KNOBS[k].off);
    return *p / KNOBS[k].unit;
}

void cal_knob_set(scn_scenario *s, int k, double v)
{
    double *p = (double *)((char *)&s->eff + KNOBS[k].off);
    *p = v * KNOBS[k].unit;
}

bool cal_knobs_parse(const char *list, int *knobs, int *n, fs_err *err)
{
    *n = 0;
    if (!list || !*list) {
        for (size_t i = 0; i < sizeof DEFAULT_KNOBS / sizeof DEFAULT_KNOBS[0]; i++) knobs[(*n)++] = DEFAULT_KNOBS[i];
        return true;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *k = trim(tok);
        if (!strncmp(k, "efficiency.", 11)) k += 11;
        int found = -1;
        for (int i = 0; i < NKNOBS; i++) if (!strcmp(KNOBS[i].name, k)) found = i;
        if (found < 0) {
            const char *best = NULL;
            int bd = 4;
            for (int i = 0; i < NKNOBS; i++) {
                int dd = str_distance(k, KNOBS[i].name);
                if (dd < bd) { bd = dd; best = KNOBS[i].name; }
            }
            char names[400] = "";
            for (int i = 0; i < NKNOBS; i++) list_add(names, sizeof names, KNOBS[i].name);
            fs_err_set(err, 2, "--fit: '%.60s' is not a knob%s%s%s; the knobs are %s", k, best ? " (did you mean '" : "",
                       best ? best : "", best ? "'?)" : "", names);
            return false;
        }
        for (int i = 0; i < *n; i++)
            if (knobs[i] == found) { fs_err_set(err, 2, "--fit: '%s' is named twice", k); return false; }
        if (*n == CAL_KNOBS_MAX) { fs_err_set(err, 2, "--fit: at most %d knobs", CAL_KNOBS_MAX); return false; }
        knobs[(*n)++] = found;
    }
    if (*n == 0) { fs_err_set(err, 2, "--fit: no knob named; e.g. --fit train,hbm,decode_overhead_ms"); return false; }
    return true;
}

/* ------------------------------------------------------------ the model */

typedef struct {
    const scn_scenario *base;
    const cal_data *d;
    scn_scenario *row;          /* per row: lengths set, knobs at the base's */
    const int *knobs;
    int nknobs;
    double scale[CAL_KNOBS_MAX];
    double fd;                  /* the difference step now */
    bool fit[CP__COUNT];
    int sims;
    cal_progress_fn progress;
    void *ud;
    fs_err *err;
} model;

static void scale_dist(scn_dist *d, double k)
{
    switch (d->kind) {
    case DIST_FIXED: d->a *= k; break;
    case DIST_UNIFORM: d->a *= k; d->b *= k; break;
    case DIST_LOGNORMAL: d->a *= k; break;
    case DIST_HIST: for (int i = 0; i <= d->nbins; i++) d->edge[i] *= k; break;
    }
}

/* One measured step of scenario s: the report's figures. */
static bool simulate(model *m, const scn_scenario *s, report *rep)
{
    if (fs_stop_signal) {
        fs_err_set(m->err, fs_stop_status(), "interrupted; no output written");
        return false;
    }
    runner_spec spec = {.scn = s, .headless = true};
    runner *r = runner_open(&spec, m->err);
    if (!r) return false;
    m->sims++;
    bool ok = runner_close(r, rep, m->err);
    if (m->progress) m->progress(m->sims, m->ud);
    runner_free(r);
    if (ok && !rep->feasible) {
        fs_err_set(m->err, 2, "the scenario's run is infeasible at these knobs: %s", rep->why);
        ok = false;
    }
    return ok;
}

static double sampled_mean(const report *rep)
{
    return rep->samples_trained > 0 ? rep->tokens_generated / (double)rep->samples_trained : 0;
}

/* Per row: the scenario with the row's lengths.  The response distribution
** keeps its shape and is scaled until the simulated step's mean response
** (tokens generated / samples trained) is the row's; its cap and the hard
** cap become the row's maximum. */
static bool prepare_rows(model *m)
{
    const cal_data *d = m->d;
    m->row = xmalloc(sizeof(scn_scenario) * (size_t)d->nrows);
    for (int r = 0; r < d->nrows; r++) {
        scn_scenario *s = &m->row[r];
        *s = *m->base;
        s->work.iterations = s->work.warmup + 1;
        if (d->has_prompt_mean && d->prompt_mean[r] >= 1) {
            double pm = dist_mean(&s->work.prompt_len, 0);
            if (pm > 0) scale_dist(&s->work.prompt_len, d->prompt_mean[r] / pm);
        }
        if (d->has_resp_max && d->resp_max[r] >= 1) {
            s->work.max_response = (int)lround(d->resp_max[r]);
            s->work.response_len.cap = d->resp_max[r];
        }
        /* a step's response tokens: over the scenario's samples per step */
        double want = d->has_resp_mean ? d->resp_mean[r]
                    : d->has_resp_tokens ? d->resp_tokens[r] / ((double)scn_prompts_per_step(s) * s->work.samples_per_prompt)
                    : NAN;
        if (want >= 1) {
            double dm = dist_mean(&s->work.response_len, s->work.max_response);
            if (dm > 0) scale_dist(&s->work.response_len, want / dm);
            for (int it = 0; it < 6; it++) {
                report rep;
                if (!simulate(m, s, &rep)) return false;
                double got = sampled_mean(&rep);
                if (got <= 0) break;
                if (fabs(got / want - 1) < 2e-4) break;
                scale_dist(&s->work.response_len, want / got);
            }
        }
    }
    return true;
}

static void set_knobs(const model *m, scn_scenario *s, const double *u)
{
    for (int i = 0; i < m->nknobs; i++) cal_knob_set(s, m->knobs[i], u[i] * m->scale[i]);
}

static double model_phase(const report *rep, int p)
{
    switch (p) {
    case CP_GENERATE: return rep->phase_s[STEP_GENERATE];
    case CP_GENERATE_SW: return rep->phase_s[STEP_GENERATE] + rep->phase_s[STEP_SWITCH] + rep->phase_s[STEP_WEIGHT_SYNC];
    case CP_INFER: return rep->phase_s[STEP_INFER];
    case CP_TRAIN: return rep->phase_s[STEP_TRAIN];
    case CP_SWITCH: return rep->phase_s[STEP_SWITCH];
    case CP_SYNC: return rep->phase_s[STEP_WEIGHT_SYNC];
    case CP_STEP: return rep->step_time_s;
    }
    return 0;
}

/* Model times of every row at knobs u: out[r * CP__COUNT + p]. */
static bool eval_rows(model *m, const double *u, const bool *use_row, double *out)
{
    for (int r = 0; r < m->d->nrows; r++) {
        if (use_row && !use_row[r]) continue;
        scn_scenario s = m->row[r];
        set_knobs(m, &s, u);
        report rep;
        if (!simulate(m, &s, &rep)) return false;
        for (int p = 0; p < CP__COUNT; p++) out[r * CP__COUNT + p] = model_phase(&rep, p);
    }
    return true;
}

/* Relative residuals of the fitted (row, phase) cells, in a fixed order. */
static int residuals(const model *m, const double *mod, const bool *use_row, double *res)
{
    int n = 0;
    for (int r = 0; r < m->d->nrows; r++) {
        if (use_row && !use_row[r]) continue;
        for (int p = 0; p < CP__COUNT; p++) {
            if (!m->fit[p]) continue;
            double meas = m->d->t[r * CP__COUNT + p];
            if (!(meas > 0)) continue;
            res[n++] = (mod[r * CP__COUNT + p] - meas) / meas;
        }
    }
    return n;
}

static double sumsq(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return s;
}

/* Solve A x = b (n x n, Gaussian elimination with partial pivoting). */
static bool solve(int n, double *A, double *b, double *x)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++) if (fabs(A[r * n + c]) > fabs(A[piv * n + c])) piv = r;
        if (fabs(A[piv * n + c]) < 1e-300) return false;
        if (piv != c) {
            for (int k = 0; k < n; k++) { double t = A[c * n + k]; A[c * n + k] = A[piv * n + k]; A[piv * n + k] = t; }
            double t = b[c]; b[c] = b[piv]; b[piv] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < n; k++) s -= A[r * n + k] * x[k];
        x[r] = s / A[r * n + r];
    }
    return true;
}

static void clamp_u(const model *m, double *u)
{
    for (int i = 0; i < m->nknobs; i++) {
        double lo = KNOBS[m->knobs[i]].lo / m->scale[i], hi = KNOBS[m->knobs[i]].hi / m->scale[i];
        if (u[i] < lo) u[i] = lo;
        if (u[i] > hi) u[i] = hi;
    }
}

/* Forward-difference Jacobian of the residuals at u (residual r0, n cells). */
static bool jacobian(model *m, const double *u, const bool *use_row, const double *r0, int n, double *J,
                     double *mod)
{
    int K = m->nknobs;
    double *rr = xmalloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    bool ok = true;
    for (int i = 0; i < K && ok; i++) {
        double v[CAL_KNOBS_MAX];
        memcpy(v, u, sizeof(double) * (size_t)K);
        double h = m->fd;
        double hi = KNOBS[m->knobs[i]].hi / m->scale[i];
        if (v[i] + h > hi) h = -h;          /* step inward at the upper bound */
        v[i] += h;
        if (!eval_rows(m, v, use_row, mod)) { ok = false; break; }
        residuals(m, mod, use_row, rr);
        for (int c = 0; c < n; c++) J[c * K + i] = (rr[c] - r0[c]) / h;
    }
    free(rr);
    return ok;
}

/* Levenberg–Marquardt from u (updated in place). */
static bool lm(model *m, double *u, const bool *use_row, int iter_max, int *iters)
{
    int K = m->nknobs;
    int cells = m->d->nrows * CP__COUNT;
    double *mod = xmalloc(sizeof(double) * (size_t)cells);
    double *r = xmalloc(sizeof(double) * (size_t)cells), *rn = xmalloc(sizeof(double) * (size_t)cells);
    double *J = xmalloc(sizeof(double) * (size_t)cells * (size_t)K);
    bool ok = eval_rows(m, u, use_row, mod);
    int n = ok ? residuals(m, mod, use_row, r) : 0;
    double cost = sumsq(r, n), lambda = 1e-2;
    int it = 0;
    for (; ok && it < iter_max; it++) {
        if (!jacobian(m, u, use_row, r, n, J, mod)) { ok = false; break; }
        double A[CAL_KNOBS_MAX * CAL_KNOBS_MAX], g[CAL_KNOBS_MAX], dmean = 0;
        for (int i = 0; i < K; i++) {
            g[i] = 0;
            for (int c = 0; c < n; c++) g[i] += J[c * K + i] * r[c];
            for (int j = 0; j < K; j++) {
                double s = 0;
                for (int c = 0; c < n; c++) s += J[c * K + i] * J[c * K + j];
                A[i * K + j] = s;
            }
            dmean += A[i * K + i] / K;
        }
        bool improved = false;
        double step = 0;
        while (lambda < 1e10) {
            double B[CAL_KNOBS_MAX * CAL_KNOBS_MAX], b[CAL_KNOBS_MAX], du[CAL_KNOBS_MAX], un[CAL_KNOBS_MAX];
            memcpy(B, A, sizeof(double) * (size_t)(K * K));
            for (int i = 0; i < K; i++) {
                /* Marquardt's diagonal scaling, with a floor so a flat knob stays put */
                B[i * K + i] += lambda * (A[i * K + i] + 1e-3 * dmean + 1e-12);
                b[i] = -g[i];
            }
            if (!solve(K, B, b, du)) { lambda *= 4; continue; }
            for (int i = 0; i < K; i++) un[i] = u[i] + du[i];
            clamp_u(m, un);
            if (!eval_rows(m, un, use_row, mod)) { ok = false; break; }
            residuals(m, mod, use_row, rn);
            double cn = sumsq(rn, n);
            if (cn < cost) {
                step = 0;
                for (int i = 0; i < K; i++) step = fmax(step, fabs(un[i] - u[i]));
                double gain = cost - cn;
                memcpy(u, un, sizeof(double) * (size_t)K);
                memcpy(r, rn, sizeof(double) * (size_t)n);
                cost = cn;
                lambda = fmax(lambda / 3, 1e-7);
                improved = gain > 1e-9 * (1 + cost);
                break;
            }
            lambda *= 4;
        }
        if (!ok || !improved || step < 1e-5) break;
    }
    if (iters) *iters = it;
    free(mod);
    free(r);
    free(rn);
    free(J);
    return ok;
}

/* Eigen-decomposition of a symmetric K x K matrix by cyclic Jacobi
** rotations: A is destroyed, w gets the eigenvalues, V the eigenvectors
** (columns). */
static void jacobi_eigen(int K, double *A, double *w, double *V)
{
    for (int i = 0; i < K; i++) for (int j = 0; j < K; j++) V[i * K + j] = i == j;
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0;
        for (int i = 0; i < K; i++) for (int j = i + 1; j < K; j++) off += A[i * K + j] * A[i * K + j];
        if (off < 1e-30) break;
        for (int p = 0; p < K; p++)
            for (int q = p + 1; q < K; q++) {
                double apq = A[p * K + q];
                if (fabs(apq) < 1e-300) continue;
                double theta = (A[q * K + q] - A[p * K + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < K; k++) {
                    double akp = A[k * K + p], akq = A[k * K + q];
                    A[k * K + p] = c * akp - s * akq;
                    A[k * K + q] = s * akp + c * akq;
                }
                for (int k = 0; k < K; k++) {
                    double apk = A[p * K + k], aqk = A[q * K + k];
                    A[p * K + k] = c * apk - s * aqk;
                    A[q * K + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < K; k++) {
                    double vkp = V[k * K + p], vkq = V[k * K + q];
                    V[k * K + p] = c * vkp - s * vkq;
                    V[k * K + q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < K; i++) w[i] = A[i * K + i];
}

bool cal_fit(const scn_scenario *s, const cal_data *d, const int *knobs, int nknobs, cal_result *res, fs_err *err)
{
    return cal_fit_progress(s, d, knobs, nknobs, NULL, NULL, res, err);
}

bool cal_fit_progress(const scn_scenario *s, const cal_data *d, const int *knobs, int nknobs,
                      cal_progress_fn progress, void *ud, cal_result *res, fs_err *err)
{
    memset(res, 0, sizeof *res);
    if (nknobs < 1 || nknobs > CAL_KNOBS_MAX) { fs_err_set(err, 2, "calibrate: 1 to %d knobs", CAL_KNOBS_MAX); return false; }
    if (d->nrows < CAL_ROWS_MIN) {
        fs_err_set(err, 2, "calibrate: %d steps; at least %d are needed", d->nrows, CAL_ROWS_MIN);
        return false;
    }
    model m = {.base = s, .d = d, .knobs = knobs, .nknobs = nknobs, .err = err, .progress = progress, .ud = ud};
    /* the phases: all that are given, the step only when no phase is */
    bool anyphase = false;
    for (int p = 0; p < CP__COUNT; p++) if (p != CP_STEP && d->has[p]) { m.fit[p] = true; anyphase = true; }
    if (!anyphase) m.fit[CP_STEP] = true;
    memcpy(res->fitted_phase, m.fit, sizeof m.fit);
    res->nknobs = nknobs;
    double u[CAL_KNOBS_MAX];
    for (int i = 0; i < nknobs; i++) {
        int k = knobs[i];
        res->knob[i] = k;
        res->start[i] = cal_knob_get(s, k);
        res->lo[i] = KNOBS[k].lo;
        res->hi[i] = KNOBS[k].hi;
        m.scale[i] = fmax(res->start[i], KNOBS[k].floor);
        u[i] = res->start[i] / m.scale[i];
    }
    clamp_u(&m, u);

    int cells = d->nrows * CP__COUNT;
    double *mod = xmalloc(sizeof(double) * (size_t)cells);
    double *r = xmalloc(sizeof(double) * (size_t)cells);
    double *J = xmalloc(sizeof(double) * (size_t)cells * (size_t)nknobs);
    bool ok = prepare_rows(&m) && eval_rows(&m, u, NULL, mod);
    if (ok) {
        /* plausibility: measured against modelled at the start, median over rows */
        double ratios[CAL_ROWS_MAX];
        int nr = 0;
        for (int row = 0; row < d->nrows; row++) {
            double a = 0, b = 0;
            for (int p = 0; p < CP__COUNT; p++)
                if (m.fit[p] && d->t[row * CP__COUNT + p] > 0) { a += d->t[row * CP__COUNT + p]; b += mod[row * CP__COUNT + p]; }
            if (a > 0 && b > 0) ratios[nr++] = a / b;
        }
        for (int i = 1; i < nr; i++)
            for (int j = i; j > 0 && ratios[j] < ratios[j - 1]; j--) { double t = ratios[j]; ratios[j] = ratios[j - 1]; ratios[j - 1] = t; }
        res->start_ratio = nr ? ratios[nr / 2] : 0;
        if (nr == 0) {
            fs_err_set(err, 2, "calibrate: every measured phase time is 0; nothing to fit");
            ok = false;
        } else if (res->start_ratio > 50) {
            fs_err_set(err, 2, "calibrate: the measured times are %.0fx what the scenario gives at its own knobs: are "
                       "they milliseconds? Name the columns *_ms, or give 'ms' in the mapping file (docs/calibration.md); "
                       "else check that the scenario describes the measured run", res->start_ratio);
            ok = false;
        } else if (res->start_ratio < 1.0 / 50) {
            fs_err_set(err, 2, "calibrate: the measured times are 1/%.0f of what the scenario gives at its own knobs; "
                       "check the units (seconds) and that the scenario describes the measured run (model, devices, "
                       "batch)", 1 / res->start_ratio);
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < sizeof FD_STEPS / sizeof FD_STEPS[0]; i++) {
        int it = 0;
        m.fd = FD_STEPS[i];
        ok = lm(&m, u, NULL, CAL_ITER_MAX, &it);
        res->iterations += it;
    }
    int n = 0;
    if (ok) ok = eval_rows(&m, u, NULL, mod);
    if (ok) {
        n = residuals(&m, mod, NULL, r);
        res->fit_rms = n ? sqrt(sumsq(r, n) / n) : 0;
        for (int i = 0; i < nknobs; i++) {
            res->value[i] = u[i] * m.scale[i];
            res->at_bound[i] = res->value[i] <= res->lo[i] * (1 + 1e-9) || res->value[i] >= res->hi[i] * (1 - 1e-9);
        }
        for (int p = 0; p < CP__COUNT; p++) {
            if (!d->has[p]) continue;
            double sm = 0, sd = 0, ss = 0, sb = 0;
            int k = 0;
            for (int row = 0; row < d->nrows; row++) {
                double meas = d->t[row * CP__COUNT + p], mo = mod[row * CP__COUNT + p];
                sm += meas;
                sd += mo;
                if (meas > 0) { double e = (mo - meas) / meas; ss += e * e; sb += e; k++; }
            }
            res->meas_mean[p] = sm / d->nrows;
            res->model_mean[p] = sd / d->nrows;
            res->rms[p] = k ? sqrt(ss / k) : 0;
            res->bias[p] = k ? sb / k : 0;
        }
        double ss = 0;
        for (int row = 0; row < d->nrows; row++) {
            double a = 0, b = 0;
            for (int p = 0; p < CP__COUNT; p++)
                if (m.fit[p] && d->t[row * CP__COUNT + p] > 0) { a += d->t[row * CP__COUNT + p]; b += mod[row * CP__COUNT + p]; }
            if (a > 0) ss += (b - a) * (b - a) / (a * a);
        }
        res->step_rms = sqrt(ss / d->nrows);
        /* flat directions: JᵀJ per cell, in units of a 10% move of each knob */
        ok = jacobian(&m, u, NULL, r, n, J, mod);
    }
    if (ok) {
        int K = nknobs;
        double A[CAL_KNOBS_MAX * CAL_KNOBS_MAX], w[CAL_KNOBS_MAX], V[CAL_KNOBS_MAX * CAL_KNOBS_MAX];
        for (int i = 0; i < K; i++) {
            /* J is per unit of scale; a 10% move of the knob is 0.1 * value / scale units */
            double fi = 0.1 * fmax(u[i], 1e-3);
            for (int j = 0; j < K; j++) {
                double fj = 0.1 * fmax(u[j], 1e-3), sacc = 0;
                for (int c = 0; c < n; c++) sacc += J[c * K + i] * fi * J[c * K + j] * fj;
                A[i * K + j] = sacc / (n ? n : 1);
            }
            res->sensitivity[i] = sqrt(A[i * K + i]);
        }
        jacobi_eigen(K, A, w, V);
        for (int e = 0; e < K; e++) {
            if (sqrt(fmax(w[e], 0)) >= CAL_FLAT_REL) continue;
            for (int i = 0; i < K; i++) if (fabs(V[i * K + e]) > 0.3) res->flat[i] = true;
        }
        /* standard errors: cov(x / 10%) = s² / n · A⁻¹, s² the residual variance
        ** over n - K degrees of freedom; A⁻¹ through its eigen-decomposition */
        double s2 = n > K ? sumsq(r, n) / (n - K) : 0;
        for (int i = 0; i < K; i++) {
            double v = 0;
            for (int e = 0; e < K; e++) {
                double c = V[i * K + e] * V[i * K + e];
                if (c < 1e-24) continue;
                v += w[e] > 1e-18 ? c / w[e] : INFINITY;
            }
            res->uncertainty[i] = 0.1 * sqrt(s2 / (n ? n : 1) * v);
            if (u[i] < 1e-3) res->uncertainty[i] = INFINITY;   /* at zero: no relative figure */
        }
    }
    /* leave one out: refit without each row from the fit, predict it */
    if (ok) {
        bool *use = xmalloc(sizeof(bool) * (size_t)d->nrows);
        double ss = 0;
        int cnt = 0;
        for (int out = 0; out < d->nrows && ok; out++) {
            for (int row = 0; row < d->nrows; row++) use[row] = row != out;
            double v[CAL_KNOBS_MAX];
            memcpy(v, u, sizeof v);
            ok = lm(&m, v, use, CAL_LOO_ITER_MAX, NULL);
            for (int row = 0; row < d->nrows; row++) use[row] = row == out;
            if (ok) ok = eval_rows(&m, v, use, mod);
            if (ok) {
                int k = residuals(&m, mod, use, r);
                ss += sumsq(r, k);
                cnt += k;
            }
        }
        free(use);
        res->loo_error = cnt ? sqrt(ss / cnt) : 0;
    }
    res->simulations = m.sims;
    free(mod);
    free(r);
    free(J);
    free(m.row);
    return ok;
}

void cal_apply(scn_scenario *s, const cal_result *res)
{
    for (int i = 0; i < res->nknobs; i++) cal_knob_set(s, res->knob[i], res->value[i]);
}
