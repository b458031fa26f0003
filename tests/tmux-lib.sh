# tmux-lib.sh — what tests/tui.sh and tests/lessons.sh share to drive
# `fusync tui` through tmux: a private tmux server in a temporary folder, a
# new session retried while the previous server goes away, reading the
# screen, waiting for a text, failing with the screen shown.  Sourced, not
# run; the caller sets TL_NAME (its name in messages), TL_SES (the tmux
# session), TL_WAIT (seconds wait_for waits by default) and FUSYNC first.
# Skips the caller (status 0) without tmux.

if ! command -v tmux >/dev/null 2>&1; then
    echo "$TL_NAME: SKIP: tmux is not installed (apt-get install tmux)"
    echo "$TL_NAME: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
case $FUSYNC in /*) ;; *) FUSYNC="$(pwd)/$FUSYNC" ;; esac

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fusync-$TL_SES.XXXXXX")
SOCK="$TMP/tmux.sock"
T="tmux -S $SOCK"
checks=0
cleanup() { $T kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT INT TERM

# a new session, tried again while a server from the step before is still
# going away (tmux then says "server exited unexpectedly")
tmux_new() {
    for _try in 1 2 3 4 5 6; do
        $T -f /dev/null new-session "$@" 2>/dev/null && return 0
        sleep 0.5
    done
    return 1
}

screen() { $T capture-pane -p -t "$TL_SES" 2>/dev/null; }

fail() {
    echo "$TL_NAME: FAIL: $1"
    echo "---- screen ----"
    screen
    echo "----------------"
    echo "$TL_NAME: $checks passed, 1 failed"
    exit 1
}

# wait_for TEXT [SECONDS]: poll the screen until TEXT shows
wait_for() {
    n=0; lim=$(( ${2:-$TL_WAIT} * 10 ))
    while [ $n -lt $lim ]; do
        screen | grep -qF -- "$1" && { checks=$((checks + 1)); return 0; }
        sleep 0.1; n=$((n + 1))
    done
    fail "'$1' did not appear"
}
