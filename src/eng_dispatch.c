/*
** eng_dispatch.c — the dispatcher: the generation queue shared out among a
** pool's generating instances, least outstanding sequences first (the
** balanced rule, with each instance's quota for the round) or each
** instance's own queue (static), and a pool's instances started on a
** generation phase.  The instances admit and decode in eng_gen.c.  Rules:
** docs/model.md, section 5 (Generation).  Shared state and helpers:
** engine_int.h.
*/
#include "engine_int.h"

#include <string.h>

/* ------------------------------------------------------------- dispatch */

/* The balanced dispatcher's order: fewest outstanding sequences (active and
** given this round), then the lower index.  Each heap entry carries that
** pair as one key, outstanding << 32 | index (both non-negative), so a
** comparison does not load the instances' structs. */
static inline int64_t disp_key(const sim *s, int i)
{
    const instance *I = &s->inst[i];
    return (int64_t)(I->nactive + I->quota) << 32 | i;
}

/* Keys are distinct (each holds its instance's index): the smaller child
** is picked without a branch (which one is a coin toss to the predictor),
** then swapped up if it is below the entry. */
static void disp_down(int64_t *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1;
        if (l >= n) return;
        int m = l + 1 < n ? l + (h[l + 1] < h[l]) : l;
        if (h[m] > h[i]) return;
        int64_t t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* Can instance I take sample id on top of the quota it was given so far
** (staleness at admission, KV reservation, or nothing active nor promised)?
** If so, the sample joins its quota. */
typedef struct {
    bool   paged;
    double slack, max_response;     /* kv_slack, the scenario's max_response */
} kv_rule;

static inline kv_rule kv_rule_of(const sim *s)
{
    return (kv_rule){kv_paged(s), kv_slack(s), s->scn.work.max_response};
}

/* (inst_kv, sample_reserve and kv_admit_cap with the run's rule `kr`
** loaded once: the quota's stores would make the compiler load it again
** for each sample) */
static inline bool quota_take(sim *s, const kv_rule *kr, int id, instance *I)
{
    const sample *x = eng_smp(s, id);
    const double need = kr->paged ? (double)x->prompt + x->gen + kr->slack : (double)x->prompt + kr->max_response;
    const double held = kr->paged ? I->ctx_sum + I->nactive * kr->slack - I->kv_shared : I->kv_used;
    const double cap = kr->paged ? I->kv_cap * (1 - KV_WATERMARK) : I->kv_cap;
    const bool fits = eng_may_start(s, id, x, I->version) &&
                      (held + I->quota_kv + need <= cap || I->nactive + I->quota == 0);
    if (fits) {
        I->quota++;
        I->quota_kv += need;
    }
    return fits;
}

/* Least outstanding requests (docs/model.md, section 5, Dispatch): walk the
** shared queue from its head and give each sample to the generating
** instance with the fewest outstanding sequences that can take it (batch
** room, KV reservation, staleness at admission).  An instance that cannot
** take the sample in hand leaves the round, as its own admission would stop
** there.  Sets each instance's quota; O(ninst + given · log ninst). */
static void balance_quotas(sim *s)
{
    const squeue *q = &s->queues[0];
    const int max_seqs = s->scn.plan.rollout.max_seqs;
    const kv_rule kr = kv_rule_of(s);
    int64_t *h = s->disp;
    int n = 0;
    bool alike = true;      /* every instance in the round has the same number active */
    for (int i = 0; i < s->ninst; i++) {
        instance *I = &s->inst[i];
        I->quota = 0;
        I->quota_kv = 0;
        if (I->running && s->pr[I->pool].st == P_GEN && I->nactive < max_seqs) {
            alike = alike && (n == 0 || I->nactive == s->inst[(int)(h[0] & 0xffffffff)].nactive);
            h[n++] = disp_key(s, i);
        }
    }
    int64_t k = 0, at = q->head;     /* at: slot of the k-th queued sample */
    if (alike) {
        /* As when a pool starts generating from empty: the order below then
        ** hands the samples round the instances in index order, one each a
        ** round (an instance given one goes behind every instance not yet
        ** given one this round), an instance leaving the round where it
        ** takes no more.  The same turns without the heap's walks: h holds
        ** the instances in index order, r is whose turn it is. */
        int r = 0;
        while (n > 0 && k < q->len) {
            instance *I = &s->inst[(int)(h[r] & 0xffffffff)];
            const bool fits = quota_take(s, &kr, q->v[at], I);
            if (fits) {
                k++;
                if (++at == q->cap) at = 0;
            }
            if (!fits || I->nactive + I->quota >= max_seqs) {
                memmove(&h[r], &h[r + 1], (size_t)(n - r - 1) * sizeof *h);
                n--;
            } else {
                r++;
            }
            if (r >= n) r = 0;
        }
        return;
    }
    for (int i = n / 2 - 1; i >= 0; i--) disp_down(h, n, i);
    while (n > 0 && k < q->len) {
        instance *I = &s->inst[(int)(h[0] & 0xffffffff)];
        const bool fits = quota_take(s, &kr, q->v[at], I);
        if (fits) {
            h[0] += (int64_t)1 << 32;
            k++;
            if (++at == q->cap) at = 0;
        }
        if (!fits || I->nactive + I->quota >= max_seqs) h[0] = h[--n];
        disp_down(h, n, 0);
    }
}

/* Offer the queue to the generating instances.  `pool` >= 0: that pool has
** just started generating, and each of its instances is started.  With
** balanced dispatch the instances first take the shares balance_quotas gave
** them, then whatever is left is offered in index order as with "queue". */
void eng_dispatch(sim *s, sim_time now, int pool)
{
    bool bal = s->scn.plan.rollout.dispatch == DISPATCH_BALANCED && s->nqueues == 1 && s->dq_len > 0;
    if (s->bound_lowered && s->dq_len > 1) eng_queue_by_batch(s);
    if (bal) {
        balance_quotas(s);
        for (int i = 0; i < s->ninst; i++) {
            instance *I = &s->inst[i];
            if (I->pool == pool || I->quota > 0) eng_inst_kick(s, I, now);
        }
        for (int i = 0; i < s->ninst; i++) s->inst[i].quota = -1;
    } else if (pool >= 0) {
        /* each instance admits what it can, in index order */
        const pool_rt *r = &s->pr[pool];
        for (int i = 0; i < r->ninst; i++) eng_inst_kick(s, &s->inst[r->inst0 + i], now);
        return;
    }
    for (int p = 0; p < s->pl.npools; p++) {
        if (s->pr[p].st != P_GEN) continue;
        for (int i = 0; i < s->pr[p].ninst; i++) {
            instance *I = &s->inst[s->pr[p].inst0 + i];
            if (s->dq_len == 0) return;
            if (eng_inst_can_admit(s, I)) eng_inst_kick(s, I, now);
        }
    }
}

void eng_pool_start_gen(sim *s, int p, sim_time now)
{
    pool_rt *r = &s->pr[p];
    eng_pool_class(s, p, P_GEN);
    r->st = P_GEN;
    for (int i = 0; i < r->ninst; i++) {
        instance *I = &s->inst[r->inst0 + i];
        I->running = true;
        I->version = s->version;
        I->seg_t0 = now;
    }
    eng_dispatch(s, now, p);
}
