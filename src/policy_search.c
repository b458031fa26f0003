/*
** policy_search.c — a plugin's say in the planner:
**   candidates(ctx) → either a list of plan tables (the planner evaluates
**                     exactly those), or a table narrowing the search axes:
**                     {modes = {"colocate", "hybrid"}, train_tp = {4, 8},
**                      staleness = {0, 1}, partial_rollout = {1, 0.9}, ...}
**   score(ctx, report) → a number, higher is better (replaces --objective)
*/
#include "plugin_lua.h"
#include "fields.h"
#include "plan_axes.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the host keeps of a plugin's answer is outside the plugin's memory
** budget, so it has a budget of its own, in bytes (docs/security.md): each
** listed plan becomes a whole scenario on the host. */
#define CANDIDATES_BYTES_MAX (64u << 20)
#define CANDIDATES_MAX ((int)(CANDIDATES_BYTES_MAX / sizeof(scn_scenario)))

typedef struct {
    const scn_scenario *base;
    plan_axes *axes;
    scn_scenario *plans;
    int nplans;
} cand_ud;

static const struct { const char *key; size_t off; long lo, hi; double scale; } AXES[] = {
    {"train_tp", offsetof(plan_axes, train_tp), 1, 1024, 1},
    {"train_pp", offsetof(plan_axes, train_pp), 1, 1024, 1},
    {"train_ep", offsetof(plan_axes, train_ep), 1, 4096, 1},
    {"micro_batch", offsetof(plan_axes, micro_batch), 1, 1024, 1},
    {"train_cp", offsetof(plan_axes, train_cp), 1, 1024, 1},
    {"train_etp", offsetof(plan_axes, train_etp), 0, 1024, 1},     /* 0: the candidate's tp */
    {"rollout_tp", offsetof(plan_axes, rollout_tp), 1, 1024, 1},
    {"rollout_ep", offsetof(plan_axes, rollout_ep), 1, 4096, 1},
    {"max_seqs", offsetof(plan_axes, max_seqs), 1, 1 << 20, 1},
    {"staleness", offsetof(plan_axes, staleness), 0, SCN_STALENESS_MAX, 1},
    {"partial_rollout", offsetof(plan_axes, partial_pct), 1, 100, 100},
    {"rollout_share", offsetof(plan_axes, rollout_share_pct), 1, 99, 100},
    {"supernodes", offsetof(plan_axes, supernodes), 1, 4096, 1},
    {"nodes_per_supernode", offsetof(plan_axes, nodes_per_supernode), 1, 1 << 16, 1},
};
#define NAXES (sizeof AXES / sizeof AXES[0])
static const char *const MODE_KEYS[] = {"separate", "colocate", "full", "hybrid", "spread", NULL};
static const int MODE_OF_KEY[] = {PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID, PLANNER_SPREAD};

static void read_axis(lua_State *L, int t, const char *key, plan_axis *a, long lo, long hi, double scale)
{
    if (!lua_istable(L, t)) luaL_error(L, "returned %s = a %s; expected a list", key, luaL_typename(L, t));
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    if (n < 1 || n > 32) luaL_error(L, "returned %s: expected a list of 1..32 values", key);
    a->n = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, t, i);
        double v = lua_tonumber(L, -1) * scale;
        long iv = lround(v);
        if (lua_type(L, -1) != LUA_TNUMBER || fabs(v - (double)iv) > 1e-6 || iv < lo || iv > hi) {
            if (scale != 1)
                luaL_error(L, "returned %s[%d]: expected a number in (0, 1]", key, (int)i);
            luaL_error(L, "returned %s[%d]: expected a whole number in %d..%d", key, (int)i, (int)lo, (int)hi);
        }
        a->v[a->n++] = iv;
        lua_pop(L, 1);
    }
}

