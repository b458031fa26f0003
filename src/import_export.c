/*
** import_export.c — a scenario written back as a framework's settings: the
** reverse of import_verl.c, import_openrlhf.c and import_nemo.c (import.h,
** imp_export).
**
** The keys that map one-to-one are the rows of imp_fw_rules() (import_fw.c),
** read here field to key; the importer reads the same rows key to field.
** The rules that join several keys (mini-batches counted in prompts or
** samples, the length limits, the reference model, the pools) are written
** here as the inverse of the matching block of the mapping, which names
** this file.  What the framework cannot run is an error naming the field
** (code 2); what it has no knob for while the run stays valid is a comment.
** docs/frameworks.md, "Export", lists both.
*/
#include "import.h"
#include "import_fw.h"
#include "fields.h"
#include "plan.h"
#include "lua_scenario.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char key[160];
    char val[320];
} xkv;

typedef struct {
    imp_framework       fw;
    const scn_scenario *s;
    const char         *name;   /* the framework's name, for messages */
    fs_vec              kv;     /* xkv, in first-written order */
    fs_buf              notes;  /* comments: no knob, the run is still valid */
    fs_err             *err;
} xctx;

static void put(xctx *x, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(xctx *x, const char *key, const char *fmt, ...)
{
    xkv *e = NULL, *all = x->kv.data;
    for (size_t i = 0; i < x->kv.len; i++) if (!strcmp(all[i].key, key)) e = &all[i];
    if (!e) {
        e = vec_push(&x->kv);
        snprintf(e->key, sizeof e->key, "%s", key);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->val, sizeof e->val, fmt, ap);
    va_end(ap);
}

static void note(xctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(xctx *x, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* one line a fact: two roles of one pool (actor and ref) may say the same */
    size_t n = strlen(line);
    for (const char *p = x->notes.s; p && (p = strstr(p, line)) != NULL; p += n)
        if ((p == x->notes.s || p[-1] == '\n') && p[n] == '\n') return;
    buf_printf(&x->notes, "%s\n", line);
}

static bool fail(xctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(xctx *x, const char *fmt, ...)
{
    char line[sizeof x->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fs_err_set(x->err, 2, "%s", line);
    return false;
}

static const char *tf(bool b) { return b ? "true" : "false"; }

static int total_devices(const scn_scenario *s) { return scn_total_devices(&s->cluster); }

/* A scenario field by its path, in the file's unit (fields.h). */
static bool field_num(xctx *x, const char *path, double *v, const fdesc **rowp)
{
    if (!strcmp(path, "cluster.nodes")) {   /* a cluster of supernodes has nodes 0: count them */
        *v = (double)total_devices(x->s) / x->s->cluster.devices_per_node;
        if (rowp) *rowp = NULL;
        return true;
    }
    const fdesc *row;
    void *p = fields_path_member(path, (scn_scenario *)x->s, &row);
    if (!p) return fail(x, "export: no scenario field %s (the rule table and fields.h disagree)", path);
    double d = fields_get_num(row, (const char *)p - row->off);
    if (row->kind == FK_NUM && row->scale > 0) d /= row->scale;
    *v = d;
    if (rowp) *rowp = row;
    return true;
}

/* verl's actor param_offload is the before-reshard order (import_verl.c verl_param_offload); the other order has
** no key in verl */
static bool verl_params(xctx *x, const char *key)
{
    scn_param_offload po = x->s->plan.offload_params;
    put(x, key, "%s", tf(po != PARAMS_RESIDENT));
    if (po == PARAMS_AFTER_RESHARD)
        note(x, "plan.offload.params = \"after_reshard\": verl offloads the actor's parameters before the engine "
                "wakes; written param_offload true");
    return true;
}

/* The rows of imp_fw_rules() whose guard is g, field to key. */
static bool rules(xctx *x, imp_guard g)
{
    for (const imp_rule *r = imp_fw_rules(x->fw); r->key; r++) {
        if (r->guard != g) continue;
        double v = 0;
        if (!field_num(x, r->field, &v, NULL)) return false;
        switch (r->conv) {
        case IMP_C_NUM:
            if ((r->flags & IMP_R_NULL) && v == 0) put(x, r->key, "null");
            else put(x, r->key, "%.15g", v);
            break;
        case IMP_C_BOOL: put(x, r->key, "%s", tf(v != 0)); break;
        case IMP_C_SHARD: put(x, r->key, "%.15g", v == 0 ? -1 : v); break;
        case IMP_C_ZERO1:
            if (v != 0 && v != 1)
                return fail(x, "%s = %g: %s's Megatron backend has a distributed optimizer (ZeRO-1, %s true) or none "
                            "(0); no other ZeRO stage", r->field, v, x->name, r->key);
            put(x, r->key, "%s", tf(v == 1));
            break;
        case IMP_C_RECOMP:
            if ((int)v == RECOMPUTE_SELECTIVE)
                return fail(x, "%s = \"selective\": %s's %s is on (full) or off; selective recompute is not one of "
                            "its settings", r->field, x->name, r->key);
            put(x, r->key, "%s", tf((int)v == RECOMPUTE_FULL));
            break;
        case IMP_C_FP32: put(x, r->key, "%s", tf((int)v == GRAD_FP32)); break;
        case IMP_C_SHARE:
            if (v != 0 && v != 1)
                return fail(x, "%s = %g: %s's %s holds all of the optimizer on the host (1) or none (0); no share "
                            "between", r->field, v, x->name, r->key);
            put(x, r->key, "%s", tf(v == 1));
            break;
        case IMP_C_PACK: put(x, r->key, "%s", tf((int)v == PAD_NONE)); break;
        case IMP_C_NOT: put(x, r->key, "%s", tf(v == 0)); break;
        case IMP_C_AUXOFF:
            put(x, r->key, "%s", tf((int)v == AUX_OFFLOAD_HOST || ((int)v == AUX_OFFLOAD_AUTO && x->s->plan.mode == MODE_FULL)));
            break;
        case IMP_C_DISP:
            put(x, r->key, "%s", (int)v == MOE_DISP_ALLGATHER ? "allgather" : (int)v == MOE_DISP_FLEX ? "flex" : "alltoall");
            break;
        }
    }
    return true;
}

/* The longest prompt the scenario draws: the framework's prompt limit. */
static bool prompt_cap(xctx *x, double *cap)
{
    const scn_dist *d = &x->s->work.prompt_len;
    switch (d->kind) {
    case DIST_FIXED: *cap = d->a; break;
    case DIST_UNIFORM: *cap = d->b; break;
    case DIST_LOGNORMAL: *cap = d->cap; break;
    case DIST_HIST: *cap = d->nbins > 0 ? d->edge[d->nbins] : 0; break;
    }
    if (d->cap > 0 && d->cap < *cap) *cap = d->cap;
    if (!(*cap >= 1))
        return fail(x, "workload.prompt_len has no longest prompt (a lognormal without cap): %s's prompt limit "
                    "needs one; give it a cap", x->name);
    *cap = ceil(*cap);
    return true;
}

/* Samples of one optimizer step: the step's samples over its mini-batches. */
static bool per_minibatch(xctx *x, double unit, double *out, const char *key, const char *counts)
{
    const scn_workload *w = &x->s->work;
    double samples = (double)scn_prompts_per_step(x->s) * w->samples_per_prompt;
    double per = samples / w->minibatches / unit;
    if (w->minibatches < 1 || per != floor(per))
        return fail(x, "workload.minibatches = %d: %s counts %s, and %g samples a step are not %d whole mini-batches "
                    "of them", w->minibatches, key, counts, samples, w->minibatches);
    *out = per;
    return true;
}

/* Common checks: what none of the three frameworks can run. */
static bool common(xctx *x)
{
    const scn_scenario *s = x->s;
    if (s->plan.partial_rollout < 1)
        return fail(x, "plan.partial_rollout = %g: %s has no setting that ends a step at a share of its samples",
                    s->plan.partial_rollout, x->name);
    if (s->plan.mode == MODE_COLOCATE)
        return fail(x, "plan.mode = \"colocate\": %s shares all GPUs (hybrid engine) or runs separate pools; it has "
                    "no co-located pair with an auxiliary pool", x->name);
    if (s->work.batch_per_supernode)
        return fail(x, "workload.batch_per_supernode = true: %s's batch counts the whole run's prompts", x->name);
    if (s->plan.policy[0])
        note(x, "plan.policy = %s: a placement policy's plan is not exported; this is the scenario's own plan",
             s->plan.policy);
    if (s->plan.controller != CTRL_DRIVER)
        note(x, "plan.controller = \"queue\": %s gathers each step's batch in its driver; there is no queue to choose",
             x->name);
    if (!s->work.recompute_logprob)
        note(x, "workload.recompute_logprob = false: %s always recomputes the old log-probs", x->name);
    if (s->plan.rollout.spec_tokens > 0)
        note(x, "plan.rollout.spec_tokens = %d: speculative decoding is not exported", s->plan.rollout.spec_tokens);
    return true;
}

/* A pool's devices as nodes x GPUs a node (OpenRLHF's num_nodes, num_gpus_per_node).  OpenRLHF asks Ray for
** num_nodes x num_gpus_per_node one-GPU bundles packed (openrlhf/trainer/ray/launcher.py, PPORayActorGroup:
** placement_group(bundles, strategy="PACK"), OpenRLHF 3c3be623), so only the product places the group: a pool
** that is not whole nodes is written with the largest GPUs a "node" at most devices_per_node that divide it. */
static bool nodes_x_gpus(xctx *x, const char *role, int devices, const char *why)
{
    int gpn = x->s->cluster.devices_per_node;
    char k1[64], k2[64];
    snprintf(k1, sizeof k1, "%s.num_nodes", role);
    snprintf(k2, sizeof k2, "%s.num_gpus_per_node", role);
    if (devices <= gpn) { put(x, k1, "1"); put(x, k2, "%d", devices); return true; }
    int g = gpn;
    while (devices % g) g--;
    if (g < gpn)
        note(x, "%s: %d devices are not whole nodes of %d; written as %d x %d, the GPUs OpenRLHF's packed placement "
             "group asks for (Ray may lay them out differently from the plan's ranges)", why, devices, gpn,
             devices / g, g);
    put(x, k1, "%d", devices / g);
    put(x, k2, "%d", g);
    return true;
}

/* ------------------------------------------------------------------ verl */

/* The log-prob forwards' token budget as plan_logprob_act reads it: logprob_tokens, else the training budget when
** no logprob_batch is given; 0: a fixed number of sequences. */
static int logprob_budget(const scn_train_layout *t)
{
    if (t->logprob_tokens > 0) return t->logprob_tokens;
    return t->max_tokens > 0 && t->logprob_batch <= 0 ? t->max_tokens : 0;
}

/* What verl and OpenRLHF have no key for: the eager log-softmax, the chunked one, the unsharded pass (NeMo RL's). */
static void logprob_notes(xctx *x, const scn_train_layout *t, const char *fp32)
{
    if (t->logits == LOGITS_EAGER) note(x, "plan.train.logits = \"eager\": %s; no key chooses eager copies", fp32);
    if (t->logprob_chunk > 0) note(x, "plan.train.logprob_chunk = %d: no key chunks the log-softmax", t->logprob_chunk);
    if (t->logprob_unshard) note(x, "plan.train.logprob_unshard = true: the log-prob passes gather a layer at a time; "
                                 "no key gathers the whole model");
}

static bool ex_verl(xctx *x)
{
    const scn_scenario *s = x->s;
    const scn_plan *p = &s->plan;
    bool ppo = s->work.algo == ALGO_PPO;
    /* import_verl.c imp_map_verl, in its order */
    put(x, "algorithm.adv_estimator", "%s", ppo ? "gae" : "grpo");
    if (!rules(x, IMP_G_ALL)) return false;
    put(x, "actor_rollout_ref.model.path", "%s", s->actor.name);
    /* need_reference_policy: GRPO recipes put the KL in the loss, PPO ones in the reward */
    put(x, "actor_rollout_ref.actor.use_kl_loss", "%s", tf(s->has_ref && !ppo));
    put(x, "algorithm.use_kl_in_reward", "%s", tf(s->has_ref && ppo));
    if (ppo) put(x, "critic.model.path", "%s", s->critic.name);
    put(x, "reward_model.enable", "%s", tf(s->reward_is_model));
    if (s->reward_is_model) put(x, "reward_model.model.path", "%s", s->reward.name);
    double mini;
    if (!per_minibatch(x, s->work.samples_per_prompt, &mini, "actor_rollout_ref.actor.ppo_mini_batch_size", "prompts"))
        return false;
    put(x, "actor_rollout_ref.actor.ppo_mini_batch_size", "%g", mini);
    double cap;
    if (!prompt_cap(x, &cap)) return false;
    put(x, "data.max_prompt_length", "%g", cap);
    put(x, "data.max_response_length", "%d", s->work.max_response);
    /* vLLM's max_model_len as import_verl.c verl_max_model_len reads it: null is the model's
    ** max_position_embeddings; 0 (the prompt's cap + max_response) is written as that sum */
    int mml = p->rollout.max_model_len, pos = s->actor.max_positions;
    if (mml > 0 && mml == pos) put(x, "actor_rollout_ref.rollout.max_model_len", "null");
    else if (mml == 0) put(x, "actor_rollout_ref.rollout.max_model_len", "%g", cap + s->work.max_response);
    /* the chunked prefill's budget as import_verl.c verl_batched_tokens reads it (0: none) */
    put(x, "actor_rollout_ref.rollout.enable_chunked_prefill", "%s", tf(p->rollout.max_batched_tokens > 0));
    if (p->rollout.max_batched_tokens > 0)
        put(x, "actor_rollout_ref.rollout.max_num_batched_tokens", "%d", p->rollout.max_batched_tokens);
    if (p->mode != MODE_FULL || p->npools > 0)
        return fail(x, "plan.mode = \"%s\"%s: verl's main_ppo trainer runs the hybrid engine "
                    "(actor_rollout_ref.hybrid_engine true, every GPU shared); separate pools are not one of its "
                    "settings", scn_mode_name(p->mode), p->npools ? " with plan.pools" : "");
    put(x, "actor_rollout_ref.hybrid_engine", "true");
    /* the engine's sleep, as import_verl.c imp_map_verl reads it: level 2 by default, level 1 under layered_summon */
    put(x, "actor_rollout_ref.rollout.free_cache_engine", "%s", tf(p->rollout.sleep != SLEEP_NONE));
    if (p->rollout.sleep == SLEEP_OFFLOAD) put(x, "actor_rollout_ref.rollout.layered_summon", "true");
    if (p->staleness > 0)
        return fail(x, "plan.staleness = %d: verl's main_ppo trainer is synchronous (no staleness bound)", p->staleness);
    if (p->reward_workers == 1) put(x, "reward_model.reward_manager", "naive");
    else {
        put(x, "reward_model.reward_manager", "prime");
        if (p->reward_workers != 64)
            note(x, "plan.reward_workers = %d: verl scores in the driver (naive, 1) or in the prime manager's pool of "
                    "64; written prime", p->reward_workers);
    }
    const scn_train_layout *t = &p->train;
    if (t->zero == 3) {
        put(x, "actor_rollout_ref.actor.strategy", "fsdp");
        if (ppo) put(x, "critic.strategy", "fsdp");
        if (t->pp > 1)
            return fail(x, "plan.train.pp = %d with plan.train.zero = 3: verl's FSDP backend has no pipeline "
                        "parallelism (Megatron's does, with ZeRO 0 or 1)", t->pp);
        if (t->tp > 1)
            return fail(x, "plan.train.tp = %d with plan.train.zero = 3: verl's FSDP backend has no tensor parallelism "
                        "for training (Megatron's does, with ZeRO 0 or 1)", t->tp);
        if (t->ep > 1)
            return fail(x, "plan.train.ep = %d with plan.train.zero = 3: verl's FSDP backend has no expert "
                        "parallelism (Megatron's does, with ZeRO 0 or 1)", t->ep);
        if (t->cp > 1 && t->cp_kind != CP_ULYSSES)
            return fail(x, "plan.train.cp = %d with cp_kind \"ring\": verl's FSDP backend splits sequences by Ulysses "
                        "only (ulysses_sequence_parallel_size)", t->cp);
        put(x, "actor_rollout_ref.actor.ulysses_sequence_parallel_size", "%d", t->cp > 1 ? t->cp : 1);
        if (!rules(x, IMP_G_FSDP)) return false;
        if (!verl_params(x, "actor_rollout_ref.actor.fsdp_config.param_offload")) return false;
        /* the whole-run host optimizer is FSDP2's CPUOffloadPolicy (import_verl.c imp_map_verl) */
        if (t->optimizer_offload != 0 && t->optimizer_offload != 1)
            return fail(x, "plan.train.optimizer_offload = %g: verl's FSDP2 offload_policy holds all of the optimizer "
                        "on the host or none (Megatron's optimizer_offload_fraction takes a share)", t->optimizer_offload);
        if (t->optimizer_offload == 1) {
            put(x, "actor_rollout_ref.actor.strategy", "fsdp2");
            if (ppo) put(x, "critic.strategy", "fsdp2");
        }
        put(x, "actor_rollout_ref.actor.fsdp_config.offload_policy", "%s", tf(t->optimizer_offload == 1));
        /* PEFT's LoRA (import_map.c imp_m_lora) */
        put(x, "actor_rollout_ref.model.lora_rank", "%d", t->lora_rank);
        if (t->lora_rank > 0)
            put(x, "actor_rollout_ref.model.target_modules", "%s",
                t->lora_targets == LORA_ATTENTION ? "[q_proj,k_proj,v_proj,o_proj]" : "all-linear");
    } else {
        if (t->zero == 2)
            return fail(x, "plan.train.zero = 2: verl runs FSDP (ZeRO-3) or Megatron with a distributed optimizer "
                        "(ZeRO-1) or none (0)");
        put(x, "hydra.config_name", "ppo_megatron_trainer");
        put(x, "actor_rollout_ref.actor.strategy", "megatron");
        if (ppo) put(x, "critic.strategy", "megatron");
        if (t->cp > 1 && t->cp_kind != CP_RING)
            return fail(x, "plan.train.cp = %d with cp_kind \"ulysses\": Megatron's context parallelism is ring "
                        "attention", t->cp);
        if (!rules(x, IMP_G_MEGATRON)) return false;
        if (!verl_params(x, "actor_rollout_ref.actor.megatron.param_offload")) return false;
        put(x, "actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity", "%s",
            t->recompute == RECOMPUTE_NONE ? "null" : t->recompute == RECOMPUTE_SELECTIVE ? "selective" : "full");
        /* Megatron's split with the embedding and the loss as layers; not in verl's config: Hydra adds them with
        ** '+', as verl's run_qwen3-235b_megatron_96gb.sh does */
        if (t->pp_embedding_layer)
            put(x, "+actor_rollout_ref.actor.megatron.override_transformer_config.account_for_embedding_in_pipeline_split",
                "True");
        if (t->pp_loss_layer)
            put(x, "+actor_rollout_ref.actor.megatron.override_transformer_config.account_for_loss_in_pipeline_split",
                "True");
        if (t->optimizer_offload > 0) {
            /* not in verl's optimizer config: Hydra adds them with '+' */
            put(x, "+actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload", "true");
            put(x, "+actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_offload_fraction", "%g",
                t->optimizer_offload);
        }
        if (t->padding != PAD_NONE)
            note(x, "plan.train.padding = \"longest\": verl's Megatron backend packs sequences; written packed");
        /* FP8 training (docs/model.md, section 7): imp_m_train_precision
        ** inverted; not in verl's generated config, so added with '+' */
        if (t->precision == DTYPE_FP8) {
            static const char *const rn[] = {"delayed", "tensorwise", "blockwise"};
            put(x, "+actor_rollout_ref.actor.megatron.override_transformer_config.fp8", "e4m3");
            put(x, "+actor_rollout_ref.actor.megatron.override_transformer_config.fp8_recipe", "%s", rn[t->fp8_recipe]);
            if (t->fp8_param) put(x, "+actor_rollout_ref.actor.megatron.override_transformer_config.fp8_param", "True");
        }
        put(x, "actor_rollout_ref.model.lora.rank", "%d", t->lora_rank);
        if (t->lora_rank > 0)
            put(x, "actor_rollout_ref.model.lora.target_modules", "%s",
                t->lora_targets == LORA_ATTENTION ? "[linear_qkv,linear_proj]" : "[linear_qkv,linear_proj,linear_fc1,linear_fc2]");
    }
    put(x, "actor_rollout_ref.actor.use_dynamic_bsz", "%s", tf(t->max_tokens > 0));
    if (t->max_tokens > 0) put(x, "actor_rollout_ref.actor.ppo_max_token_len_per_gpu", "%d", t->max_tokens);
    put(x, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", "%d", t->micro_batch);
    put(x, "actor_rollout_ref.actor.ppo_micro_batch_size", "null");   /* the deprecated global form: the per-GPU one */
    /* the log-prob passes' batches, both passes alike (import_verl.c verl_logprob) */
    int lt = logprob_budget(t);
    for (int i = 0; i < 2; i++) {
        const char *w = i ? "actor_rollout_ref.ref" : "actor_rollout_ref.rollout";
        char k[96];
        snprintf(k, sizeof k, "%s.log_prob_use_dynamic_bsz", w);
        put(x, k, "%s", tf(lt > 0));
        if (lt > 0) {
            snprintf(k, sizeof k, "%s.log_prob_max_token_len_per_gpu", w);
            put(x, k, "%d", lt);
        } else {
            snprintf(k, sizeof k, "%s.log_prob_micro_batch_size_per_gpu", w);
            put(x, k, "%d", t->logprob_batch > 0 ? t->logprob_batch : t->micro_batch);
        }
    }
    logprob_notes(x, t, "verl's log-probs are one FP32 pass over the logits (logprobs_from_logits)");
    /* the entropy over the logits: import_verl.c verl_entropy inverted; the coefficient is not kept */
    put(x, "actor_rollout_ref.actor.entropy_coeff", "%s", t->entropy_loss ? "0.001" : "0");
    if (t->entropy_loss) note(x, "plan.train.entropy_loss = true: written as entropy_coeff=0.001 (fusync keeps no coefficient)");
    if (t->zero == 3) {
        put(x, "actor_rollout_ref.actor.entropy_from_logits_with_chunking", "%s", tf(t->entropy == ENTROPY_CHUNKED));
        put(x, "actor_rollout_ref.actor.use_torch_compile", "%s",
            tf(t->entropy != ENTROPY_EAGER || t->padding != PAD_NONE));
        if (t->entropy == ENTROPY_CHUNKED && t->padding != PAD_NONE)
            note(x, "plan.train.entropy = \"chunked\" with padding: verl's padded path does not chunk the entropy");
    }
    /* FP8 rollouts (docs/model.md, section 5): imp_m_rollout_precision inverted */
    if (p->rollout.weights_dtype == DTYPE_FP8) put(x, "actor_rollout_ref.rollout.quantization", "fp8");
    if (p->rollout.kv_dtype == DTYPE_FP8) put(x, "+actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_dtype", "fp8");
    /* vLLM's kv_cache_memory_bytes: imp_m_kv_cache_bytes inverted */
    if (p->rollout.kv_cache_bytes > 0)
        put(x, "+actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_memory_bytes", "%.0f", p->rollout.kv_cache_bytes);
    return true;
}

/* -------------------------------------------------------------- OpenRLHF */

static bool ex_openrlhf(xctx *x)
{
    const scn_scenario *s = x->s;
    const scn_plan *p = &s->plan;
    const scn_train_layout *t = &p->train;
    bool ppo = s->work.algo == ALGO_PPO;
    if (!rules(x, IMP_G_ALL)) return false;
    put(x, "actor.model_name_or_path", "%s", s->actor.name);
    /* a reference model when init_coef > 0 (train_ppo_ray.py); the coefficient is not a scenario field */
    put(x, "algo.kl.init_coef", "%s", s->has_ref ? "0.01" : "0");
    if (s->has_ref) note(x, "algo.kl.init_coef = 0.01 is OpenRLHF's default: the KL coefficient does not change the "
                            "time of a step, so a scenario does not hold it");
    put(x, "algo.advantage.estimator", "%s", ppo ? "gae" : "group_norm");
    if (s->reward_is_model) put(x, "reward.model_name_or_path", "%s", s->reward.name);
    else note(x, "models.reward = \"rule\": give OpenRLHF the rule as --reward.remote_url or a reward function");
    if (ppo) put(x, "critic.model_name_or_path", "%s", s->critic.name);
    if (p->rollout.weights_dtype == DTYPE_FP8 || p->rollout.kv_dtype == DTYPE_FP8)
        note(x, "plan.rollout.weights_dtype / kv_dtype = \"fp8\": OpenRLHF's train_ppo_ray.py has no option for an "
                "FP8 rollout engine; the command generates in BF16");
    if (p->train.precision == DTYPE_FP8)
        note(x, "plan.train.precision = \"fp8\": OpenRLHF's train_ppo_ray.py trains with DeepSpeed in BF16 and has no "
                "option for Transformer Engine's FP8; the command trains in BF16");
    double tb;
    if (!per_minibatch(x, 1, &tb, "train.batch_size", "samples")) return false;
    put(x, "train.batch_size", "%g", tb);
    double cap;
    if (!prompt_cap(x, &cap)) return false;
    /* data.max_len caps prompt + response and is vLLM's max_model_len too (train_ppo_ray.py); the
    ** importer takes a quarter of it for the prompt.  OpenRLHF has one value for both: a set
    ** plan.rollout.max_model_len is written, and a workload cap that differs from it is said */
    double mml = p->rollout.max_model_len > 0 ? p->rollout.max_model_len : cap + s->work.max_response;
    if (mml != cap + s->work.max_response)
        note(x, "plan.rollout.max_model_len = %g and the workload's prompt cap + max_response = %g: OpenRLHF's "
                "data.max_len is both, the command gives it %g", mml, cap + s->work.max_response, mml);
    put(x, "data.max_len", "%g", mml);
    put(x, "rollout.max_new_tokens", "%d", s->work.max_response);
    if (t->pp > 1) return fail(x, "plan.train.pp = %d: OpenRLHF's DeepSpeed training has no pipeline stages", t->pp);
    if (t->ep > 1) return fail(x, "plan.train.ep = %d: OpenRLHF's DeepSpeed training has no expert parallelism", t->ep);
    if (t->cp > 1) {
        if (t->cp_kind != CP_RING)
            return fail(x, "plan.train.cp = %d with cp_kind \"ulysses\": OpenRLHF splits sequences by ring attention "
                        "(ds.ring_attn_size) only", t->cp);
        put(x, "ds.ring_attn_size", "%d", t->cp);
    }
    put(x, "train.micro_batch_size", "%d", t->micro_batch);
    /* the entropy: import_openrlhf.c inverted; the coefficient is not kept */
    if (t->entropy_loss) {
        put(x, "actor.entropy_coef", "0.001");
        note(x, "plan.train.entropy_loss = true: written as --actor.entropy_coef 0.001 (fusync keeps no coefficient)");
        if (t->entropy != ENTROPY_COMPILED_FP32)
            note(x, "plan.train.entropy = %s: OpenRLHF's entropy is compiled over FP32 logits",
                 t->entropy == ENTROPY_EAGER ? "eager" : t->entropy == ENTROPY_CHUNKED ? "chunked" : "compiled");
    }
    put(x, "ds.lora.rank", "%d", t->lora_rank);
    if (t->lora_rank > 0)
        put(x, "ds.lora.target_modules", "%s", t->lora_targets == LORA_ATTENTION ? "q_proj k_proj v_proj o_proj" : "all-linear");
    if (t->max_tokens > 0) {
        put(x, "train.dynamic_batch_enable", "true");
        put(x, "train.max_tokens_per_gpu", "%d", t->max_tokens);
        /* the experience forwards' budget (import_openrlhf.c imp_map_openrlhf) */
        put(x, "rollout.max_tokens_per_gpu", "%d", logprob_budget(t) > 0 ? logprob_budget(t) : t->max_tokens);
        if (t->logprob_batch > 0 && t->logprob_tokens <= 0)
            note(x, "plan.train.logprob_batch = %d: under dynamic batching OpenRLHF's experience forwards take a token "
                    "budget; written train.max_tokens_per_gpu", t->logprob_batch);
    } else {
        put(x, "rollout.micro_batch_size", "%d", t->logprob_batch > 0 ? t->logprob_batch : t->micro_batch);
        if (t->logprob_tokens > 0)
            note(x, "plan.train.logprob_tokens = %d: OpenRLHF's experience forwards take a token budget only under "
                    "dynamic batching; written as rollout.micro_batch_size", t->logprob_tokens);
    }
    logprob_notes(x, t, "OpenRLHF's log_probs_from_logits takes the log-softmax row by row");
    if (p->staleness > 0) {
        put(x, "train.async_enable", "true");
        put(x, "train.async_queue_size", "%d", p->staleness);
        if (p->on_update == ONUPD_CONTINUE) put(x, "train.partial_rollout_enable", "true");
    }
    if (p->rollout.max_seqs != 256)
        note(x, "plan.rollout.max_seqs = %d: OpenRLHF leaves vLLM's max_num_seqs at its default (256)", p->rollout.max_seqs);
    int total = total_devices(s), tp = p->rollout.tp > p->rollout.ep ? p->rollout.tp : p->rollout.ep;
    if (p->mode == MODE_FULL && p->npools == 0) {
        put(x, "train.colocate_all", "true");
        if (total % tp) return fail(x, "plan.rollout.tp = %d: %d devices are not whole vLLM engines", tp, total);
        put(x, "vllm.num_engines", "%d", total / tp);
        const char *roles[] = {"actor", s->has_ref ? "ref" : NULL, s->reward_is_model ? "reward" : NULL,
                               ppo ? "critic" : NULL};
        for (int i = 0; i < 4; i++)
            if (roles[i] && !nodes_x_gpus(x, roles[i], total, "plan.mode = \"full\"")) return false;
        /* OpenRLHF's engines sleep at level 1 or not at all (import_openrlhf.c imp_map_openrlhf) */
        put(x, "vllm.enable_sleep", "%s", tf(p->rollout.sleep != SLEEP_NONE));
        if (p->rollout.sleep == SLEEP_DISCARD)
            note(x, "plan.rollout.sleep = \"discard\": OpenRLHF's vLLM sleeps at level 1 (weights to host memory); "
                    "written enable_sleep true");
        put(x, "ds.enable_sleep", "%s", tf(p->offload_optimizer));
        /* the frozen models' place (import_openrlhf.c): "auto" is the host under full co-location */
        bool aux_host = p->offload_aux != AUX_OFFLOAD_DEVICE;
        if (s->has_ref && aux_host) put(x, "ref.offload", "true");
        if (s->reward_is_model && aux_host) put(x, "reward.offload", "true");
        if (p->offload_grads != p->offload_optimizer)
            note(x, "plan.offload.grads = %s: DeepSpeed's sleep mode offloads gradients with the optimizer states",
                 tf(p->offload_grads));
        return true;
    }
    /* separate pools: Ray placement groups, one a role (import_openrlhf.c imp_map_openrlhf) */
    plan *pl = malloc(sizeof *pl);
    if (!pl) return fail(x, "export: out of memory");
    fs_err e = {0, ""};
    bool ok = plan_build(s, pl, &e);
    if (!ok) { fail(x, "%s", e.msg); free(pl); return false; }
    int rollout = -1, train = -1, ref = -1, reward = -1, used = 0;
    for (int i = 0; i < pl->npools && ok; i++) {
        const plan_pool *q = &pl->pools[i];
        used += q->devices;
        if (q->roles & ROLE_ROLLOUT) {
            if (q->roles != ROLE_ROLLOUT || rollout >= 0)
                ok = fail(x, "plan.pools: pool %s generates and %s: OpenRLHF's vLLM engines have GPUs of their own "
                          "unless every role shares them (colocate_all)", q->name, "trains or scores");
            rollout = i;
        }
        if (q->roles & ROLE_TRAIN) train = i;
        if (q->roles & ROLE_REF) ref = i;
        if (q->roles & ROLE_REWARD) reward = i;
    }
    if (ok && (rollout < 0 || train < 0)) ok = fail(x, "plan.pools: OpenRLHF needs a vLLM pool and an actor pool");
    if (ok) {
        const plan_pool *qr = &pl->pools[rollout], *qt = &pl->pools[train];
        if (qr->devices % tp) ok = fail(x, "plan.rollout.tp = %d: pool %s's %d devices are not whole vLLM engines", tp,
                                        qr->name, qr->devices);
        else put(x, "vllm.num_engines", "%d", qr->devices / tp);
        ok = ok && nodes_x_gpus(x, "actor", qt->devices, "the actor pool");
        if (ok && s->has_ref) {
            if (ref == train) {
                put(x, "train.colocate_actor_ref", "true");
                ok = nodes_x_gpus(x, "ref", qt->devices, "the actor pool");
            } else if (pl->pools[ref].roles != ROLE_REF)
                ok = fail(x, "plan.pools: pool %s holds the reference with other roles; OpenRLHF runs it with the "
                          "actor (colocate_actor_ref) or on GPUs of its own", pl->pools[ref].name);
            else ok = nodes_x_gpus(x, "ref", pl->pools[ref].devices, "the reference pool");
        }
        bool crit_put = false;      /* the critic's GPUs given with the reward model's */
        if (ok && s->reward_is_model) {
            const plan_pool *qw = &pl->pools[reward];
            if (reward == train || (qw->roles & ~(unsigned)(ROLE_REWARD | ROLE_CRITIC)))
                ok = fail(x, "plan.pools: pool %s holds the reward model with %s; OpenRLHF runs it on GPUs of its own "
                          "or with the critic (colocate_critic_reward)", qw->name, "the actor or the reference");
            else if (ppo && ((qw->roles & ROLE_CRITIC) || pl->critic_pool < 0)) {
                crit_put = true;
                put(x, "train.colocate_critic_reward", "true");
                ok = nodes_x_gpus(x, "reward", qw->devices, "the reward pool") &&
                     nodes_x_gpus(x, "critic", qw->devices, "the reward pool");
            } else ok = nodes_x_gpus(x, "reward", qw->devices, "the reward pool");
        }
        if (ok && ppo && !crit_put) {
            /* the critic's own pool, else (the critic on the actor's pool)
            ** OpenRLHF gives it the GPUs left over */
            int left = total - used;
            for (int i = 0; i < pl->npools; i++)
                if (i == pl->critic_pool) left = pl->pools[i].devices;
            if (left <= 0)
                ok = fail(x, "plan.pools: OpenRLHF trains the critic on GPUs of its own and the pools leave none of "
                          "the %d devices", total);
            else ok = nodes_x_gpus(x, "critic", left, "the devices no pool holds");
        }
        if (ok && !ppo && used < total)
            note(x, "%d of the %d devices are in no pool: OpenRLHF does not use them", total - used, total);
    }
    free(pl);
    return ok;
}

/* --------------------------------------------------------------- NeMo RL */

static bool ex_nemo(xctx *x)
{
    const scn_scenario *s = x->s;
    const scn_plan *p = &s->plan;
    const scn_train_layout *t = &p->train;
    if (s->work.algo == ALGO_PPO)
        return fail(x, "workload.algorithm = \"ppo\": NeMo RL's grpo_train has no critic");
    if (s->reward_is_model)
        return fail(x, "models.reward: NeMo RL's GRPO scores samples in an environment (env), not a reward model on "
                    "the GPUs");
    if (s->work.epochs != 1)
        return fail(x, "workload.epochs = %d: NeMo RL trains each step's samples once", s->work.epochs);
    if (!rules(x, IMP_G_ALL)) return false;
    put(x, "policy.model_name", "%s", s->actor.name);
    /* reference log-probs are computed when the penalty is not 0; its value is not a scenario field */
    put(x, "loss_fn.reference_policy_kl_penalty", "%s", s->has_ref ? "0.01" : "0");
    if (s->has_ref) note(x, "loss_fn.reference_policy_kl_penalty = 0.01 is NeMo RL's default: the coefficient does "
                            "not change the time of a step, so a scenario does not hold it");
    double gbs;
    if (!per_minibatch(x, 1, &gbs, "policy.train_global_batch_size", "samples")) return false;
    put(x, "policy.train_global_batch_size", "%g", gbs);
    double cap;
    if (!prompt_cap(x, &cap)) return false;
    /* max_total_sequence_length caps prompt + response; generation runs to it (max_new_tokens, the base's value) */
    put(x, "policy.max_total_sequence_length", "%g", cap + s->work.max_response);
    put(x, "policy.generation.max_new_tokens", "%g", cap + s->work.max_response);
    /* vLLM's max_model_len: the same cap, or plan.rollout.max_model_len
    ** where it is set (import_nemo.c reads it back) */
    put(x, "policy.generation.vllm_cfg.max_model_len", "%g",
        s->plan.rollout.max_model_len > 0 ? (double)s->plan.rollout.max_model_len : cap + s->work.max_response);
    /* FP8 rollouts (docs/model.md, section 5): NeMo RL's init_fp8 refuses an
    ** FP8 KV cache without FP8 weights (nemo_rl/models/generation/vllm/quantization/fp8.py) */
    if (p->rollout.kv_dtype == DTYPE_FP8 && p->rollout.weights_dtype != DTYPE_FP8)
        return fail(x, "plan.rollout.kv_dtype = \"fp8\": NeMo RL takes an FP8 KV cache only with FP8 weights "
                    "(vllm_cfg.precision: fp8); set plan.rollout.weights_dtype = \"fp8\" too");
    if (p->rollout.weights_dtype == DTYPE_FP8) put(x, "policy.generation.vllm_cfg.precision", "fp8");
    if (p->rollout.kv_dtype == DTYPE_FP8) put(x, "policy.generation.vllm_cfg.kv_cache_dtype", "fp8");
    /* vLLM's kv_cache_memory_bytes: imp_m_kv_cache_bytes inverted */
    if (p->rollout.kv_cache_bytes > 0)
        put(x, "policy.generation.vllm_kwargs.kv_cache_memory_bytes", "%.0f", p->rollout.kv_cache_bytes);
    if (t->zero == 3) {
        if (t->pp > 1)
            return fail(x, "plan.train.pp = %d with plan.train.zero = 3: NeMo RL's DTensor backend has no pipeline "
                        "parallelism (its Megatron backend does, with ZeRO 0 or 1)", t->pp);
        if (t->ep > 1)
            return fail(x, "plan.train.ep = %d with plan.train.zero = 3: NeMo RL's DTensor backend has no expert "
                        "parallelism (its Megatron backend does, with ZeRO 0 or 1)", t->ep);
        put(x, "policy.dtensor_cfg.enabled", "true");
        put(x, "policy.megatron_cfg.enabled", "false");
        if (!rules(x, IMP_G_FSDP)) return false;
        put(x, "policy.dtensor_cfg.lora_cfg.enabled", "%s", tf(t->lora_rank > 0));
        if (t->lora_rank > 0) {
            put(x, "policy.dtensor_cfg.lora_cfg.dim", "%d", t->lora_rank);
            put(x, "policy.dtensor_cfg.lora_cfg.match_all_linear", "%s", tf(t->lora_targets != LORA_ATTENTION));
            if (t->lora_targets == LORA_ATTENTION)
                put(x, "policy.dtensor_cfg.lora_cfg.target_modules", "[q_proj,k_proj,v_proj,o_proj]");
        }
    } else {
        if (t->zero == 2)
            return fail(x, "plan.train.zero = 2: NeMo RL runs DTensor FSDP2 (ZeRO-3) or Megatron with a distributed "
                        "optimizer (ZeRO-1) or none (0)");
        put(x, "policy.dtensor_cfg.enabled", "false");
        put(x, "policy.megatron_cfg.enabled", "true");
        if (!rules(x, IMP_G_MEGATRON)) return false;
        put(x, "policy.megatron_cfg.activation_checkpointing", "%s", tf(t->recompute != RECOMPUTE_NONE));
        if (t->recompute != RECOMPUTE_NONE)
            put(x, "policy.megatron_cfg.recompute_granularity", "%s",
                t->recompute == RECOMPUTE_SELECTIVE ? "selective" : "full");
        if (t->pp_embedding_layer || t->pp_loss_layer)
            note(x, "plan.train.pp_embedding_layer / pp_loss_layer: NeMo RL's megatron_cfg has no key for Megatron's "
                 "account_for_*_in_pipeline_split; not exported");
        put(x, "policy.megatron_cfg.optimizer.optimizer_cpu_offload", "%s", tf(t->optimizer_offload > 0));
        if (t->optimizer_offload > 0)
            put(x, "policy.megatron_cfg.optimizer.optimizer_offload_fraction", "%g", t->optimizer_offload);
        /* FP8 training (docs/model.md, section 7): imp_m_train_precision inverted */
        if (t->precision == DTYPE_FP8) {
            static const char *const rn[] = {"delayed", "tensorwise", "blockwise"};
            put(x, "policy.megatron_cfg.fp8_cfg.enabled", "true");
            put(x, "policy.megatron_cfg.fp8_cfg.fp8", "e4m3");
            put(x, "policy.megatron_cfg.fp8_cfg.fp8_recipe", "%s", rn[t->fp8_recipe]);
            put(x, "policy.megatron_cfg.fp8_cfg.fp8_param", "%s", tf(t->fp8_param));
        }
    }
    /* a token budget is written as sequence packing, NeMo RL's default (import_nemo.c imp_map_nemo) */
    bool pack = t->max_tokens > 0 || t->padding == PAD_NONE;
    put(x, "policy.sequence_packing.enabled", "%s", tf(pack));
    if (pack) {
        int tok = t->max_tokens > 0 ? t->max_tokens : t->micro_batch * (int)(cap + s->work.max_response);
        if (t->max_tokens <= 0)
            note(x, "plan.train.padding = \"none\" with no token budget: NeMo RL packs into bins of "
                    "train_mb_tokens; written as its default, micro_batch x max_total_sequence_length");
        put(x, "policy.sequence_packing.train_mb_tokens", "%d", tok);
    }
    put(x, "policy.dynamic_batching.enabled", "false");
    put(x, "policy.train_micro_batch_size", "%d", t->micro_batch);
    /* the log-prob forwards (import_nemo.c): logprob_batch_size sequences, bins of logprob_mb_tokens when packed */
    put(x, "policy.logprob_batch_size", "%d", t->logprob_batch > 0 ? t->logprob_batch : t->micro_batch);
    if (pack && logprob_budget(t) > 0) put(x, "policy.sequence_packing.logprob_mb_tokens", "%d", logprob_budget(t));
    if (t->logprob_chunk > 0) put(x, "policy.logprob_chunk_size", "%d", t->logprob_chunk);
    if (t->logits != LOGITS_EAGER)
        note(x, "plan.train.logits = \"fp32\": NeMo RL's log-probs are an eager FP32 log-softmax; no key chooses one "
                "FP32 copy");
    if (t->zero == 3) put(x, "policy.dtensor_cfg._v2", "%s", tf(!t->logprob_unshard));
    else if (t->logprob_unshard)
        note(x, "plan.train.logprob_unshard = true: only NeMo RL's DTensor v1 worker unshards the model for its "
                "log-prob passes; Megatron's does not");
    if (p->rollout.max_seqs != 256)
        note(x, "plan.rollout.max_seqs = %d: NeMo RL leaves vLLM's max_num_seqs at its default (256)", p->rollout.max_seqs);
    put(x, "grpo.async_grpo.enabled", "%s", tf(p->staleness > 0));
    if (p->staleness > 0) {
        put(x, "grpo.async_grpo.max_trajectory_age_steps", "%d", p->staleness);
        put(x, "grpo.async_grpo.in_flight_weight_updates", "%s", tf(p->on_update == ONUPD_CONTINUE));
    }
    if (p->mode == MODE_FULL && p->npools == 0) {
        put(x, "policy.generation.colocated.enabled", "true");
        /* co-located NeMo RL always sleeps vLLM at level 1 and offloads the policy's parameters after the
        ** refit (import_nemo.c); neither has a key */
        if (p->rollout.sleep != SLEEP_OFFLOAD)
            note(x, "plan.rollout.sleep = \"%s\": co-located NeMo RL sleeps vLLM at level 1 (weights to host memory); "
                    "no key chooses another", p->rollout.sleep == SLEEP_NONE ? "none" : "discard");
        if (p->offload_params != PARAMS_AFTER_RESHARD)
            note(x, "plan.offload.params = \"%s\": co-located NeMo RL moves the policy's parameters to the host after "
                    "every refit (after_reshard); no key chooses another",
                 p->offload_params == PARAMS_RESIDENT ? "none" : "before_reshard");
        return true;
    }
    plan *pl = malloc(sizeof *pl);
    if (!pl) return fail(x, "export: out of memory");
    fs_err e = {0, ""};
    bool ok = plan_build(s, pl, &e);
    if (!ok) fail(x, "%s", e.msg);
    int rollout = -1;
    for (int i = 0; ok && i < pl->npools; i++) {
        const plan_pool *q = &pl->pools[i];
        if (q->roles == ROLE_ROLLOUT && rollout < 0) rollout = i;
        else if (q->roles & ROLE_ROLLOUT)
            ok = fail(x, "plan.pools: pool %s generates and trains or scores: NeMo RL's non-co-located generation has "
                      "GPUs of its own", q->name);
        else if (!(q->roles & ROLE_TRAIN))
            ok = fail(x, "plan.pools: pool %s holds the reference or reward apart from training: NeMo RL runs them "
                      "with the policy", q->name);
    }
    if (ok && rollout < 0) ok = fail(x, "plan.pools: no pool generates only");
    if (ok) {
        int dev = pl->pools[rollout].devices, gpn = s->cluster.devices_per_node;
        int nodes = total_devices(s) / gpn;
        put(x, "policy.generation.colocated.enabled", "false");
        if (nodes <= 1) {
            put(x, "policy.generation.colocated.resources.gpus_per_node", "%d", dev);
            put(x, "policy.generation.colocated.resources.num_nodes", "null");
        } else if (dev % gpn) {
            ok = fail(x, "plan.rollout_devices: %d devices on a cluster of %d nodes are not whole nodes of %d; NeMo RL "
                      "gives generation whole nodes (colocated.resources.num_nodes)", dev, nodes, gpn);
        } else {
            put(x, "policy.generation.colocated.resources.gpus_per_node", "%d", gpn);
            put(x, "policy.generation.colocated.resources.num_nodes", "%d", dev / gpn);
        }
    }
    free(pl);
    return ok;
}

/* ------------------------------------------------------------- rendering */

static bool yaml_plain(const char *v)
{
    if (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "null")) return true;
    char *end;
    (void)!strtod(v, &end);
    return end != v && !*end;
}

/* The depth at which keys a and b part (components in common). */
static int common_depth(const char *a, const char *b)
{
    int d = 0;
    for (;;) {
        const char *ea = strchr(a, '.'), *eb = strchr(b, '.');
        size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
        if (!ea || !eb || la != lb || strncmp(a, b, la)) return d;
        d++;
        a = ea + 1;
        b = eb + 1;
    }
}

static int cmp_key(const void *pa, const void *pb)
{
    const xkv *a = pa, *b = pb;
    return strcmp(a->key, b->key);
}

static void render_nemo(xctx *x, fs_buf *out)
{
    /* sorted so that keys sharing a prefix are adjacent; '.' sorts before letters and '_' */
    qsort(x->kv.data, x->kv.len, sizeof(xkv), cmp_key);
    const xkv *e = x->kv.data;
    for (size_t i = 0; i < x->kv.len; i++) {
        int from = i ? common_depth(e[i - 1].key, e[i].key) : 0;
        const char *c = e[i].key;
        for (int d = 0; d < from; d++) c = strchr(c, '.') + 1;
        int depth = from;
        for (const char *dot; (dot = strchr(c, '.')); c = dot + 1, depth++)
            buf_printf(out, "%*s%.*s:\n", depth * 2, "", (int)(dot - c), c);
        if (yaml_plain(e[i].val)) buf_printf(out, "%*s%s: %s\n", depth * 2, "", c, e[i].val);
        else {
            buf_printf(out, "%*s%s: \"", depth * 2, "", c);
            for (const char *q = e[i].val; *q; q++) {
                if (*q == '"' || *q == '\\') buf_putc(out, '\\');
                buf_putc(out, *q);
            }
            buf_puts(out, "\"\n");
        }
    }
}

bool imp_export(imp_framework fw, const scn_scenario *s, const char *source, fs_buf *out, fs_err *err)
{
    xctx x = {.fw = fw, .s = s, .name = fw == IMP_VERL ? "verl" : fw == IMP_OPENRLHF ? "OpenRLHF" : "NeMo RL",
              .err = err};
    vec_init(&x.kv, sizeof(xkv));
    buf_init(&x.notes);
    bool ok = common(&x);
    if (ok) ok = fw == IMP_VERL ? ex_verl(&x) : fw == IMP_OPENRLHF ? ex_openrlhf(&x) : ex_nemo(&x);
    if (ok) {
        const char *c = "#";
        buf_printf(out, "%s Written by `fusync export %s` from %s (fusync %s).\n", c, imp_framework_name(fw), source,
                   FUSYNC_VERSION_STR);
        buf_printf(out, "%s The framework's keys for the scenario's plan; the mapping is docs/frameworks.md, "
                        "\"Export\".\n", c);
        if (fw == IMP_VERL)
            buf_puts(out, "# Hydra overrides, one a line: python3 -m verl.trainer.main_ppo $(grep -v '^#' FILE)\n");
        else if (fw == IMP_OPENRLHF)
            buf_puts(out, "# Arguments, one a line: python3 -m openrlhf.cli.train_ppo_ray $(grep -v '^#' FILE)\n");
        else
            buf_puts(out, "# A YAML overrides file: give it `defaults:` your recipe, or merge it over the recipe\n");
        if (x.notes.len) {
            buf_printf(out, "# No knob in %s (the run is still valid):\n", x.name);
            for (const char *q = x.notes.s; *q;) {
                const char *nl = strchr(q, '\n');
                buf_printf(out, "#   %.*s\n", (int)(nl - q), q);
                q = nl + 1;
            }
        }
        const xkv *e = x.kv.data;
        if (fw == IMP_NEMORL) render_nemo(&x, out);
        else
            for (size_t i = 0; i < x.kv.len; i++) {
                if (fw == IMP_VERL) {
                    if (!strcmp(e[i].key, "hydra.config_name")) {
                        buf_puts(out, "--config-name=");
                        buf_shell_word(out, e[i].val);
                    } else {
                        buf_printf(out, "%s=", e[i].key);
                        buf_shell_word(out, e[i].val);
                    }
                } else if (imp_fw_flag(fw, e[i].key)) {
                    if (!strcmp(e[i].val, "false")) continue;   /* store_true: absent is false */
                    buf_printf(out, "--%s", e[i].key);
                } else {
                    buf_printf(out, "--%s ", e[i].key);
                    buf_shell_word(out, e[i].val);
                }
                buf_putc(out, '\n');
            }
    }
    vec_free(&x.kv);
    buf_free(&x.notes);
    return ok;
}
