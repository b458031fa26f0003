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

/* The file a policy path names: as given when it exists from here (or is
** absolute), else beside the scenario file when it exists there. */
void policy_resolve_path(const char *path, const scn_scenario *s, char *out, size_t n);

#endif
