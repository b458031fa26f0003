/*
** cli_model.c — `fusync model CONFIG.json [--json FILE|-]`: what fusync
** derives from a Hugging Face config.json (src/hfconfig.c): the shape, the
** MoE and MLA figures, total and active parameters, KV bytes per token.
*/
#include "cli.h"
#include "hfconfig.h"
#include "model.h"

#include <stdio.h>
#include <string.h>

int cmd_model(cli_opts *o)
{
    if (!o->scenario) {
        fprintf(stderr, "fusync: model: missing CONFIG.json (a Hugging Face model's config.json)\n"
                "Try 'fusync --help' for more information.\n");
        return 2;
    }
    scn_model m;
    hf_info in;
    fs_err err = {0, ""};
    if (!hf_load(o->scenario, &m, &in, &err)) return cli_fail(&err);

    int rc = 0;
    if (o->json_path) {
        fs_buf j;
        buf_init(&j);
        fs_json js;
        json_init(&js, &j, true);
        json_obj_begin(&js, NULL);
        json_str(&js, "name", m.name);
        json_str(&js, "model_type", in.model_type);
        json_str(&js, "architecture", in.architecture);
        json_int(&js, "layers", m.layers);
        json_int(&js, "dense_layers", m.experts > 0 ? m.dense_layers : m.layers);
        json_int(&js, "hidden", m.hidden);
        json_int(&js, "heads", m.heads);
        json_int(&js, "kv_heads", m.kv_heads);
        json_int(&js, "head_dim", m.head_dim);
        json_int(&js, "ffn", m.ffn);
        json_int(&js, "experts", m.experts);
        json_int(&js, "experts_active", m.experts_active);
        json_int(&js, "shared_experts", m.shared_experts);
        json_int(&js, "expert_ffn", m.expert_ffn);
        json_int(&js, "mla_kv_latent", m.mla_latent);
        json_int(&js, "mla_q_latent", m.mla_q_latent);
        json_int(&js, "mla_rope_head_dim", m.mla_rope);
        json_int(&js, "mtp_layers", in.mtp_layers);
        json_int(&js, "vocab", m.vocab);
        json_bool(&js, "tied_embeddings", m.tied_embeddings);
        json_num(&js, "params_total", m.params_total);
        json_num(&js, "params_active", m.params_active);
        json_num(&js, "params_mtp", in.params_mtp);
        json_num(&js, "kv_bytes_per_token", m.kv_bytes_per_token);
        json_obj_end(&js);
        buf_putc(&j, '\n');
        if (!write_file_atomic(o->json_path, j.s, j.len, &err)) rc = cli_fail(&err);
        buf_free(&j);
    }
    if (o->json_path && strcmp(o->json_path, "-") == 0) return rc;

    fs_buf b;
    buf_init(&b);
    char t[32], a[32];
    fmt_si(t, sizeof t, m.params_total);
    fmt_si(a, sizeof a, m.params_active);
    buf_printf(&b, "Model %s (%s, model_type %s) from %s\n", m.name, in.architecture[0] ? in.architecture : "-",
               in.model_type, o->scenario);
    buf_printf(&b, "  layers %d, hidden %d, vocabulary %d, embeddings %s\n", m.layers, m.hidden, m.vocab,
               m.tied_embeddings ? "tied" : "untied");
    if (m.mla_latent > 0)
        buf_printf(&b, "  attention: MLA, %d heads, q/k head dims %d + %d rope, v %d; KV latent %d, query latent %d\n",
                   m.heads, in.qk_nope_head_dim, in.qk_rope_head_dim, in.v_head_dim, m.mla_latent, m.mla_q_latent);
    else
        buf_printf(&b, "  attention: %d heads, %d KV heads, head dim %d\n", m.heads, m.kv_heads, m.head_dim);
    if (m.experts > 0) {
        buf_printf(&b, "  MoE: %d routed experts, top-%d, %d shared, expert FFN %d; ", m.experts, m.experts_active,
                   m.shared_experts, m.expert_ffn);
        if (m.dense_layers > 0) buf_printf(&b, "%d dense layers first (FFN %d)\n", m.dense_layers, m.ffn);
        else buf_printf(&b, "every layer MoE\n");
    } else {
        buf_printf(&b, "  FFN %d (gated: three matrices)\n", m.ffn);
    }
    buf_printf(&b, "  parameters: %s total, %s active per token (%.4g and %.4g)\n", t, a, m.params_total,
               m.params_active);
    if (in.mtp_layers > 0) {
        char p[32];
        fmt_si(p, sizeof p, in.params_mtp);
        buf_printf(&b, "  MTP: %d module%s, %s more parameters, not in the total (not run by RL training)\n",
                   in.mtp_layers, in.mtp_layers == 1 ? "" : "s", p);
    }
    /* what the cost formulas use (docs/model.md, sections 3, 5 and 6) */
    char mm[32];
    fmt_si(mm, sizeof mm, mdl_matmul_params(&m));
    buf_printf(&b, "  costs: %s matmul parameters a token%s; attention %.0f FLOPs a (query, key) pair a layer", mm,
               mdl_lookup_params(&m) > 0 ? " (the untied embedding is a lookup)" : "",
               mdl_attn_pair_flops(&m, false));
    if (m.mla_latent > 0)
        buf_printf(&b, " expanded (prefill, training), %.0f absorbed (decode)", mdl_attn_pair_flops(&m, true));
    buf_putc(&b, '\n');
    buf_printf(&b, "  KV cache: %.0f bytes per token (BF16%s)\n", m.kv_bytes_per_token,
               in.sliding_window > 0 ? "; every layer counted in full, the sliding window is not modelled" : "");
    fs_buf tb;
    buf_init(&tb);
    buf_put_term(&tb, b.s);
    fputs(tb.s, stdout);    /* main() checks that stdout took it */
    buf_free(&tb);
    buf_free(&b);
    return rc;
}
