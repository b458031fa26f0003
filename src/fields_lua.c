/*
** fields_lua.c — read and write the scenario format (fields.h) as Lua tables.
**
** Reading is strict: unknown keys (with "did you mean"), types, ranges, array
** shapes; tables are read raw, so no metamethod runs.  The writers are in
** fields_lua_push.c.
**
** About 830 lines: the custom records (device, model, models, distribution,
** pools) stay beside the generic reader they extend, so one file holds every
** rule of how the format is read.
*/
#include "fields_lua.h"
#include "plan.h"
#include "presets.h"

#include <lua.h>
#include <lauxlib.h>

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Link latencies when the scenario gives none: GUESSES of the per-step
** latency of a collective on each tier (NVLink/HCCS, a switched fabric inside
** a supernode, the data-center network between supernodes). */
#define DEFAULT_LAT_INTRA_NODE      2e-6
#define DEFAULT_LAT_INTRA_SUPERNODE 5e-6
#define DEFAULT_LAT_INTER_SUPERNODE 10e-6

/* Fields of scn_model that are computed, never read from a scenario. */
static const char *const MODEL_DERIVED[] = {
    "params_total", "params_active", "params_expert", "params_dense",
    "params_layer_dense", "kv_bytes_per_token", NULL
};

/* ------------------------------------------------------------- errors */

_Noreturn void fr_fail(freader *r, const char *path, const char *fmt, ...)
{
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->fail(r, path, msg);
    abort();    /* not reached: fail raises a Lua error */
}

void fields_join_path(char *dst, const char *parent, const char *key)
{
    int n = parent[0] ? snprintf(dst, FLD_PATH_MAX, "%s.%s", parent, key)
                      : snprintf(dst, FLD_PATH_MAX, "%s", key);
    if (n >= FLD_PATH_MAX) dst[FLD_PATH_MAX - 1] = '\0';
}

void fields_index_path(char *dst, const char *parent, long long i)
{
    int n = snprintf(dst, FLD_PATH_MAX, "%s[%lld]", parent, i);
    if (n >= FLD_PATH_MAX) dst[FLD_PATH_MAX - 1] = '\0';
}

/* Push t[key] without metamethods; returns its type.  t is absolute. */
static int rawfield(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

const char *fields_suggest(const char *key, const char *const *names, int n)
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

static int field_names(const fdesc *f, const char **names, int max)
{
    int n = 0;
    for (; f->name && n < max; f++) names[n++] = f->name;
    return n;
}

void fields_unknown_text(char *buf, size_t n, const fdesc *rec, const char *key)
{
    if (rec == FIELDS_MODEL)
        for (const char *const *d = MODEL_DERIVED; *d; d++)
            if (strcmp(*d, key) == 0) {
                snprintf(buf, n, "derived from the architecture, not an input; remove it");
                return;
            }
    const char *names[40] = {NULL};
    int k = field_names(rec, names, 40);
    const char *s = fields_suggest(key, names, k);
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

const char *fields_got_text(lua_State *L, int idx, char *buf, size_t n)
{
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(buf, n, "%.17g", lua_tonumber(L, idx));
        return buf;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len <= 40 && strlen(s) == len) {
            /* control characters never reach a terminal through a message */
            size_t k = (size_t)snprintf(buf, n, "string \"");
            for (size_t i = 0; i < len && k + 6 < n; i++) {
                unsigned char ch = (unsigned char)s[i];
                if (ch < 0x20 || ch == 0x7f) k += (size_t)snprintf(buf + k, n - k, "\\x%02x", ch);
                else buf[k++] = (char)ch;
            }
            snprintf(buf + k, n - k, "\"");
        } else {
            snprintf(buf, n, "a string");
        }
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

_Noreturn void fields_unknown_preset(freader *r, const char *path, const char *name, bool models)
{
    const char *keys[32] = {NULL};
    int n = models ? presets_model_count() : presets_device_count();
    if (n > 32) n = 32;
    for (int i = 0; i < n; i++) keys[i] = models ? presets_model_key(i) : presets_device_key(i);
    const char *sug = fields_suggest(name, keys, n);
    const char *what = models ? "model" : "device";
    if (sug) fr_fail(r, path, "unknown %s preset '%.40s'; did you mean '%s'?", what, name, sug);
    char list[512];
    fr_fail(r, path, "unknown %s preset '%.40s' (presets: %s)", what, name, preset_keys(list, sizeof list, models));
}

/* Every key of the record at t must be a known field.  Unknown keys are
** reported in a fixed order (the smallest first) whatever the hash order. */
static void check_keys(freader *r, int t, const char *path, const fdesc *rec)
{
    lua_State *L = r->L;
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
                snprintf(badkey, sizeof badkey, "%s", fields_got_text(L, -1, got, sizeof got));
            }
            continue;
        }
        const char *k = lua_tostring(L, -1);   /* alive: it is a key of t */
        if (!fields_find(rec, k) && (!bad || strcmp(k, bad) < 0)) bad = k;
    }
    char where[FLD_PATH_MAX];
    if (bad) {
        char text[600];
        fields_unknown_text(text, sizeof text, rec, bad);
        fields_join_path(where, path, bad);
        fr_fail(r, where, "%s", text);
    }
    if (nonstring)
        fr_fail(r, path[0] ? path : "(returned table)",
                "unexpected key %s; this table takes named fields only", badkey);
}

