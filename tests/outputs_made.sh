#!/bin/sh
# outputs_made.sh — the JSON of `fusync sweep`, `plan` and `merge` names the
# fusync version that made it and the resolved base scenario (as `run
# --json` does); the CSV stays a header and rows; `merge` keeps both and
# refuses shards of another version.  Needs $FUSYNC (the binary).
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-made.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
S=examples/qwen7b_h100x16.lua
W=examples/whatif_staleness.lua
IT="--set workload.iterations=3 --set workload.seed=11"
ver=$("$F" --version | sed 's/^fusync //')

# made FILE WHAT: the version and the resolved scenario (the --set seed) are in FILE
made() {
    grep -q "^  \"fusync_version\": \"$ver\",\$" "$1" && ok || bad "$2: no fusync_version $ver"
    grep -q '^  "scenario_fields": {.*"workload.seed": 11[,}]' "$1" && ok || bad "$2: no scenario_fields with workload.seed 11"
    grep -q '"scenario_fields": {.*"cluster.device.name": "' "$1" && ok || bad "$2: scenario_fields lacks the resolved device"
}
"$F" sweep $S $W $IT --json "$T/s.json" --csv "$T/s.csv" --quiet && ok || bad "sweep failed"
made "$T/s.json" "sweep --json"
head -1 "$T/s.csv" | grep -q '^id,name,' && ok || bad "sweep --csv: the first line is not the header: $(head -1 "$T/s.csv")"
grep -q '^#' "$T/s.csv" && bad "sweep --csv has comment lines" || ok
for i in 1 2; do "$F" sweep $S $W $IT --shard $i/2 --json "$T/p$i.json" --quiet || bad "sweep shard $i failed"; done
made "$T/p1.json" "sweep shard"
"$F" merge "$T/p2.json" "$T/p1.json" --json "$T/m.json" --csv "$T/m.csv" --quiet && ok || bad "merge failed"
cmp -s "$T/m.json" "$T/s.json" && ok || bad "merged JSON is not the unsharded run's"
cmp -s "$T/m.csv" "$T/s.csv" && ok || bad "merged CSV is not the unsharded run's"
sed 's/^  "fusync_version": "[^"]*"/  "fusync_version": "0.0.1"/' "$T/p2.json" > "$T/old.json"
"$F" merge "$T/p1.json" "$T/old.json" --json "$T/x.json" > "$T/x.txt" 2>&1
st=$?
[ "$st" -eq 2 ] && grep -q "their fusync versions differ" "$T/x.txt" && [ ! -e "$T/x.json" ] && ok \
    || bad "merge of two versions: status $st, $(head -1 "$T/x.txt")"
sed 's/^  "scenario_fields": .*/  "scenario_fields": 3/' "$T/p2.json" > "$T/sf.json"
"$F" merge "$T/p1.json" "$T/sf.json" --json "$T/x.json" > "$T/x.txt" 2>&1
grep -q 'sf.json: broken: "scenario_fields" is not an object' "$T/x.txt" && ok || bad "scenario_fields not an object: $(head -1 "$T/x.txt")"

"$F" plan $S $IT --top 2 --json "$T/pl.json" --csv "$T/pl.csv" --quiet && ok || bad "plan failed"
made "$T/pl.json" "plan --json"
grep -q '^#' "$T/pl.csv" && bad "plan --csv has comment lines" || ok

echo "outputs_made.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
