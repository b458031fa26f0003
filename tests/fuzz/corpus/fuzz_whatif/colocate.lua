-- colocate.lua — RL Fusion: the actor trains and generates on the same devices.
--
-- What it does: one pool holds actor training and rollout, switching layouts
-- between the phases (optimizer states and gradients go to host memory while
-- generating, weights are resharded bucket by bucket); the reference and
-- reward models, if they are neural networks, get a small pool of their own
-- (an eighth of the devices, in whole nodes).  Without such models this is
-- the same as full_colocate.lua.
--
-- When to use it: most synchronous RL runs that fit; the seed paper reports
-- +78.5% throughput over separate pools on one CloudMatrix384 supernode.
-- Prefer full_colocate.lua when the reference/reward weights are small
-- enough to swap in from the host for their pass.
--
--   fusync run SCENARIO --policy plugins/colocate.lua

function place(ctx)
  local plan, c, m = ctx.plan, ctx.cluster, ctx.models
  local aux_roles = {}
  if m.reference then aux_roles[#aux_roles + 1] = "ref" end
  if m.reward ~= "rule" then aux_roles[#aux_roles + 1] = "reward" end
  local actor_roles = { "rollout", "train" }
  if m.critic then actor_roles[#actor_roles + 1] = "critic" end
  plan.offload = { optimizer = true, grads = true }
  plan.zero_redundancy = true
  if #aux_roles == 0 then
    plan.mode = "full"
    plan.pools = { { name = "actor", devices = c.devices, roles = actor_roles } }
    return plan
  end
  local node = c.devices_per_node
  local aux = math.max(node, (c.devices // 8) // node * node)
  aux = aux - aux % plan.aux_tp
  if aux >= c.devices then error("too few devices to give the reference/reward models a pool of their own") end
  plan.mode = "colocate"
  plan.pools = {
    { name = "actor", devices = c.devices - aux, roles = actor_roles },
    { name = "aux", devices = aux, roles = aux_roles },
  }
  return plan
end
