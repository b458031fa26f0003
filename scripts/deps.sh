#!/bin/sh
# Install what fusync needs from Debian's packages, if it is missing.
#   sh scripts/deps.sh run     building and running: compiler, pkg-config,
#                              ncurses, Lua, libyaml and libcsv headers (make run, make)
#   sh scripts/deps.sh test    the above, plus what the tests use: libcheck,
#                              tmux (screen tests), GNU parallel and the
#                              cluster packages (Slurm, munge) for the real
#                              Slurm test (make test)
#   sh scripts/deps.sh bench   the above for run, plus GNU time (make bench)
#   sh scripts/deps.sh         everything
# As root: apt-get update, then apt-get install of the missing packages.
# Otherwise: print the exact command to run and fail.
set -u
RUN_PKGS="build-essential pkg-config libncurses-dev liblua5.4-dev libyaml-dev libcsv-dev"
TEST_PKGS="check tmux parallel slurmctld slurmd slurm-client munge"
BENCH_PKGS="time"
case "${1:-all}" in
    run)   PKGS="$RUN_PKGS" ;;
    test)  PKGS="$RUN_PKGS $TEST_PKGS" ;;
    bench) PKGS="$RUN_PKGS $BENCH_PKGS" ;;
    all)   PKGS="$RUN_PKGS $TEST_PKGS $BENCH_PKGS" ;;
    *) echo "deps: unknown set '$1'; use run, test, bench or nothing (everything)" >&2; exit 2 ;;
esac
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || { echo "deps: apt-get update failed" >&2; exit 2; }
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
        { echo "deps: apt-get install failed for:$missing" >&2; exit 2; }
else
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 2
fi
