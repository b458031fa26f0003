/*
** lesson.h — guided lessons (docs/lessons.md): a Lua file, run in the same
** sandbox and with the same budgets as plugins (plugin.h), that returns
**
**   { title = "...", scenario = "../examples/x.lua", steps = { step, ... } }
**
** where each step may load a scenario, drop or set what-ifs, snapshot the
** plan as A or B, play to a moment, show or hide the comparison, focus a
** pane, highlight a timeline row (and the cell at a time), and shows a
** caption — a string, or a function of the run's figures — then waits for a
** key.  A step's `check`, a function of the same figures, states what the
** lesson claims; the front end says so when a claim does not hold, and the
** tests fail.
**
** This module reads the file and calls its functions; ui/lesson.c plays it.
*/
#ifndef FUSYNC_LESSON_H
#define FUSYNC_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include "report.h"
#include "util.h"

#define LESSON_STEPS_MAX 48
#define LESSON_SETS_MAX 16

typedef enum { LPLAY_NONE, LPLAY_TIME, LPLAY_STEP, LPLAY_END } lesson_play;

typedef struct {
    char        scenario[1024];     /* resolved against the lesson's folder; "" none */
    bool        reset;              /* drop every what-if first */
    int         nsets;
    char        sets[LESSON_SETS_MAX][2][96];   /* path, value (in the order given) */
    int         snapshot;           /* -1 none, 0 A, 1 B */
    int         compare;            /* -1 as it is, 0 hide, 1 show */
    lesson_play play;
    double      play_value;         /* seconds (LPLAY_TIME) or steps done (LPLAY_STEP) */
    char        pane[16];           /* "timeline", "memory", ... or "" */
    char        row[64];            /* a timeline row whose label holds this, or "" */
    bool        has_at;
    double      at;                 /* seconds: the time cursor (and the highlighted cell) */
    char        caption[1024];      /* when not a function */
    bool        caption_fn, check_fn;
} lesson_step;

/* The figures a caption or a check function receives (docs/lessons.md). */
typedef struct {
    double time_s;
    int    step, steps;             /* steps done, steps in the run */
    const report *run;              /* the live run, as far as it has run */
    const report *a, *b;            /* the snapshots once finished, else NULL */
    int    npools;
    struct { char name[64]; int devices; double busy, compute; } pools[8];
} lesson_figs;

typedef struct lesson lesson;

/* Open and read a lesson file; NULL with err (code 2, FILE and field named). */
lesson *lesson_open(const char *path, fs_err *err);
void    lesson_close(lesson *l);
const char *lesson_title(const lesson *l);
const char *lesson_scenario(const lesson *l);   /* resolved */
int     lesson_nsteps(const lesson *l);
const lesson_step *lesson_step_at(const lesson *l, int i);

/* The caption of step i into out: its text, or what its function returns. */
bool lesson_caption(lesson *l, int i, const lesson_figs *f, char *out, size_t n, fs_err *err);
/* Run step i's check: true with *holds and why (the function's second result,
** or "") filled; a step without check holds. */
bool lesson_check(lesson *l, int i, const lesson_figs *f, bool *holds, char *why, size_t n, fs_err *err);

#endif
