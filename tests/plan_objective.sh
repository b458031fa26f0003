#!/bin/sh
# The off-policy price, typed prices and calibrated intervals of `fusync
# plan` (docs/cli.md, `fusync plan`: "Off-policy price", "Cost and time",
# "Intervals"):
#   - --objective effective: every listed row's effective_tokens_per_s is
#     its throughput times the mean of 1/(1 + C lag) over the samples of its
#     lag histogram, recomputed here from `fusync run` of the row's own
#     command; a row with lag > 0 scores below its throughput; with
#     --lag-cost 0 the listed order is the throughput ranking's;
#   - --price NAME=PRICE,... on the H20/H100 example: cost per run is
#     (16 x H20 price + 16 x H100 price) x run hours; an unknown or missing
#     type is an error naming --price, status 2;
#   - a calibrated scenario (fusync calibrate --out): the top 3 listed rows
#     and the baseline carry interval_source calibration, lower rows none,
#     and the #1-against-#2 line names the calibration.
# FUSYNC names the binary.  Nothing is pinned: figures come from the runs.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-pobj.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plan_objective: FAIL: $*" >&2; }
S=tests/data/plan/small.lua
HOLD="--fix plan.train.micro_batch=1 --fix plan.rollout.max_seqs=64 --fix plan.rollout.dispatch=balanced"

listed() {      # FILE ITERATIONS: the rows the ranking lists, in order
    # the CSV opens with '#' lines (docs/cli.md, "What made a file")
    awk -F, -v it="$2" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
             $c["feasible"] == "true" && $c["within"] == "true" && $c["simulated_iterations"] == it' "$1"
}
get() { awk -F, -v r="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == r + 1 { print $c[n]; exit }' "$1"; }
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[n] }' "$1"; }

# --- the effective objective
# shellcheck disable=SC2086
"$F" plan $S $HOLD --objective effective --lag-cost 0.5 --top 40 --quiet --csv "$T/eff.csv" 2>"$T/err" \
    || bad "plan --objective effective: $(head -2 "$T/err")"
listed "$T/eff.csv" 4 > "$T/eff.l"
n=$(($(wc -l < "$T/eff.l") - 1))
[ "$n" -ge 3 ] && ok || bad "effective: only $n listed rows"
# scores in order, each the effective figure; lag > 0 below the throughput
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { s = $c["score"]; e = $c["effective_tokens_per_s"]; t = $c["throughput_tokens_per_s"]; m = $c["staleness_mean"]
           if (NR > 2 && s > p * (1 + 1e-9)) { print "row " NR - 1 " scores above the row before"; exit 1 }
           if (s != e) { print "row " NR - 1 ": score " s " is not its effective " e; exit 1 }
           if (m > 0 && !(e < t)) { print "row " NR - 1 ": lag " m " but effective " e " >= throughput " t; exit 1 }
           if (m == 0 && e != t) { print "row " NR - 1 ": no lag but effective " e " != " t; exit 1 }
           p = s; if (m > 0) lagged++ }
         END { if (!lagged) { print "no listed row has lag > 0"; exit 1 } }' "$T/eff.l" > "$T/why" && ok || bad "effective: $(cat "$T/why")"
# the formula, from the row's own run: its lag histogram
r=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["staleness_mean"] > 0 { print NR - 1; exit }' "$T/eff.l")
if [ -n "$r" ]; then
    cmd=$(get "$T/eff.l" "$r" run_with) tput=$(get "$T/eff.l" "$r" throughput_tokens_per_s) eff=$(get "$T/eff.l" "$r" effective_tokens_per_s)
    # shellcheck disable=SC2086
    eval "\"\$F\" ${cmd#fusync } --json -" > "$T/run.json" 2>"$T/err" || bad "the row's command failed: $cmd"
    awk -v t="$tput" -v e="$eff" -v c=0.5 '
        /"histogram": \[/ { h = 1; k = 0; next }
        h && /\]/ { h = 0 }
        h { v = $1; sub(/,/, "", v); n += v; w += v / (1 + c * k); k++ }
        END { want = t * w / n; if (n == 0 || (want - e) ^ 2 > (1e-6 * want) ^ 2) { printf "want %.6g = %.6g x %.6g, got %.6g\n", want, t, w / n, e; exit 1 } }' \
        "$T/run.json" > "$T/why" && ok || bad "effective of row $r against its histogram: $(cat "$T/why")"
