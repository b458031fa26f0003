/*
** import_verl.c — verl's keys onto a fusync scenario: the joined rules
** (mini-batches, lengths, pools, the FSDP and Megatron backends, offloads,
** micro-batches and log-prob batches), one function each, read top to
** bottom beside docs/frameworks.md (import_map.h's helpers; import_export.c
** ex_verl is the reverse).
*/
#include "import_map.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* verl's actor param_offload (docs/model.md, section 3): the shards go to the host before the engine wakes and the
** reshard reads them from there (verl/workers/fsdp_workers.py, rollout_mode: offload_fsdp_model_to_cpu, then
** resume(tags=["weights"]), then update_weights; verl b178a3c).  import_export.c writes it back. */
static bool verl_param_offload(imp_mctx *m, const char *key)
{
    char s[320];
    bool po;
    if (!imp_m_gbool(m, key, &po, s, sizeof s)) return false;
    imp_m_set(m, "plan.offload.params", s, "\"%s\"", po ? "before_reshard" : "none");
    /* without it the training shards stay on the device through generation (rollout_mode offloads them only
    ** when _is_offload_param), and trainer_mode finds them there: fusync's zero_redundancy = false */
    if (!po) imp_m_set(m, "plan.zero_redundancy", s, "false");
    return true;
}

/* The log-prob forwards' batches: the old policy's under actor_rollout_ref.rollout, the reference's under
** actor_rollout_ref.ref (verl/workers/actor/dp_actor.py, compute_log_prob: prepare_dynamic_batch with
** log_prob_max_token_len_per_gpu x the Ulysses size, else log_prob_micro_batch_size_per_gpu sequences).
** fusync has one setting for both passes: the larger, since the larger pass sets the peak. */
static bool verl_logprob(imp_mctx *m, double dp)
{
    static const char *const who[2] = {"actor_rollout_ref.rollout", "actor_rollout_ref.ref"};
    char k[128], s[320], best[320] = "", bs[320] = "";
    double tok = 0, seqs = 0, d;
    bool dyn[2], nul;
    for (int i = 0; i < 2; i++) {
        snprintf(k, sizeof k, "%s.log_prob_use_dynamic_bsz", who[i]);
        if (!imp_m_gbool(m, k, &dyn[i], s, sizeof s)) return false;
        if (dyn[i]) {
            char s2[320];
            snprintf(k, sizeof k, "%s.log_prob_max_token_len_per_gpu", who[i]);
            if (!imp_m_gnum(m, k, &d, NULL, s2, sizeof s2)) return false;
            if (d > tok) { tok = d; snprintf(best, sizeof best, "%s with %s", s2, s); }
        } else {
            snprintf(k, sizeof k, "%s.log_prob_micro_batch_size_per_gpu", who[i]);
            if (!imp_m_gnum(m, k, &d, &nul, s, sizeof s)) return false;
            if (nul) {
                /* the deprecated global form, divided as the workers divide it (fsdp_workers.py:
                ** log_prob_micro_batch_size //= world size / the Ulysses size) */
                snprintf(k, sizeof k, "%s.log_prob_micro_batch_size", who[i]);
                if (!imp_m_gnum(m, k, &d, &nul, s, sizeof s)) return false;
                if (!nul) {
                    char s2[400];
                    snprintf(s2, sizeof s2, "%s (deprecated, global) / %g data-parallel ranks", s, dp);
                    snprintf(s, sizeof s, "%s", s2);
                    d = dp >= 1 ? floor(d / dp) : 0;
                    if (d < 1) nul = true;
                }
            }
            if (!nul && d > seqs) { seqs = d; snprintf(bs, sizeof bs, "%s", s); }
        }
    }
    if (dyn[0] != dyn[1])
        imp_m_warn(m, "the old-policy and reference log-prob passes batch differently (log_prob_use_dynamic_bsz): "
                   "fusync gives both passes both settings");
    if (tok > 0) imp_m_set(m, "plan.train.logprob_tokens", best, "%g", tok);
    if (seqs > 0) imp_m_set(m, "plan.train.logprob_batch", bs, "%g", seqs);
    return true;
}

