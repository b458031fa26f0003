-- Qwen2.5-7B, GRPO, OpenRLHF style: every model on a GPU group of its own
-- (OpenRLHF's Ray launcher without --colocate_all_models: the vLLM engines,
-- the actor's DeepSpeed group, the reference model and the reward model
-- each on their own GPUs, the samples handed from one group to the next).
-- Two nodes of 8 H100 SXM: 4 GPUs generate (4 vLLM engines of TP1), 8
-- train the actor, 2 hold the reference model and 2 the reward model.
-- The reference and reward passes run on their own pools while the actor's
-- pool trains, and their log-probs and scores go to the trainer over the
-- DistQueue.  `fusync check` shows each pool's memory.
local f = fusync
return {
  name = "openrlhf_style_pools",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 2, supernodes = 1,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.qwen2_5_7b,
    reference = f.models.qwen2_5_7b,
    reward = f.models.qwen2_5_7b,
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 64, samples_per_prompt = 8,
    minibatches = 2, epochs = 1,
    prompt_len = f.dist.uniform(256, 1024),
    response_len = f.dist.lognormal{median = 1000, sigma = 0.8, cap = 4096},
    max_response = 4096,
    iterations = 3, warmup = 1, seed = 11,
  },
  plan = {
    mode = "separate",
    pools = {
      { name = "rollout", devices = 4, roles = { "rollout" } },
      { name = "train",   devices = 8, roles = { "train" } },
      { name = "ref",     devices = 2, roles = { "ref" } },
      { name = "reward",  devices = 2, roles = { "reward" } },
    },
    aux_tp = 1,                            -- each forward-only GPU a replica of its model
    train = { tp = 2, pp = 1, ep = 1, micro_batch = 2, recompute = "selective", zero = 1 },
    rollout = { tp = 1, max_seqs = 256, mem_util = 0.9 },
  },
}
