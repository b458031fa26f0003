-- Lesson: what runs out of memory, when, and why.
-- Llama-3.1-70B trained and generated on the same H100s (co-located).
local function gib(b) return string.format("%.1f GiB", b / 2^30) end

return {
  title = "What runs out of memory, when, and why",
  scenario = "../examples/does_not_fit.lua",
  steps = {
    {
      play = "end", pane = "memory", at = 0,
      caption = function(ctx)
        return "One node of 8 H100s, TP8, no data parallelism: " .. (ctx.run.why or "?") .. ".  "
          .. "With DP 1 there is nothing for ZeRO to shard the optimizer over: FP32 master weights and Adam "
          .. "moments alone are about 98 GiB a device.  The Memory pane shows the buckets at t = 0."
      end,
      check = function(ctx)
        return not ctx.run.feasible and ctx.run.why:find("optimizer") ~= nil, "this plan should fail on the optimizer"
      end,
    },
    {
      -- no `at`: the Memory pane shows the moment the run ran out
      set = { ["cluster.supernodes"] = 2, ["plan.train.zero"] = 3, ["plan.train.attention"] = "materialized" },
      play = "end", pane = "memory",
      caption = function(ctx)
        return "Two nodes give DP 2, and ZeRO-3 shards weights, gradients and optimizer over it.  The states "
          .. "fit now, but training does not: " .. (ctx.run.why or "?") .. ".  Without recomputation, and with "
          .. "eager attention that keeps its score matrix, every layer keeps its activations, reserved for the "
          .. "longest sequence allowed.  The A bucket (activations) runs past the capacity line."
      end,
      check = function(ctx)
        return not ctx.run.feasible and ctx.run.why:find("activations") ~= nil, "training activations should be what overflows"
      end,
    },
    {
      set = { ["cluster.supernodes"] = 4, ["plan.train.zero"] = 3, ["plan.train.recompute"] = "full" },
      play = "end", pane = "memory",
      caption = function(ctx)
        return "Four nodes (DP 4) leave room to spare, and full recomputation keeps activations "
          .. "small: the peak is " .. gib(ctx.run.memory_peak_bytes) .. " of "
          .. gib(ctx.run.memory_capacity_bytes) .. " a device.  fusync plan searches such layouts for you."
      end,
      check = function(ctx)
        return ctx.run.feasible, "four nodes with ZeRO-3 and full recomputation should fit"
      end,
    },
  },
}
