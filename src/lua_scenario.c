/*
** lua_scenario.c — the scenario loader: run a Lua chunk in a sandbox, apply
** --set overrides to the table it returns, and convert that table into an
** scn_scenario with every key, type and range checked.
**
** Everything Lua happens inside one protected call (load_main), so an error
** anywhere — in the chunk, in an override, in the conversion, out of memory —
** unwinds to lscn_load as a message and never reaches Lua's panic handler.
** Conversion reads tables raw (no metamethods), so no scenario code runs once
** the chunk has returned.
**
** The helpers that read files for a chunk (fusync.scenario, hf_config,
** dist.from_file) and the confinement of their paths are in lua_helpers.c;
** they share this file's per-load state (lua_helpers.h).
*/
#include "lua_scenario.h"
#include "lua_helpers.h"
#include "fields_lua.h"
#include "lua_sandbox.h"
#include "presets.h"

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_LEN FLD_PATH_MAX
#define SET_MAX_PARTS 16


/* The budgets are the sandbox's (lua_sandbox.h): its count hook stops a
** chunk that runs too many instructions, nears the memory budget or passes
** the wall-clock limit, and the stop is final.  Lua runs finalizers with
** hooks off, which is why safe_setmetatable refuses __gc. */
static void budget_text(const lsb_budget *b, char *buf, size_t n)
{
    switch (b->stop) {
    case LSB_STOP_MEM:
        snprintf(buf, n, "the scenario used more than %d MiB of memory", (int)(LSCN_MEMORY_BUDGET >> 20));
        break;
    case LSB_STOP_TIME:
        snprintf(buf, n, "scenario ran longer than %g s (FUSYNC_SCENARIO_SECONDS raises it); "
                 "is there an endless loop?", b->call_seconds);
        break;
    default:
        snprintf(buf, n, "scenario ran too long (more than %d million Lua instructions); "
                 "is there an endless loop?", (int)(LSCN_INSTRUCTION_BUDGET / 1000000));
    }
}

/* ---------------------------------------------------------------------------
** Errors.  All raise a Lua error whose message is the final text for the
** user; load_main's caller copies it into the fs_err.
*/
_Noreturn static void raise_msg(lua_State *L, const char *msg)
{
    lua_pushstring(L, msg);
    lua_error(L);
    abort();    /* not reached: lua_error does not return */
}

/* The last --set option that wrote `path` or a table holding it, if any. */
static const char *set_behind(const lctx *c, const char *path)
{
    /* Error paths write array items as [n]; --set paths as .n */
    char dotted[PATH_MAX_LEN];
    size_t k = 0;
    for (const char *p = path; *p && k + 1 < sizeof dotted; p++) {
        if (*p == '[') dotted[k++] = '.';
        else if (*p != ']') dotted[k++] = *p;
    }
    dotted[k] = '\0';
    for (int i = c->nsets - 1; i >= 0; i--) {
        const char *s = c->sets[i];
        const char *eq = strchr(s, '=');
        if (!eq) continue;
        size_t n = (size_t)(eq - s), m = strlen(dotted);
        if (n > m || strncmp(s, dotted, n) != 0) continue;
        if (n == m || (n < m && dotted[n] == '.')) return s;
    }
    return NULL;
}

/* FILE: PATH: message [(from --set ...)]: how the format's reader reports. */
static void reader_fail(freader *r, const char *path, const char *msg)
{
    lctx *c = r->ud;
    char full[1100];
    const char *set = set_behind(c, path);
    if (set)
        snprintf(full, sizeof full, "%s: %s: %s (from --set %s)", c->file, path, msg, set);
    else
        snprintf(full, sizeof full, "%s: %s: %s", c->file, path, msg);
    raise_msg(r->L, full);
}

static freader reader_of(lctx *c, lua_State *L)
{
    return (freader){.L = L, .fail = reader_fail, .ud = c, .out = c->out, .place = false};
}

