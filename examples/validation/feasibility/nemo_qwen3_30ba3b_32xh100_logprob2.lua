-- Feasibility row: the fix of NVIDIA-NeMo/RL issue 2811 (pull request 3093, commit 713b0a901, 2026-07-07):
-- examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml with logprob_batch_size 2 instead of 4, run on
-- the H100 BF16 performance suite (tests/test_suites/performance.txt; 4 nodes of 8 x H100 80GB); the reviewer's
-- "thanks for testing!" and the merge. Its out-of-memory twin: nemo_qwen3_30ba3b_32xh100_logprob4_issue2811.lua.
-- Imported with fusync import nemo-rl --device h100 from the recipe at commit 713b0a901, its defaults chain
-- (examples/configs/grpo_math_1B.yaml) at the same commit; model shape from Qwen/Qwen3-30B-A3B's config.json
-- (models/). No field set by hand.
-- Imported by `fusync import nemo-rl` from grpo-qwen3-30ba3b-4n8g.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:51)
    nodes = 4,  -- cluster.num_nodes (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:52)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen3-30B-A3B", layers = 48, dense_layers = 0, hidden = 2048, heads = 32, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 6144, expert_ffn = 768, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 40960 },  -- policy.model_name (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:9) = Qwen/Qwen3-30B-A3B; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:56): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 64,  -- grpo.num_prompts_per_step (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:3)
    samples_per_prompt = 32,  -- grpo.num_generations_per_prompt (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:4)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 4,  -- policy.train_global_batch_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:107): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:12) to all of it
    response_len = f.dist.lognormal{ median = 768, sigma = 0.8, cap = 3072 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:12) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 3072,  -- policy.max_total_sequence_length (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:12) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:412)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:349)
      tp = 2,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:38)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:344)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:360): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:360): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:360): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:360): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      tp = 1,  -- policy.megatron_cfg.tensor_model_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:23)
      pp = 1,  -- policy.megatron_cfg.pipeline_model_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:24)
      ep = 8,  -- policy.megatron_cfg.expert_model_parallel_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:25)
      etp = 1,  -- policy.megatron_cfg.expert_tensor_parallel_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:163)
      cp = 1,  -- policy.megatron_cfg.context_parallel_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:168)
      moe_dispatcher = "alltoall",  -- policy.megatron_cfg.moe_token_dispatcher_type (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:183)
      zero = 1,  -- policy.megatron_cfg.optimizer.use_distributed_optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:227)
      grad_dtype = "bf16",  -- policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:246)
      recompute = "none",  -- policy.megatron_cfg.activation_checkpointing (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:150) with policy.megatron_cfg.recompute_granularity (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:155)
      logits = "eager",  -- NeMo RL's Megatron log-probs (from_parallel_logits_to_logprobs: FP32 upcast, distributed log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:10)
      max_tokens = 4096,  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:277) with policy.sequence_packing.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:276)
      padding = "none",  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:277) with policy.sequence_packing.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:276)
      logprob_batch = 2,  -- policy.logprob_batch_size (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:11)
      logprob_tokens = 8192,  -- policy.sequence_packing.logprob_mb_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:278)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   policy.megatron_cfg.force_reconvert_from_hf = False (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:148): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.recompute_modules = null (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:161): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_first_pipeline_stage = null (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:166): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_last_pipeline_stage = null (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:167): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.pipeline_dtype = ${policy.precision} (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:169): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.freeze_moe_router = true (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:171): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_dtype = fp64 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:172): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_load_balancing_type = none (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:173): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_bias_update_rate = 0.0 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:174): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_permute_fusion = true (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:175): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.apply_rope_fusion = True (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:177): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.bias_activation_fusion = True (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:179): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.defer_fp32_logits = False (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:180): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_per_layer_logging = False (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:181): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_enable_deepep = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:182): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_shared_expert_overlap = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:184): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_num_layers = 0 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:186): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_loss_scaling_factor = 0.0 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:188): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_use_repeated_layer = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:190): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_detach_heads = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:192): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.gradient_accumulation_fusion = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:193): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.use_fused_weighted_squared_relu = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:194): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.enabled = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:197): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.target_modules = [] (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:198): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.exclude_modules = [] (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:199): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dim = 8 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:200): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.alpha = 32 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:201): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout = 0.0 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:202): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout_position = post (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:203): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_A_init_method = xavier (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:204): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_B_init_method = zero (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:205): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.a2a_experimental = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:206): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_dtype = None (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:207): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.use_custom_fsdp = false (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:249): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.data_parallel_sharding_strategy = optim_grads_params (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:250): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_grouped_gemm = true (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:27): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.env_vars.PYTORCH_CUDA_ALLOC_CONF = expandable_segments:False (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:35): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
