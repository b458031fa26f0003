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

#define MiB (1024.0 * 1024.0)

static const char *const PLAN_KEYS[] = {
    "mode", "rollout_devices", "rollout_fraction", "aux_devices", "pools", "train", "rollout", "aux_tp",
    "offload", "distqueue", "zero_redundancy", "bucket_mb", "staleness", "partial_rollout", "on_update", "on_stale",
    "policy", NULL
};
static const char *const TRAIN_KEYS[] = {"tp", "pp", "ep", "dp", "micro_batch", "recompute", "zero", "uneven_layers", NULL};
static const char *const DQ_KEYS[] = {"hierarchical", "packed", NULL};
static const char *const ROLLOUT_KEYS[] = {"tp", "ep", "max_seqs", "mem_util", NULL};
static const char *const OFFLOAD_KEYS[] = {"optimizer", "grads", NULL};
static const char *const POOL_KEYS[] = {"name", "devices", "roles", NULL};
static const char *const ROLE_NAMES[] = {"rollout", "train", "ref", "reward", "critic", NULL};

typedef struct {
    lua_State  *L;
    const char *what;       /* "place() returned" */
} rd;

static const char *type_of(lua_State *L, int idx, char *buf, size_t n)
{
    int t = lua_type(L, idx);
    if (t == LUA_TSTRING) snprintf(buf, n, "the string \"%.40s\"", lua_tostring(L, idx));
    else if (t == LUA_TNUMBER) snprintf(buf, n, "the number %.17g", lua_tonumber(L, idx));
    else snprintf(buf, n, "a %s", lua_typename(L, t));
    return buf;
}

static void check_keys(rd *r, int t, const char *path, const char *const *known)
{
    lua_State *L = r->L;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "%s %s: keys must be field names", r->what, path);
        const char *k = lua_tostring(L, -1);
        bool ok = false;
        const char *best = NULL;
        int bd = 3;
        for (int i = 0; known[i]; i++) {
            if (strcmp(k, known[i]) == 0) ok = true;
            int d = str_distance(k, known[i]);
            if (d < bd) { bd = d; best = known[i]; }
        }
        if (!ok) {
            if (best) luaL_error(L, "%s %s.%s: unknown field; did you mean '%s'?", r->what, path, k, best);
            luaL_error(L, "%s %s.%s: unknown field", r->what, path, k);
        }
    }
}

