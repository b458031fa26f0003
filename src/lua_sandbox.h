/*
** lua_sandbox.h — the rules every Lua chunk fusync runs obeys, scenario
** files and plugins alike: a memory budget through the allocator, a safe
** standard library (no files, no bytecode, no finalizers, fixed random
** seed), and the message handler that adds a traceback.  The instruction
** budget's count hook stays with each caller: what to say when it trips
** differs.  Only src/lua_*.c and src/plugin*.c include this.
*/
#ifndef FUSYNC_LUA_SANDBOX_H
#define FUSYNC_LUA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <lua.h>

typedef struct {
    size_t used, limit;
    bool   refused;         /* an allocation was refused: the budget is spent */
} lsb_mem;

/* lua_Alloc over realloc/free that refuses to grow past mem->limit
** (ud is the lsb_mem). */
void *lsb_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Open base (without dofile, loadfile, warn), string (without dump), table
** and math (seeded 0), and replace setmetatable by one that refuses __gc —
** Lua runs finalizers with hooks off, so one could escape the instruction
** budget.  `who` names the chunks in that message ("scenarios", "plugins"). */
void lsb_open(lua_State *L, const char *who);

/* Message handler for lua_pcall: the error text plus a traceback. */
int lsb_msghandler(lua_State *L);

#endif
