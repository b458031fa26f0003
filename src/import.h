/*
** import.h — a training framework's run configuration (verl, OpenRLHF,
** NeMo RL) read into flat dotted keys, and mapped onto a fusync scenario.
**
** Reading (import_yaml.c, import_shell.c) turns every input into the same
** shape: an ordered list of "a.b.c" = "text" with the file and line each came
** from; a later setting of a key replaces an earlier one (a recipe over its
** defaults chain, an override over the file).  Mapping (import_map.c) takes
** the keys and the framework's own defaults (import_fw.c) and writes the
** scenario's Lua text, a comment naming the source key on every field, and a
** warnings block.  The rules and their sources are docs/frameworks.md.
** Nothing here prints: errors name the file, line and key in an fs_err.
*/
#ifndef FUSYNC_IMPORT_H
#define FUSYNC_IMPORT_H

#include <stdbool.h>
#include "util.h"
#include "scenario.h"

typedef enum { IMP_VERL, IMP_OPENRLHF, IMP_NEMORL } imp_framework;

/* One setting as the input gave it. */
typedef struct {
    char *key;          /* dotted path: "actor_rollout_ref.rollout.n" */
    char *value;        /* scalar text; a sequence as "[a, b]"; a mapping as "{}" */
    char *file;         /* where it was read */
    int   line;         /* 1-based; 0: from the command line */
    bool  quoted;       /* YAML: a quoted scalar (never a number or null) */
} imp_kv;

typedef struct {
    fs_vec kv;          /* imp_kv, one per key, in first-set order */
} imp_cfg;

void imp_cfg_init(imp_cfg *c);
void imp_cfg_free(imp_cfg *c);
/* Set key to value (replacing an earlier setting, keeping its place). */
void imp_cfg_set(imp_cfg *c, const char *key, const char *value, const char *file, int line, bool quoted);
/* Remove key and every key under it ("a" removes "a.b"). */
void imp_cfg_unset(imp_cfg *c, const char *key);
const imp_kv *imp_cfg_get(const imp_cfg *c, const char *key);

/* A YAML file: mappings flattened to dotted keys.  nemo_defaults: a
** top-level `defaults:` (a file name or a list of them) is read first,
** relative to this file's folder, and this file's keys go over it. */
bool imp_yaml_load(const char *path, bool nemo_defaults, imp_cfg *c, fs_err *err);

/* A launch script: the shell subset such scripts use (assignments,
** ${VAR:-default}, $((...)), quoting, continuations), the command that runs
** `python3 -m MODULE` found and its arguments read as Hydra overrides
** (verl) or --key value options (OpenRLHF).  `flags` lists OpenRLHF's
** options that take no value.  Returns the arguments as keys. */
bool imp_shell_load(const char *path, imp_framework fw, imp_cfg *c, fs_err *err);

/* One Hydra override "key=value", "+key=value", "++key=value" or "~key". */
bool imp_override(imp_cfg *c, const char *text, const char *file, int line, fs_err *err);

/* What a config does not hold, from the command line. */
typedef struct {
    const char *device;         /* preset key; NULL: the stated default */
    int         nodes;          /* 0: from the config */
    int         devices_per_node; /* the machine's accelerators a node; 0: from the config */
    double      host_mem_gb;    /* 0: the stated default */
    double      prompt_mean, response_mean;   /* 0: stated guesses */
    const char *model_dir;      /* --model-dir; NULL: $HF_HOME/hub */
    const char *const *sets;    /* --set PATH=VALUE, in order */
    int         nsets;
    const char *inputs;         /* the input files, for the header */
} imp_opts;

/* Map the keys onto a scenario; its Lua text into out.  Fails (code 2) on a
** key the framework does not have, a value that does not read, or a model
** that cannot be found. */
bool imp_map(imp_framework fw, const imp_cfg *c, const imp_opts *o, fs_buf *out, fs_err *err);

/* The keys the input sets that the mapping reads for this config (mapped
** keys of import_fw.c, IMP_K_MAP, that imp_map consults: not the keys of a
** backend the config turns off), their values resolved (${...}, defaults
** chains), one "key=value" a line in input order: what a round trip must
** give back.  Runs imp_map (so it fails where imp_map does). */
bool imp_keys(imp_framework fw, const imp_cfg *c, const imp_opts *o, fs_buf *out, fs_err *err);

/* (import_export.c) A loaded scenario as the framework's settings: verl
** Hydra overrides (key=value a line), OpenRLHF arguments (--key value a
** line), NeMo RL a YAML overrides file; the reverse of imp_map through the
** same rule table.  Fails (code 2) naming the field the framework cannot
** express; what it has no knob for is a comment.  source names the input in
** the header. */
bool imp_export(imp_framework fw, const scn_scenario *s, const char *source, fs_buf *out, fs_err *err);

/* (import_model.c) The shape of the model a config names by id (a path or a
** hub id): its config.json as a file, a model folder, under model_dir (NULL:
** $HF_HOME/hub) or the Hugging Face cache; else a preset of the same name.
** how receives where the shape came from, for the field's comment.  Fails
** (code 2, naming src, the key) with the config.json to fetch. */
bool imp_model_find(const char *id, const char *model_dir, const char *src, scn_model *mm, char *how, size_t hn,
                    fs_err *err);

bool imp_framework_parse(const char *s, imp_framework *fw);
const char *imp_framework_name(imp_framework fw);

/* (import_fw.c) OpenRLHF: the option takes no value (argparse store_true). */
bool imp_fw_flag(imp_framework fw, const char *key);

#endif
