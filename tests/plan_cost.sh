#!/bin/sh
# Cluster sizes, cost and time in `fusync plan` (docs/cli.md, `fusync plan`,
# "Cluster sizes, cost and time"), on the 8-device space of
# tests/data/plan/small.lua (two nodes of four):
#   - --objective devices searches larger clusters: a target above the best
#     8-device plan but below the best of a larger cluster is met by a
#     larger one (status 0); with --max-scale 1 no cluster in range reaches
#     it, which the text and standard error say, with status 1;
#   - every row's device-hours and cost are devices x step hours x price
#     (+ nodes x step hours x node price), recomputed here from its columns;
#   - --objective time ranks by step time x steps (and with
#     workload.response_growth, by the steps' grown sum), --objective cost by
#     the cost of the run.
# FUSYNC names the binary.  Targets come from the runs; nothing is pinned.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-cost.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plan_cost: FAIL: $*" >&2; }
S=tests/data/plan/small.lua
HOLD="--fix plan.train.micro_batch=1 --fix plan.rollout.max_seqs=64 --fix plan.rollout.dispatch=balanced"

# listed FILE: the rows the ranking lists (feasible, within, whole window), in order
listed() {
    # the CSV opens with '#' lines (docs/cli.md, "What made a file")
    awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
             $c["feasible"] == "true" && $c["within"] == "true" && $c["simulated_iterations"] == 4' "$1"
}
# get FILE ROW COLUMN: a cell of a listed table (ROW 1: the first data row)
get() { awk -F, -v r="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == r + 1 { print $c[n]; exit }' "$1"; }

# --- devices: up as well as down
# shellcheck disable=SC2086
"$F" plan $S $HOLD --objective devices --target 1e9 --quiet --csv "$T/all.csv" 2>"$T/err"; st=$?
[ $st -eq 1 ] && grep -q "no cluster searched reaches" "$T/err" && ok \
    || bad "an unreachable target: status $st (want 1), stderr: $(head -2 "$T/err")"
listed "$T/all.csv" > "$T/all.listed"
best_own=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $c["devices"] <= 8 && $c["throughput_tokens_per_s"] > b { b = $c["throughput_tokens_per_s"] } END { print b + 0 }' "$T/all.listed")
best_big=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $c["devices"] > 8 && $c["throughput_tokens_per_s"] > b { b = $c["throughput_tokens_per_s"] } END { print b + 0 }' "$T/all.listed")
maxdev=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["feasible"] == "true" && $c["devices"] > m { m = $c["devices"] } END { print m + 0 }' "$T/all.csv")
[ "$maxdev" -eq 64 ] && ok || bad "the largest cluster simulated has $maxdev devices, want 64 (8x the scenario's 8)"
echo "plan_cost: best 8-device plan $best_own tokens/s, best larger $best_big"
if awk -v a="$best_own" -v b="$best_big" 'BEGIN { exit !(b > 1.02 * a && a > 0) }'; then
    target=$(awk -v a="$best_own" -v b="$best_big" 'BEGIN { printf "%.0f", (a + b) / 2 }')
    # shellcheck disable=SC2086
    "$F" plan $S $HOLD --objective devices --target "$target" --quiet --csv "$T/up.csv" 2>"$T/err"; st=$?
    [ $st -eq 0 ] && ok || bad "target $target: status $st: $(head -2 "$T/err")"
    listed "$T/up.csv" > "$T/up.listed"
    d=$(get "$T/up.listed" 1 devices) m=$(get "$T/up.listed" 1 meets_target) tp=$(get "$T/up.listed" 1 throughput_tokens_per_s)
    [ "$d" -gt 8 ] && [ "$m" = true ] && awk -v a="$tp" -v b="$target" 'BEGIN { exit !(a >= b) }' && ok \
        || bad "target $target: #1 has $d devices, meets_target $m, $tp tokens/s"
    # the smallest that reaches it: no listed row with fewer devices meets it
    awk -F, -v d="$d" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                       $c["meets_target"] == "true" && $c["devices"] < d { exit 1 }' "$T/up.listed" && ok \
        || bad "target $target: a smaller cluster than #1's $d devices meets it"
    # shellcheck disable=SC2086
    "$F" plan $S $HOLD --objective devices --target "$target" > "$T/up.txt" 2>/dev/null
    grep -q "clusters of 1,2,4,8,16 nodes (4 to 64 devices" "$T/up.txt" && ok || bad "the header does not say the range searched"
    # the scenario's own size only: out of reach, said plainly
    # shellcheck disable=SC2086
    "$F" plan $S $HOLD --objective devices --target "$target" --max-scale 1 > "$T/one.txt" 2>&1; st=$?
    [ $st -eq 1 ] && grep -q "^No cluster searched reaches $target tokens/s; searched: clusters of 1,2 nodes" "$T/one.txt" && ok \
        || bad "--max-scale 1, target $target: status $st: $(grep -i 'no cluster' "$T/one.txt")"
else
    bad "no larger cluster beats the 8-device best by 2% ($best_own, $best_big): the test has no target to set"
fi

# --- cost: devices x step hours x price (+ nodes x step hours x node price)
# shellcheck disable=SC2086
"$F" plan $S $HOLD --objective cost --price 2 --host-price 3 --steps 50 --quiet --csv "$T/cost.csv" 2>"$T/err" && ok \
    || bad "--objective cost: $(head -2 "$T/err")"
if awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["feasible"] == "true" {
            n++; d = $c["devices"]; st = $c["step_time_s"]; nodes = d / 4
            e[1] = d * st / 3600;                    g[1] = $c["device_hours_per_step"]
            e[2] = d * st * 50 / 3600;               g[2] = $c["device_hours_per_run"]
            e[3] = (d * 2 + nodes * 3) * st / 3600;  g[3] = $c["cost_per_step"]
            e[4] = e[3] * 50;                        g[4] = $c["cost_per_run"]
            e[5] = st * 50;                          g[5] = $c["time_to_steps_s"]
            for (k = 1; k <= 5; k++) { x = e[k] - g[k]; if (x < 0) x = -x; if (!(e[k] > 0) || x > 1e-6 * e[k]) { print "row " NR " figure " k ": " g[k] " != " e[k]; exit 1 } }
        }
        END { if (n < 10) { print "only " n " feasible rows"; exit 1 } }' "$T/cost.csv" > "$T/out"; then ok
else bad "cost columns: $(cat "$T/out")"; fi
listed "$T/cost.csv" > "$T/cost.listed"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         NR == 2 { b = $c["cost_per_run"]; next } $c["cost_per_run"] < b * (1 - 1e-9) { print "row " NR " costs " $c["cost_per_run"] " < #1 " b; exit 1 }' \
    "$T/cost.listed" > "$T/out" && ok || bad "--objective cost: #1 is not the cheapest listed: $(cat "$T/out")"
sizes=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { s[$c["devices"]] = 1 } END { for (k in s) n++; print n + 0 }' "$T/cost.csv")
[ "$sizes" -ge 3 ] && ok || bad "--objective cost simulated $sizes cluster sizes, want several"
# shellcheck disable=SC2086
"$F" plan $S $HOLD --objective cost --price 2 --host-price 3 --steps 50 --top 3 > "$T/cost.txt" 2>/dev/null
grep -q "price: 2 per device-hour + 3 per node-hour" "$T/cost.txt" && grep -q "a run: 50 steps" "$T/cost.txt" && ok \
    || bad "the header does not say what the price assumes"

# --- time: step time x steps; with response growth, the steps' grown sum
# shellcheck disable=SC2086
"$F" plan $S $HOLD --objective time --steps 30 --set workload.response_growth=0.01 --quiet --csv "$T/time.csv" 2>"$T/err" && ok \
    || bad "--objective time: $(head -2 "$T/err")"
listed "$T/time.csv" > "$T/time.listed"
# the window simulated: batches 1..3 of 4 (one warm-up); 30 steps: batches 0..29
if awk -F, 'BEGIN { for (b = 1; b < 4; b++) w += 1.01 ^ b; w /= 3; for (b = 0; b < 30; b++) a += 1.01 ^ b; f = a / w }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { e = $c["step_time_s"] * f; g = $c["time_to_steps_s"]; x = e - g; if (x < 0) x = -x
          if (x > 1e-6 * e) { print "row " NR ": " g " != " e; exit 1 }
          if (NR > 2 && g < first * (1 - 1e-9)) { print "row " NR " takes " g " < #1 " first; exit 1 }
          if (NR == 2) first = g }' "$T/time.listed" > "$T/out"; then ok
else bad "--objective time: $(cat "$T/out")"; fi
n=$(($(wc -l < "$T/time.listed") - 1))
[ "$n" -ge 3 ] && ok || bad "--objective time lists $n rows"

# --- bad options: status 2, the option named
"$F" plan $S --objective cost >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--price" "$T/err" && ok || bad "--objective cost without --price: status $st"
"$F" plan $S --price -1 >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--price" "$T/err" && ok || bad "--price -1: status $st"
"$F" plan $S --max-scale 4 >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--max-scale" "$T/err" && ok || bad "--max-scale without devices or cost: status $st"
"$F" plan $S --objective speed >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q "cost, time" "$T/err" && ok || bad "--objective speed: status $st"

echo "plan_cost: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
