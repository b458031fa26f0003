-- Validation: the NeMo RL Llama-3.1-8B system of nemorl_llama8b_h100x16.lua
-- moved to GB200 NVL72 (8 GPUs: 2 compute trays of 4), NeMo RL v0.5.
--
-- Published (NeMo RL performance summary, v0.5, "GB200 BF16 Benchmarks"):
--   on-policy, 8 GPUs co-located          91.0 s a step   (predicted)
--   1-step off-policy, 4 + 4 GPUs         71.1 s a step   (predicted)
-- Nothing here is fitted: the efficiencies are those fitted on the H100
-- on-policy row (nemorl_llama8b_h100x16.lua), so these rows test how the
-- model carries a calibration to another GPU.  docs/validation.md.
--
-- Recipes grpo-llama3.1-8b-instruct-2n4g (+ -async-1off): 64 prompts x 32
-- generations = 2048 samples, training global batch 512 (4 optimizer
-- steps), Megatron TP1 PP1 with activation checkpointing, vLLM TP1, a
-- KL term (penalty 0.01).  The async recipe generates on one tray (4 GPUs,
-- memory share 0.8) and trains on the other.
--
-- Lengths: mean sequence 1,066 on-policy and 1,107 one-step-off (the
-- table); prompts and the response shape as on H100, the median set to
-- meet 1,066 (scripts/validate.sh passes the one-step-off median).
local f = fusync
return {
  name = "nemorl_llama8b_gb200x8",
  cluster = {
    -- one Blackwell GPU of GB200 NVL72: the gb200 preset (src/presets.c:
    -- the NVL72 datasheet's 2,500 TFLOP/s dense BF16, FP8 5,000, 186 GB
    -- HBM3e at 8 TB/s, NVLink 900 GB/s one way, ConnectX 400 Gb/s a GPU,
    -- NVLink-C2C to Grace 225 GB/s one way each; CUDA's total 184.31 GiB).
    -- This file held its own table before the preset (173 GiB, the 186 GB
    -- read as decimal, and a guessed 200 GB/s host link); both rows print
    -- the same step times with either.
    device = f.devices.gb200,
    devices_per_node = 4, nodes_per_supernode = 2, supernodes = 1,
    links = {
      intra_node      = { gbps = 900, latency_us = 3 },   -- NVLink 5
      intra_supernode = { gbps = 900, latency_us = 3 },   -- the NVL72 domain spans the trays
    },
    host_mem_gb = 894,           -- a tray: two Grace CPUs with up to 480 GB LPDDR5X each
  },
  models = {
    actor = f.models.llama3_1_8b,
    reference = true,
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 64, samples_per_prompt = 32,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(100, 300),
    response_len = f.dist.lognormal{ median = 646, sigma = 0.8, cap = 3796 },
    max_response = 3796,
    iterations = 6, warmup = 1, seed = 11,
  },
  plan = {
    -- a single controller (NeMo RL's Ray driver collects each step's batch)
    -- and the math environment's 8 verifier workers (env.math.num_workers
    -- in NeMo RL's examples/configs/grpo_math_1B.yaml; docs/model.md, section 4)
    controller = "driver", reward_workers = 8,
    mode = "full",
    rollout_devices = 4,
    -- full recompute: the 2n4g recipe sets megatron_cfg.activation_checkpointing
    -- true (recompute_granularity "full", megatron_policy_worker.py), and its
    -- async-1off recipe inherits it (NVIDIA-NeMo/RL @ v0.5.0)
    train = { tp = 1, pp = 1, micro_batch = 1, recompute = "full", zero = 1,
              grad_dtype = "bf16" },   -- NeMo RL's Megatron configs: grad_reduce_in_fp32 false
    rollout = { tp = 1, max_seqs = 256, mem_util = 0.6 },
  },
  efficiency = {
    train = 0.364, decode_overhead_ms = 6,   -- from the H100 calibration, not fitted here
  },
}
