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
*/
#include "lua_scenario.h"
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

#define GiB  (1024.0 * 1024.0 * 1024.0)
#define MiB  (1024.0 * 1024.0)
#define PATH_MAX_LEN 256
#define SET_MAX_PARTS 16

/* Link latencies when the scenario gives none: GUESSES of the per-step
** latency of a collective on each tier (NVLink/HCCS, a switched fabric inside
** a supernode, the data-center network between supernodes). */
#define DEFAULT_LAT_INTRA_NODE      2e-6
#define DEFAULT_LAT_INTRA_SUPERNODE 5e-6
#define DEFAULT_LAT_INTER_SUPERNODE 10e-6

/* ---------------------------------------------------------------------------
** Schema: the known fields of each table, for unknown-key checks, "did you
** mean" and walking --set paths.
*/
typedef enum {
    K_INT, K_NUM, K_BOOL, K_STR,   /* leaves */
    K_REC,                          /* record: sub lists the fields */
    K_ARR,                          /* array: sub[0] describes an element */
    K_DEVICE, K_MODEL, K_DIST       /* records that may also be a preset name / number */
} fkind;

typedef struct sfield {
    const char *name;
    fkind kind;
    const struct sfield *sub;
} sfield;

#define END {NULL, K_INT, NULL}

static const sfield F_NUM_ELEM[] = {{"", K_NUM, NULL}};
static const sfield F_STR_ELEM[] = {{"", K_STR, NULL}};

static const sfield F_DEVICE[] = {
    {"name", K_STR, NULL}, {"tflops", K_NUM, NULL}, {"hbm_gb", K_NUM, NULL},
    {"hbm_tbps", K_NUM, NULL}, {"scaleup_gbps", K_NUM, NULL},
    {"scaleout_gbps", K_NUM, NULL}, {"host_gbps", K_NUM, NULL}, END
};
static const sfield F_LINK[] = {{"gbps", K_NUM, NULL}, {"latency_us", K_NUM, NULL}, END};
static const sfield F_LINKS[] = {
    {"intra_node", K_REC, F_LINK}, {"intra_supernode", K_REC, F_LINK},
    {"inter_supernode", K_REC, F_LINK}, END
};
static const sfield F_CLUSTER[] = {
    {"device", K_DEVICE, F_DEVICE}, {"devices_per_node", K_INT, NULL},
    {"nodes_per_supernode", K_INT, NULL}, {"supernodes", K_INT, NULL},
    {"links", K_REC, F_LINKS}, {"host_mem_gb", K_NUM, NULL}, END
};
static const sfield F_MODEL[] = {
    {"name", K_STR, NULL}, {"layers", K_INT, NULL}, {"dense_layers", K_INT, NULL},
    {"hidden", K_INT, NULL}, {"heads", K_INT, NULL}, {"kv_heads", K_INT, NULL},
    {"head_dim", K_INT, NULL}, {"mla_latent", K_INT, NULL}, {"mla_rope", K_INT, NULL},
    {"mla_q_latent", K_INT, NULL}, {"ffn", K_INT, NULL}, {"expert_ffn", K_INT, NULL},
    {"experts", K_INT, NULL}, {"experts_active", K_INT, NULL},
    {"shared_experts", K_INT, NULL}, {"vocab", K_INT, NULL},
    {"tied_embeddings", K_BOOL, NULL}, END
};
/* Fields of scn_model that are computed, never read from a scenario. */
static const char *const MODEL_DERIVED[] = {
    "params_total", "params_active", "params_expert", "params_dense",
    "params_layer_dense", "kv_bytes_per_token", NULL
};
static const sfield F_MODELS[] = {
    {"actor", K_MODEL, F_MODEL}, {"reference", K_MODEL, F_MODEL},
    {"reward", K_MODEL, F_MODEL}, {"critic", K_MODEL, F_MODEL}, END
};
static const sfield F_DIST[] = {
    {"kind", K_STR, NULL}, {"value", K_NUM, NULL}, {"lo", K_NUM, NULL},
    {"hi", K_NUM, NULL}, {"median", K_NUM, NULL}, {"sigma", K_NUM, NULL},
    {"cap", K_NUM, NULL}, {"edges", K_ARR, F_NUM_ELEM},
    {"weights", K_ARR, F_NUM_ELEM}, END
};
static const sfield F_WORKLOAD[] = {
    {"algorithm", K_STR, NULL}, {"prompts_per_step", K_INT, NULL},
    {"samples_per_prompt", K_INT, NULL}, {"minibatches", K_INT, NULL},
    {"epochs", K_INT, NULL}, {"prompt_len", K_DIST, F_DIST},
    {"response_len", K_DIST, F_DIST}, {"max_response", K_INT, NULL},
    {"iterations", K_INT, NULL}, {"warmup", K_INT, NULL}, {"seed", K_INT, NULL},
    {"recompute_logprob", K_BOOL, NULL}, {"batch_per_supernode", K_BOOL, NULL}, END
};
static const sfield F_POOL[] = {
    {"name", K_STR, NULL}, {"devices", K_INT, NULL}, {"roles", K_ARR, F_STR_ELEM}, END
};
static const sfield F_POOL_ELEM[] = {{"", K_REC, F_POOL}};
static const sfield F_TRAIN[] = {
    {"tp", K_INT, NULL}, {"pp", K_INT, NULL}, {"ep", K_INT, NULL}, {"dp", K_INT, NULL},
    {"micro_batch", K_INT, NULL}, {"recompute", K_STR, NULL}, {"zero", K_INT, NULL},
    {"uneven_layers", K_BOOL, NULL}, END
};
static const sfield F_ROLLOUT[] = {
    {"tp", K_INT, NULL}, {"ep", K_INT, NULL}, {"max_seqs", K_INT, NULL},
    {"mem_util", K_NUM, NULL}, {"dispatch", K_STR, NULL}, END
};
static const sfield F_OFFLOAD[] = {{"optimizer", K_BOOL, NULL}, {"grads", K_BOOL, NULL}, END};
static const sfield F_DISTQUEUE[] = {{"hierarchical", K_BOOL, NULL}, {"packed", K_BOOL, NULL}, END};
static const sfield F_PLAN[] = {
    {"mode", K_STR, NULL}, {"rollout_devices", K_INT, NULL}, {"rollout_fraction", K_NUM, NULL}, {"aux_devices", K_INT, NULL},
    {"pools", K_ARR, F_POOL_ELEM}, {"train", K_REC, F_TRAIN}, {"rollout", K_REC, F_ROLLOUT},
    {"aux_tp", K_INT, NULL}, {"offload", K_REC, F_OFFLOAD}, {"distqueue", K_REC, F_DISTQUEUE},
    {"zero_redundancy", K_BOOL, NULL}, {"bucket_mb", K_NUM, NULL},
    {"staleness", K_INT, NULL}, {"partial_rollout", K_NUM, NULL},
    {"on_update", K_STR, NULL}, {"on_stale", K_STR, NULL}, {"policy", K_STR, NULL}, END
};
static const sfield F_EFFICIENCY[] = {
    {"train", K_NUM, NULL}, {"prefill", K_NUM, NULL}, {"decode", K_NUM, NULL},
    {"hbm", K_NUM, NULL}, {"link", K_NUM, NULL}, {"host_link", K_NUM, NULL},
    {"decode_overhead_ms", K_NUM, NULL}, {"train_overhead_ms", K_NUM, NULL},
    {"switch_overhead_s", K_NUM, NULL}, {"reward_rule_ms", K_NUM, NULL}, END
};
static const sfield F_TOP[] = {
    {"name", K_STR, NULL}, {"cluster", K_REC, F_CLUSTER}, {"models", K_REC, F_MODELS},
    {"workload", K_REC, F_WORKLOAD}, {"plan", K_REC, F_PLAN},
    {"efficiency", K_REC, F_EFFICIENCY}, END
};

