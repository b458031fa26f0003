/*
** lua_scenario.h — load a scenario file (a Lua chunk returning a table) into
** an scn_scenario.  The chunk runs sandboxed in a fresh lua_State with a
** `fusync` table of presets and helpers; its result is checked field by field
** (unknown keys, types, ranges), converted to SI units, derived and validated.
** docs/scenarios.md describes the format.
*/
#ifndef FUSYNC_LUA_SCENARIO_H
#define FUSYNC_LUA_SCENARIO_H

#include <stdbool.h>
#include "scenario.h"
#include "util.h"

/* What a Lua file of fusync's is, read from its text without running it
** (a key of the table it returns, outside comments and strings): a lesson
** has `steps = `, a what-if `vary = ` or `variants = `, a scenario
** `cluster = ` or `workload = `. */
typedef enum { LSCN_KIND_UNKNOWN, LSCN_KIND_SCENARIO, LSCN_KIND_WHATIF, LSCN_KIND_LESSON } lscn_kind;
lscn_kind lscn_file_kind(const char *path);
/* After a failed load of `path` as a `want` file: when it is another kind,
** err (code 2) says what it is and which command takes it instead, and the
** result is true; else err is left as it was. */
bool lscn_wrong_kind(const char *path, lscn_kind want, fs_err *err);

/* Also let scenario helpers (fusync.scenario, fusync.hf_config,
** fusync.dist.from_file) read files under dir (--data-dir); besides it they
** may read the top scenario's folder tree and the shipped examples/ and
** lessons/ (docs/security.md).  Process-wide; false with a message if dir is
** no folder.  lscn_allow_reset forgets every such folder. */
bool lscn_allow_dir(const char *dir, fs_err *err);
void lscn_allow_reset(void);

/* Limits of the sandbox a scenario runs in. */
#define LSCN_INSTRUCTION_BUDGET 50000000L        /* Lua VM instructions */
#define LSCN_MEMORY_BUDGET      (256u << 20)     /* bytes */
#define LSCN_SECONDS            10.0             /* wall clock (FUSYNC_SCENARIO_SECONDS) */

/* Load a scenario file.  sets: array of "PATH=VALUE" overrides (--set),
** applied in order to the returned table before conversion; may be NULL/0.
** On success *out is a derived, validated scenario.  On failure returns false
** with err->code = 2 and a message naming the file and the field path (or
** FILE:LINE for a Lua error, or the --set option); *out is then unspecified. */
bool lscn_load(const char *path, const char *const *sets, int nsets,
               scn_scenario *out, fs_err *err);

#endif
