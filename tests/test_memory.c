/*
** test_memory.c — the memory and batching mechanisms of the RL frameworks
** (docs/model.md, sections 3 and 7): the optimizer on the host, fused
** attention under recompute none, token-budget micro-batches and padding,
** LoRA actors, what vLLM's gpu_memory_utilization is a share of and its
** start-up checks, host memory a node over the pools on it.  Past 900 lines: one suite, the memory mechanisms side by
** side, each test against its own counterfactual.
** Each test compares a run with the mechanism against one without, so it
** fails when the mechanism does nothing.
*/
#include "testutil.h"
#include "lua_scenario.h"
#include "engine.h"
#include "estimate.h"
#include "model.h"
#include "model_mem.h"
#include "plan.h"
#include "report.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One node of 8 H100s training Qwen2.5-7B co-located; the plan's train
** table is the caller's. */
static const char *SCN =
    "local f = fusync\n"
    "return { name = 'mem',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1,\n"
    "              host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 32, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 3000),\n"
    "    max_response = 3072, iterations = 2, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'full', rollout = { tp = 1, max_seqs = 64 },\n"
    "           train = { tp = 1, pp = 1, zero = 3, micro_batch = 2 } },\n"
    "}\n";

static void load(const char *const *sets, int n, scn_scenario *sc, plan *pl)
{
    test_plan_text(SCN, sets, n, sc, pl);
}

/* A finished run of SCN with these settings; the caller frees it. */
static sim *run_sim(const char *const *sets, int n)
{
    char *path = test_tmpfile(".lua", SCN);
    ck_assert_ptr_nonnull(path);
    scn_scenario sc;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, sets, n, &sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "load: %s", err.msg);
    sim *s = sim_new(&sc, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    ck_assert(sim_run(s));
    return s;
}

static double run_time(const char *const *sets, int n)
{
    sim *s = run_sim(sets, n);
    double t = sim_secs(sim_now(s));
    sim_free(s);
    return t;
}

/* The host's share: states off the device, 16 bytes a parameter of the
** shard on the host, counted per node; the optimizer step slower by the
** host's work; the engine books the host bytes for the whole run. */
/* ZeRO-3 with FP32 gradients is FSDP's layout: the FP32 shard is the
** master, 16 bytes a parameter of the shard (Megatron-LM's "fp32 param,
** fp32 grads" row); the BF16 working copy of ZeRO-1 stays (6 + 12/d). */
START_TEST(t_fsdp_states)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *z1[] = {"plan.train.zero=1"};
    load(NULL, 0, &a, &pa);
    load(z1, 1, &b, &pb);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool];
    double psi = a.actor.params_total, d = qa->shard;
    double za = qa->train_mem[MB_WEIGHTS] + qa->train_mem[MB_GRADS] + qa->train_mem[MB_OPTIMIZER];
    ck_assert_double_eq_tol(za, 16.0 * psi / d, 1e-9 * psi);
    ck_assert_double_eq_tol(qa->train_mem[MB_WEIGHTS], 4.0 * psi / d, 1e-9 * psi);
    double zb = qb->train_mem[MB_WEIGHTS] + qb->train_mem[MB_GRADS] + qb->train_mem[MB_OPTIMIZER];
    ck_assert_double_eq_tol(zb, psi * (6.0 + 12.0 / d), 1e-9 * psi);
    mdl_states s = mdl_train_states(1e9, 8, 3, GRAD_BF16);
    ck_assert_double_eq_tol(s.weights + s.grads + s.optimizer, 16e9 / 8, 1);
    s = mdl_train_states(1e9, 8, 2, GRAD_FP32);
    ck_assert_double_eq_tol(s.weights + s.grads + s.optimizer, 2e9 + 16e9 / 8, 1);
}
END_TEST

/* Packed micro-batches (remove-padding) take the layers' activations and
** the logits over their real tokens: mb − 1 mean sequences and one of the
** longest, not mb × s_max; padded ones keep mb × s_max. */
START_TEST(t_packed_logits)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *pad[] = {"plan.train.padding=longest", "plan.train.micro_batch=8"};
    const char *pk[] = {"plan.train.micro_batch=8"};
    load(pk, 1, &a, &pa);
    load(pad, 2, &b, &pb);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool];
    double smax = plan_max_seq(&a), mean = qa->seq_mean;
    ck_assert_double_gt(mean, 512 + 1400);
    ck_assert_double_lt(mean, 512 + 1600);
    const scn_train_layout *tl = &a.plan.train;
    double v = (double)a.actor.vocab * 4.0
             + a.actor.layers * mdl_act_bytes_tokens(&a.actor, 1, smax, 1, tl->recompute, tl->attention);
    double diff = qb->train_mem[MB_ACTIVATIONS] - qa->train_mem[MB_ACTIVATIONS];
    ck_assert_double_eq_tol(diff, (8 * smax - (7 * mean + smax)) * v, 1e-6 * diff);
}
END_TEST

START_TEST(t_optimizer_offload)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *on[] = {"plan.train.optimizer_offload=1"};
    const char *half[] = {"plan.train.optimizer_offload=0.5"};
    load(NULL, 0, &a, &pa);
    load(on, 1, &b, &pb);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool];
    ck_assert_double_gt(qa->train_mem[MB_OPTIMIZER], 0);
    ck_assert_double_eq(qb->train_mem[MB_OPTIMIZER], 0);
    double shard = a.actor.params_total / qa->shard;
    ck_assert_double_eq_tol(qb->host_opt, 16.0 * shard, 1e-6 * shard);
    ck_assert_double_eq_tol(qb->host_node[0], 8 * qb->host_opt, 1.0);
    /* what the rollout offloaded before is on the host already */
    ck_assert_double_ge(qb->host_mem_per_node, 8 * qb->host_opt);
    ck_assert_double_lt(qb->host_node[1], qa->host_node[1]);
    scn_scenario c;
    plan pc;
    load(half, 1, &c, &pc);
    ck_assert_double_eq_tol(pc.pools[0].train_mem[MB_OPTIMIZER], qa->train_mem[MB_OPTIMIZER] / 2, 1.0);
    /* the step: the host's 30 bytes a parameter at its share of the node's
    ** memory bandwidth, plus the transfers */
    double ga, oa, gb, ob;
    plan_train_tail(&a, qa, &a.actor, 4, 0.1, &ga, &oa);
    plan_train_tail(&b, qb, &b.actor, 4, 0.1, &gb, &ob);
    ck_assert_double_eq(ga, gb);
    double host = 30.0 * shard / (b.cluster.host_mem_bw / 8);
    ck_assert_double_gt(ob - oa, host);
    /* the engine: the host group holds the share from the start */
    sim *s = run_sim(on, 1);
    const trace *tr = sim_trace(s);
    int hg = -1;
    for (int g = 0; g < trace_nmemgroups(tr); g++)
        if (trace_memgroup_at(tr, g)->host) hg = g;
    ck_assert_int_ge(hg, 0);
    ck_assert_double_ge(sim_mem_peak(s, hg, MB_HOST_OFFLOAD), 8 * qb->host_opt);
    sim_free(s);
    ck_assert_double_gt(run_time(on, 1), run_time(NULL, 0));
}
END_TEST

/* recompute none: fused attention holds what selective holds; the
** materialised kernel adds the score matrix, 5as/h a token. */
START_TEST(t_attention_fused)
{
    scn_scenario a, b, c;
    plan pa, pb, pc;
    const char *none[] = {"plan.train.recompute=none"};
    const char *mat[] = {"plan.train.recompute=none", "plan.train.attention=materialized"};
    load(NULL, 0, &a, &pa);
    load(none, 1, &b, &pb);
    load(mat, 2, &c, &pc);
    double sel = pa.pools[0].train_mem[MB_ACTIVATIONS], fused = pb.pools[0].train_mem[MB_ACTIVATIONS];
    double mt = pc.pools[0].train_mem[MB_ACTIVATIONS];
    double seq = plan_max_seq(&a), heads = a.actor.heads;
    /* the packed micro-batch of 2: one mean sequence and one of the longest */
    double tok = fmin(2 * seq, pa.pools[0].seq_mean + seq);
    /* fused without recompute: selective's figure and the kernel's FP32
    ** log-sum-exp, 4 bytes a head a token (docs/model.md, section 3) */
    ck_assert_double_eq_tol(fused - sel, tok * 4 * heads * a.actor.layers, 1e-6 * sel);
    double layer_sel = mdl_act_bytes_tokens(&a.actor, tok, seq, 1, RECOMPUTE_SELECTIVE, ATTN_FUSED);
    double layer_mat = mdl_act_bytes_tokens(&a.actor, tok, seq, 1, RECOMPUTE_NONE, ATTN_MATERIALIZED);
    /* materialised, dropout off: the softmax output, 2·a·s_max bytes a token */
    ck_assert_double_eq_tol(layer_mat - layer_sel, tok * 2 * heads * seq, 1e-6 * layer_mat);
    double layer_fused = mdl_act_bytes_tokens(&a.actor, tok, seq, 1, RECOMPUTE_NONE, ATTN_FUSED);
    ck_assert_double_eq_tol(mt - fused, (layer_mat - layer_fused) * a.actor.layers, 1e-6 * mt);
}
END_TEST

/* A token budget: the activations are reserved for the budget, not for
** micro_batch × the longest sequence; fewer micro-batches gather ZeRO-3
** parameters fewer times, so the run is faster; the estimate follows. */
START_TEST(t_token_budget)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *mb1[] = {"plan.train.micro_batch=1"};
    const char *tb[] = {"plan.train.micro_batch=1", "plan.train.max_tokens=16384"};
    load(mb1, 1, &a, &pa);
    load(tb, 2, &b, &pb);
    double seq = plan_max_seq(&a);
    double want = mdl_act_bytes_tokens(&b.actor, 16384, seq, 1, RECOMPUTE_SELECTIVE, ATTN_FUSED) * b.actor.layers
                + 16384.0 * b.actor.vocab * 4.0;
    ck_assert_double_eq_tol(pb.pools[0].train_mem[MB_ACTIVATIONS], want, 1e-6 * want);
    ck_assert_double_gt(pb.pools[0].train_mem[MB_ACTIVATIONS], pa.pools[0].train_mem[MB_ACTIVATIONS]);
    double ta = run_time(mb1, 1), tt = run_time(tb, 2);
    ck_assert_double_lt(tt, ta);
    double ea = est_scenario_throughput(&a, &pa), eb = est_scenario_throughput(&b, &pb);
    ck_assert_double_gt(eb, ea);
    /* a budget below the longest sequence still reserves that sequence */
    const char *small[] = {"plan.train.max_tokens=1024"};
    scn_scenario c;
    plan pc;
    load(small, 1, &c, &pc);
    double least = mdl_act_bytes_tokens(&c.actor, seq, seq, 1, RECOMPUTE_SELECTIVE, ATTN_FUSED) * c.actor.layers;
    ck_assert_double_ge(pc.pools[0].train_mem[MB_ACTIVATIONS], least);
}
END_TEST

