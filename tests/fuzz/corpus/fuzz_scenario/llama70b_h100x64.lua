-- Llama-3.1-70B, GRPO, on 64 H100 SXM (8 nodes of 8).  Training TP8 PP4 DP2;
-- rollout instances of TP4.  Compare the three modes and a staleness bound:
--   fusync run examples/llama70b_h100x64.lua --mode separate
--   fusync run examples/llama70b_h100x64.lua --mode colocate
--   fusync run examples/llama70b_h100x64.lua --mode full
--   fusync run examples/llama70b_h100x64.lua --mode separate --staleness 1
local f = fusync
return {
  name = "llama70b_h100x64",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 8, supernodes = 1,
    links = {
      intra_node      = { gbps = 450, latency_us = 3 },   -- NVLink
      intra_supernode = { gbps = 50,  latency_us = 8 },   -- InfiniBand 400 Gb/s per GPU
      inter_supernode = { gbps = 50,  latency_us = 12 },
    },
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.llama3_1_70b,
    reference = f.models.llama3_1_70b,
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 256, samples_per_prompt = 8,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(256, 1024),
    response_len = f.dist.lognormal{ median = 1024, sigma = 0.9, cap = 4096 },
    max_response = 4096,
    iterations = 4, warmup = 1, seed = 3,
    batch_per_supernode = true,
  },
  plan = {
    mode = "full",
    rollout_fraction = 0.5,
    aux_devices = 32, aux_tp = 4,   -- colocate: the reference model on 32 GPUs (8 replicas of TP4)
    train = { tp = 8, pp = 4, ep = 1, micro_batch = 1, recompute = "selective", zero = 1 },
    rollout = { tp = 4, max_seqs = 192, mem_util = 0.9 },
  },
  efficiency = { train = 0.40, prefill = 0.55, decode = 0.5, hbm = 0.75, decode_overhead_ms = 6 },
}
