/*
** plugin_lua.h — the inside of the plugin layer, for plugin.c and the
** policy_*.c modules only: the Lua state of a plugin, protected calls, the
** context tables handed to plugins and the reading of their answers.
** Nothing outside src/plugin.c, src/plugin_api.c, src/plugin_lesson.c
** (lesson files) and src/policy_*.c includes this.
*/
#ifndef FUSYNC_PLUGIN_LUA_H
#define FUSYNC_PLUGIN_LUA_H

#include "plugin.h"
#include "plugin_api.h"     /* plugin_read_plan, below the host */

#include <lua.h>
#include <lauxlib.h>

lua_State *plugin_state(plugin *p);

/* Push hook `name` (a function of the plugin); false if it has none. */
bool plugin_push_fn(plugin *p, const char *name);

/* Push field `name` of the plugin's table of hooks (raw; may be nil). */
void plugin_push_field(plugin *p, const char *name);

/* Call the function under its `nargs` arguments on the stack with the
** instruction and wall-clock budgets and a traceback handler.  On success
** leaves `nres` results; on failure leaves nothing and fills err (code 2,
** FILE:LINE, traceback).  `what` names the call for messages ("place()"). */
bool plugin_pcall(plugin *p, const char *what, int nargs, int nres, fs_err *err);

/* Run fn in protected mode with `ud` (a light userdata) as argument 1 and
** the `nargs` values on top of the stack as arguments 2.., leaving `nres`
** results: for host code that touches Lua values (building a context,
** reading an answer), so an out-of-memory there cannot reach Lua's panic
** handler.  fn reports a problem by raising an error whose message becomes
** err (code 2).  The arguments are consumed either way. */
bool plugin_protect(plugin *p, lua_CFunction fn, void *ud, int nargs, int nres, fs_err *err);

/* Fill err with "FILE:LINE: what returned …" where LINE is where the hook
** function `fn` is defined. */
void plugin_answer_error(plugin *p, const char *fn, fs_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Context tables, in the scenario file's units (GiB, GB/s, TFLOP/s):
** ctx = {scenario=, cluster=, models=, workload=, plan=}.  Models carry their
** derived figures (params_total, params_active, kv_bytes_per_token, ...). */
void plugin_push_ctx(lua_State *L, const scn_scenario *s);
void plugin_push_report(lua_State *L, const report *r);
/* Push plugin_push_ctx(s) on the plugin's stack, built in protected mode. */
bool plugin_ctx(plugin *p, const scn_scenario *s, fs_err *err);


/* The scenario the plugin's last ctx was made from (place, candidates,
** score, variants): what fusync.fits(plan) fits a plan to.  NULL before. */
void plugin_set_current(plugin *p, const scn_scenario *s);
const scn_scenario *plugin_current(const plugin *p);


#endif
