/*
** fuzz_scenario.c — a scenario file as the input: the sandboxed loader
** (budgets, field checks, conversion), plan_build, and a bounded simulation.
** Seeds: examples/ itself (the Makefile's FUZZ_SEEDS_fuzz_scenario).
*/
#include "fuzz_common.h"
#include "lua_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) return 0;
    const char *path = fuzz_scratch(data, size, "scenario");
    if (!path) return 0;
    scn_scenario sc;
    fs_err err = {0, ""};
    if (lscn_load(path, NULL, 0, &sc, &err)) fuzz_plan_and_simulate(&sc, 20000);
    unlink(path);
    return 0;
}
