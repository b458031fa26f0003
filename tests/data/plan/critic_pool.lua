-- PPO whose best plan trains the critic on GPUs of its own (tests/plan_critic.sh):
-- examples/openrlhf_ppo_critic_pool.lua's Llama-3-8B actor, critic, reward
-- and reference on 2 nodes of 8 H100, with long answers (median 3000
-- tokens) and 256 prompts a step, so that generation is most of a step and
-- a rollout pool of its own, generating while the actor and the critic
-- train side by side on theirs, beats every GPU taking each phase in turn.
-- OpenRLHF runs it as --critic.num_nodes/--critic.num_gpus_per_node with
-- --train.colocate_critic_reward and --train.colocate_actor_ref.
local f = fusync
return {
  name = "plan_critic_pool",
  cluster = {
    device = f.devices.h100,
    devices_per_node = 8, nodes_per_supernode = 2, supernodes = 1,
    host_mem_gb = 2048,
  },
  models = {
    actor = f.models.llama3_1_8b,
    reference = true,
    reward = f.models.llama3_1_8b,
    critic = f.models.llama3_1_8b,
  },
  workload = {
    algorithm = "ppo",
    prompts_per_step = 256, samples_per_prompt = 1,
    minibatches = 2, epochs = 1,
    prompt_len = f.dist.uniform(128, 512),
    response_len = f.dist.lognormal{median = 3000, sigma = 0.6, cap = 6144},
    max_response = 6144,
    recompute_logprob = true,
    iterations = 3, warmup = 1, seed = 25,
  },
  plan = {
    mode = "full",
    controller = "driver",
    train = {
      tp = 1, pp = 1, zero = 3, micro_batch = 2,
      recompute = "full", optimizer_offload = 1, padding = "none",
    },
    rollout = { tp = 2, max_seqs = 256, mem_util = 0.95 },
  },
}
