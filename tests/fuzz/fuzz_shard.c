/*
** fuzz_shard.c — libFuzzer target of the shard reader: the JSON reader, the
** table reader and shard validation (shard.h), then what `fusync merge`
** does with a shard it accepted: check the set, join it, rank a plan, print
** CSV and JSON.  An accepted shard must read back from its own JSON as the
** same table (the bytes of a second write equal the first).
**
**   make fuzz    # builds build-fuzz/fuzz_* and runs each FUZZ_SECONDS; then, longer:
**   ./build-fuzz/fuzz_shard -max_total_time=60 tests/fuzz/corpus/shard
** Seeds: tests/fuzz/corpus/shard/ holds shards written by
** `fusync sweep|plan ... --shard I/N --json FILE`.
*/
#include "planner.h"
#include "rtable.h"
#include "shard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *write_json(const rtable *t)
{
    fs_buf b;
    buf_init(&b);
    rtable_json(t, &b);
    return b.s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    rtable t;
    rtable_init(&t, "sweep");
    fs_err err = {0, ""};
    bool ok = shard_parse(text, size, "fuzz.json", &t, &err);
    if (!ok) {
        /* a refusal names the file and is bad input */
        if (err.code != 2 || strncmp(err.msg, "fuzz.json: ", 11) != 0) {
            fprintf(stderr, "refusal without the file or status 2: %d %s\n", err.code, err.msg);
            abort();
        }
    } else {
        char *first = write_json(&t);
        rtable again;
        rtable_init(&again, "sweep");
        fs_err e2 = {0, ""};
        if (!shard_parse(first, strlen(first), "again.json", &again, &e2)) {
            fprintf(stderr, "an accepted shard does not read back: %s\n", e2.msg);
            abort();
        }
        char *second = write_json(&again);
        if (strcmp(first, second) != 0) {
            fprintf(stderr, "an accepted shard reads back differently\n");
            abort();
        }
        free(second);
        rtable_free(&again);
        free(first);

        char *names[1] = {"fuzz.json"};
        if (shard_check_set(&t, 1, names, &err)) {
            rtable m;
            shard_join(&t, 1, &m);
            if (rtable_is_plan(&m)) plan_sort(&m);
            fs_buf b;
            buf_init(&b);
            rtable_csv(&m, &b);
            rtable_json(&m, &b);
            buf_free(&b);
            if (rtable_is_plan(&m)) {
                FILE *devnull = fopen("/dev/null", "w");
                if (devnull) { plan_print(&m, 10, devnull); fclose(devnull); }
            }
            rtable_free(&m);
        }
    }
    rtable_free(&t);
    free(text);
    return 0;
}
