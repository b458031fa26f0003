-- A scenario whose reference stays on the device (tests/plan_memory.sh):
-- tests/data/plan/adam_share.lua's Qwen2.5-32B on four H20s with a
-- reference of the same shape held on the device for the whole run
-- (plan.offload.reference = false, verl's ref param_offload default;
-- docs/model.md, section 8).  No layout fits as given; the memory repair
-- may send the reference to the host between its passes where the
-- framework has a key for it (verl, OpenRLHF), never under NeMo RL.
local f = fusync
return {
  name = "plan_ref_resident",
  cluster = {
    device = f.devices.h20,
    devices_per_node = 4, nodes_per_supernode = 1, supernodes = 1,
    host_mem_gb = 1024,
  },
  models = { actor = f.models.qwen2_5_32b, reference = f.models.qwen2_5_32b, reward = "rule" },
  workload = {
    algorithm = "grpo",
    prompts_per_step = 8, samples_per_prompt = 4,
    minibatches = 1, epochs = 1,
    prompt_len = f.dist.uniform(128, 256),
    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 1024},
    max_response = 1024,
    iterations = 3, warmup = 1, seed = 5,
  },
  plan = {
    mode = "full",
    offload = { reference = false },
    train = { tp = 4, pp = 1, ep = 1, micro_batch = 1, recompute = "full", zero = 1 },
    rollout = { tp = 4, max_seqs = 64, sleep = "discard" },
  },
}
