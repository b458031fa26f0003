/*
** test_planner.c — the planner's C API (planner.h) without the binary:
** enumeration counts, pruning agrees with plan_build, estimates are
** positive and finite, selection and ranking are ordered.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "planner.h"
#include "runner.h"
#include "engine.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two nodes of 8 H100s, Qwen2.5-7B with a reference model, short steps. */
static const char *tiny_lua =
    "local f = fusync\n"
    "return { name = 'tiny',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 2 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(100, 300),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 6, warmup = 1, seed = 3 },\n"
    "  plan = { mode = 'full', train = { tp = 2, pp = 1, micro_batch = 1 }, rollout = { tp = 1, max_seqs = 64 } },\n"
    "}\n";

static void load_tiny(scn_scenario *sc)
{
    char *path = test_tmpfile(".lua", tiny_lua);
    ck_assert_ptr_nonnull(path);
    fs_err err = {0, ""};
    bool ok = lscn_load(path, NULL, 0, sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "load: %s", err.msg);
}

static void start(planner *P)
{
    scn_scenario base;
    load_tiny(&base);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua"};
    fs_err err = {0, ""};
    ck_assert_msg(planner_init(P, &base, NULL, &po, &err), "%s", err.msg);
    ck_assert_int_eq(P->iterations, 6);         /* the final rung: the scenario's own */
    ck_assert_int_ge(P->ax.dispatch.n, 2);      /* every dispatch the field table knows */
}

static void axis(plan_axis *a, int n, const long *v)
{
    a->n = n;
    for (int i = 0; i < n; i++) a->v[i] = v[i];
}

/* Every layout pruned for not fitting really does not fit; every one kept
** really fits, by plan_build itself. */
typedef struct {
    planner *P;
    long fit, unfit;
} visit_count;

static void check_fit(void *ud, const plan_cand *c, bool fits)
{
    visit_count *v = ud;
    scn_scenario s;
    planner_apply(v->P, c, &s);
    fs_err err = {0, ""};
    plan pl;
    /* kept: it builds and (nearly) fits; the scenario's own plan whenever it builds */
    bool own = c->mode < 0 && c->explicit_idx < 0;
    bool really = scn_validate(&s, &err) && plan_build(&s, &pl, &err) && (planner_keeps(&s, &pl) || own);
    ck_assert_msg(really == fits, "candidate %ld (mode %d, train %d/%d/%d mb %d, rollout %d/%d/%d): planner says %s, "
                  "plan_build says %s (%s)", c->index, c->mode, c->ttp, c->tpp, c->tep, c->mb, c->rtp, c->rep, c->seqs,
                  fits ? "fits" : "does not fit", really ? "fits" : "does not fit", err.msg);
    if (fits) v->fit++;
    else v->unfit++;
}

START_TEST(t_enumeration_count)
{
    planner P;
    start(&P);
    /* four modes; training tp 1 or 2; one of everything else; staleness 0
    ** (one setting) and 1 (two partial-rollout thresholds): 3 per layout */
    long modes[] = {PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID};
    long tp[] = {1, 2}, one[] = {1}, seqs[] = {64}, st[] = {0, 1}, pr[] = {100, 80}, share[] = {25, 50, 75};
    axis(&P.ax.modes, 4, modes);
    axis(&P.ax.train_tp, 2, tp);
    axis(&P.ax.train_pp, 1, one);
    axis(&P.ax.train_ep, 1, one);
    axis(&P.ax.micro_batch, 1, one);
    axis(&P.ax.rollout_tp, 1, one);
    axis(&P.ax.rollout_ep, 1, one);
    axis(&P.ax.max_seqs, 1, seqs);
    axis(&P.ax.staleness, 2, st);
    axis(&P.ax.partial_pct, 2, pr);
    axis(&P.ax.rollout_share_pct, 3, share);
    visit_count v = {&P, 0, 0};
    P.visit = check_fit;
    P.visit_ud = &v;
    planner_enumerate(&P);
    /* 16 devices in nodes of 8: in whole nodes separate and hybrid split
    ** 8 + 8 only (25 and 50 % round to one node, 75 % to all of them); two
    ** nodes are a small cluster, so half nodes too: 4 + 12 and 12 + 4;
    ** colocate puts the reference on an eighth or a quarter of the
    ** cluster, less than a node: none.  Layouts: the scenario's own plan +
    ** (separate 3 x 2 + full 2 + hybrid 3 x 2), each of the fourteen with 3
    ** staleness settings. */
    ck_assert_int_eq(v.fit + v.unfit, 15);
    long nd = P.ax.dispatch.n;
    ck_assert_int_eq(P.evaluated, 1 + 14 * 3 * nd);
    /* layouts kept once each; variants pruned with their layout; every
    ** staleness x partial-rollout variant of a kept layout estimated */
    ck_assert_int_eq(P.nc, v.fit);
    ck_assert_int_eq(P.pruned, (v.unfit) * 3 * nd);
    ck_assert_int_eq(P.estimated, 1 + (v.fit - 1) * 3);
    planner_free(&P);
}
END_TEST

