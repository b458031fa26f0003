/*
** eng_draw.c — the workload's lengths, drawn ahead of their release.
**
** A batch's lengths (one prompt length per prompt, one response length per
** sample: docs/model.md, section 4, "Workload lengths") come from the run's
** one generator in batch order, and a batch is drawn when the controller
** releases it.  The draws — the logarithm, cosine and exponential of each
** lognormal draw (dist.c) — are a large part of a large run's work and
** depend on nothing the simulation does: only on the generator's state and
** the batch's number.  So a thread of their own draws the next batches
** while the run simulates the current ones, DRAW_AHEAD ahead, each into a
** slot of plain arrays with its sum, its longest and the generator's state
** after it; the run's thread copies a batch into its sample structs when it
** releases it (eng_setup.c, eng_draw_batch).  The same function draws
** either way, operation for operation, so the lengths, their sums and the
** generator's state are those of drawing in the run's thread to the last
** bit (tests/test_draws.c compares whole runs both ways).
**
** The thread is started at the first batch of a run that draws at least
** DRAW_MIN samples a step over two or more steps (below that, starting it
** costs more than it saves; the run's thread draws into the same arrays),
** has every signal blocked (Ctrl-C reaches the run's thread), and
** is stopped and joined by sim_free.  sim_draw_ahead (engine.h) turns it
** off or forces it on.
*/
#include "engine_int.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

int sim_draw_ahead = -1;

enum { DRAW_AHEAD = 2, DRAW_MIN = 2048 };

typedef struct {
    int       b;                /* the batch drawn into the slot, or -1 */
    int32_t  *plen, *resp;      /* per prompt, per sample */
    double    sum, max;
    rng_state after;            /* the generator after the batch */
    mb_pre   *pre;              /* the batch's micro-batch sets (eng_mb_pre_fill), or NULL */
} draw_slot;

struct drawer {
    bool      threaded;         /* else the run's thread draws into slot 0 */
    const scn_scenario *scn;    /* the sim's own copy: read only during the run */
    int       iterations;
    rng_state rng;              /* the thread's: the state before batch `next` */
    int       next;             /* the next batch the thread draws */
    int       taken;            /* batches the run's thread is done with */
    bool      stop;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    pthread_t th;
    draw_slot slot[DRAW_AHEAD];
    mb_scratch mbw;             /* the thread's, for eng_mb_pre_fill */
};

void eng_draw_into(const scn_scenario *scn, rng_state *r, int b, int32_t *plen, int32_t *resp, double *sum, double *max)
{
    const scn_workload *w = &scn->work;
    double grow = w->response_growth != 0 ? pow(1 + w->response_growth, b) : 1.0;
    const int prompts = scn_prompts_per_step(scn), spp = w->samples_per_prompt;
    double tot = 0, mx = 0;
    for (int pr = 0; pr < prompts; pr++) {
        const int p = dist_sample(&w->prompt_len, r, 0);
        if (plen) plen[pr] = p;
        int32_t *out = resp ? resp + (int64_t)pr * spp : NULL;
        /* the prompt's responses, up to 64 drawn at a time */
        for (int k0 = 0; k0 < spp; k0 += 64) {
            int resps[64], m = spp - k0 < 64 ? spp - k0 : 64;
            dist_sample_scaled_n(&w->response_len, r, w->max_response, grow, resps, m);
            for (int j = 0; j < m; j++) {
                double L = (double)p + resps[j];
                tot += L;
                if (L > mx) mx = L;
                if (out) out[k0 + j] = resps[j];
            }
        }
    }
    *sum = tot;
    *max = mx;
}

