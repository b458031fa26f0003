-- Feasibility row (out of memory): Unakar/Logic-RL issue 75 (2025-07-09), "OOM question": GRPO on Qwen2.5-7B-Instruct
-- "using Logic-RL/scripts/train_grpo_4gpu_7Binstruct.sh on 4xA800-80g. I facing OOM error. Maybe result in
-- self.actor_rollout_wg.save_checkpoint()".  The phase is the reporter's guess, and the checkpoint save is not
-- modelled.  The configuration is that script at Logic-RL 9d2c457 (2025-03-20, the last commit before the thread; the
-- file of ff443ee unchanged), whose model is Qwen/Qwen2.5-7B-Instruct-1M.  Its save_freq=-1 saves only after the
-- last step (verl/trainer/ppo/ray_trainer.py, fit, at 9d2c457).  Logic-RL runs the verl copy in its own tree (verl/,
-- version 0.1) with vLLM 0.6.3 (requirements.txt: vllm==0.6.3).  That verl sizes the batches otherwise than the
-- importer's verl b178a3c (verl/workers/fsdp_workers.py at 9d2c457, "normalize config": the global sizes are divided
-- by the data-parallel ranks and then multiplied by rollout.n, the micro-batches too).  A GPU holds 16 x 8 / 4 = 32
-- sequences of a step.  ppo_mini_batch_size 256 / 4 x 8 = 512 a GPU, more than its 32, so
-- verl/workers/actor/dp_actor.py (update_policy, batch.split) makes one mini-batch: given as
-- actor_rollout_ref.actor.ppo_mini_batch_size=16 (the importer refuses a mini-batch larger than the step).
-- ppo_micro_batch_size 64 / 4 x 8 = 128 a GPU: one micro-batch of the GPU's 32, given as ppo_micro_batch_size=128
-- (128 / 4 = 32 as the importer divides).  log_prob_micro_batch_size 160 / 4 x 8 = 320: one forward of the 32, given
-- as rollout. and ref.log_prob_micro_batch_size=128.  Defaults of that verl (verl/trainer/config/ppo_trainer.yaml at
-- 9d2c457) that differ from b178a3c and the script leaves unset, given as overrides: rollout.enforce_eager=True and
-- max_num_seqs=1024.  Facts of that verl no key carries: vLLM's max_model_len is prompt_length + response_length
-- (verl/workers/rollout/vllm_rollout/vllm_rollout.py): --set plan.rollout.max_model_len=0; the engine is verl's own
-- SPMD LLM inside the worker's process (verl/third_party/vllm/): --set plan.rollout.own_process=false; after
-- generation the weights go to the host and the KV cache is freed (fsdp_vllm.py, __exit__: offload_model_weights();
-- vllm_rollout.py: free_cache_engine()): --set plan.rollout.sleep=offload.  Not modelled: verl's vLLM 0.6.3 worker
-- sizes the KV cache as gpu_memory_utilization x the memory free after its profile run
-- (verl/third_party/vllm/vllm_v_0_6_3/worker.py, determine_num_available_blocks); the default scope (instance) gives
-- the engine 0.6 of the device, an upper bound.  --device a100_80g for the A800 80GB (the A100's memory and
-- capacity).  Host memory is not stated: the importer's guess stands.  Model shape from Qwen2.5-7B-Instruct-1M's
-- config.json (models/; the shape of Qwen2.5-7B-Instruct, max_position_embeddings aside).
-- Imported by `fusync import verl` from train_grpo_4gpu_7Binstruct.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 4,  -- trainer.n_gpus_per_node (scripts/train_grpo_4gpu_7Binstruct.sh:37)
    nodes = 1,  -- trainer.nnodes (scripts/train_grpo_4gpu_7Binstruct.sh:38)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-7B-Instruct-1M", layers = 28, dense_layers = 0, hidden = 3584, heads = 28, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 18944, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 1010000 },  -- actor_rollout_ref.model.path (scripts/train_grpo_4gpu_7Binstruct.sh:13) = Qwen/Qwen2.5-7B-Instruct-1M; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (scripts/train_grpo_4gpu_7Binstruct.sh:18) or algorithm.use_kl_in_reward, verl's default: verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 16,  -- data.train_batch_size (scripts/train_grpo_4gpu_7Binstruct.sh:9)
    samples_per_prompt = 8,  -- actor_rollout_ref.rollout.n (scripts/train_grpo_4gpu_7Binstruct.sh:29)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (scripts/train_grpo_4gpu_7Binstruct.sh:6)
    minibatches = 1,  -- actor_rollout_ref.actor.ppo_mini_batch_size (command line): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(128, 512),  -- guess: uniform from a quarter of data.max_prompt_length (scripts/train_grpo_4gpu_7Binstruct.sh:11) to all of it
    response_len = f.dist.lognormal{ median = 512, sigma = 0.8, cap = 2048 },  -- guess: median a quarter of data.max_response_length (scripts/train_grpo_4gpu_7Binstruct.sh:12), sigma 0.8; give --response-mean from a run's logs
    max_response = 2048,  -- data.max_response_length (scripts/train_grpo_4gpu_7Binstruct.sh:12)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 2,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (scripts/train_grpo_4gpu_7Binstruct.sh:26)
      max_seqs = 1024,  -- actor_rollout_ref.rollout.max_num_seqs (command line)
      mem_util = 0.6,  -- actor_rollout_ref.rollout.gpu_memory_utilization (scripts/train_grpo_4gpu_7Binstruct.sh:28)
      cuda_graphs = false,  -- actor_rollout_ref.rollout.enforce_eager (command line)
      max_model_len = 0,  -- --set
      max_batched_tokens = 8192,  -- actor_rollout_ref.rollout.max_num_batched_tokens, verl's default with actor_rollout_ref.rollout.enable_chunked_prefill, verl's default: the prefill chunked, the budget vLLM's profile run carries
      sleep = "offload",  -- --set
      own_process = false,  -- --set
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
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (scripts/train_grpo_4gpu_7Binstruct.sh:21)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (scripts/train_grpo_4gpu_7Binstruct.sh:15)
      micro_batch = 32,  -- actor_rollout_ref.actor.ppo_micro_batch_size (command line) (deprecated, global) / 4 data-parallel ranks, as verl's workers divide it
      logprob_batch = 32,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size (command line) (deprecated, global) / 4 data-parallel ranks
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = false,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (scripts/train_grpo_4gpu_7Binstruct.sh:24)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (scripts/train_grpo_4gpu_7Binstruct.sh:31)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "none",  -- actor_rollout_ref.actor.fsdp_config.param_offload (scripts/train_grpo_4gpu_7Binstruct.sh:22)
    },
    zero_redundancy = false,  -- actor_rollout_ref.actor.fsdp_config.param_offload (scripts/train_grpo_4gpu_7Binstruct.sh:22)
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.test_freq = 20 (scripts/train_grpo_4gpu_7Binstruct.sh:40): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 1.01e+06 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   data.train_files (scripts/train_grpo_4gpu_7Binstruct.sh:7)
--   data.val_files (scripts/train_grpo_4gpu_7Binstruct.sh:8)
--   data.val_batch_size (scripts/train_grpo_4gpu_7Binstruct.sh:10)
--   actor_rollout_ref.actor.optim.lr (scripts/train_grpo_4gpu_7Binstruct.sh:14)
--   actor_rollout_ref.actor.kl_loss_coef (scripts/train_grpo_4gpu_7Binstruct.sh:19)
--   actor_rollout_ref.actor.kl_loss_type (scripts/train_grpo_4gpu_7Binstruct.sh:20)
--   actor_rollout_ref.actor.fsdp_config.grad_offload (scripts/train_grpo_4gpu_7Binstruct.sh:23)
--   actor_rollout_ref.rollout.name (scripts/train_grpo_4gpu_7Binstruct.sh:27)
--   algorithm.kl_ctrl.kl_coef (scripts/train_grpo_4gpu_7Binstruct.sh:32)
--   trainer.critic_warmup (scripts/train_grpo_4gpu_7Binstruct.sh:33)
--   trainer.logger (scripts/train_grpo_4gpu_7Binstruct.sh:34)
--   trainer.project_name (scripts/train_grpo_4gpu_7Binstruct.sh:35)
--   trainer.experiment_name (scripts/train_grpo_4gpu_7Binstruct.sh:36)
--   trainer.total_epochs (scripts/train_grpo_4gpu_7Binstruct.sh:41)
