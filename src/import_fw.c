/*
** import_fw.c — what fusync knows of each framework's keys: the framework's
** own default (so a key a script leaves out gets the framework's value, not
** fusync's), and whether the key is mapped, affects performance without
** being modelled, or does not affect performance.
**
** The defaults are facts read from the frameworks' public default config
** files, at the versions named in imp_fw_source():
**   verl       verl/trainer/config/_generated_ppo_trainer.yaml and
**              _generated_ppo_megatron_trainer.yaml (the composed defaults)
**   OpenRLHF   openrlhf/cli/train_ppo_ray.py (its argparse defaults)
**   NeMo RL    examples/configs/grpo_math_1B.yaml (the base every GRPO
**              recipe's defaults chain ends in)
** A key is looked up exactly first, then against the patterns (fnmatch, `*`
** crossing dots) in table order; docs/frameworks.md has the rules.
*/
#include "import_fw.h"

#include <fnmatch.h>
#include <string.h>

#define M IMP_K_MAP
#define P IMP_K_PERF
#define N IMP_K_NOPERF

/* ------------------------------------------------------------------ verl */

static const imp_keydef VERL[] = {
    {"hydra.config_name", "ppo_trainer", M, NULL},
    {"hydra.config_path", NULL, N, NULL},
    {"trainer.nnodes", "1", M, NULL},
    {"trainer.n_gpus_per_node", "8", M, NULL},
    {"data.train_batch_size", "1024", M, NULL},
    {"data.max_prompt_length", "512", M, NULL},
    {"data.max_response_length", "512", M, NULL},
    {"actor_rollout_ref.hybrid_engine", "true", M, NULL},
    {"actor_rollout_ref.model.path", "~/models/deepseek-llm-7b-chat", M, NULL},
    {"actor_rollout_ref.model.enable_gradient_checkpointing", "true", M, NULL},
    {"actor_rollout_ref.model.use_remove_padding", "true", M, NULL},
    {"actor_rollout_ref.model.enable_activation_offload", "false", P,
     "activation offload to host memory: not modelled; fusync keeps activations on the device (recompute as set)"},
    {"actor_rollout_ref.model.lora_rank", "0", M, NULL},
    {"actor_rollout_ref.model.target_modules", "all-linear", M, NULL},
    {"actor_rollout_ref.model.lora.rank", "0", M, NULL},
    {"actor_rollout_ref.model.lora.target_modules", "[linear_qkv, linear_proj, linear_fc1, linear_fc2]", M, NULL},
    {"actor_rollout_ref.model.use_liger", "false", P, "fused kernels: not modelled; fold into efficiency.train"},
    {"actor_rollout_ref.model.use_fused_kernels", "false", P,
     "fused kernels (log-probs from the hidden states, no logits tensor): not modelled; fusync books one FP32 copy of "
     "the logits (plan.train.logits fp32, memory over-counted); fold the time into efficiency.train"},
    {"actor_rollout_ref.model.*", NULL, N, NULL},
    {"actor_rollout_ref.actor.strategy", "fsdp", M, NULL},
    {"actor_rollout_ref.actor.ppo_mini_batch_size", "256", M, NULL},
    {"actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", "null", M, NULL},
    {"actor_rollout_ref.actor.ppo_micro_batch_size", "null", M, NULL},
    {"actor_rollout_ref.actor.use_dynamic_bsz", "false", M, NULL},
    {"actor_rollout_ref.actor.ppo_max_token_len_per_gpu", "16384", M, NULL},
    {"actor_rollout_ref.actor.ppo_epochs", "1", M, NULL},
    {"actor_rollout_ref.actor.use_kl_loss", "false", M, NULL},
    {"actor_rollout_ref.actor.ulysses_sequence_parallel_size", "1", M, NULL},
    {"actor_rollout_ref.actor.fsdp_config.fsdp_size", "-1", M, NULL},
    {"actor_rollout_ref.actor.fsdp_config.param_offload", "false", M, NULL},
    {"actor_rollout_ref.actor.fsdp_config.optimizer_offload", "false", M, NULL},
    {"actor_rollout_ref.actor.fsdp_config.offload_policy", "false", M, NULL},
    {"actor_rollout_ref.actor.fsdp_config.reshard_after_forward", "true", P,
     "fusync's ZeRO-3 gathers parameters for the forward and again for the backward, as reshard_after_forward true"},
    {"actor_rollout_ref.actor.fsdp_config.forward_prefetch", "false", P,
     "prefetch: fusync hides plan.train.overlap (0.5) of the gathers whatever this says"},
    {"actor_rollout_ref.actor.fsdp_config.*", NULL, N, NULL},
    {"actor_rollout_ref.actor.megatron.tensor_model_parallel_size", "1", M, NULL},
    {"actor_rollout_ref.actor.megatron.pipeline_model_parallel_size", "1", M, NULL},
    {"actor_rollout_ref.actor.megatron.expert_model_parallel_size", "1", M, NULL},
    {"actor_rollout_ref.actor.megatron.context_parallel_size", "1", M, NULL},
    {"actor_rollout_ref.actor.megatron.use_distributed_optimizer", "true", M, NULL},
    {"actor_rollout_ref.actor.megatron.param_offload", "false", M, NULL},
    {"actor_rollout_ref.actor.megatron.grad_offload", "false", M, NULL},
    {"actor_rollout_ref.actor.megatron.optimizer_offload", "false", M, NULL},
    {"actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity", "null", M, NULL},
    {"actor_rollout_ref.actor.megatron.virtual_pipeline_model_parallel_size", "null", P,
     "interleaved (virtual) pipeline stages: not modelled; fusync's pipeline bubble is the plain 1F1B one"},
    /* null: Megatron-Core takes the TP size (parallel_state.py,
    ** initialize_model_parallel); fusync's plan.train.etp 0 is the same */
    {"actor_rollout_ref.actor.megatron.expert_tensor_parallel_size", "null", M, NULL},
    {"actor_rollout_ref.actor.megatron.sequence_parallel", "true", P,
     "Megatron sequence parallelism: fusync's TP activations are those of sequence parallelism on"},
    /* Megatron's TransformerConfig defaults (megatron/core/transformer/transformer_config.py): both off */
    {"actor_rollout_ref.actor.megatron.override_transformer_config.account_for_embedding_in_pipeline_split", "false", M, NULL},
    {"actor_rollout_ref.actor.megatron.override_transformer_config.account_for_loss_in_pipeline_split", "false", M, NULL},
    /* verl sets the all-to-all dispatcher itself before applying the
    ** overrides (verl/workers/megatron_workers.py at b178a3cd5:
    ** provider.moe_token_dispatcher_type = "alltoall"; Megatron-Core's own
    ** default, "allgather", does not reach a verl run) */
    {"actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type", "alltoall", M, NULL},
    /* FP8 training (Megatron-Core's TransformerConfig fp8, fp8_recipe, fp8_param; defaults None, "delayed",
    ** False): read by imp_m_train_precision */
    {"actor_rollout_ref.actor.megatron.override_transformer_config.fp8", "null", M, NULL},
    {"actor_rollout_ref.actor.megatron.override_transformer_config.fp8_recipe", "delayed", M, NULL},
    {"actor_rollout_ref.actor.megatron.override_transformer_config.fp8_param", "false", M, NULL},
    {"actor_rollout_ref.actor.megatron.override_transformer_config.*", NULL, P,
     "a Megatron transformer setting: not modelled; fold into efficiency.train"},
    {"actor_rollout_ref.actor.megatron.*", NULL, N, NULL},
    /* Megatron-core's OptimizerConfig (megatron/core/optimizer/optimizer_config.py): offload off, fraction 0.0 */
    {"actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload", "false", M, NULL},
    {"actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_offload_fraction", "0.0", M, NULL},
    {"actor_rollout_ref.actor.optim.*", NULL, N, NULL},
    /* the actor's other keys (losses, clipping, seeds): named one by one, so a misspelt key is refused */
    {"actor_rollout_ref.actor.clip_ratio*", NULL, N, NULL}, {"actor_rollout_ref.actor.tau_*", NULL, N, NULL},
    {"actor_rollout_ref.actor.policy_loss.*", NULL, N, NULL}, {"actor_rollout_ref.actor.checkpoint.*", NULL, N, NULL},
    {"actor_rollout_ref.actor.profiler.*", NULL, N, NULL}, {"actor_rollout_ref.actor.router_replay.*", NULL, N, NULL},
    /* the entropy over the logits (dp_actor.py, update_policy and _forward_micro_batch;
    ** _generated_ppo_trainer.yaml at b178a3c: entropy_coeff 0, calculate_entropy false, no chunking, no
    ** checkpointing, use_torch_compile true) */
    {"actor_rollout_ref.actor.entropy_coeff", "0", M, NULL}, {"actor_rollout_ref.actor.kl_loss_coef", NULL, N, NULL},
    {"actor_rollout_ref.actor.kl_loss_type", NULL, N, NULL}, {"actor_rollout_ref.actor.loss_agg_mode", NULL, N, NULL},
    {"actor_rollout_ref.actor.loss_scale_factor", NULL, N, NULL}, {"actor_rollout_ref.actor.calculate_entropy", "false", M, NULL},
    {"actor_rollout_ref.actor.shuffle", NULL, N, NULL}, {"actor_rollout_ref.actor.data_loader_seed", NULL, N, NULL},
    {"actor_rollout_ref.actor.grad_clip", NULL, N, NULL}, {"actor_rollout_ref.actor.rollout_n", NULL, N, NULL},
    {"actor_rollout_ref.actor._target_", NULL, N, NULL}, {"actor_rollout_ref.actor.freeze_vision_tower", NULL, N, NULL},
    {"actor_rollout_ref.actor.use_torch_compile", "true", M, NULL}, {"actor_rollout_ref.actor.use_fused_kernels", NULL, N, NULL},
    {"actor_rollout_ref.actor.use_remove_padding", NULL, N, NULL}, {"actor_rollout_ref.actor.use_prefix_grouper", NULL, N, NULL},
    {"actor_rollout_ref.actor.entropy_from_logits_with_chunking", "false", M, NULL},
    {"actor_rollout_ref.actor.entropy_checkpointing", "false", M, NULL}, {"actor_rollout_ref.actor.load_weight", NULL, N, NULL},
    {"actor_rollout_ref.actor.calculate_sum_pi_squared", NULL, N, NULL},
    {"actor_rollout_ref.actor.sum_pi_squared_checkpointing", NULL, N, NULL},
    /* the log-prob forwards' batches (dp_actor.py, compute_log_prob): ref and rollout default to the actor's
    ** token budget (_generated_ppo_trainer.yaml: oc.select of actor.use_dynamic_bsz, ppo_max_token_len_per_gpu) */
    {"actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu", "null", M, NULL},
    {"actor_rollout_ref.ref.log_prob_micro_batch_size", "null", M, NULL},
    {"actor_rollout_ref.ref.log_prob_use_dynamic_bsz", "${actor_rollout_ref.actor.use_dynamic_bsz}", M, NULL},
    {"actor_rollout_ref.ref.log_prob_max_token_len_per_gpu", "${actor_rollout_ref.actor.ppo_max_token_len_per_gpu}", M, NULL},
    {"actor_rollout_ref.ref.fsdp_config.param_offload", "false", M, NULL},
    /* _generated_ppo_megatron_trainer.yaml: oc.select of the actor's param_offload, else false */
    {"actor_rollout_ref.ref.megatron.param_offload", "${actor_rollout_ref.actor.megatron.param_offload}", M, NULL},
    {"actor_rollout_ref.ref.megatron.*", NULL, P, "fusync runs the reference with the actor's training layout"},
    {"actor_rollout_ref.ref.*", NULL, N, NULL},
    {"actor_rollout_ref.rollout.n", "1", M, NULL},
    {"actor_rollout_ref.rollout.tensor_model_parallel_size", "2", M, NULL},
    {"actor_rollout_ref.rollout.expert_parallel_size", "1", M, NULL},
    {"actor_rollout_ref.rollout.gpu_memory_utilization", "0.5", M, NULL},
    {"actor_rollout_ref.rollout.max_num_seqs", "256", M, NULL},
    {"actor_rollout_ref.rollout.max_model_len", "null", M, NULL},
    {"actor_rollout_ref.rollout.name", "???", N, NULL},
    {"actor_rollout_ref.rollout.mode", "async", N, NULL},
    {"actor_rollout_ref.rollout.data_parallel_size", "1", P, "inference data parallelism inside one engine: fusync counts instances of tp devices instead"},
    {"actor_rollout_ref.rollout.pipeline_model_parallel_size", "1", P, "inference pipeline stages: not modelled"},
    {"actor_rollout_ref.rollout.max_num_batched_tokens", "8192", M, NULL},
    {"actor_rollout_ref.rollout.enable_chunked_prefill", "true", M, NULL},
    {"actor_rollout_ref.rollout.enable_prefix_caching", "true", P,
     "prefix caching: not modelled; each of a prompt's n samples prefills the prompt"},
    {"actor_rollout_ref.rollout.free_cache_engine", "true", M, NULL},
    {"actor_rollout_ref.rollout.layered_summon", "false", M, NULL},
    {"actor_rollout_ref.rollout.enforce_eager", "false", M, NULL},
    {"actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu", "null", M, NULL},
    {"actor_rollout_ref.rollout.log_prob_micro_batch_size", "null", M, NULL},
    {"actor_rollout_ref.rollout.log_prob_use_dynamic_bsz", "${actor_rollout_ref.actor.use_dynamic_bsz}", M, NULL},
    {"actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu", "${actor_rollout_ref.actor.ppo_max_token_len_per_gpu}", M, NULL},
    {"actor_rollout_ref.rollout.multi_turn.enable", "false", P, "multi-turn rollouts: fusync generates one turn"},
    {"actor_rollout_ref.rollout.calculate_log_probs", "false", N, NULL},
    /* FP8 or torchao rollout weights (verl/workers/config/rollout.py, quantization; vllm_async_server.py) and
    ** vLLM's KV cache dtype through engine_kwargs (vLLM's own default "auto"): read by imp_m_rollout_precision */
    {"actor_rollout_ref.rollout.quantization", "null", M, NULL},
    {"actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_dtype", "auto", M, NULL},
    /* vLLM's kv_cache_memory_bytes (null: sized from gpu_memory_utilization): read by imp_m_kv_cache_bytes */
    {"actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_memory_bytes", "null", M, NULL},
    {"actor_rollout_ref.rollout.*", NULL, N, NULL},
    {"actor_rollout_ref.nccl_timeout", NULL, N, NULL},
    {"algorithm.adv_estimator", "gae", M, NULL},
    {"algorithm.use_kl_in_reward", "false", M, NULL},
    {"algorithm.*", NULL, N, NULL},
    {"critic.strategy", "fsdp", M, NULL},
    {"critic.model.path", "~/models/deepseek-llm-7b-chat", M, NULL},
    {"critic.model.*", NULL, N, NULL},
    {"critic.ppo_micro_batch_size_per_gpu", "null", P, "fusync trains the critic with the actor's micro-batch and layout"},
    {"critic.megatron.*", NULL, P, "fusync trains the critic with the actor's layout"},
    {"critic.*", NULL, N, NULL},
    {"reward_model.enable", "false", M, NULL},
    {"reward_model.model.path", "~/models/FsfairX-LLaMA3-RM-v0.1", M, NULL},
    {"reward_model.reward_manager", "naive", M, NULL},
    {"reward_model.micro_batch_size_per_gpu", "null", P, "fusync runs the reward model's forward with the training micro-batch"},
    /* verl/trainer/main_ppo.py, init_resource_pool_mgr: a reward_pool of [n_gpus_per_node] * nnodes (verl b178a3c) */
    {"reward_model.enable_resource_pool", "false", P,
     "the reward model on a pool of its own (reward_model.nnodes x n_gpus_per_node): not modelled; fusync runs it on "
     "the shared GPUs"},
    {"reward_model.*", NULL, N, NULL},
    {"reward_manager.*", NULL, N, NULL},
    {"trainer.balance_batch", "true", P, "fusync balances tokens across data-parallel ranks always, as balance_batch true"},
    {"trainer.test_freq", "-1", P, "validation passes are not simulated"},
    {"trainer.save_freq", "-1", P, "checkpoint saves are not simulated"},
    {"trainer.*", NULL, N, NULL},
    {"data.*", NULL, N, NULL},
    {"custom_reward_function.*", NULL, N, NULL},
    {"global_profiler.*", NULL, N, NULL},
    {"ray_kwargs.*", NULL, N, NULL},
    {"transfer_queue.*", NULL, N, NULL},
    {"critic", NULL, N, NULL},
    {NULL, NULL, N, NULL}
};

