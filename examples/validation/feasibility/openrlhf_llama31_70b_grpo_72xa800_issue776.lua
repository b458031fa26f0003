-- Feasibility row (out of memory): OpenRLHF/OpenRLHF issue 776 (2025-02-22), "CUDA out of memory grpo llama3.1 70B":
-- 9 nodes of 8 x A800 80GB (memory as A100 80GB); the thread's text names no phase.
-- Imported with fusync import openrlhf from configs/openrlhf_issue776_llama31_70b_grpo.sh (the report's command in
-- v0.11 spelling, see its header) and --device a100_80g --nodes 9 --devices-per-node 8 (the report's machines:
-- OpenRLHF's options give each group's GPUs, not the machine's a node); the shape of fusync's preset Llama-3.1-70B.
-- Two settings of that date that the v0.11 command does not carry: --set plan.rollout.mem_util=0.9 (OpenRLHF's
-- --vllm_gpu_memory_utilization default at 27342230, the last commit before the report, openrlhf/cli/train_ppo_ray.py;
-- 0.95 from a later commit, v0.11's) and --set plan.rollout.mem_util_scope=device (vLLM before 0.9.1, whose budget is
-- the device's, docs/model.md section 8; OpenRLHF at 27342230 asserts vllm >= 0.7.0).  Its max_model_len,
-- prompt_max_len + generate_max_len then (train_ppo_ray.py at 27342230), is the v0.11 command's data.max_len.
-- Not patched: the importer maps --adam_offload (ds.adam_offload) onto plan.train.optimizer_offload (docs/frameworks.md).
-- Imported by `fusync import openrlhf` from openrlhf_issue776_llama31_70b_grpo.sh.
-- Keys the input leaves out take the framework's defaults: OpenRLHF v0.11.0, commit 3c3be62: openrlhf/cli/train_ppo_ray.py.
-- Each field names its source key; "guess" marks what no config holds.
-- The mapping rules and their sources: docs/frameworks.md.
local f = fusync
return {
  cluster = {
    device = f.devices.a100_80g,  -- --device
    devices_per_node = 8,  -- --devices-per-node
    nodes = 9,  -- --nodes
    host_mem_gb = 1024,  -- guess: no config holds host memory; give --host-mem GB
  },
  models = {
    actor = { name = "llama3_1_70b", layers = 80, dense_layers = 0, hidden = 8192, heads = 64, kv_heads = 8, head_dim = 128, mla_latent = 0, mla_rope = 0, mla_q_latent = 0, ffn = 28672, expert_ffn = 0, experts = 0, experts_active = 0, shared_experts = 0, vocab = 128256, tied_embeddings = false, max_positions = 131072 },  -- actor.model_name_or_path (openrlhf_issue776_llama31_70b_grpo.sh:17) = llama3_1_70b; the shape of fusync's preset f.models.llama3_1_70b
    reference = true,  -- algo.kl.init_coef (openrlhf_issue776_llama31_70b_grpo.sh:27): a reference model when init_coef > 0 (openrlhf/cli/train_ppo_ray.py)
    reward = "rule",  -- reward.remote_url (openrlhf_issue776_llama31_70b_grpo.sh:18)
  },
  workload = {
    prompts_per_step = 256,  -- rollout.batch_size (openrlhf_issue776_llama31_70b_grpo.sh:22)
    samples_per_prompt = 4,  -- rollout.n_samples_per_prompt (openrlhf_issue776_llama31_70b_grpo.sh:29)
    epochs = 1,  -- train.max_epochs (openrlhf_issue776_llama31_70b_grpo.sh:23)
    algorithm = "grpo",  -- algo.advantage.estimator (openrlhf_issue776_llama31_70b_grpo.sh:28)
    minibatches = 8,  -- train.batch_size (openrlhf_issue776_llama31_70b_grpo.sh:20): train.batch_size counts samples
    prompt_len = f.dist.uniform(128, 512),  -- guess: uniform from a quarter of guess: a quarter of data.max_len (openrlhf_issue776_llama31_70b_grpo.sh:24) to all of it
    response_len = f.dist.lognormal{ median = 256, sigma = 0.8, cap = 1024 },  -- guess: median a quarter of rollout.max_new_tokens (openrlhf_issue776_llama31_70b_grpo.sh:25), sigma 0.8; give --response-mean from a run's logs
    max_response = 1024,  -- rollout.max_new_tokens (openrlhf_issue776_llama31_70b_grpo.sh:25)
    recompute_logprob = true,  -- OpenRLHF's experience maker runs the actor forward for the old log-probs
    iterations = 4,  -- steps simulated (not the run's length)
    warmup = 1,  -- the first step left out of the measured window
  },
  plan = {
    rollout = {
      tp = 8,  -- vllm.tensor_parallel_size (openrlhf_issue776_llama31_70b_grpo.sh:16)
      mem_util = 0.9,  -- --set
      cuda_graphs = true,  -- vllm.enforce_eager, openrlhf's default
      max_model_len = 2048,  -- data.max_len (openrlhf_issue776_llama31_70b_grpo.sh:24): OpenRLHF passes it to vLLM as max_model_len (create_vllm_engines)
      max_seqs = 256,  -- vLLM's default max_num_seqs (OpenRLHF does not set it)
      mem_util_scope = "device",  -- --set
    },
    train = {
      zero = 3,  -- ds.zero_stage (openrlhf_issue776_llama31_70b_grpo.sh:26)
      tp = 1,  -- ds.tensor_parallel_size, openrlhf's default
      recompute = "full",  -- actor.gradient_checkpointing_enable (openrlhf_issue776_llama31_70b_grpo.sh:32)
      optimizer_offload = 1,  -- ds.adam_offload (openrlhf_issue776_llama31_70b_grpo.sh:31)
      padding = "none",  -- ds.packing_samples (openrlhf_issue776_llama31_70b_grpo.sh:30)
      grad_buffer = "host",  -- ds.adam_offload (openrlhf_issue776_llama31_70b_grpo.sh:31): DeepSpeed ZeRO-Offload, the gradients reduced to the host for CPU Adam
      micro_batch = 1,  -- train.micro_batch_size (openrlhf_issue776_llama31_70b_grpo.sh:19)
      logprob_batch = 2,  -- rollout.micro_batch_size (openrlhf_issue776_llama31_70b_grpo.sh:21)
    },
    offload = {
      reference = false,  -- ref.offload, openrlhf's default
      optimizer = false,  -- training-only pool: nothing to offload for
      grads = false,  -- training-only pool: nothing to offload for
    },
    controller = "driver",  -- OpenRLHF's PPO trainer gathers each step's experiences in the driver
    reward_workers = 1,  -- guess: the rule or remote reward scored one request at a time
    mode = "separate",  -- explicit pools below
    pools = { { name = "vllm", devices = 8, roles = { "rollout" } }, { name = "actor", devices = 32, roles = { "train" } }, { name = "ref", devices = 32, roles = { "ref" } } },  -- vllm.num_engines x vllm.tensor_parallel_size; actor.num_nodes (openrlhf_issue776_llama31_70b_grpo.sh:13) x actor.num_gpus_per_node (openrlhf_issue776_llama31_70b_grpo.sh:14); colocate_actor_ref off, colocate_critic_reward off: Ray placement groups, one pool each
  },
}

-- Warnings: keys that affect performance and are not modelled (how fusync approximates them)
--   (none)
-- Keys read that do not affect performance
--   (none)
