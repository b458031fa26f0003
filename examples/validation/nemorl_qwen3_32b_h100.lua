-- Validation: NeMo RL v0.5 performance recipes, GRPO on Qwen3-32B (dense),
-- H100 (DGX), OpenMathInstruct-2 prompts, sequences of at most 4096 tokens.
--
-- Published (NeMo RL performance summary, v0.5, "H100 BF16 Benchmarks"):
--   on-policy, 32 GPUs co-located            376 s a step   (calibrated here)
--   1-step off-policy, 64 GPUs (32 + 32)     200 s a step   (predicted)
-- docs/validation.md has the rows, the sources and the errors.
--
-- Recipes grpo-qwen3-32b-4n8g and -8n8g-async-1off: 64 prompts x 32
-- generations = 2048 samples, training global batch 512 (4 optimizer
-- steps), Megatron TP4 PP4 with sequence parallelism, vLLM TP4, a KL term
-- (the defaults' penalty 0.01).  The async recipe generates on 4 nodes with
-- memory share 0.8 and trains on the other 4.
--
-- Lengths: the table gives the mean sequence, 3,251 tokens (3,252
-- one-step-off), against a 4096-token limit.  Prompts uniform 100-300
-- (guess), responses lognormal sigma 0.6 (guess) with the median that puts
-- the mean sequence on 3,251.
local f = fusync
return {
  name = "nemorl_qwen3_32b_h100",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 4, supernodes = 1,
    links = {
      intra_node      = { gbps = 450, latency_us = 3 },   -- NVLink 4
      intra_supernode = { gbps = 50,  latency_us = 8 },   -- InfiniBand 400 Gb/s per GPU
    },
    host_mem_gb = 2048,
  },
  models = {
    -- Qwen3-32B's published configuration (config.json): no preset yet
    actor = { name = "Qwen3-32B", layers = 64, hidden = 5120, heads = 64, kv_heads = 8,
              head_dim = 128, ffn = 25600, vocab = 151936, tied_embeddings = false },
    reference = true,            -- KL penalty 0.01: a reference forward
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 64, samples_per_prompt = 32,
    minibatches = 4, epochs = 1,
    prompt_len = f.dist.uniform(100, 300),
    response_len = f.dist.lognormal{ median = 3550, sigma = 0.6, cap = 3796 },
    max_response = 3796,
    iterations = 5, warmup = 1, seed = 11,
  },
  plan = {
    -- a single controller (NeMo RL's Ray driver collects each step's batch)
    -- and the math environment's 8 verifier workers (env.math.num_workers
    -- in NeMo RL's examples/configs/grpo_math_1B.yaml; docs/model.md, section 4)
    controller = "driver", reward_workers = 8,
    mode = "full",
    rollout_devices = 0,          -- the async row sets 32 of 64
    -- no recompute: megatron_policy_worker.py sets recompute_granularity =
    -- "full" only under megatron_cfg.activation_checkpointing, false in
    -- grpo_math_1B.yaml and unset in both recipes (NVIDIA-NeMo/RL @ v0.5.0)
    train = { tp = 4, pp = 4, micro_batch = 1, recompute = "none", zero = 1,
              grad_dtype = "bf16" },   -- NeMo RL's Megatron configs: grad_reduce_in_fp32 false
    rollout = { tp = 4, max_seqs = 256, mem_util = 0.6 },
  },
  efficiency = {
    -- train: fitted to the on-policy row (scripts/validate-fit.sh); overhead:
    -- a prior for vLLM at TP4.  Re-fitted 0.382 -> 0.3225 with the recipe's
    -- recompute (none, not full): training runs three forwards' work, not four.
    train = 0.3225, decode_overhead_ms = 8,
  },
}
