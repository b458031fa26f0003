/*
** test_engsort.c — the engine's key sorts (src/eng_sort.c: eng_sort_u64, a
** radix sort; eng_place_hi, a placement by the keys' high halves) give
** qsort's order on random and adversarial keys: keys alike in all but one
** bit, in their low or high bits only, sorted, reversed, repeated, lists
** either side of the radix digit's switch from 8 to 11 bits; and the
** placement declines, leaving the keys as they were, when the high halves
** repeat or span more than its slots and their bitmap hold (docs/architecture.md, "The event
** loop's costs").  The tournament that spreads a step's sequences over more
** than 48 data-parallel replicas (src/eng_mb.c: eng_lpt_tree; tried here
** from 2) makes the choices of a plain scan for the least loaded, lowest
** index among equals, and ends holding every replica's load once.
*/
#include "testutil.h"
#include "engine_int.h"

#include <stdlib.h>
#include <string.h>

static int cmp_key(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* xorshift64*: a fixed stream, so a failure repeats */
static uint64_t rnd(uint64_t *st)
{
    *st ^= *st >> 12;
    *st ^= *st << 25;
    *st ^= *st >> 27;
    return *st * 2685821657736338717ULL;
}

/* eng_sort_u64 on k[0..n) equals qsort's result */
static void check_radix(const uint64_t *k, int64_t n, const char *what)
{
    uint64_t *a = malloc((size_t)(n ? n : 1) * sizeof *a), *b = malloc((size_t)(n ? n : 1) * sizeof *b);
    uint64_t *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp);
    memcpy(a, k, (size_t)n * sizeof *a);
    memcpy(b, k, (size_t)n * sizeof *b);
    qsort(b, (size_t)n, sizeof *b, cmp_key);
    eng_sort_u64(a, n, tmp);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(a[i] == b[i], "%s, n %lld: key %lld is %llx, qsort's %llx", what, (long long)n,
                      (long long)i, (unsigned long long)a[i], (unsigned long long)b[i]);
    free(a);
    free(b);
    free(tmp);
}

static const int64_t sizes[] = {0, 1, 2, 3, 7, 64, 255, 256, 2047, 2048, 2049, 6144};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

START_TEST(t_radix_random)
{
    uint64_t st = 0x9e3779b97f4a7c15ULL;
    uint64_t *k = malloc(6144 * sizeof *k);
    for (int z = 0; z < NSIZES; z++) {
        const int64_t n = sizes[z];
        for (int64_t i = 0; i < n; i++) k[i] = rnd(&st);
        check_radix(k, n, "random 64-bit");
        for (int64_t i = 0; i < n; i++) k[i] = rnd(&st) % 5;            /* repeats */
        check_radix(k, n, "values 0..4");
        /* the shape of take_samples' keys: a few versions above 17-bit ids */
        for (int64_t i = 0; i < n; i++) k[i] = (rnd(&st) % 3) << 17 | (rnd(&st) & 0x1ffff);
        check_radix(k, n, "version above id");
        /* and of eviction's: an age above a 32-bit id */
        for (int64_t i = 0; i < n; i++) k[i] = (rnd(&st) % 800) << 32 | (uint32_t)rnd(&st);
        check_radix(k, n, "age above id");
    }
    free(k);
}
END_TEST

START_TEST(t_radix_adversarial)
{
    uint64_t st = 12345;
    uint64_t *k = malloc(6144 * sizeof *k);
    for (int z = 0; z < NSIZES; z++) {
        const int64_t n = sizes[z];
        for (int bit = 0; bit < 64; bit += 9) {                         /* alike but for one bit */
            for (int64_t i = 0; i < n; i++) k[i] = 0x5555555555555555ULL ^ ((rnd(&st) & 1) << bit);
            check_radix(k, n, "one bit differs");
        }
        for (int64_t i = 0; i < n; i++) k[i] = (rnd(&st) & 1) << 63 | 1;   /* the top bit only */
        check_radix(k, n, "top bit");
        for (int64_t i = 0; i < n; i++) k[i] = rnd(&st) << 40;           /* low bits all zero */
        check_radix(k, n, "high bits");
        for (int64_t i = 0; i < n; i++) k[i] = UINT64_MAX - (uint64_t)(rnd(&st) & 0x3ff);
        check_radix(k, n, "near the top");
        for (int64_t i = 0; i < n; i++) k[i] = (uint64_t)i * 0x100000001ULL;          /* sorted */
        check_radix(k, n, "sorted");
        for (int64_t i = 0; i < n; i++) k[i] = (uint64_t)(n - i) * 0x10000000001ULL;  /* reversed */
        check_radix(k, n, "reversed");
        for (int64_t i = 0; i < n; i++) k[i] = 42;
        check_radix(k, n, "all equal");
        for (int64_t i = 0; i < n; i++) k[i] = i & 1 ? UINT64_MAX : 0;
        check_radix(k, n, "both ends");
    }
    free(k);
}
END_TEST

