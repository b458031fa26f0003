/*
** cli_sensitivity.c — `fusync sensitivity SCENARIO`: which inputs decide
** the answer.  Every numeric input the result can hang on (the scenario
** fields of src/fields.c under efficiency, workload, the cluster's device
** and links, plan), and every choice (enums: the neighbouring names; booleans:
** the other value), is moved down and up by a stated step; each variant is a
** run like `fusync run --set PATH=VALUE` (runner.h), on the worker pool
** (workers.h); the inputs are ranked by their effect on throughput, with
** the effect on peak device memory and the variants that make the plan
** infeasible named.  docs/cli.md, "Sensitivity", is the user's side.
**
** Determinism: the variants are listed in field-table order, rows come
** back in that order whatever --jobs is, the ranking breaks ties by that
** order, and no output holds a wall-clock figure: the same scenario and
** seed give the same bytes.
*/
#include "cli_sensitivity.h"
#include "cli.h"
#include "engine.h"
#include "lua_scenario.h"
#include "rtable.h"
#include "runner.h"
#include "workers.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GiB (1024.0 * 1024.0 * 1024.0)
/* An integer input refused at its first value (tp 3 of 28 heads) is tried
** this many values further before its side is called invalid. */
#define SENS_TRIES 8
#define SENS_STEP_DEFAULT 0.1

/* ======================================================== the step rule */

bool sens_step_value(const fdesc *f, double base, double step, int dir, int k, char *text, size_t n, double *value)
{
    if ((f->kind != FK_NUM && f->kind != FK_INT) || (dir != -1 && dir != 1) || k < 0 || !(step > 0)) return false;
    double v;
    if (f->kind == FK_NUM) {
        if (k > 0) return false;
        double d = base != 0 ? step * fabs(base) : step * fmin(1.0, f->hi - f->lo);
        v = fmin(fmax(base + dir * d, f->lo), f->hi);
        snprintf(text, n, "%.6g", v);
    } else {
        double d = fmax(1.0, round(step * fabs(base)));
        v = base + dir * (d + k);
        if (v < f->lo || v > f->hi) {
            if (k > 0) return false;
            v = fmin(fmax(v, f->lo), f->hi);
        }
        snprintf(text, n, "%.0f", v);
    }
    *value = strtod(text, NULL);
    /* what is set is the text: a value that prints as the base does not move */
    if (*value == base) return false;
    char bt[64];
    snprintf(bt, sizeof bt, f->kind == FK_NUM ? "%.6g" : "%.0f", base);
    return strcmp(bt, text) != 0;
}

double sens_elasticity(double x0, double y0, bool have_dn, double xd, double yd, bool have_up, double xu, double yu)
{
    if (x0 == 0 || y0 == 0 || !(have_dn || have_up)) return NAN;
    double xa = have_dn ? xd : x0, ya = have_dn ? yd : y0;
    double xb = have_up ? xu : x0, yb = have_up ? yu : y0;
    if (xb == xa) return NAN;
    return ((yb - ya) / y0) / ((xb - xa) / x0);
}

/* ============================================================ the inputs */

typedef enum { SI_NUM, SI_INT, SI_ENUM, SI_BOOL } sens_kind;

typedef struct {
    char         path[96];
    const fdesc *f;
    sens_kind    kind;
    double       base;          /* the file's unit; an enum: its C value */
    char         base_text[64];
} sens_input;

typedef struct {
    sens_input *v;
    int         n, cap;
} sens_list;

/* Fields that are not inputs of the answer: what the run measures (its
** length, warm-up and seed), the algorithm (PPO needs a critic model), and
** the cluster's size in devices, nodes and supernodes, which is a question
** for `fusync plan --objective devices`, not a step. */
static const char *const SENS_SKIP[] = {
    "workload.iterations", "workload.warmup", "workload.seed", "workload.algorithm",
    "cluster.devices_per_node", "cluster.nodes_per_supernode", "cluster.supernodes", "cluster.nodes",
    "calibration",      /* what a fit knew of itself: no input of the run */
    NULL
};

