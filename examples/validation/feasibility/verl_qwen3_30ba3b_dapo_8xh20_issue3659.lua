-- Feasibility row (out of memory): verl-project/verl issue 3659 (2025-10-01), "Qwen3-30B-A3B-Base OOM":
-- recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh run unchanged ("I didn't make any changes to the script") on
-- one node of 8 GPUs of 96 GB (H20), vLLM 0.10; the thread says neither where memory ran out nor more. The script as
-- it was at verl commit f50e5c2e8 (the last before the report; the file unchanged since 2e1a1a660, 2025-07-27).
-- Imported with fusync import verl and the model's id for the script's local path
-- (actor_rollout_ref.model.path=Qwen3-30B-A3B-Base on the command line, as for the 72B H20 row); model shape from
-- its config.json (models/).
-- vLLM's max_model_len: verl at f50e5c2e8 passes prompt_length + response_length when rollout.max_model_len is
-- unset (verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py at f50e5c2e8, the sync rollout of its default
-- rollout.mode; the model's max_position_embeddings only from verl pull request 4779), which no key carries:
-- --set plan.rollout.max_model_len=0 (fusync's prompt cap + max_response, the same sum).
-- Imported by `fusync import verl` from test_dapo_qwen3_30b_math_single_node.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h20,  -- --device
    devices_per_node = 8,  -- trainer.n_gpus_per_node (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:118)
    nodes = 1,  -- trainer.nnodes (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:119)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen3-30B-A3B-Base", layers = 48, dense_layers = 0, hidden = 2048, heads = 32, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 6144, expert_ffn = 768, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 32768 },  -- actor_rollout_ref.model.path (command line) = Qwen3-30B-A3B-Base; shape from its config.json
    reference = false,  -- actor_rollout_ref.actor.use_kl_loss (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:69) or algorithm.use_kl_in_reward (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:67): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 64,  -- data.train_batch_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:64)
    samples_per_prompt = 16,  -- actor_rollout_ref.rollout.n (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:65)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:66)
    minibatches = 4,  -- actor_rollout_ref.actor.ppo_mini_batch_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:86): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(512, 2048),  -- guess: uniform from a quarter of data.max_prompt_length (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:62) to all of it
    response_len = f.dist.lognormal{ median = 1024, sigma = 0.8, cap = 4096 },  -- guess: median a quarter of data.max_response_length (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:63), sigma 0.8; give --response-mean from a run's logs
    max_response = 4096,  -- data.max_response_length (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:63)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 4,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:94)
      max_seqs = 256,  -- actor_rollout_ref.rollout.max_num_seqs, verl's default
      mem_util = 0.9,  -- actor_rollout_ref.rollout.gpu_memory_utilization (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:93)
      cuda_graphs = true,  -- actor_rollout_ref.rollout.enforce_eager, verl's default
      max_model_len = 0,  -- --set
      max_batched_tokens = 6144,  -- actor_rollout_ref.rollout.max_num_batched_tokens (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:96) with actor_rollout_ref.rollout.enable_chunked_prefill (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:95): the prefill chunked, the budget vLLM's profile run carries
      sleep = "discard",  -- actor_rollout_ref.rollout.free_cache_engine, verl's default: vLLM sleep level 2 (vLLM 0.8.5 or later), weights and KV cache discarded
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:109) = dapo: scored one by one in the driver
    train = {
      zero = 3,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      tp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      grad_buffer = "step",  -- verl's dp_actor.update_policy: zero_grad() after the last optimizer step (PyTorch set_to_none)
      pp = 1,  -- actor_rollout_ref.actor.strategy, verl's default = fsdp: FSDP shards parameters, gradients and optimizer states (ZeRO-3)
      shard_group = 8,  -- actor_rollout_ref.actor.fsdp_config.fsdp_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:108)
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:82)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:74)
      cp = 4,  -- actor_rollout_ref.actor.ulysses_sequence_parallel_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:92)
      cp_kind = "ulysses",  -- actor_rollout_ref.actor.ulysses_sequence_parallel_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:92)
      max_tokens = 6144,  -- actor_rollout_ref.actor.ppo_max_token_len_per_gpu (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:78) with actor_rollout_ref.actor.use_dynamic_bsz (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:75)
      micro_batch = 1,  -- unused under the token budget (plan.train.max_tokens)
      logprob_tokens = 18432,  -- actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:80) with actor_rollout_ref.rollout.log_prob_use_dynamic_bsz (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:77)
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:88)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:106)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "before_reshard",  -- actor_rollout_ref.actor.fsdp_config.param_offload (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:87)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.test_freq = 10 (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:121): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 32768 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   data.train_files (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:58)
--   data.val_files (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:59)
--   data.prompt_key (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:60)
--   data.truncation (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:61)
--   algorithm.kl_ctrl.kl_coef (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:68)
--   actor_rollout_ref.actor.kl_loss_coef (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:70)
--   actor_rollout_ref.actor.clip_ratio_low (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:71)
--   actor_rollout_ref.actor.clip_ratio_high (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:72)
--   actor_rollout_ref.actor.clip_ratio_c (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:73)
--   actor_rollout_ref.actor.optim.lr (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:83)
--   actor_rollout_ref.actor.optim.lr_warmup_steps (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:84)
--   actor_rollout_ref.actor.optim.weight_decay (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:85)
--   actor_rollout_ref.actor.grad_clip (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:90)
--   actor_rollout_ref.actor.loss_agg_mode (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:91)
--   actor_rollout_ref.rollout.temperature (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:97)
--   actor_rollout_ref.rollout.top_p (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:98)
--   actor_rollout_ref.rollout.top_k (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:99)
--   actor_rollout_ref.rollout.val_kwargs.temperature (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:100)
--   actor_rollout_ref.rollout.val_kwargs.top_p (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:101)
--   actor_rollout_ref.rollout.val_kwargs.top_k (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:102)
--   actor_rollout_ref.rollout.val_kwargs.do_sample (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:103)
--   actor_rollout_ref.rollout.val_kwargs.n (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:104)
--   actor_rollout_ref.rollout.name (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:105)
--   actor_rollout_ref.ref.ulysses_sequence_parallel_size (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:107)
--   reward_model.reward_kwargs.overlong_buffer_cfg.enable (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:110)
--   reward_model.reward_kwargs.overlong_buffer_cfg.len (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:111)
--   reward_model.reward_kwargs.overlong_buffer_cfg.penalty_factor (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:112)
--   reward_model.reward_kwargs.overlong_buffer_cfg.log (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:113)
--   reward_model.reward_kwargs.max_resp_len (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:114)
--   trainer.logger (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:115)
--   trainer.project_name (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:116)
--   trainer.experiment_name (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:117)
--   trainer.val_before_train (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:120)
--   trainer.total_epochs (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:123)
--   trainer.total_training_steps (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:124)
--   trainer.default_local_dir (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:125)
--   trainer.resume_mode (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:126)
--   trainer.log_val_generations (recipe/dapo/test_dapo_qwen3_30b_math_single_node.sh:127)
