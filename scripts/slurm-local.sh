#!/bin/sh
# A one-machine Slurm cluster on loopback, for tests and for trying the
# Slurm scripts (scripts/slurm-sweep.sh, scripts/slurm-plan.sh) without a
# real cluster.
#
#   scripts/slurm-local.sh up       start munged, slurmctld and slurmd
#   scripts/slurm-local.sh status   say what runs, show sinfo
#   scripts/slurm-local.sh down     stop them (by pid) and remove the state
#   scripts/slurm-local.sh env      print the line that points clients at it
#
# Everything lives in one scratch folder: $SLURM_LOCAL_DIR, by default
# ${TMPDIR:-/tmp}/fusync-slurm-local-<uid>.  It holds slurm.conf, a fresh
# munge key and socket (the machine's own munge, if any, is not touched),
# the state, spool, pid and log files.  Nothing is written to /etc.
# Ports: $SLURM_LOCAL_CTLD_PORT (16817) and $SLURM_LOCAL_SLURMD_PORT
# (16818).  The daemons reach each other over 127.0.0.1; Slurm 22.05 has no
# setting to bind its listening sockets to one address, but every message
# must carry a credential signed with the fresh key, so nothing from outside
# this machine is accepted.
#
# Clients find the cluster through SLURM_CONF:
#   export SLURM_CONF="$SLURM_LOCAL_DIR/slurm.conf"
# (`up` and `env` print the exact line.)
#
# Needs root (the daemons run as root) and the Debian 12 packages
# slurmctld slurmd slurm-client munge (scripts/deps.sh installs them).
set -eu

prog=slurm-local
DIR=${SLURM_LOCAL_DIR:-${TMPDIR:-/tmp}/fusync-slurm-local-$(id -u)}
CTLD_PORT=${SLURM_LOCAL_CTLD_PORT:-16817}
SLURMD_PORT=${SLURM_LOCAL_SLURMD_PORT:-16818}
TIMEOUT=${SLURM_LOCAL_TIMEOUT:-60}
MARK="$DIR/.fusync-slurm-local"
CONF="$DIR/slurm.conf"

say() { printf '%s: %s\n' "$prog" "$*"; }
die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 1; }

usage() {
    cat <<EOF
Usage: $0 up|down|status|env
  up      start a one-machine Slurm cluster on 127.0.0.1 (needs root)
  down    stop it by pid and remove its scratch folder (idempotent)
  status  show which daemons run and the node's state
  env     print the export line for SLURM_CONF
Scratch folder: $DIR (set SLURM_LOCAL_DIR to change)
Ports: slurmctld $CTLD_PORT, slurmd $SLURMD_PORT (SLURM_LOCAL_CTLD_PORT, SLURM_LOCAL_SLURMD_PORT)
EOF
}

# pid_of NAME: the pid in $DIR/NAME.pid if that process is alive and is
# still NAME (not a later process that was given the same pid), else nothing.
pid_of() {
    f="$DIR/$1.pid"
    [ -r "$f" ] || return 0
    p=$(tr -cd '0-9' <"$f")
    [ -n "$p" ] || return 0
    kill -0 "$p" 2>/dev/null || return 0
    if [ -r "/proc/$p/comm" ]; then
        case "$(cat "/proc/$p/comm" 2>/dev/null)" in
            "$1"*) ;;
            *) return 0 ;;
        esac
    fi
    echo "$p"
}

# stop_pid NAME: TERM the daemon NAME by its pid file, wait, then KILL.
stop_pid() {
    p=$(pid_of "$1")
    if [ -z "$p" ]; then
        rm -f "$DIR/$1.pid"
        return 0
    fi
    kill -TERM "$p" 2>/dev/null || true
    i=0
    while kill -0 "$p" 2>/dev/null; do
        i=$((i + 1))
        if [ "$i" -ge 100 ]; then     # 10 s
            say "$1 (pid $p) did not stop on TERM; sending KILL"
            kill -KILL "$p" 2>/dev/null || true
            sleep 0.2
            break
        fi
        sleep 0.1
    done
    say "stopped $1 (pid $p)"
    rm -f "$DIR/$1.pid"
}

need() {
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 ||
            die "'$c' not found; install the Debian packages: slurmctld slurmd slurm-client munge (scripts/deps.sh does it as root)"
    done
}

