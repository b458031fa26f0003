-- What-if: scaling across supernodes (1, 2, 4, 8), synchronous against
-- StaleSync.  With workload.batch_per_supernode the batch grows with the
-- cluster (weak scaling), as in the seed paper's scaling figure.
--
--   fusync sweep examples/pangu718b_cm384.lua examples/whatif_scaling.lua --jobs 4 --csv scaling.csv
--
-- `variants` builds the list from the base scenario: the StaleSync setting
-- is only tried where the base plan co-locates training and rollout.
return {
  variants = function(base)
    local out = {}
    for _, n in ipairs({ 1, 2, 4, 8 }) do
      out[#out + 1] = { name = n .. " supernode sync",
                        set = { ["cluster.supernodes"] = n, ["plan.staleness"] = 0, ["plan.partial_rollout"] = 1 } }
      if base.plan.mode ~= "separate" then
        out[#out + 1] = { name = n .. " supernode stalesync",
                          set = { ["cluster.supernodes"] = n, ["plan.staleness"] = 2, ["plan.partial_rollout"] = 0.6 } }
      end
    end
    return out
  end,
}
