-- What-if: how much does bounded staleness (StaleSync) buy, and at what
-- partial-rollout threshold?  3 x 3 = 9 variants of the base scenario.
--
--   fusync sweep examples/pangu718b_cm384.lua examples/whatif_staleness.lua --csv -
--   fusync sweep examples/qwen7b_h100x16.lua examples/whatif_staleness.lua --jobs 4 --json out.json
--
-- Columns: the varied fields, then throughput, step split, staleness reached
-- (max, mean) and wasted tokens of each variant.
return {
  vary = {
    { "plan.staleness",       { 0, 1, 2 } },
    { "plan.partial_rollout", { 1.0, 0.8, 0.6 } },
  },
}
