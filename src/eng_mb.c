/*
** eng_mb.c — a step's samples cut into micro-batches for training and
** forward passes: their lengths sorted longest first, spread over the
** data-parallel replicas each to the least loaded (token balancing), and the
** most loaded replica, which the whole step waits for at the gradient
** reduction, cut into micro-batches (docs/model.md, section 7).  The tasks
** that use them are in eng_train.c.  A synchronous step's sets are worked
** out ahead, on the drawer's thread, from its batch's lengths as drawn
** (eng_mb_pre_fill; src/eng_draw.c; docs/performance.md, "Headless runs").
** Shared state and helpers: engine_int.h.
*/
#include "engine_int.h"

#include <math.h>
#include <string.h>

/* Sort lengths longest first: LSD radix on 32-bit keys (lengths are whole
** tokens), 11 bits a pass, or 8 for a short list, where clearing and
** summing 2048 counters would cost more than the list.  Equal lengths are
** equal values: any digit width gives the same sequence.  A digit's counts
** do not depend on the order, so one read counts every pass's digits, and
** the passes go back and forth between v and tmp. */
static void sort_lengths_desc(uint32_t *v, uint32_t *tmp, int n)
{
    uint32_t mx = 0;
    for (int i = 0; i < n; i++) if (v[i] > mx) mx = v[i];
    const int bits = n < 2048 ? 8 : 11;
    const uint32_t top = (1u << bits) - 1;
    int np = 0;                 /* passes: the digits mx has */
    while (np * bits < 32 && (mx >> (np * bits)) > 0) np++;
    if (np == 0) return;
    int cnt[4][2048];
    memset(cnt, 0, sizeof cnt[0] * (size_t)np);
    if (np == 1) {
        for (int i = 0; i < n; i++) cnt[0][top - (v[i] & top)]++;                  /* descending */
    } else if (np == 2) {
        for (int i = 0; i < n; i++) {
            cnt[0][top - (v[i] & top)]++;
            cnt[1][top - ((v[i] >> bits) & top)]++;
        }
    } else {
        for (int i = 0; i < n; i++)
            for (int p = 0; p < np; p++) cnt[p][top - ((v[i] >> (p * bits)) & top)]++;
    }
    uint32_t *src = v, *dst = tmp;
    for (int p = 0; p < np; p++) {
        int *c = cnt[p], pos = 0;
        for (uint32_t b = 0; b <= top; b++) { int k = c[b]; c[b] = pos; pos += k; }
        const int shift = p * bits;
        for (int i = 0; i < n; i++) dst[c[top - ((src[i] >> shift) & top)]++] = src[i];
        uint32_t *w = src;
        src = dst;
        dst = w;
    }
    if (src != v) memcpy(v, src, (size_t)n * sizeof *v);
}

/* A replica in the balancing heap: ordered by load, then index. */
typedef struct { double load; int r; } rep;

static inline bool rep_less(const rep *a, const rep *b)
{
    return a->load < b->load || (a->load == b->load && a->r < b->r);
}

/* Longest-processing-time spreading (eng_build_microbatches) on 64-bit keys,
** a replica's load above its index in rbits bits: each sequence, longest
** first, goes to the replica of the least key and adds its length to that
** load.  Keys are distinct, so the least is unique at every turn and any
** structure that finds it gives the same assignment.  Both below fill
** owner[i] (the replica of sequence i) and rc[r] (the sequences replica r
** took), the same assignment either way; which one runs (RING_SCAN_MAX)
** is a matter of speed only: a scan's moves grow with the replicas, the
** tree's turn with their logarithm (docs/performance.md has the figures
** behind the threshold). */

/* Few replicas (dp <= RING_SCAN_MAX): the keys kept sorted ascending in a
** window [lo, lo + dp) sliding up a ring of ring_slots(dp) slots (RING_SPAN
** a replica, RING_MIN at least, so that the window seldom moves back).  The
** least is the window's first key, taken by moving lo up one, so the next
** turn's least is known at once; the new key is placed by a scan from the
** nearer end, which moves the keys it passes one slot as it goes.  Returns
** the window: every replica's final key. */
#define RING_SCAN_MAX 48
#define RING_SPAN 4
#define RING_MIN 256
static inline size_t ring_slots(size_t dp) { return dp * RING_SPAN > RING_MIN ? dp * RING_SPAN : RING_MIN; }