/* --set SPEC: message */
_Noreturn static void fail_set(lua_State *L, const char *spec, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn static void fail_set(lua_State *L, const char *spec, const char *fmt, ...)
{
    char msg[800], full[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "--set %s: %s", spec, msg);
    raise_msg(L, full);
}

/* ---------------------------------------------------------------------------
** Presets as Lua tables, in the scenario's units: the format's own writer.
*/
static void push_device(lua_State *L, const scn_device *d) { fields_push_device(L, d); }

/* ---------------------------------------------------------------------------
** Lua-side helpers: fusync.dist.*, fusync.copy.
*/
static int dist_fixed(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TNUMBER);
    lua_createtable(L, 0, 2);
    lua_pushliteral(L, "fixed");
    lua_setfield(L, -2, "kind");
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "value");
    return 1;
}

static int dist_uniform(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TNUMBER);
    luaL_checktype(L, 2, LUA_TNUMBER);
    lua_createtable(L, 0, 3);
    lua_pushliteral(L, "uniform");
    lua_setfield(L, -2, "kind");
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "lo");
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "hi");
    return 1;
}

/* A shallow copy of the argument table with `kind` set; the loader checks
** the fields later, with their full path. */
static int dist_table(lua_State *L, const char *kind)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_pushstring(L, kind);
    lua_setfield(L, -2, "kind");
    return 1;
}

static int dist_lognormal(lua_State *L) { return dist_table(L, "lognormal"); }
static int dist_histogram(lua_State *L) { return dist_table(L, "histogram"); }

/* Deep copy of the table at idx (absolute) onto the stack. */
static void deep_copy(lua_State *L, int idx, int depth)
{
    if (depth > 32) luaL_error(L, "fusync.copy: tables nested more than 32 deep (a cycle?)");
    luaL_checkstack(L, 4, "fusync.copy");
    lua_newtable(L);
    int dst = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pushvalue(L, -2);                   /* key value key */
        if (lua_type(L, -2) == LUA_TTABLE) {
            deep_copy(L, lua_gettop(L) - 1, depth + 1);
            lua_rawset(L, dst);                 /* key value */
        } else {
            lua_pushvalue(L, -2);
            lua_rawset(L, dst);
        }
        lua_pop(L, 1);
    }
}

/* fusync.copy(t [, changes]): a deep copy of t with changes (shallow) applied. */
static int l_copy(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    deep_copy(L, 1, 0);
    if (lua_istable(L, 2)) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, 3);
        }
    }
    return 1;
}

static void push_fusync(lua_State *L)
{
    static const luaL_Reg dist[] = {
        {"fixed", dist_fixed}, {"uniform", dist_uniform},
        {"lognormal", dist_lognormal}, {"histogram", dist_histogram}, {"from_file", lhelp_dist_from_file},
        {NULL, NULL}
    };
    lua_newtable(L);
    lua_pushliteral(L, FUSYNC_VERSION_STR);
    lua_setfield(L, -2, "version");

    lua_createtable(L, 0, presets_device_count());
    for (int i = 0; i < presets_device_count(); i++) {
        push_device(L, presets_device(i));
        lua_setfield(L, -2, presets_device_key(i));
    }
    lua_setfield(L, -2, "devices");

    lua_createtable(L, 0, presets_model_count());
    for (int i = 0; i < presets_model_count(); i++) {
        fields_push_model(L, presets_model(i));
        lua_setfield(L, -2, presets_model_key(i));
    }
    lua_setfield(L, -2, "models");

    luaL_newlib(L, dist);
    lua_setfield(L, -2, "dist");
    lua_pushcfunction(L, l_copy);
    lua_setfield(L, -2, "copy");
    lua_pushcfunction(L, lhelp_hf_config);
    lua_setfield(L, -2, "hf_config");
    lua_pushcfunction(L, lhelp_scenario);
    lua_setfield(L, -2, "scenario");
}

