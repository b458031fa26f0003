#!/bin/sh
# Intervals on a run's predictions (docs/model.md, section 12, "Intervals").
#
# Calibrate the Qwen example on examples/measured_qwen7b.csv, run the written
# scenario on the measured run's own workload (its mean prompt and response
# lengths read from the file, in the scenario's distribution shapes; its
# six steps after one warm-up): the measured mean step time must lie in the
# printed interval, the interval's source must say calibration, and a
# covariance four times as wide must give a strictly wider interval (so
# the check cannot pass on a fixed width).  An uncalibrated run's interval
# says validation and holds its figure; bad calibration fields are refused
# naming the field.  The draws run on --jobs workers and give the same
# interval with 1 job or 3.  A sweep's rows carry intervals: the validation
# spread, and on a calibrated sweep's three fastest variants the
# calibration's, equal to what `fusync run` gives them.  Needs $FUSYNC.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-uncert.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
EX=$(pwd)/examples
M=$EX/measured_qwen7b.csv

"$F" calibrate "$EX/qwen7b_h100x16.lua" "$M" --out "$T/cal.lua" --quiet >"$T/cal.txt" 2>&1 ||
    { bad "calibrate failed: $(cat "$T/cal.txt")"; }
grep -q '^s.calibration = {' "$T/cal.lua" && grep -q 'held_out_error' "$T/cal.lua" && ok ||
    bad "calibrate --out wrote no calibration block"

