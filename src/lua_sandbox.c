/*
** lua_sandbox.c — the shared Lua sandbox (see lua_sandbox.h and
** docs/security.md).
*/
#include "lua_sandbox.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>

lsb_budget *lsb_budget_of(lua_State *L)
{
    void *p;
    memcpy(&p, lua_getextraspace(L), sizeof p);
    return p;
}

void *lsb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lsb_mem *m = ud;
    size_t old = ptr ? osize : 0;   /* with ptr NULL, osize is a type tag */
    if (nsize == 0) {
        free(ptr);
        m->used -= old;
        return NULL;
    }
    if (nsize > old && m->used + (nsize - old) > m->limit) {
        m->refused = true;
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (!q) return NULL;
    m->used = m->used - old + nsize;
    return q;
}

/* ------------------------------------------------------------ budgets */

static void lsb_hook(lua_State *L, lua_Debug *ar);

/* Raise the stop's message at the current line.  From now on every
** instruction raises again, so a pcall, a loop around it or a __close
** handler cannot carry on. */
_Noreturn static void raise_stop(lua_State *L, lsb_budget *b, lua_Debug *ar)
{
    lua_sethook(L, lsb_hook, LUA_MASKCOUNT, 1);
    char why[400];
    b->stop_text(b, why, sizeof why);
    lua_Debug local;
    if (!ar && lua_getstack(L, 1, &local)) ar = &local;
    if (ar && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: %s", ar->short_src, ar->currentline, why);
    else
        lua_pushfstring(L, "%s: %s", b->file, why);
    lua_error(L);
    abort();    /* not reached: lua_error does not return */
}

static void lsb_hook(lua_State *L, lua_Debug *ar)
{
    lsb_budget *b = lsb_budget_of(L);
    if (!b->stop) {
        /* Ctrl-C, SIGTERM, SIGHUP: the user wants out, now (cli.md) */
        if (fs_stop_signal) fs_fatal_exit(fs_stop_status(), "\nfusync: interrupted\n");
        b->instr += LSB_HOOK_EVERY;
        b->run_instr += LSB_HOOK_EVERY;
        double now = wall_now();
        if (b->watching) fs_watch_tick(now);    /* Lua is running, not stuck in C */
        /* stop short of the memory limit: near it, the collector thrashes
        ** for a long time before an allocation is finally refused */
        if (b->mem.refused || b->mem.used > b->mem.limit - b->mem.limit / 16) b->stop = LSB_STOP_MEM;
        else if (b->instr > b->instr_limit) b->stop = LSB_STOP_INSTR;
        else if (b->run_instr_limit > 0 && b->run_instr > b->run_instr_limit) b->stop = LSB_STOP_RUN_INSTR;
        else if (b->deadline > 0 && now > b->deadline)
            b->stop = b->deadline_is_run ? LSB_STOP_RUN_TIME : LSB_STOP_TIME;
        else return;
    }
    raise_stop(L, b, ar);
}

void lsb_charge(lua_State *L, double n)
{
    lsb_budget *b = lsb_budget_of(L);
    if (!b) return;
    if (!b->stop) {
        long add = !(n < 1e15) ? 1000000000000000L : n > 0 ? (long)n : 0;
        if (b->watching) fs_watch_tick(wall_now());     /* metered work is progress */
        b->instr += add;
        b->run_instr += add;
        if (b->instr > b->instr_limit) b->stop = LSB_STOP_INSTR;
        else if (b->run_instr_limit > 0 && b->run_instr > b->run_instr_limit) b->stop = LSB_STOP_RUN_INSTR;
        else return;
    }
    raise_stop(L, b, NULL);
}

void lsb_call_begin(lsb_budget *b, lua_State *L, const char *what, bool host)
{
    double now = wall_now();
    b->instr = 0;
    b->started = now;
    double lim = b->call_seconds;
    b->deadline_is_run = false;
    if (b->run_seconds_limit > 0) {
        double left = b->run_seconds_limit - b->run_seconds;
        if (left < 0) left = 0;
        if (lim <= 0 || left < lim) { lim = left; b->deadline_is_run = true; }
    }
    b->deadline = lim > 0 || b->deadline_is_run ? now + lim : 0;
    lua_sethook(L, lsb_hook, LUA_MASKCOUNT, b->stop ? 1 : LSB_HOOK_EVERY);
    b->watching = true;
    const char *env = b->deadline_is_run ? b->run_seconds_env : b->seconds_env;
    char stuck[600], late[600];
    snprintf(stuck, sizeof stuck, "%s: %s is stuck inside a library function (no Lua instruction for %g s); "
             "stopped", b->file, what, FS_WATCH_STUCK);
    snprintf(late, sizeof late, "%s: %s did not return within %.3g s of its %s wall-clock budget; stopped%s%s%s",
             b->file, what, lim + FS_WATCH_GRACE, b->deadline_is_run ? "run's" : "call's", env ? " (" : "",
             env ? env : "", env ? " raises it)" : "");
    fs_watch_begin(b->deadline, host ? 0 : FS_WATCH_STUCK, stuck, late);
}

void lsb_call_end(lsb_budget *b)
{
    if (b->watching) fs_watch_end();
    b->watching = false;
    b->run_seconds += wall_now() - b->started;
}

/* ------------------------------------------------------------ library */

/* The original library function is upvalue 1 of every wrapper. */
static int call_original(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* setmetatable(t, mt) unless mt carries __gc: Lua only marks an object for
** finalization when __gc is in the metatable as it is set. */
static int safe_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "__gc metamethods are not allowed in %s", lua_tostring(L, lua_upvalueindex(2)));
        lua_pop(L, 1);
    }
    return call_original(L);
}

