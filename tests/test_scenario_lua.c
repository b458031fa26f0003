/*
** test_scenario_lua.c — the presets and the Lua scenario loader: every preset
** derives the published parameter counts, a scenario's fields land in the C
** struct in SI units, --set overrides, and every kind of bad input gives the
** promised message (file, line or field path, "did you mean") and code 2.
*/
#include <check.h>

#include <lua.h>
#include <lauxlib.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lua_scenario.h"
#include "presets.h"
#include "scenario.h"
#include "testutil.h"

#define GiB (1024.0 * 1024.0 * 1024.0)

/* ---- helpers ------------------------------------------------------------ */

/* A scratch file for one test, removed by its caller. */
static void tmp_file(char *path, size_t n)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    snprintf(path, n, "%s/fusync-test-XXXXXX", dir);
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "mkstemp failed");
    close(fd);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

typedef struct {
    char path[512];
    scn_scenario s;
    fs_err err;
    bool ok;
} loaded;

/* Write `text` to a scratch file, load it with the given --set options and
** remove the file.  The path stays in r->path for message checks. */
static void load_sets(loaded *r, const char *text, const char *const *sets, int nsets)
{
    tmp_file(r->path, sizeof r->path);
    write_bytes(r->path, text, strlen(text));
    memset(&r->err, 0, sizeof r->err);
    r->ok = lscn_load(r->path, sets, nsets, &r->s, &r->err);
    unlink(r->path);
}

static void load_text(loaded *r, const char *text) { load_sets(r, text, NULL, 0); }

static void expect_ok(const loaded *r)
{
    ck_assert_msg(r->ok, "load failed: %s", r->err.msg);
}

/* The load failed with code 2 and a message that contains `want` (where
** "@" stands for the scratch file's path). */
static void expect_error(const loaded *r, const char *want)
{
    char buf[1024];
    const char *at = strchr(want, '@');
    if (at)
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - want), want, r->path, at + 1);
    else
        snprintf(buf, sizeof buf, "%s", want);
    ck_assert_msg(!r->ok, "load succeeded, expected an error containing \"%s\"", buf);
    ck_assert_int_eq(r->err.code, 2);
    ck_assert_msg(strstr(r->err.msg, buf) != NULL, "error \"%s\" lacks \"%s\"", r->err.msg, buf);
}

static void assert_near(double got, double want, double rel, const char *what)
{
    ck_assert_msg(fabs(got - want) <= rel * fabs(want), "%s: got %.6g, want %.6g (±%.1f%%)",
                  what, got, want, rel * 100);
}

#define MINIMAL \
    "local f = fusync\n" \
    "return {\n" \
    "  cluster = { device = f.devices.h100 },\n" \
    "  models = { actor = f.models.qwen2_5_7b },\n"

static const char MIN_SCENARIO[] = MINIMAL "}\n";

/* ---- presets ------------------------------------------------------------ */

START_TEST(test_preset_tables)
{
    static const char *const dev_keys[] = {
        "ascend_910c", "ascend_910b", "h100", "h800", "h200", "h20", "a100_80g", "a100_40g", "b200", "gb200"
    };
    static const char *const model_keys[] = {
        "qwen2_5_7b", "qwen2_5_32b", "llama3_1_8b", "llama3_1_70b", "qwen3_30b_a3b",
        "qwen3_235b_a22b", "deepseek_v3", "pangu_ultra_moe_718b"
    };
    ck_assert_int_eq(presets_device_count(), 10);
    ck_assert_int_eq(presets_model_count(), 8);
    for (int i = 0; i < 10; i++) {
        const scn_device *d = presets_device_find(dev_keys[i]);
        ck_assert_msg(d != NULL, "no device %s", dev_keys[i]);
        ck_assert(d->peak_flops > 1e14 && d->hbm_bytes >= 40 * GiB && d->hbm_bw > 1e12);
        ck_assert(d->scaleup_bw > d->scaleout_bw && d->host_bw > 0);
        ck_assert(d->name[0] != '\0');
    }
    for (int i = 0; i < presets_device_count(); i++) {
        ck_assert_ptr_eq(presets_device_find(presets_device_key(i)), presets_device(i));
        ck_assert_ptr_nonnull(presets_device_source(i));
    }
    for (int i = 0; i < 8; i++) {
        const scn_model *m = presets_model_find(model_keys[i]);
        ck_assert_msg(m != NULL, "no model %s", model_keys[i]);
        ck_assert(m->params_total == 0);        /* derived fields left to the loader */
    }
    for (int i = 0; i < presets_model_count(); i++) {
        ck_assert_ptr_eq(presets_model_find(presets_model_key(i)), presets_model(i));
        ck_assert_ptr_nonnull(presets_model_source(i));
    }
    ck_assert_ptr_null(presets_device_find("h1000"));
    ck_assert_ptr_null(presets_model_find(""));
    ck_assert_ptr_null(presets_device(-1));
    ck_assert_ptr_null(presets_model(presets_model_count()));
    /* Units: binary capacities, decimal bandwidths. */
    const scn_device *h100 = presets_device_find("h100");
    ck_assert(h100->hbm_bytes == 80 * GiB);
    ck_assert(h100->hbm_bw == 3.35e12 && h100->peak_flops == 989e12);
    ck_assert(h100->scaleup_bw == 450e9 && h100->scaleout_bw == 50e9);
}
END_TEST