/* Padding to the longest makes every micro-batch as long as its longest
** sequence: more compute than packed sequences of mixed lengths. */
START_TEST(t_padding_longest)
{
    const char *pad[] = {"plan.train.padding=longest"};
    double packed = run_time(NULL, 0), padded = run_time(pad, 1);
    ck_assert_double_gt(padded, packed);
    scn_scenario a, b;
    plan pa, pb;
    load(NULL, 0, &a, &pa);
    load(pad, 1, &b, &pb);
    ck_assert_double_lt(est_scenario_throughput(&b, &pb), est_scenario_throughput(&a, &pa));
    /* a token budget packs: the two together are refused, naming the field */
    char *path = test_tmpfile(".lua", SCN);
    const char *both[] = {"plan.train.padding=longest", "plan.train.max_tokens=8192"};
    scn_scenario c;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, both, 2, &c, &err) && scn_validate(&c, &err);
    unlink(path);
    free(path);
    ck_assert(!ok);
    ck_assert_msg(strstr(err.msg, "plan.train.max_tokens") != NULL, "%s", err.msg);
}
END_TEST

/* The largest bytes bucket b reaches on any device group (host: false) or
** host group (host: true) of a run with these settings. */
static double run_peak(const char *const *sets, int n, mem_bucket b, bool host)
{
    sim *s = run_sim(sets, n);
    const trace *tr = sim_trace(s);
    double m = 0;
    for (int g = 0; g < trace_nmemgroups(tr); g++)
        if (trace_memgroup_at(tr, g)->host == host) m = fmax(m, sim_mem_peak(s, g, b));
    sim_free(s);
    return m;
}

/* Seconds of the reference's forward spans of a run (all tracks). */
static double run_ref_secs(const char *const *sets, int n)
{
    sim *s = run_sim(sets, n);
    const trace *tr = sim_trace(s);
    const trace_span *sp = trace_spans(tr);
    double t = 0;
    for (size_t i = 0; i < trace_nspans(tr); i++)
        if (sp[i].phase == PH_REF) t += sim_secs(sp[i].t1 - sp[i].t0);
    sim_free(s);
    return t;
}

/* A log-prob forward holds its micro-batch's logits (logprob_batch
** sequences, packed) and one layer; the fit books it in a phase of its own
** and the run's ledger books it as activations while the forwards run, the
** same figure.  Eager copies: BF16 + two FP32 under TP 1 (10 bytes an
** entry) against one FP32 copy; a chunked log-softmax holds the FP32
** copies for a chunk only. */
START_TEST(t_logprob_logits)
{
    ck_assert_double_eq_tol(mdl_logits_bytes(100, 1, 1000, 1, LOGITS_FP32, 0), 4e5, 1e-9);
    ck_assert_double_eq_tol(mdl_logits_bytes(100, 1, 1000, 1, LOGITS_EAGER, 0), 10e5, 1e-9);
    ck_assert_double_eq_tol(mdl_logits_bytes(100, 1, 1000, 2, LOGITS_EAGER, 0), 14e5, 1e-9);
    ck_assert_double_eq_tol(mdl_logits_bytes(100, 2, 1000, 2, LOGITS_EAGER, 10), 2e5 + 20 * 12e3, 1e-9);
    scn_scenario a, b;
    plan pa, pb;
    const char *one[] = {"plan.train.logprob_batch=1"};
    const char *big[] = {"plan.train.logprob_batch=32", "plan.train.logits=eager"};
    load(one, 1, &a, &pa);
    load(big, 2, &b, &pb);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool];
    double smax = plan_max_seq(&a), mean = qb->seq_mean;
    double layer = mdl_act_bytes_tokens(&b.actor, 31 * mean + smax, smax, 1, RECOMPUTE_SELECTIVE, ATTN_FUSED);
    double want = layer + (31 * mean + smax) * (double)b.actor.vocab * 10.0;
    ck_assert_double_eq_tol(qb->lp_act, want, 1e-6 * want);
    ck_assert_double_gt(qb->lp_act, 8 * qa->lp_act);
    /* 32 long sequences' eager logits on an 80 GB device: the log-prob
    ** passes are the peak, and the plan does not fit there */
    ck_assert_str_eq(qb->peak_phase, "log-prob passes");
    ck_assert(!pb.fits);
    ck_assert_ptr_nonnull(strstr(pb.fit_msg, "log-prob passes"));
    ck_assert(pa.fits);
    /* the ledger: activations reach lp_act in a run that books them */
    const char *mid[] = {"plan.train.logprob_batch=4", "plan.train.logits=eager"};
    scn_scenario c;
    plan pc;
    load(mid, 2, &c, &pc);
    double act = run_peak(mid, 2, MB_ACTIVATIONS, false);
    ck_assert_double_ge(act, pc.pools[pc.train_pool].lp_act * (1 - 1e-9));
}
END_TEST

/* The entropy over the logits (docs/model.md, section 3): with its
** gradient in the actor's loss it adds what it holds beyond the LM head's
** backward's own copies at the last stage (eager 2 bytes an entry, chunked
** 6, compiled none but its passes' time); in the actor's log-prob pass,
** no gradient, eager's softmax and product (4 bytes an entry). */
START_TEST(t_entropy)
{
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_COMPILED, true), 0.0, 1e-9);
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_EAGER, true), 2e5, 1e-9);
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_CHUNKED, true), 6e5, 1e-9);
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_COMPILED, false), 0.0, 1e-9);
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_EAGER, false), 4e5, 1e-9);
    ck_assert_double_eq_tol(mdl_entropy_bytes(1e5, 1000, ENTROPY_CHUNKED, false), 2048 * 12e3, 1e-6);
    /* OpenRLHF's over FP32 logits: its FP32 gradient, none without */
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_COMPILED_FP32, true), 4e5, 1e-9);
    ck_assert_double_eq_tol(mdl_entropy_bytes(100, 1000, ENTROPY_COMPILED_FP32, false), 0.0, 1e-9);
    scn_scenario a, b, c;
    plan pa, pb, pc;
    const char *none[] = {"plan.train.entropy=eager"};
    const char *eager[] = {"plan.train.entropy=eager", "plan.train.entropy_loss=true"};
    const char *chunk[] = {"plan.train.entropy=chunked", "plan.train.entropy_loss=true"};
    load(none, 1, &a, &pa);
    load(eager, 2, &b, &pb);
    load(chunk, 2, &c, &pc);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool], *qc = &pc.pools[pc.train_pool];
    /* packed micro-batch of 2: one sequence of the mean beside the longest */
    double smax = plan_max_seq(&b), tok = fmin(2 * smax, qb->seq_mean + smax);
    double want = tok * (double)b.actor.vocab * 2.0;
    ck_assert_double_eq_tol(plan_entropy_act(&b, qb), want, 1e-6 * want);
    ck_assert_double_eq_tol(plan_entropy_act(&a, qa), 0.0, 1e-9);
    ck_assert_double_eq_tol(qb->train_mem[MB_ACTIVATIONS] - qa->train_mem[MB_ACTIVATIONS], want, 1e-6 * want);
    ck_assert_double_eq_tol(qc->train_mem[MB_ACTIVATIONS] - qa->train_mem[MB_ACTIVATIONS], 3 * want, 3e-6 * want);
    /* compiled: no memory, its passes over V in the training time */
    const char *comp[] = {"plan.train.entropy=compiled", "plan.train.entropy_loss=true"};
    scn_scenario d;
    plan pd;
    load(comp, 2, &d, &pd);
    ck_assert_double_eq_tol(pd.pools[pd.train_pool].train_mem[MB_ACTIVATIONS], qa->train_mem[MB_ACTIVATIONS], 1e-3);
    const char *off[] = {"plan.train.entropy=compiled"};
    ck_assert_double_gt(run_time(comp, 2), run_time(off, 1));
    /* the actor's log-prob pass: eager adds the softmax and its product */
    const char *lp[] = {"plan.train.entropy=eager", "plan.train.logprob_entropy=true"};
    scn_scenario e;
    plan pe;
    load(lp, 2, &e, &pe);
    double lt = fmin(2 * smax, qa->seq_mean + smax);
    double lw = lt * (double)e.actor.vocab * 4.0;
    ck_assert_double_eq_tol(pe.pools[pe.train_pool].lp_act - qa->lp_act, lw, 1e-6 * lw);
}
END_TEST

/* A log-prob pass with a token budget of its own holds that many tokens'
** logits and layer; NeMo RL's DTensor v1 worker gathers the whole model
** for the pass (unshard_fsdp2_model): 2·P/(t·p) more under ZeRO-3, nothing
** more where the layers are whole already (ZeRO-1). */
START_TEST(t_logprob_tokens_unshard)
{
    scn_scenario a, b, c, d;
    plan pa, pb, pc, pd;
    const char *tok[] = {"plan.train.logprob_tokens=8192"};
    const char *un[] = {"plan.train.logprob_unshard=true"};
    const char *z1[] = {"plan.train.zero=1"};
    const char *z1u[] = {"plan.train.zero=1", "plan.train.logprob_unshard=true"};
    load(tok, 1, &a, &pa);
    const plan_pool *qa = &pa.pools[pa.train_pool];
    double smax = plan_max_seq(&a);
    double want = mdl_act_bytes_tokens(&a.actor, 8192, smax, 1, RECOMPUTE_SELECTIVE, ATTN_FUSED)
                + 8192.0 * a.actor.vocab * 4.0;
    ck_assert_double_eq_tol(qa->lp_act, want, 1e-9 * want);
    load(NULL, 0, &a, &pa);
    load(un, 1, &b, &pb);
    qa = &pa.pools[pa.train_pool];
    const plan_pool *qb = &pb.pools[pb.train_pool];
    double whole = 2.0 * mdl_train_params_per_device(&b.actor, 1, 1, 1);
    ck_assert_double_gt(whole, 14e9);       /* Qwen2.5-7B in BF16 */
    ck_assert_double_eq_tol(qb->lp_act - qa->lp_act, whole, 1e-9 * whole);
    load(z1, 1, &c, &pc);
    load(z1u, 2, &d, &pd);
    ck_assert_double_eq_tol(pd.pools[pd.train_pool].lp_act, pc.pools[pc.train_pool].lp_act, 1);
}
END_TEST

