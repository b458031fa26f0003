/*
** planner_table.c — the plan table's ranking and its text (planner.h):
** plan_sort and plan_print, shared by `fusync plan` and `fusync merge`.
*/
#include "planner.h"
#include "engine.h"
#include "runner.h"
#include "uncert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows closer than this share of the figure above are marked as ties. */
#define PLAN_TIE 0.01

/* ---------------------------------------------------------------- figures */

double planner_lag_value(const int64_t *hist, int top, double c)
{
    double n = 0, w = 0;
    for (int k = 0; k <= top && k <= SCN_STALENESS_MAX; k++) {
        n += (double)hist[k];
        w += (double)hist[k] / (1 + c * k);
    }
    return n > 0 ? w / n : 1;
}

/* Whether plan_print lists row r among its top rows: feasible, within the
** constraints, simulated over the whole window. */
static bool listable(const rtable *t, const rt_row *r)
{
    int fc = rtable_col(t, "feasible"), ic = rtable_col(t, "within"), wc = rtable_col(t, "simulated_iterations");
    return rt_row_true(r, fc) && (ic < 0 || rt_row_true(r, ic)) && (wc < 0 || (int)rt_row_num(r, wc) == t->iterations);
}

bool planner_intervals(planner *P, rtable *t, int top, fs_err *err)
{
    if (!P->calibrated) return true;
    int listed = 0;
    for (int i = 0; i < t->nrows; i++) {
        rt_row *r = &t->rows[i];
        bool base = !strcmp(rt_row_text(r, rtable_col(t, "mode")), "baseline");
        bool take = listable(t, r) && listed < top;
        listed += take;
        if (!take && !(base && rt_row_true(r, rtable_col(t, "feasible")))) continue;
        if (r->id < 0 || r->id >= P->nsel) continue;
        /* the row's scenario over its own window, its knobs drawn from the
        ** calibration's covariance (src/uncert.c) */
        scn_scenario s;
        planner_apply(P, &P->sel[r->id], &s);
        s.work.iterations = (int)rt_row_num(r, rtable_col(t, "simulated_iterations"));
        report x;
        memset(&x, 0, sizeof x);
        x.throughput = rt_row_num(r, rtable_col(t, "throughput_tokens_per_s"));
        x.step_time_s = rt_row_num(r, rtable_col(t, "step_time_s"));
        if (!unc_interval_jobs(&s, UNC_DRAWS, P->o.jobs, &x, err)) return false;
        if (!x.interval_source[0]) continue;
        rt_row_set_str(r, rtable_col(t, "interval_source"), x.interval_source);
        rt_row_set_num(r, rtable_col(t, "interval_tput_lo"), x.tput_lo);
        rt_row_set_num(r, rtable_col(t, "interval_tput_hi"), x.tput_hi);
        rt_row_set_num(r, rtable_col(t, "interval_step_lo"), x.step_lo);
        rt_row_set_num(r, rtable_col(t, "interval_step_hi"), x.step_hi);
    }
    return true;
}

/* ---------------------------------------------------------------- ranking */

static int rank_cmp(const rtable *t, const rt_row *a, const rt_row *b)
{
    int fc = rtable_col(t, "feasible"), mc = rtable_col(t, "meets_target"), wc = rtable_col(t, "simulated_iterations");
    int fa = rt_row_true(a, fc), fb = rt_row_true(b, fc);
    if (fa != fb) return fb - fa;
    int ic = rtable_col(t, "within");       /* older tables have no such column: all within */
    int ia = ic < 0 || rt_row_true(a, ic), ib = ic < 0 || rt_row_true(b, ic);
    if (ia != ib) return ib - ia;
    if (fa) {
        /* a longer window first: the rung a candidate reached */
        double wa = wc >= 0 ? rt_row_num(a, wc) : 0, wb = wc >= 0 ? rt_row_num(b, wc) : 0;
        if (wa == wa && wb == wb && wa != wb) return wa > wb ? -1 : 1;
        if (mc >= 0) {
            int ma = rt_row_true(a, mc), mb = rt_row_true(b, mc);
            if (ma != mb) return mb - ma;
            if (ma) {
                double da = rt_row_num(a, rtable_col(t, "devices")), db = rt_row_num(b, rtable_col(t, "devices"));
                if (da != db) return da < db ? -1 : 1;
            }
        }
        double sa = rt_row_num(a, rtable_col(t, "score")), sb = rt_row_num(b, rtable_col(t, "score"));
        if (sa != sb) return sa > sb ? -1 : 1;
    }
    return (a->id > b->id) - (a->id < b->id);
}

