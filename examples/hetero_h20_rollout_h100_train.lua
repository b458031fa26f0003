-- Qwen2.5-7B, GRPO, rollout on 16 H20 and training on 16 H100 (separate mode).
-- The H20 has a fifth of the H100's FLOP/s but more HBM (96 GB) and more HBM
-- bandwidth (4.0 TB/s): decode is bandwidth-bound, so it generates well;
-- training stays on the H100.  Each type fills whole nodes of its own: the
-- rollout pool is nodes 0-1 (devices 0..15), training nodes 2-3.  Weight sync
-- crosses the scale-out fabric at the slower of the two NICs (docs/model.md,
-- section 2, Heterogeneous pools).  Try plan.rollout_device = "h100" to
-- compare with an all-H100 cluster of the same size.
local f = fusync
return {
  name = "hetero_h20_rollout_h100_train",
  cluster = {
    device = f.devices.h100,              -- training (and any pool without a device of its own)
    devices_per_node = 8, nodes = 4,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.qwen2_5_7b,
    reference = f.models.qwen2_5_7b,
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 256, samples_per_prompt = 8,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(256, 1024),
    response_len = f.dist.lognormal{median = 1500, sigma = 0.9, cap = 8192},
    max_response = 8192,
    iterations = 5, warmup = 1, seed = 7,
  },
  plan = {
    mode = "separate",
    rollout_devices = 16,                 -- two whole nodes of H20
    rollout_device = "h20",
    train = { tp = 2, pp = 1, ep = 1, micro_batch = 2, recompute = "selective", zero = 1 },
    rollout = { tp = 1, max_seqs = 256, mem_util = 0.9 },
  },
}
