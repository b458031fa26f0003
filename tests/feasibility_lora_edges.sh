#!/bin/sh
# The three out-of-memory rows of verl's GRPO-LoRA largest-batch searches
# (docs/validation.md, the feasibility table, note t): each script's line 10
# marks the batch one step above the shipped one as not run (14B 59 prompts
# a GPU on 2 x H100, 32B 46 on 4, 72B 23 on 8).  Pinned here, from
# `fusync check --json` (the training pool's bytes a device, the figure the
# note prints):
#   - at the importer's guessed lengths, the edge rows' training peaks,
#     69.5, 68.5 and 63.3 GiB, each above its shipped row's (68.8, 67.7,
#     62.2 GiB; the same scripts, the fits rows of note b), and all fit:
#     known misses;
#   - at the lengths the contributor's own runs log (prompts of 103 tokens
#     on average, responses of 240 for 14B and 267 for 32B and 72B: the
#     lines `fusync import --prompt-mean/--response-mean` writes), 50.6,
#     52.9 and 51.6 GiB.
# FUSYNC names the binary.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
mkdir -p build
T=$(mktemp -d "$(pwd)/build/lora_edges.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "feasibility_lora_edges: FAIL: $*" >&2; }

DIR=examples/validation/feasibility
# the training peak a device in GiB (one decimal) and the verdict, from
# fusync check --json: the sum of the pool's train_memory_bytes
peak() {
    "$F" check "$1" --json - 2>/dev/null | awk '
        /"fits":/ { fits = $2; sub(/,/, "", fits) }
        /"train_memory_bytes"/ { on = 1; next }
        on && /}/ { on = 0 }
        on { v = $2; sub(/,/, "", v); s += v }
        END { printf "%.1f %s\n", s / 1073741824, fits }'
}

for w in "14b_2xh100 59 68.8 69.5 240 50.6" "32b_4xh100 46 67.7 68.5 267 52.9" "72b_8xh100 23 62.2 63.3 267 51.6"; do
    set -- $w
    edge=$DIR/verl_lora_qwen25_$1_bs$2.lua
    shipped=$DIR/verl_lora_qwen25_$1.lua
    [ -f "$edge" ] || { bad "no scenario $edge"; continue; }
    set -- "$@" $(peak "$shipped") $(peak "$edge")
    [ "$7 $8" = "$3 true" ] && ok || bad "$1 shipped: $7 GiB fits=$8, want $3 GiB and a fit"
    [ "$9 ${10}" = "$4 true" ] && ok || bad "$1 at $2 prompts a GPU: $9 GiB fits=${10}, want $4 GiB and a fit (a known miss)"
    awk -v a="$7" -v b="$9" 'BEGIN { exit !(b > a) }' && ok || bad "$1: the larger batch does not cost more ($7 -> $9 GiB)"
    # the contributor's logged lengths, as the importer writes them
    sed -e 's/^\( *prompt_len = \).*$/\1f.dist.lognormal{ mean = 103, sigma = 0.5, cap = 512 },/' \
        -e "s/^\\( *response_len = \\).*\$/\\1f.dist.lognormal{ mean = $5, sigma = 0.8, cap = 1024 },/" \
        "$edge" >"$T/logged.lua"
    grep -q "mean = $5, sigma = 0.8" "$T/logged.lua" || { bad "$1: no response_len line to replace"; continue; }
    set -- "$@" $(peak "$T/logged.lua")
    [ "${11} ${12}" = "$6 true" ] && ok || bad "$1 at the logged lengths: ${11} GiB fits=${12}, want $6 GiB"
done

echo "feasibility_lora_edges: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
