/*
** lua_helpers.c — the fusync.* helpers that read a file for a scenario:
** fusync.dist.from_file, fusync.hf_config and fusync.scenario, and the
** confinement of every path they are given (docs/security.md).  The chunk
** itself never gets `io`; these read on its behalf, and their messages name
** the file and the line, never the file's text.
*/
#include "lua_helpers.h"
#include "lua_scenario.h"
#include "fields_lua.h"
#include "hfconfig.h"
#include "lengths.h"

#include <lua.h>
#include <lauxlib.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUSYNC_DATADIR
#define FUSYNC_DATADIR "/usr/local/share/fusync"
#endif

/* ---------------------------------------------------------------------------
** What a scenario's helpers may read (docs/security.md): files under the top
** scenario's own folder, the shipped data folders (examples/ and lessons/
** beside the program or under the install's share/fusync) and the folders
** the user names with --data-dir.  A path is resolved (symlinks and ..)
** before the test, and a path that is missing and one that is refused get
** the same message, so a scenario learns nothing about files outside.
** The list is process-wide: set once by the command line before any load,
** inherited by forked workers.
*/
#define LSCN_DATA_DIRS_MAX 16
static char data_dirs[LSCN_DATA_DIRS_MAX][PATH_MAX];
static int ndata_dirs;

bool lscn_allow_dir(const char *dir, fs_err *err)
{
    char real[PATH_MAX];
    struct stat st;
    if (ndata_dirs == LSCN_DATA_DIRS_MAX) {
        fs_err_set(err, 2, "--data-dir: more than %d folders", LSCN_DATA_DIRS_MAX);
        return false;
    }
    if (!realpath(dir, real)) {
        fs_err_set(err, 2, "--data-dir %s: %s", dir, strerror(errno));
        return false;
    }
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fs_err_set(err, 2, "--data-dir %s: not a folder", dir);
        return false;
    }
    snprintf(data_dirs[ndata_dirs++], PATH_MAX, "%s", real);
    return true;
}

void lscn_allow_reset(void) { ndata_dirs = 0; }

