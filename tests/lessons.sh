#!/bin/sh
# lessons.sh — guided lessons and the SVG export driven through tmux, as a
# teacher would, at 80x24 and at 200x50: `fusync tui --lesson FILE` shows the
# first caption, space walks every step to the end card, Backspace goes back,
# Esc leaves the lesson and the run stays; `o` opens the menu and starts a
# lesson; `E` writes an SVG picture and the message bar says where.  Then a
# lesson that is wrong is refused before the screen is taken.  TERM, LANG, TZ
# and the size are pinned.  Skips (status 0) without tmux.
FUSYNC=${FUSYNC:-build/fusync}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

TL_NAME=lessons.sh TL_SES=les TL_WAIT=15
. "$ROOT/tests/tmux-lib.sh"

keys() { $T send-keys -t les "$@"; }
start() { # start COLS ROWS ARGS...
    cols=$1 rows=$2; shift 2
    $T kill-session -t les >/dev/null 2>&1
    rm -f "$TMP/rc"
    tmux_new -d -s les -x "$cols" -y "$rows" \
        "cd '$TMP' && env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= TZ=UTC FUSYNC_LESSONS='$ROOT/lessons' '$FUSYNC' tui $* --no-mouse; echo \$? > '$TMP/rc'" \
        || fail "tmux could not start"
}
ended() {
    n=0
    while [ ! -s "$TMP/rc" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    [ "$(cat "$TMP/rc" 2>/dev/null)" = 0 ] || fail "fusync tui exited with '$(cat "$TMP/rc" 2>/dev/null)'"
    checks=$((checks + 1))
}

for size in "80 24" "200 50"; do
    # shellcheck disable=SC2086
    set -- $size
    start "$1" "$2" --lesson "'$ROOT/lessons/1_colocation.lua'" --out "'$TMP'"
    wait_for "Lesson 1/5: Why co-location"
    wait_for "Separate pools:"
    wait_for "space/Enter next"
    keys Space; wait_for "Lesson 2/5"
    wait_for "Snapshot A keeps this plan"
    keys BSpace; wait_for "Lesson 1/5"
    for i in 2 3 4 5; do keys Space; wait_for "Lesson $i/5"; done
    wait_for "Full co-location puts"
    keys Space; wait_for "End of the lesson"
    keys Space; wait_for "Left the lesson"
    # the run stays, the keys are the front end's: E exports the view
    keys E; wait_for "Wrote $TMP/"
    [ -s "$TMP/qwen7b_h100x16.svg" ] && head -c 5 "$TMP/qwen7b_h100x16.svg" | grep -q '<?xml' ||
        fail "E did not write an SVG file into --out"
    grep -q '<g class="row" data-track' "$TMP/qwen7b_h100x16.svg" || fail "the SVG has no timeline rows"
    checks=$((checks + 2))
    rm -f "$TMP/qwen7b_h100x16.svg"
    # the menu: o, down, Enter starts the second lesson; Esc leaves it
    keys o; wait_for "Guided lessons"
    wait_for "The long tail and partial rollout"
    keys Down Enter; wait_for "Lesson 1/4: The long tail"
    keys Escape; wait_for "Left the lesson at step 1 of 4"
    keys q; ended
done

# a lesson that is wrong: refused with the file and the field, before the
# screen is taken, status 2
printf 'return {title = "t", scenario = "../examples/qwen7b_h100x16.lua", steps = {{caption = "c", play = "soon"}}}\n' \
    > "$TMP/bad.lua"
out=$("$FUSYNC" tui --lesson "$TMP/bad.lua" 2>&1 </dev/null); rc=$?
[ $rc = 2 ] && echo "$out" | grep -qF "$TMP/bad.lua: steps[1].play" || fail "bad lesson: status $rc: $out"
checks=$((checks + 1))
out=$("$FUSYNC" tui "$ROOT/examples/qwen7b_h100x16.lua" --lesson "$ROOT/lessons/1_colocation.lua" 2>&1 </dev/null); rc=$?
[ $rc = 2 ] && echo "$out" | grep -qF "names its own scenario" || fail "SCENARIO with --lesson: status $rc: $out"
checks=$((checks + 1))

echo "lessons.sh: $checks passed, 0 failed"
