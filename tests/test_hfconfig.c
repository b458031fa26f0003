/*
** test_hfconfig.c — models from config.json (src/hfconfig.c): the files of
** tests/data/hf/ (from the public model cards) give the published parameter
** counts and the same model as the built-in presets; what fusync cannot
** represent is refused with the key named; fusync.hf_config and
** fusync.scenario in a scenario file.
*/
#include "testutil.h"
#include "hfconfig.h"
#include "lua_scenario.h"
#include "presets.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool load(const char *name, scn_model *m, hf_info *in, fs_err *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/hf/%s.config.json", test_root(), name);
    return hf_load(path, m, in, err);
}

static void check_published(const char *name, double total, double active)
{
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    ck_assert_msg(load(name, &m, &in, &err), "%s: %s", name, err.msg);
    ck_assert_msg(fabs(m.params_total / total - 1) <= 0.02, "%s: total %.4g, published %.4g", name, m.params_total, total);
    ck_assert_msg(fabs(m.params_active / active - 1) <= 0.02, "%s: active %.4g, published %.4g", name,
                  m.params_active, active);
    ck_assert_str_eq(m.name, name);
}

START_TEST(t_published_counts)
{
    /* the model cards' figures */
    check_published("DeepSeek-V3", 671e9, 37e9);
    check_published("Qwen3-30B-A3B", 30.5e9, 3.3e9);
    check_published("Qwen3-235B-A22B", 235e9, 22e9);
    check_published("Llama-3.1-8B", 8.03e9, 8.03e9);
    check_published("Qwen2.5-7B", 7.61e9, 7.61e9);
    check_published("Qwen3-8B", 8.2e9, 8.2e9);
    check_published("Mixtral-8x7B-v0.1", 46.7e9, 12.9e9);
    check_published("gemma-2-9b", 9.24e9, 9.24e9);
    check_published("Qwen1.5-MoE-A2.7B", 14.3e9, 2.7e9);
}
END_TEST

/* The config.json and the preset written from the same card are one model. */
static void same_as_preset(const char *file, const char *preset)
{
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    ck_assert_msg(load(file, &m, &in, &err), "%s", err.msg);
    scn_model p = *presets_model_find(preset);
    scn_model_derive(&p);
    ck_assert_int_eq(m.layers, p.layers);
    ck_assert_int_eq(m.dense_layers, p.dense_layers);
    ck_assert_int_eq(m.hidden, p.hidden);
    ck_assert_int_eq(m.heads, p.heads);
    ck_assert_int_eq(m.kv_heads, p.kv_heads);
    ck_assert_int_eq(m.head_dim, p.head_dim);
    ck_assert_int_eq(m.mla_latent, p.mla_latent);
    ck_assert_int_eq(m.mla_rope, p.mla_rope);
    ck_assert_int_eq(m.mla_q_latent, p.mla_q_latent);
    ck_assert_int_eq(m.expert_ffn, p.expert_ffn);
    ck_assert_int_eq(m.experts, p.experts);
    ck_assert_int_eq(m.experts_active, p.experts_active);
    ck_assert_int_eq(m.shared_experts, p.shared_experts);
    ck_assert_int_eq(m.vocab, p.vocab);
    ck_assert_int_eq(m.tied_embeddings, p.tied_embeddings);
    ck_assert_int_eq(m.max_positions, p.max_positions);     /* the card's max_position_embeddings */
    ck_assert_double_eq(m.params_total, p.params_total);
    ck_assert_double_eq(m.params_active, p.params_active);
    ck_assert_double_eq(m.kv_bytes_per_token, p.kv_bytes_per_token);
}

START_TEST(t_same_as_presets)
{
    same_as_preset("DeepSeek-V3", "deepseek_v3");
    same_as_preset("Qwen3-30B-A3B", "qwen3_30b_a3b");
    same_as_preset("Qwen3-235B-A22B", "qwen3_235b_a22b");
    same_as_preset("Llama-3.1-8B", "llama3_1_8b");
    same_as_preset("Qwen2.5-7B", "qwen2_5_7b");
}
END_TEST

