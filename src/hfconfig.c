/*
** hfconfig.c — a Hugging Face config.json onto an scn_model (hfconfig.h).
**
** The key names are those of the public config.json files of each family
** (transformers' LlamaConfig, Qwen2Config, Qwen3Config, Qwen3MoeConfig,
** Qwen2MoeConfig, DeepseekV3Config, MixtralConfig, GemmaConfig and its
** successors).  What each key becomes, and which keys are ignored and why, is
** docs/model.md, "Models from config.json"; the parameter formulas are
** scn_model_derive's (src/scenario.c).
*/
#include "hfconfig.h"
#include "jsonr.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Families: which keys apply and what the defaults are. */
enum {
    F_LLAMA    = 1 << 0,    /* llama, mistral */
    F_QWEN2    = 1 << 1,    /* qwen2 (q/k/v biases: not counted, < 0.01%) */
    F_QWEN3    = 1 << 2,    /* qwen3 (q/k RMSNorm: not counted, < 0.001%) */
    F_QWEN2MOE = 1 << 3,    /* qwen2_moe: shared expert of its own size */
    F_QWEN3MOE = 1 << 4,    /* qwen3_moe */
    F_DEEPSEEK = 1 << 5,    /* deepseek_v2, deepseek_v3: MLA, shared experts, leading dense layers */
    F_MIXTRAL  = 1 << 6,    /* mixtral: intermediate_size is the expert's */
    F_GEMMA    = 1 << 7,    /* gemma, gemma2, gemma3_text: tied embeddings by default */
    F_GPTOSS   = 1 << 8,    /* gpt_oss: Mixtral's shape (intermediate_size is the expert's), q/k/v/o and
                            ** expert biases and attention sinks (not counted, < 0.01%) */
    F_GLM4MOE  = 1 << 9,    /* glm4_moe (GLM-4.5, 4.6): DeepSeek's MoE keys with GQA attention, q/k/v
                            ** biases (not counted, < 0.01%), MTP layers */
    F_ALL      = 0x3ff,
    F_MOE      = F_QWEN2MOE | F_QWEN3MOE | F_DEEPSEEK | F_MIXTRAL | F_GPTOSS | F_GLM4MOE,
    F_BIASED   = F_GPTOSS | F_GLM4MOE   /* attention_bias true read, the biases not counted */
};

static const struct { const char *type; unsigned fam; } FAMILIES[] = {
    {"llama", F_LLAMA}, {"mistral", F_LLAMA},
    {"qwen2", F_QWEN2}, {"qwen3", F_QWEN3},
    {"qwen2_moe", F_QWEN2MOE}, {"qwen3_moe", F_QWEN3MOE},
    {"deepseek_v2", F_DEEPSEEK}, {"deepseek_v3", F_DEEPSEEK},
    {"mixtral", F_MIXTRAL},
    {"gemma", F_GEMMA}, {"gemma2", F_GEMMA}, {"gemma3_text", F_GEMMA},
    {"gpt_oss", F_GPTOSS}, {"glm4_moe", F_GLM4MOE},
    /* the text models of vision-language configs (their text_config) */
    {"qwen2_vl_text", F_QWEN2}, {"qwen2_5_vl_text", F_QWEN2}, {"qwen3_vl_text", F_QWEN3},
    {"qwen3_vl_moe_text", F_QWEN3MOE},
};
#define NFAMILIES ((int)(sizeof FAMILIES / sizeof FAMILIES[0]))

