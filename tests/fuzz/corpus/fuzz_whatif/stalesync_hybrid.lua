-- stalesync_hybrid.lua — some devices always generate, the rest switch.
--
-- What it does: a rollout-only pool ("gen") never stops generating; the other
-- devices ("mixed") generate alongside it, then switch to training (and the
-- reference/reward/critic passes).  With a staleness bound s >= 1 the gen pool
-- keeps producing samples for the next steps while the mixed pool trains, and
-- a partial-rollout threshold lets a step start before its long tail is done
-- (StaleSync).  The gen pool is plan.rollout_devices devices when set, else a
-- quarter of the cluster, in whole rollout instances.  The staleness bound is
-- the scenario's if it is at least 1, else 1; the partial-rollout threshold
-- the scenario's if below 1, else 0.8.
--
-- When to use it: long-tail response lengths, where a co-located pool would
-- spend much of the step waiting for its last samples; large clusters where a
-- switch costs more than the generation it would add.
--
--   fusync run SCENARIO --policy plugins/stalesync_hybrid.lua --staleness 2

function place(ctx)
  local plan, c, m = ctx.plan, ctx.cluster, ctx.models
  local inst = math.max(plan.rollout.tp, plan.rollout.ep)
  local group = plan.train.tp * plan.train.pp
  local want = plan.rollout_devices > 0 and plan.rollout_devices or c.devices // 4
  local gen = math.max(inst, want // inst * inst)
  -- the mixed pool must hold whole training replicas and rollout instances
  while gen < c.devices and ((c.devices - gen) % group ~= 0 or (c.devices - gen) % inst ~= 0) do
    gen = gen + inst
  end
  if gen >= c.devices then
    error(string.format("cannot split %d devices into a gen pool and a mixed pool of whole replicas of %d", c.devices, group))
  end
  local roles = { "rollout", "train" }
  if m.reference then roles[#roles + 1] = "ref" end
  if m.reward ~= "rule" then roles[#roles + 1] = "reward" end
  if m.critic then roles[#roles + 1] = "critic" end
  plan.mode = "colocate"
  plan.pools = {
    { name = "gen", devices = gen, roles = { "rollout" } },
    { name = "mixed", devices = c.devices - gen, roles = roles },
  }
  plan.offload = { optimizer = true, grads = true }
  plan.zero_redundancy = true
  if plan.staleness < 1 then plan.staleness = 1 end
  if plan.partial_rollout >= 1 then plan.partial_rollout = 0.8 end
  return plan
end
