#!/bin/sh
# scripts/validate.sh — the validation table (docs/validation.md).
#
# Runs every row of examples/validation/rows.txt with `fusync run ... --json`
# and prints: system, row, published figure, predicted figure, error, the
# row's tolerance and whether the row was the one its system was calibrated
# on.  Exit status 1 when a row's |error| leaves its tolerance (a
# regression; a row that improves should get a tighter tolerance by hand),
# 2 when a run fails.  `make validate` runs it; `make test` too.
#
# rows.txt, one row a line, fields separated by '|', '#' starts a comment:
#   system | row | scenario (relative to examples/validation) | metric |
#   published | tolerance % | calibrated or predicted | fusync arguments
# metric: step_time_s, throughput_tokens_per_s, infer.NAME (seconds of a part
# of the inference phase: queue, logprob, reference, reward, critic), phase.NAME (seconds of a
# step phase), mfu.NAME (model FLOPs utilization: train, generate, inference)
# or seq_mean (tokens trained per sample).
# ROWS=FILE runs another table (tests/validate.sh does); FUSYNC=PATH another
# binary.  RETOL=1 also rewrites ROWS with each predicted row's tolerance at
# its |error| rounded up plus 5 points (docs/validation.md, "The rules
# followed"); calibrated rows keep theirs.  Read the diff before committing.
set -u
cd "$(dirname "$0")/.." || exit 2
FUSYNC=${FUSYNC:-$(pwd)/build/fusync}
[ -x "$FUSYNC" ] || { echo "validate: no fusync binary at $FUSYNC; run make first" >&2; exit 2; }
. scripts/validate-lib.sh
ROWS=${ROWS:-examples/validation/rows.txt}
[ -r "$ROWS" ] || { echo "validate: cannot read $ROWS" >&2; exit 2; }

trim() { printf '%s' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

printf '%-18s %-32s %-9s %10s %10s %8s %6s  %s\n' \
    system row metric published predicted error tol kind
n=0 out=0 failed=0
errs=$(mktemp "${TMPDIR:-/tmp}/fusync-validate.XXXXXX") || exit 2
trap 'rm -f "$errs"' EXIT INT TERM
while IFS='|' read -r sys row scn metric pub tol kind args; do
    sys=$(trim "$sys")
    case $sys in ''|'#'*) continue ;; esac
    row=$(trim "$row") scn=$(trim "$scn") metric=$(trim "$metric")
    pub=$(trim "$pub") tol=$(trim "$tol") kind=$(trim "$kind") args=$(trim "$args")
    n=$((n + 1))
    # shellcheck disable=SC2086 # args is a list of words by design
    if ! got=$(run_metric "examples/validation/$scn" "$metric" $args); then
        failed=$((failed + 1))
        printf '%-18s %-32s %-9s %10s %10s  FAILED\n' "$sys" "$row" "$metric" "$pub" "-"
        continue
    fi
    line=$(awk -v p="$pub" -v g="$got" -v t="$tol" 'BEGIN {
        e = (g - p) / p * 100; a = e < 0 ? -e : e
        # a fraction (an MFU) keeps three decimals; seconds and tokens/s one
        printf (g < 10 ? "%10.3f" : "%10.1f"), g
        printf " %+7.1f%% %5s%% %s", e, t, (a <= t ? "ok" : "OUT")
    }')
    case $line in *OUT) out=$((out + 1)) ;; esac
    # SYSTEM|ROW|KIND|ERROR, for the summary and RETOL
    printf '%s|%s|%s|%s\n' "$sys" "$row" "$kind" "$(awk -v p="$pub" -v g="$got" 'BEGIN { printf "%.4f", (g - p) / p * 100 }')" >>"$errs"
    short=$metric
    case $metric in step_time_s) short=step_s ;; throughput_tokens_per_s) short=tok/s ;;
                    phase.*) short=${metric#phase.}; short=$(printf '%.9s' "$short") ;;
                    infer.*) short=${metric#infer.}; short=$(printf '%.9s' "$short") ;;
                    mfu.*) short=$(printf '%.9s' "$metric") ;; esac
    mark=; [ "${line##* }" = OUT ] && mark="  OUT OF TOLERANCE"
    printf '%-18s %-32s %-9s %10s %s %s%s\n' "$sys" "$row" "$short" "$pub" "${line% *}" "$kind" "$mark"
done <"$ROWS"
awk -F'|' '$3 == "predicted" { e = $4 < 0 ? -$4 : $4; a[++n] = e }
    END { if (!n) exit
          for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
          med = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
          printf "validate: %d predicted rows: median |error| %.1f%%, max %.1f%%\n", n, med, a[n] }' "$errs"
if [ "${RETOL:-0}" = 1 ]; then
    tmp=$ROWS.retol.$$
    awk -v errs="$errs" '
        function trim(x) { sub(/^[ \t]+/, "", x); sub(/[ \t]+$/, "", x); return x }
        BEGIN { FS = OFS = "|"
                while ((getline l < errs) > 0) { split(l, f, "|"); if (f[3] == "predicted") e[f[1] "|" f[2]] = f[4] } }
        /^[ \t]*(#|$)/ { print; next }
        { k = trim($1) "|" trim($2)
          if (k in e) { x = e[k] < 0 ? -e[k] : e[k]; t = int(x); if (t < x) t++; t += 5
                        w = length($6); $6 = sprintf(" %-" (w > 2 ? w - 2 : 1) "d ", t) }
          print }' "$ROWS" >"$tmp" && mv "$tmp" "$ROWS"
    echo "validate: RETOL: $ROWS rewritten (predicted rows: |error| rounded up + 5 points)"
fi
echo "validate: $n rows, $((n - out - failed)) within tolerance, $out outside, $failed failed"
[ $failed -eq 0 ] || exit 2
[ $out -eq 0 ] || exit 1
exit 0
