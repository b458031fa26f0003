#!/bin/sh
# outputs_made.sh — every JSON and CSV fusync writes names the fusync version
# that made it and the resolved scenario: the JSON of `check`, `sweep`, `plan`,
# `merge` and `sensitivity` as members (as `run --json` does), every CSV
# (`sweep`, `plan`, `merge`, `sensitivity` --csv, sweep's CSV on a pipe,
# `run --steps-csv`) as its opening '#' lines (docs/cli.md, "What made a
# file"); fusync's own CSV readers (calibrate, fusync.dist.from_file) read
# its CSV; a name's invalid UTF-8 and '#' reach no CSV raw; `merge` keeps
# both and refuses shards of another version.  Needs $FUSYNC (the binary).
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
# csv_made FILE WHAT HEADER: line 1 the version, then only '# scenario_field
# PATH=VALUE' lines (the seed and the device among them), then HEADER
csv_made() {
    [ "$(head -1 "$1")" = "# fusync_version=$ver" ] && ok || bad "$2: line 1 is not the version: $(head -1 "$1")"
    awk 'NR > 1 && /^#/ && !/^# scenario_field [a-z0-9_.]+=[^ ]/ { print "line " NR ": " $0; exit 1 }' "$1" >"$T/why" \
        && ok || bad "$2: a comment line is not a scenario field: $(cat "$T/why")"
    grep -q '^# scenario_field workload.seed=11$' "$1" && ok || bad "$2: no scenario_field workload.seed=11"
    grep -q '^# scenario_field cluster.device.name="' "$1" && ok || bad "$2: no scenario_field cluster.device.name"
    h=$(grep -v '^#' "$1" | head -1)
    case $h in "$3"*) ok ;; *) bad "$2: the first line after the comments is not the header $3: $h" ;; esac
    awk '/^#/ && seen { print NR; exit 1 } !/^#/ { seen = 1 }' "$1" >/dev/null && ok || bad "$2: a comment line after the header"
}
"$F" sweep $S $W $IT --json "$T/s.json" --csv "$T/s.csv" --quiet && ok || bad "sweep failed"
made "$T/s.json" "sweep --json"
csv_made "$T/s.csv" "sweep --csv" "id,name,"
# the field lines are the JSON's scenario_fields, each value as its JSON text
python3 - "$T/s.json" "$T/s.csv" > "$T/why" 2>&1 <<'EOF' && ok || bad "sweep: the CSV's fields are not the JSON's: $(tail -3 "$T/why")"
import json, sys
want = json.load(open(sys.argv[1], encoding="utf-8"))["scenario_fields"]
got = {}
for line in open(sys.argv[2], encoding="utf-8"):
    if line.startswith("# scenario_field "):
        k, v = line[len("# scenario_field "):].rstrip("\n").split("=", 1)
        got[k] = json.loads(v)
assert len(want) > 100 and got == want, (len(got), len(want), set(want) ^ set(got))
EOF
"$F" sweep $S $W $IT --quiet > "$T/pipe.csv" && ok || bad "sweep to a pipe failed"
cmp -s "$T/pipe.csv" "$T/s.csv" && ok || bad "sweep's CSV on a pipe is not its --csv file"
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
# a merge of shards an older fusync wrote (no version, no scenario): the CSV still opens with the version line
for i in 1 2; do
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("fusync_version"); d.pop("scenario_fields"); json.dump(d, open(sys.argv[2], "w"), indent=2)' \
        "$T/p$i.json" "$T/n$i.json" || bad "no shard without version"
done
if "$F" merge "$T/n1.json" "$T/n2.json" --csv "$T/n.csv" --quiet 2>"$T/x.txt"; then
    [ "$(head -1 "$T/n.csv")" = "# fusync_version=$ver" ] && ! grep -q '^# scenario_field' "$T/n.csv" && ok \
        || bad "merge of shards without version: $(head -2 "$T/n.csv" | tr '\n' ' ')"
else bad "merge of shards without version or scenario failed: $(head -1 "$T/x.txt")"; fi

