-- Qwen3-30B-A3B (MoE, 128 experts, top-8), GRPO, on four nodes of 8 H100 SXM.
-- The model comes from its published config.json (configs/), read by
-- fusync.hf_config; `fusync model examples/hf/configs/Qwen3-30B-A3B.config.json`
-- prints what is derived from it (30.5B parameters, 3.35B active).
-- The efficiencies are the defaults' order of magnitude, not measured:
-- calibrate them to your own run with `fusync calibrate` (docs/calibration.md).
local f = fusync
return {
  name = "qwen3_30b_a3b_h100x32",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 4, supernodes = 1,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.hf_config("configs/Qwen3-30B-A3B.config.json"),
    reference = f.hf_config("configs/Qwen3-30B-A3B.config.json"),
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 128, samples_per_prompt = 16,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(256, 1024),
    response_len = f.dist.lognormal{median = 2000, sigma = 0.8, cap = 8192},
    max_response = 8192,
    iterations = 5, warmup = 1, seed = 7,
  },
  plan = {
    mode = "full",              -- actor, reference and rollout share all 32 GPUs
    rollout_fraction = 0.5,     -- separate: 16 generate, 16 train (training then does not fit)
    aux_devices = 8,            -- colocate: the reference model on 8 GPUs of its own
    train = { tp = 2, pp = 1, ep = 8, micro_batch = 2, recompute = "selective", zero = 1 },
    rollout = { tp = 1, ep = 4, max_seqs = 256, mem_util = 0.85 },
  },
  efficiency = {
    train = 0.25, prefill = 0.45, decode = 0.40, hbm = 0.65,
    decode_overhead_ms = 8, train_overhead_ms = 200, switch_overhead_s = 2,
  },
}