static const char *const ALGO_NAMES[] = {"grpo", "ppo", NULL};
static const char *const MODE_NAMES[] = {"separate", "colocate", "full", NULL};
static const char *const RECOMPUTE_NAMES[] = {"none", "selective", "full", NULL};
static const char *const ONUPDATE_NAMES[] = {"continue", "restart", NULL};
static const char *const DISPATCH_NAMES[] = {"queue", "static", NULL};
static const char *const ONSTALE_NAMES[] = {"wait", "discard", NULL};
static const char *const DIST_NAMES[] = {"fixed", "uniform", "lognormal", "histogram", NULL};
static const char *const ROLE_NAMES[] = {"rollout", "train", "ref", "reward", "critic", NULL};
static const unsigned ROLE_BITS[] = {ROLE_ROLLOUT, ROLE_TRAIN, ROLE_REF, ROLE_REWARD, ROLE_CRITIC};

/* ---------------------------------------------------------------------------
** The state of one load.  Reached from Lua callbacks through the state's
** extra space, so nothing here is global.
*/
typedef struct {
    lsb_budget b;               /* first: the sandbox's hook finds it */
    const char *file;
    const char *const *sets;
    int nsets;
    scn_scenario *out;
} lctx;


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

/* FILE: PATH: message [(from --set ...)] */
_Noreturn static void fail_at(lctx *c, lua_State *L, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn static void fail_at(lctx *c, lua_State *L, const char *path, const char *fmt, ...)
{
    char msg[800], full[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *set = set_behind(c, path);
    if (set)
        snprintf(full, sizeof full, "%s: %s: %s (from --set %s)", c->file, path, msg, set);
    else
        snprintf(full, sizeof full, "%s: %s: %s", c->file, path, msg);
    raise_msg(L, full);
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
** Small helpers.
*/
static void join_path(char *dst, const char *parent, const char *key)
{
    int n = parent[0] ? snprintf(dst, PATH_MAX_LEN, "%s.%s", parent, key)
                      : snprintf(dst, PATH_MAX_LEN, "%s", key);
    if (n >= PATH_MAX_LEN) dst[PATH_MAX_LEN - 1] = '\0';
}

static void index_path(char *dst, const char *parent, long long i)
{
    int n = snprintf(dst, PATH_MAX_LEN, "%s[%lld]", parent, i);
    if (n >= PATH_MAX_LEN) dst[PATH_MAX_LEN - 1] = '\0';
}

/* Push t[key] without metamethods; returns its type.  t is absolute. */
static int rawfield(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

/* The closest of `names` to `key`, or NULL when none is close enough.  Case
** is ignored; the allowed distance grows with the length of the key. */
static const char *suggest(const char *key, const char *const *names, int n)
{
    char lk[64], ln[64];
    size_t len = strlen(key);
    if (len == 0 || len >= sizeof lk) return NULL;
    for (size_t i = 0; i <= len; i++) lk[i] = (char)tolower((unsigned char)key[i]);
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *best = NULL;
    int bestd = limit + 1;
    for (int i = 0; i < n; i++) {
        size_t nl = strlen(names[i]);
        if (nl >= sizeof ln) continue;
        for (size_t k = 0; k <= nl; k++) ln[k] = (char)tolower((unsigned char)names[i][k]);
        int d = str_distance(lk, ln);
        if (d < bestd && d < (int)nl) {
            best = names[i];
            bestd = d;
        }
    }
    return best;
}

static int field_names(const sfield *f, const char **names, int max)
{
    int n = 0;
    for (; f->name && n < max; f++) names[n++] = f->name;
    return n;
}

static const sfield *find_field(const sfield *f, const char *key)
{
    for (; f->name; f++)
        if (strcmp(f->name, key) == 0) return f;
    return NULL;
}

/* "unknown field; did you mean 'x'?" or the list of known fields. */
static void unknown_field_text(char *buf, size_t n, const sfield *fields, const char *key,
                               bool model)
{
    if (model)
        for (const char *const *d = MODEL_DERIVED; *d; d++)
            if (strcmp(*d, key) == 0) {
                snprintf(buf, n, "derived from the architecture, not an input; remove it");
                return;
            }
    const char *names[40] = {NULL};
    int k = field_names(fields, names, 40);
    const char *s = suggest(key, names, k);
    if (s) {
        snprintf(buf, n, "unknown field; did you mean '%s'?", s);
        return;
    }
    size_t used = (size_t)snprintf(buf, n, "unknown field (known: ");
    for (int i = 0; i < k && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", names[i]);
    if (used < n) snprintf(buf + used, n - used, ")");
}

static const char *list_text(char *buf, size_t n, const char *const *names)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; names[i] && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", names[i]);
    return buf;
}

static int count_names(const char *const *names)
{
    int n = 0;
    while (names[n]) n++;
    return n;
}

/* A description of the value at idx for "got ..." messages. */
static const char *got_text(lua_State *L, int idx, char *buf, size_t n)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(buf, n, "%.17g", lua_tonumber(L, idx));
        return buf;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len <= 40) snprintf(buf, n, "string \"%s\"", s);
        else snprintf(buf, n, "a string");
        return buf;
    }
    case LUA_TBOOLEAN:
        snprintf(buf, n, "%s", lua_toboolean(L, idx) ? "true" : "false");
        return buf;
    default:
        snprintf(buf, n, "%s", luaL_typename(L, idx));
        return buf;
    }
}

