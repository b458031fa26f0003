#!/bin/sh
# Constraints as limits (docs/cli.md, `fusync plan`, "Constraints"): on a
# space small enough to sweep exhaustively (tests/data/plan/small.lua: 8
# devices, the micro-batch, sequences per instance and dispatch held), each
# constraint must
#   - list only rows inside it (mode, staleness, the held field), the
#     baseline aside;
#   - give a #1 within 1% of the best feasible row of `fusync sweep` over the
#     same space (the planner's own axes, written out as a what-if);
#   - print Reproduce lines that set each searched field once;
#   - give rows whose run_with reproduces their printed figure to 0.1%.
# FUSYNC names the binary.  Figures come from the runs; nothing is pinned.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-limits.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plan_limits: FAIL: $*" >&2; }
S=tests/data/plan/small.lua
HOLD="--fix plan.train.micro_batch=1 --fix plan.rollout.max_seqs=64 --fix plan.rollout.dispatch=balanced"
SWEEP_HOLD="--set plan.train.micro_batch=1 --set plan.rollout.max_seqs=64 --set plan.rollout.dispatch=balanced"

# col FILE NAME: the column number of NAME in a CSV header
# the CSV's first line that is not a '#' line is its header (docs/cli.md, "What made a file")
col() { grep -v '^#' "$1" | head -1 | tr , '\n' | grep -nx "$2" | cut -d: -f1; }

# check NAME "PLAN OPTIONS" "SWEEP OPTIONS" WHATIF AWK-FILTER-OF-SWEEP-ROWS AWK-TEST-OF-PLAN-ROWS
check() {
    name=$1 popts=$2 sopts=$3 whatif=$4 sfilter=$5 ptest=$6
    # shellcheck disable=SC2086
    if ! "$F" plan $S $HOLD $popts --quiet --csv "$T/$name.plan.csv" 2>"$T/err"; then
        bad "$name: fusync plan $popts failed: $(head -3 "$T/err")"; return
    fi
    # shellcheck disable=SC2086
    "$F" plan $S $HOLD $popts --top 40 > "$T/$name.txt" 2>/dev/null
    printf '%s\n' "$whatif" > "$T/$name.whatif.lua"
    # shellcheck disable=SC2086
    if ! "$F" sweep $S "$T/$name.whatif.lua" $SWEEP_HOLD $sopts --quiet --csv "$T/$name.sweep.csv" 2>"$T/err"; then
        bad "$name: fusync sweep failed: $(head -3 "$T/err")"; return
    fi
    P=$T/$name.plan.csv
    fe=$(col "$P" feasible) wi=$(col "$P" within) it=$(col "$P" simulated_iterations) tp=$(col "$P" throughput_tokens_per_s)
    mo=$(col "$P" mode)
    # the listed rows: feasible, within, the whole window, not the baseline
    awk -F, -v fe="$fe" -v wi="$wi" -v it="$it" -v mo="$mo" '!/^#/ && !h++ { next } !/^#/ && $fe == "true" && $wi == "true" && $it == 4 && $mo != "baseline"' "$P" > "$T/$name.listed"
    n=$(wc -l < "$T/$name.listed")
    [ "$n" -ge 1 ] && ok || { bad "$name: no row listed"; return; }
    # every listed row inside the constraint
    h=$(grep -v '^#' "$P" | head -1)
    if awk -F, -v h="$h" 'BEGIN { n = split(h, H, ","); for (i = 1; i <= n; i++) c[H[i]] = i }
                          { if (!('"$ptest"')) { print "row " NR ": " $0; exit 1 } }' "$T/$name.listed" >"$T/out"; then ok
    else bad "$name: a listed row breaks the constraint: $(cut -c1-200 "$T/out")"; fi
    best_plan=$(head -1 "$T/$name.listed" | cut -d, -f"$tp")
    W=$T/$name.sweep.csv
    h=$(grep -v '^#' "$W" | head -1)
    best_sweep=$(awk -F, -v h="$h" 'BEGIN { n = split(h, H, ","); for (i = 1; i <= n; i++) c[H[i]] = i; b = 0 }
                    /^#/ { next } !h++ { next } $c["feasible"] == "true" && ('"$sfilter"') && $c["throughput_tokens_per_s"] > b { b = $c["throughput_tokens_per_s"] }
                    END { print b }' "$W")
    echo "plan_limits: $name: planner #1 $best_plan tokens/s, exhaustive sweep best $best_sweep ($(($(grep -vc '^#' "$W") - 1)) variants)"
    awk -v a="$best_plan" -v b="$best_sweep" 'BEGIN { exit !(b > 0 && a >= 0.99 * b) }' && ok \
        || bad "$name: planner #1 $best_plan is not within 1% of the sweep's best $best_sweep"
    # Reproduce lines: no searched field set twice
    if grep '^  #[0-9]*: fusync run' "$T/$name.txt" | awk '{
            delete seen
            for (i = 1; i <= NF; i++) {
                k = ""
                if ($i == "--staleness" || $i == "--mode") k = $i
                else if ($i == "--set") { split($(i + 1), kv, "="); k = kv[1] }
                if (k == "") continue
                if (k == "--staleness") k = "plan.staleness"
                if (k == "--mode") k = "plan.mode"
                if (k in seen) { print "twice: " k ": " $0; exit 1 }
                seen[k] = 1
            }
        }' > "$T/out"; then ok; else bad "$name: a Reproduce line sets a field twice: $(cut -c1-300 "$T/out")"; fi
    # every listed row's command reproduces its figure to 0.1% (and the top
    # 3 exactly, as their window is the run's)
    rw=$(col "$P" run_with)
    k=0
    while IFS= read -r line; do
        k=$((k + 1)); [ $k -le 6 ] || break
        fig=$(printf '%s\n' "$line" | cut -d, -f"$tp")
        cmd=$(printf '%s\n' "$line" | cut -d, -f"$rw"-)
        args=${cmd#fusync run }
        # shellcheck disable=SC2086  # run_with is words without quoting here
        if ! eval "\"\$F\" run $args --quiet --json \"\$T/r.json\"" 2>"$T/err"; then bad "$name: run_with failed: $cmd"; continue; fi
        got=$(sed -n 's/^ *"throughput_tokens_per_s": \([-0-9.eE+]*\),*$/\1/p' "$T/r.json" | head -1)
        awk -v a="$fig" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-3 * a) }' && ok \
            || bad "$name: run_with gives $got, the row says $fig: $cmd"
    done < "$T/$name.listed"
}