/* What the processes hold outside the ledger: the CUDA context by default,
** NCCL's buffers when channels are given (communicators × channels × 2
** peers × NCCL_BUFFSIZE), in the peak and off the run ledger's capacity. */
START_TEST(t_outside_ledger)
{
    scn_scenario a, b, c;
    plan pa, pb, pc;
    const char *none[] = {"plan.cuda_context_mb=0"};
    const char *nccl[] = {"plan.nccl_channels=8"};
    load(none, 1, &a, &pa);
    load(NULL, 0, &b, &pb);
    load(nccl, 1, &c, &pc);
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0], *qc = &pc.pools[0];
    /* without a context, the engine's graph pool alone (mdl_engine_kept) */
    ck_assert_double_eq_tol(qa->outside, qa->engine_kept, 1);
    ck_assert_double_eq_tol(qb->outside - qb->engine_kept, 287047680.0, 1);
    ck_assert_double_eq_tol(qb->peak - qa->peak, 287047680.0, 1);
    /* full co-location, TP 1, DP 8: the default group and the DP group */
    ck_assert_double_eq_tol(qc->outside - qb->outside, 2 * 8 * 2 * 4194304.0, 1);
    ck_assert_double_eq_tol(mdl_runtime_bytes(&c.plan, 3) - mdl_runtime_bytes(&c.plan, 0), 3 * 8 * 2 * 4194304.0, 1);
}
END_TEST

/* Frozen models ZeRO-3: by default held as the actor is (zero = 3: over the
** shard group, 2P/d), whole over TP·PP with aux_shard = "none", sharded
** under ZeRO-1 with "zero3"; a sharded model gathers its parameters once a
** micro-batch of its forward, an unsharded one never. */
START_TEST(t_aux_zero3)
{
    scn_scenario a, b, c;
    plan pa, pb, pc;
    const char *none[] = {"plan.aux_shard=none"};
    const char *z1[] = {"plan.train.zero=1", "plan.aux_shard=zero3"};
    load(NULL, 0, &a, &pa);
    load(none, 1, &b, &pb);
    load(z1, 2, &c, &pc);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool], *qc = &pc.pools[pc.train_pool];
    double p2 = 2.0 * a.ref.params_total;
    ck_assert(qa->aux_sharded && !qb->aux_sharded && qc->aux_sharded);
    ck_assert_double_eq_tol(qa->aux_bytes[0], p2 / qa->shard, 1.0);
    ck_assert_double_eq_tol(qb->aux_bytes[0], p2, 1.0);
    ck_assert_double_eq_tol(qc->aux_bytes[0], p2 / qc->shard, 1.0);
    /* full co-location parks it on the host: 8 devices' shares a node */
    ck_assert_double_eq_tol(qa->host_node[2], 8 * p2 / qa->shard, 8.0);
    ck_assert_double_lt(qa->host_mem_per_node, qb->host_mem_per_node);
    ck_assert_double_gt(plan_fwd_gather(&a, qa, &a.ref, 4), 0);
    ck_assert_double_eq(plan_fwd_gather(&b, qb, &b.ref, 4), 0);
    ck_assert_double_gt(plan_fwd_gather(&c, qc, &c.ref, 4), 0);
    /* the actor's own pass still follows plan.train.zero */
    ck_assert_double_eq(plan_fwd_gather(&b, qb, &b.actor, 4), plan_zero_comm(&b, qb, &b.actor, 4, false, NULL, NULL));
    ck_assert_double_eq(plan_fwd_gather(&c, qc, &c.actor, 4), 0);
    /* the engine books what the plan holds, on the device and on the host */
    ck_assert_double_eq_tol(run_peak(NULL, 0, MB_REF_WEIGHTS, false), qa->aux_bytes[0], 1.0);
    ck_assert_double_eq_tol(run_peak(none, 1, MB_REF_WEIGHTS, false), qb->aux_bytes[0], 1.0);
    ck_assert_double_eq_tol(run_peak(NULL, 0, MB_HOST_MODELS, true), qa->host_node[2], 8.0);
}
END_TEST

/* A frozen model on a pool of its own shards over its replicas under
** "zero3" and gathers for every micro_batch sequences a replica. */
START_TEST(t_aux_pool_zero3)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *on[] = {"plan.mode=colocate", "plan.aux_devices=4", "plan.aux_shard=zero3"};
    const char *off[] = {"plan.mode=colocate", "plan.aux_devices=4", "plan.aux_shard=none"};
    load(on, 3, &a, &pa);
    load(off, 3, &b, &pb);
    int k = -1;
    for (int i = 0; i < pa.npools; i++)
        if (pa.pools[i].aux_tp > 0) k = i;
    ck_assert_int_ge(k, 0);
    const plan_pool *qa = &pa.pools[k], *qb = &pb.pools[k];
    ck_assert_int_eq(qa->aux_replicas, 4);
    ck_assert_double_eq_tol(qa->aux_bytes[0], qb->aux_bytes[0] / 4, 1.0);
    ck_assert_double_eq_tol(qa->train_mem[MB_REF_WEIGHTS], qa->aux_bytes[0], 1.0);
    ck_assert_double_gt(plan_aux_gather(&a, qa, &a.ref, 128), plan_aux_gather(&a, qa, &a.ref, 8));
    ck_assert_double_eq(plan_aux_gather(&b, qb, &b.ref, 128), 0);
    ck_assert_double_gt(run_ref_secs(on, 3), run_ref_secs(off, 3));
}
END_TEST

/* A frozen MoE on a training pool under expert parallelism is laid out as
** the actor is (docs/model.md, section 3, "A frozen MoE under expert
** parallelism"): dense parameters over TP·PP, routed experts over
** EP·ETP·PP.  Qwen3-30B-A3B on 8 H100s, Megatron (ZeRO-1), fully
** co-located so the reference waits on the host between its passes. */
static const char *SCN_MOE =
    "local f = fusync\n"
    "return { name = 'moe',\n"
    "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1,\n"
    "              host_mem_gb = 2048 },\n"
    "  models = { actor = f.models.qwen3_30b_a3b, reference = f.models.qwen3_30b_a3b, reward = 'rule' },\n"
    "  workload = { prompts_per_step = 16, samples_per_prompt = 4, minibatches = 2,\n"
    "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 1024),\n"
    "    max_response = 1024, iterations = 1, warmup = 0, seed = 5 },\n"
    "  plan = { mode = 'full', rollout = { tp = 2, max_seqs = 64 },\n"
    "           train = { tp = 1, pp = 1, ep = 8, zero = 1, micro_batch = 1 } },\n"
    "}\n";

START_TEST(t_aux_expert_parallel)
{
    scn_scenario a[2];
    plan pl[2];
    const char *ep1[] = {"plan.train.ep=1"};
    for (int i = 0; i < 2; i++) {
        char *path = test_tmpfile(".lua", SCN_MOE);
        ck_assert_ptr_nonnull(path);
        fs_err err = {0, ""};
        bool ok = lscn_load(path, i ? ep1 : NULL, i, &a[i], &err) && scn_validate(&a[i], &err);
        unlink(path);
        free(path);
        ck_assert_msg(ok, "load: %s", err.msg);
        ck_assert_msg(plan_build(&a[i], &pl[i], &err), "plan_build: %s", err.msg);
    }
    const plan_pool *q8 = &pl[0].pools[pl[0].train_pool], *q1 = &pl[1].pools[pl[1].train_pool];
    const scn_model *m = &a[0].ref;
    ck_assert_double_gt(m->params_expert, 0);
    ck_assert(q8->swap_aux && q1->swap_aux && !q8->aux_sharded);
    /* EP 8: the experts split eight ways, the dense part whole */
    ck_assert_double_eq_tol(q8->aux_bytes[0], 2.0 * (m->params_dense + m->params_expert / 8), 1.0);
    /* EP 1 (≤ TP): the whole model over TP·PP, as before */
    ck_assert_double_eq_tol(q1->aux_bytes[0], 2.0 * m->params_total, 1.0);
    /* the frozen copy of the actor's shape is the actor's own weights */
    ck_assert_double_eq_tol(q8->aux_bytes[0], q8->train_mem[MB_WEIGHTS], 1.0);
    /* it waits on the host at that size, 8 devices' shares a node */
    ck_assert_double_eq_tol(q8->host_node[2], 8 * q8->aux_bytes[0], 8.0);
}
END_TEST

