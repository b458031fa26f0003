/*
** style.h — how the engine's categories look on screen: one letter per
** phase, step phase and memory bucket (so the panes read without color),
** plus short labels for legends.
*/
#ifndef FUSYNC_UI_STYLE_H
#define FUSYNC_UI_STYLE_H

#include "canvas.h"
#include "trace.h"

char        style_phase_letter(trace_phase p);
char        style_step_letter(trace_step_phase p);
char        style_bucket_letter(mem_bucket b);
const char *style_bucket_short(mem_bucket b);
static inline int style_phase(trace_phase p) { return ST_PHASE0 + (int)p; }
static inline int style_step(trace_step_phase p) { return ST_STEP0 + (int)p; }
static inline int style_bucket(mem_bucket b) { return ST_BUCKET0 + (int)b; }

/* Compact time for axes and labels: "0", "250ms", "12.5s", "41s", "3m20s". */
void style_fmt_time(char *out, size_t n, sim_time t);

#endif
