/*
** import_map.h — the mapping's working state and helpers, shared by
** import_map.c (the rendering), import_verl.c (verl), import_openrlhf.c
** (OpenRLHF) and import_nemo.c (NeMo RL);
** internal to the import group.  Every helper records a failure in the
** context (failed, err) and returns false; nothing prints.
*/
#ifndef FUSYNC_IMPORT_MAP_H
#define FUSYNC_IMPORT_MAP_H

#include "import.h"
#include "import_fw.h"

/* One scenario field as written: its dotted path, Lua value and source comment. */
typedef struct {
    char path[96];
    char val[1024];
    char src[320];
} imp_mentry;

typedef struct {
    imp_framework  fw;
    const imp_cfg *c;
    const imp_opts *o;
    fs_vec         out;     /* imp_mentry */
    fs_buf         perf;    /* warnings: affect performance, not modelled */
    fs_err        *err;
    bool           failed;
    bool          *used;    /* non-NULL: marks each input key the mapping reads (imp_keys) */
    int            actor_positions; /* the actor's max_position_embeddings (imp_m_model; 0: not known) */
} imp_mctx;

/* A key's value (the input's, else the framework's default, ${...} resolved)
** and where it came from ("run.sh:12 key" or "key, verl's default"). */
bool imp_m_get(imp_mctx *m, const char *key, char *val, size_t n, char *src, size_t sn);
bool imp_m_is_null(const char *v);
bool imp_m_to_bool(imp_mctx *m, const char *key, const char *v, bool *out);
/* getters: false with err set when the value does not read; null: a null value reads as 0 */
bool imp_m_gbool(imp_mctx *m, const char *key, bool *b, char *src, size_t sn);
bool imp_m_gnum(imp_mctx *m, const char *key, double *d, bool *null, char *src, size_t sn);
/* Set a scenario field (replacing an earlier setting) with its source comment. */
void imp_m_set(imp_mctx *m, const char *path, const char *src, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A line of the warnings block (keys that affect performance, not modelled). */
void imp_m_warn(imp_mctx *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* models.ROLE from the model path or hub id under key. */
bool imp_m_model(imp_mctx *m, const char *role, const char *key);
/* Length distributions no config holds: flags, else stated guesses. */
void imp_m_lengths(imp_mctx *m, double max_prompt, double max_response, const char *psrc, const char *rsrc);
/* workload.minibatches = samples / per_opt, which must divide. */
bool imp_m_minibatches(imp_mctx *m, double samples, double per_opt, const char *src, const char *why);
/* The one-to-one rules of imp_fw_rules() whose guard is g. */
bool imp_m_rules(imp_mctx *m, imp_guard g);
/* The machine's GPUs a node (--devices-per-node) against the run's per-node
** count gpn_key over nodes_key groups (how: the framework's placement). */
bool imp_m_node_gpus(imp_mctx *m, const char *gpn_key, const char *nodes_key, const char *how);
/* Warnings for a quantized rollout engine (weights under weights_key, the KV
** cache under kv_key; NULL: none), which fusync does not model. */
bool imp_m_rollout_precision(imp_mctx *m, const char *weights_key, const char *kv_key);
/* vLLM's kv_cache_memory_bytes under key: plan.rollout.kv_cache_gb (null: unset). */
bool imp_m_kv_cache_bytes(imp_mctx *m, const char *key);
/* FP8 training under Megatron-Core: enabled_key (NULL: the fp8 key alone),
** the format under fp8_key, the recipe and fp8_param (NULL: none). */
bool imp_m_train_precision(imp_mctx *m, const char *enabled_key, const char *fp8_key, const char *recipe_key,
                           const char *param_key);
/* Megatron-core's optimizer_cpu_offload with optimizer_offload_fraction. */
bool imp_m_host_optimizer(imp_mctx *m, const char *on_key, const char *frac_key);
/* LoRA on the actor: rank_key's value (> 0: on) into plan.train.lora_rank,
** the matrices of targets_key (PEFT's "all-linear" or module names) into
** plan.train.lora_targets; all_linear_key (NULL: none) true overrides the
** list, as NeMo RL's match_all_linear does. */
bool imp_m_lora(imp_mctx *m, const char *rank_key, const char *targets_key, const char *all_linear_key);

/* (import_verl.c) verl's keys onto the scenario. */
bool imp_map_verl(imp_mctx *m);
/* (import_openrlhf.c) OpenRLHF's launcher options onto the scenario. */
bool imp_map_openrlhf(imp_mctx *m);
/* (import_nemo.c) NeMo RL's keys onto the scenario. */
bool imp_map_nemo(imp_mctx *m);

#endif
