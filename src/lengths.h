/*
** lengths.h — an empirical length distribution from a file a user exports
** from their own run: one length per line, or a CSV (RFC 4180, through
** csvr.c) whose column is named by the header or given by its number.  The lengths become a histogram of at most SCN_HIST_MAX bins with
** edges at the data's quantiles and weights equal to the share of lengths in
** each bin, so the distribution keeps the data's median, tail and mean.
*/
#ifndef FUSYNC_LENGTHS_H
#define FUSYNC_LENGTHS_H

#include <stdbool.h>
#include <stddef.h>
#include "scenario.h"
#include "util.h"

#define LENGTHS_FILE_MAX (64u << 20)    /* bytes a lengths file may have */
#define LENGTHS_MIN 2                   /* lengths a distribution needs */

/* Parse `text` (len bytes, from `file` for messages).  column: a CSV header
** name, a column's number from 1 ("2"; a header name that is a number wins),
** or NULL for the first column.  The first row is a header when its cell in
** that column is not a number; '#' lines between rows are skipped.  On
** error: false, err names the file, the line and what to do, never the
** file's text. */
bool lengths_parse(const char *text, size_t len, const char *file, const char *column, scn_dist *out,
                   fs_err *err);
/* Read `path` (a regular file) and parse it. */
bool lengths_read(const char *path, const char *column, scn_dist *out, fs_err *err);
/* The histogram of sorted positive lengths v[0..n). */
void lengths_histogram(const double *v, size_t n, scn_dist *out);

#endif