/* -------------------------------------------------------------- OpenRLHF */

static const imp_keydef ORLHF[] = {
    {"actor.num_nodes", "1", M, NULL}, {"actor.num_gpus_per_node", "8", M, NULL},
    {"ref.num_nodes", "1", M, NULL}, {"ref.num_gpus_per_node", "8", M, NULL},
    {"reward.num_nodes", "1", M, NULL}, {"reward.num_gpus_per_node", "8", M, NULL},
    {"critic.num_nodes", "1", M, NULL}, {"critic.num_gpus_per_node", "8", M, NULL},
    {"train.colocate_all", "false", M, NULL},
    {"train.colocate_actor_ref", "false", M, NULL},
    {"train.colocate_critic_reward", "false", M, NULL},
    {"vllm.num_engines", "null", M, NULL},
    {"vllm.tensor_parallel_size", "1", M, NULL},
    {"vllm.gpu_memory_utilization", "0.95", M, NULL},
    {"vllm.enable_sleep", "false", M, NULL},
    {"ds.enable_sleep", "false", M, NULL},
    {"train.async_enable", "false", M, NULL},
    {"train.async_queue_size", "1", M, NULL},
    {"train.partial_rollout_enable", "false", M, NULL},
    {"ds.zero_stage", "2", M, NULL},
    {"ds.tensor_parallel_size", "1", M, NULL},
    {"ds.ring_attn_size", "1", M, NULL},
    {"ds.adam_offload", "false", M, NULL},
    {"ds.packing_samples", "false", M, NULL},
    {"train.dynamic_batch_enable", "false", M, NULL},
    {"train.max_tokens_per_gpu", "16192", M, NULL},
    {"actor.gradient_checkpointing_enable", "false", M, NULL},
    {"rollout.batch_size", "1024", M, NULL},
    {"rollout.n_samples_per_prompt", "1", M, NULL},
    {"train.batch_size", "128", M, NULL},
    {"train.micro_batch_size", "1", M, NULL},
    {"train.max_epochs", "1", M, NULL},
    {"data.max_len", "2048", M, NULL},
    {"rollout.max_new_tokens", "null", M, NULL},
    {"algo.kl.init_coef", "0.01", M, NULL},
    {"algo.kl.use_loss", "false", M, NULL},
    {"algo.advantage.estimator", "gae", M, NULL},
    {"actor.model_name_or_path", "null", M, NULL},
    {"reward.model_name_or_path", "null", M, NULL},
    {"reward.remote_url", "null", M, NULL},
    {"critic.model_name_or_path", "null", M, NULL},
    {"ref.offload", "false", M, NULL},
    {"reward.offload", "false", M, NULL},
    {"ref_reward_offload", NULL, M, NULL},
    {"rollout.micro_batch_size", "1", M, NULL},
    {"rollout.max_tokens_per_gpu", "${train.max_tokens_per_gpu}", M, NULL},
    {"rollout.vllm_generate_batch_size", "null", P, "over-sampling: fusync generates exactly a step's samples"},
    {"vllm.enforce_eager", "false", M, NULL},
    {"vllm.enable_prefix_caching", "false", P, "prefix caching: not modelled"},
    {"vllm.sync_with_ray", "false", P, "weight sync through Ray's object store: fusync syncs over the fabric"},
    {"vllm.sync_backend", "nccl", N, NULL},
    {"ds.overlap_comm", "false", P, "fusync hides plan.train.overlap (0.5) of the ZeRO collectives whatever this says"},
    {"ds.zpg", "1", P, "ZeRO++ hierarchical partitioning: not modelled"},
    {"ds.deepcompile", "false", P, "DeepCompile: not modelled; fold into efficiency.train"},
    {"ds.use_liger_kernel", "false", P, "fused kernels: not modelled; fold into efficiency.train"},
    {"ds.lora.rank", "0", M, NULL},
    {"ds.lora.target_modules", "all-linear", M, NULL},
    {"lora_rank", NULL, M, NULL}, {"target_modules", NULL, M, NULL}, {"lora_alpha", NULL, N, NULL},
    {"ds.load_in_4bit", "false", P, "4-bit weights: not modelled; BF16 weights counted"},
    {"ds.param_dtype", "bf16", P, "fusync counts BF16 parameters and FP32 optimizer states"},
    {"ds.grad_accum_dtype", "null", P, "fusync's plan.train.grad_dtype is fp32, DeepSpeed's default"},
    {"ds.attn_implementation", "flash_attention_2", P, "fusync's attention cost is that of a fused (flash) kernel"},
    {"train.enable_ema", "false", P, "an EMA copy of the actor: not counted in memory"},
    {"train.agent_func_path", "null", P, "agent environments: fusync generates one turn"},
    {"algo.dynamic_filtering_enable", "false", P, "dynamic filtering re-samples prompts: fusync generates one batch a step"},
    {"eval.steps", "-1", P, "evaluation passes are not simulated"},
    {"ckpt.save_steps", "-1", P, "checkpoint saves are not simulated"},
    {"ckpt.*", NULL, N, NULL}, {"logger.*", NULL, N, NULL}, {"eval.*", NULL, N, NULL},
    {"data.*", NULL, N, NULL}, {"actor.adam.*", NULL, N, NULL}, {"critic.adam.*", NULL, N, NULL},
    {"actor.muon.*", NULL, N, NULL}, {"critic.muon.*", NULL, N, NULL},
    {"actor.optim", NULL, N, NULL}, {"critic.optim", NULL, N, NULL},
    {"*.lr_scheduler", NULL, N, NULL}, {"*.lr_warmup_ratio", NULL, N, NULL}, {"*.min_lr_ratio", NULL, N, NULL},
    {"*.max_norm", NULL, N, NULL}, {"actor.eps_clip*", NULL, N, NULL}, {"actor.dual_clip", NULL, N, NULL},
    {"critic.value_clip", NULL, N, NULL}, {"algo.*", NULL, N, NULL}, {"reward.normalize_enable", NULL, N, NULL},
    {"reward.clip_range", NULL, N, NULL}, {"reward.overlong*", NULL, N, NULL},
    {"reward.stop_properly_penalty_coef", NULL, N, NULL}, {"rollout.top_p", NULL, N, NULL},
    {"rollout.temperature", NULL, N, NULL}, {"train.seed", NULL, N, NULL},
    {"train.full_determinism_enable", "false", P, "deterministic kernels and reductions: not modelled; fold into efficiency.train"},
    {"train.num_episodes", NULL, N, NULL},
    {"train.ema_beta", NULL, N, NULL},
    {"critic.freezing_steps", "-1", P, "the first steps train only the critic: fusync simulates steps that train the actor too"},
    {"critic.save_value_network", NULL, N, NULL}, {"actor.policy_loss_type", NULL, N, NULL},
    {"actor.aux_loss_coef", NULL, N, NULL}, {"actor.entropy_coef", "null", M, NULL},
    {"actor.gradient_checkpointing_reentrant", NULL, N, NULL}, {"actor.freeze_visual_encoder", NULL, N, NULL},
    {"ds.value_head_prefix", NULL, N, NULL}, {"ds.use_universal_ckpt", NULL, N, NULL},
    {"ds.experts_implementation", "null", P, "the MoE experts' kernels (transformers' experts_implementation): not modelled; fold into efficiency.train"},
    {"ds.ring_attn_head_stride", "1", P, "ring attention over groups of heads: fusync sends each layer's K/V block whole (plan.train.cp_kind \"ring\")"},
    {"ds.lora.*", NULL, N, NULL}, {"local_rank", NULL, N, NULL}, {"use_ms", NULL, N, NULL},
    {NULL, NULL, N, NULL}
};

