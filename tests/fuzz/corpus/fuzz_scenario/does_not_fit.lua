-- A plan that does not fit: Llama-3.1-70B trained on one node of 8 H100s,
-- TP8 and no pipeline, so there is no data parallelism for ZeRO to shard the
-- optimizer over.  Per device: BF16 weights 16.4 GiB, gradients 16.4 GiB,
-- FP32 master weights and Adam moments 98.5 GiB — over the 80 GiB before the
-- first step.  `fusync run` names the device, the bucket, the time and the
-- bytes over, and exits with status 1; `fusync check` shows the fit per bucket.
local f = fusync
return {
  name = "does_not_fit",
  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1 },
  models = { actor = f.models.llama3_1_70b, reward = "rule" },
  workload = {
    prompts_per_step = 16, samples_per_prompt = 4,
    prompt_len = f.dist.fixed(1024),
    response_len = f.dist.uniform(2048, 7168),
    max_response = 7168, iterations = 2, warmup = 0,
  },
  plan = {
    mode = "colocate",
    train = { tp = 8, pp = 1, micro_batch = 1, recompute = "none", zero = 1 },
    rollout = { tp = 8, max_seqs = 64 },
  },
}
