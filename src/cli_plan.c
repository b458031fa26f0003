/*
** cli_plan.c — `fusync plan`: the command around the planner (planner.h):
** options, the policy plugin (opened once for the whole search), the
** workers that simulate the selected candidates, the table and its ranking.
*/
#include "cli.h"
#include "engine.h"
#include "import.h"
#include "planner.h"
#include "policy.h"
#include "plugin.h"
#include "rtable.h"
#include "workers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    planner *P;
    const int *ids;         /* the rung's candidates (ids into P->sel) */
    int iterations;
} rung_job;

static bool rung_item(void *ud, rtable *t, int item, fs_err *err)
{
    rung_job *j = ud;
    return planner_simulate(j->P, j->ids[item], j->iterations, t, err);
}

/* Successive halving (planner.h): simulate each rung's candidates on the
** workers, keep the best by stratum, and so on to the final rung.  Every
** candidate's row is the one of the last rung it reached, moved into t; a
** candidate dropped early keeps its window's figure (what its run_with
** reproduces), with the whole window's extrapolated in extrapolated_score.
** With --shard every shard runs the whole search (each rung depends on all
** of the one before) and keeps its share of the rows.  *sims counts
** simulations. */
static bool halve(planner *P, const cli_opts *o, rtable *t, long *sims, fs_err *err)
{
    int n = P->nsel, cap = n ? n : 1;
    int *ids = xmalloc((size_t)cap * sizeof *ids), *next = xmalloc((size_t)cap * sizeof *next);
    int *where_rung = xmalloc((size_t)cap * sizeof *where_rung), *where_row = xmalloc((size_t)cap * sizeof *where_row);
    for (int i = 0; i < n; i++) { ids[i] = i; where_rung[i] = -1; }
    rtable *rt = xcalloc((size_t)P->nrungs, sizeof *rt);
    bool ok = true;
    for (int r = 0; r < P->nrungs && ok; r++) {
        rtable_init(&rt[r], "plan");
        if (r > 0) {
            n = planner_survivors(P, ids, n, P->rung_n[r], next);
            memcpy(ids, next, (size_t)n * sizeof *ids);
            if (P->rung_iters[r] == P->rung_iters[r - 1]) {     /* the same window: chosen, not run again */
                for (int i = 0; i < n; i++) {
                    P->sel[ids[i]].fig_rung[r] = P->sel[ids[i]].fig_rung[r - 1];
                    P->sel[ids[i]].rung = r;
                }
                continue;
            }
        }
        planner_cols(P, &rt[r]);
        rung_job job = {P, ids, P->rung_iters[r]};
        char label[32];
        snprintf(label, sizeof label, "plan %d/%d", r + 1, P->nrungs);
        /* worker processes fill the cores: each draws its runs' lengths in its
        ** own thread (src/eng_draw.c) */
        if (o->jobs > 1) sim_draw_ahead = 0;
        ok = workers_run(&rt[r], n, o->jobs, rung_item, &job, o->quiet ? NULL : label, err);
        *sims += n;
        for (int k = 0; ok && k < rt[r].nrows; k++) {
            int id = rt[r].rows[k].id;
            P->sel[id].figure = P->sel[id].fig_rung[r] = planner_row_figure(&rt[r], &rt[r].rows[k]);
            P->sel[id].rung = r;
            where_rung[id] = r;
            where_row[id] = k;
        }
    }
    /* A second chance: the candidates dropped at an earlier rung whose
    ** extrapolated figure is best run the final window too, so that a row
    ** the short window misjudged (an extrapolation errs by 10-20% where the
    ** tail is long: docs/cli.md, `fusync plan`, the table) can still
    ** rank first on a simulated figure.  At most PLAN_SECOND_CHANCE runs. */
    enum { PLAN_SECOND_CHANCE = 8 };
    const int F = P->nrungs - 1;
    if (ok && F > 0 && !P->has_score && rt[F].ncols > 0) {    /* the final rung ran (its table has columns) */
        int chosen[PLAN_SECOND_CHANCE], nch = 0;
        double best[PLAN_SECOND_CHANCE];
        for (int id = 0; id < P->nsel; id++) {
            if (where_rung[id] < 0 || where_rung[id] >= F) continue;
            int m = 0;
            double x = planner_extrapolate(P, id, &m);
            if (!isfinite(x)) continue;
            /* insertion into the best PLAN_SECOND_CHANCE, highest first (ties: lower id) */
            int at = nch < PLAN_SECOND_CHANCE ? nch : PLAN_SECOND_CHANCE;
            while (at > 0 && best[at - 1] < x) at--;
            if (at >= PLAN_SECOND_CHANCE) continue;
            int last = nch < PLAN_SECOND_CHANCE ? nch : PLAN_SECOND_CHANCE - 1;
            for (int j = last; j > at; j--) { best[j] = best[j - 1]; chosen[j] = chosen[j - 1]; }
            best[at] = x;
            chosen[at] = id;
            if (nch < PLAN_SECOND_CHANCE) nch++;
        }
        if (nch > 0) {
            rtable extra;
            rtable_init(&extra, "plan");
            planner_cols(P, &extra);
            rung_job job = {P, chosen, P->rung_iters[F]};
            ok = workers_run(&extra, nch, o->jobs, rung_item, &job, o->quiet ? NULL : "plan: second chance", err);
            *sims += nch;
            for (int k = 0; ok && k < extra.nrows; k++) {
                int id = extra.rows[k].id;
                P->sel[id].figure = P->sel[id].fig_rung[F] = planner_row_figure(&extra, &extra.rows[k]);
                P->sel[id].rung = F;
                where_rung[id] = F;
                where_row[id] = rt[F].nrows;
                rtable_move_row(&rt[F], &extra, k);
            }
            rtable_free(&extra);
        }
    }
    for (int id = 0; ok && id < P->nsel; id++) {
        if (where_rung[id] < 0) continue;
        if (o->shard_n && id % o->shard_n != o->shard_i - 1) continue;
        rtable *src = &rt[where_rung[id]];
        rt_row *r = &src->rows[where_row[id]];
        int m = 0;
        double x = planner_extrapolate(P, id, &m);
        /* the row keeps what its run_with reproduces (its own window); the
        ** figure over the whole window is beside it, labelled */
        if (isfinite(x) && !P->has_score) {
            rt_row_set_num(r, rtable_col(src, "extrapolated_score"), x);
            rt_row_set_str(r, rtable_col(src, "figure"), "extrapolated");
        }
        rtable_move_row(t, src, where_row[id]);
    }
    for (int r = 0; r < P->nrungs; r++) rtable_free(&rt[r]);
    free(rt);
    free(ids);
    free(next);
    free(where_rung);
    free(where_row);
    return ok;
}