/* argparse store_true options of train_ppo_ray.py: they take no value */
static const char *const ORLHF_FLAGS[] = {
    "train.colocate_actor_ref", "train.colocate_critic_reward", "train.colocate_all", "vllm.sync_with_ray",
    "vllm.enable_prefix_caching", "vllm.enforce_eager", "vllm.enable_sleep", "algo.advantage.is_correction_enable",
    "train.async_enable", "train.partial_rollout_enable", "ckpt.save_hf", "ckpt.disable_ds", "ckpt.load_enable",
    "ds.use_universal_ckpt", "actor.gradient_checkpointing_enable", "ds.deepcompile", "train.enable_ema",
    "ds.adam_offload", "ds.use_liger_kernel", "ds.overlap_comm", "actor.gradient_checkpointing_reentrant",
    "data.disable_fast_tokenizer", "ds.enable_sleep", "ds.packing_samples", "train.dynamic_batch_enable",
    "ds.load_in_4bit", "reward.normalize_enable", "train.full_determinism_enable", "critic.save_value_network",
    "actor.muon.nesterov", "critic.muon.nesterov", "actor.muon.no_nesterov", "critic.muon.no_nesterov",
    "algo.kl.use_loss", "algo.advantage.no_std_norm", "ref.offload", "reward.offload", "data.apply_chat_template",
    "algo.dynamic_filtering_enable", "actor.freeze_visual_encoder", "use_ms", "ref_reward_offload", NULL
};