/* Length of the array at t; any non-sequence key is an error. */
static lua_Integer check_array(freader *r, int t, const char *path, lua_Integer max)
{
    lua_State *L = r->L;
    lua_Integer n = (lua_Integer)lua_rawlen(L, t), count = 0;
    if (!lua_checkstack(L, 4)) fr_fail(r, path, "too deeply nested");
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
            char got[64];
            fr_fail(r, path, "expected an array (a list {a, b, ...}), found key %s",
                    fields_got_text(L, -1, got, sizeof got));
        }
        count++;
    }
    if (count != n) fr_fail(r, path, "expected an array without holes");
    if (n > max) fr_fail(r, path, "at most %lld items, got %lld", (long long)max, (long long)n);
    return n;
}

/* ------------------------------------------------------- typed values */

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

static long long want_int(freader *r, int idx, const char *path, long long lo, long long hi)
{
    long long v;
    char got[64];
    if (!to_integer(r->L, idx, &v))
        fr_fail(r, path, "expected an integer, got %s", fields_got_text(r->L, idx, got, sizeof got));
    if (v >= lo && v <= hi) return v;
    if (hi - lo <= 64) fr_fail(r, path, "must be in %lld..%lld, got %lld", lo, hi, v);
    if (v < lo && lo == 0) fr_fail(r, path, "must not be negative, got %lld", v);
    if (v < lo) fr_fail(r, path, "must be at least %lld, got %lld", lo, v);
    fr_fail(r, path, "must be at most %lld, got %lld", hi, v);
    return v;
}

static double want_num(freader *r, int idx, const char *path, const fdesc *f)
{
    char got[64], lo[32], hi[32];
    lua_State *L = r->L;
    if (lua_type(L, idx) != LUA_TNUMBER)
        fr_fail(r, path, "expected a number, got %s", fields_got_text(L, idx, got, sizeof got));
    double v = lua_tonumber(L, idx);
    if (!isfinite(v)) fr_fail(r, path, "must be a finite number");
    if (f->flags & FF_LO_OPEN) {
        if (v <= 0 || v > f->hi)
            fr_fail(r, path, "must be a fraction in (0, 1], got %s", fields_got_text(L, idx, got, sizeof got));
        if (v < f->lo)
            fr_fail(r, path, "must be at least %g (a fraction in (0, 1] that the model can use), got %s", f->lo,
                    fields_got_text(L, idx, got, sizeof got));
    } else if (v < f->lo || v > f->hi || ((f->flags & FF_HI_OPEN) && v >= f->hi)) {
        const char *u = f->unit ? f->unit : "", *sp = f->unit ? " " : "";
        fields_got_text(L, idx, got, sizeof got);
        snprintf(lo, sizeof lo, "%g", f->lo);
        snprintf(hi, sizeof hi, "%g", f->hi);
        if (v < f->lo && f->lo == 0) fr_fail(r, path, "must not be negative, got %s", got);
        if (v <= 0) fr_fail(r, path, "must be positive, got %s", got);
        if (v < f->lo) fr_fail(r, path, "must be at least %s%s%s, got %s", lo, sp, u, got);
        if (f->flags & FF_HI_OPEN) fr_fail(r, path, "must be below %s%s%s, got %s", hi, sp, u, got);
        fr_fail(r, path, "must be at most %s%s%s, got %s", hi, sp, u, got);
    }
    return v;
}