/* The names frameworks and logs give a device reach its preset: the key, the
** key with case and punctuation changed, and the aliases of src/presets.c;
** the new devices' figures are their data sheets' (src/presets.c). */
START_TEST(test_preset_aliases)
{
    static const struct { const char *name, *key; } want[] = {
        {"gb200", "gb200"}, {"GB200", "gb200"}, {"NVIDIA GB200", "gb200"}, {"GB200 NVL72", "gb200"},
        {"B200", "b200"}, {"NVIDIA B200", "b200"}, {"HGX B200", "b200"},
        {"A100-40G", "a100_40g"}, {"A100 40GB", "a100_40g"}, {"a100_40g", "a100_40g"},
        {"NVIDIA A100-SXM4-40GB", "a100_40g"}, {"A100-80G", "a100_80g"}, {"NVIDIA A100-SXM4-80GB", "a100_80g"},
        {"H100", "h100"}, {"NVIDIA H100 80GB HBM3", "h100"}, {"Ascend 910C", "ascend_910c"},
        {"H800", "h800"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *k = presets_device_key_of(want[i].name);
        ck_assert_msg(k && !strcmp(k, want[i].key), "%s: got %s, want %s", want[i].name, k ? k : "(none)",
                      want[i].key);
        ck_assert_ptr_eq(presets_device_find(want[i].name), presets_device_find(want[i].key));
    }
    /* not a device, or one fusync does not have: no guess */
    static const char *const none[] = {"A100", "B100", "GB300", "H1000", "", "-", "nvidia", NULL};
    for (int i = 0; none[i]; i++) {
        ck_assert_msg(presets_device_key_of(none[i]) == NULL, "%s matched", none[i]);
        ck_assert_ptr_null(presets_device_find(none[i]));
    }
    ck_assert_ptr_null(presets_device_key_of(NULL));
    /* the figures each field feeds (src/presets.c gives the sources) */
    const scn_device *gb = presets_device_find("gb200"), *b = presets_device_find("b200"),
                     *a = presets_device_find("a100_40g");
    ck_assert(gb->peak_flops == 2500e12 && gb->fp8_flops == 5000e12 && gb->hbm_bytes == 186 * GiB);
    ck_assert(fabs(scn_device_cuda_total(gb) - 184.31 * GiB) < 1e6);
    ck_assert(gb->hbm_bw == 8e12 && gb->scaleup_bw == 900e9 && gb->scaleout_bw == 50e9 && gb->host_bw == 225e9);
    ck_assert(b->peak_flops == 2250e12 && b->fp8_flops == 4500e12 && b->hbm_bytes == 180 * GiB);
    ck_assert(fabs(scn_device_cuda_total(b) - 178.35 * GiB) < 1e6);
    ck_assert(b->hbm_bw == 8e12 && b->scaleup_bw == 900e9 && b->scaleout_bw == 50e9 && b->host_bw == 64e9);
    ck_assert(a->peak_flops == 312e12 && a->fp8_flops == 0 && a->hbm_bytes == 40 * GiB);
    ck_assert(fabs(scn_device_cuda_total(a) - 39.39 * GiB) < 1e6);
    ck_assert(a->hbm_bw == 1.555e12 && a->scaleup_bw == 300e9 && a->scaleout_bw == 25e9 && a->host_bw == 32e9);
}
END_TEST

/* Published totals: the model cards, the DeepSeek-V3 report (arXiv 2412.19437)
** and the Pangu Ultra MoE report (arXiv 2505.04519). */
START_TEST(test_preset_params)
{
    static const struct { const char *key; double total, active, tol_t, tol_a; } want[] = {
        {"qwen2_5_7b", 7.6e9, 7.6e9, 0.03, 0.03},
        {"qwen2_5_32b", 32.5e9, 32.5e9, 0.03, 0.03},
        {"llama3_1_8b", 8.0e9, 8.0e9, 0.03, 0.03},
        {"llama3_1_70b", 70.6e9, 70.6e9, 0.03, 0.03},
        {"qwen3_30b_a3b", 30.5e9, 3.3e9, 0.03, 0.05},
        {"qwen3_235b_a22b", 235e9, 22e9, 0.03, 0.05},
        {"deepseek_v3", 671e9, 37e9, 0.03, 0.05},
        {"pangu_ultra_moe_718b", 718e9, 39e9, 0.03, 0.05},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        scn_model m = *presets_model_find(want[i].key);
        scn_model_derive(&m);
        char what[96];
        snprintf(what, sizeof what, "%s total", want[i].key);
        assert_near(m.params_total, want[i].total, want[i].tol_t, what);
        snprintf(what, sizeof what, "%s active", want[i].key);
        assert_near(m.params_active, want[i].active, want[i].tol_a, what);
    }
    scn_model l8 = *presets_model_find("llama3_1_8b");
    scn_model_derive(&l8);
    ck_assert(l8.kv_bytes_per_token == 131072);        /* 2·32·8·128·2 */
    scn_model ds = *presets_model_find("deepseek_v3");
    scn_model_derive(&ds);
    ck_assert(ds.kv_bytes_per_token == (512 + 64) * 61 * 2);
}
END_TEST

/* Every model preset loads as an actor and comes out derived and valid. */
START_TEST(test_preset_models_load)
{
    for (int i = 0; i < presets_model_count(); i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "return { cluster = { device = fusync.devices.h200, supernodes = 4 },\n"
                 "  models = { actor = fusync.models.%s, reference = fusync.models.%s } }\n",
                 presets_model_key(i), presets_model_key(i));
        loaded r;
        load_text(&r, text);
        expect_ok(&r);
        const scn_model *p = presets_model(i);
        const scn_model *a = &r.s.actor;
        ck_assert_str_eq(a->name, p->name);
        ck_assert(a->layers == p->layers && a->hidden == p->hidden && a->heads == p->heads);
        ck_assert(a->kv_heads == p->kv_heads && a->head_dim == p->head_dim);
        ck_assert(a->mla_latent == p->mla_latent && a->mla_rope == p->mla_rope);
        ck_assert(a->mla_q_latent == p->mla_q_latent && a->ffn == p->ffn);
        ck_assert(a->expert_ffn == p->expert_ffn && a->experts == p->experts);
        ck_assert(a->experts_active == p->experts_active && a->shared_experts == p->shared_experts);
        ck_assert(a->vocab == p->vocab && a->tied_embeddings == p->tied_embeddings);
        ck_assert(a->dense_layers == p->dense_layers);
        ck_assert(a->params_total > 1e9 && a->params_active > 1e9);
        ck_assert(a->params_active <= a->params_total);
        ck_assert(a->kv_bytes_per_token > 0);
        ck_assert(r.s.has_ref && r.s.ref.params_total == a->params_total);
    }
}
END_TEST