/* Expert tensor parallelism (docs/model.md, section 3): Megatron-Core
** splits each expert over etp ranks, the TP size when unset, so a stage's
** experts span ep·etp devices and the expert DP is tp·cp·dp/(ep·etp)
** (megatron/core/parallel_state.py at NVIDIA/Megatron-LM d98e8a64dd).
** TP2 EP4 on the 8 devices: etp unset (2) against etp 1. */
START_TEST(t_expert_tp)
{
    scn_scenario a[2];
    plan pl[2];
    const char *sets[2][3] = {{"plan.train.tp=2", "plan.train.ep=4", "plan.train.etp=0"},
                              {"plan.train.tp=2", "plan.train.ep=4", "plan.train.etp=1"}};
    for (int i = 0; i < 2; i++) {
        char *path = test_tmpfile(".lua", SCN_MOE);
        ck_assert_ptr_nonnull(path);
        fs_err err = {0, ""};
        bool ok = lscn_load(path, sets[i], 3, &a[i], &err) && scn_validate(&a[i], &err);
        unlink(path);
        free(path);
        ck_assert_msg(ok, "load: %s", err.msg);
        ck_assert_msg(plan_build(&a[i], &pl[i], &err), "plan_build: %s", err.msg);
    }
    const plan_pool *q2 = &pl[0].pools[pl[0].train_pool], *q1 = &pl[1].pools[pl[1].train_pool];
    const scn_model *m = &a[0].actor;
    ck_assert_int_eq(q2->etp, 2);
    ck_assert_int_eq(q1->etp, 1);
    /* expert DP: 8 / (4·2) = 1 against 8 / 4 = 2 */
    ck_assert_int_eq(q2->edp, 1);
    ck_assert_int_eq(q1->edp, 2);
    /* BF16 weights (ZeRO-1 keeps them whole): dense over TP, experts over EP·ETP */
    double dense = 2.0 * m->params_dense / 2;
    ck_assert_double_eq_tol(q2->train_mem[MB_WEIGHTS], dense + 2.0 * m->params_expert / 8, 1.0);
    ck_assert_double_eq_tol(q1->train_mem[MB_WEIGHTS], dense + 2.0 * m->params_expert / 4, 1.0);
    /* the distributed optimizer shards the experts' states over expert DP:
    ** 12·P_e/(ep·etp·edp) = 12·P_e/8 either way */
    double st2[3], st1[3];
    plan_train_states(&a[0], q2, st2);
    plan_train_states(&a[1], q1, st1);
    ck_assert_double_eq_tol(st2[2] - st1[2], 0.0, 1.0);
    ck_assert_double_gt(st1[1], st2[1]);     /* FP32 gradients: whole per expert shard */
    /* the frozen reference as the actor is held */
    ck_assert_double_eq_tol(q2->aux_bytes[0], dense + 2.0 * m->params_expert / 8, 1.0);
    /* the activations: the expert-TP group all-gathers the routed copies
    ** (Megatron-Core's alltoall dispatcher over expt_tp), so at etp 2 each
    ** rank keeps twice the copies' fc1 inputs and probabilities, k·(2h + 4)
    ** a token more, over TP; the f_e-wide tensors are split etp ways, the
    ** same bytes.  At etp 1 the figure is the one booked before ETP was
    ** modelled (mdl_act_bytes_tokens over TP). */
    {
        const scn_train_layout *tl = &a[0].plan.train;
        double seq = plan_max_seq(&a[0]);     /* micro_batch 1: the peak books one longest sequence */
        double k = m->experts_active, h = m->hidden;
        double d = plan_act_peak(&a[0], q2, 0) - plan_act_peak(&a[1], q1, 0);
        /* one micro-batch in flight (pp 1), all 48 layers MoE: (etp − 1)·s·k·(2h + 4)/tp a layer */
        ck_assert_double_eq_tol(d, m->layers * seq * k * (2.0 * h + 4.0) / 2, 1.0);
        ck_assert_double_eq_tol(mdl_act_bytes_etp(m, seq, seq, 2, 1, tl->recompute, tl->attention),
                                mdl_act_bytes_tokens(m, seq, seq, 2, tl->recompute, tl->attention), 1e-6);
        /* the all-gather dispatcher also holds the ep·etp group's gathered
        ** tokens in one buffer, X·(s/tp)·2h; flex holds no more than alltoall */
        const char *ag[4] = {"plan.train.tp=2", "plan.train.ep=4", "plan.train.etp=0", "plan.train.moe_dispatcher=allgather"};
        const char *fx[4] = {"plan.train.tp=2", "plan.train.ep=4", "plan.train.etp=0", "plan.train.moe_dispatcher=flex"};
        scn_scenario sg, sf;
        plan pg, pf;
        fs_err err = {0, ""};
        char *path = test_tmpfile(".lua", SCN_MOE);
        ck_assert_ptr_nonnull(path);
        bool ok = lscn_load(path, ag, 4, &sg, &err) && scn_validate(&sg, &err) && plan_build(&sg, &pg, &err)
                  && lscn_load(path, fx, 4, &sf, &err) && scn_validate(&sf, &err) && plan_build(&sf, &pf, &err);
        unlink(path);
        free(path);
        ck_assert_msg(ok, "%s", err.msg);
        ck_assert_int_eq(sg.plan.train.moe_dispatcher, MOE_DISP_ALLGATHER);
        double dg = plan_act_peak(&sg, &pg.pools[pg.train_pool], 0) - plan_act_peak(&a[0], q2, 0);
        ck_assert_double_eq_tol(dg, 8 * seq / 2 * 2.0 * h, 1.0);
        ck_assert_double_eq_tol(plan_act_peak(&sf, &pf.pools[pf.train_pool], 0), plan_act_peak(&a[0], q2, 0), 1.0);
    }
    /* a value that does not divide a stage is refused, naming the key */
    const char *bad[2][3] = {{"plan.train.tp=2", "plan.train.ep=4", "plan.train.etp=4"},
                             {"plan.train.tp=4", "plan.train.ep=4", "plan.train.etp=0"}};
    for (int i = 0; i < 2; i++) {
        char *path = test_tmpfile(".lua", SCN_MOE);
        ck_assert_ptr_nonnull(path);
        fs_err err = {0, ""};
        scn_scenario b;
        plan pb;
        bool ok = lscn_load(path, bad[i], 3, &b, &err) && scn_validate(&b, &err);
        unlink(path);
        free(path);
        ck_assert_msg(ok, "load: %s", err.msg);
        ck_assert(!plan_build(&b, &pb, &err));
        ck_assert_int_eq(err.code, 2);
        ck_assert_msg(strstr(err.msg, "plan.train.etp") != NULL, "%s", err.msg);
    }
}
END_TEST

/* Parameter offload of the reference on a training pool (verl
** ref.fsdp_config.param_offload): its weights wait on the host and are
** loaded over the host link before each pass, so they leave the training
** peak and the step pays the reload. */
START_TEST(t_ref_offload)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *keep[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.aux_shard=none"};
    const char *off[] = {"plan.mode=separate", "plan.rollout_devices=4", "plan.aux_shard=none", "plan.offload.reference=true"};
    load(keep, 3, &a, &pa);
    load(off, 4, &b, &pb);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool];
    ck_assert(!qa->swap_aux && qb->swap_aux);
    ck_assert_double_gt(qa->train_mem[MB_REF_WEIGHTS], 0);
    ck_assert_double_eq(qb->train_mem[MB_REF_WEIGHTS], 0);
    ck_assert_double_eq_tol(qb->host_node[2], 4 * qb->aux_bytes[0], 4.0);
    ck_assert_double_gt(qb->aux_bytes[0], 0);
    ck_assert_double_eq_tol(run_peak(keep, 3, MB_HOST_MODELS, true), 0, 0.5);
    ck_assert_double_eq_tol(run_peak(off, 4, MB_HOST_MODELS, true), qb->host_node[2], 4.0);
    ck_assert_double_gt(run_time(off, 4), run_time(keep, 3));
}
END_TEST

/* docs/model.md, section 8, "Where the frozen models wait": under full
** co-location plan.offload.reference = false keeps the reference on the
** device for the whole run (verl's ref param_offload default): its bytes
** in the training and generating totals, no host bytes and no reload;
** "auto" (unset) and true park it on the host as before.  Under vLLM's
** device scope the resident reference is there when the engine sizes its
** KV cache (verl builds the reference first), so the cache is that much
** smaller and the generating total unchanged. */
static double mem_sum(const double *m)
{
    double t = 0;
    for (int b = 0; b < MB__COUNT; b++) t += m[b];
    return t;
}

START_TEST(t_ref_resident_full)
{
    scn_scenario a, h, d, da, dd;
    plan pa, ph, pd, pda, pdd;
    const char *host[] = {"plan.offload.reference=true"};
    const char *dev[] = {"plan.offload.reference=false"};
    const char *auto_[] = {"plan.offload.reference=auto"};
    const char *sa[] = {"plan.rollout.mem_util_scope=device"};
    const char *sd[] = {"plan.rollout.mem_util_scope=device", "plan.offload.reference=false"};
    load(auto_, 1, &a, &pa);
    load(host, 1, &h, &ph);
    load(dev, 1, &d, &pd);
    load(sa, 1, &da, &pda);
    load(sd, 2, &dd, &pdd);
    /* the key takes Lua's booleans and "auto" */
    ck_assert_int_eq(a.plan.offload_aux, AUX_OFFLOAD_AUTO);
    ck_assert_int_eq(h.plan.offload_aux, AUX_OFFLOAD_HOST);
    ck_assert_int_eq(d.plan.offload_aux, AUX_OFFLOAD_DEVICE);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qh = &ph.pools[ph.train_pool], *qd = &pd.pools[pd.train_pool];
    ck_assert(qa->colocated && qa->swap_aux && qh->swap_aux && !qd->swap_aux);
    double refw = qd->aux_bytes[0];
    ck_assert_double_gt(refw, 1e9);
    ck_assert_double_eq_tol(qa->aux_bytes[0], refw, 1.0);
    /* auto is the host under full co-location: the same plan as true */
    ck_assert_double_eq_tol(mem_sum(qa->train_mem), mem_sum(qh->train_mem), 1.0);
    ck_assert_double_eq_tol(mem_sum(qa->rollout_mem), mem_sum(qh->rollout_mem), 1.0);
    ck_assert_double_eq_tol(qa->host_node[2], qh->host_node[2], 1.0);
    /* resident: in both phases' buckets, the totals larger by its bytes */
    ck_assert_double_eq_tol(qd->train_mem[MB_REF_WEIGHTS], refw, 1.0);
    ck_assert_double_eq_tol(qd->rollout_mem[MB_REF_WEIGHTS], refw, 1.0);
    ck_assert_double_eq(qa->rollout_mem[MB_REF_WEIGHTS], 0);
    ck_assert_double_eq_tol(mem_sum(qd->train_mem) - qd->train_mem[MB_RUNTIME],
                            mem_sum(qa->train_mem) - qa->train_mem[MB_RUNTIME] + refw, 1e3);
    ck_assert_double_eq_tol(mem_sum(qd->rollout_mem) - qd->rollout_mem[MB_RUNTIME],
                            mem_sum(qa->rollout_mem) - qa->rollout_mem[MB_RUNTIME] + refw, 1e3);
    ck_assert_double_eq(qd->host_node[2], 0);
    ck_assert_double_gt(qa->host_node[2], 0);
    /* the device scope: the engine's cache smaller by the resident bytes */
    const plan_pool *qda = &pda.pools[pda.train_pool], *qdd = &pdd.pools[pdd.train_pool];
    ck_assert_double_eq_tol(qda->rollout_mem[MB_KV_CACHE] - qdd->rollout_mem[MB_KV_CACHE], refw, 1e3);
    /* the run: no host bytes for it and no reload over the host link */
    ck_assert_double_eq_tol(run_peak(dev, 1, MB_HOST_MODELS, true), 0, 0.5);
    ck_assert_double_gt(run_peak(auto_, 1, MB_HOST_MODELS, true), 0);
    ck_assert_double_eq_tol(run_peak(dev, 1, MB_REF_WEIGHTS, false), refw, 1e3);
    ck_assert_double_lt(run_time(dev, 1), run_time(auto_, 1));
}
END_TEST

