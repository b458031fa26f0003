/*
** plugin_lesson.c — lesson files (see lesson.h, docs/lessons.md), opened as
** plugins are (plugin_open: the one sandbox, its memory, instruction and
** wall-clock budgets) and read in protected mode, so a bad file is an error
** naming the file and the field, never a crash.
*/
#include "lesson.h"
#include "plugin_lua.h"
#include "lua_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lesson {
    plugin     *p;
    char        file[1024];
    char        dir[1024];
    char        title[128];
    char        scenario[1024];
    int         nsteps;
    lesson_step steps[LESSON_STEPS_MAX];
    int         caption_ref[LESSON_STEPS_MAX], check_ref[LESSON_STEPS_MAX];
};

static const char *const STEP_KEYS[] = {
    "scenario", "reset", "set", "snapshot", "compare", "play", "pane", "row", "at", "caption", "check", NULL
};
static const char *const PANES[] = {"timeline", "memory", "staleness", "stats", "compare", NULL};

/* A path named in the lesson: as it is when absolute, else beside the lesson. */
static void resolve(const lesson *l, const char *rel, char *out, size_t n)
{
    if (rel[0] == '/' || !l->dir[0]) snprintf(out, n, "%s", rel);
    else snprintf(out, n, "%s/%s", l->dir, rel);
}

static void copy_str(lua_State *L, int idx, const char *what, char *out, size_t n, lesson *l)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (len >= n) luaL_error(L, "%s: %s: longer than %d characters", l->file, what, (int)n - 1);
    memcpy(out, s, len);
    out[len] = 0;
}

static void read_value(lua_State *L, int idx, char *out, size_t n)
{
    switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN: snprintf(out, n, "%s", lua_toboolean(L, idx) ? "true" : "false"); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(out, n, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(out, n, "%.17g", lua_tonumber(L, idx));
        break;
    default: snprintf(out, n, "%s", lua_tostring(L, idx)); break;
    }
}