/* eng_place_hi: qsort's order when it accepts; when it declines, the keys
** as they were */
static bool check_place(const uint64_t *k, int64_t n, int64_t nslots, const char *what)
{
    uint64_t *a = malloc((size_t)(n ? n : 1) * sizeof *a), *b = malloc((size_t)(n ? n : 1) * sizeof *b);
    uint64_t *slots = malloc((size_t)(nslots ? nslots : 1) * sizeof *slots);
    memcpy(a, k, (size_t)n * sizeof *a);
    memcpy(b, k, (size_t)n * sizeof *b);
    const bool ok = eng_place_hi(a, n, slots, nslots);
    if (ok) qsort(b, (size_t)n, sizeof *b, cmp_key);
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(a[i] == b[i], "%s (%s), n %lld: key %lld is %llx, expected %llx", what,
                      ok ? "placed" : "declined", (long long)n, (long long)i, (unsigned long long)a[i],
                      (unsigned long long)b[i]);
    free(a);
    free(b);
    free(slots);
    return ok;
}

/* n distinct high halves from base + a shuffled subset of 0..span-1 */
static void distinct_hi(uint64_t *k, int64_t n, int64_t span, uint32_t base, uint64_t *st)
{
    uint32_t *p = malloc((size_t)span * sizeof *p);
    for (int64_t j = 0; j < span; j++) p[j] = (uint32_t)j;
    for (int64_t j = span - 1; j > 0; j--) {
        const int64_t r = (int64_t)(rnd(st) % (uint64_t)(j + 1));
        const uint32_t t = p[j]; p[j] = p[r]; p[r] = t;
    }
    for (int64_t i = 0; i < n; i++) k[i] = (uint64_t)(base + p[i]) << 32 | (uint32_t)rnd(st);
    free(p);
}

/* the slots a span of values needs, its bitmap included */
static int64_t slots_for(int64_t span) { return span + (span + 63) / 64; }

START_TEST(t_place)
{
    uint64_t st = 777;
    uint64_t *k = malloc(6144 * sizeof *k);
    for (int z = 0; z < NSIZES; z++) {
        const int64_t n = sizes[z];
        if (n == 0) continue;
        distinct_hi(k, n, 3 * n, 1000, &st);
        ck_assert(check_place(k, n, 4 * n + 64, "ages of eviction's shape") || n < 2);
        distinct_hi(k, n, n, 0, &st);                                   /* every slot used */
        ck_assert(check_place(k, n, slots_for(n), "dense from 0") || n < 2);
        distinct_hi(k, n, n + 5, UINT32_MAX - (uint32_t)(n + 4), &st);  /* up to the top value */
        int64_t top = 0;                                                /* and one key all ones */
        for (int64_t i = 0; i < n; i++) if (k[i] >> 32 == UINT32_MAX) top = i;
        k[top] = UINT64_MAX;
        ck_assert(check_place(k, n, slots_for(n + 5), "high halves at the top") || n < 2);
        if (n < 2) continue;
        for (int64_t i = 0; i < n; i++) k[i] = (uint64_t)(7 + 4 * (n - 1 - i)) << 32 | (uint32_t)rnd(&st);
        ck_assert(!check_place(k, n, 2 * n, "span over the slots"));   /* 4n - 3 values */
        ck_assert(!check_place(k, n, 4 * n - 3, "no room for the bitmap"));
        ck_assert(check_place(k, n, slots_for(4 * n - 3), "room for both"));
        distinct_hi(k, n, 3 * n, 7, &st);
        k[n - 1] = (k[0] & 0xffffffff00000000ULL) | 3;                  /* a repeated age */
        ck_assert(!check_place(k, n, 4 * n + 64, "repeated high half"));
    }
    free(k);
}
END_TEST

static int cmp_u32_desc(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x < y) - (x > y);
}

