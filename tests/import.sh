#!/bin/sh
# import.sh — `fusync import`: each launch configuration under
# tests/data/import/ (written in the frameworks' formats) gives a scenario
# whose fields match the config key by key, names the source of each,
# carries the warnings block, and that `fusync check` reads; bad inputs are
# refused with the file, line and key.
FUSYNC=${FUSYNC:-build/fusync}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $FUSYNC in /*) ;; *) FUSYNC="$(pwd)/$FUSYNC" ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fusync-import.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
D=$ROOT/tests/data/import
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "import.sh: FAIL: $*"; }
# a Hugging Face cache of the two models the configs name
HUB=$TMP/hub
mkdir -p "$HUB/models--meta-llama--Llama-3.1-8B/snapshots/0123abc" "$HUB/models--Qwen--Qwen3-8B/snapshots/fe01"
cp "$ROOT/tests/data/hf/Llama-3.1-8B.config.json" "$HUB/models--meta-llama--Llama-3.1-8B/snapshots/0123abc/config.json"
cp "$ROOT/tests/data/hf/Qwen3-8B.config.json" "$HUB/models--Qwen--Qwen3-8B/snapshots/fe01/config.json"

# imp NAME FW FILE...: import into $TMP/NAME.lua
imp() {
    name=$1; shift
    if "$FUSYNC" import "$@" --model-dir "$HUB" --out "$TMP/$name.lua" 2>"$TMP/$name.err"; then ok
    else bad "$name: import failed: $(cat "$TMP/$name.err")"; fi
}
# field NAME TEXT: the written scenario has a line with TEXT (a field = value and its source)
field() {
    if grep -qF -- "$2" "$TMP/$1.lua"; then ok; else bad "$1: no '$2' in the scenario"; fi
}
# check NAME STATUS [TEXT]: fusync check exits with STATUS (and prints TEXT)
check() {
    out=$("$FUSYNC" check "$TMP/$1.lua" 2>&1); rc=$?
    if [ "$rc" = "$2" ] && { [ -z "$3" ] || printf '%s\n' "$out" | grep -qF -- "$3"; }; then ok
    else bad "$1: check status $rc (want $2) $3: $(printf '%s' "$out" | tail -5)"; fi
}
# warned NAME TEXT: TEXT is in the warnings block (after its heading)
warned() {
    if sed -n '/^-- Warnings:/,/^-- Keys read that do not/p' "$TMP/$1.lua" | grep -qF -- "$2"; then ok
    else bad "$1: '$2' not in the warnings block"; fi
}
noperf() {
    if sed -n '/^-- Keys read that do not/,$p' "$TMP/$1.lua" | grep -qF -- "$2"; then ok
    else bad "$1: '$2' not among the keys that do not affect performance"; fi
}

# --- verl, FSDP, hybrid engine: shell variables, ${VAR:-default}, $((...)), "$@"
imp vf verl "$D/verl_qwen3_8b_fsdp.sh" --device h100
field vf 'devices_per_node = 8,  -- trainer.n_gpus_per_node'
field vf 'actor = { name = "Qwen/Qwen3-8B", layers = 36,'
field vf 'reference = true,  -- actor_rollout_ref.actor.use_kl_loss'
field vf 'prompts_per_step = 512,  -- data.train_batch_size'
field vf 'samples_per_prompt = 5,  -- actor_rollout_ref.rollout.n'
field vf 'minibatches = 4,  -- actor_rollout_ref.actor.ppo_mini_batch_size'   # 512 / (512/4)
field vf 'max_response = 2048,  -- data.max_response_length'
field vf 'mode = "full",  -- actor_rollout_ref.hybrid_engine'
field vf 'controller = "driver"'
field vf 'reward_workers = 1,  -- reward_model.reward_manager'
field vf 'zero = 3,  -- actor_rollout_ref.actor.strategy'
field vf 'shard_group = 0,  -- actor_rollout_ref.actor.fsdp_config.fsdp_size'
field vf 'micro_batch = 16,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu'
field vf 'recompute = "full",  -- actor_rollout_ref.model.enable_gradient_checkpointing'
field vf 'tp = 2,  -- actor_rollout_ref.rollout.tensor_model_parallel_size'
field vf 'mem_util = 0.6,  -- actor_rollout_ref.rollout.gpu_memory_utilization'
field vf 'device = f.devices.h100,  -- --device'
# --device takes the names frameworks and logs use: the scenario names the preset's key
imp vgb verl "$D/verl_qwen3_8b_fsdp.sh" --device GB200
field vgb 'device = f.devices.gb200,  -- --device GB200'
imp va40 verl "$D/verl_qwen3_8b_fsdp.sh" --device "A100 40GB"
field va40 'device = f.devices.a100_40g,  -- --device A100 40GB'
field vf 'reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload'
field vf 'params = "none",  -- actor_rollout_ref.actor.fsdp_config.param_offload'
# without param_offload the training shards stay on the device while vLLM generates
field vf 'zero_redundancy = false,  -- actor_rollout_ref.actor.fsdp_config.param_offload'
field vf 'sleep = "discard",  -- actor_rollout_ref.rollout.free_cache_engine, verl'"'"'s default: vLLM sleep level 2'
warned vf 'trainer.test_freq = 5'
noperf vf 'trainer.project_name'
check vf 0 "Memory fit: fits"
# the run's own override after the script replaces its value
imp vf2 verl "$D/verl_qwen3_8b_fsdp.sh" actor_rollout_ref.rollout.n=8
field vf2 'samples_per_prompt = 8,'

# --- verl, Megatron (--config-name picks the Megatron defaults), preset model
imp vm verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh"
field vm 'nodes = 2,  -- trainer.nnodes'
field vm 'actor = { name = "Qwen/Qwen2.5-7B", layers = 28,'
field vm "the shape of fusync's preset f.models.qwen2_5_7b"
field vm 'tp = 2,  -- actor_rollout_ref.actor.megatron.tensor_model_parallel_size'
field vm 'pp = 2,  -- actor_rollout_ref.actor.megatron.pipeline_model_parallel_size'
field vm 'zero = 1,  -- actor_rollout_ref.actor.megatron.use_distributed_optimizer'
field vm 'minibatches = 4,'
check vm 0 "Memory fit: fits"
# expert tensor parallelism: verl's default null is Megatron-Core's (the TP
# size), fusync's etp 0 (no line); a value given is plan.train.etp, and it
# goes back out as the key
if grep -q 'etp = ' "$TMP/vm.lua"; then bad "vm: an etp line for verl's null"; else ok; fi
imp vmetp verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" actor_rollout_ref.actor.megatron.expert_tensor_parallel_size=2
field vmetp 'etp = 2,  -- actor_rollout_ref.actor.megatron.expert_tensor_parallel_size (command line)'
"$FUSYNC" export verl "$TMP/vmetp.lua" 2>/dev/null | grep -qxF "actor_rollout_ref.actor.megatron.expert_tensor_parallel_size=2" \
    && ok || bad "export vmetp: no expert_tensor_parallel_size=2"
"$FUSYNC" export verl "$TMP/vm.lua" 2>/dev/null | grep -qxF "actor_rollout_ref.actor.megatron.expert_tensor_parallel_size=null" \
    && ok || bad "export vm: no expert_tensor_parallel_size=null"
# the MoE token dispatcher: verl sets alltoall itself before the overrides;
# an override is plan.train.moe_dispatcher and goes back out; a name
# Megatron does not know is refused, naming the key
DK=actor_rollout_ref.actor.megatron.override_transformer_config.moe_token_dispatcher_type
field vm "moe_dispatcher = \"alltoall\",  -- $DK, verl's default"
imp vmflex verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" "$DK=flex"
field vmflex "moe_dispatcher = \"flex\",  -- $DK (command line)"
"$FUSYNC" export verl "$TMP/vmflex.lua" 2>/dev/null | grep -qxF "$DK=flex" && ok || bad "export vmflex: no $DK=flex"
"$FUSYNC" export verl "$TMP/vm.lua" 2>/dev/null | grep -qxF "$DK=alltoall" && ok || bad "export vm: no $DK=alltoall"
out=$("$FUSYNC" import verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" "$DK=deepep" --model-dir "$HUB" 2>&1); rc=$?
if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -qF "$DK = 'deepep': not one of alltoall, allgather, flex"; then ok
else bad "dispatcher deepep: status $rc (want 2): $out"; fi
# Megatron's pipeline split with the embedding and the loss counted as layers
# (override_transformer_config.account_for_*_in_pipeline_split): 28 + 2 on 2 stages
imp vmps verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" \
    +actor_rollout_ref.actor.megatron.override_transformer_config.account_for_embedding_in_pipeline_split=True \
    +actor_rollout_ref.actor.megatron.override_transformer_config.account_for_loss_in_pipeline_split=True
field vmps 'pp_embedding_layer = true,  -- actor_rollout_ref.actor.megatron.override_transformer_config.account_for_embedding_in_pipeline_split'
field vmps 'pp_loss_layer = true,  -- actor_rollout_ref.actor.megatron.override_transformer_config.account_for_loss_in_pipeline_split'
# and back out, with Hydra's '+' (the keys are not in verl's config)
for k in embedding loss; do
    "$FUSYNC" export verl "$TMP/vmps.lua" 2>/dev/null | grep -qxF "+actor_rollout_ref.actor.megatron.override_transformer_config.account_for_${k}_in_pipeline_split=True" \
        && ok || bad "export vmps: no account_for_${k}_in_pipeline_split"
done
check vmps 0 "Memory fit: fits"

# --- OpenRLHF with the hybrid engine (colocate_all, sleep modes)
imp oh openrlhf "$D/openrlhf_llama8b_hybrid.sh"
field oh 'algorithm = "ppo",  -- algo.advantage.estimator'
field oh 'mode = "full",  -- train.colocate_all'
field oh 'reward = { name = "meta-llama/Llama-3.1-8B"'
field oh 'critic = { name = "meta-llama/Llama-3.1-8B"'
field oh 'minibatches = 8,  -- train.batch_size'          # 1024 x 1 / 128
field oh 'zero = 3,  -- ds.zero_stage'
field oh 'max_tokens = 16384,  -- train.max_tokens_per_gpu'
field oh 'padding = "none",  -- train.dynamic_batch_enable'   # dynamic batching forces packing
field oh 'optimizer = true,  -- ds.enable_sleep'
field oh 'sleep = "offload",  -- vllm.enable_sleep'
field oh 'cuda_graphs = false,  -- vllm.enforce_eager'
warned oh 'data.max_len = 2048 caps prompt + response'
check oh 0 "Memory fit: fits"

# --- OpenRLHF on separate Ray pools (ray job submit -- python3 -m ...)
imp op openrlhf "$D/openrlhf_llama8b_pools.sh"
field op 'nodes = 4,'   # 8 + 4 + 4 GPUs, 4 a node
field op '{ name = "vllm", devices = 8, roles = { "rollout" } }'
field op '{ name = "actor", devices = 4, roles = { "train", "ref" } }'
field op '{ name = "critic_reward", devices = 4, roles = { "critic", "reward" } }'
field op 'micro_batch = 8,  -- train.micro_batch_size'
field op 'optimizer_offload = 1,  -- ds.adam_offload'
field op 'padding = "none",  -- ds.packing_samples'
# vLLM's max_model_len is data.max_len itself (train_ppo_ray.py passes max_len to
# create_vllm_engines), not the guessed prompt cap + max_new_tokens (512 + 1024)
field op 'max_model_len = 2048,  -- data.max_len'
# the critic trains on its own group beside the actor (colocate_critic_reward:
# with the reward model): the actor's 4 GPUs hold the actor's states (its
# optimizer states on the host with DeepSpeed's CPU Adam, adam_offload) and,
# as --zero_stage 3 shards OpenRLHF's reference (docs/model.md, section 3),
# a quarter of the reference; the critic's states are on the other 4: it fits
check op 0 "Memory fit: fits"
check op 0 "reference 3.7 GiB per device, ZeRO-3 over 4 ranks"
check op 0 "critic    trained here beside the actor on pool 'actor'"
# without colocate_critic_reward: the critic alone on its group, the reward
# model on one of its own
sed -e '/--train.colocate_critic_reward/d' "$D/openrlhf_llama8b_pools.sh" >"$TMP/opc.sh"
imp opc openrlhf "$TMP/opc.sh"
field opc '{ name = "critic", devices = 4, roles = { "critic" } }'
field opc '{ name = "reward", devices = 4, roles = { "reward" } }'
field opc 'nodes = 5,'   # 8 + 4 + 4 + 4 GPUs, 4 a node
check opc 0 "Memory fit: fits"

# --- NeMo RL, Megatron, co-located; a recipe over its defaults file
imp nm nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml"
field nm 'nodes = 2,  -- cluster.num_nodes'
field nm 'prompts_per_step = 64,  -- grpo.num_prompts_per_step'
field nm 'samples_per_prompt = 32,'
field nm 'minibatches = 4,  -- policy.train_global_batch_size'
field nm 'pp = 2,  -- policy.megatron_cfg.pipeline_model_parallel_size'
field nm 'grad_dtype = "bf16",'
field nm 'reward_workers = 8,  -- env.math.num_workers'
field nm 'mode = "full",  -- policy.generation.colocated.enabled'
field nm 'reference = true,  -- loss_fn.reference_policy_kl_penalty'
field nm 'sleep = "offload",  -- policy.generation.colocated.enabled'
field nm 'params = "after_reshard",  -- policy.generation.colocated.enabled'
# NeMo RL's examples/configs/grpo_math_1B.yaml sets expert_tensor_parallel_size 1
field nm "etp = 1,  -- policy.megatron_cfg.expert_tensor_parallel_size, nemo-rl's default"
field nm "moe_dispatcher = \"alltoall\",  -- policy.megatron_cfg.moe_token_dispatcher_type"
check nm 0 "Memory fit: fits"

# --- NeMo RL, not co-located, a defaults chain two files deep
imp nn nemo-rl "$D/nemorl/grpo-llama8b-1n8g-noncolocated.yaml"
field nn 'mode = "separate",'
field nn 'rollout_devices = 4,'
field nn 'zero = 3,  -- policy.dtensor_cfg.enabled'
field nn 'max_tokens = 4096,  -- policy.sequence_packing.train_mb_tokens'
field nn 'padding = "none",'
check nn 0 "Memory fit: fits"

# --- verl, the composed config Hydra saves in a run's folder (.hydra/config.yaml):
# nested YAML, interpolations as written
mkdir -p "$TMP/run/.hydra"
cp "$D/verl_hydra/config.yaml" "$TMP/run/.hydra/config.yaml"
imp vh verl "$TMP/run/.hydra/config.yaml" --device h100
field vh 'nodes = 2,  -- trainer.nnodes (' 
field vh 'prompts_per_step = 256,  -- data.train_batch_size'
field vh 'samples_per_prompt = 8,  -- actor_rollout_ref.rollout.n'
field vh 'minibatches = 4,  -- actor_rollout_ref.actor.ppo_mini_batch_size'   # 256 / 64
field vh 'cp = 2,  -- actor_rollout_ref.actor.ulysses_sequence_parallel_size'
field vh 'cp_kind = "ulysses",'
field vh 'tp = 4,  -- actor_rollout_ref.rollout.tensor_model_parallel_size'
field vh 'max_seqs = 512,  -- actor_rollout_ref.rollout.max_num_seqs'
field vh 'mem_util = 0.7,'
field vh 'micro_batch = 4,  -- actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu'
field vh 'reference = true,  -- actor_rollout_ref.ref.fsdp_config.param_offload'
warned vh 'trainer.test_freq = 5'
noperf vh 'actor_rollout_ref.actor.optim.lr'
noperf vh 'actor_rollout_ref.rollout.prompt_length'
check vh 0 "Memory fit: fits"

# --- round trip: import, then export, gives back every mapped key the config
# sets (key=value sets compared order-free; numbers as numbers, booleans in
# any case).  The export is read back through the importer's own readers
# (a launch line for verl and OpenRLHF, a YAML file for NeMo RL).  LOSSY
# names the keys a scenario cannot carry (docs/frameworks.md, "Export"):
# token-budget batching becomes a fixed micro-batch; CPU Adam is not modelled.
norm() {
    awk -F= '{ k = $1; v = substr($0, length($1) + 2); v = tolower(v); sub(/\.yaml$/, "", v)
               if (v ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) v = sprintf("%.12g", v + 0)
               print k "=" v }' "$1" | sort
}
# rt NAME FW CONFIG LOSSY...: NAME.lua exists (imported above)
rt() {
    name=$1 fw=$2 cfg=$3; shift 3
    if ! "$FUSYNC" export "$fw" "$TMP/$name.lua" --out "$TMP/$name.exp" 2>"$TMP/$name.experr"; then
        bad "$name: export failed: $(cat "$TMP/$name.experr")"; return; fi
    ok
    "$FUSYNC" import "$fw" "$cfg" --model-dir "$HUB" --keys >"$TMP/$name.want" 2>&1 || bad "$name: import --keys: $(cat "$TMP/$name.want")"
    case $fw in
    nemo-rl) cp "$TMP/$name.exp" "$TMP/$name.exp.yaml"; back="$TMP/$name.exp.yaml" ;;
    verl) { echo 'python3 -m verl.trainer.main_ppo \'; grep -v '^#' "$TMP/$name.exp" | sed 's/$/ \\/'; echo; } >"$TMP/$name.exp.sh"
          back="$TMP/$name.exp.sh" ;;
    *) { echo 'python3 -m openrlhf.cli.train_ppo_ray \'; grep -v '^#' "$TMP/$name.exp" | sed 's/$/ \\/'; echo; } >"$TMP/$name.exp.sh"
       back="$TMP/$name.exp.sh" ;;
    esac
    if ! "$FUSYNC" import "$fw" "$back" --model-dir "$HUB" --keys >"$TMP/$name.got" 2>&1; then bad "$name: the export does not read back: $(cat "$TMP/$name.got")"; return; fi
    norm "$TMP/$name.want" >"$TMP/$name.w"
    norm "$TMP/$name.got" >"$TMP/$name.g"
    miss=""
    while IFS= read -r kv; do
        k=${kv%%=*}
        skip=0
        for l in "$@"; do [ "$l" = "$k" ] && skip=1; done
        [ $skip = 1 ] && continue
        grep -qxF -- "$kv" "$TMP/$name.g" || miss="$miss $kv (export: $(grep "^$k=" "$TMP/$name.g" || echo none))"
    done <"$TMP/$name.w"
    if [ -z "$miss" ]; then ok; else bad "$name: round trip lost:$miss"; fi
    # and a key listed as lossy must really be one the config sets (the list stays honest)
    for l in "$@"; do grep -q "^$l=" "$TMP/$name.w" && ok || bad "$name: LOSSY $l is not a key the config sets"; done
}
rt vf verl "$D/verl_qwen3_8b_fsdp.sh"
rt vm verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh"
rt vh verl "$TMP/run/.hydra/config.yaml"
rt oh openrlhf "$D/openrlhf_llama8b_hybrid.sh"
rt op openrlhf "$D/openrlhf_llama8b_pools.sh"
rt opc openrlhf "$TMP/opc.sh"
rt nm nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml"
rt nn nemo-rl "$D/nemorl/grpo-llama8b-1n8g-noncolocated.yaml"

# --- export: what the framework cannot run is exit 2 naming the field; what it
# has no knob for is a comment; the options of a plan's Reproduce line apply
xrefuse() {
    name=$1 text=$2; shift 2
    out=$("$FUSYNC" export "$@" 2>&1); rc=$?
    if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -qF -- "$text"; then ok
    else bad "export $name: status $rc (want 2), no '$text' in: $out"; fi
}
xhas() {
    name=$1 text=$2; shift 2
    out=$("$FUSYNC" export "$@" 2>&1); rc=$?
    if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qxF -- "$text"; then ok
    else bad "export $name: status $rc, no line '$text' in: $out"; fi
}
xrefuse fsdp-pp "plan.train.pp = 2 with plan.train.zero = 3" verl "$TMP/vf.lua" --set plan.train.pp=2 --iterations 8
xrefuse verl-stale "plan.staleness = 1: verl's main_ppo trainer is synchronous" verl "$TMP/vf.lua" --set plan.staleness=1
xrefuse verl-pools 'plan.mode = "separate"' verl "$TMP/vf.lua" --mode separate
xrefuse verl-zero2 "plan.train.zero = 2" verl "$TMP/vm.lua" --set plan.train.zero=2
xrefuse selective 'plan.train.recompute = "selective"' verl "$TMP/vf.lua" --set plan.train.recompute=selective
xrefuse orlhf-ulysses 'cp_kind "ulysses"' openrlhf "$TMP/op.lua" --set plan.train.cp=2 --set plan.train.cp_kind=ulysses
xrefuse orlhf-pp "plan.train.pp = 2: OpenRLHF's DeepSpeed" openrlhf "$TMP/oh.lua" --set plan.train.pp=2
xrefuse nemo-ppo 'workload.algorithm = "ppo"' nemo-rl "$TMP/oh.lua"
xrefuse partial "plan.partial_rollout = 0.5" nemo-rl "$TMP/nm.lua" --set plan.partial_rollout=0.5
xrefuse minibatch "workload.minibatches = 5: actor_rollout_ref.actor.ppo_mini_batch_size counts prompts" verl "$TMP/vf.lua" --set workload.minibatches=5
xrefuse framework "not one of verl, openrlhf, nemo-rl" slime "$TMP/vf.lua"
xrefuse noscen "missing SCENARIO" verl
xhas controller '#   plan.controller = "queue": verl gathers each step'"'"'s batch in its driver; there is no queue to choose' \
    verl "$TMP/vf.lua" --set plan.controller=queue
xhas ulysses 'actor_rollout_ref.actor.ulysses_sequence_parallel_size=2' verl "$TMP/vf.lua" --set plan.train.cp=2 \
    --set plan.train.cp_kind=ulysses
xhas async '    max_trajectory_age_steps: 2' nemo-rl "$TMP/nm.lua" --set plan.staleness=2 --set plan.on_update=continue
xhas inflight '    in_flight_weight_updates: true' nemo-rl "$TMP/nm.lua" --set plan.staleness=2 --set plan.on_update=continue
xhas orlhf-async '--train.async_queue_size 2' openrlhf "$TMP/op.lua" --set plan.staleness=2
# vLLM's max_model_len goes back out as data.max_len, the one value OpenRLHF has for both
xhas orlhf-mml '--data.max_len 4096' openrlhf "$TMP/op.lua" --set plan.rollout.max_model_len=4096
# a group that is not whole nodes: OpenRLHF packs one-GPU bundles, so only num_nodes x num_gpus_per_node counts
xhas orlhf-part-nodes '--actor.num_gpus_per_node 2' openrlhf "$TMP/op.lua" --set cluster.devices_per_node=3 --set cluster.nodes=6
xhas orlhf-part-nodes-n '--actor.num_nodes 2' openrlhf "$TMP/op.lua" --set cluster.devices_per_node=3 --set cluster.nodes=6
out=$("$FUSYNC" export openrlhf "$TMP/op.lua" --set cluster.devices_per_node=3 --set cluster.nodes=6 2>&1)
n=$(printf '%s\n' "$out" | grep -c 'the actor pool: 4 devices are not whole nodes of 3; written as 2 x 2')
[ "$n" = 1 ] && ok || bad "export orlhf-part-nodes: the actor pool's note $n times, want once"
xhas nemo-split '        gpus_per_node: 2' nemo-rl "$TMP/nn.lua" --set plan.rollout_devices=2
# a Megatron plan out of an FSDP import: the Megatron defaults and the layout
xhas to-megatron '--config-name=ppo_megatron_trainer' verl "$TMP/vf.lua" --set plan.train.zero=1 --set plan.train.tp=2
xhas to-megatron-tp 'actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2' verl "$TMP/vf.lua" \
    --set plan.train.zero=1 --set plan.train.tp=2

# --- memory and batching keys (docs/frameworks.md, "Rules"): each mapped on
# import and given back by export (a round trip per config)
V="python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Qwen3-8B data.train_batch_size=64 actor_rollout_ref.rollout.n=4 actor_rollout_ref.actor.ppo_mini_batch_size=16"
# FSDP2's CPUOffloadPolicy: the optimizer on the host for the whole run; a token budget; the global micro-batch
printf '%s \\\n' "$V" 'trainer.nnodes=2' 'actor_rollout_ref.actor.strategy=fsdp2' \
    'actor_rollout_ref.actor.fsdp_config.offload_policy=True' 'actor_rollout_ref.actor.use_dynamic_bsz=True' \
    'actor_rollout_ref.actor.ppo_max_token_len_per_gpu=24576' >"$TMP/vo.sh"; echo >>"$TMP/vo.sh"
imp vo verl "$TMP/vo.sh"
field vo 'optimizer_offload = 1,  -- actor_rollout_ref.actor.fsdp_config.offload_policy'
field vo 'optimizer = false,  -- actor_rollout_ref.actor.fsdp_config.offload_policy'
field vo 'max_tokens = 24576,  -- actor_rollout_ref.actor.ppo_max_token_len_per_gpu'
check vo 0
# the engine's sleep and parameter offload (docs/model.md, section 8): actor
# param_offload, free_cache_engine false (no sleep), layered_summon (level 1)
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.fsdp_config.param_offload=True' \
    'actor_rollout_ref.rollout.free_cache_engine=False' 'actor_rollout_ref.rollout.gpu_memory_utilization=0.3' >"$TMP/vs.sh"; echo >>"$TMP/vs.sh"
imp vs verl "$TMP/vs.sh"
field vs 'params = "before_reshard",  -- actor_rollout_ref.actor.fsdp_config.param_offload'
if grep -q 'zero_redundancy' "$TMP/vs.lua"; then bad "vs: zero_redundancy written although param_offload is on"; else ok; fi
field vs 'sleep = "none",  -- actor_rollout_ref.rollout.free_cache_engine'
check vs 0 "sleep     none: the engine's weights and KV cache stay while training"
check vs 0 "params    training weights"
rt vs verl "$TMP/vs.sh"
printf '%s \\\n' "$V" 'actor_rollout_ref.rollout.layered_summon=True' >"$TMP/vl.sh"; echo >>"$TMP/vl.sh"
imp vl verl "$TMP/vl.sh"
field vl 'sleep = "offload",  -- actor_rollout_ref.rollout.free_cache_engine'
check vl 0 "sleep     offload (vLLM level 1)"
rt vl verl "$TMP/vl.sh"
# OpenRLHF colocate_all without --vllm.enable_sleep: the engines keep their memory
grep -v -- '--vllm.enable_sleep' "$D/openrlhf_llama8b_hybrid.sh" >"$TMP/ons.sh"
imp ons openrlhf "$TMP/ons.sh"
field ons 'sleep = "none",  -- vllm.enable_sleep'
rt ons openrlhf "$TMP/ons.sh"
rt vo verl "$TMP/vo.sh"
# where the frozen models wait (docs/model.md, section 8): verl's ref param_offload, default false (the reference
# on the device for the whole run), the Megatron key following the actor's (oc.select); OpenRLHF's --ref.offload
# (--ref_reward_offload before v0.10); NeMo RL's reference state dict on the host when co-located
field vm 'reference = false,  -- actor_rollout_ref.ref.megatron.param_offload, verl'"'"'s default'
imp vmro verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" actor_rollout_ref.ref.megatron.param_offload=True
field vmro 'reference = true,  -- actor_rollout_ref.ref.megatron.param_offload (command line)'
imp vmao verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" actor_rollout_ref.actor.megatron.param_offload=True
field vmao 'reference = true,  -- actor_rollout_ref.ref.megatron.param_offload'
imp vfro verl "$D/verl_qwen3_8b_fsdp.sh" actor_rollout_ref.ref.fsdp_config.param_offload=False
field vfro 'reference = false,  -- actor_rollout_ref.ref.fsdp_config.param_offload (command line)'
check vfro 0 "resident, through generation too"
field oh 'reference = false,  -- ref.offload, openrlhf'"'"'s default'
sed -e 's/--train.colocate_all/--train.colocate_all --ref.offload --reward.offload/' "$D/openrlhf_llama8b_hybrid.sh" >"$TMP/oro.sh"
imp oro openrlhf "$TMP/oro.sh"
field oro 'reference = true,  -- ref.offload'
rt oro openrlhf "$TMP/oro.sh"
sed -e 's/--train.colocate_all/--train.colocate_all --ref.offload/' "$D/openrlhf_llama8b_hybrid.sh" >"$TMP/oro1.sh"
imp oro1 openrlhf "$TMP/oro1.sh"
warned oro1 'ref.offload true, reward.offload false'
sed -e 's/--train.colocate_all/--train.colocate_all --ref_reward_offload/' "$D/openrlhf_llama8b_hybrid.sh" >"$TMP/oro2.sh"
imp oro2 openrlhf "$TMP/oro2.sh"
field oro2 'reference = true,  -- ref_reward_offload'
xhas orlhf-refoff '--ref.offload' openrlhf "$TMP/oh.lua" --set plan.offload.reference=auto
field nm "reference = true,  -- NeMo RL's use_reference_model"
if grep -q "use_reference_model" "$TMP/nn.lua"; then bad "nn: the reference's place set off co-location"; else ok; fi
# between phases (load_fsdp_optimizer / offload_fsdp_optimizer around update_actor) is not the host optimizer
imp vb verl "$TMP/vo.sh" actor_rollout_ref.actor.fsdp_config.offload_policy=False \
    actor_rollout_ref.actor.fsdp_config.optimizer_offload=True
field vb 'optimizer = true,  -- actor_rollout_ref.actor.fsdp_config.optimizer_offload'
if grep -q 'optimizer_offload = ' "$TMP/vb.lua"; then bad "vb: optimizer_offload set by a between-phases offload"; else ok; fi
# the deprecated global micro-batch, divided by the data-parallel size (16 GPUs / Ulysses 2 = 8 ranks); padded
printf '%s \\\n' "$V" 'trainer.nnodes=2' 'actor_rollout_ref.actor.ppo_micro_batch_size=32' \
    'actor_rollout_ref.actor.ulysses_sequence_parallel_size=2' 'actor_rollout_ref.model.use_remove_padding=False' >"$TMP/vg.sh"
echo >>"$TMP/vg.sh"
imp vg verl "$TMP/vg.sh"
field vg 'micro_batch = 4,  -- actor_rollout_ref.actor.ppo_micro_batch_size'
field vg 'padding = "longest",  -- actor_rollout_ref.model.use_remove_padding'
# the FSDP actor frees its gradients after each update (zero_grad)
field vg 'grad_buffer = "step",  -- verl'"'"'s dp_actor.update_policy'
# vLLM's enforce_eager: the engine without CUDA graphs, and back
printf '%s \\\n' "$V" 'actor_rollout_ref.rollout.enforce_eager=True' >"$TMP/ve.sh"
echo >>"$TMP/ve.sh"
imp ve verl "$TMP/ve.sh"
field ve 'cuda_graphs = false,  -- actor_rollout_ref.rollout.enforce_eager'
rt ve verl "$TMP/ve.sh"
xhas eager 'actor_rollout_ref.rollout.enforce_eager=true' verl "$TMP/ve.lua"
# export writes the per-GPU form, so the global key is the one a scenario cannot give back
rt vg verl "$TMP/vg.sh" actor_rollout_ref.actor.ppo_micro_batch_size
xhas per-gpu 'actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4' verl "$TMP/vg.lua"
# Megatron's optimizer_cpu_offload with a fraction (Hydra '+' keys)
printf '%s \\\n' "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer.yaml" "${V#python3 -m verl.trainer.main_ppo }" \
    '+actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload=True' \
    '+actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_offload_fraction=0.5' >"$TMP/vmo.sh"; echo >>"$TMP/vmo.sh"
imp vmo verl "$TMP/vmo.sh"
field vmo 'optimizer_offload = 0.5,  -- actor_rollout_ref.actor.optim.override_optimizer_config.optimizer_cpu_offload'
rt vmo verl "$TMP/vmo.sh"
xrefuse fsdp-share "plan.train.optimizer_offload = 0.5: verl's FSDP2 offload_policy" verl "$TMP/vo.lua" \
    --set plan.train.optimizer_offload=0.5
# OpenRLHF without packing: padded micro-batches
sed -e '/--ds.packing_samples/d' "$D/openrlhf_llama8b_pools.sh" >"$TMP/opp.sh"
imp opp openrlhf "$TMP/opp.sh"
field opp 'padding = "longest",  -- ds.packing_samples, openrlhf'"'"'s default'
rt opp openrlhf "$TMP/opp.sh"
# NeMo RL: DTensor cpu_offload, Megatron's optimizer_cpu_offload share, dynamic batching
mkdir -p "$TMP/nemo"; cp "$D"/nemorl/*.yaml "$TMP/nemo/"
printf 'defaults: grpo-llama8b-1n8g-noncolocated.yaml\npolicy:\n  dtensor_cfg:\n    cpu_offload: true\n' >"$TMP/nemo/off.yaml"
imp no nemo-rl "$TMP/nemo/off.yaml"
field no 'optimizer_offload = 1,  -- policy.dtensor_cfg.cpu_offload'
# FSDP2's CPU offload copies the sharded gradients to the host
field no 'grad_buffer = "host",  -- policy.dtensor_cfg.cpu_offload'
rt no nemo-rl "$TMP/nemo/off.yaml"
printf 'defaults: grpo-llama8b-2n8g-megatron.yaml\npolicy:\n  megatron_cfg:\n    optimizer:\n      optimizer_cpu_offload: true\n      optimizer_offload_fraction: 0.25\n  sequence_packing:\n    enabled: false\n  dynamic_batching:\n    enabled: true\n    train_mb_tokens: 8192\n' >"$TMP/nemo/meg.yaml"
imp nmo nemo-rl "$TMP/nemo/meg.yaml"
field nmo 'optimizer_offload = 0.25,  -- policy.megatron_cfg.optimizer.optimizer_cpu_offload'
field nmo 'max_tokens = 8192,  -- policy.dynamic_batching.train_mb_tokens'
warned nmo 'policy.dynamic_batching.enabled = true: its length-sorted micro-batches pad'
# export writes the budget as sequence packing (NeMo RL's default): the dynamic-batching keys do not come back
rt nmo nemo-rl "$TMP/nemo/meg.yaml" policy.sequence_packing.enabled policy.dynamic_batching.enabled \
    policy.dynamic_batching.train_mb_tokens
# vLLM's kv_cache_memory_bytes (docs/model.md, section 3, "A KV cache given in bytes"): NeMo RL's
# vllm_kwargs and verl's engine_kwargs.vllm onto plan.rollout.kv_cache_gb, and back
printf 'defaults: grpo-llama8b-2n8g-megatron.yaml\npolicy:\n  generation:\n    vllm_kwargs:\n      kv_cache_memory_bytes: 21474836480\n' >"$TMP/nemo/kvb.yaml"
imp nkvb nemo-rl "$TMP/nemo/kvb.yaml"
field nkvb 'kv_cache_gb = 20,  -- policy.generation.vllm_kwargs.kv_cache_memory_bytes'
check nkvb 0 "as kv_cache_memory_bytes gives it"
rt nkvb nemo-rl "$TMP/nemo/kvb.yaml"
printf '%s \\\n' "$V" '+actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_memory_bytes=10737418240' >"$TMP/vkvb.sh"; echo >>"$TMP/vkvb.sh"
imp vkvb verl "$TMP/vkvb.sh"
field vkvb 'kv_cache_gb = 10,  -- actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_memory_bytes'
rt vkvb verl "$TMP/vkvb.sh"
xhas vkvb-verl '+actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_memory_bytes=10737418240' verl "$TMP/vkvb.lua"
for n in nm vf; do
    if grep -qF "kv_cache_gb" "$TMP/$n.lua"; then bad "$n: kv_cache_gb set without kv_cache_memory_bytes"; else ok; fi
done
# NeMo RL defaults by version: a config older than sequence packing (v0.3.0) does not get today's default
cat >"$TMP/nemo/old.yaml" <<'YAML'
grpo: {num_prompts_per_step: 32, num_generations_per_prompt: 16}
policy:
  model_name: meta-llama/Llama-3.1-8B
  train_global_batch_size: 512
  train_micro_batch_size: 2
  max_total_sequence_length: 1024
  dynamic_batching: {enabled: false}
cluster: {gpus_per_node: 8, num_nodes: 1}
YAML
imp nold nemo-rl "$TMP/nemo/old.yaml"
field nold 'padding = "longest",  -- policy.sequence_packing.enabled absent, the input (it has policy.train_micro_batch_size) older than v0.3.0'
if grep -q 'max_tokens = ' "$TMP/nold.lua"; then bad "nold: a pre-packing config got a token budget"; else ok; fi
# an input that does not show its version: today's default, said in the warnings block
printf 'grpo: {num_prompts_per_step: 32}\npolicy: {model_name: meta-llama/Llama-3.1-8B}\n' >"$TMP/nemo/bare.yaml"
imp nbare nemo-rl "$TMP/nemo/bare.yaml"
field nbare 'max_tokens = 2048,  -- policy.sequence_packing.train_mb_tokens, nemo-rl'"'"'s default'
warned nbare 'policy.sequence_packing.enabled: not in the input, which does not show its version'

# --- the log-prob forwards' settings (docs/frameworks.md, "Rules"; docs/model.md, section 3)
# lpf NAME [--set K=V...]: the "log-prob forward" figure of fusync check, in GiB
lpf() { n=$1; shift; "$FUSYNC" check "$TMP/$n.lua" "$@" 2>/dev/null |
    awk '/^ *log-prob forward/ { v = $3; u = $4; print (u == "MiB" ? v / 1024 : u == "TiB" ? v * 1024 : v); exit }'; }
# more() A B LO HI: A - B within [LO, HI] GiB
more() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d >= lo && d <= hi) }'; }
# verl: the two passes' per-GPU batches (the larger taken; the reference's is not given back)
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.use_kl_loss=True' \
    'actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=32' \
    'actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=16' >"$TMP/vlp.sh"; echo >>"$TMP/vlp.sh"
imp vlp verl "$TMP/vlp.sh"
field vlp 'logprob_batch = 32,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu'
rt vlp verl "$TMP/vlp.sh" actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu
# the batch sets the logits held: 32 packed sequences of at most 1,024 tokens hold ~10 GiB more FP32 logits than 1
a=$(lpf vlp); b=$(lpf vlp --set plan.train.logprob_batch=1)
if more "$a" "$b" 8 1000; then ok; else bad "vlp: log-prob forward $a GiB at 32 sequences, $b at 1"; fi
# the deprecated global form, divided by the data-parallel ranks (16 GPUs)
printf '%s \\\n' "$V" 'trainer.nnodes=2' 'actor_rollout_ref.rollout.log_prob_micro_batch_size=64' >"$TMP/vlg.sh"; echo >>"$TMP/vlg.sh"
imp vlg verl "$TMP/vlg.sh"
field vlg 'logprob_batch = 4,  -- actor_rollout_ref.rollout.log_prob_micro_batch_size'
# a token budget of their own, and by default the actor's
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.use_dynamic_bsz=True' 'actor_rollout_ref.actor.ppo_max_token_len_per_gpu=8192' \
    'actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu=32768' \
    'actor_rollout_ref.ref.log_prob_max_token_len_per_gpu=32768' >"$TMP/vlt.sh"; echo >>"$TMP/vlt.sh"
imp vlt verl "$TMP/vlt.sh"
field vlt 'logprob_tokens = 32768,  -- actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu'
field vlt 'max_tokens = 8192,'
rt vlt verl "$TMP/vlt.sh"
field vo 'logprob_tokens = 24576,  -- actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu'
# OpenRLHF: the experience forwards' micro-batch (op: 16), and their budget under dynamic batching
field op 'logprob_batch = 16,  -- rollout.micro_batch_size'
field oh 'logprob_tokens = 16384,  -- rollout.max_tokens_per_gpu'
# NeMo RL: logprob_batch_size, the chunked log-softmax, the eager copies; the v2 worker does not unshard
printf 'defaults: grpo-llama8b-1n8g-noncolocated.yaml\npolicy:\n  logprob_batch_size: 2\n  logprob_chunk_size: 1024\n  dtensor_cfg:\n    _v2: true\n' >"$TMP/nemo/lp.yaml"
imp nlp nemo-rl "$TMP/nemo/lp.yaml"
field nlp 'logprob_batch = 2,  -- policy.logprob_batch_size'
field nlp 'logprob_chunk = 1024,  -- policy.logprob_chunk_size'
field nlp 'logits = "eager",  -- NeMo RL'"'"'s DTensor get_logprobs'
field nlp 'logprob_tokens = 8192,  -- policy.sequence_packing.logprob_mb_tokens'
if grep -q 'logprob_unshard' "$TMP/nlp.lua"; then bad "nlp: the v2 worker unshards"; else ok; fi
rt nlp nemo-rl "$TMP/nemo/lp.yaml"
# a config older than the v2 worker (v0.4.0) runs the v1 worker, whose get_logprobs gathers the whole
# model: Llama-3.1-8B at TP 1, 2 x 8.03 G bytes = 15.0 GiB more than a layer at a time
field nn 'logprob_unshard = true,  -- policy.dtensor_cfg._v2 absent, the input'
a=$(lpf nn); b=$(lpf nn --set plan.train.logprob_unshard=false)
if more "$a" "$b" 14.8 15.2; then ok; else bad "nn: log-prob forward $a GiB unsharded, $b not"; fi
check nn 0 "logits eager; the whole model gathered"
# Megatron's ZeRO-1 holds whole layers: the setting changes nothing there
a=$(lpf nm --set plan.train.logprob_unshard=true); b=$(lpf nm)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "nm: logprob_unshard moved a Megatron plan ($a, $b)"; fi

# --- the model as DIR/ORG/NAME/config.json (a folder tree of hub ids)
mkdir -p "$TMP/tree/acme/Tiny-8B"
cp "$ROOT/tests/data/hf/Qwen3-8B.config.json" "$TMP/tree/acme/Tiny-8B/config.json"
out=$("$FUSYNC" import verl "$TMP/vo.sh" actor_rollout_ref.model.path=acme/Tiny-8B --model-dir "$TMP/tree" 2>&1)
if printf '%s\n' "$out" | grep -qF 'actor = { name = "acme/Tiny-8B", layers = 36,'; then ok; else bad "DIR/ORG/NAME: $out"; fi

# --- stdout without --out; --set lands in the scenario
out=$("$FUSYNC" import verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" --set plan.rollout.max_seqs=128 2>&1)
if printf '%s\n' "$out" | grep -qF 'max_seqs = 128,  -- --set'; then ok; else bad "--set to stdout: $out"; fi

# --- bad inputs: the file, line and key
refuse() {
    name=$1 text=$2; shift 2
    out=$("$FUSYNC" import "$@" --model-dir "$HUB" 2>&1); rc=$?
    if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -qF -- "$text"; then ok
    else bad "$name: status $rc (want 2), no '$text' in: $out"; fi
}
printf 'python3 -m verl.trainer.main_ppo \\\n  data.train_batch_size=8 \\\n  actor_rollout_ref.actor.ppo_mini_batchsize=4\n' >"$TMP/unknown.sh"
refuse unknown-key "unknown.sh:3: actor_rollout_ref.actor.ppo_mini_batchsize: not a verl key" verl "$TMP/unknown.sh"
printf 'X=1\npython3 -m verl.trainer.main_ppo \\\n  trainer.project_name="abc \\\n' >"$TMP/quote.sh"
refuse unterminated "quote.sh:3: unterminated double quote" verl "$TMP/quote.sh"
printf 'grpo:\n  num_prompts_per_step: 8\n policy: [\n' >"$TMP/bad.yaml"
refuse yaml-error "bad.yaml:3: YAML:" nemo-rl "$TMP/bad.yaml"
# --- the entropy over the logits (docs/frameworks.md; docs/model.md, section 3):
# entropy_coeff != 0 puts it in the loss with its gradient; compute_log_prob takes
# it for a full-model actor; the method from the remove-padding path and its flags
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.entropy_coeff=0.001' >"$TMP/vent.sh"; echo >>"$TMP/vent.sh"
imp vent verl "$TMP/vent.sh"
field vent 'entropy = "compiled",  -- actor_rollout_ref.actor.use_torch_compile, verl'"'"'s default'
field vent 'entropy_loss = true,  -- actor_rollout_ref.actor.entropy_coeff ('
field vent 'logprob_entropy = true,  -- verl'"'"'s compute_log_prob'
rt vent verl "$TMP/vent.sh"
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.entropy_coeff=0.001' 'actor_rollout_ref.model.use_remove_padding=False' \
    >"$TMP/ventp.sh"; echo >>"$TMP/ventp.sh"
imp ventp verl "$TMP/ventp.sh"
field ventp 'entropy = "eager",  -- actor_rollout_ref.model.use_remove_padding = false'
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.calculate_entropy=True' \
    'actor_rollout_ref.actor.entropy_from_logits_with_chunking=True' 'actor_rollout_ref.actor.entropy_checkpointing=True' \
    'actor_rollout_ref.model.lora_rank=16' >"$TMP/ventc.sh"; echo >>"$TMP/ventc.sh"
imp ventc verl "$TMP/ventc.sh"
field ventc 'entropy = "chunked",  -- actor_rollout_ref.actor.entropy_from_logits_with_chunking'
field ventc 'entropy_loss = true,  -- actor_rollout_ref.actor.calculate_entropy ('
warned ventc 'entropy_checkpointing = true: the entropy'"'"'s forward is recomputed'
if grep -q 'logprob_entropy' "$TMP/ventc.lua"; then bad "ventc: a LoRA actor's compute_log_prob takes no entropy"; else ok; fi
# the default takes none in the loss; an eager entropy there moves the training peak
imp ventd verl "$TMP/vl.sh"
if grep -q 'entropy_loss' "$TMP/ventd.lua"; then bad "ventd: entropy_coeff 0 put the entropy in the loss"; else ok; fi
a=$("$FUSYNC" check "$TMP/ventp.lua" --set plan.train.entropy_loss=false 2>/dev/null | grep -c 'entropy in the loss')
b=$("$FUSYNC" check "$TMP/ventp.lua" 2>/dev/null | grep -c 'entropy in the loss')
if [ "$a" = 0 ] && [ "$b" = 1 ]; then ok; else bad "ventp: fusync check's entropy line ($a without, $b with)"; fi
# OpenRLHF's --actor.entropy_coef: in the loss when not None and != 0, compute_entropy compiled over FP32 logits
sed -e 's|^\(python3 -m openrlhf.cli.train_ppo_ray\) \\$|\1 --actor.entropy_coef 0.01 \\|' \
    "$D/openrlhf_llama8b_hybrid.sh" >"$TMP/oent.sh"
imp oent openrlhf "$TMP/oent.sh"
field oent 'entropy = "compiled_fp32",  -- OpenRLHF'"'"'s compute_entropy'
field oent 'entropy_loss = true,  -- actor.entropy_coef ('
if grep -q '^ *entropy_loss' "$TMP/oh.lua"; then bad "oh: no entropy_coef, yet the entropy in the loss"; else ok; fi
rt oent openrlhf "$TMP/oent.sh" actor.entropy_coef
a=$("$FUSYNC" check "$TMP/oent.lua" 2>/dev/null | grep -c 'entropy in the loss .*compiled, FP32')
if [ "$a" = 1 ]; then ok; else bad "oent: no FP32 entropy line in fusync check"; fi
# --- LoRA (docs/frameworks.md, "Rules"): rank and target modules onto
# plan.train.lora_rank and lora_targets, in each framework's keys; the alpha
# (a scale of the update) does not affect performance; export gives them back
nolora() { if grep -q "LoRA: not modelled" "$TMP/$1.lua"; then bad "$1: LoRA still warned as not modelled"; else ok; fi; }
printf '%s \\\n' "$V" 'actor_rollout_ref.model.lora_rank=64' 'actor_rollout_ref.model.lora_alpha=32' \
    'actor_rollout_ref.model.target_modules=all-linear' >"$TMP/vl.sh"; echo >>"$TMP/vl.sh"
imp vl verl "$TMP/vl.sh"
field vl 'lora_rank = 64,  -- actor_rollout_ref.model.lora_rank'
field vl 'lora_targets = "all-linear",  -- actor_rollout_ref.model.target_modules'
noperf vl 'actor_rollout_ref.model.lora_alpha'
nolora vl
check vl 0
rt vl verl "$TMP/vl.sh"
printf '%s \\\n' "$V" 'actor_rollout_ref.model.lora_rank=8' 'actor_rollout_ref.model.target_modules=[q_proj,v_proj]' >"$TMP/vq.sh"
echo >>"$TMP/vq.sh"
imp vq verl "$TMP/vq.sh"
field vq 'lora_targets = "attention",  -- actor_rollout_ref.model.target_modules'
warned vq 'names part of the attention projections'
# Megatron: model.lora, its default target list the four linear layers of a block
printf '%s \\\n' "$V" 'actor_rollout_ref.actor.strategy=megatron' 'actor_rollout_ref.model.lora.rank=16' >"$TMP/vml.sh"
echo >>"$TMP/vml.sh"
imp vml verl "$TMP/vml.sh"
field vml 'lora_rank = 16,  -- actor_rollout_ref.model.lora.rank'
field vml 'lora_targets = "all-linear",  -- actor_rollout_ref.model.lora.target_modules, verl'"'"'s default'
rt vml verl "$TMP/vml.sh"
# OpenRLHF: --ds.lora.* (v0.10 on), nargs="*" target modules; and the older --lora_rank
O="python3 -m openrlhf.cli.train_ppo_ray --algo.advantage.estimator group_norm --actor.model_name_or_path meta-llama/Llama-3.1-8B --rollout.batch_size 128 --train.batch_size 128 --ds.zero_stage 3 --vllm.num_engines 8 --train.colocate_all"
printf '%s --ds.lora.rank 16 --ds.lora.alpha 32 --ds.lora.target_modules q_proj k_proj v_proj o_proj\n' "$O" >"$TMP/ol.sh"
imp ol openrlhf "$TMP/ol.sh"
field ol 'lora_rank = 16,  -- ds.lora.rank'
field ol 'lora_targets = "attention",  -- ds.lora.target_modules'
nolora ol
rt ol openrlhf "$TMP/ol.sh"
# colocate_all with fewer engines than the actor's GPUs: said, not silently doubled
printf '%s --vllm.num_engines 4 --actor.num_gpus_per_node 8\n' "$O" >"$TMP/oe.sh"
imp oe openrlhf "$TMP/oe.sh"
warned oe 'x vllm.tensor_parallel_size = 4 GPUs, not the actor'"'"'s 8: under colocate_all'
printf '%s --lora_rank 8 --lora_alpha 16 --target_modules all-linear\n' "$O" >"$TMP/oo.sh"
imp oo openrlhf "$TMP/oo.sh"
field oo 'lora_rank = 8,  -- lora_rank'
field oo 'lora_targets = "all-linear",  -- target_modules'
# NeMo RL: dtensor_cfg.lora_cfg, dim the rank, match_all_linear over the list
mkdir -p "$TMP/nemo" && cp "$D"/nemorl/*.yaml "$TMP/nemo/"
printf 'defaults: grpo-llama8b-1n8g-noncolocated.yaml\npolicy:\n  dtensor_cfg:\n    lora_cfg:\n      enabled: true\n      dim: 32\n' >"$TMP/nemo/lora.yaml"
imp nl nemo-rl "$TMP/nemo/lora.yaml"
field nl 'lora_rank = 32,  -- policy.dtensor_cfg.lora_cfg.dim'
field nl 'lora_targets = "all-linear",  -- policy.dtensor_cfg.lora_cfg.match_all_linear'
nolora nl
rt nl nemo-rl "$TMP/nemo/lora.yaml"

printf 'python3 -m openrlhf.cli.train_ppo_ray --algo.advantage.estimator group_norm --actor.model_name_or_path meta-llama/Llama-3.1-8B --rollout.batch_size ten\n' >"$TMP/num.sh"
refuse not-a-number "rollout.batch_size = 'ten': not a number" openrlhf "$TMP/num.sh"
printf 'python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=acme/NoSuchModel-9B\n' >"$TMP/nomodel.sh"
refuse no-model "huggingface.co/acme/NoSuchModel-9B/resolve/main/config.json" verl "$TMP/nomodel.sh"
# bash arrays, as OpenRLHF's scripts group their options (NAME=( ... ) over
# lines with comments inside, then ${NAME[@]} in the command): the same
# scenario as the options written out, each key's source the line it is on
cat >"$TMP/arr.sh" <<'ARR'
M=meta-llama/Llama-3.1-8B
ROLLOUT_ARGS=(
   --algo.advantage.estimator group_norm
   # --vllm.enable_sleep
   --rollout.batch_size 128 --train.batch_size 128
)
ENGINE_ARGS=(--ds.zero_stage 3 --vllm.num_engines 8
   "--train.colocate_all")
EMPTY=()
python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path $M ${ROLLOUT_ARGS[@]} \
   "${ENGINE_ARGS[@]}" "${EMPTY[@]}" ${EMPTY[*]}
ARR
printf 'python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path meta-llama/Llama-3.1-8B --algo.advantage.estimator group_norm --rollout.batch_size 128 --train.batch_size 128 --ds.zero_stage 3 --vllm.num_engines 8 --train.colocate_all\n' >"$TMP/arrflat.sh"
imp arr openrlhf "$TMP/arr.sh"
imp arrflat openrlhf "$TMP/arrflat.sh"
sed -e 's/([^()]*\.sh:[0-9]*)//g' -e '1d' "$TMP/arr.lua" >"$TMP/arr.cmp"
sed -e 's/([^()]*\.sh:[0-9]*)//g' -e '1d' "$TMP/arrflat.lua" >"$TMP/arrflat.cmp"
if cmp -s "$TMP/arr.cmp" "$TMP/arrflat.cmp"; then ok
else bad "arr: the arrays' import differs from the options written out"; fi
grep 'zero = 3,' "$TMP/arr.lua" | grep -qF 'arr.sh:7)' && ok || bad "arr: ds.zero_stage not sourced to its element's line 7"
grep 'prompts_per_step = 128,' "$TMP/arr.lua" | grep -qF 'arr.sh:5)' && ok || bad "arr: rollout.batch_size not sourced to line 5"
field arr 'sleep = "none",  -- vllm.enable_sleep, openrlhf'"'"'s default'
printf 'A=(--rollout.batch_size 128)\npython3 -m openrlhf.cli.train_ppo_ray ${A[0]}\n' >"$TMP/arridx.sh"
refuse arr-index 'arridx.sh:2: ${A[...}: fusync reads an array whole' openrlhf "$TMP/arridx.sh"
printf 'A=(--rollout.batch_size\n  128\npython3 -m openrlhf.cli.train_ppo_ray ${A[@]}\n' >"$TMP/arropen.sh"
refuse arr-open 'arropen.sh:1: A=( with no closing )' openrlhf "$TMP/arropen.sh"
printf 'python3 -m verl.trainer.main_ppo data.train_batch_size=$(cat n)\n' >"$TMP/subst.sh"
refuse subst "subst.sh:1: command substitution" verl "$TMP/subst.sh"
printf 'python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo data.train_batch_size=100 actor_rollout_ref.actor.ppo_mini_batch_size=30 actor_rollout_ref.model.path=Qwen/Qwen3-8B\n' >"$TMP/div.sh"
refuse minibatch "not a whole number of optimizer steps" verl "$TMP/div.sh"
refuse framework "not one of verl, openrlhf, nemo-rl" slime "$TMP/div.sh"
# --devices-per-node: the machine's accelerators a node against the config's
# per-node count (docs/frameworks.md, "Devices a node")
imp dn8 verl "$D/verl_qwen3_8b_fsdp.sh" --devices-per-node 8
field dn8 'devices_per_node = 8,  -- --devices-per-node, as trainer.n_gpus_per_node'
field dn8 'nodes = 1,  -- trainer.nnodes'
imp dn16 verl "$D/verl_qwen3_8b_fsdp.sh" --devices-per-node 16
field dn16 "devices_per_node = 8,  -- trainer.n_gpus_per_node ($D/verl_qwen3_8b_fsdp.sh:49): 8 of the machine's 16 a node"
warned dn16 "trainer.n_gpus_per_node = 8, fewer than the machine's 16 GPUs a node (--devices-per-node)"
check dn16 0 "Memory fit: fits"
refuse dpn-small "--devices-per-node 4: trainer.n_gpus_per_node ($D/verl_qwen3_8b_fsdp.sh:49) asks 8 GPUs of each node" \
    verl "$D/verl_qwen3_8b_fsdp.sh" --devices-per-node 4
imp dnn nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" --devices-per-node 16
field dnn 'devices_per_node = 8,  -- cluster.gpus_per_node'
field dnn 'nodes = 2,  -- cluster.num_nodes'
warned dnn "cluster.gpus_per_node = 8, fewer than the machine's 16 GPUs a node"
refuse dpn-nemo "--devices-per-node 2: cluster.gpus_per_node" nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" \
    --devices-per-node 2
# OpenRLHF's options give no node's size: the actor's count, a stated guess,
# else the machine's; the pools' 16 GPUs over nodes of 8
field op "guess: OpenRLHF's options do not give the machine's GPUs a node"
imp dno openrlhf "$D/openrlhf_llama8b_pools.sh" --devices-per-node 8
field dno 'devices_per_node = 8,  -- --devices-per-node'
field dno 'nodes = 2,  -- every pool'"'"'s GPUs (16) over --devices-per-node'
warned dno "actor.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node (--devices-per-node)"
warned dno "critic.num_gpus_per_node = 4, fewer than the machine's 8 GPUs a node"
check dno 0 "Memory fit: fits"
# colocate_all spans every device of the cluster: a group smaller than the
# machine's node is simulated as a node of its own GPUs
imp dnh openrlhf "$D/openrlhf_llama8b_hybrid.sh" --devices-per-node 16
field dnh 'devices_per_node = 8,  -- actor.num_nodes'
field dnh "the co-located group's 8 GPUs packed on one node of the machine's (--devices-per-node 16)"
field dnh 'nodes = 1,'
warned dnh 'train.colocate_all on 8 GPUs, not whole 16-GPU nodes (--devices-per-node)'
check dnh 0 "Memory fit: fits"
imp dnh4 openrlhf "$D/openrlhf_llama8b_hybrid.sh" --devices-per-node 4
field dnh4 'devices_per_node = 4,  -- --devices-per-node'
field dnh4 'nodes = 2,'
imp dno2 openrlhf "$D/openrlhf_llama8b_pools.sh" --devices-per-node 8 --nodes 3
field dno2 'nodes = 3,  -- --nodes'
for v in 0 x 1025; do
    out=$("$FUSYNC" import verl "$D/verl_qwen3_8b_fsdp.sh" --devices-per-node "$v" 2>&1); rc=$?
    if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -qF -- "--devices-per-node: '$v'"; then ok
    else bad "--devices-per-node $v: status $rc (want 2): $out"; fi
done
# FP8 rollouts: the frameworks' keys onto plan.rollout.weights_dtype / kv_dtype (docs/model.md, section 5)
imp q8 verl "$D/verl_qwen3_8b_fsdp.sh" --device h100 actor_rollout_ref.rollout.quantization=fp8 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_dtype=fp8
field q8 'weights_dtype = "fp8",  -- actor_rollout_ref.rollout.quantization (command line) = fp8'
field q8 'kv_dtype = "fp8",  -- actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_dtype (command line) = fp8'
check q8 0 "KV room"
imp qn nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.generation.vllm_cfg.precision=fp8 \
    policy.generation.vllm_cfg.kv_cache_dtype=fp8_e4m3
field qn 'weights_dtype = "fp8",  -- policy.generation.vllm_cfg.precision (command line) = fp8'
field qn 'kv_dtype = "fp8",  -- policy.generation.vllm_cfg.kv_cache_dtype (command line) = fp8_e4m3'
for n in q8 qn; do
    if grep -qF "quantized" "$TMP/$n.lua"; then bad "$n: FP8 still warned as not modelled"; else ok; fi
done
imp qt verl "$D/verl_qwen3_8b_fsdp.sh" actor_rollout_ref.rollout.quantization=torchao
warned qt "actor_rollout_ref.rollout.quantization (command line) = torchao: a quantized rollout other than FP8"
# and back out: the same keys, NeMo RL's refusal of an FP8 KV cache beside BF16 weights, OpenRLHF's note
xhas q8-verl 'actor_rollout_ref.rollout.quantization=fp8' verl "$TMP/q8.lua"
xhas q8-verl-kv '+actor_rollout_ref.rollout.engine_kwargs.vllm.kv_cache_dtype=fp8' verl "$TMP/q8.lua"
xhas qn-nemo '      precision: "fp8"' nemo-rl "$TMP/qn.lua"
xrefuse qn-nemo-kv 'NeMo RL takes an FP8 KV cache only with FP8 weights' nemo-rl "$TMP/qn.lua" \
    --set plan.rollout.weights_dtype=bf16
out=$("$FUSYNC" export openrlhf "$TMP/q8.lua" 2>&1)
if printf '%s\n' "$out" | grep -qF 'has no option for an FP8 rollout engine'; then ok; else bad "q8 openrlhf: no FP8 note: $out"; fi
for n in vf nm; do
    if grep -qF "quantized" "$TMP/$n.lua"; then bad "$n: a BF16 rollout warned as quantized"; else ok; fi
done
# FP8 training (docs/model.md, section 7, FP8 training): NeMo RL's megatron_cfg.fp8_cfg and verl's
# override_transformer_config.fp8* onto plan.train.precision / fp8_recipe / fp8_param, and back out
imp t8n nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.megatron_cfg.fp8_cfg.enabled=true \
    policy.megatron_cfg.fp8_cfg.fp8=hybrid policy.megatron_cfg.fp8_cfg.fp8_recipe=tensorwise
field t8n 'precision = "fp8",  -- policy.megatron_cfg.fp8_cfg.enabled (command line) with policy.megatron_cfg.fp8_cfg.fp8 (command line) = hybrid'
field t8n 'fp8_recipe = "tensorwise",  -- policy.megatron_cfg.fp8_cfg.fp8_recipe (command line)'
check t8n 0 "precision FP8 training (Transformer Engine, tensorwise scaling): linear GEMMs at 1979 TFLOP/s"
xhas t8n-en '      enabled: true' nemo-rl "$TMP/t8n.lua"
xhas t8n-re '      fp8_recipe: "tensorwise"' nemo-rl "$TMP/t8n.lua"
xhas t8n-pa '      fp8_param: true' nemo-rl "$TMP/t8n.lua" --set plan.train.fp8_param=true
imp t8v verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" \
    +actor_rollout_ref.actor.megatron.override_transformer_config.fp8=e4m3 \
    +actor_rollout_ref.actor.megatron.override_transformer_config.fp8_recipe=blockwise \
    +actor_rollout_ref.actor.megatron.override_transformer_config.fp8_param=true actor_rollout_ref.rollout.quantization=fp8
field t8v 'precision = "fp8",  -- actor_rollout_ref.actor.megatron.override_transformer_config.fp8 (command line) = e4m3'
field t8v 'fp8_recipe = "blockwise",  -- actor_rollout_ref.actor.megatron.override_transformer_config.fp8_recipe (command line)'
field t8v 'fp8_param = true,  -- actor_rollout_ref.actor.megatron.override_transformer_config.fp8_param (command line)'
check t8v 0 "blockwise scaling, FP8 parameters"
xhas t8v-fp8 '+actor_rollout_ref.actor.megatron.override_transformer_config.fp8=e4m3' verl "$TMP/t8v.lua"
xhas t8v-re '+actor_rollout_ref.actor.megatron.override_transformer_config.fp8_recipe=blockwise' verl "$TMP/t8v.lua"
xhas t8v-pa '+actor_rollout_ref.actor.megatron.override_transformer_config.fp8_param=True' verl "$TMP/t8v.lua"
xhas t8v-nemo '      fp8_recipe: "blockwise"' nemo-rl "$TMP/t8v.lua"
# blockwise FP8 parameters are exported to the engine in FP8: a BF16 engine is refused
out=$("$FUSYNC" check "$TMP/t8v.lua" --set plan.rollout.weights_dtype=bf16 2>&1); rc=$?
if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -qF 'which a BF16 engine cannot take'; then ok
else bad "t8v bf16 engine: status $rc (want 2): $out"; fi
# an unknown recipe is warned and priced as blockwise; enabled with fp8 unset trains in BF16
imp t8x nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.megatron_cfg.fp8_cfg.enabled=true \
    policy.megatron_cfg.fp8_cfg.fp8_recipe=mxfp8
warned t8x 'policy.megatron_cfg.fp8_cfg.fp8_recipe (command line) = mxfp8: a recipe fusync does not model'
field t8x 'fp8_recipe = "blockwise",'
imp t8o nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.megatron_cfg.fp8_cfg.enabled=true \
    policy.megatron_cfg.fp8_cfg.fp8=null
warned t8o 'Megatron-Core trains in BF16 when fp8 is unset'
# the recipes' defaults (fp8_cfg.enabled false, override fp8 unset) leave training in BF16, and write no FP8 key
for n in nm vm; do
    if grep -qF 'precision = "fp8"' "$TMP/$n.lua"; then bad "$n: a BF16 recipe read as FP8 training"; else ok; fi
done
if "$FUSYNC" export verl "$TMP/vm.lua" 2>&1 | grep -qF 'override_transformer_config.fp8'; then bad "vm: FP8 keys exported"; else ok; fi
out=$("$FUSYNC" export openrlhf "$TMP/t8n.lua" --set plan.train.pp=1 2>&1)
if printf '%s\n' "$out" | grep -qF "has no option for Transformer Engine's FP8"; then ok; else bad "t8n openrlhf: no FP8 note: $out"; fi
# keys once listed as not affecting performance: warned when off their default
imp nw nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.offload_optimizer_for_logprob=true \
    grpo.async_grpo.recompute_kv_cache_after_weight_updates=true policy.generation.vllm_cfg.max_model_len=8192
warned nw 'policy.offload_optimizer_for_logprob = true (command line:0): the optimizer states on the host'
warned nw 'grpo.async_grpo.recompute_kv_cache_after_weight_updates = true'
field nw 'max_model_len = 8192,  -- policy.generation.vllm_cfg.max_model_len (command line): vLLM'"'"'s max_model_len'
# vLLM's max_model_len (docs/model.md, section 3): verl's rollout.max_model_len
# and a NeMo RL vllm_cfg.max_model_len off max_total_sequence_length are read as
# plan.rollout.max_model_len and written back; verl's null is the model's
# max_position_embeddings (vllm_async_server.py at b178a3c: the preset
# Qwen2.5-7B's 131072), said in the warnings and exported as null
imp vml verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" actor_rollout_ref.rollout.max_model_len=8192
field vml 'max_model_len = 8192,  -- actor_rollout_ref.rollout.max_model_len (command line)'
if "$FUSYNC" export verl "$TMP/vml.lua" 2>/dev/null | grep -qx 'actor_rollout_ref.rollout.max_model_len=8192'; then ok
else bad "vml: max_model_len not exported"; fi
field vm "max_model_len = 131072,  -- actor_rollout_ref.rollout.max_model_len, verl's default unset: the model's max_position_embeddings"
field vm 'vocab = 152064, tied_embeddings = false, max_positions = 131072 }'
warned vm "vLLM's max_model_len is the model's max_position_embeddings, 131072 tokens"
# and vLLM's start-up check reads it: at gpu_memory_utilization 0.1 an engine's KV
# cache holds fewer than 131072 tokens (verl then refuses to start; its
# data.max_prompt_length + max_response_length would fit)
imp vmu verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" actor_rollout_ref.rollout.gpu_memory_utilization=0.1
check vmu 1 "vLLM start-up: max_model_len 131072 tokens"
# the model's length as HFModelConfig lays override_config over config.json; a given
# length past the model's is one verl refuses; a model of no known length: the lower bound, said
imp vmo verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" \
    +actor_rollout_ref.model.override_config.model_config.max_position_embeddings=10240
field vmo 'max_model_len = 10240,  -- actor_rollout_ref.rollout.max_model_len'
imp vmx verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh" actor_rollout_ref.rollout.max_model_len=200000
warned vmx "max_model_len (command line) = 200000 exceeds the model's max_position_embeddings (131072)"
mkdir -p "$TMP/nopos"
grep -v max_position_embeddings "$ROOT/tests/data/hf/Qwen3-8B.config.json" >"$TMP/nopos/config.json"
imp vnp verl "$D/verl_qwen3_8b_fsdp.sh" actor_rollout_ref.model.path="$TMP/nopos"
if grep -q '^      max_model_len' "$TMP/vnp.lua"; then bad "vnp: a length imported for a model of none"; else ok; fi
warned vnp "which the model's config.json or preset does not give"
# verl's chunked prefill: its budget is vLLM's step and profile (plan.rollout.max_batched_tokens)
field vf 'max_batched_tokens = 8192,  -- actor_rollout_ref.rollout.max_num_batched_tokens, verl'"'"'s default with actor_rollout_ref.rollout.enable_chunked_prefill'
imp vnc verl "$D/verl_qwen3_8b_fsdp.sh" actor_rollout_ref.rollout.enable_chunked_prefill=false
if grep -q 'max_batched_tokens' "$TMP/vnc.lua"; then bad "vnc: a budget without chunked prefill"; else ok; fi
warned vnc 'enable_chunked_prefill (command line) = false: fusync prefills a sequence whole'
# OpenRLHF hands vLLM data.max_len (train_ppo_ray.py, create_vllm_engines)
field oh 'max_model_len = 2048,  -- data.max_len'
# NeMo RL's null: vLLM takes the model's length (Llama-3.1-8B's 131072)
imp nnul nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.generation.vllm_cfg.max_model_len=null
field nnul 'max_model_len = 131072,  -- policy.generation.vllm_cfg.max_model_len (command line) = null'
if "$FUSYNC" export verl "$TMP/vm.lua" 2>/dev/null | grep -qx 'actor_rollout_ref.rollout.max_model_len=null'; then ok
else bad "vm: an unset max_model_len not exported as null"; fi
if "$FUSYNC" export nemo-rl "$TMP/nw.lua" 2>/dev/null | grep -q 'max_model_len: 8192'; then ok
else bad "nw: vllm_cfg.max_model_len not written back: $("$FUSYNC" export nemo-rl "$TMP/nw.lua" 2>&1 | grep max_model_len)"; fi
imp nw2 nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" policy.generation.vllm_cfg.max_model_len=4096
if sed -n '/^-- Warnings:/,/^-- Keys read that do not/p' "$TMP/nw2.lua" | grep -qF max_model_len; then
    bad "nw2: max_model_len equal to max_total_sequence_length warned"; else ok; fi
printf '%s --critic.freezing_steps 5 --ds.experts_implementation eager --train.full_determinism_enable --ds.ring_attn_head_stride 2\n' \
    "$O" >"$TMP/ow.sh"
imp ow openrlhf "$TMP/ow.sh"
warned ow 'critic.freezing_steps = 5'
warned ow 'ds.experts_implementation = eager'
warned ow 'train.full_determinism_enable = true'
warned ow 'ds.ring_attn_head_stride = 2'
# a NeMo RL PPO config (its ppo: section) is refused as such
printf 'ppo:\n  num_prompts_per_step: 32\npolicy:\n  model_name: meta-llama/Llama-3.1-8B\n' >"$TMP/nppo.yaml"
refuse nemo-ppo "nppo.yaml:2: ppo.num_prompts_per_step: a NeMo RL PPO config (examples/run_ppo.py)" nemo-rl "$TMP/nppo.yaml"
# verl's reward pool of its own: warned, not modelled
imp rp verl "$D/verl_qwen3_8b_fsdp.sh" reward_model.enable_resource_pool=true reward_model.nnodes=1
warned rp 'reward_model.enable_resource_pool = true (command line:0): the reward model on a pool of its own'
# a backend's settings beside another backend reach nothing: not warned
imp gf verl "$D/verl_qwen3_8b_fsdp.sh" +actor_rollout_ref.ref.megatron.tensor_model_parallel_size=2
noperf gf 'actor_rollout_ref.ref.megatron.tensor_model_parallel_size'
if sed -n '/^-- Warnings:/,/^-- Keys read that do not/p' "$TMP/gf.lua" | grep -qF 'ref.megatron'; then
    bad "gf: a Megatron key warned under FSDP"; else ok; fi
imp gm verl "$ROOT/examples/import/verl_qwen25_7b_megatron.sh"
warned gm 'actor_rollout_ref.ref.megatron.tensor_model_parallel_size = 2'
imp gd nemo-rl "$D/nemorl/grpo-llama8b-1n8g-noncolocated.yaml" +policy.megatron_cfg.apply_rope_fusion=false \
    +policy.generation.mcore_generation_config.buffer_size_gb=20
noperf gd 'policy.megatron_cfg.apply_rope_fusion'
noperf gd 'policy.generation.mcore_generation_config.buffer_size_gb'
imp gn nemo-rl "$D/nemorl/grpo-llama8b-2n8g-megatron.yaml" +policy.megatron_cfg.apply_rope_fusion=false
warned gn 'policy.megatron_cfg.apply_rope_fusion = false'
# nothing written on failure
"$FUSYNC" import verl "$TMP/unknown.sh" --out "$TMP/none.lua" 2>/dev/null
if [ ! -e "$TMP/none.lua" ]; then ok; else bad "a failed import left --out behind"; fi

# the feasibility rows imported from a file of their own
# (examples/validation/feasibility/imports.txt, source "configs") are this
# importer's output: a change to the importer that moves them asks for
# scripts/reimport-feasibility.sh --write (the rows read from the
# frameworks' repositories need those repositories, and are not run here)
rows=$(awk -F'|' '$1 !~ /^#/ && $3 ~ /^ *configs *$/ { gsub(/ /, "", $1); print $1 }' \
    "$ROOT/examples/validation/feasibility/imports.txt")
if [ -n "$rows" ] && out=$(FUSYNC=$FUSYNC sh "$ROOT/scripts/reimport-feasibility.sh" $rows 2>&1); then ok
else bad "feasibility rows not today's import: $out"; fi

echo "import.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
