#!/bin/sh
# make bench: wall time, events, events per second and peak RSS of the
# examples and of some large runs.  Figures are printed, never asserted.  Needs $FUSYNC; GNU time (Debian package `time`) for peak RSS.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=""
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fusync-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

row() {  # row LABEL ARGS...
    label=$1
    shift
    if [ -n "$TIME" ]; then
        "$TIME" -f "%M" -o "$tmp/rss" "$F" run "$@" --quiet --json "$tmp/r.json" >/dev/null 2>&1
    else
        "$F" run "$@" --quiet --json "$tmp/r.json" >/dev/null 2>&1
    fi
    st=$?
    rss=$( [ -n "$TIME" ] && tail -n 1 "$tmp/rss" || echo "?")
    if [ $st -gt 1 ] || [ ! -s "$tmp/r.json" ]; then
        printf '%-44s  failed (status %d)\n' "$label" "$st"
        return
    fi
    # pull figures out of the JSON without a JSON tool: keys are one per line
    get() { sed -n "s/^ *\"$1\": *\([0-9.e+-]*\).*/\1/p" "$tmp/r.json" | head -n 1; }
    wall=$(get sim_wall_s)
    loop=$(get sim_loop_wall_s)
    ev=$(get events)
    ops=$(get pipeline_ops)
    tput=$(get throughput_tokens_per_s)
    awk -v l="$label" -v w="$wall" -v lw="$loop" -v e="$ev" -v o="$ops" -v r="$rss" -v t="$tput" 'BEGIN {
        rate = (lw > 0) ? e / lw : 0;
        printf "%-44s %8.1f ms %9d ev %6.2f M ev/s %9d ops %7s MiB %9.0f tok/s\n",
               l, w * 1000, e, rate / 1e6, o, (r == "?") ? "?" : sprintf("%.0f", r / 1024), t }'
}

echo "fusync bench: simulator wall time; events and the event loop's own rate (wall less set-up and the analytic"
echo "training tasks); 1F1B pipeline ops resolved; peak RSS; the simulated throughput"
echo
echo "== examples"
for ex in examples/qwen7b_h100x16.lua examples/llama70b_h100x64.lua examples/pangu718b_cm384.lua; do
    for m in separate colocate full; do
        case "$ex:$m" in *llama70b*:colocate) continue ;; esac
        row "$(basename "$ex" .lua) --mode $m" "$ex" --mode "$m"
    done
done
row "pangu718b_cm384 StaleSync (s=2, p=0.6)" examples/pangu718b_cm384.lua --mode colocate --staleness 2 --set plan.partial_rollout=0.6
echo
echo "== targets: one supernode < 100 ms; 4 supernodes x 20 iterations < 2 s and < 256 MiB"
row "pangu 1 supernode (default plan)" examples/pangu718b_cm384.lua
row "pangu 4 supernodes, 20 iterations, colocate" examples/pangu718b_cm384.lua --set cluster.supernodes=4 --iterations 20
row "pangu 4 supernodes, 20 iterations, separate" examples/pangu718b_cm384.lua --mode separate --set cluster.supernodes=4 --iterations 20
row "pangu 4 supernodes, 20 it, StaleSync" examples/pangu718b_cm384.lua --set cluster.supernodes=4 --iterations 20 --staleness 2 --set plan.partial_rollout=0.6
echo
echo "== the event loop (target >= 3 M events/s): generation-bound, many short samples"
row "qwen7b x 32 nodes, 16k short samples" examples/qwen7b_h100x16.lua --set cluster.supernodes=16 \
    --set workload.prompts_per_step=2048 --set workload.response_len.median=64 --set workload.response_len.cap=256 \
    --set workload.max_response=256 --set plan.rollout.max_seqs=64 --iterations 4 --mode separate
echo
echo "== terminal front end (targets: a frame of the 1536-device run < 10 ms; what-if edit to first frame < 100 ms)"
FUSYNC_TUI_BENCH=50 "$F" tui examples/pangu718b_cm384.lua --set cluster.supernodes=4 </dev/null 2>&1 | tail -n 1
FUSYNC_TUI_BENCH=50 "$F" tui examples/pangu718b_cm384.lua </dev/null 2>&1 | tail -n 1
for b in scripts/bench_*.sh; do
    [ -f "$b" ] || continue
    echo
    echo "== $(basename "$b")"
    FUSYNC="$F" sh "$b"
done
