-- Feasibility row (ran): examples/configs/grpo-deepscaler-1.5b-16K.yaml at NVIDIA-NeMo/RL 5efe3878f ("Fix ooming",
-- 2025-07-08, Mahan Fathi, on the branch mfathi/randommask, not merged): the 16K recipe of the out-of-memory row
-- nemo_deepscaler_1p5b_16k_8xh100_tp1_pr709 (the same file, blob 575db2f53) with `logprob_batch_size: 1` added and
-- nothing else changed; the commit says no more than that it fixes the OOM.  Its defaults file
-- grpo-deepscaler-1.5b-8K.yaml on that branch adds grpo.mask_type and mask_density (keys that do not change memory)
-- and differs from fa21d3c86's in no memory setting.  1 node of 8 GPUs.
-- Imported with fusync import nemo-rl at that commit (its defaults chain read at the same commit) and --device h100
-- --set plan.rollout.mem_util_scope=device (vllm==0.9.0 in that commit's pyproject.toml).  H100 from
-- docs/guides/grpo-deepscaler.md on that branch ("We run all experiments on a single 8XH100 80GB node or on a
-- single 8XA100 80GB node").  Model shape from its config.json (models/).
-- Imported by `fusync import nemo-rl` from grpo-deepscaler-1.5b-16K.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/grpo-deepscaler-1.5b-8K.yaml:143)
    nodes = 1,  -- cluster.num_nodes (examples/configs/grpo-deepscaler-1.5b-8K.yaml:144)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", layers = 28, dense_layers = 0, hidden = 1536, heads = 12, kv_heads = 2, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 8960, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 131072 },  -- policy.model_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:38) = deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/grpo-deepscaler-1.5b-16K.yaml:5): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 128,  -- grpo.num_prompts_per_step (examples/configs/grpo-deepscaler-1.5b-8K.yaml:5)
    samples_per_prompt = 8,  -- grpo.num_generations_per_prompt (examples/configs/grpo-deepscaler-1.5b-8K.yaml:6)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 16,  -- policy.train_global_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:41): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(1024, 4096),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/grpo-deepscaler-1.5b-16K.yaml:10) to all of it
    response_len = f.dist.lognormal{ median = 3072, sigma = 0.8, cap = 12288 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/grpo-deepscaler-1.5b-16K.yaml:10) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 12288,  -- policy.max_total_sequence_length (examples/configs/grpo-deepscaler-1.5b-16K.yaml:10) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 16,  -- env.math.num_workers (examples/configs/grpo-deepscaler-1.5b-8K.yaml:126)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager, nemo-rl's default
      tp = 1,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:102)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/grpo-deepscaler-1.5b-8K.yaml:104)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:112): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:112): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
      mem_util_scope = "device",  -- --set
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:112): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:112): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      zero = 3,  -- policy.dtensor_cfg.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:51): DTensor FSDP2 shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- NeMo RL's DTensor workers: zero_grad() after the last optimizer step (PyTorch set_to_none)
      tp = 1,  -- policy.dtensor_cfg.tensor_parallel_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:55)
      cp = 1,  -- policy.dtensor_cfg.context_parallel_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:56)
      recompute = "none",  -- policy.dtensor_cfg.activation_checkpointing (examples/configs/grpo-deepscaler-1.5b-8K.yaml:54)
      optimizer_offload = 0,  -- policy.dtensor_cfg.cpu_offload (examples/configs/grpo-deepscaler-1.5b-8K.yaml:52)
      logprob_unshard = true,  -- policy.dtensor_cfg._v2 absent, the input (it has policy.train_micro_batch_size) older than v0.4.0 (commit e861b94): off as before it: the DTensor v1 worker unshards the whole model for get_logprobs
      logits = "eager",  -- NeMo RL's DTensor get_logprobs (FP32 upcast, eager log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:42)
      padding = "longest",  -- policy.sequence_packing.enabled absent, the input (it has policy.train_micro_batch_size) older than v0.3.0 (commit 5924d1c): off as before it and policy.dynamic_batching.enabled (examples/configs/grpo-deepscaler-1.5b-16K.yaml:15) off: micro-batches padded to their longest
      logprob_batch = 1,  -- policy.logprob_batch_size (examples/configs/grpo-deepscaler-1.5b-16K.yaml:11)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   (none)
