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

uint64_t rng_next(rng_state *r)
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

double rng_uniform(rng_state *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_normal(rng_state *r)
{
    double u1 = rng_uniform(r), u2 = rng_uniform(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

int dist_sample(const scn_dist *d, rng_state *r, int hard_cap) { return dist_sample_scaled(d, r, hard_cap, 1.0); }

int dist_sample_scaled(const scn_dist *d, rng_state *r, int hard_cap, double scale)
{
    double v = 1;
    switch (d->kind) {
    case DIST_FIXED: v = d->a; break;
    case DIST_UNIFORM: v = d->a + floor(rng_uniform(r) * (d->b - d->a + 1)); break;
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
    if (d->cap > 0 && v > d->cap) v = d->cap;
    v = floor(v + 0.5);
    if (hard_cap > 0 && v > hard_cap) v = hard_cap;
    if (v < 1) v = 1;
    return (int)v;
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
