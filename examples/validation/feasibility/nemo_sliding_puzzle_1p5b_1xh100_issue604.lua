-- Feasibility row (out of memory): NVIDIA-NeMo/RL issue 604 (2025-07-03), "Current grpo-multi-turn OOM in H100
-- machine": examples/configs/grpo_sliding_puzzle.yaml as shipped (NeMo RL commit 6ca15889e, 2025-07-03) on one
-- H100 80GB (its cluster.gpus_per_node default, 1), out of memory in training; it ran with train_micro_batch_size=1;
-- the fix (commit 56040244e, "fix: OOM with some GRPO configs") turned on activation checkpointing and CPU offload.
-- Imported with fusync import nemo-rl from the config at that commit; model shape from its config.json (models/).
-- Imported by `fusync import nemo-rl` from grpo_sliding_puzzle.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 1,  -- cluster.gpus_per_node (examples/configs/grpo_math_1B.yaml:145)
    nodes = 1,  -- cluster.num_nodes (examples/configs/grpo_math_1B.yaml:146)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-1.5B-Instruct", layers = 28, dense_layers = 0, hidden = 1536, heads = 12, kv_heads = 2, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 8960, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = true, max_positions = 32768 },  -- policy.model_name (examples/configs/grpo_sliding_puzzle.yaml:19) = Qwen/Qwen2.5-1.5B-Instruct; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/grpo_math_1B.yaml:15): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 32,  -- grpo.num_prompts_per_step (examples/configs/grpo_sliding_puzzle.yaml:5)
    samples_per_prompt = 16,  -- grpo.num_generations_per_prompt (examples/configs/grpo_sliding_puzzle.yaml:6)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 1,  -- policy.train_global_batch_size (examples/configs/grpo_math_1B.yaml:37): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(192, 768),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/grpo_sliding_puzzle.yaml:20) to all of it
    response_len = f.dist.lognormal{ median = 576, sigma = 0.8, cap = 2304 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/grpo_sliding_puzzle.yaml:20) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 2304,  -- policy.max_total_sequence_length (examples/configs/grpo_sliding_puzzle.yaml:20) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/grpo_math_1B.yaml:128)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager (examples/configs/grpo_math_1B.yaml:110)
      tp = 1,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/grpo_sliding_puzzle.yaml:34)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/grpo_sliding_puzzle.yaml:36)
      sleep = "offload",  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled (examples/configs/grpo_math_1B.yaml:114): NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      zero = 3,  -- policy.dtensor_cfg.enabled (examples/configs/grpo_math_1B.yaml:47): DTensor FSDP2 shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- NeMo RL's DTensor workers: zero_grad() after the last optimizer step (PyTorch set_to_none)
      tp = 1,  -- policy.dtensor_cfg.tensor_parallel_size (examples/configs/grpo_math_1B.yaml:51)
      cp = 1,  -- policy.dtensor_cfg.context_parallel_size (examples/configs/grpo_math_1B.yaml:52)
      recompute = "none",  -- policy.dtensor_cfg.activation_checkpointing (examples/configs/grpo_math_1B.yaml:50)
      optimizer_offload = 0,  -- policy.dtensor_cfg.cpu_offload (examples/configs/grpo_math_1B.yaml:48)
      logprob_unshard = true,  -- policy.dtensor_cfg._v2 absent, the input (it has policy.train_micro_batch_size) older than v0.4.0 (commit e861b94): off as before it: the DTensor v1 worker unshards the whole model for get_logprobs
      logits = "eager",  -- NeMo RL's DTensor get_logprobs (FP32 upcast, eager log-softmax)
      micro_batch = 4,  -- policy.train_micro_batch_size (examples/configs/grpo_math_1B.yaml:38)
      max_tokens = 12288,  -- policy.dynamic_batching.train_mb_tokens (examples/configs/grpo_math_1B.yaml:62) with policy.dynamic_batching.enabled (examples/configs/grpo_math_1B.yaml:61)
      padding = "none",  -- policy.dynamic_batching.train_mb_tokens (examples/configs/grpo_math_1B.yaml:62) with policy.dynamic_batching.enabled (examples/configs/grpo_math_1B.yaml:61)
      logprob_batch = 4,  -- policy.logprob_batch_size (examples/configs/grpo_math_1B.yaml:40)
      logprob_tokens = 12288,  -- policy.dynamic_batching.logprob_mb_tokens (examples/configs/grpo_math_1B.yaml:63)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   grpo.max_rollout_turns = 50 (examples/configs/grpo_sliding_puzzle.yaml:7): multi-turn rollouts: fusync generates one turn
