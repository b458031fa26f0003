-- Feasibility row (out of memory): OpenRLHF/OpenRLHF issue 336 (2024-06-28), "vLLM related: model's max seq len (8192)
-- is larger than the maximum number of tokens that can be stored in KV cache (6048)": Llama-3-70B PPO; the engine
-- refused to start (vLLM's initialize_cache, "# GPU blocks: 378, # CPU blocks: 1638"), starting the engine.
-- The thread posts no command: the configuration is the repository's 70B PPO script at OpenRLHF 23a23bff with the
-- thread's model (configs/openrlhf_issue336_llama3_70b_ppo.sh, see its header); the engine's TP 2 is fixed by the
-- log's CPU blocks and the device class by the weights (65.7 GiB a device at TP 2 needs an 80 GB device at 0.9).
-- Imported with fusync import openrlhf from that file and --device a100_80g --devices-per-node 8 (A100 80GB assumed,
-- the 80 GB class the log implies; 8 GPUs a node assumed) and two settings of the vLLM of that date, which OpenRLHF
-- at 23a23bff did not pass (openrlhf/trainer/ray/vllm_engine.py, create_vllm_engines: no gpu_memory_utilization,
-- no max_model_len): --set plan.rollout.mem_util=0.9 (vLLM's EngineArgs default, where v0.11's importer gives
-- OpenRLHF's own 0.95) and --set plan.rollout.mem_util_scope=device (vLLM's V0 worker, vllm/worker/worker.py,
-- determine_num_available_blocks: total x gpu_memory_utilization - the device's peak since the worker started),
-- and --set plan.rollout.max_model_len=8192 (the model's max_position_embeddings, which vLLM takes when it is given
-- no max_model_len).
-- Host memory is not stated: the importer's guess (1024 GiB a node) stands.  Model shape from its config.json (models/).
-- Imported by `fusync import openrlhf` from openrlhf_issue336_llama3_70b_ppo.sh.
-- Keys the input leaves out take the framework's defaults: OpenRLHF v0.11.0, commit 3c3be62: openrlhf/cli/train_ppo_ray.py.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 8,  -- --devices-per-node
    nodes = 2,  -- every pool's GPUs (16) over --devices-per-node
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "Meta-Llama-3-70B-Instruct", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 28672, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 128256, tied_embeddings = false, max_positions = 8192 },  -- actor.model_name_or_path (openrlhf_issue336_llama3_70b_ppo.sh:25) = Meta-Llama-3-70B-Instruct; shape from its config.json
    reference = true,  -- algo.kl.init_coef (openrlhf_issue336_llama3_70b_ppo.sh:36): a reference model when init_coef > 0 (openrlhf/cli/train_ppo_ray.py)
    reward = { name = "Meta-Llama-3-70B-Instruct", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 28672, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 128256, tied_embeddings = false, max_positions = 8192 },  -- reward.model_name_or_path (openrlhf_issue336_llama3_70b_ppo.sh:26) = Meta-Llama-3-70B-Instruct; shape from its config.json
    critic = { name = "Meta-Llama-3-70B-Instruct", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 28672, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 128256, tied_embeddings = false, max_positions = 8192 },  -- critic.model_name_or_path (openrlhf_issue336_llama3_70b_ppo.sh:27) = Meta-Llama-3-70B-Instruct; shape from its config.json
  },
  workload = {
    prompts_per_step = 1024,  -- rollout.batch_size (openrlhf_issue336_llama3_70b_ppo.sh:31)
    samples_per_prompt = 1,  -- rollout.n_samples_per_prompt, openrlhf's default
    epochs = 1,  -- train.max_epochs (openrlhf_issue336_llama3_70b_ppo.sh:32)
    algorithm = "ppo",  -- algo.advantage.estimator, openrlhf's default
    minibatches = 8,  -- train.batch_size (openrlhf_issue336_llama3_70b_ppo.sh:29): train.batch_size counts samples
    prompt_len = f.dist.uniform(128, 512),  -- guess: uniform from a quarter of guess: a quarter of data.max_len (openrlhf_issue336_llama3_70b_ppo.sh:33) to all of it
    response_len = f.dist.lognormal{ median = 256, sigma = 0.8, cap = 1024 },  -- guess: median a quarter of rollout.max_new_tokens (openrlhf_issue336_llama3_70b_ppo.sh:34), sigma 0.8; give --response-mean from a run's logs
    max_response = 1024,  -- rollout.max_new_tokens (openrlhf_issue336_llama3_70b_ppo.sh:34)
    recompute_logprob = true,  -- OpenRLHF's experience maker runs the actor forward for the old log-probs
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 2,  -- vllm.tensor_parallel_size (openrlhf_issue336_llama3_70b_ppo.sh:24)
      mem_util = 0.9,  -- --set
      cuda_graphs = true,  -- vllm.enforce_eager, openrlhf's default
      max_model_len = 8192,  -- --set
      max_seqs = 256,  -- vLLM's default max_num_seqs (OpenRLHF does not set it)
      mem_util_scope = "device",  -- --set
    },
    train = {
      zero = 3,  -- ds.zero_stage (openrlhf_issue336_llama3_70b_ppo.sh:35)
      tp = 1,  -- ds.tensor_parallel_size, openrlhf's default
      recompute = "full",  -- actor.gradient_checkpointing_enable (openrlhf_issue336_llama3_70b_ppo.sh:38)
      optimizer_offload = 1,  -- ds.adam_offload (openrlhf_issue336_llama3_70b_ppo.sh:37)
      padding = "longest",  -- ds.packing_samples, openrlhf's default
      grad_buffer = "host",  -- ds.adam_offload (openrlhf_issue336_llama3_70b_ppo.sh:37): DeepSpeed ZeRO-Offload, the gradients reduced to the host for CPU Adam
      micro_batch = 1,  -- train.micro_batch_size (openrlhf_issue336_llama3_70b_ppo.sh:28)
      logprob_batch = 2,  -- rollout.micro_batch_size (openrlhf_issue336_llama3_70b_ppo.sh:30)
    },
    offload = {
      reference = false,  -- ref.offload, openrlhf's default
      optimizer = false,  -- training-only pool: nothing to offload for
      grads = false,  -- training-only pool: nothing to offload for
    },
    controller = "driver",  -- OpenRLHF's PPO trainer gathers each step's experiences in the driver
    reward_workers = 1,  -- guess: the rule or remote reward scored one request at a time
    mode = "separate",  -- explicit pools below
    pools = { { name = "vllm", devices = 4, roles = { "rollout" } }, { name = "actor", devices = 4, roles = { "train" } }, { name = "ref", devices = 2, roles = { "ref" } }, { name = "critic", devices = 4, roles = { "critic" } }, { name = "reward", devices = 2, roles = { "reward" } } },  -- vllm.num_engines x vllm.tensor_parallel_size; actor.num_nodes (openrlhf_issue336_llama3_70b_ppo.sh:21) x actor.num_gpus_per_node (openrlhf_issue336_llama3_70b_ppo.sh:22); colocate_actor_ref off, colocate_critic_reward off: Ray placement groups, one pool each
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   actor.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 4 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
--   ref.num_gpus_per_node = 2, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 2 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
--   critic.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 4 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
--   reward.num_gpus_per_node = 2, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 2 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
-- Keys read that do not affect performance
--   (none)