/* The shared sandbox, less what a scenario has no use for: nothing that
** loads code or prints (stdout belongs to the report). */
void lscn_open_sandbox(lua_State *L)
{
    static const char *const removed[] = {"load", "print", "collectgarbage", NULL};
    lsb_open(L, "scenarios");
    for (int i = 0; removed[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, removed[i]);
    }

    push_fusync(L);
    lua_setglobal(L, "fusync");
}

/* ---------------------------------------------------------------------------
** --set PATH=VALUE on the returned table.
*/

/* Replace the value at stack top (a preset name or a number) by the table it
** stands for, so a --set can reach into it.  Returns false if it cannot. */
static bool expand_for_set(lctx *c, lua_State *L, const fdesc *f, const char *path)
{
    if (f->kind == FK_DEVICE && lua_type(L, -1) == LUA_TSTRING) {
        const scn_device *d = presets_device_find(lua_tostring(L, -1));
        if (!d) {
            freader r = reader_of(c, L);
            fields_unknown_preset(&r, path, lua_tostring(L, -1), false);
        }
        lua_pop(L, 1);
        push_device(L, d);
        return true;
    }
    if (f->kind == FK_MODEL && lua_type(L, -1) == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1);
        const scn_model *m = presets_model_find(name);
        if (!m && strcmp(name, "rule") == 0) return false;
        if (!m) {
            freader r = reader_of(c, L);
            fields_unknown_preset(&r, path, name, true);
        }
        lua_pop(L, 1);
        fields_push_model(L, m);
        return true;
    }
    if (f->kind == FK_DIST && lua_type(L, -1) == LUA_TNUMBER) {
        lua_createtable(L, 0, 2);
        lua_pushliteral(L, "fixed");
        lua_setfield(L, -2, "kind");
        lua_pushvalue(L, -2);
        lua_setfield(L, -2, "value");
        lua_remove(L, -2);
        return true;
    }
    return false;
}

static void push_set_value(lua_State *L, const char *v)
{
    if (strcmp(v, "true") == 0) lua_pushboolean(L, 1);
    else if (strcmp(v, "false") == 0) lua_pushboolean(L, 0);
    else if (v[0] == '\0' || lua_stringtonumber(L, v) == 0) lua_pushstring(L, v);
}

static void apply_set(lctx *c, lua_State *L, int root, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec)
        fail_set(L, spec, "expected PATH=VALUE, e.g. --set cluster.supernodes=4");
    char pathbuf[PATH_MAX_LEN];
    size_t plen = (size_t)(eq - spec);
    if (plen >= sizeof pathbuf) fail_set(L, spec, "path too long");
    memcpy(pathbuf, spec, plen);
    pathbuf[plen] = '\0';

    char *parts[SET_MAX_PARTS];
    int nparts = 0;
    for (char *p = pathbuf;;) {
        char *dot = strchr(p, '.');
        if (dot) *dot = '\0';
        if (!*p) fail_set(L, spec, "empty field name in the path");
        if (nparts == SET_MAX_PARTS) fail_set(L, spec, "path has more than %d parts", SET_MAX_PARTS);
        parts[nparts++] = p;
        if (!dot) break;
        p = dot + 1;
    }

    const fdesc *fields = FIELDS_TOP;   /* children of the current table */
    fkind kind = FK_REC;                /* kind of the current table */
    char shown[PATH_MAX_LEN] = "";
    lua_pushvalue(L, root);         /* the current table */
    for (int i = 0; i < nparts; i++) {
        const char *key = parts[i];
        const fdesc *f;
        long long idx = 0;
        char where[PATH_MAX_LEN];
        if (kind == FK_ARR) {
            char *end;
            idx = strtoll(key, &end, 10);
            fields_index_path(where, shown, idx);
            if (*end || idx < 1 || idx > 1000)
                fail_set(L, spec, "%s: expected an item number (1, 2, ...), got '%s'", shown, key);
            f = &fields[0];
        } else {
            fields_join_path(where, shown, key);
            f = fields_find(fields, key);
            if (!f) {
                char text[600];
                fields_unknown_text(text, sizeof text, fields, key);
                fail_set(L, spec, "%s: %s", where, text);
            }
        }
        memcpy(shown, where, sizeof shown);
        if (kind == FK_ARR) lua_pushinteger(L, (lua_Integer)idx);
        else lua_pushstring(L, key);
        if (i == nparts - 1) {
            push_set_value(L, eq + 1);
            lua_rawset(L, -3);
            lua_pop(L, 1);
            return;
        }
        if (f->kind <= FK_ENUM || !f->sub)
            fail_set(L, spec, "%s is a value, not a table; it has no field '%s'", shown, parts[i + 1]);
        lua_pushvalue(L, -1);
        int ty = lua_rawget(L, -3);                  /* table key child */
        if (ty == LUA_TNIL) {
            lua_pop(L, 1);
            /* An absent distribution starts from its default. */
            if (f->kind == FK_DIST && strcmp(key, "prompt_len") == 0)
                fields_push_dist(L, &c->out->work.prompt_len);
            else if (f->kind == FK_DIST)
                fields_push_dist(L, &c->out->work.response_len);
            else
                lua_newtable(L);
        } else if (ty != LUA_TTABLE && !expand_for_set(c, L, f, shown)) {
            char got[64];
            fail_set(L, spec, "%s is %s, not a table; it has no field '%s'", shown,
                     fields_got_text(L, -1, got, sizeof got), parts[i + 1]);
        }
        lua_pushvalue(L, -1);
        lua_insert(L, -3);                           /* table child key child */
        lua_rawset(L, -4);                           /* table child */
        lua_remove(L, -2);
        kind = f->kind;
        fields = f->sub;
    }
}