/* The hash of what a plan depends on: files, options, --top. */
static void plan_hash(const cli_opts *o, const char *pol, const rtable *t, char *out, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    h = rt_hash_str(h, "plan");
    h = rt_hash_file(h, o->scenario);
    if (pol) h = rt_hash_file(h, pol);
    for (int i = 0; i < o->nsets; i++) h = rt_hash_str(h, o->sets[i]);
    for (int i = 0; i < o->nfixes; i++) h = rt_hash_str(h, o->fixes[i]);
    char lim[96];
    snprintf(lim, sizeof lim, "mode=%s stale=%d/%d partial=%g lag=%d/%g", o->mode_arg ? o->mode_arg : "", o->staleness_set > 0,
             o->staleness_arg, o->partial_min, o->has_max_lag, o->max_lag);
    h = rt_hash_str(h, lim);
    /* cost and time: only when asked, so that older shards still merge */
    if (o->price > 0 || o->host_price > 0 || o->steps > 0 || o->max_scale > 0) {
        char cost[128];
        snprintf(cost, sizeof cost, "price=%.17g/%.17g steps=%d scale=%d", o->price, o->host_price, o->steps, o->max_scale);
        h = rt_hash_str(h, cost);
    }
    for (int i = 0; i < o->nprices; i++) {
        char tp[64];
        snprintf(tp, sizeof tp, "price.%s=%.17g", o->price_key[i], o->price_of[i]);
        h = rt_hash_str(h, tp);
    }
    if (o->has_lag_cost) {
        char lc[48];
        snprintf(lc, sizeof lc, "lag_cost=%.17g", o->lag_cost);
        h = rt_hash_str(h, lc);
    }
    h = rt_hash_str(h, t->objective);
    char tg[48];
    fmt_double(tg, sizeof tg, t->target);
    h = rt_hash_str(h, tg);
    char top[16];
    snprintf(top, sizeof top, "%d", o->top);
    h = rt_hash_str(h, top);
    snprintf(out, n, "%016llx", (unsigned long long)h);
}

/* plan --framework: a framework runs a plan when fusync export can write
** it as that framework's settings (src/import_export.c: the rules import
** reads by), so the search and the export never disagree. */
static bool fw_admit(const scn_scenario *s, void *ud, char *why, size_t n)
{
    fs_buf out;
    buf_init(&out);
    fs_err e = {0, ""};
    bool ok = imp_export(*(const imp_framework *)ud, s, "plan", &out, &e);
    buf_free(&out);
    if (!ok) snprintf(why, n, "%s", e.msg);
    return ok;
}

