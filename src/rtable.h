/*
** rtable.h — result tables of `fusync sweep`, `fusync plan` and `fusync
** merge`: rows of text cells, their CSV and JSON forms, the reader of that
** JSON (shard files, worker pipes) and the metrics of a report as columns.
**
** Every cell is kept as the text it is printed as, so a table read back
** from JSON prints byte-identical CSV and JSON (docs/cli.md, "Sharding").
*/
#ifndef FUSYNC_RTABLE_H
#define FUSYNC_RTABLE_H

#include <stdbool.h>
#include <stdint.h>
#include "report.h"
#include "util.h"

#define RTABLE_ROWS_MAX   100000000     /* row ids and `total` are below this */
#define RTABLE_SHARDS_MAX 100000        /* --shard I/N: N at most this */

typedef enum { CELL_NONE, CELL_NUM, CELL_STR, CELL_BOOL } cell_kind;

typedef struct {
    cell_kind k;
    char     *text;         /* malloc'd; NULL for CELL_NONE */
} cell;

typedef struct {
    int   id;               /* variant or candidate number, 0-based */
    cell *c;                /* one per column */
} row;

typedef struct rtable {
    char   kind[16];        /* "sweep" or "plan" */
    char   scenario[64];
    char   input[512];      /* what-if file (sweep), scenario file (plan) */
    char   hash[24];
    int    total;           /* work units of the whole run: variants, or
                            ** candidates simulated */
    /* plan */
    char   objective[32];
    double target;
    int    iterations, warmup;
    long   evaluated;       /* candidates considered */
    long   pruned;          /* of which did not fit (memory, layout) */
    long   estimated;       /* closed-form estimates computed */
    /* shard (shard_n 0: a whole run) */
    int    shard_i, shard_n;
    int    ncols;
    char **cols;
    int    nrows, caprows;
    row   *rows;
} rtable;

void rtable_init(rtable *t, const char *kind);
void rtable_free(rtable *t);
bool rtable_is_plan(const rtable *t);
void rtable_add_col(rtable *t, const char *name);
int  rtable_col(const rtable *t, const char *name);     /* -1 if absent */
row *rtable_new_row(rtable *t, int id);                 /* cells NONE */
void rtable_drop_last(rtable *t);                       /* free the last row */
/* Append row k of src to dst (same columns); src's row is left empty. */
void rtable_move_row(rtable *dst, rtable *src, int k);
void row_set_num(row *r, int col, double v);
void row_set_int(row *r, int col, long long v);
void row_set_str(row *r, int col, const char *s);
void row_set_bool(row *r, int col, bool v);
/* A --set value: a number, true/false or a string, as typed. */
void row_set_value(row *r, int col, const char *text);
double row_num(const row *r, int col);                  /* NaN if not a number */
bool row_true(const row *r, int col);                   /* a true boolean cell */
const char *row_text(const row *r, int col);            /* "" if empty */

void rtable_csv(const rtable *t, fs_buf *out);
void rtable_json(const rtable *t, fs_buf *out);
/* One row as a single-line JSON object (worker pipes). */
void row_json(const rtable *t, const row *r, fs_buf *out);
/* Write the CSV and/or the JSON form ("-" is stdout); NULL skips one. */
bool rtable_write(const rtable *t, const char *csv_path, const char *json_path, fs_err *err);

/* Read a table's JSON form: text[0..len), text[len] == 0; `file` names it in
** errors ("FILE: broken: ...").  Shard metadata is range-checked (index in
** 1..count, count in 1..RTABLE_SHARDS_MAX, ids exactly the share); which
** rows a shard holds is shard.h's business. */
bool rtable_read_json(rtable *t, const char *text, size_t len, const char *file, fs_err *err);
/* One row_json line, appended to t (its columns). */
bool row_read_json(rtable *t, const char *text, fs_err *err);

/* The metrics of a report as columns (add), and as cells of a row (fill). */
void metrics_add_cols(rtable *t);
void metrics_fill(const rtable *t, row *r, const report *rep);

/* FNV-1a 64 of a file's bytes into h (missing file: its name). */
uint64_t hash_file(uint64_t h, const char *path);
uint64_t hash_str(uint64_t h, const char *s);

#endif
