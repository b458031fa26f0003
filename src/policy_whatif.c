/*
** policy_whatif.c — what-if files: a plugin that returns
**   vary = { ["plan.staleness"] = {0, 1, 2}, ["cluster.supernodes"] = {1, 2} }
**       (cartesian product; keys in sorted order, the first changes slowest)
**   or vary = { {"plan.staleness", {0, 1, 2}}, ... }  (the order given)
** and/or
**   variants = function(base) return { {["plan.mode"] = "full"}, {name = "x", set = {...}} } end
** Each variant becomes a list of "PATH=VALUE" overrides of the base scenario,
** so it is loaded and validated exactly like `--set PATH=VALUE`.
*/
#include "plugin_lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHATIF_MAX 1000000
#define AXES_MAX 32
/* The host's copy of the variants lies outside the plugin's memory budget:
** a budget of its own, in bytes, counting each string, its pointer and the
** allocator's overhead (docs/security.md). */
#define WHATIF_BYTES_MAX (32u << 20)
#define ALLOC_OVERHEAD 16

typedef struct {
    whatif_list *out;
    int cap;
    size_t bytes;           /* host memory the list holds (estimate) */
} wl_ud;

static void check_bytes(lua_State *L, const wl_ud *u, const char *who)
{
    if (u->bytes > WHATIF_BYTES_MAX)
        luaL_error(L, "%s more than %d MiB of host memory (%d variants so far); "
                   "give fewer variants or fewer fields each", who, (int)(WHATIF_BYTES_MAX >> 20), u->out->nvariants);
}

static void wl_push(wl_ud *u, const char *name)
{
    whatif_list *w = u->out;
    if (w->nvariants == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 16;
        w->v = xrealloc(w->v, (size_t)u->cap * sizeof *w->v);
    }
    whatif_variant *v = &w->v[w->nvariants++];
    memset(v, 0, sizeof *v);
    u->bytes += sizeof *v + ALLOC_OVERHEAD;
    snprintf(v->name, sizeof v->name, "%s", name ? name : "");
}

static void var_add_set(wl_ud *u, whatif_variant *v, const char *path, const char *value)
{
    v->sets = xrealloc(v->sets, (size_t)(v->nsets + 1) * sizeof *v->sets);
    size_t n = strlen(path) + strlen(value) + 2;
    u->bytes += n + sizeof *v->sets + ALLOC_OVERHEAD;
    char *s = xmalloc(n);
    snprintf(s, n, "%s=%s", path, value);
    v->sets[v->nsets++] = s;
}

/* A Lua value as --set text; raises for anything else. */
static void value_text(lua_State *L, int idx, char *buf, size_t n, const char *where)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
        else fmt_double(buf, n, lua_tonumber(L, idx));
        break;
    case LUA_TBOOLEAN: snprintf(buf, n, "%s", lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TSTRING:
        snprintf(buf, n, "%s", lua_tostring(L, idx));
        if (strchr(buf, '\n')) luaL_error(L, "%s: a value may not contain a newline", where);
        break;
    default:
        luaL_error(L, "%s: a value must be a number, string or boolean, got a %s", where, luaL_typename(L, idx));
    }
}

static void check_path(lua_State *L, int idx, const char *where)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        luaL_error(L, "%s: keys must be scenario paths such as \"plan.staleness\", got a %s", where, luaL_typename(L, idx));
    const char *k = lua_tostring(L, idx);
    if (!*k || strchr(k, '=') || strlen(k) > 200) luaL_error(L, "%s: '%s' is not a scenario path", where, k);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The string keys of table t, sorted (left on the stack as a new array). */
static int sorted_keys(lua_State *L, int t, const char *where)
{
    int n = 0;
    luaL_checkstack(L, 6, where);
    lua_pushnil(L);
    while (lua_next(L, t)) { lua_pop(L, 1); check_path(L, -1, where); n++; }
    const char **keys = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *keys, 0);
    int ud = lua_gettop(L);
    lua_createtable(L, n, 0);
    int arr = lua_gettop(L);
    int i = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) { lua_pop(L, 1); lua_pushvalue(L, -1); lua_rawseti(L, arr, ++i); }
    for (i = 0; i < n; i++) { lua_rawgeti(L, arr, i + 1); keys[i] = lua_tostring(L, -1); lua_pop(L, 1); }
    qsort(keys, (size_t)n, sizeof *keys, cmp_str);
    for (i = 0; i < n; i++) { lua_pushstring(L, keys[i]); lua_rawseti(L, arr, i + 1); }
    lua_remove(L, ud);
    return n;
}

