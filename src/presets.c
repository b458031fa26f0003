/*
** presets.c — the built-in device and model tables.
** Every figure names its source; "GUESS" marks a figure that no public source
** pins down, chosen to be plausible and meant to be overridden by a scenario.
** Devices: dense BF16 peak, dense FP8 peak where the device has FP8 tensor
** cores (0 on the A100 and the Ascend NPUs, which have none), HBM, links, from the vendors' data sheets and, for
** the Ascend 910C, the CloudMatrix384 paper (Zuo et al., arXiv 2506.12708).
** Models: the fields of each model's published config.json.
*/
#include "presets.h"

#include <stdbool.h>
#include <string.h>

#define GiB  (1024.0 * 1024.0 * 1024.0)
#define GBps 1e9            /* GB/s, decimal */
#define TBps 1e12
#define TFLOPS 1e12

typedef struct {
    const char *key;
    const char *source;
    scn_device  dev;
} device_entry;

typedef struct {
    const char *key;
    const char *source;
    scn_model   model;
} model_entry;

/* Host link: PCIe Gen5 x16 is ~64 GB/s one way peak, Gen4 half of that (PCI
** Express 5.0 and 4.0: 32 and 16 GT/s a lane, 128b/130b coding); the
** scenario's efficiency.host_link scales it down to what
** is achieved.  Scale-out NICs: 400 Gb/s = 50 GB/s, 200 Gb/s = 25 GB/s. */
static const device_entry DEVICES[] = {
    { "ascend_910c",
      "CloudMatrix384 paper (Zuo et al., arXiv 2506.12708): 752 TFLOP/s dual-die, 128 GB, ~3.2 TB/s, "
      "UB >392 GB/s one way, RoCE 400 Gb/s; host link GUESS (PCIe Gen5-class)",
      { .name = "Ascend 910C",
        .peak_flops  = 752 * TFLOPS,
        .hbm_bytes   = 128 * GiB,
        .hbm_bw      = 3.2 * TBps,       /* "~3.2" */
        .scaleup_bw  = 392 * GBps,       /* UB, per NPU one way, across the supernode */
        .scaleout_bw = 50 * GBps,        /* RoCE 400 Gb/s */
        .host_bw     = 64 * GBps } },    /* GUESS */
    { "ascend_910b",
      "Huawei Atlas 800T A2 product data: ~313-376 TFLOP/s (313 taken: 2.5 PFLOP/s per "
      "8-NPU node), 64 GB, ~1.6 TB/s, RoCE 200 Gb/s; HCCS and host link GUESS",
      { .name = "Ascend 910B",
        .peak_flops  = 313 * TFLOPS,
        .hbm_bytes   = 64 * GiB,
        .hbm_bw      = 1.6 * TBps,
        .scaleup_bw  = 196 * GBps,       /* GUESS: HCCS full mesh, 7 x 56 GB/s, halved for one way */
        .scaleout_bw = 25 * GBps,        /* RoCE 200 Gb/s */
        .host_bw     = 32 * GBps } },    /* GUESS: PCIe Gen4 x16 (Kunpeng 920 host) */
    { "h100",
      "NVIDIA H100 SXM data sheet: 989 TFLOP/s dense BF16, FP8 1,979 dense (3,958 with sparsity), 80 GB, "
      "3.35 TB/s, NVLink 450 GB/s one way, IB 400 Gb/s, PCIe Gen5; CUDA's total 79.22 GiB "
      "(vLLM's total_gpu_memory, vllm-project/vllm pull request 10511)",
      { .name = "NVIDIA H100 SXM",
        .peak_flops  = 989 * TFLOPS,
        .fp8_flops   = 1979 * TFLOPS,
        .hbm_bytes   = 80 * GiB,
        .cuda_total_bytes = 79.22 * GiB, /* "total_gpu_memory 79.22GiB" (vLLM pull request 10511's log) */
        .hbm_bw      = 3.35 * TBps,
        .scaleup_bw  = 450 * GBps,
        .scaleout_bw = 50 * GBps,
        .host_bw     = 64 * GBps } },
    { "h800",
      "NVIDIA H800 product data: H100 compute (FP8 1,979 TFLOP/s dense) and HBM, NVLink cut to 200 GB/s one way, "
      "IB 400 Gb/s, PCIe Gen5",
      { .name = "NVIDIA H800",
        .peak_flops  = 989 * TFLOPS,
        .fp8_flops   = 1979 * TFLOPS,
        .hbm_bytes   = 80 * GiB,
        .hbm_bw      = 3.35 * TBps,
        .scaleup_bw  = 200 * GBps,
        .scaleout_bw = 50 * GBps,
        .host_bw     = 64 * GBps } },
    { "h200",
      "NVIDIA H200 SXM data sheet: 989 TFLOP/s, FP8 1,979 dense (3,958 with sparsity), 141 GB, 4.8 TB/s, "
      "NVLink 450 GB/s one way, IB 400 Gb/s, PCIe Gen5",
      { .name = "NVIDIA H200",
        .peak_flops  = 989 * TFLOPS,
        .fp8_flops   = 1979 * TFLOPS,
        .hbm_bytes   = 141 * GiB,
        .hbm_bw      = 4.8 * TBps,
        .scaleup_bw  = 450 * GBps,
        .scaleout_bw = 50 * GBps,
        .host_bw     = 64 * GBps } },
    { "h20",
      "NVIDIA H20 product data: 148 TFLOP/s, FP8 296 dense, 96 GB, 4.0 TB/s, NVLink 450 GB/s one way, "
      "IB 400 Gb/s, PCIe Gen5",
      { .name = "NVIDIA H20",
        .peak_flops  = 148 * TFLOPS,
        .fp8_flops   = 296 * TFLOPS,
        .hbm_bytes   = 96 * GiB,
        .hbm_bw      = 4.0 * TBps,
        .scaleup_bw  = 450 * GBps,
        .scaleout_bw = 50 * GBps,
        .host_bw     = 64 * GBps } },
    { "a100_80g",
      "NVIDIA A100 80GB SXM data sheet: 312 TFLOP/s, 80 GB, 2.0 TB/s, "
      "NVLink 300 GB/s one way, IB 200 Gb/s, PCIe Gen4; CUDA's total 79.25 GiB "
      "(ovg-project/kvcached issue 110, an A100 80GB)",
      { .name = "NVIDIA A100 80GB SXM",
        .peak_flops  = 312 * TFLOPS,
        .hbm_bytes   = 80 * GiB,
        .cuda_total_bytes = 79.25 * GiB, /* "…/79.25 GiB" (kvcached issue 110) */
        .hbm_bw      = 2.0 * TBps,
        .scaleup_bw  = 300 * GBps,
        .scaleout_bw = 25 * GBps,
        .host_bw     = 32 * GBps } },
    { "a100_40g",
      "NVIDIA A100 40GB SXM data sheet: 312 TFLOP/s, 40 GB HBM2, 1,555 GB/s, NVLink 600 GB/s (300 one way), "
      "PCIe Gen4; DGX A100: 8 x 200 Gb/s HDR NICs; CUDA's total 39.39 GiB (\"GPU 7 has a total capacity of "
      "39.39 GiB\", OpenRLHF issue 398, 8 x A100 40G; nvidia-smi 40,960 MiB)",
      { .name = "NVIDIA A100 40GB SXM",
        .peak_flops  = 312 * TFLOPS,
        .hbm_bytes   = 40 * GiB,
        .cuda_total_bytes = 39.39 * GiB, /* "total capacity of 39.39 GiB" (OpenRLHF issue 398) */
        .hbm_bw      = 1.555 * TBps,
        .scaleup_bw  = 300 * GBps,
        .scaleout_bw = 25 * GBps,        /* HDR 200 Gb/s */
        .host_bw     = 32 * GBps } },    /* PCIe Gen4 x16 */
    { "b200",
      "NVIDIA HGX B200 / DGX B200 data sheets, per GPU of 8: 2,250 TFLOP/s dense BF16 (36 PFLOP/s with "
      "sparsity for 8), FP8 4,500 dense (72 PFLOP/s with sparsity for 8), 180 GB HBM3e (1,440 GB), 8 TB/s "
      "(64 TB/s), NVLink 5 1.8 TB/s (900 GB/s one way, 8 GPUs a domain), ConnectX-7 400 Gb/s a GPU, PCIe Gen5 "
      "host (2 x Xeon 8570, 2 TB a node); CUDA's total 178.35 GiB (cudaGetDeviceProperties' totalGlobalMem, "
      "pytorch/ao pull request 4002; nvidia-smi 183,359 MiB, NVIDIA/TensorRT-LLM issue 10278)",
      { .name = "NVIDIA B200",
        .peak_flops  = 2250 * TFLOPS,
        .fp8_flops   = 4500 * TFLOPS,
        .hbm_bytes   = 180 * GiB,
        .cuda_total_bytes = 178.35 * GiB, /* "Total Global Memory: 178.35" (pytorch/ao pull request 4002) */
        .hbm_bw      = 8.0 * TBps,       /* data sheet; ao 4002 measures the bus at 7.67 */
        .scaleup_bw  = 900 * GBps,
        .scaleout_bw = 50 * GBps,        /* ConnectX-7 400 Gb/s */
        .host_bw     = 64 * GBps } },    /* PCIe Gen5 x16 */
    { "gb200",
      "NVIDIA GB200 NVL72 data sheet, per GPU of 72: 2,500 TFLOP/s dense BF16 (360 PFLOP/s with sparsity for "
      "72), FP8 5,000 dense (720 with sparsity), 186 GB HBM3e (13.4 TB), 8 TB/s (576 TB/s), NVLink 5 1.8 TB/s "
      "(900 GB/s one way; one NVLink domain of 72 GPUs, 18 trays of 4), ConnectX-7 400 Gb/s a GPU; host: "
      "NVLink-C2C to the superchip's Grace, 900 GB/s both ways for its two GPUs (225 GB/s one way each), "
      "Grace up to 480 GB LPDDR5X (two a tray); CUDA's total 184.31 GiB derived: nvidia-smi's 189,471 MiB "
      "less the 728 MiB a B200 keeps from CUDA (183,359 - 182,631)",
      { .name = "NVIDIA GB200",
        .peak_flops  = 2500 * TFLOPS,
        .fp8_flops   = 5000 * TFLOPS,
        .hbm_bytes   = 186 * GiB,
        .cuda_total_bytes = 184.31 * GiB, /* 189,471 - 728 MiB = 188,743 MiB (derived, see the source) */
        .hbm_bw      = 8.0 * TBps,
        .scaleup_bw  = 900 * GBps,       /* across the NVL72 domain */
        .scaleout_bw = 50 * GBps,        /* ConnectX-7 400 Gb/s */
        .host_bw     = 225 * GBps } },   /* NVLink-C2C: 900 GB/s both ways for two GPUs, 225 one way each */
};