static const uint64_t *lpt_ring(uint64_t *ring, int dp, int rbits, const uint32_t *len, int n, int *owner, int *rc)
{
    const uint64_t rmask = (UINT64_C(1) << rbits) - 1;
    const int span = (int)ring_slots((size_t)dp);
    int lo = 0;
    for (int r = 0; r < dp; r++) {
        ring[r] = (uint64_t)r;
        rc[r] = 0;
    }
    for (int i = 0; i < n; i++) {
        if (lo + dp == span) {              /* the window at the ring's end */
            memmove(ring, ring + lo, (size_t)dp * sizeof *ring);
            lo = 0;
        }
        const uint64_t top = ring[lo] + ((uint64_t)len[i] << rbits);
        owner[i] = (int)(top & rmask);
        rc[owner[i]]++;
        /* At most half the keys are below top: they move down one into the
        ** least loaded's slot; else at most half are above: they move up one
        ** and the window with them.  The middle key stops either scan. */
        int k;
        if (top < ring[lo + dp / 2]) {
            for (k = lo + 1; ring[k] < top; k++) ring[k - 1] = ring[k];
            ring[k - 1] = top;
        } else {
            for (k = lo + dp; ring[k - 1] > top; k--) ring[k] = ring[k - 1];
            ring[k] = top;
            lo++;
        }
    }
    return ring + lo;
}

/* More replicas: a tournament tree of losers (Knuth, The Art of Computer
** Programming vol. 3, section 5.4.1).  Its L = 2^h leaves are the
** replicas' keys, padded with UINT64_MAX (real keys stay below 2^62);
** internal node k in [1, L) holds the greater of the two keys that met
** there (the loser), node 0 the least key of all.  A turn grows the least
** key and replays its leaf's path to the root: at each node the lesser of
** the key carried and the one held goes on up, the greater stays — h
** comparisons, no branch on the keys and no moves, where the window above
** moves a share of its keys every turn.  The next turn waits for the root,
** so a turn costs about h compare-and-select steps.  The tree's slots hold
** every key once.  With h a constant each path's levels are unrolled
** (eng_lpt_tree).  Returns the least key. */
static inline __attribute__((always_inline))
uint64_t lpt_turns(uint64_t *t, const int h, int rbits, const uint32_t *len, int n, int *owner, int *rc)
{
    const uint64_t rmask = (UINT64_C(1) << rbits) - 1;
    const size_t L = (size_t)1 << h;
    uint64_t least = 0;         /* node 0, kept here */
    for (int i = 0; i < n; i++) {
        const int r = (int)(least & rmask);
        owner[i] = r;
        rc[r]++;
        uint64_t cur = least + ((uint64_t)len[i] << rbits);
        const size_t leaf = L + (size_t)r;
#pragma GCC unroll 16
        for (int d = 1; d <= h; d++) {
            uint64_t *node = t + (leaf >> d);
            const uint64_t o = *node;
            const bool up = o < cur;
            *node = up ? cur : o;
            cur = up ? o : cur;
        }
        least = cur;
    }
    return least;
}