static void read_step(lua_State *L, lesson *l, int i, int t)
{
    lesson_step *st = &l->steps[i];
    memset(st, 0, sizeof *st);
    st->snapshot = -1;
    st->compare = -1;
    l->caption_ref[i] = l->check_ref[i] = LUA_NOREF;
    int n = i + 1;
    /* unknown keys are mistakes: name them */
    lua_pushnil(L);
    while (lua_next(L, t)) {
        bool known = false;
        if (lua_type(L, -2) == LUA_TSTRING)
            for (int k = 0; STEP_KEYS[k]; k++) if (!strcmp(lua_tostring(L, -2), STEP_KEYS[k])) known = true;
        if (!known) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2);
            luaL_error(L, "%s: steps[%d]: unknown field '%s' (known: scenario, reset, set, snapshot, compare, play, "
                       "pane, row, at, caption, check)", l->file, n, key);
        }
        lua_pop(L, 1);
    }
    char what[64];
    if (lua_getfield(L, t, "scenario") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "%s: steps[%d].scenario: a file name (string)", l->file, n);
        char rel[512];
        snprintf(what, sizeof what, "steps[%d].scenario", n);
        copy_str(L, -1, what, rel, sizeof rel, l);
        resolve(l, rel, st->scenario, sizeof st->scenario);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "reset") != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) luaL_error(L, "%s: steps[%d].reset: true or false", l->file, n);
        st->reset = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "set") != LUA_TNIL) {
        if (!lua_istable(L, -1)) luaL_error(L, "%s: steps[%d].set: a table of PATH = VALUE", l->file, n);
        int s = lua_gettop(L);
        /* sorted by path, so the order does not hang on Lua's table order */
        lua_pushnil(L);
        while (lua_next(L, s)) {
            if (lua_type(L, -2) != LUA_TSTRING)
                luaL_error(L, "%s: steps[%d].set: keys are field paths such as [\"plan.mode\"]", l->file, n);
            int vt = lua_type(L, -1);
            if (vt != LUA_TSTRING && vt != LUA_TNUMBER && vt != LUA_TBOOLEAN)
                luaL_error(L, "%s: steps[%d].set[\"%s\"]: a string, number or boolean", l->file, n, lua_tostring(L, -2));
            if (st->nsets >= LESSON_SETS_MAX) luaL_error(L, "%s: steps[%d].set: at most %d fields", l->file, n, LESSON_SETS_MAX);
            snprintf(what, sizeof what, "steps[%d].set", n);
            char path[96], val[96];
            copy_str(L, -2, what, path, sizeof path, l);
            read_value(L, -1, val, sizeof val);
            int k = st->nsets++;
            while (k > 0 && strcmp(st->sets[k - 1][0], path) > 0) {
                memcpy(st->sets[k], st->sets[k - 1], sizeof st->sets[k]);
                k--;
            }
            snprintf(st->sets[k][0], sizeof st->sets[k][0], "%s", path);
            snprintf(st->sets[k][1], sizeof st->sets[k][1], "%s", val);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "snapshot") != LUA_TNIL) {
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(s, "A") && strcmp(s, "B")) luaL_error(L, "%s: steps[%d].snapshot: \"A\" or \"B\"", l->file, n);
        st->snapshot = s[0] == 'A' ? 0 : 1;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "compare") != LUA_TNIL) {
        if (!lua_isboolean(L, -1)) luaL_error(L, "%s: steps[%d].compare: true (show A and B) or false", l->file, n);
        st->compare = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    switch (lua_getfield(L, t, "play")) {
    case LUA_TNIL: break;
    case LUA_TNUMBER:
        st->play = LPLAY_TIME;
        st->play_value = lua_tonumber(L, -1);
        if (!(st->play_value >= 0 && st->play_value < 1e9))
            luaL_error(L, "%s: steps[%d].play: seconds must be in 0..1e9", l->file, n);
        break;
    case LUA_TSTRING: {
        const char *s = lua_tostring(L, -1);
        int k, used = 0;
        if (!strcmp(s, "end")) { st->play = LPLAY_END; break; }
        if (sscanf(s, "step %d%n", &k, &used) == 1 && !s[used] && k >= 1 && k <= 100000) {
            st->play = LPLAY_STEP;
            st->play_value = k;
            break;
        }
    }
        /* fall through */
    default:
        luaL_error(L, "%s: steps[%d].play: \"step N\" (until N steps are done), \"end\", or simulated seconds",
                   l->file, n);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "pane") != LUA_TNIL) {
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        bool ok = false;
        for (int k = 0; PANES[k]; k++) if (!strcmp(s, PANES[k])) ok = true;
        if (!ok) luaL_error(L, "%s: steps[%d].pane: one of timeline, memory, staleness, stats, compare", l->file, n);
        snprintf(st->pane, sizeof st->pane, "%s", s);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "row") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "%s: steps[%d].row: text of a timeline row's label", l->file, n);
        snprintf(what, sizeof what, "steps[%d].row", n);
        copy_str(L, -1, what, st->row, sizeof st->row, l);
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "at") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TNUMBER || !(lua_tonumber(L, -1) >= 0))
            luaL_error(L, "%s: steps[%d].at: simulated seconds (>= 0)", l->file, n);
        st->has_at = true;
        st->at = lua_tonumber(L, -1);
    }
    lua_pop(L, 1);
    int ct = lua_getfield(L, t, "caption");
    if (ct == LUA_TFUNCTION) {
        st->caption_fn = true;
        l->caption_ref[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        if (ct != LUA_TSTRING)
            luaL_error(L, "%s: steps[%d].caption: every step needs one, a string or a function(ctx)", l->file, n);
        snprintf(what, sizeof what, "steps[%d].caption", n);
        copy_str(L, -1, what, st->caption, sizeof st->caption, l);
        lua_pop(L, 1);
    }
    int kt = lua_getfield(L, t, "check");
    if (kt == LUA_TFUNCTION) {
        st->check_fn = true;
        l->check_ref[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    } else {
        if (kt != LUA_TNIL) luaL_error(L, "%s: steps[%d].check: a function(ctx) returning true or false, why", l->file, n);
        lua_pop(L, 1);
    }
}

/* Arguments: the lesson, then the fields title, scenario, steps. */
static int read_lesson(lua_State *L)
{
    lesson *l = lua_touserdata(L, 1);
    if (lua_type(L, 2) != LUA_TSTRING)
        luaL_error(L, "%s: title: the lesson needs a title (string); the file returns { title =, scenario =, steps = }", l->file);
    copy_str(L, 2, "title", l->title, sizeof l->title, l);
    if (lua_type(L, 3) != LUA_TSTRING) luaL_error(L, "%s: scenario: the scenario file the lesson starts from (string)", l->file);
    char rel[512];
    copy_str(L, 3, "scenario", rel, sizeof rel, l);
    resolve(l, rel, l->scenario, sizeof l->scenario);
    if (!lua_istable(L, 4)) luaL_error(L, "%s: steps: a list of steps (table)", l->file);
    /* raw: a __len of the lesson's own could return a non-integer, and the
    ** error would name no file */
    lua_Integer n = (lua_Integer)lua_rawlen(L, 4);
    if (n < 1) luaL_error(L, "%s: steps: the lesson has no step", l->file);
    if (n > LESSON_STEPS_MAX) luaL_error(L, "%s: steps: at most %d steps", l->file, LESSON_STEPS_MAX);
    for (int i = 0; i < (int)n; i++) {
        if (lua_geti(L, 4, i + 1) != LUA_TTABLE) luaL_error(L, "%s: steps[%d]: a table", l->file, i + 1);
        read_step(L, l, i, lua_gettop(L));
        l->nsteps = i + 1;
        lua_pop(L, 1);
    }
    return 0;
}

lesson *lesson_open(const char *path, fs_err *err)
{
    lesson *l = xcalloc(1, sizeof *l);
    snprintf(l->file, sizeof l->file, "%s", path);
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(l->dir, sizeof l->dir, "%.*s", (int)(slash - path), path);
    for (int i = 0; i < LESSON_STEPS_MAX; i++) l->caption_ref[i] = l->check_ref[i] = LUA_NOREF;
    l->p = plugin_open(path, NULL, err);
    if (!l->p) { lscn_wrong_kind(path, LSCN_KIND_LESSON, err); free(l); return NULL; }
    plugin_push_field(l->p, "title");
    plugin_push_field(l->p, "scenario");
    plugin_push_field(l->p, "steps");
    if (!plugin_protect(l->p, read_lesson, l, 3, 0, err)) {
        lscn_wrong_kind(path, LSCN_KIND_LESSON, err);
        lesson_close(l);
        return NULL;
    }
    return l;
}

void lesson_close(lesson *l)
{
    if (!l) return;
    plugin_close(l->p);
    free(l);
}

const char *lesson_title(const lesson *l) { return l->title; }
const char *lesson_scenario(const lesson *l) { return l->scenario; }
int lesson_nsteps(const lesson *l) { return l->nsteps; }
const lesson_step *lesson_step_at(const lesson *l, int i) { return i >= 0 && i < l->nsteps ? &l->steps[i] : NULL; }

/* ------------------------------------------------------------ figures */

static void set_num(lua_State *L, const char *k, double v) { lua_pushnumber(L, v); lua_setfield(L, -2, k); }
static void set_int(lua_State *L, const char *k, long long v) { lua_pushinteger(L, v); lua_setfield(L, -2, k); }

static void push_report_or_nil(lua_State *L, const report *r)
{
    if (!r) { lua_pushnil(L); return; }
    plugin_push_report(L, r);
    /* per pool, busy and idle, which the plugin report leaves out */
    lua_createtable(L, r->npools, 0);
    for (int i = 0; i < r->npools; i++) {
        lua_createtable(L, 0, 5);
        lua_pushstring(L, r->pools[i].name);
        lua_setfield(L, -2, "name");
        set_int(L, "devices", r->pools[i].devices);
        set_num(L, "busy", r->pools[i].busy);
        set_num(L, "idle", r->pools[i].idle);
        set_num(L, "compute", r->pools[i].utilization);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "pools");
}

static int build_ctx(lua_State *L)
{
    const lesson_figs *f = lua_touserdata(L, 1);
    lua_createtable(L, 0, 8);
    set_num(L, "time_s", f->time_s);
    lua_pushinteger(L, f->step);
    lua_setfield(L, -2, "step");
    lua_pushinteger(L, f->steps);
    lua_setfield(L, -2, "steps");
    push_report_or_nil(L, f->run);
    lua_setfield(L, -2, "run");
    push_report_or_nil(L, f->a);
    lua_setfield(L, -2, "a");
    push_report_or_nil(L, f->b);
    lua_setfield(L, -2, "b");
    lua_createtable(L, f->npools, 0);
    for (int i = 0; i < f->npools; i++) {
        lua_createtable(L, 0, 4);
        lua_pushstring(L, f->pools[i].name);
        lua_setfield(L, -2, "name");
        set_int(L, "devices", f->pools[i].devices);
        set_num(L, "busy", f->pools[i].busy);
        set_num(L, "compute", f->pools[i].compute);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "live_pools");
    return 1;
}

/* Push the function `ref` and the figures; call it for nres results. */
static bool call_fn(lesson *l, int ref, const char *what, const lesson_figs *f, int nres, fs_err *err)
{
    lua_State *L = plugin_state(l->p);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    if (!plugin_protect(l->p, build_ctx, (void *)f, 0, 1, err)) { lua_pop(L, 1); return false; }
    return plugin_pcall(l->p, what, 1, nres, err);
}

bool lesson_caption(lesson *l, int i, const lesson_figs *f, char *out, size_t n, fs_err *err)
{
    const lesson_step *st = lesson_step_at(l, i);
    if (!st) { fs_err_set(err, 2, "%s: no step %d", l->file, i + 1); return false; }
    if (!st->caption_fn) { snprintf(out, n, "%s", st->caption); return true; }
    char what[64];
    snprintf(what, sizeof what, "steps[%d].caption()", i + 1);
    if (!call_fn(l, l->caption_ref[i], what, f, 1, err)) return false;
    lua_State *L = plugin_state(l->p);
    bool ok = lua_type(L, -1) == LUA_TSTRING;
    if (ok) snprintf(out, n, "%s", lua_tostring(L, -1));
    else fs_err_set(err, 2, "%s: %s returned a %s, not a string", l->file, what, luaL_typename(L, -1));
    lua_pop(L, 1);
    return ok;
}

bool lesson_check(lesson *l, int i, const lesson_figs *f, bool *holds, char *why, size_t n, fs_err *err)
{
    const lesson_step *st = lesson_step_at(l, i);
    *holds = true;
    if (why && n) why[0] = 0;
    if (!st || !st->check_fn) return true;
    char what[64];
    snprintf(what, sizeof what, "steps[%d].check()", i + 1);
    if (!call_fn(l, l->check_ref[i], what, f, 2, err)) return false;
    lua_State *L = plugin_state(l->p);
    *holds = lua_toboolean(L, -2);
    if (why && n) snprintf(why, n, "%s", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "");
    lua_pop(L, 2);
    return true;
}
