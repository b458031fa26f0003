#!/bin/sh
# The plan search's memory repair (docs/cli.md, `fusync plan`, "Memory
# repair"): a layout that does not fit as given gets the memory features
# that make it fit, only those the chosen framework has a setting for.
#   - tests/data/plan/adam_host.lua fits in no layout as given and with the
#     optimizer on the host in some: the #1 has optimizer_offload in its
#     memory_features, its command sets the field, and `fusync check` with
#     that command's arguments says it fits, and with the share a step
#     (0.25) lower does not (the smallest share that fits is searched);
#     held off with --fix, nothing fits;
#   - tests/data/plan/adam_share.lua under --framework verl (ZeRO-1: its
#     Megatron backend's optimizer_offload_fraction): #1 holds half of the
#     optimizer on the host, fits under check, the export writes the
#     fraction; OpenRLHF (adam_offload on or off) never gets a share below 1;
#   - tests/data/plan/ref_resident.lua keeps its reference on the device:
#     verl's #1 sends it to the host (ref param_offload) and needs it to
#     fit; NeMo RL has no key for it, so no row moves it;
#   - tests/data/plan/sleep_none.lua's engine never sleeps: without
#     --framework some rows make it sleep with discard (vLLM level 2); OpenRLHF
#     has level 1 only (offload), NeMo RL no setting at all, so neither ever
#     gets discard (nor NeMo RL any sleep); verl's #1 exports.
# FUSYNC names the binary.  Figures come from the runs; nothing is pinned.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-planmem.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plan_memory: FAIL: $*" >&2; }

