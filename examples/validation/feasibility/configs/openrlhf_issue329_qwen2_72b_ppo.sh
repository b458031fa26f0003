# OpenRLHF/OpenRLHF issue 329 (2024-06-20), "qwen2 72B PPO OOM": the launch
# command of the report, its options renamed to OpenRLHF v0.11's dotted
# spelling (--actor_num_gpus_per_node -> --actor.num_gpus_per_node, --pretrain
# -> --actor.model_name_or_path, --reward_pretrain ->
# --reward.model_name_or_path and the critic's, --prompt_max_len +
# --generate_max_len -> --data.max_len and --rollout.max_new_tokens).
# Options that do not change memory or time are left out (paths, learning
# rates, wandb, --pretrain_data, --normalize_reward, --actor_init_on_gpu).
# The report names no reward model; it is taken to be Qwen2-72B like the
# policy (OpenRLHF starts the critic from the reward model).
python3 -m openrlhf.cli.train_ppo_ray \
    --ref.num_nodes 1 \
    --ref.num_gpus_per_node 4 \
    --reward.num_nodes 1 \
    --reward.num_gpus_per_node 4 \
    --critic.num_nodes 1 \
    --critic.num_gpus_per_node 8 \
    --actor.num_nodes 1 \
    --actor.num_gpus_per_node 8 \
    --vllm.num_engines 1 \
    --vllm.tensor_parallel_size 8 \
    --actor.model_name_or_path Qwen2-72B-Instruct \
    --reward.model_name_or_path Qwen2-72B-Instruct \
    --critic.model_name_or_path Qwen2-72B-Instruct \
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