/* pools = { {pool, pool, ...}, ... }: each shape read as a scenario's
** `plan.pools` over a copy of the base; the mode follows the roles (a pool
** that generates and trains is co-located). */
#define SHAPES_MAX 64
static void read_shapes(lua_State *L, int t, cand_ud *u)
{
    if (!lua_istable(L, t)) luaL_error(L, "returned pools = a %s; expected a list of pool lists", luaL_typename(L, t));
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    if (n < 1 || n > SHAPES_MAX) luaL_error(L, "returned pools: expected a list of 1..%d pool lists", SHAPES_MAX);
    free(u->axes->shapes);
    u->axes->shapes = xcalloc((size_t)n, sizeof *u->axes->shapes);
    u->axes->nshapes = 0;
    scn_scenario *trial = lua_newuserdatauv(L, sizeof *trial, 0);
    char what[64];
    for (lua_Integer i = 1; i <= n; i++) {
        *trial = *u->base;
        lua_createtable(L, 0, 1);
        lua_rawgeti(L, t, i);
        lua_setfield(L, -2, "pools");
        snprintf(what, sizeof what, "returned pools[%d]:", (int)i);
        plugin_read_plan(L, -1, trial, what);
        lua_pop(L, 1);
        if (trial->plan.npools < 1) luaL_error(L, "returned pools[%d]: expected a list of pools", (int)i);
        bool mixed = false;
        for (int k = 0; k < trial->plan.npools; k++)
            mixed |= (trial->plan.pools[k].roles & ROLE_ROLLOUT) && (trial->plan.pools[k].roles & ROLE_TRAIN);
        trial->plan.mode = mixed ? MODE_COLOCATE : MODE_SEPARATE;
        u->axes->shapes[u->axes->nshapes++] = trial->plan;
    }
    lua_pop(L, 1);
}