int cmd_plan(cli_opts *o)
{
    if (!o->scenario) {
        fprintf(stderr, "fusync: plan: usage: fusync plan SCENARIO [--objective throughput|tokens-per-device|devices|cost|time|effective] "
                "[--target TOKENS_PER_S] [--price PER-DEVICE-HOUR|NAME=PRICE,...] [--lag-cost C] [--steps N] [--top K] [--policy FILE.lua] [--json FILE|-] [--csv FILE|-] [--jobs N] [--shard I/N]\n");
        return 2;
    }
    double t_start = wall_now();
    workers_signals(true);
    planner *P = xcalloc(1, sizeof *P);
    plugin *pl = NULL;
    fs_err err = {0, ""};
    int rc = 0;
    /* The scenario the search starts from: the user's --set and --fix
    ** (a --fix is a --set that the search holds), without the --mode and
    ** --staleness shorthands, which are limits here (planner_opts).  A --set
    ** of a field the search sets is held like --fix, so that no row's
    ** command contradicts it. */
    cli_opts lo = *o;
    lo.nsets = 0;
    const char *fixes[2 * CLI_SETS_MAX];
    int nfix = 0;
    for (int i = 0; i < o->nsets; i++) {
        if (i + 1 == o->mode_set || i + 1 == o->staleness_set) continue;
        lo.sets[lo.nsets++] = o->sets[i];
        if (planner_searches(o->sets[i])) fixes[nfix++] = o->sets[i];
    }
    for (int i = 0; i < o->nfixes; i++)
        if (!planner_fix_ok(o->fixes[i], &err)) { rc = cli_fail(&err); goto out; }
    for (int i = 0; i < o->nfixes && lo.nsets < CLI_SETS_MAX; i++) {
        lo.sets[lo.nsets++] = o->fixes[i];
        fixes[nfix++] = o->fixes[i];
    }
    /* the base scenario without place(): the planner chooses the plan */
    scn_scenario base;
    if (!cli_load_scenario(&lo, false, &base, &err)) { rc = cli_fail(&err); goto out; }
    scn_mode mode_only = MODE_FULL;
    if (o->mode_arg && !scn_mode_parse(o->mode_arg, &mode_only)) { rc = cli_usage_error("--mode: '%s' is not a mode", o->mode_arg); goto out; }
    planner_opts po = {
        .objective = !o->objective || !strcmp(o->objective, "throughput") ? PLAN_OBJ_THROUGHPUT
                   : !strcmp(o->objective, "tokens-per-device") ? PLAN_OBJ_PER_DEVICE
                   : !strcmp(o->objective, "cost") ? PLAN_OBJ_COST
                   : !strcmp(o->objective, "time") ? PLAN_OBJ_TIME
                   : !strcmp(o->objective, "effective") ? PLAN_OBJ_EFFECTIVE : PLAN_OBJ_DEVICES,
        .target = o->target,
        .max_scale = o->max_scale,
        .price = o->price,
        .host_price = o->host_price,
        .steps = o->steps,
        .top = o->top,
        .jobs = o->jobs,
        .input = o->scenario,
        .sets = (const char *const *)lo.sets,
        .nsets = lo.nsets,
        .policy = o->policy,
        .has_mode = o->mode_arg != NULL,
        .mode_only = (int)mode_only,
        .has_stale_max = o->staleness_set > 0,
        .stale_max = o->staleness_arg,
        .partial_min_pct = o->partial_min > 0 ? (int)lround(o->partial_min * 100) : 0,
        .has_max_lag = o->has_max_lag,
        .max_lag = o->max_lag,
        .fixes = fixes,
        .nfixes = nfix,
        .has_lag_cost = o->has_lag_cost,
        .lag_cost = o->lag_cost,
        .nprices = o->nprices,
    };
    for (int i = 0; i < o->nprices && i < PLANNER_PRICES_MAX; i++) {
        snprintf(po.price_key[i], sizeof po.price_key[i], "%s", o->price_key[i]);
        po.price_of[i] = o->price_of[i];
    }
    imp_framework fw;
    if (o->framework && imp_framework_parse(o->framework, &fw)) {
        po.admit = fw_admit;
        po.admit_ud = &fw;
        po.admit_name = o->framework;
    }
    if (po.objective == PLAN_OBJ_DEVICES && po.target <= 0) {
        fprintf(stderr, "fusync: plan: --objective devices needs --target TOKENS_PER_S\n");
        rc = 2;
        goto out;
    }
    if (po.objective == PLAN_OBJ_COST && !(po.price > 0) && po.nprices == 0) {
        fprintf(stderr, "fusync: plan: --objective cost needs --price PER-DEVICE-HOUR\n");
        rc = 2;
        goto out;
    }
    if (o->host_price > 0 && !(o->price > 0) && o->nprices == 0) {
        fprintf(stderr, "fusync: plan: --host-price prices the nodes on top of their devices; give --price PER-DEVICE-HOUR too\n");
        rc = 2;
        goto out;
    }
    if (o->max_scale > 0 && po.objective != PLAN_OBJ_DEVICES && po.objective != PLAN_OBJ_COST) {
        fprintf(stderr, "fusync: plan: --max-scale sets the cluster sizes of --objective devices or cost\n");
        rc = 2;
        goto out;
    }
    const char *pol = o->policy ? o->policy : (base.plan.policy[0] ? base.plan.policy : NULL);
    char pol_full[512];
    if (pol) {
        /* found as `run` finds it: as named, else beside the scenario */
        policy_resolve_path(pol, &base, pol_full, sizeof pol_full);
        pol = pol_full;
        if (!(pl = plugin_open(pol, NULL, &err))) { rc = cli_fail(&err); goto out; }
    }
    if (!planner_init(P, &base, pl, &po, &err)) { rc = cli_fail(&err); goto out; }
    planner_enumerate(P);
    planner_select(P, o->top * 16 > 320 ? o->top * 16 : 320);

    rtable t;
    rtable_init(&t, "plan");
    snprintf(t.scenario, sizeof t.scenario, "%s", P->base.name);
    rtable_set_scenario(&t, &P->base);
    snprintf(t.input, sizeof t.input, "%s", o->scenario);
    if (o->framework) snprintf(t.framework, sizeof t.framework, "%s", o->framework);
    snprintf(t.objective, sizeof t.objective, "%s", P->has_score ? "score" : o->objective ? o->objective : "throughput");
    t.target = P->objective == PLAN_OBJ_DEVICES ? P->target : 0;
    t.iterations = P->iterations;
    t.warmup = P->warmup;
    t.evaluated = P->evaluated;
    t.pruned = P->pruned;
    t.estimated = P->estimated;
    t.total = P->nsel;
    t.shard_i = o->shard_i;
    t.shard_n = o->shard_n;
    plan_hash(o, pol, &t, t.hash, sizeof t.hash);
    planner_cols(P, &t);
    long sims = 0;
    double t_sim = wall_now();
    if (!halve(P, o, &t, &sims, &err)) rc = cli_fail(&err);
    if (!rc) {
        plan_sort(&t);
        /* calibrated: the listed top rows' intervals re-simulated (bounded:
        ** the top 3 and the baseline); a shard cannot tell which rows are
        ** listed, so merged shards keep the validation spread */
        if (!o->shard_n && !planner_intervals(P, &t, 3, &err)) rc = cli_fail(&err);
    }
    t_sim = wall_now() - t_sim;
    if (!rc) {
        rc = cli_write_table(o, &t);
        bool to_stdout = (o->json_path && !strcmp(o->json_path, "-")) || (o->csv_path && !strcmp(o->csv_path, "-"));
        if (!rc && !o->quiet && !to_stdout && !o->shard_n) {
            /* names come from the scenario and the plugin: terminal-safe */
            char *text = NULL;
            size_t tn = 0;
            FILE *mf = open_memstream(&text, &tn);
            if (mf) {
                char searched[sizeof P->searched + sizeof P->range + 4];
                snprintf(searched, sizeof searched, "%s%s%s", P->searched, P->searched[0] && P->range[0] ? "; " : "", P->range);
                plan_print_searched(&t, o->top, searched, mf);
                fclose(mf);
                fs_buf tb;
                buf_init(&tb);
                buf_put_term(&tb, text);
                if (tb.s) fputs(tb.s, stdout);
                buf_free(&tb);
                free(text);
            }
        }
        if (!rc && !o->quiet)
            fprintf(stderr, "fusync: plan: %ld candidates enumerated (%ld pruned, %ld estimated), %d simulated in %ld runs "
                    "(%.2f s), in %.2f s with %d job%s\n", P->evaluated, P->pruned, P->estimated, P->nsel, sims, t_sim,
                    wall_now() - t_start, o->jobs, o->jobs == 1 ? "" : "s");
        if (!rc) {
            int fc = rtable_col(&t, "feasible"), nf = 0;
            for (int i = 0; i < t.nrows; i++) if (rt_row_true(&t.rows[i], fc)) nf++;
            if (nf == 0 && !o->shard_n) rc = 1;
            if (!rc && !o->shard_n && P->objective == PLAN_OBJ_DEVICES && !plan_reaches_target(&t)) {
                /* said plainly, on standard error too when the table went elsewhere */
                if (o->quiet || to_stdout)
                    fprintf(stderr, "fusync: plan: no cluster searched reaches %.0f tokens/s (%s)\n", P->target, P->range);
                rc = 1;
            }
        }
    }
    rtable_free(&t);
out:
    planner_free(P);
    free(P);
    plugin_close(pl);
    workers_signals(false);
    return rc;
}