/* qsort has no context argument; an insertion-merge sort does. */
void plan_sort(rtable *t)
{
    int n = t->nrows;
    rt_row *tmp = xmalloc((size_t)(n ? n : 1) * sizeof *tmp);
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = rank_cmp(t, &t->rows[j], &t->rows[i]) < 0 ? t->rows[j++] : t->rows[i++];
            while (i < mid) tmp[k++] = t->rows[i++];
            while (j < hi) tmp[k++] = t->rows[j++];
        }
        memcpy(t->rows, tmp, (size_t)n * sizeof *tmp);
    }
    free(tmp);
}

static double cnum(const rtable *t, const rt_row *r, const char *col) { return rt_row_num(r, rtable_col(t, col)); }
static const char *ctext(const rtable *t, const rt_row *r, const char *col) { return rt_row_text(r, rtable_col(t, col)); }

/* A row's interval on its simulated throughput: the calibration's draws
** where planner_intervals re-simulated the row, else the validation
** table's spread (src/uncert.c).  Returns whether it is the calibration's. */
static bool row_interval(const rtable *t, const rt_row *r, double *lo, double *hi)
{
    int sc = rtable_col(t, "interval_source");
    if (sc >= 0 && !strcmp(rt_row_text(r, sc), "calibration")) {
        *lo = cnum(t, r, "interval_tput_lo");
        *hi = cnum(t, r, "interval_tput_hi");
        if (isfinite(*lo) && isfinite(*hi)) return true;
    }
    report x;
    memset(&x, 0, sizeof x);
    x.throughput = cnum(t, r, "throughput_tokens_per_s");
    x.step_time_s = cnum(t, r, "step_time_s");
    unc_from_validation(&x);
    *lo = x.interval_source[0] ? x.tput_lo : NAN;
    *hi = x.interval_source[0] ? x.tput_hi : NAN;
    return false;
}

static void print_row(const rtable *t, const rt_row *r, const char *label, FILE *f)
{
    char a[48], b2[40], st[32], tp[32], est[32], pd[32];
    /* context parallelism and expert tensor parallelism, where a plan has
    ** them, after the four: "1/4/1/1 cp4", "4/1/8/1 etp4" */
    const char *cp = ctext(t, r, "train_cp"), *et = ctext(t, r, "train_etp");
    bool has_cp = cp[0] && strcmp(cp, "1"), has_et = et[0] && strcmp(et, "1") && strcmp(et, "0");
    snprintf(a, sizeof a, "%s/%s/%s/%s%s%s%s%s", ctext(t, r, "train_tp"), ctext(t, r, "train_pp"), ctext(t, r, "train_ep"),
             ctext(t, r, "micro_batch"), has_cp ? " cp" : "", has_cp ? cp : "", has_et ? " etp" : "", has_et ? et : "");
    snprintf(b2, sizeof b2, "%s/%s/%s", ctext(t, r, "rollout_tp"), ctext(t, r, "rollout_ep"), ctext(t, r, "max_seqs"));
    fmt_si(tp, sizeof tp, cnum(t, r, "throughput_tokens_per_s"));
    fmt_si(est, sizeof est, cnum(t, r, "estimate_tokens_per_s"));
    snprintf(pd, sizeof pd, "%.1f", cnum(t, r, "throughput_tokens_per_s_per_device"));
    fmt_secs(st, sizeof st, cnum(t, r, "step_time_s"));
    char lag[24];
    double lm = cnum(t, r, "staleness_mean"), lx = cnum(t, r, "staleness_max");
    if (isfinite(lm) && isfinite(lx)) snprintf(lag, sizeof lag, "%.2f/%.0f", lm, lx);
    else snprintf(lag, sizeof lag, "-");
    fprintf(f, "  %-4s %-9s %-22.22s %5s %-14s %-13s %-2s %-4s %-8.8s %-7s %10s %9s %8s %9s", label, ctext(t, r, "mode"),
            ctext(t, r, "pools"), ctext(t, r, "devices"), a, b2, ctext(t, r, "staleness"), ctext(t, r, "partial_rollout"),
            ctext(t, r, "dispatch"), lag, tp, est, pd, st);
    if (rtable_col(t, "time_to_steps_s") >= 0) {
        char tn[32], dh[32], cr[32];
        fmt_secs(tn, sizeof tn, cnum(t, r, "time_to_steps_s"));
        snprintf(dh, sizeof dh, "%.4g", cnum(t, r, "device_hours_per_run"));
        double c = cnum(t, r, "cost_per_run");
        if (c > 0) snprintf(cr, sizeof cr, "%.2f", c);
        else snprintf(cr, sizeof cr, "-");
        fprintf(f, " %10s %9s %10s", tn, dh, cr);
    }
    if (rtable_col(t, "effective_tokens_per_s") >= 0) {
        char ef[32];
        fmt_si(ef, sizeof ef, cnum(t, r, "effective_tokens_per_s"));
        fprintf(f, " %9s", ef);
    }
    if (rtable_col(t, "critic_devices") >= 0) {
        /* the critic's own pool's devices; "-": on the training pool */
        double cd = cnum(t, r, "critic_devices");
        char cs[16];
        if (cd > 0) snprintf(cs, sizeof cs, "%.0f", cd);
        else snprintf(cs, sizeof cs, "-");
        fprintf(f, " %6s", cs);
    }
    if (rtable_col(t, "memory_features") >= 0) {
        const char *mf = ctext(t, r, "memory_features");
        fprintf(f, " %-30s", mf[0] ? mf : "-");
    }
    double lo, hi;
    bool cal = row_interval(t, r, &lo, &hi);
    if (isfinite(lo) && isfinite(hi) && hi > 0) {
        char l[32], h[32];
        fmt_si(l, sizeof l, lo);
        fmt_si(h, sizeof h, hi);
        fprintf(f, "  %s-%s%s", l, h, cal ? " c" : "");
    }
    fprintf(f, "\n");
}

