/*
** svg.h — pictures for slides: a run's timeline (one row per device group,
** spans coloured by phase), its legend and time axis, and the memory
** buckets of each device group at that group's peak, as one SVG 1.1 file a
** browser opens.  Two or more runs (an A/B pair) are drawn one above the
** other on one time axis.  Read from the trace alone (trace.h); used by
** `fusync run --svg FILE` and the terminal front end's `E` (docs/cli.md,
** docs/tui.md).
**
** The file's groups, for whoever post-processes it: <g class="run"> per
** run, holding <g class="timeline"> with a <g class="row"> per row
** (data-track, data-label), <g class="axis">, <g class="legend">,
** <g class="memory"> and, for a run that failed, <g class="banner">.
*/
#ifndef FUSYNC_SVG_H
#define FUSYNC_SVG_H

#include <stdbool.h>
#include "engine.h"
#include "util.h"

typedef struct {
    const sim  *s;
    const char *label;      /* "A: plan.mode=colocate", or NULL */
    const char *why;        /* why the run is infeasible (the report's), or NULL */
} svg_run;

typedef struct {
    sim_time t0, t1;        /* the time window; t1 <= t0: the whole run */
    int      width;         /* pixels; 0: 1200 */
    int      tracks_per_pool;   /* rows listed under a pool; 0: 24 */
} svg_view;

/* Append the picture of `runs` to b. */
void svg_render(fs_buf *b, const svg_run *runs, int nruns, const svg_view *v);
/* Render and write it whole (a temporary file renamed), or fill err. */
bool svg_write(const char *path, const svg_run *runs, int nruns, const svg_view *v, fs_err *err);

#endif
