-- Feasibility row (out of memory): verl-project/verl issue 3364 (2025-09-05), "Qwen3-30B-A3B OOM with GRPO on 4x8H200
-- 141G", the comment of 2025-10-28: the maintainers' recommended examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh
-- ("tested in NNODES=1~4 * 96G H20 GPU") "raised OOM too" on 8 nodes of 8 x H20 96GB; the phase is in a screenshot
-- the thread's text does not give. The script as it was at verl commit 496861603 (the last before the comment;
-- unchanged since 58c847b17, 2025-08-25); the part of the comment's script the stored text shows is that file with
-- NNODES and the paths set from the host. Imported with fusync import verl and trainer.nnodes=8 on the command line;
-- model shape from its config.json (models/Qwen3-30B-A3B). (The first report of the thread, on H200, states only a
-- few settings and is not a row.)
-- vLLM's max_model_len: verl at 496861603 passes prompt_length + response_length when rollout.max_model_len is
-- unset (verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py at 496861603, the sync rollout of its default
-- rollout.mode; the model's max_position_embeddings only from verl pull request 4779), which no key carries:
-- --set plan.rollout.max_model_len=0 (fusync's prompt cap + max_response, the same sum).
-- Imported by `fusync import verl` from run_qwen3moe-30b_megatron_96gb.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h20,  -- --device
    devices_per_node = 8,  -- trainer.n_gpus_per_node (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:188)
    nodes = 8,  -- trainer.nnodes (command line)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen3-30B-A3B", layers = 48, dense_layers = 0, hidden = 2048, heads = 32, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 6144, expert_ffn = 768, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 40960 },  -- actor_rollout_ref.model.path (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:107) = Qwen/Qwen3-30B-A3B; shape from its config.json
    reference = false,  -- actor_rollout_ref.actor.use_kl_loss (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:108) or algorithm.use_kl_in_reward (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:105): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 512,  -- data.train_batch_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:102)
    samples_per_prompt = 16,  -- actor_rollout_ref.rollout.n (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:103)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:104)
    minibatches = 4,  -- actor_rollout_ref.actor.ppo_mini_batch_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:116): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(512, 2048),  -- guess: uniform from a quarter of data.max_prompt_length (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:100) to all of it
    response_len = f.dist.lognormal{ median = 2048, sigma = 0.8, cap = 8192 },  -- guess: median a quarter of data.max_response_length (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:101), sigma 0.8; give --response-mean from a run's logs
    max_response = 8192,  -- data.max_response_length (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:101)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 4,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:155)
      max_seqs = 256,  -- actor_rollout_ref.rollout.max_num_seqs, verl's default
      mem_util = 0.7,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:154)
      cuda_graphs = false,  -- actor_rollout_ref.rollout.enforce_eager (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:167)
      max_model_len = 0,  -- --set
      max_batched_tokens = 10240,  -- actor_rollout_ref.rollout.max_num_batched_tokens (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:157) with actor_rollout_ref.rollout.enable_chunked_prefill (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:156): the prefill chunked, the budget vLLM's profile run carries
      sleep = "discard",  -- actor_rollout_ref.rollout.free_cache_engine (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:168): vLLM sleep level 2 (vLLM 0.8.5 or later), weights and KV cache discarded
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:179) = dapo: scored one by one in the driver
    train = {
      tp = 1,  -- actor_rollout_ref.actor.megatron.tensor_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:132)
      pp = 1,  -- actor_rollout_ref.actor.megatron.pipeline_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:133)
      ep = 8,  -- actor_rollout_ref.actor.megatron.expert_model_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:136)
      etp = 1,  -- actor_rollout_ref.actor.megatron.expert_tensor_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:137)
      cp = 1,  -- actor_rollout_ref.actor.megatron.context_parallel_size (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:135)
      moe_dispatcher = "flex",  -- actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:147)
      zero = 1,  -- actor_rollout_ref.actor.megatron.use_distributed_optimizer, verl's default
      recompute = "none",  -- actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity, verl's default
      optimizer_offload = 1,  -- actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:126) with actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_offload_fraction (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:123): that share of the optimizer 
      max_tokens = 10240,  -- actor_rollout_ref.actor.ppo_max_token_len_per_gpu (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:118) with actor_rollout_ref.actor.use_dynamic_bsz (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:115)
      micro_batch = 2,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:117)
      logprob_tokens = 10240,  -- actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:153) with actor_rollout_ref.rollout.log_prob_use_dynamic_bsz, verl's default
      entropy = "compiled",  -- Megatron's vocab-parallel entropy: the softmax kept and reused as its gradient, one BF16 copy
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.megatron.optimizer_offload (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:131)
      grads = true,  -- actor_rollout_ref.actor.megatron.grad_offload (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:130)
      reference = true,  -- actor_rollout_ref.ref.megatron.param_offload (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:172)
      params = "before_reshard",  -- actor_rollout_ref.actor.megatron.param_offload (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:129)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   actor_rollout_ref.actor.megatron.override_transformer_config.apply_rope_fusion = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:138): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.masked_softmax_fusion = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:139): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.bias_activation_fusion = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:140): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.bias_dropout_fusion = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:141): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.gradient_accumulation_fusion = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:142): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.deallocate_pipeline_outputs = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:143): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.persist_layer_norm = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:144): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_grouped_gemm = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:145): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_permute_fusion = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:146): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_router_dtype = fp32 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:148): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_enable_deepep = True (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:149): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.ref.megatron.use_dist_checkpointing = False (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:171): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.tensor_model_parallel_size = 1 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:173): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.pipeline_model_parallel_size = 1 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:174): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.virtual_pipeline_model_parallel_size = null (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:175): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.context_parallel_size = 1 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:176): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.expert_model_parallel_size = 8 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:177): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.expert_tensor_parallel_size = 1 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:178): fusync runs the reference with the actor's training layout