# the measured run: mean step time (the sum of its phases), mean prompt and response lengths
set -- $(awk -F, 'NR > 1 { s += $2 + $3 + $4 + $5; r += $6; p += $8; n++ }
                  END { printf "%.6f %.1f %.1f %d", s / n, r / n, p / n, n }' "$M")
meas=$1 resp=$2 prompt=$3 steps=$4
cat >"$T/measured.lua" <<LUA
-- the calibrated scenario on the measured run's own workload
local s = fusync.scenario("cal.lua")
s.workload.prompt_len = fusync.dist.uniform($prompt * 0.4, $prompt * 1.6)
s.workload.response_len = fusync.dist.lognormal{mean = $resp, sigma = 0.9, cap = 8192}
s.workload.iterations = $steps + 1
s.workload.warmup = 1
return s
LUA
# twice the standard errors, the same correlations
sed -e 's/^local s = fusync.scenario("cal.lua")$/local s = fusync.scenario("measured.lua")/' "$T/measured.lua" |
    sed -n '1,2p' >"$T/wide.lua"
cat >>"$T/wide.lua" <<'LUA'
for k, v in pairs(s.calibration.sd) do s.calibration.sd[k] = 2 * v end
return s
LUA

interval() {    # FILE -> "value lo hi source"
    "$F" run "$1" --data-dir "$EX" --json - 2>"$T/err" | awk '
        /"step_time_s": [0-9]/ && !v { v = $2; sub(/,/, "", v) }
        /"source":/ { s = $2; gsub(/[",]/, "", s) }
        /"step_time_s": \{/ { inst = 1 }
        inst && /"lo":/ { lo = $2; sub(/,/, "", lo) }
        inst && /"hi":/ { hi = $2; sub(/,/, "", hi); inst = 0 }
        END { print v, lo, hi, s }'
}
set -- $(interval "$T/measured.lua")
echo "uncert.sh: measured mean step $meas s, calibrated interval [${2:-?}, ${3:-?}] (${4:-?}), predicted ${1:-?}"
if [ "${4:-}" = calibration ] && awk -v m="$meas" -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo <= m && m <= hi) }'; then ok
else bad "calibrated interval [${2:-?}, ${3:-?}] (${4:-no source}) misses the measured mean step $meas s: $(cat "$T/err")"; fi
lo1=${2:-0} hi1=${3:-0}
set -- $(interval "$T/wide.lua")
awk -v a="$lo1" -v b="$hi1" -v c="${2:-0}" -v d="${3:-0}" 'BEGIN { exit !(d - c > 1.2 * (b - a)) }' && ok ||
    bad "a twice wider covariance gave [${2:-?}, ${3:-?}], not a fifth wider than [$lo1, $hi1]"

# the draws on the job pool: the same interval bytes whatever --jobs is
for j in 1 3; do
    "$F" run "$T/measured.lua" --data-dir "$EX" --jobs $j --json - 2>"$T/err" |
        awk '/"interval": \{/ { on = 1 } on { print } on && /^  \}/ { on = 0 }' >"$T/iv$j.json"
done
[ -s "$T/iv1.json" ] && grep -q '"source": "calibration"' "$T/iv1.json" && cmp -s "$T/iv1.json" "$T/iv3.json" && ok ||
    bad "the calibrated interval differs with --jobs 3: $(diff "$T/iv1.json" "$T/iv3.json" | head -4)"

# the plan table: a calibrated scenario's top three listed rows re-simulated
# on the --jobs workers, the same table with 1 job or 2
for j in 1 2; do
    "$F" plan "$T/measured.lua" --data-dir "$EX" --fix plan.rollout.dispatch=balanced --fix plan.rollout.max_seqs=256 \
        --jobs $j --quiet --csv "$T/pl$j.csv" 2>"$T/err" || bad "plan --jobs $j failed: $(head -2 "$T/err")"
done
cmp -s "$T/pl1.csv" "$T/pl2.csv" && ok || bad "a calibrated plan's table differs with --jobs 2"
awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
         $c["feasible"] == "true" && $c["within"] == "true" && $c["mode"] != "baseline" && n < 3 { n++; if ($c["interval_source"] == "calibration") k++ }
         END { exit !(n == 3 && k == 3) }' "$T/pl1.csv" && ok || bad "a calibrated plan's top three rows lack the calibration's interval"

# sweeps: every feasible row its interval; a calibrated sweep draws the three
# fastest variants (and any that sets nothing), each the interval `fusync
# run` gives that variant, the same bytes with --jobs 1 and 3
W=$EX/whatif_staleness.lua
"$F" sweep "$EX/qwen7b_h100x16.lua" "$W" --csv "$T/sw.csv" --quiet 2>"$T/err" || bad "sweep failed: $(head -2 "$T/err")"
awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["feasible"] == "true" { n++
           if ($c["interval_source"] != "validation" || !($c["interval_tput_lo"] < $c["throughput_tokens_per_s"] &&
               $c["throughput_tokens_per_s"] < $c["interval_tput_hi"])) bad = 1 }
         END { exit !(n > 0 && !bad) }' "$T/sw.csv" && ok || bad "an uncalibrated sweep row without a validation interval holding its figure"
for j in 1 3; do
    "$F" sweep "$T/measured.lua" "$W" --data-dir "$EX" --jobs $j --csv "$T/cs$j.csv" --quiet 2>"$T/err" || bad "calibrated sweep failed: $(head -2 "$T/err")"
done
cmp -s "$T/cs1.csv" "$T/cs3.csv" && ok || bad "a calibrated sweep differs with --jobs 3"
drawn=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["interval_source"] == "calibration" { print $c["id"] }' "$T/cs1.csv" | tr '\n' ' ')
fast=$(awk -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["feasible"] == "true" { print $c["throughput_tokens_per_s"], $c["id"] }' "$T/cs1.csv" |
       sort -k1,1gr -k2,2n | head -3 | awk '{ print $2 }' | sort -n | tr '\n' ' ')
[ -n "$drawn" ] && [ "$drawn" = "$fast" ] && ok || bad "calibrated sweep: drawn rows '$drawn', want the three fastest '$fast'"
id=${fast%% *}
sets=$(awk -v id="$id" -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["id"] == id { printf "--set plan.staleness=%s --set plan.partial_rollout=%s", $c["plan.staleness"], $c["plan.partial_rollout"] }' "$T/cs1.csv")
# shellcheck disable=SC2086
"$F" run "$T/measured.lua" --data-dir "$EX" $sets --json - 2>/dev/null |
    awk '/"interval": \{/ { on = 1 } on && /"throughput_tokens_per_s": \{/ { t = 1 } on && t && /"lo":/ { lo = $2 }
         on && t && /"hi":/ { hi = $2; t = 0 } END { gsub(/,/, "", lo); gsub(/,/, "", hi); print lo, hi }' >"$T/runiv"
awk -v id="$id" -F, '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
     $c["id"] == id { print $c["interval_tput_lo"], $c["interval_tput_hi"] }' "$T/cs1.csv" >"$T/sweepiv"
[ -s "$T/runiv" ] && cmp -s "$T/runiv" "$T/sweepiv" && ok ||
    bad "variant $id: the sweep's interval $(cat "$T/sweepiv") is not the run's $(cat "$T/runiv")"

# the text report says where the interval came from
"$F" run "$T/measured.lua" --data-dir "$EX" | grep -q '^Interval .*(calibration: ' && ok ||
    bad "the text report has no calibration Interval line"
"$F" run "$EX/qwen7b_h100x16.lua" >"$T/plain.txt" && grep -q '^Interval .*(validation: ' "$T/plain.txt" && ok ||
    bad "an uncalibrated run's report has no validation Interval line"
set -- $(interval "$EX/qwen7b_h100x16.lua")
[ "${4:-}" = validation ] && awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo < v && v < hi) }' && ok ||
    bad "uncalibrated interval [${2:-?}, ${3:-?}] (${4:-?}) does not hold its figure ${1:-?}"

# fields: listed, and bad values refused naming the field (exit 2)
"$F" fields | grep -q 'calibration.sd' && ok || bad "fusync fields does not list calibration.sd"
refuse() {  # WHAT LUA-LINE FIELD
    cat >"$T/bad.lua" <<LUA
local s = fusync.scenario("cal.lua")
$2
return s
LUA
    "$F" run "$T/bad.lua" --data-dir "$EX" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "$3" "$T/err" && ok || bad "$1: exit $rc, $(cat "$T/err")"
}
refuse "a negative standard error" 's.calibration.sd.train = -0.1' 'calibration.sd.train'
refuse "a correlation above 1" 's.calibration.corr.train = {hbm = 1.5}' 'calibration.corr.train.hbm'
refuse "an asymmetric correlation" 's.calibration.corr.train = {hbm = 0.5}; s.calibration.corr.hbm = {train = -0.5}' 'calibration.corr'
refuse "a correlation without a standard error" 's.calibration.corr.link = {train = 0.2}' 'calibration.corr.link.train'
refuse "not positive semi-definite" 's.calibration.corr = {train = {prefill = 0.9, hbm = 0.9}, prefill = {hbm = -0.9}}' 'not positive semi-definite'

echo "uncert.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
