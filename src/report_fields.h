/*
** report_fields.h — the one description of the report: every figure a run
** reports, with its key in the JSON report, in a plugin's report table and
** as a sweep/plan column, its unit and a line of documentation.  The JSON
** writer (report.c), the plugin report (plugin.c), the sweep and plan tables
** (rtable.c) and docs/cli.md's report table all walk this table, so a new
** figure is one row of src/report_fields.c: the row names its source (a
** member of the report, the engine's counters included, or a function
** deriving it) and the getter the row's readers call is made from it.
*/
#ifndef FUSYNC_REPORT_FIELDS_H
#define FUSYNC_REPORT_FIELDS_H

#include "report.h"

typedef enum {
    RV_NUM, RV_INT, RV_BOOL, RV_STR,
    RV_NAMED,       /* an object of named numbers (phases, pools, buckets) */
    RV_CUSTOM       /* written by its own JSON writer only */
} rvkind;

typedef struct rfield {
    const char *json;       /* path in the JSON report ("staleness.bound"); NULL: not there */
    const char *plugin;     /* key in a plugin's report table; NULL: not there */
    const char *column;     /* sweep/plan column; RV_NAMED: a pattern with %s; NULL: none */
    /* the column this one follows; NULL: the columns come in row order */
    const char *column_after;
    const char *unit;
    const char *doc;
    rvkind      kind;
    double      (*num)(const report *r);
    const char *(*str)(const report *r);
    bool        (*present)(const report *r);    /* NULL: always */
    /* RV_NAMED: item i's name and value; false past the last */
    bool        (*item)(const report *r, int i, const char **name, double *v);
    /* RV_CUSTOM: write the value under `key` */
    void        (*json_write)(const report *r, fs_json *j, const char *key);
} rfield;

extern const rfield REPORT_FIELDS[];
extern const int    REPORT_NFIELDS;

/* The JSON report's members, in the table's order, nested by path. */
void report_fields_json(const report *r, fs_json *j);
/* The sweep/plan columns in their order, with one report's values: calls
** put(ud, column, kind, number, text) for each (r NULL: names only, for
** the header).  RV_INT/RV_BOOL/RV_NUM carry the number, RV_STR the text.
** The order is the rows' order, save that a row with column_after comes
** after that column: each column is followed by the rows placed after it,
** in row order, each with the rows placed after it in turn. */
void report_fields_columns(const report *r,
                           void (*put)(void *ud, const char *col, rvkind k, double v, const char *s),
                           void *ud);
/* docs/cli.md's table of the JSON report. */
void report_fields_describe(fs_buf *out);

#endif
