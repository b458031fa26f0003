-- A scenario that fits with half of the optimizer on the host
-- (tests/plan_memory.sh): tests/data/plan/adam_host.lua's Qwen2.5-32B on one
-- node of four H20s (96 GiB).  Under ZeRO-1 (Megatron's distributed
-- optimizer) no layout fits as given; with optimizer_offload_fraction 0.5
-- the device keeps half of Adam's 12 bytes a parameter and fits, so the
-- whole optimizer on the host is never needed; a quarter is not enough.
local f = fusync
return {
  name = "plan_adam_share",
  cluster = {
    device = f.devices.h20,
    devices_per_node = 4, nodes_per_supernode = 1, supernodes = 1,
    host_mem_gb = 1024,
  },
  models = { actor = f.models.qwen2_5_32b, reward = "rule" },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 8, samples_per_prompt = 4,
    minibatches = 1, epochs = 1,
    prompt_len = f.dist.uniform(128, 256),
    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 1024},
    max_response = 1024,
    iterations = 3, warmup = 1, seed = 5,
  },
  plan = {
    mode = "full",
    train = { tp = 4, pp = 1, ep = 1, micro_batch = 1, recompute = "full", zero = 1 },
    rollout = { tp = 4, max_seqs = 64, sleep = "discard" },
  },
}