static void add_input(sens_list *L, const char *path, const fdesc *f, const void *base)
{
    sens_input in;
    memset(&in, 0, sizeof in);
    snprintf(in.path, sizeof in.path, "%s", path);
    in.f = f;
    double v = fields_get_num(f, base);
    switch (f->kind) {
    case FK_NUM: in.kind = SI_NUM; in.base = v / f->scale; snprintf(in.base_text, sizeof in.base_text, "%.6g", in.base); break;
    case FK_INT: in.kind = SI_INT; in.base = v; snprintf(in.base_text, sizeof in.base_text, "%.0f", v); break;
    case FK_ENUM:
        in.kind = SI_ENUM;
        in.base = v;
        snprintf(in.base_text, sizeof in.base_text, "%s", fields_enum_name(f, (int)v));
        break;
    case FK_BOOL: in.kind = SI_BOOL; in.base = v; snprintf(in.base_text, sizeof in.base_text, "%s", v ? "true" : "false"); break;
    default: return;
    }
    if (!isfinite(in.base)) return;
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->v = xrealloc(L->v, (size_t)L->cap * sizeof *L->v);
    }
    L->v[L->n++] = in;
}

/* A distribution's parameters for its kind (a histogram's bins are not
** stepped). */
static void collect_dist(sens_list *L, const fdesc *f, const char *path, const scn_dist *d)
{
    static const char *const FIXED[] = {"value", NULL}, *const UNIFORM[] = {"lo", "hi", NULL},
                             *const LOGNORMAL[] = {"median", "sigma", NULL}, *const NONE[] = {NULL};
    const char *const *names = d->kind == DIST_FIXED ? FIXED : d->kind == DIST_UNIFORM ? UNIFORM
                             : d->kind == DIST_LOGNORMAL ? LOGNORMAL : NONE;
    char sub[160];
    for (int i = 0; names[i]; i++) {
        snprintf(sub, sizeof sub, "%s.%s", path, names[i]);
        add_input(L, sub, fields_find(f->sub, names[i]), d);
    }
    if (d->cap > 0) {       /* 0 is "no cap", not a length to step from */
        snprintf(sub, sizeof sub, "%s.cap", path);
        add_input(L, sub, fields_find(f->sub, "cap"), d);
    }
}

static void collect(sens_list *L, const fdesc *rec, const char *prefix, const void *base)
{
    for (const fdesc *f = rec; f->name; f++) {
        char path[160];
        snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", f->name);
        bool skip = (f->flags & FF_DERIVED) != 0 || (!prefix[0] && !strcmp(f->name, "models"));
        for (int i = 0; SENS_SKIP[i] && !skip; i++) skip = !strcmp(SENS_SKIP[i], path);
        if (skip) continue;
        const void *mine = fields_cat(f, base);
        switch (f->kind) {
        case FK_REC:
            if (f->sub) collect(L, f->sub, path, f->size || f->off ? mine : base);
            break;
        case FK_DEVICE:
            if (f->sub && (f->codec != FC_OPT_DEVICE || scn_device_set(mine))) collect(L, f->sub, path, mine);
            break;
        case FK_DIST: collect_dist(L, f, path, mine); break;
        case FK_INT: case FK_NUM: case FK_BOOL: add_input(L, path, f, base); break;
        case FK_ENUM:
            if (f->enames && f->enames[0] && f->enames[1]) add_input(L, path, f, base);
            break;
        default: break;     /* strings, lists, models */
        }
    }
}

/* The value of side `dir` at try k: a number's or integer's step, an enum's
** neighbouring name, a boolean's other value. */
static bool side_value(const sens_input *in, double step, int dir, int k, char *text, size_t n, double *x)
{
    if (in->kind == SI_NUM || in->kind == SI_INT) return sens_step_value(in->f, in->base, step, dir, k, text, n, x);
    if (k > 0) return false;
    if (in->kind == SI_BOOL) {
        if ((dir < 0) != (in->base != 0)) return false;     /* down: true -> false; up: false -> true */
        snprintf(text, n, "%s", dir < 0 ? "false" : "true");
        *x = dir < 0 ? 0 : 1;
        return true;
    }
    int at = -1, count = 0;
    for (int i = 0; in->f->enames[i]; i++, count++)
        if ((in->f->evals ? in->f->evals[i] : i) == (int)in->base) at = i;
    int to = at + dir;
    if (at < 0 || to < 0 || to >= count) return false;
    snprintf(text, n, "%s", in->f->enames[to]);
    *x = in->f->evals ? in->f->evals[to] : to;
    return true;
}

/* ============================================================== the runs */

typedef enum { SS_NONE, SS_OK, SS_INVALID, SS_ERROR } sens_status;

/* One side of an input (or the base): what was set, and what came of it. */
typedef struct {
    sens_status status;
    char   value[64];
    double x;
    int    tries;
    bool   feasible;
    double tput, step_s, mem, host, gen, wasted, cap;
    char   mode[16];
    char   reason[300];
    char   replaced[300];
} sens_side;

