/*
** fuzz_json.c — libFuzzer target of the JSON reader (src/jsonr.c) alone:
** any bytes either parse or are refused with "line N: ..."; a parse stays
** within the reader's budget (JSONR_NODES_MAX values, JSONR_DEPTH_MAX
** nesting) and its accessors never read past the tree.
**
**   ./build-fuzz/fuzz_json -max_total_time=60 tests/fuzz/corpus/shard tests/fuzz/corpus/hfconfig
** Seeds: the shard and config.json corpora (JSON of both shapes fusync reads).
*/
#include "jsonr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Values in the tree, every accessor tried on each object; the depth bound. */
static long walk(const jv *v, int depth)
{
    if (depth > JSONR_DEPTH_MAX) {
        fprintf(stderr, "a tree deeper than JSONR_DEPTH_MAX\n");
        abort();
    }
    long n = 1;
    if (v->t == J_OBJ && v->n > 0) {
        long x;
        char s[32];
        (void)jv_int(v, v->keys[0], -1000, 1000, &x);
        (void)jv_str(v, v->keys[v->n - 1], s, sizeof s);
        if (jv_get(v, v->keys[0]) != &v->items[0]) {
            fprintf(stderr, "jv_get does not find the first key\n");
            abort();
        }
    }
    if (v->t == J_NUM && json_number_len(v->text) != strlen(v->text)) {
        fprintf(stderr, "a number kept as text the grammar does not take: %s\n", v->text);
        abort();
    }
    for (int i = 0; i < v->n; i++) n += walk(&v->items[i], depth + 1);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (4u << 20)) return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    jv v;
    char why[256];
    if (jsonr_parse(text, size, &v, why, sizeof why)) {
        if (walk(&v, 1) > JSONR_NODES_MAX) {
            fprintf(stderr, "more values than JSONR_NODES_MAX\n");
            abort();
        }
        jv_free(&v);
    } else if (strncmp(why, "line ", 5) != 0) {
        fprintf(stderr, "a refusal without its line: %s\n", why);
        abort();
    }
    free(text);
    return 0;
}
