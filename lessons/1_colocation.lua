-- Lesson: why co-location beats separate pools.
-- Qwen2.5-7B GRPO on 16 H100s: the same GPUs as two separate pools (8
-- generate, 8 train), co-located (the actor's GPUs switch between generating
-- and training), and fully co-located.  Run it: fusync tui --lesson lessons/1_colocation.lua
local function tok(x) return string.format("%.1fk tokens/s", x / 1000) end
local function pct(x) return string.format("%.0f%%", 100 * x) end
local function pool(r, name)
  for _, p in ipairs(r.pools) do if p.name == name then return p end end
  return { busy = 0, idle = 1, devices = 0 }
end

-- The GPUs of the pools other than the actor's (the reference model's, in
-- co-located mode).
local function aux_devices(ctx)
  local n = 0
  for i, p in ipairs(ctx.live_pools) do if i > 1 then n = n + p.devices end end
  return n
end

return {
  title = "Why co-location beats separate pools",
  scenario = "../examples/qwen7b_h100x16.lua",
  steps = {
    {
      set = { ["plan.mode"] = "separate" },
      play = "step 2", row = "rollout 0",
      caption = function(ctx)
        local r, t = ctx.live_pools[1], ctx.live_pools[2]
        return "Separate pools: " .. r.devices .. " GPUs only generate, " .. t.devices .. " only train. "
          .. "Step 2 is done. Look at the rollout rows: they are blank while the training pool trains, "
          .. "and the training pool is blank while they generate. So far the rollout pool was busy "
          .. pct(r.busy) .. " of the time, the training pool " .. pct(t.busy) .. "."
      end,
    },
    {
      snapshot = "A", pane = "stats",
      caption = function(ctx)
        local a = ctx.a
        return "Snapshot A keeps this plan, run to its end: " .. tok(a.throughput_tokens_per_s) .. ". "
          .. "The rollout pool idles " .. pct(pool(a, "rollout").idle) .. " of the measured steps and the "
          .. "training pool " .. pct(pool(a, "train").idle) .. ": each waits for the other, because a step "
          .. "trains on what the same step generated (staleness 0)."
      end,
      check = function(ctx)
        return pool(ctx.a, "rollout").idle > 0.3, "the separate rollout pool should idle a third of the time or more"
      end,
    },
    {
      set = { ["plan.mode"] = "colocate" }, snapshot = "B", play = "step 2", row = "rollout 0",
      caption = function(ctx)
        return "Co-located: the actor's " .. ctx.live_pools[1].devices .. " GPUs generate, then switch (offload the "
          .. "rollout engine, load the training state) and train, then switch back.  The same rollout rows "
          .. "now fill the generate phase and the training stage row fills the rest.  The dots on the step "
          .. "row are a wait (" .. string.format("%.0f s", ctx.b.phase_time_s.wait or 0) .. " a step): the reference "
          .. "model sits on its own pool of " .. aux_devices(ctx) .. " GPUs, and the actor waits for its log-probs "
          .. "before it trains.  Snapshot B: " .. tok(ctx.b.throughput_tokens_per_s) .. "."
      end,
      check = function(ctx)
        return ctx.b.throughput_tokens_per_s > ctx.a.throughput_tokens_per_s, "co-location should beat separate pools here"
      end,
    },
    {
      compare = true, pane = "compare",
      caption = function(ctx)
        local a, b = ctx.a, ctx.b
        return "A (separate) against B (co-located): " .. tok(a.throughput_tokens_per_s) .. " against "
          .. tok(b.throughput_tokens_per_s) .. ", " .. string.format("%+.0f%%", 100 * (b.throughput_tokens_per_s / a.throughput_tokens_per_s - 1))
          .. ".  The switch costs " .. string.format("%.1f s", b.phase_time_s.switch) .. " a step, far less than "
          .. "the idle half of two pools.  Idle devices are the price of separation."
      end,
      check = function(ctx)
        return ctx.b.phase_time_s.switch < 0.1 * ctx.b.step_time_s, "the switch should be a small part of the step"
      end,
    },
    {
      compare = false, set = { ["plan.mode"] = "full" }, play = "end",
      caption = function(ctx)
        return "Full co-location puts the reference model on the same GPUs too, so no device is set aside: "
          .. tok(ctx.run.throughput_tokens_per_s) .. ", against " .. tok(ctx.b.throughput_tokens_per_s)
          .. " co-located and " .. tok(ctx.a.throughput_tokens_per_s) .. " separate.  Try m to cycle the modes yourself."
      end,
      check = function(ctx)
        return ctx.run.throughput_tokens_per_s > ctx.b.throughput_tokens_per_s, "full co-location should be fastest here"
      end,
    },
  },
}