/* Whether a listed row (feasible, within the constraints, over the whole
** window) meets the target. */
bool plan_reaches_target(const rtable *t)
{
    int fc = rtable_col(t, "feasible"), mc = rtable_col(t, "meets_target"), ic = rtable_col(t, "within");
    int wc = rtable_col(t, "simulated_iterations");
    if (mc < 0) return true;
    for (int i = 0; i < t->nrows; i++) {
        const rt_row *r = &t->rows[i];
        if (rt_row_true(r, fc) && (ic < 0 || rt_row_true(r, ic)) && rt_row_true(r, mc)
            && (wc < 0 || (int)rt_row_num(r, wc) == t->iterations))
            return true;
    }
    return false;
}

/* What a cost or time column assumes, from the table's first row (a merged
** table has the same). */
static void print_price(const rtable *t, FILE *f)
{
    if (rtable_col(t, "time_to_steps_s") < 0 || t->nrows == 0) return;
    const rt_row *r = &t->rows[0];
    double p = cnum(t, r, "price_per_device_hour"), h = cnum(t, r, "price_per_node_hour");
    fprintf(f, "  a run: %.0f steps; time to them = the mean simulated step x steps (scaled by workload.response_growth, "
            "a step taken to grow with its responses)\n", cnum(t, r, "steps"));
    char node[48] = "";
    if (h > 0) snprintf(node, sizeof node, " + %g per node-hour", h);
    int dc = rtable_col(t, "device_prices");
    if (dc >= 0 && rt_row_text(r, dc)[0])
        fprintf(f, "  price per device-hour by type: %s%s; cost = (each pool's devices x its type's price, the rest of the "
                "cluster at cluster.device's, + nodes x node price) x time: every device is billed for the whole step, idle "
                "or not; storage, network and start-up are not priced\n", rt_row_text(r, dc), node);
    else if (p > 0)
        fprintf(f, "  price: %g per device-hour%s; cost = (devices x price + nodes x node price) x time: every device "
                "is billed for the whole step, idle or not; storage, network and start-up are not priced\n", p, node);
    else fprintf(f, "  no price given (--price PER-DEVICE-HOUR): device-hours only\n");
}