/* xpcall's message handler, run only for errors that are not a budget stop:
** Lua calls the handler inside the count hook that raised the stop, where
** hooks are off, so a handler that loops could never be stopped. */
static int xpcall_handler(lua_State *L)
{
    lsb_budget *b = lsb_budget_of(L);
    if (b && b->stop) return 1;         /* the stop's message, untouched */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int safe_xpcall(lua_State *L)
{
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, xpcall_handler, 1);
    lua_replace(L, 2);
    return call_original(L);
}

const char *lsb_tolstring(lua_State *L, int idx, size_t *len)
{
    idx = lua_absindex(L, idx);
    if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1);
        return luaL_tolstring(L, idx, len);
    }
    switch (lua_type(L, idx)) {
    case LUA_TFUNCTION:
        if (lua_iscfunction(L, idx)) lua_pushliteral(L, "function: builtin");
        else {
            lua_Debug ar;
            lua_pushvalue(L, idx);
            if (lua_getinfo(L, ">S", &ar)) lua_pushfstring(L, "function: %s:%d", ar.short_src, ar.linedefined);
            else lua_pushliteral(L, "function");
        }
        break;
    case LUA_TTABLE: case LUA_TUSERDATA: case LUA_TLIGHTUSERDATA: case LUA_TTHREAD:
        /* no address: it would differ from run to run and leak the layout */
        {
            int t = luaL_getmetafield(L, idx, "__name");
            if (t != LUA_TSTRING) {
                if (t != LUA_TNIL) lua_pop(L, 1);
                lua_pushstring(L, luaL_typename(L, idx));
            }
        }
        break;
    default:
        return luaL_tolstring(L, idx, len);
    }
    return lua_tolstring(L, -1, len);
}

static int safe_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    lsb_tolstring(L, 1, NULL);
    return 1;
}