static int want_enum(freader *r, int idx, const char *path, const char *const *names)
{
    char got[64], list[256];
    lua_State *L = r->L;
    /* an enum with the names "true" and "false" takes the booleans for them
    ** (plan.offload.reference: true, false or "auto") */
    if (lua_type(L, idx) == LUA_TBOOLEAN) {
        const char *b = lua_toboolean(L, idx) ? "true" : "false";
        for (int i = 0; names[i]; i++)
            if (strcmp(b, names[i]) == 0) return i;
    }
    if (lua_type(L, idx) != LUA_TSTRING)
        fr_fail(r, path, "expected one of %s; got %s", list_text(list, sizeof list, names),
                fields_got_text(L, idx, got, sizeof got));
    const char *s = lua_tostring(L, idx);
    for (int i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0) return i;
    const char *sug = fields_suggest(s, names, count_names(names));
    char shown[64];
    snprintf(shown, sizeof shown, "%s", fields_got_text(L, idx, got, sizeof got) + 8);   /* less 'string "' */
    if (strlen(shown) > 0) shown[strlen(shown) - 1] = '\0';
    if (sug) fr_fail(r, path, "unknown value '%s'; did you mean '%s'?", shown, sug);
    fr_fail(r, path, "unknown value '%s'; expected one of %s", shown, list_text(list, sizeof list, names));
}

static void store_int(const fdesc *f, void *base, long long v)
{
    void *p = fields_at(f, base);
    if (f->size == sizeof(bool)) *(bool *)p = v != 0;
    else if (f->size == sizeof(int)) *(int *)p = (int)v;
    else if (f->size == sizeof(uint64_t)) *(uint64_t *)p = (uint64_t)v;
}

/* A free-text string (numbers are accepted and written as text). */
static void read_str(freader *r, int idx, const char *path, char *buf, size_t n)
{
    char got[64];
    lua_State *L = r->L;
    int ty = lua_type(L, idx);
    if (ty != LUA_TSTRING && ty != LUA_TNUMBER)
        fr_fail(r, path, "expected a string, got %s", fields_got_text(L, idx, got, sizeof got));
    size_t len;
    lua_pushvalue(L, idx);              /* convert a copy, not the table's value */
    const char *s = lua_tolstring(L, -1, &len);
    if (len >= n) fr_fail(r, path, "longer than %zu characters", n - 1);
    if (strlen(s) != len) fr_fail(r, path, "contains a zero byte");
    memcpy(buf, s, len + 1);
    lua_pop(L, 1);
}

/* The value at v (absolute) into the member f describes. */
static void read_leaf(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    lua_State *L = r->L;
    char got[64];
    switch (f->kind) {
    case FK_INT:
        store_int(f, base, want_int(r, v, path, (long long)f->lo, (long long)f->hi));
        break;
    case FK_NUM:
        *(double *)fields_at(f, base) = want_num(r, v, path, f) * f->scale;
        break;
    case FK_BOOL:
        if (lua_type(L, v) != LUA_TBOOLEAN)
            fr_fail(r, path, "expected true or false, got %s", fields_got_text(L, v, got, sizeof got));
        *(bool *)fields_at(f, base) = lua_toboolean(L, v);
        break;
    case FK_STR:
        read_str(r, v, path, fields_at(f, base), f->size);
        break;
    case FK_ENUM: {
        int i = want_enum(r, v, path, f->enames);
        store_int(f, base, f->evals ? f->evals[i] : i);
        break;
    }
    default:
        break;
    }
}

/* The readers of the fields with a codec of their own (fields.h, fcodec),
** keyed by it.  Each is called even when its field is absent (v == 0), so it
** can require the field or fill defaults; base is the enclosing record's C
** struct. */
typedef void fr_codec(freader *r, int v, const char *path, const fdesc *f, void *base);
static fr_codec fr_device, fr_opt_device, fr_links, fr_models, fr_dist, fr_pools;
static fr_codec *const READERS[FC__COUNT] = {
    [FC_DEVICE] = fr_device, [FC_LINKS] = fr_links, [FC_MODELS] = fr_models, [FC_DIST] = fr_dist,
    [FC_POOLS] = fr_pools, [FC_OPT_DEVICE] = fr_opt_device,
};

