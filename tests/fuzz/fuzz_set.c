/*
** fuzz_set.c — structure-aware: the input chooses an example scenario and
** up to eight `--set PATH=VALUE` overrides, each a known path (or a broken
** one) with an extreme value: 0, -1, the edges of int, int64 and double,
** nan, inf, huge exponents, empty, long, control characters, a preset name,
** a table-shaped text.  Then the scenario is loaded, planned and simulated
** for a bounded number of events.  Seeds: tests/fuzz/corpus/fuzz_set/.
*/
#include "fuzz_common.h"
#include "lua_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const EXAMPLES[] = {"qwen7b_h100x16.lua", "pangu718b_cm384.lua", "llama70b_h100x64.lua"};

static const char *const PATHS[] = {
    "name", "cluster.device", "cluster.device.tflops", "cluster.device.hbm_gb", "cluster.device.hbm_tbps",
    "cluster.device.scaleup_gbps", "cluster.device.scaleout_gbps", "cluster.device.host_gbps",
    "cluster.devices_per_node", "cluster.nodes_per_supernode", "cluster.supernodes", "cluster.host_mem_gb",
    "cluster.links.intra_node.gbps", "cluster.links.intra_supernode.latency_us", "cluster.links.inter_supernode.gbps",
    "models.actor", "models.actor.layers", "models.actor.dense_layers", "models.actor.hidden", "models.actor.heads",
    "models.actor.kv_heads", "models.actor.head_dim", "models.actor.mla_latent", "models.actor.ffn",
    "models.actor.expert_ffn", "models.actor.experts", "models.actor.experts_active", "models.actor.shared_experts",
    "models.actor.vocab", "models.actor.tied_embeddings", "models.reference", "models.reward", "models.critic",
    "workload.algorithm", "workload.prompts_per_step", "workload.samples_per_prompt", "workload.minibatches",
    "workload.epochs", "workload.prompt_len", "workload.prompt_len.kind", "workload.response_len.median",
    "workload.response_len.sigma", "workload.response_len.cap", "workload.response_len.edges.1",
    "workload.max_response", "workload.iterations", "workload.warmup", "workload.seed",
    "workload.recompute_logprob", "workload.batch_per_supernode",
    "plan.mode", "plan.rollout_devices", "plan.rollout_fraction", "plan.aux_devices", "plan.pools.1.devices",
    "plan.pools.1.name", "plan.pools.2.roles.1", "plan.train.tp", "plan.train.pp", "plan.train.ep", "plan.train.dp",
    "plan.train.micro_batch", "plan.train.recompute", "plan.train.zero", "plan.train.uneven_layers",
    "plan.rollout.tp", "plan.rollout.ep", "plan.rollout.max_seqs", "plan.rollout.mem_util", "plan.rollout.dispatch",
    "plan.aux_tp", "plan.offload.optimizer", "plan.distqueue.packed", "plan.zero_redundancy", "plan.bucket_mb",
    "plan.staleness", "plan.partial_rollout", "plan.on_update", "plan.on_stale",
    "efficiency.train", "efficiency.decode", "efficiency.hbm", "efficiency.decode_overhead_ms",
    "efficiency.switch_overhead_s", "plan.nope", "plan..train", ".", "plan.train.tp.x",
};
#define NPATHS (sizeof PATHS / sizeof PATHS[0])

static const char *const VALUES[] = {
    "0", "-1", "1", "2", "3", "7", "64", "65", "1000", "4096", "65536",
    "2147483647", "2147483648", "-2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "1e308", "-1e308", "1e309", "4.9e-324", "1e-300", "nan", "-nan", "inf", "-inf",
    "0.5", "0.999999999", "1.0000001", "0x7fffffff", "1e", "", " ", "true", "false", "nil",
    "separate", "colocate", "full", "hybrid", "grpo", "ppo", "h100", "ascend_910c", "qwen2_5_7b",
    "pangu_ultra_moe_718b", "fixed", "lognormal", "histogram", "restart", "discard", "selective",
    "{}", "{1,2,3}", "\x1b]0;x\x07", "a\nb", "\xff\xfe",
};
#define NVALUES (sizeof VALUES / sizeof VALUES[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *root = getenv("FUSYNC_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/%s", root ? root : ".", EXAMPLES[data[0] % 3]);
    char sets[8][320];
    const char *setp[8];
    int nsets = 0;
    size_t i = 1;
    while (i + 2 <= size && nsets < 8) {
        const char *p = PATHS[data[i] % NPATHS];
        uint8_t v = data[i + 1];
        i += 2;
        char value[256];
        if (v < 200) {
            snprintf(value, sizeof value, "%s", VALUES[v % NVALUES]);
        } else if (v < 230 && i + 8 <= size) {
            /* a raw 64-bit pattern, as an integer or as a double */
            uint64_t bits;
            memcpy(&bits, data + i, 8);
            i += 8;
            if (v & 1) snprintf(value, sizeof value, "%lld", (long long)bits);
            else {
                double d;
                memcpy(&d, &bits, sizeof d);
                snprintf(value, sizeof value, "%.17g", d);
            }
        } else {
            /* a short raw text from the input */
            size_t n = size - i < 40 ? size - i : 40;
            memcpy(value, data + i, n);
            value[n] = 0;
            i += n;
        }
        snprintf(sets[nsets], sizeof sets[nsets], "%s=%s", p, value);
        setp[nsets] = sets[nsets];
        nsets++;
    }
    scn_scenario sc;
    fs_err err = {0, ""};
    if (lscn_load(path, setp, nsets, &sc, &err)) fuzz_plan_and_simulate(&sc, 20000);
    return 0;
}
