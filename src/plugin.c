/*
** plugin.c — the plugin host: a sandboxed lua_State per plugin file.
**
** Sandbox (docs/plugins.md): libraries are opened one by one — base without
** dofile/loadfile/warn, `load` forced to text mode, `setmetatable` refusing
** __gc (finalizers run with hooks off, so they would escape the budget),
** string without dump, table, math (seeded, so runs repeat), utf8, and an os
** table holding only clock, time and date.  Files load with mode "t".
**
** Budgets (lua_sandbox.h, docs/security.md): the allocator refuses to grow
** past the memory budget; the sandbox's count hook charges the per-call and
** per-run instruction budgets, stops a state that nears its memory budget and
** one that passes its wall-clock limit, so every stop carries FILE:LINE and a
** traceback.  A stop is final: the hook then fires on every instruction, so a
** plugin that catches the error with pcall is stopped again at its next
** instruction, and the host never calls that plugin again.  A call stuck
** inside a library function past its wall-clock limit ends the process
** through the watchdog.
*/
#include "plugin_lua.h"
#include "lua_sandbox.h"
#include "fields_lua.h"
#include "report_fields.h"

#include <lualib.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GiB (1024.0 * 1024.0 * 1024.0)

/* Hooks looked up once at open (Redis and wrk check which exist, once). */
static const char *const HOOK_NAMES[] = {
    "place", "on_step", "on_update", "on_rollout_progress", "staleness",
    "candidates", "score", "variants", NULL
};
#define NHOOKS 8

struct plugin {
    lsb_budget    b;                /* first: the sandbox's hook finds it */
    lua_State    *L;
    char          path[512];
    plugin_limits lim;
    bool          dead;             /* stopped once: never called again */
    char          dead_msg[512];
    bool          has[NHOOKS];
    int           hooks_ref;        /* registry ref of the table of hooks */
    scn_scenario *cur;              /* the scenario of the last ctx (fusync.fits), or NULL */
};

void plugin_limits_default(plugin_limits *l)
{
    l->memory = PLUGIN_MEMORY_DEFAULT;
    l->instructions = PLUGIN_INSTRUCTIONS_DEFAULT;
    l->print = false;
    l->seconds = PLUGIN_SECONDS_DEFAULT;
    l->run_seconds = PLUGIN_RUN_SECONDS_DEFAULT;
    l->run_instructions = PLUGIN_RUN_INSTRUCTIONS_DEFAULT;
    const char *m = getenv("FUSYNC_PLUGIN_MEMORY_MB");
    const char *n = getenv("FUSYNC_PLUGIN_INSTRUCTIONS");
    const char *pr = getenv("FUSYNC_PLUGIN_PRINT");
    const char *sec = getenv("FUSYNC_PLUGIN_SECONDS");
    const char *rsec = getenv("FUSYNC_PLUGIN_RUN_SECONDS");
    const char *rn = getenv("FUSYNC_PLUGIN_RUN_INSTRUCTIONS");
    if (m && atol(m) > 0 && atol(m) < (1L << 20)) l->memory = (size_t)atol(m) << 20;
    if (n && atol(n) > 0) l->instructions = atol(n);
    if (sec && atof(sec) > 0) l->seconds = atof(sec);
    if (rsec && atof(rsec) > 0) l->run_seconds = atof(rsec);
    if (rn && atoll(rn) > 0) l->run_instructions = atoll(rn);
    if (pr && *pr && strcmp(pr, "0") != 0) l->print = true;
}

static plugin *plugin_of(lua_State *L) { return *(plugin **)lua_getextraspace(L); }

/* A refused allocation spends the memory budget: no pcall may carry on. */
static void note_refusal(plugin *p)
{
    if (p->b.mem.refused && !p->b.stop) p->b.stop = LSB_STOP_MEM;
}

