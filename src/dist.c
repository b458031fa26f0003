/*
** dist.c — xoshiro256** and length sampling.
*/
#include "dist.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng_state *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The generator's steps, inline for the draws below; the exported
** functions are these. */
static inline uint64_t next_u64(rng_state *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline double next_uniform(rng_state *r) { return (double)(next_u64(r) >> 11) * 0x1.0p-53; }

static inline double next_normal(rng_state *r)
{
    double u1 = next_uniform(r), u2 = next_uniform(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

uint64_t rng_next(rng_state *r) { return next_u64(r); }
double rng_uniform(rng_state *r) { return next_uniform(r); }
double rng_normal(rng_state *r) { return next_normal(r); }

int dist_sample(const scn_dist *d, rng_state *r, int hard_cap) { return dist_sample_scaled(d, r, hard_cap, 1.0); }

/* floor(x) for x >= 0 below 2^52 by truncation (the same value; floor is a
** library call at the build's instruction set), floor itself beyond. */
static inline double floor_nonneg(double x)
{
    return x >= 0 && x < 0x1p52 ? (double)(int64_t)x : floor(x);
}

/* A drawn value v onto a length: clipped to the distribution's cap,
** rounded to the nearest integer, clipped to hard_cap and to 1. */
static inline int dist_round(double v, double cap, int hard_cap)
{
    if (cap > 0 && v > cap) v = cap;
    v = floor_nonneg(v + 0.5);
    if (hard_cap > 0 && v > hard_cap) v = hard_cap;
    if (v < 1) v = 1;
    return (int)v;
}

int dist_sample_scaled(const scn_dist *d, rng_state *r, int hard_cap, double scale)
{
    double v = 1;
    switch (d->kind) {
    case DIST_FIXED: v = d->a; break;
    case DIST_UNIFORM: v = d->a + floor_nonneg(rng_uniform(r) * (d->b - d->a + 1)); break;
    case DIST_LOGNORMAL: v = d->a * exp(d->b * rng_normal(r)); break;
    case DIST_HIST: {
        double tw = 0;
        for (int i = 0; i < d->nbins; i++) tw += d->weight[i];
        double u = rng_uniform(r) * tw, acc = 0;
        int bin = d->nbins - 1;
        for (int i = 0; i < d->nbins; i++) {
            acc += d->weight[i];
            if (u < acc) { bin = i; break; }
        }
        v = d->edge[bin] + rng_uniform(r) * (d->edge[bin + 1] - d->edge[bin]);
        break;
    }
    }
    v *= scale;
    return dist_round(v, d->cap, hard_cap);
}

void dist_sample_scaled_n(const scn_dist *d, rng_state *r, int hard_cap, double scale, int *out, int n)
{
    if (d->kind != DIST_LOGNORMAL) {
        for (int i = 0; i < n; i++) out[i] = dist_sample_scaled(d, r, hard_cap, scale);
        return;
    }
    /* the lognormal draw of dist_sample_scaled, operation for operation */
    const double a = d->a, b = d->b, cap = d->cap;
    for (int i = 0; i < n; i++) {
        double v = a * exp(b * next_normal(r));
        v *= scale;
        out[i] = dist_round(v, cap, hard_cap);
    }
}

double dist_mean(const scn_dist *d, int hard_cap)
{
    rng_state r;
    rng_seed(&r, 12345);
    double s = 0;
    const int n = 20000;
    for (int i = 0; i < n; i++) s += dist_sample(d, &r, hard_cap);
    return s / n;
}
