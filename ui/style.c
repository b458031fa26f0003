/*
** style.c — letters and labels for phases, steps and buckets.
*/
#include "style.h"

#include <stdio.h>

_Static_assert(PH__COUNT <= ST_STEP0 - ST_PHASE0, "canvas.h: too few phase styles");
_Static_assert(STEP__COUNT <= ST_BUCKET0 - ST_STEP0, "canvas.h: too few step styles");
_Static_assert(MB__COUNT <= ST__COUNT - ST_BUCKET0, "canvas.h: too few bucket styles");
_Static_assert(ST__COUNT < 256, "styles fit a byte");

/* Lower case for rollout-side work, upper case for training, symbols for
** moving data: a monochrome screen still tells the phases apart. */
static const char phase_letters[PH__COUNT] = {
    [PH_GENERATE] = 'g', [PH_PREFILL] = 'p', [PH_LOGPROB] = 'l', [PH_REF] = 'r', [PH_REWARD] = 'w',
    [PH_CRITIC_FWD] = 'c', [PH_TRAIN_FWD] = 'F', [PH_TRAIN_BWD] = 'B', [PH_TRAIN_1F1B] = 'T',
    [PH_GRAD_SYNC] = 'S', [PH_OPTIMIZER] = 'O', [PH_CRITIC_TRAIN] = 'C', [PH_OFFLOAD] = 'v',
    [PH_ONLOAD] = '^', [PH_RESHARD] = 'x', [PH_WEIGHT_SYNC] = 'W', [PH_QUEUE] = 'q', [PH_IDLE] = '.'
};
static const char step_letters[STEP__COUNT] = {
    [STEP_GENERATE] = 'g', [STEP_SWITCH] = 'x', [STEP_WEIGHT_SYNC] = 'W', [STEP_INFER] = 'i',
    [STEP_TRAIN] = 'T', [STEP_WAIT] = '.'
};
static const char bucket_letters[MB__COUNT] = {
    [MB_WEIGHTS] = 'W', [MB_GRADS] = 'G', [MB_OPTIMIZER] = 'O', [MB_ACTIVATIONS] = 'A',
    [MB_ROLLOUT_WEIGHTS] = 'R', [MB_KV_CACHE] = 'K', [MB_REF_WEIGHTS] = 'f', [MB_REWARD_WEIGHTS] = 'w',
    [MB_CRITIC] = 'C', [MB_RESHARD] = 's', [MB_HOST_OFFLOAD] = 'H', [MB_HOST_MODELS] = 'M'
};
static const char *bucket_short[MB__COUNT] = {
    [MB_WEIGHTS] = "weights", [MB_GRADS] = "grads", [MB_OPTIMIZER] = "optim", [MB_ACTIVATIONS] = "activ",
    [MB_ROLLOUT_WEIGHTS] = "rollout-w", [MB_KV_CACHE] = "kv", [MB_REF_WEIGHTS] = "ref-w",
    [MB_REWARD_WEIGHTS] = "reward-w", [MB_CRITIC] = "critic", [MB_RESHARD] = "reshard",
    [MB_HOST_OFFLOAD] = "host-off", [MB_HOST_MODELS] = "host-models"
};

/* A category the engine added after this table was written still gets a mark. */
char style_phase_letter(trace_phase p)
{
    return (unsigned)p < PH__COUNT && phase_letters[p] ? phase_letters[p] : '#';
}
char style_step_letter(trace_step_phase p)
{
    return (unsigned)p < STEP__COUNT && step_letters[p] ? step_letters[p] : '#';
}
char style_bucket_letter(mem_bucket b)
{
    return (unsigned)b < MB__COUNT && bucket_letters[b] ? bucket_letters[b] : '#';
}
const char *style_bucket_short(mem_bucket b)
{
    return (unsigned)b < MB__COUNT && bucket_short[b] ? bucket_short[b] : trace_bucket_name(b);
}

void style_fmt_time(char *out, size_t n, sim_time t)
{
    double s = sim_secs(t);
    if (t == 0) snprintf(out, n, "0");
    else if (s < 1) snprintf(out, n, "%.0fms", s * 1e3);
    else if (s < 10) snprintf(out, n, "%.2gs", s);
    else if (s < 100) snprintf(out, n, "%.3gs", s);
    else if (s < 600) snprintf(out, n, "%.0fs", s);
    else if (s < 36000) {
        long m = (long)(s / 60), r = (long)(s - 60.0 * m);
        if (r) snprintf(out, n, "%ldm%02lds", m, r);
        else snprintf(out, n, "%ldm", m);
    } else snprintf(out, n, "%.1fh", s / 3600);
}