/* Constraints narrow the axes before enumeration (planner_opts): a
** staleness limit keeps the bounds up to it, --mode the planner modes of
** that plan.mode, a --fix one value of its axis (a partial rollout below 1
** drops staleness 0, which runs whole); the constraints print as searched;
** an axis left empty is an error; the baseline outside them says why. */
START_TEST(t_constraints)
{
    scn_scenario base;
    load_tiny(&base);
    const char *fixes[] = {"plan.train.tp=2", "plan.partial_rollout=0.8", "plan.rollout.dispatch=queue"};
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua",
                       .has_mode = true, .mode_only = MODE_SEPARATE, .has_stale_max = true, .stale_max = 2,
                       .fixes = fixes, .nfixes = 3};
    fs_err err = {0, ""};
    planner *P = xcalloc(1, sizeof *P);
    ck_assert_msg(planner_init(P, &base, NULL, &po, &err), "%s", err.msg);
    ck_assert_int_eq(P->ax.staleness.n, 2);                 /* {1, 2}: 0 runs whole, 3 is past the limit */
    ck_assert_int_eq(P->ax.staleness.v[0], 1);
    ck_assert_int_eq(P->ax.staleness.v[1], 2);
    ck_assert_int_eq(P->ax.train_tp.n, 1);
    ck_assert_int_eq(P->ax.train_tp.v[0], 2);
    ck_assert_int_eq(P->ax.partial_pct.n, 1);
    ck_assert_int_eq(P->ax.partial_pct.v[0], 80);
    ck_assert_int_eq(P->ax.dispatch.n, 1);
    for (int i = 0; i < P->ax.modes.n; i++)
        ck_assert(P->ax.modes.v[i] == PLANNER_SEPARATE || P->ax.modes.v[i] == PLANNER_SPREAD);
    ck_assert_ptr_nonnull(strstr(P->searched, "staleness {1,2}"));
    ck_assert_ptr_nonnull(strstr(P->searched, "plan.train.tp=2 held"));
    planner_enumerate(P);
    for (long i = 0; i < P->nc; i++) {
        if (P->c[i].mode < 0) continue;
        ck_assert(P->c[i].mode == PLANNER_SEPARATE || P->c[i].mode == PLANNER_SPREAD);
        ck_assert_int_eq(P->c[i].ttp, 2);
    }
    planner_select(P, 0);
    for (int i = 0; i < P->nsel; i++) {
        if (P->sel[i].mode < 0) continue;
        ck_assert(P->sel[i].stale >= 1 && P->sel[i].stale <= 2);
        ck_assert_int_eq(P->sel[i].partial_pct, 80);
    }
    planner_free(P);
    /* nothing left: a limit below every bound a policy could give */
    const char *none[] = {"plan.staleness=3"};
    planner_opts p2 = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua",
                       .has_stale_max = true, .stale_max = 1, .fixes = none, .nfixes = 1};
    ck_assert(!planner_init(P, &base, NULL, &p2, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "no value of staleness"));
    planner_free(P);
    ck_assert(planner_searches("plan.train.tp=4"));
    ck_assert(planner_searches("plan.pools.1.devices=8"));
    ck_assert(!planner_searches("workload.iterations=2"));
    ck_assert(!planner_fix_ok("plan.train.tp=x", &err));
    ck_assert(!planner_fix_ok("plan.train.dp=2", &err));
    ck_assert(planner_fix_ok("workload.seed=3", &err));
    free(P);
}
END_TEST

/* Context parallelism is searched only where sequences are long (docs/
** model.md, section 7): the tiny scenario's 2,300-token sequences give one
** cp, 20,000-token responses give cp 1, 2 and 4, and the enumeration then
** visits context-parallel layouts whose TP·CP stays inside a node, each
** built and fitted as plan_build says. */
typedef struct {
    visit_count v;              /* first: check_fit reads it */
    long cp;                    /* context-parallel candidates visited */
} cp_count;

static void cp_candidate(void *ud, const plan_cand *c, bool fits)
{
    cp_count *k = ud;
    check_fit(&k->v, c, fits);
    if (c->tcp > 1) {
        ck_assert_int_le(c->ttp * c->tcp, 8);
        k->cp++;
    }
}

/* Expert tensor parallelism (docs/model.md, section 3): for a MoE actor the
** planner tries each expert whole (1) and Megatron's default, the
** candidate's TP (0); a dense actor keeps the scenario's value. */
START_TEST(t_etp_axis_for_moe)
{
    planner P;
    start(&P);
    ck_assert_int_eq(P.ax.train_etp.n, 1);
    ck_assert_int_eq(P.ax.train_etp.v[0], 0);
    planner_free(&P);
    char *path = test_tmpfile(".lua", tiny_lua);
    const char *sets[] = {"models.actor=qwen3_30b_a3b", "models.reference=qwen3_30b_a3b"};
    scn_scenario sc;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, sets, 2, &sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "%s", err.msg);
    ck_assert_int_gt(sc.actor.experts, 0);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua"};
    ck_assert_msg(planner_init(&P, &sc, NULL, &po, &err), "%s", err.msg);
    ck_assert_int_eq(P.ax.train_etp.n, 2);
    ck_assert_int_eq(P.ax.train_etp.v[0], 1);
    ck_assert_int_eq(P.ax.train_etp.v[1], 0);
    planner_free(&P);
}
END_TEST

START_TEST(t_cp_axis_for_long_sequences)
{
    planner P;
    start(&P);
    ck_assert_int_eq(P.ax.train_cp.n, 1);
    planner_free(&P);
    char *path = test_tmpfile(".lua", tiny_lua);
    const char *sets[] = {"workload.max_response=20000", "workload.response_len.cap=20000"};
    scn_scenario sc;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, sets, 2, &sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "%s", err.msg);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua"};
    ck_assert_msg(planner_init(&P, &sc, NULL, &po, &err), "%s", err.msg);
    ck_assert_int_eq(P.ax.train_cp.n, 3);
    long modes[] = {PLANNER_FULL}, tp[] = {2, 8}, one[] = {1}, seqs[] = {64}, st[] = {0};
    axis(&P.ax.modes, 1, modes);
    axis(&P.ax.train_tp, 2, tp);
    axis(&P.ax.train_pp, 1, one);
    axis(&P.ax.train_ep, 1, one);
    axis(&P.ax.micro_batch, 1, one);
    axis(&P.ax.rollout_tp, 1, one);
    axis(&P.ax.rollout_ep, 1, one);
    axis(&P.ax.max_seqs, 1, seqs);
    axis(&P.ax.staleness, 1, st);
    cp_count k = {{&P, 0, 0}, 0};
    P.visit = cp_candidate;
    P.visit_ud = &k;
    planner_enumerate(&P);
    /* the own plan + tp 2 at cp 1, 2, 4 + tp 8 at cp 1 (8·2 > a node) */
    ck_assert_int_eq(k.v.fit + k.v.unfit, 1 + 3 + 1);
    ck_assert_int_eq(k.cp, 2);
    planner_free(&P);
}
END_TEST

