/*
** test_critic_pool.c — a PPO critic on a pool of its own (OpenRLHF's critic
** group; docs/model.md, section 2, The critic on a pool of its own): its
** states booked there and not on the actor's pool, its value pass and its
** training timed on its own tracks, the training beside the actor's, the
** step ending after both, and the estimate's parts the engine's.
*/
#include "testutil.h"
#include "engine.h"
#include "estimate.h"
#include "model_mem.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXAMPLE "openrlhf_ppo_critic_pool.lua"

/* The first and last instants of step 0's spans of phase ph on pool p's
** stage tracks (pool -1: any pool); the actor's training forward stands for
** its 1F1B runs too (a steady run is drawn as one train_1f1b span). */
static void phase_extent(const sim *s, int p, trace_phase ph, double *a, double *b)
{
    const trace *t = sim_trace(s);
    *a = INFINITY;
    *b = -INFINITY;
    for (size_t i = 0; i < trace_nspans(t); i++) {
        const trace_span *x = &trace_spans(t)[i];
        const trace_track *k = trace_track_at(t, x->track);
        if (x->iter != 0 || k->kind != TRK_STAGE || (p >= 0 && k->pool != p)) continue;
        if (x->phase != ph && !(ph == PH_TRAIN_FWD && x->phase >= PH_TRAIN_FWD && x->phase <= PH_TRAIN_1F1B)) continue;
        *a = fmin(*a, sim_secs(x->t0));
        *b = fmax(*b, sim_secs(x->t1));
    }
}

static int critic_pool_of(const plan *pl)
{
    for (int p = 0; p < pl->npools; p++)
        if ((pl->pools[p].roles & ROLE_CRITIC) && !(pl->pools[p].roles & ROLE_TRAIN)) return p;
    return -1;
}

/* The critic's states (ZeRO-3 over the critic pool's 4 ranks) are on its
** own pool; the actor's pool holds none of them. */
START_TEST(t_critic_states_on_its_pool)
{
    sim *s = test_example_new(EXAMPLE, NULL, 0, 0);
    const scn_scenario *sc = sim_scenario(s);
    const plan *pl = sim_plan(s);
    int cp = critic_pool_of(pl);
    ck_assert_int_ge(cp, 0);
    ck_assert_int_eq(pl->critic_pool, cp);
    const plan_pool *q = &pl->pools[cp], *tq = &pl->pools[pl->train_pool];
    mdl_states st = mdl_train_states(sc->critic.params_total, q->shard, sc->plan.train.zero, sc->plan.train.grad_dtype);
    /* --ds.adam_offload: OpenRLHF's one DeepSpeed strategy puts the critic's
    ** Adam on the host too; ZeRO-3's FP32 master leaves its BF16 half */
    ck_assert(sc->plan.train.optimizer_offload == 1 && sc->plan.train.grad_dtype == GRAD_FP32);
    st.optimizer = 0;
    st.weights *= 0.5;
    ck_assert_int_eq(q->shard, 4);
    ck_assert_msg(fabs(q->train_mem[MB_CRITIC] - (st.weights + st.grads + st.optimizer)) <= 1e-9 * q->train_mem[MB_CRITIC],
                  "critic pool books %.6g B, the critic's states are %.6g B", q->train_mem[MB_CRITIC],
                  st.weights + st.grads + st.optimizer);
    ck_assert(tq->train_mem[MB_CRITIC] == 0);
    /* the critic's pool holds no actor states, its reward model is there */
    ck_assert(q->train_mem[MB_WEIGHTS] == 0 && q->train_mem[MB_OPTIMIZER] == 0);
    ck_assert(q->train_mem[MB_REWARD_WEIGHTS] > 0 && tq->train_mem[MB_REWARD_WEIGHTS] == 0);
    ck_assert(pl->fits);
    sim_free(s);
}
END_TEST

