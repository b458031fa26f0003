-- Feasibility row (out of memory): Unakar/Logic-RL issue 8 (2025-02-06), "与文档相同的GPU，但爆显存" (the GPUs of the
-- documentation, but out of GPU memory): 4 x A100 80GB, "与main_grpo.sh参数保持一致" (main_grpo.sh's parameters),
-- Qwen2.5-7B-Instruct-1M, the kk instruct 5ppl data, "一直爆显存" (out of GPU memory every time).  The phase is not
-- stated.  The maintainer replied that the configurations look identical and that the script is fine, and suggested
-- halving the train batch size; the README names the same GPUs for the script ("bash main_grpo.sh  # 4×A100 80G",
-- README.md at 1f25c13).  A later comment ran out of memory on 4 x A800 80GB at train_batch_size 8 with rollout.n 32
-- and not at 4 with 32, its other settings not stated.  The configuration is main_grpo.sh at Logic-RL 1f25c13
-- (2025-02-05, the last commit before the thread; the file of fb31708, unchanged until 882de6a on 2025-03-18).  Its
-- MODEL_PATH=xxx is a placeholder: the model is given as the thread names it,
-- actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct-1M, on the command line.  Logic-RL runs the verl copy in its
-- own tree (verl/, version 0.1) with vLLM 0.6.3 or older (requirements.txt at 1f25c13: vllm<=0.6.3).  That verl sizes
-- the batches otherwise than the importer's verl b178a3c (verl/workers/fsdp_workers.py at 1f25c13, "normalize
-- config": the global sizes are divided by the data-parallel ranks and then multiplied by rollout.n, the
-- micro-batches too).  A GPU holds 8 x 16 / 4 = 32 sequences of a step.  ppo_mini_batch_size 256 / 4 x 16 = 1024 a
-- GPU, more than its 32, so verl/workers/actor/dp_actor.py (update_policy, batch.split) makes one mini-batch: given
-- as actor_rollout_ref.actor.ppo_mini_batch_size=8 (the importer refuses a mini-batch larger than the step).
-- ppo_micro_batch_size 64 / 4 x 16 = 256 a GPU: one micro-batch of the GPU's 32, given as ppo_micro_batch_size=128
-- (128 / 4 = 32 as the importer divides).  log_prob_micro_batch_size 160 / 4 x 16 = 640: one forward of the 32,
-- given as rollout. and ref.log_prob_micro_batch_size=128.  Defaults of that verl (verl/trainer/config/
-- ppo_trainer.yaml at 1f25c13) that differ from b178a3c and the script leaves unset, given as overrides:
-- rollout.enforce_eager=True and max_num_seqs=1024.  The script offloads the actor's parameters, gradients and
-- optimizer (fsdp_config.param_offload, grad_offload, optimizer_offload) and the reference's parameters
-- (actor_rollout_ref.ref.fsdp_config.param_offload=True): the reference waits on the host between its passes.
-- grad_offload is a key of that verl only; the gradients are freed after each step either way (grad_buffer "step":
-- update_policy ends with zero_grad(), verl/workers/actor/dp_actor.py at 1f25c13), so it moves no device memory fusync
-- counts.  Facts of that verl no key carries: vLLM's max_model_len is
-- prompt_length + response_length (verl/workers/rollout/vllm_rollout/vllm_rollout.py): --set
-- plan.rollout.max_model_len=0; the engine is verl's own SPMD LLM inside the worker's process (verl/third_party/
-- vllm/): --set plan.rollout.own_process=false; after generation the weights go to the host and the KV cache is
-- freed (verl/workers/sharding_manager/fsdp_vllm.py, __exit__: offload_model_weights(); vllm_rollout.py:
-- free_cache_engine()): --set plan.rollout.sleep=offload.  Not modelled: verl's vLLM 0.6.3 worker sizes the KV cache
-- as gpu_memory_utilization x the memory free after its profile run (verl/third_party/vllm/vllm_v_0_6_3/worker.py,
-- determine_num_available_blocks); the default scope (instance) gives the engine 0.6 of the device, an upper bound.
-- Host memory is not stated: the importer's guess stands.  Model shape from Qwen2.5-7B-Instruct-1M's config.json
-- (models/).
-- Imported by `fusync import verl` from main_grpo.sh.
-- Keys the input leaves out take the framework's defaults: verl 0.8.0.dev, commit b178a3c (v0.7.0+125): verl/trainer/config/_generated_ppo_trainer.yaml, _generated_ppo_megatron_trainer.yaml.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 4,  -- trainer.n_gpus_per_node (main_grpo.sh:36)
    nodes = 1,  -- trainer.nnodes (main_grpo.sh:37)
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen2.5-7B-Instruct-1M", layers = 28, dense_layers = 0, hidden = 3584, heads = 28, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 18944, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 1010000 },  -- actor_rollout_ref.model.path (command line) = Qwen/Qwen2.5-7B-Instruct-1M; shape from its config.json
    reference = true,  -- actor_rollout_ref.actor.use_kl_loss (main_grpo.sh:17) or algorithm.use_kl_in_reward, verl's default: verl's need_reference_policy (verl/trainer/ppo/utils.py)
    reward = "rule",  -- reward_model.enable, verl's default
  },
  workload = {
    prompts_per_step = 8,  -- data.train_batch_size (main_grpo.sh:8)
    samples_per_prompt = 16,  -- actor_rollout_ref.rollout.n (main_grpo.sh:28)
    epochs = 1,  -- actor_rollout_ref.actor.ppo_epochs, verl's default
    algorithm = "grpo",  -- algorithm.adv_estimator (main_grpo.sh:5)
    minibatches = 1,  -- actor_rollout_ref.actor.ppo_mini_batch_size (command line): ppo_mini_batch_size counts prompts, verl multiplies it by rollout.n
    prompt_len = f.dist.uniform(100, 400),  -- guess: uniform from a quarter of data.max_prompt_length (main_grpo.sh:10) to all of it
    response_len = f.dist.lognormal{ median = 512, sigma = 0.8, cap = 2048 },  -- guess: median a quarter of data.max_response_length (main_grpo.sh:11), sigma 0.8; give --response-mean from a run's logs
    max_response = 2048,  -- data.max_response_length (main_grpo.sh:11)
    recompute_logprob = true,  -- verl computes the old log-probs with an actor forward (compute_log_prob)
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 1,  -- actor_rollout_ref.rollout.tensor_model_parallel_size (main_grpo.sh:25)
      max_seqs = 1024,  -- actor_rollout_ref.rollout.max_num_seqs (command line)
      mem_util = 0.6,  -- actor_rollout_ref.rollout.gpu_memory_utilization (main_grpo.sh:27)
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
      recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing (main_grpo.sh:20)
      padding = "none",  -- actor_rollout_ref.model.use_remove_padding (main_grpo.sh:14)
      micro_batch = 32,  -- actor_rollout_ref.actor.ppo_micro_batch_size (command line) (deprecated, global) / 4 data-parallel ranks, as verl's workers divide it
      logprob_batch = 32,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size (command line) (deprecated, global) / 4 data-parallel ranks
      entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl's default: entropy_from_logits under torch.compile
      logprob_entropy = true,  -- verl's compute_log_prob takes the entropy for a full-model actor (calculate_entropy = not is_lora)
    },
    offload = {
      optimizer = true,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload (main_grpo.sh:23)
      reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload (main_grpo.sh:30)
      grads = true,  -- verl frees the gradients after the optimizer step: none held during rollout
      params = "before_reshard",  -- actor_rollout_ref.actor.fsdp_config.param_offload (main_grpo.sh:21)
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   trainer.save_freq = 10 (main_grpo.sh:40): checkpoint saves are not simulated
--   trainer.test_freq = 10 (main_grpo.sh:41): validation passes are not simulated
--   actor_rollout_ref.rollout.max_model_len, verl's default unset: vLLM's max_model_len is the model's max_position_embeddings, 1.01e+06 tokens (config.json), not data.max_prompt_length + max_response_length; its KV cache must hold one such sequence
-- Keys read that do not affect performance
--   data.train_files (main_grpo.sh:6)
--   data.val_files (main_grpo.sh:7)
--   data.val_batch_size (main_grpo.sh:9)
--   actor_rollout_ref.actor.optim.lr (main_grpo.sh:13)
--   actor_rollout_ref.actor.kl_loss_coef (main_grpo.sh:18)
--   actor_rollout_ref.actor.kl_loss_type (main_grpo.sh:19)
--   actor_rollout_ref.actor.fsdp_config.grad_offload (main_grpo.sh:22)
--   actor_rollout_ref.rollout.name (main_grpo.sh:26)
--   algorithm.kl_ctrl.kl_coef (main_grpo.sh:31)
--   trainer.critic_warmup (main_grpo.sh:32)
--   trainer.logger (main_grpo.sh:33)
--   trainer.project_name (main_grpo.sh:34)
--   trainer.experiment_name (main_grpo.sh:35)
--   trainer.default_local_dir (main_grpo.sh:38)
--   trainer.default_hdfs_dir (main_grpo.sh:39)
--   trainer.total_epochs (main_grpo.sh:42)