/* ---------------------------------------------------------------------------
** Conversion of the returned table: the format's one reader (fields_lua.c).
*/

/* The file's base name without its extension: the default scenario name. */
static void base_name(char *dst, size_t n, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t len = strlen(b);
    const char *dot = strrchr(b, '.');
    if (dot && dot != b) len = (size_t)(dot - b);
    if (len >= n) len = n - 1;
    memcpy(dst, b, len);
    dst[len] = '\0';
}

static void convert(lctx *c, lua_State *L, int t)
{
    freader r = reader_of(c, L);
    base_name(c->out->name, sizeof c->out->name, c->file);
    fields_read_scenario(&r, t);
}

/* ---------------------------------------------------------------------------
** The protected body of a load.
*/
static bool starts_with_source(const char *msg, const char *file)
{
    size_t n = strlen(file);
    return strncmp(msg, file, n) == 0 || strncmp(msg, "...", 3) == 0;
}

static int load_main(lua_State *L)
{
    lctx *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    lscn_open_sandbox(L);

    int st = luaL_loadfilex(L, c->file, "t");
    if (st != LUA_OK) {
        const char *m = lua_tostring(L, -1);
        if (st == LUA_ERRFILE) {
            /* Lua says "cannot open FILE: reason"; keep the reason. */
            const char *at = m ? strstr(m, c->file) : NULL;
            const char *why = at && strncmp(at + strlen(c->file), ": ", 2) == 0
                                  ? at + strlen(c->file) + 2 : (m ? m : "?");
            lua_pushfstring(L, "%s: cannot read the scenario: %s", c->file, why);
        }
        else if (st == LUA_ERRMEM)
            lua_pushfstring(L, "%s: out of memory while parsing", c->file);
        else if (m && strstr(m, "binary chunk"))
            lua_pushfstring(L, "%s: is a precompiled (binary) chunk; scenarios must be Lua "
                            "source text", c->file);
        else if (m && starts_with_source(m, c->file))
            lua_pushstring(L, m);
        else
            lua_pushfstring(L, "%s: %s", c->file, m ? m : "cannot load");
        return lua_error(L);
    }

    /* Run the chunk with a traceback handler under the instruction budget. */
    lua_pushcfunction(L, lsb_msghandler);
    lua_insert(L, 1);
    st = lua_pcall(L, 0, 1, 1);
    if (st != LUA_OK) {
        const char *m = lua_tostring(L, -1);
        if (st == LUA_ERRMEM || (c->b.stop == LSB_STOP_MEM && !m))
            lua_pushfstring(L, "%s: the scenario used more than %d MiB of memory", c->file,
                            (int)(LSCN_MEMORY_BUDGET >> 20));
        else if (!m)
            lua_pushfstring(L, "%s: error (%s value)", c->file, luaL_typename(L, -1));
        else if (starts_with_source(m, c->file))
            lua_pushstring(L, m);
        else
            lua_pushfstring(L, "%s: %s", c->file, m);
        return lua_error(L);
    }
    /* No collection (and so no __gc code) while reading the result. */
    lua_gc(L, LUA_GCSTOP);

    if (!lua_istable(L, -1)) {
        char got[64];
        lua_pushfstring(L, "%s: the scenario must return a table, got %s", c->file,
                        fields_got_text(L, -1, got, sizeof got));
        return lua_error(L);
    }
    int t = lua_gettop(L);
    for (int i = 0; i < c->nsets; i++) {
        if (!c->sets[i]) raise_msg(L, "--set: missing PATH=VALUE");
        apply_set(c, L, t, c->sets[i]);
    }
    convert(c, L, t);
    return 0;
}