START_TEST(t_pruned_do_not_fit)
{
    planner P;
    start(&P);
    visit_count v = {&P, 0, 0};
    P.visit = check_fit;
    P.visit_ud = &v;
    planner_enumerate(&P);
    /* the default search of this cluster has both kinds */
    ck_assert_int_gt(v.fit, 0);
    ck_assert_int_gt(v.unfit, 0);
    ck_assert_int_gt(P.pruned, 0);
    ck_assert_int_eq(P.nc, v.fit);
    for (long i = 0; i < P.nc; i++)
        ck_assert_msg(P.c[i].est > 0 && isfinite(P.c[i].est), "candidate %ld: estimate %g", i, P.c[i].est);
    planner_free(&P);
}
END_TEST

START_TEST(t_estimate_direct)
{
    planner P;
    start(&P);
    /* the scenario's own plan, estimated from its built plan */
    plan_cand own = {.mode = -1, .explicit_idx = -1};
    scn_scenario s;
    planner_apply(&P, &own, &s);
    plan pl;
    fs_err err = {0, ""};
    ck_assert_msg(plan_build(&s, &pl, &err), "%s", err.msg);
    double e0 = est_throughput(&P.len, &s, &pl);
    ck_assert(e0 > 0 && isfinite(e0));
    /* a staleness bound lets generation overlap training: never slower, as
    ** long as the step does not stream (at s >= 1 with several mini-batches
    ** the engine runs the forward passes per mini-batch, each paying its
    ** pipeline fill: that may cost more than the overlap gains) */
    s.work.minibatches = 1;
    e0 = est_throughput(&P.len, &s, &pl);
    s.plan.staleness = 1;
    double e1 = est_throughput(&P.len, &s, &pl);
    ck_assert(e1 > 0 && isfinite(e1));
    ck_assert_msg(e1 >= e0 * (1 - 1e-12), "staleness 1 estimated slower: %g < %g", e1, e0);
    /* what a higher bound buys tells the bounds apart: separate pools, the
    ** long tail absorbed by a deeper buffer, so 1 < 2 < 3 strictly */
    scn_scenario sp = P.base;
    sp.plan.mode = MODE_SEPARATE;
    sp.plan.rollout_devices = 8;
    sp.plan.npools = 0;
    sp.work.minibatches = 1;
    plan pls;
    ck_assert_msg(plan_build(&sp, &pls, &err), "%s", err.msg);
    double prev = 0;
    for (int b = 1; b <= 3; b++) {
        sp.plan.staleness = b;
        double e = est_throughput(&P.len, &sp, &pls);
        ck_assert_msg(e > prev, "staleness %d estimated %g, not above %g", b, e, prev);
        prev = e;
    }
    planner_free(&P);
}
END_TEST

/* Fixed lengths, so the estimate's mean-length micro-batches are the
** engine's: two nodes, rollout on one, training (tp 2, pp 2) on the other. */
static const char *fixed_lua =
    "local f = fusync\n"
    "return { name = 'fixed',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 2 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(256), response_len = f.dist.fixed(512),\n"
    "    max_response = 512, iterations = 2, warmup = 0, seed = 3 },\n"
    "  plan = { mode = 'separate', rollout_devices = 8,\n"
    "    train = { tp = 2, pp = 2, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 64 } },\n"
    "}\n";

/* Span extent of iteration 0's spans of phases [lo, hi] (by trace_phase),
** of one track (track >= 0) or of every pool track. */
static void extent(const trace *tr, int lo, int hi, int track, double *a, double *b)
{
    *a = INFINITY;
    *b = -INFINITY;
    const trace_span *sp = trace_spans(tr);
    for (size_t i = 0; i < trace_nspans(tr); i++) {
        if (sp[i].iter != 0 || sp[i].phase < lo || sp[i].phase > hi) continue;
        if (track >= 0 && sp[i].track != track) continue;
        if (trace_track_at(tr, sp[i].track)->kind == TRK_STEP) continue;     /* its phases are another enum */
        *a = fmin(*a, sp[i].t0 * 1e-9);
        *b = fmax(*b, sp[i].t1 * 1e-9);
    }
}