/* string.format without %p (an address) and with %s of a table or a
** function written by lsb_tolstring. */
static int safe_format(lua_State *L)
{
    size_t fl;
    const char *f = luaL_checklstring(L, 1, &fl);
    int arg = 1, top = lua_gettop(L);
    lsb_charge(L, (double)fl / 16);
    for (size_t i = 0; i < fl; i++) {
        if (f[i] != '%') continue;
        if (++i < fl && f[i] == '%') continue;
        while (i < fl && strchr("-+ #0123456789.", f[i])) i++;
        if (i >= fl) break;
        arg++;
        if (f[i] == 'p') return luaL_error(L, "string.format: %%p (an address) is not available in the sandbox");
        if (f[i] == 's' && arg <= top) {
            int t = lua_type(L, arg);
            if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD ||
                t == LUA_TLIGHTUSERDATA) {
                lsb_tolstring(L, arg, NULL);
                lua_replace(L, arg);
            }
        }
    }
    return call_original(L);
}

static lua_Integer len_of(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    return luaL_len(L, idx);
}

/* Charges before the work, in instructions: an element moved or compared
** counts one, a byte copied 1/16, a byte scanned or converted 1/4 (about
** what the VM runs in the same time). */
static int charged_rep(lua_State *L)
{
    size_t l, lsep = 0;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    /* an empty result loops n times in C: answer it here */
    if (n <= 0 || l + lsep == 0) { lua_pushliteral(L, ""); return 1; }
    lsb_charge(L, (double)n * (double)(l + lsep) / 16 + 1);
    return call_original(L);
}

static int charged_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    if (e >= f) lsb_charge(L, (double)e - (double)f + 1);
    return call_original(L);
}

static int charged_insert(lua_State *L)
{
    if (lua_gettop(L) == 3 && lua_isinteger(L, 2)) {
        double n = (double)len_of(L, 1) - (double)lua_tointeger(L, 2) + 1;
        if (n > 0) lsb_charge(L, n);
    }
    return call_original(L);
}

static int charged_remove(lua_State *L)
{
    lua_Integer n = len_of(L, 1);
    if (lua_isinteger(L, 2)) {
        double k = (double)n - (double)lua_tointeger(L, 2) + 1;
        if (k > 0) lsb_charge(L, k);
    }
    return call_original(L);
}

/* The work of concat/unpack over t[i..j], charged before the call.  Only
** work the call will do is charged: an argument error must stay an
** ordinary error (pcall catches it), not a final budget stop.  concat stops
** at the first item that is no string or number, at most one past the
** table's border when the hole is there; unpack refuses more results than
** a Lua stack holds. */
static int charged_range(lua_State *L, int first_arg, bool unpack)
{
    lua_Integer i = luaL_optinteger(L, first_arg, 1);
    lua_Integer j = lua_isnoneornil(L, first_arg + 1) ? len_of(L, 1) : luaL_checkinteger(L, first_arg + 1);
    if (j >= i) {
        double n = (double)j - (double)i + 1;
        if (unpack && n >= 1000000) n = 0;          /* LUAI_MAXSTACK: "too many results" */
        if (!unpack && lua_type(L, 1) == LUA_TTABLE) {
            double held = (double)lua_rawlen(L, 1) - (double)i + 2;
            if (held < n && !luaL_getmetafield(L, 1, "__index")) n = held > 1 ? held : 1;
            else if (held < n) lua_pop(L, 1);
        }
        lsb_charge(L, n);
    }
    return call_original(L);
}

static int charged_concat(lua_State *L) { return charged_range(L, 3, false); }
static int charged_unpack(lua_State *L) { return charged_range(L, 2, true); }

static int charged_sort(lua_State *L)
{
    double n = (double)len_of(L, 1);
    if (n > 1) lsb_charge(L, n * log2(n));
    return call_original(L);
}

/* Work proportional to the subject string (argument 1).  Patterns that
** backtrack can take far longer than that: the call's wall-clock limit and
** the watchdog end those (docs/security.md). */
static int charged_scan(lua_State *L)
{
    size_t l = 0;
    if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &l);
    lsb_charge(L, (double)l / 4 + 1);
    return call_original(L);
}

static void wrap(lua_State *L, const char *name, lua_CFunction f)
{
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
}

