/*
** svg_export.h — `E` in the terminal front end: the current view as an SVG
** picture for slides (src/svg.h), or the A/B pair when the comparison is
** shown.  Written beside the scenario (or to --out DIR); where that folder
** cannot be written, to the current folder; the message bar says where.
*/
#ifndef FUSYNC_UI_SVG_EXPORT_H
#define FUSYNC_UI_SVG_EXPORT_H

#include "app.h"

/* Export and say so on the message bar; the path written goes to `out`
** (size n) when given, "" on failure.  True when a file was written. */
bool app_export_svg(tui_app *a, char *out, size_t n);

#endif
