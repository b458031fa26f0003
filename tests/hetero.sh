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
#     Reproduce line giving its printed figure.
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
grep -q "of 96.0 GiB" "$T/check.txt" && grep -q "of 80.0 GiB" "$T/check.txt" && ok \
    || bad "check does not show each pool's own HBM (96 and 80 GiB)"
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

echo "hetero: $pass passed, $fail failed"
[ $fail -eq 0 ]
