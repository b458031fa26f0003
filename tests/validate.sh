#!/bin/sh
# scripts/validate.sh judges rows (the full table runs in `make validate`):
#   - a row inside its tolerance passes (exit 0) and prints its error;
#   - a row outside its tolerance exits 1 and is marked;
#   - a row whose run fails (unknown field, a plan that does not fit) exits 2
#     and says why;
#   - scripts/validate-fit.sh finds a knob that hits its target.
# Needs $FUSYNC.  Prints one summary line; exits non-zero on failure.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-validate.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "validate: FAIL: $*" >&2; }
expect() { # expect STATUS PATTERN ROWS-FILE
    out=$(ROWS=$3 FUSYNC=$F sh scripts/validate.sh 2>&1)
    got=$?
    if [ "$got" -ne "$1" ]; then bad "rows $3 -> status $got, want $1: $(echo "$out" | tail -3)"; return; fi
    printf '%s' "$out" | grep -q -- "$2" || { bad "rows $3 -> output lacks '$2': $(echo "$out" | tail -3)"; return; }
    ok
}
S=nemorl_llama8b_h100x16.lua
echo "t | calibrated | $S | step_time_s | 92.8 | 2 | calibrated |" >"$T/in.txt"
expect 0 "1 within tolerance" "$T/in.txt"
echo "t | too fast    | $S | step_time_s | 50 | 10 | predicted |" >"$T/out.txt"
expect 1 "OUT OF TOLERANCE" "$T/out.txt"
echo "t | broken      | $S | step_time_s | 50 | 10 | predicted | --set plan.train.tpp=2" >"$T/bad.txt"
expect 2 "unknown field" "$T/bad.txt"
echo "t | no room     | $S | step_time_s | 50 | 10 | predicted | --set cluster.device.hbm_gb=10" >"$T/nofit.txt"
expect 2 "infeasible: device memory" "$T/nofit.txt"
out=$(FUSYNC=$F sh scripts/validate-fit.sh "examples/validation/$S" efficiency.train 0.1 0.95 step_time_s 100 2>&1)
case $out in *"-> step_time_s 99.99"*|*"-> step_time_s 100.00"*) ok ;; *) bad "validate-fit: $out" ;; esac

# the README's accuracy sentence is the whole table's summary today
out=$(FUSYNC=$F sh scripts/validate.sh 2>/dev/null | grep '^validate: .* predicted rows: median')
med=$(printf '%s' "$out" | sed -n 's/.*median |error| \([0-9.]*\)%, max \([0-9.]*\)%.*/\1 \2/p')
set -- $med
grep -qF "miss by a median of ${1:-?}% and at most ${2:-?}%" README.md && ok \
    || bad "README's accuracy sentence is not make validate's ($out)"
out=$(FUSYNC=$F sh scripts/validate-feasibility.sh 2>/dev/null | tail -1)
fits=$(grep -c '| fits |' examples/validation/feasibility/rows.txt)
ooms=$(grep -c '| oom  *|' examples/validation/feasibility/rows.txt)
agree=$(printf '%s' "$out" | sed -n 's/.* \([0-9]*\) agree.*/\1/p')
grep -qF "yes to all $fits published" README.md && grep -qF "of $ooms published" README.md \
    && grep -qF "calls $((agree - fits)) out of memory" README.md && ok \
    || bad "README's feasibility sentence is not the table's ($out; $fits ran, $ooms reports)"

# FP8 rollouts on the calibrated NeMo RL Llama-8B system: the step times
# docs/validation.md prints ("Gathered but not in the table", NeMo RL FP8)
for w in "bf16 bf16 93.9 52.2" "fp8 bf16 83.3 41.6" "fp8 fp8 80.0 -"; do
    set -- $w
    "$F" run "examples/validation/$S" --set plan.rollout.weights_dtype=$1 --set plan.rollout.kv_dtype=$2 --json "$T/f8.json" >/dev/null 2>&1 ||
        { bad "fp8 check $1/$2: run failed"; continue; }
    got=$(sed -n 's/^ *"step_time_s": *\([0-9.]*\),*$/\1/p' "$T/f8.json" | head -1)
    gen=$(sed -n 's/^ *"generate": *\([0-9.]*\),*$/\1/p' "$T/f8.json" | head -1)
    [ "$(printf '%.1f' "$got")" = "$3" ] && ok || bad "fp8 check $1/$2: step $got s, docs print $3"
    [ "$4" = - ] || { [ "$(printf '%.1f' "$gen")" = "$4" ] && ok || bad "fp8 check $1/$2: generate $gen s, docs print $4"; }
done

echo "validate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