/* Every replica's final key is in t[0, L): returns L.  Not static: the
** test of the engine's sorts (tests/test_engsort.c) checks it against a
** scan for the least loaded. */
int eng_lpt_tree(uint64_t *t, int dp, int rbits, const uint32_t *len, int n, int *owner, int *rc)
{
    int L = 1, h = 0;
    while (L < dp) { L <<= 1; h++; }
    /* all loads 0: a subtree's least key is its first leaf's, so the loser
    ** at node k is the first leaf of k's right half (or padding) */
    for (int d = 0, w = L; w > 1; d++, w >>= 1)
        for (int k = 1 << d; k < 2 << d; k++) {
            int j = (k - (1 << d)) * w + w / 2;
            t[k] = j < dp ? (uint64_t)j : UINT64_MAX;
        }
    for (int r = 0; r < dp; r++) rc[r] = 0;
    switch (h) {    /* 2 to 256 replicas, and the rest */
    case 1: t[0] = lpt_turns(t, 1, rbits, len, n, owner, rc); break;
    case 2: t[0] = lpt_turns(t, 2, rbits, len, n, owner, rc); break;
    case 3: t[0] = lpt_turns(t, 3, rbits, len, n, owner, rc); break;
    case 4: t[0] = lpt_turns(t, 4, rbits, len, n, owner, rc); break;
    case 5: t[0] = lpt_turns(t, 5, rbits, len, n, owner, rc); break;
    case 6: t[0] = lpt_turns(t, 6, rbits, len, n, owner, rc); break;
    case 7: t[0] = lpt_turns(t, 7, rbits, len, n, owner, rc); break;
    case 8: t[0] = lpt_turns(t, 8, rbits, len, n, owner, rc); break;
    default: t[0] = lpt_turns(t, h, rbits, len, n, owner, rc); break;
    }
    return L;
}

/* Scratch for n sequences over dp replicas: dp pairs for the heap, or the
** keys (lpt_ring's ring, more than the 2 dp slots of eng_lpt_tree's
** tournament) and each replica's count.  True when the lengths' regions
** were made anew (what they held is gone). */
static bool scratch_fit(mb_scratch *w, size_t n, size_t dp)
{
    bool fresh = false;
    if (n > w->cap) {
        w->cap = n;
        w->len = xrealloc(w->len, w->cap * 3 * sizeof *w->len);
        w->owner = xrealloc(w->owner, w->cap * sizeof *w->owner);
        fresh = true;
    }
    if (dp > w->dp) {
        w->dp = dp;
        free(w->heap);
        size_t keys = ring_slots(w->dp) * sizeof(uint64_t) + w->dp * sizeof(int), pairs = w->dp * sizeof(rep);
        w->heap = xmalloc(keys > pairs ? keys : pairs);
    }
    return fresh;
}

void eng_mb_scratch_free(mb_scratch *w)
{
    free(w->len);
    free(w->owner);
    free(w->heap);
    *w = (mb_scratch){0};
}