typedef struct { int input, dir; } sens_run;

typedef struct {
    const cli_opts   *o;
    const sens_input *in;
    const sens_run   *runs;
    double            step;
} sens_ctx;

static void first_line(char *dst, size_t n, const char *msg)
{
    snprintf(dst, n, "%s", msg);
    char *nl = strchr(dst, '\n');       /* the message, not a traceback */
    if (nl) *nl = 0;
}

/* Run the scenario with the user's options and one more --set (none for
** the base).  False when the scenario or the plan is refused (err). */
static bool run_one(const cli_opts *o, const char *set, sens_side *s, fs_err *err)
{
    const char *sets[CLI_SETS_MAX + 1];
    int n = 0;
    for (int i = 0; i < o->nsets; i++) sets[n++] = o->sets[i];
    if (set) sets[n++] = set;
    runner_spec spec = {.path = o->scenario, .sets = sets, .nsets = n, .policy = o->policy, .headless = true};
    runner *run = runner_open(&spec, err);
    if (!run) return false;
    snprintf(s->replaced, sizeof s->replaced, "%s", runner_overrides(run));
    report rep;
    bool ok = runner_close(run, &rep, err);
    runner_free(run);
    if (!ok) {
        s->status = SS_ERROR;
        first_line(s->reason, sizeof s->reason, err->msg);
        return true;
    }
    s->status = SS_OK;
    s->feasible = rep.feasible;
    s->tput = rep.throughput;
    s->step_s = rep.step_time_s;
    s->mem = rep.mem_peak_total;
    s->host = rep.host_peak;
    s->gen = rep.tokens_generated;
    s->wasted = rep.tokens_wasted;
    s->cap = rep.mem_capacity;
    snprintf(s->mode, sizeof s->mode, "%s", rep.mode);
    if (!rep.feasible) first_line(s->reason, sizeof s->reason, rep.why);
    return true;
}

/* A side as a row of the pool's table, and back: the workers' rows travel
** as JSON text, numbers in round-trip form, so the parent sees the very
** doubles the worker computed. */
static const char *const SIDE_COLS[] = {"id", "status", "value", "x", "tries", "feasible", "throughput", "step_time_s",
                                        "mem_peak", "host_peak", "tokens_generated", "tokens_wasted", "reason",
                                        "replaced", NULL};

static void side_to_row(const rtable *t, rt_row *r, int id, const sens_side *s)
{
    rt_row_set_int(r, rtable_col(t, "id"), id);
    rt_row_set_int(r, rtable_col(t, "status"), s->status);
    rt_row_set_str(r, rtable_col(t, "value"), s->value);
    rt_row_set_num(r, rtable_col(t, "x"), s->x);
    rt_row_set_int(r, rtable_col(t, "tries"), s->tries);
    rt_row_set_bool(r, rtable_col(t, "feasible"), s->feasible);
    rt_row_set_num(r, rtable_col(t, "throughput"), s->tput);
    rt_row_set_num(r, rtable_col(t, "step_time_s"), s->step_s);
    rt_row_set_num(r, rtable_col(t, "mem_peak"), s->mem);
    rt_row_set_num(r, rtable_col(t, "host_peak"), s->host);
    rt_row_set_num(r, rtable_col(t, "tokens_generated"), s->gen);
    rt_row_set_num(r, rtable_col(t, "tokens_wasted"), s->wasted);
    rt_row_set_str(r, rtable_col(t, "reason"), s->reason);
    rt_row_set_str(r, rtable_col(t, "replaced"), s->replaced);
}

static void side_from_row(const rtable *t, const rt_row *r, sens_side *s)
{
    memset(s, 0, sizeof *s);
    s->status = (sens_status)(int)rt_row_num(r, rtable_col(t, "status"));
    snprintf(s->value, sizeof s->value, "%s", rt_row_text(r, rtable_col(t, "value")));
    s->x = rt_row_num(r, rtable_col(t, "x"));
    s->tries = (int)rt_row_num(r, rtable_col(t, "tries"));
    s->feasible = rt_row_true(r, rtable_col(t, "feasible"));
    s->tput = rt_row_num(r, rtable_col(t, "throughput"));
    s->step_s = rt_row_num(r, rtable_col(t, "step_time_s"));
    s->mem = rt_row_num(r, rtable_col(t, "mem_peak"));
    s->host = rt_row_num(r, rtable_col(t, "host_peak"));
    s->gen = rt_row_num(r, rtable_col(t, "tokens_generated"));
    s->wasted = rt_row_num(r, rtable_col(t, "tokens_wasted"));
    snprintf(s->reason, sizeof s->reason, "%s", rt_row_text(r, rtable_col(t, "reason")));
    snprintf(s->replaced, sizeof s->replaced, "%s", rt_row_text(r, rtable_col(t, "replaced")));
}