/* The estimate's decode step, forward pass and training of a mini-batch are
** the engine's for the same inputs (both call src/model.h's per-phase times),
** on the scenario's layout and on layouts with context parallelism, ZeRO-2/3,
** HSDP and overlap (docs/model.md, section 7). */
static void estimate_parts_case(const char *const *sets, int nsets)
{
    char *path = test_tmpfile(".lua", fixed_lua);
    scn_scenario sc;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, sets, nsets, &sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "%s", err.msg);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "fixed.lua"};
    planner P;
    ck_assert_msg(planner_init(&P, &sc, NULL, &po, &err), "%s", err.msg);
    plan pl;
    ck_assert_msg(plan_build(&P.base, &pl, &err), "%s", err.msg);
    const plan_pool *tq = &pl.pools[pl.train_pool];
    sim *s = sim_new(&P.base, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    sim_run(s);
    ck_assert(sim_error(s) == NULL);
    const trace *tr = sim_trace(s);
    const scn_workload *w = &P.base.work;
    /* forward passes: old log-probs then the reference model, each over the
    ** whole batch (no streaming at s = 0); back to back, their spans merge */
    ck_assert(w->recompute_logprob);
    double a, b;
    extent(tr, PH_LOGPROB, PH_REF, -1, &a, &b);
    double want = est_fwd_pass(&P.len, &P.base, tq, &P.base.actor) + est_fwd_pass(&P.len, &P.base, tq, &P.base.ref);
    ck_assert_msg(isfinite(a) && fabs((b - a) - want) <= 1e-6 * want, "forward passes: engine %.9g s, estimate %.9g s", b - a, want);
    /* training: the step's mini-batches back to back, 1F1B to optimizer */
    extent(tr, PH_TRAIN_FWD, PH_TRAIN_1F1B, -1, &a, &b);
    double a2, b2;
    extent(tr, PH_OPTIMIZER, PH_OPTIMIZER, -1, &a2, &b2);
    want = w->minibatches * w->epochs * est_train_minibatch(&P.len, &P.base, tq, &P.base.actor);
    ck_assert_msg(isfinite(a) && fabs((b2 - a) - want) <= 1e-6 * want, "training: engine %.9g s, estimate %.9g s", b2 - a, want);
    /* decode: 8 sequences an instance, all admitted at once, 512 steps from
    ** context 256 to 767: the mean step at context 256 + 511/2 */
    const plan_pool *rq = NULL;
    for (int i = 0; i < pl.npools; i++) if (i != pl.train_pool && (pl.pools[i].roles & ROLE_ROLLOUT)) rq = &pl.pools[i];
    ck_assert_ptr_nonnull(rq);
    ck_assert_int_eq(rq->instances, 8);
    const trace_span *sp = trace_spans(tr);
    int track = -1;
    for (size_t i = 0; i < trace_nspans(tr) && track < 0; i++) if (sp[i].phase == PH_GENERATE) track = sp[i].track;
    extent(tr, PH_GENERATE, PH_GENERATE, track, &a, &b);
    want = 512 * est_decode_step(&P.base, rq, 8, 256 + 511 / 2.0);
    ck_assert_msg(isfinite(a) && fabs((b - a) - want) <= 1e-6 * want, "decode: engine %.9g s, estimate %.9g s", b - a, want);
    sim_free(s);
    planner_free(&P);
}

START_TEST(t_estimate_parts_are_the_engines)
{
    estimate_parts_case(NULL, 0);
    const char *cp[] = {"plan.train.cp=2", "plan.train.cp_kind=ulysses", "plan.train.zero=3", "plan.train.overlap_tp=0.5"};
    estimate_parts_case(cp, 4);
    const char *hsdp[] = {"plan.train.zero=2", "plan.train.shard_group=1", "plan.train.overlap_grad=0.5",
                          "plan.train.overlap_tp=1"};
    estimate_parts_case(hsdp, 4);
    const char *ring[] = {"plan.train.cp=2", "plan.train.zero=3", "plan.train.shard_group=1", "plan.train.overlap_grad=1"};
    estimate_parts_case(ring, 4);
}
END_TEST

START_TEST(t_select_and_rank)
{
    planner P;
    start(&P);
    planner_enumerate(&P);
    planner_select(&P, 24);
    ck_assert_int_ge(P.nsel, 24);
    /* the layouts are sorted by estimate, best first */
    for (long i = 1; i < P.nc; i++) ck_assert(P.c[i - 1].est >= P.c[i].est);
    /* the scenario's own plan is always simulated, first */
    ck_assert_int_eq(P.sel[0].mode, -1);
    /* every selected candidate once; a layout with every variant */
    long nvar = (1 + 3 * 3) * P.ax.dispatch.n;
    for (int i = 0; i < P.nsel; i++) {
        const plan_cand *a = &P.sel[i];
        int same_layout = 0;
        for (int k = 0; k < P.nsel; k++) {
            const plan_cand *b = &P.sel[k];
            if (b->index != a->index) continue;
            same_layout++;
            if (k < i) ck_assert(a->stale != b->stale || a->partial_pct != b->partial_pct || a->dispatch != b->dispatch);
        }
        if (a->mode >= 0) ck_assert_int_eq(same_layout, nvar);
    }
    /* the rungs: from every candidate to the scenario's own window */
    ck_assert_int_ge(P.nrungs, 1);
    ck_assert_int_eq(P.rung_n[0], P.nsel);
    ck_assert_int_eq(P.rung_iters[P.nrungs - 1], P.iterations);
    for (int r = 1; r < P.nrungs; r++) {
        ck_assert_int_le(P.rung_n[r], P.rung_n[r - 1]);
        ck_assert_int_ge(P.rung_iters[r], P.rung_iters[r - 1]);
    }

    rtable t;
    rtable_init(&t, "plan");
    planner_cols(&P, &t);
    int n = P.nsel < 4 ? P.nsel : 4;
    fs_err err = {0, ""};
    for (int id = 0; id < n; id++) ck_assert_msg(planner_simulate(&P, id, P.iterations, &t, &err), "%s", err.msg);
    ck_assert_int_eq(t.nrows, n);
    /* rows of made-up figures too: infeasible ones and ties */
    int fc = rtable_col(&t, "feasible"), sc = rtable_col(&t, "score");
    for (int k = 0; k < 6; k++) {
        rt_row *r = rtable_new_row(&t, 100 + k);
        rt_row_set_int(r, rtable_col(&t, "id"), 100 + k);
        rt_row_set_bool(r, fc, k % 3 != 0);
        rt_row_set_int(r, rtable_col(&t, "simulated_iterations"), P.iterations);
        rt_row_set_num(r, sc, k % 3 != 0 ? 1000.0 * (k % 2) : 0);
    }
    plan_sort(&t);
    int nfeas = 0;
    for (int i = 0; i < t.nrows; i++) nfeas += rt_row_true(&t.rows[i], fc);
    ck_assert_int_ge(nfeas, 4);
    for (int i = 1; i < t.nrows; i++) {
        const rt_row *a = &t.rows[i - 1], *b = &t.rows[i];
        ck_assert_msg(rt_row_true(a, fc) >= rt_row_true(b, fc), "an infeasible row ranks above a feasible one at %d", i);
        if (rt_row_true(a, fc) && rt_row_true(b, fc)) {
            double sa = rt_row_num(a, sc), sb = rt_row_num(b, sc);
            ck_assert_msg(sa > sb || (sa == sb && a->id < b->id), "rows %d (%g, id %d) and %d (%g, id %d) out of order",
                          i - 1, sa, a->id, i, sb, b->id);
        } else if (!rt_row_true(a, fc) && !rt_row_true(b, fc)) {
            ck_assert_int_lt(a->id, b->id);
        }
    }
    /* a simulated feasible row scores its throughput (objective throughput) */
    for (int i = 0; i < t.nrows; i++) {
        const rt_row *r = &t.rows[i];
        if (r->id >= 100 || !rt_row_true(r, fc)) continue;
        double tp = rt_row_num(r, rtable_col(&t, "throughput_tokens_per_s"));
        ck_assert(tp > 0 && isfinite(tp));
        ck_assert(rt_row_num(r, sc) == tp);
    }
    rtable_free(&t);
    planner_free(&P);
}
END_TEST