else bad "no lagged row to check the formula on"; fi
# C = 0: the throughput ranking
# shellcheck disable=SC2086
"$F" plan $S $HOLD --objective effective --lag-cost 0 --top 40 --quiet --csv "$T/e0.csv" 2>/dev/null
# shellcheck disable=SC2086
"$F" plan $S $HOLD --top 40 --quiet --csv "$T/tp.csv" 2>/dev/null
listed "$T/e0.csv" 4 | col /dev/stdin run_with > "$T/e0.order"
listed "$T/tp.csv" 4 | col /dev/stdin run_with > "$T/tp.order"
[ -s "$T/tp.order" ] && cmp -s "$T/e0.order" "$T/tp.order" && ok || bad "--lag-cost 0 does not rank as throughput"
# a positive cost changes the order or keeps it, but never ranks a row by its raw throughput when it lags
"$F" plan $S --lag-cost -1 --quiet --csv "$T/x.csv" 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--lag-cost" "$T/err" && ok || bad "--lag-cost -1: status $st"

# --- prices per device type
H=examples/hetero_h20_rollout_h100_train.lua
HH="--fix plan.train.micro_batch=2 --fix plan.rollout.max_seqs=256 --fix plan.rollout.dispatch=balanced --fix plan.train.tp=2 --staleness 1"
# shellcheck disable=SC2086
"$F" plan $H $HH --price h20=1.2,h100=2.5 --top 5 --quiet --csv "$T/h.csv" 2>"$T/err" || bad "typed prices: $(head -2 "$T/err")"
listed "$T/h.csv" 5 > "$T/h.l"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { n++; want = (16 * 1.2 + 16 * 2.5) * $c["time_to_steps_s"] / 3600; got = $c["cost_per_run"]
           if ((want - got) ^ 2 > (1e-4 * want) ^ 2) { print "row " n ": cost " got ", want " want; exit 1 }
           if ($c["device_prices"] != "h20=1.2 h100=2.5") { print "row " n ": device_prices " $c["device_prices"]; exit 1 } }
         END { if (!n) { print "no listed row"; exit 1 } }' "$T/h.l" > "$T/why" && ok || bad "typed cost: $(cat "$T/why")"
"$F" plan $H --price h100=2.5 --quiet 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--price.*h20" "$T/err" && ok || bad "a missing type: status $st: $(cat "$T/err")"
"$F" plan $H --price h21=2.5 --quiet 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--price.*h21" "$T/err" && ok || bad "an unknown type: status $st: $(cat "$T/err")"

# --- calibrated intervals on the listed rows
EX=$(pwd)/examples
"$F" calibrate "$EX/qwen7b_h100x16.lua" "$EX/measured_qwen7b.csv" --out "$T/cal.lua" --quiet >"$T/cal.txt" 2>&1 \
    || bad "calibrate: $(cat "$T/cal.txt")"
QH="--fix plan.train.micro_batch=2 --fix plan.rollout.max_seqs=256 --fix plan.rollout.dispatch=balanced --fix plan.train.tp=2 --staleness 1 --mode separate"
# shellcheck disable=SC2086
"$F" plan "$T/cal.lua" --data-dir "$EX" $QH --top 6 --csv "$T/c.csv" > "$T/c.txt" 2>"$T/err" || bad "calibrated plan: $(head -2 "$T/err")"
it=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["mode"] == "baseline" { print $c["simulated_iterations"]; exit }' "$T/c.csv")
listed "$T/c.csv" "$it" > "$T/c.l"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         { n++; s = $c["interval_source"]
           if (n <= 3 && (s != "calibration" || !($c["interval_tput_lo"] < $c["interval_tput_hi"]))) { print "row " n ": source " s; exit 1 }
           if (n > 3 && s == "calibration" && $c["mode"] != "baseline") { print "row " n " (below the top 3) re-simulated"; exit 1 } }
         END { if (n < 4) { print "only " n " listed rows"; exit 1 } }' "$T/c.l" > "$T/why" && ok || bad "calibrated rows: $(cat "$T/why")"
# the baseline's row (its CSV "outside" cell holds a comma: read the text)
grep -Eq '^  [-(][0-9)]* *baseline .* c$' "$T/c.txt" && ok || bad "the baseline has no calibrated interval: $(grep baseline "$T/c.txt" | head -1)"
grep -q "beyond the interval (calibration" "$T/c.txt" && ok || bad "the #1 against #2 line does not use the calibration: $(grep 'beyond' "$T/c.txt")"

echo "plan_objective: $pass passed, $fail failed"
[ $fail -eq 0 ]