/* Keys read, and the families they belong to.  One present in a file of
** another family (an expert count in a Llama file) is refused, not dropped. */
static const struct { const char *key; unsigned fam; } READ[] = {
    {"model_type", F_ALL}, {"architectures", F_ALL}, {"_name_or_path", F_ALL},
    {"hidden_size", F_ALL}, {"num_hidden_layers", F_ALL}, {"num_attention_heads", F_ALL},
    {"num_key_value_heads", F_ALL}, {"vocab_size", F_ALL}, {"tie_word_embeddings", F_ALL},
    {"intermediate_size", F_ALL}, {"attention_bias", F_ALL}, {"mlp_bias", F_ALL},
    {"head_dim", F_ALL},        /* DeepSeek: transformers writes the rope dim here; its MLA keys are read */
    {"sliding_window", F_ALL}, {"use_sliding_window", F_ALL},
    {"max_position_embeddings", F_ALL},     /* scn_model.max_positions: vLLM's max_model_len when none is given */
    {"num_experts_per_tok", F_MOE},
    {"moe_intermediate_size", F_QWEN2MOE | F_QWEN3MOE | F_DEEPSEEK | F_GLM4MOE},
    {"num_experts", F_QWEN2MOE | F_QWEN3MOE},
    {"decoder_sparse_step", F_QWEN2MOE | F_QWEN3MOE},
    {"mlp_only_layers", F_QWEN2MOE | F_QWEN3MOE},
    {"shared_expert_intermediate_size", F_QWEN2MOE},
    {"num_local_experts", F_MIXTRAL | F_GPTOSS},
    {"experts_per_token", F_GPTOSS},
    {"n_routed_experts", F_DEEPSEEK | F_GLM4MOE}, {"n_shared_experts", F_DEEPSEEK | F_GLM4MOE},
    {"first_k_dense_replace", F_DEEPSEEK | F_GLM4MOE}, {"moe_layer_freq", F_DEEPSEEK},
    {"kv_lora_rank", F_DEEPSEEK}, {"q_lora_rank", F_DEEPSEEK},
    {"qk_rope_head_dim", F_DEEPSEEK}, {"qk_nope_head_dim", F_DEEPSEEK}, {"v_head_dim", F_DEEPSEEK},
    {"num_nextn_predict_layers", F_DEEPSEEK | F_GLM4MOE},
};
#define NREAD ((int)(sizeof READ / sizeof READ[0]))

/* Keys that change no parameter count and no figure fusync derives:
** position encoding, numerics, tokens, dropout, routing rules (which experts,
** not how many), software settings.  docs/model.md lists them. */
static const char *const IGNORED[] = {
    "torch_dtype", "dtype", "transformers_version", "bos_token_id", "eos_token_id", "pad_token_id",
    "hidden_act", "hidden_activation", "initializer_range", "rms_norm_eps",
    "rope_theta", "rope_scaling", "rope_parameters", "rope_local_base_freq", "use_cache",
    "attention_dropout", "hidden_dropout", "max_window_layers", "sliding_window_pattern",
    "sliding_window_size", "layer_types", "use_mrope", "pretraining_tp", "quantization_config",
    "auto_map", "norm_topk_prob", "output_router_logits", "router_aux_loss_coef", "router_jitter_noise",
    "aux_loss_alpha", "seq_aux", "routed_scaling_factor", "scoring_func", "topk_method", "n_group",
    "topk_group", "ep_size", "attn_logit_softcapping", "final_logit_softcapping",
    "query_pre_attn_scalar", "cache_implementation", "attn_implementation", "use_bfloat16",
    "torchscript", "return_dict", "output_hidden_states", "output_attentions", "tokenizer_class",
    "use_bidirectional_attention", "model_name",
    /* gpt_oss: the activation clamp and the context length it was trained at */
    "swiglu_limit", "initial_context_length",
    /* glm4_moe: rope on part of each head; q/k RMSNorm (< 0.001%, as qwen3's) */
    "partial_rotary_factor", "use_qk_norm",
    /* a vision-language text_config: the tokens that stand for images and video */
    "image_token_id", "video_token_id", "vision_start_token_id", "vision_end_token_id", "vision_token_id", NULL
};

static bool ignored_key(const char *k)
{
    for (int i = 0; IGNORED[i]; i++) if (!strcmp(k, IGNORED[i])) return true;
    return false;
}

static int read_index(const char *k)
{
    for (int i = 0; i < NREAD; i++) if (!strcmp(k, READ[i].key)) return i;
    return -1;
}

typedef struct {
    const char *file;
    const jv *o;        /* the model's keys: the file, or its text_config */
    const jv *outer;    /* a vision-language file around its text_config; NULL otherwise */
    fs_err *err;
} hctx;

#define FAIL(...) do { fs_err_set(c->err, 2, __VA_ARGS__); return false; } while (0)