static void stop_text(const lsb_budget *b, char *buf, size_t n)
{
    const plugin *p = (const plugin *)b;
    switch (b->stop) {
    case LSB_STOP_MEM:
        snprintf(buf, n, "the plugin used more than its memory budget of %zu MiB "
                 "(FUSYNC_PLUGIN_MEMORY_MB raises it)", p->lim.memory >> 20);
        break;
    case LSB_STOP_RUN_INSTR:
        snprintf(buf, n, "the plugin ran more than %lld million Lua instructions in this run "
                 "(the run's instruction budget; FUSYNC_PLUGIN_RUN_INSTRUCTIONS raises it)",
                 p->lim.run_instructions / 1000000);
        break;
    case LSB_STOP_TIME:
        snprintf(buf, n, "the plugin ran longer than %g s in one call "
                 "(wall-clock budget; FUSYNC_PLUGIN_SECONDS raises it)", p->lim.seconds);
        break;
    case LSB_STOP_RUN_TIME:
        snprintf(buf, n, "the plugin ran longer than %g s in this run in total "
                 "(the run's wall-clock budget; FUSYNC_PLUGIN_RUN_SECONDS raises it)", p->lim.run_seconds);
        break;
    default:
        snprintf(buf, n, "the plugin ran more than %ld million Lua instructions in one call "
                 "(instruction budget; FUSYNC_PLUGIN_INSTRUCTIONS raises it); is there an endless loop?",
                 p->lim.instructions / 1000000);
    }
}

/* ------------------------------------------------------------ sandbox */

/* load(chunk [, name [, mode [, env]]]) with mode forced to "t" and env
** defaulting to the plugin's globals. */
static int safe_load(lua_State *L)
{
    int n = lua_gettop(L);
    lua_settop(L, 4);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    if (n < 4) {
        lua_pushglobaltable(L);
        lua_replace(L, 4);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 4, LUA_MULTRET);
    return lua_gettop(L);
}

static int plugin_print(lua_State *L)
{
    plugin *p = plugin_of(L);
    if (!p->lim.print) return 0;
    int n = lua_gettop(L);
    fs_buf b;
    buf_init(&b);
    buf_put_term(&b, p->path);
    buf_putc(&b, ':');
    for (int i = 1; i <= n; i++) {
        buf_putc(&b, ' ');
        buf_put_term(&b, lsb_tolstring(L, i, NULL));
        lua_pop(L, 1);
    }
    fprintf(stderr, "%s\n", b.s);
    buf_free(&b);
    return 0;
}

static void open_lib(lua_State *L, const char *name, lua_CFunction f)
{
    luaL_requiref(L, name, f, 1);
    lua_pop(L, 1);
}

/* The shared sandbox, plus what plugins get: load in text mode with their
** own globals, print to stderr (when allowed), utf8, and a reduced os. */
static void open_sandbox(lua_State *L)
{
    lsb_open(L, "plugins");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, safe_load, 1);
    lua_setglobal(L, "load");
    lua_pushcfunction(L, plugin_print);
    lua_setglobal(L, "print");
    open_lib(L, LUA_UTF8LIBNAME, luaopen_utf8);

    /* os: clock, time and date only */
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
    lua_createtable(L, 0, 3);
    static const char *const os_kept[] = {"clock", "time", "date", NULL};
    for (int i = 0; os_kept[i]; i++) {
        lua_getfield(L, -2, os_kept[i]);
        lua_setfield(L, -2, os_kept[i]);
    }
    lua_setglobal(L, LUA_OSLIBNAME);
    lua_pop(L, 1);
}

/* ------------------------------------------------------------ open */

typedef struct {
    plugin *p;
    int     status;             /* of loading the file */
} open_ud;

