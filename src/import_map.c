/*
** import_map.c — a framework's keys onto a fusync scenario (import.h).
**
** Every field written carries the key it came from (the input's file and
** line, or the framework's default and its version), or says it is a guess.
** The rules, each with its source in the framework's code, are
** docs/frameworks.md; the key tables and defaults are import_fw.c.
**
** It holds the helpers of import_map.h and the rendering; verl's joined
** rules (mini-batches, lengths, pools, backends) are import_verl.c,
** OpenRLHF's import_openrlhf.c, NeMo RL's import_nemo.c, finding the
** model's shape import_model.c.
*/
#include "import_map.h"
#include "presets.h"

#include <ctype.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- values */

static bool resolve(imp_mctx *m, const char *key, const char *text, char *out, size_t n, int depth);

/* The value of key: the input's, else the framework's default (NULL: neither). */
static const char *raw(imp_mctx *m, const char *key, const imp_kv **from)
{
    const imp_kv *k = imp_cfg_get(m->c, key);
    if (from) *from = k;
    if (k && m->used) m->used[k - (const imp_kv *)m->c->kv.data] = true;
    if (k) return k->value;
    return imp_fw_default(m->fw, key);
}

static bool resolve(imp_mctx *m, const char *key, const char *text, char *out, size_t n, int depth)
{
    if (depth > 8) {
        fs_err_set(m->err, 2, "%s: ${...} nested too deep (a loop?)", key);
        return false;
    }
    size_t len = strlen(text);
    if (len < 3 || strncmp(text, "${", 2) || text[len - 1] != '}') {
        snprintf(out, n, "%s", text);
        return true;
    }
    char inner[1024];
    snprintf(inner, sizeof inner, "%.*s", (int)(len - 3), text + 2);
    if (!strncmp(inner, "mul:", 4)) {
        /* ${mul:A, B}: split at the top-level comma */
        char *s = inner + 4;
        int d = 0;
        char *comma = NULL;
        for (char *q = s; *q; q++) {
            if (*q == '{') d++;
            else if (*q == '}') d--;
            else if (*q == ',' && d == 0) { comma = q; break; }
        }
        if (!comma) { snprintf(out, n, "%s", text); return true; }
        *comma = 0;
        char a[256], b[256];
        char *sa = s, *sb = comma + 1;
        while (*sa == ' ') sa++;
        while (*sb == ' ') sb++;
        if (!resolve(m, key, sa, a, sizeof a, depth + 1) || !resolve(m, key, sb, b, sizeof b, depth + 1)) return false;
        snprintf(out, n, "%.0f", strtod(a, NULL) * strtod(b, NULL));
        return true;
    }
    const char *path = inner, *dflt = NULL;
    char pbuf[512];
    if (!strncmp(inner, "oc.select:", 10)) {
        path = inner + 10;
        char *comma = strchr(inner + 10, ',');
        if (comma) { *comma = 0; dflt = comma + 1; while (*dflt == ' ') dflt++; }
    }
    if (path[0] == '.') {   /* relative: a sibling of key */
        const char *dot = strrchr(key, '.');
        snprintf(pbuf, sizeof pbuf, "%.*s%s", dot ? (int)(dot - key) : 0, key, path);
        path = pbuf;
    }
    const char *v = raw(m, path, NULL);
    if (!v) v = dflt;
    if (!v) { snprintf(out, n, "null"); return true; }
    char vv[1024];
    snprintf(vv, sizeof vv, "%s", v);
    return resolve(m, path, vv, out, n, depth + 1);
}

/* A key's value and where it came from ("run.sh:12 key" or "key, verl's default"). */
bool imp_m_get(imp_mctx *m, const char *key, char *val, size_t n, char *src, size_t sn)
{
    const imp_kv *k;
    const char *v = raw(m, key, &k);
    if (!v) v = "null";
    if (!resolve(m, key, v, val, n, 0)) { m->failed = true; return false; }
    if (src) {
        if (k && k->line) snprintf(src, sn, "%s (%s:%d)", key, k->file, k->line);
        else if (k) snprintf(src, sn, "%s (%s)", key, k->file);
        else snprintf(src, sn, "%s, %s's default", key, imp_framework_name(m->fw));
    }
    return true;
}

bool imp_m_is_null(const char *v) { return !*v || !strcmp(v, "null") || !strcmp(v, "None") || !strcmp(v, "~"); }

bool imp_m_to_bool(imp_mctx *m, const char *key, const char *v, bool *out)
{
    if (!strcasecmp(v, "true") || !strcmp(v, "1")) { *out = true; return true; }
    if (!strcasecmp(v, "false") || !strcmp(v, "0") || imp_m_is_null(v)) { *out = false; return true; }
    const imp_kv *k = imp_cfg_get(m->c, key);
    fs_err_set(m->err, 2, "%s:%d: %s = '%s': not true or false", k ? k->file : "(default)", k ? k->line : 0, key, v);
    m->failed = true;
    return false;
}

