#!/bin/sh
# help.sh — the command line's own help: for every command the binary lists,
# `fusync help CMD` and `fusync CMD --help` print that command's options (and
# only its own: the parser takes each of them) and an example that runs and
# exits as the help says (0 unless "Example (exit status N)");
# a command given an option it does not take names the commands that take it;
# docs/cli.md and docs/fusync.1 copy the tables (gen-docs.sh --check); stdout
# on /dev/full is an error; the bash completion loads and completes;
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

# the commands, as the binary lists them (its command table), not a hand list
CMDS=$("$FUSYNC" help | awk '/^Commands:/ { f = 1; next } /^$/ { f = 0 } f && /^  [a-z]/ { print $1 }')
n=$(printf '%s\n' $CMDS | wc -l)
[ "$n" -ge 12 ] && ok || bad "fusync help lists $n commands: $CMDS"
for c in run tui check sweep plan merge presets fields model calibrate completion help; do
    printf '%s\n' $CMDS | grep -qx "$c" && ok || bad "fusync help does not list $c"
done
mkdir -p "$TMP/ex"
for d in examples lessons plugins; do ln -s "$ROOT/$d" "$TMP/ex/$d"; done
for c in $CMDS; do
    has "help $c" 0 "Usage: fusync $c" "$FUSYNC" help "$c"
    has "$c --help" 0 "Usage: fusync $c" "$FUSYNC" "$c" --help
    a=$("$FUSYNC" help "$c"); b=$("$FUSYNC" "$c" --help)
    [ "$a" = "$b" ] && ok || bad "help $c and $c --help differ"
    # every option the help lists is one the command takes: the parser accepts it
    # (it may then refuse the value or the missing arguments, never the option)
    for o in $(printf '%s\n' "$a" | sed -n '/^Options:/,/^$/p' | grep -o '^  \(-[a-zA-Z], \)\{0,1\}--[a-z-]*' | sed 's/.*--//'); do
        [ "$o" = help ] && continue
        out=$("$FUSYNC" "$c" "--$o" x 2>&1)
        case $out in *"is taken by"*|*"unknown option"*) bad "$c --$o: listed in its help but refused: $out" ;; *) ok ;; esac
    done
    # the example runs, from a folder that has the tree's examples, lessons, plugins
    ex=$(printf '%s\n' "$a" | sed -n '/^Example/,/^$/p' | sed -n 's/^  fusync //p')
    want=$(printf '%s\n' "$a" | sed -n 's/^Example (exit status \([0-9]*\)):$/\1/p')
    [ -n "$ex" ] && ok || bad "help $c prints no example"
    printf '%s\n' "$ex" > "$TMP/example"
    while IFS= read -r line; do
        # shellcheck disable=SC2086
        if [ "$c" = tui ]; then
            # the front end loads its scenario or lesson before it needs a terminal
            out=$(cd "$TMP/ex" && eval "\"\$FUSYNC\" $line" </dev/null 2>&1 >/dev/null); rc=$?
            [ $rc -eq 2 ] && case $out in *"needs a terminal"*) true ;; *) false ;; esac && ok \
                || bad "example of help $c: fusync $line: status $rc: $out"
        else
            out=$(cd "$TMP/ex" && eval "\"\$FUSYNC\" $line" 2>&1 >/dev/null); rc=$?
            [ $rc -eq "${want:-0}" ] && ok || bad "example of help $c: fusync $line: status $rc (the help says ${want:-0}): $(printf '%s' "$out" | head -c 400)"
        fi
    done < "$TMP/example"