static int open_main(lua_State *L)
{
    open_ud *u = lua_touserdata(L, 1);
    plugin *p = u->p;
    lua_settop(L, 0);
    open_sandbox(L);
    plugin_open_api(L, &p->cur);
    u->status = luaL_loadfilex(L, p->path, "t");
    if (u->status != LUA_OK) return lua_error(L);
    lua_pushcfunction(L, lsb_msghandler);
    lua_insert(L, 1);
    lsb_call_begin(&p->b, L, "the file's main chunk", false);
    u->status = lua_pcall(L, 0, 1, 1);
    lsb_call_end(&p->b);
    if (u->status != LUA_OK) return lua_error(L);
    /* hooks: the returned table, else the globals */
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_pushglobaltable(L);
    }
    for (int i = 0; i < NHOOKS; i++) {
        lua_pushstring(L, HOOK_NAMES[i]);
        p->has[i] = lua_rawget(L, -2) == LUA_TFUNCTION;
        lua_pop(L, 1);
    }
    p->hooks_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* The message of a failed call: FILE:LINE first, then the traceback. */
static void format_error(plugin *p, int st, const char *what, fs_err *err)
{
    const char *m = lua_tostring(p->L, -1);
    char why[400];
    if (p->b.stop) {
        stop_text(&p->b, why, sizeof why);
        p->dead = true;
        /* keep the location if the hook put one there */
        if (m && strstr(m, why)) fs_err_set(err, 2, "%s", m);
        else fs_err_set(err, 2, "%s: in %s: %s", p->path, what, why);
        snprintf(p->dead_msg, sizeof p->dead_msg, "%s", err->msg);
        return;
    }
    if (st == LUA_ERRMEM || !m) {
        fs_err_set(err, 2, "%s: in %s: out of memory", p->path, what);
        return;
    }
    size_t n = strlen(p->path);
    bool located = strncmp(m, p->path, n) == 0 || strncmp(m, "...", 3) == 0;
    if (located) fs_err_set(err, 2, "%s", m);
    else fs_err_set(err, 2, "%s: in %s: %s", p->path, what, m);
}

