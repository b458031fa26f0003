/*
** dist.h — the seeded random generator and length distributions.
** Generator: xoshiro256** (Blackman & Vigna, 2018) seeded through
** splitmix64; normals by the Box–Muller transform.  Same seed, same lengths.
*/
#ifndef FUSYNC_DIST_H
#define FUSYNC_DIST_H

#include <stdint.h>
#include "scenario.h"

typedef struct { uint64_t s[4]; } rng_state;

void     rng_seed(rng_state *r, uint64_t seed);
uint64_t rng_next(rng_state *r);
double   rng_uniform(rng_state *r);     /* [0, 1) with 53 bits */
double   rng_normal(rng_state *r);

/* One length in tokens (>= 1), clipped to the distribution's cap and to
** `hard_cap` when positive. */
int dist_sample(const scn_dist *d, rng_state *r, int hard_cap);
/* The same draw with the distribution scaled by `scale` before the caps
** (scale 1 is dist_sample exactly). */
int dist_sample_scaled(const scn_dist *d, rng_state *r, int hard_cap, double scale);
/* n such draws in a row into out[0..n-1]: the same values, one call. */
void dist_sample_scaled_n(const scn_dist *d, rng_state *r, int hard_cap, double scale, int *out, int n);
/* Mean of the distribution (numerically, before hard caps): for docs/check. */
double dist_mean(const scn_dist *d, int hard_cap);

#endif
