/*
** eng_sort.c — the engine's two generic sorts of 64-bit keys: a radix sort
** and a placement by the keys' high halves.  They know nothing of samples
** or instances; the step (eng_step.c) and the admission of rollout
** instances (eng_gen.c) both sort their packed keys with them.
** tests/test_engsort.c checks both against qsort.
*/
#include "engine_int.h"

#include <stdint.h>
#include <string.h>

/* Sort n 64-bit keys ascending: LSD radix over the bits in which they
** differ (those above the highest and below the lowest such bit are alike
** in all), in passes of at most 11 bits (8 for a short list, where clearing
** and summing 2048 counters would cost more than the list) split evenly.
** A radix sort is stable and exact: with distinct keys its order is the
** only ascending one, qsort's included.  tmp holds n keys; the result is in
** k. */
void eng_sort_u64(uint64_t *k, int64_t n, uint64_t *tmp)
{
    if (n < 2) return;
    uint64_t diff = 0;
    for (int64_t i = 1; i < n; i++) diff |= k[i] ^ k[0];
    if (diff == 0) return;
    const int lo = __builtin_ctzll(diff), width = 64 - __builtin_clzll(diff) - lo;
    const int maxb = n < 2048 ? 8 : 11;
    const int np = (width + maxb - 1) / maxb, bits = (width + np - 1) / np;
    const uint64_t dm = (1ULL << bits) - 1;
    uint64_t *src = k, *dst = tmp;
    int64_t cnt[2048];
    for (int p = 0; p < np; p++) {
        const int shift = lo + p * bits;
        memset(cnt, 0, (size_t)(dm + 1) * sizeof cnt[0]);
        for (int64_t i = 0; i < n; i++) cnt[(src[i] >> shift) & dm]++;
        int64_t pos = 0;
        for (uint64_t b = 0; b <= dm; b++) { const int64_t c = cnt[b]; cnt[b] = pos; pos += c; }
        for (int64_t i = 0; i < n; i++) dst[cnt[(src[i] >> shift) & dm]++] = src[i];
        uint64_t *w = src;
        src = dst;
        dst = w;
    }
    if (src != k) memcpy(k, src, (size_t)n * sizeof *k);
}

/* Sort n keys ascending by placing each at the slot its high 32 bits name,
** counted from their least: when those are distinct, that is the keys'
** order, found in one pass over the keys and one over a bitmap of the
** slots taken (cleared a word for 64 slots; the slots themselves are not
** cleared, only those marked are read).  slots holds the bitmap, then the
** slots.  Returns false, k untouched, when the high halves repeat or span
** more values than nslots holds with their bitmap: the caller sorts
** otherwise. */
bool eng_place_hi(uint64_t *k, int64_t n, uint64_t *slots, int64_t nslots)
{
    if (n < 2) return true;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        const uint32_t h = (uint32_t)(k[i] >> 32);
        if (h < lo) lo = h;
        if (h > hi) hi = h;
    }
    const int64_t span = (int64_t)hi - lo + 1, nw = (span + 63) / 64;
    if (span > nslots - nw) return false;
    uint64_t *bits = slots, *val = slots + nw;
    memset(bits, 0, (size_t)nw * sizeof *bits);
    for (int64_t i = 0; i < n; i++) {
        const uint32_t j = (uint32_t)(k[i] >> 32) - lo;
        const uint64_t b = 1ULL << (j & 63);
        if (bits[j >> 6] & b) return false;
        bits[j >> 6] |= b;
        val[j] = k[i];
    }
    int64_t w = 0;
    for (int64_t q = 0; q < nw; q++)
        for (uint64_t m = bits[q]; m; m &= m - 1) k[w++] = val[q * 64 + __builtin_ctzll(m)];
    return true;
}
