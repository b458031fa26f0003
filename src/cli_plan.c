/*
** cli_plan.c — `fusync plan`: the command around the planner (planner.h):
** options, the policy plugin (opened once for the whole search), the
** workers that simulate the selected candidates, the table and its ranking.
*/
#include "cli.h"
#include "lua_scenario.h"
#include "planner.h"
#include "plugin.h"
#include "rtable.h"
#include "workers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool user_set(const cli_opts *o, const char *prefix)
{
    size_t n = strlen(prefix);
    for (int i = 0; i < o->nsets; i++) if (!strncmp(o->sets[i], prefix, n)) return true;
    return false;
}

typedef struct {
    planner        *P;
    const cli_opts *o;
} plan_job;

/* Item `item` of this shard is candidate id I-1 + item*N of the selection. */
static bool plan_item(void *ud, rtable *t, int item, fs_err *err)
{
    plan_job *j = ud;
    int id = j->o->shard_n ? item * j->o->shard_n + j->o->shard_i - 1 : item;
    return planner_simulate(j->P, id, t, err);
}

/* The hash of what a plan depends on: files, options, --top. */
static void plan_hash(const cli_opts *o, const char *pol, const rtable *t, char *out, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    h = hash_str(h, "plan");
    h = hash_file(h, o->scenario);
    if (pol) h = hash_file(h, pol);
    for (int i = 0; i < o->nsets; i++) h = hash_str(h, o->sets[i]);
    h = hash_str(h, t->objective);
    char tg[48];
    fmt_double(tg, sizeof tg, t->target);
    h = hash_str(h, tg);
    char top[16];
    snprintf(top, sizeof top, "%d", o->top);
    h = hash_str(h, top);
    snprintf(out, n, "%016llx", (unsigned long long)h);
}

int cmd_plan(cli_opts *o)
{
    if (!o->scenario) {
        fprintf(stderr, "fusync: plan: usage: fusync plan SCENARIO [--objective throughput|tokens-per-device|devices "
                "--target TOKENS_PER_S] [--top K] [--policy FILE.lua] [--json FILE|-] [--csv FILE|-] [--jobs N] [--shard I/N]\n");
        return 2;
    }
    double t_start = wall_now();
    pool_signals(true);
    planner *P = xcalloc(1, sizeof *P);
    plugin *pl = NULL;
    fs_err err = {0, ""};
    int rc = 0;
    /* the base scenario without place(): the planner chooses the plan */
    scn_scenario base;
    if (!lscn_load(o->scenario, o->sets, o->nsets, &base, &err)) { rc = cli_fail(&err); goto out; }
    planner_opts po = {
        .objective = !o->objective || !strcmp(o->objective, "throughput") ? PLAN_OBJ_THROUGHPUT
                   : !strcmp(o->objective, "tokens-per-device") ? PLAN_OBJ_PER_DEVICE : PLAN_OBJ_DEVICES,
        .target = o->target,
        .short_runs = !user_set(o, "workload.iterations="),
    };
    if (po.objective == PLAN_OBJ_DEVICES && po.target <= 0) {
        fprintf(stderr, "fusync: plan: --objective devices needs --target TOKENS_PER_S\n");
        rc = 2;
        goto out;
    }
    const char *pol = o->policy ? o->policy : (base.plan.policy[0] ? base.plan.policy : NULL);
    if (pol && !(pl = plugin_open(pol, NULL, &err))) { rc = cli_fail(&err); goto out; }
    if (!planner_init(P, &base, pl, &po, &err)) { rc = cli_fail(&err); goto out; }
    planner_enumerate(P);
    int budget = o->top * 6;
    if (budget < 24) budget = 24;
    if (budget > 96) budget = 96;
    planner_select(P, budget);

    rtable t;
    rtable_init(&t, "plan");
    snprintf(t.scenario, sizeof t.scenario, "%s", P->base.name);
    snprintf(t.input, sizeof t.input, "%s", o->scenario);
    snprintf(t.objective, sizeof t.objective, "%s", o->objective ? o->objective : "throughput");
    t.target = P->objective == PLAN_OBJ_DEVICES ? P->target : 0;
    t.iterations = P->iterations;
    t.warmup = P->warmup;
    t.evaluated = P->evaluated;
    t.pruned = P->pruned;
    t.total = P->nsel;
    t.shard_i = o->shard_i;
    t.shard_n = o->shard_n;
    plan_hash(o, pol, &t, t.hash, sizeof t.hash);
    planner_cols(P, &t);
    int n = 0;
    for (int k = 0; k < P->nsel; k++) if (!o->shard_n || k % o->shard_n == o->shard_i - 1) n++;
    plan_job job = {P, o};
    if (!pool_run(&t, n, o->jobs, plan_item, &job, o->quiet ? NULL : "plan", &err)) rc = cli_fail(&err);
    if (!rc) {
        plan_sort(&t);
        rc = cli_write_table(o, &t);
        bool to_stdout = (o->json_path && !strcmp(o->json_path, "-")) || (o->csv_path && !strcmp(o->csv_path, "-"));
        if (!rc && !o->quiet && !to_stdout && !o->shard_n) {
            /* names come from the scenario and the plugin: terminal-safe */
            char *text = NULL;
            size_t tn = 0;
            FILE *mf = open_memstream(&text, &tn);
            if (mf) {
                plan_print(&t, o->top, mf);
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
            fprintf(stderr, "fusync: plan: %ld candidates evaluated (%ld pruned), %d simulated, in %.2f s with %d job%s\n",
                    P->evaluated, P->pruned, n, wall_now() - t_start, o->jobs, o->jobs == 1 ? "" : "s");
        if (!rc) {
            int fc = rtable_col(&t, "feasible"), nf = 0;
            for (int i = 0; i < t.nrows; i++) if (row_true(&t.rows[i], fc)) nf++;
            if (nf == 0 && !o->shard_n) rc = 1;
        }
    }
    rtable_free(&t);
out:
    planner_free(P);
    free(P);
    plugin_close(pl);
    return rc;
}
