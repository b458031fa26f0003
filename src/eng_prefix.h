/*
** eng_prefix.h — prefix caching: the prompt groups active on an instance
** and the KV their samples share (docs/model.md, section 5, "Prefix
** caching").  Included by eng_gen.c only, so that these stay in its
** translation unit: admission, completion and preemption call them once a
** sample in the event loop's hottest path, and the compiler inlines them
** there; in a file of their own each would be a call (docs/performance.md,
** "Figures moved out of code comments").  They are static, not inline, as
** they were in eng_gen.c: a second file that included this header would
** fail the build on the functions it does not use.  The state is the
** instance's pg, pgcap and kv_shared (engine_int.h).
*/
#ifndef FUSYNC_ENG_PREFIX_H
#define FUSYNC_ENG_PREFIX_H

#include "engine_int.h"

/* The n samples of one prompt (GRPO's group, workload.samples_per_prompt)
** share the prompt's KV blocks on an instance where several are active at
** once, and only the first pays its prefill: vLLM's automatic prefix
** caching (blocks hashed by their tokens and reused, on by default in the V1
** engine) and SGLang's RadixAttention (Zheng et al., arXiv 2312.07104).
** Only full blocks are shared, and a request whose prompt is all cached
** still computes its last token for the logits (vLLM V1's KV-cache
** manager caps a hit at prompt − 1 tokens): a hit is b·⌊(p − 1)/b⌋ tokens.
** A prompt stays cached while a sample of its group is active on the
** instance; vLLM keeps freed blocks for later hits until it needs them,
** which fusync does not count.  docs/model.md, section 5. */
struct pgent {
    int64_t key;        /* the group: sample id / samples_per_prompt; -1 free */
    int32_t n;          /* its samples active on the instance */
};

static inline double prompt_hit(const sim *s, int32_t prompt)
{
    const int b = s->scn.plan.rollout.kv_block;
    return prompt > 1 ? (double)b * ((prompt - 1) / b) : 0;
}

static inline size_t pg_home(const instance *I, int64_t key)
{
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15u) >> 32) & (size_t)(I->pgcap - 1);
}

/* The slot of group `key`, or the free slot where it would go.  The table
** holds at most max_seqs groups (one per active sample at most) in twice
** as many slots, so a free one is always found. */
static size_t pg_slot(sim *s, instance *I, int64_t key)
{
    if (!I->pg) {
        int cap = 16;
        while (cap < 2 * s->scn.plan.rollout.max_seqs) cap *= 2;
        I->pg = xmalloc((size_t)cap * sizeof *I->pg);
        for (int i = 0; i < cap; i++) I->pg[i].key = -1;
        I->pgcap = cap;
    }
    const size_t m = (size_t)I->pgcap - 1;
    size_t i = pg_home(I, key);
    while (I->pg[i].key != -1 && I->pg[i].key != key) i = (i + 1) & m;
    return i;
}

static inline int64_t smp_group(const sim *s, int id) { return (int64_t)id / s->scn.work.samples_per_prompt; }

/* Sample `id` of prompt length `prompt` joins the instance at slot `i`
** (pg_slot of its group); returns the prompt tokens it finds cached. */
static double pg_join(sim *s, instance *I, size_t i, int id, int32_t prompt)
{
    struct pgent *e = &I->pg[i];
    if (e->key == -1) {
        e->key = smp_group(s, id);
        e->n = 1;
        return 0;
    }
    e->n++;
    const double hit = prompt_hit(s, prompt);
    I->kv_shared += hit;
    return hit;
}

/* Sample `id` leaves the instance (finished, preempted): the last of its
** group frees the slot, closing the gap behind it (backward-shift deletion,
** so that no probe sequence is cut). */
static void pg_leave(sim *s, instance *I, int id, int32_t prompt)
{
    size_t i = pg_slot(s, I, smp_group(s, id));
    struct pgent *pg = I->pg;
    if (pg[i].key == -1) return;        /* not counted (cannot happen while kv_prefix holds) */
    if (--pg[i].n > 0) {
        I->kv_shared -= prompt_hit(s, prompt);
        return;
    }
    const size_t m = (size_t)I->pgcap - 1;
    for (size_t j = i;;) {
        j = (j + 1) & m;
        if (pg[j].key == -1) break;
        const size_t k = pg_home(I, pg[j].key);
        /* the entry at j stays if its home lies cyclically in (i, j] */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) continue;
        pg[i] = pg[j];
        i = j;
    }
    pg[i].key = -1;
}

static void pg_clear(instance *I)
{
    for (int i = 0; i < I->pgcap; i++) I->pg[i].key = -1;
    I->kv_shared = 0;
}

#endif