show_logs() {
    for l in munged.log slurmctld.log slurmd.log; do
        if [ -s "$DIR/$l" ]; then
            printf '%s: --- last lines of %s ---\n' "$prog" "$DIR/$l" >&2
            tail -n 15 "$DIR/$l" >&2
        fi
    done
}

# port_busy PORT: true if something on this machine listens on tcp PORT.
port_busy() {
    if command -v ss >/dev/null 2>&1; then
        ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
    else
        # /proc/net/tcp{,6}: local address column, port in hex, state 0A = LISTEN
        hex=$(printf '%04X' "$1")
        cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
            awk -v h=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == h { f = 1 } END { exit !f }'
    fi
}

write_conf() {
    host=$(hostname -s 2>/dev/null || hostname)
    [ -n "$host" ] || die "cannot tell this machine's host name"
    # The node as slurmd sees it (CPUs, sockets, cores, threads, memory), so
    # that the node is never drained for a mismatch; memory less 1 GiB.
    hw=$(slurmd -C 2>/dev/null | head -n 1) || true
    cpus=$(printf '%s\n' "$hw" | tr ' ' '\n' | sed -n 's/^CPUs=//p')
    mem=$(printf '%s\n' "$hw" | tr ' ' '\n' | sed -n 's/^RealMemory=//p')
    topo=$(printf '%s\n' "$hw" | tr ' ' '\n' |
        grep -E '^(Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=' | tr '\n' ' ') || true
    [ -n "$cpus" ] || cpus=$(nproc 2>/dev/null || echo 1)
    if [ -z "$mem" ]; then
        mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo 2>/dev/null || echo 2048)
    fi
    mem=$((mem - 1024))
    [ "$mem" -ge 1 ] || mem=1
    cat >"$CONF" <<EOF
# Written by scripts/slurm-local.sh: a one-machine Slurm on loopback.
ClusterName=fusync-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge/munge.socket
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
# Schedule at once (the default waits up to 3 s between passes).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=600
MaxArraySize=10001
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus ${topo}RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

wait_ready() {
    i=0
    while :; do
        st=$(SLURM_CONF="$CONF" sinfo -h -o '%T' 2>/dev/null | head -n 1) || st=""
        case "$st" in
            idle*|mixed*|allocated*|completing*) return 0 ;;
        esac
        i=$((i + 1))
        if [ "$i" -ge $((TIMEOUT * 5)) ]; then
            say "node state after ${TIMEOUT}s: '${st:-no answer}'" >&2
            return 1
        fi
        [ -n "$(pid_of slurmctld)" ] || { say "slurmctld exited" >&2; return 1; }
        [ -n "$(pid_of slurmd)" ] || { say "slurmd exited" >&2; return 1; }
        sleep 0.2
    done
}