static bool to_num(imp_mctx *m, const char *key, const char *v, double *out)
{
    char *end;
    double d = strtod(v, &end);
    while (*end == ' ') end++;
    if (end != v && !*end && isfinite(d)) { *out = d; return true; }
    const imp_kv *k = imp_cfg_get(m->c, key);
    if (k) fs_err_set(m->err, 2, "%s:%d: %s = '%s': not a number", k->file, k->line, key, v);
    else fs_err_set(m->err, 2, "%s = '%s': not a number", key, v);
    m->failed = true;
    return false;
}

/* getters: false with err set when the value does not read */
bool imp_m_gbool(imp_mctx *m, const char *key, bool *b, char *src, size_t sn)
{
    char v[1024];
    return imp_m_get(m, key, v, sizeof v, src, sn) && imp_m_to_bool(m, key, v, b);
}

bool imp_m_gnum(imp_mctx *m, const char *key, double *d, bool *null, char *src, size_t sn)
{
    char v[1024];
    if (!imp_m_get(m, key, v, sizeof v, src, sn)) return false;
    if (null) *null = imp_m_is_null(v);
    if (null && *null) { *d = 0; return true; }
    return to_num(m, key, v, d);
}

void imp_m_set(imp_mctx *m, const char *path, const char *src, const char *fmt, ...)
{
    imp_mentry *e = NULL, *all = m->out.data;
    for (size_t i = 0; i < m->out.len; i++) if (!strcmp(all[i].path, path)) e = &all[i];
    if (!e) {
        e = vec_push(&m->out);
        snprintf(e->path, sizeof e->path, "%s", path);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->val, sizeof e->val, fmt, ap);
    va_end(ap);
    snprintf(e->src, sizeof e->src, "%s", src);
}

void imp_m_warn(imp_mctx *m, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_printf(&m->perf, "--   %s\n", line);
}

/* ----------------------------------------------------------------- model */

static void lua_str(char *out, size_t n, const char *s)
{
    size_t k = 0;
    if (n < 3) return;
    out[k++] = '"';
    for (; *s && k + 3 < n; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') { out[k++] = '\\'; out[k++] = (char)ch; }
        else if (ch < 0x20) out[k++] = ' ';
        else out[k++] = (char)ch;
    }
    out[k++] = '"';
    out[k] = 0;
}

/* The model record, named by the config's own path or hub id (what export
** writes back; a longer name is cut to the scenario's SCN_NAME_MAX). */
static void model_record(imp_mctx *m, const char *mp, const char *src, const char *id, const scn_model *mm)
{
    char name[SCN_NAME_MAX * 2 + 4];
    char cut[SCN_NAME_MAX];
    snprintf(cut, sizeof cut, "%s", id);
    lua_str(name, sizeof name, cut);
    /* the context length only where the config or preset gives it (0: not known, the field's default) */
    char pos[48] = "";
    if (mm->max_positions > 0) snprintf(pos, sizeof pos, ", max_positions = %d", mm->max_positions);
    imp_m_set(m, mp, src, "{ name = %s, layers = %d, dense_layers = %d, hidden = %d, heads = %d, kv_heads = %d, "
        "head_dim = %d, mla_latent = %d, mla_rope = %d, mla_q_latent = %d, ffn = %d, expert_ffn = %d, "
        "experts = %d, experts_active = %d, shared_experts = %d, vocab = %d, tied_embeddings = %s%s }",
        name, mm->layers, mm->dense_layers, mm->hidden, mm->heads, mm->kv_heads, mm->head_dim, mm->mla_latent,
        mm->mla_rope, mm->mla_q_latent, mm->ffn, mm->expert_ffn, mm->experts, mm->experts_active, mm->shared_experts,
        mm->vocab, mm->tied_embeddings ? "true" : "false", pos);
}

bool imp_m_model(imp_mctx *m, const char *role, const char *key)
{
    char id[1024], src[320];
    if (!imp_m_get(m, key, id, sizeof id, src, sizeof src)) return false;
    if (imp_m_is_null(id)) {
        fs_err_set(m->err, 2, "%s: no model path given", key);
        m->failed = true;
        return false;
    }
    scn_model mm;
    char how[160];
    if (!imp_model_find(id, m->o->model_dir, src, &mm, how, sizeof how, m->err)) {
        m->failed = true;
        return false;
    }
    char full[sizeof src + sizeof id + sizeof how + 8];
    snprintf(full, sizeof full, "%s = %s; %s", src, id, how);
    char mp[128];
    snprintf(mp, sizeof mp, "models.%s", role);
    model_record(m, mp, full, id, &mm);
    if (!strcmp(role, "actor")) m->actor_positions = mm.max_positions;
    return true;
}

/* ------------------------------------------------------------ the workload */

