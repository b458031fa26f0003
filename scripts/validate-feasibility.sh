#!/bin/sh
# scripts/validate-feasibility.sh — the feasibility table (docs/validation.md).
#
# Runs `fusync check` on every row of examples/validation/feasibility/rows.txt
# and prints the published verdict, fusync's, the margin at the peak (HBM
# minus the peak per device; negative: over) and the row's status.  A row
# marked ok whose verdict disagrees is a regression (exit 1); a row marked
# miss is a known disagreement docs/validation.md explains, and one that
# starts agreeing is reported so its mark can be lifted.  Exit 2 when a
# check cannot run.  `make validate` runs it after scripts/validate.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
FUSYNC=${FUSYNC:-$(pwd)/build/fusync}
[ -x "$FUSYNC" ] || { echo "validate-feasibility: no fusync binary at $FUSYNC; run make first" >&2; exit 2; }
DIR=examples/validation/feasibility
ROWS=${ROWS:-$DIR/rows.txt}
[ -r "$ROWS" ] || { echo "validate-feasibility: cannot read $ROWS" >&2; exit 2; }
trim() { printf '%s' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

printf '%-36s %-9s %-7s %10s  %s\n' scenario published fusync margin status
n=0 bad=0 failed=0 miss=0
while IFS='|' read -r scn pub status src; do
    scn=$(trim "$scn")
    case $scn in ''|'#'*) continue ;; esac
    pub=$(trim "$pub") status=$(trim "$status")
    n=$((n + 1))
    if ! out=$("$FUSYNC" check "$DIR/$scn" 2>&1); then
        # check exits non-zero when the plan does not fit; tell that apart
        # from a scenario that does not load
        case $out in *"Memory fit:"*) ;; *) failed=$((failed + 1)); printf '%-36s FAILED\n' "$scn"; continue ;; esac
    fi
    case $out in *"Memory fit: fits"*) got=fits ;; *) got=oom ;; esac
    # "at the peak  X GiB per device ..." and "of Y GiB" on the total line
    margin=$(printf '%s\n' "$out" | awk '
        /^ *total / { for (i = 1; i <= NF; i++) if ($i == "of") hbm = $(i + 1) }
        /at the peak/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "GiB" && $(i + 2) == "per") { peak = $i; exit } }
        END { if (hbm != "" && peak != "") printf "%+.1f GiB", hbm - peak; else printf "-" }')
    mark=$status
    if [ "$got" = "$pub" ]; then
        [ "$status" = miss ] && mark="miss, now agrees: lift the mark"
    else
        if [ "$status" = miss ]; then miss=$((miss + 1)); mark="known miss"
        else bad=$((bad + 1)); mark="WRONG"; fi
    fi
    printf '%-36s %-9s %-7s %10s  %s\n' "$scn" "$pub" "$got" "$margin" "$mark"
done <"$ROWS"
echo "validate-feasibility: $n rows, $((n - bad - miss - failed)) agree, $miss known misses, $bad wrong, $failed failed"
[ $failed -eq 0 ] || exit 2
[ $bad -eq 0 ] || exit 1
exit 0