/* Names the frameworks' docs and logs give these devices (NeMo RL's
** "GB200" suites, OpenRLHF's "A100 40G", torch's "NVIDIA A100-SXM4-40GB"),
** matched after folding case and dropping every character but letters and
** digits, so "A100-40G", "A100 40GB" and "a100_40g" are one name.  A key
** is its own alias. */
static const struct { const char *alias, *key; } DEVICE_ALIASES[] = {
    {"910c", "ascend_910c"},           {"910b", "ascend_910b"},
    {"h100sxm", "h100"},               {"h10080gb", "h100"},       {"h100sxm580gb", "h100"},
    {"h10080gbhbm3", "h100"},
    {"h200sxm", "h200"},               {"h200141gb", "h200"},
    {"a10080gb", "a100_80g"},          {"a100sxm480gb", "a100_80g"}, {"a10080gbsxm", "a100_80g"},
    {"a10040gb", "a100_40g"},          {"a100sxm440gb", "a100_40g"}, {"a10040gbsxm", "a100_40g"},
    {"a10040", "a100_40g"},
    {"b200sxm", "b200"},               {"hgxb200", "b200"},        {"dgxb200", "b200"},
    {"b200180gb", "b200"},             {"b200sxm180gb", "b200"},
    {"gb200nvl72", "gb200"},           {"gb200nvl", "gb200"},
};