/* One variant on a worker: an integer refused at its first value (a layout
** the model does not divide) goes on to the next, up to SENS_TRIES. */
static bool sens_one(void *ud, rtable *t, int item, fs_err *unused)
{
    (void)unused;
    const sens_ctx *c = ud;
    const sens_run *ru = &c->runs[item];
    const sens_input *in = &c->in[ru->input];
    sens_side s;
    memset(&s, 0, sizeof s);
    s.status = SS_INVALID;
    int tries = in->kind == SI_INT ? SENS_TRIES : 1;
    for (int k = 0; k < tries; k++) {
        char text[64], set[192];
        double x;
        if (!side_value(in, c->step, ru->dir, k, text, sizeof text, &x)) break;
        snprintf(set, sizeof set, "%s=%s", in->path, text);
        fs_err err = {0, ""};
        sens_side got;
        memset(&got, 0, sizeof got);
        if (!run_one(c->o, set, &got, &err)) {
            if (k == 0) {
                snprintf(s.value, sizeof s.value, "%s", text);
                s.x = x;
                first_line(s.reason, sizeof s.reason, err.msg);
            }
            s.tries = k + 1;
            continue;
        }
        s = got;
        snprintf(s.value, sizeof s.value, "%s", text);
        s.x = x;
        s.tries = k + 1;
        break;
    }
    side_to_row(t, rtable_new_row(t, item), item, &s);
    return true;
}

/* ======================================================= the ranked rows */

typedef struct {
    int       input;
    sens_side side[2];          /* down, up */
    double    dtp[2];           /* throughput change, %, or NaN */
    double    dmem[2];          /* peak memory change, bytes, or NaN */
    bool      flip[2];          /* feasibility differs from the base's */
    double    elast;
    double    key, keymem;      /* the ranking's */
    const char *effect;
    char      note[700];
} sens_out;

static bool same_as_base(const sens_side *s, const sens_side *b)
{
    return s->feasible == b->feasible && s->tput == b->tput && s->step_s == b->step_s && s->mem == b->mem &&
           s->host == b->host && s->gen == b->gen && s->wasted == b->wasted;
}

/* Append "; " and a formatted part to a note (cut at n). */
static void note_add(char *note, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_add(char *note, size_t n, const char *fmt, ...)
{
    size_t len = strlen(note);
    if (len + 3 >= n) return;
    if (len) { snprintf(note + len, n - len, "; "); len += 2; }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + len, n - len, fmt, ap);
    va_end(ap);
}

