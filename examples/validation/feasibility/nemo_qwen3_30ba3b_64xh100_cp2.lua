-- Feasibility row: examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml (NVIDIA-NeMo/RL commit 7ea279abfbeb, 2026-08-22),
-- run on H100 80GB, 8 a node: tests/test_suites/nightly.txt lists it (tests/test_suites/README.md: nightly.txt holds the H100 tests); 8 nodes.
-- Imported with fusync import nemo-rl from the recipe at that commit; model shape from its Hugging Face config.json (models/).
-- Imported by `fusync import nemo-rl` from grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:82)
    nodes = 8,  -- cluster.num_nodes (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:83)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen3-30B-A3B", layers = 48, dense_layers = 0, hidden = 2048, heads = 32, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 6144, expert_ffn = 768, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 40960 },  -- policy.model_name (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:9) = Qwen/Qwen3-30B-A3B; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:22): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 16,  -- grpo.num_prompts_per_step (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:3)
    samples_per_prompt = 8,  -- grpo.num_generations_per_prompt (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:4)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 1,  -- policy.train_global_batch_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:9): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:16) to all of it
    response_len = f.dist.lognormal{ median = 512, sigma = 0.8, cap = 2048 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:16) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 2048,  -- policy.max_total_sequence_length (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:16) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:204)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:74)
      tp = 4,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:72)
      ep = 4,  -- policy.generation.vllm_cfg.expert_parallel_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:24)
      mem_util = 0.7,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:73)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:439): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:439): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:439): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:439): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      tp = 4,  -- policy.megatron_cfg.tensor_model_parallel_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:17)
      pp = 2,  -- policy.megatron_cfg.pipeline_model_parallel_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:18)
      ep = 4,  -- policy.megatron_cfg.expert_model_parallel_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:20)
      etp = 1,  -- policy.megatron_cfg.expert_tensor_parallel_size (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:37)
      cp = 2,  -- policy.megatron_cfg.context_parallel_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:19)
      moe_dispatcher = "alltoall",  -- policy.megatron_cfg.moe_token_dispatcher_type (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:133)
      zero = 1,  -- policy.megatron_cfg.optimizer.use_distributed_optimizer (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:170)
      grad_dtype = "bf16",  -- policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:185)
      recompute = "none",  -- policy.megatron_cfg.activation_checkpointing (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:90) with policy.megatron_cfg.recompute_granularity (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:111)
      logits = "eager",  -- NeMo RL's Megatron log-probs (from_parallel_logits_to_logprobs: FP32 upcast, distributed log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:13)
      max_tokens = 4096,  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:73) with policy.sequence_packing.enabled (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:15)
      padding = "none",  -- policy.sequence_packing.train_mb_tokens (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:73) with policy.sequence_packing.enabled (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:15)
      logprob_batch = 1,  -- policy.logprob_batch_size (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:10)
      logprob_tokens = 4096,  -- policy.sequence_packing.logprob_mb_tokens (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:74)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   grpo.val_period = 1000000 (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:5): validation passes are not simulated