START_TEST(t_family_details)
{
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    ck_assert(load("DeepSeek-V3", &m, &in, &err));
    ck_assert_str_eq(in.model_type, "deepseek_v3");
    ck_assert_int_eq(in.mtp_layers, 1);
    ck_assert_int_eq(in.v_head_dim, 128);
    /* one MTP module: a MoE layer (about 11.4 G) and the 2h x h projection */
    ck_assert_msg(in.params_mtp > 11e9 && in.params_mtp < 12.5e9, "MTP %.4g", in.params_mtp);
    /* DeepSeek files written by newer transformers carry head_dim (the rope dim): ignored */
    const char *ds = "{\"model_type\": \"deepseek_v3\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                     "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, \"kv_lora_rank\": 16, "
                     "\"qk_rope_head_dim\": 8, \"qk_nope_head_dim\": 16, \"v_head_dim\": 16, \"head_dim\": 8}";
    ck_assert_msg(hf_parse(ds, strlen(ds), "x.json", &m, &in, &err), "%s", err.msg);
    ck_assert_int_eq(m.head_dim, 16);
    ck_assert_int_eq(m.mla_q_latent, 0);    /* q_lora_rank absent: full-rank query */
    ck_assert_int_eq(m.experts, 0);         /* no routed experts: dense */
    ck_assert(load("gemma-2-9b", &m, &in, &err));
    ck_assert(m.tied_embeddings);           /* Gemma's default, no key in the file */
    ck_assert_int_eq(m.head_dim, 256);      /* explicit, not hidden/heads = 224 */
    ck_assert_int_eq(in.sliding_window, 4096);
    ck_assert(load("Qwen2.5-7B", &m, &in, &err));
    ck_assert_int_eq(in.sliding_window, 0); /* use_sliding_window false */
    ck_assert(load("Qwen1.5-MoE-A2.7B", &m, &in, &err));
    ck_assert_int_eq(m.shared_experts, 4);  /* 5632 / 1408 */
    ck_assert(load("Mixtral-8x7B-v0.1", &m, &in, &err));
    ck_assert_int_eq(m.expert_ffn, 14336);
    ck_assert_int_eq(m.experts, 8);
    ck_assert_int_eq(m.experts_active, 2);
}
END_TEST

static void refused(const char *json, const char *want)
{
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    ck_assert_msg(!hf_parse(json, strlen(json), "x.json", &m, &in, &err), "accepted: %s", json);
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, want) != NULL, "expected '%s' in: %s", want, err.msg);
    ck_assert_msg(strncmp(err.msg, "x.json: ", 8) == 0, "the file is not named: %s", err.msg);
}

#define LLAMA_CORE "\"model_type\": \"llama\", \"hidden_size\": 64, \"num_hidden_layers\": 2, " \
                   "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100"
#define DS_CORE "\"model_type\": \"deepseek_v3\", \"hidden_size\": 64, \"num_hidden_layers\": 4, " \
                "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, " \
                "\"kv_lora_rank\": 16, \"q_lora_rank\": 32, \"qk_rope_head_dim\": 8, \"qk_nope_head_dim\": 16, " \
                "\"n_routed_experts\": 8, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32"