static void finish_out(sens_out *r, const sens_input *in, const sens_side *base)
{
    static const char *const SIDE[2] = {"down", "up"};
    bool any_ok = false, all_same = true, any_invalid = false, any_error = false, any_flip = false, tp_moved = false,
         mem_moved = false;
    r->key = r->keymem = 0;
    r->note[0] = 0;
    for (int d = 0; d < 2; d++) {
        const sens_side *s = &r->side[d];
        r->dtp[d] = r->dmem[d] = NAN;
        r->flip[d] = false;
        if (s->status == SS_INVALID) {
            any_invalid = true;
            note_add(r->note, sizeof r->note, "%s refused: %s", SIDE[d], s->reason);
            continue;
        }
        if (s->status == SS_ERROR) {
            any_error = true;
            note_add(r->note, sizeof r->note, "%s failed: %s", SIDE[d], s->reason);
            continue;
        }
        if (s->status != SS_OK) continue;
        any_ok = true;
        if (!same_as_base(s, base)) all_same = false;
        r->flip[d] = s->feasible != base->feasible;
        if (r->flip[d]) {
            any_flip = true;
            r->key = 100;
            if (!s->feasible) note_add(r->note, sizeof r->note, "%s infeasible: %s", SIDE[d], s->reason);
            else note_add(r->note, sizeof r->note, "%s makes the plan feasible", SIDE[d]);
        }
        if (base->feasible && s->feasible && base->tput > 0) {
            r->dtp[d] = (s->tput / base->tput - 1) * 100;
            if (fabs(r->dtp[d]) > r->key) r->key = fabs(r->dtp[d]);
            if (s->tput != base->tput) tp_moved = true;
        }
        r->dmem[d] = s->mem - base->mem;
        if (s->mem != base->mem) mem_moved = true;
        if (fabs(r->dmem[d]) > r->keymem) r->keymem = fabs(r->dmem[d]);
        if (s->tries > 1) note_add(r->note, sizeof r->note, "%s: the next valid value (%d refused)", SIDE[d], s->tries - 1);
        if (s->replaced[0]) note_add(r->note, sizeof r->note, "%s: the policy's place() replaced %s", SIDE[d], s->replaced);
    }
    bool have[2];
    for (int d = 0; d < 2; d++) have[d] = r->side[d].status == SS_OK && r->side[d].feasible && base->feasible;
    r->elast = (in->kind == SI_NUM || in->kind == SI_INT)
                   ? sens_elasticity(in->base, base->tput, have[0], r->side[0].x, r->side[0].tput, have[1],
                                     r->side[1].x, r->side[1].tput)
                   : NAN;
    if (!any_ok) r->effect = any_invalid ? "invalid" : any_error ? "error" : "not moved";
    else if (any_flip) r->effect = "feasibility";
    else if (all_same) r->effect = "none";
    else if (tp_moved) r->effect = "throughput";
    else if (mem_moved) r->effect = "memory";
    else r->effect = "other";
    if (any_ok && all_same) note_add(r->note, sizeof r->note, "no effect");
    if (!any_ok && !any_invalid && !any_error) note_add(r->note, sizeof r->note, "at the end of its range");
}

static int cmp_out(const void *pa, const void *pb)
{
    const sens_out *a = pa, *b = pb;
    if (a->key != b->key) return a->key > b->key ? -1 : 1;
    if (a->keymem != b->keymem) return a->keymem > b->keymem ? -1 : 1;
    return a->input - b->input;
}

/* ============================================================== output */

static const char *step_text(const sens_input *in, double step, char *buf, size_t n)
{
    switch (in->kind) {
    case SI_NUM:
        if (in->base != 0) snprintf(buf, n, "%g%%", step * 100);
        else snprintf(buf, n, "%g", step * fmin(1.0, in->f->hi - in->f->lo));
        break;
    case SI_INT: snprintf(buf, n, "%.0f", fmax(1.0, round(step * fabs(in->base)))); break;
    case SI_ENUM: snprintf(buf, n, "next"); break;
    case SI_BOOL: snprintf(buf, n, "flip"); break;
    }
    return buf;
}

static const char *dtp_cell(const sens_out *r, int d, const sens_side *base, char *buf, size_t n)
{
    const sens_side *s = &r->side[d];
    if (s->status == SS_NONE) return "-";
    if (s->status == SS_INVALID) return "invalid";
    if (s->status == SS_ERROR) return "error";
    if (r->flip[d]) return s->feasible ? "feasible" : "infeas.";
    if (!base->feasible) return "-";
    if (s->tput == base->tput) return "0";
    /* a change too small for two decimals still shows that it is one */
    snprintf(buf, n, fabs(r->dtp[d]) >= 0.1 ? "%+.2f%%" : "%+.2g%%", r->dtp[d]);
    return buf;
}

static const char *dmem_cell(const sens_out *r, int d, char *buf, size_t n)
{
    if (r->side[d].status != SS_OK) return "-";
    if (r->dmem[d] == 0) return "0";
    snprintf(buf, n, fabs(r->dmem[d]) >= 0.01 * GiB ? "%+.2f" : "%+.2g", r->dmem[d] / GiB);
    return buf;
}

/* s centred in w columns (w < 32), as a group's heading */
static const char *centre(char buf[32], int w, const char *s)
{
    int n = (int)strlen(s), left = (w - n) / 2;
    snprintf(buf, 32, "%*s%s%*s", left, "", s, w - n - left, "");
    return buf;
}

/* End a table line without the blanks an empty last column leaves. */
static void line_end(fs_buf *b)
{
    while (b->len && b->s[b->len - 1] == ' ') b->len--;
    buf_putc(b, '\n');
}

