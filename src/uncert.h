/*
** uncert.h — an interval on a run's predicted throughput and step time
** (docs/model.md, section 12, "Intervals").
**
** Two sources, named in every report that shows one:
**   calibration  the scenario carries `calibration` (fusync calibrate --out
**                wrote it): UNC_DRAWS knob vectors are drawn from the fit's
**                covariance through its Cholesky factor, with a fixed seed,
**                each is simulated, and the interval is the 10th to 90th
**                percentile of the simulated figures, widened by the fit's
**                held-out error (calibration.held_out_error);
**   validation   otherwise: the 80th percentile q of the validation table's
**                predicted step-time |errors| (src/uncert_table.h, generated
**                from make validate's output), so the true step time lies in
**                [step / (1 + q), step / (1 - q)] for four rows in five of it.
** Nothing here prints.
*/
#ifndef FUSYNC_UNCERT_H
#define FUSYNC_UNCERT_H

#include <stdbool.h>
#include <stdint.h>
#include "report.h"
#include "scenario.h"

/* Knob vectors a calibrated run re-simulates, and their seed. */
#define UNC_DRAWS 16
#define UNC_SEED 0x756e6365727421ull
/* The percentiles of the simulated figures an interval spans. */
#define UNC_LO_PCT 0.10
#define UNC_HI_PCT 0.90

/* The draws' knob vector d (0 <= d < n) of a calibrated scenario: each
** fitted knob moved by its share of L·z (L the covariance's Cholesky factor,
** z seeded standard normals), clamped into its field's range.  False when
** the scenario has no calibration block. */
bool unc_draw(const scn_scenario *s, int d, scn_scenario *out);

/* The interval of a run whose report is `base`, from the validation table,
** into r (r->interval_*). */
void unc_from_validation(report *r);

/* The interval of the placed scenario `s` whose run gave r: by
** re-simulating `draws` knob vectors when s carries a calibration block,
** else from the validation table.  False with err when a draw's run fails
** (it is the scenario's own run with other efficiencies: it should not);
** an infeasible draw is left out and counted in r->interval_infeasible. */
bool unc_interval(const scn_scenario *s, int draws, report *r, fs_err *err);
/* The same, the draws run on `jobs` forked workers (workers.h; in this
** process when jobs <= 1): the same interval whatever `jobs` is. */
bool unc_interval_jobs(const scn_scenario *s, int draws, int jobs, report *r, fs_err *err);

/* The quantile p of n values (sorted in place; type 7, linear between
** order statistics). */
double unc_quantile(double *v, int n, double p);

#endif
