-- Feasibility row (out of memory): verl-project/verl issue 1649 (2025-05-23), "[Megatron] reproduce script
-- examples/grpo_trainer/run_qwen3moe-30b_megatron.sh OOM": the script run on the 4 nodes of 8 GPUs it names
-- ("4*8*80GB nodes"), and vLLM refused to start: "ValueError: No available memory for the cache blocks. Try
-- increasing `gpu_memory_utilization` when initializing the engine", at the script's gpu_memory_utilization 0.6.
-- The script as it was at verl add17f029 (verl pull request 1467, 2025-05-21; unchanged to the issue's date; the
-- commits up to 2025-05-23 change no memory default: ppo_megatron_trainer.yaml gains override_transformer_config and
-- engine_kwargs only).  Imported with fusync import verl from that tree.  One patch: the script's
-- "actor_rollout_ref.model.path= \" has no value; the model is the script's HF_MODEL_PATH (line 3), given as
-- actor_rollout_ref.model.path=Qwen/Qwen3-30B-A3B on the command line.  Defaults of verl add17f029 that differ
-- from the importer's verl b178a3c and the script leaves unset, given as overrides (verl/trainer/config/
-- ppo_megatron_trainer.yaml at add17f029, lines 131, 137 and 141): enforce_eager=True, max_num_seqs=1024,
-- enable_chunked_prefill=False.  Facts of that verl no key carries:
--   --set plan.rollout.max_model_len=0: vllm_rollout_spmd.py line 122 passes prompt_length + response_length;
--   --set plan.rollout.sleep=offload: vllm_rollout_spmd.py line 160, sleep(level=1); megatron_vllm.py __exit__;
--   --set plan.rollout.own_process=false: vllm_rollout_spmd.py line 141, distributed_executor_backend
--     "external_launcher", the engine inside the Megatron worker's process;
--   --set plan.rollout.mem_util_scope=device: setup.py line 51 allows vllm<=0.8.5, and the thread's traceback
--     calls wake_up(tags=["weights"]), the path megatron_vllm.py (line 525) takes only when vLLM's wake_up has tags
--     (vLLM 0.8.3 on): vLLM 0.8.3-0.8.5, before 0.9.1's per-instance budget (docs/model.md, section 8);
--   --set plan.train.lazy_states=true: the actor's optimizer is kept on the device (actor.megatron.optimizer_offload
--     False at add17f029) and Megatron's distributed optimizer creates Adam's moments at its first step; the engine
--     is built in init_model after the actor's model and optimizer (megatron_workers.py lines 301-330), before any
--     step (docs/model.md, section 8, "The KV cache sized before the optimizer's states exist").  Without it fusync
--     would count 7.1 GiB of moments that do not exist yet at the engine's start and refuse it for that reason.
-- The reference stays on the device for the run: megatron_workers.py (line 349, and compute_ref_log_prob) offloads
-- and reloads it only with ref.megatron.param_offload, False at add17f029 (imported: plan.offload.reference = false).
-- It is on the device when vLLM sizes its cache: it is a worker of its own (role "ref"), and RayPPOTrainer's
-- init_workers initialises it before the actor-rollout worker that builds the engine ("we should create rollout at
-- the end so that vllm can have a better estimation of kv cache memory", verl/trainer/ppo/ray_trainer.py at
-- add17f029), as fusync counts a resident reference (docs/model.md, section 8, "Where the frozen models wait").  The
-- GPU type is not named: H100 assumed (an A100 80GB moves the KV cache by less than 0.1 GiB).  Host memory is not stated:
-- the importer's guess stands.  Model shape from its config.json (models/Qwen3-30B-A3B).
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
      mem_util = 0.6,  -- actor_rollout_ref.rollout.gpu_memory_utilization (examples/grpo_trainer/run_qwen3moe-30b_megatron.sh:39)
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