static void print_table(fs_buf *b, const cli_opts *o, const scn_scenario *sc, const sens_side *base,
                        const sens_input *in, const sens_out *out, int nout, double step, int nruns)
{
    char t1[32], t2[32];
    fmt_bytes(t1, sizeof t1, base->mem);
    fmt_bytes(t2, sizeof t2, base->cap);
    buf_printf(b, "Sensitivity of %s (%s): %d iteration%s (%d warm-up), seed %llu, step %g%% (integers: at least 1)\n",
               sc->name, o->scenario, sc->work.iterations, fs_s(sc->work.iterations), sc->work.warmup,
               (unsigned long long)sc->work.seed, step * 100);
    if (base->feasible)
        buf_printf(b, "Base: %.1f tokens/s, step %.3f s, peak memory %s of %s per device, mode %s\n", base->tput,
                   base->step_s, t1, t2, base->mode);
    else
        buf_printf(b, "Base: infeasible (%s); the throughput columns name the variants that make it feasible\n",
                   base->reason);
    int flips = 0, none = 0, refused = 0;
    for (int i = 0; i < nout; i++) {
        if (!strcmp(out[i].effect, "feasibility")) flips++;
        if (!strcmp(out[i].effect, "none")) none++;
        for (int d = 0; d < 2; d++) if (out[i].side[d].status == SS_INVALID) { refused++; break; }
    }
    buf_printf(b, "%d run%s, %d input%s: %d with a variant that makes the plan %s, %d with no effect, %d with a value "
               "the scenario refuses\n\n", nruns, fs_s(nruns), nout, fs_s(nout), flips,
               base->feasible ? "infeasible" : "feasible", none, refused);
    char g1[32], g2[32], g3[32];
    buf_printf(b, "%4s  %-40s %10s %5s  %s  %s  %s", "", "", "", "", centre(g1, 21, "value"),
               centre(g2, 21, "throughput"), centre(g3, 17, "peak GiB"));
    line_end(b);
    buf_printf(b, "%4s  %-40s %10s %5s  %10s %10s  %10s %10s  %8s %8s  %8s  %s", "#", "input", "base", "step", "down",
               "up", "down", "up", "down", "up", "elast.", "note");
    line_end(b);
    for (int i = 0; i < nout; i++) {
        const sens_out *r = &out[i];
        const sens_input *x = &in[r->input];
        char st[24], c0[24], c1[24], c2[24], c3[24], el[24];
        const char *v0 = r->side[0].status == SS_NONE ? "-" : r->side[0].value;
        const char *v1 = r->side[1].status == SS_NONE ? "-" : r->side[1].value;
        if (!isfinite(r->elast)) snprintf(el, sizeof el, "-");
        else if (r->elast == 0) snprintf(el, sizeof el, "0");
        else snprintf(el, sizeof el, fabs(r->elast) >= 0.1 ? "%.2f" : "%.2g", r->elast);
        buf_printf(b, "%4d  %-40s %10s %5s  %10s %10s  %10s %10s  %8s %8s  %8s  %s", i + 1, x->path, x->base_text,
                   step_text(x, step, st, sizeof st), v0, v1, dtp_cell(r, 0, base, c0, sizeof c0),
                   dtp_cell(r, 1, base, c1, sizeof c1), dmem_cell(r, 0, c2, sizeof c2), dmem_cell(r, 1, c3, sizeof c3),
                   el, r->note);
        line_end(b);
    }
}

static const char *const OUT_COLS[] = {
    "rank", "input", "kind", "unit", "base", "step", "value_down", "value_up", "throughput_down", "throughput_up",
    "dthroughput_down_pct", "dthroughput_up_pct", "peak_mem_down_bytes", "peak_mem_up_bytes", "dpeak_mem_down_bytes",
    "dpeak_mem_up_bytes", "feasible_down", "feasible_up", "elasticity", "effect", "note", NULL
};

static const char *kind_name(sens_kind k)
{
    return k == SI_NUM ? "number" : k == SI_INT ? "integer" : k == SI_ENUM ? "enum" : "boolean";
}

