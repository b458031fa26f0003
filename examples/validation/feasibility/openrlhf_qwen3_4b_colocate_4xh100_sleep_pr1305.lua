-- Feasibility row (ran): examples/scripts/train_reinforce_baseline_hybrid_engine.sh at OpenRLHF/OpenRLHF a6c21a07
-- (pull request 1305, closed without merging), the row above with --vllm.enable_sleep added and nothing else
-- changed.  The commit message: "Verified on 8xH100 with the script's native layout (4-GPU colocate,
-- gpu_memory_utilization 0.7, train.max_tokens_per_gpu 16192): the run now completes global step 1 (policy_loss,
-- grad_norm reported), 0 OOM."  One step ran, not a whole run.
-- Imported with fusync import openrlhf from that file and --device h100 --devices-per-node 8, with the same patch
-- as the row above (the SCRIPT_DIR and WORK_DIR lines, which only the save paths use, dropped).  vLLM 0.27.1
-- (setup.py at e67d673b, the commit's parent).  Host memory is not stated: the importer's guess (1024 GiB) stands.
-- Model shape from its config.json (models/).
-- Imported by `fusync import openrlhf` from train_reinforce_baseline_hybrid_engine.sh.
-- Keys the input leaves out take the framework's defaults: OpenRLHF v0.11.0, commit 3c3be62: openrlhf/cli/train_ppo_ray.py.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.h100,  -- --device
    devices_per_node = 4,  -- actor.num_nodes (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:62) x actor.num_gpus_per_node (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:63): the co-located group's 4 GPUs packed on one node of the machine's (--devices-per-node 8)
    nodes = 1,  -- every pool's GPUs (4) over the co-located group
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Qwen/Qwen3-4B-Thinking-2507", layers = 36, dense_layers = 0, hidden = 2560, heads = 32, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 9728, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 151936, tied_embeddings = true, max_positions = 262144 },  -- actor.model_name_or_path (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:19) = Qwen/Qwen3-4B-Thinking-2507; shape from its config.json
    reference = true,  -- algo.kl.init_coef (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:90): a reference model when init_coef > 0 (openrlhf/cli/train_ppo_ray.py)
    reward = "rule",  -- no reward model given
  },
  workload = {
    prompts_per_step = 128,  -- rollout.batch_size (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:42)
    samples_per_prompt = 8,  -- rollout.n_samples_per_prompt (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:43)
    epochs = 1,  -- train.max_epochs (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:55)
    algorithm = "grpo",  -- algo.advantage.estimator (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:86)
    minibatches = 1,  -- train.batch_size (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:44): train.batch_size counts samples
    prompt_len = f.dist.uniform(4640, 18560),  -- guess: uniform from a quarter of guess: a quarter of data.max_len (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:37) to all of it
    response_len = f.dist.lognormal{ median = 13920, sigma = 0.8, cap = 55680 },  -- guess: median a quarter of rollout.max_new_tokens (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:38), sigma 0.8; give --response-mean from a run's logs
    max_response = 55680,  -- rollout.max_new_tokens (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:38)
    recompute_logprob = true,  -- OpenRLHF's experience maker runs the actor forward for the old log-probs
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 2,  -- vllm.tensor_parallel_size (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:65)
      mem_util = 0.7,  -- vllm.gpu_memory_utilization (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:66)
      cuda_graphs = false,  -- vllm.enforce_eager (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:75)
      max_model_len = 74240,  -- data.max_len (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:37): OpenRLHF passes it to vLLM as max_model_len (create_vllm_engines)
      sleep = "offload",  -- vllm.enable_sleep (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:73): vLLM sleep level 1, weights to host memory
      own_process = true,  -- train.colocate_all (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:67): each vLLM engine a Ray actor of its own (vllm_engine.py, LLMRayActor)
      max_seqs = 256,  -- vLLM's default max_num_seqs (OpenRLHF does not set it)
    },
    train = {
      zero = 3,  -- ds.zero_stage (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:77)
      tp = 1,  -- ds.tensor_parallel_size, openrlhf's default
      recompute = "full",  -- actor.gradient_checkpointing_enable (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:78)
      optimizer_offload = 0,  -- ds.adam_offload, openrlhf's default
      padding = "none",  -- train.dynamic_batch_enable (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:48): OpenRLHF turns ds.packing_samples on with it
      cp = 2,  -- ds.ring_attn_size (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:80)
      cp_kind = "ring",  -- ds.ring_attn_size (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:80)
      micro_batch = 1,  -- train.micro_batch_size (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:52)
      max_tokens = 16192,  -- train.max_tokens_per_gpu (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:49) with train.dynamic_batch_enable (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:48)
      logprob_tokens = 32768,  -- rollout.max_tokens_per_gpu (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:50) with train.dynamic_batch_enable (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:48)
    },
    offload = {
      reference = false,  -- ref.offload, openrlhf's default
      optimizer = true,  -- ds.enable_sleep (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:68)
      grads = true,  -- ds.enable_sleep (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:68)
    },
    controller = "driver",  -- OpenRLHF's PPO trainer gathers each step's experiences in the driver
    reward_workers = 1,  -- guess: the rule or remote reward scored one request at a time
    mode = "full",  -- train.colocate_all (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:67): actor, reference, reward, critic and vLLM share the actor's GPUs
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   ckpt.save_steps = 10 (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:27): checkpoint saves are not simulated
--   train.agent_func_path = examples/python/agent_func.py (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:31): agent environments: fusync generates one turn
--   algo.dynamic_filtering_enable = true (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:45): dynamic filtering re-samples prompts: fusync generates one batch a step
--   ds.ring_attn_head_stride = 2 (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:81): ring attention over groups of heads: fusync sends each layer's K/V block whole (plan.train.cp_kind "ring")
--   algo.advantage.estimator = reinforce_baseline: fusync simulates it as GRPO (critic-free, the same passes)
--   train.colocate_all on 4 GPUs, not whole 8-GPU nodes (--devices-per-node): fusync simulates nodes of 4, the group's GPUs only (one node with its whole host memory, its other GPUs idle)
-- Keys read that do not affect performance
--   ckpt.load_enable (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:21)
--   ckpt.output_dir (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:23)
--   ckpt.path (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:24)
--   ckpt.save_hf (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:25)
--   ckpt.max_num (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:26)
--   data.prompt_dataset (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:34)
--   data.input_key (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:35)
--   data.label_key (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:36)
--   data.apply_chat_template (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:39)
--   algo.dynamic_filtering_range (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:46)
--   data.max_samples (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:54)
--   train.num_episodes (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:56)
--   vllm.sync_backend (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:74)
--   actor.adam.lr (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:87)
--   algo.kl.estimator (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:92)
--   algo.advantage.is_correction_enable (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:93)
--   algo.advantage.is_correction_type (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:94)
--   logger.tensorboard_dir (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:98)
--   logger.logging_steps (examples/scripts/train_reinforce_baseline_hybrid_engine.sh:99)
