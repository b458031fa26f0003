-- Feasibility row (out of memory): verl-project/verl issue 3124 (2025-08-19), "CUDA OOM when running the minimal
-- training script for Qwen 32B model": examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh on 8 x H20 at verl
-- commit 9f4161e250ab (identical to the file at b178a3c), out of memory "when the actor attempts to update the
-- parameters", also with data.max_prompt_length=1024 and data.max_response_length=2048, the setting written here.
-- Imported with fusync import verl and those two overrides; the shape of fusync's preset Qwen2.5-32B.
-- vLLM's max_model_len: verl at 9f4161e250ab passes prompt_length + response_length when rollout.max_model_len is
-- unset (verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py at 9f4161e250ab, the sync rollout of its default
-- rollout.mode; the model's max_position_embeddings only from verl pull request 4779), which no key carries:
-- --set plan.rollout.max_model_len=0 (fusync's prompt cap + max_response, the same sum).
-- Imported by `fusync import verl` from qwen2_32B_grpo_8_h20_megatron_vllm.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h20,  -- --device
    devices_per_node = 8,  -- trainer.n_gpus_per_node (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:47)
    nodes = 1,  -- trainer.nnodes (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:48)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-32B", layers = 64, dense_layers = 0, hidden = 5120, heads = 40, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 27648, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 131072 },  -- actor_rollout_ref.model.path (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:23) = Qwen/Qwen2.5-32B; the shape of fusync's preset f.models.qwen2_5_32b
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:31) or algorithm.use_kl_in_reward (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:42): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 512,  -- data.train_batch_size (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:18)
    samples_per_prompt = 5,  -- actor_rollout_ref.rollout.n (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:39)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:15)
    minibatches = 2,  -- actor_rollout_ref.actor.ppo_mini_batch_size (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:25): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of data.max_prompt_length (command line) to all of it
    response_len = f.dist.lognormal{ median = 512, sigma = 0.8, cap = 2048 },  -- guess: median a quarter of data.max_response_length (command line), sigma 0.8; give --response-mean from a run's logs
    max_response = 2048,  -- data.max_response_length (command line)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 8,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:36)
      max_seqs = 256,  -- actor_rollout_ref.rollout.max_num_seqs, verl's default
      mem_util = 0.6,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:38)
      cuda_graphs = true,  -- actor_rollout_ref.rollout.enforce_eager, verl's default
      max_model_len = 0,  -- --set
      max_batched_tokens = 8192,  -- actor_rollout_ref.rollout.max_num_batched_tokens, verl's default with actor_rollout_ref.rollout.enable_chunked_prefill, verl's default: the prefill chunked, the budget vLLM's profile run carries
      sleep = "discard",  -- actor_rollout_ref.rollout.free_cache_engine, verl's default: vLLM sleep level 2 (vLLM 0.8.5 or later), weights and KV cache discarded
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager, verl's default = naive: scored one by one in the driver
    train = {
      tp = 8,  -- actor_rollout_ref.actor.megatron.tensor_model_parallel_size (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:27)
      pp = 1,  -- actor_rollout_ref.actor.megatron.pipeline_model_parallel_size, verl's default
      ep = 1,  -- actor_rollout_ref.actor.megatron.expert_model_parallel_size, verl's default
      cp = 1,  -- actor_rollout_ref.actor.megatron.context_parallel_size, verl's default
      moe_dispatcher = "alltoall",  -- actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type, verl's default
      zero = 1,  -- actor_rollout_ref.actor.megatron.use_distributed_optimizer, verl's default
      recompute = "none",  -- actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity, verl's default
      micro_batch = 1,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:26)
      logprob_batch = 1,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:35)
      entropy = "compiled",  -- Megatron's vocab-parallel entropy: the softmax kept and reused as its gradient, one BF16 copy
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.megatron.optimizer_offload (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:30)
      grads = true,  -- actor_rollout_ref.actor.megatron.grad_offload (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:29)
      reference = true,  -- actor_rollout_ref.ref.megatron.param_offload (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:41)
      params = "before_reshard",  -- actor_rollout_ref.actor.megatron.param_offload (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:28)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.test_freq = 5 (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:50): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 131072 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   hydra.config_path (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:13)
--   data.train_files (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:16)
--   data.val_files (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:17)
--   data.filter_overlong_prompts (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:21)
--   data.truncation (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:22)
--   actor_rollout_ref.actor.optim.lr (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:24)
--   actor_rollout_ref.actor.kl_loss_coef (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:32)
--   actor_rollout_ref.actor.kl_loss_type (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:33)
--   actor_rollout_ref.rollout.name (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:37)
--   trainer.critic_warmup (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:43)
--   trainer.logger (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:44)
--   trainer.project_name (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:45)
--   trainer.experiment_name (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:46)
--   trainer.total_epochs (examples/tuning/32b/qwen2_32B_grpo_8_h20_megatron_vllm.sh:51)