START_TEST(t_refusals)
{
    refused("{" LLAMA_CORE ", \"new_thing\": 3}", "new_thing: a key fusync does not know");
    refused("{" LLAMA_CORE ", \"n_routed_experts\": 8}", "n_routed_experts: not a field of model_type 'llama'");
    refused("{\"model_type\": \"rwkv\", \"hidden_size\": 64}", "model_type 'rwkv' is not a family");
    refused("{\"hidden_size\": 64}", "model_type: missing");
    refused("{" LLAMA_CORE ", \"attention_bias\": true}", "attention_bias: true is not modelled");
    refused("{" LLAMA_CORE ", \"num_key_value_heads\": 3}", "does not divide");
    refused("{" LLAMA_CORE ", \"hidden_size\": 0}", "hidden_size: given twice");
    refused("{\"model_type\": \"llama\", \"hidden_size\": 0, \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
            "\"intermediate_size\": 128, \"vocab_size\": 100}", "hidden_size: expected a whole number");
    refused("{\"model_type\": \"gemma3\", \"text_config\": {}}", "text_config: no model_type");
    refused("{\"model_type\": \"gemma3\", \"text_config\": 3}", "text_config: expected an object");
    /* a vision-language text_config is read like the file itself: its unknown keys are refused too */
    refused("{\"model_type\": \"gemma3\", \"text_config\": {" LLAMA_CORE ", \"new_thing\": 3}}",
            "new_thing: a key fusync does not know");
    refused("{" DS_CORE ", \"v_head_dim\": 32}", "v_head_dim: 32 differs from qk_nope_head_dim (16)");
    refused("{" DS_CORE ", \"v_head_dim\": 16, \"moe_layer_freq\": 2}", "moe_layer_freq: 2");
    refused("{" DS_CORE ", \"v_head_dim\": 16, \"num_experts_per_tok\": 9}", "num_experts_per_tok: given twice");
    refused("{\"model_type\": \"qwen3_moe\", \"hidden_size\": 64, \"num_hidden_layers\": 4, \"num_attention_heads\": 4, "
            "\"vocab_size\": 100, \"num_experts\": 8, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, "
            "\"intermediate_size\": 128, \"mlp_only_layers\": [1]}", "mlp_only_layers: dense layers other than");
    refused("{\"model_type\": \"qwen2_moe\", \"hidden_size\": 64, \"num_hidden_layers\": 4, \"num_attention_heads\": 4, "
            "\"vocab_size\": 100, \"num_experts\": 8, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, "
            "\"shared_expert_intermediate_size\": 40}", "is not a multiple of moe_intermediate_size");
    refused("[1, 2]", "expected a JSON object");
    refused("{" LLAMA_CORE ",}", "not valid JSON");
}
END_TEST

