-- Feasibility row (out of memory): NVIDIA-NeMo/RL issue 383 (2025-05-14), "Gemma 27B OOM with dynamic batching (in
-- get_logprobs)": the nightly recipe grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long on 16 nodes of 8 GPUs, run at
-- commit 084dec3 (the dynamic-batching branch, not in the published history), out of memory in get_logprobs (the
-- policy's log-prob pass, grpo_train's fprop_logprobs). The recipe as merged with dynamic batching (NeMo RL commit
-- 7d8ce74dc, 2025-05-15) ships it with dynamic_batching.enabled False and the comment "OOMs if enabled" naming this
-- issue; imported from that file with the thread's setting, policy.dynamic_batching.enabled=true, on the command
-- line. The thread names no GPU type: H100 80GB, the nightly suite's (as for the other NeMo RL rows). Model shape
-- from google/gemma-3-27b-it's config.json, its text_config (models/).
-- Imported by `fusync import nemo-rl` from grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml.
-- Keys the input leaves out take the framework's defaults: NeMo RL main, commit 7ea279a (2026-08, past v0.7.0): examples/configs/grpo_math_1B.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- cluster.gpus_per_node (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:112)
    nodes = 16,  -- cluster.num_nodes (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:113)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "google/gemma-3-27b-it", layers = 62, dense_layers = 0, hidden = 5376, heads = 32, kv_heads = 16, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 21504, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 262208, tied_embeddings = true, max_positions = 131072 },  -- policy.model_name (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:28) = google/gemma-3-27b-it; shape from its config.json
    reference = true,  -- loss_fn.reference_policy_kl_penalty (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:13): reference log-probs are computed when the KL penalty is not 0
    reward = "rule",  -- the environment's verifier (env)
  },
  workload = {
    prompts_per_step = 64,  -- grpo.num_prompts_per_step (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:2)
    samples_per_prompt = 32,  -- grpo.num_generations_per_prompt (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:3)
    algorithm = "grpo",  -- NeMo RL's grpo_train
    minibatches = 4,  -- policy.train_global_batch_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:31): train_global_batch_size counts samples
    epochs = 1,  -- NeMo RL trains each step's samples once
    prompt_len = f.dist.uniform(1024, 4096),  -- guess: uniform from a quarter of guess: a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:35) to all of it
    response_len = f.dist.lognormal{ median = 3072, sigma = 0.8, cap = 12288 },  -- guess: median a quarter of policy.max_total_sequence_length (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:35) caps prompt + response (vLLM max_model_len); less the guessed longest prompt, sigma 0.8; give --response-mean from a run's logs
    max_response = 12288,  -- policy.max_total_sequence_length (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:35) caps prompt + response (vLLM max_model_len); less the guessed longest prompt
    recompute_logprob = true,  -- NeMo RL recomputes the old log-probs with the policy (get_logprobs)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    reward_workers = 8,  -- env.math.num_workers (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:97)
    rollout = {
      cuda_graphs = true,  -- policy.generation.vllm_cfg.enforce_eager, nemo-rl's default
      tp = 4,  -- policy.generation.vllm_cfg.tensor_parallel_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:87)
      mem_util = 0.6,  -- policy.generation.vllm_cfg.gpu_memory_utilization (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:88)
      sleep = "offload",  -- policy.generation.colocated.enabled, nemo-rl's default: NeMo RL sleeps vLLM at level 1 (vllm_worker.py, sleep)
      own_process = true,  -- policy.generation.colocated.enabled, nemo-rl's default: vLLM in its own Ray actor (vllm_worker.py, VllmGenerationWorker)
      max_seqs = 256,  -- vLLM's default max_num_seqs (NeMo RL does not set it)
    },
    controller = "driver",  -- NeMo RL's single controller gathers each step's batch in the driver
    mode = "full",  -- policy.generation.colocated.enabled, nemo-rl's default: generation and training share every GPU
    offload = {
      params = "after_reshard",  -- policy.generation.colocated.enabled, nemo-rl's default: NeMo RL's offload_after_refit moves the policy's parameters to the host
      reference = true,  -- NeMo RL's use_reference_model: the reference state dict is held on the host (get_cpu_state_dict) and copied in for each pass
    },
    train = {
      zero = 3,  -- policy.dtensor_cfg.enabled (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:41): DTensor FSDP2 shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- NeMo RL's DTensor workers: zero_grad() after the last optimizer step (PyTorch set_to_none)
      tp = 8,  -- policy.dtensor_cfg.tensor_parallel_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:45)
      cp = 1,  -- policy.dtensor_cfg.context_parallel_size, nemo-rl's default
      recompute = "full",  -- policy.dtensor_cfg.activation_checkpointing (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:44)
      optimizer_offload = 0,  -- policy.dtensor_cfg.cpu_offload (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:42)
      logprob_unshard = true,  -- policy.dtensor_cfg._v2 absent, the input (it has policy.train_micro_batch_size) older than v0.4.0 (commit e861b94): off as before it: the DTensor v1 worker unshards the whole model for get_logprobs
      logits = "eager",  -- NeMo RL's DTensor get_logprobs (FP32 upcast, eager log-softmax)
      micro_batch = 1,  -- policy.train_micro_batch_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:32)
      max_tokens = 16384,  -- policy.dynamic_batching.train_mb_tokens (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:49) with policy.dynamic_batching.enabled (command line)
      padding = "none",  -- policy.dynamic_batching.train_mb_tokens (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:49) with policy.dynamic_batching.enabled (command line)
      logprob_batch = 2,  -- policy.logprob_batch_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:34)
      logprob_tokens = 32768,  -- policy.dynamic_batching.logprob_mb_tokens (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:50)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   policy.dtensor_cfg.sequence_parallel = true (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:43): sequence parallelism: fusync's TP activations are those with it on
