-- Feasibility row (out of memory): verl-project/verl issue 632 (2025-03-17), "The GPU memory is not properly
-- released at the end of each step": agentica-project/deepscaler scripts/train/run_deepscaler_1.5b_8k.sh (at
-- deepscaler 95ef74f, the file of its first commit e6080cc unchanged; "Train over a single node, 8 A100-80GB GPUs")
-- run on the verl of that day, out of memory "when the VLLM rollout worker is woken up at the beginning of the second
-- step", waking the engine; the reporter traces it to verl pull request 556 removing torch.cuda.empty_cache() from
-- ActorRolloutRefWorker.update_actor and fixes it by adding it back.  verl at 51a5ff999 (the merge of pull request
-- 556) shows it: verl/workers/fsdp_workers.py, update_actor ends without empty_cache (only compute_ref_log_prob and
-- generate_sequences still call it), and verl/workers/sharding_manager/fsdp_vllm.py, __enter__, calls
-- inference_engine.wake_up() with no empty_cache before it (verl pull request 575, 3fc3e2b74, adds one there: "#556
-- ... will cause CUDA oom at vllm wake_up").  No key carries that: --set plan.train.empty_cache_before_wake=false.
-- Imported with fusync import verl from the script, one patch: its trailing "${@:1}" (the script's own arguments
-- passed on; none given) dropped, as the importer refuses ${@:N}.  Defaults of verl 51a5ff999 that differ from the
-- importer's verl b178a3c and the script leaves unset, given as overrides (verl/trainer/config/ppo_trainer.yaml at
-- 51a5ff999): actor_rollout_ref.rollout.enforce_eager=True, max_num_seqs=1024, max_num_batched_tokens=8192.  Facts of
-- that verl no key carries: --set plan.rollout.sleep=offload (fsdp_vllm.py, __exit__: inference_engine.sleep(level=1))
-- and --set plan.rollout.own_process=false (verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py: LLM(...,
-- distributed_executor_backend="external_launcher"), the engine inside the FSDP worker's process).  --device
-- a100_80g as the script's comment says (the thread names no device).  The vLLM version is not stated (verl at
-- 51a5ff999 takes the spmd path from vLLM 0.6.6.post2.dev252 on, verl/third_party/vllm/__init__.py); the default
-- mem_util_scope (instance) stands, and under "device" the row is out of memory the same way.  Host memory is not
-- stated: the importer's guess stands.  Model shape from its config.json (models/).
-- Imported by `fusync import verl` from run_deepscaler_1.5b_8k.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 8,  -- trainer.n_gpus_per_node (scripts/train/run_deepscaler_1.5b_8k.sh:63)
    nodes = 1,  -- trainer.nnodes (scripts/train/run_deepscaler_1.5b_8k.sh:64)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", layers = 28, dense_layers = 0, hidden = 1536, heads = 12, kv_heads = 2, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 8960, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = false, max_positions = 131072 },  -- actor_rollout_ref.model.path (scripts/train/run_deepscaler_1.5b_8k.sh:35) = deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (scripts/train/run_deepscaler_1.5b_8k.sh:41) or algorithm.use_kl_in_reward, verl's default: verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 128,  -- data.train_batch_size (scripts/train/run_deepscaler_1.5b_8k.sh:31)
    samples_per_prompt = 8,  -- actor_rollout_ref.rollout.n (scripts/train/run_deepscaler_1.5b_8k.sh:54)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (scripts/train/run_deepscaler_1.5b_8k.sh:28)
    minibatches = 2,  -- actor_rollout_ref.actor.ppo_mini_batch_size (scripts/train/run_deepscaler_1.5b_8k.sh:38): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(256, 1024),  -- guess: uniform from a quarter of data.max_prompt_length (scripts/train/run_deepscaler_1.5b_8k.sh:33) to all of it
    response_len = f.dist.lognormal{ median = 2048, sigma = 0.8, cap = 8192 },  -- guess: median a quarter of data.max_response_length (scripts/train/run_deepscaler_1.5b_8k.sh:34), sigma 0.8; give --response-mean from a run's logs
    max_response = 8192,  -- data.max_response_length (scripts/train/run_deepscaler_1.5b_8k.sh:34)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 1,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (scripts/train/run_deepscaler_1.5b_8k.sh:49)
      max_seqs = 1024,  -- actor_rollout_ref.rollout.max_num_seqs (command line)
      mem_util = 0.85,  -- actor_rollout_ref.rollout.gpu_memory_utilization (scripts/train/run_deepscaler_1.5b_8k.sh:53)
      cuda_graphs = false,  -- actor_rollout_ref.rollout.enforce_eager (command line)
      max_model_len = 0,  -- --set
      max_batched_tokens = 8192,  -- actor_rollout_ref.rollout.max_num_batched_tokens (command line) with actor_rollout_ref.rollout.enable_chunked_prefill, verl's default: the prefill chunked, the budget vLLM's profile run carries
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
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (scripts/train/run_deepscaler_1.5b_8k.sh:45)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (scripts/train/run_deepscaler_1.5b_8k.sh:37)
      max_tokens = 32768,  -- actor_rollout_ref.actor.ppo_max_token_len_per_gpu (scripts/train/run_deepscaler_1.5b_8k.sh:40) with actor_rollout_ref.actor.use_dynamic_bsz (scripts/train/run_deepscaler_1.5b_8k.sh:39)
      micro_batch = 1,  -- unused under the token budget (plan.train.max_tokens)
      logprob_tokens = 32768,  -- actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu, verl's default with actor_rollout_ref.rollout.log_prob_use_dynamic_bsz, verl's default
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
      empty_cache_before_wake = false,  -- --set
    },
    offload = {
      optimizer = false,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (scripts/train/run_deepscaler_1.5b_8k.sh:48)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (scripts/train/run_deepscaler_1.5b_8k.sh:56)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "none",  -- actor_rollout_ref.actor.fsdp_config.param_offload (scripts/train/run_deepscaler_1.5b_8k.sh:46)
    },
    zero_redundancy = false,  -- actor_rollout_ref.actor.fsdp_config.param_offload (scripts/train/run_deepscaler_1.5b_8k.sh:46)
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.save_freq = 20 (scripts/train/run_deepscaler_1.5b_8k.sh:65): checkpoint saves are not simulated
--   trainer.test_freq = 20 (scripts/train/run_deepscaler_1.5b_8k.sh:66): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 131072 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   data.train_files (scripts/train/run_deepscaler_1.5b_8k.sh:29)
--   data.val_files (scripts/train/run_deepscaler_1.5b_8k.sh:30)
--   data.val_batch_size (scripts/train/run_deepscaler_1.5b_8k.sh:32)
--   actor_rollout_ref.actor.optim.lr (scripts/train/run_deepscaler_1.5b_8k.sh:36)
--   actor_rollout_ref.actor.kl_loss_coef (scripts/train/run_deepscaler_1.5b_8k.sh:42)
--   actor_rollout_ref.actor.kl_loss_type (scripts/train/run_deepscaler_1.5b_8k.sh:43)
--   actor_rollout_ref.actor.fsdp_config.grad_offload (scripts/train/run_deepscaler_1.5b_8k.sh:47)
--   actor_rollout_ref.rollout.name (scripts/train/run_deepscaler_1.5b_8k.sh:50)
--   actor_rollout_ref.rollout.temperature (scripts/train/run_deepscaler_1.5b_8k.sh:51)
--   actor_rollout_ref.rollout.val_temperature (scripts/train/run_deepscaler_1.5b_8k.sh:52)
--   actor_rollout_ref.rollout.n_val (scripts/train/run_deepscaler_1.5b_8k.sh:55)
--   algorithm.kl_ctrl.kl_coef (scripts/train/run_deepscaler_1.5b_8k.sh:57)
--   trainer.critic_warmup (scripts/train/run_deepscaler_1.5b_8k.sh:58)
--   trainer.logger (scripts/train/run_deepscaler_1.5b_8k.sh:59)
--   trainer.project_name (scripts/train/run_deepscaler_1.5b_8k.sh:60)
--   trainer.experiment_name (scripts/train/run_deepscaler_1.5b_8k.sh:61)
--   trainer.val_before_train (scripts/train/run_deepscaler_1.5b_8k.sh:62)
--   trainer.default_hdfs_dir (scripts/train/run_deepscaler_1.5b_8k.sh:67)
--   trainer.total_epochs (scripts/train/run_deepscaler_1.5b_8k.sh:68)
