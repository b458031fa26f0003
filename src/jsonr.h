/*
** jsonr.h — a small JSON reader: text in, a tree of values out.
**
** For the files fusync itself writes (sweep and plan tables, shard files,
** worker pipes): numbers are kept as the text they were written as, so a
** table read back prints the same bytes.  Strict RFC 8259 grammar; nesting
** deeper than JSONR_DEPTH_MAX, a NUL byte anywhere or text after the value
** are errors.  No I/O: the caller reads the file (see shard.h for limits).
*/
#ifndef FUSYNC_JSONR_H
#define FUSYNC_JSONR_H

#include <stdbool.h>
#include <stddef.h>

#define JSONR_DEPTH_MAX 32
/* The tree's budget: values and heap bytes (a 256 MiB shard of small values
** would otherwise take about 36 times its size).  Past either, or when an
** allocation fails, the parse fails with a message: never an abort. */
#define JSONR_NODES_MAX 4000000L
#define JSONR_NODES_TEXT "4 million"
#define JSONR_BYTES_MAX ((size_t)768 << 20)
#define JSONR_BYTES_TEXT "768 MiB"

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jv {
    jtype t;
    char *text;             /* number (as written), string (decoded), "true"/"false" */
    int   n;                /* items of an array or object */
    char **keys;            /* objects: n keys, in file order */
    struct jv *items;
} jv;

/* Parse text[0..len) (text[len] must be 0) into *out.  On failure *out is
** empty and `why` holds "line N: what is wrong". */
bool jsonr_parse(const char *text, size_t len, jv *out, char *why, size_t nwhy);
void jv_free(jv *v);

/* The first member `key` of an object; NULL if absent or not an object. */
const jv *jv_get(const jv *o, const char *key);
/* Member `key` as a whole number in [lo, hi]; false if absent, not a whole
** number, or out of range (nothing is written to *out then). */
bool jv_int(const jv *o, const char *key, long lo, long hi, long *out);
/* An item's number text as a whole number in [lo, hi]. */
bool jv_as_int(const jv *v, long lo, long hi, long *out);
/* Member `key` as a string that fits in out[n]; false if absent, not a
** string, or too long. */
bool jv_str(const jv *o, const char *key, char *out, size_t n);

/* Length of the JSON number at the start of s (0 if none): the grammar
** exactly, so "1." or "01" are not numbers. */
size_t json_number_len(const char *s);

#endif
