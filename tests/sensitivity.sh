#!/bin/sh
# sensitivity.sh — `fusync sensitivity` on the Qwen example (2 iterations):
#   - the rows are ranked: the largest throughput change of each (100% for a
#     variant that makes the plan infeasible) never grows down the table;
#   - a knob that matters moves the throughput both ways (HBM efficiency:
#     decode is bandwidth-bound), one that the plan does not use (the rollout
#     pool's size, in full co-location) is "no effect" with 0 both ways;
#   - the JSON is well-formed (checked by the awk parser below), names the
#     scenario, the version and the base, and holds every row the CSV holds;
#   - a bad --step is refused with status 2 and a message naming it;
#   - two runs, and --jobs 1 and 2, give the same bytes.
# FUSYNC names the binary.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-sens.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "sensitivity.sh: FAIL: $*" >&2; }

S=examples/qwen7b_h100x16.lua
ARGS="--iterations 2 --set workload.warmup=0"

# json_ok FILE: a recursive-descent check of JSON's grammar.  Tokens never
# span lines in what fusync writes (strings hold no raw newline).
json_ok() {
    awk '
    function value() {
        if (t[p] == "s" || t[p] == "v") { p++; return 1 }
        if (t[p] == "{") {
            p++
            if (t[p] == "}") { p++; return 1 }
            for (;;) {
                if (t[p] != "s") return 0
                p++
                if (t[p] != ":") return 0
                p++
                if (!value()) return 0
                if (t[p] == ",") { p++; continue }
                if (t[p] == "}") { p++; return 1 }
                return 0
            }
        }
        if (t[p] == "[") {
            p++
            if (t[p] == "]") { p++; return 1 }
            for (;;) {
                if (!value()) return 0
                if (t[p] == ",") { p++; continue }
                if (t[p] == "]") { p++; return 1 }
                return 0
            }
        }
        return 0
    }
    {
        s = $0
        while (length(s) > 0) {
            if (match(s, /^[ \t\r]+/)) { s = substr(s, RLENGTH + 1); continue }
            if (match(s, /^"([^"\\]|\\.)*"/)) { t[++n] = "s"; s = substr(s, RLENGTH + 1); continue }
            if (match(s, /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) { t[++n] = "v"; s = substr(s, RLENGTH + 1); continue }
            if (match(s, /^(true|false|null)/)) { t[++n] = "v"; s = substr(s, RLENGTH + 1); continue }
            c = substr(s, 1, 1)
            if (index("{}[]:,", c)) { t[++n] = c; s = substr(s, 2); continue }
            print "line " NR ": unexpected " c; bad = 1; exit 1
        }
    }
    END {
        if (bad) exit 1
        p = 1
        if (!value()) { print "not JSON at token " p " of " n; exit 1 }
        if (p != n + 1) { print "text after the value"; exit 1 }
    }' "$1"
}

# the parser itself refuses what is not JSON
printf '{"a": [1, 2,], "b": true}\n' >"$T/bad1.json"
printf '{"a": 1 "b": 2}\n' >"$T/bad2.json"
printf '{"a": [1.5e-3, null, "x\\"y"], "b": {}}\n' >"$T/good.json"
json_ok "$T/bad1.json" >/dev/null && bad "the JSON check takes a trailing comma" || ok
json_ok "$T/bad2.json" >/dev/null && bad "the JSON check takes a missing comma" || ok
json_ok "$T/good.json" >/dev/null && ok || bad "the JSON check refuses good JSON"

if ! "$F" sensitivity $S $ARGS --csv "$T/all.csv" --json "$T/a.json" >"$T/a.txt" 2>"$T/a.err"; then
    bad "fusync sensitivity failed: $(head -3 "$T/a.err")"
    echo "sensitivity.sh: $pass passed, $fail failed"
    exit 1
fi
# the rows as a reader takes them: the CSV opens with '#' lines naming the
# version and the scenario (docs/cli.md, "What made a file")
[ "$(head -1 "$T/all.csv" | cut -c1-17)" = "# fusync_version=" ] && ok || bad "the CSV does not open with the version"
grep -v '^#' "$T/all.csv" >"$T/a.csv"

# ranked: each row's key is its largest |change|, 100 for a feasibility flip
# (the base is feasible); the keys never grow down the table.  The note, the
# last column, is the only one that may hold a comma.
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        k = 0
        for (d = 0; d < 2; d++) {
            side = d ? "up" : "down"
            if ($col["feasible_" side] == "false") k = 100
            v = $col["dthroughput_" side "_pct"]
            if (v != "") { v = v < 0 ? -v : v; if (v > k) k = v }
        }
        if (NR > 2 && k > last + 1e-9) { print "row " NR - 1 " (" $col["input"] "): " k " above " last; exit 1 }
        if ($col["rank"] != NR - 1) { print "row " NR - 1 " has rank " $col["rank"]; exit 1 }
        last = k
    }' "$T/a.csv" >"$T/rank.out" && ok || bad "not ranked: $(cat "$T/rank.out")"