--   trainer.test_freq = 10 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:191): validation passes are not simulated
--   trainer.save_freq = 100 (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:192): checkpoint saves are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 10240 tokens (actor_rollout_ref.model.override_config.model_config.max_position_embeddings (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:113)), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   hydra.config_path (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:95)
--   data.train_files (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:96)
--   data.val_files (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:97)
--   data.prompt_key (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:98)
--   data.truncation (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:99)
--   algorithm.kl_ctrl.kl_coef (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:106)
--   actor_rollout_ref.actor.kl_loss_coef (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:109)
--   actor_rollout_ref.actor.clip_ratio_low (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:110)
--   actor_rollout_ref.actor.clip_ratio_high (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:111)
--   actor_rollout_ref.actor.clip_ratio_c (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:112)
--   actor_rollout_ref.model.override_config.model_config.max_position_embeddings (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:113)
--   actor_rollout_ref.actor.optim.lr (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:119)
--   actor_rollout_ref.actor.optim.lr_warmup_steps (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:120)
--   actor_rollout_ref.actor.optim.lr_decay_style (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:121)
--   actor_rollout_ref.actor.optim.weight_decay (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:122)
--   actor_rollout_ref.actor.optim.override_optimizer_config.overlap_cpu_optimizer_d2h_h2d (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:124)
--   actor_rollout_ref.actor.optim.override_optimizer_config.use_precision_aware_optimizer (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:125)
--   actor_rollout_ref.actor.megatron.use_mbridge (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:127)
--   actor_rollout_ref.actor.megatron.use_dist_checkpointing (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:128)
--   actor_rollout_ref.actor.loss_agg_mode (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:151)
--   actor_rollout_ref.rollout.temperature (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:158)
--   actor_rollout_ref.rollout.top_p (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:159)
--   actor_rollout_ref.rollout.top_k (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:160)
--   actor_rollout_ref.rollout.val_kwargs.temperature (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:161)
--   actor_rollout_ref.rollout.val_kwargs.top_p (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:162)
--   actor_rollout_ref.rollout.val_kwargs.top_k (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:163)
--   actor_rollout_ref.rollout.val_kwargs.do_sample (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:164)
--   actor_rollout_ref.rollout.val_kwargs.n (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:165)
--   actor_rollout_ref.rollout.name (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:166)
--   reward_model.reward_kwargs.overlong_buffer_cfg.enable (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:180)
--   reward_model.reward_kwargs.overlong_buffer_cfg.len (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:181)
--   reward_model.reward_kwargs.overlong_buffer_cfg.penalty_factor (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:182)
--   reward_model.reward_kwargs.overlong_buffer_cfg.log (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:183)
--   reward_model.reward_kwargs.max_resp_len (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:184)
--   trainer.logger (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:185)
--   trainer.project_name (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:186)
--   trainer.experiment_name (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:187)
--   trainer.val_before_train (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:190)
--   trainer.total_epochs (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:193)
--   trainer.resume_mode (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:194)
--   trainer.log_val_generations (examples/grpo_trainer/run_qwen3moe-30b_megatron_96gb.sh:195)