--   policy.megatron_cfg.model_overrides = {} (examples/configs/recipes/llm/../../grpo_math_1B.yaml:175): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.use_fused_linear_logprobs = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:184): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.fused_linear_logprobs_chunk_size = 256 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:185): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.force_reconvert_from_hf = False (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:88): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.cuda_graph_impl = none (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:92): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.cuda_graph_modules = [] (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:93): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.cuda_graph_warmup_steps = 3 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:94): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.fine_grained_activation_offloading = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:99): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.offload_modules = null (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:106): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.recompute_modules = null (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:117): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_first_pipeline_stage = null (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:122): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_last_pipeline_stage = null (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:123): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.pipeline_dtype = ${policy.precision} (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:40): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.sequence_parallel = True (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:39): sequence parallelism: fusync's TP activations are those with it on
--   policy.megatron_cfg.freeze_moe_router = true (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:127): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_dtype = fp64 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:128): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_load_balancing_type = none (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:129): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_bias_update_rate = 0.0 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:130): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_permute_fusion = true (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:131): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.apply_rope_fusion = True (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:137): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.bias_activation_fusion = True (examples/configs/recipes/llm/../../grpo_math_1B.yaml:233): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.defer_fp32_logits = False (examples/configs/recipes/llm/../../grpo_math_1B.yaml:234): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_per_layer_logging = False (examples/configs/recipes/llm/../../grpo_math_1B.yaml:235): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_enable_deepep = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:132): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_shared_expert_overlap = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:134): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.use_gloo_process_groups = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:135): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_num_layers = 0 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:241): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_loss_scaling_factor = 0.0 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:243): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_use_repeated_layer = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:245): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.mtp_detach_heads = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:247): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.gradient_accumulation_fusion = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:248): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.use_fused_weighted_squared_relu = false (examples/configs/recipes/llm/../../grpo_math_1B.yaml:249): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.enabled = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:140): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.target_modules = [] (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:141): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.exclude_modules = [] (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:142): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dim = 8 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:143): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.alpha = 32 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:144): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout = 0.0 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:145): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.dropout_position = post (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:146): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_A_init_method = xavier (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:147): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_B_init_method = zero (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:148): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.a2a_experimental = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:149): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.peft.lora_dtype = null (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:150): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.use_custom_fsdp = false (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:188): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.data_parallel_sharding_strategy = optim_grads_params (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:189): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.env_vars.PYTORCH_CUDA_ALLOC_CONF = expandable_segments:False (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:61): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
-- Keys read that do not affect performance
--   grpo.max_num_epochs (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:7)
--   grpo.max_num_steps (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:8)
--   grpo.normalize_rewards (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:9)
--   grpo.use_leave_one_out_baseline (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:10)
--   grpo.val_start_at (examples/configs/recipes/llm/../../grpo_math_1B.yaml:11)
--   grpo.val_at_start (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:12)
--   grpo.val_at_end (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:13)
--   grpo.overlong_filtering (examples/configs/recipes/llm/../../grpo_math_1B.yaml:14)
--   grpo.advantage_clip_low (examples/configs/recipes/llm/../../grpo_math_1B.yaml:15)
--   grpo.advantage_clip_high (examples/configs/recipes/llm/../../grpo_math_1B.yaml:16)
--   grpo.max_val_samples (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:14)
--   grpo.val_num_generations_per_prompt (examples/configs/recipes/llm/../../grpo_math_1B.yaml:20)
--   grpo.stop_at_validation_metric (examples/configs/recipes/llm/../../grpo_math_1B.yaml:22)
--   grpo.stop_at_validation_threshold (examples/configs/recipes/llm/../../grpo_math_1B.yaml:24)
--   grpo.val_batch_size (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:15)
--   grpo.seed (examples/configs/recipes/llm/../../grpo_math_1B.yaml:26)
--   grpo.dynamic_sampling_max_gen_batches (examples/configs/recipes/llm/../../grpo_math_1B.yaml:28)
--   grpo.batch_multiplier (examples/configs/recipes/llm/../../grpo_math_1B.yaml:29)
--   grpo.reward_shaping.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:31)
--   grpo.reward_shaping.overlong_buffer_length (examples/configs/recipes/llm/../../grpo_math_1B.yaml:32)
--   grpo.reward_shaping.overlong_buffer_penalty (examples/configs/recipes/llm/../../grpo_math_1B.yaml:33)
--   grpo.reward_shaping.max_response_length (examples/configs/recipes/llm/../../grpo_math_1B.yaml:34)
--   grpo.reward_shaping.stop_properly_penalty_coef (examples/configs/recipes/llm/../../grpo_math_1B.yaml:35)
--   grpo.adv_estimator.name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:40)
--   grpo.adv_estimator.normalize_rewards (examples/configs/recipes/llm/../../grpo_math_1B.yaml:41)
--   grpo.adv_estimator.use_leave_one_out_baseline (examples/configs/recipes/llm/../../grpo_math_1B.yaml:42)
--   grpo.adv_estimator.minus_baseline (examples/configs/recipes/llm/../../grpo_math_1B.yaml:43)
--   grpo.reward_scaling.enabled (examples/configs/recipes/llm/../../grpo_math_1B.yaml:45)
--   grpo.reward_scaling.source_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:46)
--   grpo.reward_scaling.source_max (examples/configs/recipes/llm/../../grpo_math_1B.yaml:47)
--   grpo.reward_scaling.target_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:48)
--   grpo.reward_scaling.target_max (examples/configs/recipes/llm/../../grpo_math_1B.yaml:49)
--   grpo.seq_logprob_error_threshold (examples/configs/recipes/llm/../../grpo_math_1B.yaml:50)
--   grpo.invalid_tool_call_advantage (examples/configs/recipes/llm/../../grpo_math_1B.yaml:52)
--   grpo.malformed_thinking_advantage (examples/configs/recipes/llm/../../grpo_math_1B.yaml:54)
--   grpo.async_grpo.max_generation_failures (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:19)
--   reward_penalties.penalize_duplicated_reasoning (examples/configs/recipes/llm/../../grpo_math_1B.yaml:69)
--   reward_penalties.penalize_empty_final_answer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:70)
--   reward_penalties.penalize_unwanted_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:71)
--   reward_penalties.penalize_malformed_think_tag (examples/configs/recipes/llm/../../grpo_math_1B.yaml:72)
--   reward_penalties.token_ids (examples/configs/recipes/llm/../../grpo_math_1B.yaml:77)
--   loss_fn.reference_policy_kl_type (examples/configs/recipes/llm/../../grpo_math_1B.yaml:83)
--   loss_fn.kl_input_clamp_value (examples/configs/recipes/llm/../../grpo_math_1B.yaml:84)
--   loss_fn.kl_output_clamp_value (examples/configs/recipes/llm/../../grpo_math_1B.yaml:85)
--   loss_fn.ratio_clip_min (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:23)
--   loss_fn.ratio_clip_max (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:24)
--   loss_fn.ratio_clip_c (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:29)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:26)
--   loss_fn.use_importance_sampling_correction (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:27)
--   loss_fn.truncated_importance_sampling_type (examples/configs/recipes/llm/../../grpo_math_1B.yaml:97)
--   loss_fn.truncated_importance_sampling_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:98)
--   loss_fn.truncated_importance_sampling_ratio_min (examples/configs/recipes/llm/../../grpo_math_1B.yaml:100)
--   loss_fn.sequence_level_importance_ratios (examples/configs/recipes/llm/../../grpo_math_1B.yaml:101)
--   loss_fn.token_level_loss (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:28)
--   loss_fn.force_on_policy_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:103)
--   loss_fn.use_kl_in_reward (examples/configs/recipes/llm/../../grpo_math_1B.yaml:104)
--   loss_fn.use_cispo (examples/configs/recipes/llm/../../grpo_math_1B.yaml:105)
--   loss_fn.disable_ppo_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:108)
--   loss_fn.positive_example_nll_weight (examples/configs/recipes/llm/../../grpo_math_1B.yaml:111)
--   checkpointing.enabled (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:32)
--   checkpointing.checkpoint_dir (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:7)
--   checkpointing.metric_name (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:34)
--   checkpointing.higher_is_better (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:35)
--   checkpointing.keep_top_k (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:36)
--   checkpointing.checkpoint_must_save_by (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:38)
--   checkpointing.model_save_format (examples/configs/recipes/llm/../../grpo_math_1B.yaml:121)
--   checkpointing.save_consolidated (examples/configs/recipes/llm/../../grpo_math_1B.yaml:122)
--   checkpointing.save_optimizer (examples/configs/recipes/llm/../../grpo_math_1B.yaml:123)
--   policy.tokenizer.name (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:11)
--   policy.tokenizer.chat_template_kwargs (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:49)
--   policy.tokenizer.use_fastokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:130)
--   policy.hf_config_overrides (examples/configs/recipes/llm/../../grpo_math_1B.yaml:131)
--   policy.generation_batch_size (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:14)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/recipes/llm/../../grpo_math_1B.yaml:149)
--   policy.dtensor_cfg.automodel_kwargs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:155)
--   policy.dtensor_cfg.lora_cfg.exclude_modules (examples/configs/recipes/llm/../../grpo_math_1B.yaml:162)
--   policy.dtensor_cfg.lora_cfg.alpha (examples/configs/recipes/llm/../../grpo_math_1B.yaml:165)
--   policy.dtensor_cfg.lora_cfg.dropout (examples/configs/recipes/llm/../../grpo_math_1B.yaml:166)
--   policy.dtensor_cfg.lora_cfg.dropout_position (examples/configs/recipes/llm/../../grpo_math_1B.yaml:167)
--   policy.dtensor_cfg.lora_cfg.lora_A_init (examples/configs/recipes/llm/../../grpo_math_1B.yaml:168)
--   policy.dtensor_cfg.lora_cfg.use_triton (examples/configs/recipes/llm/../../grpo_math_1B.yaml:169)
--   policy.megatron_cfg.checkpoint.async_save (examples/configs/recipes/llm/../../grpo_math_1B.yaml:177)
--   policy.megatron_cfg.checkpoint.ckpt_assume_constant_structure (examples/configs/recipes/llm/../../grpo_math_1B.yaml:178)
--   policy.megatron_cfg.optimizer.optimizer (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:43)
--   policy.megatron_cfg.optimizer.lr (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:44)
--   policy.megatron_cfg.optimizer.min_lr (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:45)
--   policy.megatron_cfg.optimizer.weight_decay (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:46)
--   policy.megatron_cfg.optimizer.bf16 (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:47)
--   policy.megatron_cfg.optimizer.fp16 (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:48)
--   policy.megatron_cfg.optimizer.params_dtype (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:49)
--   policy.megatron_cfg.optimizer.adam_beta1 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:162)
--   policy.megatron_cfg.optimizer.adam_beta2 (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:163)
--   policy.megatron_cfg.optimizer.adam_eps (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:164)
--   policy.megatron_cfg.optimizer.sgd_momentum (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:167)
--   policy.megatron_cfg.optimizer.use_precision_aware_optimizer (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:171)
--   policy.megatron_cfg.optimizer.clip_grad (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:173)
--   policy.megatron_cfg.optimizer.overlap_cpu_optimizer_d2h_h2d (examples/configs/recipes/llm/../../grpo_math_1B.yaml:290)
--   policy.megatron_cfg.scheduler.start_weight_decay (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:52)
--   policy.megatron_cfg.scheduler.end_weight_decay (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:53)
--   policy.megatron_cfg.scheduler.weight_decay_incr_style (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:54)
--   policy.megatron_cfg.scheduler.lr_decay_style (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:55)
--   policy.megatron_cfg.scheduler.lr_decay_iters (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:56)
--   policy.megatron_cfg.scheduler.lr_warmup_iters (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:57)
--   policy.megatron_cfg.scheduler.lr_warmup_init (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:58)
--   policy.draft.model_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:318)
--   policy.draft.loss_weight (examples/configs/recipes/llm/../../grpo_math_1B.yaml:319)
--   policy.draft.num_layers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:320)
--   policy.draft.aux_layer_indices (examples/configs/recipes/llm/../../grpo_math_1B.yaml:321)
--   policy.dynamic_batching.sequence_length_round (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:69)
--   policy.sequence_packing.algorithm (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:75)
--   policy.sequence_packing.microbatch_order (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:76)
--   policy.sequence_packing.sequence_length_round (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:77)
--   policy.make_sequence_length_divisible_by (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:11)
--   policy.max_grad_norm (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:79)
--   policy.scheduler (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:29)
--   policy.generation.port_range_low (examples/configs/recipes/llm/../../grpo_math_1B.yaml:367)
--   policy.generation.port_range_high (examples/configs/recipes/llm/../../grpo_math_1B.yaml:368)
--   policy.generation.backend (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:64)
--   policy.generation.temperature (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:66)
--   policy.generation.top_p (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:67)
--   policy.generation.top_k (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:68)
--   policy.generation.val_temperature (examples/configs/recipes/llm/../../grpo_math_1B.yaml:375)
--   policy.generation.val_top_p (examples/configs/recipes/llm/../../grpo_math_1B.yaml:376)
--   policy.generation.val_top_k (examples/configs/recipes/llm/../../grpo_math_1B.yaml:377)
--   policy.generation.stop_token_ids (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:69)
--   policy.generation.stop_strings (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:70)
--   policy.generation.refit_transport (examples/configs/recipes/llm/../../grpo_math_1B.yaml:382)
--   policy.generation.real_quant_export_cpu_offload (examples/configs/recipes/llm/../../grpo_math_1B.yaml:385)
--   policy.generation.refit_cfg.nixl.update_weights_bucket_memory_ratio (examples/configs/recipes/llm/../../grpo_math_1B.yaml:388)
--   policy.generation.refit_cfg.nixl.device (examples/configs/recipes/llm/../../grpo_math_1B.yaml:389)
--   policy.generation.refit_cfg.nixl.backend_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:390)
--   policy.generation.refit_cfg.nixl.backend_init_params (examples/configs/recipes/llm/../../grpo_math_1B.yaml:391)
--   policy.generation.refit_cfg.nixl.release_after_refit (examples/configs/recipes/llm/../../grpo_math_1B.yaml:392)
--   policy.generation.refit_cfg.nixl.shard_expert_weights (examples/configs/recipes/llm/../../grpo_math_1B.yaml:393)
--   policy.generation.mcore_generation_config.max_model_len (examples/configs/recipes/llm/../../grpo_math_1B.yaml:395)
--   policy.generation.mcore_generation_config.cuda_graph_impl (examples/configs/recipes/llm/../../grpo_math_1B.yaml:396)
--   policy.generation.mcore_generation_config.inference_cuda_graph_scope (examples/configs/recipes/llm/../../grpo_math_1B.yaml:397)
--   policy.generation.mcore_generation_config.buffer_size_gb (examples/configs/recipes/llm/../../grpo_math_1B.yaml:398)
--   policy.generation.mcore_generation_config.num_cuda_graphs (examples/configs/recipes/llm/../../grpo_math_1B.yaml:399)
--   policy.generation.mcore_generation_config.block_size_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:400)
--   policy.generation.mcore_generation_config.use_cuda_graphs_for_non_decode_steps (examples/configs/recipes/llm/../../grpo_math_1B.yaml:401)
--   policy.generation.mcore_generation_config.enable_chunked_prefill (examples/configs/recipes/llm/../../grpo_math_1B.yaml:402)
--   policy.generation.mcore_generation_config.enable_prefix_caching (examples/configs/recipes/llm/../../grpo_math_1B.yaml:403)
--   policy.generation.mcore_generation_config.max_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:404)
--   policy.generation.mcore_generation_config.kv_cache_management_mode (examples/configs/recipes/llm/../../grpo_math_1B.yaml:405)
--   policy.generation.mcore_generation_config.materialize_only_last_token_logits (examples/configs/recipes/llm/../../grpo_math_1B.yaml:406)
--   policy.generation.mcore_generation_config.num_speculative_tokens (examples/configs/recipes/llm/../../grpo_math_1B.yaml:407)
--   policy.generation.mcore_generation_config.refit_backend (examples/configs/recipes/llm/../../grpo_math_1B.yaml:408)
--   policy.generation.mcore_generation_config.parsers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:409)
--   policy.generation.mcore_generation_config.expose_http_server (examples/configs/recipes/llm/../../grpo_math_1B.yaml:410)
--   policy.generation.vllm_cfg.logprobs_mode (examples/configs/recipes/llm/../../grpo_math_1B.yaml:415)
--   policy.generation.vllm_cfg.use_tqdm (examples/configs/recipes/llm/../../grpo_math_1B.yaml:425)
--   policy.generation.vllm_cfg.use_deep_gemm (examples/configs/recipes/llm/../../grpo_math_1B.yaml:426)
--   policy.generation.vllm_cfg.num_last_layers_in_bf16 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:427)
--   policy.generation.vllm_cfg.num_first_layers_in_bf16 (examples/configs/recipes/llm/../../grpo_math_1B.yaml:428)
--   policy.generation.vllm_cfg.enable_vllm_metrics_logger (examples/configs/recipes/llm/../../grpo_math_1B.yaml:429)
--   policy.generation.vllm_cfg.vllm_metrics_logger_interval (examples/configs/recipes/llm/../../grpo_math_1B.yaml:430)
--   policy.generation.vllm_cfg.http_refit_api_key_env_var (examples/configs/recipes/llm/../../grpo_math_1B.yaml:431)
--   policy.generation.vllm_cfg.reset_encoder_cache_after_weight_update (examples/configs/recipes/llm/../../grpo_math_1B.yaml:432)
--   policy.generation.vllm_cfg.http_refit_server_port (examples/configs/recipes/llm/../../grpo_math_1B.yaml:433)
--   policy.generation.vllm_cfg.zmq_refit_server_port (examples/configs/recipes/llm/../../grpo_math_1B.yaml:434)
--   data.max_input_seq_length (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:31)
--   data.shuffle (examples/configs/recipes/llm/../../grpo_math_1B.yaml:447)
--   data.num_workers (examples/configs/recipes/llm/../../grpo_math_1B.yaml:448)
--   data.use_multiple_dataloader (examples/configs/recipes/llm/../../grpo_math_1B.yaml:452)
--   data.train.dataset_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:456)
--   data.train.split_validation_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:457)
--   data.train.seed (examples/configs/recipes/llm/../../grpo_math_1B.yaml:458)
--   data.validation (examples/configs/recipes/llm/../../grpo_math_1B.yaml:459)
--   data.default.prompt_file (examples/configs/recipes/llm/../../grpo_math_1B.yaml:462)
--   data.default.system_prompt_file (examples/configs/recipes/llm/../../grpo_math_1B.yaml:463)
--   data.default.processor (examples/configs/recipes/llm/../../grpo_math_1B.yaml:464)
--   data.default.env_name (examples/configs/recipes/llm/../../grpo_math_1B.yaml:465)
--   env.math.math_verify_impl (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:205)
--   logger.log_dir (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:33)
--   logger.num_val_samples_to_print (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:209)
--   logger.wandb_enabled (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:210)
--   logger.tensorboard_enabled (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:211)
--   logger.mlflow_enabled (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:212)
--   logger.swanlab_enabled (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:213)
--   logger.monitor_gpus (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:214)
--   logger.wandb.project (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:216)
--   logger.wandb.name (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:35)
--   logger.wandb.log_nemo_gym_full_result_tables (examples/configs/recipes/llm/../../grpo_math_1B.yaml:506)
--   logger.swanlab.project (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:219)
--   logger.swanlab.name (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:220)
--   logger.tensorboard (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:221)
--   logger.mlflow.experiment_name (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:223)
--   logger.mlflow.run_name (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:224)
--   logger.mlflow.tracking_uri (examples/configs/recipes/llm/../../grpo_math_1B.yaml:514)
--   logger.gpu_monitoring.collection_interval (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:226)
--   logger.gpu_monitoring.flush_interval (examples/configs/recipes/llm/../../grpo_math_1B_megatron.yaml:227)
--   cluster.master_port_range_low (examples/configs/recipes/llm/../../grpo_math_1B.yaml:525)
--   cluster.master_port_range_high (examples/configs/recipes/llm/../../grpo_math_1B.yaml:526)
--   cluster.segment_size (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:84)
--   data_plane.impl (examples/configs/recipes/llm/../../grpo_math_1B.yaml:535)
--   data_plane.backend (examples/configs/recipes/llm/../../grpo_math_1B.yaml:536)
--   data_plane.storage_capacity (examples/configs/recipes/llm/../../grpo_math_1B.yaml:537)
--   data_plane.num_storage_units (examples/configs/recipes/llm/../../grpo_math_1B.yaml:538)
--   data_plane.claim_meta_poll_interval_s (examples/configs/recipes/llm/../../grpo_math_1B.yaml:539)
--   data_plane.global_segment_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:540)
--   data_plane.local_buffer_size (examples/configs/recipes/llm/../../grpo_math_1B.yaml:541)
--   on_policy_distillation (examples/configs/recipes/llm/../../grpo_math_1B.yaml:551)
--   policy.optimizer (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:27)
--   policy.router_replay.enabled (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:13)
--   policy.generation.vllm_kwargs.moe_backend (examples/configs/recipes/llm/../../grpo_math_qwen30ba3b_megatron.yaml:79)
--   policy.generation.vllm_cfg.enable_prefix_caching (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:27)
--   policy.generation.vllm_kwargs.enable_chunked_prefill (examples/configs/recipes/llm/grpo-qwen3-30ba3b-8n8g-megatron-cp2-r3.yaml:29)
