/*
** plan_vllm.c — what the plan reads of vLLM's own configuration: its
** max_model_len and the tokens of its profile run (docs/model.md, sections 3
** and 8).  plan.c sizes the KV cache and checks the start-up from them.
*/
#include "plan.h"

/* vLLM's max_model_len: plan.rollout.max_model_len when set, else the
** longest sequence the workload can make, prompt cap + max_response:
** the max_model_len OpenRLHF hands vLLM (train_ppo_ray.py,
** prompt_max_len + generate_max_len) and NeMo RL's vllm_cfg.max_model_len
** (policy.max_total_sequence_length); a lower bound of verl's (its async
** server's default is the model's max_position_embeddings), docs/model.md
** section 8.  0 when the prompt has no upper bound. */
double plan_max_model_len(const scn_scenario *s)
{
    if (s->plan.rollout.max_model_len > 0) return s->plan.rollout.max_model_len;
    const scn_dist *d = &s->work.prompt_len;
    double p = 0;
    switch (d->kind) {
    case DIST_FIXED: p = d->a; break;
    case DIST_UNIFORM: p = d->b; break;
    case DIST_LOGNORMAL: p = d->cap; break;
    case DIST_HIST: p = d->nbins > 0 ? d->edge[d->nbins] : 0; break;
    }
    if (d->cap > 0 && d->cap < p) p = d->cap;
    return p > 0 ? p + s->work.max_response : 0;
}

/* vLLM's profile run carries max_num_batched_tokens (the V1 worker's
** profile_run, vllm/v1/worker/gpu_model_runner.py); V0 without chunked
** prefill set it to max(max_model_len, 2048) (vllm/config.py,
** SchedulerConfig) — fusync's plan.rollout.max_batched_tokens = 0. */
double plan_profile_tokens(const scn_scenario *s)
{
    if (s->plan.rollout.max_batched_tokens > 0) return s->plan.rollout.max_batched_tokens;
    double m = plan_max_model_len(s);
    return m > 2048 ? m : 2048;
}
