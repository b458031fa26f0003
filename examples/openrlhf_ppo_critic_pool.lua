-- Llama-3-8B, PPO with a reward model, OpenRLHF on separate Ray groups: the
-- shape of OpenRLHF's examples/scripts/train_ppo_ray_slurm.sh (v0.11.0) on
-- 2 nodes of 8 H100 SXM — 4 vLLM engines of TP2 on 8 GPUs, the actor and
-- its reference on 4 (--train.colocate_actor_ref), the critic and the
-- reward model on the other 4 (--train.colocate_critic_reward).
-- The critic trains on its own GPUs while the actor trains on its own:
-- OpenRLHF's PPOTrainer.ppo_train starts both fits and waits for both
-- before it broadcasts the actor to vLLM (openrlhf/trainer/ppo_trainer.py).
-- Its value pass runs there too, beside the actor's log-prob and reference
-- passes.  `fusync check` shows the critic's states on its own pool.
local f = fusync
return {
  name = "openrlhf_ppo_critic_pool",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 2, supernodes = 1,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.llama3_1_8b,
    reference = true,                      -- --algo.kl.init_coef 0.01
    reward = f.models.llama3_1_8b,         -- --reward.model_name_or_path
    critic = f.models.llama3_1_8b,         -- initialised from the reward model
  },
  workload = {
    algorithm = "ppo",
    prompts_per_step = 1024, samples_per_prompt = 1,   -- --rollout.batch_size 1024
    minibatches = 8, epochs = 1,           -- --train.batch_size 128, --train.max_epochs 1
    prompt_len = f.dist.uniform(128, 512),
    response_len = f.dist.lognormal{median = 384, sigma = 0.8, cap = 1536},
    max_response = 1536,                   -- --data.max_len 2048 less the longest prompt
    recompute_logprob = true,
    iterations = 3, warmup = 1, seed = 25,
  },
  plan = {
    mode = "separate",
    pools = {
      { name = "vllm",   devices = 8, roles = { "rollout" } },
      { name = "actor",  devices = 4, roles = { "train", "ref" } },
      { name = "critic", devices = 4, roles = { "critic", "reward" } },
    },
    controller = "driver",                 -- the PPO trainer gathers each step's experiences
    train = {
      tp = 1, pp = 1, zero = 3,            -- --ds.zero_stage 3
      micro_batch = 8,                     -- --train.micro_batch_size 8
      recompute = "full",                  -- --actor.gradient_checkpointing_enable
      optimizer_offload = 1,               -- --ds.adam_offload
      padding = "none",                    -- --ds.packing_samples
    },
    rollout = { tp = 2, max_seqs = 256, mem_util = 0.95 },
  },
}
