#!/bin/sh
# scripts/validate-feasibility.sh on rows of its own (ROWS=FILE, the
# scenarios absolute paths): an out-of-memory row agrees only when fusync
# fails in the phase the row names.
#   - a plan vLLM refuses to start (free memory under gpu_memory_utilization ×
#     HBM, the optimizer kept on the device; docs/model.md, section 8): its
#     JSON reason is "... while starting the engine: vLLM start-up: ...", and
#     a row with the phase "starting the engine" agrees, one with "training"
#     is a known miss with that phase named, one marked ok with "training" is
#     WRONG (exit 1);
#   - the same plan with the optimizer offloaded fits: an oom row on it is a
#     known miss, the phase fusync gives "-";
#   - a malformed row (no phase field) exits 2 naming the line;
#   - the verl 3360 row's figures as docs/validation.md prints them.
# FUSYNC names the binary.
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-feas.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "feasibility: FAIL: $*" >&2; }

scn() {   # scn FILE OPTIMIZER_ON_DEVICE: Qwen2.5-7B on 8 H100, vLLM at 0.95
    cat >"$1" <<LUA
local f = fusync
return { name = 'startup',
  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1, host_mem_gb = 2048 },
  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },
  workload = { prompts_per_step = 32, samples_per_prompt = 4, minibatches = 2,
    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 3000),
    max_response = 3072, iterations = 2, warmup = 0, seed = 5 },
  plan = { mode = 'full', offload = { optimizer = $2 },
           rollout = { tp = 1, max_seqs = 64, mem_util = 0.95 },
           train = { tp = 1, pp = 1, zero = 3, micro_batch = 2 } },
}
LUA
}
scn "$T/held.lua" false
scn "$T/offl.lua" true
"$F" check "$T/held.lua" --json - 2>/dev/null | grep -q '"reason": "pool .all. while starting the engine: vLLM start-up: free ' \
    && ok || bad "held.lua: no start-up refusal in check's reason"

