-- Feasibility row: NVIDIA-NeMo/RL commit b0ad4f7e2 ("Fix qwen oom", 2026-04-24): the GB200 BF16 performance recipe
-- examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml (tests/test_suites/performance_gb200.txt,
-- "GB200 BF16"; 4 nodes of 4 GB200 GPUs) with policy.logprob_batch_size 2 instead of 4, the commit's only change to
-- it; the recipe keeps it in the GB200 suite from then on. Its out-of-memory twin:
-- nemo_qwen3_30ba3b_16xgb200_logprob4_b0ad4f7e2.lua.
-- Imported with fusync import nemo-rl --device gb200 from the recipe at commit b0ad4f7e2, its defaults chain
-- (examples/configs/grpo_math_1B.yaml) at the same commit; model shape from Qwen/Qwen3-30B-A3B's config.json
-- (models/). No field set by hand.
-- Imported by `fusync import nemo-rl` from grpo-qwen3-30ba3b-4n4g.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.gb200,  -- --device
    devices_per_node = 4,  -- cluster.gpus_per_node (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:44)
    nodes = 4,  -- cluster.num_nodes (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:45)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen3-30B-A3B", layers = 48, dense_layers = 0, hidden = 2048, heads = 32, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 6144, expert_ffn = 768, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 40960 },  -- policy.model_name (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:9) = Qwen/Qwen3-30B-A3B; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:50): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 64,  -- grpo.num_prompts_per_step (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:3)
    samples_per_prompt = 32,  -- grpo.num_generations_per_prompt (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:4)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 4,  -- policy.train_global_batch_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:90): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:12) to all of it
    response_len = f.dist.lognormal{ median = 768, sigma = 0.8, cap = 3072 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:12) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 3072,  -- policy.max_total_sequence_length (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:12) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:365)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:303)
      tp = 1,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:35)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:298)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:313): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:313): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:313): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:313): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      tp = 1,  -- policy.megatron_cfg.tensor_model_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:21)
      pp = 1,  -- policy.megatron_cfg.pipeline_model_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:22)
      ep = 16,  -- policy.megatron_cfg.expert_model_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:23)
      etp = 1,  -- policy.megatron_cfg.expert_tensor_parallel_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:136)
      cp = 1,  -- policy.megatron_cfg.context_parallel_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:141)
      moe_dispatcher = "alltoall",  -- policy.megatron_cfg.moe_token_dispatcher_type (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:156)
      zero = 1,  -- policy.megatron_cfg.optimizer.use_distributed_optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:191)
      grad_dtype = "bf16",  -- policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:210)
      recompute = "none",  -- policy.megatron_cfg.activation_checkpointing (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:133) with policy.megatron_cfg.recompute_granularity, nemo-rl's default
      logits = "eager",  -- NeMo RL's Megatron log-probs (from_parallel_logits_to_logprobs: FP32 upcast, distributed log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:10)
      max_tokens = 4096,  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:241) with policy.sequence_packing.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:240)
      padding = "none",  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:241) with policy.sequence_packing.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:240)
      logprob_batch = 2,  -- policy.logprob_batch_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:11)
      logprob_tokens = 8192,  -- policy.sequence_packing.logprob_mb_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:242)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   policy.megatron_cfg.force_reconvert_from_hf = False (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:131): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.converter_type = Qwen2ForCausalLM (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:134): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_first_pipeline_stage = null (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:139): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_last_pipeline_stage = null (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:140): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.pipeline_dtype = ${policy.precision} (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:142): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.freeze_moe_router = true (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:144): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_dtype = fp64 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:145): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_load_balancing_type = none (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:146): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_bias_update_rate = 0.0 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:147): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_permute_fusion = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:148): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.apply_rope_fusion = True (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:150): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.bias_activation_fusion = True (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:152): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.defer_fp32_logits = False (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:153): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_per_layer_logging = False (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:154): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_enable_deepep = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:155): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_shared_expert_overlap = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:157): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.gradient_accumulation_fusion = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:158): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.enabled = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:161): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.target_modules = [] (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:162): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.exclude_modules = [] (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:163): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dim = 8 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:164): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.alpha = 32 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:165): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout = 0.0 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:166): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout_position = post (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:167): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_A_init_method = xavier (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:168): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_B_init_method = zero (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:169): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.a2a_experimental = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:170): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_dtype = None (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:171): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.use_custom_fsdp = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:213): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.data_parallel_sharding_strategy = optim_grads_params (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:214): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.env_vars.PYTORCH_CUDA_ALLOC_CONF = expandable_segments:False (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:32): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