/* Raise a helper's own error (with the caller's position, as luaL_error) and
** remember it: an include that fails with exactly this text may show it. */
_Noreturn static void helper_raise(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn static void helper_raise(lua_State *L, const char *fmt, ...)
{
    lctx *c = *(lctx **)lua_getextraspace(L);
    char msg[PATH_MAX + 400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    luaL_where(L, 1);
    snprintf(c->last_err, sizeof c->last_err, "%s%s", lua_tostring(L, -1), msg);
    lua_pop(L, 1);
    lua_pushstring(L, c->last_err);
    lua_error(L);
    abort();    /* not reached: lua_error does not return */
}

/* real lies in the tree under root (both resolved). */
static bool under(const char *real, const char *root)
{
    size_t n = strlen(root);
    if (!n || strncmp(real, root, n) != 0) return false;
    return root[n - 1] == '/' || real[n] == '/' || real[n] == '\0';
}

static bool under_resolved(const char *real, const char *dir)
{
    char r[PATH_MAX];
    return realpath(dir, r) && under(real, r);
}

static bool shipped(const char *real)
{
    static const char *const sub[] = {"examples", "lessons", NULL};
    char dir[PATH_MAX + 64], exe[PATH_MAX];
    for (int i = 0; sub[i]; i++) {
        snprintf(dir, sizeof dir, "%s/%s", FUSYNC_DATADIR, sub[i]);
        if (under_resolved(real, dir)) return true;
    }
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el <= 0) return false;
    exe[el] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = '\0';
    for (int i = 0; sub[i]; i++) {
        /* a source tree's build/ and an install's bin/ */
        snprintf(dir, sizeof dir, "%s/../%s", exe, sub[i]);
        if (under_resolved(real, dir)) return true;
        snprintf(dir, sizeof dir, "%s/../share/fusync/%s", exe, sub[i]);
        if (under_resolved(real, dir)) return true;
    }
    return false;
}

/* The path a helper was given, relative to the folder of the file that
** calls it; raises the one message for "missing" and "not allowed". */
static void resolve_rel(const lctx *c, const char *rel, char *path, size_t n);
static void confine(lua_State *L, const lctx *c, const char *helper, const char *rel,
                    char *path, size_t n)
{
    resolve_rel(c, rel, path, n);
    char real[PATH_MAX];
    bool ok = realpath(path, real) != NULL && c->root[0] && under(real, c->root);
    for (int i = 0; !ok && i < ndata_dirs; i++) ok = under(real, data_dirs[i]);
    if (!ok && realpath(path, real)) ok = shipped(real);
    if (!ok)
        helper_raise(L, "%s: %s: cannot read it: no such file under the scenario's folder, the "
                     "shipped examples/ and lessons/ or a --data-dir folder (docs/security.md)", helper, path);
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        helper_raise(L, "%s: %s: not a regular file", helper, path);
    /* read the resolved path: the test above was made on it */
    snprintf(path, n, "%s", real);
}

/* fusync.dist.from_file(path [, column]): the lengths of a file a user
** exported from their own run, as a histogram (src/lengths.c).  The loader
** reads the file, relative to the scenario's folder; the chunk keeps no io. */
int lhelp_dist_from_file(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *column = luaL_optstring(L, 2, NULL);
    lctx *c = lscn_ctx_of(L);
    char path[PATH_MAX];
    confine(L, c, "fusync.dist.from_file", name, path, sizeof path);
    scn_dist d;
    fs_err err = {0, ""};
    /* lengths_read's messages name lines and columns, never the text */
    if (!lengths_read(path, column, &d, &err)) helper_raise(L, "fusync.dist.from_file: %s", err.msg);
    fields_push_dist(L, &d);
    return 1;
}

/* A path given to a helper, relative to the scenario file's folder unless
** absolute. */
static void resolve_rel(const lctx *c, const char *rel, char *path, size_t n)
{
    const char *file = c->cur ? c->cur : c->file;
    const char *slash = strrchr(file, '/');
    if (rel[0] == '/' || !slash)
        snprintf(path, n, "%s", rel);
    else
        snprintf(path, n, "%.*s/%s", (int)(slash - file), file, rel);
}

/* fusync.hf_config(path): the model a Hugging Face config.json describes
** (src/hfconfig.c), as the table a preset is.  A relative path is taken from
** the folder of the scenario file that calls it.  The loader reads the file; the chunk never
** gets `io`. */
int lhelp_hf_config(lua_State *L)
{
    lctx *c = *(lctx **)lua_getextraspace(L);
    const char *rel = luaL_checkstring(L, 1);
    if (!*rel) helper_raise(L, "fusync.hf_config: the path is empty; give the config.json's path");
    char path[PATH_MAX];
    confine(L, c, "fusync.hf_config", rel, path, sizeof path);
    scn_model m;
    hf_info info;
    fs_err err = {0, ""};
    if (!hf_load(path, &m, &info, &err)) {
        /* The reader's message quotes the file's keys and values; a scenario
        ** that catches the error must not learn them.  `fusync model` run by
        ** the user shows the full reason. */
        helper_raise(L, "fusync.hf_config: %s: not a config.json fusync reads; "
                     "`fusync model %s` says why", rel, rel);
    }
    fields_push_model(L, &m);
    return 1;
}

#define LSCN_INCLUDE_DEPTH 4

/* Fail callback while checking an included scenario's table: the field
** reader's message may quote the file's values, so only the fact is told. */
static void include_fail(freader *r, const char *path, const char *msg)
{
    (void)msg;   /* never quoted: it may hold the included file's text */
    const char *file = r->ud;
    helper_raise(r->L, "fusync.scenario: %s: not a scenario (at %s); `fusync check %s` says why",
                 file, path, file);
}

/* The protected part of an include: the globals are fresh (lhelp_scenario
** swapped them in), so the included chunk sees no value of the including
** one and leaves none behind.  Upvalue-free; arguments: path. */
static int include_body(lua_State *L)
{
    lctx *c = *(lctx **)lua_getextraspace(L);
    const char *path = lua_tostring(L, 1);
    lscn_open_sandbox(L);
    lsb_charge(L, 2000);        /* a fresh sandbox is some thousand instructions of work */
    int ld = luaL_loadfilex(L, path, "t");
    if (ld != LUA_OK) return lua_error(L);
    const char *outer = c->cur;
    c->cur = path;                      /* path stays on the stack at index 1 */
    c->depth++;
    lua_call(L, 0, 1);
    c->depth--;
    c->cur = outer;
    if (!lua_istable(L, -1))
        helper_raise(L, "fusync.scenario: %s: not a scenario (it must return a table)", path);
    /* only a scenario: its table must read as one (raw reads, no code runs) */
    scn_scenario *scratch = lua_newuserdatauv(L, sizeof *scratch, 0);
    scn_defaults(scratch);
    freader r = {.L = L, .fail = include_fail, .ud = (void *)path, .out = scratch, .place = false};
    int t = lua_gettop(L) - 1;
    fields_read_scenario(&r, t);
    lua_settop(L, t);
    return 1;
}

/* The line of an error message "PATH:LINE: ..." about the file path, or 0. */
static int error_line(const char *msg, const char *path)
{
    const char *at = msg ? strstr(msg, path) : NULL;
    if (!at) return 0;
    at += strlen(path);
    return *at == ':' ? atoi(at + 1) : 0;
}

/* fusync.scenario(path): the table another scenario file returns (so a file
** can start from another and change some fields: the calibrated scenarios
** `fusync calibrate --out` writes do).  Relative paths are from the folder
** of the file that calls it, and confined as every helper's are.  The file
** runs in globals of its own and must read as a scenario; a failure names
** the file and line only, since Lua's own message quotes the text. */
int lhelp_scenario(lua_State *L)
{
    lctx *c = *(lctx **)lua_getextraspace(L);
    const char *rel = luaL_checkstring(L, 1);
    if (!*rel) helper_raise(L, "fusync.scenario: the path is empty; give a scenario file's path");
    if (c->depth >= LSCN_INCLUDE_DEPTH)
        helper_raise(L, "fusync.scenario: scenarios nested more than %d deep (does one load itself?)",
                   LSCN_INCLUDE_DEPTH);
    char path[PATH_MAX];
    confine(L, c, "fusync.scenario", rel, path, sizeof path);
    lua_settop(L, 1);
    /* swap in fresh globals, a fresh loaded-modules table and keep the string
    ** metatable, which opening the string library replaces */
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);                /* 2 */
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);               /* 3 */
    lua_pushliteral(L, "");
    if (!lua_getmetatable(L, -1)) lua_pushnil(L);
    lua_remove(L, -2);                                                  /* 4 */
    lua_newtable(L);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    int depth = c->depth;
    const char *outer = c->cur;
    lua_pushcfunction(L, include_body);
    lua_pushstring(L, path);
    int st = lua_pcall(L, 1, 1, 0);                                     /* 5 */
    c->depth = depth;
    c->cur = outer;
    lua_pushliteral(L, "");
    lua_pushvalue(L, 4);
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    lua_pushvalue(L, 2);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushvalue(L, 3);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (st == LUA_OK) return 1;
    const char *m = lua_tostring(L, -1);
    /* a budget stop, an out-of-memory and this loader's own messages (which
    ** quote nothing of the file) pass as they are */
    if (st == LUA_ERRMEM || c->b.stop || !m || strcmp(m, c->last_err) == 0) return lua_error(L);
    int line = error_line(m, path);
    if (line > 0)
        helper_raise(L, "fusync.scenario: %s: does not load as a scenario (line %d); "
                     "`fusync check %s` says why", path, line, path);
    helper_raise(L, "fusync.scenario: %s: does not load as a scenario; `fusync check %s` says why",
                 path, path);
}