/* LoRA (docs/model.md, section 3): the states shrink to the
** adapters' (r·(d_in + d_out) a matrix), the frozen base stays as the
** actor's parameters are held, the reference's weights vanish (it is the
** base with the adapters off), and the backward drops the base's
** weight-gradient GEMMs. */
START_TEST(t_lora)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *on[] = {"plan.train.lora_rank=32"};
    load(NULL, 0, &a, &pa);
    load(on, 1, &b, &pb);
    /* Qwen2.5-7B, rank 32 on every linear layer of the blocks: per layer
    ** q 3584+3584, k and v 3584+512, o 3584+3584, gate and up 3584+18944,
    ** down 18944+3584, times 32, over 28 layers (PEFT prints 80,740,352) */
    mdl_lora lo = mdl_lora_params(&b.actor, 32, LORA_ALL_LINEAR);
    double psi_a = lo.layer_dense * b.actor.layers;
    ck_assert_double_eq_tol(psi_a, 80740352.0, 0.5);
    ck_assert_double_eq(lo.layer_expert, 0);
    mdl_lora la = mdl_lora_params(&b.actor, 32, LORA_ATTENTION);
    ck_assert_double_eq_tol(la.layer_dense * b.actor.layers, 32.0 * 28 * (2 * 7168 + 2 * 4096), 0.5);
    const plan_pool *qa = &pa.pools[pa.train_pool], *qb = &pb.pools[pb.train_pool];
    double psi = a.actor.params_total, d = qb->shard;
    /* FSDP's layout (zero 3, FP32 gradients): the base FP32 as verl loads
    ** the actor, the adapters' gradients FP32 and Adam's m and v */
    ck_assert_double_eq_tol(qb->train_mem[MB_WEIGHTS], 4.0 * (psi + psi_a) / d, 1e-9 * psi);
    ck_assert_double_eq_tol(qb->train_mem[MB_GRADS], 4.0 * psi_a / d, 1e-9 * psi);
    ck_assert_double_eq_tol(qb->train_mem[MB_OPTIMIZER], 8.0 * psi_a / d, 1e-9 * psi);
    ck_assert_double_eq_tol(qa->train_mem[MB_GRADS], 4.0 * psi / d, 1e-9 * psi);
    /* the reference: its own weights without LoRA, none with it, on the
    ** device and on the host, in the plan and in the engine's ledger */
    ck_assert_double_gt(qa->aux_bytes[0], 0);
    ck_assert_double_eq(qb->aux_bytes[0], 0);
    ck_assert_double_eq(qb->host_node[2], 0);
    ck_assert_double_gt(run_peak(NULL, 0, MB_HOST_MODELS, true), 0);
    ck_assert_double_eq_tol(run_peak(on, 1, MB_HOST_MODELS, true), 0, 0.5);
    ck_assert_double_eq_tol(run_peak(on, 1, MB_GRADS, false), qb->train_mem[MB_GRADS], 1.0);
    /* the backward: activation gradients through the base (one forward's
    ** matmul FLOPs instead of two), both gradients of the adapters; the
    ** forward gains the adapters' GEMMs */
    mdl_stage c0 = mdl_stage_setup(&a.actor, 1, 1, 1, NULL, NULL, NULL);
    mdl_stage_train(&c0, &a.actor, &a.cluster.device, &a.eff, RECOMPUTE_NONE);
    mdl_stage c1 = c0;
    mdl_stage_lora(&c1, &a.actor, 32, LORA_ALL_LINEAR);
    double tok = 4096, sq = 4096.0 * 4096.0, b0, b1;
    double f0 = mdl_stage_fb(&a.actor, &a.cluster.device, a.eff.link, &c0, tok, sq, a.eff.train, &b0);
    double f1 = mdl_stage_fb(&a.actor, &a.cluster.device, a.eff.link, &c1, tok, sq, a.eff.train, &b1);
    ck_assert_double_gt(f1, f0);
    ck_assert_double_lt(f1, 1.2 * f0);
    ck_assert_double_lt(b1, 0.75 * b0);
    ck_assert_double_gt(b1, 0.5 * b0);
    mdl_stage_lora(&c0, &a.actor, 0, LORA_ALL_LINEAR);     /* rank 0: the stage unchanged */
    double b2, f2 = mdl_stage_fb(&a.actor, &a.cluster.device, a.eff.link, &c0, tok, sq, a.eff.train, &b2);
    ck_assert_double_eq(f2, f0);
    ck_assert_double_eq(b2, b0);
    ck_assert_double_lt(run_time(on, 1), run_time(NULL, 0));
}
END_TEST

/* The largest total a run's ledger reaches over its device groups, and
** over its host groups. */
static void run_totals(const char *const *sets, int n, double *dev, double *host, double *secs)
{
    sim *s = run_sim(sets, n);
    const trace *tr = sim_trace(s);
    *dev = *host = 0;
    for (int g = 0; g < trace_nmemgroups(tr); g++) {
        double t = sim_mem_peak_total(s, g, NULL);
        if (trace_memgroup_at(tr, g)->host) *host = fmax(*host, t);
        else *dev = fmax(*dev, t);
    }
    *secs = sim_secs(sim_now(s));
    sim_free(s);
}

/* The engine's sleep (docs/model.md, section 8): level 1 ("offload") parks
** the rollout weights on the host, 8 devices' worth a node, and pays a copy
** each way a step; "none" keeps weights and KV cache through training, so
** the training peak holds them; "discard" (the default) neither.  The
** ledger's peaks never pass the analytic ones. */
START_TEST(t_engine_sleep)
{
    const char *mu = "plan.rollout.mem_util=0.45";
    const char *dflt[] = {mu};
    const char *off[] = {mu, "plan.rollout.sleep=offload"};
    const char *none[] = {mu, "plan.rollout.sleep=none"};
    scn_scenario a, b, c;
    plan pa, pb, pc;
    load(dflt, 1, &a, &pa);
    load(off, 2, &b, &pb);
    load(none, 2, &c, &pc);
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0], *qc = &pc.pools[0];
    double rw = plan_rollout_weights(&a);
    ck_assert_double_gt(rw, 0);
    ck_assert_double_eq_tol(qb->host_mem_per_node - qa->host_mem_per_node, 8 * rw, 1e3);
    ck_assert_double_eq(plan_switch_host_bytes(&b, qb).engine, rw);
    ck_assert_double_eq(plan_switch_host_bytes(&a, qa).engine, 0);
    ck_assert_double_eq_tol(qb->peak, qa->peak, 1.0);
    /* no sleep: training holds the engine's weights and KV reservation */
    ck_assert_double_eq(qa->train_mem[MB_KV_CACHE], 0);
    ck_assert_double_eq(qc->train_mem[MB_ROLLOUT_WEIGHTS], rw);
    ck_assert_double_eq_tol(qc->train_mem[MB_KV_CACHE], qc->rollout_mem[MB_KV_CACHE], 1.0);
    double tra = 0;      /* the runtime bucket among them */
    for (int k = 0; k < MB__COUNT; k++) tra += qa->train_mem[k];
    ck_assert_double_ge(qc->peak, tra + rw + qc->rollout_mem[MB_KV_CACHE] - 1e6);
    ck_assert_str_eq(qc->peak_phase, "training");
    double da, ha, ta, db, hb, tb, dc, hc, tc;
    run_totals(dflt, 1, &da, &ha, &ta);
    run_totals(off, 2, &db, &hb, &tb);
    run_totals(none, 2, &dc, &hc, &tc);
    /* the ledger reaches what plan.c counts, and no more */
    ck_assert_double_le(da, qa->peak + 1e6);
    ck_assert_double_le(db, qb->peak + 1e6);
    ck_assert_double_le(dc, qc->peak + 1e6);
    ck_assert_double_ge(dc, qc->peak - 1e9);
    ck_assert_double_eq_tol(hb, qb->host_mem_per_node, 1e6);
    ck_assert_double_gt(hb, ha + 7 * rw);
    /* the copies cost time: two a step at the host link's shared rate */
    ck_assert_double_gt(tb, ta);
    ck_assert_double_eq_tol(tc, ta, 1e-9 * ta + 1e-6);
}
END_TEST

/* What a sleeping engine keeps (docs/model.md, section 8): vLLM's sleep
** frees only its CuMemAllocator's tagged pools, so the captured graphs'
** pool stays on the device in every phase, training included; an engine in
** a process of its own (NeMo RL, OpenRLHF, verl's mp executor) adds its
** CUDA context.  Without CUDA graphs (enforce_eager) there is no pool. */
START_TEST(t_engine_kept)
{
    const char *eager[] = {"plan.rollout.cuda_graphs=false"};
    const char *own[] = {"plan.rollout.own_process=true"};
    const char *hyb[] = {"plan.rollout.engine=hybrid"};
    scn_scenario a, b, c, d;
    plan pa, pb, pc, pd;
    load(NULL, 0, &a, &pa);
    load(eager, 1, &b, &pb);
    load(own, 1, &c, &pc);
    load(hyb, 1, &d, &pd);
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0], *qc = &pc.pools[0], *qd = &pd.pools[0];
    double g = a.plan.rollout.graph_pool_bytes;
    ck_assert_double_eq_tol(g, 0.52 * 1073741824.0, 1);
    ck_assert_double_eq_tol(qa->engine_kept, g, 1);
    ck_assert_double_eq(qb->engine_kept, 0);
    ck_assert_double_eq(qd->engine_kept, 0);         /* a hybrid engine captures nothing */
    ck_assert_double_eq_tol(qc->engine_kept, g + a.plan.cuda_context_bytes, 1);
    /* held while training, asleep: the training column carries it */
    ck_assert_double_eq_tol(qa->train_mem[MB_RUNTIME] - qb->train_mem[MB_RUNTIME], g, 1);
    ck_assert_double_eq_tol(qa->peak - qb->peak, g, 1);
    ck_assert_double_eq_tol(qc->peak - qa->peak, a.plan.cuda_context_bytes, 1);
    /* a separate rollout pool is the engine's only process: no second context */
    const char *sep[] = {"plan.mode=separate", "plan.rollout.own_process=true"};
    scn_scenario e;
    plan pe;
    load(sep, 2, &e, &pe);
    for (int i = 0; i < pe.npools; i++)
        if (pe.pools[i].roles & ROLE_ROLLOUT) ck_assert_double_eq_tol(pe.pools[i].engine_kept, g, 1);
}
END_TEST

