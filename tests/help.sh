#!/bin/sh
# help.sh — the command line's own help: `fusync help CMD` and
# `fusync CMD --help` print that command's options (and only its own),
# `fusync help` the usage, an unknown command is named with a suggestion;
# `make install` installs the manual page, which man reads; counts of one are
# singular; `merge` names a file that is not a shard.
FUSYNC=${FUSYNC:-build/fusync}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $FUSYNC in /*) ;; *) FUSYNC="$(pwd)/$FUSYNC" ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fusync-help.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "help.sh: FAIL: $*"; }
# has NAME STATUS TEXT CMD...: CMD exits with STATUS and prints TEXT
has() {
    name=$1 want=$2 text=$3; shift 3
    out=$("$@" 2>&1); rc=$?
    if [ "$rc" = "$want" ] && printf '%s\n' "$out" | grep -qF -- "$text"; then ok
    else bad "$name: status $rc (want $want), no '$text' in: $(printf '%s' "$out" | head -c 600)"; fi
}
lacks() {
    name=$1 text=$2; shift 2
    if "$@" 2>&1 | grep -qF -- "$text"; then bad "$name: '$text' should not be there"; else ok; fi
}

for c in run tui check sweep plan merge presets fields; do
    has "help $c" 0 "Usage: fusync $c" "$FUSYNC" help "$c"
    has "$c --help" 0 "Usage: fusync $c" "$FUSYNC" "$c" --help
    a=$("$FUSYNC" help "$c"); b=$("$FUSYNC" "$c" --help)
    [ "$a" = "$b" ] && ok || bad "help $c and $c --help differ"
done
has "run --svg" 0 "--svg FILE" "$FUSYNC" help run
has "tui --lesson" 0 "--lesson FILE" "$FUSYNC" help tui
has "plan --objective" 0 "--objective O" "$FUSYNC" plan --help
lacks "run has no --objective" "--objective" "$FUSYNC" help run
lacks "merge has no --mode" "--mode" "$FUSYNC" help merge
has "help" 0 "Commands:" "$FUSYNC" help
has "help typo" 2 "did you mean 'plan'" "$FUSYNC" help plna
has "help extra" 2 "unexpected argument" "$FUSYNC" help run plan
has "usage names help" 0 "help [COMMAND]" "$FUSYNC" --help

# the manual page: installed by make install, read by man
if make -s -C "$ROOT" install DESTDIR="$TMP/inst" PREFIX=/usr/local >"$TMP/install.log" 2>&1; then
    [ -f "$TMP/inst/usr/local/share/man/man1/fusync.1" ] && ok || bad "make install did not install share/man/man1/fusync.1"
    [ -f "$TMP/inst/usr/local/share/fusync/lessons/1_colocation.lua" ] && ok || bad "make install did not install the lessons"
    if command -v man >/dev/null 2>&1; then
        has "man" 0 "fusync tui --lesson FILE" env MANWIDTH=100 man -l "$TMP/inst/usr/local/share/man/man1/fusync.1"
    fi
else
    bad "make install failed: $(cat "$TMP/install.log")"
fi

# plurals: one device is one device
has "1 device" 2 "must be below the cluster's 1 device" "$FUSYNC" check "$ROOT/examples/qwen7b_h100x16.lua" \
    --set cluster.devices_per_node=1 --set cluster.nodes_per_supernode=1
lacks "not 1 devices" "1 devices" "$FUSYNC" check "$ROOT/examples/qwen7b_h100x16.lua" \
    --set cluster.devices_per_node=1 --set cluster.nodes_per_supernode=1
has "check plural" 0 "5 iterations (1 warm-up)" "$FUSYNC" check "$ROOT/examples/qwen7b_h100x16.lua"
has "check singular" 0 "1 epoch;" "$FUSYNC" check "$ROOT/examples/qwen7b_h100x16.lua"

# merge: a file that is not a shard says so
printf '{"a": 1}\n' > "$TMP/a.json"
has "merge non-shard JSON" 2 "a.json: is not a shard" "$FUSYNC" merge "$TMP/a.json"
has "merge a scenario" 2 "qwen7b_h100x16.lua: is not a shard" "$FUSYNC" merge "$ROOT/examples/qwen7b_h100x16.lua"

echo "help.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
