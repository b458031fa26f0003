#!/bin/sh
# Heterogeneous pools (docs/model.md, section 2; docs/cluster.md, "Clusters
# of two device types"): the shipped example (16 H20 generating, 16 H100
# training) must
#   - run, and run slower with its rollout on a slower type (A100) and faster
#     than that with H100s, the training pool unchanged;
#   - pass `check`, which names the rollout pool's type and checks it against
#     the H20's 96 GiB, the training pool against the H100's 80 GiB;
#   - be refused, naming plan.rollout_device, when the types would share a
#     node or the mode co-locates;
#   - plan: only separate rows, the rollout pool's 16 devices held, and #1's
#     Reproduce line giving its printed figure;
#   - plan --objective devices on typed pools (plan.pools[i].device,
#     tests/data/plan/typed_pools.lua): the pools scale with the cluster, a
#     target the scenario's size misses is met by a larger cluster whose
#     run_with gives its figure, and an unreachable one is said (status 1).
# FUSYNC names the binary.  Figures come from the runs; nothing is pinned.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-hetero.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "hetero: FAIL: $*" >&2; }
EX=examples/hetero_h20_rollout_h100_train.lua

tokens_s() {  # tokens/s of `fusync run EX ARGS...` from its JSON
    "$F" run $EX "$@" --json "$T/r.json" >/dev/null 2>"$T/err" || { echo "ERR"; return; }
    sed -n "s/^ *\"throughput_tokens_per_s\": *\([0-9.e+]*\).*/\1/p" "$T/r.json" | head -1
}
h20=$(tokens_s)
a100=$(tokens_s --set plan.rollout_device=a100_80g)
h100=$(tokens_s --set plan.rollout_device=h100)
if [ "$h20" = ERR ] || [ -z "$h20" ]; then bad "run failed: $(head -3 "$T/err")"; else ok; fi
if awk -v a="$a100" -v b="$h20" -v c="$h100" 'BEGIN { exit !(a > 0 && a < b && a < c) }'; then ok
else bad "throughput A100 rollout $a100, H20 $h20, H100 $h100: the slower type should be slowest"; fi

if "$F" check $EX > "$T/check.txt" 2>"$T/err"; then ok; else bad "check failed: $(head -3 "$T/err")"; fi
grep -q "device    NVIDIA H20" "$T/check.txt" && ok || bad "check does not name the rollout pool's type"
grep -q "on 16 x NVIDIA H20 + 16 x NVIDIA H100 SXM" "$T/check.txt" && ok || bad "check's header does not count each type: $(head -1 "$T/check.txt")"
grep -q "of 96.0 GiB" "$T/check.txt" && grep -q "of 79.2 GiB" "$T/check.txt" && ok \
    || bad "check does not show each pool's own HBM (96 and 79.2 GiB, the H100 as CUDA reports it)"
grep -q "Memory fit: fits" "$T/check.txt" && ok || bad "the example does not fit"

for args in "--set plan.rollout_devices=12" "--mode colocate" "--mode full"; do
    # shellcheck disable=SC2086
    "$F" run $EX $args >/dev/null 2>"$T/err"; rc=$?
    if [ $rc -eq 2 ] && grep -q "plan.rollout_device" "$T/err"; then ok
    else bad "run $args: status $rc, want 2 naming plan.rollout_device: $(head -2 "$T/err")"; fi
done

if "$F" plan $EX --top 5 --jobs 1 > "$T/plan.txt" 2>"$T/err"; then ok; else bad "plan failed: $(head -3 "$T/err")"; fi
grep -q "plan.rollout_devices=16 held" "$T/plan.txt" && ok || bad "plan does not hold the rollout pool's 16 devices"
rows=$(awk '/^  #  /{on=1; next} on && /^  [0-9]/{print} on && /^$/{on=0}' "$T/plan.txt")
if [ -n "$rows" ] && ! printf '%s\n' "$rows" | awk '$2 != "separate" {bad=1} END {exit bad}'; then
    bad "plan lists rows that are not separate: $rows"
elif [ -n "$rows" ]; then ok; else bad "plan lists no rows"; fi
cmd=$(sed -n 's/^  #1: fusync run //p' "$T/plan.txt")
want=$(printf '%s\n' "$rows" | awk 'NR == 1 {for (i = 1; i <= NF; i++) if ($i ~ /k$/) {print $i; exit}}')
# shellcheck disable=SC2086
got=$("$F" run $cmd 2>/dev/null | sed -n 's/^Throughput *\([0-9.]*k\).*/\1/p')
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "#1 prints $want, its Reproduce line gives $got"; fi