/* Feasibility three ways over a few hundred random layouts and device
** memory sizes: `fusync check` (scn_validate + plan_build's fit), `fusync
** run` (the engine's memory ledger over a short run) and the planner (which
** prunes on check's fit and drops what overflows in simulation).  All three
** must agree on every layout (the analytic fit is the ledger's peak,
** docs/model.md, section 11). */
static unsigned lcg(unsigned *x) { *x = *x * 1103515245u + 12345u; return (*x >> 16) & 0x7fff; }

START_TEST(t_feasibility_agrees)
{
    planner P;
    start(&P);
    unsigned seed = 12345;
    const int modes[] = {PLANNER_SEPARATE, PLANNER_COLOCATE, PLANNER_FULL, PLANNER_HYBRID};
    const int tps[] = {1, 2, 4}, pps[] = {1, 2, 4}, mbs[] = {1, 2}, seqs[] = {32, 128, 512, 2048};
    const int stale[] = {0, 1, 2, 3}, part[] = {100, 80, 60};
    const double gib[] = {12, 16, 20, 24, 32, 48, 80};
    int tried = 0, valid = 0, nfit = 0, nrun = 0, check_run = 0, planner_run = 0;
    char first[512] = "";
    for (int i = 0; i < 400; i++) {
        plan_cand c = {.explicit_idx = -1, .supernodes = 1, .nodes = 2, .tep = 1, .rep = 1};
        c.mode = modes[lcg(&seed) % 4];
        c.split = 8;
        c.ttp = tps[lcg(&seed) % 3];
        c.tpp = pps[lcg(&seed) % 3];
        c.mb = mbs[lcg(&seed) % 2];
        c.rtp = tps[lcg(&seed) % 3];
        c.seqs = seqs[lcg(&seed) % 4];
        c.stale = stale[lcg(&seed) % 4];
        c.partial_pct = c.stale ? part[lcg(&seed) % 3] : 100;
        c.dispatch = (int)P.ax.dispatch.v[lcg(&seed) % (unsigned)P.ax.dispatch.n];
        scn_scenario s;
        planner_apply(&P, &c, &s);
        s.cluster.device.hbm_bytes = gib[lcg(&seed) % 7] * 1073741824.0;
        /* the run's ledger holds what the allocator books, not the CUDA
        ** context check adds beside it (docs/model.md, section 11): the
        ** three agree on the ledger's part */
        s.plan.cuda_context_bytes = 0;
        s.work.iterations = 3;
        s.work.warmup = 1;
        tried++;
        fs_err err = {0, ""};
        plan pl;
        if (!scn_validate(&s, &err) || !plan_build(&s, &pl, &err)) continue;  /* a layout error, not memory */
        valid++;
        bool check = pl.fits;
        runner_spec spec = {.scn = &s};
        runner *r = runner_open(&spec, &err);
        ck_assert_msg(r, "runner_open: %s", err.msg);
        report rep;
        ck_assert_msg(runner_close(r, &rep, &err), "run: %s", err.msg);
        runner_free(r);
        /* the planner: pruned unless check fits or nearly does, then
        ** infeasible if the simulation overflowed */
        bool by_planner = planner_keeps(&s, &pl) && rep.feasible;
        nfit += check;
        nrun += rep.feasible;
        if (check != rep.feasible) {
            check_run++;
            if (!first[0])
                snprintf(first, sizeof first, "mode %d train %d/%d mb %d rollout tp %d seqs %d stale %d, %.0f GiB: "
                         "check %s (%s), run %s (%s)", c.mode, c.ttp, c.tpp, c.mb, c.rtp, c.seqs, c.stale,
                         s.cluster.device.hbm_bytes / 1073741824.0, check ? "fits" : "does not fit", pl.fit_msg,
                         rep.feasible ? "feasible" : "infeasible", rep.why);
        }
        planner_run += by_planner != rep.feasible;
    }
    ck_assert_int_ge(valid, 200);
    /* both answers occur, or the test shows nothing */
    ck_assert_int_gt(nrun, 20);
    ck_assert_int_lt(nrun, valid - 20);
    /* check and run compute the same peak (plan.c's pool_peak is what the
    ** ledger books, switches in their order and activations at their
    ** reservation; docs/model.md, sections 8 and 11): they agree on every
    ** layout */
    ck_assert_msg(check_run == 0, "check and run disagree on %d of %d layouts (fit %d, run %d); first: %s",
                  check_run, valid, nfit, nrun, first);
    ck_assert_msg(planner_run == 0, "the planner and run disagree on %d of %d layouts", planner_run, valid);
    (void)tried;
    planner_free(&P);
}
END_TEST

