#!/bin/sh
# The plan search's critic pool (docs/cli.md, `fusync plan`, "The critic's
# pool"): for PPO, separate layouts with the critic (and the reward model)
# on devices of their own, where the framework has a setting for it.
#   - tests/data/plan/critic_pool.lua under --framework openrlhf: #1 trains
#     the critic on a pool of its own (the critic_devices column), its
#     command sets the three pools, `fusync check` with that command's
#     arguments gives the same memory verdict as the plan (fits, the critic's
#     pool listed), and `fusync export openrlhf` writes the critic's group;
#   - the same scenario under --framework verl (one resource pool for every
#     role): no row the search built has the critic on a pool of its own;
#   - a GRPO scenario (no critic) never gets the column.
# FUSYNC names the binary.  Figures come from the runs; nothing is pinned.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-plancritic.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plan_critic: FAIL: $*" >&2; }

# col FILE NAME: the column number of NAME in a CSV header (after the '#' lines)
col() { grep -v '^#' "$1" | head -1 | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
# first FILE: the plan table's #1 (rows ranked; feasible, within, not the baseline)
first() {
    fe=$(col "$1" feasible) wi=$(col "$1" within) mo=$(col "$1" mode)
    grep -v '^#' "$1" | awk -F, -v fe="$fe" -v wi="$wi" -v mo="$mo" 'NR > 1 && $fe == "true" && $wi == "true" && $mo != "baseline" { print; exit }'
}
# field ROW FILE NAME: a column of a row (run_with is the last column and holds no comma)
field() { printf '%s\n' "$1" | cut -d, -f"$(col "$2" "$3")"; }

S=tests/data/plan/critic_pool.lua
if "$F" plan $S --framework openrlhf --quiet --csv "$T/o.csv" 2>"$T/err"; then ok; else bad "plan $S --framework openrlhf: $(head -3 "$T/err")"; fi
[ -n "$(col "$T/o.csv" critic_devices)" ] && ok || bad "openrlhf: no critic_devices column"
row=$(first "$T/o.csv")
[ -n "$row" ] && ok || bad "openrlhf: no plan listed"
cd_=$(field "$row" "$T/o.csv" critic_devices)
[ "${cd_:-0}" -gt 0 ] 2>/dev/null && ok || bad "openrlhf #1 trains the critic on the actor's pool (critic_devices '$cd_')"
case "$(field "$row" "$T/o.csv" pools)" in *"critic:$cd_"*) ok ;; *) bad "openrlhf #1's pools do not hold a critic pool of $cd_" ;; esac
[ "$(field "$row" "$T/o.csv" feasible)" = true ] && ok || bad "openrlhf #1 is not feasible"
rw=$(field "$row" "$T/o.csv" run_with)
case "$rw" in *"--set plan.pools.3.roles.1=critic"*) ok ;; *) bad "openrlhf #1's command does not set the critic's pool: $rw" ;; esac
args=${rw#fusync run }
# the command's own arguments: the plan's verdict (feasible: fits), the critic's pool as listed
# shellcheck disable=SC2086
if "$F" check $args > "$T/check.txt" 2>&1 && grep -q "^Memory fit: fits" "$T/check.txt"; then ok
else bad "openrlhf #1 does not fit under check: $(grep 'Memory fit' "$T/check.txt")"; fi
grep -q "pool critic  *$cd_ devices.*critic" "$T/check.txt" && ok || bad "check of openrlhf #1 does not list a critic pool of $cd_ devices"
# shellcheck disable=SC2086
if "$F" export openrlhf $args > "$T/x.txt" 2>"$T/err" && grep -q "critic.num_gpus_per_node" "$T/x.txt"; then ok
else bad "openrlhf #1 does not export the critic's group: $(head -3 "$T/err")"; fi

# verl maps the critic to the one global pool: never a pool of its own
if "$F" plan $S --framework verl --quiet --csv "$T/v.csv" 2>"$T/err"; then ok; else bad "plan $S --framework verl: $(head -3 "$T/err")"; fi
c=$(col "$T/v.csv" critic_devices) mo=$(col "$T/v.csv" mode)
if [ -n "$c" ] && grep -v '^#' "$T/v.csv" | awk -F, -v c="$c" -v mo="$mo" 'NR > 1 && $mo != "baseline" && $c > 0 { f = 1 } END { exit !f }'; then
    bad "--framework verl: a searched row has the critic on a pool of its own"
else ok; fi
[ -n "$(first "$T/v.csv")" ] && ok || bad "--framework verl: no plan listed"

# GRPO: no critic, no column
"$F" plan tests/data/plan/small.lua --quiet --csv "$T/g.csv" >/dev/null 2>&1
[ -z "$(col "$T/g.csv" critic_devices)" ] && ok || bad "small.lua (no critic): a critic_devices column"

echo "plan_critic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
