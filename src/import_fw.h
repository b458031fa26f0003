/*
** import_fw.h — each framework's keys: its default and what fusync does with
** the key (import_fw.c has the sources).
*/
#ifndef FUSYNC_IMPORT_FW_H
#define FUSYNC_IMPORT_FW_H

#include "import.h"

typedef enum {
    IMP_K_MAP,      /* mapped onto a scenario field */
    IMP_K_PERF,     /* affects performance, not modelled: a warning with its note */
    IMP_K_NOPERF    /* does not affect performance */
} imp_kclass;

typedef struct {
    const char *key;    /* an exact key, or an fnmatch pattern with '*' */
    const char *dflt;   /* the framework's default as text; NULL: none recorded */
    imp_kclass  cls;
    const char *note;   /* IMP_K_PERF: what it does and how fusync approximates it */
} imp_keydef;

/* A key that maps one-to-one onto a scenario field: the importer reads the
** key into the field and the exporter writes the field back into the key
** from this same row, so the two directions cannot drift.  Rules that join
** several keys (mini-batches, pools, lengths, the reference model) are code
** in both directions, import_map.c and import_export.c, each citing the
** other; docs/frameworks.md lists them. */
typedef enum {
    IMP_C_NUM,      /* a number, both sides */
    IMP_C_BOOL,     /* a boolean, both sides */
    IMP_C_ZERO1,    /* true: ZeRO stage 1 (a distributed optimizer), false: 0 */
    IMP_C_RECOMP,   /* true: recompute "full", false: "none" ("selective" has no key) */
    IMP_C_FP32,     /* true: grad_dtype "fp32", false: "bf16" */
    IMP_C_SHARD,    /* -1 (every rank): shard_group 0; else the same number */
    IMP_C_SHARE,    /* true: the whole share (1), false: none (0); a fraction has no such key */
    IMP_C_PACK,     /* true: padding "none" (packed, remove-padding), false: "longest" */
    IMP_C_NOT,      /* a boolean negated: true on the framework's side is false in fusync */
    IMP_C_AUXOFF,   /* plan.offload.reference: the framework's boolean; "auto" exports as host under full
                    ** co-location, device elsewhere */
    IMP_C_DISP      /* Megatron's moe_token_dispatcher_type: "alltoall", "allgather" or "flex", both sides */
} imp_conv;

typedef enum {
    IMP_G_ALL,      /* every layout */
    IMP_G_MEGATRON, /* the Megatron training backend only */
    IMP_G_FSDP      /* the FSDP / DTensor backend only */
} imp_guard;

#define IMP_R_GT1 0x1u  /* import sets the field only above 1 (else fusync's default, 1) */
#define IMP_R_NULL 0x2u /* the key may be null: import leaves the field unset, export writes null for 0 */

typedef struct {
    const char *key;    /* the framework's key */
    const char *field;  /* the scenario field path (fields.h) */
    imp_conv    conv;
    imp_guard   guard;
    unsigned    flags;
} imp_rule;

/* The one-to-one rules of a framework, ended by a NULL key. */
const imp_rule *imp_fw_rules(imp_framework fw);

/* The entry for key (exact first, then the patterns in order); NULL: unknown. */
const imp_keydef *imp_fw_key(imp_framework fw, const char *key);
/* A key that matters only when the backend it configures is used: true with
** the key (*gate) whose value (*on) says the backend is on. */
bool imp_fw_gate(imp_framework fw, const char *key, const char **gate, const char **on);
/* For a key imp_fw_key does not know: the kind of run it shows that fusync
** does not import, or NULL. */
const char *imp_fw_unknown_hint(imp_framework fw, const char *key);
/* The framework's default of an exact key; NULL when none is recorded. */
const char *imp_fw_default(imp_framework fw, const char *key);
/* A key the framework added after its first release: a config older than
** `release` does not have it, and its behaviour then was `before` (not the
** recorded default).  The input's age is bounded by the newest such key it
** sets; a config with none of them and with `witness` (a key every version
** has) predates them all.  NULL: the key's default is not versioned. */
typedef struct {
    const char *key;
    int         rank;       /* order of the releases: a larger one is newer */
    const char *release;    /* "v0.3.0 (commit 5924d1c)" */
    const char *before;     /* the value that matches the behaviour before it */
    const char *witness;
} imp_since;
const imp_since *imp_fw_since(imp_framework fw, const char *key);
/* The newest release rank the input shows by the versioned keys it sets (0: none). */
int imp_fw_age(imp_framework fw, const imp_cfg *c);

/* The version and files the defaults come from. */
const char *imp_fw_source(imp_framework fw);

#endif