/* Successive halving's choices on made-up figures: the baseline always
** survives, every staleness bound keeps its share (a short window must not
** drop a bound whole), the best of each bound first, infeasible never; a
** dropped candidate is extrapolated by the finalists of its kind. */
START_TEST(t_survivors_and_extrapolation)
{
    planner P;
    start(&P);
    P.nsel = 41;
    P.sel = xcalloc((size_t)P.nsel, sizeof *P.sel);
    P.nrungs = 2;
    for (int i = 0; i < P.nsel; i++) {
        plan_cand *c = &P.sel[i];
        c->mode = i == 0 ? -1 : PLANNER_FULL;
        c->explicit_idx = -1;
        c->stale = i == 0 ? 0 : (i - 1) % 4;            /* ten of each bound 0..3 */
        c->partial_pct = c->stale ? 60 : 100;
        /* a short window favours bound 0: bounds 1-3 score low */
        c->figure = c->fig_rung[0] = i == 0 ? 1.0 : c->stale == 0 ? 100.0 + i : 10.0 + i;
        c->fig_rung[1] = NAN;
        c->rung = 0;
    }
    P.sel[5].figure = P.sel[5].fig_rung[0] = -INFINITY;     /* infeasible */
    int ids[41], out[41];
    for (int i = 0; i < 41; i++) ids[i] = i;
    int n = planner_survivors(&P, ids, 41, 8, out);
    int per[4] = {0, 0, 0, 0};
    bool base = false;
    for (int k = 0; k < n; k++) {
        const plan_cand *c = &P.sel[out[k]];
        ck_assert_msg(isfinite(c->figure), "an infeasible candidate survived");
        if (c->mode < 0) base = true;
        else per[c->stale]++;
    }
    ck_assert_msg(base, "the baseline did not survive");
    for (int st = 0; st < 4; st++) ck_assert_msg(per[st] >= 2, "bound %d kept %d", st, per[st]);
    ck_assert_int_le(n, 8 + 4 + 1);
    /* within a bound, the best: bound 1's survivors are its two highest */
    for (int k = 0; k < n; k++) {
        const plan_cand *c = &P.sel[out[k]];
        if (c->mode >= 0 && c->stale == 1) ck_assert_int_ge(out[k], 33);
    }
    /* finalists: bound-1 plans gain x1.5 over the whole window, bound 0 x0.9 */
    for (int k = 0; k < n; k++) {
        plan_cand *c = &P.sel[out[k]];
        c->rung = 1;
        c->fig_rung[1] = c->fig_rung[0] * (c->stale == 1 ? 1.5 : 0.9);
    }
    int m = 0;
    double x = planner_extrapolate(&P, 2, &m);          /* stale 1, dropped */
    ck_assert_int_eq(P.sel[2].stale, 1);
    ck_assert_int_eq(P.sel[2].rung, 0);
    ck_assert_int_ge(m, 2);
    ck_assert_msg(fabs(x - P.sel[2].fig_rung[0] * 1.5) < 1e-9, "extrapolated %g, want %g", x, P.sel[2].fig_rung[0] * 1.5);
    x = planner_extrapolate(&P, out[0], &m);            /* a finalist: nothing to extrapolate */
    ck_assert(isnan(x));
    planner_free(&P);
}
END_TEST

/* The off-policy price (planner.h, PLANNER_LAG_COST): the mean of
** 1/(1 + c lag) over a lag histogram; 1 with no lag, no cost or no samples. */
START_TEST(t_lag_value)
{
    int64_t h[SCN_STALENESS_MAX + 1] = {64, 192};
    ck_assert(fabs(planner_lag_value(h, 1, 0.5) - (64 + 192 / 1.5) / 256) < 1e-12);
    ck_assert(planner_lag_value(h, 1, 0.5) < 1);
    ck_assert(planner_lag_value(h, 1, 0) == 1);
    ck_assert(planner_lag_value(h, 0, 0.5) == 1);          /* only lag 0 counted */
    int64_t z[SCN_STALENESS_MAX + 1] = {0};
    ck_assert(planner_lag_value(z, 3, 0.5) == 1);
    /* more lag, less value: the same samples one version later */
    int64_t l[SCN_STALENESS_MAX + 1] = {0, 64, 192};
    ck_assert(planner_lag_value(l, 2, PLANNER_LAG_COST) < planner_lag_value(h, 1, PLANNER_LAG_COST));
}
END_TEST

/* The memory repair (planner_mem.c; docs/cli.md, `fusync plan`, "Memory
** repair"): with the engine awake through training (plan.rollout.sleep =
** "none"), co-located layouts of the tiny scenario overflow; the search
** keeps them with the engine asleep, each repaired candidate fitting by
** plan_build and not fitting with its features cleared.  A framework's
** table narrows the values (OpenRLHF sleeps at level 1 only, NeMo RL has no
** key for it), and a field the user sets is held. */
static bool admit_all(const scn_scenario *s, void *ud, char *why, size_t n)
{
    (void)s;
    (void)ud;
    (void)why;
    (void)n;
    return true;
}

/* Repaired candidates of a search: each fits as repaired and not as given;
** counts[v] of each sleep value set. */
static long repaired_check(planner *P, int counts[3])
{
    long n = 0;
    for (long i = 0; i < P->nc; i++) {
        plan_cand c = P->c[i];
        bool any = false;
        for (int f = 0; f < PLANNER_MEM__N; f++) any |= c.mem[f] != 0;
        if (!any) continue;
        n++;
        if (c.mem[PLANNER_MEM_SLEEP]) counts[c.mem[PLANNER_MEM_SLEEP] - 1]++;
        scn_scenario s;
        plan pl;
        fs_err err = {0, ""};
        planner_apply(P, &c, &s);
        ck_assert_msg(plan_build(&s, &pl, &err) && pl.fits, "candidate %ld repaired does not fit: %s", i, pl.fit_msg);
        memset(c.mem, 0, sizeof c.mem);
        planner_apply(P, &c, &s);
        ck_assert(plan_build(&s, &pl, &err));
        ck_assert_msg(!planner_keeps(&s, &pl), "candidate %ld fits as given, yet was repaired", i);
    }
    return n;
}