# all_searchable DIR: true if every folder from / down to DIR is o+x.
all_searchable() {
    p=$(cd "$1" && pwd -P)
    while [ -n "$p" ] && [ "$p" != / ]; do
        case "$(ls -ld "$p" 2>/dev/null)" in
            d???????[xt]*) ;;
            *) return 1 ;;
        esac
        p=${p%/*}
    done
}

# wait_pidfile NAME: wait until NAME's pid file names a live process.
wait_pidfile() {
    i=0
    while [ -z "$(pid_of "$1")" ]; do
        i=$((i + 1))
        [ "$i" -lt $((TIMEOUT * 10)) ] || return 1
        sleep 0.1
    done
}

cmd_up() {
    [ "$(id -u)" -eq 0 ] || die "must run as root (the local Slurm daemons run as root)"
    need munged munge unmunge mungekey slurmctld slurmd sinfo sbatch
    if [ -n "$(pid_of slurmctld)" ] && [ -n "$(pid_of slurmd)" ] && [ -n "$(pid_of munged)" ]; then
        say "already up in $DIR"
        echo "export SLURM_CONF=$CONF"
        return 0
    fi
    if [ -e "$DIR" ] && [ ! -e "$MARK" ] && [ -n "$(ls -A "$DIR" 2>/dev/null || echo x)" ]; then
        die "$DIR exists and was not made by this script; set SLURM_LOCAL_DIR to an empty or new folder"
    fi
    if [ -e "$MARK" ]; then
        say "cleaning up a half-started cluster in $DIR"
        cmd_down >/dev/null
    fi
    for p in "$CTLD_PORT" "$SLURMD_PORT"; do
        if port_busy "$p"; then
            die "port $p is in use; choose others with SLURM_LOCAL_CTLD_PORT / SLURM_LOCAL_SLURMD_PORT"
        fi
    done

    mkdir -p "$DIR"
    : >"$MARK"
    # munged wants every folder on its socket's path searchable by all, and
    # its key readable by its owner only.
    chmod 755 "$DIR"
    mkdir -p "$DIR/munge" "$DIR/key" "$DIR/state" "$DIR/spool"
    chmod 755 "$DIR/munge"
    chmod 700 "$DIR/key" "$DIR/state" "$DIR/spool"
    trap 'say "start failed; stopping what was started" >&2; show_logs; cmd_down >/dev/null 2>&1 || true' EXIT

    say "scratch folder $DIR"
    mungekey --create --keyfile="$DIR/key/munge.key" >/dev/null 2>&1 ||
        dd if=/dev/urandom of="$DIR/key/munge.key" bs=1 count=1024 2>/dev/null
    chmod 400 "$DIR/key/munge.key"
    # munged refuses a socket below a folder that not everyone may search
    # (a private TMPDIR, mktemp -d) unless forced; the socket then serves
    # root alone, who runs the daemons and submits the jobs.
    force=""
    all_searchable "$DIR" || force=--force
    munged $force --key-file="$DIR/key/munge.key" --socket="$DIR/munge/munge.socket" \
        --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" \
        --seed-file="$DIR/key/munged.seed" ||
        die "munged did not start"
    wait_pidfile munged || die "munged did not write its pid file"
    munge -S "$DIR/munge/munge.socket" -n | unmunge -S "$DIR/munge/munge.socket" >/dev/null ||
        die "munge round trip failed"
    say "munged up (pid $(pid_of munged))"

    write_conf
    SLURM_CONF="$CONF" slurmctld -c -f "$CONF" || die "slurmctld did not start"
    wait_pidfile slurmctld || die "slurmctld did not write its pid file"
    say "slurmctld up (pid $(pid_of slurmctld), port $CTLD_PORT)"
    SLURM_CONF="$CONF" slurmd -f "$CONF" || die "slurmd did not start"
    wait_pidfile slurmd || die "slurmd did not write its pid file"
    say "slurmd up (pid $(pid_of slurmd), port $SLURMD_PORT)"
    wait_ready || die "the node did not become idle"
    trap - EXIT
    SLURM_CONF="$CONF" sinfo
    say "cluster up; point clients at it with:"
    echo "export SLURM_CONF=$CONF"
}

cmd_down() {
    if [ ! -e "$DIR" ]; then
        say "not running (no $DIR)"
        return 0
    fi
    [ -e "$MARK" ] || die "$DIR was not made by this script; not touching it"
    if [ -n "$(pid_of slurmctld)" ] && command -v scancel >/dev/null 2>&1; then
        # Cancel what still runs so that no job step outlives its daemons.
        jobs=$(SLURM_CONF="$CONF" squeue -h -o '%A' 2>/dev/null) || jobs=""
        if [ -n "$jobs" ]; then
            say "cancelling the jobs still queued or running"
            # shellcheck disable=SC2086  # one job id a word
            SLURM_CONF="$CONF" scancel --full $jobs 2>/dev/null || true
            i=0
            while SLURM_CONF="$CONF" squeue -h -o '%i' 2>/dev/null | grep -q .; do
                i=$((i + 1))
                [ "$i" -lt 100 ] || break
                sleep 0.1
            done
        fi
    fi
    stop_pid slurmd
    stop_pid slurmctld
    stop_pid munged
    rm -rf "$DIR"
    say "down; removed $DIR"
}

cmd_status() {
    if [ ! -e "$MARK" ]; then
        say "not running (no $DIR)"
        return 3
    fi
    rc=0
    for d in munged slurmctld slurmd; do
        p=$(pid_of "$d")
        if [ -n "$p" ]; then
            say "$d running (pid $p)"
        else
            say "$d NOT running"
            rc=3
        fi
    done
    if [ -n "$(pid_of slurmctld)" ]; then
        SLURM_CONF="$CONF" sinfo || rc=3
        SLURM_CONF="$CONF" squeue || rc=3
    fi
    echo "export SLURM_CONF=$CONF"
    return "$rc"
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    env) echo "export SLURM_CONF=$CONF" ;;
    -h|--help|help) usage ;;
    *) usage >&2; exit 2 ;;
esac
