/*
** fwnames.h — fusync's figures under the metric keys the RL frameworks log
** (`--names verl|openrlhf|nemo-rl`): one table of (framework, key, what it
** is read from, unit), each key cited to the framework's source file and
** version in docs/frameworks.md, "Output in the frameworks' names".
**
** A key is either a sum of step phases and inference parts (seconds per
** step, as the framework's timers measure them) or one of the step's whole
** figures (its time, its tokens per second per device).
*/
#ifndef FUSYNC_FWNAMES_H
#define FUSYNC_FWNAMES_H

#include <stdbool.h>
#include "engine.h"

typedef enum { FWN_VERL, FWN_OPENRLHF, FWN_NEMO_RL, FWN__COUNT } fwn_framework;

typedef enum {
    FWN_SUM,            /* the phases and parts named, summed (seconds) */
    FWN_STEP,           /* the step time (seconds) */
    FWN_TPUT_DEVICE,    /* tokens trained per second per device */
    FWN_TOKENS,         /* tokens trained in the step (prompt + response) */
    FWN_RESP_TPUT_DEVICE /* response tokens trained per second per device */
} fwn_whole;

typedef struct {
    fwn_framework fw;
    const char   *key;
    fwn_whole     whole;
    unsigned      phases;   /* FWN_SUM: bit k = trace_step_phase k */
    unsigned      parts;    /* FWN_SUM: bit k = sim_infer_part k */
    const char   *unit;
    const char   *source;   /* the framework's file that logs it */
} fwn_key;

extern const fwn_key FWN_KEYS[];
extern const int     FWN_NKEYS;

/* "verl", "openrlhf", "nemo-rl"; the framework named, or -1. */
const char *fwn_name(fwn_framework f);
int         fwn_parse(const char *name);
/* The framework's version the keys come from ("0.8.0.dev"). */
const char *fwn_version(fwn_framework f);

/* One step's figures, as a key reads them. */
typedef struct {
    double phase_s[STEP__COUNT];
    double infer_s[INF__COUNT];
    double step_s;
    double tokens;
    double tput_device;
    double resp_tput_device;
} fwn_step;

double fwn_value(const fwn_key *k, const fwn_step *st);

/* The framework a run's report names its figures for (every JSON and table
** writer of the process reads it; -1: none, the default). */
extern int fwn_active;

#endif
