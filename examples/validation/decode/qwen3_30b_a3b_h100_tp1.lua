-- Decode-step case for the serving benchmarks of docs/validation.md ("The
-- decode step against serving benchmarks"): Qwen3-30B-A3B on one H100 (TP1),
-- vLLM V1 serving at concurrency 10, vllm-project/vllm PR 23151.
-- Only the device, the model, the rollout layout and the engine matter here
-- (tests/test_decode_bench.c reads them with the rows of serving.csv); the
-- workload is a placeholder that lets the scenario load.
local f = fusync
return {
  name = "qwen3_30b_a3b_h100_tp1",
  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 8 },
  models = { actor = f.models.qwen3_30b_a3b, reward = "rule" },
  workload = {
    prompts_per_step = 8, samples_per_prompt = 8, minibatches = 1,
    prompt_len = f.dist.fixed(128), response_len = f.dist.fixed(128), max_response = 128,
    iterations = 2, warmup = 1, seed = 1,
  },
  plan = {
    mode = "separate", rollout_devices = 8,   -- one node generates
    train = { tp = 8, pp = 1, zero = 3, recompute = "full" },
    rollout = { tp = 1, max_seqs = 256, engine = "vllm", cuda_graphs = true },
  },
}
