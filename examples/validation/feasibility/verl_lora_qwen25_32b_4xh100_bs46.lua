-- Feasibility row (out of memory): examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh (volcengine/verl commit
-- b178a3cd56f5, 2026-01-29; its batch comment from 997ec8a7c, 2025-06-12, verl pull request 1985) at 46 prompts a GPU, on
-- the 4 x H100 its name and docs/perf/device_tuning.rst ("MIN", GRPO-LoRA, vllm0.8.3) give it. The script's line 10,
-- "nproc_per_gpu=... # 32√ → 64× → 48× → 40√ → 44√ → 46× → 45×", records the contributor's search for the largest batch
-- (device_tuning.rst's "MaxBatch" column): 46 is marked "x", a batch that did not run; the failure is not named (out of
-- memory assumed: the search is for the largest batch on the minimum resources) nor its phase. The configuration that
-- ran, the same script as shipped, is the row verl_lora_qwen25_32b_4xh100.
-- Imported with fusync import verl from the file at that commit and the script's batch variable at 46: its six keys
-- computed from nproc_per_gpu (data.train_batch_size, data.val_batch_size, actor.ppo_mini_batch_size,
-- actor.ppo_micro_batch_size, rollout.log_prob_micro_batch_size, ref.log_prob_micro_batch_size, each
-- 46 x 4 = 184) given on the command line; model shape from its Hugging Face config.json (models/).
-- Patched: the script's line 3, NOW=$(date +%Y%m%d), which names only the wandb run, replaced by a constant
-- (the importer refuses command substitution).
-- Imported by `fusync import verl` from qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 4,  -- trainer.n_gpus_per_node (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:65)
    nodes = 1,  -- trainer.nnodes (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:66)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-32B-Instruct", layers = 64, dense_layers = 0, hidden = 5120, heads = 40, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 27648, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 32768 },  -- actor_rollout_ref.model.path (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:27) = Qwen/Qwen2.5-32B-Instruct; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:37) or algorithm.use_kl_in_reward (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:60): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 184,  -- data.train_batch_size (command line)
    samples_per_prompt = 5,  -- actor_rollout_ref.rollout.n (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:48)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:17)
    minibatches = 1,  -- actor_rollout_ref.actor.ppo_mini_batch_size (command line): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(128, 512),  -- guess: uniform from a quarter of data.max_prompt_length (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:22) to all of it
    response_len = f.dist.lognormal{ median = 256, sigma = 0.8, cap = 1024 },  -- guess: median a quarter of data.max_response_length (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:23), sigma 0.8; give --response-mean from a run's logs
    max_response = 1024,  -- data.max_response_length (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:23)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 4,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:45)
      max_seqs = 512,  -- actor_rollout_ref.rollout.max_num_seqs (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:49)
      max_model_len = 1536,  -- actor_rollout_ref.rollout.max_model_len (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:50)
      mem_util = 0.3,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:47)
      cuda_graphs = true,  -- actor_rollout_ref.rollout.enforce_eager, verl's default
      sleep = "offload",  -- actor_rollout_ref.rollout.free_cache_engine, verl's default with actor_rollout_ref.rollout.layered_summon (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:54): vLLM sleep level 1, weights to host memory
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager, verl's default = naive: scored one by one in the driver
    train = {
      lora_rank = 32,  -- actor_rollout_ref.model.lora_rank (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:30)
      lora_targets = "all-linear",  -- actor_rollout_ref.model.target_modules (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:32): every linear layer of the blocks
      zero = 3,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      tp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- verl's dp_actor.update_policy: zero_grad() after the last optimizer step (PyTorch set_to_none)
      pp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      shard_group = 0,  -- actor_rollout_ref.actor.fsdp_config.fsdp_size (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:40)
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:41)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:34)
      cp = 2,  -- actor_rollout_ref.actor.ulysses_sequence_parallel_size (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:57)
      cp_kind = "ulysses",  -- actor_rollout_ref.actor.ulysses_sequence_parallel_size (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:57)
      micro_batch = 92,  -- actor_rollout_ref.actor.ppo_micro_batch_size (command line) (deprecated, global) / 2 data-parallel ranks, as verl's workers divide it
      logprob_batch = 92,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size (command line) (deprecated, global) / 2 data-parallel ranks
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      entropy_loss = true,  -- actor_rollout_ref.actor.entropy_coeff (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:58): update_policy takes the entropy with its gradient
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:43)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:56)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "before_reshard",  -- actor_rollout_ref.actor.fsdp_config.param_offload (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:42)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.save_freq = 20 (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:67): checkpoint saves are not simulated
--   trainer.test_freq = 5 (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:68): validation passes are not simulated
--   actor_rollout_ref.rollout.enable_chunked_prefill (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:52) = false: fusync prefills a sequence whole in a step of its own; vLLM's profile run then takes max(max_model_len, 2048) tokens
-- Keys read that do not affect performance
--   data.train_files (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:18)
--   data.val_files (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:19)
--   data.val_batch_size (command line:0)
--   data.filter_overlong_prompts (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:24)
--   data.truncation (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:25)
--   data.shuffle (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:26)
--   actor_rollout_ref.model.use_shm (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:28)
--   actor_rollout_ref.model.lora_alpha (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:31)
--   actor_rollout_ref.actor.optim.lr (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:33)
--   actor_rollout_ref.actor.kl_loss_coef (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:38)
--   actor_rollout_ref.actor.kl_loss_type (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:39)
--   actor_rollout_ref.rollout.name (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:46)
--   actor_rollout_ref.rollout.load_format (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:53)
--   algorithm.kl_ctrl.kl_coef (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:59)
--   trainer.critic_warmup (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:61)
--   trainer.logger (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:62)
--   trainer.project_name (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:63)
--   trainer.experiment_name (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:64)
--   trainer.total_epochs (examples/tuning/32b/qwen2-32b_grpo-lora_4_h100_fsdp_vllm.sh:69)