/* vary: axes (path, values table) on the stack as pairs; then the product. */
static void read_vary(lua_State *L, wl_ud *u, int vary)
{
    int npath = 0;
    int paths[AXES_MAX], vals[AXES_MAX];
    /* every axis keeps up to three slots (entry, path, values) until the
    ** product is written: room for all of them, beyond LUA_MINSTACK */
    luaL_checkstack(L, 3 * AXES_MAX + 8, "vary: too many fields");
    lua_Integer len = (lua_Integer)lua_rawlen(L, vary);
    if (len > 0) {                      /* ordered form */
        for (lua_Integer i = 1; i <= len; i++) {
            if (npath == AXES_MAX) luaL_error(L, "vary: at most %d fields", AXES_MAX);
            if (lua_rawgeti(L, vary, i) != LUA_TTABLE) luaL_error(L, "vary[%d]: expected {\"path\", {values...}}", (int)i);
            int e = lua_gettop(L);
            lua_rawgeti(L, e, 1);
            check_path(L, -1, "vary");
            paths[npath] = lua_gettop(L);
            lua_rawgeti(L, e, 2);
            vals[npath++] = lua_gettop(L);
        }
    } else {
        int keys = lua_gettop(L) + 1;
        int n = sorted_keys(L, vary, "vary");
        for (int i = 0; i < n; i++) {
            if (npath == AXES_MAX) luaL_error(L, "vary: at most %d fields", AXES_MAX);
            lua_rawgeti(L, keys, i + 1);
            paths[npath] = lua_gettop(L);
            lua_pushvalue(L, -1);
            lua_rawget(L, vary);
            vals[npath++] = lua_gettop(L);
        }
    }
    if (npath == 0) return;
    long total = 1;
    int counts[AXES_MAX];
    for (int i = 0; i < npath; i++) {
        const char *p = lua_tostring(L, paths[i]);
        if (!lua_istable(L, vals[i])) luaL_error(L, "vary[\"%s\"]: expected a list of values, got a %s", p, luaL_typename(L, vals[i]));
        counts[i] = (int)lua_rawlen(L, vals[i]);
        if (counts[i] < 1) luaL_error(L, "vary[\"%s\"]: the list of values is empty", p);
        total *= counts[i];
        if (total > WHATIF_MAX) luaL_error(L, "vary: more than %d variants", WHATIF_MAX);
    }
    char where[256], text[256];
    for (long k = 0; k < total; k++) {
        wl_push(u, NULL);
        whatif_variant *v = &u->out->v[u->out->nvariants - 1];
        long rest = k;
        int idx[AXES_MAX];
        for (int i = npath - 1; i >= 0; i--) { idx[i] = (int)(rest % counts[i]); rest /= counts[i]; }
        for (int i = 0; i < npath; i++) {
            const char *p = lua_tostring(L, paths[i]);
            lua_rawgeti(L, vals[i], idx[i] + 1);
            snprintf(where, sizeof where, "vary[\"%s\"][%d]", p, idx[i] + 1);
            value_text(L, -1, text, sizeof text, where);
            lua_pop(L, 1);
            var_add_set(u, v, p, text);
        }
        check_bytes(L, u, "vary: the variants take");
    }
}

