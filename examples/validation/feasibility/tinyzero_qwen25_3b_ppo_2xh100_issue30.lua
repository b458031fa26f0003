-- Feasibility row (out of memory): Jiayi-Pan/TinyZero issue 30 (2025-01-31), "Qwen 3B OOMs on 2 H100s": "I get an
-- OOM error trying to train qwen-2.5-3B on 2 H100s"; where memory ran out is not stated.  A reply (2025-02-01) says
-- the authors ran the 3B on H200s (141GB) and that two 80 GB cards need other parameters.  The configuration is
-- TinyZero's scripts/train_tiny_zero.sh at 4298ed3 (2025-01-29, the last commit before the thread; the script of
-- b19c457 unchanged) with the README's "3B+ model" exports: N_GPUS=2, ROLLOUT_TP_SIZE=2, the thread's model; the
-- script reads them as $N_GPUS, $ROLLOUT_TP_SIZE and $BASE_MODEL, given here as the keys they set
-- (trainer.n_gpus_per_node, actor_rollout_ref.rollout.tensor_model_parallel_size, actor_rollout_ref.model.path and
-- critic.model.path).  TinyZero runs the verl copy in its own tree (verl/, version 0.1), with vLLM 0.6.3 (README:
-- pip3 install vllm==0.6.3; requirements.txt vllm<=0.6.3).  Defaults of that verl (verl/trainer/config/
-- ppo_trainer.yaml at 4298ed3) that differ from the importer's verl b178a3c and the script leaves unset, given as
-- overrides: actor_rollout_ref.model.enable_gradient_checkpointing=False and use_remove_padding=False, the same two
-- for the critic, actor_rollout_ref.rollout.enforce_eager=True, max_num_seqs=1024.  Facts of that verl no key
-- carries: the reference is always built (verl/trainer/main_ppo.py: Role.RefPolicy in role_worker_mapping
-- unconditionally) and its KL applied in the reward when use_kl_loss is off (verl/trainer/ppo/ray_trainer.py,
-- apply_kl_penalty), given as algorithm.use_kl_in_reward=True (the key b178a3c reads for the same thing); vLLM's
-- max_model_len is prompt_length + response_length (verl/workers/rollout/vllm_rollout/vllm_rollout.py, LLM(...,
-- max_model_len=config.prompt_length + config.response_length)): --set plan.rollout.max_model_len=0; the engine is
-- verl's own SPMD LLM inside the worker's process (verl/third_party/vllm/): --set plan.rollout.own_process=false;
-- after generation the weights go to the host and the KV cache is freed (fsdp_vllm.py, __exit__:
-- offload_model_weights(); vllm_rollout.py: free_cache_engine()): --set plan.rollout.sleep=offload.  Not modelled:
-- verl's vLLM 0.6.3 worker sizes the KV cache as gpu_memory_utilization x the memory free after its profile run
-- (verl/third_party/vllm/vllm_v_0_6_3/worker.py, determine_num_available_blocks: "use the remaining memory"), neither
-- of fusync's scopes; the default (instance) gives the engine 0.4 of the device, more than 0.4 of what the critic,
-- reference and actor leave free at its start, so the generating total here is an upper bound.  --device h100 as
-- the thread says (the SXM preset; the form factor is not stated).  Host memory is not stated: the importer's guess
-- stands.  Model shape from Qwen/Qwen2.5-3B's config.json (models/).
-- Imported by `fusync import verl` from train_tiny_zero.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 2,  -- trainer.n_gpus_per_node (command line)
    nodes = 1,  -- trainer.nnodes (scripts/train_tiny_zero.sh:24)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-3B", layers = 36, dense_layers = 0, hidden = 2048, heads = 16, kv_heads = 2, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 11008, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = true, max_positions = 32768 },  -- actor_rollout_ref.model.path (command line) = Qwen/Qwen2.5-3B; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss, verl's default or algorithm.use_kl_in_reward (command line): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    critic = { name = "Qwen/Qwen2.5-3B", layers = 36, dense_layers = 0, hidden = 2048, heads = 16, kv_heads = 2, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 11008, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = true, max_positions = 32768 },  -- critic.model.path (command line) = Qwen/Qwen2.5-3B; shape from its config.json
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 256,  -- data.train_batch_size (scripts/train_tiny_zero.sh:4)
    samples_per_prompt = 1,  -- actor_rollout_ref.rollout.n, verl's default
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "ppo",  -- algorithm.adv_estimator, verl's default
    minibatches = 2,  -- actor_rollout_ref.actor.ppo_mini_batch_size (scripts/train_tiny_zero.sh:10): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(64, 256),  -- guess: uniform from a quarter of data.max_prompt_length (scripts/train_tiny_zero.sh:6) to all of it
    response_len = f.dist.lognormal{ median = 256, sigma = 0.8, cap = 1024 },  -- guess: median a quarter of data.max_response_length (scripts/train_tiny_zero.sh:7), sigma 0.8; give --response-mean from a run's logs
    max_response = 1024,  -- data.max_response_length (scripts/train_tiny_zero.sh:7)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 2,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (command line)
      max_seqs = 1024,  -- actor_rollout_ref.rollout.max_num_seqs (command line)
      mem_util = 0.4,  -- actor_rollout_ref.rollout.gpu_memory_utilization (scripts/train_tiny_zero.sh:14)
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
      recompute = "none",  -- actor_rollout_ref.model.enable_gradient_checkpointing (command line)
      padding = "longest",  -- actor_rollout_ref.model.use_remove_padding (command line)
      micro_batch = 4,  -- actor_rollout_ref.actor.ppo_micro_batch_size (scripts/train_tiny_zero.sh:11) (deprecated, global) / 2 data-parallel ranks, as verl's workers divide it
      logprob_batch = 4,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size (scripts/train_tiny_zero.sh:12) (deprecated, global) / 2 data-parallel ranks
      entropy = "eager",  -- actor_rollout_ref.model.use_remove_padding = false: the padded path calls entropy_from_logits eager
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = false,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload, verl's default
      reference = false,  -- actor_rollout_ref.ref.fsdp_config.param_offload, verl's default
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "none",  -- actor_rollout_ref.actor.fsdp_config.param_offload, verl's default
    },
    zero_redundancy = false,  -- actor_rollout_ref.actor.fsdp_config.param_offload, verl's default
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.save_freq = 100 (scripts/train_tiny_zero.sh:25): checkpoint saves are not simulated
--   trainer.test_freq = 100 (scripts/train_tiny_zero.sh:26): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 32768 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   data.train_files (scripts/train_tiny_zero.sh:2)
--   data.val_files (scripts/train_tiny_zero.sh:3)
--   data.val_batch_size (scripts/train_tiny_zero.sh:5)
--   actor_rollout_ref.actor.optim.lr (scripts/train_tiny_zero.sh:9)
--   critic.optim.lr (scripts/train_tiny_zero.sh:16)
--   critic.ppo_micro_batch_size (scripts/train_tiny_zero.sh:18)
--   algorithm.kl_ctrl.kl_coef (scripts/train_tiny_zero.sh:19)
--   trainer.logger (scripts/train_tiny_zero.sh:20)
--   trainer.val_before_train (scripts/train_tiny_zero.sh:21)
--   trainer.default_hdfs_dir (scripts/train_tiny_zero.sh:22)
--   trainer.project_name (scripts/train_tiny_zero.sh:27)
--   trainer.experiment_name (scripts/train_tiny_zero.sh:28)
--   trainer.total_epochs (scripts/train_tiny_zero.sh:29)
--   critic.model.enable_gradient_checkpointing (command line:0)
--   critic.model.use_remove_padding (command line:0)