-- Keys read that do not affect performance
--   grpo.max_num_epochs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:6)
--   grpo.max_num_steps (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:7)
--   grpo.normalize_rewards (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:8)
--   grpo.use_leave_one_out_baseline (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:9)
--   grpo.val_at_start (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:11)
--   grpo.val_at_end (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:12)
--   grpo.overlong_filtering (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:13)
--   grpo.advantage_clip_low (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:14)
--   grpo.advantage_clip_high (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:15)
--   grpo.max_val_samples (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:16)
--   grpo.val_batch_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:17)
--   grpo.seed (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:18)
--   grpo.dynamic_sampling_max_gen_batches (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:20)
--   grpo.batch_multiplier (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:21)
--   grpo.reward_shaping.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:23)
--   grpo.reward_shaping.overlong_buffer_length (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:24)
--   grpo.reward_shaping.overlong_buffer_penalty (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:25)
--   grpo.reward_shaping.max_response_length (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:26)
--   grpo.reward_shaping.stop_properly_penalty_coef (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:27)
--   grpo.adv_estimator.name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:32)
--   grpo.adv_estimator.normalize_rewards (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:33)
--   grpo.adv_estimator.use_leave_one_out_baseline (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:34)
--   grpo.adv_estimator.minus_baseline (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:35)
--   grpo.reward_scaling.enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:37)
--   grpo.reward_scaling.source_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:38)
--   grpo.reward_scaling.source_max (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:39)
--   grpo.reward_scaling.target_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:40)
--   grpo.reward_scaling.target_max (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:41)
--   grpo.seq_logprob_error_threshold (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:42)
--   grpo.invalid_tool_call_advantage (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:44)
--   grpo.malformed_thinking_advantage (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:46)
--   loss_fn.reference_policy_kl_type (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:59)
--   loss_fn.kl_input_clamp_value (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:60)
--   loss_fn.kl_output_clamp_value (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:61)
--   loss_fn.ratio_clip_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:62)
--   loss_fn.ratio_clip_max (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:63)
--   loss_fn.ratio_clip_c (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:64)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:66)
--   loss_fn.use_importance_sampling_correction (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:69)
--   loss_fn.truncated_importance_sampling_type (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:73)
--   loss_fn.truncated_importance_sampling_ratio (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:74)
--   loss_fn.truncated_importance_sampling_ratio_min (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:76)
--   loss_fn.sequence_level_importance_ratios (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:77)
--   loss_fn.token_level_loss (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:78)
--   loss_fn.force_on_policy_ratio (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:79)
--   loss_fn.use_kl_in_reward (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:80)
--   loss_fn.use_cispo (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:81)
--   loss_fn.disable_ppo_ratio (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:84)
--   loss_fn.positive_example_nll_weight (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:87)
--   checkpointing.enabled (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:6)
--   checkpointing.checkpoint_dir (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:7)
--   checkpointing.metric_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:92)
--   checkpointing.higher_is_better (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:93)
--   checkpointing.keep_top_k (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:94)
--   checkpointing.checkpoint_must_save_by (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:96)
--   checkpointing.model_save_format (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:97)
--   checkpointing.save_consolidated (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:98)
--   checkpointing.save_optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:99)
--   policy.tokenizer.name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:104)
--   policy.tokenizer.chat_template_kwargs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:105)
--   policy.hf_config_overrides (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:106)
--   policy.generation_batch_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:109)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:124)
--   policy.dtensor_cfg.automodel_kwargs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:130)
--   policy.dtensor_cfg.lora_cfg.exclude_modules (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:137)
--   policy.dtensor_cfg.lora_cfg.alpha (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:140)
--   policy.dtensor_cfg.lora_cfg.dropout (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:141)
--   policy.dtensor_cfg.lora_cfg.dropout_position (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:142)
--   policy.dtensor_cfg.lora_cfg.lora_A_init (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:143)
--   policy.dtensor_cfg.lora_cfg.use_triton (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:144)
--   policy.megatron_cfg.optimizer.optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:210)
--   policy.megatron_cfg.optimizer.lr (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:29)
--   policy.megatron_cfg.optimizer.min_lr (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:30)
--   policy.megatron_cfg.optimizer.weight_decay (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:213)
--   policy.megatron_cfg.optimizer.bf16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:214)
--   policy.megatron_cfg.optimizer.fp16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:215)
--   policy.megatron_cfg.optimizer.params_dtype (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:216)
--   policy.megatron_cfg.optimizer.adam_beta1 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:219)
--   policy.megatron_cfg.optimizer.adam_beta2 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:220)
--   policy.megatron_cfg.optimizer.adam_eps (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:221)
--   policy.megatron_cfg.optimizer.sgd_momentum (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:224)
--   policy.megatron_cfg.optimizer.use_precision_aware_optimizer (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:228)
--   policy.megatron_cfg.optimizer.clip_grad (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:230)
--   policy.megatron_cfg.scheduler.start_weight_decay (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:237)
--   policy.megatron_cfg.scheduler.end_weight_decay (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:238)
--   policy.megatron_cfg.scheduler.weight_decay_incr_style (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:239)
--   policy.megatron_cfg.scheduler.lr_decay_style (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:240)
--   policy.megatron_cfg.scheduler.lr_decay_iters (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:241)
--   policy.megatron_cfg.scheduler.lr_warmup_iters (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:32)
--   policy.megatron_cfg.scheduler.lr_warmup_init (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:33)
--   policy.draft.model_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:262)
--   policy.draft.loss_weight (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:263)
--   policy.draft.num_layers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:264)
--   policy.draft.aux_layer_indices (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:265)
--   policy.dynamic_batching.sequence_length_round (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:273)
--   policy.sequence_packing.algorithm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:279)
--   policy.sequence_packing.sequence_length_round (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:280)
--   policy.make_sequence_length_divisible_by (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:19)
--   policy.max_grad_norm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:285)
--   policy.scheduler (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:18)
--   policy.generation.port_range_low (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:310)
--   policy.generation.port_range_high (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:311)
--   policy.generation.backend (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:312)
--   policy.generation.temperature (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:314)
--   policy.generation.top_p (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:315)
--   policy.generation.top_k (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:316)
--   policy.generation.stop_token_ids (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:317)
--   policy.generation.stop_strings (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:318)
--   policy.generation.mcore_generation_config.async_engine (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:320)
--   policy.generation.mcore_generation_config.max_model_len (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:321)
--   policy.generation.mcore_generation_config.cuda_graph_impl (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:322)
--   policy.generation.mcore_generation_config.inference_cuda_graph_scope (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:323)
--   policy.generation.mcore_generation_config.buffer_size_gb (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:324)
--   policy.generation.mcore_generation_config.num_cuda_graphs (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:325)
--   policy.generation.mcore_generation_config.block_size_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:326)
--   policy.generation.mcore_generation_config.use_cuda_graphs_for_non_decode_steps (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:327)
--   policy.generation.mcore_generation_config.enable_chunked_prefill (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:328)
--   policy.generation.mcore_generation_config.enable_prefix_caching (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:329)
--   policy.generation.mcore_generation_config.max_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:330)
--   policy.generation.mcore_generation_config.kv_cache_management_mode (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:331)
--   policy.generation.mcore_generation_config.materialize_only_last_token_logits (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:332)
--   policy.generation.mcore_generation_config.num_speculative_tokens (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:333)
--   policy.generation.mcore_generation_config.refit_backend (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:334)
--   policy.generation.mcore_generation_config.parsers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:335)
--   policy.generation.mcore_generation_config.expose_http_server (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:336)
--   policy.generation.vllm_cfg.use_tqdm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:350)
--   policy.generation.vllm_cfg.use_deep_gemm (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:351)
--   policy.generation.vllm_cfg.num_last_layers_in_bf16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:352)
--   policy.generation.vllm_cfg.num_first_layers_in_bf16 (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:353)
--   policy.generation.vllm_cfg.enable_vllm_metrics_logger (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:354)
--   policy.generation.vllm_cfg.vllm_metrics_logger_interval (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:355)
--   data.max_input_seq_length (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:367)
--   data.shuffle (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:368)
--   data.num_workers (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:369)
--   data.use_multiple_dataloader (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:373)
--   data.train.dataset_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:377)
--   data.train.split_validation_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:378)
--   data.train.seed (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:379)
--   data.validation (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:380)
--   data.default.prompt_file (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:383)
--   data.default.system_prompt_file (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:384)
--   data.default.processor (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:385)
--   data.default.env_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:386)
--   env.math.math_verify_impl (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:413)
--   logger.log_dir (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:44)
--   logger.num_val_samples_to_print (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:417)
--   logger.wandb_enabled (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:45)
--   logger.tensorboard_enabled (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:46)
--   logger.mlflow_enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:420)
--   logger.swanlab_enabled (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:421)
--   logger.monitor_gpus (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:422)
--   logger.wandb.project (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:48)
--   logger.wandb.name (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:49)
--   logger.swanlab.project (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:427)
--   logger.swanlab.name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:428)
--   logger.tensorboard (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:429)
--   logger.mlflow.experiment_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:431)
--   logger.mlflow.run_name (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:432)
--   logger.mlflow.tracking_uri (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:433)
--   logger.gpu_monitoring.collection_interval (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:435)
--   logger.gpu_monitoring.flush_interval (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:436)
--   cluster.master_port_range_low (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:444)
--   cluster.master_port_range_high (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:445)
--   cluster.segment_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:446)
--   data_plane.impl (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:454)
--   data_plane.backend (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:455)
--   data_plane.storage_capacity (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:456)
--   data_plane.num_storage_units (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:457)
--   data_plane.claim_meta_poll_interval_s (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:458)
--   data_plane.global_segment_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:459)
--   data_plane.local_buffer_size (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:460)
--   on_policy_distillation (examples/configs/recipes/llm/performance/../../../grpo_math_1B.yaml:470)
--   policy.sequence_packing.fuse_loss (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:14)
--   policy.optimizer (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:17)
--   policy.generation.vllm_kwargs.moe_backend (examples/configs/recipes/llm/performance/grpo-qwen3-30ba3b-4n8g.yaml:42)
