-- Feasibility row: examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh (volcengine/verl commit b178a3cd56f5, 2026-01-29), "tested on" 2 x H800 (the script's name; docs/perf/device_tuning.rst).
-- Imported with fusync import verl --prompt-mean 150 --response-mean 300 (GSM8K lengths, a guess);
-- model shape from its Hugging Face config.json (models/).
-- Imported by `fusync import verl` from qwen2-7b_grpo_2_h800_fsdp_vllm.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h800,  -- --device
    devices_per_node = 2,  -- trainer.n_gpus_per_node (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:44)
    nodes = 1,  -- trainer.nnodes (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:45)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2-7B-Instruct", layers = 28, dense_layers = 0, hidden = 3584, heads = 28, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 18944, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 32768 },  -- actor_rollout_ref.model.path (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:20) = Qwen/Qwen2-7B-Instruct; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:25) or algorithm.use_kl_in_reward (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:39): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 1024,  -- data.train_batch_size (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:15)
    samples_per_prompt = 5,  -- actor_rollout_ref.rollout.n (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:36)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:12)
    minibatches = 4,  -- actor_rollout_ref.actor.ppo_mini_batch_size (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:23): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.lognormal{ mean = 150, sigma = 0.5, cap = 1024 },  -- --prompt-mean (sigma 0.5 a guess)
    response_len = f.dist.lognormal{ mean = 300, sigma = 0.8, cap = 1024 },  -- --response-mean (sigma 0.8 a guess), capped at data.max_response_length (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:17)
    max_response = 1024,  -- data.max_response_length (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:17)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 2,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:33)
      max_seqs = 256,  -- actor_rollout_ref.rollout.max_num_seqs, verl's default
      mem_util = 0.6,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:35)
      cuda_graphs = true,  -- actor_rollout_ref.rollout.enforce_eager, verl's default
      max_model_len = 32768,  -- actor_rollout_ref.rollout.max_model_len, verl's default unset: the model's max_position_embeddings (its config.json), which verl's vLLM server passes (vllm_async_server.py)
      max_batched_tokens = 8192,  -- actor_rollout_ref.rollout.max_num_batched_tokens, verl's default with actor_rollout_ref.rollout.enable_chunked_prefill, verl's default: the prefill chunked, the budget vLLM's profile run carries
      sleep = "discard",  -- actor_rollout_ref.rollout.free_cache_engine, verl's default: vLLM sleep level 2 (vLLM 0.8.5 or later), weights and KV cache discarded
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager, verl's default = naive: scored one by one in the driver
    train = {
      zero = 3,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      tp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- verl's dp_actor.update_policy: zero_grad() after the last optimizer step (PyTorch set_to_none)
      pp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      shard_group = 0,  -- actor_rollout_ref.actor.fsdp_config.fsdp_size, verl's default
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:29)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:22)
      micro_batch = 16,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:24)
      logprob_batch = 16,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:32)
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:31)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:38)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "before_reshard",  -- actor_rollout_ref.actor.fsdp_config.param_offload (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:30)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.test_freq = 5 (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:47): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 32768 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   data.train_files (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:13)
--   data.val_files (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:14)
--   data.filter_overlong_prompts (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:18)
--   data.truncation (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:19)
--   actor_rollout_ref.actor.optim.lr (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:21)
--   actor_rollout_ref.actor.kl_loss_coef (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:26)
--   actor_rollout_ref.actor.kl_loss_type (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:27)
--   actor_rollout_ref.rollout.name (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:34)
--   trainer.critic_warmup (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:40)
--   trainer.logger (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:41)
--   trainer.project_name (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:42)
--   trainer.experiment_name (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:43)
--   trainer.total_epochs (examples/tuning/7b/qwen2-7b_grpo_2_h800_fsdp_vllm.sh:48)