/* How many rows were simulated over at least each window (the rungs). */
static void print_rungs(const rtable *t, FILE *f)
{
    int wc = rtable_col(t, "simulated_iterations");
    long w[PLANNER_RUNGS_MAX * 4];
    int nw = 0;
    for (int i = 0; i < t->nrows && wc >= 0; i++) {
        long x = (long)rt_row_num(&t->rows[i], wc);
        bool dup = false;
        for (int k = 0; k < nw; k++) dup |= w[k] == x;
        if (!dup && nw < (int)(sizeof w / sizeof w[0])) w[nw++] = x;
    }
    for (int i = 1; i < nw; i++)
        for (int k = i; k > 0 && w[k - 1] > w[k]; k--) { long x = w[k]; w[k] = w[k - 1]; w[k - 1] = x; }
    fprintf(f, "  simulated:%s", nw ? "" : " none");
    for (int k = 0; k < nw; k++) {
        int n = 0;
        for (int i = 0; i < t->nrows; i++) n += rt_row_num(&t->rows[i], wc) >= w[k];
        fprintf(f, "%s %d over %ld iterations", k ? "," : "", n, w[k]);
    }
    fprintf(f, "%s\n", nw > 1 ? " (successive halving: each rung keeps the best quarter of every staleness bound)" : "");
}

/* #1 against the scenario's own plan (or #2 when #1 is it): tokens/s is
** tokens per step over the step time, so say which of the two moved, which
** parts of the step did and which settings changed. */
static void explain(const rtable *t, const rt_row *best, const rt_row *second, const char *who, FILE *f)
{
    char a[40], b2[40];
    double t1 = cnum(t, best, "throughput_tokens_per_s"), t2 = cnum(t, second, "throughput_tokens_per_s");
    double s1 = cnum(t, best, "step_time_s"), s2 = cnum(t, second, "step_time_s");
    double k1 = t1 * s1, k2 = t2 * s2;      /* tokens trained per step */
    char x1[32], x2[32], y1[32], y2[32];
    fmt_si(x1, sizeof x1, t1);
    fmt_si(x2, sizeof x2, t2);
    fmt_si(y1, sizeof y1, k1);
    fmt_si(y2, sizeof y2, k2);
    fmt_secs(a, sizeof a, s1);
    fmt_secs(b2, sizeof b2, s2);
    fprintf(f, "#1 against %s (simulated): %s against %s tokens/s (%+.1f%%) = tokens per step / step time:\n",
            who, x1, x2, t2 > 0 ? 100 * (t1 / t2 - 1) : 0);
    fprintf(f, "  tokens per step %s against %s (%+.1f%%); step %s against %s (%+.1f%%)\n", y1, y2,
            k2 > 0 ? 100 * (k1 / k2 - 1) : 0, a, b2, s2 > 0 ? 100 * (s1 / s2 - 1) : 0);
    int mc = rtable_col(t, "meets_target");
    double d1 = cnum(t, best, "devices"), d2 = cnum(t, second, "devices");
    bool m1 = mc >= 0 && rt_row_true(best, mc), m2 = mc >= 0 && rt_row_true(second, mc);
    if (mc >= 0 && m1 && !m2)
        fprintf(f, "  #1 reaches the target of %.0f tokens/s, %s does not\n", t->target, who);
    else if (mc >= 0 && m1 && d1 < d2)
        fprintf(f, "  both reach the target of %.0f tokens/s; #1 with %.0f devices against %.0f\n", t->target, d1, d2);
    else {
        double dk = k2 > 0 ? k1 / k2 - 1 : 0, ds = s2 > 0 ? s1 / s2 - 1 : 0;
        const char *tok = dk > 1e-3 ? "more" : dk < -1e-3 ? "fewer" : "as many";
        const char *stp = ds > 1e-3 ? "a longer" : ds < -1e-3 ? "a shorter" : "the same";
        fprintf(f, "  #1 trains %s tokens per step in %s step", tok, stp);
        if (dk > 1e-3 && ds > 1e-3) fprintf(f, ": the tokens grow more than the step");
        else if (dk < -1e-3 && ds < -1e-3) fprintf(f, ": the step shrinks more than the tokens");
        fprintf(f, "\n");
    }
    if (rtable_col(t, "effective_tokens_per_s") >= 0) {
        /* the off-policy price: what a sample is worth at its lag */
        double e1 = cnum(t, best, "effective_tokens_per_s"), e2 = cnum(t, second, "effective_tokens_per_s");
        double v1 = cnum(t, best, "lag_value"), v2 = cnum(t, second, "lag_value");
        fmt_si(x1, sizeof x1, e1);
        fmt_si(x2, sizeof x2, e2);
        fprintf(f, "  effective tokens/s (a sample at lag L counts 1/(1 + %g L)): %s against %s (%+.1f%%); a trained sample "
                "counts %.3f against %.3f (mean lag %s against %s)\n", cnum(t, best, "lag_cost"), x1, x2,
                e2 > 0 ? 100 * (e1 / e2 - 1) : 0, v1, v2, ctext(t, best, "staleness_mean"), ctext(t, second, "staleness_mean"));
    }
    fprintf(f, "  time in each part of the step (parts overlap where pools work side by side):\n");
    for (int k = 0; k < STEP__COUNT; k++) {
        char name[48];
        snprintf(name, sizeof name, "%s_s", trace_step_phase_name((trace_step_phase)k));
        double x = cnum(t, best, name), y = cnum(t, second, name);
        if (!(fabs(x) > 1e-9 || fabs(y) > 1e-9)) continue;
        fmt_secs(a, sizeof a, x);
        fmt_secs(b2, sizeof b2, y);
        char d[40];
        fmt_secs(d, sizeof d, fabs(x - y));
        fprintf(f, "    %-12s %10s  vs %10s   %s%s\n", trace_step_phase_name((trace_step_phase)k), a, b2,
                x < y - 1e-9 ? "-" : x > y + 1e-9 ? "+" : " ", fabs(x - y) > 1e-9 ? d : "same");
    }
    const char *diff[] = {"mode", "pools", "staleness", "partial_rollout", "dispatch", "train_tp", "train_pp", "train_ep",
                          "train_cp", "train_etp", "micro_batch", "rollout_tp", "rollout_ep", "max_seqs", "critic_devices", "memory_features", NULL};
    fprintf(f, "  what changed:");
    int nd = 0;
    for (int i = 0; diff[i]; i++)
        if (strcmp(ctext(t, best, diff[i]), ctext(t, second, diff[i]))) {
            fprintf(f, "%s %s %s vs %s", nd++ ? "," : "", diff[i], ctext(t, best, diff[i]), ctext(t, second, diff[i]));
        }
    fprintf(f, "%s\n", nd ? "" : " nothing listed (the same layout)");
}