/* The runtime bucket: what the processes hold beside the allocator's
** buckets is booked in the run's ledger, so the ledger's device peak is the
** peak `fusync check` prints, and the bucket holds plan_pool.outside. */
START_TEST(t_runtime_in_ledger)
{
    scn_scenario sc;
    plan pl;
    load(NULL, 0, &sc, &pl);
    const plan_pool *q = &pl.pools[0];
    ck_assert_double_gt(q->outside, 287047680.0);
    sim *s = run_sim(NULL, 0);
    const trace *tr = sim_trace(s);
    double dev = 0;
    for (int g = 0; g < trace_nmemgroups(tr); g++) {
        if (trace_memgroup_at(tr, g)->host) continue;
        ck_assert_double_eq_tol(sim_mem_peak(s, g, MB_RUNTIME), q->outside, 1);
        dev = fmax(dev, sim_mem_peak_total(s, g, NULL));
    }
    ck_assert_double_eq_tol(dev, q->peak, 1e-6 * q->peak);
    sim_free(s);
    ck_assert_str_eq(trace_bucket_name(MB_RUNTIME), "runtime");
}
END_TEST

/* Gradients that live only while a step trains (plan.train.grad_buffer =
** step: PyTorch's zero_grad after the last optimizer step, as verl's and
** NeMo RL's FSDP workers call it): the log-prob passes hold none, the switch
** moves none to the host, the run's ledger peaks where the fit does. */
START_TEST(t_grad_buffer)
{
    scn_scenario a, b;
    plan pa, pb;
    const char *kept[] = {"plan.train.logprob_batch=16", "plan.train.logits=eager", "plan.rollout.mem_util=0.5"};
    const char *freed[] = {"plan.train.logprob_batch=16", "plan.train.logits=eager", "plan.rollout.mem_util=0.5",
                           "plan.train.grad_buffer=step"};
    load(kept, 3, &a, &pa);
    load(freed, 4, &b, &pb);
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0];
    double g = qa->train_mem[MB_GRADS];
    ck_assert_double_gt(g, 1e9);
    ck_assert_double_eq_tol(qb->train_mem[MB_GRADS], g, 1);
    ck_assert_str_eq(qa->peak_phase, "log-prob passes");
    ck_assert_str_eq(qb->peak_phase, "log-prob passes");
    ck_assert_double_eq_tol(qa->peak - qb->peak, g, 1e-6 * g);
    /* the switch's host copies leave the gradients out (plan.offload.grads is on) */
    ck_assert(a.plan.offload_grads);
    ck_assert_double_lt(run_time(freed, 4), run_time(kept, 3));
    /* the ledger: gradients while training, and the run's device peak is the fit's */
    sim *s = run_sim(freed, 4);
    const trace *tr = sim_trace(s);
    double dev = 0;
    for (int k = 0; k < trace_nmemgroups(tr); k++) {
        if (trace_memgroup_at(tr, k)->host) continue;
        ck_assert_double_eq_tol(sim_mem_peak(s, k, MB_GRADS), g, 1e-6 * g);
        dev = fmax(dev, sim_mem_peak_total(s, k, NULL));
    }
    ck_assert_double_eq_tol(dev, qb->peak, 1e-6 * qb->peak);
    sim_free(s);
    /* host: with the optimizer on the host its gradients are reduced there
    ** (ZeRO-Offload); the device holds none, the host the same 16 bytes */
    scn_scenario c, d;
    plan pc, pd;
    const char *dev_g[] = {"plan.train.optimizer_offload=1"};
    const char *host_g[] = {"plan.train.optimizer_offload=1", "plan.train.grad_buffer=host"};
    load(dev_g, 1, &c, &pc);
    load(host_g, 2, &d, &pd);
    ck_assert_double_gt(pc.pools[0].train_mem[MB_GRADS], 1e9);
    ck_assert_double_eq_tol(pd.pools[0].train_mem[MB_GRADS], 0, 1);
    ck_assert_double_eq_tol(pd.pools[0].host_opt, pc.pools[0].host_opt, 1);
}
END_TEST

/* The critic's optimizer on the host (plan.train.optimizer_offload): OpenRLHF
** builds the critic with the actor's one DeepSpeed strategy, so CPU Adam
** takes the critic's FP32 master, m and v off the device too, and the host
** holds them with the gradient CPU Adam reads (16 bytes a parameter). */
START_TEST(t_critic_offload)
{
    static const char *PPO =
        "local f = fusync\n"
        "return { name = 'ppo',\n"
        "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = 1,\n"
        "              host_mem_gb = 2048 },\n"
        "  models = { actor = f.models.qwen2_5_7b, reference = f.models.qwen2_5_7b, reward = 'rule',\n"
        "             critic = f.models.qwen2_5_7b },\n"
        "  workload = { algorithm = 'ppo', prompts_per_step = 32, samples_per_prompt = 1, minibatches = 2,\n"
        "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 3000),\n"
        "    max_response = 3072, iterations = 2, warmup = 0, seed = 5 },\n"
        "  plan = { mode = 'full', rollout = { tp = 1, max_seqs = 64 },\n"
        "           train = { tp = 1, pp = 1, zero = 3, micro_batch = 2 } },\n"
        "}\n";
    const char *off[] = {"plan.train.optimizer_offload=1"};
    scn_scenario a, b;
    plan pa, pb;
    fs_err err = {0, ""};
    char *path = test_tmpfile(".lua", PPO);
    ck_assert_ptr_nonnull(path);
    ck_assert_msg(lscn_load(path, NULL, 0, &a, &err) && scn_validate(&a, &err), "%s", err.msg);
    ck_assert_msg(lscn_load(path, off, 1, &b, &err) && scn_validate(&b, &err), "%s", err.msg);
    unlink(path);
    free(path);
    ck_assert_msg(plan_build(&a, &pa, &err) && plan_build(&b, &pb, &err), "%s", err.msg);
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0];
    ck_assert(a.has_critic);
    ck_assert_double_gt(qa->train_mem[MB_CRITIC], 0);
    const scn_model *c = &a.critic;
    double psi = c->params_total / qa->tp;
    mdl_states st = mdl_train_states(psi, qa->shard, a.plan.train.zero, a.plan.train.grad_dtype);
    /* ZeRO-3 with FP32 gradients: the offloaded master leaves a BF16 copy */
    double want = st.weights * 0.5 + st.grads;
    ck_assert_double_eq_tol(qb->train_mem[MB_CRITIC], want, 1e-9 * want);
    /* the host: the actor's share and the critic's */
    double actor_host = 16.0 * a.actor.params_total / qa->tp / qa->shard;
    double crit_host = 16.0 * psi / qa->shard;
    ck_assert_double_eq_tol(qb->host_opt, actor_host + crit_host, 1e-3 * (actor_host + crit_host));
}
END_TEST

/* docs/model.md, section 8, "One host memory a node": the actor's and the
** critic's CPU Adam states on one node of 8 (OpenRLHF's groups packed onto
** it), each pool under the node's host memory and the two together over:
** the fit fails naming the node and both pools; with the critic on a node
** of its own (ranges) each node holds one pool's share and it fits. */
START_TEST(t_host_per_node)
{
    static const char *FMT =
        "local f = fusync\n"
        "return { name = 'hostnode',\n"
        "  cluster = { device = f.devices.h100, devices_per_node = 8, nodes_per_supernode = 1, supernodes = %d,\n"
        "              host_mem_gb = 160 },\n"
        "  models = { actor = f.models.qwen2_5_7b, reference = false, reward = 'rule', critic = f.models.qwen2_5_7b },\n"
        "  workload = { algorithm = 'ppo', prompts_per_step = 32, samples_per_prompt = 1, minibatches = 2,\n"
        "    prompt_len = f.dist.fixed(512), response_len = f.dist.uniform(64, 1000),\n"
        "    max_response = 1024, iterations = 2, warmup = 0, seed = 5 },\n"
        "  plan = { mode = 'separate', rollout = { tp = 1, max_seqs = 64 },\n"
        "           train = { tp = 1, pp = 1, zero = 3, micro_batch = 1, optimizer_offload = 1 },\n"
        "           pools = { { name = 'vllm', devices = 2, roles = { 'rollout' } },\n"
        "                     { name = 'actor', devices = 3, roles = { 'train' } },\n"
        "                     { name = 'critic', devices = 3, roles = { 'critic' }%s } } },\n"
        "}\n";
    scn_scenario sc[2];
    plan pl[2];
    for (int k = 0; k < 2; k++) {
        char src[2048];
        snprintf(src, sizeof src, FMT, k ? 2 : 1, k ? ", ranges = { { 8, 10 } }" : "");
        char *path = test_tmpfile(".lua", src);
        ck_assert_ptr_nonnull(path);
        fs_err err = {0, ""};
        bool ok = lscn_load(path, NULL, 0, &sc[k], &err) && scn_validate(&sc[k], &err);
        unlink(path);
        free(path);
        ck_assert_msg(ok, "load: %s", err.msg);
        ck_assert_msg(plan_build(&sc[k], &pl[k], &err), "plan_build: %s", err.msg);
    }
    double cap = sc[0].cluster.host_mem_bytes;
    const plan_pool *qa = &pl[0].pools[1], *qc = &pl[0].pools[2];
    /* each pool alone is under the node's host memory */
    ck_assert_double_gt(qa->host_mem_per_node, 0.5 * cap);
    ck_assert_double_lt(qa->host_mem_per_node, cap);
    ck_assert_double_gt(qc->host_mem_per_node, 0.5 * cap);
    ck_assert_double_lt(qc->host_mem_per_node, cap);
    ck_assert_double_eq_tol(qa->host_mem_per_node, 3 * qa->host_per_device, 1.0);
    /* together on node 0 they are over: the sum of both pools' shares */
    const plan_host_nodes *h = &pl[0].host;
    ck_assert_int_eq(h->node, 0);
    ck_assert(h->shared);
    ck_assert_double_eq_tol(h->bytes, qa->host_mem_per_node + qc->host_mem_per_node, 1.0);
    ck_assert_double_eq_tol(h->pool[1], qa->host_mem_per_node, 1.0);
    ck_assert_double_eq_tol(h->pool[0], 0, 0.5);
    ck_assert_int_eq(h->over_node, 0);
    ck_assert_int_eq(h->over_nodes, 1);
    ck_assert(!pl[0].fits);
    ck_assert_msg(strstr(pl[0].fit_msg, "node 0 host memory:") && strstr(pl[0].fit_msg, "actor ")
                  && strstr(pl[0].fit_msg, "critic ") && !strstr(pl[0].fit_msg, "pool '"), "%s", pl[0].fit_msg);
    /* the critic on node 1: one pool's share a node, and it fits */
    const plan_host_nodes *h1 = &pl[1].host;
    ck_assert(!h1->shared);
    ck_assert_int_eq(h1->over_node, -1);
    ck_assert_double_eq_tol(h1->bytes, fmax(pl[1].pools[1].host_mem_per_node, pl[1].pools[2].host_mem_per_node), 1.0);
    ck_assert_msg(pl[1].fits, "%s", pl[1].fit_msg);
    ck_assert_int_eq(plan_devices_on_node(&sc[1].cluster, &pl[1].pools[2], 1), 3);
    ck_assert_int_eq(plan_devices_on_node(&sc[1].cluster, &pl[1].pools[2], 0), 0);
    /* the run's ledger agrees: its host groups' peaks summed over node 0 */
    for (int k = 0; k < 2; k++) {
        fs_err err = {0, ""};
        sim *sm = sim_new(&sc[k], &err);
        ck_assert_msg(sm != NULL, "%s", err.msg);
        ck_assert(sim_run(sm));
        report r;
        report_compute(sm, &r);
        sim_free(sm);
        ck_assert_msg(r.feasible == (k == 1), "run %d: %s", k, r.why);
        if (k == 0) ck_assert_msg(strstr(r.why, "host memory of node 0 peaks at") && strstr(r.why, "critic "), "%s", r.why);
    }
}
END_TEST

