#!/bin/sh
# Install what fusync needs from Debian's packages, if it is missing.
# As root: apt-get update, then apt-get install of the missing packages.
# Otherwise: print the exact command to run and fail.
set -u
PKGS="build-essential pkg-config libncurses-dev liblua5.4-dev lua5.4 check tmux parallel time slurmctld slurmd slurm-client munge"
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