void fr_record(freader *r, int t, const char *path, const fdesc *rec, void *base)
{
    lua_State *L = r->L;
    char where[FLD_PATH_MAX], got[64];
    if (!lua_checkstack(L, 8)) fr_fail(r, path, "too deeply nested");
    check_keys(r, t, path, rec);
    for (const fdesc *f = rec; f->name; f++) {
        fields_join_path(where, path, f->name);
        int ty = rawfield(L, t, f->name);
        int v = ty == LUA_TNIL ? 0 : lua_gettop(L);
        fr_codec *read = READERS[f->codec];
        if (!v && f->kind == FK_REC && !read && (f->flags & FF_REQUIRED)) {
            /* a required record: read as empty, so its own required fields speak */
            lua_pop(L, 1);
            lua_newtable(L);
            v = lua_gettop(L);
            ty = LUA_TTABLE;
        }
        if (v && r->place && (f->flags & FF_NO_PLACE)) {
            /* a policy may hand back the plan it was given; it may not change it */
            if (f->kind == FK_STR && f->size && lua_type(L, v) == LUA_TSTRING &&
                strcmp(lua_tostring(L, v), (const char *)fields_at(f, base)) == 0) {
                lua_pop(L, 1);
                continue;
            }
            fr_fail(r, where, "set by the run, not by a policy; leave it out");
        }
        if (read) {
            read(r, v, where, f, base);
        } else if (!v) {
            if (f->flags & FF_REQUIRED) fr_fail(r, where, "required");
        } else if (f->kind == FK_REC) {
            if (ty != LUA_TTABLE)
                fr_fail(r, where, "expected a table, got %s", fields_got_text(L, v, got, sizeof got));
            fr_record(r, v, where, f->sub, (f->size || f->off) ? fields_at(f, base) : base);
        } else {
            read_leaf(r, v, where, f, base);
        }
        lua_pop(L, 1);
    }
}

/* ------------------------------------------------------ custom readers */

static void fr_device(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    lua_State *L = r->L;
    scn_device *d = fields_at(f, base);
    char got[64];
    if (!v) fr_fail(r, path, "required; e.g. device = fusync.devices.h100");
    if (lua_type(L, v) == LUA_TSTRING) {
        const scn_device *p = presets_device_find(lua_tostring(L, v));
        if (!p) fields_unknown_preset(r, path, lua_tostring(L, v), false);
        *d = *p;
        return;
    }
    if (lua_type(L, v) != LUA_TTABLE)
        fr_fail(r, path, "expected a device table (e.g. fusync.devices.h100) or a preset name, got %s",
                fields_got_text(L, v, got, sizeof got));
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "custom device");
    check_keys(r, v, path, FIELDS_DEVICE);      /* a misspelt key says so first */
    for (const fdesc *k = FIELDS_DEVICE; k->name; k++) {
        if (!(k->flags & FF_REQUIRED)) continue;
        int ty = rawfield(L, v, k->name);
        lua_pop(L, 1);
        if (ty == LUA_TNIL) {
            char where[FLD_PATH_MAX];
            fields_join_path(where, path, k->name);
            fr_fail(r, where, "required for a custom device");
        }
    }
    fr_record(r, v, path, FIELDS_DEVICE, d);
}

/* A pool's own device: absent, the member is left as it is (zero: the
** cluster's device). */
static void fr_opt_device(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    if (v) fr_device(r, v, path, f, base);
}

/* Links default to the device's own links; read after the device. */
static void fr_links(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    scn_cluster *cl = base;
    const scn_device *d = &cl->device;
    cl->intra_node = (scn_link){.bw = d->scaleup_bw, .latency_s = DEFAULT_LAT_INTRA_NODE};
    cl->intra_supernode = (scn_link){.bw = d->scaleout_bw, .latency_s = DEFAULT_LAT_INTRA_SUPERNODE};
    cl->inter_supernode = (scn_link){.bw = d->scaleout_bw, .latency_s = DEFAULT_LAT_INTER_SUPERNODE};
    if (!v) return;
    char got[64];
    if (lua_type(r->L, v) != LUA_TTABLE)
        fr_fail(r, path, "expected a table, got %s", fields_got_text(r->L, v, got, sizeof got));
    fr_record(r, v, path, f->sub, base);
}

