/*
** hfconfig.h — a model from a Hugging Face `config.json`: the fields of the
** families people train with RL (Llama 3.x and Mistral, Qwen2/2.5, Qwen2-MoE,
** Qwen3 dense and MoE, DeepSeek-V2/V3/R1, Mixtral, Gemma 1/2/3 text,
** gpt-oss, GLM-4.5/4.6 MoE) mapped onto an scn_model, derived figures
** filled.  A vision-language config (Qwen2.5-VL, Qwen3-VL, Gemma 3, ...) is
** read by its language model, the `text_config`; the vision encoder is not
** counted.
**
** Every key of the file is either read, or on a documented list of keys
** that do not change the parameter count (rope scaling, dropout, token ids,
** ...; docs/model.md, "Models from config.json").  Any other key, a
** family fusync does not know, or a value it cannot represent (biases, MoE
** layers that are not a leading dense block) is a refusal naming the key:
** never a silent guess.  No I/O but hf_load's read of the file.
*/
#ifndef FUSYNC_HFCONFIG_H
#define FUSYNC_HFCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "scenario.h"

/* Largest config.json read: real ones are a few KiB. */
#define HF_CONFIG_MAX (1L << 20)

/* What the file says beyond an scn_model. */
typedef struct {
    char   model_type[48];      /* "llama", "qwen3_moe", "deepseek_v3", ... */
    char   architecture[64];    /* architectures[0], "" if absent */
    int    qk_nope_head_dim, qk_rope_head_dim, v_head_dim;   /* MLA, 0 otherwise */
    int    mtp_layers;          /* DeepSeek-V3 multi-token-prediction modules */
    double params_mtp;          /* their parameters: not in params_total */
    int    sliding_window;      /* 0: none read (KV per token counts every layer in full) */
    char   outer_model_type[48];/* a vision-language file read by its text_config: its model_type */
    bool   vision;              /* ... with a vision encoder (vision_config), not counted */
} hf_info;

/* Map the text of a config.json (text[len] == 0) onto *m and derive it.
** `file` names the file in messages.  On refusal fills err (code 2). */
bool hf_parse(const char *text, size_t len, const char *file, scn_model *m, hf_info *info, fs_err *err);
/* Read `path` (a regular file of at most HF_CONFIG_MAX bytes) and hf_parse it.
** The model's name is the file's: "x/Qwen3-8B/config.json" gives "Qwen3-8B",
** "x/qwen3-8b.config.json" gives "qwen3-8b". */
bool hf_load(const char *path, scn_model *m, hf_info *info, fs_err *err);

#endif