/* One output row as the cells of a table (CSV; the JSON's "inputs" are the
** same cells). */
static void out_row(rtable *t, int rank, const sens_out *r, const sens_input *in, double step)
{
    rt_row *w = rtable_new_row(t, rank - 1);
    char st[24];
    int c = 0;
    rt_row_set_int(w, c++, rank);
    rt_row_set_str(w, c++, in->path);
    rt_row_set_str(w, c++, kind_name(in->kind));
    rt_row_set_str(w, c++, in->f->unit ? in->f->unit : "");
    rt_row_set_value(w, c++, in->base_text);
    rt_row_set_value(w, c++, step_text(in, step, st, sizeof st));
    for (int d = 0; d < 2; d++, c++) if (r->side[d].status != SS_NONE) rt_row_set_value(w, c, r->side[d].value);
    for (int d = 0; d < 2; d++, c++) if (r->side[d].status == SS_OK) rt_row_set_num(w, c, r->side[d].tput);
    for (int d = 0; d < 2; d++, c++) if (isfinite(r->dtp[d])) rt_row_set_num(w, c, round(r->dtp[d] * 1e6) / 1e6);
    for (int d = 0; d < 2; d++, c++) if (r->side[d].status == SS_OK) rt_row_set_num(w, c, r->side[d].mem);
    for (int d = 0; d < 2; d++, c++) if (isfinite(r->dmem[d])) rt_row_set_num(w, c, r->dmem[d]);
    for (int d = 0; d < 2; d++, c++) if (r->side[d].status == SS_OK) rt_row_set_bool(w, c, r->side[d].feasible);
    if (isfinite(r->elast)) rt_row_set_num(w, c, round(r->elast * 1e6) / 1e6);
    c++;
    rt_row_set_str(w, c++, r->effect);
    rt_row_set_str(w, c++, r->note);
}

static void write_json(fs_buf *b, const cli_opts *o, const scn_scenario *sc, const sens_side *base, const rtable *t,
                       double step, int nruns)
{
    fs_json j;
    json_init(&j, b, true);
    json_obj_begin(&j, NULL);
    json_str(&j, "command", "sensitivity");
    json_str(&j, "fusync_version", FUSYNC_VERSION_STR);
    json_str(&j, "scenario", sc->name);
    json_str(&j, "file", o->scenario);
    json_arr_begin(&j, "sets");
    for (int i = 0; i < o->nsets; i++) json_str(&j, NULL, o->sets[i]);
    json_arr_end(&j);
    json_num(&j, "step", step);
    json_int(&j, "iterations", sc->work.iterations);
    json_int(&j, "warmup", sc->work.warmup);
    json_int(&j, "seed", (int64_t)sc->work.seed);
    json_int(&j, "runs", nruns);
    json_obj_begin(&j, "base");
    json_bool(&j, "feasible", base->feasible);
    if (!base->feasible) json_str(&j, "reason", base->reason);
    json_str(&j, "mode", base->mode);
    json_num(&j, "throughput_tokens_per_s", base->tput);
    json_num(&j, "step_time_s", base->step_s);
    json_num(&j, "peak_memory_bytes", base->mem);
    json_num(&j, "memory_capacity_bytes", base->cap);
    json_obj_end(&j);
    json_arr_begin(&j, "inputs");
    for (int i = 0; i < t->nrows; i++) {
        const rt_row *r = &t->rows[i];
        json_obj_begin(&j, NULL);
        for (int c = 0; c < t->ncols; c++) {
            const rt_cell *x = &r->c[c];
            const char *k = t->cols[c];
            if (x->k == RT_CELL_NONE) json_null(&j, k);
            else if (x->k == RT_CELL_STR) json_str(&j, k, x->text);
            else if (x->k == RT_CELL_BOOL) json_bool(&j, k, !strcmp(x->text, "true"));
            else json_num(&j, k, strtod(x->text, NULL));
        }
        json_obj_end(&j);
    }
    json_arr_end(&j);
    /* what made it, as every JSON fusync writes carries it (docs/cli.md) */
    report_scenario_json(sc, &j, "scenario_fields");
    json_obj_end(&j);
    buf_putc(b, '\n');
}

/* ============================================================= command */

