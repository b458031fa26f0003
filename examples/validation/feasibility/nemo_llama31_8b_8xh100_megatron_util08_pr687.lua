-- Feasibility row (out of memory): NVIDIA-NeMo/RL pull request 687 (merged 2025-07-18, 00f930a16), "fix: Megatron
-- config updates to avoid OOM": "decreases gpu_memory_utilization for Llama 8B and 70B configs to avoid OOM".  The
-- configuration it fixed: examples/configs/grpo_math_8B_megatron.yaml at de8b044ce (the merge's parent; the file as
-- pull request 652 left it): Megatron TP 1 PP 2, vLLM at 0.8, 1 node of 8 GPUs.  The PR does not say where.
-- Imported with fusync import nemo-rl at that commit (its defaults chain read at the same commit) and --device h100
-- --set plan.rollout.mem_util_scope=device: the commit's pyproject.toml pins vllm==0.9.0, before vLLM 0.9.1's
-- per-instance budget (docs/model.md, section 8).  The GPU type is not stated: H100 assumed (the file's own comment
-- at that date, "On H100, can run with pp=1", and NeMo RL's nightly hardware).  Model shape from its config.json (models/).
-- Imported by `fusync import nemo-rl` from grpo_math_8B_megatron.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/grpo_math_8B_megatron.yaml:74)
    nodes = 1,  -- cluster.num_nodes (examples/configs/grpo_math_8B_megatron.yaml:75)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "meta-llama/Llama-3.1-8B-Instruct", layers = 32, dense_layers = 0, hidden = 4096, heads = 32, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 14336, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 128256, tied_embeddings = false, max_positions = 131072 },  -- policy.model_name (examples/configs/grpo_math_8B_megatron.yaml:13) = meta-llama/Llama-3.1-8B-Instruct; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/grpo_math_1B_megatron.yaml:16): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 64,  -- grpo.num_prompts_per_step (examples/configs/grpo_math_8B_megatron.yaml:5)
    samples_per_prompt = 32,  -- grpo.num_generations_per_prompt (examples/configs/grpo_math_8B_megatron.yaml:6)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 4,  -- policy.train_global_batch_size (examples/configs/grpo_math_8B_megatron.yaml:16): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/grpo_math_8B_megatron.yaml:20) to all of it
    response_len = f.dist.lognormal{ median = 768, sigma = 0.8, cap = 3072 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/grpo_math_8B_megatron.yaml:20) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 3072,  -- policy.max_total_sequence_length (examples/configs/grpo_math_8B_megatron.yaml:20) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/grpo_math_1B_megatron.yaml:149)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/grpo_math_1B.yaml:110)
      tp = 1,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/grpo_math_8B_megatron.yaml:69)
      mem_util = 0.8,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/grpo_math_8B_megatron.yaml:70)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
      mem_util_scope = "device",  -- --set
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      tp = 1,  -- policy.megatron_cfg.tensor_model_parallel_size (examples/configs/grpo_math_8B_megatron.yaml:36)
      pp = 2,  -- policy.megatron_cfg.pipeline_model_parallel_size (examples/configs/grpo_math_8B_megatron.yaml:38)
      ep = 1,  -- policy.megatron_cfg.expert_model_parallel_size (examples/configs/grpo_math_1B_megatron.yaml:76)
      etp = 1,  -- policy.megatron_cfg.expert_tensor_parallel_size (examples/configs/grpo_math_1B_megatron.yaml:75)
      cp = 1,  -- policy.megatron_cfg.context_parallel_size (examples/configs/grpo_math_8B_megatron.yaml:39)
      moe_dispatcher = "alltoall",  -- policy.megatron_cfg.moe_token_dispatcher_type, nemo-rl's default
      zero = 1,  -- policy.megatron_cfg.optimizer.use_distributed_optimizer (examples/configs/grpo_math_1B_megatron.yaml:108)
      grad_dtype = "bf16",  -- policy.megatron_cfg.distributed_data_parallel_config.grad_reduce_in_fp32 (examples/configs/grpo_math_1B_megatron.yaml:123)
      recompute = "none",  -- policy.megatron_cfg.activation_checkpointing (examples/configs/grpo_math_1B_megatron.yaml:72) with policy.megatron_cfg.recompute_granularity, nemo-rl's default
      logits = "eager",  -- NeMo RL's Megatron log-probs (from_parallel_logits_to_logprobs: FP32 upcast, distributed log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/grpo_math_8B_megatron.yaml:17)
      padding = "longest",  -- policy.sequence_packing.enabled (examples/configs/grpo_math_1B_megatron.yaml:56) and policy.dynamic_batching.enabled (examples/configs/grpo_math_1B_megatron.yaml:53) off: micro-batches padded to their longest
      logprob_batch = 4,  -- policy.logprob_batch_size (examples/configs/grpo_math_8B_megatron.yaml:19)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   policy.megatron_cfg.empty_unused_memory_level = 0 (examples/configs/grpo_math_8B_megatron.yaml:34): allocator cache release: not modelled
