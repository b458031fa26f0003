-- full_colocate.lua — everything on every device.
--
-- What it does: one pool runs rollout, actor training, the reference and
-- reward models and the critic.  Optimizer states and gradients are offloaded
-- to host memory during generation; reference/reward weights wait on the host
-- and are loaded for their forward pass; weights are resharded in place.
--
-- When to use it: small and mid-size models, or when every device is needed
-- for generation; no device ever waits for another pool.  It costs a switch
-- (offload, reshard, onload) twice per step: check `switch` in the report.
--
--   fusync run SCENARIO --policy plugins/full_colocate.lua

function place(ctx)
  local plan, m = ctx.plan, ctx.models
  local roles = { "rollout", "train" }
  if m.reference then roles[#roles + 1] = "ref" end
  if m.reward ~= "rule" then roles[#roles + 1] = "reward" end
  if m.critic then roles[#roles + 1] = "critic" end
  plan.mode = "full"
  plan.pools = { { name = "all", devices = ctx.cluster.devices, roles = roles } }
  plan.offload = { optimizer = true, grads = true }
  plan.zero_redundancy = true
  return plan
end
