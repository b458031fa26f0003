/*
** fuzz_lesson.c — libFuzzer target of the lesson reader (src/plugin_lesson.c):
** a lesson file of any bytes opens or is refused with status 2 and the file
** named, and an opened lesson's captions and checks run within the sandbox's
** budgets on made-up figures.
**
**   ./build-fuzz/fuzz_lesson -max_total_time=60 lessons tests/fuzz/corpus/lesson
** Seeds: the shipped lessons (lessons/) and tests/fuzz/corpus/lesson/.
*/
#include "fuzz_common.h"
#include "lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (64u << 10)) return 0;
    const char *path = fuzz_scratch(data, size, "lesson");
    if (!path) return 0;
    fs_err err = {0, ""};
    lesson *l = lesson_open(path, &err);
    if (!l) {
        if (err.code != 2 || !strstr(err.msg, path)) {
            fprintf(stderr, "refusal without the file or status 2: %d %s\n", err.code, err.msg);
            abort();
        }
        return 0;
    }
    lesson_figs f;
    memset(&f, 0, sizeof f);
    f.time_s = 12.5;
    f.step = 1;
    f.steps = 3;
    f.npools = 1;
    snprintf(f.pools[0].name, sizeof f.pools[0].name, "train");
    f.pools[0].devices = 8;
    f.pools[0].busy = f.pools[0].compute = 0.5;
    int n = lesson_nsteps(l);
    for (int i = 0; i < n && i < 8; i++) {
        char out[1024], why[256];
        bool holds;
        fs_err e2 = {0, ""};
        (void)lesson_caption(l, i, &f, out, sizeof out, &e2);
        (void)lesson_check(l, i, &f, &holds, why, sizeof why, &e2);
    }
    lesson_close(l);
    return 0;
}