/* fusync.devices.<key> converts back to exactly the C table. */
START_TEST(test_preset_devices_load)
{
    for (int i = 0; i < presets_device_count(); i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "return { cluster = { device = fusync.devices.%s },\n"
                 "  models = { actor = fusync.models.llama3_1_8b } }\n", presets_device_key(i));
        loaded r;
        load_text(&r, text);
        expect_ok(&r);
        const scn_device *p = presets_device(i), *d = &r.s.cluster.device;
        ck_assert_str_eq(d->name, p->name);
        assert_near(d->peak_flops, p->peak_flops, 1e-12, "tflops");
        assert_near(d->hbm_bytes, p->hbm_bytes, 1e-12, "hbm");
        assert_near(d->hbm_bw, p->hbm_bw, 1e-12, "hbm_bw");
        assert_near(d->scaleup_bw, p->scaleup_bw, 1e-12, "scaleup");
        assert_near(d->scaleout_bw, p->scaleout_bw, 1e-12, "scaleout");
        assert_near(d->host_bw, p->host_bw, 1e-12, "host");
    }
}
END_TEST

/* ---- loading ------------------------------------------------------------ */

START_TEST(test_minimal)
{
    loaded r;
    load_text(&r, MIN_SCENARIO);
    expect_ok(&r);
    scn_scenario d;
    scn_defaults(&d);
    const scn_scenario *s = &r.s;
    /* Name defaults to the file's base name; the path is kept. */
    const char *base = strrchr(r.path, '/');
    ck_assert_str_eq(s->name, base ? base + 1 : r.path);
    ck_assert_str_eq(s->path, r.path);
    ck_assert(memcmp(&s->eff, &d.eff, sizeof d.eff) == 0);
    ck_assert(memcmp(&s->work, &d.work, sizeof d.work) == 0);
    ck_assert(memcmp(&s->plan, &d.plan, sizeof d.plan) == 0);
    ck_assert_int_eq(s->cluster.devices_per_node, d.cluster.devices_per_node);
    ck_assert(s->cluster.host_mem_bytes == d.cluster.host_mem_bytes);
    /* Links default from the device. */
    ck_assert(s->cluster.intra_node.bw == 450e9);
    ck_assert(s->cluster.intra_supernode.bw == 50e9);
    ck_assert(s->cluster.inter_supernode.bw == 50e9);
    ck_assert(s->cluster.intra_node.latency_s > 0);
    ck_assert(!s->has_ref && !s->reward_is_model && !s->has_critic);
    ck_assert(fabs(s->actor.params_total - 7.6e9) < 0.03 * 7.6e9);
}
END_TEST

static const char FULL_SCENARIO[] =
    "local f = fusync\n"
    "return {\n"
    "  name = \"full_test\",\n"
    "  cluster = {\n"
    "    device = f.devices.ascend_910c,\n"
    "    devices_per_node = 8, nodes_per_supernode = 4, supernodes = 1,\n"
    "    links = { intra_node = {gbps = 392, latency_us = 1},\n"
    "              intra_supernode = {gbps = 392, latency_us = 2},\n"
    "              inter_supernode = {gbps = 50} },\n"
    "    host_mem_gb = 1536,\n"
    "  },\n"
    "  models = {\n"
    "    actor = f.models.qwen3_30b_a3b,\n"
    "    reference = f.models.qwen3_30b_a3b,\n"
    "    reward = \"rule\",\n"
    "    critic = nil,\n"
    "  },\n"
    "  workload = {\n"
    "    algorithm = \"grpo\",\n"
    "    prompts_per_step = 384, samples_per_prompt = 32, minibatches = 4, epochs = 2,\n"
    "    prompt_len = f.dist.fixed(1024),\n"
    "    response_len = f.dist.lognormal{median = 2048, sigma = 0.8, cap = 16384},\n"
    "    max_response = 16384, iterations = 6, warmup = 2, seed = 7, recompute_logprob = false,\n"
    "  },\n"
    "  plan = {\n"
    "    mode = \"full\",\n"
    "    rollout_devices = 8, aux_devices = 4,\n"
    "    pools = { {name = \"gen\", devices = 16, roles = {\"rollout\"}},\n"
    "              {devices = 16, roles = {\"train\", \"reference\", \"reward\"}} },\n"
    "    train = { tp = 4, pp = 4, ep = 8, dp = nil, micro_batch = 2, recompute = \"full\", zero = 2 },\n"
    "    rollout = { tp = 4, ep = 8, max_seqs = 128, mem_util = 0.85 },\n"
    "    aux_tp = 2,\n"
    "    offload = { optimizer = false, grads = true },\n"
    "    zero_redundancy = false, bucket_mb = 256,\n"
    "    staleness = 2, partial_rollout = 0.9, on_update = \"restart\", on_stale = \"discard\",\n"
    "    policy = \"plugins/colocate.lua\",\n"
    "  },\n"
    "  efficiency = { train = 0.35, prefill = 0.55, decode = 0.45, hbm = 0.7, link = 0.6,\n"
    "                 host_link = 0.8, decode_overhead_ms = 4, train_overhead_ms = 200,\n"
    "                 switch_overhead_s = 1.5, reward_rule_ms = 2 },\n"
    "}\n";

