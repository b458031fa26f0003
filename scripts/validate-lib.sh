# Shared by scripts/validate.sh and scripts/validate-fit.sh (sourced, not run).
# run_metric SCENARIO METRIC [ARGS...]: one `fusync run ... --json -` and the
# figure METRIC from it on standard output.  METRIC is a top-level number of
# the JSON report (step_time_s, throughput_tokens_per_s, ...), phase.NAME for
# a phase's seconds (phase_time_s.NAME), infer.NAME for a part of the
# inference phase (inference_time_s.NAME), mfu.NAME for a model FLOPs
# utilization (mfu.train, mfu.generate, mfu.inference), or seq_mean: tokens trained per
# sample trained.  Status 2 when the run fails or the plan is infeasible; the
# reason (fusync's own message) goes to standard error.
run_metric() {
    _scn=$1 _metric=$2
    shift 2
    _err=$(mktemp "${TMPDIR:-/tmp}/fusync-validate.XXXXXX") || return 2
    _out=$("$FUSYNC" run "$_scn" --quiet --json - "$@" 2>"$_err") || {
        echo "validate: fusync run $_scn${*:+ $*} failed:" >&2
        tail -n 3 "$_err" >&2
        # --quiet keeps an infeasible plan's reason in the report only
        printf '%s\n' "$_out" | sed -n 's/^  "infeasible_reason": "\(.*\)",*$/  infeasible: \1/p' >&2
        rm -f "$_err"
        return 2
    }
    rm -f "$_err"
    printf '%s\n' "$_out" | awk -v m="$_metric" '
        BEGIN { key = m; inphase = 0; blk = ""
                if (m ~ /^phase\./) { key = substr(m, 7); inphase = 1; blk = "phase_time_s" }
                if (m ~ /^infer\./) { key = substr(m, 7); inphase = 1; blk = "inference_time_s" }
                if (m ~ /^mfu\./) { key = substr(m, 5); inphase = 1; blk = "mfu" } }
        /^  "feasible": false/ { bad = 1 }
        blk != "" && index($0, "  \"" blk "\": {") == 1 { inph = 1; next }
        inph && /\}/ { inph = 0 }
        # top-level keys are indented by two spaces, phase keys by four
        /^  "/ || (inph && /^    "/) {
            line = $0; gsub(/[",]/, "", line); split(line, kv, ":")
            k = kv[1]; gsub(/^[ \t]+|[ \t]+$/, "", k)
            v = kv[2]; gsub(/^[ \t]+|[ \t]+$/, "", v)
            if (!inph && k == "tokens_trained") tt = v
            if (!inph && k == "samples_trained") st = v
            if (k == key && inphase == inph && !found) { val = v; found = 1 }
        }
        END {
            if (bad) { print "infeasible plan" > "/dev/stderr"; exit 2 }
            if (m == "seq_mean") {
                if (st > 0) { printf "%.1f\n", tt / st; exit 0 }
                print "no samples trained" > "/dev/stderr"; exit 2
            }
            if (!found) { print "no figure " m " in the report" > "/dev/stderr"; exit 2 }
            print val
        }'
}
