#!/bin/sh
# Plugin, sweep, merge and planner tests from the command line:
#   - the shipped policies and what-if examples run; a spread pool is placed on
#     every supernode and candidates() pool shapes with placements are searched;
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
# whatif_staleness.lua: 3 x 3 variants in grid order, each row what the model
# promises (docs/model.md, section 4): the bound is the row's plan.staleness
# and no trained sample is staler; at s = 0 the partial-rollout threshold
# changes nothing (a batch waits for the previous step's training anyway);
# the StaleSync corner (s 2, threshold 0.6) beats the synchronous one.
awk -F, '
/^#/ { next }   # the CSV opens with its version and scenario (docs/cli.md, "What made a file")
!h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
    n++
    s = $c["plan.staleness"]; p = $c["plan.partial_rollout"]
    if (s != int((n - 1) / 3) || p != substr("1.0,0.8,0.6", 4 * ((n - 1) % 3) + 1, 3) + 0) { print "row " n ": s=" s " p=" p " out of grid order"; bad = 1 }
    if ($c["feasible"] != "true" || !($c["throughput_tokens_per_s"] > 0)) { print "row " n ": infeasible or no throughput"; bad = 1 }
    if ($c["staleness_bound"] != s || $c["staleness_max"] > s) { print "row " n ": bound " $c["staleness_bound"] ", lag max " $c["staleness_max"] " with s=" s; bad = 1 }
    row = $0; sub(/^[^,]*,[^,]*,[^,]*,[^,]*,/, "", row)
    if (s == 0) { if (sync == "") sync = row; else if (row != sync) { print "row " n ": s=0 but differs from row 1 past the varied columns"; bad = 1 } }
    tp[s "," p] = $c["throughput_tokens_per_s"]
}
END {
    if (n != 9) { print n " rows, not 9"; bad = 1 }
    if (!(tp["2,0.6"] > tp["0,1"])) { print "StaleSync (s 2, p 0.6) " tp["2,0.6"] " tokens/s does not beat synchronous " tp["0,1"]; bad = 1 }
    exit bad
}' "$T/w1.csv" > "$T/w1.why" && ok || bad "whatif_staleness sweep: $(head -3 "$T/w1.why" | tr '\n' ' ')"
expect 0 "" "$F" sweep examples/pangu718b_cm384.lua examples/whatif_scaling.lua --set workload.iterations=3 --jobs 2 --csv "$T/scale.csv" --quiet
[ "$(grep -vc '^#' "$T/scale.csv")" -eq 9 ] && ok || bad "whatif_scaling: expected 8 rows"
grep -q "^7,8 supernode stalesync,8," "$T/scale.csv" && ok || bad "whatif_scaling: row 7 is not 8 supernodes, stalesync"

# --- determinism: jobs and shards ------------------------------------------------
"$F" sweep $Q $W $IT --csv "$T/full.csv" --json "$T/full.json" --quiet
"$F" sweep $Q $W $IT --jobs 3 --csv "$T/j3.csv" --json "$T/j3.json" --quiet
same "sweep --jobs 3 CSV" "$T/full.csv" "$T/j3.csv"
same "sweep CSV with and without --json" "$T/full.csv" "$T/w1.csv"
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

# --- merge refuses hostile shard files at once (status 2, the file named) -------
quick() { # quick PATTERN command...: status 2 within 3 s, the pattern in the message
    expect 2 "$@"
    pat=$1; shift
    timeout 3 "$@" >/dev/null 2>&1; st=$?
    [ "$st" -eq 2 ] && ok || bad "$* -> status $st within 3 s, want 2"
}
shard_line() { # shard_line FILE LINE: s1.json with its "shard" line replaced
    sed "s/^  \"shard\": .*/  $2/" "$T/s1.json" > "$T/$1"
}
shard_line big.json '"shard": {"index": 5, "count": 4294967299, "ids": [4, 7]},'
quick 'big.json: broken: shard "count" is missing or not a whole number in 1..100000' \
    "$F" merge "$T/s1.json" "$T/s2.json" "$T/s3.json" "$T/big.json" --csv "$T/x.csv"
shard_line far.json '"shard": {"index": 1000005, "count": 4, "ids": [4, 7]},'
quick 'far.json: broken: shard "index" is missing or not a whole number in 1..4' \
    "$F" merge "$T/s1.json" "$T/far.json" --csv "$T/x.csv"
