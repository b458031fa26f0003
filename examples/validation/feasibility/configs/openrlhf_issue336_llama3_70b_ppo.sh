# OpenRLHF/OpenRLHF issue 336 (2024-06-28), "vLLM related: model's max seq len
# (8192) is larger than the maximum number of tokens that can be stored in KV
# cache (6048)": "trying to run Llama-3 70B PPO".  The thread posts vLLM's log,
# not its command; this is the repository's 70B PPO script of that day,
# examples/scripts/train_ppo_llama_ray_70b.sh at OpenRLHF commit 23a23bff
# (2024-06-28, the parent of d244794f "Fix #336 max_model_len"; the script is
# the one of issue 332, unchanged since d1d595a5), with the thread's model,
# Llama-3-70B, for the script's Llama-2-70B.  The log's "# CPU blocks: 1638"
# fixes the engine's tensor parallelism at the script's 2: vLLM's 4 GiB swap
# space (EngineArgs swap_space = 4) over a block of 16 tokens x 80 layers x
# K and V x 8/2 KV heads x 128 x 2 bytes = 2,621,440 bytes is 1638 blocks.
# Options renamed to OpenRLHF v0.11's dotted spelling as in the 332 file;
# options that do not change memory or time are left out.
python3 -m openrlhf.cli.train_ppo_ray \
    --ref.num_nodes 1 \
    --ref.num_gpus_per_node 2 \
    --reward.num_nodes 1 \
    --reward.num_gpus_per_node 2 \
    --critic.num_nodes 1 \
    --critic.num_gpus_per_node 4 \
    --actor.num_nodes 1 \
    --actor.num_gpus_per_node 4 \
    --vllm.num_engines 2 \
    --vllm.tensor_parallel_size 2 \
    --actor.model_name_or_path Meta-Llama-3-70B-Instruct \
    --reward.model_name_or_path Meta-Llama-3-70B-Instruct \
    --critic.model_name_or_path Meta-Llama-3-70B-Instruct \
    --train.micro_batch_size 1 \
    --train.batch_size 128 \
    --rollout.micro_batch_size 2 \
    --rollout.batch_size 1024 \
    --train.max_epochs 1 \
    --data.max_len 2048 \
    --rollout.max_new_tokens 1024 \
    --ds.zero_stage 3 \
    --algo.kl.init_coef 0.01 \
    --ds.adam_offload \
    --actor.gradient_checkpointing_enable