/* Every key of the record at t must be a known field.  Unknown keys are
** reported in a fixed order (the smallest first) whatever the hash order. */
static void check_keys(lctx *c, lua_State *L, int t, const char *path, const sfield *fields,
                       bool model)
{
    const char *bad = NULL;
    char badkey[64] = "";
    bool nonstring = false;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            if (!nonstring && !bad) {
                char got[64];
                nonstring = true;
                snprintf(badkey, sizeof badkey, "%s", got_text(L, -1, got, sizeof got));
            }
            continue;
        }
        const char *k = lua_tostring(L, -1);   /* alive: it is a key of t */
        if (!find_field(fields, k) && (!bad || strcmp(k, bad) < 0)) bad = k;
    }
    char where[PATH_MAX_LEN];
    if (bad) {
        char text[600];
        unknown_field_text(text, sizeof text, fields, bad, model);
        join_path(where, path, bad);
        fail_at(c, L, where, "%s", text);
    }
    if (nonstring)
        fail_at(c, L, path[0] ? path : "(returned table)",
                "unexpected key %s; this table takes named fields only", badkey);
}

/* Length of the array at t; any non-sequence key is an error. */
static lua_Integer check_array(lctx *c, lua_State *L, int t, const char *path, lua_Integer max)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, t), count = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
            char got[64];
            fail_at(c, L, path, "expected an array (a list {a, b, ...}), found key %s",
                    got_text(L, -1, got, sizeof got));
        }
        count++;
    }
    if (count != n) fail_at(c, L, path, "expected an array without holes");
    if (n > max) fail_at(c, L, path, "at most %lld items, got %lld", (long long)max, (long long)n);
    return n;
}

/* ---------------------------------------------------------------------------
** Typed field readers.  Each returns false (and leaves *out alone) when the
** field is absent; a present field of the wrong type or range is an error.
*/
static bool to_integer(lua_State *L, int idx, long long *v)
{
    if (lua_isinteger(L, idx)) {
        *v = (long long)lua_tointeger(L, idx);
        return true;
    }
    if (lua_type(L, idx) == LUA_TNUMBER) {
        double d = lua_tonumber(L, idx);
        if (isfinite(d) && d == floor(d) && fabs(d) < 9.0e15) {
            *v = (long long)d;
            return true;
        }
    }
    return false;
}

/* Check an integer at stack index idx; path names it for errors. */
static long long want_int(lctx *c, lua_State *L, int idx, const char *path,
                          long long lo, long long hi)
{
    long long v;
    char got[64];
    if (!to_integer(L, idx, &v))
        fail_at(c, L, path, "expected an integer, got %s", got_text(L, idx, got, sizeof got));
    if (v < lo || v > hi) {
        if (hi >= INT_MAX && lo == 0) fail_at(c, L, path, "must not be negative, got %lld", v);
        if (hi >= INT_MAX) fail_at(c, L, path, "must be at least %lld, got %lld", lo, v);
        fail_at(c, L, path, "must be in %lld..%lld, got %lld", lo, hi, v);
    }
    return v;
}