/* Spread n sequences, their lengths len[] longest first (total: their sum),
** over DP replicas, longest first onto the least loaded (token balancing),
** and cut the most loaded replica into micro-batches of up to mbs: the whole
** step waits for it at the gradient reduction.  The result depends only on
** the lengths and (dp, mbs).  w: scratch for n and dp (scratch_fit).
** budget > 0 (plan.train.max_tokens): as many micro-batches as the replica's
** tokens need at `budget` tokens each (verl's rearrange_micro_batches),
** whatever mbs says.  pad: each micro-batch padded to its longest sequence
** (docs/model.md, section 3). */
static void mb_layout(mb_scratch *w, const uint32_t *len, int n, uint64_t total, int dp, int mbs, double budget,
                      bool pad, mb_res *c)
{
    int *owner = w->owner;
    rep *heap = w->heap;
    int worst, cnt = -1;        /* the most loaded replica, its sequences (-1: counted below) */
    double wload = (double)total;   /* its tokens */
    /* one replica: it takes every sequence */
    const bool one = dp == 1;
    /* Loads are whole tokens, exact in a double below 2^53: when (load,
    ** index) also fits one 64-bit key, the load shifted above the index bits,
    ** replicas are ordered by one integer comparison, the same order (the
    ** common case: lpt_ring, eng_lpt_tree); else the heap of (load, index)
    ** pairs below. */
    int rbits = 0;
    while (rbits < 32 && (UINT64_C(1) << rbits) < (uint64_t)dp) rbits++;
    if (one) {
        worst = 0;
    } else if (rbits <= 30 && total < (UINT64_C(1) << 53) && total < (UINT64_C(1) << (62 - rbits))) {
        uint64_t *keys = w->heap;
        int *rc = (int *)(keys + ring_slots(w->dp));   /* sequences each replica took */
        const uint64_t *hk = keys;      /* every replica's final key, and padding (UINT64_MAX) */
        int nk = dp;
        if (dp <= RING_SCAN_MAX) hk = lpt_ring(keys, dp, rbits, len, n, owner, rc);
        else nk = eng_lpt_tree(keys, dp, rbits, len, n, owner, rc);
        /* the most loaded, the lowest index among equals */
        const uint64_t rmask = (UINT64_C(1) << rbits) - 1;
        uint64_t wl = 0;
        worst = dp;
        for (int r = 0; r < nk; r++) {
            if (hk[r] == UINT64_MAX) continue;
            uint64_t lr = hk[r] >> rbits;
            int ir = (int)(hk[r] & rmask);
            if (worst == dp || lr > wl || (lr == wl && ir < worst)) { worst = ir; wl = lr; }
        }
        cnt = rc[worst];
        wload = (double)wl;
    } else {
        /* a min-heap of replicas by (load, index), the root always the least
        ** loaded: O(n log dp).  (load, index) orders replicas strictly, so which
        ** replica is least loaded at each turn does not depend on the heap's
        ** layout.  The root, its load grown by the longest sequence left, tends
        ** to sink deep: its hole walks down the lesser children to a leaf (one
        ** comparison a level) and it is sifted up from there (Floyd). */
        for (int r = 0; r < dp; r++) heap[r] = (rep){0, r};
        for (int i = 0; i < n; i++) {
            rep top = heap[0];
            top.load += len[i];
            owner[i] = top.r;
            int k = 0;
            for (;;) {
                int l = 2 * k + 1;
                if (l >= dp) break;
                int m = l + 1 < dp && rep_less(&heap[l + 1], &heap[l]) ? l + 1 : l;
                heap[k] = heap[m];
                k = m;
            }
            while (k > 0) {
                int pa = (k - 1) / 2;
                if (!rep_less(&top, &heap[pa])) break;
                heap[k] = heap[pa];
                k = pa;
            }
            heap[k] = top;
        }
        worst = heap[0].r;
        double wl = heap[0].load;
        for (int r = 1; r < dp; r++)
            if (heap[r].load > wl || (heap[r].load == wl && heap[r].r < worst)) { worst = heap[r].r; wl = heap[r].load; }
        wload = wl;
    }
    if (one) cnt = n;
    else if (cnt < 0) for (int i = cnt = 0; i < n; i++) cnt += owner[i] == worst;
    c->m = (cnt + mbs - 1) / mbs;
    if (budget > 0) {
        double need = ceil(wload / budget);
        c->m = need < cnt ? (int)need : cnt;
    }
    if (c->m < 1) c->m = 1;
    if (c->m > c->cap) {
        c->cap = c->m;
        c->tok = xrealloc(c->tok, (size_t)c->cap * sizeof *c->tok);
        c->sq = xrealloc(c->sq, (size_t)c->cap * sizeof *c->sq);
    }
    memset(c->tok, 0, (size_t)c->m * sizeof *c->tok);
    memset(c->sq, 0, (size_t)c->m * sizeof *c->sq);
    double *ctok = c->tok, *csq = c->sq, mx = 0;
    if (pad) {
        /* longest first, round robin: micro-batch k's longest is the
        ** replica's k-th sequence, and it takes cnt/m (+1 for k < cnt % m) */
        for (int i = 0, j = 0; i < n && j < c->m; i++) {
            if (!one && owner[i] != worst) continue;
            ctok[j++] = len[i];
        }
        mx = ctok[0];
        for (int k = 0; k < c->m; k++) {
            double L = ctok[k], seqs = cnt / c->m + (k < cnt % c->m);
            ctok[k] = seqs * L;
            csq[k] = seqs * L * L;
        }
        c->max_len = mx;
        return;
    }
    for (int i = 0, mb = 0; i < n; i++) {
        if (!one && owner[i] != worst) continue;
        ctok[mb] += len[i];                     /* interleave long and short: round robin */
        csq[mb] += len[i] * len[i];
        if (len[i] > mx) mx = len[i];
        if (++mb == c->m) mb = 0;
    }
    c->max_len = mx;
}

