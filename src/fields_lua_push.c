/*
** fields_lua_push.c — write the scenario format (fields.h) as Lua tables:
** the file's form, so what a plugin sees is what a scenario would write,
** and a scenario pushed and read back is the same scenario (tests check
** it).  The readers are in fields_lua.c.
*/
#include "fields_lua.h"
#include "plan.h"

#include <lua.h>
#include <lauxlib.h>
#include <string.h>

/* ------------------------------------------------------------- writers */

/* The writers of the fields with a codec of their own (fields.h, fcodec),
** keyed by it: push the field's value in the file's form, or nothing
** (returns false).  The others are written through their rows. */
typedef bool fp_codec(lua_State *L, const fdesc *f, const void *base);
static fp_codec fp_dist, fp_pools, fp_models, fp_opt_device;
static fp_codec *const WRITERS[FC__COUNT] = {[FC_DIST] = fp_dist, [FC_POOLS] = fp_pools, [FC_MODELS] = fp_models,
                                             [FC_OPT_DEVICE] = fp_opt_device};

static void push_leaf(lua_State *L, const fdesc *f, const void *base)
{
    const void *p = fields_cat(f, base);
    switch (f->kind) {
    case FK_INT: {
        double v = fields_get_num(f, base);
        lua_pushinteger(L, (lua_Integer)v);
        break;
    }
    case FK_NUM: lua_pushnumber(L, *(const double *)p / f->scale); break;
    case FK_BOOL: lua_pushboolean(L, *(const bool *)p); break;
    case FK_STR: lua_pushstring(L, (const char *)p); break;
    case FK_ENUM: {
        /* an enum's "true" and "false" go back as the booleans it takes */
        const char *nm = fields_enum_name(f, (int)fields_get_num(f, base));
        if (!strcmp(nm, "true") || !strcmp(nm, "false")) lua_pushboolean(L, nm[0] == 't');
        else lua_pushstring(L, nm);
        break;
    }
    default: lua_pushnil(L); break;
    }
}

void fields_push_record(lua_State *L, const fdesc *rec, const void *base)
{
    int n = 0;
    while (rec[n].name) n++;
    luaL_checkstack(L, 4, "pushing a record");
    lua_createtable(L, 0, n);
    for (const fdesc *f = rec; f->name; f++) {
        if (WRITERS[f->codec]) {
            if (!WRITERS[f->codec](L, f, base)) continue;
        } else if (f->kind == FK_REC || f->kind == FK_DEVICE || f->kind == FK_MODEL) {
            if (!f->sub) continue;
            fields_push_record(L, f->sub, (f->size || f->off) ? fields_cat(f, base) : base);
        } else if (f->kind == FK_ARR || f->kind == FK_DIST || (f->kind == FK_STR && !f->size)) {
            continue;       /* only through a custom writer */
        } else {
            push_leaf(L, f, base);
        }
        lua_setfield(L, -2, f->name);
    }
}

void fields_push_dist(lua_State *L, const scn_dist *d)
{
    luaL_checkstack(L, 4, "pushing a distribution");
    lua_newtable(L);
    lua_pushstring(L, scn_dist_name(d->kind));
    lua_setfield(L, -2, "kind");
    const char *a = NULL, *b = NULL;
    switch (d->kind) {
    case DIST_FIXED: a = "value"; break;
    case DIST_UNIFORM: a = "lo"; b = "hi"; break;
    case DIST_LOGNORMAL: a = "median"; b = "sigma"; break;
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
    if (a) { lua_pushnumber(L, d->a); lua_setfield(L, -2, a); }
    if (b) { lua_pushnumber(L, d->b); lua_setfield(L, -2, b); }
    if (d->cap > 0) { lua_pushnumber(L, d->cap); lua_setfield(L, -2, "cap"); }
}

static bool fp_dist(lua_State *L, const fdesc *f, const void *base)
{
    fields_push_dist(L, fields_cat(f, base));
    return true;
}

/* A pool's own device, only when set (absent: the cluster's). */
static bool fp_opt_device(lua_State *L, const fdesc *f, const void *base)
{
    const scn_device *d = fields_cat(f, base);
    if (!scn_device_set(d)) return false;
    fields_push_device(L, d);
    return true;
}

static bool fp_pools(lua_State *L, const fdesc *f, const void *base)
{
    (void)f;
    const scn_plan *p = base;
    if (p->npools <= 0) return false;
    luaL_checkstack(L, 6, "pushing pools");
    lua_createtable(L, p->npools, 0);
    for (int i = 0; i < p->npools; i++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, p->pools[i].name);
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, p->pools[i].devices);
        lua_setfield(L, -2, "devices");
        lua_newtable(L);
        int k = 0;
        for (int b = 0; plan_role_names[b]; b++)
            if (p->pools[i].roles & (1u << b)) {
                lua_pushstring(L, plan_role_names[b]);
                lua_rawseti(L, -2, ++k);
            }
        lua_setfield(L, -2, "roles");
        const scn_pool *pl = &p->pools[i];
        if (pl->where != WHERE_PACKED) {
            lua_pushstring(L, fields_enum_name(fields_find(FIELDS_POOL, "where"), (int)pl->where));
            lua_setfield(L, -2, "where");
        }
        if (pl->nranges > 0) {
            lua_createtable(L, pl->nranges, 0);
            for (int j = 0; j < pl->nranges; j++) {
                lua_createtable(L, 2, 0);
                lua_pushinteger(L, pl->range[j][0]);
                lua_rawseti(L, -2, 1);
                lua_pushinteger(L, pl->range[j][1]);
                lua_rawseti(L, -2, 2);
                lua_rawseti(L, -2, j + 1);
            }
            lua_setfield(L, -2, "ranges");
        }
        if (scn_device_set(&pl->device)) {
            fields_push_device(L, &pl->device);
            lua_setfield(L, -2, "device");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return true;
}

static bool fp_models(lua_State *L, const fdesc *f, const void *base)
{
    (void)f;
    const scn_scenario *s = base;
    lua_createtable(L, 0, 4);
    fields_push_model(L, &s->actor);
    lua_setfield(L, -2, "actor");
    if (s->has_ref) {
        fields_push_model(L, &s->ref);
        lua_setfield(L, -2, "reference");
    }
    if (s->reward_is_model) fields_push_model(L, &s->reward);
    else lua_pushliteral(L, "rule");
    lua_setfield(L, -2, "reward");
    if (s->has_critic) {
        fields_push_model(L, &s->critic);
        lua_setfield(L, -2, "critic");
    }
    return true;
}

void fields_push_scenario(lua_State *L, const scn_scenario *s) { fields_push_record(L, FIELDS_TOP, s); }
void fields_push_plan(lua_State *L, const scn_plan *p) { fields_push_record(L, FIELDS_PLAN, p); }
void fields_push_model(lua_State *L, const scn_model *m) { fields_push_record(L, FIELDS_MODEL, m); }
void fields_push_device(lua_State *L, const scn_device *d) { fields_push_record(L, FIELDS_DEVICE, d); }
