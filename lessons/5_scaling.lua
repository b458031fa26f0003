-- Lesson: scaling to more supernodes.
-- Pangu Ultra MoE 718B on CloudMatrix384 supernodes of 384 Ascend 910C.
local function tok(x) return string.format("%.1fk tokens/s", x / 1000) end

return {
  title = "Scaling to more supernodes",
  scenario = "../examples/pangu718b_cm384.lua",
  steps = {
    {
      play = "step 1", row = "stage 0",
      caption = function(ctx)
        return "One supernode, " .. ctx.run.devices .. " devices, co-located.  The first step is done at "
          .. string.format("%.0f min", ctx.time_s / 60) .. " of simulated time."
      end,
    },
    {
      play = "end", snapshot = "A", pane = "stats",
      caption = function(ctx)
        return "Snapshot A: one supernode reaches " .. tok(ctx.a.throughput_tokens_per_s) .. ", "
          .. string.format("%.1f", ctx.a.throughput_tokens_per_s_per_device) .. " a device, a step every "
          .. string.format("%.1f min", ctx.a.step_time_s / 60) .. "."
      end,
    },
    {
      set = { ["cluster.supernodes"] = 2 }, snapshot = "B", play = "end", compare = true, pane = "compare",
      caption = function(ctx)
        local r = ctx.b.throughput_tokens_per_s / ctx.a.throughput_tokens_per_s
        return "Two supernodes: the batch is split over twice the replicas, so the step time stays about the "
          .. "same and the throughput scales " .. string.format("x%.2f", r) .. ": "
          .. tok(ctx.b.throughput_tokens_per_s) .. ", " .. string.format("%.1f", ctx.b.throughput_tokens_per_s_per_device) .. " a device."
      end,
      check = function(ctx)
        local r = ctx.b.throughput_tokens_per_s / ctx.a.throughput_tokens_per_s
        return r > 1.8 and r < 2.2, string.format("two supernodes should scale near x2 (got x%.2f)", r)
      end,
    },
    {
      compare = false, set = { ["cluster.supernodes"] = 4 }, play = "end",
      caption = function(ctx)
        local r = ctx.run.throughput_tokens_per_s / ctx.a.throughput_tokens_per_s
        return "Four supernodes, " .. ctx.run.devices .. " devices: " .. tok(ctx.run.throughput_tokens_per_s)
          .. string.format(" (x%.2f)", r) .. ".  Scaling stays near linear while each supernode holds whole "
          .. "model replicas and only gradients cross between them; u and U add or remove one yourself."
      end,
      check = function(ctx)
        local r = ctx.run.throughput_tokens_per_s / ctx.a.throughput_tokens_per_s
        return r > 3.5, string.format("four supernodes should scale near x4 (got x%.2f)", r)
      end,
    },
  },
}
