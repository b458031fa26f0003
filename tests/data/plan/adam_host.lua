-- A scenario that fits only with the optimizer on the host (tests/plan_memory.sh):
-- Qwen2.5-32B trained on one node of four H100s.  The BF16 weights and FP32
-- gradients alone take 4 bytes a parameter over tp·pp ranks, and ZeRO-1
-- shards Adam's 12 bytes over dp only: with tp·pp·dp = 4 no layout holds
-- less than 131 GB a device (tp·pp = 4, dp = 1) against 80 GiB of HBM.  With
-- the optimizer on the host (DeepSpeed CPU Adam, OpenRLHF --adam_offload)
-- the device keeps 33 GB of states; the host, 16 bytes a parameter, 524 GB
-- of its 1 TiB.  Full recompute and a sleeping engine are set already, so
-- the search has nothing cheaper to try.
local f = fusync
return {
  name = "plan_adam_host",
  cluster = {
    device = f.devices.h100,
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
