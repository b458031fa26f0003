-- Feasibility row (out of memory): verl-project/verl issue 3360, "qwen3-235B-moe 在4台H100上 能否训练成功", the
-- comment of 2025-09-06: "I tried training on 4 H100 machines using the provided script, but I found that it always
-- raise OOM, my cpu memory > 1.5TB", with the script. The provided script is examples/grpo_trainer/
-- run_qwen3-235b_megatron_96gb.sh as it was at verl commit 7bc70bbf0 (the last before the comment; unchanged since
-- f6f910069, 2025-08-22); the stored text of the comment shows its head (to the data paths) and its tail (from the
-- pipeline-split overrides on), the rest is not in the text and is taken to be the file's. What the text shows
-- changed is given on the command line as the keys the script's variables set: train_prompt_bsz 4
-- (data.train_batch_size), train_prompt_mini_bsz 4 (ppo_mini_batch_size), max_response_length 1204 * 4 = 4816 and
-- with it the script's (max_prompt_length + max_response_length) = 6864 token budgets and max_num_batched_tokens;
-- the model's id for its local path (Qwen3-235B-A22B-Thinking-2507, shape from its config.json in models/); 4 nodes
-- of 8 x H100 80GB and --host-mem 1536 (the comment's "> 1.5TB"). The comment's other changes (an IP, the data
-- files, the logger, test_freq, total_epochs) set no memory. The maintainers' replies suggest a lower
-- gpu_memory_utilization (0.7) and then full recompute; neither the comment nor the replies say where memory ran
-- out. The script's lines 13-14 (SCRIPT_DIR=$(...) and the sourcing of an optional env.sh) are dropped before the
-- import (scripts/reimport-feasibility.sh): the importer refuses command substitution and they set no key; the line
-- numbers below are of the file without them (two fewer than the file's from line 15 on).
-- vLLM's max_model_len: verl at 7bc70bbf0 passes prompt_length + response_length when rollout.max_model_len is
-- unset (verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py at 7bc70bbf0, the sync rollout of its default
-- rollout.mode; the model's max_position_embeddings only from verl pull request 4779), which no key carries:
-- --set plan.rollout.max_model_len=0 (fusync's prompt cap + max_response, the same sum).
-- Imported by `fusync import verl` from run_qwen3-235b_megatron_96gb.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 8,  -- trainer.n_gpus_per_node (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:171)
    nodes = 4,  -- trainer.nnodes (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:172)
    host_mem_gb = 1536,  -- --host-mem
  },
  models = {
    actor = { name = "Qwen3-235B-A22B-Thinking-2507", layers = 94, dense_layers = 0, hidden = 4096, heads = 64, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 12288, expert_ffn = 1536, experts = 128, experts_active = 8, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 262144 },  -- actor_rollout_ref.model.path (command line) = Qwen3-235B-A22B-Thinking-2507; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:95) or algorithm.use_kl_in_reward (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:91): verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 4,  -- data.train_batch_size (command line)
    samples_per_prompt = 8,  -- actor_rollout_ref.rollout.n (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:86)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:90)
    minibatches = 1,  -- actor_rollout_ref.actor.ppo_mini_batch_size (command line): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(512, 2048),  -- guess: uniform from a quarter of data.max_prompt_length (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:83) to all of it
    response_len = f.dist.lognormal{ median = 1204, sigma = 0.8, cap = 4816 },  -- guess: median a quarter of data.max_response_length (command line), sigma 0.8; give --response-mean from a run's logs
    max_response = 4816,  -- data.max_response_length (command line)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 8,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:130)
      max_seqs = 256,  -- actor_rollout_ref.rollout.max_num_seqs, verl's default
      mem_util = 0.85,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:129)
      cuda_graphs = false,  -- actor_rollout_ref.rollout.enforce_eager (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:88)
      max_model_len = 0,  -- --set
      max_batched_tokens = 6864,  -- actor_rollout_ref.rollout.max_num_batched_tokens (command line) with actor_rollout_ref.rollout.enable_chunked_prefill (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:131): the prefill chunked, the budget vLLM's profile run carries
      sleep = "discard",  -- actor_rollout_ref.rollout.free_cache_engine (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:89): vLLM sleep level 2 (vLLM 0.8.5 or later), weights and KV cache discarded
      own_process = true,  -- actor_rollout_ref.hybrid_engine: vLLM's workers in processes of their own (vllm_async_server.py, mp executor)
    },
    mode = "full",  -- actor_rollout_ref.hybrid_engine, verl's default: the hybrid engine shares every GPU among actor, rollout and reference
    controller = "driver",  -- verl's RayPPOTrainer gathers each step's batch in the driver
    reward_workers = 1,  -- reward_model.reward_manager (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:162) = dapo: scored one by one in the driver
    train = {
      tp = 4,  -- actor_rollout_ref.actor.megatron.tensor_model_parallel_size (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:122)
      pp = 8,  -- actor_rollout_ref.actor.megatron.pipeline_model_parallel_size (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:121)
      ep = 4,  -- actor_rollout_ref.actor.megatron.expert_model_parallel_size (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:123)
      etp = 1,  -- actor_rollout_ref.actor.megatron.expert_tensor_parallel_size (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:124)
      cp = 1,  -- actor_rollout_ref.actor.megatron.context_parallel_size (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:125)
      moe_dispatcher = "flex",  -- actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:157)
      zero = 1,  -- actor_rollout_ref.actor.megatron.use_distributed_optimizer, verl's default
      recompute = "none",  -- actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity, verl's default
      pp_embedding_layer = true,  -- actor_rollout_ref.actor.megatron.override_transformer_config.account_for_embedding_in_pipeline_split (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:161)
      pp_loss_layer = true,  -- actor_rollout_ref.actor.megatron.override_transformer_config.account_for_loss_in_pipeline_split (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:160)
      optimizer_offload = 1,  -- actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:116) with actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_offload_fraction (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:113): that share of the optimizer on t
      max_tokens = 6864,  -- actor_rollout_ref.actor.ppo_max_token_len_per_gpu (command line) with actor_rollout_ref.actor.use_dynamic_bsz (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:103)
      micro_batch = 2,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:100)
      logprob_tokens = 6864,  -- actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu (command line) with actor_rollout_ref.rollout.log_prob_use_dynamic_bsz (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:105)
      entropy = "compiled",  -- Megatron's vocab-parallel entropy: the softmax kept and reused as its gradient, one BF16 copy
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.megatron.optimizer_offload (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:119)
      grads = true,  -- actor_rollout_ref.actor.megatron.grad_offload (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:120)
      reference = true,  -- actor_rollout_ref.ref.megatron.param_offload (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:147)
      params = "before_reshard",  -- actor_rollout_ref.actor.megatron.param_offload (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:118)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   actor_rollout_ref.model.use_fused_kernels = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:93): fused kernels (log-probs from the hidden states, no logits tensor): not modelled; fusync books one FP32 copy of the logits (plan.train.logits fp32, memory over-counted); fold the time into efficiency.train
