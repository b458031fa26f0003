-- spread_split.lua — disaggregated pools placed across the supernodes.
--
-- What it does: a rollout-only pool and a training pool (with the reference,
-- reward and critic models), as separate_ratio.lua, but the rollout pool
-- takes the same share of every supernode — "the first half of every
-- supernode" at the default share of one half — and training the rest of
-- each.  The share is plan.rollout_fraction (default 0.5), rounded so each
-- supernode holds whole rollout instances and whole training TP groups
-- inside its nodes.
--
-- Why: weight sync then stays inside each supernode (every supernode holding
-- rollout devices also holds training devices; docs/model.md, section 9)
-- instead of crossing the slower inter-supernode tier, and both pools keep a
-- foot in every supernode.  On one supernode it is the same as
-- separate_ratio.lua.
--
-- candidates() offers the planner pool shapes, not only axes: at shares of
-- one quarter, one half and three quarters of every supernode, the spread
-- split ("where = spread") beside the packed one (rollout on the lowest
-- devices), so `fusync plan` simulates both and ranks them.
--
--   fusync check SCENARIO --policy plugins/spread_split.lua
--   fusync plan  SCENARIO --policy plugins/spread_split.lua --top 5

local function roles_for_training(models)
  local r = { "train" }
  if models.reference then r[#r + 1] = "ref" end
  if models.reward ~= "rule" then r[#r + 1] = "reward" end
  if models.critic then r[#r + 1] = "critic" end
  return r
end

-- Rollout devices per supernode near `ratio` of it: a multiple of the
-- rollout instance and of the training TP group (each inside a node), and
-- leaving whole training replicas over the cluster.  nil when none is.
local function share_of(ctx, ratio)
  local c, plan = ctx.cluster, ctx.plan
  local per_sn = c.devices_per_supernode
  local inst = math.max(plan.rollout.tp, plan.rollout.ep)
  local step = math.max(inst, plan.train.tp)
  if step % inst ~= 0 or step % plan.train.tp ~= 0 then step = inst * plan.train.tp end
  local group = plan.train.tp * plan.train.pp
  local best
  for r = step, per_sn - step, step do
    if ((per_sn - r) * c.supernodes) % group == 0 then
      if not best or math.abs(r / per_sn - ratio) < math.abs(best / per_sn - ratio) then best = r end
    end
  end
  return best
end

local function pools(ctx, share, where)
  local n = ctx.cluster.supernodes
  return {
    { name = "gen", devices = share * n, where = where, roles = { "rollout" } },
    { name = "train", devices = (ctx.cluster.devices_per_supernode - share) * n,
      roles = roles_for_training(ctx.models) },
  }
end

function place(ctx)
  local plan = ctx.plan
  local share = share_of(ctx, plan.rollout_fraction or 0.5)
  if not share then
    return nil, string.format("no share of a supernode of %d devices holds whole rollout instances and training groups",
                              ctx.cluster.devices_per_supernode)
  end
  plan.mode = "separate"
  -- on one supernode a spread is the packed split: leave where out then
  plan.pools = pools(ctx, share, ctx.cluster.supernodes > 1 and "spread" or nil)
  return plan
end

function candidates(ctx)
  local shapes, seen = {}, {}
  for _, ratio in ipairs({ 0.25, 0.5, 0.75 }) do
    local share = share_of(ctx, ratio)
    if share and not seen[share] then
      seen[share] = true
      shapes[#shapes + 1] = pools(ctx, share, nil)     -- packed: the default
      if ctx.cluster.supernodes > 1 then shapes[#shapes + 1] = pools(ctx, share, "spread") end
    end
  end
  return { pools = shapes }
end