/* --------------------------------------------------------------- NeMo RL */

static const imp_keydef NEMO[] = {
    {"grpo.num_prompts_per_step", "32", M, NULL},
    {"grpo.num_generations_per_prompt", "16", M, NULL},
    {"grpo.async_grpo.enabled", "false", M, NULL},
    {"grpo.async_grpo.max_trajectory_age_steps", "1", M, NULL},
    {"grpo.async_grpo.in_flight_weight_updates", "false", M, NULL},
    /* nemo_rl/algorithms/async_utils/trajectory_collector.py: the in-flight sequences' KV cache recomputed
    ** under the new weights (NeMo RL 7ea279a) */
    {"grpo.async_grpo.recompute_kv_cache_after_weight_updates", "false", P,
     "in-flight sequences recompute their KV cache after a weight update: not modelled; fusync continues them on "
     "their old cache (plan.on_update \"continue\")"},
    {"grpo.max_rollout_turns", "1", P, "multi-turn rollouts: fusync generates one turn"},
    {"grpo.val_period", "10", P, "validation passes are not simulated"},
    {"grpo.use_dynamic_sampling", "false", P, "dynamic sampling re-generates batches: fusync generates one a step"},
    {"grpo.*", NULL, N, NULL},
    {"policy.model_name", "Qwen/Qwen2.5-1.5B", M, NULL},
    {"policy.train_global_batch_size", "512", M, NULL},
    {"policy.train_micro_batch_size", "4", M, NULL},
    {"policy.max_total_sequence_length", "512", M, NULL},
    {"policy.logprob_batch_size", "${policy.train_micro_batch_size}", M, NULL},
    {"policy.logprob_chunk_size", "null", M, NULL},
    {"policy.precision", "bfloat16", P, "fusync counts BF16 parameters and FP32 optimizer states"},
    {"policy.dtensor_cfg.enabled", "true", M, NULL},
    {"policy.dtensor_cfg._v2", "true", M, NULL},
    {"policy.dtensor_cfg.cpu_offload", "false", M, NULL},
    {"policy.dtensor_cfg.activation_checkpointing", "false", M, NULL},
    {"policy.dtensor_cfg.tensor_parallel_size", "1", M, NULL},
    {"policy.dtensor_cfg.context_parallel_size", "1", M, NULL},
    {"policy.dtensor_cfg.sequence_parallel", "false", P, "sequence parallelism: fusync's TP activations are those with it on"},
    {"policy.dtensor_cfg.lora_cfg.enabled", "false", M, NULL},
    {"policy.dtensor_cfg.lora_cfg.dim", "8", M, NULL},
    {"policy.dtensor_cfg.lora_cfg.target_modules", "[]", M, NULL},
    {"policy.dtensor_cfg.lora_cfg.match_all_linear", "true", M, NULL},
    {"policy.dtensor_cfg.*", NULL, N, NULL},
    {"policy.megatron_cfg.enabled", "false", M, NULL},
    {"policy.megatron_cfg.activation_checkpointing", "false", M, NULL},
    {"policy.megatron_cfg.recompute_granularity", "full", M, NULL},
    {"policy.megatron_cfg.tensor_model_parallel_size", "1", M, NULL},
    {"policy.megatron_cfg.pipeline_model_parallel_size", "1", M, NULL},
    {"policy.megatron_cfg.expert_model_parallel_size", "1", M, NULL},
    {"policy.megatron_cfg.expert_tensor_parallel_size", "1", M, NULL},
    {"policy.megatron_cfg.context_parallel_size", "1", M, NULL},
    /* NeMo RL reads the key unguarded (config["megatron_cfg"][
    ** "moe_token_dispatcher_type"], nemo_rl/models/megatron/setup.py at
    ** 7ea279abf) and its base config sets "alltoall"
    ** (examples/configs/grpo_math_1B.yaml) */
    {"policy.megatron_cfg.moe_token_dispatcher_type", "alltoall", M, NULL},
    {"policy.megatron_cfg.optimizer.use_distributed_optimizer", "true", M, NULL},
    {"policy.megatron_cfg.optimizer.optimizer_cpu_offload", "false", M, NULL},
    {"policy.megatron_cfg.optimizer.optimizer_offload_fraction", "0.0", M, NULL},
    {"policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32", "false", M, NULL},
    {"policy.megatron_cfg.distributed_data_parallel_config.overlap_grad_reduce", "true", P,
     "overlapped gradient reduction: fusync's plan.train.overlap_grad stays at its default unless set"},
    {"policy.megatron_cfg.distributed_data_parallel_config.overlap_param_gather", "true", P,
     "overlapped parameter gathers: fusync's plan.train.overlap covers them"},
    {"policy.megatron_cfg.empty_unused_memory_level", "1", P, "allocator cache release: not modelled"},
    {"policy.megatron_cfg.sequence_parallel", "false", P, "sequence parallelism: fusync's TP activations are those with it on"},
    /* FP8 training (grpo_math_1B.yaml: enabled false, e4m3, blockwise, fp8_param false): read by
    ** imp_m_train_precision */
    {"policy.megatron_cfg.fp8_cfg.enabled", "false", M, NULL},
    {"policy.megatron_cfg.fp8_cfg.fp8", "e4m3", M, NULL},
    {"policy.megatron_cfg.fp8_cfg.fp8_recipe", "blockwise", M, NULL},
    {"policy.megatron_cfg.fp8_cfg.fp8_param", "false", M, NULL},
    {"policy.megatron_cfg.env_vars.NVTE_FP8_BLOCK_SCALING_FP32_SCALES", "null", N, NULL},
    {"policy.megatron_cfg.optimizer.*", NULL, N, NULL},
    {"policy.megatron_cfg.scheduler.*", NULL, N, NULL},
    {"policy.megatron_cfg.checkpoint.*", NULL, N, NULL},
    {"policy.megatron_cfg.*", NULL, P, "a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train"},
    {"policy.sequence_packing.enabled", "true", M, NULL},
    {"policy.sequence_packing.train_mb_tokens", "${mul:${policy.max_total_sequence_length}, ${policy.train_micro_batch_size}}", M, NULL},
    {"policy.sequence_packing.logprob_mb_tokens", "${mul:${policy.max_total_sequence_length}, ${policy.logprob_batch_size}}", M, NULL},
    {"policy.dynamic_batching.enabled", "false", M, NULL},
    {"policy.dynamic_batching.train_mb_tokens", "${mul:${policy.max_total_sequence_length}, ${policy.train_micro_batch_size}}", M, NULL},
    {"policy.dynamic_batching.logprob_mb_tokens", "${mul:${policy.max_total_sequence_length}, ${policy.logprob_batch_size}}", M, NULL},
    {"policy.sequence_packing.*", NULL, N, NULL},
    {"policy.dynamic_batching.*", NULL, N, NULL},
    {"policy.generation.backend", "vllm", N, NULL},
    {"policy.generation.max_new_tokens", "${policy.max_total_sequence_length}", M, NULL},
    {"policy.generation.vllm_cfg.tensor_parallel_size", "1", M, NULL},
    {"policy.generation.vllm_cfg.expert_parallel_size", "1", M, NULL},
    {"policy.generation.vllm_cfg.gpu_memory_utilization", "0.6", M, NULL},
    {"policy.generation.vllm_cfg.pipeline_parallel_size", "1", P, "inference pipeline stages: not modelled"},
    {"policy.generation.vllm_cfg.async_engine", "false", P, "vLLM's async engine: fusync's engine admits sequences continuously either way"},
    {"policy.generation.vllm_cfg.enforce_eager", "false", M, NULL},
    /* FP8 generation weights and KV cache (nemo_rl/models/generation/vllm/quantization/fp8.py, config.py):
    ** read by imp_m_rollout_precision */
    {"policy.generation.vllm_cfg.precision", "${policy.precision}", M, NULL},
    {"policy.generation.vllm_cfg.kv_cache_dtype", "auto", M, NULL},
    {"policy.generation.vllm_cfg.max_model_len", "${policy.max_total_sequence_length}", M, NULL},
    {"policy.generation.vllm_cfg.*", NULL, N, NULL},
    /* passed to vLLM's LLM (vllm_worker.py); kv_cache_memory_bytes (null: sized from gpu_memory_utilization)
    ** read by imp_m_kv_cache_bytes */
    {"policy.generation.vllm_kwargs.kv_cache_memory_bytes", "null", M, NULL},
    {"policy.generation.colocated.enabled", "true", M, NULL},
    {"policy.generation.colocated.resources.gpus_per_node", "null", M, NULL},
    {"policy.generation.colocated.resources.num_nodes", "null", M, NULL},
    {"policy.generation.mcore_generation_config.*", NULL, P, "Megatron inference engine settings: not modelled"},
    {"policy.generation.*", NULL, N, NULL},
    {"policy.draft.enabled", "false", P, "a draft model for speculative decoding: see plan.rollout.spec_tokens"},
    /* the optimizer states to the host around the log-prob passes (nemo_rl/models/automodel/setup.py,
    ** megatron/setup.py; grpo_math_1B.yaml: for non-colocated generation) */
    {"policy.offload_optimizer_for_logprob", "false", P,
     "the optimizer states on the host during the log-prob passes: not modelled; fusync keeps them on the device "
     "there (memory over-counted)"},
    {"policy.*", NULL, N, NULL},
    {"cluster.gpus_per_node", "1", M, NULL},
    {"cluster.num_nodes", "1", M, NULL},
    {"cluster.*", NULL, N, NULL},
    {"loss_fn.reference_policy_kl_penalty", "0.01", M, NULL},
    {"loss_fn.*", NULL, N, NULL},
    {"env.math.num_workers", "8", M, NULL},
    {"env.*", NULL, N, NULL},
    {"data_plane.enabled", "false", P, "the transfer-queue data plane: fusync's plan.controller stays the driver"},
    {"data_plane.*", NULL, N, NULL},
    {"checkpointing.save_period", "10", P, "checkpoint saves are not simulated"},
    {"checkpointing.*", NULL, N, NULL},
    {"logger.*", NULL, N, NULL}, {"data.*", NULL, N, NULL}, {"reward_penalties.*", NULL, N, NULL},
    {"on_policy_distillation", NULL, N, NULL},
    {NULL, NULL, N, NULL}
};