START_TEST(test_full)
{
    loaded r;
    load_text(&r, FULL_SCENARIO);
    expect_ok(&r);
    const scn_scenario *s = &r.s;
    ck_assert_str_eq(s->name, "full_test");
    const scn_cluster *c = &s->cluster;
    ck_assert_str_eq(c->device.name, "Ascend 910C");
    ck_assert_int_eq(scn_total_devices(c), 32);
    ck_assert(c->host_mem_bytes == 1536 * GiB);
    ck_assert(c->intra_node.bw == 392e9 && fabs(c->intra_node.latency_s - 1e-6) < 1e-15);
    ck_assert(c->intra_supernode.bw == 392e9 && fabs(c->intra_supernode.latency_s - 2e-6) < 1e-15);
    ck_assert(c->inter_supernode.bw == 50e9 && c->inter_supernode.latency_s > 0);
    ck_assert(s->has_ref && !s->reward_is_model && !s->has_critic);
    ck_assert_int_eq(s->actor.experts, 128);

    const scn_workload *w = &s->work;
    ck_assert(w->algo == ALGO_GRPO);
    ck_assert_int_eq(w->prompts_per_step, 384);
    ck_assert_int_eq(w->samples_per_prompt, 32);
    ck_assert_int_eq(w->minibatches, 4);
    ck_assert_int_eq(w->epochs, 2);
    ck_assert(w->prompt_len.kind == DIST_FIXED && w->prompt_len.a == 1024);
    ck_assert(w->response_len.kind == DIST_LOGNORMAL);
    ck_assert(w->response_len.a == 2048 && w->response_len.b == 0.8 && w->response_len.cap == 16384);
    ck_assert_int_eq(w->max_response, 16384);
    ck_assert_int_eq(w->iterations, 6);
    ck_assert_int_eq(w->warmup, 2);
    ck_assert(w->seed == 7 && !w->recompute_logprob);

    const scn_plan *p = &s->plan;
    ck_assert(p->mode == MODE_FULL);
    ck_assert_int_eq(p->rollout_devices, 8);
    ck_assert_int_eq(p->aux_devices, 4);
    ck_assert_int_eq(p->npools, 2);
    ck_assert_str_eq(p->pools[0].name, "gen");
    ck_assert_int_eq(p->pools[0].devices, 16);
    ck_assert_uint_eq(p->pools[0].roles, ROLE_ROLLOUT);
    ck_assert_str_eq(p->pools[1].name, "pool2");
    ck_assert_uint_eq(p->pools[1].roles, ROLE_TRAIN | ROLE_REF | ROLE_REWARD);
    ck_assert(p->train.tp == 4 && p->train.pp == 4 && p->train.ep == 8 && p->train.dp == 0);
    ck_assert(p->train.micro_batch == 2 && p->train.recompute == RECOMPUTE_FULL && p->train.zero == 2);
    ck_assert(p->rollout.tp == 4 && p->rollout.ep == 8 && p->rollout.max_seqs == 128);
    ck_assert(p->rollout.mem_util == 0.85);
    ck_assert_int_eq(p->aux_tp, 2);
    ck_assert(!p->offload_optimizer && p->offload_grads && !p->zero_redundancy);
    ck_assert(p->bucket_bytes == 256.0 * 1024 * 1024);
    ck_assert(p->staleness == 2 && p->partial_rollout == 0.9);
    ck_assert(p->on_update == ONUPD_RESTART && p->on_stale == STALE_DISCARD);
    ck_assert_str_eq(p->policy, "plugins/colocate.lua");

    const scn_efficiency *e = &s->eff;
    ck_assert(e->train == 0.35 && e->prefill == 0.55 && e->decode == 0.45);
    ck_assert(e->hbm == 0.7 && e->link == 0.6 && e->host_link == 0.8);
    ck_assert(fabs(e->decode_overhead_s - 4e-3) < 1e-15);
    ck_assert(fabs(e->train_overhead_s - 0.2) < 1e-15);
    ck_assert(e->switch_overhead_s == 1.5);
    ck_assert(fabs(e->reward_rule_s - 2e-3) < 1e-15);
}
END_TEST

START_TEST(test_partial_efficiency_keeps_defaults)
{
    loaded r;
    load_text(&r, MINIMAL "  efficiency = { train = 0.3 },\n}\n");
    expect_ok(&r);
    scn_scenario d;
    scn_defaults(&d);
    ck_assert(r.s.eff.train == 0.3);
    ck_assert(r.s.eff.decode == d.eff.decode && r.s.eff.hbm == d.eff.hbm);
    ck_assert(r.s.eff.switch_overhead_s == d.eff.switch_overhead_s);
}
END_TEST

