#!/bin/sh
# Speed figures of the planner and of sweeps, for `make bench`:
#   1. planner candidates evaluated per second per core, one supernode (384 NPUs)
#   2. planner on 1536 devices (4 supernodes) with two worker processes
#   3. a 100-variant sweep of the one-supernode example
# Targets: >= 2,000 candidates/s/core; >= 10,000 candidates in < 30 s on two
# cores; the sweep in < 10 s.  Prints figures; asserts nothing.
set -eu
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
S=examples/pangu718b_cm384.lua
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

plan_line() { # plan_line LABEL JOBS ARGS...: "N candidates evaluated ... in X s"
    label=$1 jobs=$2
    shift 2
    "$F" plan "$S" --jobs "$jobs" --json /dev/null "$@" 2>"$T/err" >/dev/null || { cat "$T/err" >&2; return 1; }
    line=$(grep "candidates evaluated" "$T/err")
    n=$(echo "$line" | sed 's/.*plan: \([0-9]*\) candidates.*/\1/')
    sims=$(echo "$line" | sed 's/.*, \([0-9]*\) simulated.*/\1/')
    secs=$(echo "$line" | sed 's/.* in \([0-9.]*\) s with.*/\1/')
    awk -v l="$label" -v n="$n" -v s="$secs" -v j="$jobs" -v m="$sims" 'BEGIN {
        printf "  %-44s %10d candidates (%d simulated) in %6.2f s = %9.0f candidates/s/core\n", l, n, m, s, n / s / j }'
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
rows=$(($(wc -l < "$T/w100.csv") - 1))
awk -v a="$t0" -v b="$t1" -v r="$rows" 'BEGIN { printf "  %-44s %10d variants in %6.2f s (1 job)\n", "sweep, 1 supernode", r, b - a }'
t0=$(date +%s.%N)
"$F" sweep "$S" "$T/w100.lua" --csv "$T/w100j.csv" --quiet --jobs 2
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v r="$rows" 'BEGIN { printf "  %-44s %10d variants in %6.2f s (2 jobs)\n", "sweep, 1 supernode", r, b - a }'
