-- tests/data/plan/small.lua with pools of two device types (tests/hetero.sh):
-- one node of four H20 generating, one node of four H100 training, so that
-- `fusync plan --objective devices` has typed pools to scale with the cluster.
local f = fusync
return {
  name = "plan_typed_pools",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 4, nodes = 2,
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
    mode = "separate", staleness = 1, partial_rollout = 0.8,
    pools = {
      { name = "gen",   devices = 4, roles = { "rollout" }, device = "h20" },
      { name = "train", devices = 4, roles = { "train", "ref" } },
    },
    train = { tp = 2, pp = 1, ep = 1, micro_batch = 1 },
    rollout = { tp = 1, max_seqs = 64 },
  },
}
