#!/bin/sh
# Run a fusync what-if sweep (or plan search) as N shards with GNU parallel,
# on this machine or over ssh hosts, then merge the shards into one table.
#
#   scripts/parallel-sweep.sh SCENARIO WHATIF.lua --shards N [--out DIR]
#                             [--parallel J] [--hosts H1,H2,...] [FUSYNC OPTIONS...]
#   scripts/parallel-sweep.sh --plan SCENARIO --shards N [...]
#
#   --shards N      how many shards (fusync ... --shard I/N); required
#   --out DIR       where shards and results go (default: ./fusync-sweep)
#   --parallel J    shards run at once (GNU parallel -j; default: one per core)
#   --hosts LIST    run shards on these ssh hosts (GNU parallel -S); fusync,
#                   the scenario and the what-if file must be at the same
#                   paths there, and DIR on a shared file system
#   --plan          shard `fusync plan SCENARIO` instead of a sweep
# Other options (--set, --policy, --jobs, --objective, ...) go to every shard.
#
# Results: DIR/sweep.csv and DIR/sweep.json (or DIR/plan.json and plan.csv),
# byte-identical to the unsharded run.  `fusync merge` refuses, and this
# script fails, if a shard is missing or broken.
# The fusync binary: $FUSYNC, else ../build/fusync beside this script, else
# `fusync` on PATH.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
die() { echo "parallel-sweep: $*" >&2; exit 2; }

cmd=sweep scenario="" whatif="" shards="" out=./fusync-sweep jobs="" hosts=""
fopts=""
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
while [ $# -gt 0 ]; do
    case "$1" in
        --plan) cmd=plan; shift ;;
        --shards) [ $# -ge 2 ] || die "--shards needs a number"; shards=$2; shift 2 ;;
        --shards=*) shards=${1#*=}; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
        --out=*) out=${1#*=}; shift ;;
        --parallel) [ $# -ge 2 ] || die "--parallel needs a number"; jobs=$2; shift 2 ;;
        --parallel=*) jobs=${1#*=}; shift ;;
        --hosts) [ $# -ge 2 ] || die "--hosts needs a list"; hosts=$2; shift 2 ;;
        --hosts=*) hosts=${1#*=}; shift ;;
        -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --shard|--shard=*|--csv|--csv=*|--json|--json=*) die "$1 is set by this script" ;;
        --no-color|--quiet) fopts="$fopts $1"; shift ;;
        --*=*) fopts="$fopts $(q "$1")"; shift ;;
        --*) [ $# -ge 2 ] || die "$1 needs a value"; fopts="$fopts $1 $(q "$2")"; shift 2 ;;
        *) if [ -z "$scenario" ]; then scenario=$1
           elif [ -z "$whatif" ] && [ "$cmd" = sweep ]; then whatif=$1
           else die "unexpected argument '$1'"; fi
           shift ;;
    esac
done
[ -n "$scenario" ] || die "usage: $0 SCENARIO WHATIF.lua --shards N [--out DIR] (see --help)"
[ "$cmd" = plan ] || [ -n "$whatif" ] || die "a sweep needs a WHATIF.lua file"
case "$shards" in ''|*[!0-9]*|0*) die "--shards N needs a whole number N >= 1" ;; esac
command -v parallel >/dev/null 2>&1 || die "GNU parallel is not installed (scripts/deps.sh installs it)"

fusync=${FUSYNC:-}
if [ -z "$fusync" ]; then
    if [ -x "$here/../build/fusync" ]; then fusync="$here/../build/fusync"
    else fusync=$(command -v fusync) || die "no fusync binary: set FUSYNC or run make"; fi
fi
abs() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
fusync=$(abs "$fusync"); scenario=$(abs "$scenario")
[ -z "$whatif" ] || whatif=$(abs "$whatif")
mkdir -p "$out/shards"
out=$(cd "$out" && pwd)
rm -f "$out/shards/$cmd"-*-of-"$shards".json "$out/shards/$cmd"-*-of-"$shards".json.tmp

run="$(q "$fusync") $cmd $(q "$scenario")"
[ -z "$whatif" ] || run="$run $(q "$whatif")"
base="$out/shards/$cmd-{}-of-$shards"
pargs="--halt now,fail=1"
[ -z "$jobs" ] || pargs="$pargs -j $jobs"
[ -z "$hosts" ] || pargs="$pargs -S $(q "$hosts")"
# each shard writes its JSON atomically, so a failed one leaves no file
eval "seq 1 $shards | parallel $pargs $run$fopts --quiet --shard {}/$shards --json $(q "$base.json")" ||
    die "a shard failed; see the messages above"

files=""
i=1
while [ "$i" -le "$shards" ]; do
    files="$files $(q "$out/shards/$cmd-$i-of-$shards.json")"
    i=$((i + 1))
done
eval "$(q "$fusync") merge$files --csv $(q "$out/$cmd.csv") --json $(q "$out/$cmd.json") --quiet" ||
    die "merge failed; nothing written"
echo "parallel-sweep: $shards shards merged into $out/$cmd.csv and $out/$cmd.json"
