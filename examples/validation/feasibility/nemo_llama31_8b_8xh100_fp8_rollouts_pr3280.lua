-- Feasibility row (out of memory): NVIDIA-NeMo/RL pull request 3280 ("build: bump vllm 0.20.0 -> 0.25.1", cf766d5f3,
-- 2026-07-30): examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml as it stood
-- before the pull request (its parent 68cedb83c: gpu_memory_utilization 0.6, no kv_cache_memory_bytes) on 8 x H100
-- under vLLM 0.25.1 (pyproject.toml at cf766d5f3) dies when vLLM's CuMemAllocator re-maps its sleep pool at the wake
-- ("CUDA Error: out of memory at csrc/cumem_allocator.cpp"; "lowering gpu_memory_utilization to 0.5 still OOM'ed"),
-- waking the engine: the pull request's recipe comment and its commit c372dc0ff, which pins
-- vllm_kwargs.kv_cache_memory_bytes to 20 GiB instead (the pinned recipe is nemo_llama31_8b_8xh100_fp8_rollouts, a
-- "fits" row).  The cause the commits name is vLLM 0.25's KV sizing, not the trainer's cache: "0.20 sizes the KV cache
-- to 19.83 GiB (sleep pool ~36 GiB) while 0.25 sizes it to 34.29 GiB (sleep pool 49.96 GiB)" at 0.5 on the moonlight
-- recipe, a pool larger than 0.5 of the device, "past what can be re-mapped next to the colocated Megatron policy's
-- residual footprint"; NeMo RL empties the trainer's cache before the wake (megatron_policy_worker.py at cf766d5f3,
-- offload_before_refit: gc.collect() and torch.cuda.empty_cache(), rerun by offload_after_refit).  Imported with
-- fusync import nemo-rl from the recipe at 68cedb83c and --device h100, nothing patched.  Model shape from its
-- config.json (models/).
-- Imported by `fusync import nemo-rl` from grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:47)
    nodes = 1,  -- cluster.num_nodes (examples/configs/recipes/llm/../../grpo_math_1B.yaml:484)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "meta-llama/Llama-3.1-8B-Instruct", layers = 32, dense_layers = 0, hidden = 4096, heads = 32, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 14336, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 128256, tied_embeddings = false, max_positions = 131072 },  -- policy.model_name (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:10) = meta-llama/Llama-3.1-8B-Instruct; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/recipes/llm/../../grpo_math_1B.yaml:69): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 32,  -- grpo.num_prompts_per_step (examples/configs/recipes/llm/../../grpo_math_1B.yaml:3)
    samples_per_prompt = 32,  -- grpo.num_generations_per_prompt (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:3)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 2,  -- policy.train_global_batch_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:121): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:15) to all of it
    response_len = f.dist.lognormal{ median = 768, sigma = 0.8, cap = 3072 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:15) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 3072,  -- policy.max_total_sequence_length (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:15) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:454)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/recipes/llm/../../grpo_math_1B.yaml:388)
      tp = 1,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:380)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/recipes/llm/../../grpo_math_1B.yaml:383)
      weights_dtype = "fp8",  -- policy.generation.vllm_cfg.precision (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:34) = fp8: the blocks' linear layers in e4m3, 128x128 block scales
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:402): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:402): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:402): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:402): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      tp = 1,  -- policy.megatron_cfg.tensor_model_parallel_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:186)
      pp = 2,  -- policy.megatron_cfg.pipeline_model_parallel_size (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:21)
      ep = 1,  -- policy.megatron_cfg.expert_model_parallel_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:188)
      etp = 1,  -- policy.megatron_cfg.expert_tensor_parallel_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:187)
      cp = 1,  -- policy.megatron_cfg.context_parallel_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:192)
      moe_dispatcher = "alltoall",  -- policy.megatron_cfg.moe_token_dispatcher_type (examples/configs/recipes/llm/../../grpo_math_1B.yaml:207)
      zero = 1,  -- policy.megatron_cfg.optimizer.use_distributed_optimizer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:252)
      grad_dtype = "bf16",  -- policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:271)
      recompute = "full",  -- policy.megatron_cfg.activation_checkpointing (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:22) with policy.megatron_cfg.recompute_granularity (examples/configs/recipes/llm/../../grpo_math_1B.yaml:179)
      logits = "eager",  -- NeMo RL's Megatron log-probs (from_parallel_logits_to_logprobs: FP32 upcast, distributed log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:13)
      max_tokens = 4096,  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:302) with policy.sequence_packing.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:301)
      padding = "none",  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:302) with policy.sequence_packing.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:301)
      logprob_batch = 2,  -- policy.logprob_batch_size (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:14)
      logprob_tokens = 8192,  -- policy.sequence_packing.logprob_mb_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:303)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   policy.megatron_cfg.use_fused_linear_logprobs = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:170): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.fused_linear_logprobs_chunk_size = 256 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:171): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.force_reconvert_from_hf = False (examples/configs/recipes/llm/../../grpo_math_1B.yaml:172): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.recompute_modules = null (examples/configs/recipes/llm/../../grpo_math_1B.yaml:185): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_first_pipeline_stage = null (examples/configs/recipes/llm/../../grpo_math_1B.yaml:190): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_last_pipeline_stage = null (examples/configs/recipes/llm/../../grpo_math_1B.yaml:191): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.pipeline_dtype = ${policy.precision} (examples/configs/recipes/llm/../../grpo_math_1B.yaml:193): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.freeze_moe_router = true (examples/configs/recipes/llm/../../grpo_math_1B.yaml:195): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_dtype = fp64 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:196): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_load_balancing_type = none (examples/configs/recipes/llm/../../grpo_math_1B.yaml:197): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_bias_update_rate = 0.0 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:198): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_permute_fusion = true (examples/configs/recipes/llm/../../grpo_math_1B.yaml:199): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.apply_rope_fusion = True (examples/configs/recipes/llm/../../grpo_math_1B.yaml:201): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.bias_activation_fusion = True (examples/configs/recipes/llm/../../grpo_math_1B.yaml:203): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.defer_fp32_logits = true (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:23): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_per_layer_logging = False (examples/configs/recipes/llm/../../grpo_math_1B.yaml:205): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_enable_deepep = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:206): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_shared_expert_overlap = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:208): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.use_gloo_process_groups = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:209): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_num_layers = 0 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:211): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_loss_scaling_factor = 0.0 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:213): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_use_repeated_layer = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:215): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_detach_heads = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:217): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.gradient_accumulation_fusion = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:218): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.use_fused_weighted_squared_relu = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:219): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.enabled = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:222): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.target_modules = [] (examples/configs/recipes/llm/../../grpo_math_1B.yaml:223): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.exclude_modules = [] (examples/configs/recipes/llm/../../grpo_math_1B.yaml:224): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dim = 8 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:225): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.alpha = 32 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:226): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout = 0.0 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:227): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout_position = post (examples/configs/recipes/llm/../../grpo_math_1B.yaml:228): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_A_init_method = xavier (examples/configs/recipes/llm/../../grpo_math_1B.yaml:229): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_B_init_method = zero (examples/configs/recipes/llm/../../grpo_math_1B.yaml:230): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.a2a_experimental = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:231): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_dtype = None (examples/configs/recipes/llm/../../grpo_math_1B.yaml:232): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.use_custom_fsdp = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:274): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.data_parallel_sharding_strategy = optim_grads_params (examples/configs/recipes/llm/../../grpo_math_1B.yaml:275): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.env_vars = null (examples/configs/recipes/llm/../../grpo_math_1B.yaml:283): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
