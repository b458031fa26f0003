/*
** cli_sweep.c — `fusync sweep` (what-if sweeps) and `fusync merge` (join
** the shards of a sweep or a plan).  Tables: rtable.h; workers: workers.h;
** shard files: shard.h; one variant is one run: runner.h.
**
** Determinism: rows come out in variant order whatever --jobs is, cells
** carry no wall-clock figures, and a table read back from its JSON prints
** the same bytes, so merging shards gives exactly the unsharded output;
** the one exception is a calibrated scenario's drawn intervals, which only
** an unsharded sweep computes (sweep_draw_intervals).
*/
#include "cli.h"
#include "engine.h"
#include "fields.h"
#include "lua_scenario.h"
#include "planner.h"
#include "plugin.h"
#include "rtable.h"
#include "runner.h"
#include "shard.h"
#include "uncert.h"
#include "workers.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Variants a calibrated sweep re-simulates for the calibration's interval
** besides the base (sweep_draw_intervals). */
#define SWEEP_DRAWN 3

typedef struct {
    const cli_opts *o;
    const whatif_list *w;
    const int *ids;         /* item -> variant id */
    int npaths;
    char **paths;           /* varied columns */
} sweep_ctx;

/* The interval columns of row r from a report's interval (none: left empty). */
static void sweep_set_interval(const rtable *t, rt_row *r, const report *rep)
{
    if (!rep->interval_source[0]) return;
    rt_row_set_str(r, rtable_col(t, "interval_source"), rep->interval_source);
    rt_row_set_num(r, rtable_col(t, "interval_tput_lo"), rep->tput_lo);
    rt_row_set_num(r, rtable_col(t, "interval_tput_hi"), rep->tput_hi);
    rt_row_set_num(r, rtable_col(t, "interval_step_lo"), rep->step_lo);
    rt_row_set_num(r, rtable_col(t, "interval_step_hi"), rep->step_hi);
}

/* The variant's scenario as sweep_one runs it: the user's --set, then the
** variant's, then its policy's place(). */
static bool sweep_load(const cli_opts *base_o, const whatif_variant *v, scn_scenario *out, fs_err *err)
{
    cli_opts o = *base_o;
    for (int k = 0; k < v->nsets && o.nsets < CLI_SETS_MAX; k++) o.sets[o.nsets++] = v->sets[k];
    runner_spec spec = {.path = o.scenario, .sets = o.sets, .nsets = o.nsets, .policy = o.policy, .headless = true};
    return runner_load(&spec, out, NULL, 0, err);
}

/* A calibrated sweep: the calibration's interval (UNC_DRAWS simulated knob
** vectors each, src/uncert.c) on the SWEEP_DRAWN fastest feasible variants
** and on every variant that sets nothing (the base scenario itself), the
** rows a reader compares; the rest keep the validation spread.  Bounded so
** that a sweep of any size costs at most 16 x (SWEEP_DRAWN + 1) extra runs,
** the planner's rule (its top three and the baseline).  The draws of each
** row run on the --jobs workers.  A shard cannot tell which rows are the
** fastest of the whole sweep, so shards keep the validation spread and
** merge into the same bytes. */
static bool sweep_draw_intervals(const cli_opts *o, const whatif_list *w, rtable *t, fs_err *err)
{
    int fc = rtable_col(t, "feasible"), tc = rtable_col(t, "throughput_tokens_per_s"), sc = rtable_col(t, "step_time_s");
    int pick[SWEEP_DRAWN];
    int np = 0;
    for (int i = 0; i < t->nrows; i++) {
        const rt_row *r = &t->rows[i];
        double x = rt_row_num(r, tc);
        if (!rt_row_true(r, fc) || !isfinite(x)) continue;
        /* insertion into the fastest SWEEP_DRAWN, ties to the earlier variant */
        int at = np;
        while (at > 0 && rt_row_num(&t->rows[pick[at - 1]], tc) < x) at--;
        if (at >= SWEEP_DRAWN) continue;
        for (int k = (np < SWEEP_DRAWN ? np : SWEEP_DRAWN - 1); k > at; k--) pick[k] = pick[k - 1];
        pick[at] = i;
        if (np < SWEEP_DRAWN) np++;
    }
    scn_scenario *s = xmalloc(sizeof *s);
    bool ok = true;
    for (int i = 0; i < t->nrows && ok; i++) {
        rt_row *r = &t->rows[i];
        bool take = w->v[r->id].nsets == 0;
        for (int k = 0; k < np; k++) take |= pick[k] == i;
        if (!take || !rt_row_true(r, fc)) continue;
        fs_err e = {0, ""};
        if (!sweep_load(o, &w->v[r->id], s, &e) || !scn_has_calibration(s)) continue;
        report x;
        memset(&x, 0, sizeof x);
        x.throughput = rt_row_num(r, tc);
        x.step_time_s = rt_row_num(r, sc);
        if (!(ok = unc_interval_jobs(s, UNC_DRAWS, o->jobs, &x, err))) break;
        sweep_set_interval(t, r, &x);
    }
    free(s);
    return ok;
}

