#!/bin/sh
# PPO with a reward model, Llama-3.1-8B on separate Ray pools: vLLM on 8
# GPUs, actor + reference on 4, critic + reward on 4 (written for fusync's
# tests in the shape of OpenRLHF's examples/scripts/train_ppo_ray_slurm.sh).
MODEL=${MODEL:-meta-llama/Llama-3.1-8B}
ray job submit --address="http://127.0.0.1:8265" \
    -- python3 -m openrlhf.cli.train_ppo_ray \
    --ref.num_nodes 1 \
    --ref.num_gpus_per_node 4 \
    --reward.num_nodes 1 \
    --reward.num_gpus_per_node 4 \
    --critic.num_nodes 1 \
    --critic.num_gpus_per_node 4 \
    --actor.num_nodes 1 \
    --actor.num_gpus_per_node 4 \
    --vllm.num_engines 4 \
    --vllm.tensor_parallel_size 2 \
    --train.colocate_critic_reward \
    --train.colocate_actor_ref \
    --actor.model_name_or_path "$MODEL" \
    --reward.model_name_or_path "$MODEL" \
    --train.micro_batch_size 8 \
    --train.batch_size 128 \
    --rollout.micro_batch_size 16 \
    --rollout.batch_size 1024 \
    --train.max_epochs 1 \
    --data.max_len 2048 \
    --ds.zero_stage 3 \
    --actor.adam.lr 5e-7 \
    --algo.kl.init_coef 0.01 \
    --ds.adam_offload \
    --ds.packing_samples \
    --actor.gradient_checkpointing_enable \
    --logger.wandb.key "${WANDB_TOKEN}" > train.log 2>&1
