-- Feasibility row (out of memory): OpenRLHF/OpenRLHF issue 329 (2024-06-20), "qwen2 72B PPO OOM": 4 nodes of 8 x 80 GB
-- GPUs (the report names the memory, not the GPU: A100 80GB assumed), 2 TB host memory a node; the phase is in a
-- screenshot the thread's text does not give.
-- Imported with fusync import openrlhf from configs/openrlhf_issue329_qwen2_72b_ppo.sh (the report's command in
-- v0.11 spelling, see its header) and --device a100_80g --nodes 4 --devices-per-node 8 --host-mem 2048 (the report's
-- machines: OpenRLHF's options give each group's GPUs, not the machine's a node); model shape from its config.json (models/).
-- Three settings of the vLLM of that date, which OpenRLHF then did not pass (openrlhf/trainer/ray/vllm_engine.py,
-- create_vllm_engines at 60a6ea95, the last commit before the report: no gpu_memory_utilization, no max_model_len; the
-- max_model_len came with d244794f, "Fix #336 max_model_len", 2024-06-29): --set plan.rollout.mem_util=0.9 (vLLM's
-- EngineArgs default, where v0.11's importer gives OpenRLHF's own 0.95), --set plan.rollout.mem_util_scope=device
-- (vLLM's V0 worker, vllm/worker/worker.py, determine_num_available_blocks) and --set plan.rollout.max_model_len=32768
-- (Qwen2-72B-Instruct's max_position_embeddings in its Hugging Face config.json, which vLLM takes when it is given no
-- max_model_len).
-- Not patched: the importer maps --adam_offload (ds.adam_offload) onto plan.train.optimizer_offload (docs/frameworks.md).
-- Imported by `fusync import openrlhf` from openrlhf_issue329_qwen2_72b_ppo.sh.
-- Keys the input leaves out take the framework's defaults: OpenRLHF v0.11.0, commit 3c3be62: openrlhf/cli/train_ppo_ray.py.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 8,  -- --devices-per-node
    nodes = 4,  -- --nodes
    host_mem_gb = 2048,  -- --host-mem
  },
  models = {
    actor = { name = "Qwen2-72B-Instruct", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 29568, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 32768 },  -- actor.model_name_or_path (openrlhf_issue329_qwen2_72b_ppo.sh:22) = Qwen2-72B-Instruct; shape from its config.json
    reference = true,  -- algo.kl.init_coef (openrlhf_issue329_qwen2_72b_ppo.sh:33): a reference model when init_coef > 0 (openrlhf/cli/train_ppo_ray.py)
    reward = { name = "Qwen2-72B-Instruct", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 29568, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 32768 },  -- reward.model_name_or_path (openrlhf_issue329_qwen2_72b_ppo.sh:23) = Qwen2-72B-Instruct; shape from its config.json
    critic = { name = "Qwen2-72B-Instruct", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 29568, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false, max_positions = 32768 },  -- critic.model_name_or_path (openrlhf_issue329_qwen2_72b_ppo.sh:24) = Qwen2-72B-Instruct; shape from its config.json
  },
  workload = {
    prompts_per_step = 1024,  -- rollout.batch_size (openrlhf_issue329_qwen2_72b_ppo.sh:28)
    samples_per_prompt = 1,  -- rollout.n_samples_per_prompt, openrlhf's default
    epochs = 1,  -- train.max_epochs (openrlhf_issue329_qwen2_72b_ppo.sh:29)
    algorithm = "ppo",  -- algo.advantage.estimator, openrlhf's default
    minibatches = 8,  -- train.batch_size (openrlhf_issue329_qwen2_72b_ppo.sh:26): train.batch_size counts samples
    prompt_len = f.dist.uniform(128, 512),  -- guess: uniform from a quarter of guess: a quarter of data.max_len (openrlhf_issue329_qwen2_72b_ppo.sh:30) to all of it
    response_len = f.dist.lognormal{ median = 256, sigma = 0.8, cap = 1024 },  -- guess: median a quarter of rollout.max_new_tokens (openrlhf_issue329_qwen2_72b_ppo.sh:31), sigma 0.8; give --response-mean from a run's logs
    max_response = 1024,  -- rollout.max_new_tokens (openrlhf_issue329_qwen2_72b_ppo.sh:31)
    recompute_logprob = true,  -- OpenRLHF's experience maker runs the actor forward for the old log-probs
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 8,  -- vllm.tensor_parallel_size (openrlhf_issue329_qwen2_72b_ppo.sh:21)
      mem_util = 0.9,  -- --set
      cuda_graphs = true,  -- vllm.enforce_eager, openrlhf's default
      max_model_len = 32768,  -- --set
      max_seqs = 256,  -- vLLM's default max_num_seqs (OpenRLHF does not set it)
      mem_util_scope = "device",  -- --set
    },
    train = {
      zero = 3,  -- ds.zero_stage (openrlhf_issue329_qwen2_72b_ppo.sh:32)
      tp = 1,  -- ds.tensor_parallel_size, openrlhf's default
      recompute = "full",  -- actor.gradient_checkpointing_enable (openrlhf_issue329_qwen2_72b_ppo.sh:35)
      optimizer_offload = 1,  -- ds.adam_offload (openrlhf_issue329_qwen2_72b_ppo.sh:34)
      padding = "longest",  -- ds.packing_samples, openrlhf's default
      grad_buffer = "host",  -- ds.adam_offload (openrlhf_issue329_qwen2_72b_ppo.sh:34): DeepSpeed ZeRO-Offload, the gradients reduced to the host for CPU Adam
      micro_batch = 1,  -- train.micro_batch_size (openrlhf_issue329_qwen2_72b_ppo.sh:25)
      logprob_batch = 2,  -- rollout.micro_batch_size (openrlhf_issue329_qwen2_72b_ppo.sh:27)
    },
    offload = {
      reference = false,  -- ref.offload, openrlhf's default
      optimizer = false,  -- training-only pool: nothing to offload for
      grads = false,  -- training-only pool: nothing to offload for
    },
    controller = "driver",  -- OpenRLHF's PPO trainer gathers each step's experiences in the driver
    reward_workers = 1,  -- guess: the rule or remote reward scored one request at a time
    mode = "separate",  -- explicit pools below
    pools = { { name = "vllm", devices = 8, roles = { "rollout" } }, { name = "actor", devices = 8, roles = { "train" } }, { name = "ref", devices = 4, roles = { "ref" } }, { name = "critic", devices = 8, roles = { "critic" } }, { name = "reward", devices = 4, roles = { "reward" } } },  -- vllm.num_engines x vllm.tensor_parallel_size; actor.num_nodes (openrlhf_issue329_qwen2_72b_ppo.sh:18) x actor.num_gpus_per_node (openrlhf_issue329_qwen2_72b_ppo.sh:19); colocate_actor_ref off, colocate_critic_reward off: Ray placement groups, one pool each
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   ref.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 4 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
--   reward.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 4 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
-- Keys read that do not affect performance
--   (none)
