-- Feasibility row (out of memory): OpenRLHF/OpenRLHF issue 911 (2025-03-24), "OutOfMemoryError: Task was killed due
-- to the node running low on memory.": REINFORCE++ of a 7B model (actor and reference on 4 GPUs, two vLLM engines of
-- TP 2) on one node of 8 x A800 80GB (A100 80GB's memory) with 250 GB of host memory; Ray killed a task for host
-- memory (host). The model is not named: Qwen2.5-7B-Instruct's shape is taken.
-- Imported with fusync import openrlhf from configs/openrlhf_issue911_7b_reinforce.sh (the command in v0.11
-- spelling, see its header); model shape from its config.json (models/), with the machine's node: --device a100_80g
-- --devices-per-node 8 --host-mem 250 (the thread's "CPU memory is 250GB", in host_mem_gb's GiB).
-- Imported by `fusync import openrlhf` from openrlhf_issue911_7b_reinforce.sh.
-- Keys the input leaves out take the framework's defaults: OpenRLHF v0.11.0, commit 3c3be62: openrlhf/cli/train_ppo_ray.py.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 8,  -- --devices-per-node
    nodes = 1,  -- every pool's GPUs (8) over --devices-per-node
    host_mem_gb = 250,  -- --host-mem
  },
  models = {
    actor = { name = "Qwen2.5-7B-Instruct", layers = 28, dense_layers = 0, hidden = 3584, heads = 28, kv_heads = 4, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 18944, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 152064, tied_embeddings = false },  -- actor.model_name_or_path (openrlhf_issue911_7b_reinforce.sh:30) = Qwen2.5-7B-Instruct; shape from its config.json
    reference = false,  -- algo.kl.init_coef (openrlhf_issue911_7b_reinforce.sh:42): a reference model when init_coef > 0 (openrlhf/cli/train_ppo_ray.py)
    reward = "rule",  -- reward.remote_url (openrlhf_issue911_7b_reinforce.sh:31)
  },
  workload = {
    prompts_per_step = 64,  -- rollout.batch_size (openrlhf_issue911_7b_reinforce.sh:35)
    samples_per_prompt = 16,  -- rollout.n_samples_per_prompt (openrlhf_issue911_7b_reinforce.sh:38)
    epochs = 1,  -- train.max_epochs (openrlhf_issue911_7b_reinforce.sh:37)
    algorithm = "grpo",  -- algo.advantage.estimator (openrlhf_issue911_7b_reinforce.sh:36)
    minibatches = 4,  -- train.batch_size (openrlhf_issue911_7b_reinforce.sh:33): train.batch_size counts samples
    prompt_len = f.dist.uniform(416, 1664),  -- guess: uniform from a quarter of guess: a quarter of data.max_len (openrlhf_issue911_7b_reinforce.sh:39) to all of it
    response_len = f.dist.lognormal{ median = 1024, sigma = 0.8, cap = 4096 },  -- guess: median a quarter of rollout.max_new_tokens (openrlhf_issue911_7b_reinforce.sh:40), sigma 0.8; give --response-mean from a run's logs
    max_response = 4096,  -- rollout.max_new_tokens (openrlhf_issue911_7b_reinforce.sh:40)
    recompute_logprob = true,  -- OpenRLHF's experience maker runs the actor forward for the old log-probs
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 2,  -- vllm.tensor_parallel_size (openrlhf_issue911_7b_reinforce.sh:28)
      mem_util = 0.95,  -- vllm.gpu_memory_utilization, openrlhf's default
      cuda_graphs = true,  -- vllm.enforce_eager, openrlhf's default
      max_model_len = 6656,  -- data.max_len (openrlhf_issue911_7b_reinforce.sh:39): vLLM's max_model_len (train_ppo_ray.py passes max_len to create_vllm_engines)
      max_seqs = 256,  -- vLLM's default max_num_seqs (OpenRLHF does not set it)
    },
    train = {
      zero = 2,  -- ds.zero_stage (openrlhf_issue911_7b_reinforce.sh:41)
      tp = 1,  -- ds.tensor_parallel_size, openrlhf's default
      recompute = "full",  -- actor.gradient_checkpointing_enable (openrlhf_issue911_7b_reinforce.sh:43)
      optimizer_offload = 0,  -- ds.adam_offload, openrlhf's default
      padding = "longest",  -- ds.packing_samples, openrlhf's default
      micro_batch = 1,  -- train.micro_batch_size (openrlhf_issue911_7b_reinforce.sh:32)
      logprob_batch = 1,  -- rollout.micro_batch_size (openrlhf_issue911_7b_reinforce.sh:34)
    },
    controller = "driver",  -- OpenRLHF's PPO trainer gathers each step's experiences in the driver
    reward_workers = 1,  -- guess: the rule or remote reward scored one request at a time
    mode = "separate",  -- explicit pools below
    pools = { { name = "vllm", devices = 4, roles = { "rollout" } }, { name = "actor", devices = 4, roles = { "train" } } },  -- vllm.num_engines x vllm.tensor_parallel_size; actor.num_nodes (openrlhf_issue911_7b_reinforce.sh:25) x actor.num_gpus_per_node (openrlhf_issue911_7b_reinforce.sh:26); colocate_actor_ref on, colocate_critic_reward off: Ray placement groups, one pool each
    offload = {
      optimizer = false,  -- training-only pool: nothing to offload for
      grads = false,  -- training-only pool: nothing to offload for
    },
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   algo.advantage.estimator = reinforce_baseline: fusync simulates it as GRPO (critic-free, the same passes)
--   actor.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node (--devices-per-node): OpenRLHF packs the group's 4 one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside other groups; fusync lays the pools one after another over the nodes
-- Keys read that do not affect performance
--   (none)
