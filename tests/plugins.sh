#!/bin/sh
# Plugin, sweep, merge and planner tests from the command line:
#   - the shipped policies and what-if examples run;
#   - a sweep gives the same bytes with --jobs 1 and 3, and its shards merged
#     give the unsharded CSV and JSON byte for byte (also for plan);
#   - merge refuses missing, duplicate, broken and foreign shards (exit 2,
#     naming them) and writes nothing;
#   - a variant that is invalid is a row (feasible=false, the reason);
#   - plugin errors reach the user with FILE:LINE and exit 2;
#   - the GNU parallel path (scripts/parallel-sweep.sh) where parallel exists.
# Needs $FUSYNC.  Prints one summary line; exits non-zero on failure.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
R=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-plugins.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plugins: FAIL: $*" >&2; }
expect() { # expect STATUS PATTERN command...
    want=$1 pat=$2
    shift 2
    out=$("$@" 2>&1)
    got=$?
    if [ "$got" -ne "$want" ]; then bad "$* -> status $got, want $want: $(echo "$out" | head -3)"; return; fi
    if [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; then
        bad "$* -> output lacks '$pat': $(echo "$out" | head -3)"; return
    fi
    ok
}
same() { # same DESCRIPTION FILE1 FILE2
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; fi
}
Q=examples/qwen7b_h100x16.lua
W=examples/whatif_staleness.lua
IT="--set workload.iterations=3"

# --- policies and examples ---------------------------------------------------------
for p in separate_ratio colocate full_colocate stalesync_hybrid; do
    expect 0 "Throughput" "$F" run $Q --policy plugins/$p.lua $IT
    expect 0 "Memory fit: fits" "$F" check examples/pangu718b_cm384.lua --policy plugins/$p.lua
done
expect 0 "pool gen " "$F" check $Q --policy plugins/stalesync_hybrid.lua
expect 0 "roles rollout$" "$F" check $Q --policy plugins/separate_ratio.lua
expect 0 "" "$F" sweep $Q $W $IT --csv "$T/w1.csv" --quiet
expect 0 "" "$F" sweep examples/pangu718b_cm384.lua examples/whatif_scaling.lua --set workload.iterations=3 --jobs 2 --csv "$T/scale.csv" --quiet
[ "$(wc -l < "$T/scale.csv")" -eq 9 ] && ok || bad "whatif_scaling: expected 8 rows"
grep -q "^7,8 supernode stalesync,8," "$T/scale.csv" && ok || bad "whatif_scaling: row 7 is not 8 supernodes, stalesync"

# --- determinism: jobs and shards ------------------------------------------------
"$F" sweep $Q $W $IT --csv "$T/full.csv" --json "$T/full.json" --quiet
"$F" sweep $Q $W $IT --jobs 3 --csv "$T/j3.csv" --json "$T/j3.json" --quiet
same "sweep --jobs 3 CSV" "$T/full.csv" "$T/j3.csv"
same "sweep --jobs 3 JSON" "$T/full.json" "$T/j3.json"
for i in 1 2 3 4; do "$F" sweep $Q $W $IT --shard $i/4 --json "$T/s$i.json" --quiet; done
expect 0 "" "$F" merge "$T/s3.json" "$T/s1.json" "$T/s4.json" "$T/s2.json" --csv "$T/m.csv" --json "$T/m.json" --quiet
same "merged sweep CSV" "$T/full.csv" "$T/m.csv"
same "merged sweep JSON" "$T/full.json" "$T/m.json"
rows=0
for i in 1 2 3 4; do rows=$((rows + $(grep -c '^    {"id"' "$T/s$i.json"))); done
[ "$rows" -eq 9 ] && ok || bad "the shards hold $rows rows, not 9"

# --- merge refuses what would look complete but is not --------------------------
rm -f "$T/x.csv"
expect 2 "missing shard 2/4" "$F" merge "$T/s1.json" "$T/s3.json" "$T/s4.json" --csv "$T/x.csv"
expect 2 "duplicate shard 3/4" "$F" merge "$T/s1.json" "$T/s2.json" "$T/s3.json" "$T/s3.json" "$T/s4.json" --csv "$T/x.csv"
head -c 400 "$T/s2.json" > "$T/cut.json"
expect 2 "cut.json: broken" "$F" merge "$T/s1.json" "$T/cut.json" "$T/s3.json" "$T/s4.json" --csv "$T/x.csv"
"$F" sweep $Q $W --set workload.iterations=2 --shard 2/4 --json "$T/other.json" --quiet
expect 2 "not shards of the same run" "$F" merge "$T/s1.json" "$T/other.json" "$T/s3.json" "$T/s4.json" --csv "$T/x.csv"
expect 2 "not a shard" "$F" merge "$T/full.json" --csv "$T/x.csv"
[ ! -e "$T/x.csv" ] && ok || bad "merge wrote a table after refusing"

# --- a bad variant is a row, not a crash ----------------------------------------
printf 'return { vary = { ["plan.train.tp"] = {2, 3} } }\n' > "$T/badvar.lua"
expect 0 "" "$F" sweep $Q "$T/badvar.lua" $IT --csv "$T/bad.csv" --quiet
grep -q '^1,,3,false,.*does not divide' "$T/bad.csv" && ok || bad "an invalid variant is not a row with its reason"

# --- plugin errors --------------------------------------------------------------
printf 'function place(ctx)\n  while true do end\nend\n' > "$T/loop.lua"
expect 2 "loop.lua:2: the plugin ran more than" "$F" run $Q --policy "$T/loop.lua"
printf 'function place(ctx)\n  return io.open("/etc/passwd")\nend\n' > "$T/io.lua"
expect 2 "io.lua:2: io is not available in the sandbox" "$F" check $Q --policy "$T/io.lua"
printf 'return { vary = { ["plan.staleness"] = "x" } }\n' > "$T/wbad.lua"
expect 2 "wbad.lua" "$F" sweep $Q "$T/wbad.lua"
expect 2 "usage" "$F" sweep $Q

# --- the planner ----------------------------------------------------------------
expect 0 "Why #1 wins over #2" "$F" plan $Q --top 5
"$F" plan $Q --top 5 --json "$T/pf.json" --csv "$T/pf.csv" --quiet
"$F" plan $Q --top 5 --jobs 2 --json "$T/pj.json" --quiet
same "plan --jobs 2 JSON" "$T/pf.json" "$T/pj.json"
for i in 1 2 3; do "$F" plan $Q --top 5 --shard $i/3 --json "$T/p$i.json" --quiet; done
"$F" merge "$T/p2.json" "$T/p3.json" "$T/p1.json" --json "$T/pm.json" --csv "$T/pm.csv" > "$T/pm.txt"
same "merged plan JSON" "$T/pf.json" "$T/pm.json"
same "merged plan CSV" "$T/pf.csv" "$T/pm.csv"
grep -q "Run the best: fusync run" "$T/pm.txt" && ok || bad "merge of a plan does not print the ranking"
expect 0 "tokens-per-device" "$F" plan $Q --objective tokens-per-device --top 3
expect 0 "smallest cluster reaching" "$F" plan examples/pangu718b_cm384.lua --objective devices --target 20000 --top 3 --set cluster.supernodes=2 --set workload.iterations=3
printf 'function candidates(ctx) return { modes = {"full"}, staleness = {0} } end\nfunction score(ctx, r) return -r.step_time_s end\n' > "$T/narrow.lua"
"$F" plan $Q --policy "$T/narrow.lua" --json "$T/narrow.json" --quiet
grep -q '"mode": "separate"' "$T/narrow.json" && bad "candidates() did not narrow the modes" || ok

# --- GNU parallel --------------------------------------------------------------
if command -v parallel >/dev/null 2>&1; then
    "$F" sweep "$R/$Q" "$R/$W" $IT --csv "$T/abs.csv" --json "$T/abs.json" --quiet
    if FUSYNC="$F" sh scripts/parallel-sweep.sh "$R/$Q" "$R/$W" --shards 3 --out "$T/par" $IT >/dev/null 2>"$T/par.err"; then
        same "GNU parallel sweep CSV" "$T/abs.csv" "$T/par/sweep.csv"
        same "GNU parallel sweep JSON" "$T/abs.json" "$T/par/sweep.json"
    else
        bad "scripts/parallel-sweep.sh failed: $(head -3 "$T/par.err")"
    fi
else
    skipped=$((skipped + 1))
fi

echo "plugins: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