/* Lengths no config holds: flags, else a stated guess. */
void imp_m_lengths(imp_mctx *m, double max_prompt, double max_response, const char *psrc, const char *rsrc)
{
    char s[400];
    if (m->o->prompt_mean > 0) {
        imp_m_set(m, "workload.prompt_len", "--prompt-mean (sigma 0.5 a guess)", "f.dist.lognormal{ mean = %g, sigma = 0.5, cap = %g }",
            m->o->prompt_mean, max_prompt);
    } else {
        snprintf(s, sizeof s, "guess: uniform from a quarter of %s to all of it", psrc);
        imp_m_set(m, "workload.prompt_len", s, "f.dist.uniform(%g, %g)", fmax(1, floor(max_prompt / 4)), max_prompt);
    }
    if (m->o->response_mean > 0) {
        snprintf(s, sizeof s, "--response-mean (sigma 0.8 a guess), capped at %s", rsrc);
        imp_m_set(m, "workload.response_len", s, "f.dist.lognormal{ mean = %g, sigma = 0.8, cap = %g }",
            m->o->response_mean, max_response);
    } else {
        snprintf(s, sizeof s, "guess: median a quarter of %s, sigma 0.8; give --response-mean from a run's logs", rsrc);
        imp_m_set(m, "workload.response_len", s, "f.dist.lognormal{ median = %g, sigma = 0.8, cap = %g }",
            fmax(1, floor(max_response / 4)), max_response);
    }
    imp_m_set(m, "workload.max_response", rsrc, "%g", max_response);
}

bool imp_m_minibatches(imp_mctx *m, double samples, double per_opt, const char *src, const char *why)
{
    if (per_opt <= 0 || fmod(samples, per_opt) != 0) {
        fs_err_set(m->err, 2, "%s: %g samples a step are not a whole number of optimizer steps of %g (%s)", src,
                   samples, per_opt, why);
        m->failed = true;
        return false;
    }
    char s[400];
    snprintf(s, sizeof s, "%s: %s", src, why);
    imp_m_set(m, "workload.minibatches", s, "%g", samples / per_opt);
    return true;
}

/* The one-to-one rules of import_fw.c whose guard is g; import_export.c
** reads the same rows the other way. */
bool imp_m_rules(imp_mctx *m, imp_guard g)
{
    for (const imp_rule *r = imp_fw_rules(m->fw); r->key; r++) {
        if (r->guard != g) continue;
        char s[320];
        double d;
        bool b;
        if (r->conv == IMP_C_NUM || r->conv == IMP_C_SHARD) {
            bool nul = false;
            if (!imp_m_gnum(m, r->key, &d, (r->flags & IMP_R_NULL) ? &nul : NULL, s, sizeof s)) return false;
            if (nul || ((r->flags & IMP_R_GT1) && d <= 1)) continue;
            imp_m_set(m, r->field, s, "%g", r->conv == IMP_C_SHARD && d < 0 ? 0 : d);
            continue;
        }
        if (r->conv == IMP_C_DISP) {
            /* the dispatcher's name as Megatron spells it (docs/model.md,
            ** section 7, "The token dispatcher") */
            char v[64];
            if (!imp_m_get(m, r->key, v, sizeof v, s, sizeof s)) return false;
            if (imp_m_is_null(v)) continue;
            if (strcmp(v, "alltoall") && strcmp(v, "allgather") && strcmp(v, "flex")) {
                const imp_kv *k = imp_cfg_get(m->c, r->key);
                fs_err_set(m->err, 2, "%s:%d: %s = '%s': not one of alltoall, allgather, flex (Megatron-Core's "
                           "moe_token_dispatcher_type)", k ? k->file : "(default)", k ? k->line : 0, r->key, v);
                m->failed = true;
                return false;
            }
            imp_m_set(m, r->field, s, "\"%s\"", v);
            continue;
        }
        if (!imp_m_gbool(m, r->key, &b, s, sizeof s)) return false;
        switch (r->conv) {
        case IMP_C_BOOL: case IMP_C_AUXOFF: imp_m_set(m, r->field, s, "%s", b ? "true" : "false"); break;
        case IMP_C_ZERO1: imp_m_set(m, r->field, s, "%d", b ? 1 : 0); break;
        case IMP_C_RECOMP: imp_m_set(m, r->field, s, "\"%s\"", b ? "full" : "none"); break;
        case IMP_C_FP32: imp_m_set(m, r->field, s, "\"%s\"", b ? "fp32" : "bf16"); break;
        case IMP_C_SHARE: imp_m_set(m, r->field, s, "%d", b ? 1 : 0); break;
        case IMP_C_PACK: imp_m_set(m, r->field, s, "\"%s\"", b ? "none" : "longest"); break;
        case IMP_C_NOT: imp_m_set(m, r->field, s, "%s", b ? "false" : "true"); break;
        default: break;
        }
    }
    return true;
}