shard_line max.json '"shard": {"index": 1, "count": 2147483647, "ids": [0]},'
quick 'max.json: broken: shard "count"' "$F" merge "$T/max.json" "$T/s2.json" --csv "$T/x.csv"
shard_line many.json '"shard": {"index": 1, "count": 200000000, "ids": [0]},'
quick 'many.json: broken: shard "count"' "$F" merge "$T/many.json" --csv "$T/x.csv"
shard_line few.json '"shard": {"index": 1, "count": 4, "ids": [0, 4]},'
quick 'few.json: broken: shard 1/4 of 9 should list 3 ids' "$F" merge "$T/few.json" --csv "$T/x.csv"
# row 4 twice in place of row 8: the right count, the wrong rows
sed -e 's/^\(    {"id": 4, .*\)},$/\1},\n\1}/' -e '/^    {"id": 8, /d' "$T/s1.json" > "$T/twice.json"
quick 'twice.json: broken: row id 4 appears twice' \
    "$F" merge "$T/twice.json" "$T/s2.json" "$T/s3.json" "$T/s4.json" --csv "$T/x.csv"
quick '/dev/zero: not a regular file' "$F" merge /dev/zero "$T/s2.json" --csv "$T/x.csv"
quick "$T: not a regular file" "$F" merge "$T" --csv "$T/x.csv"
truncate -s 300M "$T/huge.json"
quick 'huge.json: 314572800 bytes, more than a shard file may have (256 MiB)' "$F" merge "$T/huge.json" --csv "$T/x.csv"
rm -f "$T/huge.json"
{ cat "$T/s1.json"; printf '\000{"kind": "sweep"}\n'; } > "$T/nul.json"
quick 'nul.json: broken: a NUL byte at offset' \
    "$F" merge "$T/nul.json" "$T/s2.json" "$T/s3.json" "$T/s4.json" --csv "$T/x.csv"
quick "'1/99999999999': at most 100000 shards" "$F" sweep $Q $W --shard 1/99999999999
quick "is not I/N with 1 <= I <= N" "$F" sweep $Q $W --shard 0/4
[ ! -e "$T/x.csv" ] && ok || bad "merge wrote a table after refusing a hostile shard"

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
expect 0 "#1 against the scenario's own plan" "$F" plan $Q --top 5
"$F" plan $Q --top 5 --json "$T/pf.json" --csv "$T/pf.csv" --quiet
"$F" plan $Q --top 5 --jobs 2 --json "$T/pj.json" --quiet
same "plan --jobs 2 JSON" "$T/pf.json" "$T/pj.json"
for i in 1 2 3; do "$F" plan $Q --top 5 --shard $i/3 --json "$T/p$i.json" --quiet; done
"$F" merge "$T/p2.json" "$T/p3.json" "$T/p1.json" --json "$T/pm.json" --csv "$T/pm.csv" > "$T/pm.txt"
same "merged plan JSON" "$T/pf.json" "$T/pm.json"
same "merged plan CSV" "$T/pf.csv" "$T/pm.csv"
grep -q "#1: fusync run" "$T/pm.txt" && ok || bad "merge of a plan does not print the ranking"
expect 0 "tokens-per-device" "$F" plan $Q --objective tokens-per-device --top 3
expect 0 "smallest cluster reaching" "$F" plan examples/pangu718b_cm384.lua --objective devices --target 20000 --top 3 --set cluster.supernodes=2 --set workload.iterations=3
printf 'function candidates(ctx) return { modes = {"full"}, staleness = {0} } end\nfunction score(ctx, r) return -r.step_time_s end\n' > "$T/narrow.lua"
"$F" plan $Q --policy "$T/narrow.lua" --json "$T/narrow.json" --quiet
grep -q '"mode": "separate"' "$T/narrow.json" && bad "candidates() did not narrow the modes" || ok

# --- placed pools: spread_split.lua's place() and its candidates() pool shapes ---------
S2="--set cluster.supernodes=2 --set cluster.nodes_per_supernode=1"
expect 0 "pool gen          8 devices \[0..3, 8..11\]  roles rollout" "$F" check $Q --policy plugins/spread_split.lua $S2
expect 0 "Throughput" "$F" run $Q --policy plugins/spread_split.lua $S2 $IT
expect 2 "plan.pools\[1\].ranges\[2\]: device 4 is already in pool 'gen'" "$F" check $Q --mode separate \
    --set plan.pools.1.name=gen --set plan.pools.1.roles.1=rollout --set plan.pools.1.ranges.1.1=0 --set plan.pools.1.ranges.1.2=7 \
    --set plan.pools.1.ranges.2.1=4 --set plan.pools.1.ranges.2.2=5 \
    --set plan.pools.2.name=train --set plan.pools.2.devices=6 --set plan.pools.2.roles.1=train --set plan.pools.2.roles.2=ref