static void read_model(freader *r, int v, const char *path, const char *role, scn_model *m)
{
    lua_State *L = r->L;
    char got[64], where[FLD_PATH_MAX];
    if (lua_type(L, v) == LUA_TSTRING) {
        const scn_model *p = presets_model_find(lua_tostring(L, v));
        if (!p) fields_unknown_preset(r, path, lua_tostring(L, v), true);
        *m = *p;
        return;
    }
    if (lua_type(L, v) != LUA_TTABLE)
        fr_fail(r, path, "expected a model table (e.g. fusync.models.qwen2_5_7b) or a preset name, got %s",
                fields_got_text(L, v, got, sizeof got));
    check_keys(r, v, path, FIELDS_MODEL);
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", role);
    for (const fdesc *k = FIELDS_MODEL; k->name; k++)
        if (k->flags & FF_REQUIRED) {
            int ty = rawfield(L, v, k->name);
            lua_pop(L, 1);
            if (ty == LUA_TNIL) {
                fields_join_path(where, path, k->name);
                fr_fail(r, where, "required for a model");
            }
        }
    fr_record(r, v, path, FIELDS_MODEL, m);
    /* ranges that depend on other fields */
    if (m->dense_layers > m->layers) {
        fields_join_path(where, path, "dense_layers");
        fr_fail(r, where, "must be in 0..%d (the layers), got %d", m->layers, m->dense_layers);
    }
    if (m->kv_heads > m->heads) {
        fields_join_path(where, path, "kv_heads");
        fr_fail(r, where, "must be in 0..%d (the heads), got %d", m->heads, m->kv_heads);
    }
    if (m->experts > 0 && m->experts_active > m->experts) {
        fields_join_path(where, path, "experts_active");
        fr_fail(r, where, "must be in 0..%d (the experts), got %d", m->experts, m->experts_active);
    }
    if (m->mla_latent == 0) {
        if (m->kv_heads == 0) m->kv_heads = m->heads;   /* plain multi-head attention */
        if (m->heads % m->kv_heads != 0) {
            fields_join_path(where, path, "kv_heads");
            fr_fail(r, where, "%d does not divide heads (%d)", m->kv_heads, m->heads);
        }
    }
    if (m->head_dim == 0 && m->hidden % m->heads != 0) {
        fields_join_path(where, path, "head_dim");
        fr_fail(r, where, "required: hidden (%d) is not a multiple of heads (%d)", m->hidden, m->heads);
    }
}