# a knob that matters: efficiency.hbm down slows, up speeds up
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["input"] == "efficiency.hbm" {
        found = 1
        if (!($col["dthroughput_down_pct"] < 0 && $col["dthroughput_up_pct"] > 0 && $col["effect"] == "throughput")) exit 1
    }
    END { exit !found }' "$T/a.csv" && ok || bad "efficiency.hbm: $(grep '^[0-9]*,efficiency.hbm,' "$T/a.csv")"

# a field the plan does not use: 0 both ways, and named "no effect"
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["input"] == "plan.rollout_devices" {
        found = 1
        if (!($col["dthroughput_down_pct"] == "0" && $col["dthroughput_up_pct"] == "0" && $col["effect"] == "none")) exit 1
    }
    END { exit !found }' "$T/a.csv" && ok || bad "plan.rollout_devices: $(grep '^[0-9]*,plan.rollout_devices,' "$T/a.csv")"
grep -E '^ +[0-9]+  plan\.rollout_devices .* no effect$' "$T/a.txt" >/dev/null && ok \
    || bad "the table does not say plan.rollout_devices has no effect"
grep -E '^ +[0-9]+  efficiency\.hbm +0\.75 +10% +0\.675 +0\.825 +-[0-9.]+% +\+[0-9.]+%' "$T/a.txt" >/dev/null && ok \
    || bad "the table's efficiency.hbm row: $(grep 'efficiency.hbm' "$T/a.txt")"

# the JSON: well-formed, names what it is, holds every row
if json_ok "$T/a.json" >"$T/json.out"; then ok; else bad "the JSON does not parse: $(cat "$T/json.out")"; fi
for key in '"scenario": "qwen7b_h100x16"' '"fusync_version": "' '"throughput_tokens_per_s": ' '"peak_memory_bytes": ' \
           '"step": 0.1,'; do
    grep -qF -- "$key" "$T/a.json" && ok || bad "the JSON has no $key"
done
rows=$(($(wc -l <"$T/a.csv") - 1))
jrows=$(grep -c '"rank": ' "$T/a.json")
[ "$rows" -gt 20 ] && [ "$rows" = "$jrows" ] && ok || bad "CSV rows $rows, JSON rows $jrows"

# a bad --step: status 2 and the option named
for st in 0 1 1.5 -0.1 abc 0.1x ''; do
    "$F" sensitivity $S $ARGS --step "$st" >"$T/st.out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "--step" "$T/st.out" && ok || bad "--step '$st': status $rc: $(head -2 "$T/st.out")"
done
"$F" sensitivity 2>"$T/use.err"; rc=$?
[ $rc -eq 2 ] && grep -q "usage: fusync sensitivity" "$T/use.err" && ok || bad "no scenario: status $rc"

# a step of 20% moves efficiency.hbm to 0.6 and 0.9
"$F" sensitivity $S $ARGS --step 0.2 --csv - 2>/dev/null | grep -q '^[0-9]*,efficiency.hbm,number,,0.75,20%,0.6,0.9,' && ok \
    || bad "--step 0.2 does not move efficiency.hbm to 0.6 and 0.9"

# deterministic: the same bytes twice, and with two workers
"$F" sensitivity $S $ARGS --csv "$T/b.csv" --json "$T/b.json" >"$T/b.txt" 2>/dev/null
"$F" sensitivity $S $ARGS --jobs 2 --csv "$T/c.csv" --json "$T/c.json" >"$T/c.txt" 2>/dev/null
cp "$T/all.csv" "$T/a.csv"     # the whole file, its opening lines too
for x in csv json txt; do
    cmp -s "$T/a.$x" "$T/b.$x" && ok || bad "two runs differ ($x)"
    cmp -s "$T/a.$x" "$T/c.$x" && ok || bad "--jobs 2 differs from --jobs 1 ($x)"
done

echo "sensitivity.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
