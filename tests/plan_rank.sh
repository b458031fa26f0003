#!/bin/sh
# Does the planner's ranking agree with `fusync run`?  For each scenario: the
# plan's top 10 and 10 random feasible lower-ranked candidates, each run with
# the command of its run_with column over the scenario's own iterations;
#   - every listed plan (the top 10) runs feasibly and to the planner's figure
#     exactly (its run line reproduces it);
#   - Spearman's rho between the planner's figure and the run's >= 0.9;
#   - the planner's #1 within 2% of the best of the 20 runs.
# Scenarios: the Qwen and Pangu examples and a MoE validation scenario
# (Qwen3-30B-A3B on 128 H20).  FUSYNC names the binary; RANK_SCENARIOS may
# narrow the list.  Figures come from the runs, so nothing is pinned here.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-rank.XXXXXX")
[ -n "${RANK_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "plan_rank: FAIL: $*" >&2; }

SCENARIOS=${RANK_SCENARIOS:-"examples/qwen7b_h100x16.lua examples/pangu718b_cm384.lua examples/validation/verl_qwen3_30b_h20.lua"}

for S in $SCENARIOS; do
    name=$(basename "$S" .lua)
    if ! "$F" plan "$S" --quiet --csv "$T/$name.csv" 2>"$T/$name.err"; then
        bad "$name: fusync plan failed: $(head -3 "$T/$name.err")"
        continue
    fi
    # the 20 rows: figure, listed (1/0) and the command, one per line
    awk -F, -v seed=7 '
        /^#/ { next }       # the opening lines of the CSV (docs/cli.md, "What made a file")
        !h++ { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["feasible"] == "true" && $col["within"] != "false" {
            # a row dropped early: its whole-window figure is extrapolated_score
            n++; fig[n] = $col["extrapolated_score"] != "" ? $col["extrapolated_score"] : $col["score"]; cmd[n] = $NF }
        END {
            top = n < 10 ? n : 10
            for (i = 1; i <= top; i++) print fig[i] "\t1\t" cmd[i]
            srand(seed)
            m = n - top; want = m < 10 ? m : 10
            for (k = 0; k < want; ) {       # 10 distinct lower-ranked rows
                i = top + 1 + int(rand() * m)
                if (i in taken) continue
                taken[i] = 1; k++
                print fig[i] "\t0\t" cmd[i]
            }
        }' "$T/$name.csv" > "$T/$name.rows"
    nrows=$(wc -l < "$T/$name.rows")
    [ "$nrows" -ge 12 ] && ok || { bad "$name: only $nrows feasible rows to compare"; continue; }
    : > "$T/$name.pairs"
    while IFS="$(printf '\t')" read -r fig listed cmd; do
        # the scenario's own iterations: drop a short rung's --iterations
        args=$(echo "$cmd" | sed 's/^fusync run //; s/ --iterations [0-9]*//')
        # shellcheck disable=SC2086  # the run line is words without quoting
        if ! eval "\"\$F\" run $args --quiet --json \"\$T/r.json\"" 2>"$T/r.err"; then
            bad "$name: the run line failed: $cmd: $(head -2 "$T/r.err")"
            continue
        fi
        got=$(sed -n 's/^ *"throughput_tokens_per_s": \([-0-9.eE+]*\),*$/\1/p' "$T/r.json" | head -1)
        feas=$(sed -n 's/^ *"feasible": \(true\|false\),*$/\1/p' "$T/r.json" | head -1)
        if [ "$listed" = 1 ]; then
            [ "$feas" = true ] && ok || bad "$name: a listed plan is infeasible in run: $cmd"
            awk -v a="$fig" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * (a > 0 ? a : 1)) }' \
                && ok || bad "$name: the run line gives $got tokens/s, the plan listed $fig: $cmd"
        fi
        [ "$feas" = true ] || got=0
        echo "$fig $got" >> "$T/$name.pairs"
    done < "$T/$name.rows"
    # Spearman's rho (average ranks for ties) and #1 against the best run
    res=$(awk -f tests/spearman.awk "$T/$name.pairs")
    rho=${res%% *}
    rest=${res#* }
    share=${rest%% *}
    n=${rest#* }
    echo "plan_rank: $name: $n plans, Spearman rho $rho, #1 at $share of the best run"
    awk -v r="$rho" 'BEGIN { exit !(r >= 0.9) }' && ok || bad "$name: Spearman rho $rho < 0.9"
    awk -v s="$share" 'BEGIN { exit !(s >= 0.98) }' && ok || bad "$name: #1 runs at $share of the best of the 20"
done

echo "plan_rank: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