/* Families recent RL recipes train (gpt-oss, GLM-4.5 MoE) and vision-language
** models read by their text model; the figures are the model cards'. */
START_TEST(t_recent_families)
{
    scn_model m, q;
    hf_info in, qi;
    fs_err err = {0, ""};
    /* gpt-oss-20b: 20.9B total, 3.6B active; the card's active figure leaves out the (untied) input
    ** embedding, a lookup */
    ck_assert_msg(load("gpt-oss-20b", &m, &in, &err), "%s", err.msg);
    ck_assert_str_eq(in.model_type, "gpt_oss");
    ck_assert_int_eq(m.experts, 32);
    ck_assert_int_eq(m.experts_active, 4);
    ck_assert_int_eq(m.expert_ffn, 2880);
    ck_assert_int_eq(m.head_dim, 64);
    ck_assert_int_eq(in.sliding_window, 128);
    ck_assert_msg(fabs(m.params_total / 20.9e9 - 1) <= 0.02, "gpt-oss-20b total %.4g", m.params_total);
    double lookup = (double)m.vocab * m.hidden;
    ck_assert_msg(fabs((m.params_active - lookup) / 3.6e9 - 1) <= 0.02, "gpt-oss-20b active %.4g", m.params_active - lookup);
    /* its biases are read, not counted; a Llama's are still refused (t_refusals) */
    ck_assert(!m.dense_layers);
    /* GLM-4.5: 355B total, 32B active (whole billions on the card), 3 dense layers first, one MTP layer */
    ck_assert_msg(load("GLM-4.5", &m, &in, &err), "%s", err.msg);
    ck_assert_str_eq(in.model_type, "glm4_moe");
    ck_assert_int_eq(m.dense_layers, 3);
    ck_assert_int_eq(m.experts, 160);
    ck_assert_int_eq(m.shared_experts, 1);
    ck_assert_int_eq(m.kv_heads, 8);
    ck_assert_int_eq(m.mla_latent, 0);
    ck_assert_int_eq(in.mtp_layers, 1);
    ck_assert_msg(fabs(m.params_total / 355e9 - 1) <= 0.02, "GLM-4.5 total %.4g", m.params_total);
    lookup = (double)m.vocab * m.hidden;
    ck_assert_msg(fabs((m.params_active - lookup) / 32e9 - 1) <= 0.03, "GLM-4.5 active %.4g", m.params_active - lookup);
    /* Qwen2.5-VL-7B: its language model is Qwen2.5-7B's shape; the vision encoder is not counted */
    ck_assert_msg(load("Qwen2.5-VL-7B-Instruct", &m, &in, &err), "%s", err.msg);
    ck_assert_msg(load("Qwen2.5-7B", &q, &qi, &err), "%s", err.msg);
    ck_assert(in.vision);
    ck_assert_str_eq(in.outer_model_type, "qwen2_5_vl");
    ck_assert_str_eq(in.model_type, "qwen2_5_vl_text");
    ck_assert_str_eq(in.architecture, "Qwen2_5_VLForConditionalGeneration");
    ck_assert_int_eq(in.sliding_window, 0);     /* use_sliding_window false in its text_config */
    ck_assert_int_eq(m.layers, q.layers);
    ck_assert_int_eq(m.kv_heads, q.kv_heads);
    ck_assert(!m.tied_embeddings);              /* tie_word_embeddings beside the text_config */
    ck_assert_double_eq_tol(m.params_total, q.params_total, 1);
    ck_assert_str_eq(m.name, "Qwen2.5-VL-7B-Instruct");
    ck_assert_int_eq(m.max_positions, 128000);  /* max_position_embeddings in its text_config */
    ck_assert_int_eq(q.max_positions, 131072);
    /* the context length beside a text_config comes first, as verl's get_max_position_embeddings reads it
    ** (verl/workers/rollout/utils.py at b178a3c); a file without one: 0, not known */
    const char *vl = "{\"model_type\": \"gemma3\", \"max_position_embeddings\": 4096, \"text_config\": {" LLAMA_CORE
                     ", \"max_position_embeddings\": 2048}}";
    ck_assert_msg(hf_parse(vl, strlen(vl), "v.json", &m, &in, &err), "%s", err.msg);
    ck_assert_int_eq(m.max_positions, 4096);
    const char *np = "{" LLAMA_CORE "}";
    ck_assert_msg(hf_parse(np, strlen(np), "n.json", &m, &in, &err), "%s", err.msg);
    ck_assert_int_eq(m.max_positions, 0);
    /* gpt_oss naming its top-k only as experts_per_token */
    ck_assert_msg(hf_parse("{\"model_type\": \"gpt_oss\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                           "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 32, "
                           "\"num_local_experts\": 8, \"experts_per_token\": 2, \"attention_bias\": true}",
                           strlen("{\"model_type\": \"gpt_oss\", \"hidden_size\": 64, \"num_hidden_layers\": 2, "
                                  "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 32, "
                                  "\"num_local_experts\": 8, \"experts_per_token\": 2, \"attention_bias\": true}"),
                           "t.json", &m, &in, &err), "%s", err.msg);
    ck_assert_int_eq(m.experts_active, 2);
    /* Qwen3-Next: linear-attention layers fusync does not have, refused by name */
    ck_assert(!load("Qwen3-Next-80B-A3B", &m, &in, &err));
    ck_assert_msg(strstr(err.msg, "model_type 'qwen3_next'") && strstr(err.msg, "linear attention"), "%s", err.msg);
    /* a GLM key in a Llama file is still a mix of families */
    refused("{" LLAMA_CORE ", \"first_k_dense_replace\": 1}", "first_k_dense_replace: not a field of model_type 'llama'");
}
END_TEST

START_TEST(t_leading_dense_block)
{
    /* Qwen3-MoE's mlp_only_layers [0, 1]: a leading block of two dense layers */
    const char *j = "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 64, \"num_hidden_layers\": 4, "
                    "\"num_attention_heads\": 4, \"vocab_size\": 100, \"num_experts\": 8, \"num_experts_per_tok\": 2, "
                    "\"moe_intermediate_size\": 32, \"intermediate_size\": 128, \"mlp_only_layers\": [0, 1], "
                    "\"rope_scaling\": null, \"torch_dtype\": \"bfloat16\"}";
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    ck_assert_msg(hf_parse(j, strlen(j), "x.json", &m, &in, &err), "%s", err.msg);
    ck_assert_int_eq(m.dense_layers, 2);
    ck_assert_int_eq(m.ffn, 128);
    ck_assert_int_eq(m.kv_heads, 4);        /* absent: as many as the heads */
    ck_assert_int_eq(m.head_dim, 16);       /* absent: hidden / heads */
    ck_assert(!m.tied_embeddings);
}
END_TEST