START_TEST(t_memory_repair)
{
    char *path = test_tmpfile(".lua", tiny_lua);
    const char *sets[] = {"plan.rollout.sleep=none", "plan.train.recompute=full"};
    scn_scenario sc;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, sets, 2, &sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "%s", err.msg);
    long modes[] = {PLANNER_FULL}, seqs[] = {64}, st[] = {0};
    const char *fws[] = {NULL, "openrlhf", "nemo-rl"};
    for (int k = 0; k < 3; k++) {
        planner *P = xcalloc(1, sizeof *P);
        planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua"};
        if (fws[k]) {
            po.admit = admit_all;
            po.admit_name = fws[k];
        }
        ck_assert_msg(planner_init(P, &sc, NULL, &po, &err), "%s", err.msg);
        axis(&P->ax.modes, 1, modes);
        axis(&P->ax.max_seqs, 1, seqs);
        axis(&P->ax.staleness, 1, st);
        unsigned sleep = planner_mem_offered(P, PLANNER_MEM_SLEEP);
        planner_enumerate(P);
        int counts[3] = {0, 0, 0};
        long n = repaired_check(P, counts);
        ck_assert_int_eq(n, P->repaired);
        if (k == 0) {
            ck_assert(sleep & (1u << SLEEP_DISCARD));
            ck_assert_msg(counts[SLEEP_DISCARD] > 0, "no layout repaired with the engine asleep");
        } else if (k == 1) {
            ck_assert_uint_eq(sleep, (1u << SLEEP_NONE) | (1u << SLEEP_OFFLOAD));
            ck_assert_uint_eq(planner_mem_offered(P, PLANNER_MEM_PARAMS), 0);
            ck_assert_uint_eq(planner_mem_offered(P, PLANNER_MEM_AUX_SHARD), 0);
            ck_assert_uint_eq(planner_mem_offered(P, PLANNER_MEM_AUX_OFFLOAD), 1u << AUX_OFFLOAD_HOST);   /* --ref.offload */
            ck_assert_int_eq(counts[SLEEP_DISCARD], 0);
            ck_assert_msg(counts[SLEEP_OFFLOAD] > 0, "openrlhf: no layout repaired at sleep level 1");
        } else {
            ck_assert_uint_eq(sleep, 0);
            ck_assert_uint_eq(planner_mem_offered(P, PLANNER_MEM_AUX_OFFLOAD), 0);   /* no key: always the host */
            ck_assert_int_eq(counts[SLEEP_OFFLOAD] + counts[SLEEP_DISCARD], 0);
        }
        ck_assert(planner_mem_offered(P, PLANNER_MEM_OPTIMIZER) & (1u << PLANNER_OPT_STEPS));
        planner_free(P);
        free(P);
    }
    /* the user's own value is held: a --set of the field */
    planner *P = xcalloc(1, sizeof *P);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua", .sets = sets, .nsets = 1};
    ck_assert_msg(planner_init(P, &sc, NULL, &po, &err), "%s", err.msg);
    ck_assert_uint_eq(planner_mem_offered(P, PLANNER_MEM_SLEEP), 0);
    ck_assert_uint_ne(planner_mem_offered(P, PLANNER_MEM_OPTIMIZER), 0);
    axis(&P->ax.modes, 1, modes);
    axis(&P->ax.max_seqs, 1, seqs);
    axis(&P->ax.staleness, 1, st);
    planner_enumerate(P);
    int counts[3] = {0, 0, 0};
    repaired_check(P, counts);
    ck_assert_int_eq(counts[0] + counts[1] + counts[2], 0);
    planner_free(P);
    free(P);
}
END_TEST

/* The optimizer's share on the host (planner_mem.c; docs/cli.md, `fusync
** plan`, "Memory repair"): Qwen2.5-32B under ZeRO-1 on four H20s fits with
** half of the optimizer on the host (tests/data/plan/adam_share.lua).  A
** framework with Megatron's optimizer_offload_fraction (verl, NeMo RL) is
** offered the shares, OpenRLHF's adam_offload and ZeRO-3 all of it only;
** every repaired candidate holds the smallest share that fits: a step less
** does not fit, and one repaired layout stops at a half. */
static const char *share_lua =
    "local f = fusync\n"
    "return { name = 'share',\n"
    "  cluster = { device = f.devices.h20, devices_per_node = 4, nodes_per_supernode = 1, host_mem_gb = 1024 },\n"
    "  models = { actor = f.models.qwen2_5_32b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 8, samples_per_prompt = 4, minibatches = 1,\n"
    "    prompt_len = f.dist.uniform(128, 256),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 1024},\n"
    "    max_response = 1024, iterations = 3, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'full', train = { tp = 4, pp = 1, micro_batch = 1, recompute = 'full', zero = 1 },\n"
    "           rollout = { tp = 4, max_seqs = 64, sleep = 'discard' } },\n"
    "}\n";

