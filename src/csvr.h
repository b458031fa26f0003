/*
** csvr.h — CSV as RFC 4180 has it (quoted cells holding commas, quotes and
** line breaks), through Debian's libcsv, with the physical line each row
** starts on for messages.  The one CSV reader of measured files
** (calibrate_read.c) and length files (lengths.c).
*/
#ifndef FUSYNC_CSVR_H
#define FUSYNC_CSVR_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

/* A cell: its bytes (NUL-terminated, len of them, quotes removed, blanks
** around it kept), its column (0-based) and the line its row starts on
** (1-based).  A row end: the number of cells and the row's line.  Either
** returns false to stop, with err set. */
typedef bool (*csvr_cell_fn)(const char *cell, size_t len, int col, int line, void *ud, fs_err *err);
typedef bool (*csvr_row_fn)(int ncells, int line, void *ud, fs_err *err);

/* Skip lines that start with '#' between rows (the CSV fusync writes opens
** with its version and scenario as such lines: docs/cli.md, "What made a
** file"); a line inside a quoted cell is the cell's, '#' or not. */
#define CSVR_COMMENTS 1

/* Parse len bytes of text (from `name`, for messages).  Empty lines are not
** rows.  False with err (code 2, naming name and the line) when libcsv
** cannot read it or a callback stops. */
bool csvr_parse(const char *text, size_t len, const char *name, int flags, csvr_cell_fn cell, csvr_row_fn row,
                void *ud, fs_err *err);

#endif