/* A member that is absent or null reads as absent. */
static const jv *member(const hctx *c, const char *key)
{
    const jv *v = jv_get(c->o, key);
    /* vision-language files may keep the output embedding's tying and the context length beside text_config
    ** (verl/workers/rollout/utils.py, get_max_position_embeddings, at verl b178a3c: the outer config's first) */
    const jv *ov = c->outer && !strcmp(key, "max_position_embeddings") ? jv_get(c->outer, key) : NULL;
    if (ov && ov->t != J_NULL) v = ov;
    if (!v && c->outer && !strcmp(key, "tie_word_embeddings")) v = jv_get(c->outer, key);
    return v && v->t != J_NULL ? v : NULL;
}

/* Whole number in [lo, hi]; absent: *out = dflt, or a refusal when required. */
static bool get_int(const hctx *c, const char *key, long lo, long hi, bool required, long dflt, long *out)
{
    const jv *v = member(c, key);
    if (!v) {
        if (required) FAIL("%s: %s: missing; fusync needs it to count the parameters", c->file, key);
        *out = dflt;
        return true;
    }
    if (v->t != J_NUM || !jv_as_int(v, lo, hi, out))
        FAIL("%s: %s: expected a whole number in %ld..%ld", c->file, key, lo, hi);
    return true;
}

static bool get_bool(const hctx *c, const char *key, bool dflt, bool *out)
{
    const jv *v = member(c, key);
    if (!v) { *out = dflt; return true; }
    if (v->t != J_BOOL) FAIL("%s: %s: expected true or false", c->file, key);
    *out = !strcmp(v->text, "true");
    return true;
}

/* The model's name from the file's: the folder of a "config.json", else the
** base name less ".json" and a "config" ending. */
static void name_from_path(char *dst, size_t n, const char *path)
{
    const char *b = strrchr(path, '/');
    const char *base = b ? b + 1 : path;
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", base);
    size_t len = strlen(tmp);
    if (len > 5 && !strcmp(tmp + len - 5, ".json")) tmp[len -= 5] = 0;
    if (len >= 6 && !strcmp(tmp + len - 6, "config")) {
        tmp[len -= 6] = 0;
        while (len > 0 && (tmp[len - 1] == '.' || tmp[len - 1] == '-' || tmp[len - 1] == '_')) tmp[--len] = 0;
    }
    if (len == 0 && b) {
        /* the folder holding config.json */
        const char *end = b, *start = b;
        while (start > path && start[-1] != '/') start--;
        len = (size_t)(end - start);
        if (len >= sizeof tmp) len = sizeof tmp - 1;
        memcpy(tmp, start, len);
        tmp[len] = 0;
        if (!strcmp(tmp, ".") || !strcmp(tmp, "..")) len = 0, tmp[0] = 0;
    }
    snprintf(dst, n, "%s", len ? tmp : "config");
}