--   policy.dynamic_batching.enabled = true: its length-sorted micro-batches pad to their longest; fusync counts them packed (written back as sequence packing)
-- Keys read that do not affect performance
--   grpo.max_num_steps (examples/configs/grpo_sliding_puzzle.yaml:8)
--   grpo.normalize_rewards (examples/configs/grpo_math_1B.yaml:7)
--   grpo.use_leave_one_out_baseline (examples/configs/grpo_math_1B.yaml:8)
--   grpo.val_at_start (examples/configs/grpo_math_1B.yaml:10)
--   grpo.max_val_samples (examples/configs/grpo_math_1B.yaml:11)
--   grpo.val_batch_size (examples/configs/grpo_math_1B.yaml:12)
--   loss_fn.ratio_clip_min (examples/configs/grpo_math_1B.yaml:16)
--   loss_fn.ratio_clip_max (examples/configs/grpo_math_1B.yaml:17)
--   loss_fn.ratio_clip_c (examples/configs/grpo_math_1B.yaml:18)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/grpo_math_1B.yaml:20)
--   loss_fn.use_importance_sampling_correction (examples/configs/grpo_math_1B.yaml:21)
--   loss_fn.token_level_loss (examples/configs/grpo_math_1B.yaml:22)
--   checkpointing.enabled (examples/configs/grpo_sliding_puzzle.yaml:11)
--   checkpointing.checkpoint_dir (examples/configs/grpo_sliding_puzzle.yaml:12)
--   checkpointing.metric_name (examples/configs/grpo_sliding_puzzle.yaml:13)
--   checkpointing.higher_is_better (examples/configs/grpo_sliding_puzzle.yaml:14)
--   checkpointing.keep_top_k (examples/configs/grpo_sliding_puzzle.yaml:15)
--   policy.tokenizer.name (examples/configs/grpo_math_1B.yaml:36)
--   policy.generation_batch_size (examples/configs/grpo_math_1B.yaml:39)
--   policy.fsdp_offload_enabled (examples/configs/grpo_math_1B.yaml:43)
--   policy.activation_checkpointing_enabled (examples/configs/grpo_math_1B.yaml:44)
--   policy.dtensor_cfg.custom_parallel_plan (examples/configs/grpo_math_1B.yaml:53)
--   policy.dynamic_batching.sequence_length_round (examples/configs/grpo_math_1B.yaml:64)
--   policy.make_sequence_length_divisible_by (examples/configs/grpo_math_1B.yaml:68)
--   policy.max_grad_norm (examples/configs/grpo_math_1B.yaml:69)
--   policy.optimizer.name (examples/configs/grpo_math_1B.yaml:72)
--   policy.optimizer.kwargs.lr (examples/configs/grpo_math_1B.yaml:74)
--   policy.optimizer.kwargs.weight_decay (examples/configs/grpo_math_1B.yaml:75)
--   policy.optimizer.kwargs.betas (examples/configs/grpo_math_1B.yaml:76)
--   policy.optimizer.kwargs.eps (examples/configs/grpo_math_1B.yaml:77)
--   policy.optimizer.kwargs.foreach (examples/configs/grpo_math_1B.yaml:80)
--   policy.optimizer.kwargs.fused (examples/configs/grpo_math_1B.yaml:81)
--   policy.scheduler (examples/configs/grpo_math_1B.yaml:83)
--   policy.generation.backend (examples/configs/grpo_sliding_puzzle.yaml:23)
--   policy.generation.temperature (examples/configs/grpo_sliding_puzzle.yaml:25)
--   policy.generation.top_p (examples/configs/grpo_sliding_puzzle.yaml:28)
--   policy.generation.top_k (examples/configs/grpo_sliding_puzzle.yaml:29)
--   policy.generation.stop_token_ids (examples/configs/grpo_sliding_puzzle.yaml:30)
--   policy.generation.stop_strings (examples/configs/grpo_sliding_puzzle.yaml:31)
--   data.max_input_seq_length (examples/configs/grpo_math_1B.yaml:121)
--   data.prompt_file (examples/configs/grpo_math_1B.yaml:122)
--   data.system_prompt_file (examples/configs/grpo_math_1B.yaml:123)
--   data.dataset_name (examples/configs/grpo_math_1B.yaml:124)
--   logger.log_dir (examples/configs/grpo_sliding_puzzle.yaml:51)
--   logger.num_val_samples_to_print (examples/configs/grpo_sliding_puzzle.yaml:52)
--   logger.wandb_enabled (examples/configs/grpo_sliding_puzzle.yaml:53)
--   logger.tensorboard_enabled (examples/configs/grpo_sliding_puzzle.yaml:54)
--   logger.monitor_gpus (examples/configs/grpo_sliding_puzzle.yaml:55)
--   logger.wandb.project (examples/configs/grpo_sliding_puzzle.yaml:57)
--   logger.wandb.name (examples/configs/grpo_sliding_puzzle.yaml:58)
--   logger.tensorboard (examples/configs/grpo_sliding_puzzle.yaml:59)
--   logger.gpu_monitoring.collection_interval (examples/configs/grpo_sliding_puzzle.yaml:61)
--   logger.gpu_monitoring.flush_interval (examples/configs/grpo_sliding_puzzle.yaml:62)
--   data.add_system_prompt (examples/configs/grpo_sliding_puzzle.yaml:40)
--   env.sliding_puzzle_game.cfg.game_config.size (examples/configs/grpo_sliding_puzzle.yaml:46)
--   env.sliding_puzzle_game.cfg.game_config.shuffle_moves (examples/configs/grpo_sliding_puzzle.yaml:47)
--   env.sliding_puzzle_game.cfg.max_moves (examples/configs/grpo_sliding_puzzle.yaml:48)
