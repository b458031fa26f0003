/*
** lua_sandbox.c — the shared Lua sandbox (see lua_sandbox.h).
*/
#include "lua_sandbox.h"

#include <stdlib.h>
#include <lauxlib.h>
#include <lualib.h>

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
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
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
    lua_getglobal(L, "setmetatable");
    lua_pushstring(L, who);
    lua_pushcclosure(L, safe_setmetatable, 2);
    lua_setglobal(L, "setmetatable");
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    lua_pop(L, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    /* a fixed seed: the same chunk gives the same result every run */
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 0);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
}

int lsb_msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) msg = lua_tostring(L, -1);
        else msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}
