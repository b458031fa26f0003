-- Feasibility row (ran): examples/configs/grpo-deepscaler-1.5b-16K.yaml at NVIDIA-NeMo/RL 56040244e, pull request
-- 709's fix of the row above (dtensor_cfg: tensor_parallel_size 2, activation_checkpointing, cpu_offload and
-- sequence_parallel on; logprob_batch_size still 4): the configuration the PR says fixes the OOM.  1 node of 8 GPUs.
-- Imported with fusync import nemo-rl at that commit (its defaults chain read at the same commit) and --device h100
-- --set plan.rollout.mem_util_scope=device (vllm==0.9.0 in pyproject.toml at the merge's parent fa21d3c86).  H100
-- from docs/guides/grpo-deepscaler.md ("a single 8XH100 80GB node").  Model shape from its config.json (models/).
-- Imported by `fusync import nemo-rl` from grpo-deepscaler-1.5b-16K.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/grpo-deepscaler-1.5b-8K.yaml:145)
    nodes = 1,  -- cluster.num_nodes (examples/configs/grpo-deepscaler-1.5b-8K.yaml:146)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", layers = 28, dense_layers = 0, hidden = 1536, heads = 12, kv_heads = 2, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 8960, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 131072 },  -- policy.model_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:34) = deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/grpo-deepscaler-1.5b-16K.yaml:5): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 128,  -- grpo.num_prompts_per_step (examples/configs/grpo-deepscaler-1.5b-8K.yaml:3)
    samples_per_prompt = 8,  -- grpo.num_generations_per_prompt (examples/configs/grpo-deepscaler-1.5b-8K.yaml:4)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 16,  -- policy.train_global_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:37): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(1024, 4096),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/grpo-deepscaler-1.5b-16K.yaml:10) to all of it
    response_len = f.dist.lognormal{ median = 3072, sigma = 0.8, cap = 12288 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/grpo-deepscaler-1.5b-16K.yaml:10) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 12288,  -- policy.max_total_sequence_length (examples/configs/grpo-deepscaler-1.5b-16K.yaml:10) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 16,  -- env.math.num_workers (examples/configs/grpo-deepscaler-1.5b-8K.yaml:124)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/grpo-deepscaler-1.5b-8K.yaml:103)
      tp = 1,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:99)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/grpo-deepscaler-1.5b-8K.yaml:101)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:110): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:110): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
      mem_util_scope = "device",  -- --set
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:110): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:110): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      zero = 3,  -- policy.dtensor_cfg.enabled (examples/configs/grpo-deepscaler-1.5b-16K.yaml:13): DTensor FSDP2 shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "host",  -- policy.dtensor_cfg.cpu_offload: FSDP2's CPUOffloadPolicy, the sharded gradients copied to the host in the backward
      tp = 2,  -- policy.dtensor_cfg.tensor_parallel_size (examples/configs/grpo-deepscaler-1.5b-16K.yaml:17)
      cp = 1,  -- policy.dtensor_cfg.context_parallel_size (examples/configs/grpo-deepscaler-1.5b-16K.yaml:18)
      recompute = "full",  -- policy.dtensor_cfg.activation_checkpointing (examples/configs/grpo-deepscaler-1.5b-16K.yaml:16)
      optimizer_offload = 1,  -- policy.dtensor_cfg.cpu_offload (examples/configs/grpo-deepscaler-1.5b-16K.yaml:14)
      logprob_unshard = true,  -- policy.dtensor_cfg._v2 absent, the input (it has policy.train_micro_batch_size) older than v0.4.0 (commit e861b94): off as before it: the DTensor v1 worker unshards the whole model for get_logprobs
      logits = "eager",  -- NeMo RL's DTensor get_logprobs (FP32 upcast, eager log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:38)
      padding = "longest",  -- policy.sequence_packing.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:57) and policy.dynamic_batching.enabled (examples/configs/grpo-deepscaler-1.5b-16K.yaml:22) off: micro-batches padded to their longest
      logprob_batch = 4,  -- policy.logprob_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:40)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   policy.dtensor_cfg.sequence_parallel = true (examples/configs/grpo-deepscaler-1.5b-16K.yaml:15): sequence parallelism: fusync's TP activations are those with it on