void plan_print(const rtable *t, int top, FILE *f) { plan_print_searched(t, top, NULL, f); }

void plan_print_searched(const rtable *t, int top, const char *searched, FILE *f)
{
    int fc = rtable_col(t, "feasible"), wc = rtable_col(t, "simulated_iterations");
    int nfeas = 0;
    for (int i = 0; i < t->nrows; i++) if (rt_row_true(&t->rows[i], fc)) nfeas++;
    fprintf(f, "Plan search: %s (%s)\n", t->scenario, t->input);
    if (searched) fprintf(f, "  searched: %s\n", searched[0] ? searched : "every axis");
    fprintf(f, "  %ld candidates enumerated, %ld pruned (do not divide, or miss the memory fit by over %.0f%%), %ld estimated, "
            "%d simulated, %d feasible in simulation (run's memory ledger)\n", t->evaluated, t->pruned, 100 * PLANNER_FIT_SLACK, t->estimated, t->total, nfeas);
    print_rungs(t, f);
    print_price(t, f);
    bool devices = !strcmp(t->objective, "devices");
    fprintf(f, "  objective: %s", !strcmp(t->objective, "score") ? "score() of the policy" : t->objective);
    if (devices) fprintf(f, " (smallest cluster reaching %.0f tokens/s)", t->target);
    if (!strcmp(t->objective, "cost")) fprintf(f, " (cheapest run)");
    if (!strcmp(t->objective, "time")) fprintf(f, " (shortest time to the run's steps)");
    if (!strcmp(t->objective, "effective")) fprintf(f, " (tokens/s with each trained sample valued by its lag)");
    fprintf(f, "; listed: plans simulated over the scenario's %d iterations (%d warm-up)\n\n", t->iterations, t->warmup);
    if (nfeas == 0) {
        fprintf(f, "No feasible plan was found.\n");
        for (int i = 0; i < t->nrows && i < 3; i++)
            fprintf(f, "  candidate %s (%s): %s\n", ctext(t, &t->rows[i], "id"), ctext(t, &t->rows[i], "mode"),
                    ctext(t, &t->rows[i], "reason"));
        return;
    }
    if (devices && !plan_reaches_target(t)) {
        fprintf(f, "No cluster searched reaches %.0f tokens/s", t->target);
        if (searched && strstr(searched, "clusters of")) fprintf(f, "; searched: %s", strstr(searched, "clusters of"));
        fprintf(f, ".\nThe best plan of each size is listed; a larger --max-scale or looser constraints may reach it.\n\n");
    }
    fprintf(f, "  %-4s %-9s %-22s %5s %-14s %-13s %-2s %-4s %-8s %-7s %10s %9s %8s %9s", "#", "mode", "pools", "dev",
            "train tp/pp/ep/mb", "rollout tp/ep/seqs", "s", "part", "dispatch", "lag", "sim tok/s", "estimate", "per dev", "step");
    if (rtable_col(t, "time_to_steps_s") >= 0) fprintf(f, " %10s %9s %10s", "run time", "dev-h", "cost/run");
    if (rtable_col(t, "effective_tokens_per_s") >= 0) fprintf(f, " %9s", "effective");
    if (rtable_col(t, "critic_devices") >= 0) fprintf(f, " %6s", "critic");
    if (rtable_col(t, "memory_features") >= 0) fprintf(f, " %-30s", "memory");
    fprintf(f, "  interval\n");
    int shown = 0;
    bool base_shown = false;
    const rt_row **listed = xcalloc((size_t)top + 2, sizeof *listed);
    const rt_row *base = NULL;
    char lab[16];
    double dev_seen[64];
    int ndev = 0, ic = rtable_col(t, "within"), nties = 0;
    for (int i = 0; i < t->nrows; i++)
        if (!strcmp(ctext(t, &t->rows[i], "mode"), "baseline")) base = &t->rows[i];
    for (int i = 0; i < t->nrows && shown < top; i++) {
        const rt_row *r = &t->rows[i];
        if (!rt_row_true(r, fc)) continue;
        if (ic >= 0 && !rt_row_true(r, ic)) continue;                       /* outside the constraints */
        if (wc >= 0 && (int)rt_row_num(r, wc) != t->iterations) continue;    /* not a finalist */
        if (devices) {      /* one plan per cluster size: the best of each */
            double d = cnum(t, r, "devices");
            bool dup = false;
            for (int k = 0; k < ndev; k++) dup |= dev_seen[k] == d;
            if (dup) continue;
            if (ndev < 64) dev_seen[ndev++] = d;
        }
        /* a tie: within PLAN_TIE of the row above (and the same target answer) */
        bool tie = false;
        if (shown > 0 && !devices) {
            double up = cnum(t, listed[shown - 1], "score"), me = cnum(t, r, "score");
            tie = up > 0 && fabs(up - me) <= PLAN_TIE * up;
        }
        listed[shown++] = r;
        nties += tie;
        snprintf(lab, sizeof lab, "%d%s", shown, tie ? "=" : "");
        print_row(t, r, lab, f);
        if (r == base) base_shown = true;
    }
    if (!base_shown && base) {      /* the scenario's own plan, always */
        snprintf(lab, sizeof lab, "(%d)", (int)(base - t->rows) + 1);
        bool feas = rt_row_true(base, fc), in = ic < 0 || rt_row_true(base, ic);
        print_row(t, base, feas && in ? lab : "-", f);
        if (!feas) fprintf(f, "       baseline infeasible: %s\n", ctext(t, base, "reason"));
        else if (!in) fprintf(f, "       baseline outside the constraints (not ranked): %s\n", ctext(t, base, "outside"));
    }
    bool any_cp = false;    /* a listed plan with context parallelism: say what "cpN" is */
    for (int i = 0; i < t->nrows; i++) {
        const char *cp = ctext(t, &t->rows[i], "train_cp");
        any_cp |= cp[0] && strcmp(cp, "1") != 0;
    }
    bool any_cal = false;   /* a row with the calibration's interval */
    for (int i = 0; i < t->nrows; i++) {
        double lo, hi;
        any_cal |= row_interval(t, &t->rows[i], &lo, &hi);
    }
    char eff[160] = "";
    int lc = rtable_col(t, "lag_cost");
    if (lc >= 0 && t->nrows > 0)
        snprintf(eff, sizeof eff, "; effective: sim tok/s x the mean of 1/(1 + %g x lag) over the trained samples, the "
                 "off-policy price (--lag-cost)", rt_row_num(&t->rows[0], lc));
    fprintf(f, "  (sim tok/s: simulated throughput; estimate: the closed form that chose what to simulate; lag: mean/max "
            "versions between the policy that generated a trained sample and the one trained; interval: of sim tok/s, "
            "%s%s%s%s%s%s)\n\n",
            any_cal ? "c: from the calibration's knob draws, each re-simulated (10th-90th percentile, widened by its held-out "
                      "error), else from the validation table's errors" : "from the validation table's errors",
            eff, any_cp ? "; cpN: N-way context parallelism in training" : "",
            nties ? "; N=: a tie, within 1% of the row above" : "",
            rtable_col(t, "critic_devices") >= 0 ? "; critic: the devices of the critic's own pool, -: it trains on the "
                                                   "actor's" : "",
            rtable_col(t, "memory_features") >= 0 ? "; memory: the memory features the search turned on for the layout to fit, "
                                                    "-: none, the layout fits as the scenario gives it" : "");
    if (shown > 0) {
        /* does #1 change the algorithm? off-policy: a staleness bound, or a
        ** partial rollout, the scenario's own plan does not have */
        double s1 = cnum(t, listed[0], "staleness"), p1 = cnum(t, listed[0], "partial_rollout");
        double s0 = base ? cnum(t, base, "staleness") : 0, p0 = base ? cnum(t, base, "partial_rollout") : 1;
        bool off1 = s1 > 0 || p1 < 1, off0 = s0 > 0 || p0 < 1;
        if (base && (s1 != s0 || p1 != p0))
            fprintf(f, "Algorithm: #1 trains %s (staleness %.0f, partial rollout %g; max lag %s) where the scenario's own plan "
                    "trains %s (staleness %.0f, partial rollout %g)%s\n", off1 ? "off-policy" : "on-policy", s1, p1,
                    ctext(t, listed[0], "staleness_max"), off0 ? "off-policy" : "on-policy", s0, p0,
                    off1 && !off0 ? ": part of its gain is the algorithm's, not the layout's (--staleness 0 searches on-policy plans only)" : "");
        else fprintf(f, "Algorithm: #1 keeps the scenario's staleness bound and partial rollout (%s)\n", off1 ? "off-policy" : "on-policy");
        if (shown > 1 && nties && cnum(t, listed[1], "score") >= (1 - PLAN_TIE) * cnum(t, listed[0], "score"))
            fprintf(f, "  #1 and #2 are a tie (within 1%%): either is as good a choice\n");
        if (shown > 1) {
            /* beyond the interval: #1's low end above #2's high end.  Two
            ** plans of one model on one cluster share much of their error,
            ** so this is the strict reading: "within" is not "equal" */
            double l1, h1, l2, h2;
            bool c1 = row_interval(t, listed[0], &l1, &h1), c2 = row_interval(t, listed[1], &l2, &h2);
            double t1 = cnum(t, listed[0], "throughput_tokens_per_s"), t2 = cnum(t, listed[1], "throughput_tokens_per_s");
            const char *verdict = l1 > h2 ? "#1 is faster even at its low end and #2 at its high end"
                                : t1 > t2 ? "no: their intervals overlap, #1 is faster as simulated only" : "no";
            if (isfinite(l1) && isfinite(h2) && c1 && c2)
                fprintf(f, "  #1 against #2 beyond the interval (calibration: 10th-90th percentile of %d knob draws of the "
                        "scenario's calibration block, each row re-simulated with them): %s\n", UNC_DRAWS, verdict);
            else if (isfinite(l1) && isfinite(h2))
                fprintf(f, "  #1 against #2 beyond the interval (validation: 4 in 5 predicted rows of docs/validation.md err by at "
                        "most %.0f%%): %s\n", t1 > 0 ? 100 * (1 - l1 / t1) : 0, verdict);
        }
    }
    if (shown > 0 && base && listed[0] != base && rt_row_true(base, fc)) explain(t, listed[0], base, "the scenario's own plan", f);
    else if (shown > 1) explain(t, listed[0], listed[1], "#2", f);
    fprintf(f, "Reproduce:\n");
    for (int i = 0; i < shown; i++)
        if (i < 3 || listed[i] == base) {
            const char *rw = ctext(t, listed[i], "run_with");
            fprintf(f, "  #%d: %s\n", i + 1, rw);
            /* the same arguments give the framework's settings (fusync export) */
            if (t->framework[0] && !strncmp(rw, "fusync run ", 11))
                fprintf(f, "      fusync export %s %s\n", t->framework, rw + 11);
        }
    if (base && !base_shown) fprintf(f, "  baseline: %s\n", ctext(t, base, "run_with"));
    if (shown > 3) fprintf(f, "  (every row's command is in the run_with column of --csv and --json)\n");
    free(listed);
}