/* `key` as a table key in Lua text: not part of a longer name or a
** dotted path, followed by `=` (not `==`). */
static bool has_key(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; (p = strstr(p, key)); p += n) {
        char before = p == text ? ' ' : p[-1];
        if (isalnum((unsigned char)before) || before == '_' || before == '.') continue;
        const char *q = p + n;
        if (isalnum((unsigned char)*q) || *q == '_') continue;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
        if (q[0] == '=' && q[1] != '=') return true;
    }
    return false;
}

lscn_kind lscn_file_kind(const char *path)
{
    char *text = NULL;
    size_t len = 0;
    fs_err e = {0, ""};
    if (!path || path_is_special(path) || !read_small_file(path, 4 << 20, "file", &text, &len, &e)) return LSCN_KIND_UNKNOWN;
    /* blank out comments and short strings, so a word there is no key */
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '-' && text[i + 1] == '-') {
            while (i < len && text[i] != '\n') text[i++] = ' ';
        } else if (text[i] == '"' || text[i] == '\'') {
            char q = text[i];
            text[i++] = ' ';
            while (i < len && text[i] != q && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < len) text[i++] = ' ';
                text[i++] = ' ';
            }
            if (i < len) text[i] = ' ';
        }
    }
    lscn_kind k = has_key(text, "steps") ? LSCN_KIND_LESSON
                : has_key(text, "vary") || has_key(text, "variants") ? LSCN_KIND_WHATIF
                : has_key(text, "cluster") || has_key(text, "workload") ? LSCN_KIND_SCENARIO
                : LSCN_KIND_UNKNOWN;
    free(text);
    return k;
}

bool lscn_wrong_kind(const char *path, lscn_kind want, fs_err *err)
{
    lscn_kind k = lscn_file_kind(path);
    if (k == LSCN_KIND_UNKNOWN || k == want || !err) return false;
    static const char *const what[] = {
        [LSCN_KIND_SCENARIO] = "a scenario",
        [LSCN_KIND_WHATIF] = "a what-if file (it returns `vary` or `variants`)",
        [LSCN_KIND_LESSON] = "a lesson (it returns `steps`)",
    };
    static const char *const wanted[] = {
        [LSCN_KIND_SCENARIO] = "a scenario", [LSCN_KIND_WHATIF] = "a what-if file", [LSCN_KIND_LESSON] = "a lesson",
    };
    char use[256];
    if (k == LSCN_KIND_SCENARIO)
        snprintf(use, sizeof use, "fusync run %s (or check, tui, plan, sweep %s WHATIF.lua)", path, path);
    else if (k == LSCN_KIND_WHATIF)
        snprintf(use, sizeof use, "fusync sweep SCENARIO %s", path);
    else
        snprintf(use, sizeof use, "fusync tui --lesson %s", path);
    fs_err_set(err, 2, "%s: this is %s, not %s; use it with: %s", path, what[k], wanted[want], use);
    return true;
}

