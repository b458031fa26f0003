/*
** fwnames.c — the frameworks' metric keys as data (fwnames.h).  Each row
** reads one framework timer or figure off fusync's step split: which step
** phases (trace.h, TRACE_STEP_PHASES) and inference parts (engine.h,
** sim_infer_part) the framework's timer spans.  The sources and versions are
** the files named in `source`, read at the versions fwn_version gives;
** docs/frameworks.md, "Output in the frameworks' names", says why each row
** reads what it reads.
*/
#include "fwnames.h"

#include <string.h>

#define PH(k)  (1u << (k))
#define IP(k)  (1u << (k))

#define VERL_SRC  "verl/trainer/ppo/ray_trainer.py, verl/trainer/ppo/metric_utils.py"
#define ORLHF_SRC "openrlhf/trainer/ppo_trainer.py, openrlhf/utils/logging_utils.py"
#define NEMO_SRC  "nemo_rl/algorithms/grpo.py"

const fwn_key FWN_KEYS[] = {
    /* verl: marked_timer(name, timing_raw) blocks, logged as timing_s/NAME
    ** (metric_utils.compute_timing_metrics); the perf keys from compute_throughout_metrics */
    {FWN_VERL, "timing_s/gen", FWN_SUM, PH(STEP_GENERATE), 0, "s", VERL_SRC},
    {FWN_VERL, "timing_s/reward", FWN_SUM, 0, IP(INF_REWARD), "s", VERL_SRC},
    {FWN_VERL, "timing_s/old_log_prob", FWN_SUM, 0, IP(INF_LOGPROB), "s", VERL_SRC},
    {FWN_VERL, "timing_s/ref", FWN_SUM, 0, IP(INF_REF), "s", VERL_SRC},
    {FWN_VERL, "timing_s/values", FWN_SUM, 0, IP(INF_CRITIC), "s", VERL_SRC},
    {FWN_VERL, "timing_s/update_actor", FWN_SUM, PH(STEP_TRAIN), 0, "s", VERL_SRC},
    {FWN_VERL, "timing_s/update_weights", FWN_SUM, PH(STEP_SWITCH) | PH(STEP_WEIGHT_SYNC), 0, "s", VERL_SRC},
    {FWN_VERL, "timing_s/step", FWN_STEP, 0, 0, "s", VERL_SRC},
    {FWN_VERL, "perf/time_per_step", FWN_STEP, 0, 0, "s", VERL_SRC},
    {FWN_VERL, "perf/total_num_tokens", FWN_TOKENS, 0, 0, "tokens", VERL_SRC},
    {FWN_VERL, "perf/throughput", FWN_TPUT_DEVICE, 0, 0, "tokens/s", VERL_SRC},
    /* OpenRLHF: status["timing/NAME"] of PPOTrainer.train_step and fit,
    ** logged under train/ by its wandb and tensorboard loggers */
    {FWN_OPENRLHF, "train/timing/generation", FWN_SUM, PH(STEP_GENERATE), 0, "s", ORLHF_SRC},
    {FWN_OPENRLHF, "train/timing/make_experience", FWN_SUM, PH(STEP_INFER), 0, "s", ORLHF_SRC},
    {FWN_OPENRLHF, "train/timing/ppo_train", FWN_SUM, PH(STEP_TRAIN), 0, "s", ORLHF_SRC},
    {FWN_OPENRLHF, "train/timing/broadcast", FWN_SUM, PH(STEP_SWITCH) | PH(STEP_WEIGHT_SYNC), 0, "s", ORLHF_SRC},
    {FWN_OPENRLHF, "train/timing/step_total", FWN_STEP, 0, 0, "s", ORLHF_SRC},
    /* NeMo RL: timer.time(NAME) blocks of grpo_train, logged with the
    ** prefix timing/train */
    {FWN_NEMO_RL, "timing/train/generation", FWN_SUM, PH(STEP_GENERATE), 0, "s", NEMO_SRC},
    {FWN_NEMO_RL, "timing/train/prepare_for_generation/total", FWN_SUM, PH(STEP_SWITCH) | PH(STEP_WEIGHT_SYNC), 0,
     "s", NEMO_SRC},
    {FWN_NEMO_RL, "timing/train/reward_calculation", FWN_SUM, 0, IP(INF_REWARD), "s", NEMO_SRC},
    {FWN_NEMO_RL, "timing/train/policy_and_reference_logprobs", FWN_SUM, 0, IP(INF_LOGPROB) | IP(INF_REF), "s",
     NEMO_SRC},
    {FWN_NEMO_RL, "timing/train/policy_training", FWN_SUM, PH(STEP_TRAIN), 0, "s", NEMO_SRC},
    {FWN_NEMO_RL, "timing/train/total_step_time", FWN_STEP, 0, 0, "s", NEMO_SRC},
    {FWN_NEMO_RL, "timing/train/valid_tokens_per_sec_per_gpu", FWN_RESP_TPUT_DEVICE, 0, 0, "tokens/s", NEMO_SRC},
};
const int FWN_NKEYS = (int)(sizeof FWN_KEYS / sizeof FWN_KEYS[0]);

int fwn_active = -1;

static const char *const NAMES[FWN__COUNT] = {"verl", "openrlhf", "nemo-rl"};
/* verl/version/version; OpenRLHF's tag; nemo_rl/package_info.py */
static const char *const VERSIONS[FWN__COUNT] = {"0.8.0.dev", "0.11.0", "0.6.0"};

const char *fwn_name(fwn_framework f) { return f < FWN__COUNT ? NAMES[f] : "?"; }
const char *fwn_version(fwn_framework f) { return f < FWN__COUNT ? VERSIONS[f] : "?"; }

int fwn_parse(const char *name)
{
    for (int f = 0; f < FWN__COUNT; f++)
        if (!strcmp(name, NAMES[f])) return f;
    return -1;
}

double fwn_value(const fwn_key *k, const fwn_step *st)
{
    switch (k->whole) {
    case FWN_STEP: return st->step_s;
    case FWN_TOKENS: return st->tokens;
    case FWN_TPUT_DEVICE: return st->tput_device;
    case FWN_RESP_TPUT_DEVICE: return st->resp_tput_device;
    case FWN_SUM: break;
    }
    double v = 0;
    for (int p = 0; p < STEP__COUNT; p++)
        if (k->phases & PH(p)) v += st->phase_s[p];
    for (int p = 0; p < INF__COUNT; p++)
        if (k->parts & IP(p)) v += st->infer_s[p];
    return v;
}