/* Parameter offload of the actor (verl actor.fsdp_config.param_offload,
** NeMo RL's offload_after_refit): with the training weights kept through
** generation (zero_redundancy false), offloading them gives the KV cache
** their room, puts them on the host and costs a copy each way; the reshard
** back is not run, the weights coming back over the host link.  The KV
** cache gains their room where mem_util is a share of the device; per
** instance the device holds that much less while generating instead. */
START_TEST(t_param_offload)
{
    const char *keep[] = {"plan.zero_redundancy=false", "plan.rollout.mem_util_scope=device"};
    const char *po[] = {"plan.zero_redundancy=false", "plan.offload.params=after_reshard", "plan.rollout.mem_util_scope=device"};
    const char *pf[] = {"plan.zero_redundancy=false", "plan.offload.params=before_reshard", "plan.rollout.mem_util_scope=device"};
    scn_scenario a, b;
    plan pa, pb;
    load(keep, 2, &a, &pa);
    load(po, 3, &b, &pb);
    {
        scn_scenario ia, ib;
        plan pia, pib;
        load(keep, 1, &ia, &pia);
        load(po, 2, &ib, &pib);
        double ta = 0, tb = 0;
        for (int k = 0; k < MB__COUNT; k++) { ta += pia.pools[0].rollout_mem[k]; tb += pib.pools[0].rollout_mem[k]; }
        ck_assert_double_eq_tol(pia.pools[0].rollout_mem[MB_KV_CACHE], pib.pools[0].rollout_mem[MB_KV_CACHE], 1.0);
        ck_assert_double_eq_tol(ta - tb, pia.pools[0].train_mem[MB_WEIGHTS], 1.0);
    }
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0];
    double w = qa->train_mem[MB_WEIGHTS];
    ck_assert_double_gt(w, 0);
    ck_assert_double_eq(qa->rollout_mem[MB_WEIGHTS], w);
    ck_assert_double_eq(qb->rollout_mem[MB_WEIGHTS], 0);
    ck_assert_double_eq_tol(qb->rollout_mem[MB_KV_CACHE] - qa->rollout_mem[MB_KV_CACHE], w, 1.0);
    ck_assert_double_eq_tol(qb->host_mem_per_node - qa->host_mem_per_node, 8 * w, 1e3);
    ck_assert_double_eq(plan_switch_host_bytes(&b, qb).params, w);
    ck_assert_double_eq(plan_reshard_back(&b, qb), 0);
    double da, ha, ta, db, hb, tb;
    run_totals(keep, 2, &da, &ha, &ta);
    run_totals(po, 3, &db, &hb, &tb);
    ck_assert_double_le(db, qb->peak + 1e6);
    ck_assert_double_gt(hb, ha + 7 * w);
    ck_assert_double_le(hb, qb->host_mem_per_node + 1e6);
    ck_assert_double_gt(tb, ta);
    ck_assert_double_gt(run_peak(po, 3, MB_KV_CACHE, false), run_peak(keep, 2, MB_KV_CACHE, false) + 0.9 * w);
    /* verl's order: the weights leave before the engine's are allocated,
    ** so the switch peaks W lower, and the reshard reads them back up: a
    ** third copy */
    scn_scenario c;
    plan pc;
    load(pf, 3, &c, &pc);
    const plan_pool *qc = &pc.pools[0];
    ck_assert(plan_switch_host_bytes(&c, qc).params_first);
    ck_assert(!plan_switch_host_bytes(&b, qb).params_first);
    double dc, hc, tcs;
    run_totals(pf, 3, &dc, &hc, &tcs);
    ck_assert_double_le(dc, qc->peak + 1e6);
    ck_assert_double_eq_tol(hc, hb, 1e6);
    ck_assert_double_gt(tcs, tb);
    /* a small rollout share, so the switch is the peak */
    load((const char *[]){"plan.rollout.mem_util=0.1", "plan.train.recompute=full", "plan.train.micro_batch=1"}, 3, &a, &pa);
    load((const char *[]){"plan.rollout.mem_util=0.1", "plan.train.recompute=full", "plan.train.micro_batch=1",
                          "plan.offload.params=before_reshard"}, 4, &c, &pc);
    ck_assert_str_eq(pa.pools[0].peak_phase, "switching");
    ck_assert_double_lt(pc.pools[0].peak, pa.pools[0].peak);
    ck_assert_str_ne(pc.pools[0].peak_phase, "switching");
}
END_TEST

/* What vLLM's gpu_memory_utilization is a share of (docs/model.md, section
** 8): per instance (plan.rollout.mem_util_scope = "instance", the V1 worker
** from vLLM 0.9.1) the engine's KV cache is mem_util × HBM less its own
** weights, whatever the co-located trainer keeps on the device, so the
** device holds that share beside the trainer's residents; as a share of
** the device ("device", the V1 worker before) the residents come out of
** the KV cache.  The run's ledger books the same KV cache as the fit. */
START_TEST(t_mem_util_scope)
{
    const char *inst[] = {"plan.offload.optimizer=false", "plan.rollout.mem_util=0.5"};
    const char *dev[] = {"plan.offload.optimizer=false", "plan.rollout.mem_util=0.5",
                         "plan.rollout.mem_util_scope=device"};
    scn_scenario a, b;
    plan pa, pb;
    load(inst, 2, &a, &pa);
    load(dev, 3, &b, &pb);
    ck_assert_int_eq(a.plan.rollout.mem_scope, MEMSCOPE_INSTANCE);      /* the default */
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0];
    double rw = plan_rollout_weights(&a), cap = qa->capacity;
    double held = qa->rollout_mem[MB_OPTIMIZER] + qa->rollout_mem[MB_WEIGHTS] + qa->rollout_mem[MB_GRADS]
                + qa->rollout_mem[MB_CRITIC];
    ck_assert_double_gt(qa->rollout_mem[MB_OPTIMIZER], 1e9);            /* the states stay through generation */
    ck_assert_double_eq_tol(qa->rollout_mem[MB_KV_CACHE], 0.5 * cap - rw, 1);
    ck_assert_double_eq_tol(qb->rollout_mem[MB_KV_CACHE], 0.5 * cap - rw - held, 1);
    /* the tokens: what the cache gets after vLLM's profile (section 3) */
    double pa_ = qa->engine_profile, pb_ = qb->engine_profile;
    ck_assert_double_gt(pa_, 0);
    ck_assert_double_gt(pb_, pa_);        /* the whole device's memory outside torch */
    ck_assert_double_eq_tol(qa->kv_tokens_per_instance / qb->kv_tokens_per_instance,
                            (0.5 * cap - rw - pa_) / (0.5 * cap - rw - held - pb_), 1e-9);
    /* the generating total: the residents beside the engine's whole share */
    ck_assert_double_eq_tol(qa->peak, held + 0.5 * cap + qa->outside, 1);
    ck_assert_str_eq(qa->peak_phase, "generating");
    ck_assert(pa.fits && pb.fits);
    /* the start-up snapshot: the residents and the contexts, not the graphs */
    ck_assert_double_eq_tol(qa->startup_ask, 0.5 * cap, 1);
    ck_assert_double_eq_tol(qa->startup_used, held + qa->outside - a.plan.rollout.graph_pool_bytes, 1);
    ck_assert_double_eq(qb->startup_ask, 0);
    double da, ha, ta, db, hb, tb;
    run_totals(inst, 2, &da, &ha, &ta);
    run_totals(dev, 3, &db, &hb, &tb);
    ck_assert_double_eq_tol(da, qa->peak, 1e-6 * qa->peak);
    ck_assert_double_le(db, qb->peak + 1e6);
    ck_assert_double_lt(db, da);
}
END_TEST

/* vLLM's start-up checks, in its words (docs/model.md, section 8):
** vllm/v1/worker/gpu_worker.py refuses to start when the device's free
** memory is below mem_util × HBM (per instance only: the device scope's
** share already holds the other processes), and
** vllm/v1/core/kv_cache_utils.py when the KV cache cannot hold one sequence
** of max_model_len (prompt cap + max_response), under either scope.
** Neither applies to an SGLang engine. */
START_TEST(t_vllm_startup_checks)
{
    const char *inst[] = {"plan.offload.optimizer=false", "plan.rollout.mem_util=0.95"};
    const char *dev[] = {"plan.offload.optimizer=false", "plan.rollout.mem_util=0.95",
                         "plan.rollout.mem_util_scope=device"};
    scn_scenario a, b;
    plan pa, pb;
    load(inst, 2, &a, &pa);
    load(dev, 3, &b, &pb);
    const plan_pool *qa = &pa.pools[0];
    ck_assert_double_lt(qa->capacity - qa->startup_used, 0.95 * qa->capacity);
    ck_assert(!pa.fits);
    ck_assert_msg(strstr(pa.fit_msg, "while starting the engine: vLLM start-up: free ") != NULL, "%s", pa.fit_msg);
    ck_assert_msg(strstr(pa.fit_msg, " < 0.95 × 79.2 GiB") != NULL, "%s", pa.fit_msg);
    ck_assert_msg(pb.fits, "%s", pb.fit_msg);
    /* a KV cache of about 100 MB an instance after vLLM's profile run: 1,743
    ** tokens of Qwen2.5-7B's 57,344 bytes, short of 512 + 3,072 and long
    ** enough for 512 + 1,024 */
    scn_scenario c, d, e;
    plan pc, pd, pe;
    load(NULL, 0, &c, &pc);
    char mu[64];
    snprintf(mu, sizeof mu, "plan.rollout.mem_util=%.6f",
             (plan_rollout_weights(&c) + pc.pools[0].engine_profile + 100e6) / pc.pools[0].capacity);
    const char *tight[] = {mu};
    const char *shorter[] = {mu, "workload.max_response=1024"};
    load(tight, 1, &d, &pd);
    load(shorter, 2, &e, &pe);
    ck_assert_double_gt(pd.pools[0].kv_tokens_per_instance, 1536);
    ck_assert_double_lt(pd.pools[0].kv_tokens_per_instance, 3584);
    ck_assert(!pd.fits);
    ck_assert_msg(strstr(pd.fit_msg, "vLLM start-up: max_model_len 3584 tokens > the ") != NULL, "%s", pd.fit_msg);
    ck_assert_msg(pe.fits, "%s", pe.fit_msg);
    /* both refusals are vLLM's (and its enforce_eager form's), not SGLang's */
    const char *sgl[] = {mu, "plan.rollout.engine=sglang"};
    const char *sgl_inst[] = {"plan.offload.optimizer=false", "plan.rollout.mem_util=0.95", "plan.rollout.engine=sglang"};
    load(sgl, 2, &d, &pd);
    ck_assert_msg(pd.fits, "%s", pd.fit_msg);
    load(sgl_inst, 3, &d, &pd);
    ck_assert_double_eq(pd.pools[0].startup_ask, 0);
    ck_assert(strstr(pd.fit_msg, "vLLM start-up") == NULL);
}
END_TEST

