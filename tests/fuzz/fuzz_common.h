/*
** fuzz_common.h — what the libFuzzer targets in tests/fuzz/ share: a scratch
** file per process for inputs that the library reads by path, and a bounded
** simulation.  Each fuzz_*.c defines LLVMFuzzerTestOneInput and links with
** the library objects (never src/main.c); `make fuzz` builds and runs them.
*/
#ifndef FUSYNC_FUZZ_COMMON_H
#define FUSYNC_FUZZ_COMMON_H

#include "engine.h"
#include "plan.h"
#include "scenario.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write the input to this process's scratch file (suffix ".lua") and return
** its path; NULL if it cannot be written. */
static inline const char *fuzz_scratch(const uint8_t *data, size_t size, const char *tag)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/fusync-fuzz-%s-%d.lua", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag,
             (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    if (size && fwrite(data, 1, size, f) != size) { fclose(f); return NULL; }
    if (fclose(f) != 0) return NULL;
    return path;
}

/* plan_build, then at most `events` events of the simulation, on scenarios
** small enough to simulate within a fuzzing run. */
static inline void fuzz_plan_and_simulate(scn_scenario *sc, uint64_t events)
{
    plan pl;
    fs_err err = {0, ""};
    if (!plan_build(sc, &pl, &err)) return;
    if (scn_total_devices(&sc->cluster) > 4096) return;
    if (sc->work.iterations > 2) sc->work.iterations = 2;
    if (sc->work.warmup >= sc->work.iterations) sc->work.warmup = sc->work.iterations - 1;
    if ((long long)sc->work.prompts_per_step * sc->work.samples_per_prompt > 100000) return;
    sc->plan.policy[0] = '\0';      /* no plugin: the what-if and place fuzzers cover those */
    sim *s = sim_new(sc, &err);
    if (!s) return;
    sim_step_events(s, events);
    sim_free(s);
}

#endif
