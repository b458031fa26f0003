-- Lesson: where the long tail goes, and what partial rollout does with it.
-- Qwen2.5-7B GRPO: response lengths are lognormal with a cap of 8k tokens,
-- so a few samples decode far longer than the rest.
local function tok(x) return string.format("%.1fk tokens/s", x / 1000) end
local function pct(x) return string.format("%.0f%%", 100 * x) end

return {
  title = "The long tail and partial rollout",
  scenario = "../examples/qwen7b_h100x16.lua",
  steps = {
    {
      play = 75, row = "rollout 1", at = 75,
      caption = function(ctx)
        return "75 s into the first step.  Each rollout row is one inference instance.  Several rows are "
          .. "already blank: their samples are done, but the step cannot train until the longest response "
          .. "of the batch has finished.  That wait is the long tail."
      end,
    },
    {
      play = "end", snapshot = "A", pane = "stats",
      caption = function(ctx)
        local a = ctx.a
        return "Snapshot A, run to its end: generation takes " .. string.format("%.0f s", a.phase_time_s.generate)
          .. " of a " .. string.format("%.0f s", a.step_time_s) .. " step (" .. pct(a.phase_time_s.generate / a.step_time_s)
          .. "), much of it a handful of long samples: " .. tok(a.throughput_tokens_per_s) .. "."
      end,
      check = function(ctx)
        return ctx.a.phase_time_s.generate > 0.5 * ctx.a.step_time_s, "generation should dominate the step"
      end,
    },
    {
      set = { ["plan.partial_rollout"] = 0.6, ["plan.staleness"] = 1 },
      snapshot = "B", play = "step 2", row = "rollout 1",
      caption = function(ctx)
        local a, b = ctx.a, ctx.b
        return "Partial rollout 0.6: a step trains as soon as 60% of its samples are done; the unfinished ones "
          .. "keep decoding and join a later step, under the next weights (staleness bound 1).  Generation "
          .. string.format("%.0f s -> %.0f s", a.phase_time_s.generate, b.phase_time_s.generate) .. " a step; "
          .. tok(a.throughput_tokens_per_s) .. " -> " .. tok(b.throughput_tokens_per_s) .. "."
      end,
      check = function(ctx)
        return ctx.b.throughput_tokens_per_s > ctx.a.throughput_tokens_per_s and ctx.b.phase_time_s.generate < ctx.a.phase_time_s.generate,
          "partial rollout should shorten generation and raise throughput"
      end,
    },
    {
      compare = true, pane = "compare",
      caption = function(ctx)
        return "The price: samples trained one version late.  B's mean lag is " .. string.format("%.2f", ctx.b.staleness_mean)
          .. " versions (max " .. ctx.b.staleness_max .. "), A's " .. string.format("%.2f", ctx.a.staleness_mean)
          .. ".  Whether that hurts learning is for the algorithm to say; the simulator shows what it buys."
      end,
      check = function(ctx)
        return ctx.b.staleness_mean > ctx.a.staleness_mean, "partial rollout should train some samples late"
      end,
    },
  },
}