static void *drawer_main(void *arg)
{
    struct drawer *d = arg;
    pthread_mutex_lock(&d->mu);
    while (d->next < d->iterations) {
        const int b = d->next;
        draw_slot *sl = &d->slot[b % DRAW_AHEAD];
        /* the slot is free once the run's thread is done with the batch
        ** DRAW_AHEAD before */
        while (!d->stop && b - d->taken >= DRAW_AHEAD) pthread_cond_wait(&d->cv, &d->mu);
        if (d->stop) break;
        pthread_mutex_unlock(&d->mu);
        eng_draw_into(d->scn, &d->rng, b, sl->plen, sl->resp, &sl->sum, &sl->max);
        sl->after = d->rng;
        if (sl->pre) eng_mb_pre_fill(sl->pre, &d->mbw, b, sl->plen, sl->resp);
        pthread_mutex_lock(&d->mu);
        sl->b = b;
        d->next = b + 1;
        pthread_cond_broadcast(&d->cv);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* The sim's drawer, made at its first batch: drawing ahead from the batch
** after the released ones, with the generator as it stands — unless the
** run is too small, it is turned off, or no thread can be had: then the
** run's thread draws into the drawer's first slot. */
static struct drawer *drawer_get(sim *s)
{
    if (s->draw) return s->draw;
    const int iterations = s->scn.work.iterations;
    struct drawer *d = xcalloc(1, sizeof *d);
    d->scn = &s->scn;
    d->iterations = iterations;
    d->rng = s->rng;
    d->next = d->taken = s->released;
    const size_t prompts = (size_t)scn_prompts_per_step(&s->scn);
    const int nslots = sim_draw_ahead == 0 || (sim_draw_ahead < 0 && (s->N < DRAW_MIN || iterations - s->released < 2))
                       ? 1 : DRAW_AHEAD;
    for (int k = 0; k < nslots; k++) {
        d->slot[k].b = -1;
        d->slot[k].plen = xmalloc((prompts ? prompts : 1) * sizeof(int32_t));
        d->slot[k].resp = xmalloc((size_t)(s->N ? s->N : 1) * sizeof(int32_t));
    }
    s->draw = d;
    if (nslots == 1) return d;
    for (int k = 0; k < nslots; k++) d->slot[k].pre = eng_mb_pre_new(s);
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    sigset_t all, old;
    sigfillset(&all);
    if (pthread_sigmask(SIG_SETMASK, &all, &old) == 0) {
        d->threaded = pthread_create(&d->th, NULL, drawer_main, d) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    if (!d->threaded) {
        pthread_mutex_destroy(&d->mu);
        pthread_cond_destroy(&d->cv);
    }
    return d;
}

/* Batch b (the next to release): its arrays, sum and longest, and the
** sim's generator at its state after b (eng_preview_lengths draws on from
** there) — drawn here, or by the thread (waiting for it if need be).
** eng_drawer_done hands the slot back. */
void eng_drawer_take(sim *s, int b, int32_t **plen, int32_t **resp, double *sum, double *max)
{
    struct drawer *d = drawer_get(s);
    if (!d->threaded) {
        eng_draw_into(&s->scn, &s->rng, b, d->slot[0].plen, d->slot[0].resp, sum, max);
        *plen = d->slot[0].plen;
        *resp = d->slot[0].resp;
        return;
    }
    draw_slot *sl = &d->slot[b % DRAW_AHEAD];
    pthread_mutex_lock(&d->mu);
    while (sl->b != b) pthread_cond_wait(&d->cv, &d->mu);
    pthread_mutex_unlock(&d->mu);
    *plen = sl->plen;
    *resp = sl->resp;
    *sum = sl->sum;
    *max = sl->max;
    s->rng = sl->after;
    if (sl->pre) eng_mb_pre_keep(s, &sl->pre, b);
}

void eng_drawer_done(sim *s, int b)
{
    struct drawer *d = s->draw;
    if (!d->threaded) return;
    pthread_mutex_lock(&d->mu);
    d->taken = b + 1;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

bool sim_draws_ahead(const sim *s) { return s->draw && s->draw->threaded; }

void eng_drawer_free(sim *s)
{
    struct drawer *d = s->draw;
    if (!d) return;
    if (d->threaded) {
        pthread_mutex_lock(&d->mu);
        d->stop = true;
        pthread_cond_broadcast(&d->cv);
        pthread_mutex_unlock(&d->mu);
        pthread_join(d->th, NULL);
        pthread_mutex_destroy(&d->mu);
        pthread_cond_destroy(&d->cv);
    }
    for (int k = 0; k < DRAW_AHEAD; k++) { free(d->slot[k].plen); free(d->slot[k].resp); eng_mb_pre_free(d->slot[k].pre); }
    eng_mb_scratch_free(&d->mbw);
    free(d);
    s->draw = NULL;
}
