-- A policy written from docs/plugins.md alone, exercising each point of the
-- plugin API a policy author asked for (tests/plugins.sh runs it):
--   place() returns plan fields beyond layouts (dispatch, offload, on_stale);
--   a global set in place() reaches the hooks of the same run;
--   fusync.fits(plan) says whether a plan fits and the first overflow;
--   fusync.estimate(plan) is its closed-form tokens/s;
--   place() answers nil and a reason to mark a variant infeasible;
--   a swept field place() replaces is reported by fusync;
--   pools need not be contiguous: fusync.fits() places a pool given as
--   device ranges (the first half of every node) and says where it landed;
--   candidates() gives pool shapes, placed ones too; score() may mark a
--   candidate infeasible.

local wanted_bound          -- set by place(), read by on_step()

function place(ctx)
  local plan = ctx.plan
  if plan.rollout.max_seqs == 96 then
    return nil, "this policy does not run 96 sequences per instance"
  end
  -- the smallest rollout TP that fits, by the same fit as `fusync check`
  for _, tp in ipairs({ 1, 2, 4 }) do
    local ok, why = fusync.fits({ rollout = { tp = tp } })
    print(string.format("fits rollout.tp=%d: %s %s", tp, tostring(ok), why or ""))
    if ok then plan.rollout.tp = tp break end
  end
  -- a plan that cannot fit: the first overflow comes back
  local ok, why, pools = fusync.fits({ rollout = { tp = 1, mem_util = 0.9 }, train = { tp = 1, micro_batch = 64 } })
  print("oversize: " .. tostring(ok) .. " " .. tostring(why) .. " pools " .. tostring(pools and #pools))
  -- pools that are not contiguous ranges: the first half of each node generates
  local okp, whyp, placed = fusync.fits({ mode = "separate", pools = {
      { name = "gen", ranges = { { 0, 3 }, { 8, 11 } }, roles = { "rollout" } },
      { name = "trainer", ranges = { { 4, 7 }, { 12, 15 } }, roles = { "train", "ref", "reward" } } } })
  local r = placed and placed[1] and placed[1].ranges
  print(string.format("placed gen: %s %s ranges %s", tostring(okp), whyp or "",
                      r and string.format("%d..%d,%d..%d", r[1][1], r[1][2], r[2][1], r[2][2]) or "none"))
  -- the planner's closed-form tokens/s of two plans, and of one that does not build
  local e1, e2 = fusync.estimate({ rollout = { max_seqs = 64 } }), fusync.estimate({ rollout = { max_seqs = 256 } })
  local bad, why2 = fusync.estimate({ train = { tp = 3 } })
  print(string.format("estimate 64 seqs %s, 256 seqs %s, tp 3: %s %s", e1 > 0 and "positive" or tostring(e1),
                      e2 > 0 and "positive" or tostring(e2), tostring(bad), why2))
  plan.rollout.dispatch = "static"
  plan.partial_rollout = 1          -- replaces any --set plan.partial_rollout
  wanted_bound = 1
  return plan
end

function on_step(ctx)
  if ctx.step == 1 then print("on_step sees wanted_bound=" .. tostring(wanted_bound)) end
  if wanted_bound and ctx.staleness ~= wanted_bound then
    return { staleness = wanted_bound }
  end
end

function candidates(ctx)
  local n = ctx.cluster.devices
  return {
    pools = {
      { { name = "gen", devices = n / 2, roles = { "rollout" } },
        { name = "mixed", devices = n / 2, roles = { "rollout", "train", "ref", "reward" } } },
      { { name = "gen", devices = n / 4, roles = { "rollout" } },
        { name = "trainer", devices = 3 * n / 4, roles = { "train", "ref", "reward" } } },
      -- placed: the same share of every node generates
      { { name = "gen", devices = n / 2, where = "spread_nodes", roles = { "rollout" } },
        { name = "trainer", devices = n / 2, roles = { "train", "ref", "reward" } } },
    },
    staleness = { 0, 1 },
    dispatch = { "static" },
    max_seqs = { 256 },
  }
end

function score(ctx, report)
  local pools = ctx.plan.pools       -- only when the plan has explicit pools
  if pools and pools[1].devices < ctx.cluster.devices / 2 and ctx.plan.staleness > 0 then
    return nil, "no stale samples with a small generating pool"
  end
  return report.throughput_tokens_per_s
end