# on-policy, separate pools only: every pool split (inside a node too)
check sync_separate "--mode separate --staleness 0" "--mode separate --staleness 0 --set plan.partial_rollout=1" \
    'return { vary = { {"plan.rollout_devices", {2,3,4,5,6}}, {"plan.train.tp", {1,2,4}}, {"plan.train.pp", {1,2,4}}, {"plan.rollout.tp", {1,2,4}} } }' \
    '1' '$c["mode"] == "separate" && $c["staleness"] == 0'
# one device pool for everything, bounds up to 1 with partial rollouts down to 0.8
check full_stale1 "--mode full --staleness 1 --partial-rollout 0.8" "--mode full" \
    'return { vary = { {"plan.staleness", {0,1}}, {"plan.partial_rollout", {1,0.8}}, {"plan.train.tp", {1,2,4}}, {"plan.train.pp", {1,2,4}}, {"plan.rollout.tp", {1,2,4}} } }' \
    '$c["plan.staleness"] > 0 || $c["plan.partial_rollout"] == 1' \
    '$c["mode"] == "full" && $c["staleness"] <= 1 && $c["partial_rollout"] >= 0.8'
# a held training TP
check fix_tp "--mode full --staleness 0 --fix plan.train.tp=2" "--mode full --staleness 0 --set plan.train.tp=2 --set plan.partial_rollout=1" \
    'return { vary = { {"plan.train.pp", {1,2,4}}, {"plan.rollout.tp", {1,2,4}} } }' \
    '1' '$c["train_tp"] == 2 && $c["staleness"] == 0'

# what one framework runs (fusync export's rules): verl's main_ppo is the
# hybrid engine (full co-location) and synchronous
check framework_verl "--framework verl" "--mode full --staleness 0 --set plan.partial_rollout=1" \
    'return { vary = { {"plan.train.tp", {1,2,4}}, {"plan.train.pp", {1,2,4}}, {"plan.rollout.tp", {1,2,4}} } }' \
    '1' '$c["mode"] == "full" && $c["staleness"] == 0'
# each listed row's arguments are the framework's settings: export takes them
"$F" plan $S $HOLD --framework verl --top 3 > "$T/fw.txt" 2>/dev/null
n=0
for args in $(grep '^      fusync export verl ' "$T/fw.txt" | sed 's/^      fusync export verl //; s/ /@/g'); do
    n=$((n + 1))
    # shellcheck disable=SC2046
    "$F" export verl $(echo "$args" | tr @ ' ') >/dev/null 2>"$T/err" && ok || bad "--framework verl: row $n does not export: $(head -2 "$T/err")"
done
[ "$n" -eq 3 ] && ok || bad "--framework verl: $n export lines, want 3"
grep -q "searched: only what verl runs" "$T/fw.txt" && ok || bad "--framework verl: the header does not say what was searched"
# a scenario the framework cannot run whatever the search sets: status 2, the field named
"$F" plan $S --framework openrlhf >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q 'cannot run the scenario.*plan.train.recompute' "$T/err" && ok || bad "--framework openrlhf: status $st: $(cat "$T/err")"
"$F" plan $S --framework torchtitan >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--framework torchtitan" "$T/err" && ok || bad "--framework torchtitan: status $st"

# a bad constraint: status 2 and the option named
"$F" plan $S --fix plan.train.tp=x >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q -- "--fix plan.train.tp=x" "$T/err" && ok || bad "--fix plan.train.tp=x: status $st: $(cat "$T/err")"
"$F" plan $S --fix plan.pools.1.devices=4 >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && grep -q "candidates()" "$T/err" && ok || bad "--fix plan.pools: status $st: $(cat "$T/err")"
"$F" plan $S --partial-rollout 0 >/dev/null 2>"$T/err"; st=$?
[ $st -eq 2 ] && ok || bad "--partial-rollout 0: status $st"

echo "plan_limits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
