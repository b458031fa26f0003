-- DeepSeek-V3 (671B MoE, MLA, 3 dense layers, 1 shared + 256 routed
-- experts, top-8), GRPO, on 32 nodes of 8 H800.  The model comes from its
-- published config.json (configs/), read by fusync.hf_config; `fusync model
-- examples/hf/configs/DeepSeek-V3.config.json` prints what is derived from it
-- (671B parameters, 37.5B active; the MTP module is not counted).
-- The layout follows the public descriptions of 671B RL runs (TP8, PP16,
-- experts spread over the stage); the efficiencies are guesses to calibrate
-- with `fusync calibrate` (docs/calibration.md).
local f = fusync
return {
  name = "deepseek_v3_h800x256",
  cluster = {
    device = f.devices.h800,
    devices_per_node = 8, nodes_per_supernode = 32, supernodes = 1,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.hf_config("configs/DeepSeek-V3.config.json"),
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 256, samples_per_prompt = 16,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(512, 1536),
    response_len = f.dist.lognormal{median = 2048, sigma = 0.85, cap = 8192},
    max_response = 8192,
    iterations = 4, warmup = 1, seed = 11,
  },
  plan = {
    mode = "colocate",
    -- etp 1: each expert whole on one device, the stage's 16 devices two
    -- EP8 groups (Megatron's default etp, the TP 8, would need ep·etp = 64
    -- to divide the stage's 16 devices)
    train = { tp = 8, pp = 16, ep = 8, etp = 1, micro_batch = 1, recompute = "full", zero = 1,
              uneven_layers = true },
    rollout = { tp = 8, ep = 64, max_seqs = 256, mem_util = 0.9 },   -- 4 instances of 64 GPUs
    offload = { optimizer = true, grads = true },
    zero_redundancy = true, bucket_mb = 1024,
  },
  efficiency = {
    train = 0.18, prefill = 0.45, decode = 0.40, hbm = 0.60, link = 0.60,
    decode_overhead_ms = 20, train_overhead_ms = 500, switch_overhead_s = 2,
  },
}
