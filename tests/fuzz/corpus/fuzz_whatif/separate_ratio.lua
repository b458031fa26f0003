-- separate_ratio.lua — disaggregated pools split by a ratio.
--
-- What it does: puts a share of the devices in a rollout-only pool and the
-- rest in a training pool that also runs the reference, reward and critic
-- models; new weights are sent to the rollout pool after every step.  The
-- share is the scenario's plan.rollout_fraction (default 0.5), rounded to
-- whole rollout instances and whole training model-parallel groups.
--
-- When to use it: the baseline of the seed paper ("separate"); models too
-- large to hold training states and a KV cache on the same devices; or to
-- find the split where generation and training take equally long (sweep
-- plan.rollout_fraction with a what-if file).
--
--   fusync run SCENARIO --policy plugins/separate_ratio.lua --set plan.rollout_fraction=0.6

local function roles_for_training(models)
  local r = { "train" }
  if models.reference then r[#r + 1] = "ref" end
  if models.reward ~= "rule" then r[#r + 1] = "reward" end
  if models.critic then r[#r + 1] = "critic" end
  return r
end

function place(ctx)
  local plan, total = ctx.plan, ctx.cluster.devices
  local ratio = plan.rollout_fraction or 0.5
  local inst = math.max(plan.rollout.tp, plan.rollout.ep)       -- devices per rollout instance
  local group = plan.train.tp * plan.train.pp                    -- devices per training replica
  -- the rollout share in whole instances, leaving whole training replicas
  local best
  for r = inst, total - group, inst do
    if (total - r) % group == 0 then
      if not best or math.abs(r / total - ratio) < math.abs(best / total - ratio) then best = r end
    end
  end
  if not best then
    error(string.format("no split of %d devices into rollout instances of %d and training replicas of %d",
                        total, inst, group))
  end
  plan.mode = "separate"
  plan.pools = {
    { name = "rollout", devices = best, roles = { "rollout" } },
    { name = "train", devices = total - best, roles = roles_for_training(ctx.models) },
  }
  return plan
end
