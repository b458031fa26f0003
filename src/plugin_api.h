/*
** plugin_api.h — what the plugin host lends a plugin from the layers below
** it (plugin_api.c): the reader of plan tables and the `fusync` table.  It
** knows no plugin: the host (plugin.c) and the policy modules call it, it
** calls neither.
*/
#ifndef FUSYNC_PLUGIN_API_H
#define FUSYNC_PLUGIN_API_H

#include "scenario.h"

#include <lua.h>

/* Read a plan table (the scenario's `plan` format) at stack index idx into
** s->plan: fields present override, `pools` replaces the pools, `mode`
** without `pools` drops them.  Unknown keys and bad types are errors naming
** the field ("place() returned plan.train.tp: ...").  Must run protected. */
void plugin_read_plan(lua_State *L, int idx, scn_scenario *s, const char *what);

/* Install the `fusync` table of a plugin's state L: fusync.fits(plan) and
** fusync.estimate(plan), over the scenario *current holds when they are
** called (the host's slot for the scenario of the last ctx; NULL before). */
void plugin_open_api(lua_State *L, scn_scenario *const *current);

#endif
