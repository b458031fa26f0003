/*
** policy.h — placement policy plugins: a Lua file whose place(ctx) returns
** the pools, their roles and layouts; applied to the scenario's plan and then
** validated exactly like a scenario's own plan.  Implemented in the plugin
** layer (src/plugin*.c), the only place besides lua_scenario.c that sees Lua.
*/
#ifndef FUSYNC_POLICY_H
#define FUSYNC_POLICY_H

#include "scenario.h"

bool policy_apply(const char *path, scn_scenario *s, fs_err *err);

#endif