static int read_candidates(lua_State *L)
{
    cand_ud *u = lua_touserdata(L, 1);
    if (!lua_istable(L, 2)) luaL_error(L, "returned a %s; expected a list of plans or a table of search axes", luaL_typename(L, 2));
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
    if (n > 0) {
        if (n > CANDIDATES_MAX)
            luaL_error(L, "returned %d plans; the host keeps at most %d (%d MiB of scenarios): return fewer, "
                       "or a table of search axes", n > INT_MAX ? INT_MAX : (int)n, CANDIDATES_MAX,
                       (int)(CANDIDATES_BYTES_MAX >> 20));
        u->plans = xcalloc((size_t)n, sizeof *u->plans);
        char what[64];
        for (lua_Integer i = 1; i <= n; i++) {
            u->plans[i - 1] = *u->base;
            lua_rawgeti(L, 2, i);
            snprintf(what, sizeof what, "returned [%d]:", (int)i);
            plugin_read_plan(L, -1, &u->plans[i - 1], what);
            u->nplans = (int)i;
            lua_pop(L, 1);
        }
        return 0;
    }
    bool modes_given = false;
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int t = lua_gettop(L);
        bool known = false;
        if (strcmp(k, "pools") == 0) {
            known = true;
            read_shapes(L, t, u);
        }
        if (strcmp(k, "dispatch") == 0) {      /* names of plan.rollout.dispatch */
            known = true;
            const fdesc *f = fields_lookup("plan.rollout.dispatch");
            if (!lua_istable(L, t)) luaL_error(L, "returned dispatch = a %s; expected a list", luaL_typename(L, t));
            plan_axis *a = &u->axes->dispatch;
            a->n = 0;
            lua_Integer m = (lua_Integer)lua_rawlen(L, t);
            for (lua_Integer i = 1; i <= m && a->n < 32; i++) {
                lua_rawgeti(L, t, i);
                int v = lua_type(L, -1) == LUA_TSTRING && f ? fields_enum_value(f, lua_tostring(L, -1)) : -1;
                if (v < 0) luaL_error(L, "returned dispatch[%d]: not a value of plan.rollout.dispatch (fusync fields plan.rollout)", (int)i);
                a->v[a->n++] = v;
                lua_pop(L, 1);
            }
            if (a->n == 0) luaL_error(L, "returned dispatch: the list is empty");
        }
        if (strcmp(k, "modes") == 0) {
            known = true;
            modes_given = true;
            if (!lua_istable(L, t)) luaL_error(L, "returned modes = a %s; expected a list", luaL_typename(L, t));
            plan_axis *a = &u->axes->modes;
            a->n = 0;
            lua_Integer m = (lua_Integer)lua_rawlen(L, t);
            for (lua_Integer i = 1; i <= m && a->n < 32; i++) {
                lua_rawgeti(L, t, i);
                const char *v = lua_tostring(L, -1);
                int found = -1;
                for (int j = 0; v && MODE_KEYS[j]; j++) if (strcmp(v, MODE_KEYS[j]) == 0) found = j;
                if (found < 0 || lua_type(L, -1) != LUA_TSTRING)
                    luaL_error(L, "returned modes[%d]: expected separate, colocate, full, hybrid or spread", (int)i);
                a->v[a->n++] = MODE_OF_KEY[found];
                lua_pop(L, 1);
            }
            if (a->n == 0) luaL_error(L, "returned modes: the list is empty");
        }
        for (size_t i = 0; i < NAXES && !known; i++) {
            if (strcmp(k, AXES[i].key) != 0) continue;
            known = true;
            read_axis(L, t, k, (plan_axis *)((char *)u->axes + AXES[i].off), AXES[i].lo, AXES[i].hi, AXES[i].scale);
        }
        if (!known) {
            const char *best = NULL;
            int bd = 4;
            int d = str_distance(k, "modes");
            if (d < bd) { bd = d; best = "modes"; }
            d = str_distance(k, "pools");
            if (d < bd) { bd = d; best = "pools"; }
            d = str_distance(k, "dispatch");
            if (d < bd) { bd = d; best = "dispatch"; }
            for (size_t i = 0; i < NAXES; i++) {
                d = str_distance(k, AXES[i].key);
                if (d < bd) { bd = d; best = AXES[i].key; }
            }
            if (best) luaL_error(L, "returned the unknown axis '%s'; did you mean '%s'?", k, best);
            luaL_error(L, "returned the unknown axis '%s'", k);
        }
        lua_settop(L, t - 1);
    }
    /* shapes alone: only they are searched */
    if (u->axes->nshapes > 0 && !modes_given) u->axes->modes.n = 0;
    return 0;
}

/* The layouts the planner's enumeration visits are the product of the axes
** (src/planner.c, planner_enumerate); each costs an analytic estimate.  The
** axes are capped one by one at 32 values, and their product here: past it
** the search would run for days (docs/security.md, budgets per command). */
#define CANDIDATE_LAYOUTS_MAX 2000000.0

static bool axes_product_ok(const plan_axes *ax, fs_err *err)
{
    char names[700] = "";
    size_t k = 0;
    double prod = 1;
    for (size_t i = 0; i < NAXES; i++) {
        const plan_axis *a = (const plan_axis *)((const char *)ax + AXES[i].off);
        /* staleness and partial rollout vary the selected layouts only */
        if (a->n <= 1 || a == &ax->staleness || a == &ax->partial_pct) continue;
        prod *= a->n;
        k += (size_t)snprintf(names + k, k < sizeof names ? sizeof names - k : 0, "%s%s %d",
                              k ? " x " : "", AXES[i].key, a->n);
        if (k >= sizeof names) k = sizeof names - 1;
    }
    int nm = ax->modes.n + ax->nshapes;
    if (nm > 1) {
        prod *= nm;
        k += (size_t)snprintf(names + k, k < sizeof names ? sizeof names - k : 0, "%smodes and pools %d",
                              k ? " x " : "", nm);
    }
    if (prod <= CANDIDATE_LAYOUTS_MAX) return true;
    fs_err_set(err, 2, "returned search axes of %.3g layouts (%s); the planner enumerates at most %.0f: "
               "give fewer values on some axes", prod, names, CANDIDATE_LAYOUTS_MAX);
    return false;
}