START_TEST(t_file_limits)
{
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/data/hf", test_root());
    ck_assert(!hf_load(dir, &m, &in, &err));
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
    ck_assert(!hf_load("/dev/null/none.json", &m, &in, &err));
    ck_assert_msg(strstr(err.msg, "cannot read the config.json"), "%s", err.msg);
    size_t big = (size_t)HF_CONFIG_MAX + 10;
    char *text = malloc(big + 1);
    memset(text, ' ', big);
    text[big] = 0;
    char *p = test_tmpfile(".json", text);
    free(text);
    ck_assert(!hf_load(p, &m, &in, &err));
    ck_assert_msg(strstr(err.msg, "more than a config.json may have"), "%s", err.msg);
    unlink(p);
    free(p);
}
END_TEST

START_TEST(t_scenario_helpers)
{
    /* fusync.hf_config relative to the scenario's folder; fusync.scenario
    ** loads another scenario, whose own relative paths start at its folder */
    char rel[1024], path[PATH_MAX];
    snprintf(rel, sizeof rel, "%s/tests/data/calib/small.lua", test_root());
    ck_assert(realpath(rel, path) != NULL);
    char text[PATH_MAX + 256];
    snprintf(text, sizeof text,
             "local s = fusync.scenario(%s%s%s)\n"
             "s.efficiency = { train = 0.25 }\n"
             "s.models.reference = s.models.actor\n"
             "return s\n", "\"", path, "\"");
    char *p = test_tmpfile(".lua", text);
    scn_scenario s;
    fs_err err = {0, ""};
    /* tests/data lies outside the temporary file's folder: named as --data-dir names it */
    char data[PATH_MAX];
    snprintf(data, sizeof data, "%s/tests/data", test_root());
    ck_assert(!lscn_load(p, NULL, 0, &s, &err));
    ck_assert_msg(strstr(err.msg, "cannot read it: no such file under the scenario's folder"), "%s", err.msg);
    ck_assert_msg(lscn_allow_dir(data, &err), "%s", err.msg);
    ck_assert_msg(lscn_load(p, NULL, 0, &s, &err), "%s", err.msg);
    lscn_allow_reset();
    ck_assert_str_eq(s.actor.name, "Qwen2.5-7B");
    ck_assert(s.has_ref);
    ck_assert_double_eq(s.eff.train, 0.25);
    ck_assert_int_eq(s.work.prompts_per_step, 32);
    unlink(p);
    free(p);

    /* a file that loads itself stops at the nesting limit */
    p = test_tmpfile(".lua", "return fusync.scenario(debug and '' or '')\n");
    ck_assert(!lscn_load(p, NULL, 0, &s, &err));
    ck_assert_msg(strstr(err.msg, "the path is empty"), "%s", err.msg);
    unlink(p);
    free(p);
    char self[2048];
    p = test_tmpfile(".lua", "placeholder");
    snprintf(self, sizeof self, "return fusync.scenario(\"%s\")\n", p);
    FILE *f = fopen(p, "w");
    fputs(self, f);
    fclose(f);
    ck_assert(!lscn_load(p, NULL, 0, &s, &err));
    ck_assert_msg(strstr(err.msg, "nested more than 4 deep"), "%s", err.msg);
    unlink(p);
    free(p);

    p = test_tmpfile(".lua", "return { models = { actor = fusync.hf_config('missing/config.json') } }\n");
    ck_assert(!lscn_load(p, NULL, 0, &s, &err));
    ck_assert_msg(strstr(err.msg, "fusync.hf_config") && strstr(err.msg, "missing/config.json: cannot read"), "%s",
                  err.msg);
    unlink(p);
    free(p);
}
END_TEST

static Suite *hfconfig_suite(void)
{
    Suite *s = suite_create("hfconfig");
    TCase *tc = tcase_create("hfconfig");
    tcase_add_test(tc, t_published_counts);
    tcase_add_test(tc, t_same_as_presets);
    tcase_add_test(tc, t_family_details);
    tcase_add_test(tc, t_refusals);
    tcase_add_test(tc, t_leading_dense_block);
    tcase_add_test(tc, t_recent_families);
    tcase_add_test(tc, t_file_limits);
    tcase_add_test(tc, t_scenario_helpers);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(hfconfig_suite)
