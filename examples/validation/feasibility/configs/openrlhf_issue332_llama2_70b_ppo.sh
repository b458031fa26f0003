# OpenRLHF/OpenRLHF issue 332 (2024-06-26), "How much memory(RAM) is required
# to train a 70B Llama2 model with two 80G A800 nodes?": "the example script
# (ZeRO3 optim offload)", examples/scripts/train_ppo_llama_ray_70b.sh as it was
# at OpenRLHF commit 750e0ef3 (2024-06-26; unchanged since d1d595a5,
# 2024-06-11), on 2 nodes of 8 x A800 80GB with 1600 GB of host memory each;
# Ray killed the job for host memory at the 32nd micro-step of training. Its
# options renamed to OpenRLHF v0.11's dotted spelling (--actor_num_gpus_per_node
# -> --actor.num_gpus_per_node, --pretrain -> --actor.model_name_or_path,
# --reward_pretrain -> --reward.model_name_or_path and the critic's, which
# OpenRLHF starts from the reward model, --prompt_max_len + --generate_max_len
# -> --data.max_len and --rollout.max_new_tokens, --zero_stage -> --ds.zero_stage,
# --adam_offload -> --ds.adam_offload, --gradient_checkpointing ->
# --actor.gradient_checkpointing_enable).
# Options that do not change memory or time are left out (paths, learning
# rates, data keys, --normalize_reward, --bf16, --flash_attn, --no-wait).
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
    --actor.model_name_or_path meta-llama/Llama-2-70b-chat-hf \
    --reward.model_name_or_path meta-llama/Llama-2-70b-chat-hf \
    --critic.model_name_or_path meta-llama/Llama-2-70b-chat-hf \
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
