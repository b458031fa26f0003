#!/bin/sh
# scripts/same-output.sh [REV] — show that a change moves no printed figure.
#
# Builds REV (default: HEAD) in a temporary git worktree, then runs both that
# build and the working tree's build over every example in every mode, with
# and without StaleSync, plus `check`, the what-if sweeps and a short plan,
# and compares the JSON reports, the CSV tables and the text reports byte for
# byte after removing the fields that hold wall-clock time.  Exit status 0
# when every output is identical, 1 when one differs (the diff is printed).
#
#   sh scripts/same-output.sh            # working tree against HEAD
#   sh scripts/same-output.sh v0.1       # against a tag or commit
set -u
cd "$(dirname "$0")/.." || exit 2
REV=${1:-HEAD}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fusync-same.XXXXXX")
cleanup() { git worktree remove --force "$tmp/base" >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

git worktree add --detach "$tmp/base" "$REV" >/dev/null 2>&1 || { echo "same-output: cannot check out $REV" >&2; exit 2; }
make -s -C "$tmp/base" all >/dev/null || { echo "same-output: $REV does not build" >&2; exit 2; }
make -s all >/dev/null || { echo "same-output: the working tree does not build" >&2; exit 2; }
OLD=$tmp/base/build/fusync
NEW=$(pwd)/build/fusync

# Wall-clock fields: the only ones allowed to differ.
strip() {
    sed -E -e '/"[a-z_]*(wall|elapsed|plugin_time)[a-z_]*"[[:space:]]*:/d' \
           -e 's/[0-9.]+ (ms|us|s) wall \(event loop [0-9.]+ M events\/s\)/WALL/' \
           -e 's/ in [0-9.]+ s with / in WALL with /' -e 's/ runs \([0-9.]+ s\)/ runs (WALL)/' "$1"
}

n=0; bad=0
compare() {  # compare LABEL ARGS... — run both builds with ARGS in the examples' folder
    label=$1; shift
    for which in old new; do
        bin=$OLD; [ $which = new ] && bin=$NEW
        ( cd "$tmp" && "$bin" "$@" >"$tmp/$which.out" 2>"$tmp/$which.err"; echo $? >"$tmp/$which.rc" )
        for f in "$tmp"/$which.out "$tmp"/$which.err; do strip "$f" >"$f.s"; done
        if [ -f "$tmp/o.json" ]; then strip "$tmp/o.json" >"$tmp/$which.json.s"; rm -f "$tmp/o.json"
        else : >"$tmp/$which.json.s"; fi
    done
    n=$((n + 1))
    for part in out.s err.s json.s rc; do
        if ! cmp -s "$tmp/old.$part" "$tmp/new.$part"; then
            bad=$((bad + 1))
            echo "DIFFERS: $label ($part)"
            diff "$tmp/old.$part" "$tmp/new.$part" | head -n 20
            break
        fi
    done
}

EX=$(pwd)/examples
for ex in "$EX"/*.lua; do
    case $(basename "$ex") in whatif_*) continue ;; esac
    compare "check $(basename "$ex")" check "$ex"
    for mode in separate colocate full; do
        for s in 0 2; do
            compare "run $(basename "$ex") $mode s=$s" run "$ex" --mode "$mode" --staleness "$s" --json o.json
        done
    done
    compare "run $(basename "$ex") text" run "$ex"
done
# scenarios in subfolders (models from config.json, validation systems): their own plan
for ex in "$EX"/*/*.lua; do
    compare "run $(basename "$(dirname "$ex")")/$(basename "$ex")" run "$ex" --json o.json
done
P=$EX/pangu718b_cm384.lua
for w in "$EX"/whatif_*.lua; do
    compare "sweep $(basename "$w") json" sweep "$P" "$w" --json o.json
    compare "sweep $(basename "$w") csv" sweep "$P" "$w" --csv -
done
for pol in "$(pwd)"/plugins/*.lua; do
    compare "run policy $(basename "$pol")" run "$P" --policy "$pol" --json o.json
done
compare "trace qwen" run "$EX/qwen7b_h100x16.lua" --trace o.json
compare "trace pangu stalesync" run "$P" --mode colocate --staleness 2 --iterations 3 --trace o.json
compare "plan qwen" plan "$EX/qwen7b_h100x16.lua" --top 5 --json o.json
compare "plan pangu" plan "$P" --top 5 --json o.json

echo "same-output: $n outputs compared against $REV, $((n - bad)) identical, $bad differ"
[ $bad -eq 0 ]
