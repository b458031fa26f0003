#!/bin/sh
# tui.sh — the terminal front end driven through tmux, as a user would:
# start `fusync tui` on an example, see it play, pause it, change the
# staleness bound, open the help, shrink the terminal to 40x12 and grow it
# back, quit; check the screen text at each point and the exit status.
# TERM, LANG, TZ and the size are pinned.  Skips (status 0) without tmux.
FUSYNC=${FUSYNC:-build/fusync}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCN="$ROOT/examples/qwen7b_h100x16.lua"

if ! command -v tmux >/dev/null 2>&1; then
    echo "tui.sh: SKIP: tmux is not installed (apt-get install tmux)"
    exit 0
fi
case $FUSYNC in /*) ;; *) FUSYNC="$(pwd)/$FUSYNC" ;; esac

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fusync-tui.XXXXXX")
SOCK="$TMP/tmux.sock"
T="tmux -S $SOCK"
checks=0
cleanup() { $T kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM

fail() {
    echo "tui.sh: FAIL: $1"
    echo "---- screen ----"
    $T capture-pane -p -t tui 2>/dev/null
    echo "----------------"
    exit 1
}

screen() { $T capture-pane -p -t tui 2>/dev/null; }

# wait_for TEXT [SECONDS]: poll the screen until TEXT shows
wait_for() {
    n=0; lim=$(( ${2:-10} * 10 ))
    while [ $n -lt $lim ]; do
        screen | grep -qF -- "$1" && { checks=$((checks + 1)); return 0; }
        sleep 0.1; n=$((n + 1))
    done
    fail "'$1' did not appear"
}

# the simulated clock shown in the header ("t=12.5s")
clock() { screen | head -n 1 | sed -n 's/.* t=\([^ ]*\) .*/\1/p'; }

$T -f /dev/null new-session -d -s tui -x 100 -y 30 \
    "cd '$ROOT' && env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= TZ=UTC '$FUSYNC' tui '$SCN' --no-mouse; echo \$? > '$TMP/rc'" \
    || fail "tmux could not start"

# 1. it plays: the panes are there and the clock moves
wait_for "Timeline"
wait_for "Memory"
wait_for "Staleness"
wait_for "Stats"
wait_for "play x5"
c1=$(clock); sleep 0.8; c2=$(clock)
[ -n "$c1" ] && [ "$c1" != "$c2" ] || fail "the clock did not move while playing ($c1, $c2)"
checks=$((checks + 1))

# 2. pause: the clock stops
$T send-keys -t tui Space
wait_for "pause x5"
c1=$(clock); sleep 0.6; c2=$(clock)
[ "$c1" = "$c2" ] || fail "the clock moved while paused ($c1, $c2)"
checks=$((checks + 1))

# 3. a what-if edit: staleness 0 -> 1 restarts the run
$T send-keys -t tui s
wait_for "plan.staleness=1: restarted"
wait_for "(edited)  full s=1"
# and from the command line
$T send-keys -t tui : 'set plan.staleness=2' Enter
wait_for "(edited)  full s=2"

# 4. help, generated from the key map
$T send-keys -t tui '?'
wait_for "Help: keys"
wait_for "staleness bound +1"
wait_for "play / pause the simulation"

# 5. too small, then back (the help is still open, then closed)
$T resize-window -t tui -x 40 -y 12
wait_for "terminal too small"
wait_for "40x12, need 80x24"
$T resize-window -t tui -x 100 -y 30
wait_for "Help: keys"
$T send-keys -t tui Escape
wait_for "Timeline"
screen | grep -qF "Help: keys" && fail "help did not close"

# 6. quit: status 0 and the terminal given back
$T send-keys -t tui q
n=0
while [ ! -s "$TMP/rc" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
[ -s "$TMP/rc" ] || fail "fusync did not exit on q"
rc=$(cat "$TMP/rc")
[ "$rc" = 0 ] || fail "exit status $rc after q"
checks=$((checks + 1))

# 7. Ctrl-C and SIGTERM: the program stops, the terminal is given back (the
# shell after it can print), and the status says which signal
for sig in INT TERM; do
    rm -f "$TMP/rc"
    $T kill-session -t tui >/dev/null 2>&1
    $T -f /dev/null new-session -d -s tui -x 100 -y 30 \
        "cd '$ROOT' && env TERM=tmux-256color LANG=C.UTF-8 LC_ALL= TZ=UTC sh -c 'echo \$\$ > \"$TMP/pid\"; exec \"$FUSYNC\" tui \"$SCN\" --no-mouse'; echo \$? > '$TMP/rc'; stty -a | grep -o ' icanon ' > '$TMP/stty'; echo after-exit; sleep 30" \
        || fail "tmux could not start"
    wait_for "Timeline"
    if [ $sig = INT ]; then
        $T send-keys -t tui C-c
    else
        child=$(cat "$TMP/pid" 2>/dev/null)
        [ -n "$child" ] || fail "no fusync process to send SIGTERM to"
        kill -TERM "$child"
    fi
    wait_for "after-exit"
    rc=$(cat "$TMP/rc")
    want=$([ $sig = INT ] && echo 130 || echo 143)
    [ "$rc" = "$want" ] || fail "exit status $rc after SIG$sig (want $want)"
    [ -s "$TMP/stty" ] || fail "the terminal was left out of canonical mode after SIG$sig"
    screen | grep -qF "Timeline" && fail "the screen was not given back after SIG$sig"
    checks=$((checks + 1))
done

echo "tui.sh: $checks checks passed (play, pause, what-if, help, resize, quit, Ctrl-C, SIGTERM)"
