# Shared by scripts/validate.sh and scripts/validate-fit.sh (sourced, not run).
# run_metric SCENARIO METRIC [ARGS...]: one `fusync run ... --json -` and the
# figure METRIC from it (a top-level JSON number, phase.NAME for a phase's
# seconds, or seq_mean: tokens trained per sample trained) on standard output; status 2 when the run fails or
# the plan is infeasible (the reason goes to standard error).
run_metric() {
    _scn=$1 _metric=$2
    shift 2
    _out=$("$FUSYNC" run "$_scn" --quiet --json - "$@" 2>&1) || {
        echo "validate: fusync run $_scn $* failed:" >&2
        printf '%s\n' "$_out" | tail -n 3 >&2
        return 2
    }
    printf '%s\n' "$_out" | awk -v m="$_metric" '
        BEGIN { key = m; inphase = 0
                if (m ~ /^phase\./) { key = substr(m, 7); inphase = 1 } }
        /"feasible": false/ { bad = 1 }
        /"phase_time_s": \{/ { inph = 1; next }
        inph && /\}/ { inph = 0 }
        {
            line = $0; gsub(/[",]/, "", line); split(line, kv, ":")
            k = kv[1]; gsub(/^[ \t]+|[ \t]+$/, "", k)
            v = kv[2]; gsub(/^[ \t]+|[ \t]+$/, "", v)
            if (!inph && k == "tokens_trained") tt = v
            if (!inph && k == "samples_trained") st = v
            if (k == key && ((inphase && inph) || (!inphase && !inph)) && !found) { val = v; found = 1 }
        }
        END {
            if (m == "seq_mean" && st > 0) { printf "%.1f\n", tt / st; exit 0 }
            if (bad) { print "infeasible plan" > "/dev/stderr"; exit 2 }
            if (!found) { print "no figure " m " in the report" > "/dev/stderr"; exit 2 }
            print val
        }'
}
