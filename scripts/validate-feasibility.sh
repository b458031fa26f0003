#!/bin/sh
# scripts/validate-feasibility.sh — the feasibility table (docs/validation.md).
#
# Runs `fusync check --json` on every row of
# examples/validation/feasibility/rows.txt and prints the published verdict,
# fusync's, the margin at the peak (HBM minus the peak per device; negative:
# over), the phase fusync names when the plan does not fit, and the row's
# status.  An out-of-memory row may name the phase its thread says memory ran
# out in; fusync agrees with it only when it says "does not fit" in that same
# phase (a verdict reached for another reason is not agreement).  A row marked
# ok that disagrees is a regression (exit 1); a row marked miss is a known
# disagreement docs/validation.md explains, and one that starts agreeing is
# reported so its mark can be lifted.  Exit 2 when a check cannot run or a
# row is malformed.  `make validate` runs it after scripts/validate.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
FUSYNC=${FUSYNC:-$(pwd)/build/fusync}
[ -x "$FUSYNC" ] || { echo "validate-feasibility: no fusync binary at $FUSYNC; run make first" >&2; exit 2; }
DIR=examples/validation/feasibility
ROWS=${ROWS:-$DIR/rows.txt}
[ -r "$ROWS" ] || { echo "validate-feasibility: cannot read $ROWS" >&2; exit 2; }
trim() { printf '%s' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

# The phase of the first reason in check's JSON "reason": "pool 'P' while
# PHASE: ..." gives PHASE (training, generating, starting the engine,
# waking the engine, ...);
# "pool 'P' host memory: ..." gives host.
phase_of() {
    printf '%s\n' "$1" | sed -n 's/^ *"reason": "\(.*\)",*$/\1/p' | awk '
        { r = $0
          if (match(r, /while [^:]*:/)) { print substr(r, RSTART + 6, RLENGTH - 7); exit }
          if (r ~ /host memory/) { print "host"; exit } }'
}

printf '%-46s %-9s %-7s %10s  %-16s %s\n' scenario published fusync margin phase status
n=0 bad=0 failed=0 miss=0 line=0
while IFS='|' read -r scn pub status want src; do
    line=$((line + 1))
    scn=$(trim "$scn")
    case $scn in ''|'#'*) continue ;; esac
    pub=$(trim "$pub") status=$(trim "$status") want=$(trim "$want")
    case $pub in fits|oom) ;; *) echo "validate-feasibility: $ROWS:$line: published verdict '$pub' (fits or oom)" >&2; exit 2 ;; esac
    case $status in ok|miss) ;; *) echo "validate-feasibility: $ROWS:$line: status '$status' (ok or miss)" >&2; exit 2 ;; esac
    [ -n "$want" ] || { echo "validate-feasibility: $ROWS:$line: no phase field (a phase or -)" >&2; exit 2; }
    n=$((n + 1))
    # a scenario relative to the table's folder, or an absolute path (a
    # test's ROWS of its own)
    case $scn in /*) path=$scn ;; *) path=$DIR/$scn ;; esac
    out=$("$FUSYNC" check "$path" 2>&1)
    json=$("$FUSYNC" check "$path" --json - 2>/dev/null)
    # check exits 1 when the plan does not fit; tell that apart from a
    # scenario that does not load (no "fits" key in the JSON)
    case $json in
        *'"fits": true'*) got=fits ;;
        *'"fits": false'*) got=oom ;;
        *) failed=$((failed + 1)); printf '%-46s FAILED: %s\n' "$scn" "$(printf '%s' "$out" | head -1)"; continue ;;
    esac
    phase=-
    [ "$got" = oom ] && phase=$(phase_of "$json")
    [ -n "$phase" ] || phase=-
    # "at the peak  X GiB per device ..." and "of Y GiB" on the total line
    # of the worst pool: the smallest margin over the pools
    margin=$(printf '%s\n' "$out" | awk '
        function unit(v, u) { return u == "TiB" ? v * 1024 : u == "MiB" ? v / 1024 : v }
        /^ *total / { for (i = 1; i <= NF; i++) if ($i == "of") hbm = unit($(i + 1), $(i + 2)) }
        /at the peak/ { for (i = 1; i <= NF; i++) if ($(i + 2) == "per" && $(i + 3) == "device") {
                            m = hbm - unit($i, $(i + 1)); if (!seen || m < best) best = m; seen = 1; break } }
        END { if (seen) printf "%+.1f GiB", best; else printf "-" }')
    agree=no
    if [ "$got" = "$pub" ]; then
        agree=yes
        [ "$pub" = oom ] && [ "$want" != - ] && [ "$phase" != "$want" ] && agree=phase
    fi
    mark=$status
    case $agree in
        yes) [ "$status" = miss ] && mark="miss, now agrees: lift the mark" ;;
        *)
            why=""
            [ "$agree" = phase ] && why=" (thread: $want)"
            if [ "$status" = miss ]; then miss=$((miss + 1)); mark="known miss$why"
            else bad=$((bad + 1)); mark="WRONG$why"; fi ;;
    esac
    printf '%-46s %-9s %-7s %10s  %-16s %s\n' "$scn" "$pub" "$got" "$margin" "$phase" "$mark"
done <"$ROWS"
echo "validate-feasibility: $n rows, $((n - bad - miss - failed)) agree, $miss known misses, $bad wrong, $failed failed"
[ $failed -eq 0 ] || exit 2
[ $bad -eq 0 ] || exit 1
exit 0
