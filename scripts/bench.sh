#!/bin/sh
# make bench: how fast the simulator is.  Figures are printed, never asserted.
# Needs $FUSYNC; GNU time (Debian package `time`) for peak RSS; $HEAP_HOLD
# (scripts/heap_hold.c, built by `make bench`) for the bare event-queue
# comparison.  Runs the other scripts/bench_*.sh at the end.
#
# Each row runs `fusync run ... --json` BENCH_RUNS times (default 5: a
# shared virtual machine varies by a third from run to run) and prints medians:
#   ev/s        events over the simulation's whole wall time (set-up, the
#               analytic training tasks and the event loop): the honest figure
#   loop ev/s   events over the event loop's own time (set-up and tasks left
#               out): a flattering figure, shown beside it and labelled
#   sim s/s     simulated seconds per wall second
#   per step    simulation wall time per simulated training step
#   process     the whole command's wall time (Lua load and report included)
#   cpu         the command's CPU time, user + system (GNU time, 10 ms steps):
#               on a busy shared machine wall times grow, this much less
#   RSS         peak resident memory of the process
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.." || exit 2
RUNS=${BENCH_RUNS:-5}
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=""
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fusync-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
P=examples/pangu718b_cm384.lua

now_ns() { date +%s%N; }

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

row() {  # row LABEL ARGS...
    label=$1
    shift
    : >"$tmp/walls"; : >"$tmp/loops"; : >"$tmp/procs"; : >"$tmp/rsss"; : >"$tmp/cpus"
    i=0
    while [ $i -lt "$RUNS" ]; do
        i=$((i + 1))
        # ROW_PRE: a command run before each timed run, outside the timing
        [ -n "${ROW_PRE:-}" ] && eval "$ROW_PRE"
        t0=$(now_ns)
        if [ -n "$TIME" ]; then
            "$TIME" -f "%M %U %S" -o "$tmp/rss" "$F" run "$@" --quiet --json "$tmp/r.json" >/dev/null 2>&1
        else
            "$F" run "$@" --quiet --json "$tmp/r.json" >/dev/null 2>&1
        fi
        st=$?
        t1=$(now_ns)
        if [ $st -gt 1 ] || [ ! -s "$tmp/r.json" ]; then
            printf '%-36s  failed (status %d)\n' "$label" "$st"
            return
        fi
        # keys are one per line in fusync's JSON
        get() { sed -n "s/^ *\"$1\": *\([0-9.e+-]*\).*/\1/p" "$tmp/r.json" | head -n 1; }
        get sim_wall_s >>"$tmp/walls"
        get sim_loop_wall_s >>"$tmp/loops"
        echo $(((t1 - t0) / 1000)) >>"$tmp/procs"
        if [ -n "$TIME" ]; then
            tail -n 1 "$tmp/rss" | awk '{ print $1 }' >>"$tmp/rsss"
            tail -n 1 "$tmp/rss" | awk '{ print ($2 + $3) * 1000 }' >>"$tmp/cpus"
        else
            echo 0 >>"$tmp/rsss"
            echo 0 >>"$tmp/cpus"
        fi
    done
    wall=$(median <"$tmp/walls")
    loop=$(median <"$tmp/loops")
    proc=$(median <"$tmp/procs")
    rss=$(median <"$tmp/rsss")
    cpu=$(median <"$tmp/cpus")
    ev=$(get events)
    simt=$(get sim_time_s)
    its=$(get iterations)
    awk -v l="$label" -v w="$wall" -v lw="$loop" -v e="$ev" -v st="$simt" -v it="$its" -v p="$proc" -v r="$rss" -v c="$cpu" -v tm="$TIME" 'BEGIN {
        printf "%-36s %6.3f M ev/s (loop only %5.2f M ev/s) %7.0f sim s/s %7.1f ms/step %7.1f ms (cpu %5s ms) %5s MiB %8d ev\n",
               l, (w > 0) ? e / w / 1e6 : 0, (lw > 0) ? e / lw / 1e6 : 0, (w > 0) ? st / w : 0,
               (it > 0) ? w * 1000 / it : 0, p / 1000, (tm == "") ? "?" : (c > 0) ? sprintf("%.0f", c) : "<10",
               (r > 0) ? sprintf("%.0f", r / 1024) : "?", e }'
}

echo "fusync bench ($(uname -m), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) cores; medians of $RUNS runs)"
echo "columns: events/s over the simulation's whole wall time | the event loop's own rate (set-up and"
echo "analytic tasks left out) | simulated seconds per wall second | simulation wall per training step |"
echo "the command's wall time (and its CPU time) | peak RSS | events"
echo
echo "== one supernode (pangu718b_cm384, 384 NPUs, 8 iterations)   target: < 50 ms a run in every mode"
for m in separate colocate full; do
    row "1 supernode, $m" "$P" --mode "$m"