START_TEST(test_dists)
{
    loaded r;
    load_text(&r, MINIMAL
              "  workload = { prompt_len = 700,\n"
              "    response_len = fusync.dist.histogram{edges = {1, 100, 1000, 4000},\n"
              "                                         weights = {1, 2, 0.5}, cap = 3000} },\n"
              "}\n");
    expect_ok(&r);
    const scn_dist *p = &r.s.work.prompt_len, *h = &r.s.work.response_len;
    ck_assert(p->kind == DIST_FIXED && p->a == 700);
    ck_assert(h->kind == DIST_HIST && h->nbins == 3 && h->cap == 3000);
    ck_assert(h->edge[0] == 1 && h->edge[3] == 4000 && h->weight[1] == 2 && h->weight[2] == 0.5);

    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.uniform(10, 20) },\n}\n");
    expect_ok(&r);
    ck_assert(r.s.work.response_len.kind == DIST_UNIFORM);
    ck_assert(r.s.work.response_len.a == 10 && r.s.work.response_len.b == 20);

    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.lognormal{median = 500, lo = 3} },\n}\n");
    expect_error(&r, "@: workload.response_len.lo: not a field of a lognormal distribution");
    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.lognormal{median = 500} },\n}\n");
    expect_error(&r, "@: workload.response_len.sigma: required for a lognormal distribution");
    load_text(&r, MINIMAL "  workload = { response_len = {kind = \"lognormel\", median = 5, sigma = 1} },\n}\n");
    expect_error(&r, "workload.response_len.kind: unknown value 'lognormel'; did you mean 'lognormal'?");
    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.uniform(20, 10) },\n}\n");
    expect_error(&r, "workload.response_len.hi: must not be below lo");
    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.histogram{edges = {1, 5}, weights = {1, 2}} },\n}\n");
    expect_error(&r, "workload.response_len.edges: a histogram of 2 weights needs 3 edges, got 2");
    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.histogram{edges = {1, 5, 3}, weights = {1, 2}} },\n}\n");
    expect_error(&r, "workload.response_len.edges: edges must increase");
    load_text(&r, MINIMAL "  workload = { response_len = fusync.dist.histogram{edges = {1, 5, 9}, weights = {1, \"x\"}} },\n}\n");
    expect_error(&r, "workload.response_len.weights[2]: expected a number, got string");
}
END_TEST

START_TEST(test_models_roles)
{
    loaded r;
    load_text(&r,
              "local f = fusync\n"
              "return { cluster = { device = \"h100\" },\n"
              "  models = { actor = f.copy(f.models.llama3_1_8b, {layers = 16, name = \"half\"}),\n"
              "             reference = f.models.llama3_1_8b,\n"
              "             reward = \"qwen2_5_7b\", critic = true },\n"
              "  workload = { algorithm = \"ppo\" } }\n");
    expect_ok(&r);
    ck_assert_str_eq(r.s.cluster.device.name, presets_device_find("h100")->name);
    ck_assert_str_eq(r.s.actor.name, "half");
    ck_assert_int_eq(r.s.actor.layers, 16);
    ck_assert_int_eq(r.s.ref.layers, 32);           /* the copy left the preset alone */
    ck_assert(r.s.reward_is_model && r.s.reward.hidden == 3584);
    ck_assert(r.s.has_critic && r.s.critic.layers == 16);   /* true: same as the actor */
    ck_assert(r.s.work.algo == ALGO_PPO);

    /* A custom model: name defaults to the role, kv_heads to heads. */
    load_text(&r, "return { cluster = { device = fusync.devices.a100_80g },\n"
                  "  models = { actor = { layers = 4, hidden = 512, heads = 8, ffn = 2048, vocab = 1000 } } }\n");
    expect_ok(&r);
    ck_assert_str_eq(r.s.actor.name, "actor");
    ck_assert_int_eq(r.s.actor.kv_heads, 8);
    ck_assert(r.s.actor.params_total > 0);

    load_text(&r, "return { cluster = { device = fusync.devices.h100 },\n"
                  "  models = { actor = fusync.models.qwen2_5_7b }, workload = { algorithm = \"ppo\" } }\n");
    expect_error(&r, "workload.algorithm");
}
END_TEST

START_TEST(test_custom_device)
{
    loaded r;
    load_text(&r, "return { cluster = { device = { name = \"X1\", tflops = 500, hbm_gb = 96,\n"
                  "  hbm_tbps = 2.5, scaleup_gbps = 300, scaleout_gbps = 25, host_gbps = 32 } },\n"
                  "  models = { actor = fusync.models.qwen2_5_7b } }\n");
    expect_ok(&r);
    const scn_device *d = &r.s.cluster.device;
    ck_assert_str_eq(d->name, "X1");
    ck_assert(d->peak_flops == 500e12 && d->hbm_bytes == 96 * GiB && d->hbm_bw == 2.5e12);
    ck_assert(d->scaleup_bw == 300e9 && d->scaleout_bw == 25e9 && d->host_bw == 32e9);

    load_text(&r, "return { cluster = { device = { tflops = 500, hbm_gb = 96,\n"
                  "  scaleup_gbps = 300, scaleout_gbps = 25, host_gbps = 32 } },\n"
                  "  models = { actor = fusync.models.qwen2_5_7b } }\n");
    expect_error(&r, "@: cluster.device.hbm_tbps: required");
}
END_TEST

START_TEST(test_deterministic)
{
    const char *text = MINIMAL "  workload = { seed = math.random(1, 1000000) },\n}\n";
    loaded a, b;
    load_text(&a, text);
    load_text(&b, text);
    expect_ok(&a);
    expect_ok(&b);
    /* Same text, same struct (paths and default names differ by file). */
    memset(a.s.path, 0, sizeof a.s.path);
    memset(b.s.path, 0, sizeof b.s.path);
    memset(a.s.name, 0, sizeof a.s.name);
    memset(b.s.name, 0, sizeof b.s.name);
    ck_assert(memcmp(&a.s, &b.s, sizeof a.s) == 0);
}
END_TEST