/* The bits a mini-batch's number takes (0 .. nmb, nmb: the samples after
** the last), and whether a whole step's lengths (longest mx) can carry it
** below them in 32 bits for the one sort. */
static int mb_bits(int nmb)
{
    int mbits = 0;
    while (mbits < 31 && (1 << mbits) <= nmb) mbits++;
    return mbits;
}

static bool mb_tagged(int nmb, int per, uint32_t mx)
{
    const int mbits = mb_bits(nmb);
    return nmb > 1 && per > 0 && mbits < 31 && mx < (UINT32_C(1) << (32 - mbits));
}

/* A step's n lengths (len, unsorted, longest mx) sorted longest first, and
** with the same sort each mini-batch's (per of them, nmb) into sorted[]
** (mini-batch m from m·per): a key is the length above the mini-batch's
** number; a mini-batch's keys come out in the whole step's order, longest
** first, and equal lengths are equal values, so its lengths are those its
** own sort would give.  tmp: n more; fill: nmb more. */
static void sort_tagged(uint32_t *len, uint32_t *tmp, uint32_t *sorted, int *fill, int n, int nmb, int per)
{
    const int mbits = mb_bits(nmb);
    for (int m = 0, i = 0; m <= nmb; m++)
        for (const int end = m < nmb ? (m + 1) * per : n; i < end; i++) len[i] = len[i] << mbits | (uint32_t)m;
    sort_lengths_desc(len, tmp, n);
    for (int m = 0; m < nmb; m++) fill[m] = m * per;     /* each mini-batch's next slot */
    const uint32_t mmask = (UINT32_C(1) << mbits) - 1;
    for (int i = 0; i < n; i++) {
        const uint32_t m = len[i] & mmask, v = len[i] >> mbits;
        if (m < (uint32_t)nmb) sorted[fill[m]++] = v;
        len[i] = v;
    }
}

/* ------------------------------------------------- worked out ahead */

/* A batch's sets: for each data-parallel size dp[d], the whole batch
** (res[d · (1 + nmb)]) and mini-batch k (res[d · (1 + nmb) + 1 + k]).  The
** plan's figures are copied in, for the drawer's thread reads nothing of the
** sim. */
enum { MB_PRE_DP = 4 };
struct mb_pre {
    int     b;                  /* the batch, or -1 */
    int     n, spp, nmb, per, mbs;
    double  budget;             /* eng_mb_budget */
    bool    pad;                /* plan.train.padding = "longest" */
    int     ndp, dp[MB_PRE_DP], dpmax;
    mb_res *res;
};

mb_pre *eng_mb_pre_new(const sim *s)
{
    const int nmb = s->scn.work.minibatches, mbs = s->scn.plan.train.micro_batch;
    /* a streaming (StaleSync) step takes what has finished, oldest version
    ** first, a mini-batch at a time: few of its sets are one batch's range,
    ** and working out the rest would only load the other core */
    if (s->streaming || s->N <= 0 || nmb <= 0 || s->N / nmb <= 0 || mbs <= 0) return NULL;
    mb_pre *p = xcalloc(1, sizeof *p);
    p->b = -1;
    p->n = s->N;
    p->spp = s->scn.work.samples_per_prompt;
    p->nmb = nmb;
    p->per = s->N / nmb;
    p->mbs = mbs;
    p->budget = eng_mb_budget(&s->scn);
    p->pad = s->scn.plan.train.padding == PAD_LONGEST;
    /* the sizes fwd_pass and training ask for: pools in the training
    ** layout (aux_tp 0) that train or run a forward-only model */
    for (int q = 0; q < s->pl.npools; q++) {
        const plan_pool *pp = &s->pl.pools[q];
        if (pp->aux_tp > 0 || !(pp->roles & (ROLE_TRAIN | ROLE_CRITIC | ROLE_REF | ROLE_REWARD)) || pp->dp < 1) continue;
        bool have = false;
        for (int d = 0; d < p->ndp; d++) have |= p->dp[d] == pp->dp;
        if (have || p->ndp == MB_PRE_DP) continue;
        p->dp[p->ndp++] = pp->dp;
        if (pp->dp > p->dpmax) p->dpmax = pp->dp;
    }
    if (p->ndp == 0 || p->spp <= 0) {
        free(p);
        return NULL;
    }
    p->res = xcalloc((size_t)p->ndp * (size_t)(1 + nmb), sizeof *p->res);
    return p;
}