"$F" check $S $IT --json "$T/ck.json" >/dev/null && ok || bad "check failed"
grep -q "^  \"fusync_version\": \"$ver\",\$" "$T/ck.json" && ok || bad "check --json: no fusync_version $ver"
sed -n '/^  "scenario_fields": {/,/^  }/p' "$T/ck.json" > "$T/ck.sf"
grep -q '"workload.seed": 11[,]*$' "$T/ck.sf" && grep -q '"cluster.device.name": "' "$T/ck.sf" && ok \
    || bad "check --json: no scenario_fields with workload.seed 11 and the device"
"$F" plan $S $IT --top 2 --json "$T/pl.json" --csv "$T/pl.csv" --quiet && ok || bad "plan failed"
made "$T/pl.json" "plan --json"
csv_made "$T/pl.csv" "plan --csv" "id,"

"$F" sensitivity $S $IT --iterations 3 --csv "$T/se.csv" --json "$T/se.json" --quiet >/dev/null 2>&1 \
    && ok || bad "sensitivity failed"
csv_made "$T/se.csv" "sensitivity --csv" "rank,input,"
grep -q '"scenario_fields": {' "$T/se.json" && grep -q '"workload.seed": 11' "$T/se.json" && ok \
    || bad "sensitivity --json has no scenario_fields"

"$F" run $S $IT --set workload.iterations=5 --steps-csv "$T/st.csv" >/dev/null && ok || bad "run --steps-csv failed"
csv_made "$T/st.csv" "run --steps-csv" "step,start_s,"
# fusync's readers on its own CSV: calibrate (the steps' phase columns), from_file (a column)
"$F" calibrate $S "$T/st.csv" --fit train > "$T/cal.txt" 2>&1 && grep -q "on 5 measured steps" "$T/cal.txt" && ok \
    || bad "calibrate on run --steps-csv: $(head -2 "$T/cal.txt" | tr '\n' ' ')"
sed 's|response_len = .*|response_len = f.dist.from_file("lens.csv", "tokens"),|' $S > "$T/ff.lua"
cp "$T/st.csv" "$T/lens.csv"
"$F" check "$T/ff.lua" > "$T/ff.txt" 2>&1 && ok || bad "fusync.dist.from_file on run --steps-csv: $(head -2 "$T/ff.txt" | tr '\n' ' ')"

# a quoted cell (a row's first) whose second line starts with '#' is the cell's, not a comment
printf 'note,step,generate_s,train_s\nx,1,1,2\n"a\n# b",2,1,2\ny,3,1,2\n' > "$T/q.csv"
"$F" calibrate $S "$T/q.csv" --fit train > "$T/q.txt" 2>&1
grep -q "calibrate: 3 measured steps" "$T/q.txt" && ok \
    || bad "a quoted cell with a '#' line: $(head -2 "$T/q.txt" | tr '\n' ' ')"

# a name with '#', a comma and a byte that is no UTF-8: quoted, U+FFFD, every line UTF-8
printf 'return { vary = { { "models.actor.name", { "a#b\\xff,c" } } } }\n' > "$T/bad.lua"
printf 'n\377#x' > "$T/name"
"$F" sweep $S "$T/bad.lua" $IT --set "name=$(cat "$T/name")" --csv "$T/u.csv" --quiet 2>/dev/null
grep -q ',"a#b'"$(printf '\357\277\275')"',c",' "$T/u.csv" && ok || bad "the name cell is not quoted with U+FFFD: $(grep -v '^#' "$T/u.csv" | sed -n 2p | cut -c1-80)"
grep -q '^# scenario_field name="n'"$(printf '\357\277\275')"'#x"$' "$T/u.csv" && ok || bad "the scenario name line: $(grep '^# scenario_field name=' "$T/u.csv")"
iconv -f UTF-8 -t UTF-8 "$T/u.csv" >/dev/null 2>&1 && ok || bad "the sweep CSV is not UTF-8"

echo "outputs_made.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
