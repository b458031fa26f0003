/*
** shard.h — reading the shard files of a sweep or plan (`--shard I/N
** --json FILE`) and checking that a set of them is one whole run, for
** `fusync merge` (docs/cli.md).
**
** Shard files come from other machines and job arrays, so nothing in one is
** trusted: a file must be a regular file of at most SHARD_FILE_MAX bytes
** without a NUL byte; its shard index and count are range-checked before
** anything is sized by them; it must hold exactly the rows of its share,
** each once.  Every refusal is an fs_err of code 2 naming the file.
*/
#ifndef FUSYNC_SHARD_H
#define FUSYNC_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include "rtable.h"

#define SHARD_FILE_MAX (256L << 20)     /* bytes */

/* Parse and check the text of one shard: text[0..len), text[len] == 0.
** `name` is the file's name in messages.  On failure t is to be freed. */
bool shard_parse(const char *text, size_t len, const char *name, rtable *t, fs_err *err);
/* Read the file and shard_parse it. */
bool shard_load(const char *path, rtable *t, fs_err *err);

/* Are the n tables the shards of one run, each once, none missing?
** names[i] is sh[i]'s file. */
bool shard_check_set(const rtable *sh, int n, char *const *names, fs_err *err);

/* The whole table of a checked set: its rows in id order (a plan's ranking
** is the caller's).  The shards' rows are moved out. */
void shard_join(rtable *sh, int n, rtable *out);

#endif