static bool parse_model(hctx *c, scn_model *m, hf_info *info)
{
    const jv *o = c->o;
    if (o->t != J_OBJ) FAIL("%s: expected a JSON object (a model's config.json)", c->file);
    const jv *tc = jv_get(o, "text_config");
    if (tc) {
        /* A vision-language model: fusync models its language model, the text_config; the vision
        ** encoder's parameters and the image tokens are not counted (hf_info.vision). */
        if (tc->t != J_OBJ) FAIL("%s: text_config: expected an object (the text model's keys)", c->file);
        if (!jv_get(tc, "model_type"))
            FAIL("%s: text_config: no model_type; fusync reads the text model by its family", c->file);
        jv_str(o, "model_type", info->outer_model_type, sizeof info->outer_model_type);
        info->vision = jv_get(o, "vision_config") != NULL;
        c->outer = o;
        c->o = o = tc;
    }
    if (jv_str(o, "model_type", info->model_type, sizeof info->model_type) && !strcmp(info->model_type, "qwen3_next"))
        FAIL("%s: model_type 'qwen3_next': three of every four layers are linear attention (Gated DeltaNet: "
             "linear_num_value_heads, linear_key_head_dim, ...; full_attention_interval), which fusync's "
             "transformer does not have; describe the model as a table instead (docs/scenarios.md, models)", c->file);
    if (!jv_str(o, "model_type", info->model_type, sizeof info->model_type))
        FAIL("%s: model_type: missing or not a string; fusync reads the families %s", c->file,
             "llama, mistral, qwen2, qwen3, qwen2_moe, qwen3_moe, deepseek_v2, deepseek_v3, mixtral, gemma, gemma2, gemma3_text, gpt_oss, glm4_moe");
    unsigned fam = 0;
    for (int i = 0; i < NFAMILIES; i++) if (!strcmp(info->model_type, FAMILIES[i].type)) fam = FAMILIES[i].fam;
    if (!fam) {
        char shown[200];
        fs_term_escape(shown, sizeof shown, info->model_type);
        FAIL("%s: model_type '%s' is not a family fusync reads (llama, mistral, qwen2, qwen3, qwen2_moe, "
             "qwen3_moe, deepseek_v2, deepseek_v3, mixtral, gemma, gemma2, gemma3_text, gpt_oss, glm4_moe); describe the model "
             "as a table instead (docs/scenarios.md, models)", c->file, shown);
    }
    const jv *arch = jv_get(c->outer ? c->outer : o, "architectures");
    if (arch && arch->t == J_ARR && arch->n > 0 && arch->items[0].t == J_STR)
        snprintf(info->architecture, sizeof info->architecture, "%s", arch->items[0].text);

    /* every key accounted for: read by this family, or known not to matter */
    for (int i = 0; i < o->n; i++) {
        const char *k = o->keys[i];
        for (int j = 0; j < i; j++)
            if (!strcmp(o->keys[j], k)) {
                char shown[200];
                fs_term_escape(shown, sizeof shown, k);
                FAIL("%s: %s: given twice; which one is meant?", c->file, shown);
            }
        int r = read_index(k);
        if (r >= 0) {
            if (!(READ[r].fam & fam) && o->items[i].t != J_NULL)
                FAIL("%s: %s: not a field of model_type '%s' as fusync reads it; a config that mixes "
                     "families cannot be counted: check the file", c->file, k, info->model_type);
            continue;
        }
        if (ignored_key(k)) continue;
        char shown[200];
        fs_term_escape(shown, sizeof shown, k);
        FAIL("%s: %s: a key fusync does not know for model_type '%s', and it may change the parameter "
             "count; if it does not (docs/model.md lists the keys read and ignored), remove it from the copy "
             "given to fusync, else describe the model as a table", c->file, shown, info->model_type);
    }

    long layers, hidden, heads, kv, vocab, head_dim, ffn = 0;
    if (!get_int(c, "num_hidden_layers", 1, 10000, true, 0, &layers)) return false;
    if (!get_int(c, "hidden_size", 1, 1 << 20, true, 0, &hidden)) return false;
    if (!get_int(c, "num_attention_heads", 1, 1 << 16, true, 0, &heads)) return false;
    if (!get_int(c, "num_key_value_heads", 1, heads, false, heads, &kv)) return false;
    if (!get_int(c, "vocab_size", 1, 1L << 26, true, 0, &vocab)) return false;
    if (heads > 0 && kv > 0 && heads % kv != 0)
        FAIL("%s: num_key_value_heads: %ld does not divide num_attention_heads (%ld)", c->file, kv, heads);
    bool tied, bias;
    if (!get_bool(c, "tie_word_embeddings", fam == F_GEMMA, &tied)) return false;
    if (!get_bool(c, "attention_bias", false, &bias)) return false;
    if (bias && !(fam & F_BIASED)) FAIL("%s: attention_bias: true is not modelled (fusync counts no attention biases); "
                   "describe the model as a table, or remove the key if the biases do not matter to you", c->file);
    if (!get_bool(c, "mlp_bias", false, &bias)) return false;
    if (bias) FAIL("%s: mlp_bias: true is not modelled (fusync counts no FFN biases); "
                   "describe the model as a table, or remove the key if the biases do not matter to you", c->file);
    long sw = 0;
    bool use_sw = true;
    if (!get_bool(c, "use_sliding_window", true, &use_sw)) return false;
    if (!get_int(c, "sliding_window", 0, 1L << 30, false, 0, &sw)) return false;
    info->sliding_window = use_sw ? (int)sw : 0;
    long maxpos;
    if (!get_int(c, "max_position_embeddings", 1, 1L << 30, false, 0, &maxpos)) return false;

    memset(m, 0, sizeof *m);
    m->layers = (int)layers;
    m->hidden = (int)hidden;
    m->heads = (int)heads;
    m->kv_heads = (int)kv;
    m->vocab = (int)vocab;
    m->tied_embeddings = tied;
    m->max_positions = (int)maxpos;

    if (fam == F_DEEPSEEK) {
        long nope, rope, v, kvl, ql;
        if (!get_int(c, "qk_nope_head_dim", 1, 4096, true, 0, &nope)) return false;
        if (!get_int(c, "qk_rope_head_dim", 0, 4096, true, 0, &rope)) return false;
        if (!get_int(c, "v_head_dim", 1, 4096, true, 0, &v)) return false;
        if (!get_int(c, "kv_lora_rank", 1, 1 << 16, true, 0, &kvl)) return false;
        if (!get_int(c, "q_lora_rank", 0, 1 << 16, false, 0, &ql)) return false;
        if (v != nope)
            FAIL("%s: v_head_dim: %ld differs from qk_nope_head_dim (%ld); fusync's MLA count has one head "
                 "size for both (docs/model.md)", c->file, v, nope);
        m->head_dim = (int)nope;
        m->mla_latent = (int)kvl;
        m->mla_rope = (int)rope;
        m->mla_q_latent = (int)ql;
        m->kv_heads = (int)heads;
        info->qk_nope_head_dim = (int)nope;
        info->qk_rope_head_dim = (int)rope;
        info->v_head_dim = (int)v;
    } else {
        if (!get_int(c, "head_dim", 1, 1 << 16, false, hidden / heads, &head_dim)) return false;
        if (!member(c, "head_dim") && hidden % heads != 0)
            FAIL("%s: head_dim: missing, and hidden_size %ld is not a multiple of num_attention_heads %ld",
                 c->file, hidden, heads);
        m->head_dim = (int)head_dim;
    }

    bool moe = false;
    long experts = 0, topk = 0, effn = 0, shared = 0, dense = 0;
    if (fam == F_MIXTRAL || fam == F_GPTOSS) {
        if (!get_int(c, "num_local_experts", 1, 1 << 16, true, 0, &experts)) return false;
        if (!get_int(c, "intermediate_size", 1, 1 << 22, true, 0, &effn)) return false;
        ffn = effn;
        moe = true;
    } else if (fam == F_QWEN2MOE || fam == F_QWEN3MOE) {
        if (!get_int(c, "num_experts", 1, 1 << 16, true, 0, &experts)) return false;
        if (!get_int(c, "moe_intermediate_size", 1, 1 << 22, true, 0, &effn)) return false;
        if (!get_int(c, "intermediate_size", 1, 1 << 22, false, 0, &ffn)) return false;
        long step;
        if (!get_int(c, "decoder_sparse_step", 1, 10000, false, 1, &step)) return false;
        if (step != 1)
            FAIL("%s: decoder_sparse_step: %ld (MoE every %ld layers) is not modelled; fusync's MoE models "
                 "have a leading block of dense layers and MoE after it", c->file, step, step);
        const jv *only = member(c, "mlp_only_layers");
        if (only) {
            if (only->t != J_ARR) FAIL("%s: mlp_only_layers: expected a list of layer numbers", c->file);
            for (int i = 0; i < only->n; i++) {
                long li;
                if (!jv_as_int(&only->items[i], 0, layers - 1, &li) || li != i)
                    FAIL("%s: mlp_only_layers: dense layers other than a leading block 0, 1, ... are not "
                         "modelled (item %d)", c->file, i + 1);
            }
            dense = only->n;
            if (dense > 0 && ffn <= 0)
                FAIL("%s: intermediate_size: missing, and mlp_only_layers names dense layers", c->file);
        }
        if (fam == F_QWEN2MOE) {
            long sffn;
            if (!get_int(c, "shared_expert_intermediate_size", 0, 1 << 24, false, 0, &sffn)) return false;
            if (sffn % effn != 0)
                FAIL("%s: shared_expert_intermediate_size: %ld is not a multiple of moe_intermediate_size (%ld); "
                     "fusync counts shared experts in units of one routed expert", c->file, sffn, effn);
            shared = sffn / effn;
        }
        moe = true;
    } else if (fam == F_DEEPSEEK || fam == F_GLM4MOE) {
        if (!get_int(c, "n_routed_experts", 0, 1 << 16, false, 0, &experts)) return false;
        if (!get_int(c, "intermediate_size", 1, 1 << 22, true, 0, &ffn)) return false;
        if (experts > 0) {
            long freq, mtp;
            if (!get_int(c, "moe_intermediate_size", 1, 1 << 22, true, 0, &effn)) return false;
            if (!get_int(c, "n_shared_experts", 0, 1 << 10, false, 0, &shared)) return false;
            if (!get_int(c, "first_k_dense_replace", 0, layers - 1, false, 0, &dense)) return false;
            if (!get_int(c, "moe_layer_freq", 1, 10000, false, 1, &freq)) return false;
            if (freq != 1)
                FAIL("%s: moe_layer_freq: %ld (MoE every %ld layers) is not modelled; fusync's MoE models "
                     "have a leading block of dense layers and MoE after it", c->file, freq, freq);
            if (!get_int(c, "num_nextn_predict_layers", 0, 64, false, 0, &mtp)) return false;
            info->mtp_layers = (int)mtp;
            moe = true;
        }
    } else {
        if (!get_int(c, "intermediate_size", 1, 1 << 22, true, 0, &ffn)) return false;
    }
    if (moe) {
        /* gpt_oss files name the top-k twice (experts_per_token too); either is read */
        const char *tk = fam == F_GPTOSS && !member(c, "num_experts_per_tok") ? "experts_per_token" : "num_experts_per_tok";
        if (!get_int(c, tk, 1, experts, true, 0, &topk)) return false;
        m->experts = (int)experts;
        m->experts_active = (int)topk;
        m->expert_ffn = (int)effn;
        m->shared_experts = (int)shared;
        m->dense_layers = (int)dense;
    }
    m->ffn = (int)ffn;
    scn_model_derive(m);

    if (info->mtp_layers > 0) {
        /* One MTP module (DeepSeek-V3 report, section 2.2): a full MoE layer,
        ** a 2h x h projection and three RMSNorms; embedding and head shared. */
        scn_model one = *m;
        one.layers = 2;
        one.dense_layers = 1;
        one.tied_embeddings = true;
        one.vocab = 0;
        scn_model_derive(&one);     /* a dense and a MoE layer, no embedding */
        scn_model dl = one;
        dl.layers = 1;
        dl.dense_layers = 0;
        dl.experts = 0;
        scn_model_derive(&dl);      /* the dense layer alone */
        double moe_layer = one.params_total - dl.params_total;
        double h = m->hidden;
        info->params_mtp = info->mtp_layers * (moe_layer + 2 * h * h + 3 * h);
    }
    return true;
}

bool hf_parse(const char *text, size_t len, const char *file, scn_model *m, hf_info *info, fs_err *err)
{
    memset(info, 0, sizeof *info);
    jv root;
    char why[256];
    if (!jsonr_parse(text, len, &root, why, sizeof why)) {
        fs_err_set(err, 2, "%s: not valid JSON: %s", file, why);
        return false;
    }
    hctx c = {.file = file, .o = &root, .err = err};
    bool ok = parse_model(&c, m, info);
    jv_free(&root);
    if (ok && !m->name[0]) snprintf(m->name, sizeof m->name, "%s", info->model_type);
    return ok;
}

bool hf_load(const char *path, scn_model *m, hf_info *info, fs_err *err)
{
    char *text;
    size_t len;
    if (!read_small_file(path, HF_CONFIG_MAX, "config.json", &text, &len, err)) return false;
    bool ok = hf_parse(text, len, path, m, info, err);
    free(text);
    if (ok) name_from_path(m->name, sizeof m->name, path);
    return ok;
}