# ctx shows a placed pool as written, and fusync.fits(plan) where it landed
cat > "$T/ctxpools.lua" <<'EOF'
function place(ctx)
  local g = ctx.plan.pools[1]
  local ok, why, pools = fusync.fits(ctx.plan)
  local r = pools[2].ranges
  print(string.format("ctx where=%s ranges=%s; fits %s train at %d..%d, %d..%d", tostring(g.where), tostring(g.ranges),
                      tostring(ok), r[1][1], r[1][2], r[2][1], r[2][2]))
  return ctx.plan
end
EOF
export FUSYNC_PLUGIN_PRINT=1
expect 0 "ctx where=spread ranges=nil; fits true train at 4..7, 12..15" "$F" check $Q $S2 \
    --policy "$T/ctxpools.lua" --mode separate --set plan.pools.1.name=gen --set plan.pools.1.devices=8 \
    --set plan.pools.1.roles.1=rollout --set plan.pools.1.where=spread --set plan.pools.2.name=train \
    --set plan.pools.2.devices=8 --set plan.pools.2.roles.1=train --set plan.pools.2.roles.2=ref
unset FUSYNC_PLUGIN_PRINT
if "$F" plan $Q --policy plugins/spread_split.lua $S2 $IT --top 3 --csv "$T/ss-plan.csv" > "$T/ss-plan.txt" 2>&1; then
    ok
    grep -q ",shape,gen:4/placed train:12/placed," "$T/ss-plan.csv" && ok || bad "candidates() spread pool shape was not searched"
    grep -q ",shape,gen:4 train:12," "$T/ss-plan.csv" && ok || bad "candidates() packed pool shape was not searched"
    grep -q "plan.pools.1.where=spread" "$T/ss-plan.csv" && ok || bad "a spread shape's command does not set where"
else
    bad "plan with spread_split.lua failed: $(head -3 "$T/ss-plan.txt")"
fi

# --- the plugin API, by a policy written from docs/plugins.md alone -------------------
PA=tests/policy_author.lua
export FUSYNC_PLUGIN_PRINT=1
expect 0 "on_step sees wanted_bound=1" "$F" run $Q --policy $PA $IT --quiet --json /dev/null
expect 0 "fits rollout.tp=1: true" "$F" run $Q --policy $PA $IT --quiet --json /dev/null
expect 0 "placed gen: true  ranges 0..3,8..11" "$F" run $Q --policy $PA $IT --quiet --json /dev/null
expect 0 "estimate 64 seqs positive, 256 seqs positive, tp 3: nil plan.train.tp: 3 does not divide" "$F" run $Q --policy $PA $IT --quiet --json /dev/null
expect 0 "oversize: false pool 'all' while training: .* > 79.2 GiB HBM" "$F" run $Q --policy $PA $IT --quiet --json /dev/null
expect 0 "place() replaced --set plan.partial_rollout=0.8 -> 1" "$F" run $Q --policy $PA $IT --set plan.partial_rollout=0.8 --quiet --json /dev/null
expect 1 "place() marked the plan infeasible: this policy does not run 96" "$F" run $Q --policy $PA $IT --set plan.rollout.max_seqs=96
unset FUSYNC_PLUGIN_PRINT
printf 'return { vary = { {"plan.rollout.max_seqs", {96, 128}}, {"plan.partial_rollout", {1, 0.8}} } }\n' > "$T/pa.lua"
if "$F" sweep $Q "$T/pa.lua" --policy $PA $IT --csv "$T/pa.csv" --quiet; then
    ok
    grep -q '^0,,96,1,,false,.*place() marked the plan infeasible' "$T/pa.csv" && ok || bad "a variant place() refused is not an infeasible row"
    grep -q '^3,,128,0.8,plan.partial_rollout=0.8 -> 1,true' "$T/pa.csv" && ok || bad "the sweep does not report the field place() replaced"
else
    bad "a sweep with a variant place() refuses stopped"
fi
"$F" plan $Q --policy $PA $IT --top 3 --csv "$T/pa-plan.csv" > "$T/pa-plan.txt" 2>&1 && ok || bad "plan with $PA failed: $(head -3 "$T/pa-plan.txt")"
grep -q "objective: score() of the policy" "$T/pa-plan.txt" && ok || bad "the plan header does not name score()"
grep -q ",shape,gen:8 mixed:8," "$T/pa-plan.csv" && ok || bad "candidates() pool shapes were not searched"
grep -q ",shape,gen:4 trainer:12," "$T/pa-plan.csv" && ok || bad "the second pool shape was not searched"
grep -q ",shape,gen:8/placed trainer:8/placed," "$T/pa-plan.csv" && ok || bad "the placed pool shape was not searched"
grep -q "score() marked the plan infeasible: no stale samples" "$T/pa-plan.csv" && ok || bad "score() could not mark a candidate infeasible"
grep -q ",separate,\|,full,\|,hybrid," "$T/pa-plan.csv" && bad "pool shapes alone searched other modes" || ok

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
