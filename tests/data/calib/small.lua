-- The scenario tests/model_calibrate.sh calibrates: Qwen2.5-7B, GRPO, on
-- one node of 8 H100, co-located; small enough that a fit takes seconds.
local f = fusync
return {
  name = "calib_small",
  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1 },
  models = { actor = f.hf_config("Qwen2.5-7B.config.json"), reward = "rule" },
  workload = {
    algorithm = "grpo", prompts_per_step = 32, samples_per_prompt = 8, minibatches = 2,
    prompt_len = f.dist.uniform(200, 600),
    response_len = f.dist.lognormal{median = 800, sigma = 0.7, cap = 4096},
    max_response = 4096, iterations = 4, warmup = 1, seed = 3,
  },
  plan = {
    mode = "colocate",
    train = { tp = 2, pp = 1, micro_batch = 2 },
    rollout = { tp = 1, max_seqs = 64 },
  },
}
