/*
** rtable.h — result tables of `fusync sweep`, `fusync plan` and `fusync
** merge`: rows of text cells, their CSV and JSON forms, the reader of that
** JSON (shard files, worker pipes) and the metrics of a report as columns.
**
** Names: rtable_* for the table, rt_row_* and rt_cell for its rows and cells,
** rt_metrics_* for the report's columns, rt_hash_* for the run hash.
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

typedef enum { RT_CELL_NONE, RT_CELL_NUM, RT_CELL_STR, RT_CELL_BOOL } rt_cell_kind;

typedef struct {
    rt_cell_kind k;
    char     *text;         /* malloc'd; NULL for RT_CELL_NONE */
} rt_cell;

typedef struct {
    int   id;               /* variant or candidate number, 0-based */
    rt_cell *c;                /* one per column */
} rt_row;

typedef struct rtable {
    char   kind[16];        /* "sweep" or "plan" */
    char   scenario[64];
    char   input[512];      /* what-if file (sweep), scenario file (plan) */
    char   hash[24];
    int    total;           /* work units of the whole run: variants, or
                            ** candidates simulated */
    /* plan */
    char   objective[32];
    char   framework[16];   /* plan --framework: each listed row's export command too ("": none) */
    double target;
    int    iterations, warmup;
    long   evaluated;       /* candidates considered */
    long   pruned;          /* of which did not fit (memory, layout) */
    long   estimated;       /* closed-form estimates computed */
    /* what made it: the fusync version and the resolved base scenario as
    ** report_scenario_json names it (compact JSON text; NULL none), as
    ** `fusync run --json` carries them; a merge keeps the shards' */
    char   version[32];
    char  *scenario_fields;
    /* shard (shard_n 0: a whole run) */
    int    shard_i, shard_n;
    int    ncols;
    char **cols;
    int    nrows, caprows;
    rt_row   *rows;
} rtable;

void rtable_init(rtable *t, const char *kind);
void rtable_free(rtable *t);
bool rtable_is_plan(const rtable *t);
void rtable_add_col(rtable *t, const char *name);
int  rtable_col(const rtable *t, const char *name);     /* -1 if absent */
rt_row *rtable_new_row(rtable *t, int id);                 /* cells NONE */
void rtable_drop_last(rtable *t);                       /* free the last row */
/* Append row k of src to dst (same columns); src's row is left empty. */
void rtable_move_row(rtable *dst, rtable *src, int k);
void rt_row_set_num(rt_row *r, int col, double v);
void rt_row_set_int(rt_row *r, int col, long long v);
void rt_row_set_str(rt_row *r, int col, const char *s);
void rt_row_set_bool(rt_row *r, int col, bool v);
/* A --set value: a number, true/false or a string, as typed. */
void rt_row_set_value(rt_row *r, int col, const char *text);
double rt_row_num(const rt_row *r, int col);                  /* NaN if not a number */
bool rt_row_true(const rt_row *r, int col);                   /* a true boolean cell */
const char *rt_row_text(const rt_row *r, int col);            /* "" if empty */

/* The version of this fusync and the resolved base scenario `sc` into t
** (rtable_json writes them as "fusync_version" and "scenario_fields"). */
void rtable_set_scenario(rtable *t, const scn_scenario *sc);
/* The same taken from another table (a shard). */
void rtable_copy_made(rtable *dst, const rtable *src);

/* CSV: what made it (report_csv_made: '#' lines with the version and
** the resolved scenario; this fusync's version when the table names none),
** the header, the rows. */
void rtable_csv(const rtable *t, fs_buf *out);
void rtable_json(const rtable *t, fs_buf *out);
/* One row as a single-line JSON object (worker pipes). */
void rt_row_json(const rtable *t, const rt_row *r, fs_buf *out);
/* Write the CSV and/or the JSON form ("-" is stdout); NULL skips one. */
bool rtable_write(const rtable *t, const char *csv_path, const char *json_path, fs_err *err);

/* Read a table's JSON form: text[0..len), text[len] == 0; `file` names it in
** errors ("FILE: broken: ...").  Shard metadata is range-checked (index in
** 1..count, count in 1..RTABLE_SHARDS_MAX, ids exactly the share); which
** rows a shard holds is shard.h's business. */
bool rtable_read_json(rtable *t, const char *text, size_t len, const char *file, fs_err *err);
/* One rt_row_json line, appended to t (its columns). */
bool rt_row_read_json(rtable *t, const char *text, fs_err *err);

/* The metrics of a report as columns (add), and as cells of a row (fill). */
void rt_metrics_add_cols(rtable *t);
void rt_metrics_fill(const rtable *t, rt_row *r, const report *rep);

/* FNV-1a 64 of a file's bytes into h (missing file: its name). */
uint64_t rt_hash_file(uint64_t h, const char *path);
uint64_t rt_hash_str(uint64_t h, const char *s);

#endif