-- Keys read that do not affect performance
--   grpo.max_num_epochs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:6)
--   grpo.max_num_steps (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:7)
--   grpo.normalize_rewards (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:8)
--   grpo.use_leave_one_out_baseline (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:9)
--   grpo.val_at_start (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:11)
--   grpo.val_at_end (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:12)
--   grpo.overlong_filtering (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:13)
--   grpo.max_val_samples (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:14)
--   grpo.val_batch_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:15)
--   grpo.seed (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:16)
--   grpo.dynamic_sampling_max_gen_batches (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:18)
--   grpo.batch_multiplier (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:19)
--   grpo.reward_shaping.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:21)
--   grpo.reward_shaping.overlong_buffer_length (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:22)
--   grpo.reward_shaping.overlong_buffer_penalty (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:23)
--   grpo.reward_shaping.max_response_length (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:24)
--   grpo.reward_shaping.stop_properly_penalty_coef (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:25)
--   grpo.adv_estimator.name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:30)
--   grpo.adv_estimator.normalize_rewards (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:31)
--   grpo.adv_estimator.use_leave_one_out_baseline (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:32)
--   grpo.adv_estimator.minus_baseline (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:33)
--   grpo.reward_scaling.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:35)
--   grpo.reward_scaling.source_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:36)
--   grpo.reward_scaling.source_max (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:37)
--   grpo.reward_scaling.target_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:38)
--   grpo.reward_scaling.target_max (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:39)
--   grpo.seq_logprob_error_threshold (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:40)
--   loss_fn.reference_policy_kl_type (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:53)
--   loss_fn.kl_input_clamp_value (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:54)
--   loss_fn.kl_output_clamp_value (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:55)
--   loss_fn.ratio_clip_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:56)
--   loss_fn.ratio_clip_max (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:57)
--   loss_fn.ratio_clip_c (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:58)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:60)
--   loss_fn.use_importance_sampling_correction (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:63)
--   loss_fn.truncated_importance_sampling_ratio (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:64)
--   loss_fn.truncated_importance_sampling_ratio_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:65)
--   loss_fn.truncated_importance_sampling_type (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:66)
--   loss_fn.sequence_level_importance_ratios (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:67)
--   loss_fn.token_level_loss (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:68)
--   loss_fn.force_on_policy_ratio (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:69)
--   loss_fn.use_kl_in_reward (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:70)
--   checkpointing.enabled (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:6)
--   checkpointing.checkpoint_dir (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:7)
--   checkpointing.metric_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:75)
--   checkpointing.higher_is_better (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:76)
--   checkpointing.keep_top_k (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:77)
--   checkpointing.checkpoint_must_save_by (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:79)
--   checkpointing.model_save_format (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:80)
--   checkpointing.save_consolidated (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:81)
--   checkpointing.save_optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:82)
--   policy.tokenizer.name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:87)
--   policy.tokenizer.chat_template_kwargs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:88)
--   policy.hf_config_overrides (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:89)
--   policy.generation_batch_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:92)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:107)
--   policy.dtensor_cfg.automodel_kwargs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:113)
--   policy.dtensor_cfg.lora_cfg.exclude_modules (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:120)
--   policy.dtensor_cfg.lora_cfg.alpha (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:123)
--   policy.dtensor_cfg.lora_cfg.dropout (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:124)
--   policy.dtensor_cfg.lora_cfg.dropout_position (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:125)
--   policy.dtensor_cfg.lora_cfg.lora_A_init (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:126)
--   policy.dtensor_cfg.lora_cfg.use_triton (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:127)
--   policy.megatron_cfg.optimizer.optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:174)
--   policy.megatron_cfg.optimizer.lr (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:26)
--   policy.megatron_cfg.optimizer.min_lr (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:27)
--   policy.megatron_cfg.optimizer.weight_decay (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:177)
--   policy.megatron_cfg.optimizer.bf16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:178)
--   policy.megatron_cfg.optimizer.fp16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:179)
--   policy.megatron_cfg.optimizer.params_dtype (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:180)
--   policy.megatron_cfg.optimizer.adam_beta1 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:183)
--   policy.megatron_cfg.optimizer.adam_beta2 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:184)
--   policy.megatron_cfg.optimizer.adam_eps (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:185)
--   policy.megatron_cfg.optimizer.sgd_momentum (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:188)
--   policy.megatron_cfg.optimizer.use_precision_aware_optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:192)
--   policy.megatron_cfg.optimizer.clip_grad (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:194)
--   policy.megatron_cfg.scheduler.start_weight_decay (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:201)
--   policy.megatron_cfg.scheduler.end_weight_decay (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:202)
--   policy.megatron_cfg.scheduler.weight_decay_incr_style (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:203)
--   policy.megatron_cfg.scheduler.lr_decay_style (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:204)
--   policy.megatron_cfg.scheduler.lr_decay_iters (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:205)
--   policy.megatron_cfg.scheduler.lr_warmup_iters (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:29)
--   policy.megatron_cfg.scheduler.lr_warmup_init (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:30)
--   policy.draft.model_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:226)
--   policy.draft.loss_weight (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:227)
--   policy.draft.num_layers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:228)
--   policy.draft.aux_layer_indices (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:229)
--   policy.dynamic_batching.sequence_length_round (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:237)
--   policy.sequence_packing.algorithm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:243)
--   policy.sequence_packing.sequence_length_round (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:244)
--   policy.make_sequence_length_divisible_by (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:17)
--   policy.max_grad_norm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:249)
--   policy.scheduler (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:16)
--   policy.generation.backend (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:276)
--   policy.generation.temperature (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:278)
--   policy.generation.top_p (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:279)
--   policy.generation.top_k (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:280)
--   policy.generation.stop_token_ids (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:281)
--   policy.generation.stop_strings (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:282)
--   policy.generation.mcore_generation_config.buffer_size_gb (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:284)
--   policy.generation.mcore_generation_config.num_cuda_graphs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:285)
--   policy.generation.mcore_generation_config.block_size_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:286)
--   policy.generation.mcore_generation_config.use_cuda_graphs_for_non_decode_steps (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:287)
--   policy.generation.mcore_generation_config.enable_chunked_prefill (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:288)
--   policy.generation.mcore_generation_config.unified_memory_level (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:289)
--   policy.generation.mcore_generation_config.max_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:290)
--   policy.generation.vllm_cfg.use_deep_gemm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:304)
--   policy.generation.vllm_cfg.num_last_layers_in_bf16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:305)
--   policy.generation.vllm_cfg.num_first_layers_in_bf16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:306)
--   policy.generation.vllm_cfg.enable_vllm_metrics_logger (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:307)
--   policy.generation.vllm_cfg.vllm_metrics_logger_interval (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:308)
--   policy.generation.vllm_kwargs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:309)
--   data.max_input_seq_length (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:320)
--   data.shuffle (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:321)
--   data.num_workers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:322)
--   data.use_multiple_dataloader (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:326)
--   data.train.dataset_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:330)
--   data.train.split_validation_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:331)
--   data.train.seed (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:332)
--   data.validation (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:333)
--   data.default.prompt_file (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:336)
--   data.default.system_prompt_file (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:337)
--   data.default.processor (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:338)
--   data.default.env_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:339)
--   env.math.math_verify_impl (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:366)
--   logger.log_dir (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:37)
--   logger.num_val_samples_to_print (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:370)
--   logger.wandb_enabled (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:38)
--   logger.tensorboard_enabled (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:39)
--   logger.mlflow_enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:373)
--   logger.swanlab_enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:374)
--   logger.monitor_gpus (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:375)
--   logger.wandb.project (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:41)
--   logger.wandb.name (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:42)
--   logger.swanlab.project (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:380)
--   logger.swanlab.name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:381)
--   logger.tensorboard (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:382)
--   logger.mlflow.experiment_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:384)
--   logger.mlflow.run_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:385)
--   logger.mlflow.tracking_uri (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:386)
--   logger.gpu_monitoring.collection_interval (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:388)
--   logger.gpu_monitoring.flush_interval (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:389)
--   policy.optimizer (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n4g.yaml:15)