static bool get_int(lctx *c, lua_State *L, int t, const char *path, const char *key,
                    int *out, long long lo, long long hi)
{
    char where[PATH_MAX_LEN];
    if (rawfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    join_path(where, path, key);
    *out = (int)want_int(c, L, -1, where, lo, hi);
    lua_pop(L, 1);
    return true;
}

typedef enum { R_ANY, R_POS, R_NONNEG, R_FRAC } nrange;   /* R_FRAC: (0, 1] */

static double want_num(lctx *c, lua_State *L, int idx, const char *path, nrange r)
{
    char got[64];
    if (lua_type(L, idx) != LUA_TNUMBER)
        fail_at(c, L, path, "expected a number, got %s", got_text(L, idx, got, sizeof got));
    double v = lua_tonumber(L, idx);
    if (!isfinite(v)) fail_at(c, L, path, "must be a finite number");
    switch (r) {
    case R_ANY: break;
    case R_POS:
        if (v <= 0) fail_at(c, L, path, "must be positive, got %s", got_text(L, idx, got, sizeof got));
        break;
    case R_NONNEG:
        if (v < 0) fail_at(c, L, path, "must not be negative, got %s", got_text(L, idx, got, sizeof got));
        break;
    case R_FRAC:
        if (v <= 0 || v > 1)
            fail_at(c, L, path, "must be a fraction in (0, 1], got %s", got_text(L, idx, got, sizeof got));
        break;
    }
    return v;
}

static bool get_num(lctx *c, lua_State *L, int t, const char *path, const char *key,
                    double *out, nrange r, double scale)
{
    char where[PATH_MAX_LEN];
    if (rawfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    join_path(where, path, key);
    *out = want_num(c, L, -1, where, r) * scale;
    lua_pop(L, 1);
    return true;
}

static bool get_bool(lctx *c, lua_State *L, int t, const char *path, const char *key, bool *out)
{
    char where[PATH_MAX_LEN], got[64];
    int ty = rawfield(L, t, key);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    join_path(where, path, key);
    if (ty != LUA_TBOOLEAN)
        fail_at(c, L, where, "expected true or false, got %s", got_text(L, -1, got, sizeof got));
    *out = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return true;
}

/* A free-text string (numbers are accepted and written as text). */
static bool get_str(lctx *c, lua_State *L, int t, const char *path, const char *key,
                    char *buf, size_t n)
{
    char where[PATH_MAX_LEN], got[64];
    int ty = rawfield(L, t, key);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    join_path(where, path, key);
    if (ty != LUA_TSTRING && ty != LUA_TNUMBER)
        fail_at(c, L, where, "expected a string, got %s", got_text(L, -1, got, sizeof got));
    size_t len;
    lua_pushvalue(L, -1);               /* convert a copy, not the table's value */
    const char *s = lua_tolstring(L, -1, &len);
    if (len >= n) fail_at(c, L, where, "longer than %zu characters", n - 1);
    if (strlen(s) != len) fail_at(c, L, where, "contains a zero byte");
    memcpy(buf, s, len + 1);
    lua_pop(L, 2);
    return true;
}

/* One of `names`; returns its index in *out. */
static int want_enum(lctx *c, lua_State *L, int idx, const char *path, const char *const *names)
{
    char got[64], list[256];
    if (lua_type(L, idx) != LUA_TSTRING)
        fail_at(c, L, path, "expected one of %s; got %s",
                list_text(list, sizeof list, names), got_text(L, idx, got, sizeof got));
    const char *s = lua_tostring(L, idx);
    for (int i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0) return i;
    const char *sug = suggest(s, names, count_names(names));
    if (sug)
        fail_at(c, L, path, "unknown value '%s'; did you mean '%s'?", s, sug);
    fail_at(c, L, path, "unknown value '%s'; expected one of %s", s,
            list_text(list, sizeof list, names));
}

static bool get_enum(lctx *c, lua_State *L, int t, const char *path, const char *key,
                     const char *const *names, int *out)
{
    char where[PATH_MAX_LEN];
    if (rawfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return false;
    }
    join_path(where, path, key);
    *out = want_enum(c, L, -1, where, names);
    lua_pop(L, 1);
    return true;
}

/* Push the record field t[key] if it is a table and return its absolute
** index; absent: returns 0 with nothing pushed. */
static int get_table(lctx *c, lua_State *L, int t, const char *path, const char *key)
{
    char where[PATH_MAX_LEN], got[64];
    int ty = rawfield(L, t, key);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    join_path(where, path, key);
    if (ty != LUA_TTABLE)
        fail_at(c, L, where, "expected a table, got %s", got_text(L, -1, got, sizeof got));
    return lua_gettop(L);
}

static void copy_name(char *dst, const char *src)
{
    snprintf(dst, SCN_NAME_MAX, "%s", src);
}

/* ---------------------------------------------------------------------------
** Presets as Lua tables, in the scenario's units.
*/
static void set_num(lua_State *L, const char *key, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
}

static void set_int(lua_State *L, const char *key, int v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, key);
}

static void push_device(lua_State *L, const scn_device *d)
{
    lua_createtable(L, 0, 7);
    lua_pushstring(L, d->name);
    lua_setfield(L, -2, "name");
    set_num(L, "tflops", d->peak_flops / 1e12);
    set_num(L, "hbm_gb", d->hbm_bytes / GiB);
    set_num(L, "hbm_tbps", d->hbm_bw / 1e12);
    set_num(L, "scaleup_gbps", d->scaleup_bw / 1e9);
    set_num(L, "scaleout_gbps", d->scaleout_bw / 1e9);
    set_num(L, "host_gbps", d->host_bw / 1e9);
}

void lscn_push_model(lua_State *L, const scn_model *m)
{
    lua_createtable(L, 0, 17);
    lua_pushstring(L, m->name);
    lua_setfield(L, -2, "name");
    set_int(L, "layers", m->layers);
    set_int(L, "dense_layers", m->dense_layers);
    set_int(L, "hidden", m->hidden);
    set_int(L, "heads", m->heads);
    set_int(L, "kv_heads", m->kv_heads);
    set_int(L, "head_dim", m->head_dim);
    set_int(L, "mla_latent", m->mla_latent);
    set_int(L, "mla_rope", m->mla_rope);
    set_int(L, "mla_q_latent", m->mla_q_latent);
    set_int(L, "ffn", m->ffn);
    set_int(L, "expert_ffn", m->expert_ffn);
    set_int(L, "experts", m->experts);
    set_int(L, "experts_active", m->experts_active);
    set_int(L, "shared_experts", m->shared_experts);
    set_int(L, "vocab", m->vocab);
    lua_pushboolean(L, m->tied_embeddings);
    lua_setfield(L, -2, "tied_embeddings");
}

/* A distribution in the scenario's form (for --set into a default one). */
void lscn_push_dist(lua_State *L, const scn_dist *d)
{
    lua_newtable(L);
    lua_pushstring(L, scn_dist_name(d->kind));
    lua_setfield(L, -2, "kind");
    switch (d->kind) {
    case DIST_FIXED: set_num(L, "value", d->a); break;
    case DIST_UNIFORM: set_num(L, "lo", d->a); set_num(L, "hi", d->b); break;
    case DIST_LOGNORMAL: set_num(L, "median", d->a); set_num(L, "sigma", d->b); break;
    case DIST_HIST:
        lua_createtable(L, d->nbins + 1, 0);
        for (int i = 0; i <= d->nbins; i++) {
            lua_pushnumber(L, d->edge[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "edges");
        lua_createtable(L, d->nbins, 0);
        for (int i = 0; i < d->nbins; i++) {
            lua_pushnumber(L, d->weight[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "weights");
        break;
    }
    if (d->cap > 0) set_num(L, "cap", d->cap);
}

static const char *preset_keys(char *buf, size_t n, bool models)
{
    size_t used = 0;
    int count = models ? presets_model_count() : presets_device_count();
    buf[0] = '\0';
    for (int i = 0; i < count && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
                                 models ? presets_model_key(i) : presets_device_key(i));
    return buf;
}

/* Error for a preset name that does not exist. */
_Noreturn static void unknown_preset(lctx *c, lua_State *L, const char *path, const char *name,
                                     bool models)
{
    const char *keys[32] = {NULL};
    int n = models ? presets_model_count() : presets_device_count();
    if (n > 32) n = 32;
    for (int i = 0; i < n; i++) keys[i] = models ? presets_model_key(i) : presets_device_key(i);
    const char *sug = suggest(name, keys, n);
    const char *what = models ? "model" : "device";
    if (sug) fail_at(c, L, path, "unknown %s preset '%s'; did you mean '%s'?", what, name, sug);
    char list[512];
    fail_at(c, L, path, "unknown %s preset '%s' (presets: %s)", what, name,
            preset_keys(list, sizeof list, models));
}

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
        {"lognormal", dist_lognormal}, {"histogram", dist_histogram}, {NULL, NULL}
    };
    lua_newtable(L);
    lua_pushliteral(L, FUSYNC_VERSION);
    lua_setfield(L, -2, "version");

    lua_createtable(L, 0, presets_device_count());
    for (int i = 0; i < presets_device_count(); i++) {
        push_device(L, presets_device(i));
        lua_setfield(L, -2, presets_device_key(i));
    }
    lua_setfield(L, -2, "devices");

    lua_createtable(L, 0, presets_model_count());
    for (int i = 0; i < presets_model_count(); i++) {
        lscn_push_model(L, presets_model(i));
        lua_setfield(L, -2, presets_model_key(i));
    }
    lua_setfield(L, -2, "models");

    luaL_newlib(L, dist);
    lua_setfield(L, -2, "dist");
    lua_pushcfunction(L, l_copy);
    lua_setfield(L, -2, "copy");
}

/* The shared sandbox, less what a scenario has no use for: nothing that
** loads code or prints (stdout belongs to the report). */
static void open_sandbox(lua_State *L)
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
static bool expand_for_set(lctx *c, lua_State *L, const sfield *f, const char *path)
{
    if (f->kind == K_DEVICE && lua_type(L, -1) == LUA_TSTRING) {
        const scn_device *d = presets_device_find(lua_tostring(L, -1));
        if (!d) unknown_preset(c, L, path, lua_tostring(L, -1), false);
        lua_pop(L, 1);
        push_device(L, d);
        return true;
    }
    if (f->kind == K_MODEL && lua_type(L, -1) == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1);
        const scn_model *m = presets_model_find(name);
        if (!m && strcmp(name, "rule") == 0) return false;
        if (!m) unknown_preset(c, L, path, name, true);
        lua_pop(L, 1);
        lscn_push_model(L, m);
        return true;
    }
    if (f->kind == K_DIST && lua_type(L, -1) == LUA_TNUMBER) {
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

    const sfield *fields = F_TOP;   /* children of the current table */
    fkind kind = K_REC;             /* kind of the current table */
    char shown[PATH_MAX_LEN] = "";
    lua_pushvalue(L, root);         /* the current table */
    for (int i = 0; i < nparts; i++) {
        const char *key = parts[i];
        const sfield *f;
        long long idx = 0;
        char where[PATH_MAX_LEN];
        if (kind == K_ARR) {
            char *end;
            idx = strtoll(key, &end, 10);
            index_path(where, shown, idx);
            if (*end || idx < 1 || idx > 1000)
                fail_set(L, spec, "%s: expected an item number (1, 2, ...), got '%s'", shown, key);
            f = &fields[0];
        } else {
            join_path(where, shown, key);
            f = find_field(fields, key);
            if (!f) {
                char text[600];
                unknown_field_text(text, sizeof text, fields, key, kind == K_MODEL);
                fail_set(L, spec, "%s: %s", where, text);
            }
        }
        memcpy(shown, where, sizeof shown);
        if (kind == K_ARR) lua_pushinteger(L, (lua_Integer)idx);
        else lua_pushstring(L, key);
        if (i == nparts - 1) {
            push_set_value(L, eq + 1);
            lua_rawset(L, -3);
            lua_pop(L, 1);
            return;
        }
        if (f->kind <= K_STR)
            fail_set(L, spec, "%s is a value, not a table; it has no field '%s'", shown, parts[i + 1]);
        lua_pushvalue(L, -1);
        int ty = lua_rawget(L, -3);                  /* table key child */
        if (ty == LUA_TNIL) {
            lua_pop(L, 1);
            /* An absent distribution starts from its default. */
            if (f->kind == K_DIST && strcmp(key, "prompt_len") == 0)
                lscn_push_dist(L, &c->out->work.prompt_len);
            else if (f->kind == K_DIST)
                lscn_push_dist(L, &c->out->work.response_len);
            else
                lua_newtable(L);
        } else if (ty != LUA_TTABLE && !expand_for_set(c, L, f, shown)) {
            char got[64];
            fail_set(L, spec, "%s is %s, not a table; it has no field '%s'", shown,
                     got_text(L, -1, got, sizeof got), parts[i + 1]);
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
** Conversion of the returned table.
*/
static void conv_device(lctx *c, lua_State *L, int v, const char *path, scn_device *d)
{
    char got[64], where[PATH_MAX_LEN];
    if (lua_type(L, v) == LUA_TSTRING) {
        const scn_device *p = presets_device_find(lua_tostring(L, v));
        if (!p) unknown_preset(c, L, path, lua_tostring(L, v), false);
        *d = *p;
        return;
    }
    if (lua_type(L, v) != LUA_TTABLE)
        fail_at(c, L, path, "expected a device table (e.g. fusync.devices.h100) or a preset "
                "name, got %s", got_text(L, v, got, sizeof got));
    check_keys(c, L, v, path, F_DEVICE, false);
    memset(d, 0, sizeof *d);
    copy_name(d->name, "custom device");
    get_str(c, L, v, path, "name", d->name, sizeof d->name);
    static const struct { const char *key; size_t off; double scale; } nums[] = {
        {"tflops", offsetof(scn_device, peak_flops), 1e12},
        {"hbm_gb", offsetof(scn_device, hbm_bytes), GiB},
        {"hbm_tbps", offsetof(scn_device, hbm_bw), 1e12},
        {"scaleup_gbps", offsetof(scn_device, scaleup_bw), 1e9},
        {"scaleout_gbps", offsetof(scn_device, scaleout_bw), 1e9},
        {"host_gbps", offsetof(scn_device, host_bw), 1e9},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        double *dst = (double *)((char *)d + nums[i].off);
        if (!get_num(c, L, v, path, nums[i].key, dst, R_POS, nums[i].scale)) {
            join_path(where, path, nums[i].key);
            fail_at(c, L, where, "required for a custom device");
        }
    }
}

static void conv_model(lctx *c, lua_State *L, int v, const char *path, const char *role,
                       scn_model *m)
{
    char got[64], where[PATH_MAX_LEN];
    if (lua_type(L, v) == LUA_TSTRING) {
        const scn_model *p = presets_model_find(lua_tostring(L, v));
        if (!p) unknown_preset(c, L, path, lua_tostring(L, v), true);
        *m = *p;
        return;
    }
    if (lua_type(L, v) != LUA_TTABLE)
        fail_at(c, L, path, "expected a model table (e.g. fusync.models.qwen2_5_7b) or a "
                "preset name, got %s", got_text(L, v, got, sizeof got));
    check_keys(c, L, v, path, F_MODEL, true);
    memset(m, 0, sizeof *m);
    copy_name(m->name, role);
    get_str(c, L, v, path, "name", m->name, sizeof m->name);
    static const char *const required[] = {"layers", "hidden", "heads", "vocab"};
    int *req_dst[] = {&m->layers, &m->hidden, &m->heads, &m->vocab};
    for (int i = 0; i < 4; i++)
        if (!get_int(c, L, v, path, required[i], req_dst[i], 1, INT_MAX)) {
            join_path(where, path, required[i]);
            fail_at(c, L, where, "required for a model");
        }
    get_int(c, L, v, path, "dense_layers", &m->dense_layers, 0, m->layers);
    get_int(c, L, v, path, "kv_heads", &m->kv_heads, 0, m->heads);
    get_int(c, L, v, path, "head_dim", &m->head_dim, 0, INT_MAX);
    get_int(c, L, v, path, "mla_latent", &m->mla_latent, 0, INT_MAX);
    get_int(c, L, v, path, "mla_rope", &m->mla_rope, 0, INT_MAX);
    get_int(c, L, v, path, "mla_q_latent", &m->mla_q_latent, 0, INT_MAX);
    get_int(c, L, v, path, "ffn", &m->ffn, 0, INT_MAX);
    get_int(c, L, v, path, "expert_ffn", &m->expert_ffn, 0, INT_MAX);
    get_int(c, L, v, path, "experts", &m->experts, 0, INT_MAX);
    get_int(c, L, v, path, "experts_active", &m->experts_active, 0,
            m->experts > 0 ? m->experts : INT_MAX);
    get_int(c, L, v, path, "shared_experts", &m->shared_experts, 0, INT_MAX);
    get_bool(c, L, v, path, "tied_embeddings", &m->tied_embeddings);
    if (m->mla_latent == 0) {
        if (m->kv_heads == 0) m->kv_heads = m->heads;   /* plain multi-head attention */
        if (m->heads % m->kv_heads != 0) {
            join_path(where, path, "kv_heads");
            fail_at(c, L, where, "%d does not divide heads (%d)", m->kv_heads, m->heads);
        }
    }
    if (m->head_dim == 0 && m->hidden % m->heads != 0) {
        join_path(where, path, "head_dim");
        fail_at(c, L, where, "required: hidden (%d) is not a multiple of heads (%d)",
                m->hidden, m->heads);
    }
}

/* A model role: absent or false (none), true (a copy of the actor), a preset
** name, "rule" (reward only) or a model table.  Returns whether there is a
** model. */
static bool conv_role(lctx *c, lua_State *L, int models, const char *key, scn_model *m,
                      const scn_model *actor, bool *is_rule)
{
    char path[PATH_MAX_LEN];
    join_path(path, "models", key);
    int ty = rawfield(L, models, key);
    bool has = true;
    if (ty == LUA_TNIL || (ty == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
        has = false;
    } else if (ty == LUA_TBOOLEAN) {
        if (!actor) fail_at(c, L, path, "expected a model table or a preset name, got true");
        *m = *actor;
    } else if (ty == LUA_TSTRING && is_rule && strcmp(lua_tostring(L, -1), "rule") == 0) {
        has = false;
        *is_rule = true;
    } else {
        conv_model(c, L, lua_gettop(L), path, key, m);
    }
    lua_pop(L, 1);
    return has;
}

static void conv_models(lctx *c, lua_State *L, int t)
{
    scn_scenario *s = c->out;
    int models = get_table(c, L, t, "", "models");
    if (!models) fail_at(c, L, "models.actor", "required; e.g. actor = fusync.models.qwen2_5_7b");
    check_keys(c, L, models, "models", F_MODELS, false);
    if (!conv_role(c, L, models, "actor", &s->actor, NULL, NULL))
        fail_at(c, L, "models.actor", "required; e.g. actor = fusync.models.qwen2_5_7b");
    s->has_ref = conv_role(c, L, models, "reference", &s->ref, &s->actor, NULL);
    bool rule = false;
    s->reward_is_model = conv_role(c, L, models, "reward", &s->reward, &s->actor, &rule);
    s->has_critic = conv_role(c, L, models, "critic", &s->critic, &s->actor, NULL);
    lua_pop(L, 1);
}

static void conv_link(lctx *c, lua_State *L, int links, const char *key, scn_link *l,
                      double bw, double latency)
{
    l->bw = bw;
    l->latency_s = latency;
    if (!links) return;
    int t = get_table(c, L, links, "cluster.links", key);
    if (!t) return;
    char path[PATH_MAX_LEN];
    join_path(path, "cluster.links", key);
    check_keys(c, L, t, path, F_LINK, false);
    get_num(c, L, t, path, "gbps", &l->bw, R_POS, 1e9);
    get_num(c, L, t, path, "latency_us", &l->latency_s, R_NONNEG, 1e-6);
    lua_pop(L, 1);
}

static void conv_cluster(lctx *c, lua_State *L, int t)
{
    scn_cluster *cl = &c->out->cluster;
    const char *P = "cluster";
    int cluster = get_table(c, L, t, "", P);
    if (!cluster) fail_at(c, L, "cluster.device", "required; e.g. device = fusync.devices.h100");
    check_keys(c, L, cluster, P, F_CLUSTER, false);
    if (rawfield(L, cluster, "device") == LUA_TNIL)
        fail_at(c, L, "cluster.device", "required; e.g. device = fusync.devices.h100");
    conv_device(c, L, lua_gettop(L), "cluster.device", &cl->device);
    lua_pop(L, 1);
    get_int(c, L, cluster, P, "devices_per_node", &cl->devices_per_node, 1, 1 << 20);
    get_int(c, L, cluster, P, "nodes_per_supernode", &cl->nodes_per_supernode, 1, 1 << 20);
    get_int(c, L, cluster, P, "supernodes", &cl->supernodes, 1, 1 << 20);
    get_num(c, L, cluster, P, "host_mem_gb", &cl->host_mem_bytes, R_POS, GiB);
    int links = get_table(c, L, cluster, P, "links");
    if (links) check_keys(c, L, links, "cluster.links", F_LINKS, false);
    const scn_device *d = &cl->device;
    conv_link(c, L, links, "intra_node", &cl->intra_node, d->scaleup_bw, DEFAULT_LAT_INTRA_NODE);
    conv_link(c, L, links, "intra_supernode", &cl->intra_supernode, d->scaleout_bw,
              DEFAULT_LAT_INTRA_SUPERNODE);
    conv_link(c, L, links, "inter_supernode", &cl->inter_supernode, d->scaleout_bw,
              DEFAULT_LAT_INTER_SUPERNODE);
    if (links) lua_pop(L, 1);
    lua_pop(L, 1);
}

/* Fields each distribution kind takes, besides `kind` and `cap`. */
static const char *const DIST_FIELDS[][3] = {
    {"value", NULL, NULL}, {"lo", "hi", NULL}, {"median", "sigma", NULL},
    {"edges", "weights", NULL}
};

static void conv_num_array(lctx *c, lua_State *L, int t, const char *path, const char *key,
                           double *dst, int max, int *n, nrange r)
{
    char where[PATH_MAX_LEN], item[PATH_MAX_LEN];
    join_path(where, path, key);
    int a = get_table(c, L, t, path, key);
    if (!a) fail_at(c, L, where, "required for a histogram");
    lua_Integer len = check_array(c, L, a, where, max);
    for (lua_Integer i = 1; i <= len; i++) {
        lua_rawgeti(L, a, i);
        index_path(item, where, (long long)i);
        dst[i - 1] = want_num(c, L, -1, item, r);
        lua_pop(L, 1);
    }
    *n = (int)len;
    lua_pop(L, 1);
}

static void conv_dist(lctx *c, lua_State *L, int t, const char *parent, const char *key,
                      scn_dist *d)
{
    char path[PATH_MAX_LEN], where[PATH_MAX_LEN], got[64], list[128];
    join_path(path, parent, key);
    int ty = rawfield(L, t, key);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    int v = lua_gettop(L);
    memset(d, 0, sizeof *d);
    if (ty == LUA_TNUMBER) {
        d->kind = DIST_FIXED;
        d->a = want_num(c, L, v, path, R_POS);
        if (d->a < 1) fail_at(c, L, path, "a length must be at least 1 token, got %g", d->a);
        lua_pop(L, 1);
        return;
    }
    if (ty != LUA_TTABLE)
        fail_at(c, L, path, "expected a distribution (e.g. fusync.dist.fixed(1024)) or a "
                "number, got %s", got_text(L, v, got, sizeof got));
    check_keys(c, L, v, path, F_DIST, false);
    int kind;
    if (!get_enum(c, L, v, path, "kind", DIST_NAMES, &kind)) {
        join_path(where, path, "kind");
        fail_at(c, L, where, "required: one of %s", list_text(list, sizeof list, DIST_NAMES));
    }
    /* Fields of the other kinds are mistakes, not silently ignored. */
    for (int k = 0; k < 4; k++) {
        if (k == kind) continue;
        for (int i = 0; DIST_FIELDS[k][i]; i++) {
            if (rawfield(L, v, DIST_FIELDS[k][i]) != LUA_TNIL) {
                char takes[64] = "";
                for (int j = 0; DIST_FIELDS[kind][j]; j++) {
                    strcat(takes, DIST_FIELDS[kind][j]);
                    strcat(takes, ", ");
                }
                join_path(where, path, DIST_FIELDS[k][i]);
                fail_at(c, L, where, "not a field of a %s distribution (it takes %scap)",
                        DIST_NAMES[kind], takes);
            }
            lua_pop(L, 1);
        }
    }
    const char *req = NULL;
    switch (kind) {
    case 0:
        d->kind = DIST_FIXED;
        if (!get_num(c, L, v, path, "value", &d->a, R_POS, 1)) req = "value";
        else if (d->a < 1) {
            join_path(where, path, "value");
            fail_at(c, L, where, "a length must be at least 1 token, got %g", d->a);
        }
        break;
    case 1:
        d->kind = DIST_UNIFORM;
        if (!get_num(c, L, v, path, "lo", &d->a, R_POS, 1)) req = "lo";
        else if (!get_num(c, L, v, path, "hi", &d->b, R_POS, 1)) req = "hi";
        else if (d->b < d->a) {
            join_path(where, path, "hi");
            fail_at(c, L, where, "must not be below lo (%g), got %g", d->a, d->b);
        }
        break;
    case 2:
        d->kind = DIST_LOGNORMAL;
        if (!get_num(c, L, v, path, "median", &d->a, R_POS, 1)) req = "median";
        else if (!get_num(c, L, v, path, "sigma", &d->b, R_NONNEG, 1)) req = "sigma";
        break;
    default: {
        d->kind = DIST_HIST;
        int ne = 0, nw = 0;
        conv_num_array(c, L, v, path, "edges", d->edge, SCN_HIST_MAX + 1, &ne, R_NONNEG);
        conv_num_array(c, L, v, path, "weights", d->weight, SCN_HIST_MAX, &nw, R_NONNEG);
        if (nw < 1 || ne != nw + 1) {
            join_path(where, path, "edges");
            fail_at(c, L, where, "a histogram of %d weights needs %d edges, got %d", nw, nw + 1, ne);
        }
        for (int i = 0; i < nw; i++)
            if (d->edge[i + 1] <= d->edge[i]) {
                join_path(where, path, "edges");
                fail_at(c, L, where, "edges must increase (item %d: %g after %g)", i + 2,
                        d->edge[i + 1], d->edge[i]);
            }
        double sum = 0;
        for (int i = 0; i < nw; i++) sum += d->weight[i];
        if (sum <= 0) {
            join_path(where, path, "weights");
            fail_at(c, L, where, "weights sum to zero");
        }
        d->nbins = nw;
        break;
    }
    }
    if (req) {
        join_path(where, path, req);
        fail_at(c, L, where, "required for a %s distribution", DIST_NAMES[kind]);
    }
    get_num(c, L, v, path, "cap", &d->cap, R_NONNEG, 1);
    lua_pop(L, 1);
}

static void conv_workload(lctx *c, lua_State *L, int t)
{
    scn_workload *w = &c->out->work;
    const char *P = "workload";
    int wl = get_table(c, L, t, "", P);
    if (!wl) return;
    check_keys(c, L, wl, P, F_WORKLOAD, false);
    int algo;
    if (get_enum(c, L, wl, P, "algorithm", ALGO_NAMES, &algo))
        w->algo = algo == 0 ? ALGO_GRPO : ALGO_PPO;
    get_int(c, L, wl, P, "prompts_per_step", &w->prompts_per_step, 1, INT_MAX);
    get_int(c, L, wl, P, "samples_per_prompt", &w->samples_per_prompt, 1, INT_MAX);
    get_int(c, L, wl, P, "minibatches", &w->minibatches, 1, INT_MAX);
    get_int(c, L, wl, P, "epochs", &w->epochs, 1, INT_MAX);
    conv_dist(c, L, wl, P, "prompt_len", &w->prompt_len);
    conv_dist(c, L, wl, P, "response_len", &w->response_len);
    get_int(c, L, wl, P, "max_response", &w->max_response, 1, INT_MAX);
    get_int(c, L, wl, P, "iterations", &w->iterations, 1, INT_MAX);
    get_int(c, L, wl, P, "warmup", &w->warmup, 0, INT_MAX);
    if (rawfield(L, wl, "seed") != LUA_TNIL)
        w->seed = (uint64_t)want_int(c, L, -1, "workload.seed", 0, LLONG_MAX);
    lua_pop(L, 1);
    get_bool(c, L, wl, P, "recompute_logprob", &w->recompute_logprob);
    get_bool(c, L, wl, P, "batch_per_supernode", &w->batch_per_supernode);
    lua_pop(L, 1);
}

static void conv_pools(lctx *c, lua_State *L, int plan, scn_plan *p)
{
    char path[PATH_MAX_LEN], rpath[PATH_MAX_LEN], item[PATH_MAX_LEN], got[64];
    int pools = get_table(c, L, plan, "plan", "pools");
    if (!pools) return;
    lua_Integer n = check_array(c, L, pools, "plan.pools", SCN_POOLS_MAX);
    for (lua_Integer i = 1; i <= n; i++) {
        scn_pool *pl = &p->pools[i - 1];
        index_path(path, "plan.pools", (long long)i);
        if (lua_rawgeti(L, pools, i) != LUA_TTABLE)
            fail_at(c, L, path, "expected a pool table {name=, devices=, roles={...}}, got %s",
                    got_text(L, -1, got, sizeof got));
        int t = lua_gettop(L);
        check_keys(c, L, t, path, F_POOL, false);
        snprintf(pl->name, sizeof pl->name, "pool%d", (int)i);
        get_str(c, L, t, path, "name", pl->name, sizeof pl->name);
        if (!get_int(c, L, t, path, "devices", &pl->devices, 1, INT_MAX)) {
            join_path(item, path, "devices");
            fail_at(c, L, item, "required for a pool");
        }
        join_path(rpath, path, "roles");
        int roles = get_table(c, L, t, path, "roles");
        if (!roles) fail_at(c, L, rpath, "required: a list of rollout, train, ref, reward, critic");
        lua_Integer nr = check_array(c, L, roles, rpath, 16);
        pl->roles = 0;
        for (lua_Integer k = 1; k <= nr; k++) {
            lua_rawgeti(L, roles, k);
            index_path(item, rpath, (long long)k);
            int r = (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "reference") == 0)
                        ? 2 : want_enum(c, L, -1, item, ROLE_NAMES);
            pl->roles |= ROLE_BITS[r];
            lua_pop(L, 1);
        }
        if (pl->roles == 0) fail_at(c, L, rpath, "a pool needs at least one role");
        lua_pop(L, 2);
    }
    p->npools = (int)n;
    lua_pop(L, 1);
}

static void conv_plan(lctx *c, lua_State *L, int t)
{
    scn_plan *p = &c->out->plan;
    const char *P = "plan";
    int plan = get_table(c, L, t, "", P);
    if (!plan) return;
    check_keys(c, L, plan, P, F_PLAN, false);
    int e;
    if (get_enum(c, L, plan, P, "mode", MODE_NAMES, &e)) {
        if (!scn_mode_parse(MODE_NAMES[e], &p->mode))
            fail_at(c, L, "plan.mode", "not understood by this build");
    }
    get_int(c, L, plan, P, "rollout_devices", &p->rollout_devices, 0, INT_MAX);
    get_num(c, L, plan, P, "rollout_fraction", &p->rollout_fraction, R_FRAC, 1);
    get_int(c, L, plan, P, "aux_devices", &p->aux_devices, 0, INT_MAX);
    conv_pools(c, L, plan, p);

    int tr = get_table(c, L, plan, P, "train");
    if (tr) {
        const char *T = "plan.train";
        check_keys(c, L, tr, T, F_TRAIN, false);
        get_int(c, L, tr, T, "tp", &p->train.tp, 1, INT_MAX);
        get_int(c, L, tr, T, "pp", &p->train.pp, 1, INT_MAX);
        get_int(c, L, tr, T, "ep", &p->train.ep, 1, INT_MAX);
        get_int(c, L, tr, T, "dp", &p->train.dp, 0, INT_MAX);
        get_int(c, L, tr, T, "micro_batch", &p->train.micro_batch, 1, INT_MAX);
        if (get_enum(c, L, tr, T, "recompute", RECOMPUTE_NAMES, &e))
            p->train.recompute = e == 0 ? RECOMPUTE_NONE : e == 1 ? RECOMPUTE_SELECTIVE : RECOMPUTE_FULL;
        get_int(c, L, tr, T, "zero", &p->train.zero, 0, 3);
        get_bool(c, L, tr, T, "uneven_layers", &p->train.uneven_layers);
        lua_pop(L, 1);
    }
    int ro = get_table(c, L, plan, P, "rollout");
    if (ro) {
        const char *R = "plan.rollout";
        check_keys(c, L, ro, R, F_ROLLOUT, false);
        get_int(c, L, ro, R, "tp", &p->rollout.tp, 1, INT_MAX);
        get_int(c, L, ro, R, "ep", &p->rollout.ep, 1, INT_MAX);
        get_int(c, L, ro, R, "max_seqs", &p->rollout.max_seqs, 1, INT_MAX);
        get_num(c, L, ro, R, "mem_util", &p->rollout.mem_util, R_FRAC, 1);
        {
            int dsp;
            if (get_enum(c, L, ro, R, "dispatch", DISPATCH_NAMES, &dsp)) p->rollout.static_dispatch = dsp == 1;
        }
        lua_pop(L, 1);
    }
    get_int(c, L, plan, P, "aux_tp", &p->aux_tp, 1, INT_MAX);
    int off = get_table(c, L, plan, P, "offload");
    if (off) {
        check_keys(c, L, off, "plan.offload", F_OFFLOAD, false);
        get_bool(c, L, off, "plan.offload", "optimizer", &p->offload_optimizer);
        get_bool(c, L, off, "plan.offload", "grads", &p->offload_grads);
        lua_pop(L, 1);
    }
    int dq = get_table(c, L, plan, P, "distqueue");
    if (dq) {
        check_keys(c, L, dq, "plan.distqueue", F_DISTQUEUE, false);
        get_bool(c, L, dq, "plan.distqueue", "hierarchical", &p->dq_hierarchical);
        get_bool(c, L, dq, "plan.distqueue", "packed", &p->dq_packed);
        lua_pop(L, 1);
    }
    get_bool(c, L, plan, P, "zero_redundancy", &p->zero_redundancy);
    get_num(c, L, plan, P, "bucket_mb", &p->bucket_bytes, R_POS, MiB);
    get_int(c, L, plan, P, "staleness", &p->staleness, 0, INT_MAX);
    get_num(c, L, plan, P, "partial_rollout", &p->partial_rollout, R_FRAC, 1);
    if (get_enum(c, L, plan, P, "on_update", ONUPDATE_NAMES, &e))
        p->on_update = e == 0 ? ONUPD_CONTINUE : ONUPD_RESTART;
    if (get_enum(c, L, plan, P, "on_stale", ONSTALE_NAMES, &e))
        p->on_stale = e == 0 ? STALE_WAIT : STALE_DISCARD;
    get_str(c, L, plan, P, "policy", p->policy, sizeof p->policy);
    lua_pop(L, 1);
}

static void conv_efficiency(lctx *c, lua_State *L, int t)
{
    scn_efficiency *e = &c->out->eff;
    const char *P = "efficiency";
    int ef = get_table(c, L, t, "", P);
    if (!ef) return;
    check_keys(c, L, ef, P, F_EFFICIENCY, false);
    get_num(c, L, ef, P, "train", &e->train, R_FRAC, 1);
    get_num(c, L, ef, P, "prefill", &e->prefill, R_FRAC, 1);
    get_num(c, L, ef, P, "decode", &e->decode, R_FRAC, 1);
    get_num(c, L, ef, P, "hbm", &e->hbm, R_FRAC, 1);
    get_num(c, L, ef, P, "link", &e->link, R_FRAC, 1);
    get_num(c, L, ef, P, "host_link", &e->host_link, R_FRAC, 1);
    get_num(c, L, ef, P, "decode_overhead_ms", &e->decode_overhead_s, R_NONNEG, 1e-3);
    get_num(c, L, ef, P, "train_overhead_ms", &e->train_overhead_s, R_NONNEG, 1e-3);
    get_num(c, L, ef, P, "switch_overhead_s", &e->switch_overhead_s, R_NONNEG, 1);
    get_num(c, L, ef, P, "reward_rule_ms", &e->reward_rule_s, R_NONNEG, 1e-3);
    lua_pop(L, 1);
}

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
    scn_scenario *s = c->out;
    check_keys(c, L, t, "", F_TOP, false);
    base_name(s->name, sizeof s->name, c->file);
    get_str(c, L, t, "", "name", s->name, sizeof s->name);
    conv_cluster(c, L, t);
    conv_models(c, L, t);
    conv_workload(c, L, t);
    conv_plan(c, L, t);
    conv_efficiency(c, L, t);
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
    open_sandbox(L);

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
                        got_text(L, -1, got, sizeof got));
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

bool lscn_load(const char *path, const char *const *sets, int nsets,
               scn_scenario *out, fs_err *err)
{
    if (!path || !out) {
        fs_err_set(err, 2, "scenario: no file given");
        return false;
    }
    scn_defaults(out);
    snprintf(out->path, sizeof out->path, "%s", path);

    lctx c = {
        .file = path, .sets = sets, .nsets = sets ? nsets : 0, .out = out,
        .b = {
            .mem = {0, LSCN_MEMORY_BUDGET, false}, .file = path,
            .instr_limit = LSCN_INSTRUCTION_BUDGET, .call_seconds = LSCN_SECONDS,
            .seconds_env = "FUSYNC_SCENARIO_SECONDS", .stop_text = budget_text,
        },
    };
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
    if (!ok) return false;

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