/* A model role: absent or false (none), true (a copy of the actor), a preset
** name, "rule" (reward only) or a model table.  Returns whether there is a
** model. */
static bool read_role(freader *r, int models, const fdesc *f, scn_model *m, const scn_model *actor,
                      bool *is_rule)
{
    lua_State *L = r->L;
    char path[FLD_PATH_MAX];
    fields_join_path(path, "models", f->name);
    int ty = rawfield(L, models, f->name);
    bool has = true;
    if (ty == LUA_TNIL || (ty == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
        has = false;
    } else if (ty == LUA_TBOOLEAN) {
        if (!actor) fr_fail(r, path, "expected a model table or a preset name, got true");
        *m = *actor;
    } else if (ty == LUA_TSTRING && is_rule && strcmp(lua_tostring(L, -1), "rule") == 0) {
        has = false;
        *is_rule = true;
    } else {
        read_model(r, lua_gettop(L), path, f->name, m);
    }
    lua_pop(L, 1);
    return has;
}

static void fr_models(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    scn_scenario *s = base;
    char got[64];
    if (!v) fr_fail(r, "models.actor", "required; e.g. actor = fusync.models.qwen2_5_7b");
    if (lua_type(r->L, v) != LUA_TTABLE)
        fr_fail(r, path, "expected a table, got %s", fields_got_text(r->L, v, got, sizeof got));
    check_keys(r, v, path, f->sub);
    const fdesc *actor = fields_find(f->sub, "actor"), *ref = fields_find(f->sub, "reference");
    const fdesc *reward = fields_find(f->sub, "reward"), *critic = fields_find(f->sub, "critic");
    if (!read_role(r, v, actor, &s->actor, NULL, NULL))
        fr_fail(r, "models.actor", "required; e.g. actor = fusync.models.qwen2_5_7b");
    s->has_ref = read_role(r, v, ref, &s->ref, &s->actor, NULL);
    bool rule = false;
    s->reward_is_model = read_role(r, v, reward, &s->reward, &s->actor, &rule);
    s->has_critic = read_role(r, v, critic, &s->critic, &s->actor, NULL);
}

/* Fields each distribution kind takes, besides `kind` and `cap`. */
static const char *const DIST_FIELDS[][4] = {
    {"value", NULL, NULL, NULL}, {"lo", "hi", NULL, NULL}, {"median", "sigma", "mean", NULL},
    {"edges", "weights", NULL, NULL}
};

static void read_num_array(freader *r, int t, const char *path, const char *key, double *dst, int max,
                           int *n)
{
    lua_State *L = r->L;
    char where[FLD_PATH_MAX], item[FLD_PATH_MAX], got[64];
    fields_join_path(where, path, key);
    int ty = rawfield(L, t, key);
    if (ty == LUA_TNIL) fr_fail(r, where, "required for a histogram");
    if (ty != LUA_TTABLE) fr_fail(r, where, "expected a table, got %s", fields_got_text(L, -1, got, sizeof got));
    int a = lua_gettop(L);
    lua_Integer len = check_array(r, a, where, max);
    static const fdesc elem = {"", FK_NUM, 0, sizeof(double), 1, 0, 1e9, 0, NULL, NULL, NULL, FC_ROWS, NULL, NULL};
    for (lua_Integer i = 1; i <= len; i++) {
        lua_rawgeti(L, a, i);
        fields_index_path(item, where, (long long)i);
        dst[i - 1] = want_num(r, -1, item, &elem);
        lua_pop(L, 1);
    }
    *n = (int)len;
    lua_pop(L, 1);
}

static bool dist_num(freader *r, int v, const char *path, const char *key, double *out)
{
    int ty = rawfield(r->L, v, key);
    if (ty == LUA_TNIL) {
        lua_pop(r->L, 1);
        return false;
    }
    char where[FLD_PATH_MAX];
    fields_join_path(where, path, key);
    *out = want_num(r, lua_gettop(r->L), where, fields_find(FIELDS_DIST, key));
    lua_pop(r->L, 1);
    return true;
}

static void fr_dist(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    lua_State *L = r->L;
    char where[FLD_PATH_MAX], got[64], list[128];
    if (!v) return;
    scn_dist *d = fields_at(f, base);
    memset(d, 0, sizeof *d);
    if (lua_type(L, v) == LUA_TNUMBER) {
        d->kind = DIST_FIXED;
        d->a = want_num(r, v, path, fields_find(FIELDS_DIST, "value"));
        return;
    }
    if (lua_type(L, v) != LUA_TTABLE)
        fr_fail(r, path, "expected a distribution (e.g. fusync.dist.fixed(1024)) or a number, got %s",
                fields_got_text(L, v, got, sizeof got));
    check_keys(r, v, path, FIELDS_DIST);
    fields_join_path(where, path, "kind");
    if (rawfield(L, v, "kind") == LUA_TNIL)
        fr_fail(r, where, "required: one of %s", list_text(list, sizeof list, DIST_NAMES));
    int kind = want_enum(r, lua_gettop(L), where, DIST_NAMES);
    lua_pop(L, 1);
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
                fields_join_path(where, path, DIST_FIELDS[k][i]);
                fr_fail(r, where, "not a field of a %s distribution (it takes %scap)", DIST_NAMES[kind], takes);
            }
            lua_pop(L, 1);
        }
    }
    const char *req = NULL;
    switch (kind) {
    case 0:
        d->kind = DIST_FIXED;
        if (!dist_num(r, v, path, "value", &d->a)) req = "value";
        break;
    case 1:
        d->kind = DIST_UNIFORM;
        if (!dist_num(r, v, path, "lo", &d->a)) req = "lo";
        else if (!dist_num(r, v, path, "hi", &d->b)) req = "hi";
        else if (d->b < d->a) {
            fields_join_path(where, path, "hi");
            fr_fail(r, where, "must not be below lo (%g), got %g", d->a, d->b);
        }
        break;
    case 2:
    {
        /* by its median, or by its mean as papers publish it: a lognormal's
        ** mean is median * exp(sigma^2 / 2), before any cap */
        d->kind = DIST_LOGNORMAL;
        double mean = 0;
        bool has_median = dist_num(r, v, path, "median", &d->a);
        bool has_mean = dist_num(r, v, path, "mean", &mean);
        if (!dist_num(r, v, path, "sigma", &d->b)) req = "sigma";
        else if (has_median && has_mean) {
            fields_join_path(where, path, "mean");
            fr_fail(r, where, "give median or mean, not both");
        } else if (has_mean) {
            d->a = mean * exp(-0.5 * d->b * d->b);
            if (d->a < 1) {
                fields_join_path(where, path, "mean");
                fr_fail(r, where, "a mean of %g with sigma %g puts the median below 1 token", mean, d->b);
            }
        } else if (!has_median) {
            req = "median";
        }
        break;
    }
    default: {
        d->kind = DIST_HIST;
        int ne = 0, nw = 0;
        read_num_array(r, v, path, "edges", d->edge, SCN_HIST_MAX + 1, &ne);
        read_num_array(r, v, path, "weights", d->weight, SCN_HIST_MAX, &nw);
        if (nw < 1 || ne != nw + 1) {
            fields_join_path(where, path, "edges");
            fr_fail(r, where, "a histogram of %d weights needs %d edges, got %d", nw, nw + 1, ne);
        }
        for (int i = 0; i < nw; i++)
            if (d->edge[i + 1] <= d->edge[i]) {
                fields_join_path(where, path, "edges");
                fr_fail(r, where, "edges must increase (item %d: %g after %g)", i + 2, d->edge[i + 1], d->edge[i]);
            }
        double sum = 0;
        for (int i = 0; i < nw; i++) sum += d->weight[i];
        if (sum <= 0) {
            fields_join_path(where, path, "weights");
            fr_fail(r, where, "weights sum to zero");
        }
        d->nbins = nw;
        break;
    }
    }
    if (req) {
        fields_join_path(where, path, req);
        fr_fail(r, where, "required for a %s distribution", DIST_NAMES[kind]);
    }
    dist_num(r, v, path, "cap", &d->cap);
}

