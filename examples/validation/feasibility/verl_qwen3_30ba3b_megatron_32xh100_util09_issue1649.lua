-- Feasibility row (out of memory): verl-project/verl issue 1649 (2025-05-23), the report's second run: the same
-- script (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh, 4 nodes of 8 80GB GPUs) with gpu_memory_utilization
-- 0.9, which "allowed the engine to load successfully.  However, it later ran into an OOM error at
-- self.actor_rollout_wg.generate_sequences, specifically when calling self.inference_engine.wake_up(tags=["weights"])":
-- waking the engine.  The thread does not say at which step.  Imported as the row of the first run
-- (verl_qwen3_30ba3b_megatron_32xh100_issue1649.lua, whose header gives the source of every argument) with
-- actor_rollout_ref.rollout.gpu_memory_utilization=0.9 on the command line, the thread's change.
-- Every other argument and fact as there.  Model shape from its config.json (models/Qwen3-30B-A3B).
-- Imported by `fusync import verl` from run_qwen3moe-30b_megatron.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- trainer.n_gpus_per_node (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:52)
    nodes = 4,  -- trainer.nnodes (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:53)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen3-30B-A3B", layers = 48, dense_layers = 0, hidden = 2048, heads = 32, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 6144, expert_ffn = 768, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 40960 },  -- actor_rollout_ref.model.path (command line) = Qwen/Qwen3-30B-A3B; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:31) or algorithm.use_kl_in_reward (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:47): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 64,  -- data.train_batch_size (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:17)
    samples_per_prompt = 5,  -- actor_rollout_ref.rollout.n (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:40)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:14)
    minibatches = 1,  -- actor_rollout_ref.actor.ppo_mini_batch_size (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:24): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of data.max_prompt_length (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:18) to all of it
    response_len = f.dist.lognormal{ median = 512, sigma = 0.8, cap = 2048 },  -- guess: median a quarter of data.max_response_length (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:19), sigma 0.8; give --response-mean from a run's logs
    max_response = 2048,  -- data.max_response_length (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:19)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 4,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:37)
      max_seqs = 1024,  -- actor_rollout_ref.rollout.max_num_seqs (command line)
      mem_util = 0.9,  -- actor_rollout_ref.rollout.gpu_memory_utilization (command line)
      cuda_graphs = false,  -- actor_rollout_ref.rollout.enforce_eager (command line)
      max_model_len = 0,  -- --set
      sleep = "offload",  -- --set
      own_process = false,  -- --set
      mem_util_scope = "device",  -- --set
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager, verl's default = naive: scored one by one in the driver
    train = {
      tp = 4,  -- actor_rollout_ref.actor.megatron.tensor_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:27)
      pp = 2,  -- actor_rollout_ref.actor.megatron.pipeline_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:26)
      ep = 4,  -- actor_rollout_ref.actor.megatron.expert_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:28)
      cp = 1,  -- actor_rollout_ref.actor.megatron.context_parallel_size, verl's default
      moe_dispatcher = "alltoall",  -- actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type, verl's default
      zero = 1,  -- actor_rollout_ref.actor.megatron.use_distributed_optimizer, verl's default
      recompute = "none",  -- actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity, verl's default
      micro_batch = 4,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:25)
      logprob_batch = 4,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:36)
      entropy = "compiled",  -- Megatron's vocab-parallel entropy: the softmax kept and reused as its gradient, one BF16 copy
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
      lazy_states = true,  -- --set
    },
    offload = {
      optimizer = false,  -- actor_rollout_ref.actor.megatron.optimizer_offload, verl's default
      grads = false,  -- actor_rollout_ref.actor.megatron.grad_offload, verl's default
      reference = false,  -- actor_rollout_ref.ref.megatron.param_offload, verl's default
      params = "none",  -- actor_rollout_ref.actor.megatron.param_offload, verl's default
    },
    zero_redundancy = false,  -- actor_rollout_ref.actor.megatron.param_offload, verl's default
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   actor_rollout_ref.ref.megatron.pipeline_model_parallel_size = 2 (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:42): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.tensor_model_parallel_size = 4 (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:43): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.expert_model_parallel_size = 4 (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:44): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.use_dist_checkpointing = True (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:45): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.dist_checkpointing_path =  (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:46): fusync runs the reference with the actor's training layout
--   trainer.save_freq = 20 (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:54): checkpoint saves are not simulated
--   trainer.test_freq = 5 (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:55): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 40960 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
--   actor_rollout_ref.rollout.enable_chunked_prefill (command line) = false: fusync prefills a sequence whole in a step of its own; vLLM's profile run then takes max(max_model_len, 2048) tokens
-- Keys read that do not affect performance
--   hydra.config_path (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:12)
--   data.train_files (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:15)
--   data.val_files (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:16)
--   data.filter_overlong_prompts (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:20)
--   data.truncation (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:21)
--   actor_rollout_ref.actor.optim.lr (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:23)
--   actor_rollout_ref.actor.megatron.use_dist_checkpointing (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:29)
--   actor_rollout_ref.actor.megatron.dist_checkpointing_path (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:30)
--   actor_rollout_ref.actor.kl_loss_coef (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:32)
--   actor_rollout_ref.actor.kl_loss_type (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:33)
--   actor_rollout_ref.rollout.name (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:38)
--   trainer.critic_warmup (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:48)
--   trainer.logger (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:49)
--   trainer.project_name (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:50)
--   trainer.experiment_name (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:51)
--   trainer.total_epochs (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:56)
