#!/bin/sh
# Run a fusync what-if sweep as a Slurm job array, then merge the shards.
#
#   scripts/slurm-sweep.sh SCENARIO WHATIF.lua --shards N [--out DIR]
#                          [--only LIST] [--throttle K] [--wait [--timeout S]] [--dry-run]
#                          [FUSYNC OPTIONS...] [-- SBATCH OPTIONS...]
#
# Submits one job array of N tasks (indices 1..N); task I runs
#   fusync sweep SCENARIO WHATIF.lua --shard I/N --csv ... --json ...
# and one job that depends on the whole array (--dependency=afterok) and
# runs `fusync merge` into DIR/sweep.csv and DIR/sweep.json.
# scripts/slurm-plan.sh does the same for `fusync plan`.  See docs/cluster.md.
#
# Options:
#   --shards N       how many shards (array tasks); required
#   --out DIR        where everything lands (default ./slurm-sweep-DATE-TIME);
#                    must be on a file system that the compute nodes share
#   --only LIST      re-run only these shards (a Slurm array list: 3 or 2,5
#                    or 1-4) into an existing DIR, then merge all N again
#   --throttle K     run at most K shards at once (--array=...%K)
#   --wait           wait for the merge job; exit 0 only if it succeeded
#   --timeout S      with --wait: give up after S seconds (exit 1; the jobs
#                    are left as they are)
#   --dry-run        write the job scripts and print the sbatch commands,
#                    submit nothing
#   other options before `--` (e.g. --set workload.iterations=2, --jobs 4)
#   are passed to every `fusync` shard; options after `--` go to sbatch for
#   both jobs (e.g. -- --partition=cpu --time=01:00:00 --cpus-per-task=4)
#
# The fusync binary: $FUSYNC, else ../build/fusync beside this script, else
# `fusync` on PATH.  The sbatch/squeue of the environment are used (set
# SLURM_CONF for a local test cluster: scripts/slurm-local.sh).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cmd=sweep
prog=slurm-sweep
if [ "${1:-}" = "--command" ]; then        # used by slurm-plan.sh
    cmd=${2:?}
    prog=slurm-$cmd
    shift 2
fi

self="$here/$prog.sh"
say() { printf '%s: %s\n' "$prog" "$*"; }
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 2; }

usage() {
    if [ "$cmd" = sweep ]; then
        echo "Usage: $self SCENARIO WHATIF.lua --shards N [--out DIR] [--only LIST] [--throttle K] [--wait [--timeout S]] [--dry-run] [FUSYNC OPTIONS] [-- SBATCH OPTIONS]"
    else
        echo "Usage: $self SCENARIO --shards N [--out DIR] [--only LIST] [--throttle K] [--wait [--timeout S]] [--dry-run] [FUSYNC OPTIONS] [-- SBATCH OPTIONS]"
    fi
    echo "See the comment at the top of $here/slurm-sweep.sh and docs/cluster.md."
}

# q WORD: WORD quoted for a POSIX shell.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