START_TEST(test_fusync_table)
{
    loaded r;
    load_text(&r, "assert(type(fusync.version) == 'string')\n"
                  "assert(fusync.devices.h20.hbm_gb == 96)\n"
                  "assert(fusync.models.deepseek_v3.mla_latent == 512)\n"
                  "assert(fusync.devices.h100 ~= nil and fusync.dist.fixed(3).value == 3)\n"
                  MINIMAL "}\n");
    expect_ok(&r);
}
END_TEST

/* ---- --set -------------------------------------------------------------- */

START_TEST(test_set_values)
{
    const char *sets[] = {
        "cluster.supernodes=2",                 /* number */
        "plan.mode=separate",                   /* string; creates plan */
        "plan.zero_redundancy=false",           /* bool */
        "plan.train.tp=4",                      /* nested; creates plan.train */
        "plan.offload.grads=false",
        "cluster.links.inter_supernode.gbps=25",
        "workload.response_len.cap=8192",       /* into an existing table */
        "workload.prompt_len=2048",             /* number for a distribution */
        "workload.seed=42",
        "workload.seed=43",                     /* the last one wins */
        "name=run 1",
        "cluster.device=h200",
        "cluster.device.hbm_gb=100",            /* into a preset named by string */
    };
    loaded r;
    load_sets(&r, MINIMAL
              "  workload = { response_len = fusync.dist.lognormal{median = 900, sigma = 1} },\n}\n",
              sets, (int)(sizeof sets / sizeof sets[0]));
    expect_ok(&r);
    const scn_scenario *s = &r.s;
    ck_assert_int_eq(s->cluster.supernodes, 2);
    ck_assert(s->plan.mode == MODE_SEPARATE);
    ck_assert(!s->plan.zero_redundancy);
    ck_assert_int_eq(s->plan.train.tp, 4);
    ck_assert(s->plan.offload_optimizer && !s->plan.offload_grads);
    ck_assert(s->cluster.inter_supernode.bw == 25e9);
    ck_assert(s->work.response_len.kind == DIST_LOGNORMAL && s->work.response_len.cap == 8192);
    ck_assert(s->work.response_len.a == 900);
    ck_assert(s->work.prompt_len.kind == DIST_FIXED && s->work.prompt_len.a == 2048);
    ck_assert(s->work.seed == 43);
    ck_assert_str_eq(s->name, "run 1");
    ck_assert_str_eq(s->cluster.device.name, "NVIDIA H200");
    ck_assert(s->cluster.device.hbm_bytes == 100 * GiB);
    ck_assert(s->cluster.device.hbm_bw == 4.8e12);

    const char *more[] = {"models.actor=llama3_1_8b", "models.reference=true",
                          "workload.response_len.cap=300", "plan.pools.1.devices=4",
                          "plan.pools.1.roles.1=rollout"};
    load_sets(&r, MIN_SCENARIO, more, 5);
    expect_ok(&r);
    ck_assert_str_eq(r.s.actor.name, "Llama-3.1-8B");
    ck_assert(r.s.has_ref && r.s.ref.layers == 32);
    ck_assert(r.s.work.response_len.kind == DIST_FIXED && r.s.work.response_len.cap == 300);
    ck_assert_int_eq(r.s.plan.npools, 1);
    ck_assert_int_eq(r.s.plan.pools[0].devices, 4);
    ck_assert_uint_eq(r.s.plan.pools[0].roles, ROLE_ROLLOUT);
}
END_TEST

START_TEST(test_set_errors)
{
    loaded r;
    const char *malformed[] = {"cluster.supernodes"};
    load_sets(&r, MIN_SCENARIO, malformed, 1);
    expect_error(&r, "--set cluster.supernodes: expected PATH=VALUE");

    const char *unknown[] = {"plan.train.tpp=4"};
    load_sets(&r, MIN_SCENARIO, unknown, 1);
    expect_error(&r, "--set plan.train.tpp=4: plan.train.tpp: unknown field; did you mean 'tp'?");

    const char *top[] = {"clustr.supernodes=4"};
    load_sets(&r, MIN_SCENARIO, top, 1);
    expect_error(&r, "clustr: unknown field; did you mean 'cluster'?");

    const char *leaf[] = {"plan.mode.x=1"};
    load_sets(&r, MIN_SCENARIO, leaf, 1);
    expect_error(&r, "--set plan.mode.x=1: plan.mode is a value, not a table");

    const char *empty[] = {"plan..mode=full"};
    load_sets(&r, MIN_SCENARIO, empty, 1);
    expect_error(&r, "--set plan..mode=full: empty field name");

    const char *badtype[] = {"plan.train.tp=abc"};
    load_sets(&r, MIN_SCENARIO, badtype, 1);
    expect_error(&r, "@: plan.train.tp: expected an integer, got string \"abc\" (from --set plan.train.tp=abc)");

    const char *badpreset[] = {"models.actor=llama31_8b"};
    load_sets(&r, MIN_SCENARIO, badpreset, 1);
    expect_error(&r, "models.actor: unknown model preset 'llama31_8b'; did you mean 'llama3_1_8b'?");

    const char *badindex[] = {"plan.pools.x.devices=3"};
    load_sets(&r, MIN_SCENARIO, badindex, 1);
    expect_error(&r, "--set plan.pools.x.devices=3: plan.pools: expected an item number");
}
END_TEST

/* ---- bad input ---------------------------------------------------------- */

