/*
** policy_hooks.c — a policy's run hooks, installed on a simulation:
**   staleness(ctx)            → a new staleness bound (number) or nil; as each step starts
**   on_step(ctx)              → nil or {staleness=, partial_rollout=}; as each step starts
**   on_update(ctx)            → nil or {staleness=, partial_rollout=}; at each weight update
**   on_rollout_progress(ctx)  → true to cut the rollout now, or nil/false, or
**                               {cut=, staleness=, partial_rollout=}; while a
**                               batch generates, at each 5% of its samples
**                               finished to 90%, each 1% after (eng_ctrl.c)
** ctx is a fresh read-only view of the engine's counters; ctx.set_staleness(n)
** and ctx.set_partial_rollout(f) are the documented setters (valid only
** during the call).  A wrong answer stops the run with FILE:LINE.
*/
#include "plugin_lua.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct policy_run {
    plugin *p;
    bool    owned;
    sim    *s;              /* non-NULL only while a hook runs */
    double  partial;        /* the threshold as last set */
};

/* ------------------------------------------------------------ setters */

static struct policy_run *run_of(lua_State *L, const char *fn)
{
    struct policy_run *r = lua_touserdata(L, lua_upvalueindex(1));
    if (!r || !r->s) luaL_error(L, "%s: may only be called while a hook runs", fn);
    return r;
}

static int check_staleness(lua_State *L, int idx, const char *fn)
{
    int isint = 0;
    lua_Integer v = lua_tointegerx(L, idx, &isint);
    if (lua_type(L, idx) != LUA_TNUMBER || !isint || v < 0 || v > SCN_STALENESS_MAX)
        return luaL_error(L, "%s: the staleness bound must be a whole number in 0..%d, got %s", fn,
                          SCN_STALENESS_MAX, luaL_tolstring(L, idx, NULL));
    return (int)v;
}

static double check_partial(lua_State *L, int idx, const char *fn)
{
    double v = lua_tonumber(L, idx);
    if (lua_type(L, idx) != LUA_TNUMBER || !(v > 0 && v <= 1))
        luaL_error(L, "%s: the partial-rollout threshold must be a number in (0, 1], got %s", fn,
                   luaL_tolstring(L, idx, NULL));
    return v;
}

static int l_set_staleness(lua_State *L)
{
    struct policy_run *r = run_of(L, "set_staleness");
    sim_set_staleness(r->s, check_staleness(L, 1, "set_staleness"));
    return 0;
}

static int l_set_partial(lua_State *L)
{
    struct policy_run *r = run_of(L, "set_partial_rollout");
    r->partial = check_partial(L, 1, "set_partial_rollout");
    sim_set_partial_rollout(r->s, r->partial);
    return 0;
}

/* ------------------------------------------------------------ context */

typedef struct {
    struct policy_run *r;
    int    step;
    double done_fraction;       /* < 0: not a rollout-progress call */
} hook_ud;

static void set_num(lua_State *L, const char *k, double v) { lua_pushnumber(L, v); lua_setfield(L, -2, k); }
static void set_int(lua_State *L, const char *k, long long v) { lua_pushinteger(L, (lua_Integer)v); lua_setfield(L, -2, k); }

static int push_hook_ctx(lua_State *L)
{
    hook_ud *u = lua_touserdata(L, 1);
    sim *s = u->r->s;
    const sim_stats *st = sim_get_stats(s);
    const scn_scenario *sc = sim_scenario(s);
    lua_createtable(L, 0, 24);
    lua_pushstring(L, sc->name);
    lua_setfield(L, -2, "scenario");
    set_int(L, "step", u->step);
    set_int(L, "version", st->version);
    set_int(L, "iterations", sc->work.iterations);
    set_int(L, "iterations_done", st->iterations_done);
    set_int(L, "devices", scn_total_devices(&sc->cluster));
    set_num(L, "time_s", sim_secs(sim_now(s)));
    set_int(L, "staleness", sim_get_staleness(s));
    set_num(L, "partial_rollout", u->r->partial);
    if (u->done_fraction >= 0) set_num(L, "done_fraction", u->done_fraction);
    set_int(L, "samples_per_step", (long long)sc->work.prompts_per_step * sc->work.samples_per_prompt);
    set_int(L, "samples_done", st->samples_done);
    set_int(L, "samples_trained", st->samples_trained);
    set_int(L, "samples_discarded", st->samples_discarded);
    set_num(L, "tokens_generated", st->tokens_generated);
    set_num(L, "tokens_trained", st->tokens_trained);
    set_num(L, "tokens_wasted", st->tokens_wasted);
    set_num(L, "tokens_in_flight", st->tokens_in_flight);
    set_int(L, "staleness_max", st->lag_max);
    set_num(L, "staleness_mean", st->samples_trained > 0 ? st->lag_sum / (double)st->samples_trained : 0);
    lua_pushlightuserdata(L, u->r);
    lua_pushcclosure(L, l_set_staleness, 1);
    lua_setfield(L, -2, "set_staleness");
    lua_pushlightuserdata(L, u->r);
    lua_pushcclosure(L, l_set_partial, 1);
    lua_setfield(L, -2, "set_partial_rollout");
    return 1;
}

/* Read an answer: nil, a boolean (cut), a number (staleness) or a table. */
typedef struct {
    struct policy_run *r;
    const char *fn;
    bool  want_cut, want_number;
    bool  cut;
} answer_ud;