abspath() {
    case "$1" in
        /*) printf '%s' "$1" ;;
        *) printf '%s/%s' "$(pwd)" "$1" ;;
    esac
}

# --- arguments ------------------------------------------------------------
scenario="" whatif="" shards="" out="" only="" wait=0 dry=0 timeout=0 throttle=""
fopts=""      # quoted words for fusync
sopts=""      # quoted words for sbatch
npos=0
[ "$cmd" = sweep ] && npos_want=2 || npos_want=1
while [ $# -gt 0 ]; do
    case "$1" in
        --shards) [ $# -ge 2 ] || die "--shards needs a number"; shards=$2; shift 2 ;;
        --shards=*) shards=${1#*=}; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
        --out=*) out=${1#*=}; shift ;;
        --only) [ $# -ge 2 ] || die "--only needs a list of shards"; only=$2; shift 2 ;;
        --only=*) only=${1#*=}; shift ;;
        --throttle) [ $# -ge 2 ] || die "--throttle needs a number"; throttle=$2; shift 2 ;;
        --throttle=*) throttle=${1#*=}; shift ;;
        --wait) wait=1; shift ;;
        --timeout) [ $# -ge 2 ] || die "--timeout needs seconds"; timeout=$2; shift 2 ;;
        --timeout=*) timeout=${1#*=}; shift ;;
        --dry-run) dry=1; shift ;;
        -h|--help)
            usage
            sed -n '/^# Options:/,/^set -eu/p' "$here/slurm-sweep.sh" | sed '$d; s/^# \{0,1\}//'
            exit 0 ;;
        --shard|--shard=*|--csv|--csv=*|--json|--json=*)
            die "$1 is set by this script (one shard per array task; results in --out)" ;;
        --) shift
            for a in "$@"; do sopts="$sopts $(q "$a")"; done
            break ;;
        -*) # a fusync option; take its value too when it has one
            fopts="$fopts $(q "$1")"
            case "$1" in
                *=*|--quiet|--no-color|--ascii|--no-mouse) ;;
                *) if [ $# -ge 2 ]; then shift; fopts="$fopts $(q "$1")"; fi ;;
            esac
            shift ;;
        *)  npos=$((npos + 1))
            case "$npos" in
                1) scenario=$1 ;;
                2) [ "$cmd" = sweep ] || { usage >&2; die "unexpected argument '$1'"; }
                   whatif=$1 ;;
                *) usage >&2; die "unexpected argument '$1'" ;;
            esac
            shift ;;
    esac
done
[ "$npos" -eq "$npos_want" ] || { usage >&2; exit 2; }
case "$shards" in
    ''|*[!0-9]*|0*) usage >&2; die "--shards N needs a whole number N >= 1" ;;
esac
[ -r "$scenario" ] || die "cannot read scenario '$scenario'"
scenario=$(abspath "$scenario")
if [ "$cmd" = sweep ]; then
    [ -r "$whatif" ] || die "cannot read what-if file '$whatif'"
    whatif=$(abspath "$whatif")
fi
case "$throttle" in
    '') ;;
    *[!0-9]*|0*) die "--throttle K needs a whole number K >= 1" ;;
esac
case "$timeout" in
    ''|*[!0-9]*) die "--timeout takes whole seconds" ;;
esac
case "$only" in
    *[!0-9,-]*) die "--only takes a Slurm array list such as 3, 2,5 or 1-4" ;;
esac
for k in $(printf '%s' "$only" | tr ',-' '  '); do
    if [ "$k" -lt 1 ] || [ "$k" -gt "$shards" ]; then die "--only: shard $k is not in 1..$shards"; fi
done

# --- the fusync binary ------------------------------------------------------
fusync=${FUSYNC:-}
if [ -z "$fusync" ]; then
    if [ -x "$here/../build/fusync" ]; then
        fusync="$here/../build/fusync"
    else
        fusync=$(command -v fusync 2>/dev/null) ||
            die "no fusync binary: set FUSYNC, run make, or put fusync on PATH"
    fi
fi
[ -x "$fusync" ] || die "FUSYNC='$fusync' is not an executable"
fusync=$(cd "$(dirname "$fusync")" && pwd)/$(basename "$fusync")

if [ "$dry" -eq 0 ]; then
    command -v sbatch >/dev/null 2>&1 ||
        die "sbatch not found: run this on a Slurm login node (or start scripts/slurm-local.sh up)"
fi

# --- the output folder -------------------------------------------------------
if [ -z "$out" ]; then
    [ -z "$only" ] || die "--only re-runs shards into an existing --out DIR; give it"
    out="slurm-$cmd-$(date +%Y%m%d-%H%M%S)"
fi
out=$(abspath "$out")
if [ -n "$only" ]; then
    [ -d "$out/shards" ] || die "--only: '$out' holds no earlier run of this $cmd"
elif [ "$dry" -eq 0 ]; then
    mkdir -p "$out"
    # A fresh run: drop what an earlier run left here so it cannot be merged in.
    rm -rf "$out/shards" "$out/logs"
    rm -f "$out/$cmd.csv" "$out/$cmd.json" "$out/jobs"
fi
mkdir -p "$out/shards" "$out/logs"

# Shard I of N writes $out/shards/$cmd-I-of-N.{csv,json}: first to .part files,
# renamed only when fusync succeeded, so a failed or cancelled task leaves no
# file that looks finished.
shard_base="$out/shards/$cmd"
# Both a sweep and a plan write their table as CSV and JSON; merge reads the
# JSON (it carries the shard metadata).
case "$cmd" in
    sweep) run_args="$(q "$scenario") $(q "$whatif")" ;;
    *)     run_args="$(q "$scenario")" ;;
esac
results="$out/$cmd.csv and $out/$cmd.json"

cat >"$out/job-shard.sh" <<EOF
#!/bin/sh
# One shard of a fusync $cmd; written by scripts/$prog.sh.  Run as a Slurm
# array task (index = shard number, 1..$shards), or by hand: SLURM_ARRAY_TASK_ID=I sh $out/job-shard.sh
set -eu
i=\${SLURM_ARRAY_TASK_ID:?set SLURM_ARRAY_TASK_ID to the shard number, 1..$shards}
n=$shards
base=$(q "$shard_base")-\$i-of-\$n
rm -f "\$base.csv" "\$base.json" "\$base.csv.part" "\$base.json.part"
echo "fusync $cmd: shard \$i/\$n on \$(hostname) at \$(date)"
$(q "$fusync") $cmd $run_args$fopts --shard "\$i/\$n" --csv "\$base.csv.part" --json "\$base.json.part"
mv "\$base.csv.part" "\$base.csv"
mv "\$base.json.part" "\$base.json"
echo "fusync $cmd: shard \$i/\$n done at \$(date)"
EOF

# The merge job lists every shard file it expects; `fusync merge` names any
# that is missing or broken and fails, and then writes nothing.
shard_list=""
i=1
while [ "$i" -le "$shards" ]; do
    shard_list="$shard_list $(q "$shard_base-$i-of-$shards.json")"
    i=$((i + 1))
done
cat >"$out/job-merge.sh" <<EOF
#!/bin/sh
# Merge the $shards shards of a fusync $cmd; written by scripts/$prog.sh.
set -eu
cd $(q "$out")
rm -f $cmd.csv $cmd.json $cmd.csv.part $cmd.json.part
$(q "$fusync") merge$shard_list --csv $cmd.csv.part --json $cmd.json.part
mv $cmd.csv.part $cmd.csv
mv $cmd.json.part $cmd.json
echo "fusync merge: $shards shards merged into $results"
EOF
chmod +x "$out/job-shard.sh" "$out/job-merge.sh"

array=${only:-1-$shards}
shown=$array
[ -z "$throttle" ] || array="$array%$throttle"
array_cmd="sbatch --parsable --job-name=fusync-$cmd --array=$array --output=$(q "$out/logs/shard-%a.out")$sopts $(q "$out/job-shard.sh")"
merge_cmd="sbatch --parsable --job-name=fusync-$cmd-merge --dependency=afterok:\$ARRAY_JOB --kill-on-invalid-dep=yes --output=$(q "$out/logs/merge.out")$sopts $(q "$out/job-merge.sh")"

if [ "$dry" -eq 1 ]; then
    say "dry run: job scripts in $out"
    echo "ARRAY_JOB=\$($array_cmd)"
    echo "$merge_cmd"
    exit 0
fi

# `sbatch --parsable` prints "JOBID" or "JOBID;CLUSTER".
array_job=$(eval "$array_cmd") || die "sbatch of the job array failed"
array_job=$(printf '%s\n' "$array_job" | sed -n '1{s/;.*//;p;}')
case "$array_job" in
    ''|*[!0-9]*) die "sbatch printed no job id ('$array_job')" ;;