/* The machine's accelerators a node (--devices-per-node) beside the run's
** per-node count under gpn_key, which the rules gave cluster.devices_per_node.
** The run's GPUs are nodes_key groups of gpn_key one-GPU bundles, a group
** meant for one node (how names the framework's placement): a machine
** node of fewer GPUs cannot hold a group (exit 2); one of more holds the
** group and leaves the rest idle, so the cluster stays the run's (full
** co-location spans every device of the scenario's cluster) and a warning
** says so. */
bool imp_m_node_gpus(imp_mctx *m, const char *gpn_key, const char *nodes_key, const char *how)
{
    int mach = m->o->devices_per_node;
    if (mach <= 0) return true;
    char s[320];
    double gpn, nodes;
    if (!imp_m_gnum(m, gpn_key, &gpn, NULL, s, sizeof s) || !imp_m_gnum(m, nodes_key, &nodes, NULL, NULL, 0)) return false;
    if (gpn > mach) {
        fs_err_set(m->err, 2, "--devices-per-node %d: %s asks %g GPUs of each node (%s), more than a node has",
                   mach, s, gpn, how);
        m->failed = true;
        return false;
    }
    char why[700];
    if (gpn == mach) {
        snprintf(why, sizeof why, "--devices-per-node, as %s", s);
        imp_m_set(m, "cluster.devices_per_node", why, "%d", mach);
        return true;
    }
    snprintf(why, sizeof why, "%s: %g of the machine's %d a node (--devices-per-node), the GPUs the run uses", s, gpn, mach);
    imp_m_set(m, "cluster.devices_per_node", why, "%g", gpn);
    imp_m_warn(m, "%s = %g, fewer than the machine's %d GPUs a node (--devices-per-node): the run uses %g GPUs on each "
               "of %s = %g nodes (%s); fusync simulates %g-GPU nodes, each with a whole node's host memory "
               "(--host-mem), the other GPUs idle; Ray may place two of those groups on one node, which then share "
               "its host memory and NICs", gpn_key, gpn, mach, gpn, nodes_key, nodes, how, gpn);
    return true;
}

/* The rollout engine's weight and KV-cache precision (docs/model.md,
** section 5, FP8 rollouts): verl's rollout.quantization "fp8"
** (block-quantized e4m3 weights, verl/workers/rollout/vllm_rollout/
** vllm_async_server.py) and NeMo RL's vllm_cfg.precision "fp8"
** (nemo_rl/models/generation/vllm/quantization/fp8.py) are
** plan.rollout.weights_dtype "fp8"; a kv_cache_dtype "fp8", "fp8_e4m3" or
** "fp8_e5m2" (vLLM's CacheDType) is plan.rollout.kv_dtype "fp8".  Another
** quantization (verl's "torchao") is a warning.  NULL key: the framework
** has none. */
bool imp_m_rollout_precision(imp_mctx *m, const char *weights_key, const char *kv_key)
{
    char v[1024], s[320], why[700];
    if (weights_key) {
        if (!imp_m_get(m, weights_key, v, sizeof v, s, sizeof s)) return false;
        if (!strcasecmp(v, "fp8")) {
            snprintf(why, sizeof why, "%s = %s: the blocks' linear layers in e4m3, 128x128 block scales", s, v);
            imp_m_set(m, "plan.rollout.weights_dtype", why, "\"fp8\"");
        } else if (!imp_m_is_null(v) && strcasecmp(v, "bfloat16") && strcasecmp(v, "bf16") && strcasecmp(v, "float16") &&
                   strcasecmp(v, "fp16") && strcasecmp(v, "auto"))
            imp_m_warn(m, "%s = %s: a quantized rollout other than FP8 is not modelled; fusync holds and reads the "
                       "rollout's weights in BF16, so the engine's weight memory and its decode steps' weight reads "
                       "are over-counted", s, v);
    }
    if (kv_key) {
        if (!imp_m_get(m, kv_key, v, sizeof v, s, sizeof s)) return false;
        if (!strncasecmp(v, "fp8", 3)) {
            snprintf(why, sizeof why, "%s = %s: one byte a KV element", s, v);
            imp_m_set(m, "plan.rollout.kv_dtype", why, "\"fp8\"");
        } else if (!imp_m_is_null(v) && strcasecmp(v, "auto") && strcasecmp(v, "bfloat16") && strcasecmp(v, "bf16"))
            imp_m_warn(m, "%s = %s: a KV cache dtype fusync does not know; it counts the KV cache in BF16", s, v);
    }
    return true;
}