--   policy.dtensor_cfg.cpu_offload = true: FSDP2 also holds the parameters on the host; fusync counts their shards on the device (memory over-counted)
-- Keys read that do not affect performance
--   grpo.max_num_steps (examples/configs/grpo-deepscaler-1.5b-8K.yaml:6)
--   grpo.normalize_rewards (examples/configs/grpo-deepscaler-1.5b-8K.yaml:7)
--   grpo.use_leave_one_out_baseline (examples/configs/grpo-deepscaler-1.5b-8K.yaml:8)
--   grpo.val_at_start (examples/configs/grpo-deepscaler-1.5b-8K.yaml:10)
--   grpo.max_val_samples (examples/configs/grpo-deepscaler-1.5b-8K.yaml:11)
--   grpo.val_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:12)
--   loss_fn.ratio_clip_min (examples/configs/grpo-deepscaler-1.5b-8K.yaml:16)
--   loss_fn.ratio_clip_max (examples/configs/grpo-deepscaler-1.5b-16K.yaml:6)
--   loss_fn.ratio_clip_c (examples/configs/grpo-deepscaler-1.5b-8K.yaml:18)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/grpo-deepscaler-1.5b-8K.yaml:20)
--   loss_fn.use_importance_sampling_correction (examples/configs/grpo-deepscaler-1.5b-8K.yaml:21)
--   loss_fn.token_level_loss (examples/configs/grpo-deepscaler-1.5b-8K.yaml:22)
--   checkpointing.enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:25)
--   checkpointing.checkpoint_dir (examples/configs/grpo-deepscaler-1.5b-8K.yaml:26)
--   checkpointing.metric_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:27)
--   checkpointing.higher_is_better (examples/configs/grpo-deepscaler-1.5b-8K.yaml:28)
--   checkpointing.keep_top_k (examples/configs/grpo-deepscaler-1.5b-8K.yaml:29)
--   policy.tokenizer.name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:36)
--   policy.generation_batch_size (examples/configs/grpo-deepscaler-1.5b-8K.yaml:39)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/grpo-deepscaler-1.5b-16K.yaml:19)
--   policy.make_sequence_length_divisible_by (examples/configs/grpo-deepscaler-1.5b-8K.yaml:61)
--   policy.max_grad_norm (examples/configs/grpo-deepscaler-1.5b-8K.yaml:62)
--   policy.optimizer.name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:65)
--   policy.optimizer.kwargs.lr (examples/configs/grpo-deepscaler-1.5b-8K.yaml:67)
--   policy.optimizer.kwargs.weight_decay (examples/configs/grpo-deepscaler-1.5b-8K.yaml:68)
--   policy.optimizer.kwargs.betas (examples/configs/grpo-deepscaler-1.5b-8K.yaml:69)
--   policy.optimizer.kwargs.eps (examples/configs/grpo-deepscaler-1.5b-8K.yaml:70)
--   policy.optimizer.kwargs.foreach (examples/configs/grpo-deepscaler-1.5b-8K.yaml:73)
--   policy.optimizer.kwargs.fused (examples/configs/grpo-deepscaler-1.5b-8K.yaml:74)
--   policy.scheduler (examples/configs/grpo-deepscaler-1.5b-8K.yaml:76)
--   policy.generation.backend (examples/configs/grpo-deepscaler-1.5b-8K.yaml:89)
--   policy.generation.temperature (examples/configs/grpo-deepscaler-1.5b-8K.yaml:91)
--   policy.generation.top_p (examples/configs/grpo-deepscaler-1.5b-8K.yaml:92)
--   policy.generation.top_k (examples/configs/grpo-deepscaler-1.5b-8K.yaml:93)
--   policy.generation.stop_token_ids (examples/configs/grpo-deepscaler-1.5b-8K.yaml:94)
--   policy.generation.stop_strings (examples/configs/grpo-deepscaler-1.5b-8K.yaml:95)
--   policy.generation.vllm_cfg.load_format (examples/configs/grpo-deepscaler-1.5b-8K.yaml:106)
--   data.max_input_seq_length (examples/configs/grpo-deepscaler-1.5b-8K.yaml:117)
--   data.prompt_file (examples/configs/grpo-deepscaler-1.5b-8K.yaml:118)
--   data.system_prompt_file (examples/configs/grpo-deepscaler-1.5b-8K.yaml:119)
--   data.dataset_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:120)
--   logger.log_dir (examples/configs/grpo-deepscaler-1.5b-8K.yaml:127)
--   logger.num_val_samples_to_print (examples/configs/grpo-deepscaler-1.5b-8K.yaml:128)
--   logger.wandb_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:129)
--   logger.tensorboard_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:130)
--   logger.mlflow_enabled (examples/configs/grpo-deepscaler-1.5b-8K.yaml:131)
--   logger.monitor_gpus (examples/configs/grpo-deepscaler-1.5b-8K.yaml:132)
--   logger.wandb.project (examples/configs/grpo-deepscaler-1.5b-8K.yaml:134)
--   logger.wandb.name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:135)
--   logger.tensorboard (examples/configs/grpo-deepscaler-1.5b-8K.yaml:136)
--   logger.mlflow.experiment_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:138)
--   logger.mlflow.run_name (examples/configs/grpo-deepscaler-1.5b-8K.yaml:139)
--   logger.gpu_monitoring.collection_interval (examples/configs/grpo-deepscaler-1.5b-8K.yaml:141)
--   logger.gpu_monitoring.flush_interval (examples/configs/grpo-deepscaler-1.5b-8K.yaml:142)