/* The engine trains the critic on its pool at the same time as the actor
** on its own, and the step ends after both; the estimate's parts (the
** critic's value pass and its mini-batches) are the engine's within the
** spread of drawn lengths (t_estimate_zero3_placed's parts agree to 1e-6
** on equal lengths). */
START_TEST(t_critic_trains_beside_the_actor)
{
    sim *s = test_example_new(EXAMPLE, NULL, 0, 1);
    ck_assert(sim_run(s));
    ck_assert(sim_error(s) == NULL);
    const scn_scenario *sc = sim_scenario(s);
    const plan *pl = sim_plan(s);
    int cp = pl->critic_pool;
    ck_assert_int_ge(cp, 0);
    double ca, cb, aa, ab, fa, fb, xa, xb;
    phase_extent(s, cp, PH_CRITIC_TRAIN, &ca, &cb);
    phase_extent(s, pl->train_pool, PH_TRAIN_FWD, &aa, &ab);
    phase_extent(s, cp, PH_CRITIC_FWD, &fa, &fb);
    ck_assert_msg(isfinite(ca) && isfinite(aa) && isfinite(fa), "critic train %g, actor train %g, critic fwd %g", ca, aa, fa);
    /* nothing of the critic on the actor's pool */
    phase_extent(s, pl->train_pool, PH_CRITIC_TRAIN, &xa, &xb);
    ck_assert(!isfinite(xa));
    phase_extent(s, pl->train_pool, PH_CRITIC_FWD, &xa, &xb);
    ck_assert(!isfinite(xa));
    /* concurrent: the critic's training overlaps the actor's */
    ck_assert_msg(ca < ab && aa < cb, "critic [%g, %g], actor [%g, %g]", ca, cb, aa, ab);
    /* the barrier: step 0 ends after the later of the two trainings' ends
    ** (its optimizer steps included) */
    const trace *t = sim_trace(s);
    double end0 = -1;
    for (size_t i = 0; i < trace_ninstants(t); i++) {
        const trace_instant *x = &trace_instants(t)[i];
        if (x->kind == INST_ITER_END && x->iter == 0) end0 = sim_secs(x->t);
    }
    double oa, ob;
    phase_extent(s, cp, PH_OPTIMIZER, &oa, &ob);
    ck_assert_msg(end0 >= ob - 1e-9, "step 0 ended at %g s, the critic's optimizer at %g s", end0, ob);
    /* the estimate's parts */
    est_lengths len;
    est_lengths_of(&sc->work, &len);
    const plan_pool *q = &pl->pools[cp];
    double want = sc->work.minibatches * sc->work.epochs * est_train_minibatch(&len, sc, q, &sc->critic);
    double got = ob - ca;
    /* the engine's micro-batches are the drawn lengths' (the most loaded
    ** rank's), the estimate's their mean: 3% */
    ck_assert_msg(fabs(got - want) <= 0.03 * want, "critic training: engine %.9g s, estimate %.9g s", got, want);
    want = est_fwd_pass(&len, sc, q, &sc->critic);
    ck_assert_msg(fabs((fb - fa) - want) <= 0.03 * want, "critic value pass: engine %.9g s, estimate %.9g s", fb - fa, want);
    sim_free(s);
}
END_TEST

static double run_tokens_per_s(const char *const *sets, int n, double *est)
{
    sim *s = test_example_new(EXAMPLE, sets, n, 0);
    ck_assert(sim_run(s));
    ck_assert(sim_error(s) == NULL);
    const sim_stats *st = sim_get_stats(s);
    double w = sim_secs(st->window_t1 - st->window_t0), v = st->measured_tokens / w;
    *est = est_scenario_throughput(sim_scenario(s), sim_plan(s));
    sim_free(s);
    return v;
}

/* The example's figures: its throughput, the estimate's within the
** planner's ranking error of it, and the same run with the critic moved
** to the actor's pool (what fusync did before) slower by the critic's
** training that no longer runs beside the actor's. */
START_TEST(t_example_figures)
{
    double e_own, e_on;
    double own = run_tokens_per_s(NULL, 0, &e_own);
    const char *on_actor[] = {"plan.pools.2.roles.3=critic", "plan.pools.3.roles.1=reward"};
    double on = run_tokens_per_s(on_actor, 2, &e_on);
    ck_assert_msg(fabs(own - 9685) <= 0.005 * 9685, "critic pool: %.1f tokens/s", own);
    ck_assert_msg(fabs(e_own - own) <= 0.05 * own, "estimate %.1f, engine %.1f tokens/s", e_own, own);
    ck_assert_msg(fabs(e_on - on) <= 0.05 * on, "critic on the actor's pool: estimate %.1f, engine %.1f tokens/s", e_on, on);
    ck_assert_msg(own > 1.5 * on, "critic pool %.1f, on the actor's pool %.1f tokens/s", own, on);
}
END_TEST

/* The critic on one pool, and one that does not generate: else exit 2
** naming plan.pools. */
START_TEST(t_critic_pool_refused)
{
    const char *cases[][2] = {
        {"--set plan.pools.2.roles.3=critic", "plan.pools: 2 pools hold the \"critic\" role"},
        {"--set plan.pools.1.roles.2=critic --set plan.pools.3.roles.1=reward --set plan.pools.3.roles.2=reward",
         "plan.pools[1]: pool 'vllm' holds the critic and generates"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], *out = NULL;
        snprintf(cmd, sizeof cmd, "%s check %s/examples/" EXAMPLE " %s 2>&1", test_fusync(), test_root(), cases[i][0]);
        int rc = test_sh(cmd, &out);
        ck_assert_int_eq(rc, 2);
        ck_assert_msg(strstr(out, cases[i][1]), "%s", out);
        free(out);
    }
}
END_TEST

static Suite *critic_pool_suite(void)
{
    Suite *s = suite_create("critic_pool");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_critic_states_on_its_pool);
    tcase_add_test(tc, t_critic_trains_beside_the_actor);
    tcase_add_test(tc, t_example_figures);
    tcase_add_test(tc, t_critic_pool_refused);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(critic_pool_suite)
