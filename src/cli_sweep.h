/*
** cli_sweep.h — result tables shared by `fusync sweep`, `fusync plan` and
** `fusync merge`: rows of text cells, their CSV and JSON forms, a reader for
** the JSON form (shard files, worker pipes), a fork-based worker pool and
** the shard metadata that lets merge refuse an incomplete set.
**
** Every cell is kept as the text it is printed as, so a table read back
** from JSON prints byte-identical CSV and JSON.
*/
#ifndef FUSYNC_CLI_SWEEP_H
#define FUSYNC_CLI_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include "cli.h"
#include "report.h"
#include "util.h"

typedef enum { CELL_NONE, CELL_NUM, CELL_STR, CELL_BOOL } cell_kind;

typedef struct {
    cell_kind k;
    char     *text;         /* malloc'd; NULL for CELL_NONE */
} cell;

typedef struct {
    int   id;               /* variant or candidate number, 0-based */
    cell *c;                /* one per column */
} row;

typedef struct {
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
    /* shard (shard_n 0: a whole run) */
    int    shard_i, shard_n;
    int    ncols;
    char **cols;
    int    nrows, caprows;
    row   *rows;
} rtable;

void rtable_init(rtable *t, const char *kind);
void rtable_free(rtable *t);
void rtable_add_col(rtable *t, const char *name);
int  rtable_col(const rtable *t, const char *name);     /* -1 if absent */
row *rtable_new_row(rtable *t, int id);                 /* cells NONE */
void row_set_num(row *r, int col, double v);
void row_set_int(row *r, int col, long long v);
void row_set_str(row *r, int col, const char *s);
void row_set_bool(row *r, int col, bool v);
/* A --set value: a number, true/false or a string, as typed. */
void row_set_value(row *r, int col, const char *text);
double row_num(const row *r, int col);                  /* NaN if not a number */

void rtable_csv(const rtable *t, fs_buf *out);
void rtable_json(const rtable *t, fs_buf *out);
/* One row as a single-line JSON object (worker pipes). */
void row_json(const rtable *t, const row *r, fs_buf *out);
bool rtable_read_json(rtable *t, const char *text, const char *file, fs_err *err);
bool row_read_json(rtable *t, const char *text, fs_err *err);   /* appends */

/* The metrics of a report as columns (add), and as cells of a row (fill). */
void metrics_add_cols(rtable *t);
void metrics_fill(const rtable *t, row *r, const report *rep);

/* FNV-1a 64 of a file's bytes into h (missing file: its name). */
uint64_t hash_file(uint64_t h, const char *path);
uint64_t hash_str(uint64_t h, const char *s);

/* Run fn for items 0..n-1 (the caller's indices) on `jobs` forked workers;
** rows come back over pipes and are appended to t in item order.  fn fills
** one row of t (rtable_new_row) for item i.  With a progress label, draws
** a bar on stderr.  Returns false on interrupt (err code 130) or a worker
** failure. */
typedef bool (*pool_fn)(void *ud, rtable *t, int item, fs_err *err);
bool pool_run(rtable *t, int n, int jobs, pool_fn fn, void *ud, const char *progress, fs_err *err);

/* SIGINT/SIGTERM set a flag while a sweep or plan runs (restored after). */
void sweep_signals(bool on);
bool sweep_interrupted(void);

/* Write CSV/JSON outputs named in the options. */
int  write_outputs(const cli_opts *o, const rtable *t, bool csv);

/* Plan tables: sort best first and print the top-K text (cli_plan.c). */
void plan_sort(rtable *t);
void plan_print(const rtable *t, int top, FILE *f);

#endif
