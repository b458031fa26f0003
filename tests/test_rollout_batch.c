/*
** test_rollout_batch.c — the rollout's batches (docs/model.md, section 5):
** prefix caching of a prompt group's KV and prefill, chunked prefill under
** a token budget, and forward-only models on pools of their own
** (section 2, pools per mode).
*/
#include "testutil.h"
#include "engine.h"
#include "model.h"
#include "plan.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Separate pools on 8 H100s: 4 rollout instances of TP1, long prompts
** (the part prefix caching saves), samples_per_prompt and dispatch set by
** the test. */
static const char *batch_lua =
    "local f = fusync\n"
    "return { name = 'batch',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 8, minibatches = 2,\n"
    "    prompt_len = f.dist.uniform(1000, 2000),\n"
    "    response_len = f.dist.lognormal{median = 300, sigma = 0.8, cap = 2000},\n"
    "    max_response = 2000, iterations = 3, warmup = 1, seed = 5 },\n"
    "  plan = { mode = 'separate', rollout_devices = 4,\n"
    "    train = { tp = 2, pp = 1, micro_batch = 2 }, rollout = { tp = 1, max_seqs = 64 } },\n"
    "}\n";

typedef struct {
    double tokens, secs;    /* prefill spans: tokens, instance-seconds */
    double gen_end;         /* the last generate span's end, s */
    int64_t preemptions;
} prefill_sum;

static prefill_sum run_sum(const char *const *sets, int n)
{
    struct sim *s = test_sim_text(batch_lua, sets, n);
    ck_assert(sim_run(s));
    ck_assert_msg(sim_error(s) == NULL, "%s", sim_error(s) ? sim_error(s)->msg : "");
    prefill_sum r = {0, 0, 0, sim_get_stats(s)->preemptions};
    const trace *t = sim_trace(s);
    for (size_t i = 0; i < trace_nspans(t); i++) {
        const trace_span *x = &trace_spans(t)[i];
        if (trace_track_at(t, x->track)->kind != TRK_INSTANCE) continue;
        if (x->phase == PH_PREFILL) {
            r.tokens += x->tokens;
            r.secs += sim_secs(x->t1 - x->t0);
        } else if (x->phase == PH_GENERATE && sim_secs(x->t1) > r.gen_end) {
            r.gen_end = sim_secs(x->t1);
        }
    }
    sim_free(s);
    return r;
}

/* Static dispatch keeps each group of 8 on one instance: its prompt is
** prefilled once, the other 7 compute only what is past the last full
** block (1..16 tokens each), so the prefill shrinks to between 1/8 of
** the unshared and 1/8 + 7·16 tokens a group. */
START_TEST(t_prefix_cache_once_per_group)
{
    const char *on[] = {"plan.rollout.dispatch=static"};
    const char *off[] = {"plan.rollout.dispatch=static", "plan.rollout.prefix_caching=false"};
    prefill_sum a = run_sum(on, 1), b = run_sum(off, 2);
    ck_assert_int_eq(a.preemptions, 0);
    ck_assert_int_eq(b.preemptions, 0);
    const double groups = 16.0 * 3;
    ck_assert_msg(a.tokens >= b.tokens / 8 + 7 * groups && a.tokens <= b.tokens / 8 + 7 * 16 * groups,
                  "prefix caching: %.0f prefill tokens, unshared %.0f", a.tokens, b.tokens);
    ck_assert(a.secs < b.secs / 4);
    ck_assert(a.gen_end <= b.gen_end);
}
END_TEST

/* A group split over instances is prefilled once on each: static dispatch
** cuts 2 prompts of 64 samples into 4 parts of 32, each group over two
** instances, so a step pays 4 prompts where unshared it pays 128, plus
** what lies past each prompt's last full block (1..16 tokens a sample). */
START_TEST(t_prefix_cache_follows_dispatch)
{
    const char *on[] = {"plan.rollout.dispatch=static", "workload.prompts_per_step=2", "workload.samples_per_prompt=64"};
    const char *off[] = {"plan.rollout.dispatch=static", "workload.prompts_per_step=2", "workload.samples_per_prompt=64",
                         "plan.rollout.prefix_caching=false"};
    prefill_sum a = run_sum(on, 3), b = run_sum(off, 4);
    ck_assert_int_eq(a.preemptions, 0);
    ck_assert_int_eq(b.preemptions, 0);
    const double steps = 3;
    ck_assert_msg(a.tokens >= b.tokens * 4 / 128 + 124 * steps && a.tokens <= b.tokens * 4 / 128 + 124 * 16 * steps,
                  "split groups: %.0f prefill tokens, unshared %.0f", a.tokens, b.tokens);
}
END_TEST

/* KV: the shared prompt blocks are held once, so a cache that preempts
** with unshared prompts preempts less with them shared. */
START_TEST(t_prefix_cache_kv_once)
{
    const char *on[] = {"plan.rollout.dispatch=static", "plan.rollout.mem_util=0.2", "workload.samples_per_prompt=16"};
    const char *off[] = {"plan.rollout.dispatch=static", "plan.rollout.mem_util=0.2", "workload.samples_per_prompt=16",
                         "plan.rollout.prefix_caching=false"};
    prefill_sum a = run_sum(on, 3), b = run_sum(off, 4);
    ck_assert_msg(b.preemptions > 0, "the unshared case must fill its cache");
    ck_assert_msg(a.preemptions < b.preemptions, "shared %lld, unshared %lld preemptions", (long long)a.preemptions,
                  (long long)b.preemptions);
}
END_TEST

