/*
** lua_helpers.h — the fusync.* helpers that read files on a scenario's
** behalf (fusync.scenario, fusync.hf_config, fusync.dist.from_file) and the
** confinement of the paths they are given (docs/security.md).  Private to the
** scenario loader: lua_scenario.c owns the load and its state, this file's
** helpers reach that state through the Lua state's extra space.
*/
#ifndef FUSYNC_LUA_HELPERS_H
#define FUSYNC_LUA_HELPERS_H

#include "lua_sandbox.h"
#include "scenario.h"

#include <lua.h>
#include <limits.h>

/* The state of one load.  Reached from Lua callbacks through the state's
** extra space, so nothing here is global. */
typedef struct {
    lsb_budget b;               /* first: the sandbox's hook finds it */
    const char *file;
    const char *const *sets;
    int nsets;
    scn_scenario *out;
    int depth;                  /* fusync.scenario() nesting */
    const char *cur;            /* the file running now: relative paths start at its folder */
    char root[PATH_MAX];        /* the top scenario's folder, resolved: its tree is readable */
    char last_err[PATH_MAX + 512];  /* the last message a helper raised: it quotes no file */
} lctx;

static inline lctx *lscn_ctx_of(lua_State *L) { return *(lctx **)lua_getextraspace(L); }

/* The helpers, as Lua C functions (arguments as docs/scenarios.md gives). */
int lhelp_dist_from_file(lua_State *L);   /* fusync.dist.from_file(path [, column]) */
int lhelp_hf_config(lua_State *L);        /* fusync.hf_config(path) */
int lhelp_scenario(lua_State *L);         /* fusync.scenario(path) */

/* Open the scenario sandbox in L's current globals (lua_scenario.c): an
** included scenario runs in one of its own. */
void lscn_open_sandbox(lua_State *L);

#endif