/* Run one variant: the base scenario with its overrides after the user's
** own --set options, loaded and validated exactly like `fusync run`. */
static bool sweep_one(void *ud, rtable *t, int item, fs_err *unused)
{
    (void)unused;
    sweep_ctx *c = ud;
    int id = c->ids[item];
    const whatif_variant *v = &c->w->v[id];
    rt_row *r = rtable_new_row(t, id);
    rt_row_set_int(r, rtable_col(t, "id"), id);
    rt_row_set_str(r, rtable_col(t, "name"), v->name);
    for (int k = 0; k < v->nsets; k++) {
        const char *eq = strchr(v->sets[k], '=');
        char path[256];
        snprintf(path, sizeof path, "%.*s", (int)(eq - v->sets[k]), v->sets[k]);
        rt_row_set_value(r, rtable_col(t, path), eq + 1);
    }
    cli_opts o = *c->o;
    fs_err err = {0, ""};
    for (int k = 0; k < v->nsets && o.nsets < CLI_SETS_MAX; k++) o.sets[o.nsets++] = v->sets[k];
    if (o.nsets - c->o->nsets < v->nsets) fs_err_set(&err, 2, "too many --set overrides with this variant");
    runner *run = NULL;
    report rep;
    runner_spec spec = {.path = o.scenario, .sets = o.sets, .nsets = o.nsets, .policy = o.policy, .headless = true};
    if (!err.code && (run = runner_open(&spec, &err)) != NULL) {
        /* a swept value the policy's place() replaced is said, not hidden */
        int oc = rtable_col(t, "policy_replaced");
        if (oc >= 0) rt_row_set_str(r, oc, runner_overrides(run));
        if (runner_close(run, &rep, &err)) {
            rt_metrics_fill(t, r, &rep);
            /* every feasible row its interval: the validation table's
            ** spread here; sweep_draw_intervals replaces it with the
            ** calibration's on the rows it re-simulates */
            if (rep.feasible) {
                unc_from_validation(&rep);
                sweep_set_interval(t, r, &rep);
            }
        }
    }
    runner_free(run);
    if (err.code) {
        rt_row_set_bool(r, rtable_col(t, "feasible"), false);
        char *nl = strchr(err.msg, '\n');     /* the message, not the traceback */
        if (nl) *nl = 0;
        rt_row_set_str(r, rtable_col(t, "reason"), err.msg);
    }
    return true;
}

