#!/bin/sh
# Run a fusync plan search as a Slurm job array, then merge the shards.
#
#   scripts/slurm-plan.sh SCENARIO --shards N [--out DIR] [--only LIST]
#                         [--wait] [--dry-run] [FUSYNC OPTIONS...]
#                         [-- SBATCH OPTIONS...]
#
# Task I of the array (1..N) runs `fusync plan SCENARIO --shard I/N` on its
# deterministic share of the candidates; a job that depends on the whole
# array (afterok) runs `fusync merge` into DIR/plan.csv and DIR/plan.json,
# the same ranking as the unsharded plan.  FUSYNC OPTIONS are passed to every shard
# (e.g. --objective tokens-per-device, --top 20, --policy FILE.lua).
# Everything else works as in scripts/slurm-sweep.sh; see docs/cluster.md.
set -eu
exec sh "$(dirname "$0")/slurm-sweep.sh" --command plan "$@"