/* Models: config.json field names in the comments.  `ffn` is
** intermediate_size, `expert_ffn` moe_intermediate_size; for MoE models whose
** every layer is MoE, ffn is kept as published but unused.  `max_positions`
** is the named config.json's max_position_embeddings (0 where no published
** config gives it: Pangu's). */
static const model_entry MODELS[] = {
    { "qwen2_5_7b", "Qwen/Qwen2.5-7B config.json",
      { .name = "Qwen2.5-7B",
        .layers = 28, .hidden = 3584, .heads = 28, .kv_heads = 4, .head_dim = 128,
        .ffn = 18944, .vocab = 152064, .tied_embeddings = false, .max_positions = 131072 } },
    { "qwen2_5_32b", "Qwen/Qwen2.5-32B config.json",
      { .name = "Qwen2.5-32B",
        .layers = 64, .hidden = 5120, .heads = 40, .kv_heads = 8, .head_dim = 128,
        .ffn = 27648, .vocab = 152064, .tied_embeddings = false, .max_positions = 131072 } },
    { "llama3_1_8b", "meta-llama/Llama-3.1-8B config.json",
      { .name = "Llama-3.1-8B",
        .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8, .head_dim = 128,
        .ffn = 14336, .vocab = 128256, .tied_embeddings = false, .max_positions = 131072 } },
    { "llama3_1_70b", "meta-llama/Llama-3.1-70B config.json",
      { .name = "Llama-3.1-70B",
        .layers = 80, .hidden = 8192, .heads = 64, .kv_heads = 8, .head_dim = 128,
        .ffn = 28672, .vocab = 128256, .tied_embeddings = false, .max_positions = 131072 } },
    { "qwen3_30b_a3b", "Qwen/Qwen3-30B-A3B config.json (head_dim 128 is explicit, not hidden/heads)",
      { .name = "Qwen3-30B-A3B",
        .layers = 48, .hidden = 2048, .heads = 32, .kv_heads = 4, .head_dim = 128,
        .ffn = 6144,                       /* intermediate_size; all 48 layers are MoE */
        .expert_ffn = 768, .experts = 128, .experts_active = 8, .shared_experts = 0,
        .vocab = 151936, .tied_embeddings = false, .max_positions = 40960 } },
    { "qwen3_235b_a22b", "Qwen/Qwen3-235B-A22B config.json",
      { .name = "Qwen3-235B-A22B",
        .layers = 94, .hidden = 4096, .heads = 64, .kv_heads = 4, .head_dim = 128,
        .ffn = 12288,                      /* intermediate_size; all 94 layers are MoE */
        .expert_ffn = 1536, .experts = 128, .experts_active = 8, .shared_experts = 0,
        .vocab = 151936, .tied_embeddings = false, .max_positions = 40960 } },
    { "deepseek_v3",
      "deepseek-ai/DeepSeek-V3 config.json (first_k_dense_replace 3, q_lora_rank 1536, "
      "kv_lora_rank 512, qk_rope_head_dim 64, qk_nope/v_head_dim 128; MTP layer not counted)",
      { .name = "DeepSeek-V3",
        .layers = 61, .dense_layers = 3, .hidden = 7168, .heads = 128, .kv_heads = 128,
        .head_dim = 128, .mla_latent = 512, .mla_rope = 64, .mla_q_latent = 1536,
        .ffn = 18432, .expert_ffn = 2048, .experts = 256, .experts_active = 8,
        .shared_experts = 1, .vocab = 129280, .tied_embeddings = false, .max_positions = 163840 } },
    { "pangu_ultra_moe_718b",
      "Pangu Ultra MoE tech report (61 layers, hidden 7680, 256+1 experts, top-8, MLA) and "
      "openPangu-Ultra-MoE-718B configuration defaults; tied embeddings GUESS (false)",
      { .name = "Pangu Ultra MoE 718B",
        /* Reported: layers, hidden, experts, MLA.  The MLA ranks, heads, FFN
        ** sizes and vocabulary follow the openPangu configuration defaults;
        ** they match DeepSeek-V3's and are partly GUESSES until checked
        ** against the released config.json.  MTP layer not counted. */
        .layers = 61, .dense_layers = 3, .hidden = 7680, .heads = 128, .kv_heads = 128,
        .head_dim = 128, .mla_latent = 512, .mla_rope = 64, .mla_q_latent = 1536,
        .ffn = 18432, .expert_ffn = 2048, .experts = 256, .experts_active = 8,
        .shared_experts = 1, .vocab = 153600,
        .tied_embeddings = false } },      /* GUESS */
};