/* The actor's data-parallel ranks, as verl's workers count them when they
** divide a global batch (verl/workers/fsdp_workers.py: world size over the
** Ulysses size; verl/workers/megatron_workers.py: over TP x PP x CP). */
static bool verl_dp_ranks(imp_mctx *m, const char *strat, double *dp)
{
    double nn, gpn, tp = 1, pp = 1, cp = 1;
    if (!imp_m_gnum(m, "trainer.nnodes", &nn, NULL, NULL, 0) || !imp_m_gnum(m, "trainer.n_gpus_per_node", &gpn, NULL, NULL, 0))
        return false;
    if (!strcmp(strat, "megatron")) {
        if (!imp_m_gnum(m, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size", &tp, NULL, NULL, 0) ||
            !imp_m_gnum(m, "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size", &pp, NULL, NULL, 0) ||
            !imp_m_gnum(m, "actor_rollout_ref.actor.megatron.context_parallel_size", &cp, NULL, NULL, 0)) return false;
    } else if (!imp_m_gnum(m, "actor_rollout_ref.actor.ulysses_sequence_parallel_size", &cp, NULL, NULL, 0)) return false;
    *dp = floor(nn * gpn / (tp * pp * cp));
    return true;
}

/* vLLM's max_model_len (docs/model.md, section 3, "What vLLM's KV cache gets"): rollout.max_model_len, else the
** model's max_position_embeddings — verl's vLLM server sets config.max_model_len from
** get_max_position_embeddings(hf_config) when it is None and raises when a given one exceeds it
** (verl/workers/rollout/vllm_rollout/vllm_async_server.py and verl/workers/rollout/utils.py at b178a3c; verl pull
** request 5052, https://github.com/volcengine/verl/pull/5052).  hf_config is config.json with
** model.override_config (or its model_config) laid over it (verl/workers/config/model.py, HFModelConfig).  Before
** pull request 4779 (https://github.com/volcengine/verl/pull/4779, 2026-01-04) verl passed prompt_length +
** response_length, the workload's own bound (plan_max_model_len): a config of that verl gives
** --set plan.rollout.max_model_len=0. */
static bool verl_max_model_len(imp_mctx *m)
{
    char s[320], os[320] = "";
    double mml, pos = m->actor_positions;
    bool nul;
    if (!imp_m_gnum(m, "actor_rollout_ref.rollout.max_model_len", &mml, &nul, s, sizeof s)) return false;
    static const char *const ovr[2] = {"actor_rollout_ref.model.override_config.model_config.max_position_embeddings",
                                       "actor_rollout_ref.model.override_config.max_position_embeddings"};
    for (int i = 0; i < 2; i++) {
        if (!imp_cfg_get(m->c, ovr[i])) continue;
        if (!imp_m_gnum(m, ovr[i], &pos, NULL, os, sizeof os)) return false;
        break;
    }
    if (!nul) {
        if (pos > 0 && mml > pos)
            imp_m_warn(m, "%s = %g exceeds the model's max_position_embeddings (%g): verl's vLLM server refuses to "
                       "start (vllm_async_server.py, ValueError)", s, mml, pos);
        return true;
    }
    if (pos <= 0) {
        imp_m_warn(m, "%s unset: verl passes vLLM the model's max_position_embeddings, which the model's config.json "
                   "or preset does not give; fusync takes the prompt's cap + max_response, a lower bound", s);
        return true;
    }
    char why[900];
    snprintf(why, sizeof why, "%s unset: the model's max_position_embeddings (%s), which verl's vLLM server passes "
             "(vllm_async_server.py)", s, os[0] ? os : "its config.json");
    imp_m_set(m, "plan.rollout.max_model_len", why, "%g", pos);
    imp_m_warn(m, "%s unset: vLLM's max_model_len is the model's max_position_embeddings, %g tokens (%s), not "
               "data.max_prompt_length + max_response_length; its KV cache must hold one such sequence",
               s, pos, os[0] ? os : "config.json");
    return true;
}

/* vLLM's token budget a step: verl hands its server enable_chunked_prefill and max_num_batched_tokens
** (vllm_async_server.py at b178a3c), and vLLM's profile run carries the budget (plan_vllm.c, plan_profile_tokens),
** not max_model_len: plan.rollout.max_batched_tokens, the chunked prefill of docs/model.md, section 5.  Without
** chunked prefill the field stays 0 (a prefill a step of its own, the profile max(max_model_len, 2048)). */
static bool verl_batched_tokens(imp_mctx *m)
{
    char s[320], s2[320], why[700];
    bool cp;
    double t, seqs;
    if (!imp_m_gbool(m, "actor_rollout_ref.rollout.enable_chunked_prefill", &cp, s, sizeof s) ||
        !imp_m_gnum(m, "actor_rollout_ref.rollout.max_num_batched_tokens", &t, NULL, s2, sizeof s2) ||
        !imp_m_gnum(m, "actor_rollout_ref.rollout.max_num_seqs", &seqs, NULL, NULL, 0)) return false;
    if (!cp) {
        imp_m_warn(m, "%s = false: fusync prefills a sequence whole in a step of its own; vLLM's profile run then "
                   "takes max(max_model_len, 2048) tokens", s);
        return true;
    }
    if (t <= seqs) {
        imp_m_warn(m, "%s = %g is no more than max_num_seqs (%g): fusync's chunked prefill needs room past one token "
                   "a decoding sequence; prefilled whole instead", s2, t, seqs);
        return true;
    }
    snprintf(why, sizeof why, "%s with %s: the prefill chunked, the budget vLLM's profile run carries", s2, s);
    imp_m_set(m, "plan.rollout.max_batched_tokens", why, "%g", t);
    return true;
}

/* The entropy over the logits (docs/model.md, section 3; verl at b178a3c).  update_policy takes it with its
** gradient when calculate_entropy or entropy_coeff != 0 (verl/workers/actor/dp_actor.py; the Megatron actor
** when entropy_coeff != 0, verl/workers/actor/megatron_actor.py); compute_log_prob takes it without, unless the
** actor is LoRA (fsdp_workers.py and megatron_workers.py: calculate_entropy = not is_lora).  How: the
** remove-padding path calls the torch.compile'd entropy_from_logits (use_torch_compile) or
** entropy_from_logits_with_chunking; the padded path calls entropy_from_logits eager whatever the flags;
** entropy_checkpointing recomputes it at the head's backward, where fusync takes its figure; fused kernels
** return the entropy from the hidden states (no logits: nothing counted). */
static bool verl_entropy(imp_mctx *m, const char *strat)
{
    char s[256], s2[256], why[640];
    double coeff;
    bool calc, fused, rmpad, chunk, comp, ckpt;
    if (!imp_m_gnum(m, "actor_rollout_ref.actor.entropy_coeff", &coeff, NULL, s, sizeof s) ||
        !imp_m_gbool(m, "actor_rollout_ref.actor.calculate_entropy", &calc, s2, sizeof s2) ||
        !imp_m_gbool(m, "actor_rollout_ref.model.use_fused_kernels", &fused, NULL, 0) ||
        !imp_m_gbool(m, "actor_rollout_ref.model.use_remove_padding", &rmpad, NULL, 0) ||
        !imp_m_gbool(m, "actor_rollout_ref.actor.entropy_from_logits_with_chunking", &chunk, NULL, 0) ||
        !imp_m_gbool(m, "actor_rollout_ref.actor.use_torch_compile", &comp, NULL, 0) ||
        !imp_m_gbool(m, "actor_rollout_ref.actor.entropy_checkpointing", &ckpt, NULL, 0))
        return false;
    bool meg = !strcmp(strat, "megatron");
    if (meg) calc = false;              /* the Megatron actor reads entropy_coeff alone */
    const imp_mentry *lr = NULL, *all = m->out.data;
    for (size_t i = 0; i < m->out.len; i++)
        if (!strcmp(all[i].path, "plan.train.lora_rank")) lr = &all[i];
    bool lora = lr && strcmp(lr->val, "0");
    if (fused && !meg) {
        if (coeff != 0 || calc)
            imp_m_warn(m, "actor_rollout_ref.model.use_fused_kernels = true: the entropy comes from the hidden states "
                    "with the log-probs (no logits tensor): nothing counted for it");
        return true;
    }
    const char *how, *hsrc;
    if (meg) {
        /* _VocabParallelEntropy (verl/utils/megatron/tensor_parallel.py) keeps the softmax and returns it as
        ** its gradient: one more [T, V/t] tensor, compiled's figure */
        how = "\"compiled\"";
        hsrc = "Megatron's vocab-parallel entropy: the softmax kept and reused as its gradient, one BF16 copy";
    } else if (!rmpad) {
        how = "\"eager\"";
        hsrc = "actor_rollout_ref.model.use_remove_padding = false: the padded path calls entropy_from_logits eager";
    } else if (chunk) {
        how = "\"chunked\"";
        hsrc = "actor_rollout_ref.actor.entropy_from_logits_with_chunking: FP32 chunks of 2048 rows";
    } else if (comp) {
        how = "\"compiled\"";
        hsrc = "actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile";
    } else {
        how = "\"eager\"";
        hsrc = "actor_rollout_ref.actor.use_torch_compile = false: entropy_from_logits eager";
    }
    bool loss = coeff != 0 || calc;
    if (loss || !lora) imp_m_set(m, "plan.train.entropy", hsrc, "%s", how);
    if (loss) {
        snprintf(why, sizeof why, "%s: update_policy takes the entropy with its gradient", coeff != 0 ? s : s2);
        imp_m_set(m, "plan.train.entropy_loss", why, "true");
    }
    if (!lora)
        imp_m_set(m, "plan.train.logprob_entropy", "verl's compute_log_prob takes the entropy for a full-model actor "
                  "(calculate_entropy = not is_lora)", "true");
    if (ckpt && (loss || !lora))
        imp_m_warn(m, "actor_rollout_ref.actor.entropy_checkpointing = true: the entropy's forward is recomputed at "
                "the LM head's backward, where fusync takes its figure: the peak unchanged");
    return true;
}

bool imp_map_verl(imp_mctx *m)
{
    char v[1024], s[320], s2[320];
    double d;
    bool b, nul;
    char cn[256];
    imp_m_get(m, "hydra.config_name", cn, sizeof cn, NULL, 0);
    bool megatron_cfg = strstr(cn, "megatron") != NULL;
    if (!imp_m_rules(m, IMP_G_ALL)) return false;
    /* the resource pool: [n_gpus_per_node] * nnodes (verl/trainer/main_ppo.py), a STRICT_PACK placement group
    ** of one-GPU bundles a node (verl/single_controller/ray/base.py, get_placement_groups; verl b178a3c) */
    if (!imp_m_node_gpus(m, "trainer.n_gpus_per_node", "trainer.nnodes",
                         "verl's resource pool, a STRICT_PACK placement group a node")) return false;
    if (m->o->nodes) imp_m_set(m, "cluster.nodes", "--nodes", "%d", m->o->nodes);
    if (!imp_m_model(m, "actor", "actor_rollout_ref.model.path")) return false;
    if (!verl_max_model_len(m) || !verl_batched_tokens(m)) return false;
    if (!imp_m_rollout_precision(m, "actor_rollout_ref.rollout.quantization",
                                 "actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_dtype")) return false;
    if (!imp_m_kv_cache_bytes(m, "actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_memory_bytes")) return false;

    bool kl_loss, kl_reward;
    if (!imp_m_gbool(m, "actor_rollout_ref.actor.use_kl_loss", &kl_loss, s, sizeof s)) return false;
    if (!imp_m_gbool(m, "algorithm.use_kl_in_reward", &kl_reward, s2, sizeof s2)) return false;
    char why[700];
    snprintf(why, sizeof why, "%s or %s: verl's need_reference_policy (verl/trainer/ppo/utils.py)", s, s2);
    imp_m_set(m, "models.reference", why, "%s", kl_loss || kl_reward ? "true" : "false");

    imp_m_get(m, "algorithm.adv_estimator", v, sizeof v, s, sizeof s);
    bool ppo = !strcmp(v, "gae");
    imp_m_set(m, "workload.algorithm", s, "\"%s\"", ppo ? "ppo" : "grpo");
    if (!ppo && strcmp(v, "grpo"))
        imp_m_warn(m, "algorithm.adv_estimator = %s: fusync simulates it as GRPO (critic-free, the same passes)", v);
    if (ppo && !imp_m_model(m, "critic", "critic.model.path")) return false;

    if (!imp_m_gbool(m, "reward_model.enable", &b, s, sizeof s)) return false;
    if (b) {
        if (!imp_m_model(m, "reward", "reward_model.model.path")) return false;
    } else {
        imp_m_set(m, "models.reward", s, "\"rule\"");
    }

    double prompts, n, mini;
    if (!imp_m_gnum(m, "data.train_batch_size", &prompts, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "actor_rollout_ref.rollout.n", &n, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "actor_rollout_ref.actor.ppo_mini_batch_size", &mini, NULL, s, sizeof s)) return false;
    if (!imp_m_minibatches(m, prompts * n, mini * n, s, "ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n"))
        return false;
    double mp, mr;
    if (!imp_m_gnum(m, "data.max_prompt_length", &mp, NULL, s, sizeof s)) return false;
    if (!imp_m_gnum(m, "data.max_response_length", &mr, NULL, s2, sizeof s2)) return false;
    imp_m_lengths(m, mp, mr, s, s2);
    imp_m_set(m, "workload.recompute_logprob", "verl computes the old log-probs with an actor forward (compute_log_prob)", "true");

    if (!imp_m_gbool(m, "actor_rollout_ref.hybrid_engine", &b, s, sizeof s)) return false;
    if (b) {
        snprintf(why, sizeof why, "%s: the hybrid engine shares every GPU among actor, rollout and reference", s);
        imp_m_set(m, "plan.mode", why, "\"full\"");
        /* the engine's sleep (docs/model.md, section 8): verl b178a3c sleeps vLLM at level 2 from vLLM 0.8.5 on
        ** (verl/third_party/vllm/__init__.py, VLLM_SLEEP_LEVEL) and at level 1 under layered_summon
        ** (verl/workers/rollout/vllm_rollout/vllm_rollout.py, ServerAdapter); free_cache_engine false skips
        ** release() and resume(): the engine keeps its memory.  The import export.c writes them back. */
        bool fc, ls;
        if (!imp_m_gbool(m, "actor_rollout_ref.rollout.free_cache_engine", &fc, s, sizeof s) ||
            !imp_m_gbool(m, "actor_rollout_ref.rollout.layered_summon", &ls, s2, sizeof s2)) return false;
        if (!fc) snprintf(why, sizeof why, "%s: no sleep, the engine keeps its weights and KV cache", s);
        else if (ls) snprintf(why, sizeof why, "%s with %s: vLLM sleep level 1, weights to host memory", s, s2);
        else snprintf(why, sizeof why, "%s: vLLM sleep level 2 (vLLM 0.8.5 or later), weights and KV cache discarded", s);
        imp_m_set(m, "plan.rollout.sleep", why, "\"%s\"", !fc ? "none" : ls ? "offload" : "discard");
        /* verl b178a3c's vLLM server spawns its GPU workers with the mp executor
        ** (verl/workers/rollout/vllm_rollout/vllm_async_server.py, distributed_executor_backend "mp"), beside
        ** the hybrid worker's process: a second CUDA context on each GPU */
        snprintf(why, sizeof why, "actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own "
                 "(vllm_async_server.py, mp executor)");
        imp_m_set(m, "plan.rollout.own_process", why, "true");
    } else {
        imp_m_set(m, "plan.mode", s, "\"separate\"");
        imp_m_warn(m, "actor_rollout_ref.hybrid_engine = false: verl's main_ppo needs it; simulated as separate pools "
                "(plan.rollout_fraction 0.5)");
    }
    imp_m_set(m, "plan.controller", "verl's RayPPOTrainer gathers each step's batch in the driver", "\"driver\"");
    imp_m_get(m, "reward_model.reward_manager", v, sizeof v, s, sizeof s);
    if (!strcmp(v, "prime")) {
        snprintf(why, sizeof why, "%s: the prime manager scores in a pool of 64 processes (verl/workers/reward_manager/prime.py)", s);
        imp_m_set(m, "plan.reward_workers", why, "64");
    } else {
        snprintf(why, sizeof why, "%s = %s: scored one by one in the driver", s, v);
        imp_m_set(m, "plan.reward_workers", why, "1");
    }

    /* training layout */
    char strat[64];
    imp_m_get(m, "actor_rollout_ref.actor.strategy", strat, sizeof strat, s, sizeof s);
    if (!imp_cfg_get(m->c, "actor_rollout_ref.actor.strategy") && megatron_cfg) snprintf(strat, sizeof strat, "megatron");
    if (!strcmp(strat, "megatron")) {
        if (!imp_m_rules(m, IMP_G_MEGATRON)) return false;
        imp_m_get(m, "actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity", v, sizeof v, s, sizeof s);
        imp_m_set(m, "plan.train.recompute", s, "\"%s\"", imp_m_is_null(v) ? "none" : !strcmp(v, "selective") ? "selective" : "full");
        /* the embedding and the loss counted as layers of the pipeline split
        ** (megatron/core/transformer/transformer_block.py, get_num_layers_to_build) */
        if (!imp_m_gbool(m, "actor_rollout_ref.actor.megatron.override_transformer_config.account_for_embedding_in_pipeline_split",
                         &b, s, sizeof s))
            return false;
        if (b) imp_m_set(m, "plan.train.pp_embedding_layer", s, "true");
        if (!imp_m_gbool(m, "actor_rollout_ref.actor.megatron.override_transformer_config.account_for_loss_in_pipeline_split",
                         &b, s, sizeof s))
            return false;
        if (b) imp_m_set(m, "plan.train.pp_loss_layer", s, "true");
        if (!imp_m_host_optimizer(m, "actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload",
                            "actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_offload_fraction"))
            return false;
        /* Megatron's LoRA is model.lora (verl/workers/config/model.py, Megatron-Bridge's PEFT) */
        if (!imp_m_lora(m, "actor_rollout_ref.model.lora.rank", "actor_rollout_ref.model.lora.target_modules", NULL))
            return false;
        if (!verl_param_offload(m, "actor_rollout_ref.actor.megatron.param_offload")) return false;
        if (!imp_m_train_precision(m, NULL, "actor_rollout_ref.actor.megatron.override_transformer_config.fp8",
                                   "actor_rollout_ref.actor.megatron.override_transformer_config.fp8_recipe",
                                   "actor_rollout_ref.actor.megatron.override_transformer_config.fp8_param"))
            return false;
    } else {
        /* FSDP's LoRA is PEFT's (verl/workers/fsdp_workers.py: get_peft_model with LoraConfig) */
        if (!imp_m_lora(m, "actor_rollout_ref.model.lora_rank", "actor_rollout_ref.model.target_modules", NULL))
            return false;
        snprintf(why, sizeof why, "%s = %s: FSDP shards parameters, gradients and optimizer states (ZeRO-3)", s, strat);
        imp_m_set(m, "plan.train.zero", why, "3");
        imp_m_set(m, "plan.train.tp", why, "1");
        /* update_policy ends with actor_optimizer.zero_grad() (verl/workers/actor/dp_actor.py at b178a3c),
        ** set_to_none by PyTorch's default: no gradients outside update_actor */
        imp_m_set(m, "plan.train.grad_buffer", "verl's dp_actor.update_policy: zero_grad() after the last optimizer step "
                  "(PyTorch set_to_none)", "\"step\"");
        imp_m_set(m, "plan.train.pp", why, "1");
        if (!imp_m_rules(m, IMP_G_FSDP)) return false;
        if (!imp_m_gnum(m, "actor_rollout_ref.actor.ulysses_sequence_parallel_size", &d, NULL, s, sizeof s)) return false;
        if (d > 1) {
            imp_m_set(m, "plan.train.cp", s, "%g", d);
            imp_m_set(m, "plan.train.cp_kind", s, "\"ulysses\"");
        }
        /* FSDP2's CPUOffloadPolicy holds parameters, gradients and optimizer states on the host for the whole run
        ** and steps there (verl/workers/fsdp_workers.py, _build_model_optimizer: offload_policy under fsdp2 only);
        ** optimizer_offload above moves the states between phases (load_fsdp_optimizer before update_actor,
        ** offload_fsdp_optimizer after) */
        if (!imp_m_gbool(m, "actor_rollout_ref.actor.fsdp_config.offload_policy", &b, s, sizeof s)) return false;
        if (b && !strcmp(strat, "fsdp2")) {
            snprintf(why, sizeof why, "%s under strategy fsdp2: FSDP2's CPUOffloadPolicy, the optimizer on the host", s);
            imp_m_set(m, "plan.train.optimizer_offload", why, "1");
            imp_m_set(m, "plan.offload.optimizer", why, "false");
            imp_m_set(m, "plan.train.grad_buffer", why, "\"host\"");
            imp_m_warn(m, "actor_rollout_ref.actor.fsdp_config.offload_policy = true: FSDP2 also holds the parameters on the "
                    "host; fusync counts their shards on the device (memory over-counted)");
        } else if (b) {
            imp_m_warn(m, "actor_rollout_ref.actor.fsdp_config.offload_policy = true with strategy %s: verl applies it "
                    "under fsdp2 only; nothing offloaded", strat);
        }
        imp_m_set(m, "plan.offload.grads", "verl frees the gradients after the optimizer step: none held during rollout", "true");
        if (!verl_param_offload(m, "actor_rollout_ref.actor.fsdp_config.param_offload")) return false;
    }
    bool dyn;
    if (!imp_m_gbool(m, "actor_rollout_ref.actor.use_dynamic_bsz", &dyn, s, sizeof s)) return false;
    if (dyn) {
        /* a micro-batch of at most this many tokens a GPU (verl/workers/actor/dp_actor.py, update_policy:
        ** prepare_dynamic_batch with ppo_max_token_len_per_gpu x the Ulysses size, as fusync's budget x cp) */
        if (!imp_m_gnum(m, "actor_rollout_ref.actor.ppo_max_token_len_per_gpu", &d, NULL, s2, sizeof s2)) return false;
        snprintf(why, sizeof why, "%s with %s", s2, s);
        imp_m_set(m, "plan.train.max_tokens", why, "%g", d);
    }
    /* the fixed micro-batch: the per-GPU key, else the deprecated global one divided by the data-parallel size
    ** as verl's workers normalise it (verl/workers/fsdp_workers.py: ppo_micro_batch_size //= world size / the
    ** Ulysses size; verl/workers/megatron_workers.py: //= mpu.get_data_parallel_world_size()) */
    if (!imp_m_gnum(m, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", &d, &nul, s, sizeof s)) return false;
    double g;
    bool gnul;
    if (!imp_m_gnum(m, "actor_rollout_ref.actor.ppo_micro_batch_size", &g, &gnul, s2, sizeof s2)) return false;
    if (!gnul) {
        double dp;
        if (!verl_dp_ranks(m, strat, &dp)) return false;
        double per = dp >= 1 ? floor(g / dp) : 0;
        if (per < 1) {
            fs_err_set(m->err, 2, "%s = %g: fewer than one sequence on each of the %g data-parallel ranks", s2, g, dp);
            m->failed = true;
            return false;
        }
        snprintf(why, sizeof why, "%s (deprecated, global) / %g data-parallel ranks, as verl's workers divide it", s2, dp);
        imp_m_set(m, "plan.train.micro_batch", why, "%g", per);
    } else if (nul) {
        imp_m_set(m, "plan.train.micro_batch", dyn ? "unused under the token budget (plan.train.max_tokens)"
                                             : "guess: ppo_micro_batch_size_per_gpu is unset", "1");
    } else {
        imp_m_set(m, "plan.train.micro_batch", s, "%g", d);
    }
    {
        double dp;
        if (!verl_dp_ranks(m, strat, &dp) || !verl_logprob(m, dp)) return false;
    }
    if (!verl_entropy(m, strat)) return false;
    if (strcmp(strat, "megatron")) {
        if (!imp_m_gbool(m, "actor_rollout_ref.model.use_remove_padding", &b, s, sizeof s)) return false;
        if (!b && dyn) {
            imp_m_set(m, "plan.train.padding", "use_dynamic_bsz packs its token-budget micro-batches", "\"none\"");
            imp_m_warn(m, "actor_rollout_ref.model.use_remove_padding = false with use_dynamic_bsz: fusync packs the "
                    "token-budget micro-batches (padding inside them not counted)");
        }
    }
    return true;
}