/* Push field `key` of table t; returns its type (nil when absent). */
static int field(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

static bool get_int(rd *r, int t, const char *path, const char *key, int *out, long lo, long hi)
{
    lua_State *L = r->L;
    if (field(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return false; }
    int isint = 0;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    char got[96];
    if (!isint || lua_type(L, -1) != LUA_TNUMBER)
        luaL_error(L, "%s %s.%s: expected a whole number, got %s", r->what, path, key, type_of(L, -1, got, sizeof got));
    if (v < lo || v > hi) luaL_error(L, "%s %s.%s: %d is outside %d..%d", r->what, path, key, (int)v, (int)lo, (int)hi);
    *out = (int)v;
    lua_pop(L, 1);
    return true;
}

static bool get_num(rd *r, int t, const char *path, const char *key, double *out, double lo, double hi, double scale)
{
    lua_State *L = r->L;
    if (field(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return false; }
    char got[96];
    if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_error(L, "%s %s.%s: expected a number, got %s", r->what, path, key, type_of(L, -1, got, sizeof got));
    double v = lua_tonumber(L, -1);
    if (!(v >= lo && v <= hi)) luaL_error(L, "%s %s.%s: %f is outside [%f, %f]", r->what, path, key, v, lo, hi);
    *out = v * scale;
    lua_pop(L, 1);
    return true;
}

static bool get_bool(rd *r, int t, const char *path, const char *key, bool *out)
{
    lua_State *L = r->L;
    if (field(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return false; }
    char got[96];
    if (lua_type(L, -1) != LUA_TBOOLEAN)
        luaL_error(L, "%s %s.%s: expected true or false, got %s", r->what, path, key, type_of(L, -1, got, sizeof got));
    *out = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return true;
}

static bool get_enum(rd *r, int t, const char *path, const char *key, const char *const *names, int *out)
{
    lua_State *L = r->L;
    if (field(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return false; }
    char got[96];
    if (lua_type(L, -1) == LUA_TSTRING) {
        const char *v = lua_tostring(L, -1);
        for (int i = 0; names[i]; i++)
            if (strcmp(v, names[i]) == 0) { *out = i; lua_pop(L, 1); return true; }
    }
    char list[160] = "";
    for (int i = 0; names[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    return luaL_error(L, "%s %s.%s: expected one of %s, got %s", r->what, path, key, list, type_of(L, -1, got, sizeof got));
}

static int get_table(rd *r, int t, const char *path, const char *key)
{
    lua_State *L = r->L;
    int ty = field(L, t, key);
    if (ty == LUA_TNIL) { lua_pop(L, 1); return 0; }
    char got[96];
    if (ty != LUA_TTABLE)
        luaL_error(L, "%s %s.%s: expected a table, got %s", r->what, path, key, type_of(L, -1, got, sizeof got));
    return lua_gettop(L);
}

static void read_pools(rd *r, int pt, scn_plan *p)
{
    lua_State *L = r->L;
    int pools = get_table(r, pt, "plan", "pools");
    if (!pools) return;
    lua_Integer n = (lua_Integer)lua_rawlen(L, pools);
    if (n < 1 || n > SCN_POOLS_MAX)
        luaL_error(L, "%s plan.pools: expected a list of 1..%d pools, got %d", r->what, SCN_POOLS_MAX, (int)n);
    char path[64], got[96];
    for (lua_Integer i = 1; i <= n; i++) {
        scn_pool *q = &p->pools[i - 1];
        snprintf(path, sizeof path, "plan.pools[%d]", (int)i);
        if (lua_rawgeti(L, pools, i) != LUA_TTABLE)
            luaL_error(L, "%s %s: expected a pool {name=, devices=, roles={...}}, got %s", r->what, path,
                       type_of(L, -1, got, sizeof got));
        int t = lua_gettop(L);
        check_keys(r, t, path, POOL_KEYS);
        snprintf(q->name, sizeof q->name, "pool%d", (int)i);
        if (field(L, t, "name") == LUA_TSTRING) snprintf(q->name, sizeof q->name, "%s", lua_tostring(L, -1));
        else if (!lua_isnil(L, -1))
            luaL_error(L, "%s %s.name: expected a string, got %s", r->what, path, type_of(L, -1, got, sizeof got));
        lua_pop(L, 1);
        if (!get_int(r, t, path, "devices", &q->devices, 1, INT_MAX))
            luaL_error(L, "%s %s.devices: required (a whole number >= 1)", r->what, path);
        char rpath[80];
        snprintf(rpath, sizeof rpath, "%s.roles", path);
        int roles = get_table(r, t, path, "roles");
        if (!roles) luaL_error(L, "%s %s: required: a list of rollout, train, ref, reward, critic", r->what, rpath);
        q->roles = 0;
        lua_Integer nr = (lua_Integer)lua_rawlen(L, roles);
        for (lua_Integer k = 1; k <= nr; k++) {
            lua_rawgeti(L, roles, k);
            const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            int found = -1;
            if (v && strcmp(v, "reference") == 0) found = 2;
            for (int b = 0; v && found < 0 && ROLE_NAMES[b]; b++) if (strcmp(v, ROLE_NAMES[b]) == 0) found = b;
            if (found < 0)
                luaL_error(L, "%s %s[%d]: expected one of rollout, train, ref, reward, critic, got %s", r->what,
                           rpath, (int)k, type_of(L, -1, got, sizeof got));
            q->roles |= 1u << found;
            lua_pop(L, 1);
        }
        if (!q->roles) luaL_error(L, "%s %s: a pool needs at least one role", r->what, rpath);
        lua_pop(L, 2);
    }
    p->npools = (int)n;
    lua_pop(L, 1);
}

void plugin_read_plan(lua_State *L, int idx, scn_scenario *s, const char *what)
{
    rd r = {L, what};
    scn_plan *p = &s->plan;
    int pt = lua_absindex(L, idx);
    char got[96];
    if (!lua_istable(L, pt))
        luaL_error(L, "%s %s instead of a plan table {pools=, train=, rollout=, ...}", what, type_of(L, pt, got, sizeof got));
    check_keys(&r, pt, "plan", PLAN_KEYS);
    static const char *const modes[] = {"separate", "colocate", "full", NULL};
    int e;
    bool mode_set = get_enum(&r, pt, "plan", "mode", modes, &e);
    if (mode_set) scn_mode_parse(modes[e], &p->mode);
    get_int(&r, pt, "plan", "rollout_devices", &p->rollout_devices, 0, INT_MAX);
    get_num(&r, pt, "plan", "rollout_fraction", &p->rollout_fraction, 1e-6, 1, 1);
    get_int(&r, pt, "plan", "aux_devices", &p->aux_devices, 0, INT_MAX);
    int had_pools = p->npools;
    p->npools = 0;
    read_pools(&r, pt, p);
    if (p->npools == 0 && !mode_set) p->npools = had_pools;   /* untouched */
    int t = get_table(&r, pt, "plan", "train");
    if (t) {
        static const char *const rec[] = {"none", "selective", "full", NULL};
        check_keys(&r, t, "plan.train", TRAIN_KEYS);
        get_int(&r, t, "plan.train", "tp", &p->train.tp, 1, 1 << 20);
        get_int(&r, t, "plan.train", "pp", &p->train.pp, 1, 1 << 20);
        get_int(&r, t, "plan.train", "ep", &p->train.ep, 1, 1 << 20);
        get_int(&r, t, "plan.train", "dp", &p->train.dp, 0, 1 << 20);
        get_int(&r, t, "plan.train", "micro_batch", &p->train.micro_batch, 1, 1 << 20);
        if (get_enum(&r, t, "plan.train", "recompute", rec, &e))
            p->train.recompute = e == 0 ? RECOMPUTE_NONE : e == 1 ? RECOMPUTE_SELECTIVE : RECOMPUTE_FULL;
        get_int(&r, t, "plan.train", "zero", &p->train.zero, 0, 3);
        get_bool(&r, t, "plan.train", "uneven_layers", &p->train.uneven_layers);
        lua_pop(L, 1);
    }
    t = get_table(&r, pt, "plan", "rollout");
    if (t) {
        check_keys(&r, t, "plan.rollout", ROLLOUT_KEYS);
        get_int(&r, t, "plan.rollout", "tp", &p->rollout.tp, 1, 1 << 20);
        get_int(&r, t, "plan.rollout", "ep", &p->rollout.ep, 1, 1 << 20);
        get_int(&r, t, "plan.rollout", "max_seqs", &p->rollout.max_seqs, 1, 1 << 24);
        get_num(&r, t, "plan.rollout", "mem_util", &p->rollout.mem_util, 1e-6, 1, 1);
        lua_pop(L, 1);
    }
    get_int(&r, pt, "plan", "aux_tp", &p->aux_tp, 1, 1 << 20);
    t = get_table(&r, pt, "plan", "offload");
    if (t) {
        check_keys(&r, t, "plan.offload", OFFLOAD_KEYS);
        get_bool(&r, t, "plan.offload", "optimizer", &p->offload_optimizer);
        get_bool(&r, t, "plan.offload", "grads", &p->offload_grads);
        lua_pop(L, 1);
    }
    t = get_table(&r, pt, "plan", "distqueue");
    if (t) {
        check_keys(&r, t, "plan.distqueue", DQ_KEYS);
        get_bool(&r, t, "plan.distqueue", "hierarchical", &p->dq_hierarchical);
        get_bool(&r, t, "plan.distqueue", "packed", &p->dq_packed);
        lua_pop(L, 1);
    }
    get_bool(&r, pt, "plan", "zero_redundancy", &p->zero_redundancy);
    get_num(&r, pt, "plan", "bucket_mb", &p->bucket_bytes, 1, 1e9, MiB);
    get_int(&r, pt, "plan", "staleness", &p->staleness, 0, 64);
    get_num(&r, pt, "plan", "partial_rollout", &p->partial_rollout, 1e-6, 1, 1);
    static const char *const onupd[] = {"continue", "restart", NULL};
    static const char *const onstale[] = {"wait", "discard", NULL};
    if (get_enum(&r, pt, "plan", "on_update", onupd, &e)) p->on_update = e ? ONUPD_RESTART : ONUPD_CONTINUE;
    if (get_enum(&r, pt, "plan", "on_stale", onstale, &e)) p->on_stale = e ? STALE_DISCARD : STALE_WAIT;
}

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
    return plugin_protect(p, push_ctx_fn, (void *)s, 0, 1, err);
}

bool policy_place(plugin *p, scn_scenario *s, fs_err *err)
{
    if (!plugin_has(p, "place")) return true;
    lua_State *L = plugin_state(p);
    int top = lua_gettop(L);
    plugin_push_fn(p, "place");
    if (!plugin_ctx(p, s, err)) { lua_settop(L, top); return false; }
    if (!plugin_pcall(p, "place()", 1, 1, err)) { lua_settop(L, top); return false; }
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
