-- Validation: verl's fully asynchronous trainer against its co-located
-- synchronous trainer, DAPO on Qwen2.5-Math-7B, H20 GPUs (verl
-- docs/advance/fully_async.md, "Asynchronous Training on 7B Model").
--
-- Published (seconds a step, averaged over 400 steps):
--   colocate sync, 32 GPUs     790.10 (gen 357.41, old_log_prob 107.71,
--                              update_actor 313.81)          (calibrated here)
--   (update_actor 313.81 as the doc first gave it, 2025-10-17 and
--   2025-10-21; since 2025-12-03 it prints 269.80 here and 313.81 for the
--   16:16 row.  Only 313.81 makes this row's phases add up to its step with
--   the ~11 s of other work the 64- and 128-GPU rows show, and only 269.80
--   keeps the 16:16 row's update_actor below its own step: the later
--   version swapped the two cells.  docs/validation.md.)
--   colocate sync, 64 GPUs     365.28                        (predicted)
--   colocate sync, 128 GPUs    356.30                        (predicted)
--   fully async 16:16, 32:32, 64:64 (rollout:train GPUs)
--                              294.77, 189.26, 150.63        (predicted:
--                              staleness_threshold 0.5 with partial rollout is
--                              plan.staleness 0 + plan.stale_share 0.5)
-- docs/validation.md has the rows, the sources and the errors.
--
-- Scripts verl/experimental/fully_async_policy/shell/dapo_7b_math_fsdp2_*.sh:
-- 512 prompts x 16 responses = 8192 samples a step, PPO mini-batch 32
-- prompts (16 optimizer steps), prompts up to 2048 tokens, responses up to
-- 28k tokens, no KL term and no reference model, FSDP2 (fsdp_size 8,
-- Ulysses sequence parallel 4), vLLM TP4.
--
-- Lengths are guesses: the doc gives no mean.  Prompts uniform 100-600,
-- responses lognormal median 500, sigma 1.0 (mean about 0.8k, a long tail
-- toward the 28k limit; 1,166 tokens trained per sample), the same for
-- every row.  Longer guesses (medians 1500, 700) needed a training
-- efficiency of 0.66 or more to meet update_actor; docs/validation.md.
local f = fusync
return {
  name = "verl_qwen25math7b_h20",
  cluster = {
    device = f.devices.h20,
    devices_per_node = 8, nodes_per_supernode = 4, supernodes = 1,
    links = {
      intra_node      = { gbps = 450, latency_us = 3 },   -- NVLink on HGX H20
      intra_supernode = { gbps = 50,  latency_us = 8 },   -- 400 Gb/s per GPU (guess)
    },
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.qwen2_5_7b,       -- Qwen2.5-Math-7B has the Qwen2.5-7B architecture
    reward = "rule",
  },
  workload = {
    algorithm = "grpo",                -- DAPO: GRPO-style group advantages
    prompts_per_step = 512, samples_per_prompt = 16,
    minibatches = 16, epochs = 1,
    prompt_len = f.dist.uniform(100, 600),
    response_len = f.dist.lognormal{ median = 500, sigma = 1.0, cap = 28672 },
    max_response = 28672,
    iterations = 4, warmup = 1, seed = 5,
  },
  plan = {
    -- a single controller (verl's RayPPOTrainer gathers each step's batch in
    -- the driver) and the DAPO/naive reward manager, which scores samples
    -- one by one in the driver process (docs/model.md, section 4)
    controller = "driver", reward_workers = 1,
    mode = "colocate",
    rollout_devices = 16,              -- async rows set this to half the cluster
    -- FSDP2 with fsdp_size 8: parameters sharded within a node, replicated
    -- across nodes (HSDP; Ulysses sequence parallelism is not modeled)
    train = { tp = 1, pp = 1, micro_batch = 1, recompute = "full", zero = 3, shard_group = 8 },
    rollout = { tp = 4, max_seqs = 256, mem_util = 0.8 },
  },
  efficiency = {
    -- Fitted to the 32-GPU colocate row (scripts/validate-fit.sh): train to its
    -- update_actor (313.81 s; 0.503 when the row was read as 269.80 s), the
    -- decode overhead to its gen (357.4 s).  Overhead re-fitted 12.3 -> 12.8 ms:
    -- prefix caching (on by default, as in vLLM's V1 engine) prefills each
    -- prompt once for its 16 samples, taking 3.1% off gen.
    train = 0.427, decode_overhead_ms = 12.8,
  },
}