bool policy_candidates(plugin *p, const scn_scenario *base, plan_axes *axes,
                       scn_scenario **plans, int *nplans, fs_err *err)
{
    *plans = NULL;
    *nplans = 0;
    if (!plugin_has(p, "candidates")) return true;
    lua_State *L = plugin_state(p);
    int top = lua_gettop(L);
    plugin_push_fn(p, "candidates");
    if (!plugin_ctx(p, base, err) || !plugin_pcall(p, "candidates()", 1, 1, err)) {
        lua_settop(L, top);
        return false;
    }
    cand_ud u = {base, axes, NULL, 0};
    fs_err e2 = {0, ""};
    bool ok = plugin_protect(p, read_candidates, &u, 1, 0, &e2);
    lua_settop(L, top);
    if (!ok) {
        free(u.plans);
        plugin_answer_error(p, "candidates", err, "%s", e2.msg);
        return false;
    }
    fs_err e3 = {0, ""};
    if (u.nplans == 0 && !axes_product_ok(axes, &e3)) {
        plugin_answer_error(p, "candidates", err, "%s", e3.msg);
        return false;
    }
    for (int i = 0; i < u.nplans; i++)
        snprintf(u.plans[i].plan.policy, sizeof u.plans[i].plan.policy, "%s", base->plan.policy);
    *plans = u.plans;
    *nplans = u.nplans;
    return true;
}

typedef struct {
    const scn_scenario *s;
    const report *r;
    double score;
    char *why;
    size_t nwhy;
} score_ud;

static int push_score_args(lua_State *L)
{
    score_ud *u = lua_touserdata(L, 1);
    plugin_push_ctx(L, u->s);
    plugin_push_report(L, u->r);
    return 2;
}

static int read_score(lua_State *L)
{
    score_ud *u = lua_touserdata(L, 1);
    /* `return nil, "why"`: the candidate is infeasible, the search goes on */
    if (!lua_toboolean(L, 2) && lua_type(L, 3) == LUA_TSTRING) {
        snprintf(u->why, u->nwhy, "score() marked the plan infeasible: %s", lua_tostring(L, 3));
        u->score = NAN;
        return 0;
    }
    if (lua_type(L, 2) != LUA_TNUMBER)
        luaL_error(L, "returned a %s; expected a number (higher is better), or nil and a reason", luaL_typename(L, 2));
    u->score = lua_tonumber(L, 2);
    if (!isfinite(u->score))
        luaL_error(L, "returned %s; expected a finite number", isnan(u->score) ? "NaN" : u->score > 0 ? "inf" : "-inf");
    return 0;
}

bool policy_score(plugin *p, const scn_scenario *s, const report *r, double *score, char *why, size_t nwhy, fs_err *err)
{
    lua_State *L = plugin_state(p);
    int top = lua_gettop(L);
    if (nwhy) why[0] = 0;
    score_ud u = {s, r, 0, why, nwhy};
    plugin_set_current(p, s);
    if (!plugin_push_fn(p, "score")) {
        fs_err_set(err, 2, "%s: has no score(ctx, report)", plugin_path(p));
        return false;
    }
    if (!plugin_protect(p, push_score_args, &u, 0, 2, err) || !plugin_pcall(p, "score()", 2, 2, err)) {
        lua_settop(L, top);
        return false;
    }
    fs_err e2 = {0, ""};
    bool ok = plugin_protect(p, read_score, &u, 2, 0, &e2);
    lua_settop(L, top);
    if (!ok) {
        plugin_answer_error(p, "score", err, "%s", e2.msg);
        return false;
    }
    *score = u.score;
    return true;
}
