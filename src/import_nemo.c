/*
** import_nemo.c — NeMo RL's keys onto a fusync scenario: the GRPO workload,
** co-located or split generation, the DTensor and Megatron backends, the
** micro-batches (import_map.h's helpers; the rules and sources are
** docs/frameworks.md; import_export.c ex_nemo is the reverse).
*/
#include "import_map.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A boolean whose key came with a later release (import_fw.c, imp_fw_since):
** an input older than the key gets the behaviour before it, not today's
** default; an input that does not show its age gets the default and a
** warning, since versions are not tracked for it. */
static bool versioned(imp_mctx *m, const char *key, bool *b, char *src, size_t sn)
{
    const imp_since *v = imp_fw_since(m->fw, key);
    if (!v || imp_cfg_get(m->c, key)) return imp_m_gbool(m, key, b, src, sn);
    int age = imp_fw_age(m->fw, m->c);
    if (age < v->rank && imp_cfg_get(m->c, v->witness)) {
        snprintf(src, sn, "%s absent, the input (it has %s) older than %s: off as before it", key, v->witness,
                 v->release);
        return imp_m_to_bool(m, key, v->before, b);
    }
    if (!imp_m_gbool(m, key, b, src, sn)) return false;
    if (age < v->rank)
        imp_m_warn(m, "%s: not in the input, which does not show its version; given the default of %s, although the key "
                "came in %s (set it if the config is older)", key, imp_fw_source(m->fw), v->release);
    return true;
}