START_TEST(test_unknown_keys)
{
    loaded r;
    load_text(&r, MINIMAL "  plan = { train = { tpp = 8 } },\n}\n");
    expect_error(&r, "@: plan.train.tpp: unknown field; did you mean 'tp'?");
    load_text(&r, MINIMAL "  naem = \"x\",\n}\n");
    expect_error(&r, "@: naem: unknown field; did you mean 'name'?");
    load_text(&r, MINIMAL "  workload = { prompts_per_stpe = 8 },\n}\n");
    expect_error(&r, "workload.prompts_per_stpe: unknown field; did you mean 'prompts_per_step'?");
    load_text(&r, MINIMAL "  plan = { qqqqqqq = 1 },\n}\n");
    expect_error(&r, "@: plan.qqqqqqq: unknown field (known: mode, rollout_devices");
    /* Two unknown keys: the report names the same one every time. */
    load_text(&r, MINIMAL "  plan = { zz = 1, aa = 2 },\n}\n");
    expect_error(&r, "plan.aa: unknown field");
    load_text(&r, "local m = fusync.copy(fusync.models.qwen2_5_7b, {params_total = 7e9})\n"
                  "return { cluster = { device = fusync.devices.h100 }, models = { actor = m } }\n");
    expect_error(&r, "models.actor.params_total: derived from the architecture");
    load_text(&r, MINIMAL "  plan = { pools = { {devices = 4, roles = {\"rolout\"}} } },\n}\n");
    expect_error(&r, "plan.pools[1].roles[1]: unknown value 'rolout'; did you mean 'rollout'?");
    load_text(&r, MINIMAL "  plan = { 1, 2 },\n}\n");
    expect_error(&r, "@: plan: unexpected key 1");
    load_text(&r, MINIMAL "  cluster = { device = \"h1000\" },\n}\n");
    expect_error(&r, "cluster.device: unknown device preset 'h1000'; did you mean 'h100'?");
}
END_TEST

START_TEST(test_wrong_types)
{
    loaded r;
    load_text(&r, MINIMAL "  plan = { train = { tp = \"8\" } },\n}\n");
    expect_error(&r, "@: plan.train.tp: expected an integer, got string");
    load_text(&r, MINIMAL "  plan = { train = { tp = 2.5 } },\n}\n");
    expect_error(&r, "plan.train.tp: expected an integer, got 2.5");
    load_text(&r, MINIMAL "  plan = { zero_redundancy = \"yes\" },\n}\n");
    expect_error(&r, "plan.zero_redundancy: expected true or false, got string");
    load_text(&r, MINIMAL "  plan = 4,\n}\n");
    expect_error(&r, "@: plan: expected a table, got 4");
    load_text(&r, MINIMAL "  plan = { mode = \"colocated\" },\n}\n");
    expect_error(&r, "plan.mode: unknown value 'colocated'; did you mean 'colocate'?");
    load_text(&r, MINIMAL "  plan = { mode = 3 },\n}\n");
    expect_error(&r, "plan.mode: expected one of separate, colocate, full; got 3");
    load_text(&r, "return { cluster = { device = 5 }, models = { actor = fusync.models.qwen2_5_7b } }\n");
    expect_error(&r, "cluster.device: expected a device table");
    load_text(&r, MINIMAL "  efficiency = { hbm = {} },\n}\n");
    expect_error(&r, "efficiency.hbm: expected a number, got table");
    /* Integral floats are integers. */
    load_text(&r, MINIMAL "  plan = { train = { tp = 2.0 } },\n}\n");
    expect_ok(&r);
    ck_assert_int_eq(r.s.plan.train.tp, 2);
}
END_TEST

START_TEST(test_out_of_range)
{
    loaded r;
    load_text(&r, MINIMAL "  plan = { train = { tp = 0 } },\n}\n");
    expect_error(&r, "@: plan.train.tp: must be at least 1, got 0");
    load_text(&r, MINIMAL "  plan = { staleness = -1 },\n}\n");
    expect_error(&r, "plan.staleness: must be in 0..64, got -1");
    load_text(&r, MINIMAL "  efficiency = { train = 1.5 },\n}\n");
    expect_error(&r, "efficiency.train: must be a fraction in (0, 1], got 1.5");
    load_text(&r, MINIMAL "  plan = { rollout = { mem_util = 0 } },\n}\n");
    expect_error(&r, "plan.rollout.mem_util: must be a fraction in (0, 1], got 0");
    load_text(&r, MINIMAL "  plan = { train = { zero = 4 } },\n}\n");
    expect_error(&r, "plan.train.zero: must be in 0..3, got 4");
    load_text(&r, "return { cluster = { device = fusync.devices.h100, host_mem_gb = -1 },\n"
                  "  models = { actor = fusync.models.qwen2_5_7b } }\n");
    expect_error(&r, "cluster.host_mem_gb: must be positive, got -1");
    load_text(&r, MINIMAL "  efficiency = { decode_overhead_ms = -2 },\n}\n");
    expect_error(&r, "efficiency.decode_overhead_ms: must not be negative");
    load_text(&r, MINIMAL "  workload = { prompt_len = 0 },\n}\n");
    expect_error(&r, "workload.prompt_len: must be positive");
    /* Layout checks come from scn_validate, with code 2 too. */
    load_text(&r, MINIMAL "  plan = { train = { pp = 3 } },\n}\n");
    expect_error(&r, "plan.train.pp");
}
END_TEST

START_TEST(test_missing_required)
{
    loaded r;
    load_text(&r, "return { models = { actor = fusync.models.qwen2_5_7b } }\n");
    expect_error(&r, "@: cluster.device: required");
    load_text(&r, "return { cluster = { device = fusync.devices.h100 }, models = {} }\n");
    expect_error(&r, "@: models.actor: required");
    load_text(&r, "return { cluster = { device = fusync.devices.h100 } }\n");
    expect_error(&r, "@: models.actor: required");
    load_text(&r, "return 5\n");
    expect_error(&r, "@: the scenario must return a table, got 5");

    scn_scenario s;
    fs_err e = {0};
    ck_assert(!lscn_load("/nonexistent/dir/none.lua", NULL, 0, &s, &e));
    ck_assert_int_eq(e.code, 2);
    ck_assert(strstr(e.msg, "/nonexistent/dir/none.lua: cannot read") != NULL);
}
END_TEST

