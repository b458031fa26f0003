/*
** engine_alone.c — for `make layer-check`: a scenario built in C from the
** presets, run by the engine linked from the engine core's objects alone
** (scripts/layers.sh --engine-sources), with no Lua and no curses on the link
** line.  That it links at all is the check; that it trains a step shows the
** core is whole.
*/
#include "engine.h"
#include "presets.h"

#include <stdio.h>

int main(void)
{
    scn_scenario s;
    scn_defaults(&s);
    snprintf(s.name, sizeof s.name, "engine-alone");
    s.cluster.device = *presets_device_find("h100");
    s.cluster.nodes_per_supernode = 2;
    /* the device's own links, as a scenario file without cluster.links gets */
    const scn_device *d = &s.cluster.device;
    s.cluster.intra_node = (scn_link){.bw = d->scaleup_bw, .latency_s = 2e-6};
    s.cluster.intra_supernode = (scn_link){.bw = d->scaleout_bw, .latency_s = 5e-6};
    s.cluster.inter_supernode = (scn_link){.bw = d->scaleout_bw, .latency_s = 1e-5};
    s.actor = *presets_model_find("qwen2_5_7b");
    scn_model_derive(&s.actor);         /* as the loader does (lua_scenario.c) */
    s.work.prompts_per_step = 16;
    s.work.samples_per_prompt = 4;
    s.work.response_len.a = 256;
    s.work.iterations = 2;
    s.work.warmup = 0;
    fs_err err = {0, ""};
    if (!scn_validate(&s, &err)) {
        fprintf(stderr, "engine_alone: %s\n", err.msg);
        return 2;
    }
    sim *m = sim_new(&s, &err);
    if (!m) {
        fprintf(stderr, "engine_alone: %s\n", err.msg);
        return 2;
    }
    sim_run(m);
    bool ok = sim_error(m) == NULL;
    int steps = sim_get_stats(m)->version;
    sim_free(m);
    if (!ok || steps < 1) {
        fprintf(stderr, "engine_alone: the run did not finish a step\n");
        return 1;
    }
    printf("engine_alone: %d steps without Lua or curses\n", steps);
    return 0;
}