bool imp_map_nemo(imp_mctx *m)
{
    char s[320], s2[320], why[900];
    double d, gpn, nodes;
    bool b;
    if (!imp_m_gnum(m, "cluster.gpus_per_node", &gpn, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "cluster.num_nodes", &nodes, NULL, NULL, 0)) return false;
    if (!imp_m_rules(m, IMP_G_ALL)) return false;
    /* RayVirtualCluster: cluster.gpus_per_node one-GPU bundles for each of num_nodes nodes, a PACK placement
    ** group a node or one unified group over them (nemo_rl/distributed/virtual_cluster.py,
    ** _create_placement_groups_internal; NeMo RL 7ea279a) */
    if (!imp_m_node_gpus(m, "cluster.gpus_per_node", "cluster.num_nodes",
                         "NeMo RL's RayVirtualCluster, gpus_per_node one-GPU bundles a node")) return false;
    if (m->o->nodes) imp_m_set(m, "cluster.nodes", "--nodes", "%d", m->o->nodes);
    if (!imp_m_model(m, "actor", "policy.model_name")) return false;
    if (!imp_m_rollout_precision(m, "policy.generation.vllm_cfg.precision", "policy.generation.vllm_cfg.kv_cache_dtype"))
        return false;
    if (!imp_m_kv_cache_bytes(m, "policy.generation.vllm_kwargs.kv_cache_memory_bytes")) return false;
    if (!imp_m_gnum(m, "loss_fn.reference_policy_kl_penalty", &d, NULL, s, sizeof s)) return false;
    snprintf(why, sizeof why, "%s: reference log-probs are computed when the KL penalty is not 0", s);
    imp_m_set(m, "models.reference", why, "%s", d != 0 ? "true" : "false");
    bool has_ref = d != 0;
    imp_m_set(m, "models.reward", "the environment's verifier (env)", "\"rule\"");
    imp_m_set(m, "workload.algorithm", "NeMo RL's grpo_train", "\"grpo\"");
    double prompts, n, gbs;
    if (!imp_m_gnum(m, "grpo.num_prompts_per_step", &prompts, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "grpo.num_generations_per_prompt", &n, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "policy.train_global_batch_size", &gbs, NULL, s, sizeof s)) return false;
    if (!imp_m_minibatches(m, prompts * n, gbs, s, "train_global_batch_size counts samples")) return false;
    imp_m_set(m, "workload.epochs", "NeMo RL trains each step's samples once", "1");
    double total, mnt;
    if (!imp_m_gnum(m, "policy.max_total_sequence_length", &total, NULL, s, sizeof s)) return false;
    if (!imp_m_gnum(m, "policy.generation.max_new_tokens", &mnt, NULL, s2, sizeof s2)) return false;
    double mp = floor(total / 4);
    char ps[400], rs[700];
    snprintf(ps, sizeof ps, "guess: a quarter of %s", s);
    snprintf(rs, sizeof rs, "%s caps prompt + response (vLLM max_model_len); less the guessed longest prompt", s);
    imp_m_lengths(m, mp, fmin(mnt, total - mp), ps, rs);
    double mml;
    bool mnul;
    if (!imp_m_gnum(m, "policy.generation.vllm_cfg.max_model_len", &mml, &mnul, s2, sizeof s2)) return false;
    /* vLLM's own max_model_len (docs/model.md, section 3, "What vLLM's KV
    ** cache gets"): the default, ${policy.max_total_sequence_length}, is the
    ** cap fusync's lengths already end at */
    if (!mnul && mml != total) {
        snprintf(why, sizeof why, "%s: vLLM's max_model_len, not policy.max_total_sequence_length (%g)", s2, total);
        imp_m_set(m, "plan.rollout.max_model_len", why, "%g", mml);
    } else if (mnul && m->actor_positions > 0) {
        /* null is passed on as it is (vllm_worker.py, LLM(max_model_len=vllm_cfg["max_model_len"])): vLLM then
        ** derives the length from the model's config.json, its max_position_embeddings (vllm/config.py,
        ** _get_and_verify_max_len; a rope_scaling factor it multiplies in is not applied here) */
        snprintf(why, sizeof why, "%s = null: vLLM takes the model's max_position_embeddings", s2);
        imp_m_set(m, "plan.rollout.max_model_len", why, "%d", m->actor_positions);
        imp_m_warn(m, "%s = null: vLLM's max_model_len is the model's max_position_embeddings, %d tokens; its KV "
                   "cache must hold one such sequence", s2, m->actor_positions);
    }
    imp_m_set(m, "workload.recompute_logprob", "NeMo RL recomputes the old log-probs with the policy (get_logprobs)", "true");
    imp_m_set(m, "plan.controller", "NeMo RL's single controller gathers each step's batch in the driver", "\"driver\"");

    if (!imp_m_gbool(m, "policy.generation.colocated.enabled", &b, s, sizeof s)) return false;
    if (b) {
        snprintf(why, sizeof why, "%s: generation and training share every GPU", s);
        imp_m_set(m, "plan.mode", why, "\"full\"");
        /* co-located, NeMo RL sleeps vLLM at level 1 after generating (nemo_rl/models/generation/vllm/vllm_worker.py,
        ** sleep: llm.sleep(level=1); NeMo RL 7ea279a) and moves the policy's parameters to the host after each
        ** refit (dtensor_policy_worker.py, offload_after_refit; back in prepare_for_training): no key sets either */
        snprintf(why, sizeof why, "%s: NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)", s);
        imp_m_set(m, "plan.rollout.sleep", why, "\"offload\"");
        /* vLLM runs in a Ray actor of its own beside the policy worker's (nemo_rl/models/generation/vllm/
        ** vllm_worker.py, @ray.remote VllmGenerationWorker): a second CUDA context on each GPU */
        snprintf(why, sizeof why, "%s: vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)", s);
        imp_m_set(m, "plan.rollout.own_process", why, "true");
        snprintf(why, sizeof why, "%s: NeMo RL's offload_after_refit moves the policy's parameters to the host", s);
        imp_m_set(m, "plan.offload.params", why, "\"after_reshard\"");
        /* the reference is the policy's own weights kept as a host state dict (get_cpu_state_dict) and copied
        ** into the model for its pass (use_reference_model; nemo_rl/models/policy/workers/
        ** dtensor_policy_worker.py, NeMo RL 7ea279a): on the host between its passes (docs/model.md, section 8) */
        if (has_ref)
            imp_m_set(m, "plan.offload.reference", "NeMo RL's use_reference_model: the reference state dict is held on "
                      "the host (get_cpu_state_dict) and copied in for each pass", "true");
    } else {
        double rg, rn;
        bool ng, nn;
        if (!imp_m_gnum(m, "policy.generation.colocated.resources.gpus_per_node", &rg, &ng, s, sizeof s) ||
            !imp_m_gnum(m, "policy.generation.colocated.resources.num_nodes", &rn, &nn, s2, sizeof s2)) return false;
        double dev = nodes <= 1 ? (ng ? 0 : rg) : (nn ? 0 : rn) * gpn;
        if (dev <= 0) {
            fs_err_set(m->err, 2, "%s: colocated.enabled = false needs %s", s, nodes <= 1 ? s : s2);
            m->failed = true;
            return false;
        }
        snprintf(why, sizeof why, "colocated.enabled = false: generation on %s, training on the rest", nodes <= 1 ? s : s2);
        imp_m_set(m, "plan.mode", why, "\"separate\"");
        imp_m_set(m, "plan.rollout_devices", why, "%g", dev);
    }
    bool meg;
    if (!imp_m_gbool(m, "policy.megatron_cfg.enabled", &meg, s, sizeof s)) return false;
    if (meg) {
        if (!imp_m_rules(m, IMP_G_MEGATRON)) return false;
        if (!imp_m_gbool(m, "policy.megatron_cfg.activation_checkpointing", &b, s, sizeof s)) return false;
        char g[64];
        imp_m_get(m, "policy.megatron_cfg.recompute_granularity", g, sizeof g, s2, sizeof s2);
        snprintf(why, sizeof why, "%s with %s", s, s2);
        imp_m_set(m, "plan.train.recompute", why, "\"%s\"", !b ? "none" : !strcmp(g, "selective") ? "selective" : "full");
        if (!imp_m_host_optimizer(m, "policy.megatron_cfg.optimizer.optimizer_cpu_offload",
                            "policy.megatron_cfg.optimizer.optimizer_offload_fraction")) return false;
        if (!imp_m_train_precision(m, "policy.megatron_cfg.fp8_cfg.enabled", "policy.megatron_cfg.fp8_cfg.fp8",
                                   "policy.megatron_cfg.fp8_cfg.fp8_recipe", "policy.megatron_cfg.fp8_cfg.fp8_param"))
            return false;
    } else {
        if (!imp_m_gbool(m, "policy.dtensor_cfg.enabled", &b, s, sizeof s)) return false;
        snprintf(why, sizeof why, "%s: DTensor FSDP2 shards parameters, gradients and optimizer states (ZeRO-3)", s);
        imp_m_set(m, "plan.train.zero", why, "3");
        /* train() ends with optimizer.zero_grad() in both DTensor workers
        ** (nemo_rl/models/policy/workers/dtensor_policy_worker.py and _v2.py at 7ea279a) */
        imp_m_set(m, "plan.train.grad_buffer", "NeMo RL's DTensor workers: zero_grad() after the last optimizer step "
                  "(PyTorch set_to_none)", "\"step\"");
        /* cpu_offload: FSDP2's CPU offload for the whole run, the optimizer stepped on the host
        ** (nemo_rl/models/policy/workers/dtensor_policy_worker.py: _parallelize_model(cpu_offload=...), and
        ** prepare_for_training leaves the optimizer state on the host when it is set) */
        if (!imp_m_rules(m, IMP_G_FSDP)) return false;
        if (!imp_m_gbool(m, "policy.dtensor_cfg.cpu_offload", &b, s, sizeof s)) return false;
        if (b) imp_m_warn(m, "policy.dtensor_cfg.cpu_offload = true: FSDP2 also holds the parameters on the host; fusync "
                       "counts their shards on the device (memory over-counted)");
        /* FSDP2's CPUOffloadPolicy copies the sharded gradients to the host in the backward */
        if (b) imp_m_set(m, "plan.train.grad_buffer", "policy.dtensor_cfg.cpu_offload: FSDP2's CPUOffloadPolicy, the "
                         "sharded gradients copied to the host in the backward", "\"host\"");
        /* dtensor_cfg.lora_cfg: Automodel's PEFT, dim its rank, match_all_linear over the list
        ** (nemo_rl/models/automodel/setup.py) */
        if (!imp_m_gbool(m, "policy.dtensor_cfg.lora_cfg.enabled", &b, s, sizeof s)) return false;
        if (b && !imp_m_lora(m, "policy.dtensor_cfg.lora_cfg.dim", "policy.dtensor_cfg.lora_cfg.target_modules",
                             "policy.dtensor_cfg.lora_cfg.match_all_linear"))
            return false;
        /* the v1 worker wraps get_logprobs (old policy; the reference's pass swaps its weights into the same
        ** module) in unshard_fsdp2_model: every FSDPModule unshard()-ed, the whole model gathered on each device
        ** for the pass (nemo_rl/models/policy/dtensor_policy_worker.py at fca424f; workers/ at 7ea279a); the v2
        ** worker (Automodel) does not */
        if (!versioned(m, "policy.dtensor_cfg._v2", &b, s, sizeof s)) return false;
        if (!b) {
            snprintf(why, sizeof why, "%s: the DTensor v1 worker unshards the whole model for get_logprobs", s);
            imp_m_set(m, "plan.train.logprob_unshard", why, "true");
        }
    }
    /* NeMo RL takes log-probs eagerly: the BF16 logits upcast to FP32, log-softmax'd (DistributedLogprob under TP,
    ** torch's log_softmax at TP 1; nemo_rl/distributed/model_utils.py, the DTensor workers' get_logprobs, Megatron's
    ** from_parallel_logits_to_logprobs); no key selects a fused path for DTensor */
    imp_m_set(m, "plan.train.logits", meg ? "NeMo RL's Megatron log-probs (from_parallel_logits_to_logprobs: FP32 upcast, "
              "distributed log-softmax)" : "NeMo RL's DTensor get_logprobs (FP32 upcast, eager log-softmax)", "\"eager\"");
    bool pack, dyn;
    if (!versioned(m, "policy.sequence_packing.enabled", &pack, s, sizeof s) ||
        !versioned(m, "policy.dynamic_batching.enabled", &dyn, s2, sizeof s2)) return false;
    if (!imp_m_gnum(m, "policy.train_micro_batch_size", &d, NULL, why, sizeof why)) return false;
    imp_m_set(m, "plan.train.micro_batch", why, "%g", d);
    if (pack || dyn) {
        /* both bound a micro-batch by train_mb_tokens: packing concatenates the sequences into bins of that many
        ** tokens, dynamic batching groups length-sorted sequences under it (nemo_rl/distributed/batched_data_dict.py,
        ** shard_by_batch_size) */
        const char *k = pack ? "policy.sequence_packing.train_mb_tokens" : "policy.dynamic_batching.train_mb_tokens";
        char s3[320];
        if (!imp_m_gnum(m, k, &d, NULL, s3, sizeof s3)) return false;
        snprintf(why, sizeof why, "%s with %s", s3, pack ? s : s2);
        imp_m_set(m, "plan.train.max_tokens", why, "%g", d);
        imp_m_set(m, "plan.train.padding", why, "\"none\"");
        if (!pack) imp_m_warn(m, "policy.dynamic_batching.enabled = true: its length-sorted micro-batches pad to their "
                           "longest; fusync counts them packed (written back as sequence packing)");
    } else {
        snprintf(why, sizeof why, "%s and %s off: micro-batches padded to their longest", s, s2);
        imp_m_set(m, "plan.train.padding", why, "\"longest\"");
    }
    /* the log-prob forwards' batches (get_logprobs: logprob_batch_size sequences, or under packing / dynamic
    ** batching bins of logprob_mb_tokens) and the chunked log-softmax (logprob_chunk_size) */
    if (!imp_m_gnum(m, "policy.logprob_batch_size", &d, NULL, why, sizeof why)) return false;
    imp_m_set(m, "plan.train.logprob_batch", why, "%g", d);
    if (pack || dyn) {
        const char *k = pack ? "policy.sequence_packing.logprob_mb_tokens" : "policy.dynamic_batching.logprob_mb_tokens";
        if (!imp_m_gnum(m, k, &d, NULL, why, sizeof why)) return false;
        imp_m_set(m, "plan.train.logprob_tokens", why, "%g", d);
    }
    bool cnul;
    if (!imp_m_gnum(m, "policy.logprob_chunk_size", &d, &cnul, why, sizeof why)) return false;
    if (!cnul && d > 0) imp_m_set(m, "plan.train.logprob_chunk", why, "%g", d);
    imp_m_set(m, "plan.rollout.max_seqs", "vLLM's default max_num_seqs (NeMo RL does not set it)", "256");
    if (!imp_m_gbool(m, "grpo.async_grpo.enabled", &b, s, sizeof s)) return false;
    if (b) {
        if (!imp_m_gnum(m, "grpo.async_grpo.max_trajectory_age_steps", &d, NULL, s2, sizeof s2)) return false;
        imp_m_set(m, "plan.staleness", s2, "%g", d);
        if (!imp_m_gbool(m, "grpo.async_grpo.in_flight_weight_updates", &b, s, sizeof s)) return false;
        imp_m_set(m, "plan.on_update", s, "\"%s\"", b ? "continue" : "restart");
    }
    return true;
}