--   policy.megatron_cfg.converter_type = LlamaForCausalLM (examples/configs/grpo_math_8B_megatron.yaml:35): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_first_pipeline_stage = null (examples/configs/grpo_math_1B_megatron.yaml:78): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.num_layers_in_last_pipeline_stage = null (examples/configs/grpo_math_1B_megatron.yaml:79): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.pipeline_dtype = ${policy.precision} (examples/configs/grpo_math_8B_megatron.yaml:40): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.freeze_moe_router = true (examples/configs/grpo_math_1B_megatron.yaml:83): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_dtype = fp64 (examples/configs/grpo_math_1B_megatron.yaml:84): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_load_balancing_type = none (examples/configs/grpo_math_1B_megatron.yaml:85): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.moe_router_bias_update_rate = 0.0 (examples/configs/grpo_math_1B_megatron.yaml:86): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.apply_rope_fusion = True (examples/configs/grpo_math_1B_megatron.yaml:88): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.average_in_collective = true (examples/configs/grpo_math_1B_megatron.yaml:126): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.use_custom_fsdp = false (examples/configs/grpo_math_1B_megatron.yaml:127): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
--   policy.megatron_cfg.distributed_data_parallel_config.data_parallel_sharding_strategy = optim_grads_params (examples/configs/grpo_math_1B_megatron.yaml:128): a Megatron setting (kernels, fusions, MoE routing): not modelled; fold into efficiency.train
-- Keys read that do not affect performance
--   grpo.max_num_steps (examples/configs/grpo_math_1B_megatron.yaml:7)
--   grpo.normalize_rewards (examples/configs/grpo_math_1B_megatron.yaml:8)
--   grpo.use_leave_one_out_baseline (examples/configs/grpo_math_1B_megatron.yaml:9)
--   grpo.val_at_start (examples/configs/grpo_math_1B_megatron.yaml:11)
--   grpo.max_val_samples (examples/configs/grpo_math_1B_megatron.yaml:12)
--   grpo.val_batch_size (examples/configs/grpo_math_1B_megatron.yaml:13)
--   loss_fn.ratio_clip_min (examples/configs/grpo_math_1B_megatron.yaml:17)
--   loss_fn.ratio_clip_max (examples/configs/grpo_math_1B_megatron.yaml:18)
--   loss_fn.ratio_clip_c (examples/configs/grpo_math_1B_megatron.yaml:23)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/grpo_math_1B_megatron.yaml:20)
--   loss_fn.use_importance_sampling_correction (examples/configs/grpo_math_1B_megatron.yaml:21)
--   loss_fn.token_level_loss (examples/configs/grpo_math_1B_megatron.yaml:22)
--   checkpointing.enabled (examples/configs/grpo_math_8B_megatron.yaml:9)
--   checkpointing.checkpoint_dir (examples/configs/grpo_math_8B_megatron.yaml:10)
--   checkpointing.metric_name (examples/configs/grpo_math_1B_megatron.yaml:28)
--   checkpointing.higher_is_better (examples/configs/grpo_math_1B_megatron.yaml:29)
--   checkpointing.keep_top_k (examples/configs/grpo_math_1B_megatron.yaml:30)
--   policy.tokenizer.name (examples/configs/grpo_math_8B_megatron.yaml:15)
--   policy.generation_batch_size (examples/configs/grpo_math_8B_megatron.yaml:18)
--   policy.fsdp_offload_enabled (examples/configs/grpo_math_8B_megatron.yaml:22)
--   policy.activation_checkpointing_enabled (examples/configs/grpo_math_8B_megatron.yaml:23)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/grpo_math_1B.yaml:53)
--   policy.dynamic_batching.sequence_length_round (examples/configs/grpo_math_1B.yaml:64)
--   policy.make_sequence_length_divisible_by (examples/configs/grpo_math_1B_megatron.yaml:65)
--   policy.max_grad_norm (examples/configs/grpo_math_1B_megatron.yaml:62)
--   policy.scheduler (examples/configs/grpo_math_8B_megatron.yaml:30)
--   policy.generation.backend (examples/configs/grpo_math_8B_megatron.yaml:61)
--   policy.generation.temperature (examples/configs/grpo_math_8B_megatron.yaml:63)
--   policy.generation.top_p (examples/configs/grpo_math_8B_megatron.yaml:64)
--   policy.generation.top_k (examples/configs/grpo_math_8B_megatron.yaml:65)
--   policy.generation.stop_token_ids (examples/configs/grpo_math_8B_megatron.yaml:66)
--   policy.generation.stop_strings (examples/configs/grpo_math_8B_megatron.yaml:67)
--   data.max_input_seq_length (examples/configs/grpo_math_1B_megatron.yaml:142)
--   data.prompt_file (examples/configs/grpo_math_1B_megatron.yaml:143)
--   data.system_prompt_file (examples/configs/grpo_math_1B_megatron.yaml:144)
--   data.dataset_name (examples/configs/grpo_math_1B_megatron.yaml:145)
--   logger.log_dir (examples/configs/grpo_math_1B_megatron.yaml:152)
--   logger.num_val_samples_to_print (examples/configs/grpo_math_1B_megatron.yaml:153)
--   logger.wandb_enabled (examples/configs/grpo_math_1B_megatron.yaml:154)
--   logger.tensorboard_enabled (examples/configs/grpo_math_1B_megatron.yaml:155)
--   logger.monitor_gpus (examples/configs/grpo_math_1B_megatron.yaml:156)
--   logger.wandb.project (examples/configs/grpo_math_1B_megatron.yaml:158)
--   logger.wandb.name (examples/configs/grpo_math_1B_megatron.yaml:159)
--   logger.tensorboard (examples/configs/grpo_math_1B_megatron.yaml:160)
--   logger.gpu_monitoring.collection_interval (examples/configs/grpo_math_1B_megatron.yaml:162)
--   logger.gpu_monitoring.flush_interval (examples/configs/grpo_math_1B_megatron.yaml:163)
--   policy.sequence_packing.algorithm (examples/configs/grpo_math_1B_megatron.yaml:59)
--   policy.sequence_packing.sequence_length_round (examples/configs/grpo_math_1B_megatron.yaml:60)
--   policy.optimizer (examples/configs/grpo_math_8B_megatron.yaml:28)
--   policy.megatron_cfg.optimizer.optimizer (examples/configs/grpo_math_8B_megatron.yaml:43)
--   policy.megatron_cfg.optimizer.lr (examples/configs/grpo_math_8B_megatron.yaml:44)
--   policy.megatron_cfg.optimizer.min_lr (examples/configs/grpo_math_8B_megatron.yaml:45)
--   policy.megatron_cfg.optimizer.weight_decay (examples/configs/grpo_math_8B_megatron.yaml:46)
--   policy.megatron_cfg.optimizer.bf16 (examples/configs/grpo_math_8B_megatron.yaml:47)
--   policy.megatron_cfg.optimizer.fp16 (examples/configs/grpo_math_8B_megatron.yaml:48)
--   policy.megatron_cfg.optimizer.params_dtype (examples/configs/grpo_math_8B_megatron.yaml:49)
--   policy.megatron_cfg.optimizer.adam_beta1 (examples/configs/grpo_math_1B_megatron.yaml:100)
--   policy.megatron_cfg.optimizer.adam_beta2 (examples/configs/grpo_math_1B_megatron.yaml:101)
--   policy.megatron_cfg.optimizer.adam_eps (examples/configs/grpo_math_1B_megatron.yaml:102)
--   policy.megatron_cfg.optimizer.sgd_momentum (examples/configs/grpo_math_1B_megatron.yaml:105)
--   policy.megatron_cfg.optimizer.use_precision_aware_optimizer (examples/configs/grpo_math_1B_megatron.yaml:109)
--   policy.megatron_cfg.optimizer.clip_grad (examples/configs/grpo_math_1B_megatron.yaml:111)
--   policy.megatron_cfg.scheduler.start_weight_decay (examples/configs/grpo_math_8B_megatron.yaml:52)
--   policy.megatron_cfg.scheduler.end_weight_decay (examples/configs/grpo_math_8B_megatron.yaml:53)
--   policy.megatron_cfg.scheduler.weight_decay_incr_style (examples/configs/grpo_math_8B_megatron.yaml:54)
--   policy.megatron_cfg.scheduler.lr_decay_style (examples/configs/grpo_math_8B_megatron.yaml:55)
--   policy.megatron_cfg.scheduler.lr_decay_iters (examples/configs/grpo_math_8B_megatron.yaml:56)
--   policy.megatron_cfg.scheduler.lr_warmup_iters (examples/configs/grpo_math_8B_megatron.yaml:57)
--   policy.megatron_cfg.scheduler.lr_warmup_init (examples/configs/grpo_math_8B_megatron.yaml:58)