int cmd_sensitivity(cli_opts *o)
{
    if (!o->scenario) {
        fprintf(stderr, "fusync: sensitivity: usage: fusync sensitivity SCENARIO [--set PATH=VALUE]... [--step FRACTION] "
                "[--csv FILE|-] [--json FILE|-] [--jobs N]\nTry 'fusync help sensitivity' for more information.\n");
        return 2;
    }
    if (o->shard_n) {
        fprintf(stderr, "fusync: sensitivity: --shard applies to sweep and plan; use --jobs N\n"
                "Try 'fusync help sensitivity' for more information.\n");
        return 2;
    }
    double step = SENS_STEP_DEFAULT;
    if (o->step) {
        char *end;
        step = strtod(o->step, &end);
        if (end == o->step || *end || !(step > 0 && step < 1)) {
            fprintf(stderr, "fusync: --step: '%s' is not a fraction between 0 and 1 (0.1 moves each input by 10%%)\n"
                    "Try 'fusync help sensitivity' for more information.\n", o->step);
            return 2;
        }
    }
    fs_err err = {0, ""};
    sens_side base;
    memset(&base, 0, sizeof base);
    if (!run_one(o, NULL, &base, &err)) return cli_fail(&err);
    if (base.status == SS_ERROR) return cli_fail(&err);

    /* the inputs, read from the scenario as it was run (place() applied) */
    scn_scenario *sc = xmalloc(sizeof *sc);
    if (!cli_load_scenario(o, true, sc, &err)) { free(sc); return cli_fail(&err); }
    sens_list L = {NULL, 0, 0};
    collect(&L, FIELDS_TOP, "", sc);
    sens_run *runs = xmalloc((size_t)(2 * L.n + 1) * sizeof *runs);
    int nruns = 0;
    for (int i = 0; i < L.n; i++)
        for (int d = -1; d <= 1; d += 2) {
            char text[64];
            double x;
            if (side_value(&L.v[i], step, d, 0, text, sizeof text, &x)) runs[nruns++] = (sens_run){i, d};
        }
    if (!o->quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "fusync: sensitivity: %d runs (the base and %d variants of %d inputs)%s\n", nruns + 1, nruns,
                L.n, o->jobs > 1 ? "" : "; --jobs N runs them in parallel");

    rtable t;
    rtable_init(&t, "sweep");
    for (int i = 0; SIDE_COLS[i]; i++) rtable_add_col(&t, SIDE_COLS[i]);
    sens_ctx c = {o, L.v, runs, step};
    workers_signals(true);
    if (o->jobs > 1) sim_draw_ahead = 0;    /* the workers fill the cores */
    int rc = 0;
    if (!workers_run(&t, nruns, o->jobs, sens_one, &c, o->quiet ? NULL : "sensitivity", &err)) rc = cli_fail(&err);
    workers_signals(false);

    sens_out *out = xcalloc((size_t)(L.n ? L.n : 1), sizeof *out);
    for (int i = 0; i < L.n; i++) out[i].input = i;
    for (int k = 0; !rc && k < t.nrows; k++) {
        int id = t.rows[k].id;
        sens_side s;
        side_from_row(&t, &t.rows[k], &s);
        out[runs[id].input].side[runs[id].dir > 0] = s;
    }
    rtable_free(&t);
    if (!rc) {
        for (int i = 0; i < L.n; i++) finish_out(&out[i], &L.v[out[i].input], &base);
        qsort(out, (size_t)L.n, sizeof *out, cmp_out);

        rtable ot;
        rtable_init(&ot, "sweep");
        rtable_set_scenario(&ot, sc);      /* the CSV's opening lines */
        for (int i = 0; OUT_COLS[i]; i++) rtable_add_col(&ot, OUT_COLS[i]);
        for (int i = 0; i < L.n; i++) out_row(&ot, i + 1, &out[i], &L.v[out[i].input], step);
        bool csv_out = o->csv_path && !strcmp(o->csv_path, "-"), json_out = o->json_path && !strcmp(o->json_path, "-");
        if (o->csv_path) {
            fs_buf b;
            buf_init(&b);
            rtable_csv(&ot, &b);
            if (!write_file_atomic(o->csv_path, b.s, b.len, &err)) rc = cli_fail(&err);
            buf_free(&b);
        }
        if (o->json_path) {
            fs_buf b;
            buf_init(&b);
            write_json(&b, o, sc, &base, &ot, step, nruns + 1);
            if (!write_file_atomic(o->json_path, b.s, b.len, &err)) rc = cli_fail(&err);
            buf_free(&b);
        }
        if (!o->quiet && !csv_out && !json_out) {
            fs_buf b;
            buf_init(&b);
            print_table(&b, o, sc, &base, L.v, out, L.n, step, nruns + 1);
            if (isatty(STDOUT_FILENO)) {
                /* names come from the scenario: terminal-safe */
                fs_buf tb;
                buf_init(&tb);
                buf_put_term(&tb, b.s);
                fputs(tb.s ? tb.s : "", stdout);
                buf_free(&tb);
            } else fputs(b.s ? b.s : "", stdout);
            buf_free(&b);
            if (fflush(stdout) != 0 && !rc) { fprintf(stderr, "fusync: writing the table to stdout failed\n"); rc = 2; }
        }
        if (!rc && !base.feasible) rc = 1;
        rtable_free(&ot);
    }
    free(out);
    free(runs);
    free(L.v);
    free(sc);
    return rc;
}
