/*
** svg_export.h — `E` in the terminal front end: the current view as an SVG
** picture for slides (src/svg.h), or the A/B pair when the comparison is
** shown.  Written to --out DIR, else the current folder (never beside
** the scenario: it may be a file shipped in examples/); when --out
** cannot be written, to the current folder, said so.  The app (app_export_svg)
** says which runs and which window; this file knows no app.
*/
#ifndef FUSYNC_UI_SVG_EXPORT_H
#define FUSYNC_UI_SVG_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "svg.h"

typedef struct {
    const char    *scenario;    /* its name names the file (NULL: "fusync") */
    const char    *out_dir;     /* --out DIR, or NULL */
    const svg_run *runs;
    int            nruns;
    const svg_view *view;
    bool           pair;        /* the A/B pair: NAME.ab.svg */
    bool           done;        /* every run drawn is over */
} svg_export_job;

/* Write the picture.  True when a file was written: its path in `path`
** (size n) and the message bar's line in `msg` (size mn); false with the
** error in `msg` and "" in `path`. */
bool svg_export_write(const svg_export_job *j, char *path, size_t n, char *msg, size_t mn);

#endif