--   policy.dynamic_batching.enabled = true: its length-sorted micro-batches pad to their longest; fusync counts them packed (written back as sequence packing)
-- Keys read that do not affect performance
--   grpo.max_num_steps (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:5)
--   grpo.normalize_rewards (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:6)
--   grpo.use_leave_one_out_baseline (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:7)
--   grpo.val_at_start (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:9)
--   grpo.max_val_samples (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:10)
--   grpo.val_batch_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:11)
--   loss_fn.ratio_clip_min (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:14)
--   loss_fn.ratio_clip_max (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:15)
--   loss_fn.ratio_clip_c (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:16)
--   loss_fn.use_on_policy_kl_approximation (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:17)
--   loss_fn.use_importance_sampling_correction (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:18)
--   loss_fn.token_level_loss (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:19)
--   checkpointing.enabled (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:21)
--   checkpointing.checkpoint_dir (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:22)
--   checkpointing.metric_name (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:23)
--   checkpointing.higher_is_better (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:24)
--   checkpointing.keep_top_k (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:25)
--   policy.tokenizer.name (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:30)
--   policy.generation_batch_size (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:33)
--   policy.fsdp_offload_enabled (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:37)
--   policy.activation_checkpointing_enabled (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:38)
--   policy.refit_buffer_size_gb (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:39)
--   policy.dynamic_batching.sequence_length_round (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:51)
--   policy.make_sequence_length_divisible_by (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:52)
--   policy.max_grad_norm (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:53)
--   policy.optimizer.name (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:55)
--   policy.optimizer.kwargs.lr (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:57)
--   policy.optimizer.kwargs.weight_decay (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:58)
--   policy.optimizer.kwargs.betas (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:59)
--   policy.optimizer.kwargs.eps (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:62)
--   policy.optimizer.kwargs.foreach (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:63)
--   policy.optimizer.kwargs.fused (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:64)
--   policy.scheduler (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:65)
--   policy.generation.backend (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:78)
--   policy.generation.temperature (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:80)
--   policy.generation.top_p (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:81)
--   policy.generation.top_k (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:82)
--   policy.generation.stop_token_ids (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:83)
--   policy.generation.stop_strings (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:84)
--   data.max_input_seq_length (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:91)
--   data.prompt_file (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:92)
--   data.system_prompt_file (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:93)
--   data.dataset_name (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:94)
--   logger.log_dir (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:99)
--   logger.num_val_samples_to_print (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:100)
--   logger.wandb_enabled (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:101)
--   logger.tensorboard_enabled (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:102)
--   logger.monitor_gpus (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:103)
--   logger.wandb.project (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:105)
--   logger.wandb.name (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:106)
--   logger.tensorboard (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:107)
--   logger.gpu_monitoring.collection_interval (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:109)
--   logger.gpu_monitoring.flush_interval (examples/configs/recipes/llm/grpo-gemma3-27b-it-16n8g-fsdp2tp8sp-actckpt-long.yaml:110)