void eng_mb_pre_free(mb_pre *p)
{
    if (!p) return;
    for (int k = 0; k < p->ndp * (1 + p->nmb); k++) { free(p->res[k].tok); free(p->res[k].sq); }
    free(p->res);
    free(p);
}

/* The drawer's: batch b's lengths as drawn (sample i of the batch: prompt
** plen[i / spp], response resp[i], as store_batch puts them in the sample
** structs) sorted as eng_build_microbatches sorts a step's, and laid out at
** each size. */
void eng_mb_pre_fill(mb_pre *p, mb_scratch *w, int b, const int32_t *plen, const int32_t *resp)
{
    const int n = p->n, nmb = p->nmb, per = p->per;
    scratch_fit(w, (size_t)n, (size_t)p->dpmax);
    uint32_t *len = w->len, *tmp = w->len + w->cap, *sorted = w->len + 2 * w->cap;
    uint64_t total = 0;
    uint32_t mx = 0;
    for (int i = 0; i < n; i++) {
        len[i] = (uint32_t)(plen[i / p->spp] + resp[i]);
        total += len[i];
        if (len[i] > mx) mx = len[i];
    }
    if (mb_tagged(nmb, per, mx)) {
        sort_tagged(len, tmp, sorted, w->owner, n, nmb, per);
    } else {
        for (int k = 0; k < nmb; k++) {
            memcpy(sorted + (size_t)k * per, len + (size_t)k * per, (size_t)per * sizeof *len);
            sort_lengths_desc(sorted + (size_t)k * per, tmp, per);
        }
        sort_lengths_desc(len, tmp, n);
    }
    for (int d = 0; d < p->ndp; d++) {
        mb_res *r = p->res + (size_t)d * (1 + nmb);
        mb_layout(w, len, n, total, p->dp[d], p->mbs, p->budget, p->pad, &r[0]);
        for (int k = 0; k < nmb; k++) {
            const uint32_t *l = sorted + (size_t)k * per;
            uint64_t t = 0;
            for (int i = 0; i < per; i++) t += l[i];
            mb_layout(w, l, per, t, p->dp[d], p->mbs, p->budget, p->pad, &r[1 + k]);
        }
    }
    p->b = b;
}

/* The run's thread: *p, if filled for batch b, kept at the batch's place;
** what was there (an older batch's, or a new one) goes back to be filled,
** and the running step's sets taken from it are forgotten. */
void eng_mb_pre_keep(sim *s, mb_pre **p, int b)
{
    if ((*p)->b != b) return;
    mb_pre **at = &s->mbpre[(*p)->b % MB_PRE_KEEP], *old = *at;
    if (!old) old = eng_mb_pre_new(s);
    else
        for (int e = 0; e < s->nmbm; e++)
            if (s->mbm[e].from == old) s->mbm[e].ids = NULL;
    *at = *p;
    if (old) old->b = -1;
    *p = old;
}

/* The set worked out ahead for ids[0..n) at (dp, mbs), or NULL: the ids must
** be exactly a kept batch's, or one of its mini-batches', in order (the
** sets depend only on the lengths: a set of samples of those lengths). */
static const mb_pre *pre_find(const sim *s, const int *ids, int n, int dp, int mbs, double budget, const mb_res **res)
{
    if (n <= 0 || ids[0] < 0 || s->N <= 0) return NULL;
    const int64_t id0 = ids[0], b = id0 / s->N, off = id0 % s->N;
    const mb_pre *p = s->mbpre[b % MB_PRE_KEEP];
    if (!p || p->b != b || p->mbs != mbs || p->budget != budget || p->n != s->N) return NULL;
    int k;
    if (off == 0 && n == p->n) k = 0;
    else if (n == p->per && off % p->per == 0 && off / p->per < p->nmb) k = 1 + (int)(off / p->per);
    else return NULL;
    int d = 0;
    while (d < p->ndp && p->dp[d] != dp) d++;
    if (d == p->ndp) return NULL;
    for (int i = 1; i < n; i++)
        if (ids[i] != id0 + i) return NULL;
    *res = &p->res[(size_t)d * (1 + p->nmb) + k];
    return p;
}