# --- typed pools grow with the cluster
TP=tests/data/plan/typed_pools.lua
HOLD="--fix plan.train.micro_batch=1 --fix plan.rollout.max_seqs=64 --fix plan.rollout.dispatch=balanced"
# listed FILE: the rows the ranking lists (feasible, within, whole window), in order
listed() {
    awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
             $c["feasible"] == "true" && $c["within"] == "true" && $c["simulated_iterations"] == 4' "$1"
}
col() { awk -F, -v n="$2" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[n] }' "$1"; }
# shellcheck disable=SC2086
"$F" plan $TP $HOLD --objective devices --target 1e9 --quiet --csv "$T/tall.csv" 2>"$T/err"; st=$?
[ $st -eq 1 ] && grep -q "no cluster searched reaches" "$T/err" && ok \
    || bad "typed pools, an unreachable target: status $st (want 1): $(head -2 "$T/err")"
listed "$T/tall.csv" > "$T/tall.listed"
sizes=$(col "$T/tall.listed" devices | sort -n | uniq | tr '\n' ' ')
case "$sizes" in *16*32*) ok ;; *) bad "typed pools: listed sizes '$sizes', want clusters above the scenario's 8 devices" ;; esac
# every row's pools add up to its devices, each a whole node of 4
col "$T/tall.listed" pools > "$T/pools"; col "$T/tall.listed" devices > "$T/devs"
paste -d' ' "$T/pools" "$T/devs" | awk '{ s = 0; for (i = 1; i < NF; i++) { split($i, p, ":"); s += p[2]; if (p[2] % 4) bad = 1 } if (s != $NF) bad = 1 }
    END { exit bad }' && ok || bad "typed pools: a row whose pools do not fill its cluster in whole nodes: $(paste -d' ' "$T/pools" "$T/devs" | head -3)"
best_own=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $c["devices"] <= 8 && $c["throughput_tokens_per_s"] > b { b = $c["throughput_tokens_per_s"] } END { print b + 0 }' "$T/tall.listed")
best_big=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    $c["devices"] > 8 && $c["throughput_tokens_per_s"] > b { b = $c["throughput_tokens_per_s"] } END { print b + 0 }' "$T/tall.listed")
echo "hetero: typed pools, best 8-device plan $best_own tokens/s, best larger $best_big"
if awk -v a="$best_own" -v b="$best_big" 'BEGIN { exit !(b > 1.02 * a && a > 0) }'; then
    target=$(awk -v a="$best_own" -v b="$best_big" 'BEGIN { printf "%.0f", (a + b) / 2 }')
    # shellcheck disable=SC2086
    "$F" plan $TP $HOLD --objective devices --target "$target" --quiet --csv "$T/tup.csv" 2>"$T/err"; st=$?
    [ $st -eq 0 ] && ok || bad "typed pools, target $target: status $st: $(head -2 "$T/err")"
    listed "$T/tup.csv" > "$T/tup.listed"
    d=$(col "$T/tup.listed" devices | head -1) m=$(col "$T/tup.listed" meets_target | head -1)
    tp=$(col "$T/tup.listed" throughput_tokens_per_s | head -1)
    [ "${d:-0}" -gt 8 ] && [ "$m" = true ] && ok || bad "typed pools, target $target: #1 has $d devices, meets_target $m"
    # its command: the larger cluster in the scenario's own field (cluster.nodes), the pools scaled
    cmd=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) if ($i == "run_with") k = i; next } { print $k; exit }' "$T/tup.listed")
    case "$cmd" in *"--set cluster.nodes="*) ok ;; *) bad "typed pools: #1's command does not size the cluster: $cmd" ;; esac
    # shellcheck disable=SC2086
    "$F" run ${cmd#fusync run } --json "$T/tup.json" >/dev/null 2>"$T/err" || bad "typed pools: #1's command fails: $(head -2 "$T/err")"
    got=$(sed -n "s/^ *\"throughput_tokens_per_s\": *\([0-9.e+]*\).*/\1/p" "$T/tup.json" | head -1)
    awk -v a="$got" -v b="$tp" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.001 * b) }' && ok \
        || bad "typed pools: #1 prints $tp tokens/s, its command gives $got"
    # shellcheck disable=SC2086
    "$F" plan $TP $HOLD --objective devices --target "$target" > "$T/tup.txt" 2>/dev/null
    grep -q "the pools scaled with it (not at 1)" "$T/tup.txt" && ok || bad "typed pools: the header does not say the pools scale"
else
    bad "typed pools: no larger cluster beats the scenario's by 2% ($best_own vs $best_big): nothing to grow to"
fi

echo "hetero: $pass passed, $fail failed"
[ $fail -eq 0 ]