/* vLLM's kv_cache_memory_bytes (vllm/config/cache.py, vLLM 0.11 on): the
** KV cache's size per device in bytes, in place of what
** gpu_memory_utilization leaves; null (vLLM's default) leaves
** plan.rollout.kv_cache_gb unset.  NeMo RL passes vllm_kwargs to vLLM's
** LLM (nemo_rl/models/generation/vllm/vllm_worker.py at 7ea279a), verl
** engine_kwargs.vllm to its server's engine arguments
** (verl/workers/rollout/vllm_rollout/vllm_async_server.py at b178a3c);
** import_export.c writes the key back. */
bool imp_m_kv_cache_bytes(imp_mctx *m, const char *key)
{
    double d;
    bool nul = false;
    char s[320], why[700];
    if (!imp_m_gnum(m, key, &d, &nul, s, sizeof s)) return false;
    if (nul || d == 0) return true;
    if (d < 0) {
        fs_err_set(m->err, 2, "%s = %g: vLLM's kv_cache_memory_bytes must not be negative", s, d);
        m->failed = true;
        return false;
    }
    snprintf(why, sizeof why, "%s = %.0f bytes: vLLM's KV cache a device, in place of gpu_memory_utilization's", s, d);
    imp_m_set(m, "plan.rollout.kv_cache_gb", why, "%.15g", d / 1073741824.0);
    return true;
}

/* Megatron-core's optimizer_cpu_offload with optimizer_offload_fraction: that
** share of the optimizer states held and stepped on the host for the whole
** run (megatron/core/optimizer/optimizer_config.py; HybridDeviceOptimizer). */
bool imp_m_host_optimizer(imp_mctx *m, const char *on_key, const char *frac_key)
{
    bool on;
    double f;
    char s[320], s2[320], why[700];
    if (!imp_m_gbool(m, on_key, &on, s, sizeof s)) return false;
    if (!on) return true;
    if (!imp_m_gnum(m, frac_key, &f, NULL, s2, sizeof s2)) return false;
    if (!(f >= 0 && f <= 1)) {
        fs_err_set(m->err, 2, "%s = %g: a share of the optimizer states, 0 to 1", s2, f);
        m->failed = true;
        return false;
    }
    snprintf(why, sizeof why, "%s with %s: that share of the optimizer on the host", s, s2);
    imp_m_set(m, "plan.train.optimizer_offload", why, "%g", f);
    return true;
}

/* FP8 training under Megatron-Core (docs/model.md, section 7, FP8
** training): NeMo RL's megatron_cfg.fp8_cfg (enabled, fp8, fp8_recipe,
** fp8_param; nemo_rl/models/megatron/setup.py copies the last three onto
** the TransformerConfig when enabled, 7ea279a) and verl's
** override_transformer_config.fp8 (e4m3 or hybrid: on; null: off) with
** fp8_recipe and fp8_param, passed to Megatron's TransformerConfig as they
** are.  enabled_key NULL: the fp8 key alone switches it (verl).  "e4m3" and
** "hybrid" (E5M2 gradients) move the same bytes; MXFP8 and custom recipes
** are not modelled and are counted as blockwise, with a warning. */
bool imp_m_train_precision(imp_mctx *m, const char *enabled_key, const char *fp8_key, const char *recipe_key,
                           const char *param_key)
{
    char v[1024], s[320], s2[320], why[1100];
    bool on = true;
    if (enabled_key && !imp_m_gbool(m, enabled_key, &on, s, sizeof s)) return false;
    if (!on) return true;
    if (!imp_m_get(m, fp8_key, v, sizeof v, s2, sizeof s2)) return false;
    if (imp_m_is_null(v) || !strcasecmp(v, "false")) {
        if (enabled_key) imp_m_warn(m, "%s with %s = %s: Megatron-Core trains in BF16 when fp8 is unset", s, s2, v);
        return true;
    }
    if (strcasecmp(v, "e4m3") && strcasecmp(v, "hybrid"))
        imp_m_warn(m, "%s = %s: an FP8 format fusync does not know (Megatron-Core takes e4m3 or hybrid); read as e4m3", s2, v);
    if (enabled_key) snprintf(why, sizeof why, "%s with %s = %s: Transformer Engine's FP8 linear layers", s, s2, v);
    else snprintf(why, sizeof why, "%s = %s: Transformer Engine's FP8 linear layers", s2, v);
    imp_m_set(m, "plan.train.precision", why, "\"fp8\"");
    if (recipe_key) {
        if (!imp_m_get(m, recipe_key, v, sizeof v, s, sizeof s)) return false;
        const char *r = imp_m_is_null(v) ? "delayed" : v;   /* TransformerConfig.fp8_recipe's default */
        if (strcasecmp(r, "delayed") && strcasecmp(r, "tensorwise") && strcasecmp(r, "blockwise")) {
            imp_m_warn(m, "%s = %s: a recipe fusync does not model (it knows delayed, tensorwise, blockwise); its casts "
                       "and scales are counted as blockwise's", s, v);
            r = "blockwise";
        }
        imp_m_set(m, "plan.train.fp8_recipe", s, "\"%s\"", !strcasecmp(r, "delayed") ? "delayed"
                  : !strcasecmp(r, "tensorwise") ? "tensorwise" : "blockwise");
    }
    if (param_key) {
        bool b;
        if (!imp_m_gbool(m, param_key, &b, s, sizeof s)) return false;
        if (b) imp_m_set(m, "plan.train.fp8_param", s, "true");
    }
    return true;
}

