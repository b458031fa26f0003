/*
** fields.h — the one description of the scenario format.
**
** Every field a scenario file, a `--set` option or a placement policy's
** place() can write is one row of a table here: its name, where it lives in
** the C struct (offset and size), its type, the scale from the file's unit to
** the C unit, its range, its enum names, and a line of documentation.  The
** loader (lua_scenario.c), --set, the plugin reader and the plugin context
** writer (fields_lua.c), the `fusync fields` listing and the field tables of
** docs/scenarios.md are all driven from it, so adding a field is one edit
** here (plus the C member it fills).  docs/architecture.md shows how.
**
** This file knows no Lua; fields_lua.h holds the readers and writers.
*/
#ifndef FUSYNC_FIELDS_H
#define FUSYNC_FIELDS_H

#include <stddef.h>
#include <stdbool.h>
#include "scenario.h"
#include "util.h"

typedef enum {
    FK_INT, FK_NUM, FK_BOOL, FK_STR, FK_ENUM,  /* leaves */
    FK_REC,         /* record: sub lists its fields (NULL-named row ends it) */
    FK_ARR,         /* array: sub[0] describes one element */
    FK_DEVICE,      /* a device record, or a preset name */
    FK_MODEL,       /* a model record, or a preset name (or true/"rule" for roles) */
    FK_DIST         /* a length distribution record, or a number (fixed) */
} fkind;

/* Flags */
#define FF_LO_OPEN   0x01u  /* the range's low end is excluded: (lo, hi] */
#define FF_REQUIRED  0x02u  /* required in a custom record (device, model, pool) */
#define FF_NO_PLACE  0x04u  /* place() may not set it (the run decides it) */
#define FF_DERIVED   0x08u  /* computed; written to plugins, never read */
#define FF_HI_OPEN   0x10u  /* the range's high end is excluded: [lo, hi) */

/* A field whose reading or writing is more than its rows (defaults drawn
** from a sibling, cross-field checks, presets, a list of pools): which one.
** The Lua side keys its readers and writers by it (fields_lua.c,
** fields_lua_push.c); every other field is read and written through its
** rows (sub) or as a leaf. */
typedef enum {
    FC_ROWS,        /* no codec of its own */
    FC_DEVICE,      /* cluster.device: a record or a preset name */
    FC_LINKS,       /* cluster.links: tiers defaulted from the device */
    FC_MODELS,      /* models: the roles, presets, true and "rule" */
    FC_DIST,        /* a length distribution: a record or a number */
    FC_POOLS,       /* plan.pools: names, roles, ranges */
    FC_OPT_DEVICE,  /* a pool's device: a record or a preset name; absent: cluster.device */
    FC__COUNT
} fcodec;

typedef struct fdesc {
    const char *name;
    fkind       kind;
    size_t      off;        /* offset within the record's C struct */
    size_t      size;       /* sizeof the C member (a string: its buffer) */
    double      scale;      /* C value = file value × scale */
    double      lo, hi;     /* range, in the file's unit */
    unsigned    flags;
    const char *const *enames;  /* FK_ENUM: names, NULL-ended */
    const int  *evals;          /* FK_ENUM: C values (NULL: the name's index) */
    const struct fdesc *sub;    /* FK_REC, FK_ARR, FK_DEVICE, FK_MODEL, FK_DIST */
    fcodec      codec;
    const char *unit;       /* shown in docs: "GB", "ms", "tokens" … */
    const char *doc;
} fdesc;

/* Limits shared by every reader of the format. */
#define FLD_PARALLEL_MAX   65536        /* tp, pp, ep, dp of one layout */
#define FLD_DEVICES_MAX    SCN_DEVICES_MAX  /* devices of a whole cluster (scenario.h) */
#define FLD_SEQS_MAX       (1 << 20)    /* sequences an instance may batch */
#define FLD_TOKENS_MAX     (1 << 21)    /* one sequence's prompt or response */
#define FLD_PROMPTS_MAX    (1 << 20)    /* prompts of one step */
#define FLD_ITERATIONS_MAX 100000
#define FLD_ROLES_MAX      16

extern const fdesc FIELDS_TOP[];
extern const fdesc FIELDS_PLAN[];
extern const fdesc FIELDS_POOL[];
extern const fdesc FIELDS_MODEL[];
extern const fdesc FIELDS_DEVICE[];
extern const fdesc FIELDS_DIST[];

/* A pool's roles are spelled as plan_role_names (plan.h); "reference" is
** accepted for "ref" by every reader.  The length distributions' kinds: */
extern const char *const DIST_NAMES[];

/* The row named `key` in a NULL-ended record, or NULL. */
const fdesc *fields_find(const fdesc *rec, const char *key);
/* The row at a dotted path from the top ("plan.rollout.dispatch"); array
** items are numbers ("plan.pools.1.devices").  NULL when there is none. */
const fdesc *fields_lookup(const char *path);
/* The member a row describes, within its enclosing record's struct. */
static inline void *fields_at(const fdesc *f, void *base) { return (char *)base + f->off; }
static inline const void *fields_cat(const fdesc *f, const void *base) { return (const char *)base + f->off; }

/* The C member of a leaf at a dotted path through records only
** ("plan.staleness", "plan.rollout.dispatch"; not list items, devices or
** models), with its row in *row; NULL otherwise. */
void *fields_path_member(const char *path, scn_scenario *s, const fdesc **row);
/* Leaves as numbers, for comparisons and documentation. */
double fields_get_num(const fdesc *f, const void *base);
/* The C value an enum name stands for; -1 when the name is unknown. */
int  fields_enum_value(const fdesc *f, const char *name);
const char *fields_enum_name(const fdesc *f, int value);

/* Compare two scenarios field by field through the table (numbers to a
** relative 1e-12: units are scaled on the way in and out).  Returns true when
** equal; otherwise names the first differing field in `where`. */
bool fields_equal(const scn_scenario *a, const scn_scenario *b, char *where, size_t n);

/* The field list for people: one row per direct field of one record
** ("plan.train"; "" the top) with its path, type, unit, range, default and
** doc, the way each section of docs/scenarios.md shows them; markdown (a
** table) or plain text. */
void fields_describe_under(fs_buf *out, bool markdown, const char *prefix);

#endif
