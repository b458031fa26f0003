/*
** workers.h — a pool of forked workers that fill the rows of a result table
** (sweep variants, plan candidates), and the stop flag that SIGINT/SIGTERM
** set while such a pool runs.
**
** Rows come back over pipes as rt_row_json lines and are appended to the table
** in item order, so the table is the same bytes whatever --jobs is.
*/
#ifndef FUSYNC_WORKERS_H
#define FUSYNC_WORKERS_H

#include <stdbool.h>
#include "rtable.h"

/* Fill one row of t (rtable_new_row) for item i, or none.  A false return
** stops the pool with err. */
typedef bool (*workers_fn)(void *ud, rtable *t, int item, fs_err *err);

/* Run fn for items 0..n-1 on `jobs` forked workers (in this process when
** jobs <= 1).  With a progress label, draws a bar on stderr when it is a
** terminal.  False on interrupt (err code 130) or a worker failure. */
bool workers_run(rtable *t, int n, int jobs, workers_fn fn, void *ud, const char *progress, fs_err *err);

/* SIGINT/SIGTERM set a flag while a sweep or plan runs (restored after). */
void workers_signals(bool on);
bool workers_interrupted(void);

#endif