/* The chunk's roofline: alone (no decode batch) it is the prefill step;
** riding on a memory-bound decode step it adds less than its own step. */
START_TEST(t_chunk_roofline)
{
    scn_scenario sc;
    scn_defaults(&sc);
    const scn_device d = {.peak_flops = 989e12, .hbm_bw = 3.35e12};
    scn_model m = {0};
    m.layers = 28; m.hidden = 3584; m.heads = 28; m.kv_heads = 4; m.head_dim = 128; m.ffn = 18944; m.vocab = 152064;
    scn_model_derive(&m);
    const scn_link l = {.bw = 450e9, .latency_s = 2e-6, .local = true};
    const double tok = 512, seq = 1024, attn = mdl_attn_flops_causal(&m, seq * tok);
    mdl_step pf = mdl_prefill(&m, &d, &sc.eff, NULL, &l, 1, 1, tok, seq);
    ck_assert_double_eq_tol(mdl_prefill_chunk(&m, &d, &sc.eff, NULL, &l, 1, 1, 0, 0, tok, attn), pf.total_s, 1e-12);
    double extra = mdl_prefill_chunk(&m, &d, &sc.eff, NULL, &l, 1, 1, 64, 64 * 1500.0, 64, attn * 64 / tok);
    mdl_step pf64 = mdl_prefill(&m, &d, &sc.eff, NULL, &l, 1, 1, 64, seq);
    ck_assert(extra >= 0 && extra < pf64.total_s);
}
END_TEST

/* In the engine: with a budget the refills' prefills ride on the running
** decodes and take less instance time than prefills that stop the batch. */
START_TEST(t_chunked_prefill_cheaper)
{
    const char *on[] = {"plan.rollout.max_batched_tokens=2048", "plan.rollout.max_seqs=16"};
    const char *off[] = {"plan.rollout.max_seqs=16"};
    prefill_sum a = run_sum(on, 2), b = run_sum(off, 1);
    /* per token: the refills' timing moves which samples share an instance */
    ck_assert_msg(a.secs / a.tokens < 0.9 * b.secs / b.tokens, "chunked %.3f s for %.0f tokens, whole %.3f s for %.0f",
                  a.secs, a.tokens, b.secs, b.tokens);
}
END_TEST

/* A budget of max_seqs tokens or fewer leaves no room for a chunk: refused
** with the field named, exit status 2. */
START_TEST(t_budget_checked)
{
    char cmd[1024], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s check %s/examples/qwen7b_h100x16.lua --set plan.rollout.max_batched_tokens=256 2>&1",
             test_fusync(), test_root());
    int rc = test_sh(cmd, &out);
    ck_assert_int_eq(rc, 2);
    ck_assert_msg(strstr(out, "plan.rollout.max_batched_tokens"), "%s", out);
    free(out);
}
END_TEST

/* The reference and reward models on pools of their own (OpenRLHF's
** separate groups): their weights only there, their passes timed on their
** own tracks, the training pool holding neither. */
START_TEST(t_own_pools)
{
    struct sim *s = test_example_new("openrlhf_style_pools.lua", NULL, 0, 1);
    ck_assert(sim_run(s));
    ck_assert(sim_error(s) == NULL && sim_done(s));
    const plan *pl = sim_plan(s);
    int ref = -1, rw = -1;
    for (int p = 0; p < pl->npools; p++) {
        const plan_pool *q = &pl->pools[p];
        if (q->roles == ROLE_REF) ref = p;
        if (q->roles == ROLE_REWARD) rw = p;
    }
    ck_assert(ref >= 0 && rw >= 0);
    const plan_pool *tq = &pl->pools[pl->train_pool];
    ck_assert(tq->train_mem[MB_REF_WEIGHTS] == 0 && tq->train_mem[MB_REWARD_WEIGHTS] == 0);
    ck_assert(pl->pools[ref].train_mem[MB_REF_WEIGHTS] > 0 && pl->pools[rw].train_mem[MB_REWARD_WEIGHTS] > 0);
    const trace *t = sim_trace(s);
    double on_ref = 0, on_rw = 0;
    for (size_t i = 0; i < trace_nspans(t); i++) {
        const trace_span *x = &trace_spans(t)[i];
        const trace_track *k = trace_track_at(t, x->track);
        if (k->kind != TRK_AUX) continue;
        if (k->pool == ref && x->phase == PH_REF) on_ref += sim_secs(x->t1 - x->t0);
        if (k->pool == rw && x->phase == PH_REWARD) on_rw += sim_secs(x->t1 - x->t0);
    }
    ck_assert(on_ref > 0 && on_rw > 0);
    sim_free(s);
}
END_TEST

static Suite *suite_rollout_batch(void)
{
    Suite *s = suite_create("rollout_batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_prefix_cache_once_per_group);
    tcase_add_test(tc, t_prefix_cache_follows_dispatch);
    tcase_add_test(tc, t_prefix_cache_kv_once);
    tcase_add_test(tc, t_chunk_roofline);
    tcase_add_test(tc, t_chunked_prefill_cheaper);
    tcase_add_test(tc, t_budget_checked);
    tcase_add_test(tc, t_own_pools);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(suite_rollout_batch)
