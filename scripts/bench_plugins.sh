#!/bin/sh
# Speed figures of the planner and of sweeps, for `make bench`:
#   1. the planner on one supernode (384 NPUs): candidates simulated per second
#      per core (simulation runs of every rung over their wall time), and
#      candidates enumerated per second over the whole command
#   2. the same on 1536 devices (4 supernodes) with two worker processes
#   3. a 100-variant sweep of the one-supernode example
# Targets: >= 300 candidates simulated in the default one-supernode run; the
# sweep in < 10 s.  Prints figures; asserts nothing.
set -eu
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
S=examples/pangu718b_cm384.lua
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

plan_line() { # plan_line LABEL JOBS ARGS...: the planner's summary line on stderr
    label=$1 jobs=$2
    shift 2
    "$F" plan "$S" --jobs "$jobs" --json /dev/null "$@" 2>"$T/err" >/dev/null || { cat "$T/err" >&2; return 1; }
    # fusync: plan: N candidates enumerated (P pruned, E estimated), S simulated in R runs (X s), in Y s with J jobs
    line=$(grep "candidates enumerated" "$T/err")
    n=$(echo "$line" | sed 's/.*plan: \([0-9]*\) candidates.*/\1/')
    sims=$(echo "$line" | sed 's/.*), \([0-9]*\) simulated.*/\1/')
    runs=$(echo "$line" | sed 's/.* in \([0-9]*\) runs.*/\1/')
    simsecs=$(echo "$line" | sed 's/.* runs (\([0-9.]*\) s).*/\1/')
    secs=$(echo "$line" | sed 's/.* in \([0-9.]*\) s with.*/\1/')
    awk -v l="$label" -v n="$n" -v s="$secs" -v j="$jobs" -v m="$sims" -v r="$runs" -v x="$simsecs" 'BEGIN {
        printf "  %-44s %4d candidates simulated (%d runs) in %6.2f s = %6.1f simulated/s/core; %d enumerated in %.2f s\n",
               l, m, r, x, r / x / j, n, s }'
}

echo "fusync plugins bench ($(uname -m), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) cores)"
plan_line "plan, 1 supernode (384 NPUs), 1 job" 1
plan_line "plan, 4 supernodes (1536 NPUs), 2 jobs" 2 --set cluster.supernodes=4

cat > "$T/w100.lua" <<'W'
return { vary = {
  { "plan.staleness", { 0, 1, 2, 3, 4 } },
  { "plan.partial_rollout", { 1.0, 0.9, 0.8, 0.7, 0.6 } },
  { "plan.rollout.max_seqs", { 128, 192, 256, 320 } },
} }
W
t0=$(date +%s.%N)
"$F" sweep "$S" "$T/w100.lua" --csv "$T/w100.csv" --quiet
t1=$(date +%s.%N)
rows=$(($(grep -vc '^#' "$T/w100.csv") - 1))   # the CSV opens with '#' lines
awk -v a="$t0" -v b="$t1" -v r="$rows" 'BEGIN { printf "  %-44s %10d variants in %6.2f s (1 job)\n", "sweep, 1 supernode", r, b - a }'
t0=$(date +%s.%N)
"$F" sweep "$S" "$T/w100.lua" --csv "$T/w100j.csv" --quiet --jobs 2
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v r="$rows" 'BEGIN { printf "  %-44s %10d variants in %6.2f s (2 jobs)\n", "sweep, 1 supernode", r, b - a }'
