#!/bin/sh
# A real Slurm in the tests: sweeps (and plans) as job arrays, merged.
#
# As root with the Slurm packages installed, this brings up a one-machine
# cluster (scripts/slurm-local.sh) in a scratch folder; where Slurm is
# already there (sinfo answers), it uses that cluster; elsewhere it skips.
# Then, through scripts/slurm-sweep.sh:
#   1. a 3-shard job array and its merge job: the merged CSV is byte-identical
#      to the unsharded `fusync sweep`;
#   2. a cancelled shard: the merge job never runs, `fusync merge` names the
#      shard and fails without writing a table; re-running that shard alone
#      (--only) and merging gives the full table again;
#   3. a 2-shard `fusync plan` through scripts/slurm-plan.sh: the merged CSV
#      and JSON are byte-identical to the unsharded plan.
# The cluster is brought down on exit, whatever happens.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
FUSYNC=${FUSYNC:-$root/build/fusync}
SCEN="$root/examples/qwen7b_h100x16.lua"
WHATIF="$root/examples/whatif_staleness.lua"
FOPTS="--set workload.iterations=2"
WAIT=${SLURM_TEST_TIMEOUT:-90}       # seconds for one round of jobs
pass=0 fail=0 mode="" work=""

ok()   { pass=$((pass + 1)); }
bad()  { fail=$((fail + 1)); printf 'slurm: FAIL: %s\n' "$*" >&2; }
# FUSYNC_SLURM_STATUS=FILE: one line saying whether the real test ran (make
# test prints it in its summary).
status() { if [ -n "${FUSYNC_SLURM_STATUS:-}" ]; then printf '%s\n' "$*" >"$FUSYNC_SLURM_STATUS"; fi; }
skip() {
    status "skipped: $*"
    printf 'slurm: skipped: %s\nslurm: 0 passed, 0 failed, 1 skipped\n' "$*"
    exit 0
}
check() { # check DESCRIPTION COMMAND...
    d=$1; shift
    if "$@"; then ok; else bad "$d"; fi
}

cleanup() {
    rc=$?
    trap - EXIT INT TERM
    if [ "$mode" = local ]; then
        sh "$root/scripts/slurm-local.sh" down >"$work/down.log" 2>&1 ||
            { echo "slurm: cluster did not come down cleanly:" >&2; cat "$work/down.log" >&2; rc=1; }
    elif [ "$mode" = existing ] && [ -s "$work/jobids" ]; then
        # shellcheck disable=SC2046
        scancel $(cat "$work/jobids") 2>/dev/null || true
    fi
    if [ -n "$work" ]; then rm -rf "$work"; fi
    exit "$rc"
}

# --- where can this run? -------------------------------------------------------
[ -x "$FUSYNC" ] || { echo "slurm: FAIL: no fusync binary at $FUSYNC" >&2; exit 1; }
have() { for c in "$@"; do command -v "$c" >/dev/null 2>&1 || return 1; done; }
if [ "$(id -u)" -eq 0 ] && have munged mungekey slurmctld slurmd sbatch squeue scancel scontrol sinfo; then
    mode=local
elif have sbatch squeue scancel scontrol sinfo timeout && timeout 30 sinfo -h >/dev/null 2>&1; then
    mode=existing
elif [ "$(id -u)" -eq 0 ]; then
    skip "Slurm is not installed (Debian: slurmctld slurmd slurm-client munge; scripts/deps.sh)"
else
    skip "not root and no Slurm cluster answers (sinfo)"
fi

if [ "$mode" = existing ]; then
    # Job outputs must be on a file system the compute nodes share: beside
    # the binary (the build folder) if we may write there.
    work=$(mktemp -d "$(dirname "$FUSYNC")/slurm-test.XXXXXX" 2>/dev/null) ||
        work=$(mktemp -d "${TMPDIR:-/tmp}/fusync-slurm-test.XXXXXX")
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/fusync-slurm-test.XXXXXX")
fi
export SLURM_LOCAL_DIR="$work/cluster"     # ours alone: never someone else's
trap cleanup EXIT
trap 'exit 130' INT TERM

# The unsharded runs, the references.
# shellcheck disable=SC2086
if ! "$FUSYNC" sweep "$SCEN" "$WHATIF" $FOPTS --csv "$work/full.csv" --json "$work/full.json" \
        >"$work/full.out" 2>"$work/full.err"; then
    cat "$work/full.err" >&2
    echo "slurm: FAIL: the unsharded fusync sweep failed" >&2
    exit 1
fi
if ! "$FUSYNC" plan "$SCEN" --csv "$work/plan-full.csv" --json "$work/plan-full.json" \
        >"$work/plan.out" 2>"$work/plan.err"; then
    cat "$work/plan.err" >&2
    echo "slurm: FAIL: the unsharded fusync plan failed" >&2
    exit 1
fi

# --- the cluster -------------------------------------------------------------------
if [ "$mode" = local ]; then
    # Free ports: another cluster (one started by hand, another test run) may
    # hold some, or take them between the check and the start; then the start
    # fails and cleans up after itself, and the next pair is tried.
    up=0
    for base in 16817 16917 17017 17117 17217; do
        export SLURM_LOCAL_CTLD_PORT="$base" SLURM_LOCAL_SLURMD_PORT=$((base + 1))
        if sh "$root/scripts/slurm-local.sh" up >"$work/up.log" 2>&1; then up=1; break; fi
        cat "$work/up.log" >>"$work/up-tries.log"
    done
    if [ "$up" -ne 1 ]; then
        cat "$work/up-tries.log" >&2
        echo "slurm: FAIL: the local Slurm cluster did not come up" >&2
        exit 1
    fi
    export SLURM_CONF="$SLURM_LOCAL_DIR/slurm.conf"
fi

