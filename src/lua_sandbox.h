/*
** lua_sandbox.h — the rules every Lua chunk fusync runs obeys, scenario
** files, plugins and what-if files alike (docs/security.md):
**   - a memory budget through the allocator;
**   - a safe standard library (no files, processes, environment or bytecode,
**     no finalizers, fixed random seed, no addresses in tostring); calling
**     or indexing a removed name adds "not available in the sandbox" to
**     Lua's "attempt to call a nil value" (lsb_msghandler);
**   - library functions whose work grows with their arguments (string.rep,
**     table.move, table.insert, ...) charged to the instruction budget;
**   - one count hook for the instruction budget of a call and of a run, the
**     memory budget, the wall-clock limit of a call and the user's Ctrl-C; a
**     stop is final (every later instruction raises again), and xpcall's
**     message handler is not run for it (Lua runs it inside the hook, where
**     hooks are off);
**   - a wall-clock watchdog (util.h fs_watch_*) that ends the process when a
**     call stays stuck inside a library function past its limit.
** What to say when a budget trips differs per caller: a text callback.
** Only src/lua_*.c and src/plugin*.c include this.
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

enum {
    LSB_RUNNING = 0,
    LSB_STOP_INSTR,         /* the call's instruction budget */
    LSB_STOP_MEM,           /* the memory budget */
    LSB_STOP_RUN_INSTR,     /* the run's instruction budget (across calls) */
    LSB_STOP_TIME,          /* the call's wall-clock limit */
    LSB_STOP_RUN_TIME,      /* the run's wall-clock budget (across calls) */
};

#define LSB_HOOK_EVERY 1000     /* instructions between two checks */

typedef struct lsb_budget lsb_budget;
struct lsb_budget {
    lsb_mem     mem;
    const char *file;                   /* the chunk's file, for messages */
    long        instr, instr_limit;     /* this call */
    long long   run_instr, run_instr_limit;     /* across calls; limit 0: none */
    double      call_seconds;           /* wall-clock limit of one call; 0 none */
    double      run_seconds, run_seconds_limit; /* spent across calls; limit 0: none */
    double      deadline, started;      /* of the call under way (wall_now) */
    bool        deadline_is_run;        /* the run's budget set the deadline */
    bool        watching;               /* a watchdog is armed for the call */
    int         stop;                   /* LSB_* */
    const char *seconds_env, *run_seconds_env;  /* raise the limits (messages) */
    /* the message for a stop, without the FILE:LINE the hook puts first */
    void      (*stop_text)(const lsb_budget *b, char *buf, size_t n);
};

/* The lua_State's extra space must hold a pointer to a struct whose first
** member is its lsb_budget (C11 6.7.2.1: a pointer to a structure points to
** its first member), set before lsb_open and kept for the state's life. */
lsb_budget *lsb_budget_of(lua_State *L);

/* lua_Alloc over realloc/free that refuses to grow past mem->limit
** (ud is the lsb_mem). */
void *lsb_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Open base (without dofile, loadfile, warn), string (without
** dump), table and math (seeded 0), with setmetatable refusing __gc, xpcall
** respecting stops, tostring/string.format without addresses and the costly
** library functions charged.  `who` names the chunks in messages
** ("scenarios", "plugins"). */
void lsb_open(lua_State *L, const char *who);

/* tostring(v) without addresses: "function: FILE:LINE", "function: builtin",
** "table", ...; values with __tostring use it.  Pushes the string. */
const char *lsb_tolstring(lua_State *L, int idx, size_t *len);

/* Message handler for lua_pcall: the error text plus a traceback. */
int lsb_msghandler(lua_State *L);

/* Around each call into the state: reset the call's count, arm the hook
** and the deadline (the call's limit, cut to what the run has left), and
** the watchdog with "FILE: WHAT did not return ..." for a stuck call.
** `host`: fusync's own code runs in the state (building a context, reading
** an answer), so a long time without a Lua instruction is not a sign of a
** stuck library call; only the deadline counts.  lsb_call_end adds the
** call's time to the run. */
void lsb_call_begin(lsb_budget *b, lua_State *L, const char *what, bool host);
void lsb_call_end(lsb_budget *b);

/* Charge n instructions of work done in C; raises when a budget is spent. */
void lsb_charge(lua_State *L, double n);

#endif