-- Keys read that do not affect performance
--   grpo.max_num_epochs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:6)
--   grpo.max_num_steps (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:4)
--   grpo.normalize_rewards (examples/configs/recipes/llm/../../grpo_math_1B.yaml:8)
--   grpo.use_leave_one_out_baseline (examples/configs/recipes/llm/../../grpo_math_1B.yaml:9)
--   grpo.val_start_at (examples/configs/recipes/llm/../../grpo_math_1B.yaml:11)
--   grpo.val_at_start (examples/configs/recipes/llm/../../grpo_math_1B.yaml:12)
--   grpo.val_at_end (examples/configs/recipes/llm/../../grpo_math_1B.yaml:13)
--   grpo.overlong_filtering (examples/configs/recipes/llm/../../grpo_math_1B.yaml:14)
--   grpo.advantage_clip_low (examples/configs/recipes/llm/../../grpo_math_1B.yaml:15)
--   grpo.advantage_clip_high (examples/configs/recipes/llm/../../grpo_math_1B.yaml:16)
--   grpo.max_val_samples (examples/configs/recipes/llm/../../grpo_math_1B.yaml:17)
--   grpo.val_batch_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:18)
--   grpo.seed (examples/configs/recipes/llm/../../grpo_math_1B.yaml:19)
--   grpo.dynamic_sampling_max_gen_batches (examples/configs/recipes/llm/../../grpo_math_1B.yaml:21)
--   grpo.batch_multiplier (examples/configs/recipes/llm/../../grpo_math_1B.yaml:22)
--   grpo.reward_shaping.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:24)
--   grpo.reward_shaping.overlong_buffer_length (examples/configs/recipes/llm/../../grpo_math_1B.yaml:25)
--   grpo.reward_shaping.overlong_buffer_penalty (examples/configs/recipes/llm/../../grpo_math_1B.yaml:26)
--   grpo.reward_shaping.max_response_length (examples/configs/recipes/llm/../../grpo_math_1B.yaml:27)
--   grpo.reward_shaping.stop_properly_penalty_coef (examples/configs/recipes/llm/../../grpo_math_1B.yaml:28)
--   grpo.adv_estimator.name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:33)
--   grpo.adv_estimator.normalize_rewards (examples/configs/recipes/llm/../../grpo_math_1B.yaml:34)
--   grpo.adv_estimator.use_leave_one_out_baseline (examples/configs/recipes/llm/../../grpo_math_1B.yaml:35)
--   grpo.adv_estimator.minus_baseline (examples/configs/recipes/llm/../../grpo_math_1B.yaml:36)
--   grpo.reward_scaling.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:38)
--   grpo.reward_scaling.source_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:39)
--   grpo.reward_scaling.source_max (examples/configs/recipes/llm/../../grpo_math_1B.yaml:40)
--   grpo.reward_scaling.target_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:41)
--   grpo.reward_scaling.target_max (examples/configs/recipes/llm/../../grpo_math_1B.yaml:42)
--   grpo.seq_logprob_error_threshold (examples/configs/recipes/llm/../../grpo_math_1B.yaml:43)
--   grpo.invalid_tool_call_advantage (examples/configs/recipes/llm/../../grpo_math_1B.yaml:45)
--   grpo.malformed_thinking_advantage (examples/configs/recipes/llm/../../grpo_math_1B.yaml:47)
--   reward_penalties.penalize_duplicated_reasoning (examples/configs/recipes/llm/../../grpo_math_1B.yaml:58)
--   reward_penalties.penalize_empty_final_answer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:59)
--   reward_penalties.penalize_unwanted_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:60)
--   reward_penalties.penalize_malformed_think_tag (examples/configs/recipes/llm/../../grpo_math_1B.yaml:61)
--   reward_penalties.token_ids (examples/configs/recipes/llm/../../grpo_math_1B.yaml:66)
--   loss_fn.reference_policy_kl_type (examples/configs/recipes/llm/../../grpo_math_1B.yaml:72)
--   loss_fn.kl_input_clamp_value (examples/configs/recipes/llm/../../grpo_math_1B.yaml:73)
--   loss_fn.kl_output_clamp_value (examples/configs/recipes/llm/../../grpo_math_1B.yaml:74)
--   loss_fn.ratio_clip_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:75)
--   loss_fn.ratio_clip_max (examples/configs/recipes/llm/../../grpo_math_1B.yaml:76)
--   loss_fn.ratio_clip_c (examples/configs/recipes/llm/../../grpo_math_1B.yaml:77)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/recipes/llm/../../grpo_math_1B.yaml:79)
--   loss_fn.use_importance_sampling_correction (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:6)
--   loss_fn.truncated_importance_sampling_type (examples/configs/recipes/llm/../../grpo_math_1B.yaml:86)
--   loss_fn.truncated_importance_sampling_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:87)
--   loss_fn.truncated_importance_sampling_ratio_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:89)
--   loss_fn.sequence_level_importance_ratios (examples/configs/recipes/llm/../../grpo_math_1B.yaml:90)
--   loss_fn.token_level_loss (examples/configs/recipes/llm/../../grpo_math_1B.yaml:91)
--   loss_fn.force_on_policy_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:92)
--   loss_fn.use_kl_in_reward (examples/configs/recipes/llm/../../grpo_math_1B.yaml:93)
--   loss_fn.use_cispo (examples/configs/recipes/llm/../../grpo_math_1B.yaml:94)
--   loss_fn.disable_ppo_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:97)
--   loss_fn.positive_example_nll_weight (examples/configs/recipes/llm/../../grpo_math_1B.yaml:100)
--   checkpointing.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:103)
--   checkpointing.checkpoint_dir (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:8)
--   checkpointing.metric_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:105)
--   checkpointing.higher_is_better (examples/configs/recipes/llm/../../grpo_math_1B.yaml:106)
--   checkpointing.keep_top_k (examples/configs/recipes/llm/../../grpo_math_1B.yaml:107)
--   checkpointing.checkpoint_must_save_by (examples/configs/recipes/llm/../../grpo_math_1B.yaml:109)
--   checkpointing.model_save_format (examples/configs/recipes/llm/../../grpo_math_1B.yaml:110)
--   checkpointing.save_consolidated (examples/configs/recipes/llm/../../grpo_math_1B.yaml:111)
--   checkpointing.save_optimizer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:112)
--   policy.tokenizer.name (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:12)
--   policy.tokenizer.chat_template_kwargs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:118)
--   policy.tokenizer.use_fastokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:119)
--   policy.hf_config_overrides (examples/configs/recipes/llm/../../grpo_math_1B.yaml:120)
--   policy.generation_batch_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:123)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/recipes/llm/../../grpo_math_1B.yaml:138)
--   policy.dtensor_cfg.automodel_kwargs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:144)
--   policy.dtensor_cfg.lora_cfg.exclude_modules (examples/configs/recipes/llm/../../grpo_math_1B.yaml:151)
--   policy.dtensor_cfg.lora_cfg.alpha (examples/configs/recipes/llm/../../grpo_math_1B.yaml:154)
--   policy.dtensor_cfg.lora_cfg.dropout (examples/configs/recipes/llm/../../grpo_math_1B.yaml:155)
--   policy.dtensor_cfg.lora_cfg.dropout_position (examples/configs/recipes/llm/../../grpo_math_1B.yaml:156)
--   policy.dtensor_cfg.lora_cfg.lora_A_init (examples/configs/recipes/llm/../../grpo_math_1B.yaml:157)
--   policy.dtensor_cfg.lora_cfg.use_triton (examples/configs/recipes/llm/../../grpo_math_1B.yaml:158)
--   policy.megatron_cfg.checkpoint.async_save (examples/configs/recipes/llm/../../grpo_math_1B.yaml:163)
--   policy.megatron_cfg.checkpoint.ckpt_assume_constant_structure (examples/configs/recipes/llm/../../grpo_math_1B.yaml:164)
--   policy.megatron_cfg.optimizer.optimizer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:235)
--   policy.megatron_cfg.optimizer.lr (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:25)
--   policy.megatron_cfg.optimizer.min_lr (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:26)
--   policy.megatron_cfg.optimizer.weight_decay (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:27)
--   policy.megatron_cfg.optimizer.bf16 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:239)
--   policy.megatron_cfg.optimizer.fp16 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:240)
--   policy.megatron_cfg.optimizer.params_dtype (examples/configs/recipes/llm/../../grpo_math_1B.yaml:241)
--   policy.megatron_cfg.optimizer.adam_beta1 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:244)
--   policy.megatron_cfg.optimizer.adam_beta2 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:245)
--   policy.megatron_cfg.optimizer.adam_eps (examples/configs/recipes/llm/../../grpo_math_1B.yaml:246)
--   policy.megatron_cfg.optimizer.sgd_momentum (examples/configs/recipes/llm/../../grpo_math_1B.yaml:249)
--   policy.megatron_cfg.optimizer.use_precision_aware_optimizer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:253)
--   policy.megatron_cfg.optimizer.clip_grad (examples/configs/recipes/llm/../../grpo_math_1B.yaml:255)
--   policy.megatron_cfg.scheduler.start_weight_decay (examples/configs/recipes/llm/../../grpo_math_1B.yaml:262)
--   policy.megatron_cfg.scheduler.end_weight_decay (examples/configs/recipes/llm/../../grpo_math_1B.yaml:263)
--   policy.megatron_cfg.scheduler.weight_decay_incr_style (examples/configs/recipes/llm/../../grpo_math_1B.yaml:264)
--   policy.megatron_cfg.scheduler.lr_decay_style (examples/configs/recipes/llm/../../grpo_math_1B.yaml:265)
--   policy.megatron_cfg.scheduler.lr_decay_iters (examples/configs/recipes/llm/../../grpo_math_1B.yaml:266)
--   policy.megatron_cfg.scheduler.lr_warmup_iters (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:29)
--   policy.megatron_cfg.scheduler.lr_warmup_init (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:30)
--   policy.draft.model_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:287)
--   policy.draft.loss_weight (examples/configs/recipes/llm/../../grpo_math_1B.yaml:288)
--   policy.draft.num_layers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:289)
--   policy.draft.aux_layer_indices (examples/configs/recipes/llm/../../grpo_math_1B.yaml:290)
--   policy.dynamic_batching.sequence_length_round (examples/configs/recipes/llm/../../grpo_math_1B.yaml:298)
--   policy.sequence_packing.algorithm (examples/configs/recipes/llm/../../grpo_math_1B.yaml:304)
--   policy.sequence_packing.sequence_length_round (examples/configs/recipes/llm/../../grpo_math_1B.yaml:305)
--   policy.make_sequence_length_divisible_by (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:16)
--   policy.max_grad_norm (examples/configs/recipes/llm/../../grpo_math_1B.yaml:310)
--   policy.optimizer.name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:313)
--   policy.optimizer.kwargs.lr (examples/configs/recipes/llm/../../grpo_math_1B.yaml:315)
--   policy.optimizer.kwargs.weight_decay (examples/configs/recipes/llm/../../grpo_math_1B.yaml:316)
--   policy.optimizer.kwargs.betas (examples/configs/recipes/llm/../../grpo_math_1B.yaml:317)
--   policy.optimizer.kwargs.eps (examples/configs/recipes/llm/../../grpo_math_1B.yaml:318)
--   policy.scheduler (examples/configs/recipes/llm/../../grpo_math_1B.yaml:320)
--   policy.generation.port_range_low (examples/configs/recipes/llm/../../grpo_math_1B.yaml:335)
--   policy.generation.port_range_high (examples/configs/recipes/llm/../../grpo_math_1B.yaml:336)
--   policy.generation.backend (examples/configs/recipes/llm/../../grpo_math_1B.yaml:337)
--   policy.generation.temperature (examples/configs/recipes/llm/../../grpo_math_1B.yaml:339)
--   policy.generation.top_p (examples/configs/recipes/llm/../../grpo_math_1B.yaml:340)
--   policy.generation.top_k (examples/configs/recipes/llm/../../grpo_math_1B.yaml:341)
--   policy.generation.stop_token_ids (examples/configs/recipes/llm/../../grpo_math_1B.yaml:342)
--   policy.generation.stop_strings (examples/configs/recipes/llm/../../grpo_math_1B.yaml:343)
--   policy.generation.refit_transport (examples/configs/recipes/llm/../../grpo_math_1B.yaml:346)
--   policy.generation.real_quant_export_cpu_offload (examples/configs/recipes/llm/../../grpo_math_1B.yaml:349)
--   policy.generation.refit_cfg.nixl.update_weights_bucket_memory_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:352)
--   policy.generation.refit_cfg.nixl.device (examples/configs/recipes/llm/../../grpo_math_1B.yaml:353)
--   policy.generation.refit_cfg.nixl.backend_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:354)
--   policy.generation.refit_cfg.nixl.backend_init_params (examples/configs/recipes/llm/../../grpo_math_1B.yaml:355)
--   policy.generation.refit_cfg.nixl.release_after_refit (examples/configs/recipes/llm/../../grpo_math_1B.yaml:356)
--   policy.generation.refit_cfg.nixl.shard_expert_weights (examples/configs/recipes/llm/../../grpo_math_1B.yaml:357)
--   policy.generation.mcore_generation_config.async_engine (examples/configs/recipes/llm/../../grpo_math_1B.yaml:359)
--   policy.generation.mcore_generation_config.max_model_len (examples/configs/recipes/llm/../../grpo_math_1B.yaml:360)
--   policy.generation.mcore_generation_config.cuda_graph_impl (examples/configs/recipes/llm/../../grpo_math_1B.yaml:361)
--   policy.generation.mcore_generation_config.inference_cuda_graph_scope (examples/configs/recipes/llm/../../grpo_math_1B.yaml:362)
--   policy.generation.mcore_generation_config.buffer_size_gb (examples/configs/recipes/llm/../../grpo_math_1B.yaml:363)
--   policy.generation.mcore_generation_config.num_cuda_graphs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:364)
--   policy.generation.mcore_generation_config.block_size_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:365)
--   policy.generation.mcore_generation_config.use_cuda_graphs_for_non_decode_steps (examples/configs/recipes/llm/../../grpo_math_1B.yaml:366)
--   policy.generation.mcore_generation_config.enable_chunked_prefill (examples/configs/recipes/llm/../../grpo_math_1B.yaml:367)
--   policy.generation.mcore_generation_config.enable_prefix_caching (examples/configs/recipes/llm/../../grpo_math_1B.yaml:368)
--   policy.generation.mcore_generation_config.max_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:369)
--   policy.generation.mcore_generation_config.kv_cache_management_mode (examples/configs/recipes/llm/../../grpo_math_1B.yaml:370)
--   policy.generation.mcore_generation_config.materialize_only_last_token_logits (examples/configs/recipes/llm/../../grpo_math_1B.yaml:371)
--   policy.generation.mcore_generation_config.num_speculative_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:372)
--   policy.generation.mcore_generation_config.refit_backend (examples/configs/recipes/llm/../../grpo_math_1B.yaml:373)
--   policy.generation.mcore_generation_config.parsers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:374)
--   policy.generation.mcore_generation_config.expose_http_server (examples/configs/recipes/llm/../../grpo_math_1B.yaml:375)
--   policy.generation.vllm_cfg.use_tqdm (examples/configs/recipes/llm/../../grpo_math_1B.yaml:389)
--   policy.generation.vllm_cfg.use_deep_gemm (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:36)
--   policy.generation.vllm_cfg.num_last_layers_in_bf16 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:391)
--   policy.generation.vllm_cfg.num_first_layers_in_bf16 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:392)
--   policy.generation.vllm_cfg.enable_vllm_metrics_logger (examples/configs/recipes/llm/../../grpo_math_1B.yaml:393)
--   policy.generation.vllm_cfg.vllm_metrics_logger_interval (examples/configs/recipes/llm/../../grpo_math_1B.yaml:394)
--   policy.generation.vllm_cfg.http_refit_api_key_env_var (examples/configs/recipes/llm/../../grpo_math_1B.yaml:395)
--   policy.generation.vllm_cfg.http_refit_server_port (examples/configs/recipes/llm/../../grpo_math_1B.yaml:396)
--   policy.generation.vllm_cfg.zmq_refit_server_port (examples/configs/recipes/llm/../../grpo_math_1B.yaml:397)
--   policy.generation.vllm_kwargs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:398)
--   data.max_input_seq_length (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:38)
--   data.shuffle (examples/configs/recipes/llm/../../grpo_math_1B.yaml:410)
--   data.num_workers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:411)
--   data.use_multiple_dataloader (examples/configs/recipes/llm/../../grpo_math_1B.yaml:415)
--   data.train.dataset_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:419)
--   data.train.split_validation_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:420)
--   data.train.seed (examples/configs/recipes/llm/../../grpo_math_1B.yaml:421)
--   data.validation (examples/configs/recipes/llm/../../grpo_math_1B.yaml:422)
--   data.default.prompt_file (examples/configs/recipes/llm/../../grpo_math_1B.yaml:425)
--   data.default.system_prompt_file (examples/configs/recipes/llm/../../grpo_math_1B.yaml:426)
--   data.default.processor (examples/configs/recipes/llm/../../grpo_math_1B.yaml:427)
--   data.default.env_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:428)
--   env.math.math_verify_impl (examples/configs/recipes/llm/../../grpo_math_1B.yaml:455)
--   logger.log_dir (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:40)
--   logger.num_val_samples_to_print (examples/configs/recipes/llm/../../grpo_math_1B.yaml:459)
--   logger.wandb_enabled (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:41)
--   logger.tensorboard_enabled (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:42)
--   logger.mlflow_enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:462)
--   logger.swanlab_enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:463)
--   logger.monitor_gpus (examples/configs/recipes/llm/../../grpo_math_1B.yaml:464)
--   logger.wandb.project (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:44)
--   logger.wandb.name (examples/configs/recipes/llm/grpo-llama3.1-8b-instruct-1n8g-megatron-fp8-rollouts.v3.yaml:45)
--   logger.wandb.log_nemo_gym_full_result_tables (examples/configs/recipes/llm/../../grpo_math_1B.yaml:469)
--   logger.swanlab.project (examples/configs/recipes/llm/../../grpo_math_1B.yaml:471)
--   logger.swanlab.name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:472)
--   logger.tensorboard (examples/configs/recipes/llm/../../grpo_math_1B.yaml:473)
--   logger.mlflow.experiment_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:475)
--   logger.mlflow.run_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:476)
--   logger.mlflow.tracking_uri (examples/configs/recipes/llm/../../grpo_math_1B.yaml:477)
--   logger.gpu_monitoring.collection_interval (examples/configs/recipes/llm/../../grpo_math_1B.yaml:479)
--   logger.gpu_monitoring.flush_interval (examples/configs/recipes/llm/../../grpo_math_1B.yaml:480)
--   cluster.master_port_range_low (examples/configs/recipes/llm/../../grpo_math_1B.yaml:488)
--   cluster.master_port_range_high (examples/configs/recipes/llm/../../grpo_math_1B.yaml:489)
--   cluster.segment_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:490)
--   data_plane.impl (examples/configs/recipes/llm/../../grpo_math_1B.yaml:498)
--   data_plane.backend (examples/configs/recipes/llm/../../grpo_math_1B.yaml:499)
--   data_plane.storage_capacity (examples/configs/recipes/llm/../../grpo_math_1B.yaml:500)
--   data_plane.num_storage_units (examples/configs/recipes/llm/../../grpo_math_1B.yaml:501)
--   data_plane.claim_meta_poll_interval_s (examples/configs/recipes/llm/../../grpo_math_1B.yaml:502)
--   data_plane.global_segment_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:503)
--   data_plane.local_buffer_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:504)
--   on_policy_distillation (examples/configs/recipes/llm/../../grpo_math_1B.yaml:514)