/* A pool's ranges: a list of inclusive {first, last} device numbers.  Only
** their form is checked here; plan_build checks them against the cluster
** and the other pools. */
static void read_ranges(freader *r, int t, const char *path, scn_pool *pl)
{
    lua_State *L = r->L;
    char item[FLD_PATH_MAX], end[FLD_PATH_MAX], got[64];
    int ty = rawfield(L, t, "ranges");
    if (ty == LUA_TNIL) { lua_pop(L, 1); return; }
    if (ty != LUA_TTABLE) fr_fail(r, path, "expected a list of {first, last} device numbers, got %s", fields_got_text(L, -1, got, sizeof got));
    int rt = lua_gettop(L);
    lua_Integer n = check_array(r, rt, path, SCN_RANGES_MAX);
    if (n == 0) fr_fail(r, path, "an empty list; give at least one {first, last} or leave ranges out");
    for (lua_Integer k = 1; k <= n; k++) {
        fields_index_path(item, path, (long long)k);
        if (lua_rawgeti(L, rt, k) != LUA_TTABLE || check_array(r, lua_gettop(L), item, 2) != 2)
            fr_fail(r, item, "expected {first, last}, two device numbers, got %s", fields_got_text(L, -1, got, sizeof got));
        int e = lua_gettop(L);
        for (int j = 0; j < 2; j++) {
            fields_index_path(end, item, j + 1);
            lua_rawgeti(L, e, j + 1);
            pl->range[k - 1][j] = (int)want_int(r, lua_gettop(L), end, 0, FLD_DEVICES_MAX - 1);
            lua_pop(L, 1);
        }
        if (pl->range[k - 1][1] < pl->range[k - 1][0])
            fr_fail(r, item, "{%d, %d}: the last device comes before the first", pl->range[k - 1][0], pl->range[k - 1][1]);
        lua_pop(L, 1);
    }
    pl->nranges = (int)n;
    lua_pop(L, 1);
}