bool lscn_load(const char *path, const char *const *sets, int nsets,
               scn_scenario *out, fs_err *err)
{
    if (!path || !out) {
        fs_err_set(err, 2, "scenario: no file given");
        return false;
    }
    scn_defaults(out);
    snprintf(out->path, sizeof out->path, "%s", path);
    /* a FIFO, a device or /dev/stdin would block the read (plugins are
    ** refused the same way): refused at once */
    if (path_is_special(path)) {
        fs_err_set(err, 2, "%s: not a regular file (a pipe, device or folder); give the scenario file itself", path);
        return false;
    }

    lctx c = {
        .file = path, .sets = sets, .nsets = sets ? nsets : 0, .out = out,
        .b = {
            .mem = {0, LSCN_MEMORY_BUDGET, false}, .file = path,
            .instr_limit = LSCN_INSTRUCTION_BUDGET, .call_seconds = LSCN_SECONDS,
            .seconds_env = "FUSYNC_SCENARIO_SECONDS", .stop_text = budget_text,
        },
    };
    {
        /* the top scenario's folder: its tree is what the helpers may read */
        char dir[PATH_MAX];
        const char *slash = strrchr(path, '/');
        if (!slash) snprintf(dir, sizeof dir, ".");
        else if (slash == path) snprintf(dir, sizeof dir, "/");
        else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        if (!realpath(dir, c.root)) c.root[0] = '\0';
    }
    const char *sec = getenv("FUSYNC_SCENARIO_SECONDS");
    if (sec && atof(sec) > 0) c.b.call_seconds = atof(sec);
    lua_State *L = lua_newstate(lsb_alloc, &c.b.mem);
    if (!L) {
        fs_err_set(err, 2, "%s: cannot start Lua (out of memory)", path);
        return false;
    }
    *(lctx **)lua_getextraspace(L) = &c;

    lua_pushcfunction(L, load_main);
    lua_pushlightuserdata(L, &c);
    /* the budgets cover the chunk and the reading of what it returned
    ** (which can run its metamethods) */
    lsb_call_begin(&c.b, L, "the scenario", false);
    int st = lua_pcall(L, 1, 0, 0);
    lsb_call_end(&c.b);
    bool ok = st == LUA_OK;
    if (!ok) {
        const char *m = lua_tostring(L, -1);
        if (st == LUA_ERRMEM || !m)
            fs_err_set(err, 2, "%s: out of memory while reading the scenario (limit %d MiB)",
                       path, (int)(LSCN_MEMORY_BUDGET >> 20));
        else
            fs_err_set(err, 2, "%s", m);
    }
    lua_close(L);
    if (!ok) {
        lscn_wrong_kind(path, LSCN_KIND_SCENARIO, err);
        return false;
    }

    /* a cluster of plain nodes is one "supernode" whose nodes meet on the
    ** scale-out network (the intra_supernode tier's default) */
    if (out->cluster.nodes > 0) {
        if (out->cluster.supernodes != 1 ||
            (out->cluster.nodes_per_supernode != 1 && out->cluster.nodes_per_supernode != out->cluster.nodes)) {
            fs_err_set(err, 2, "%s: cluster.nodes: give nodes for a cluster without supernodes, or "
                       "nodes_per_supernode and supernodes, not both", path);
            return false;
        }
        out->cluster.nodes_per_supernode = out->cluster.nodes;
    }
    scn_model_derive(&out->actor);
    if (out->has_ref) scn_model_derive(&out->ref);
    if (out->reward_is_model) scn_model_derive(&out->reward);
    if (out->has_critic) scn_model_derive(&out->critic);
    if (!scn_validate(out, err)) {
        if (err) err->code = 2;
        return false;
    }
    return true;
}
