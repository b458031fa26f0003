-- Qwen2.5-7B, GRPO, on two nodes of 8 H100 SXM (16 GPUs).
-- A math-reasoning style workload: 128 prompts x 8 samples, responses up to 8k
-- tokens with a long tail.  Try --mode separate / colocate / full.
local f = fusync
return {
  name = "qwen7b_h100x16",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 2, supernodes = 1,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.qwen2_5_7b,
    reference = f.models.qwen2_5_7b,
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 128, samples_per_prompt = 8,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(256, 1024),
    response_len = f.dist.lognormal{median = 1500, sigma = 0.9, cap = 8192},
    max_response = 8192,
    iterations = 5, warmup = 1, seed = 7,
  },
  plan = {
    mode = "full",
    rollout_devices = 8,                  -- separate: 8 generate, 8 train
    aux_devices = 4,                      -- colocate: the reference model's own GPUs
    train = { tp = 2, pp = 1, ep = 1, micro_batch = 2, recompute = "selective", zero = 1 },
    rollout = { tp = 1, max_seqs = 256, mem_util = 0.9 },
  },
}