void lsb_open(lua_State *L, const char *who)
{
    static const char *const base_removed[] = {"dofile", "loadfile", "warn", NULL};
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    lua_pop(L, 1);
    for (int i = 0; base_removed[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, base_removed[i]);
    }
    lua_pushglobaltable(L);
    lua_getfield(L, -1, "setmetatable");
    lua_pushstring(L, who);
    lua_pushcclosure(L, safe_setmetatable, 2);
    lua_setfield(L, -2, "setmetatable");
    wrap(L, "xpcall", safe_xpcall);
    lua_pushcfunction(L, safe_tostring);
    lua_setfield(L, -2, "tostring");
    lua_pop(L, 1);

    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    wrap(L, "rep", charged_rep);
    wrap(L, "format", safe_format);
    static const char *const scans[] = {"find", "match", "gmatch", "gsub", "upper", "lower", "reverse", "byte",
                                        "sub", NULL};
    for (int i = 0; scans[i]; i++) wrap(L, scans[i], charged_scan);
    lua_pop(L, 1);

    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    wrap(L, "move", charged_move);
    wrap(L, "insert", charged_insert);
    wrap(L, "remove", charged_remove);
    wrap(L, "concat", charged_concat);
    wrap(L, "unpack", charged_unpack);
    wrap(L, "sort", charged_sort);
    lua_pop(L, 1);

    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    /* a fixed seed: the same chunk gives the same result every run */
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
}

/* What the sandboxes leave out, by the name Lua's error message gives:
** "attempt to call a nil value (global 'io')" gets the reason appended. */
static const struct { const char *kind, *name, *full; } REMOVED[] = {
    {"global", "io", "io"}, {"global", "os", "os"}, {"global", "debug", "debug"},
    {"global", "package", "package"}, {"global", "require", "require"}, {"global", "dofile", "dofile"},
    {"global", "loadfile", "loadfile"}, {"global", "warn", "warn"}, {"global", "load", "load"},
    {"global", "print", "print"}, {"global", "collectgarbage", "collectgarbage"},
    {"global", "coroutine", "coroutine"}, {"global", "utf8", "utf8"},
    {"field", "execute", "os.execute"}, {"field", "exit", "os.exit"}, {"field", "getenv", "os.getenv"},
    {"field", "remove", "os.remove"}, {"field", "rename", "os.rename"}, {"field", "tmpname", "os.tmpname"},
    {"field", "setlocale", "os.setlocale"}, {"field", "dump", "string.dump"},
    {"method", "dump", "string.dump"},
};

/* If msg is Lua's "attempt to call/index a nil value (global 'io')" for a
** name the sandbox removed, push msg with that part replaced by
** "io is not available in the sandbox" and return it; else NULL. */
static const char *removed_text(lua_State *L, const char *msg)
{
    const char *at = strstr(msg, "attempt to ");
    const char *nil = at ? strstr(at, " a nil value (") : NULL;
    if (!nil) return NULL;
    const char *p = nil + strlen(" a nil value (");
    for (size_t i = 0; i < sizeof REMOVED / sizeof REMOVED[0]; i++) {
        size_t k = strlen(REMOVED[i].kind), n = strlen(REMOVED[i].name);
        if (strncmp(p, REMOVED[i].kind, k) == 0 && strncmp(p + k, " '", 2) == 0 &&
            strncmp(p + k + 2, REMOVED[i].name, n) == 0 && strncmp(p + k + 2 + n, "')", 2) == 0) {
            return lua_pushfstring(L, "%s%s is not available in the sandbox (docs/security.md)%s",
                                   lua_pushlstring(L, msg, (size_t)(at - msg)), REMOVED[i].full, p + k + 4 + n);
        }
    }
    return NULL;
}

int lsb_msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        lsb_budget *b = lsb_budget_of(L);
        if (!(b && b->stop) && luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    const char *gone = removed_text(L, msg);
    if (gone) msg = gone;
    luaL_traceback(L, L, msg, 1);
    return 1;
}