/* ------------------------------------------------------------------ verl */

/* LoRA (Hu et al., arXiv 2106.09685) adapts the matrices named by PEFT's
** target_modules: "all-linear" every linear layer of the blocks (PEFT's
** tuners_utils, the LM head left out), else module names, Hugging Face's
** (q_proj ... down_proj) or Megatron-core's (linear_qkv, linear_proj,
** linear_fc1, linear_fc2).  fusync adapts every linear layer or the four
** attention projections (plan.train.lora_targets): a list with an MLP
** matrix is all-linear, one of attention matrices alone is attention; a
** list that names part of either is warned about (memory counted for all). */
static const char *const LORA_ATT[] = {"q_proj", "k_proj", "v_proj", "o_proj", "qkv_proj", "linear_qkv", "linear_proj",
                                       "linear_q", "linear_k", "linear_v", "query_key_value", "dense", "out_proj",
                                       "c_attn", "wq", "wk", "wv", "wo", "self_attn", NULL};
static const char *const LORA_MLP[] = {"gate_proj", "up_proj", "down_proj", "gate_up_proj", "linear_fc1", "linear_fc2",
                                       "fc1", "fc2", "w1", "w2", "w3", "dense_h_to_4h", "dense_4h_to_h", "c_fc",
                                       "mlp", "experts", NULL};

static int lora_in(const char *const *set, const char *w)
{
    for (int i = 0; set[i]; i++) if (!strcmp(set[i], w)) return i;
    return -1;
}

bool imp_m_lora(imp_mctx *m, const char *rank_key, const char *targets_key, const char *all_linear_key)
{
    char v[1024], s[320], why[700];
    double rank;
    bool nul;
    if (!imp_m_gnum(m, rank_key, &rank, &nul, s, sizeof s)) return false;
    if (nul || rank <= 0) return true;
    imp_m_set(m, "plan.train.lora_rank", s, "%g", rank);
    bool all = false;
    if (all_linear_key && !imp_m_gbool(m, all_linear_key, &all, s, sizeof s)) return false;
    if (all) {
        snprintf(why, sizeof why, "%s: every linear layer", s);
        imp_m_set(m, "plan.train.lora_targets", why, "\"all-linear\"");
        return true;
    }
    imp_m_get(m, targets_key, v, sizeof v, s, sizeof s);
    /* a list as the config writes it: "[a, b]", '["a","b"]', "a b" (nargs) */
    unsigned att = 0, mlp = 0, unknown = 0, words = 0;
    bool all_linear = false;
    char *save = NULL;
    for (char *w = strtok_r(v, "[]\"', ", &save); w; w = strtok_r(NULL, "[]\"', ", &save)) {
        int k;
        words++;
        if (!strcmp(w, "all-linear") || !strcmp(w, "all_linear")) all_linear = true;
        else if ((k = lora_in(LORA_ATT, w)) >= 0) att |= 1u << k;
        else if ((k = lora_in(LORA_MLP, w)) >= 0) mlp |= 1u << k;
        else if (strcmp(w, "null") && strcmp(w, "None")) unknown++;
    }
    /* the whole attention block: q, k, v, o; or a fused qkv with its output */
    bool att_whole = (att & 0xf) == 0xf || ((att & (1u << 4 | 1u << 5 | 1u << 10)) && (att & (1u << 3 | 1u << 6 | 1u << 11 | 1u << 12)));
    bool mlp_whole = (mlp & 0x7) == 0x7 || (mlp & 0x30) == 0x30 || (mlp & 0x9) == 0x9;
    if (all_linear || (!att && !mlp && !unknown)) {
        snprintf(why, sizeof why, "%s: every linear layer of the blocks%s", s, words ? "" : " (an empty list: all of them)");
        imp_m_set(m, "plan.train.lora_targets", why, "\"all-linear\"");
    } else if (mlp || unknown) {
        snprintf(why, sizeof why, "%s: an MLP matrix among them, taken as every linear layer", s);
        imp_m_set(m, "plan.train.lora_targets", why, "\"all-linear\"");
        if (unknown || !att_whole || !mlp_whole)
            imp_m_warn(m, "%s names part of the linear layers%s: fusync adapts every one (adapter memory over-counted)",
                       targets_key, unknown ? " (or modules it does not know)" : "");
    } else {
        snprintf(why, sizeof why, "%s: attention projections only", s);
        imp_m_set(m, "plan.train.lora_targets", why, "\"attention\"");
        if (!att_whole)
            imp_m_warn(m, "%s names part of the attention projections: fusync adapts q, k, v and o (adapter memory "
                       "over-counted)", targets_key);
    }
    return true;
}