vf() { ROWS=$T/rows.txt FUSYNC=$F sh scripts/validate-feasibility.sh >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
printf '%s\n' "$T/held.lua | oom | ok | starting the engine | test" "$T/held.lua | oom | miss | training | test" \
    "$T/offl.lua | oom | miss | - | test" >"$T/rows.txt"
vf
[ "$(cat "$T/rc")" = 0 ] && ok || bad "agreeing rows: exit $(cat "$T/rc"): $(cat "$T/err")"
grep -q 'oom *oom .*starting the engine *ok$' "$T/out" && ok || bad "the phase 'starting the engine' does not agree: $(cat "$T/out")"
grep -q 'starting the engine *known miss (thread: training)$' "$T/out" && ok || bad "a training row on it is not a known miss: $(cat "$T/out")"
grep -q 'offl.lua *oom *fits .* - *known miss$' "$T/out" && ok || bad "the offloaded plan: $(cat "$T/out")"
grep -q '3 rows, 1 agree, 2 known misses, 0 wrong, 0 failed' "$T/out" && ok || bad "summary: $(tail -1 "$T/out")"

printf '%s\n' "$T/held.lua | oom | ok | training | test" >"$T/rows.txt"
vf
[ "$(cat "$T/rc")" = 1 ] && grep -q 'WRONG (thread: training)' "$T/out" && ok || bad "an ok row in another phase is not WRONG (exit $(cat "$T/rc"))"

printf '%s\n' "$T/held.lua | oom | ok" >"$T/rows.txt"
vf
[ "$(cat "$T/rc")" = 2 ] && grep -q 'rows.txt:1: no phase field' "$T/err" && ok || bad "a row without its phase: exit $(cat "$T/rc"): $(cat "$T/err")"

# the figures docs/validation.md prints for verl 3360 (note s): +6.9 GiB at
# the peak, 72.3 GiB while training, with Megatron's split of 94 + 2 layers
R=$(pwd)/examples/validation/feasibility/verl_qwen3_235b_megatron_32xh100_issue3360.lua
printf '%s\n' "$R | oom | miss | - | verl 3360" >"$T/rows.txt"
vf
grep -q 'issue3360.lua *oom *fits *+6.9 GiB' "$T/out" && ok || bad "verl 3360's margin: $(cat "$T/out")"
"$F" check "$R" | grep -q 'at the peak  *72.3 GiB per device while training' && ok || bad "verl 3360's peak: $("$F" check "$R" | grep 'at the peak')"

# the OpenRLHF reports of 2024 and February 2025 (notes c and i): their
# vLLM's own 0.9 of the device (OpenRLHF then passed no
# gpu_memory_utilization, or its default was 0.9), where v0.11 gives 0.95:
# the vLLM pool peaks receiving weights at 73.1 GiB, +6.1 GiB (+2.1 at 0.95)
for n in openrlhf_qwen2_72b_ppo_32x80g_issue329 openrlhf_llama31_70b_grpo_72xa800_issue776 openrlhf_llama2_70b_ppo_16xa800_issue332; do
    R=$(pwd)/examples/validation/feasibility/$n.lua
    printf '%s\n' "$R | oom | miss | - | $n" >"$T/rows.txt"
    vf
    grep -q "$n.lua *oom *fits *+6.1 GiB" "$T/out" && ok || bad "$n's margin: $(cat "$T/out")"
    "$F" check "$R" | grep -q 'at the peak  *73.1 GiB per device while receiving weights' && ok || bad "$n's vLLM pool: $("$F" check "$R" | grep 'at the peak')"
done
# the phase of the engine's wake beside the trainer's cache (docs/model.md,
# section 8): verl 632's row agrees only as "waking the engine", -12.9 GiB
R=$(pwd)/examples/validation/feasibility/verl_deepscaler_1p5b_8k_8xa100_issue632.lua
printf '%s\n' "$R | oom | ok | waking the engine | verl 632" "$R | oom | miss | generating | verl 632" >"$T/rows.txt"
vf
grep -q 'issue632.lua *oom *oom *-12.9 GiB *waking the engine ok$' "$T/out" && ok || bad "verl 632 at the wake: $(cat "$T/out")"
grep -q 'waking the engine known miss (thread: generating)$' "$T/out" && ok || bad "verl 632 as generating: $(cat "$T/out")"

# the two reports of projects that run their own verl copy (notes w and x):
# TinyZero 30 fits by +4.1 GiB (75.1 GiB generating, 67.8 GiB training, its
# 2.9 GiB reference on the device in both: ref param_offload false),
# Logic-RL 75 by +10.1 GiB (69.1 GiB generating, its one micro-batch of 32
# sequences 25.0 GiB of activations)
R=$(pwd)/examples/validation/feasibility/tinyzero_qwen25_3b_ppo_2xh100_issue30.lua
printf '%s\n' "$R | oom | miss | - | TinyZero 30" >"$T/rows.txt"
vf
grep -q 'issue30.lua *oom *fits *+4.1 GiB' "$T/out" && ok || bad "TinyZero 30's margin: $(cat "$T/out")"
"$F" check "$R" | grep 'total  *67.8 GiB  *75.1 GiB' >/dev/null && ok || bad "TinyZero 30's totals: $("$F" check "$R" | grep ' total ')"
"$F" check "$R" | grep 'ref_weights  *2.9 GiB  *2.9 GiB' >/dev/null && ok || bad "TinyZero 30's reference: $("$F" check "$R" | grep ' ref_weights ')"
R=$(pwd)/examples/validation/feasibility/logicrl_qwen25_7b_grpo_4xa800_issue75.lua
printf '%s\n' "$R | oom | miss | - | Logic-RL 75" >"$T/rows.txt"
vf
grep -q 'issue75.lua *oom *fits *+10.1 GiB' "$T/out" && ok || bad "Logic-RL 75's margin: $(cat "$T/out")"
"$F" check "$R" | grep 'activations  *25.0 GiB' >/dev/null && ok || bad "Logic-RL 75's activations: $("$F" check "$R" | grep ' activations ')"
# Logic-RL 8 (note z): main_grpo.sh at 1f25c13 on 4 x A100 80GB, every
# actor state and the reference offloaded: the peak is training, 51.9 GiB
# (the same 32 sequences a GPU in one micro-batch, 23.2 GiB of activations),
# generating 47.8 GiB; a fit by +27.3 GiB
R=$(pwd)/examples/validation/feasibility/logicrl_qwen25_7b_grpo_4xa100_issue8.lua
printf '%s\n' "$R | oom | miss | - | Logic-RL 8" >"$T/rows.txt"
vf
grep -q 'issue8.lua *oom *fits *+27.3 GiB' "$T/out" && ok || bad "Logic-RL 8's margin: $(cat "$T/out")"
"$F" check "$R" | grep 'total  *51.9 GiB  *47.8 GiB' >/dev/null && ok || bad "Logic-RL 8's totals: $("$F" check "$R" | grep ' total ')"
# verl 1649 (note y): the Qwen3-30B-A3B Megatron script at verl add17f029
# under vLLM 0.8's device scope, its reference on the device for the whole
# run (ref.megatron.param_offload false) and built before the engine sizes
# its cache.  The experts are split over EP4 x ETP4 (the script leaves
# expert_tensor_parallel_size null, Megatron's TP).  At 0.6 the engine
# starts with 14.5 GiB of KV a device (16.6 with the reference on the
# host), sized before Adam's moments exist (plan.train.lazy_states); counted
# with the moments 7.4 GiB, not refused.  At 0.9 the pool peaks generating
# at 78.7 GiB, +0.5 GiB, the reference's 2.0 GiB taken from the KV cache.
R=$(pwd)/examples/validation/feasibility/verl_qwen3_30ba3b_megatron_32xh100_issue1649.lua
R9=$(pwd)/examples/validation/feasibility/verl_qwen3_30ba3b_megatron_32xh100_util09_issue1649.lua
printf '%s\n' "$R | oom | miss | starting the engine | verl 1649" "$R9 | oom | miss | waking the engine | verl 1649" >"$T/rows.txt"
vf
grep -q 'issue1649.lua *oom *fits *+24.3 GiB' "$T/out" && ok || bad "verl 1649's margin: $(cat "$T/out")"
grep -q 'util09_issue1649.lua *oom *fits *+0.5 GiB' "$T/out" && ok || bad "verl 1649 at 0.9: $(cat "$T/out")"
"$F" check "$R" | grep -q 'kv cache  14.5 GiB a device of vLLM.s 47.5 GiB' && ok || bad "verl 1649's KV cache: $("$F" check "$R" | grep 'kv cache')"
"$F" check "$R" --set plan.offload.reference=true | grep -q 'kv cache  16.6 GiB a device of vLLM.s 47.5 GiB' && ok || bad "verl 1649, its reference on the host: $("$F" check "$R" --set plan.offload.reference=true | grep 'kv cache')"
"$F" check "$R" | grep -q 'training  TP4 PP2 DP4 EP4 ETP4 (expert DP 1)' && ok || bad "verl 1649's layout: $("$F" check "$R" | grep 'training  ')"
"$F" check "$R9" | grep -q 'kv cache  38.3 GiB a device' && ok || bad "verl 1649 at 0.9, the KV cache: $("$F" check "$R9" | grep 'kv cache')"
"$F" check "$R" --set plan.train.lazy_states=false | grep -q 'kv cache  7.4 GiB a device' \
    && ok || bad "verl 1649 with the moments counted at start-up: $("$F" check "$R" --set plan.train.lazy_states=false | grep 'kv cache')"
"$F" check "$R9" | grep -q 'at the peak  *78.7 GiB per device while generating' && ok || bad "verl 1649 at 0.9, the peak: $("$F" check "$R9" | grep 'at the peak')"

# out-of-memory fixes in the frameworks' own commits (notes ga and gb).
# OpenRLHF pull request 1305: the hybrid-engine script without
# --vllm.enable_sleep keeps vLLM's 0.7 share (its weights and KV cache)
# through training, 98.4 GiB there, -19.2 GiB; with it the same plan fits,
# +23.2 GiB, the peak 56.0 GiB generating.  The sleep alone decides.
R=$(pwd)/examples/validation/feasibility/openrlhf_qwen3_4b_colocate_4xh100_nosleep_pr1305.lua
RS=$(pwd)/examples/validation/feasibility/openrlhf_qwen3_4b_colocate_4xh100_sleep_pr1305.lua
printf '%s\n' "$R | oom | ok | training | OpenRLHF 1305" "$RS | fits | ok | - | OpenRLHF 1305" "$R | oom | miss | generating | OpenRLHF 1305" >"$T/rows.txt"
vf
grep -q 'nosleep_pr1305.lua *oom *oom *-21.0 GiB *training *ok$' "$T/out" && ok || bad "OpenRLHF 1305 without the sleep: $(cat "$T/out")"
grep -q '_sleep_pr1305.lua *fits *fits *+21.3 GiB' "$T/out" && ok || bad "OpenRLHF 1305 with the sleep: $(cat "$T/out")"
grep -q 'training *known miss (thread: generating)$' "$T/out" && ok || bad "OpenRLHF 1305 as generating: $(cat "$T/out")"
"$F" check "$R" | grep -q 'total  *100.2 GiB  *57.9 GiB' && ok || bad "OpenRLHF 1305's totals: $("$F" check "$R" | grep ' total ')"
"$F" check "$R" --set plan.rollout.sleep=offload | grep -q '^Memory fit: fits' && ok || bad "OpenRLHF 1305 with the engine asleep does not fit"
"$F" check "$RS" | grep -q 'at the peak  *57.9 GiB per device while generating' && ok || bad "OpenRLHF 1305 fixed, the peak: $("$F" check "$RS" | grep 'at the peak')"
# NeMo RL pull request 709 and commit 5efe3878f: the DeepScaleR 16K recipe at
# TP 1 with logprob_batch_size 4 runs out in the log-prob passes, 100.5 GiB
# of log-prob forward, -25.3 GiB; logprob_batch_size 1 (5efe3878f) brings the
# forward to 27.6 GiB, +20.4; pull request 709's TP 2 to 68.8 GiB, +8.5.
R=$(pwd)/examples/validation/feasibility/nemo_deepscaler_1p5b_16k_8xh100_tp1_pr709.lua
R7=$(pwd)/examples/validation/feasibility/nemo_deepscaler_1p5b_16k_8xh100_pr709.lua
R1=$(pwd)/examples/validation/feasibility/nemo_deepscaler_1p5b_16k_8xh100_logprob1.lua
printf '%s\n' "$R | oom | ok | log-prob passes | NeMo RL 709" "$R7 | fits | ok | - | NeMo RL 709" "$R1 | fits | ok | - | 5efe3878f" >"$T/rows.txt"
vf
grep -q 'tp1_pr709.lua *oom *oom *-25.3 GiB *log-prob passes *ok$' "$T/out" && ok || bad "NeMo RL 709's parent: $(cat "$T/out")"
grep -q '8xh100_pr709.lua *fits *fits *+8.5 GiB' "$T/out" && ok || bad "NeMo RL 709's fix: $(cat "$T/out")"
grep -q 'logprob1.lua *fits *fits *+20.4 GiB' "$T/out" && ok || bad "5efe3878f: $(cat "$T/out")"
"$F" check "$R" | grep -q 'log-prob forward  *100.5 GiB' && ok || bad "NeMo RL 709's parent, the log-prob forward: $("$F" check "$R" | grep 'log-prob forward')"
"$F" check "$R1" | grep -q 'log-prob forward  *27.6 GiB' && ok || bad "5efe3878f, the log-prob forward: $("$F" check "$R1" | grep 'log-prob forward')"
"$F" check "$R7" | grep -q 'at the peak  *70.7 GiB per device while log-prob passes' && ok || bad "NeMo RL 709's fix, the peak: $("$F" check "$R7" | grep 'at the peak')"

# NeMo RL commit b0ad4f7e2 ("Fix qwen oom"): the GB200 recipe of Qwen3-30B-A3B
# (4 nodes of 4) at logprob_batch_size 4 and 2.  fusync finds both fitting by
# 72.7 GiB (the peak generating, 111.6 GiB of the gb200 preset's 184.3): the
# log-prob passes peak at 65.9 GiB at 4 (log-prob forward 24.8 GiB) and 12.4
# GiB lower at 2, so the row before the fix is a known miss (note gc).
R=$(pwd)/examples/validation/feasibility/nemo_qwen3_30ba3b_16xgb200_logprob4_b0ad4f7e2.lua
R2=$(pwd)/examples/validation/feasibility/nemo_qwen3_30ba3b_16xgb200_logprob2_b0ad4f7e2.lua
printf '%s\n' "$R | oom | miss | log-prob passes | b0ad4f7e2^" "$R2 | fits | ok | - | b0ad4f7e2" >"$T/rows.txt"
vf
grep -q 'logprob4_b0ad4f7e2.lua *oom *fits *+72.7 GiB *- *known miss' "$T/out" && ok || bad "b0ad4f7e2's parent: $(cat "$T/out")"
grep -q 'logprob2_b0ad4f7e2.lua *fits *fits *+72.7 GiB *- *ok' "$T/out" && ok || bad "b0ad4f7e2: $(cat "$T/out")"
"$F" check "$R" | grep -q 'on 16 x NVIDIA GB200' && ok || bad "b0ad4f7e2's parent: not on the GB200 preset"
"$F" check "$R" | grep -q 'log-prob forward  *24.8 GiB' && ok || bad "b0ad4f7e2's parent, the log-prob forward: $("$F" check "$R" | grep 'log-prob forward')"
"$F" check "$R2" | grep -q 'log-prob forward  *12.4 GiB' && ok || bad "b0ad4f7e2, the log-prob forward: $("$F" check "$R2" | grep 'log-prob forward')"
"$F" check "$R" --set plan.rollout.mem_util=0.2 | grep -q 'at the peak  *65.9 GiB per device while log-prob passes' \
    && ok || bad "b0ad4f7e2's parent, the log-prob passes: $("$F" check "$R" --set plan.rollout.mem_util=0.2 | grep 'at the peak')"

echo "feasibility: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
