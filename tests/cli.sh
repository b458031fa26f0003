#!/bin/sh
# Command-line tests: the examples run, outputs parse, bad input gets its
# message and exit status, outputs are never left half-written.
# Needs $FUSYNC (the binary).  Under FUSYNC_SAN=1 only the quick cases run.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# expect STATUS PATTERN -- command...: exit status and a pattern in stdout+stderr
expect() {
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

# --- examples run, in every mode ---------------------------------------------
for ex in examples/qwen7b_h100x16.lua examples/pangu718b_cm384.lua examples/llama70b_h100x64.lua; do
    for m in separate full; do
        expect 0 "Throughput" "$F" run "$ex" --mode "$m" --no-color
    done
done
expect 0 "Throughput" "$F" run examples/pangu718b_cm384.lua --mode colocate
expect 1 "INFEASIBLE" "$F" run examples/does_not_fit.lua
expect 1 "over capacity by" "$F" run examples/does_not_fit.lua
expect 1 "DOES NOT FIT" "$F" check examples/does_not_fit.lua
expect 0 "Memory fit: fits" "$F" check examples/pangu718b_cm384.lua
expect 0 "pangu_ultra_moe_718b" "$F" presets
expect 0 "Usage: fusync" "$F" --help
expect 0 "fusync " "$F" --version
expect 0 "Throughput" "$F" run examples/pangu718b_cm384.lua --set cluster.supernodes=2 --iterations 3

# --- JSON and trace -----------------------------------------------------------
"$F" run examples/qwen7b_h100x16.lua --json "$T/a.json" --trace "$T/t.json" --quiet >/dev/null 2>&1 || bad "run with --json/--trace"
"$F" run examples/qwen7b_h100x16.lua --json "$T/b.json" --quiet >/dev/null 2>&1 || bad "second run"
[ -f "$T/t.json" ] && [ -z "$(ls "$T" | grep "\.tmp")" ] && ok || bad "trace file missing or .tmp left"
if [ $have_py -eq 1 ]; then
    python3 - "$T/a.json" "$T/b.json" "$T/t.json" <<'PY' && ok || bad "JSON/trace checks"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
need = ["throughput_tokens_per_s", "throughput_tokens_per_s_per_device", "step_time_s", "phase_time_s",
        "utilization", "memory_peak_bytes", "memory_capacity_bytes", "feasible", "iterations", "events",
        "sim_wall_s", "mode", "devices", "staleness", "distqueue", "wasted_tokens", "idle_ratio"]
missing = [k for k in need if k not in a]
assert not missing, missing
assert a["throughput_tokens_per_s"] > 0 and a["feasible"] is True
for d in (a, b):
    for k in ("sim_wall_s", "sim_loop_wall_s", "plugin_time_s"): d.pop(k, None)
assert a == b, "same scenario and seed gave different JSON"
t = json.load(open(sys.argv[3]))
ev = t["traceEvents"]
ph = {e["ph"] for e in ev}
assert {"X", "C", "M", "i", "b", "e"} <= ph, ph
xs = [e for e in ev if e["ph"] == "X"]
assert all("iteration" in e["args"] and "version" in e["args"] for e in xs)
assert any(e["name"] == "generate" for e in xs) and any(e["name"].startswith("train") for e in xs)
PY
    "$F" run examples/qwen7b_h100x16.lua --json - --quiet | python3 -c 'import json,sys; json.load(sys.stdin)' && ok || bad "--json - is not JSON on stdout"
    "$F" check examples/qwen7b_h100x16.lua --json - | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["fits"]' && ok || bad "check --json"
else
    echo "cli.sh: python3 not found; JSON parse checks skipped" >&2
fi

# --- bad input: message names the file/field/option, status 2 -----------------
cat > "$T/typo.lua" <<'EOF2'
return { cluster = { device = fusync.devices.h100, devices_per_nodes = 8 },
         models = { actor = fusync.models.qwen2_5_7b } }
EOF2
expect 2 "typo.lua: cluster.devices_per_nodes: unknown field; did you mean 'devices_per_node'" "$F" run "$T/typo.lua"
cat > "$T/syntax.lua" <<'EOF2'
return {
  cluster = { device = fusync.devices.h100 }
  models = {}
}
EOF2
expect 2 "syntax.lua:3:" "$F" run "$T/syntax.lua"
cat > "$T/runtime.lua" <<'EOF2'
local x = nil
return x.field
EOF2
expect 2 "runtime.lua:2:" "$F" check "$T/runtime.lua"
cat > "$T/type.lua" <<'EOF2'
return { cluster = { device = fusync.devices.h100 }, models = { actor = fusync.models.qwen2_5_7b },
         plan = { train = { tp = "eight" } } }
EOF2
expect 2 "plan.train.tp: expected an integer" "$F" run "$T/type.lua"
expect 2 "does not divide" "$F" run examples/qwen7b_h100x16.lua --set plan.train.tp=3
expect 2 "plan.train.ep" "$F" run examples/qwen7b_h100x16.lua --set plan.train.ep=2
expect 2 "does not divide the actor's 61 layers" "$F" run examples/pangu718b_cm384.lua --set plan.train.uneven_layers=false
expect 2 "plan.train.ep: 3 does not divide" "$F" run examples/pangu718b_cm384.lua --set plan.train.ep=3
expect 2 "missing.lua: cannot read the scenario" "$F" run "$T/missing.lua"
expect 2 "unknown option '--mdoe'; did you mean '--mode'" "$F" run examples/qwen7b_h100x16.lua --mdoe full
expect 2 "--mode: 'fast'" "$F" run examples/qwen7b_h100x16.lua --mode fast
expect 2 "--staleness" "$F" run examples/qwen7b_h100x16.lua --staleness -1
expect 2 "--set: 'nothing' is not PATH=VALUE" "$F" run examples/qwen7b_h100x16.lua --set nothing
expect 2 "did you mean 'supernodes'" "$F" run examples/qwen7b_h100x16.lua --set cluster.supernode=2
expect 2 "unknown command 'rnu'; did you mean 'run'" "$F" rnu examples/qwen7b_h100x16.lua
expect 2 "missing SCENARIO" "$F" run
expect 2 "Usage" "$F"

# --- devices are written in place, never replaced by a file -------------------
"$F" run examples/qwen7b_h100x16.lua --trace /dev/null --json /dev/null --quiet >/dev/null 2>&1 && [ -c /dev/null ] && ok || bad "--trace/--json /dev/null must leave the device alone"

# --- outputs that cannot be written leave nothing behind ----------------------
expect 2 "nowhere/x.json" "$F" run examples/qwen7b_h100x16.lua --json "$T/nowhere/x.json" --quiet
expect 2 "nowhere/t.json" "$F" run examples/qwen7b_h100x16.lua --trace "$T/nowhere/t.json" --quiet
if [ -w /dev/full ] && [ "${FUSYNC_SAN:-0}" != 1 ]; then
    expect 2 "stdout" sh -c "\"$F\" run examples/qwen7b_h100x16.lua >/dev/full"
fi

# --- Ctrl-C: no trace left looking complete -------------------------------------
if [ "${FUSYNC_SAN:-0}" != 1 ]; then
    "$F" run examples/pangu718b_cm384.lua --set cluster.supernodes=8 --iterations 40 --trace "$T/int.json" --quiet >/dev/null 2>&1 &
    pid=$!
    sleep 0.5
    kill -INT "$pid" 2>/dev/null
    wait "$pid"
    st=$?
    if [ "$st" -eq 130 ] && [ ! -e "$T/int.json" ] && [ -z "$(ls "$T" | grep "int.json.tmp")" ]; then ok
    elif [ "$st" -eq 0 ]; then echo "cli.sh: the run finished before the interrupt; not checked" >&2
    else bad "interrupted run: status $st, files: $(ls "$T" | tr '\n' ' ')"; fi
fi

# --- hardening: code from other people cannot hang, escape or garble ---------
Q=examples/qwen7b_h100x16.lua
# expect_fast STATUS PATTERN MAXSECONDS -- command...: like expect, within a time
expect_fast() {
    want=$1 pat=$2 lim=$3
    shift 3
    t0=$(date +%s)
    out=$(timeout 60 "$@" 2>&1)
    got=$?
    dt=$(( $(date +%s) - t0 ))
    if [ "$got" -ne "$want" ]; then bad "$* -> status $got, want $want: $(echo "$out" | head -3)"; return; fi
    if [ "$dt" -gt "$lim" ]; then bad "$* -> took ${dt}s (limit ${lim}s)"; return; fi
    if [ -n "$pat" ] && ! printf '%s' "$out" | grep -q -- "$pat"; then
        bad "$* -> output lacks '$pat': $(echo "$out" | head -3)"; return
    fi
    ok
}
# 16 ordered axes: more Lua stack slots than a C function is given
printf 'local v={} for i=1,16 do v[i]={"plan.staleness",{0}} end return {vary=v}\n' > "$T/axes.lua"
expect_fast 0 "" 60 "$F" sweep $Q "$T/axes.lua" --csv "$T/axes.csv" --quiet
# a library function stuck past the wall-clock limit: the watchdog ends it
printf 'function place(ctx) string.find(("a"):rep(5000), ".-.-.-b") return ctx.plan end\n' > "$T/find.lua"
expect_fast 2 "find.lua: place() is stuck inside a library function" 8 "$F" check $Q --policy "$T/find.lua"
{ echo 'string.find(("a"):rep(5000), ".-.-.-b")'; cat $Q; } > "$T/findscn.lua"
expect_fast 2 "findscn.lua: the scenario is stuck inside a library function" 8 "$F" check "$T/findscn.lua"
expect_fast 2 "find.lua: place() did not return within 2 s" 5 env FUSYNC_PLUGIN_SECONDS=1 "$F" check $Q --policy "$T/find.lua"
# the wall clock of a call stops a Lua loop whose instruction budget is high
printf 'function place(ctx)\n  while true do end\nend\n' > "$T/slow.lua"
expect_fast 2 "slow.lua:2: the plugin ran longer than 1 s in one call" 5 env FUSYNC_PLUGIN_SECONDS=1 FUSYNC_PLUGIN_INSTRUCTIONS=100000000000 "$F" check $Q --policy "$T/slow.lua"
printf 'function place(ctx) xpcall(function() while true do end end, function() while true do end end) end\n' > "$T/xp.lua"
expect_fast 2 "instruction budget" 20 "$F" check $Q --policy "$T/xp.lua"
# Ctrl-C and SIGTERM stop a Lua call that would run on (exit 130), also one
# stuck inside a library function
printf 'function place(ctx) while true do end end\n' > "$T/spin.lua"
for case in "spin.lua INT" "spin.lua TERM" "find.lua INT"; do
    set -- $case
    FUSYNC_PLUGIN_INSTRUCTIONS=100000000000 FUSYNC_PLUGIN_SECONDS=100 "$F" check $Q --policy "$T/$1" >/dev/null 2>&1 &
    pid=$!
    sleep 0.5
    t0=$(date +%s)
    kill -"$2" "$pid" 2>/dev/null
    wait "$pid"
    st=$?
    dt=$(( $(date +%s) - t0 ))
    [ "$st" -eq 130 ] && [ "$dt" -le 4 ] && ok || bad "SIG$2 during $1: status $st after ${dt}s (want 130 at once)"
done
# temporary files: never through a planted link; gone after SIGHUP
echo precious > "$T/victim"
ln -s "$T/victim" "$T/out.json.tmp"
"$F" run $Q --json "$T/out.json" --quiet >/dev/null 2>&1
[ "$(cat "$T/victim")" = precious ] && [ -s "$T/out.json" ] && ok || bad "--json wrote through the planted link out.json.tmp"
rm -f "$T/out.json.tmp" "$T/out.json"
if [ "${FUSYNC_SAN:-0}" != 1 ]; then
    for sig in HUP QUIT; do
        "$F" run examples/pangu718b_cm384.lua --set cluster.supernodes=8 --iterations 40 --trace "$T/hup.json" --quiet >/dev/null 2>&1 &
        pid=$!
        # the signal once the trace is being streamed to its temporary file
        n=0
        while [ $n -lt 100 ] && [ -z "$(ls "$T" | grep "hup.json.tmp")" ]; do sleep 0.1; n=$((n + 1)); done
        sleep 0.3
        kill -$sig "$pid" 2>/dev/null
        wait "$pid"
        st=$?
        left=$(ls "$T" | grep "hup.json")
        if [ "$st" -ne 0 ] && [ -z "$left" ]; then ok
        elif [ "$st" -eq 0 ]; then echo "cli.sh: the run finished before SIG$sig; not checked" >&2
        else bad "SIG$sig during a run: status $st, left: $left"; fi
        rm -f "$T"/hup.json*
    done
fi
# terminal escapes from the scenario, --set or a plugin never reach the terminal
esc=$(printf '\033')
for cmd in run check; do
    out=$("$F" $cmd $Q --set "name=${esc}]0;PWN$(printf '\007')" 2>&1)
    case $out in *"$esc"*) bad "$cmd printed an escape from the scenario name" ;; *) ok ;; esac
done
out=$("$F" run $Q --set "cluster.device=${esc}[2J" 2>&1)
case $out in *"$esc"*) bad "an error message carried an escape" ;; *'\x1b[2J'*) ok ;; *) bad "no escaped name in: $out" ;; esac
# small things
expect 2 "--json: the value is empty" "$F" run $Q --json ""
expect 2 "--trace: '-' (stdout) is not supported" "$F" run $Q --trace - --quiet
expect 2 "--target: 'nan'" "$F" plan $Q --target nan
expect 2 "--target: 'inf'" "$F" plan $Q --target inf
mkfifo "$T/fifo.lua"
expect_fast 2 "fifo.lua: is not a regular file" 5 "$F" run $Q --set "plan.policy=$T/fifo.lua"
printf 'function place(ctx) os.execute("true") end\n' > "$T/osx.lua"
expect 2 "osx.lua:1: os.execute is not available in the sandbox" "$F" check $Q --policy "$T/osx.lua"

echo "cli.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