#define NDEVICES ((int)(sizeof DEVICES / sizeof DEVICES[0]))
#define NMODELS  ((int)(sizeof MODELS / sizeof MODELS[0]))

int presets_device_count(void) { return NDEVICES; }

const scn_device *presets_device(int i)
{
    return i >= 0 && i < NDEVICES ? &DEVICES[i].dev : NULL;
}

const char *presets_device_key(int i)
{
    return i >= 0 && i < NDEVICES ? DEVICES[i].key : NULL;
}

const char *presets_device_source(int i)
{
    return i >= 0 && i < NDEVICES ? DEVICES[i].source : NULL;
}

/* name folded to lower-case letters and digits into out (n bytes); false if it does not fit */
static bool fold_name(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) continue;
        if (k + 1 >= n) return false;
        out[k++] = (char)c;
    }
    out[k] = '\0';
    return k > 0;
}

const char *presets_device_key_of(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < NDEVICES; i++)
        if (strcmp(DEVICES[i].key, name) == 0) return DEVICES[i].key;
    char want[64], k[64];
    if (!fold_name(name, want, sizeof want)) return NULL;
    /* "NVIDIA GB200", "NVIDIA H100 80GB HBM3": the vendor's prefix is not part of the name */
    const char *w = strncmp(want, "nvidia", 6) == 0 && want[6] ? want + 6 : want;
    w = strncmp(w, "huawei", 6) == 0 && w[6] ? w + 6 : w;
    w = strncmp(w, "ascend", 6) == 0 && w[6] ? w + 6 : w;
    for (int i = 0; i < NDEVICES; i++) {
        if (fold_name(DEVICES[i].key, k, sizeof k) && (!strcmp(k, want) || !strcmp(k, w))) return DEVICES[i].key;
    }
    for (size_t i = 0; i < sizeof DEVICE_ALIASES / sizeof DEVICE_ALIASES[0]; i++)
        if (!strcmp(DEVICE_ALIASES[i].alias, w)) return DEVICE_ALIASES[i].key;
    return NULL;
}

const scn_device *presets_device_find(const char *key)
{
    const char *k = presets_device_key_of(key);
    if (!k) return NULL;
    for (int i = 0; i < NDEVICES; i++)
        if (DEVICES[i].key == k) return &DEVICES[i].dev;
    return NULL;
}

int presets_model_count(void) { return NMODELS; }

const scn_model *presets_model(int i)
{
    return i >= 0 && i < NMODELS ? &MODELS[i].model : NULL;
}

const char *presets_model_key(int i)
{
    return i >= 0 && i < NMODELS ? MODELS[i].key : NULL;
}

const char *presets_model_source(int i)
{
    return i >= 0 && i < NMODELS ? MODELS[i].source : NULL;
}

const scn_model *presets_model_find(const char *key)
{
    if (!key) return NULL;
    for (int i = 0; i < NMODELS; i++)
        if (strcmp(MODELS[i].key, key) == 0) return &MODELS[i].model;
    return NULL;
}