-- Keys read that do not affect performance
--   grpo.mask_type (examples/configs/grpo-deepscaler-1.5b-8K.yaml:3)
--   grpo.mask_density (examples/configs/grpo-deepscaler-1.5b-8K.yaml:4)
--   grpo.max_num_steps (examples/configs/grpo-deepscaler-1.5b-8K.yaml:8)
--   grpo.normalize_rewards (examples/configs/grpo-deepscaler-1.5b-8K.yaml:9)
--   grpo.use_leave_one_out_baseline (examples/configs/grpo-deepscaler-1.5b-8K.yaml:10)
--   grpo.val_at_start (examples/configs/grpo-deepscaler-1.5b-8K.yaml:12)
--   grpo.max_val_samples (examples/configs/grpo-deepscaler-1.5b-8K.yaml:13)
--   grpo.val_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:14)
--   loss_fn.ratio_clip_min (examples/configs/grpo-deepscaler-1.5b-8K.yaml:18)
--   loss_fn.ratio_clip_max (examples/configs/grpo-deepscaler-1.5b-16K.yaml:6)
--   loss_fn.ratio_clip_c (examples/configs/grpo-deepscaler-1.5b-8K.yaml:20)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/grpo-deepscaler-1.5b-8K.yaml:22)
--   loss_fn.use_importance_sampling_correction (examples/configs/grpo-deepscaler-1.5b-8K.yaml:23)
--   loss_fn.token_level_loss (examples/configs/grpo-deepscaler-1.5b-8K.yaml:24)
--   loss_fn.mask_type (examples/configs/grpo-deepscaler-1.5b-8K.yaml:25)
--   loss_fn.mask_density (examples/configs/grpo-deepscaler-1.5b-8K.yaml:26)
--   checkpointing.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:29)
--   checkpointing.checkpoint_dir (examples/configs/grpo-deepscaler-1.5b-8K.yaml:30)
--   checkpointing.metric_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:31)
--   checkpointing.higher_is_better (examples/configs/grpo-deepscaler-1.5b-8K.yaml:32)
--   checkpointing.keep_top_k (examples/configs/grpo-deepscaler-1.5b-8K.yaml:33)
--   policy.tokenizer.name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:40)
--   policy.generation_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:43)
--   policy.fsdp_offload_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:47)
--   policy.activation_checkpointing_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:48)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/grpo-deepscaler-1.5b-8K.yaml:57)
--   policy.make_sequence_length_divisible_by (examples/configs/grpo-deepscaler-1.5b-8K.yaml:64)
--   policy.max_grad_norm (examples/configs/grpo-deepscaler-1.5b-8K.yaml:65)
--   policy.optimizer.name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:68)
--   policy.optimizer.kwargs.lr (examples/configs/grpo-deepscaler-1.5b-8K.yaml:70)
--   policy.optimizer.kwargs.weight_decay (examples/configs/grpo-deepscaler-1.5b-8K.yaml:71)
--   policy.optimizer.kwargs.betas (examples/configs/grpo-deepscaler-1.5b-8K.yaml:72)
--   policy.optimizer.kwargs.eps (examples/configs/grpo-deepscaler-1.5b-8K.yaml:73)
--   policy.optimizer.kwargs.foreach (examples/configs/grpo-deepscaler-1.5b-8K.yaml:76)
--   policy.optimizer.kwargs.fused (examples/configs/grpo-deepscaler-1.5b-8K.yaml:77)
--   policy.scheduler (examples/configs/grpo-deepscaler-1.5b-8K.yaml:79)
--   policy.generation.backend (examples/configs/grpo-deepscaler-1.5b-8K.yaml:92)
--   policy.generation.temperature (examples/configs/grpo-deepscaler-1.5b-8K.yaml:94)
--   policy.generation.top_p (examples/configs/grpo-deepscaler-1.5b-8K.yaml:95)
--   policy.generation.top_k (examples/configs/grpo-deepscaler-1.5b-8K.yaml:96)
--   policy.generation.stop_token_ids (examples/configs/grpo-deepscaler-1.5b-8K.yaml:97)
--   policy.generation.stop_strings (examples/configs/grpo-deepscaler-1.5b-8K.yaml:98)
--   policy.generation.vllm_cfg.load_format (examples/configs/grpo-deepscaler-1.5b-8K.yaml:108)
--   data.max_input_seq_length (examples/configs/grpo-deepscaler-1.5b-8K.yaml:119)
--   data.prompt_file (examples/configs/grpo-deepscaler-1.5b-8K.yaml:120)
--   data.system_prompt_file (examples/configs/grpo-deepscaler-1.5b-8K.yaml:121)
--   data.dataset_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:122)
--   logger.log_dir (examples/configs/grpo-deepscaler-1.5b-8K.yaml:129)
--   logger.num_val_samples_to_print (examples/configs/grpo-deepscaler-1.5b-8K.yaml:130)
--   logger.wandb_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:131)
--   logger.tensorboard_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:132)
--   logger.monitor_gpus (examples/configs/grpo-deepscaler-1.5b-8K.yaml:133)
--   logger.wandb.project (examples/configs/grpo-deepscaler-1.5b-8K.yaml:135)
--   logger.wandb.name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:136)
--   logger.tensorboard (examples/configs/grpo-deepscaler-1.5b-8K.yaml:137)
--   logger.gpu_monitoring.collection_interval (examples/configs/grpo-deepscaler-1.5b-8K.yaml:139)
--   logger.gpu_monitoring.flush_interval (examples/configs/grpo-deepscaler-1.5b-8K.yaml:140)