done
row "1 supernode, StaleSync (s=2, p=0.6)" "$P" --mode colocate --staleness 2 --set plan.partial_rollout=0.6
echo
echo "== 4 supernodes x 20 iterations (1536 NPUs)   target: < 0.3 s and < 100 MiB"
for m in separate colocate full; do
    row "4 supernodes x 20, $m" "$P" --mode "$m" --set cluster.supernodes=4 --iterations 20
done
echo
echo "== the Chrome trace: 4 supernodes x 20, colocate, with --trace   target: < 2x the run without"
# each run replaces the last one's trace, as a user re-running to one path
# does: the rename frees the old file's blocks, which the filesystem may make
# slow (ext4 mounted with discard: 50-80 ms for 194 MiB).  Then the same into
# a new file each time (the old one removed outside the timing), beside it.
row "4 supernodes x 20, colocate, --trace" "$P" --mode colocate --set cluster.supernodes=4 --iterations 20 \
    --trace "$tmp/trace.json"
ROW_PRE='rm -f "$tmp/trace-new.json"'
row "  the same, into a new file each run" "$P" --mode colocate \
    --set cluster.supernodes=4 --iterations 20 --trace "$tmp/trace-new.json"
ROW_PRE=
ls -l "$tmp/trace.json" 2>/dev/null | awk '{ printf "  (a trace of %.0f MiB)\n", $5 / 1048576 }'
# The rows above time the runs minutes apart, and this machine's rate moves
# from one minute to the next: the ratio itself is taken in rounds of three
# runs back to back (without, replacing the last trace, into a new file),
# each round's own ratios, their median over TRACE_ROUNDS rounds.
tr_run() { "$F" run "$P" --mode colocate --set cluster.supernodes=4 --iterations 20 --quiet --json "$tmp/t.json" "$@" >/dev/null 2>&1; }
: >"$tmp/tr"
i=0
while [ $i -lt "${TRACE_ROUNDS:-7}" ]; do
    i=$((i + 1))
    t0=$(now_ns); tr_run; t1=$(now_ns)
    tr_run --trace "$tmp/trace.json"; t2=$(now_ns)
    rm -f "$tmp/trace-new.json"
    t3=$(now_ns); tr_run --trace "$tmp/trace-new.json"; t4=$(now_ns)
    echo "$(((t1 - t0) / 1000)) $(((t2 - t1) / 1000)) $(((t4 - t3) / 1000))" >>"$tmp/tr"
done
awk '{ r1 = $2 / $1; r2 = $3 / $1; print r1, r2, $1, $2, $3 }' "$tmp/tr" >"$tmp/trr"
tr_med() { awk -v c="$1" '{ print $c }' "$tmp/trr" | median; }
awk -v a="$(tr_med 1)" -v b="$(tr_med 2)" -v u="$(tr_med 3)" -v r="$(tr_med 4)" -v n="$(tr_med 5)" -v k="${TRACE_ROUNDS:-7}" 'BEGIN {
    printf "  in %d rounds of three runs back to back (the command'"'"'s wall time, medians): without %.0f ms, replacing\n", k, u / 1000
    printf "  the last trace %.0f ms, into a new file %.0f ms; the traced run over the untraced one, each round'"'"'s\n", r / 1000, n / 1000
    printf "  own ratio, median: %.2fx replacing, %.2fx into a new file   (target < 2x)\n", a, b }'
# The disk's own share: a file of the trace's size written and synced as the
# writer does (1 MiB writes, fsync), then removed, as replacing a trace
# removes the last one.  A traced run cannot end before its trace is on the
# disk: this is the floor under it.
mib=$(ls -l "$tmp/trace.json" 2>/dev/null | awk '{ printf "%d", $5 / 1048576 + 0.5 }')
if [ -n "$mib" ] && [ "$mib" -gt 0 ]; then
    t0=$(now_ns)
    dd if=/dev/zero of="$tmp/disk.bin" bs=1M count="$mib" conv=fsync 2>/dev/null
    t1=$(now_ns)
    rm -f "$tmp/disk.bin"
    t2=$(now_ns)
    printf '  this disk alone: %s MiB written in 1 MiB writes and synced in %.0f ms, removed in %.0f ms\n' \
        "$mib" "$(((t1 - t0) / 1000000))" "$(((t2 - t1) / 1000000))"