/* One element of the list variants(base) returned. */
static void read_variant(lua_State *L, wl_ud *u, int e, int i)
{
    char where[64], text[256], w2[300];
    snprintf(where, sizeof where, "variants(base) returned [%d]", i);
    if (!lua_istable(L, e)) luaL_error(L, "%s: expected a table of PATH = VALUE, got a %s", where, luaL_typename(L, e));
    int sets = e;
    const char *name = NULL;
    lua_getfield(L, e, "set");
    if (lua_istable(L, -1)) {
        sets = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, e)) {
            lua_pop(L, 1);
            const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
            if (strcmp(k, "set") && strcmp(k, "name")) luaL_error(L, "%s: unknown field '%s' (expected name and set)", where, k);
        }
        lua_getfield(L, e, "name");
        if (!lua_isnil(L, -1) && !lua_isstring(L, -1)) luaL_error(L, "%s.name: expected a string", where);
        name = lua_tostring(L, -1);
    }
    wl_push(u, name);
    whatif_variant *v = &u->out->v[u->out->nvariants - 1];
    int keys = lua_gettop(L) + 1;
    int n = sorted_keys(L, sets, where);
    for (int k = 0; k < n; k++) {
        lua_rawgeti(L, keys, k + 1);
        const char *p = lua_tostring(L, -1);
        lua_pushvalue(L, -1);
        lua_rawget(L, sets);
        snprintf(w2, sizeof w2, "%s[\"%s\"]", where, p);
        value_text(L, -1, text, sizeof text, w2);
        var_add_set(u, v, p, text);
        check_bytes(L, u, "returned variants that take");
        lua_pop(L, 2);
    }
    lua_settop(L, e);
}

typedef struct {
    wl_ud *u;
    bool has_vary;
} vary_ud;

static int vary_fn(lua_State *L)
{
    vary_ud *a = lua_touserdata(L, 1);
    lua_settop(L, 1);
    plugin *p = *(plugin **)lua_getextraspace(L);
    plugin_push_field(p, "vary");
    if (lua_isnil(L, -1)) return 0;
    if (!lua_istable(L, -1)) luaL_error(L, "vary: expected a table {[\"path\"] = {values...}}, got a %s", luaL_typename(L, -1));
    a->has_vary = true;
    read_vary(L, a->u, 2);
    return 0;
}

static int variants_fn(lua_State *L)
{
    wl_ud *u = lua_touserdata(L, 1);
    if (!lua_istable(L, 2)) luaL_error(L, "variants(base) returned a %s; expected a list of variants", luaL_typename(L, 2));
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
    if (n > WHATIF_MAX) luaL_error(L, "variants(base) returned more than %d variants", WHATIF_MAX);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        read_variant(L, u, lua_gettop(L), (int)i);
        lua_settop(L, 2);
    }
    return 0;
}

bool whatif_load(const char *path, const scn_scenario *base, whatif_list *out, fs_err *err)
{
    memset(out, 0, sizeof *out);
    plugin *p = plugin_open(path, NULL, err);
    if (!p) return false;
    wl_ud u = {out, 0, 0};
    vary_ud va = {&u, false};
    bool ok = plugin_protect(p, vary_fn, &va, 0, 0, err);
    if (ok && plugin_has(p, "variants")) {
        lua_State *L = plugin_state(p);
        int top = lua_gettop(L);
        plugin_push_fn(p, "variants");
        ok = plugin_ctx(p, base, err) && plugin_pcall(p, "variants()", 1, 1, err);
        if (ok) {
            fs_err e2 = {0, ""};
            ok = plugin_protect(p, variants_fn, &u, 1, 0, &e2);
            if (!ok) plugin_answer_error(p, "variants", err, "%s", e2.msg + (strncmp(e2.msg, "variants(base) ", 15) ? 0 : 15));
        }
        lua_settop(L, top);
    } else if (ok && !va.has_vary) {
        fs_err_set(err, 2, "%s: a what-if file returns `vary = {...}` and/or `variants = function(base) ... end`; "
                   "this one has neither", path);
        ok = false;
    }
    if (ok && out->nvariants == 0) {
        fs_err_set(err, 2, "%s: the what-if file gives no variants", path);
        ok = false;
    }
    if (!ok) {
        /* a message from the protected readers lacks the file */
        if (strncmp(err->msg, path, strlen(path)) != 0) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err->msg);
            fs_err_set(err, 2, "%s: %s", path, m);
        }
        whatif_free(out);
    }
    plugin_close(p);
    return ok;
}

void whatif_free(whatif_list *w)
{
    for (int i = 0; i < w->nvariants; i++) {
        for (int k = 0; k < w->v[i].nsets; k++) free(w->v[i].sets[k]);
        free(w->v[i].sets);
    }
    free(w->v);
    memset(w, 0, sizeof *w);
}
