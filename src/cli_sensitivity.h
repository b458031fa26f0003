/*
** cli_sensitivity.h — the step rule of `fusync sensitivity` (docs/cli.md,
** "Sensitivity"): how far one input moves, kept apart from the command so
** the rule can be tested without simulating.
*/
#ifndef FUSYNC_CLI_SENSITIVITY_H
#define FUSYNC_CLI_SENSITIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include "fields.h"

/* The value of numeric field f (FK_NUM or FK_INT) `dir` steps (-1 down,
** +1 up) from `base` (in the file's unit), with `step` the relative step
** (0.1: ±10%):
**   - a number moves by step·|base|; one whose base is 0 by step·min(1, width
**     of its range), in its own unit;
**   - an integer moves by step·|base| rounded, at least 1; try k > 0 goes k
**     whole values further the same way (the next value, when the ones before
**     it were refused); numbers have only try 0;
**   - try 0 is clamped to the field's range, a later try never leaves it.
** Writes the value as it is set (%.6g; integers whole) to text and the
** number that text stands for to *value.  False when there is no such value:
** it would not move (the base sits at the range's end) or leaves the range. */
bool sens_step_value(const fdesc *f, double base, double step, int dir, int k, char *text, size_t n, double *value);

/* Elasticity of y in x about (x0, y0): the relative change of y over the
** relative change of x, from the central difference when both sides are
** given (have_dn, have_up), else from the one given.  NaN when neither is,
** when x0 or y0 is 0, or when the x values do not differ. */
double sens_elasticity(double x0, double y0, bool have_dn, double xd, double yd, bool have_up, double xu, double yu);

#endif