fi
echo
echo "== 32 supernodes x 20 iterations (12288 NPUs)   target: < 2 s and < 256 MiB"
row "32 supernodes x 20, colocate" "$P" --mode colocate --set cluster.supernodes=32 --iterations 20
echo
echo "== linearity: simulation wall time against the work (events), colocate, ${LIN_RUNS:-5} runs each"
echo "   target: linear in supernodes and iterations (the exponent of wall time against events 1.00);"
echo "   the exponent is taken on each row's fastest run (the VM's noise only adds time), the median beside"
# lin LABEL ARGS...: the fastest and the median sim_wall_s, the events, ns an
# event, and the exponent against the row above (log of the fastest walls'
# ratio over log of the events' ratio) within each series
lin_prev_w=0; lin_prev_e=0
lin() {
    label=$1
    shift
    : >"$tmp/lw"
    i=0
    while [ $i -lt "${LIN_RUNS:-5}" ]; do
        i=$((i + 1))
        "$F" run "$@" --quiet --json "$tmp/l.json" >/dev/null 2>&1 || { printf '%-30s failed\n' "$label"; return; }
        sed -n 's/^ *"sim_wall_s": *\([0-9.e+-]*\).*/\1/p' "$tmp/l.json" | head -n 1 >>"$tmp/lw"
    done
    w=$(sort -g "$tmp/lw" | head -n 1)
    wm=$(median <"$tmp/lw")
    e=$(sed -n 's/^ *"events": *\([0-9]*\).*/\1/p' "$tmp/l.json" | head -n 1)
    awk -v l="$label" -v w="$w" -v wm="$wm" -v e="$e" -v pw="$lin_prev_w" -v pe="$lin_prev_e" 'BEGIN {
        x = (pw > 0 && pe > 0 && e != pe) ? sprintf("%5.2f", log(w / pw) / log(e / pe)) : "    -"
        printf "%-24s fastest %7.3f s (median %7.3f s) %8d events %5.0f ns/event (median %5.0f)  exponent %s\n",
               l, w, wm, e, w / e * 1e9, wm / e * 1e9, x }'
    [ "$lin_prev_w" = 0 ] && { lin_first_w=$w; lin_first_e=$e; }
    lin_prev_w=$w; lin_prev_e=$e
}
# the exponent from the series' first row to its last
lin_whole() {
    awk -v w0="$lin_first_w" -v e0="$lin_first_e" -v w1="$lin_prev_w" -v e1="$lin_prev_e" -v l="$1" 'BEGIN {
        if (w0 > 0 && e0 > 0 && e1 != e0) printf "  %s: exponent %.2f over the series (%.1fx the events, %.1fx the time)\n",
            l, log(w1 / w0) / log(e1 / e0), e1 / e0, w1 / w0 }'
}
for sn in 2 4 8 16 32; do
    lin "$sn supernodes x 20" "$P" --mode colocate --set cluster.supernodes=$sn --iterations 20
done
lin_whole "2 to 32 supernodes"
lin_prev_w=0; lin_prev_e=0
for it in 10 20 40 80; do
    lin "4 supernodes x $it" "$P" --mode colocate --set cluster.supernodes=4 --iterations $it
done
lin_whole "10 to 80 iterations"
echo
echo "== the event queue bare: the engine's binary heap, hold model, at the engine's own mean queue length,"
echo "   and (labelled, beside) at the mean number of pending finishes a flat event set would hold"
HH=${HEAP_HOLD:-}
if [ -n "$HH" ] && [ -x "$HH" ]; then
    echo "1 supernode, colocate:"
    "$HH" "$P" plan.mode=colocate
    echo "4 supernodes x 20, colocate:"
    "$HH" "$P" plan.mode=colocate cluster.supernodes=4 workload.iterations=20
    echo "32 supernodes x 5, colocate:"
    "$HH" "$P" plan.mode=colocate cluster.supernodes=32 workload.iterations=5
else
    echo "heap_hold: not built (make bench builds build/heap_hold and passes it as HEAP_HOLD)"
fi
echo
echo "== the other examples"
for ex in examples/qwen7b_h100x16.lua examples/llama70b_h100x64.lua; do
    for m in separate colocate full; do
        case "$ex:$m" in *llama70b*:colocate) continue ;; esac
        row "$(basename "$ex" .lua) $m" "$ex" --mode "$m"
    done
done
row "qwen7b x 1,000 iterations" examples/qwen7b_h100x16.lua --set workload.iterations=1000
# memory against iterations: a headless run stores no span, so what grows is
# the samples (every step's drawn up front, 56 bytes each)
row "qwen7b x 10,000 iterations" examples/qwen7b_h100x16.lua --set workload.iterations=10000
row "qwen7b x 32 nodes, 16k short samples" examples/qwen7b_h100x16.lua --set cluster.supernodes=16 \
    --set workload.prompts_per_step=2048 --set workload.response_len.median=64 --set workload.response_len.cap=256 \
    --set workload.max_response=256 --set plan.rollout.max_seqs=64 --iterations 4 --mode separate
echo
echo "== terminal front end, frames while the run plays and a what-if edit to its final answer"
echo "   (targets: a frame of the 1536-device x 20-iteration run < 10 ms; the edit < 100 ms on one supernode)"
FUSYNC_TUI_BENCH=300 "$F" tui "$P" --set cluster.supernodes=4 --iterations 20 </dev/null 2>&1
FUSYNC_TUI_BENCH=300 "$F" tui "$P" </dev/null 2>&1
for b in scripts/bench_*.sh; do
    [ -f "$b" ] || continue
    echo
    echo "== $(basename "$b")"
    FUSYNC="$F" sh "$b"
done