/* ------------------------------------------------------------- rendering */

static void render(const imp_mentry *e, size_t n, size_t from, int depth, const char *prefix, fs_buf *out)
{
    /* each first path component under prefix, in first-set order */
    size_t pl = strlen(prefix);
    for (size_t i = from; i < n; i++) {
        const char *p = e[i].path;
        if (strncmp(p, prefix, pl)) continue;
        const char *rest = p + pl;
        const char *dot = strchr(rest, '.');
        size_t cl = dot ? (size_t)(dot - rest) : strlen(rest);
        bool seen = false;
        for (size_t j = from; j < i && !seen; j++)
            if (!strncmp(e[j].path, prefix, pl) && !strncmp(e[j].path + pl, rest, cl) &&
                (e[j].path[pl + cl] == '.' || e[j].path[pl + cl] == 0)) seen = true;
        if (seen) continue;
        for (int k = 0; k < depth; k++) buf_puts(out, "  ");
        if (!dot) {
            buf_printf(out, "%.*s = %s,", (int)cl, rest, e[i].val);
            buf_printf(out, "  -- %s\n", e[i].src);
        } else {
            buf_printf(out, "%.*s = {\n", (int)cl, rest);
            char sub[128];
            snprintf(sub, sizeof sub, "%s%.*s.", prefix, (int)cl, rest);
            render(e, n, i, depth + 1, sub, out);
            for (int k = 0; k < depth; k++) buf_puts(out, "  ");
            buf_puts(out, "},\n");
        }
    }
}

static bool apply_set(imp_mctx *m, const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof ((imp_mentry *)0)->path) {
        fs_err_set(m->err, 2, "--set: '%s' is not PATH=VALUE", s);
        return false;
    }
    char path[96];
    snprintf(path, sizeof path, "%.*s", (int)(eq - s), s);
    const char *v = eq + 1;
    char *end;
    (void)!strtod(v, &end);
    bool bare = (end != v && !*end) || !strcmp(v, "true") || !strcmp(v, "false") || v[0] == '{' || v[0] == '"' ||
                !strncmp(v, "f.", 2);
    char q[1024];
    if (!bare) lua_str(q, sizeof q, v);
    imp_m_set(m, path, "--set", "%s", bare ? v : q);
    return true;
}

static bool map_run(imp_framework fw, const imp_cfg *c, const imp_opts *o, fs_buf *out, fs_err *err, bool *used);

bool imp_keys(imp_framework fw, const imp_cfg *c, const imp_opts *o, fs_buf *out, fs_err *err)
{
    bool *used = calloc(c->kv.len + 1, sizeof *used);
    fs_buf scratch;
    buf_init(&scratch);
    bool ok = used && map_run(fw, c, o, &scratch, err, used);
    imp_opts none;
    memset(&none, 0, sizeof none);
    imp_mctx m = {.fw = fw, .c = c, .o = &none, .err = err, .failed = false};
    const imp_kv *k = c->kv.data;
    for (size_t i = 0; ok && i < c->kv.len; i++) {
        const imp_keydef *d = imp_fw_key(fw, k[i].key);
        if (!used[i] || !d || d->cls != IMP_K_MAP) continue;
        char v[1024];
        if (!imp_m_get(&m, k[i].key, v, sizeof v, NULL, 0)) ok = false;
        else buf_printf(out, "%s=%s\n", k[i].key, v);
    }
    buf_free(&scratch);
    free(used);
    return ok;
}

bool imp_map(imp_framework fw, const imp_cfg *c, const imp_opts *o, fs_buf *out, fs_err *err)
{
    return map_run(fw, c, o, out, err, NULL);
}

