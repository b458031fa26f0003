/*
** fuzz_whatif.c — a what-if file as the input: the plugin host runs it
** (vary, variants(base)), the readers turn its answer into --set overrides,
** and the first variants are loaded over the base scenario like `sweep` does.
** Seeds: examples/ and plugins/ themselves (FUZZ_SEEDS_fuzz_whatif).
*/
#include "fuzz_common.h"
#include "lua_scenario.h"
#include "plugin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *base_path(void)
{
    static char path[1024];
    if (!path[0]) {
        const char *root = getenv("FUSYNC_ROOT");
        snprintf(path, sizeof path, "%s/examples/qwen7b_h100x16.lua", root ? root : ".");
    }
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static scn_scenario base;
    static int have_base = -1;
    fs_err err = {0, ""};
    if (have_base < 0) {
        have_base = lscn_load(base_path(), NULL, 0, &base, &err);
        if (!have_base) {
            fprintf(stderr, "fuzz_whatif: %s (set FUSYNC_ROOT to the repository)\n", err.msg);
            abort();
        }
    }
    if (size > 64 * 1024) return 0;
    const char *path = fuzz_scratch(data, size, "whatif");
    if (!path) return 0;
    whatif_list w;
    if (whatif_load(path, &base, &w, &err)) {
        for (int i = 0; i < w.nvariants && i < 3; i++) {
            scn_scenario sc;
            lscn_load(base_path(), (const char *const *)w.v[i].sets, w.v[i].nsets, &sc, &err);
        }
        whatif_free(&w);
    }
    unlink(path);
    return 0;
}
