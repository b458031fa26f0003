/*
** plugin_api.c — what the plugin host lends a plugin from the layers below
** it: the reading of a plan table in the scenario's `plan` format (one
** reader, fields_lua.c) and the `fusync` table a plugin sees
** (docs/plugins.md, "fusync.fits"): fusync.fits(plan) fits a plan table to
** the scenario of the call it is made in, with the same reader, checks and
** memory fit as `fusync check` (scn_validate, plan_build);
** fusync.estimate(plan) is the closed-form throughput of it (estimate.h).
**
** Below plugin.c: it calls nothing of the host or of the policy modules —
** the host hands it the slot where it keeps the scenario of the last ctx —,
** only the scenario format, the plan and the estimate.
*/
#include "plugin_api.h"
#include "estimate.h"
#include "fields_lua.h"
#include "plan.h"

#include <lauxlib.h>
#include <stdio.h>
#include <string.h>

/* Errors of a plan table: "WHAT PATH: message" (the caller adds the file
** and the function). */
static void answer_fail(freader *r, const char *path, const char *msg)
{
    luaL_error(r->L, "%s %s: %s", (const char *)r->ud, path, msg);
}

/* A plan in the scenario's `plan` format, read by the format's one reader
** (fields_lua.c) over the plan already in s: what the answer leaves out is
** kept, except that a mode without pools drops the pools (they belong to
** the mode that was replaced). */
void plugin_read_plan(lua_State *L, int idx, scn_scenario *s, const char *what)
{
    freader r = {.L = L, .fail = answer_fail, .ud = (void *)what, .out = s, .place = true};
    scn_plan *p = &s->plan;
    int pt = lua_absindex(L, idx);
    if (!lua_istable(L, pt)) {
        char got[64];
        const char *g = fields_got_text(L, pt, got, sizeof got);
        luaL_error(L, "%s %s%s instead of a plan table {pools=, train=, rollout=, ...}", what,
                   lua_type(L, pt) == LUA_TNUMBER ? "the number " : lua_type(L, pt) == LUA_TSTRING ? "the " : "a ", g);
    }
    bool mode_set = false, pools_set = false;
    if (lua_istable(L, pt)) {
        lua_pushliteral(L, "mode");
        mode_set = lua_rawget(L, pt) != LUA_TNIL;
        lua_pushliteral(L, "pools");
        pools_set = lua_rawget(L, pt) != LUA_TNIL;
        lua_pop(L, 2);
    }
    fields_read_plan(&r, pt, p);
    if (mode_set && !pools_set) p->npools = 0;
}

/* ------------------------------------------------------------ fusync */

static void push_gib(lua_State *L, const char *key, double bytes)
{
    lua_pushnumber(L, bytes / 1073741824.0);
    lua_setfield(L, -2, key);
}

/* The plan table at 1 over the scenario of the call, built; false with
** `false, why` pushed when it does not build.  The scenario and the plan
** live in Lua's memory, so an error in the plan table frees them. */
static bool build_trial(lua_State *L, const char *fn, scn_scenario **trial, plan **pl)
{
    scn_scenario *const *slot = lua_touserdata(L, lua_upvalueindex(1));
    const scn_scenario *cur = *slot;
    if (!cur)
        luaL_error(L, "%s: there is no scenario yet; call it from place(), candidates(), score() or variants()", fn);
    *trial = lua_newuserdatauv(L, sizeof **trial, 0);
    **trial = *cur;
    char what[64];
    snprintf(what, sizeof what, "%s: plan", fn);
    plugin_read_plan(L, 1, *trial, what);
    *pl = lua_newuserdatauv(L, sizeof **pl, 0);
    fs_err e = {0, ""};
    if (!scn_validate(*trial, &e) || !plan_build(*trial, *pl, &e)) {
        const char *m = e.msg;
        size_t n = strlen((*trial)->path);
        if (n && strncmp(m, (*trial)->path, n) == 0 && m[n] == ':') m += n + 2;
        lua_pushboolean(L, 0);
        lua_pushstring(L, m);
        return false;
    }
    return true;
}

/* tokens_per_s = fusync.estimate(plan), or nil, why */
static int l_estimate(lua_State *L)
{
    scn_scenario *trial;
    plan *pl;
    if (!build_trial(L, "fusync.estimate(plan)", &trial, &pl)) {
        lua_pushnil(L);
        lua_replace(L, -3);
        return 2;
    }
    lua_pushnumber(L, est_scenario_throughput(trial, pl));
    return 1;
}

/* ok, why, pools = fusync.fits(plan) */
static int l_fits(lua_State *L)
{
    scn_scenario *trial;
    plan *pl;
    if (!build_trial(L, "fusync.fits(plan)", &trial, &pl)) return 2;
    lua_pushboolean(L, pl->fits);
    if (pl->fits) lua_pushnil(L);
    else lua_pushstring(L, pl->fit_msg);
    /* each pool's analytic bytes per device, training and generating */
    lua_createtable(L, pl->npools, 0);
    for (int i = 0; i < pl->npools; i++) {
        const plan_pool *q = &pl->pools[i];
        double tr = 0, ro = 0;
        for (int k = 0; k < MB__COUNT; k++) { tr += q->train_mem[k]; ro += q->rollout_mem[k]; }
        lua_createtable(L, 0, 5);
        lua_pushstring(L, q->name);
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, q->devices);
        lua_setfield(L, -2, "devices");
        push_gib(L, "training_gb", tr);
        push_gib(L, "generating_gb", ro);
        push_gib(L, "capacity_gb", scn_device_cuda_total(plan_pool_device(trial, q)));   /* the pool's own device type */
        /* where the plan put it: inclusive {first, last} device ranges, the
        ** form of plan.pools[].ranges (a spread pool's shares, for one) */
        lua_createtable(L, q->nranges, 0);
        for (int r = 0; r < q->nranges; r++) {
            lua_createtable(L, 2, 0);
            lua_pushinteger(L, q->range[r][0]);
            lua_rawseti(L, -2, 1);
            lua_pushinteger(L, q->range[r][1]);
            lua_rawseti(L, -2, 2);
            lua_rawseti(L, -2, r + 1);
        }
        lua_setfield(L, -2, "ranges");
        lua_rawseti(L, -2, i + 1);
    }
    return 3;
}

void plugin_open_api(lua_State *L, scn_scenario *const *current)
{
    lua_createtable(L, 0, 2);
    lua_pushlightuserdata(L, (void *)current);
    lua_pushcclosure(L, l_fits, 1);
    lua_setfield(L, -2, "fits");
    lua_pushlightuserdata(L, (void *)current);
    lua_pushcclosure(L, l_estimate, 1);
    lua_setfield(L, -2, "estimate");
    lua_setglobal(L, "fusync");
}
