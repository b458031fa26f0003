# OpenRLHF/OpenRLHF issue 776 (2025-02-22), "CUDA out of memory grpo llama3.1
# 70B": the launch command of the report on 9 nodes of 8 x A800 80GB, its
# options renamed to OpenRLHF v0.11's dotted spelling (--ref_num_nodes ->
# --ref.num_nodes, --pretrain -> --actor.model_name_or_path, --remote_rm_url
# -> --reward.remote_url, --prompt_max_len + --generate_max_len ->
# --data.max_len and --rollout.max_new_tokens, --packing_samples ->
# --ds.packing_samples, --advantage_estimator -> --algo.advantage.estimator).
# Options that do not change memory or time are left out (paths, learning
# rate, checkpoints, data keys, --normalize_reward, --flash_attn).
python3 -m openrlhf.cli.train_ppo_ray \
    --ref.num_nodes 4 \
    --ref.num_gpus_per_node 8 \
    --actor.num_nodes 4 \
    --actor.num_gpus_per_node 8 \
    --vllm.num_engines 1 \
    --vllm.tensor_parallel_size 8 \
    --actor.model_name_or_path llama3_1_70b \
    --reward.remote_url http://localhost:5000/get_reward \
    --train.micro_batch_size 1 \
    --train.batch_size 128 \
    --rollout.micro_batch_size 2 \
    --rollout.batch_size 256 \
    --train.max_epochs 1 \
    --data.max_len 2048 \
    --rollout.max_new_tokens 1024 \
    --ds.zero_stage 3 \
    --algo.kl.init_coef 0.01 \
    --algo.advantage.estimator group_norm \
    --rollout.n_samples_per_prompt 4 \
    --ds.packing_samples \
    --ds.adam_offload \
    --actor.gradient_checkpointing_enable
