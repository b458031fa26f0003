#!/bin/sh
# scripts/validate-fit.sh SCENARIO KNOB LO HI METRIC TARGET [FUSYNC ARGS...]
#
# Finds the value of one scenario field (KNOB, a --set path such as
# efficiency.train) in [LO, HI] at which `fusync run SCENARIO ARGS --json`
# reports METRIC = TARGET, by bisection (24 halvings).  METRIC is a
# top-level JSON number (step_time_s, throughput_tokens_per_s) or
# phase.NAME for phase_time_s.NAME.  The metric must move monotonically with
# the knob over [LO, HI].  This is how each validation system's one
# calibration row was fitted (docs/validation.md); it writes nothing.
#
#   sh scripts/validate-fit.sh examples/validation/x.lua efficiency.train \
#       0.05 0.9 step_time_s 92.8 --mode full
set -u
[ $# -ge 6 ] || { echo "usage: validate-fit.sh SCENARIO KNOB LO HI METRIC TARGET [ARGS...]" >&2; exit 2; }
scn=$1 knob=$2 lo=$3 hi=$4 metric=$5 target=$6
shift 6
FUSYNC=${FUSYNC:-$(dirname "$0")/../build/fusync}
. "$(dirname "$0")/validate-lib.sh"

at() { _v=$1; shift; run_metric "$scn" "$metric" "$@" --set "$knob=$_v"; }
f_lo=$(at "$lo" "$@") || exit 2
f_hi=$(at "$hi" "$@") || exit 2
i=0
while [ $i -lt 24 ]; do
    mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.6g", (a + b) / 2 }')
    f_mid=$(run_metric "$scn" "$metric" "$@" --set "$knob=$mid") || exit 2
    # keep the half whose ends straddle the target
    if awk -v a="$f_lo" -v m="$f_mid" -v t="$target" 'BEGIN { exit !((a - t) * (m - t) <= 0) }'; then
        hi=$mid; f_hi=$f_mid
    else
        lo=$mid; f_lo=$f_mid
    fi
    i=$((i + 1))
done
echo "$knob=$mid -> $metric $f_mid (target $target)"