static bool map_run(imp_framework fw, const imp_cfg *c, const imp_opts *o, fs_buf *out, fs_err *err, bool *used)
{
    imp_mctx m = {.fw = fw, .c = c, .o = o, .err = err, .failed = false, .used = used};
    vec_init(&m.out, sizeof(imp_mentry));
    buf_init(&m.perf);
    fs_buf noperf;
    buf_init(&noperf);
    bool ok = true;
    /* every key must be one the framework has */
    const imp_kv *k = c->kv.data;
    for (size_t i = 0; ok && i < c->kv.len; i++) {
        const imp_keydef *d = imp_fw_key(fw, k[i].key);
        const char *hint = d ? NULL : imp_fw_unknown_hint(fw, k[i].key);
        if (hint) {
            if (k[i].line) fs_err_set(err, 2, "%s:%d: %s: %s", k[i].file, k[i].line, k[i].key, hint);
            else fs_err_set(err, 2, "%s: %s: %s", k[i].file, k[i].key, hint);
            ok = false;
            break;
        }
        if (!d) {
            if (k[i].line) fs_err_set(err, 2, "%s:%d: %s: not a %s key fusync knows (%s)", k[i].file, k[i].line,
                                      k[i].key, imp_framework_name(fw), imp_fw_source(fw));
            else fs_err_set(err, 2, "%s: %s: not a %s key fusync knows (%s)", k[i].file, k[i].key,
                            imp_framework_name(fw), imp_fw_source(fw));
            ok = false;
            break;
        }
        const char *dflt = strchr(d->key, '*') ? NULL : d->dflt;
        bool at_default = dflt && !strcasecmp(dflt, k[i].value);
        const char *gate, *on;
        char gv[1024];
        if (d->cls == IMP_K_PERF && !at_default && imp_fw_gate(fw, k[i].key, &gate, &on)) {
            if (!imp_m_get(&m, gate, gv, sizeof gv, NULL, 0)) { ok = false; break; }
            /* verl: an absent strategy is Megatron's under --config-name=ppo_megatron_trainer, as imp_map_verl reads it */
            char cn[256];
            if (fw == IMP_VERL && !imp_cfg_get(c, gate) && imp_m_get(&m, "hydra.config_name", cn, sizeof cn, NULL, 0) &&
                strstr(cn, "megatron")) snprintf(gv, sizeof gv, "megatron");
            if (strcasecmp(gv, on)) {
                /* the backend is off: its settings reach nothing */
                buf_printf(&noperf, "--   %s (%s:%d)\n", k[i].key, k[i].file, k[i].line);
                continue;
            }
        }
        if (d->cls == IMP_K_PERF && !at_default)
            imp_m_warn(&m, "%s = %s (%s:%d): %s", k[i].key, k[i].value, k[i].file, k[i].line, d->note);
        else if (d->cls == IMP_K_NOPERF)
            buf_printf(&noperf, "--   %s (%s:%d)\n", k[i].key, k[i].file, k[i].line);
    }
    if (ok) {
        const char *dev = o->device ? o->device : "h100";
        const char *key = presets_device_key_of(dev);   /* "GB200", "A100-40G": the preset's key */
        if (!key) {
            fs_err_set(err, 2, "--device %s: not a device preset (fusync presets lists them)", dev);
            ok = false;
        } else {
            char why[160];
            if (!o->device) snprintf(why, sizeof why, "guess: no config names the accelerator; give --device");
            else if (strcmp(key, dev)) snprintf(why, sizeof why, "--device %s", dev);
            else snprintf(why, sizeof why, "--device");
            imp_m_set(&m, "cluster.device", why, "f.devices.%s", key);
        }
    }
    if (ok) {
        ok = fw == IMP_VERL ? imp_map_verl(&m) : fw == IMP_OPENRLHF ? imp_map_openrlhf(&m) : imp_map_nemo(&m);
        if (m.failed) ok = false;
    }
    if (ok) {
        if (o->host_mem_gb > 0) imp_m_set(&m, "cluster.host_mem_gb", "--host-mem", "%g", o->host_mem_gb);
        else imp_m_set(&m, "cluster.host_mem_gb", "guess: no config holds host memory; give --host-mem GB", "1024");
        imp_m_set(&m, "workload.iterations", "steps simulated (not the run's length)", "4");
        imp_m_set(&m, "workload.warmup", "the first step left out of the measured window", "1");
        for (int i = 0; ok && i < o->nsets; i++) ok = apply_set(&m, o->sets[i]);
    }
    if (ok) {
        /* the cluster section first: sort entries by their top-level component's rank */
        static const char *const order[] = {"name", "cluster.", "models.", "workload.", "plan.", "efficiency.", NULL};
        imp_mentry *e = m.out.data;
        fs_vec sorted;
        vec_init(&sorted, sizeof(imp_mentry));
        for (int r = 0; order[r]; r++)
            for (size_t i = 0; i < m.out.len; i++)
                if (!strncmp(e[i].path, order[r], strlen(order[r]))) *(imp_mentry *)vec_push(&sorted) = e[i];
        buf_printf(out, "-- Imported by `fusync import %s` from %s.\n", imp_framework_name(fw), o->inputs);
        buf_printf(out, "-- Keys the input leaves out take the framework's defaults: %s.\n", imp_fw_source(fw));
        buf_puts(out, "-- Each field names its source key; \"guess\" marks what no config holds.\n"
                      "-- The mapping rules and their sources: docs/frameworks.md.\n"
                      "local f = fusync\nreturn {\n");
        render(sorted.data, sorted.len, 0, 1, "", out);
        buf_puts(out, "}\n\n-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)\n");
        buf_puts(out, m.perf.len ? m.perf.s : "--   (none)\n");
        buf_puts(out, "-- Keys read that do not affect performance\n");
        buf_puts(out, noperf.len ? noperf.s : "--   (none)\n");
        vec_free(&sorted);
    }
    vec_free(&m.out);
    buf_free(&m.perf);
    buf_free(&noperf);
    return ok;
}