START_TEST(t_optimizer_share)
{
    char *path = test_tmpfile(".lua", share_lua);
    const char *z3[] = {"plan.train.zero=3"};
    scn_scenario sc, s3;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(path, NULL, 0, &sc, &err), "%s", err.msg);
    ck_assert_msg(lscn_load(path, z3, 1, &s3, &err), "%s", err.msg);
    unlink(path);
    free(path);
    const unsigned all = 1u << PLANNER_OPT_STEPS, half = 1u << (PLANNER_OPT_STEPS / 2);
    const char *fws[] = {"verl", "nemo-rl", "openrlhf", NULL};
    for (int k = 0; k < 4; k++)
        for (int z = 0; z < 2; z++) {
            planner *P = xcalloc(1, sizeof *P);
            planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "share.lua",
                               .admit = fws[k] ? admit_all : NULL, .admit_name = fws[k]};
            ck_assert_msg(planner_init(P, z ? &s3 : &sc, NULL, &po, &err), "%s", err.msg);
            unsigned o = planner_mem_offered(P, PLANNER_MEM_OPTIMIZER);
            ck_assert(o & all);
            /* a share below 1: Megatron's ZeRO-1 only, and not OpenRLHF's */
            bool shares = !z && k != 2;
            ck_assert_msg(((o & half) != 0) == shares, "%s zero %d: offered 0x%x", fws[k] ? fws[k] : "none", z ? 3 : 1, o);
            planner_free(P);
            free(P);
        }
    planner *P = xcalloc(1, sizeof *P);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "share.lua", .admit = admit_all, .admit_name = "verl"};
    ck_assert_msg(planner_init(P, &sc, NULL, &po, &err), "%s", err.msg);
    long modes[] = {PLANNER_FULL}, st[] = {0};
    axis(&P->ax.modes, 1, modes);
    axis(&P->ax.staleness, 1, st);
    planner_enumerate(P);
    int counts[3] = {0, 0, 0}, halves = 0;
    long n = repaired_check(P, counts);
    ck_assert_int_gt(n, 0);
    for (long i = 0; i < P->nc; i++) {
        plan_cand c = P->c[i];
        int q = c.mem[PLANNER_MEM_OPTIMIZER];
        if (q < 2) continue;                    /* none, or as given */
        halves += q - 1 == PLANNER_OPT_STEPS / 2;
        /* a step less: over the device */
        c.mem[PLANNER_MEM_OPTIMIZER] = (unsigned char)(q - 1);
        scn_scenario s;
        plan pl;
        planner_apply(P, &c, &s);
        ck_assert(plan_build(&s, &pl, &err));
        ck_assert_msg(!pl.fits, "candidate %ld: share %g fits, yet %g was kept", i, (q - 2.0) / PLANNER_OPT_STEPS,
                      (q - 1.0) / PLANNER_OPT_STEPS);
    }
    ck_assert_msg(halves > 0, "no layout repaired with half of the optimizer on the host");
    planner_free(P);
    free(P);
}
END_TEST

/* The critic's own pool (planner.c, critic_splits; docs/cli.md, `fusync
** plan`, "The critic's pool"): a PPO version of the tiny scenario gets
** separate layouts with the critic on a pool of its own without --framework
** and under OpenRLHF, each building with that pool as the critic's; under
** verl (one resource pool) and for GRPO none. */
START_TEST(t_critic_pool)
{
    char *path = test_tmpfile(".lua", tiny_lua);
    const char *ppo[] = {"workload.algorithm=ppo", "models.critic=qwen2_5_7b"};
    scn_scenario sc, grpo;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, ppo, 2, &sc, &err);
    ck_assert_msg(ok, "%s", err.msg);
    ck_assert_msg(lscn_load(path, NULL, 0, &grpo, &err), "%s", err.msg);
    unlink(path);
    free(path);
    ck_assert(sc.has_critic);
    long modes[] = {PLANNER_SEPARATE}, seqs[] = {64}, st[] = {0}, one[] = {1};
    const char *fws[] = {NULL, "openrlhf", "verl", NULL};
    for (int k = 0; k < 4; k++) {
        planner *P = xcalloc(1, sizeof *P);
        planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT, .top = 10, .input = "tiny.lua",
                           .admit = fws[k] ? admit_all : NULL, .admit_name = fws[k]};
        ck_assert_msg(planner_init(P, k == 3 ? &grpo : &sc, NULL, &po, &err), "%s", err.msg);
        axis(&P->ax.modes, 1, modes);
        axis(&P->ax.max_seqs, 1, seqs);
        axis(&P->ax.staleness, 1, st);
        axis(&P->ax.micro_batch, 1, one);
        planner_enumerate(P);
        long own = 0, on_train = 0;
        for (long i = 0; i < P->nc; i++) {
            const plan_cand *c = &P->c[i];
            if (c->mode < 0) continue;
            if (c->critic == 0) { on_train++; continue; }
            own++;
            scn_scenario s;
            plan pl;
            planner_apply(P, c, &s);
            ck_assert_msg(plan_build(&s, &pl, &err), "%s", err.msg);
            ck_assert_int_ge(pl.critic_pool, 0);
            ck_assert_int_eq(pl.pools[pl.critic_pool].devices, c->critic);
            ck_assert_int_eq(planner_critic_devices(P, c), c->critic);
            /* a quarter to a half of the training devices, the actor keeping the rest */
            int train = pl.pools[pl.train_pool].devices + c->critic;
            ck_assert_int_eq(train + c->split, 16);
            ck_assert(4 * c->critic >= train - 2 && 2 * c->critic <= train);
        }
        bool offered = k < 2;
        ck_assert(planner_critic_offered(P) == offered);
        ck_assert_msg((own > 0) == offered, "%s: %ld layouts with the critic's own pool", fws[k] ? fws[k] : "none", own);
        ck_assert_int_gt(on_train, 0);
        planner_free(P);
        free(P);
    }
}
END_TEST

static Suite *planner_suite(void)
{
    Suite *s = suite_create("planner");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_enumeration_count);
    tcase_add_test(tc, t_constraints);
    tcase_add_test(tc, t_cp_axis_for_long_sequences);
    tcase_add_test(tc, t_etp_axis_for_moe);
    tcase_add_test(tc, t_pruned_do_not_fit);
    tcase_add_test(tc, t_estimate_direct);
    tcase_add_test(tc, t_select_and_rank);
    tcase_add_test(tc, t_feasibility_agrees);
    tcase_add_test(tc, t_survivors_and_extrapolation);
    tcase_add_test(tc, t_estimate_parts_are_the_engines);
    tcase_add_test(tc, t_lag_value);
    tcase_add_test(tc, t_memory_repair);
    tcase_add_test(tc, t_optimizer_share);
    tcase_add_test(tc, t_critic_pool);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(planner_suite)