# col FILE NAME: the column number of NAME in a CSV header (after the '#' lines)
col() { grep -v '^#' "$1" | head -1 | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
# first FILE: the plan table's #1 (rows ranked; feasible, within, not the baseline)
first() {
    fe=$(col "$1" feasible) wi=$(col "$1" within) mo=$(col "$1" mode)
    grep -v '^#' "$1" | awk -F, -v fe="$fe" -v wi="$wi" -v mo="$mo" 'NR > 1 && $fe == "true" && $wi == "true" && $mo != "baseline" { print; exit }'
}
# field ROW FILE NAME: a column of a row (run_with is the last column and holds no comma)
field() { printf '%s\n' "$1" | cut -d, -f"$(col "$2" "$3")"; }
# features FILE: every row's memory_features (none without the column)
features() {
    c=$(col "$1" memory_features)
    [ -n "$c" ] && grep -v '^#' "$1" | awk -F, -v c="$c" 'NR > 1 { print $c }'
}

A=tests/data/plan/adam_host.lua
if "$F" check $A >/dev/null 2>&1; then bad "adam_host.lua fits as given: the test needs a scenario that does not"; else ok; fi
if "$F" plan $A --quiet --csv "$T/a.csv" 2>"$T/err"; then ok; else bad "plan $A: $(head -3 "$T/err")"; fi
row=$(first "$T/a.csv")
[ -n "$row" ] && ok || bad "adam_host: no plan listed"
mf=$(field "$row" "$T/a.csv" memory_features)
share=$(printf '%s\n' "$mf" | sed -n 's/.*optimizer_offload=\([0-9.]*\).*/\1/p')
[ -n "$share" ] && ok || bad "adam_host #1: memory_features '$mf', not the optimizer on the host"
rw=$(field "$row" "$T/a.csv" run_with)
case "$rw" in *"--set plan.train.optimizer_offload=$share"*) ok ;; *) bad "adam_host #1's command does not set the optimizer's share $share: $rw" ;; esac
# the command's own arguments, checked: it fits; a quarter less does not
args=${rw#fusync run }
# shellcheck disable=SC2086
if "$F" check $args > "$T/check.txt" 2>&1 && grep -q "^Memory fit: fits" "$T/check.txt"; then ok
else bad "adam_host #1 does not fit under check: $(grep 'Memory fit' "$T/check.txt")"; fi
less=$(awk -v s="$share" 'BEGIN { printf "%g", s - 0.25 }')
# shellcheck disable=SC2086
if "$F" check $(printf '%s\n' "$args" | sed "s/optimizer_offload=$share/optimizer_offload=$less/") 2>&1 | grep -q "^Memory fit: fits"; then
    bad "adam_host: #1's share $share is not the smallest that fits ($less fits too)"
else ok; fi
# the text table names the feature; --json carries the field
"$F" plan $A --top 3 > "$T/a.txt" 2>/dev/null
grep -q " memory " "$T/a.txt" && grep -q "^  1 .*optimizer_offload=$share" "$T/a.txt" && ok || bad "adam_host: the text table does not show #1's memory features"
"$F" plan $A --top 3 --json "$T/a.json" >/dev/null 2>&1
grep -q "\"memory_features\": *\"optimizer_offload=$share\"" "$T/a.json" && ok || bad "adam_host: --json has no memory_features field"

# a share: half of the optimizer on the host fits, all of it is not needed
H=tests/data/plan/adam_share.lua
if "$F" check $H >/dev/null 2>&1; then bad "adam_share.lua fits as given: the test needs a scenario that does not"; else ok; fi
if "$F" plan $H --framework verl --quiet --csv "$T/v.csv" 2>"$T/err"; then ok; else bad "plan $H --framework verl: $(head -3 "$T/err")"; fi
row=$(first "$T/v.csv")
mf=$(field "$row" "$T/v.csv" memory_features)
case "$mf" in *optimizer_offload=0.5*) ok ;; *) bad "adam_share --framework verl #1: memory_features '$mf', not half of the optimizer on the host" ;; esac
rw=$(field "$row" "$T/v.csv" run_with)
args=${rw#fusync run }
# shellcheck disable=SC2086
if "$F" check $args 2>&1 | grep -q "^Memory fit: fits"; then ok; else bad "adam_share #1 does not fit under check"; fi
# shellcheck disable=SC2086
if "$F" check $(printf '%s\n' "$args" | sed "s/optimizer_offload=0.5/optimizer_offload=0.25/") 2>&1 | grep -q "^Memory fit: fits"; then
    bad "adam_share: a quarter of the optimizer on the host fits too"
else ok; fi
# shellcheck disable=SC2086
if "$F" export verl $args > "$T/vx.txt" 2>"$T/err" && grep -q "optimizer_offload_fraction.*0.5" "$T/vx.txt"; then ok
else bad "adam_share #1 does not export verl's optimizer_offload_fraction 0.5: $(head -3 "$T/err")"; fi
"$F" plan $H --framework openrlhf --quiet --csv "$T/o.csv" >/dev/null 2>&1
if features "$T/o.csv" | grep -q "optimizer_offload=0"; then bad "--framework openrlhf: a row holds a share of the optimizer on the host"; else ok; fi
features "$T/o.csv" | grep -q "optimizer_offload=1" && ok || bad "--framework openrlhf: no row holds the optimizer on the host"
# the frozen reference on the device: verl's #1 sends it to the host (ref
# param_offload), which it needs to fit; NeMo RL has no key, never offered
H=tests/data/plan/ref_resident.lua
if "$F" check $H >/dev/null 2>&1; then bad "ref_resident.lua fits as given: the test needs a scenario that does not"; else ok; fi
if "$F" plan $H --framework verl --mode full --quiet --csv "$T/r.csv" 2>"$T/err"; then ok; else bad "plan $H --framework verl: $(head -3 "$T/err")"; fi
row=$(first "$T/r.csv")
mf=$(field "$row" "$T/r.csv" memory_features)
case "$mf" in *offload_reference=true*) ok ;; *) bad "ref_resident --framework verl #1: memory_features '$mf', the reference not on the host" ;; esac
rw=$(field "$row" "$T/r.csv" run_with)
args=${rw#fusync run }
# shellcheck disable=SC2086
if "$F" check $args 2>&1 | grep -q "^Memory fit: fits"; then ok; else bad "ref_resident #1 does not fit under check"; fi
# shellcheck disable=SC2086
if "$F" check $(printf '%s\n' "$args" | sed "s/plan.offload.reference=true/plan.offload.reference=false/") 2>&1 | grep -q "^Memory fit: fits"; then
    bad "ref_resident #1 fits with its reference on the device too"
else ok; fi
# shellcheck disable=SC2086
if "$F" export verl $args > "$T/rx.txt" 2>"$T/err" && grep -q "ref.megatron.param_offload=true" "$T/rx.txt"; then ok
else bad "ref_resident #1 does not export verl's ref.megatron.param_offload: $(head -3 "$T/err")"; fi
"$F" plan $H --framework nemo-rl --mode full --quiet --csv "$T/rn.csv" >/dev/null 2>&1
if features "$T/rn.csv" | grep -q "offload_reference="; then bad "--framework nemo-rl: a row moves the reference"; else ok; fi
# held off by the user: never turned on, and then nothing fits
"$F" plan $A --fix plan.train.optimizer_offload=0 --quiet --csv "$T/h.csv" >/dev/null 2>&1
if features "$T/h.csv" | grep -q "optimizer_offload="; then bad "--fix plan.train.optimizer_offload=0: a row has it on"; else ok; fi
[ -z "$(first "$T/h.csv")" ] && ok || bad "--fix plan.train.optimizer_offload=0: a plan is listed that cannot fit"

S=tests/data/plan/sleep_none.lua
"$F" plan $S --quiet --csv "$T/s.csv" >/dev/null 2>&1
features "$T/s.csv" | grep -q "sleep=discard" && ok || bad "sleep_none: no row sleeps with discard without --framework (the framework checks below would be empty)"
for fw in openrlhf nemo-rl; do
    if "$F" plan $S --framework $fw --quiet --csv "$T/$fw.csv" >/dev/null 2>"$T/err"; then ok; else bad "plan --framework $fw: $(head -3 "$T/err")"; fi
    if features "$T/$fw.csv" | grep -q "sleep=discard\|offload_params=\|aux_shard="; then bad "--framework $fw: a row has a feature $fw has no setting for"; else ok; fi
done
features "$T/openrlhf.csv" | grep -q "sleep=offload" && ok || bad "--framework openrlhf: no row sleeps at level 1 (offload)"
if features "$T/nemo-rl.csv" | grep -q "sleep="; then bad "--framework nemo-rl: a row changes the engine's sleep, which NeMo RL has no key for"; else ok; fi
"$F" plan $S --framework verl --quiet --csv "$T/verl.csv" >/dev/null 2>&1
row=$(first "$T/verl.csv")
rw=$(field "$row" "$T/verl.csv" run_with)
case "$rw" in *"--set plan.rollout.sleep="*) ok ;; *) bad "--framework verl: #1 does not make the engine sleep: $rw" ;; esac
# shellcheck disable=SC2086
if "$F" export verl ${rw#fusync run } > "$T/verl.txt" 2>"$T/err" && grep -q "free_cache_engine" "$T/verl.txt"; then ok
else bad "--framework verl: #1 does not export: $(head -3 "$T/err")"; fi

echo "plan_memory: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