esac
# shellcheck disable=SC2034  # used inside $merge_cmd
ARRAY_JOB=$array_job
if ! merge_job=$(eval "$merge_cmd"); then
    say "sbatch of the merge job failed; cancelling the array $array_job" >&2
    scancel "$array_job" 2>/dev/null || true
    exit 2
fi
merge_job=$(printf '%s\n' "$merge_job" | sed -n '1{s/;.*//;p;}')
printf 'array %s\nmerge %s\nshards %s\n' "$array_job" "$merge_job" "$shown" >>"$out/jobs"

say "job array $array_job: shards $shown of $shards (fusync $cmd --shard I/$shards)"
say "merge job $merge_job: runs after every shard succeeded (afterok:$array_job)"
say "results:  $results"
say "shards:   $out/shards/   logs: $out/logs/"
say "if a shard fails, the merge job is cancelled; re-run that shard alone with"
say "  $self ... --out $out --only I   (the same arguments as now, plus --only)"
echo "ARRAY_JOB=$array_job"
echo "MERGE_JOB=$merge_job"
echo "OUT=$out"

[ "$wait" -eq 1 ] || exit 0

# --- wait for the merge job -------------------------------------------------
say "waiting for jobs $array_job and $merge_job"
t0=$(date +%s)
errs=0
while :; do
    # squeue fails once the jobs are forgotten (MinJobAge), and may fail now
    # and then on a busy controller: stop after a few failures in a row.
    if left=$(squeue -h -j "$array_job,$merge_job" -o '%i' 2>/dev/null); then
        errs=0
        [ -n "$left" ] || break
    else
        errs=$((errs + 1))
        [ "$errs" -lt 5 ] || break
    fi
    if [ "$timeout" -gt 0 ] && [ $(($(date +%s) - t0)) -ge "$timeout" ]; then
        say "gave up waiting after ${timeout}s; jobs $array_job and $merge_job are still queued or running" >&2
        exit 1
    fi
    sleep 1
done
if [ -s "$out/$cmd.csv" ] && [ -s "$out/$cmd.json" ]; then
    say "done: $results"
    exit 0
fi
say "the merge did not complete" >&2
missing="" present=""
i=1
while [ "$i" -le "$shards" ]; do
    f="$shard_base-$i-of-$shards.json"
    if [ -s "$f" ]; then
        present="$present $(q "$f")"
    else
        missing="${missing:+$missing,}$i"
    fi
    i=$((i + 1))
done
[ -z "$missing" ] || say "shards without output: $missing (logs: $out/logs/shard-I.out)" >&2
[ ! -s "$out/logs/merge.out" ] || tail -n 20 "$out/logs/merge.out" >&2
if [ -n "$present" ]; then
    # Let fusync merge say what is wrong with the shards (it writes nothing then).
    say "what fusync merge says about the shards that are there:" >&2
    eval "$(q "$fusync") merge$present --json $(q "$out/.merge-check.json")" 2>&1 >/dev/null |
        sed 's/^/  /' >&2 || true
    rm -f "$out/.merge-check.json"
fi
say "re-run the failed shards alone: the same arguments plus --out $out --only ${missing:-LIST}" >&2
exit 1
