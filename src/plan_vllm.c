/*
** plan_vllm.c — what the plan reads of vLLM's own configuration: its
** max_model_len and the tokens of its profile run (docs/model.md, sections 3
** and 8), and the optimizer's moments a device-scope engine did not see.
** plan.c sizes the KV cache and checks the start-up from them.
*/
#include "plan.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* vLLM's max_model_len: plan.rollout.max_model_len when set, else the
** longest sequence the workload can make, prompt cap + max_response:
** OpenRLHF's before v0.10 (train_ppo_ray.py, prompt_max_len +
** generate_max_len; from v0.10 data.max_len, which the importer sets as
** plan.rollout.max_model_len) and NeMo RL's vllm_cfg.max_model_len
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

/* docs/model.md, section 8, "The KV cache sized before the optimizer's
** states exist": under the device scope a co-located vLLM, built before
** the first training step, counts what the device holds then; PyTorch's
** Adam creates its moments at its first step() (torch/optim/adam.py,
** _init_group; verl pull request 1349), 8 of the optimizer bucket's 12
** bytes a parameter, all of it under FSDP's FP32 layout (ZeRO-3, FP32
** gradients), where the master is the parameter.  The cache is that much
** larger than what the device leaves it from step 2 on. */
double plan_lazy_states(const scn_scenario *s, const plan_pool *q)
{
    const scn_plan *sp = &s->plan;
    if (!plan_engine_vllm(sp) || !q->colocated || sp->rollout.mem_scope != MEMSCOPE_DEVICE || !sp->train.lazy_states
        || sp->rollout.kv_cache_bytes > 0)
        return 0;
    return q->rollout_mem[MB_OPTIMIZER] * (sp->train.zero >= 3 && sp->train.grad_dtype == GRAD_FP32 ? 1.0 : 8.0 / 12.0);
}

void plan_lazy_states_msg(const plan_pool *q, char *m, size_t n)
{
    if (q->lazy_states <= 0) return;
    char l[32];
    fmt_bytes(l, sizeof l, q->lazy_states);
    size_t len = strlen(m);
    if (len < n)
        snprintf(m + len, n - len, " from step 2 (vLLM sized its KV cache before the optimizer's first step created "
                 "%s of moments)", l);
}
