/*
** policy_place.c — placement policies: place(ctx) returns a plan (pools,
** roles, layouts, staleness...) in the scenario file's `plan` format; it is
** read strictly (unknown keys, types, ranges), written over the scenario's
** plan and then validated and built exactly like a scenario's own plan.
*/
#include "plugin_lua.h"
#include "policy.h"
#include "plan.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ place() */

typedef struct {
    scn_scenario *s;
} place_ud;

static int read_answer(lua_State *L)
{
    place_ud *u = lua_touserdata(L, 1);
    plugin_read_plan(L, 2, u->s, "returned");
    return 0;
}

static int push_ctx_fn(lua_State *L)
{
    plugin_push_ctx(L, lua_touserdata(L, 1));
    return 1;
}

/* Push ctx for `s` on the plugin's stack, building it in protected mode. */
bool plugin_ctx(plugin *p, const scn_scenario *s, fs_err *err)
{
    plugin_set_current(p, s);
    return plugin_protect(p, push_ctx_fn, (void *)s, 0, 1, err);
}

bool policy_place(plugin *p, scn_scenario *s, fs_err *err)
{
    if (!plugin_has(p, "place")) return true;
    lua_State *L = plugin_state(p);
    int top = lua_gettop(L);
    plugin_push_fn(p, "place");
    if (!plugin_ctx(p, s, err)) { lua_settop(L, top); return false; }
    if (!plugin_pcall(p, "place()", 1, 2, err)) { lua_settop(L, top); return false; }
    /* `return nil, "why"`: this scenario has no plan the policy accepts —
    ** an infeasible run (status 1, a sweep's row), not a broken policy */
    if (!lua_toboolean(L, -2) && lua_type(L, -1) == LUA_TSTRING) {
        fs_err_set(err, 1, "%s: place() marked the plan infeasible: %.300s", plugin_path(p), lua_tostring(L, -1));
        lua_settop(L, top);
        return false;
    }
    lua_pop(L, 1);
    scn_scenario trial = *s;
    place_ud u = {&trial};
    fs_err e2 = {0, ""};
    bool ok = plugin_protect(p, read_answer, &u, 1, 0, &e2);
    lua_settop(L, top);
    if (!ok) {
        plugin_answer_error(p, "place", err, "%s", e2.msg);
        return false;
    }
    snprintf(trial.plan.policy, sizeof trial.plan.policy, "%s", plugin_path(p));
    fs_err ve = {0, ""};
    plan pl;
    if (!scn_validate(&trial, &ve) || !plan_build(&trial, &pl, &ve)) {
        /* the scenario's own checker names the field; say who chose it */
        const char *m = ve.msg;
        size_t n = strlen(trial.path);
        if (n && strncmp(m, trial.path, n) == 0 && m[n] == ':') m += n + 2;
        plugin_answer_error(p, "place", err, "returned a plan that does not work: %s", m);
        return false;
    }
    *s = trial;
    return true;
}

/* A relative policy path that does not exist from here is looked up beside
** the scenario file, so `plan.policy = "plugins/x.lua"` works from anywhere
** the scenario's directory makes sense. */
void policy_resolve_path(const char *path, const scn_scenario *s, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    if (path[0] == '/' || access(path, R_OK) == 0) return;
    const char *slash = strrchr(s->path, '/');
    if (!slash) return;
    char cand[1024];
    snprintf(cand, sizeof cand, "%.*s/%s", (int)(slash - s->path), s->path, path);
    if (access(cand, R_OK) == 0) snprintf(out, n, "%s", cand);
}

bool policy_apply(const char *path, scn_scenario *s, fs_err *err)
{
    char full[512];
    policy_resolve_path(path, s, full, sizeof full);
    plugin *p = plugin_open(full, NULL, err);
    if (!p) return false;
    bool ok = policy_place(p, s, err);
    if (ok) snprintf(s->plan.policy, sizeof s->plan.policy, "%s", full);
    plugin_close(p);
    return ok;
}