/* eng_lpt_tree against a scan of every replica at every turn */
static void check_lpt(const uint32_t *len, int n, int dp, const char *what)
{
    int rbits = 0;
    while ((1 << rbits) < dp) rbits++;
    uint64_t *t = malloc(2 * (size_t)dp * sizeof *t), *load = calloc((size_t)dp, sizeof *load);
    int *owner = malloc((size_t)(n ? n : 1) * sizeof *owner), *rc = malloc((size_t)dp * sizeof *rc);
    int *want_rc = calloc((size_t)dp, sizeof *want_rc);
    const int L = eng_lpt_tree(t, dp, rbits, len, n, owner, rc);
    ck_assert_msg(L >= dp && L < 2 * dp + (dp == 1) && (L & (L - 1)) == 0, "%s, dp %d: %d leaves", what, dp, L);
    for (int i = 0; i < n; i++) {
        int best = 0;
        for (int r = 1; r < dp; r++) if (load[r] < load[best]) best = r;   /* the first of the least */
        ck_assert_msg(owner[i] == best, "%s, dp %d, n %d: sequence %d (length %u) went to replica %d, the least loaded is %d",
                      what, dp, n, i, len[i], owner[i], best);
        load[best] += len[i];
        want_rc[best]++;
    }
    int pads = 0;
    for (int r = 0; r < dp; r++) ck_assert_msg(rc[r] == want_rc[r], "%s, dp %d: replica %d took %d, not %d", what, dp, r, rc[r], want_rc[r]);
    for (int k = 0; k < L; k++) {
        if (t[k] == UINT64_MAX) { pads++; continue; }
        const int r = (int)(t[k] & ((UINT64_C(1) << rbits) - 1));
        ck_assert_msg(r < dp && t[k] >> rbits == load[r], "%s, dp %d: slot %d holds %llx, replica %d's load is %llu",
                      what, dp, k, (unsigned long long)t[k], r, (unsigned long long)load[r < dp ? r : 0]);
        load[r] = UINT64_MAX;   /* each replica once */
    }
    ck_assert_msg(pads == L - dp, "%s, dp %d: %d padding slots of %d", what, dp, pads, L - dp);
    free(t);
    free(load);
    free(owner);
    free(rc);
    free(want_rc);
}

START_TEST(t_lpt_tree)
{
    static const int dps[] = {2, 3, 4, 5, 7, 8, 9, 12, 31, 32, 33, 64, 96, 127, 128, 129, 256, 257, 300, 600};
    uint64_t st = 0x2545f4914f6cdd1dULL;
    enum { NMAX = 4000 };
    uint32_t *len = malloc(NMAX * sizeof *len);
    for (size_t z = 0; z < sizeof dps / sizeof dps[0]; z++) {
        const int dp = dps[z];
        const int ns[] = {0, 1, dp - 1, dp, dp + 1, 5 * dp + 3, NMAX};
        for (size_t y = 0; y < sizeof ns / sizeof ns[0]; y++) {
            const int n = ns[y] < NMAX ? ns[y] : NMAX;
            for (int i = 0; i < n; i++) len[i] = 1 + (uint32_t)(rnd(&st) % 32768);
            qsort(len, (size_t)n, sizeof *len, cmp_u32_desc);           /* longest first, as the engine */
            check_lpt(len, n, dp, "sorted lengths");
            for (int i = 0; i < n; i++) len[i] = 1 + (uint32_t)(rnd(&st) % 32768);
            check_lpt(len, n, dp, "unsorted lengths");
            for (int i = 0; i < n; i++) len[i] = 1 + (uint32_t)(rnd(&st) % 3);     /* many equal loads */
            qsort(len, (size_t)n, sizeof *len, cmp_u32_desc);
            check_lpt(len, n, dp, "lengths 1 to 3");
            for (int i = 0; i < n; i++) len[i] = 4096;
            check_lpt(len, n, dp, "equal lengths");
        }
    }
    free(len);
}
END_TEST

static Suite *suite_engsort(void)
{
    Suite *s = suite_create("engsort");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, t_radix_random);
    tcase_add_test(tc, t_radix_adversarial);
    tcase_add_test(tc, t_place);
    tcase_add_test(tc, t_lpt_tree);
    /* t_lpt_tree checks 560 layouts against a brute-force bound: a fixed
    ** amount of work, which a loaded or sanitized build takes longer over */
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_engsort)