# submit OUTPUT-FILE SCRIPT ARGS...: run a submit script, keep its output,
# remember the job ids for the clean-up.
submit() {
    o=$1; shift
    st=0
    sh "$@" >"$o" 2>&1 || st=$?
    sed -n -e 's/^ARRAY_JOB=//p' -e 's/^MERGE_JOB=//p' "$o" >>"$work/jobids"
    [ "$st" -eq 0 ] || { cat "$o" >&2; return "$st"; }
}
val() { sed -n "s/^$1=//p" "$2" | tail -n 1; }

# wait_gone JOBID...: wait until none of the jobs is queued or running.
wait_gone() {
    ids=$(echo "$*" | tr ' ' ',')
    t0=$(date +%s)
    while squeue -h -j "$ids" -o '%i' 2>/dev/null | grep -q .; do
        [ $(($(date +%s) - t0)) -lt "$WAIT" ] || return 1
        sleep 1
    done
}

# --- 1. a sharded sweep, merged, equals the unsharded sweep -------------------------
# shellcheck disable=SC2086
if submit "$work/s1.log" "$root/scripts/slurm-sweep.sh" "$SCEN" "$WHATIF" --shards 3 \
        --out "$work/s1" $FOPTS --wait --timeout "$WAIT"; then
    ok
    check "merged sweep CSV differs from the unsharded sweep" cmp -s "$work/full.csv" "$work/s1/sweep.csv"
    check "merged sweep JSON differs from the unsharded sweep" cmp -s "$work/full.json" "$work/s1/sweep.json"
    check "submit script did not print the job ids" grep -q '^MERGE_JOB=[0-9]' "$work/s1.log"
    i=1
    while [ "$i" -le 3 ]; do
        check "shard $i left no output" test -s "$work/s1/shards/sweep-$i-of-3.csv"
        i=$((i + 1))
    done
else
    bad "slurm-sweep.sh --shards 3 --wait failed (log above)"
fi

# --- 2. a cancelled shard is named, and can be re-run alone -------------------------
# Submit held, cancel shard 2 before it runs, release the rest.
# shellcheck disable=SC2086
if submit "$work/s2.log" "$root/scripts/slurm-sweep.sh" "$SCEN" "$WHATIF" --shards 3 \
        --out "$work/s2" $FOPTS -- --hold; then
    a=$(val ARRAY_JOB "$work/s2.log") m=$(val MERGE_JOB "$work/s2.log")
    scancel "${a}_2" || bad "scancel ${a}_2 failed"
    scontrol release "$a" >/dev/null 2>&1 || true
    scontrol release "$m" >/dev/null 2>&1 || true
    if wait_gone "$a" "$m"; then
        ok
        check "the merge ran although shard 2 was cancelled" test ! -e "$work/s2/sweep.csv"
        check "cancelled shard 2 left output" test ! -e "$work/s2/shards/sweep-2-of-3.csv"
        # fusync merge on what is there: fails, names shard 2, writes nothing.
        st=0
        "$FUSYNC" merge "$work/s2/shards/sweep-1-of-3.json" "$work/s2/shards/sweep-3-of-3.json" \
            --csv "$work/s2/partial.csv" --json "$work/s2/partial.json" \
            >"$work/merge2.out" 2>"$work/merge2.err" || st=$?
        check "fusync merge with shard 2 missing exited 0" test "$st" -ne 0
        check "fusync merge did not name the missing shard 2/3" grep -q '2/3' "$work/merge2.err"
        check "fusync merge wrote a table although shard 2 is missing" test ! -s "$work/s2/partial.csv"
        # The same merge over every expected file, as the merge job runs it.
        st=0
        "$FUSYNC" merge "$work/s2/shards/sweep-1-of-3.json" "$work/s2/shards/sweep-2-of-3.json" \
            "$work/s2/shards/sweep-3-of-3.json" --csv "$work/s2/partial.csv" \
            >"$work/merge3.out" 2>"$work/merge3.err" || st=$?
        check "fusync merge with shard 2's file absent exited 0" test "$st" -ne 0
        check "fusync merge did not name shard 2's file" grep -q 'sweep-2-of-3' "$work/merge3.err"
        # Re-run shard 2 alone; the merge then completes.
        # shellcheck disable=SC2086
        if submit "$work/s2b.log" "$root/scripts/slurm-sweep.sh" "$SCEN" "$WHATIF" --shards 3 \
                --out "$work/s2" --only 2 $FOPTS --wait --timeout "$WAIT"; then
            ok
            check "sweep merged after re-running shard 2 differs from the unsharded sweep" \
                cmp -s "$work/full.csv" "$work/s2/sweep.csv"
            check "shard 2 was not re-run alone" grep -q '^ARRAY_JOB=' "$work/s2b.log"
        else
            bad "re-running shard 2 alone (--only 2) failed (log above)"
        fi
    else
        bad "jobs $a and $m were still there after ${WAIT}s"
    fi
else
    bad "slurm-sweep.sh with a held array failed (log above)"
fi

# --- 3. a sharded plan, merged, equals the unsharded plan ---------------------------
if submit "$work/p1.log" "$root/scripts/slurm-plan.sh" "$SCEN" --shards 2 \
        --out "$work/p1" --wait --timeout "$WAIT"; then
    ok
    check "merged plan JSON differs from the unsharded plan" cmp -s "$work/plan-full.json" "$work/p1/plan.json"
    check "merged plan CSV differs from the unsharded plan" cmp -s "$work/plan-full.csv" "$work/p1/plan.csv"
else
    bad "slurm-plan.sh --shards 2 --wait failed (log above)"
fi

echo "slurm: ran on the $mode Slurm cluster"
echo "slurm: $pass passed, $fail failed"
status "ran on the $mode Slurm cluster: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
