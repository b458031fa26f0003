#!/bin/sh
# PPO with a reward model, Llama-3.1-8B, every model and vLLM on the same
# 8 GPUs (the hybrid engine: --train.colocate_all with sleep modes); written
# for fusync's tests in the shape of OpenRLHF's
# examples/scripts/train_ppo_ray_hybrid_engine.sh.
set -x
GPUS=8
ENGINES=$((GPUS / 2))

python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 --ref.num_gpus_per_node $GPUS \
   --reward.num_nodes 1 --reward.num_gpus_per_node $GPUS \
   --critic.num_nodes 1 --critic.num_gpus_per_node $GPUS \
   --actor.num_nodes 1 --actor.num_gpus_per_node $GPUS \
   --vllm.num_engines $ENGINES \
   --vllm.tensor_parallel_size 2 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.5 \
   --actor.model_name_or_path meta-llama/Llama-3.1-8B \
   --reward.model_name_or_path meta-llama/Llama-3.1-8B \
   --ckpt.output_dir ./final/llama3-8b-rlhf \
   --ckpt.save_hf \
   --train.batch_size 128 \
   --rollout.batch_size 1024 \
   --rollout.n_samples_per_prompt 1 \
   --train.max_epochs 1 \
   --data.max_len 2048 \
   --ds.zero_stage 3 \
   --ds.param_dtype bf16 \
   --actor.adam.lr 5e-7 \
   --critic.adam.lr 9e-6 \
   --algo.kl.init_coef 0.01 \
   --data.prompt_dataset "OpenRLHF/prompt-collection-v0.1" \
   --data.input_key context_messages \
   --data.apply_chat_template \
   --reward.normalize_enable \
   --actor.gradient_checkpointing_enable \
   --ds.packing_samples \
   --vllm.enforce_eager \
   --vllm.enable_sleep \
   --ds.enable_sleep \
   --train.dynamic_batch_enable \
   --train.max_tokens_per_gpu 16384