/* The figures docs/validation.md gives for the feasibility table's closest
** start-up (verl issue 3659, gpu_memory_utilization 0.9 on the H20): 95.5
** GiB free at the engine's start for an ask of 86.4 GiB, HBM less two CUDA
** contexts, the trainer's and the engine's own process's (the importer's
** plan.rollout.own_process for verl, docs/model.md section 11); and the table's
** smallest KV cache (NeMo RL issue 2811, 18.4 GiB a device after vLLM's
** profile run, docs/model.md section 3) holding more
** than one 4,096-token sequence. */
START_TEST(t_startup_feasibility_rows)
{
    const char *rows[] = {"examples/validation/feasibility/verl_qwen3_30ba3b_dapo_8xh20_issue3659.lua",
                          "examples/validation/feasibility/nemo_qwen3_30ba3b_32xh100_logprob4_issue2811.lua"};
    scn_scenario sc;
    plan pl;
    fs_err err = {0, ""};
    const double GiB = 1073741824.0;
    ck_assert_msg(lscn_load(rows[0], NULL, 0, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    const plan_pool *q = &pl.pools[0];
    ck_assert(pl.fits);
    ck_assert_double_eq_tol(q->startup_ask / GiB, 86.4, 0.05);
    ck_assert(sc.plan.rollout.own_process);
    ck_assert_double_eq_tol((q->capacity - q->startup_used) / GiB, 95.5, 0.05);
    ck_assert_double_eq_tol(q->startup_used, 2 * sc.plan.cuda_context_bytes, 1);
    ck_assert_msg(lscn_load(rows[1], NULL, 0, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    q = &pl.pools[0];
    ck_assert_double_eq_tol(q->kv_bytes / GiB, 18.4, 0.05);     /* after vLLM's profile run */
    ck_assert_double_eq(plan_max_model_len(&sc), 4096);
    ck_assert_double_gt(q->kv_tokens_per_instance, 4096);
}
END_TEST

/* The trainer's caching allocator beside a co-located vLLM's wake
** (plan.train.empty_cache_before_wake; docs/model.md, section 8): emptied,
** nothing stays; not emptied, the training phase's peak less what the
** trainer keeps through generation is held beside the engine, in the fit's
** generating total and its own wake phase, in the run's ledger (its own
** bucket, from the wake to the switch back) and in the fit's verdict. */
START_TEST(t_wake_cache)
{
    scn_scenario a, b, c;
    plan pa, pb, pc;
    const char *held[] = {"plan.train.empty_cache_before_wake=false"};
    load(NULL, 0, &a, &pa);
    load(held, 1, &b, &pb);
    const plan_pool *qa = &pa.pools[0], *qb = &pb.pools[0];
    ck_assert(a.plan.train.empty_cache_before_wake);
    ck_assert_double_eq(qa->wake_cache, 0);
    ck_assert_double_eq(qa->rollout_mem[MB_TRAIN_CACHE], 0);
    double t = 0, kept = 0, ra = 0, rb = 0;
    for (int k = 0; k < MB__COUNT; k++) {
        if (k != MB_RUNTIME) t += qb->train_mem[k];
        if (k != MB_ROLLOUT_WEIGHTS && k != MB_KV_CACHE && k != MB_RUNTIME && k != MB_TRAIN_CACHE) kept += qb->rollout_mem[k];
        ra += qa->rollout_mem[k];
        rb += qb->rollout_mem[k];
    }
    ck_assert_double_gt(qb->wake_cache, 1e9);
    ck_assert_double_eq_tol(qb->train_reserve, t, 1);
    ck_assert_double_eq_tol(qb->wake_cache, t - kept, 1);
    ck_assert_double_eq_tol(qb->rollout_mem[MB_TRAIN_CACHE], qb->wake_cache, 1);
    ck_assert_double_eq_tol(rb - ra, qb->wake_cache, 1e-6 * rb);
    ck_assert_double_eq_tol(qb->wake_total, rb - qb->rollout_mem[MB_RUNTIME] - qb->engine_profile, 1e-6 * rb);
    ck_assert_double_gt(qb->peak, qa->peak);
    /* the ledger holds it beside the engine and peaks where the fit does */
    sim *s = run_sim(held, 1);
    const trace *tr = sim_trace(s);
    double dev = 0;
    for (int g = 0; g < trace_nmemgroups(tr); g++) {
        if (trace_memgroup_at(tr, g)->host) continue;
        ck_assert_double_eq_tol(sim_mem_peak(s, g, MB_TRAIN_CACHE), qb->wake_cache, 1);
        dev = fmax(dev, sim_mem_peak_total(s, g, NULL));
    }
    ck_assert_double_eq_tol(dev, qb->peak, 1e-6 * qb->peak);
    sim_free(s);
    ck_assert_str_eq(trace_bucket_name(MB_TRAIN_CACHE), "trainer_cache");
    /* an engine that never sleeps has no wake; nor does one that is not vLLM */
    const char *awake[] = {"plan.train.empty_cache_before_wake=false", "plan.rollout.sleep=none", "plan.rollout.mem_util=0.3"};
    load(awake, 3, &c, &pc);
    ck_assert_double_eq(pc.pools[0].wake_cache, 0);
    const char *hybrid[] = {"plan.train.empty_cache_before_wake=false", "plan.rollout.engine=hybrid"};
    load(hybrid, 2, &c, &pc);
    ck_assert_double_eq(pc.pools[0].wake_cache, 0);
    /* the verdict names the wake when the engine's share and the cache do not fit together */
    const char *high[] = {"plan.train.empty_cache_before_wake=false", "plan.rollout.mem_util=0.85"};
    const char *high_emptied[] = {"plan.rollout.mem_util=0.85"};
    load(high_emptied, 1, &c, &pc);
    ck_assert_msg(pc.fits, "%s", pc.fit_msg);
    load(high, 2, &c, &pc);
    ck_assert(!pc.fits);
    ck_assert_msg(strstr(pc.fit_msg, "pool 'all' while waking the engine:") != NULL, "%s", pc.fit_msg);
}
END_TEST

/* verl issue 632 (DeepScaleR's 8k script on verl 51a5ff999, no empty_cache
** between the update and the wake): out of memory waking the engine, and
** it fits with the cache emptied. */
START_TEST(t_wake_cache_row)
{
    const char *row = "examples/validation/feasibility/verl_deepscaler_1p5b_8k_8xa100_issue632.lua";
    const char *emptied[] = {"plan.train.empty_cache_before_wake=true"};
    const double GiB = 1073741824.0;
    scn_scenario sc;
    plan pl;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(row, NULL, 0, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    ck_assert(!pl.fits);
    ck_assert_msg(strstr(pl.fit_msg, "while waking the engine") != NULL, "%s", pl.fit_msg);
    ck_assert_double_eq_tol(pl.pools[0].wake_cache / GiB, 22.0, 0.05);
    ck_assert_double_eq_tol((pl.pools[0].wake_total + pl.pools[0].outside) / GiB, 89.9, 0.05);
    ck_assert_msg(lscn_load(row, emptied, 1, &sc, &err) && scn_validate(&sc, &err), "%s", err.msg);
    ck_assert_msg(plan_build(&sc, &pl, &err), "%s", err.msg);
    ck_assert_msg(pl.fits, "%s", pl.fit_msg);
}
END_TEST

static Suite *memory_suite(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_optimizer_offload);
    tcase_add_test(tc, t_attention_fused);
    tcase_add_test(tc, t_token_budget);
    tcase_add_test(tc, t_padding_longest);
    tcase_add_test(tc, t_fsdp_states);
    tcase_add_test(tc, t_packed_logits);
    tcase_add_test(tc, t_aux_zero3);
    tcase_add_test(tc, t_aux_pool_zero3);
    tcase_add_test(tc, t_aux_expert_parallel);
    tcase_add_test(tc, t_expert_tp);
    tcase_add_test(tc, t_ref_offload);
    tcase_add_test(tc, t_lora);
    tcase_add_test(tc, t_logprob_logits);
    tcase_add_test(tc, t_entropy);
    tcase_add_test(tc, t_logprob_tokens_unshard);
    tcase_add_test(tc, t_outside_ledger);
    tcase_add_test(tc, t_engine_sleep);
    tcase_add_test(tc, t_engine_kept);
    tcase_add_test(tc, t_runtime_in_ledger);
    tcase_add_test(tc, t_critic_offload);
    tcase_add_test(tc, t_host_per_node);
    tcase_add_test(tc, t_grad_buffer);
    tcase_add_test(tc, t_param_offload);
    tcase_add_test(tc, t_mem_util_scope);
    tcase_add_test(tc, t_vllm_startup_checks);
    tcase_add_test(tc, t_startup_feasibility_rows);
    tcase_add_test(tc, t_wake_cache);
    tcase_add_test(tc, t_wake_cache_row);
    tcase_add_test(tc, t_ref_resident_full);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(memory_suite)