/* The micro-batches of the most loaded of dp replicas for the samples
** ids[0..n) (mb_layout).  A step's forward passes and its training (each
** epoch, actor and critic) ask for the same sets, so results are kept for
** the running step (eng_mb_forget clears them when a step starts), and the
** scratch arrays are kept across calls; a set the drawer worked out for a
** released batch (eng_mb_pre_fill) is taken as it is. */
mb_set eng_build_microbatches(sim *s, const int *ids, int n, int dp, int mbs, double budget)
{
    for (int e = 0; e < s->nmbm; e++) {
        const mb_memo *c = &s->mbm[e];
        if (c->ids == ids && c->n == n && c->dp == dp && c->mbs == mbs && c->budget == budget)
            return (mb_set){c->res->m, c->res->tok, c->res->sq, c->res->max_len};
    }
    /* the result goes to a free memo entry, or over the oldest one */
    int slot = s->nmbm < MB_MEMO ? s->nmbm++ : (s->mbm_next++ % MB_MEMO);
    mb_memo *c = &s->mbm[slot];
    c->ids = ids;
    c->n = n;
    c->dp = dp;
    c->mbs = mbs;
    c->budget = budget;
    c->from = pre_find(s, ids, n, dp, mbs, budget, &c->res);
    s->mbpre_taken += c->from != NULL;
    if (!c->from) {
        c->res = &c->own;
        if (scratch_fit(&s->mbw, (size_t)n, (size_t)dp)) s->mb_sorted = false;
        uint32_t *len = s->mbw.len;
        uint64_t total = 0;
        /* A step's forward passes take its samples whole, its training one
        ** mini-batch (a quarter, say) at a time: the one sort of the whole
        ** step also gives each mini-batch's lengths in order, kept for the
        ** step (sort_tagged). */
        const int nmb = s->scn.work.minibatches, per = nmb > 0 ? s->N / nmb : 0;
        const ptrdiff_t at = ids - s->step_ids;
        uint32_t *sorted = s->mbw.len + 2 * s->mbw.cap;
        if (s->mb_sorted && n == s->mb_per && at >= 0 && at % n == 0 && at / n < nmb) {
            memcpy(len, sorted + at, (size_t)n * sizeof *len);
            for (int i = 0; i < n; i++) total += len[i];
        } else {
            uint32_t mx = 0;
            /* the samples' structs lie scattered over the ring (a step's ids
            ** are in the order they finished): each is asked for 48 ahead */
            for (int i = 0; i < n; i++) {
                if (i + 48 < n) __builtin_prefetch(eng_smp(s, ids[i + 48]));
                len[i] = (uint32_t)(eng_smp(s, ids[i])->prompt + eng_smp(s, ids[i])->resp);
                total += len[i];
                if (len[i] > mx) mx = len[i];
            }
            if (at == 0 && n == s->N && mb_tagged(nmb, per, mx)) {
                sort_tagged(len, len + n, sorted, s->mbw.owner, n, nmb, per);
                s->mb_sorted = true;
                s->mb_per = per;
            } else {
                sort_lengths_desc(len, len + n, n);
            }
        }
        mb_layout(&s->mbw, len, n, total, dp, mbs, budget, s->scn.plan.train.padding == PAD_LONGEST,
                  &c->own);
    }
    return (mb_set){c->res->m, c->res->tok, c->res->sq, c->res->max_len};
}

int64_t sim_mb_sets_ahead(const sim *s) { return s->mbpre_taken; }

void eng_mb_forget(sim *s)
{
    s->nmbm = 0;
    s->mbm_next = 0;
    s->mb_sorted = false;
}