plugin *plugin_open(const char *path, const plugin_limits *lim, fs_err *err)
{
    struct stat st_path;
    if (stat(path, &st_path) == 0 && !S_ISREG(st_path.st_mode)) {
        /* a FIFO or a terminal (/dev/stdin) would block the load */
        fs_err_set(err, 2, "%s: is not a regular file; a plugin is a Lua source file", path);
        return NULL;
    }
    plugin *p = xcalloc(1, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    if (lim) p->lim = *lim;
    else plugin_limits_default(&p->lim);
    p->hooks_ref = LUA_NOREF;
    p->b.mem.limit = p->lim.memory;
    p->b.file = p->path;
    p->b.instr_limit = p->lim.instructions;
    p->b.run_instr_limit = p->lim.run_instructions;
    p->b.call_seconds = p->lim.seconds;
    p->b.run_seconds_limit = p->lim.run_seconds;
    p->b.seconds_env = "FUSYNC_PLUGIN_SECONDS";
    p->b.run_seconds_env = "FUSYNC_PLUGIN_RUN_SECONDS";
    p->b.stop_text = stop_text;
    lua_State *L = lua_newstate(lsb_alloc, &p->b.mem);
    if (!L) {
        fs_err_set(err, 2, "%s: cannot start Lua (out of memory)", path);
        free(p);
        return NULL;
    }
    p->L = L;
    *(plugin **)lua_getextraspace(L) = p;
    open_ud u = {p, LUA_OK};
    lua_pushcfunction(L, open_main);
    lua_pushlightuserdata(L, &u);
    int st = lua_pcall(L, 1, 0, 0);
    if (st != LUA_OK) {
        const char *m = lua_tostring(L, -1);
        if (u.status == LUA_ERRFILE) {
            const char *at = m ? strstr(m, path) : NULL;
            const char *why = at && strncmp(at + strlen(path), ": ", 2) == 0 ? at + strlen(path) + 2 : (m ? m : "?");
            fs_err_set(err, 2, "%s: cannot read the plugin: %s", path, why);
        } else if (u.status == LUA_ERRSYNTAX && m && strstr(m, "binary chunk")) {
            fs_err_set(err, 2, "%s: is a precompiled (binary) chunk; plugins must be Lua source text", path);
        } else {
            format_error(p, u.status == LUA_OK ? st : u.status, "the file's main chunk", err);
        }
        plugin_close(p);
        return NULL;
    }
    lua_settop(L, 0);
    return p;
}

void plugin_close(plugin *p)
{
    if (!p) return;
    if (p->L) lua_close(p->L);
    free(p->cur);
    free(p);
}

void plugin_set_current(plugin *p, const scn_scenario *s)
{
    if (!p->cur) p->cur = xmalloc(sizeof *p->cur);
    *p->cur = *s;
}

const scn_scenario *plugin_current(const plugin *p) { return p->cur; }

const char *plugin_path(const plugin *p) { return p->path; }

void plugin_run_reset(plugin *p)
{
    p->b.run_instr = 0;
    p->b.run_seconds = 0;
}
lua_State *plugin_state(plugin *p) { return p->L; }

bool plugin_has(const plugin *p, const char *name)
{
    for (int i = 0; i < NHOOKS; i++)
        if (strcmp(HOOK_NAMES[i], name) == 0) return p->has[i];
    return false;
}

bool plugin_push_fn(plugin *p, const char *name)
{
    if (!plugin_has(p, name) || !lua_checkstack(p->L, 8)) return false;
    lua_rawgeti(p->L, LUA_REGISTRYINDEX, p->hooks_ref);
    lua_pushstring(p->L, name);
    lua_rawget(p->L, -2);
    lua_remove(p->L, -2);
    return lua_isfunction(p->L, -1);
}

void plugin_push_field(plugin *p, const char *name)
{
    lua_rawgeti(p->L, LUA_REGISTRYINDEX, p->hooks_ref);
    lua_pushstring(p->L, name);
    lua_rawget(p->L, -2);
    lua_remove(p->L, -2);
}

bool plugin_pcall(plugin *p, const char *what, int nargs, int nres, fs_err *err)
{
    lua_State *L = p->L;
    if (p->dead) {
        lua_pop(L, nargs + 1);
        fs_err_set(err, 2, "%s: in %s: the plugin was stopped earlier: %s", p->path, what, p->dead_msg);
        return false;
    }
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, lsb_msghandler);
    lua_insert(L, base);
    lsb_call_begin(&p->b, L, what, false);
    int st = lua_pcall(L, nargs, nres, base);
    lsb_call_end(&p->b);
    note_refusal(p);
    if (st == LUA_OK && p->b.stop) st = LUA_ERRRUN;   /* out of memory, caught inside */
    if (st != LUA_OK) {
        format_error(p, st, what, err);
        lua_settop(L, base - 1);
        return false;
    }
    lua_remove(L, base);
    return true;
}

typedef struct {
    lua_CFunction fn;
    void *ud;
} protect_ud;

bool plugin_protect(plugin *p, lua_CFunction fn, void *ud, int nargs, int nres, fs_err *err)
{
    lua_State *L = p->L;
    int base = lua_gettop(L) - nargs;
    if (!lua_checkstack(L, nres + 4)) {
        lua_settop(L, base);
        fs_err_set(err, 2, "%s: Lua stack exhausted", p->path);
        return false;
    }
    lua_pushcfunction(L, fn);
    lua_insert(L, base + 1);
    lua_pushlightuserdata(L, ud);
    lua_insert(L, base + 2);
    /* host code that reads an answer can run the plugin's metamethods */
    lsb_call_begin(&p->b, L, "a metamethod", true);
    int st = lua_pcall(L, nargs + 1, nres, 0);
    lsb_call_end(&p->b);
    note_refusal(p);
    if (st != LUA_OK) {
        const char *m = lua_tostring(L, -1);
        if (p->b.stop) format_error(p, st, "a metamethod", err);
        else if (st == LUA_ERRMEM) fs_err_set(err, 2, "%s: out of memory in the plugin host", p->path);
        else if (!m) fs_err_set(err, 2, "%s: a metamethod raised an error object that is a %s value, not a message",
                                p->path, luaL_typename(L, -1));
        else fs_err_set(err, 2, "%s", m);
        lua_settop(L, base);
        return false;
    }
    return true;
}