static void fr_pools(freader *r, int v, const char *path, const fdesc *f, void *base)
{
    (void)f;    /* a codec of the field table: the pools' rows are its own */
    lua_State *L = r->L;
    scn_plan *p = base;
    char item[FLD_PATH_MAX], rpath[FLD_PATH_MAX], role[FLD_PATH_MAX], got[64];
    if (!v) return;
    if (lua_type(L, v) != LUA_TTABLE)
        fr_fail(r, path, "expected a table, got %s", fields_got_text(L, v, got, sizeof got));
    lua_Integer n = check_array(r, v, path, SCN_POOLS_MAX);
    const fdesc *roles_f = fields_find(FIELDS_POOL, "roles"), *ranges_f = fields_find(FIELDS_POOL, "ranges");
    for (lua_Integer i = 1; i <= n; i++) {
        scn_pool *pl = &p->pools[i - 1];
        fields_index_path(item, path, (long long)i);
        if (lua_rawgeti(L, v, i) != LUA_TTABLE)
            fr_fail(r, item, "expected a pool table {name=, devices=, roles={...}}, got %s",
                    fields_got_text(L, -1, got, sizeof got));
        int t = lua_gettop(L);
        check_keys(r, t, item, FIELDS_POOL);
        memset(pl, 0, sizeof *pl);
        snprintf(pl->name, sizeof pl->name, "pool%d", (int)i);
        /* ranges first: they make devices optional (their sum) */
        fields_join_path(rpath, item, "ranges");
        read_ranges(r, t, rpath, pl);
        fields_join_path(rpath, item, "devices");
        if (rawfield(L, t, "devices") == LUA_TNIL && pl->nranges == 0)
            fr_fail(r, rpath, "required for a pool (or give its ranges)");
        lua_pop(L, 1);
        /* name, devices and where through the table; roles and ranges apart */
        for (const fdesc *k = FIELDS_POOL; k->name; k++) {
            if (k == roles_f || k == ranges_f) continue;
            fields_join_path(rpath, item, k->name);
            if (rawfield(L, t, k->name) != LUA_TNIL) {
                if (k->codec == FC_OPT_DEVICE) fr_opt_device(r, lua_gettop(L), rpath, k, pl);
                else read_leaf(r, lua_gettop(L), rpath, k, pl);
            }
            lua_pop(L, 1);
        }
        fields_join_path(rpath, item, "roles");
        int ty = rawfield(L, t, "roles");
        if (ty == LUA_TNIL) fr_fail(r, rpath, "required: a list of rollout, train, ref, reward, critic");
        if (ty != LUA_TTABLE) fr_fail(r, rpath, "expected a table, got %s", fields_got_text(L, -1, got, sizeof got));
        int rt = lua_gettop(L);
        lua_Integer nr = check_array(r, rt, rpath, FLD_ROLES_MAX);
        for (lua_Integer k = 1; k <= nr; k++) {
            lua_rawgeti(L, rt, k);
            fields_index_path(role, rpath, (long long)k);
            int b = (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "reference") == 0)
                        ? 2 : want_enum(r, lua_gettop(L), role, plan_role_names);
            pl->roles |= 1u << b;
            lua_pop(L, 1);
        }
        if (pl->roles == 0) fr_fail(r, rpath, "a pool needs at least one role");
        lua_pop(L, 2);
        if (pl->nranges > 0) {
            int sum = 0;
            for (int k = 0; k < pl->nranges; k++) sum += pl->range[k][1] - pl->range[k][0] + 1;
            fields_join_path(rpath, item, "devices");
            if (pl->devices == 0) pl->devices = sum;
            else if (pl->devices != sum)
                fr_fail(r, rpath, "%d, but its ranges hold %d devices; give the sum or leave devices out", pl->devices, sum);
            if (pl->where != WHERE_PACKED) {
                fields_join_path(rpath, item, "where");
                fr_fail(r, rpath, "a pool with ranges is placed by them; leave where out");
            }
        }
    }
    p->npools = (int)n;
}

void fields_read_scenario(freader *r, int t)
{
    fr_record(r, t, "", FIELDS_TOP, r->out);
}

void fields_read_plan(freader *r, int t, scn_plan *p)
{
    char got[64];
    if (!lua_istable(r->L, t))
        fr_fail(r, "plan", "expected a plan table {pools=, train=, rollout=, ...}, got %s",
                fields_got_text(r->L, t, got, sizeof got));
    fr_record(r, lua_absindex(r->L, t), "plan", FIELDS_PLAN, p);
}