/* ---- Lua errors and the sandbox ----------------------------------------- */

START_TEST(test_syntax_error)
{
    loaded r;
    load_text(&r, "local f = fusync\nlocal x = 1\nreturn { cluster = = 1 }\n");
    expect_error(&r, "@:3:");
    load_text(&r, "local f = fusync\nreturn { cluster = \n");
    expect_error(&r, "near <eof>");
    load_text(&r, "local f = fusync\nlocal x = = 2\n");
    expect_error(&r, "@:2:");
    ck_assert(strncmp(r.err.msg, r.path, strlen(r.path)) == 0);
}
END_TEST

START_TEST(test_runtime_error)
{
    loaded r;
    load_text(&r, "local f = fusync\n\n\nerror(\"boom\")\n");
    expect_error(&r, "@:4: boom");
    ck_assert(strstr(r.err.msg, "stack traceback") != NULL);
    load_text(&r, "local t = nil\nreturn t.x\n");
    expect_error(&r, "@:2: attempt to index");
    load_text(&r, "local f = fusync\nlocal d = f.dist.fixed(\"x\")\n");
    expect_error(&r, "@:2: bad argument #1 to 'fixed'");
    load_text(&r, "error({})\n");
    expect_error(&r, "@: (error object is a table value)");
}
END_TEST

START_TEST(test_runaway)
{
    loaded r;
    load_text(&r, "local n = 0\nwhile true do n = n + 1 end\n");
    expect_error(&r, "@:2: scenario ran too long");
    /* Finalizers run with hooks off, so they are refused. */
    load_text(&r, "local t = setmetatable({}, {__gc = function() while true do end end})\n"
                  MINIMAL "}\n");
    expect_error(&r, "@:1: __gc metamethods are not allowed");
    load_text(&r, "local t = setmetatable({}, {__index = {a = 1}})\nassert(t.a == 1)\n"
                  MINIMAL "}\n");
    expect_ok(&r);
}
END_TEST

START_TEST(test_memory_budget)
{
    loaded r;
    load_text(&r, "local s = string.rep(\"x\", 1 << 29)\n" MINIMAL "}\n");
    expect_error(&r, "@: the scenario used more than");
}
END_TEST

static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    return fwrite(p, 1, sz, ud) == sz ? 0 : 1;
}

START_TEST(test_bytecode_refused)
{
    char path[512];
    tmp_file(path, sizeof path);
    lua_State *L = luaL_newstate();
    ck_assert_int_eq(luaL_loadstring(L, MIN_SCENARIO), LUA_OK);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(lua_dump(L, dump_writer, f, 0), 0);
    fclose(f);
    lua_close(L);
    scn_scenario s;
    fs_err e = {0};
    bool ok = lscn_load(path, NULL, 0, &s, &e);
    unlink(path);
    ck_assert(!ok);
    ck_assert_int_eq(e.code, 2);
    ck_assert_msg(strstr(e.msg, "binary") != NULL && strstr(e.msg, path) != NULL, "%s", e.msg);
}
END_TEST

START_TEST(test_sandbox)
{
    loaded r;
    load_text(&r, "assert(io == nil and os == nil and debug == nil and package == nil)\n"
                  "assert(require == nil and dofile == nil and loadfile == nil and load == nil)\n"
                  "assert(print == nil and string.dump == nil)\n"
                  "assert(string.format and table.concat and math.floor and pairs and pcall)\n"
                  MINIMAL "}\n");
    expect_ok(&r);
}
END_TEST

Suite *suite_scenario_lua(void)
{
    Suite *s = suite_create("scenario_lua");

    TCase *tc = tcase_create("presets");
    tcase_add_test(tc, test_preset_tables);
    tcase_add_test(tc, test_preset_aliases);
    tcase_add_test(tc, test_preset_params);
    tcase_add_test(tc, test_preset_models_load);
    tcase_add_test(tc, test_preset_devices_load);
    suite_add_tcase(s, tc);

    tc = tcase_create("load");
    tcase_add_test(tc, test_minimal);
    tcase_add_test(tc, test_full);
    tcase_add_test(tc, test_partial_efficiency_keeps_defaults);
    tcase_add_test(tc, test_dists);
    tcase_add_test(tc, test_models_roles);
    tcase_add_test(tc, test_custom_device);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_fusync_table);
    suite_add_tcase(s, tc);

    tc = tcase_create("set");
    tcase_add_test(tc, test_set_values);
    tcase_add_test(tc, test_set_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_input");
    tcase_add_test(tc, test_unknown_keys);
    tcase_add_test(tc, test_wrong_types);
    tcase_add_test(tc, test_out_of_range);
    tcase_add_test(tc, test_missing_required);
    suite_add_tcase(s, tc);

    tc = tcase_create("lua_errors");
    tcase_set_timeout(tc, 60);      /* the runaway loop runs 50M instructions */
    tcase_add_test(tc, test_syntax_error);
    tcase_add_test(tc, test_runtime_error);
    tcase_add_test(tc, test_runaway);
    tcase_add_test(tc, test_memory_budget);
    tcase_add_test(tc, test_bytecode_refused);
    tcase_add_test(tc, test_sandbox);
    suite_add_tcase(s, tc);
    return s;
}

TEST_SUITE(suite_scenario_lua)
