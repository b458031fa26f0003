-- Decode-step case for the serving benchmarks of docs/validation.md ("The
-- decode step against serving benchmarks"): Llama-3-8B, batch 1, SGLang
-- bench_latency with CUDA graphs, sgl-project/sglang PR 1401 (GPU not
-- stated).
-- Only the device, the model, the rollout layout and the engine matter here
-- (tests/test_decode_bench.c reads them with the rows of serving.csv); the
-- workload is a placeholder that lets the scenario load.
local f = fusync
return {
  name = "llama3_8b_sglang_graph",
  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 8 },
  models = { actor = f.models.llama3_1_8b, reward = "rule" },
  workload = {
    prompts_per_step = 8, samples_per_prompt = 8, minibatches = 1,
    prompt_len = f.dist.fixed(128), response_len = f.dist.fixed(128), max_response = 128,
    iterations = 2, warmup = 1, seed = 1,
  },
  plan = {
    mode = "separate", rollout_devices = 8,   -- one node generates
    train = { tp = 8, pp = 1, zero = 3, recompute = "full" },
    rollout = { tp = 1, max_seqs = 256, engine = "sglang", cuda_graphs = true },
  },
}