static int read_hook_answer(lua_State *L)
{
    answer_ud *a = lua_touserdata(L, 1);
    int t = lua_type(L, 2);
    if (t == LUA_TNIL) return 0;
    if (a->want_number) {
        if (t != LUA_TNUMBER) return luaL_error(L, "returned a %s; expected a staleness bound (whole number) or nil", lua_typename(L, t));
        sim_set_staleness(a->r->s, check_staleness(L, 2, "returned"));
        return 0;
    }
    if (a->want_cut && t == LUA_TBOOLEAN) {
        a->cut = lua_toboolean(L, 2);
        return 0;
    }
    if (t != LUA_TTABLE)
        return luaL_error(L, "returned a %s; expected nil or a table {%sstaleness=, partial_rollout=}%s",
                          lua_typename(L, t), a->want_cut ? "cut=, " : "", a->want_cut ? " or a boolean" : "");
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        lua_pop(L, 1);
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        bool ok = k && (!strcmp(k, "staleness") || !strcmp(k, "partial_rollout") || (a->want_cut && !strcmp(k, "cut")));
        if (!ok) return luaL_error(L, "returned a table with the unknown field '%s'", k ? k : "?");
    }
    lua_getfield(L, 2, "staleness");
    if (!lua_isnil(L, -1)) sim_set_staleness(a->r->s, check_staleness(L, -1, "returned staleness"));
    lua_getfield(L, 2, "partial_rollout");
    if (!lua_isnil(L, -1)) {
        a->r->partial = check_partial(L, -1, "returned partial_rollout");
        sim_set_partial_rollout(a->r->s, a->r->partial);
    }
    if (a->want_cut) {
        lua_getfield(L, 2, "cut");
        if (!lua_isnil(L, -1) && !lua_isboolean(L, -1)) return luaL_error(L, "returned cut = %s; expected true or false", luaL_typename(L, -1));
        a->cut = lua_toboolean(L, -1);
    }
    return 0;
}

/* Call hook `fn` with a fresh ctx and apply its answer. */
static bool call_hook(struct policy_run *r, sim *s, const char *fn, int step, double frac,
                      bool want_cut, bool want_number, bool *cut, fs_err *err)
{
    plugin *p = r->p;
    if (!plugin_has(p, fn)) return true;
    lua_State *L = plugin_state(p);
    int top = lua_gettop(L);
    r->s = s;
    hook_ud u = {r, step, frac};
    char what[64];
    snprintf(what, sizeof what, "%s()", fn);
    if (!plugin_push_fn(p, fn)) {
        r->s = NULL;
        lua_settop(L, top);
        fs_err_set(err, 2, "%s: %s is not callable", plugin_path(p), what);
        return false;
    }
    bool ok = plugin_protect(p, push_hook_ctx, &u, 0, 1, err) && plugin_pcall(p, what, 1, 1, err);
    if (ok) {
        answer_ud a = {r, fn, want_cut, want_number, false};
        fs_err e2 = {0, ""};
        if (!plugin_protect(p, read_hook_answer, &a, 1, 0, &e2)) {
            plugin_answer_error(p, fn, err, "%s", e2.msg);
            ok = false;
        } else if (cut) {
            *cut = a.cut;
        }
    }
    r->s = NULL;
    lua_settop(L, top);
    return ok;
}

static bool hk_step(void *ud, sim *s, int step, fs_err *err)
{
    struct policy_run *r = ud;
    return call_hook(r, s, "staleness", step, -1, false, true, NULL, err)
        && call_hook(r, s, "on_step", step, -1, false, false, NULL, err);
}

static bool hk_update(void *ud, sim *s, int version, fs_err *err)
{
    return call_hook(ud, s, "on_update", version, -1, false, false, NULL, err);
}

static bool hk_progress(void *ud, sim *s, int step, double frac, bool *cut, fs_err *err)
{
    return call_hook(ud, s, "on_rollout_progress", step, frac, true, false, cut, err);
}

/* ------------------------------------------------------------ install */

static bool has_run_hooks(const plugin *p)
{
    return plugin_has(p, "on_step") || plugin_has(p, "on_update") || plugin_has(p, "on_rollout_progress")
        || plugin_has(p, "staleness");
}

policy_run *policy_hooks_install(sim *s, plugin *p)
{
    if (!p || !has_run_hooks(p)) return NULL;
    struct policy_run *r = xcalloc(1, sizeof *r);
    r->p = p;
    plugin_run_reset(p);        /* the run's budgets start here */
    r->partial = sim_scenario(s)->plan.partial_rollout;
    sim_hooks h;
    memset(&h, 0, sizeof h);
    if (plugin_has(p, "on_step") || plugin_has(p, "staleness")) h.on_step = hk_step;
    if (plugin_has(p, "on_update")) h.on_update = hk_update;
    if (plugin_has(p, "on_rollout_progress")) h.on_rollout_progress = hk_progress;
    h.ud = r;
    sim_set_hooks(s, &h);
    return r;
}

bool policy_hooks_attach(sim *s, policy_run **out, fs_err *err)
{
    *out = NULL;
    const char *path = sim_scenario(s)->plan.policy;
    if (!path[0]) return true;
    plugin *p = plugin_open(path, NULL, err);
    if (!p) return false;
    policy_run *r = policy_hooks_install(s, p);
    if (!r) { plugin_close(p); return true; }
    r->owned = true;
    *out = r;
    return true;
}

void policy_hooks_free(policy_run *r)
{
    if (!r) return;
    if (r->owned) plugin_close(r->p);
    free(r);
}