done
# an option a command does not take is refused, naming those that take it
has "run --shard" 2 "--shard is taken by sweep, plan" "$FUSYNC" run "$ROOT/examples/qwen7b_h100x16.lua" --shard 1/2
has "check --top" 2 "--top is taken by plan, merge" "$FUSYNC" check "$ROOT/examples/qwen7b_h100x16.lua" --top 3
has "run --lesson" 2 "--lesson is taken by tui" "$FUSYNC" run "$ROOT/examples/qwen7b_h100x16.lua" --lesson x --fit a
has "run --csv" 2 "--csv is taken by sweep, plan, merge" "$FUSYNC" run "$ROOT/examples/qwen7b_h100x16.lua" --csv -
has "option before the command" 2 "--jobs is taken by" "$FUSYNC" --jobs 2 check "$ROOT/examples/qwen7b_h100x16.lua"
has "option typo" 2 "did you mean '--iterations'" "$FUSYNC" run "$ROOT/examples/qwen7b_h100x16.lua" --iteratons 2
has "command typo" 2 "did you mean 'calibrate'" "$FUSYNC" calibrat
has "too many arguments" 2 "unexpected argument 'extra'" "$FUSYNC" check "$ROOT/examples/qwen7b_h100x16.lua" extra

# the docs copy the tables: docs/cli.md's lists and docs/fusync.1 are current
if FUSYNC=$FUSYNC sh "$ROOT/scripts/gen-docs.sh" --check >"$TMP/gendocs.log" 2>&1; then ok
else bad "docs are stale (run make docs): $(head -c 800 "$TMP/gendocs.log")"; fi

# standard output that cannot be written is an error for every command
if [ -w /dev/full ]; then
    for args in "presets" "help" "help run" "fields" "check $ROOT/examples/qwen7b_h100x16.lua" \
                "sweep $ROOT/examples/qwen7b_h100x16.lua $ROOT/examples/whatif_staleness.lua --quiet" \
                "completion bash"; do
        # shellcheck disable=SC2086
        has "$args >/dev/full" 2 "writing to stdout failed" sh -c "\"\$0\" $args >/dev/full" "$FUSYNC"
    done
fi

# the bash completion: generated from the tables, loads, completes
if command -v bash >/dev/null 2>&1; then
    "$FUSYNC" completion bash > "$TMP/fusync.bash" && ok || bad "fusync completion bash failed"
    # comp WORDS...: what the completion offers for the last word
    comp() {
        bash -c '. "$1" || exit 3; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
                 compopt() { :; }; _fusync; printf "%s\n" "${COMPREPLY[@]}"' bash "$TMP/fusync.bash" "$@"
    }
    bash -n "$TMP/fusync.bash" && ok || bad "the completion script does not parse"
    [ "$(comp fusync ru)" = run ] && ok || bad "fusync ru<TAB> gives '$(comp fusync ru)', want run"
    out=$(comp fusync run x --set plan.st)
    printf '%s\n' "$out" | grep -qx 'plan.staleness=' && ok || bad "--set plan.st<TAB> lacks plan.staleness=: $out"
    out=$(comp fusync plan x --jo)
    [ "$out" = --jobs ] && ok || bad "plan --jo<TAB> gives '$out', want --jobs"
    out=$(comp fusync run x --sh)
    [ -z "$out" ] && ok || bad "run --sh<TAB> offers '$out'; run takes no --shard"
    # bash splits "cluster.device=h1" at the '=' (COMP_WORDBREAKS)
    out=$(comp fusync run x --set cluster.device = h1)
    printf '%s\n' "$out" | grep -qx 'h100' && ok || bad "--set cluster.device=h1<TAB> lacks the preset h100: $out"
    out=$(comp fusync run x --set models.actor = qwen)
    printf '%s\n' "$out" | grep -q '^qwen' && ok || bad "--set models.actor=qwen<TAB> lacks a qwen preset: $out"
    out=$(comp fusync run x --mode = col)
    [ "$out" = colocate ] && ok || bad "--mode=col<TAB> gives '$out', want colocate"
    out=$(comp fusync --set plan.mode = full --iterations 2 ch)
    [ "$out" = check ] && ok || bad "fusync --set plan.mode=full --iterations 2 ch<TAB> gives '$out', want check"
    out=$(comp fusync --mode = colocate ch)
    [ "$out" = check ] && ok || bad "fusync --mode=colocate ch<TAB> gives '$out', want check"
    out=$(comp fusync help cal)
    [ "$out" = calibrate ] && ok || bad "help cal<TAB> gives '$out'"
fi

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
    c=$TMP/inst/usr/local/share/bash-completion/completions/fusync
    [ -s "$c" ] && bash -n "$c" && ok || bad "make install did not install share/bash-completion/completions/fusync"
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