--   actor_rollout_ref.ref.megatron.pipeline_model_parallel_size = 8 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:142): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.tensor_model_parallel_size = 4 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:143): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.expert_model_parallel_size = 4 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:144): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.expert_tensor_parallel_size = 1 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:145): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.ref.megatron.context_parallel_size = 1 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:146): fusync runs the reference with the actor's training layout
--   actor_rollout_ref.actor.megatron.override_transformer_config.apply_rope_fusion = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:148): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.masked_softmax_fusion = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:149): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.bias_activation_fusion = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:150): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.bias_dropout_fusion = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:151): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.gradient_accumulation_fusion = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:152): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.deallocate_pipeline_outputs = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:153): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.persist_layer_norm = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:154): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_grouped_gemm = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:155): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_permute_fusion = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:156): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_router_dtype = fp32 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:158): a Megatron transformer setting: not modelled; fold into efficiency.train
--   actor_rollout_ref.actor.megatron.override_transformer_config.moe_enable_deepep = True (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:159): a Megatron transformer setting: not modelled; fold into efficiency.train
--   trainer.test_freq = 10 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:174): validation passes are not simulated
--   trainer.save_freq = 100 (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:175): checkpoint saves are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 262144 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   hydra.config_path (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:77)
--   data.train_files (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:79)
--   data.val_files (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:80)
--   data.prompt_key (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:81)
--   data.truncation (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:82)
--   actor_rollout_ref.rollout.name (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:87)
--   algorithm.kl_ctrl.kl_coef (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:92)
--   actor_rollout_ref.actor.megatron.use_mbridge (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:94)
--   actor_rollout_ref.actor.kl_loss_coef (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:96)
--   actor_rollout_ref.actor.clip_ratio_low (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:97)
--   actor_rollout_ref.actor.clip_ratio_high (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:98)
--   actor_rollout_ref.actor.clip_ratio_c (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:99)
--   actor_rollout_ref.actor.optim.lr (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:110)
--   actor_rollout_ref.actor.optim.lr_warmup_steps (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:111)
--   actor_rollout_ref.actor.optim.weight_decay (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:112)
--   actor_rollout_ref.actor.optim.override_optimizer_config.overlap_cpu_optimizer_d2h_h2d (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:114)
--   actor_rollout_ref.actor.optim.override_optimizer_config.use_precision_aware_optimizer (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:115)
--   actor_rollout_ref.actor.optim.clip_grad (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:127)
--   actor_rollout_ref.actor.loss_agg_mode (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:128)
--   actor_rollout_ref.rollout.temperature (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:133)
--   actor_rollout_ref.rollout.top_p (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:134)
--   actor_rollout_ref.rollout.top_k (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:135)
--   actor_rollout_ref.nccl_timeout (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:136)
--   actor_rollout_ref.rollout.val_kwargs.temperature (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:137)
--   actor_rollout_ref.rollout.val_kwargs.top_p (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:138)
--   actor_rollout_ref.rollout.val_kwargs.top_k (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:139)
--   actor_rollout_ref.rollout.val_kwargs.do_sample (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:140)
--   actor_rollout_ref.rollout.val_kwargs.n (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:141)
--   reward_model.reward_kwargs.overlong_buffer_cfg.enable (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:163)
--   reward_model.reward_kwargs.overlong_buffer_cfg.len (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:164)
--   reward_model.reward_kwargs.overlong_buffer_cfg.penalty_factor (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:165)
--   reward_model.reward_kwargs.overlong_buffer_cfg.log (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:166)
--   reward_model.reward_kwargs.max_resp_len (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:167)
--   trainer.logger (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:168)
--   trainer.project_name (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:169)
--   trainer.experiment_name (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:170)
--   trainer.val_before_train (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:173)
--   trainer.total_epochs (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:176)
--   trainer.default_local_dir (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:177)
--   trainer.resume_mode (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:178)
--   trainer.log_val_generations (examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh:179)
