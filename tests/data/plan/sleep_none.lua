-- An engine that never sleeps (tests/plan_memory.sh): tests/data/plan/small.lua's
-- Qwen2.5-7B with plan.rollout.sleep = "none", so a co-located pool keeps the
-- engine's weights and KV cache through training and overflows: the search may
-- make the engine sleep where the chosen framework has a setting for it.
-- Full recompute is set already (OpenRLHF has no selective recompute).
local f = fusync
return {
  name = "plan_sleep_none",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 4, nodes_per_supernode = 2, supernodes = 1,
    host_mem_gb = 1024,
  },
  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = "rule" },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 16, samples_per_prompt = 4,
    minibatches = 2, epochs = 1,
    prompt_len = f.dist.uniform(128, 256),
    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 1024},
    max_response = 1024,
    iterations = 4, warmup = 1, seed = 3,
  },
  plan = {
    mode = "full",
    train = { tp = 2, pp = 1, ep = 1, micro_batch = 1, recompute = "full" },
    rollout = { tp = 1, max_seqs = 64, sleep = "none" },
  },
}