/* ------------------------------------------------ one-to-one rules (both ways) */

#define R(k, f, c, g, fl) {k, f, IMP_C_##c, IMP_G_##g, fl}

static const imp_rule VERL_RULES[] = {
    R("trainer.n_gpus_per_node", "cluster.devices_per_node", NUM, ALL, 0),
    R("trainer.nnodes", "cluster.nodes", NUM, ALL, 0),
    R("data.train_batch_size", "workload.prompts_per_step", NUM, ALL, 0),
    R("actor_rollout_ref.rollout.n", "workload.samples_per_prompt", NUM, ALL, 0),
    R("actor_rollout_ref.actor.ppo_epochs", "workload.epochs", NUM, ALL, 0),
    R("actor_rollout_ref.rollout.tensor_model_parallel_size", "plan.rollout.tp", NUM, ALL, 0),
    R("actor_rollout_ref.rollout.expert_parallel_size", "plan.rollout.ep", NUM, ALL, IMP_R_GT1),
    R("actor_rollout_ref.rollout.max_num_seqs", "plan.rollout.max_seqs", NUM, ALL, 0),
    /* vLLM's max_model_len (docs/model.md, section 3); unset, verl's async
    ** server passes the model's max_position_embeddings
    ** (vllm_async_server.py at b178a3c), which the shape does not carry:
    ** the field stays 0, the workload's prompt cap + max_response */
    R("actor_rollout_ref.rollout.max_model_len", "plan.rollout.max_model_len", NUM, ALL, IMP_R_NULL),
    R("actor_rollout_ref.rollout.gpu_memory_utilization", "plan.rollout.mem_util", NUM, ALL, 0),
    R("actor_rollout_ref.actor.megatron.tensor_model_parallel_size", "plan.train.tp", NUM, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.pipeline_model_parallel_size", "plan.train.pp", NUM, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.expert_model_parallel_size", "plan.train.ep", NUM, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.expert_tensor_parallel_size", "plan.train.etp", NUM, MEGATRON, IMP_R_NULL),
    R("actor_rollout_ref.actor.megatron.context_parallel_size", "plan.train.cp", NUM, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type", "plan.train.moe_dispatcher",
      DISP, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.use_distributed_optimizer", "plan.train.zero", ZERO1, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.optimizer_offload", "plan.offload.optimizer", BOOL, MEGATRON, 0),
    R("actor_rollout_ref.actor.megatron.grad_offload", "plan.offload.grads", BOOL, MEGATRON, 0),
    R("actor_rollout_ref.actor.fsdp_config.fsdp_size", "plan.train.shard_group", SHARD, FSDP, 0),
    R("actor_rollout_ref.actor.fsdp_config.optimizer_offload", "plan.offload.optimizer", BOOL, FSDP, 0),
    /* verl's reference offload (docs/model.md, section 8): false, verl's
    ** default, keeps the reference on the device for the whole run
    ** (megatron_workers.py at add17f029: offloaded at init and reloaded in
    ** compute_ref_log_prob only when the key is true) */
    R("actor_rollout_ref.ref.fsdp_config.param_offload", "plan.offload.reference", AUXOFF, FSDP, 0),
    R("actor_rollout_ref.ref.megatron.param_offload", "plan.offload.reference", AUXOFF, MEGATRON, 0),
    R("actor_rollout_ref.model.enable_gradient_checkpointing", "plan.train.recompute", RECOMP, FSDP, 0),
    R("actor_rollout_ref.model.use_remove_padding", "plan.train.padding", PACK, FSDP, 0),
    /* vLLM's enforce_eager: no CUDA graphs, the decode step's launches paid in
    ** full (docs/model.md, section 5, the decode step's fixed cost) */
    R("actor_rollout_ref.rollout.enforce_eager", "plan.rollout.cuda_graphs", NOT, ALL, 0),
    {NULL, NULL, IMP_C_NUM, IMP_G_ALL, 0}
};

static const imp_rule ORLHF_RULES[] = {
    R("actor.num_gpus_per_node", "cluster.devices_per_node", NUM, ALL, 0),
    R("rollout.batch_size", "workload.prompts_per_step", NUM, ALL, 0),
    R("rollout.n_samples_per_prompt", "workload.samples_per_prompt", NUM, ALL, 0),
    R("train.max_epochs", "workload.epochs", NUM, ALL, 0),
    R("vllm.tensor_parallel_size", "plan.rollout.tp", NUM, ALL, 0),
    R("vllm.gpu_memory_utilization", "plan.rollout.mem_util", NUM, ALL, 0),
    R("ds.zero_stage", "plan.train.zero", NUM, ALL, 0),
    R("ds.tensor_parallel_size", "plan.train.tp", NUM, ALL, 0),
    R("actor.gradient_checkpointing_enable", "plan.train.recompute", RECOMP, ALL, 0),
    R("ds.adam_offload", "plan.train.optimizer_offload", SHARE, ALL, 0),
    R("ds.packing_samples", "plan.train.padding", PACK, ALL, 0),
    R("vllm.enforce_eager", "plan.rollout.cuda_graphs", NOT, ALL, 0),
    {NULL, NULL, IMP_C_NUM, IMP_G_ALL, 0}
};

static const imp_rule NEMO_RULES[] = {
    R("cluster.gpus_per_node", "cluster.devices_per_node", NUM, ALL, 0),
    R("cluster.num_nodes", "cluster.nodes", NUM, ALL, 0),
    R("grpo.num_prompts_per_step", "workload.prompts_per_step", NUM, ALL, 0),
    R("grpo.num_generations_per_prompt", "workload.samples_per_prompt", NUM, ALL, 0),
    R("env.math.num_workers", "plan.reward_workers", NUM, ALL, 0),
    R("policy.megatron_cfg.tensor_model_parallel_size", "plan.train.tp", NUM, MEGATRON, 0),
    R("policy.megatron_cfg.pipeline_model_parallel_size", "plan.train.pp", NUM, MEGATRON, 0),
    R("policy.megatron_cfg.expert_model_parallel_size", "plan.train.ep", NUM, MEGATRON, 0),
    R("policy.megatron_cfg.expert_tensor_parallel_size", "plan.train.etp", NUM, MEGATRON, IMP_R_NULL),
    R("policy.megatron_cfg.context_parallel_size", "plan.train.cp", NUM, MEGATRON, 0),
    R("policy.megatron_cfg.moe_token_dispatcher_type", "plan.train.moe_dispatcher", DISP, MEGATRON, 0),
    R("policy.megatron_cfg.optimizer.use_distributed_optimizer", "plan.train.zero", ZERO1, MEGATRON, 0),
    R("policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32", "plan.train.grad_dtype", FP32, MEGATRON, 0),
    R("policy.dtensor_cfg.tensor_parallel_size", "plan.train.tp", NUM, FSDP, 0),
    R("policy.dtensor_cfg.context_parallel_size", "plan.train.cp", NUM, FSDP, 0),
    R("policy.dtensor_cfg.activation_checkpointing", "plan.train.recompute", RECOMP, FSDP, 0),
    R("policy.dtensor_cfg.cpu_offload", "plan.train.optimizer_offload", SHARE, FSDP, 0),
    R("policy.generation.vllm_cfg.enforce_eager", "plan.rollout.cuda_graphs", NOT, ALL, 0),
    R("policy.generation.vllm_cfg.tensor_parallel_size", "plan.rollout.tp", NUM, ALL, 0),
    R("policy.generation.vllm_cfg.expert_parallel_size", "plan.rollout.ep", NUM, ALL, IMP_R_GT1),
    R("policy.generation.vllm_cfg.gpu_memory_utilization", "plan.rollout.mem_util", NUM, ALL, 0),
    {NULL, NULL, IMP_C_NUM, IMP_G_ALL, 0}
};

#undef R

const imp_rule *imp_fw_rules(imp_framework fw)
{
    return fw == IMP_VERL ? VERL_RULES : fw == IMP_OPENRLHF ? ORLHF_RULES : NEMO_RULES;
}

static const imp_keydef *table(imp_framework fw)
{
    return fw == IMP_VERL ? VERL : fw == IMP_OPENRLHF ? ORLHF : NEMO;
}

const imp_keydef *imp_fw_key(imp_framework fw, const char *key)
{
    const imp_keydef *t = table(fw);
    for (const imp_keydef *d = t; d->key; d++) if (!strchr(d->key, '*') && !strcmp(d->key, key)) return d;
    for (const imp_keydef *d = t; d->key; d++) if (strchr(d->key, '*') && fnmatch(d->key, key, 0) == 0) return d;
    return NULL;
}

/* A backend's keys matter only when the run uses the backend: a Megatron
** section beside FSDP or DTensor training, or Megatron's inference engine
** beside vLLM, is read by nothing (verl: the actor's strategy picks the
** worker, verl/trainer/main_ppo.py, and the reference runs in the actor's
** worker; NeMo RL: megatron_cfg.enabled picks the policy worker,
** nemo_rl/models/policy/lm_policy.py, and generation.backend the engine). */
static const struct { imp_framework fw; const char *prefix, *gate, *on; } GATES[] = {
    {IMP_VERL, "actor_rollout_ref.actor.megatron.", "actor_rollout_ref.actor.strategy", "megatron"},
    {IMP_VERL, "actor_rollout_ref.ref.megatron.", "actor_rollout_ref.actor.strategy", "megatron"},
    {IMP_VERL, "critic.megatron.", "critic.strategy", "megatron"},
    {IMP_NEMORL, "policy.megatron_cfg.", "policy.megatron_cfg.enabled", "true"},
    {IMP_NEMORL, "policy.generation.mcore_generation_config.", "policy.generation.backend", "megatron"},
};

bool imp_fw_gate(imp_framework fw, const char *key, const char **gate, const char **on)
{
    for (size_t i = 0; i < sizeof GATES / sizeof GATES[0]; i++)
        if (GATES[i].fw == fw && !strncmp(key, GATES[i].prefix, strlen(GATES[i].prefix)) &&
            strcmp(key, GATES[i].gate)) {
            *gate = GATES[i].gate;
            *on = GATES[i].on;
            return true;
        }
    return false;
}

/* Why a key fusync does not know is not imported, when a whole kind of run
** is missing: NeMo RL's PPO (examples/run_ppo.py, nemo_rl/algorithms/ppo.py,
** its ppo: and value: sections; NeMo RL 7ea279a) has no mapping. */
const char *imp_fw_unknown_hint(imp_framework fw, const char *key)
{
    if (fw == IMP_NEMORL && (!strncmp(key, "ppo.", 4) || !strncmp(key, "value.", 6) || !strncmp(key, "value_loss_fn.", 14)))
        return "a NeMo RL PPO config (examples/run_ppo.py): fusync imports NeMo RL's GRPO configs only";
    return NULL;
}

const char *imp_fw_default(imp_framework fw, const char *key)
{
    const imp_keydef *d = imp_fw_key(fw, key);
    return d && !strchr(d->key, '*') ? d->dflt : NULL;
}

bool imp_fw_flag(imp_framework fw, const char *key)
{
    if (fw != IMP_OPENRLHF) return false;
    for (int i = 0; ORLHF_FLAGS[i]; i++) if (!strcmp(ORLHF_FLAGS[i], key)) return true;
    return false;
}

/* NeMo RL keys newer than its first releases, from the history of
** examples/configs/grpo_math_1B.yaml: dynamic batching came in v0.2.1
** (commit 7d8ce74, on by default there, off from v0.3.0), sequence packing in
** v0.3.0 (commit 5924d1c, on by default since).  Before them a micro-batch
** was train_micro_batch_size sequences padded to the longest.  The DTensor
** v2 worker (nemo_rl/models/policy/workers/dtensor_policy_worker_v2.py, on
** Automodel) came in v0.4.0 (commit e861b94, 2025-08-24) and is the default
** (dtensor_cfg._v2: true); before it every DTensor run was the v1 worker,
** whose get_logprobs unshards the whole model.  Other keys' defaults are
** those of the one version imp_fw_source() names. */
static const imp_since NEMO_SINCE[] = {
    {"policy.dynamic_batching.enabled", 1, "v0.2.1 (commit 7d8ce74)", "false", "policy.train_micro_batch_size"},
    {"policy.sequence_packing.enabled", 2, "v0.3.0 (commit 5924d1c)", "false", "policy.train_micro_batch_size"},
    {"policy.dtensor_cfg._v2", 3, "v0.4.0 (commit e861b94)", "false", "policy.train_micro_batch_size"},
    {NULL, 0, NULL, NULL, NULL}
};

const imp_since *imp_fw_since(imp_framework fw, const char *key)
{
    if (fw != IMP_NEMORL) return NULL;
    for (const imp_since *v = NEMO_SINCE; v->key; v++) if (!strcmp(v->key, key)) return v;
    return NULL;
}

int imp_fw_age(imp_framework fw, const imp_cfg *c)
{
    if (fw != IMP_NEMORL) return 0;
    int age = 0;
    for (const imp_since *v = NEMO_SINCE; v->key; v++) {
        /* any key of a feature's block shows the release ("policy.sequence_packing." for its .enabled); a
        ** key of an older block (dtensor_cfg._v2) shows it only itself */
        const char *dot = strrchr(v->key, '.');
        size_t n = dot && !strcmp(dot, ".enabled") ? (size_t)(dot - v->key) + 1 : strlen(v->key);
        const imp_kv *k = c->kv.data;
        for (size_t i = 0; i < c->kv.len; i++)
            if (!strncmp(k[i].key, v->key, n) && v->rank > age) age = v->rank;
    }
    return age;
}

const char *imp_fw_source(imp_framework fw)
{
    switch (fw) {
    case IMP_VERL:
        return "verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, "
               "_generated_ppo_megatron_trainer.yaml";
    case IMP_OPENRLHF: return "OpenRLHF v0.11.0, commit 3c3be62: openrlhf/cli/train_ppo_ray.py";
    case IMP_NEMORL: return "NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml";
    }
    return "";
}

bool imp_framework_parse(const char *s, imp_framework *fw)
{
    if (!strcmp(s, "verl")) *fw = IMP_VERL;
    else if (!strcmp(s, "openrlhf")) *fw = IMP_OPENRLHF;
    else if (!strcmp(s, "nemo-rl") || !strcmp(s, "nemorl")) *fw = IMP_NEMORL;
    else return false;
    return true;
}

const char *imp_framework_name(imp_framework fw)
{
    return fw == IMP_VERL ? "verl" : fw == IMP_OPENRLHF ? "openrlhf" : "nemo-rl";
}
