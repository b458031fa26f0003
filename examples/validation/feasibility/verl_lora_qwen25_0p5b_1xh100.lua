-- Feasibility row: examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh (volcengine/verl commit b178a3cd56f5, 2026-01-29), "tested on" 1 x H100
-- (docs/perf/device_tuning.rst lists it as the MIN configuration, GRPO-LoRA, vllm0.8.3).
-- Imported with fusync import verl; model shape from its Hugging Face config.json (models/).
-- Patched: the script's line 3, NOW=$(date +%Y%m%d), which names only the wandb run, replaced by a constant
-- (the importer refuses command substitution).
-- Imported by `fusync import verl` from qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 1,  -- trainer.n_gpus_per_node (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:65)
    nodes = 1,  -- trainer.nnodes (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:66)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-0.5B-Instruct", layers = 24, dense_layers = 0, hidden = 896, heads = 14, kv_heads = 2, head_dim = 64, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 4864, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = true, max_positions = 32768 },  -- actor_rollout_ref.model.path (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:28) = Qwen/Qwen2.5-0.5B-Instruct; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:37) or algorithm.use_kl_in_reward (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:60): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 1,  -- data.train_batch_size (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:21)
    samples_per_prompt = 1,  -- actor_rollout_ref.rollout.n (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:48)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:17)
    minibatches = 1,  -- actor_rollout_ref.actor.ppo_mini_batch_size (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:35): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(128, 512),  -- guess: uniform from a quarter of data.max_prompt_length (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:23) to all of it
    response_len = f.dist.lognormal{ median = 256, sigma = 0.8, cap = 1024 },  -- guess: median a quarter of data.max_response_length (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:24), sigma 0.8; give --response-mean from a run's logs
    max_response = 1024,  -- data.max_response_length (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:24)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 1,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:45)
      max_seqs = 512,  -- actor_rollout_ref.rollout.max_num_seqs (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:49)
      max_model_len = 1536,  -- actor_rollout_ref.rollout.max_model_len (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:50)
      mem_util = 0.1,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:47)
      cuda_graphs = true,  -- actor_rollout_ref.rollout.enforce_eager, verl's default
      sleep = "offload",  -- actor_rollout_ref.rollout.free_cache_engine, verl's default with actor_rollout_ref.rollout.layered_summon (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:54): vLLM sleep level 1, weights to host memory
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager, verl's default = naive: scored one by one in the driver
    train = {
      lora_rank = 32,  -- actor_rollout_ref.model.lora_rank (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:30)
      lora_targets = "all-linear",  -- actor_rollout_ref.model.target_modules (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:32): every linear layer of the blocks
      zero = 3,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      tp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- verl's dp_actor.update_policy: zero_grad() after the last optimizer step (PyTorch set_to_none)
      pp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      shard_group = 0,  -- actor_rollout_ref.actor.fsdp_config.fsdp_size (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:40)
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:41)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:34)
      micro_batch = 1,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:36)
      logprob_batch = 1,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:44) (deprecated, global) / 1 data-parallel ranks
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      entropy_loss = true,  -- actor_rollout_ref.actor.entropy_coeff (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:58): update_policy takes the entropy with its gradient
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:43)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:56)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "before_reshard",  -- actor_rollout_ref.actor.fsdp_config.param_offload (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:42)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.save_freq = 20 (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:67): checkpoint saves are not simulated
--   trainer.test_freq = 5 (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:68): validation passes are not simulated
--   actor_rollout_ref.rollout.enable_chunked_prefill (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:52) = false: fusync prefills a sequence whole in a step of its own; vLLM's profile run then takes max(max_model_len, 2048) tokens
-- Keys read that do not affect performance
--   trainer.val_before_train (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:18)
--   data.train_files (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:19)
--   data.val_files (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:20)
--   data.val_batch_size (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:22)
--   data.filter_overlong_prompts (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:25)
--   data.truncation (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:26)
--   data.shuffle (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:27)
--   actor_rollout_ref.model.lora_alpha (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:31)
--   actor_rollout_ref.actor.optim.lr (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:33)
--   actor_rollout_ref.actor.kl_loss_coef (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:38)
--   actor_rollout_ref.actor.kl_loss_type (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:39)
--   actor_rollout_ref.rollout.name (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:46)
--   actor_rollout_ref.rollout.load_format (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:53)
--   algorithm.kl_ctrl.kl_coef (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:59)
--   trainer.critic_warmup (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:61)
--   trainer.logger (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:62)
--   trainer.project_name (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:63)
--   trainer.experiment_name (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:64)
--   trainer.total_epochs (examples/tuning/0.5b/qwen2-0.5b_grpo-lora_1_h100_fsdp_vllm.sh:69)