/* A variant's name for people: its own, else what it sets
** ("plan.staleness=2 plan.partial_rollout=0.6"). */
static void variant_label(const whatif_variant *v, char *out, size_t n)
{
    if (v->name[0]) { snprintf(out, n, "%s", v->name); return; }
    size_t len = 0;
    out[0] = 0;
    for (int k = 0; k < v->nsets && len < n; k++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", k ? " " : "", v->sets[k]);
    if (!v->nsets) snprintf(out, n, "(the base scenario)");
}

/* The sweep for a terminal: one line a variant, named by what it sets,
** the headline figures readable (1.2k tokens/s, 2.0 min), and a note where
** a variant changes nothing: its fields are the base's already (a no-op),
** or its figures are those of an earlier variant (no effect here).  The
** CSV (--csv, or stdout that is not a terminal) keeps every column. */
static void sweep_print_table(const cli_opts *o, const scn_scenario *base, const whatif_list *w, const rtable *t, FILE *f)
{
    int c_feas = rtable_col(t, "feasible"), c_why = rtable_col(t, "reason"), c_tp = rtable_col(t, "throughput_tokens_per_s");
    int c_st = rtable_col(t, "step_time_s"), c_smax = rtable_col(t, "staleness_max");
    int c_smean = rtable_col(t, "staleness_mean"), c_waste = rtable_col(t, "wasted_tokens");
    int lw = 7;
    char lab[512];
    for (int i = 0; i < t->nrows; i++) {
        variant_label(&w->v[t->rows[i].id], lab, sizeof lab);
        int l = (int)strlen(lab);
        if (l > lw) lw = l;
    }
    if (lw > 60) lw = 60;
    int c_isrc = rtable_col(t, "interval_source"), c_ilo = rtable_col(t, "interval_tput_lo"), c_ihi = rtable_col(t, "interval_tput_hi");
    bool drawn = false;
    fprintf(f, "%4s  %-*s  %12s  %10s  %9s  %8s  %-15s  %s\n", "id", lw, "variant", "tokens/s", "step", "staleness", "wasted",
            "interval", "note");
    scn_scenario *vs = xmalloc(sizeof *vs);
    for (int i = 0; i < t->nrows; i++) {
        const rt_row *r = &t->rows[i];
        const whatif_variant *v = &w->v[r->id];
        variant_label(v, lab, sizeof lab);
        char tp[32] = "-", st[32] = "-", sl[32] = "-", wa[32] = "-", iv[48] = "-", note[600] = "";
        bool feas = !strcmp(rt_row_text(r, c_feas), "true");
        if (feas) {
            fmt_si(tp, sizeof tp, rt_row_num(r, c_tp));
            fmt_secs(st, sizeof st, rt_row_num(r, c_st));
            snprintf(sl, sizeof sl, "%.0f/%.2f", rt_row_num(r, c_smax), rt_row_num(r, c_smean));
            fmt_si(wa, sizeof wa, rt_row_num(r, c_waste));
            double lo = rt_row_num(r, c_ilo), hi = rt_row_num(r, c_ihi);
            if (isfinite(lo) && isfinite(hi)) {
                char a[20], b[20];
                fmt_si(a, sizeof a, lo);
                fmt_si(b, sizeof b, hi);
                bool cal = !strcmp(rt_row_text(r, c_isrc), "calibration");
                drawn |= cal;
                snprintf(iv, sizeof iv, "%s-%s%s", a, b, cal ? " c" : "");
            }
        } else snprintf(note, sizeof note, "infeasible: %s", rt_row_text(r, c_why));
        /* the base's fields already: the variant is the base itself */
        cli_opts vo = *o;
        for (int k = 0; k < v->nsets && vo.nsets < CLI_SETS_MAX; k++) vo.sets[vo.nsets++] = v->sets[k];
        fs_err e = {0, ""};
        char where[128];
        if (!note[0] && v->nsets > 0 && cli_load_scenario(&vo, true, vs, &e) && fields_equal(vs, base, where, sizeof where))
            snprintf(note, sizeof note, "no-op: the base scenario has these values already");
        /* the same figures as an earlier variant: what it changes has no effect here */
        for (int j = 0; j < i && !note[0] && feas; j++) {
            bool same = true;
            /* the figures, not the intervals (the last columns: a drawn
            ** row's differs from an undrawn one's with the same figures) */
            for (int c = c_feas; c < (c_isrc >= 0 ? c_isrc : t->ncols) && same; c++)
                same = !strcmp(rt_row_text(r, c), rt_row_text(&t->rows[j], c));
            if (same) snprintf(note, sizeof note, "no effect here: the same figures as variant %d", t->rows[j].id);
        }
        fprintf(f, "%4d  %-*.*s  %12s  %10s  %9s  %8s  %-15s  %s\n", r->id, lw, lw, lab, tp, st, sl, wa, iv, note);
    }
    free(vs);
    fprintf(f, "(staleness: max/mean lag; interval: of tokens/s, from the validation table's errors%s; every column with "
            "--csv FILE|- or --json FILE|-)\n", drawn ? ", c: from the calibration's simulated draws" : "");
}

/* The hash of what a run depends on: its kind, files and options. */
static void run_hash(const cli_opts *o, const char *kind, const scn_scenario *sc, char *out, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    h = rt_hash_str(h, kind);
    h = rt_hash_file(h, o->scenario);
    if (o->whatif) h = rt_hash_file(h, o->whatif);
    const char *pol = o->policy ? o->policy : sc->plan.policy;
    if (pol && *pol) h = rt_hash_file(h, pol);
    for (int i = 0; i < o->nsets; i++) h = rt_hash_str(h, o->sets[i]);
    h = rt_hash_str(h, o->objective ? o->objective : "");
    char tg[48];
    fmt_double(tg, sizeof tg, o->target);
    h = rt_hash_str(h, tg);
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
    if (!cli_load_scenario(o, true, &base, &err)) return cli_fail(&err);
    workers_signals(true);
    whatif_list w;
    if (!whatif_load(o->whatif, &base, &w, &err)) {
        lscn_wrong_kind(o->whatif, LSCN_KIND_WHATIF, &err);
        workers_signals(false);
        return cli_fail(&err);
    }

    rtable t;
    rtable_init(&t, "sweep");
    snprintf(t.scenario, sizeof t.scenario, "%s", base.name);
    rtable_set_scenario(&t, &base);
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
    if (base.plan.policy[0]) rtable_add_col(&t, "policy_replaced");
    rt_metrics_add_cols(&t);
    /* the interval of each feasible row's throughput and step time, as the
    ** plan table has it (docs/model.md, section 12, "Intervals") */
    static const char *const ic[] = {"interval_source", "interval_tput_lo", "interval_tput_hi", "interval_step_lo",
                                     "interval_step_hi", NULL};
    for (int i = 0; ic[i]; i++) rtable_add_col(&t, ic[i]);

    int *ids = xmalloc((size_t)w.nvariants * sizeof *ids);
    int n = 0;
    for (int k = 0; k < w.nvariants; k++)
        if (!o->shard_n || k % o->shard_n == o->shard_i - 1) ids[n++] = k;
    sweep_ctx c = {o, &w, ids, 0, NULL};
    int rc = 0;
    /* worker processes fill the cores: each draws its runs' lengths in its
    ** own thread (src/eng_draw.c) */
    if (o->jobs > 1) sim_draw_ahead = 0;
    if (!workers_run(&t, n, o->jobs, sweep_one, &c, o->quiet ? NULL : "sweep", &err)) rc = cli_fail(&err);
    if (!rc && !o->shard_n && scn_has_calibration(&base) && !sweep_draw_intervals(o, &w, &t, &err)) rc = cli_fail(&err);
    if (!rc) {
        rc = cli_write_table(o, &t);
        if (!rc && !o->csv_path && !o->json_path && isatty(STDOUT_FILENO)) {
            /* no output named, a terminal: a table for people; names come
            ** from the scenario and the what-if file, made terminal-safe */
            char *text = NULL;
            size_t tn = 0;
            FILE *mf = open_memstream(&text, &tn);
            if (mf) {
                sweep_print_table(o, &base, &w, &t, mf);
                fclose(mf);
                fs_buf tb;
                buf_init(&tb);
                buf_put_term(&tb, text ? text : "");
                fputs(tb.s ? tb.s : "", stdout);
                buf_free(&tb);
                free(text);
            }
        } else if (!rc && !o->csv_path && !o->json_path) {
            /* stdout a file or a pipe: the CSV, as scripts read it */
            fs_buf b;
            buf_init(&b);
            rtable_csv(&t, &b);
            fputs(b.s, stdout);
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
    workers_signals(false);
    return rc;
}

/* ================================================================ merge */

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
    for (int i = 0; i < nf && !rc; i++)
        if (!shard_load(o->files[i], &sh[i], &err)) rc = cli_fail(&err);
    if (!rc && !shard_check_set(sh, nf, o->files, &err)) rc = cli_fail(&err);
    if (!rc) {
        rtable m;
        shard_join(sh, nf, &m);
        bool is_plan = rtable_is_plan(&m);
        if (is_plan) plan_sort(&m);
        rc = cli_write_table(o, &m);
        bool to_stdout = (o->json_path && !strcmp(o->json_path, "-")) || (o->csv_path && !strcmp(o->csv_path, "-"));
        if (!rc && is_plan && !o->quiet && !to_stdout) {
            /* pool names come from shards: the ranking is shown terminal-safe, as plan's is */
            char *text = NULL;
            size_t tn = 0;
            FILE *mf = open_memstream(&text, &tn);
            if (mf) {
                plan_print(&m, o->top, mf);
                fclose(mf);
                fs_buf tb;
                buf_init(&tb);
                buf_put_term(&tb, text ? text : "");
                if (tb.s) fputs(tb.s, stdout);
                buf_free(&tb);
                free(text);
            }
        }
        else if (!rc && !o->quiet)
            fprintf(stderr, "fusync: merged %d shard%s: %d %s%s\n", nf, fs_s(nf), m.nrows, is_plan ? "candidate" : "row",
                    fs_s(m.nrows));
        rtable_free(&m);
    }
    for (int i = 0; i < nf; i++) rtable_free(&sh[i]);
    free(sh);
    return rc;
}
