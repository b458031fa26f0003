/*
** planner_select.c — which of the plan search's candidates are simulated
** (planner.h: planner_select, planner_extrapolate, planner_survivors): the
** estimate's best of every group, the strata the rungs of successive
** halving keep, and the extrapolation of a row's short window.
*/
#include "planner.h"
#include "planner_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- select */

static int cmp_est(const void *a, const void *b)
{
    const plan_cand *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

static void push_sel(planner *P, int *cap, const plan_cand *c)
{
    if (P->nsel == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        P->sel = xrealloc(P->sel, (size_t)*cap * sizeof *P->sel);
    }
    P->sel[P->nsel] = *c;
    P->sel[P->nsel].rung = -1;
    P->sel[P->nsel].figure = -INFINITY;
    for (int r = 0; r < PLANNER_RUNGS_MAX; r++) P->sel[P->nsel].fig_rung[r] = NAN;
    P->nsel++;
}

/* Every variant of layout c, each with its own estimate. */
static void expand(planner *P, int *cap, const plan_cand *c)
{
    if (c->mode < 0) { push_sel(P, cap, c); return; }
    scn_scenario s;
    planner_apply(P, c, &s);
    fs_err err = {0, ""};
    plan pl;
    bool built = plan_build(&s, &pl, &err);
    for (int i = 0; i < P->ax.staleness.n; i++) {
        int np = P->ax.staleness.v[i] == 0 ? 1 : P->ax.partial_pct.n;
        for (int k = 0; k < np; k++)
        for (int d = 0; d < planner_ndispatch(P); d++) {
            plan_cand x = *c;
            x.stale = (int)P->ax.staleness.v[i];
            x.partial_pct = x.stale == 0 ? 100 : (int)P->ax.partial_pct.v[k];
            x.dispatch = P->ax.dispatch.n > 0 ? (int)P->ax.dispatch.v[d] : -1;
            s.plan.staleness = x.stale;
            s.plan.partial_rollout = x.partial_pct / 100.0;
            if (x.dispatch >= 0) planner_set_dispatch(&s, x.dispatch);
            x.est = built ? est_throughput(&P->len, &s, &pl) : 0;
            push_sel(P, cap, &x);
        }
    }
}

static int group_of(const planner *P, const plan_cand *c)
{
    int si = 0, ni = 0;
    for (int i = 0; i < P->ax.supernodes.n; i++) if (P->ax.supernodes.v[i] == c->supernodes) si = i;
    for (int i = 0; i < P->ax.nodes_per_supernode.n; i++) if (P->ax.nodes_per_supernode.v[i] == c->nodes) ni = i;
    return (c->mode * 33 + si) * 33 + ni;
}

void planner_select(planner *P, int budget)
{
    if (budget <= 0) budget = P->o.budget > 0 ? P->o.budget : 320;
    /* what to simulate first: the estimate, or for the cheapest run the
    ** estimate per unit of price an hour (the cost of a token is the price
    ** an hour over the tokens an hour), so a small cluster is not crowded
    ** out by the larger ones' higher throughput */
    for (long i = 0; i < P->nc; i++) {
        plan_cand *c = &P->c[i];
        int dpn = P->base.cluster.devices_per_node > 0 ? P->base.cluster.devices_per_node : 1;
        double per_h = c->devices * P->price_dev + (double)c->devices / dpn * P->o.host_price;
        c->key = P->objective == PLAN_OBJ_COST && per_h > 0 ? c->est / per_h : c->est;
    }
    qsort(P->c, (size_t)P->nc, sizeof *P->c, cmp_est);
    free(P->sel);
    P->sel = NULL;
    P->nsel = 0;
    int cap = 0;
    char *taken = xcalloc((size_t)(P->nc ? P->nc : 1), 1);
    /* the scenario's own plan and listed plans: always */
    for (long i = 0; i < P->nc; i++)
        if (P->c[i].mode < 0) { expand(P, &cap, &P->c[i]); taken[i] = 1; }
    /* the best layout of each mode and cluster size */
    enum { NG = PLANNER__MODES * 33 * 33 };
    char *seen = xcalloc(NG, 1);
    for (long i = 0; i < P->nc && P->nsel < budget; i++) {
        if (taken[i]) continue;
        int g = group_of(P, &P->c[i]);
        if (seen[g]) continue;
        seen[g] = 1;
        expand(P, &cap, &P->c[i]);
        taken[i] = 1;
    }
    /* Smallest or cheapest cluster: each size must reach simulation with a
    ** layout that fits.  The estimate ranks the largest cluster's layouts
    ** first, so a smaller size may get one representative only, and when
    ** that one misses the analytic fit its run overflows and the size drops
    ** out of the answer.  So every group also gets its best fitting layout
    ** (one more layout a group at most, over the budget). */
    if (P->objective == PLAN_OBJ_DEVICES || P->objective == PLAN_OBJ_COST) {
        memset(seen, 0, NG);
        for (long i = 0; i < P->nc; i++)
            if (taken[i] && P->c[i].mode >= 0 && !P->c[i].near) seen[group_of(P, &P->c[i])] = 1;
        for (long i = 0; i < P->nc; i++) {
            if (taken[i] || P->c[i].near) continue;
            int g = group_of(P, &P->c[i]);
            if (seen[g]) continue;
            seen[g] = 1;
            expand(P, &cap, &P->c[i]);
            taken[i] = 1;
        }
    }
    free(seen);
    /* then the best estimates, with every layout tied with the last one
    ** taken: an estimate tie is settled by simulation, not by order.  Plans
    ** that miss the analytic fit (their runs may still fit) take at most a
    ** quarter of the rung: most of them overflow in simulation. */
    double last = NAN;
    int near = 0;
    for (long i = 0; i < P->nsel; i++) near += P->sel[i].near;
    for (long i = 0; i < P->nc; i++) {
        if (taken[i]) continue;
        if (P->nsel >= budget && !(P->c[i].key == last && P->nsel < 2 * budget)) break;
        if (P->c[i].near && near >= budget / 4) continue;
        int before = P->nsel;
        expand(P, &cap, &P->c[i]);
        if (P->c[i].near) near += P->nsel - before;
        taken[i] = 1;
        last = P->c[i].key;
    }
    free(taken);
    /* the header says when a simulated layout fits only with memory
    ** features (planner_mem.c) */
    int nmem = 0;
    for (int i = 0; i < P->nsel; i++) nmem += planner_mem_any(&P->sel[i]);
    if (nmem && !strstr(P->searched, "memory features")) {
        size_t k = strlen(P->searched);
        snprintf(P->searched + k, sizeof P->searched - k, "%smemory features where a layout does not fit as given "
                 "(%ld layouts repaired)", k ? ", " : "", P->repaired);
    }
    /* ... and when the critic's own pool was searched (planner.c, critic_splits) */
    int ncrit = 0;
    for (int i = 0; i < P->nsel; i++) ncrit += P->sel[i].critic > 0;
    if (ncrit && !strstr(P->searched, "the critic on a pool of its own")) {
        size_t k = strlen(P->searched);
        snprintf(P->searched + k, sizeof P->searched - k, "%sthe critic on a pool of its own (%d simulated)", k ? ", " : "", ncrit);
    }
    /* the rungs: each keeps a quarter of the one before, down to the plans
    ** listed (at least 20); the windows grow by four towards the scenario's
    ** own, which the final rung runs */
    int final = P->o.top > 20 ? P->o.top : 20;
    int n[PLANNER_RUNGS_MAX], R = 0;
    n[R++] = P->nsel;
    while (R < PLANNER_RUNGS_MAX && n[R - 1] > final) {
        int k = (n[R - 1] + 3) / 4;
        n[R++] = k > final ? k : final;
    }
    int W = P->iterations - P->warmup;
    if (W < 1) W = 1;
    P->nrungs = R;
    for (int r = 0; r < R; r++) {
        long div = 1;
        for (int k = r; k < R - 1; k++) div *= 4;
        int w = (int)((W + div - 1) / div);
        P->rung_iters[r] = P->warmup + (w < 1 ? 1 : w);
        P->rung_n[r] = n[r];
    }
    P->rung_iters[R - 1] = P->iterations;
}

/* Survivors are shared out by stratum: the staleness bound (a short window
** penalises a higher one), or the cluster size when the objective is the
** smallest cluster. */
static int stratum(const planner *P, const plan_cand *c)
{
    if (P->objective == PLAN_OBJ_DEVICES || P->objective == PLAN_OBJ_COST) return c->devices;
    if (c->mode >= 0) return c->stale;
    scn_scenario s;
    planner_apply(P, c, &s);
    return s.plan.staleness;
}

static int cmp_fig_id(const planner *P, int a, int b)
{
    double x = P->sel[a].figure, y = P->sel[b].figure;
    if (x != y) return x > y ? -1 : 1;
    return (a > b) - (a < b);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double planner_extrapolate(const planner *P, int id, int *n)
{
    const plan_cand *c = &P->sel[id];
    int F = P->nrungs - 1, r = c->rung;
    *n = 0;
    if (r < 0 || r >= F || !(c->fig_rung[r] > 0) || !isfinite(c->fig_rung[r])) return NAN;
    double *v = xmalloc((size_t)(P->nsel ? P->nsel : 1) * sizeof *v);
    int m = 0;
    for (int level = 0; level < 3 && m == 0; level++) {
        for (int k = 0; k < P->nsel; k++) {
            const plan_cand *x = &P->sel[k];
            if (x->rung != F || !(x->fig_rung[r] > 0) || !(x->fig_rung[F] > 0)) continue;
            if (level < 2 && x->stale != c->stale) continue;
            if (level < 1 && (x->mode != c->mode || x->partial_pct != c->partial_pct)) continue;
            v[m++] = x->fig_rung[F] / x->fig_rung[r];
        }
    }
    double ratio = NAN;
    if (m > 0) {
        qsort(v, (size_t)m, sizeof *v, cmp_dbl);
        ratio = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }
    free(v);
    *n = m;
    return m > 0 ? c->fig_rung[r] * ratio : NAN;
}

int planner_survivors(const planner *P, const int *ids, int n, int keep, int *out)
{
    if (n <= 0) return 0;
    int *ord = xmalloc((size_t)n * sizeof *ord);
    memcpy(ord, ids, (size_t)n * sizeof *ord);
    for (int i = 1; i < n; i++) {       /* insertion sort by figure: n is a few hundred */
        int x = ord[i], k = i - 1;
        while (k >= 0 && cmp_fig_id(P, x, ord[k]) < 0) { ord[k + 1] = ord[k]; k--; }
        ord[k + 1] = x;
    }
    int *st = xmalloc((size_t)n * sizeof *st);
    char *in = xcalloc((size_t)n, 1);
    for (int i = 0; i < n; i++) st[i] = stratum(P, &P->sel[ord[i]]);
    int m = 0;
    /* the scenario's own plan */
    for (int i = 0; i < n; i++)
        if (P->sel[ord[i]].mode < 0 && P->sel[ord[i]].explicit_idx < 0) { in[i] = 1; m++; }
    /* each stratum its share of `keep`, by its size (at least one) */
    for (int i = 0; i < n; i++) {
        bool first = true;
        for (int k = 0; k < i; k++) if (st[k] == st[i]) first = false;
        if (!first) continue;
        int size = 0;
        for (int k = 0; k < n; k++) size += st[k] == st[i];
        int share = (int)((double)keep * size / n + 0.5);
        if (share < 1) share = 1;
        int got = 0;
        for (int k = 0; k < n; k++) {
            if (st[k] != st[i]) continue;
            if (in[k]) { got++; continue; }
            if (got >= share || !isfinite(P->sel[ord[k]].figure)) continue;
            in[k] = 1;
            got++;
            m++;
        }
    }
    int w = 0;
    for (int i = 0; i < n; i++) if (in[i]) out[w++] = ord[i];
    free(ord);
    free(st);
    free(in);
    return w;
}

