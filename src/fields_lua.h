/*
** fields_lua.h — the scenario format between Lua tables and C structs, driven
** by the table of fields.h: one reader (used by the scenario loader and by
** place()/candidates() answers) and one writer (the plugin context, presets,
** --set into a default value).
**
** Readers run inside a protected Lua call: an error raises a Lua error whose
** text the caller formats (the loader adds FILE and the --set behind a field;
** the plugin host adds the function that answered).
*/
#ifndef FUSYNC_FIELDS_LUA_H
#define FUSYNC_FIELDS_LUA_H

#include "fields.h"

struct lua_State;

typedef struct freader {
    struct lua_State *L;
    /* Raise the error `msg` about `path` (never returns). */
    void (*fail)(struct freader *r, const char *path, const char *msg);
    void *ud;               /* the caller's state, for fail() */
    scn_scenario *out;      /* the scenario being filled */
    bool place;             /* reading a policy's plan: FF_NO_PLACE fields are refused */
} freader;

#define FLD_PATH_MAX 256

_Noreturn void fr_fail(freader *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Read the record at stack index t into base, every key checked against rec;
** absent fields keep what base holds (the defaults). */
void fr_record(freader *r, int t, const char *path, const fdesc *rec, void *base);
/* A whole scenario from the table at t (into r->out, which holds defaults). */
void fields_read_scenario(freader *r, int t);
/* A plan as place()/candidates() return it, over the plan already in p. */
void fields_read_plan(freader *r, int t, scn_plan *p);

/* Writers: push a table in the scenario file's form. */
void fields_push_record(struct lua_State *L, const fdesc *rec, const void *base);
void fields_push_scenario(struct lua_State *L, const scn_scenario *s);
void fields_push_plan(struct lua_State *L, const scn_plan *p);
void fields_push_model(struct lua_State *L, const scn_model *m);
void fields_push_device(struct lua_State *L, const scn_device *d);
void fields_push_dist(struct lua_State *L, const scn_dist *d);

/* Helpers for messages, shared with the --set walker: "a.b" and "a[3]"
** paths of at most FLD_PATH_MAX bytes. */
void fields_join_path(char *dst, const char *parent, const char *key);
void fields_index_path(char *dst, const char *parent, long long i);
const char *fields_got_text(struct lua_State *L, int idx, char *buf, size_t n);
const char *fields_suggest(const char *key, const char *const *names, int n);
void fields_unknown_text(char *buf, size_t n, const fdesc *rec, const char *key);
_Noreturn void fields_unknown_preset(freader *r, const char *path, const char *name, bool models);

#endif