void plugin_answer_error(plugin *p, const char *fn, fs_err *err, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int line = 0;
    lua_State *L = p->L;
    if (lua_checkstack(L, 4) && plugin_push_fn(p, fn)) {
        lua_Debug ar;
        if (lua_getinfo(L, ">S", &ar)) line = ar.linedefined;
        else lua_pop(L, 1);
    }
    if (line > 0) fs_err_set(err, 2, "%s:%d: %s() %s", p->path, line, fn, what);
    else fs_err_set(err, 2, "%s: %s() %s", p->path, fn, what);
}

/* ------------------------------------------------------------ context */

static void set_num(lua_State *L, const char *key, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
}

static void set_int(lua_State *L, const char *key, long long v)
{
    lua_pushinteger(L, (lua_Integer)v);
    lua_setfield(L, -2, key);
}

static void set_str(lua_State *L, const char *key, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, key);
}

static void set_bool(lua_State *L, const char *key, bool v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, key);
}

/* The derived figures of a model, beside its architecture. */
static void add_model_figures(lua_State *L, const scn_model *m)
{
    set_bool(L, "moe", m->experts > 0);
    set_num(L, "params_total", m->params_total);
    set_num(L, "params_active", m->params_active);
    set_num(L, "params_expert", m->params_expert);
    set_num(L, "params_dense", m->params_dense);
    set_num(L, "kv_bytes_per_token", m->kv_bytes_per_token);
    set_num(L, "weights_gb", 2.0 * m->params_total / GiB);     /* BF16 */
}

/* ctx: the scenario in its file's form (fields.h, one writer for every
** field), plus figures derived from it. */
void plugin_push_ctx(lua_State *L, const scn_scenario *s)
{
    luaL_checkstack(L, 8, "plugin context");
    fields_push_scenario(L, s);
    set_str(L, "scenario", s->name);
    lua_getfield(L, -1, "cluster");
    set_int(L, "devices_per_supernode", (long long)s->cluster.devices_per_node * s->cluster.nodes_per_supernode);
    set_int(L, "devices", scn_total_devices(&s->cluster));
    lua_pop(L, 1);
    lua_getfield(L, -1, "workload");
    set_int(L, "samples_per_step", (long long)s->work.prompts_per_step * s->work.samples_per_prompt);
    lua_pop(L, 1);
    lua_getfield(L, -1, "models");
    static const char *const roles[] = {"actor", "reference", "reward", "critic"};
    const scn_model *ms[] = {&s->actor, s->has_ref ? &s->ref : NULL, s->reward_is_model ? &s->reward : NULL,
                             s->has_critic ? &s->critic : NULL};
    for (int i = 0; i < 4; i++) {
        if (!ms[i]) continue;
        lua_getfield(L, -1, roles[i]);
        add_model_figures(L, ms[i]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* A report as plugins see it: the rows of the report's one description
** (report_fields.c) that carry a plugin key. */
void plugin_push_report(lua_State *L, const report *r)
{
    luaL_checkstack(L, 6, "plugin report");
    lua_createtable(L, 0, 24);
    for (int i = 0; i < REPORT_NFIELDS; i++) {
        const rfield *f = &REPORT_FIELDS[i];
        if (!f->plugin || (f->present && !f->present(r))) continue;
        switch (f->kind) {
        case RV_NUM: set_num(L, f->plugin, f->num(r)); break;
        case RV_INT: set_int(L, f->plugin, (long long)f->num(r)); break;
        case RV_BOOL: set_bool(L, f->plugin, f->num(r) != 0); break;
        case RV_STR: set_str(L, f->plugin, f->str(r)); break;
        case RV_NAMED: {
            const char *name;
            double v;
            lua_newtable(L);
            for (int k = 0; f->item(r, k, &name, &v); k++) set_num(L, name, v);
            lua_setfield(L, -2, f->plugin);
            break;
        }
        case RV_CUSTOM: break;
        }
    }
}
