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
/* A step phase that is one trace phase (generate, switch = reshard, weight
** sync, train = 1F1B) has that phase's glyph and style, so the step row,
** the track rows and the legend agree; the rest have their own. */
int         style_step(trace_step_phase p);
/* The name a legend gives a glyph: the phase, or the step phase. */
const char *style_phase_label(trace_phase p);
const char *style_step_label(trace_step_phase p);
static inline int style_bucket(mem_bucket b) { return ST_BUCKET0 + (int)b; }

/* Compact time for axes and labels: "0", "250ms", "12.5s", "41s", "3m20s". */
void style_fmt_time(char *out, size_t n, sim_time t);
void style_fmt_secs(char *out, size_t n, double secs);
/* A round tick step (1, 2 or 5 x ms, s, min, h) for an axis of `cols`
** columns over `span`, ticks at least `min_gap` columns apart. */
sim_time style_tick_step(sim_time span, int cols, int min_gap);

#endif
