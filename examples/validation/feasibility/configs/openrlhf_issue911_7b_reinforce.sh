# OpenRLHF/OpenRLHF issue 911 (2025-03-24), "OutOfMemoryError: Task was killed
# due to the node running low on memory.": REINFORCE++ (reinforce_baseline) of
# a 7B model on one node of 8 x A800 with 250 GB of host memory; Ray killed a
# task for host memory. The report's launch command with its shell variables
# substituted (N_SAMPLES=16, TBS=256, RBS=64, KL=0.0, MAX_LENGTH=4096), its
# options renamed to OpenRLHF v0.11's dotted spelling (--actor_num_gpus_per_node
# -> --actor.num_gpus_per_node, --colocate_actor_ref -> --train.colocate_actor_ref,
# --pretrain -> --actor.model_name_or_path, --remote_rm_url -> --reward.remote_url,
# --micro_train_batch_size -> --train.micro_batch_size, --micro_rollout_batch_size
# -> --rollout.micro_batch_size, --n_samples_per_prompt ->
# --rollout.n_samples_per_prompt, --prompt_max_len + --generate_max_len ->
# --data.max_len and --rollout.max_new_tokens, --zero_stage -> --ds.zero_stage,
# --init_kl_coef -> --algo.kl.init_coef, --advantage_estimator ->
# --algo.advantage.estimator, --gradient_checkpointing ->
# --actor.gradient_checkpointing_enable).
# Options that do not change memory or time are left out (paths, learning
# rates, episodes, data keys, checkpoints, --bf16, --flash_attn,
# --vllm_sync_backend). The stored text of the command ends at "--max_ckp"
# (--max_ckpt_num, a checkpoint option); what follows it is not known. The
# report names the model only as "7B" (a path variable): Qwen2.5-7B-Instruct
# is taken for its shape.
python3 -m openrlhf.cli.train_ppo_ray \
    --ref.num_nodes 1 \
    --ref.num_gpus_per_node 4 \
    --actor.num_nodes 1 \
    --actor.num_gpus_per_node 4 \
    --vllm.num_engines 2 \
    --vllm.tensor_parallel_size 2 \
    --train.colocate_actor_ref \
    --actor.model_name_or_path Qwen2.5-7B-Instruct \
    --reward.remote_url http://localhost:1278/get_reward \
    --train.micro_batch_size 1 \
    --train.batch_size 256 \
    --rollout.micro_batch_size 1 \
    --rollout.batch_size 64 \
    --algo.advantage.estimator reinforce_baseline \
    --train.max_epochs 1 \
    --rollout.n_samples_per_prompt 16 \
    --data.max_len 6656 \
    --rollout.max_new_tokens 4096 \
    --ds.zero_stage 2 \
    --algo.kl.init_coef 0.0 \
    --actor.gradient_checkpointing_enable
