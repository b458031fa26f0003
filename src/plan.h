/*
** plan.h — from a scenario to concrete device pools, their layouts and the
** analytic memory fit per bucket.  The engine takes bucket sizes from here,
** so the check command and the simulation agree by construction.
*/
#ifndef FUSYNC_PLAN_H
#define FUSYNC_PLAN_H

#include "model.h"
#include "scenario.h"
#include "trace.h"

/* Ranges a pool's device set may fall into once placed (a spread over every
** node is one range per node). */
#define PLAN_RANGES_MAX 512

typedef struct {
    char     name[SCN_NAME_MAX];
    unsigned roles;
    int      first, devices;    /* first: the lowest device number */
    /* the devices, as increasing, disjoint, non-adjacent inclusive ranges;
    ** the pool's k-th device (k = 0 … devices−1, the order its layouts
    ** number them in) is the k-th of these (docs/model.md, section 2) */
    int      nranges;
    int      range[PLAN_RANGES_MAX][2];
    bool     placed;        /* given by plan.pools[].where or .ranges, or split by them */
    /* training layout (ROLE_TRAIN / ROLE_CRITIC) */
    int      tp, pp, dp, ep, edp;
    int      etp, ex;         /* expert tensor parallel (plan.train.etp, 0 resolved to tp); ex = ep·etp, a stage's expert group */
    int      cp;              /* context parallel: a sequence's ranks, stride tp (rank order tp, cp, dp, pp) */
    int      gdp;             /* ranks holding the same dense parameters: cp·dp, stride tp (gradients, ZeRO) */
    int      shard, eshard;   /* ZeRO shard groups: dense over cp·dp, experts over expert-DP (HSDP: plan.train.shard_group) */
    /* rollout layout (ROLE_ROLLOUT) */
    int      inst_devices, instances;
    /* forward-only models on a pool without training (ROLE_REF / ROLE_REWARD) */
    int      aux_tp, aux_replicas;
    bool     colocated;     /* rollout and training share these devices */
    bool     swap_aux;      /* ref/reward weights live on the host, loaded per use */
    bool     aux_sharded;   /* ref/reward ZeRO-3-sharded over the pool's data-parallel ranks */
    double   aux_bytes[2];  /* per device: the reference's and the reward model's weights, where held */
    /* analytic per-device bytes by bucket while training and while generating */
    double   train_mem[MB__COUNT];
    double   rollout_mem[MB__COUNT];
    double   host_mem_per_node;     /* offloaded states + swapped models */
    double   host_per_device;       /* host_mem_per_node over the devices it counts: one device's host bytes */
    double   host_opt;              /* per device: the optimizer's share on the host for the whole run */
    double   seq_mean;              /* mean prompt + response tokens of a sample (0: not known; plan_act_peak) */
    double   host_node[3];          /* host_mem_per_node by what it holds: the optimizer (whole run),
                                    ** states offloaded for rollout, models waiting to be loaded */
    /* the largest total per device the run's memory ledger reaches, over
    ** every phase and switch (docs/model.md, section 11), and the phase */
    double   peak;
    char     peak_phase[32];
    /* per device: what a log-prob forward holds (the logits' copies and
    ** one layer's working set; plan_logprob_act), booked as activations
    ** while the pool's forward passes run; and what the processes hold
    ** beside the allocator's buckets (CUDA contexts, NCCL buffers, the
    ** allocator's reserve, an engine's graph pool), included in peak and
    ** booked as train_mem/rollout_mem[MB_RUNTIME] and the ledger's runtime */
    double   lp_act;
    double   outside;
    double   engine_kept;   /* of outside: the inference engine's graph pool and own context (mdl_engine_kept) */
    double   kv_tokens_per_instance;
    /* per device, a pool with an inference engine (docs/model.md, section
    ** 3, "What vLLM's KV cache gets"): the engine's share, mem_util of the
    ** capacity (what CUDA reports for the device); of it,
    ** what vLLM's profile run sets aside (activation peak + memory outside
    ** torch: engine_profile, 0 for the other engines); and what its KV
    ** cache gets, engine_share − held − engine_profile (≤ 0: vLLM refuses
    ** to start).  rollout_mem[MB_KV_CACHE] is the reservation, kv_bytes +
    ** engine_profile, clamped at 0 */
    double   engine_share, engine_profile, kv_bytes;
    /* per device: of the optimizer bucket held through generation, the
    ** moments that did not exist when a device-scope vLLM sized its KV
    ** cache (plan.train.lazy_states; docs/model.md, section 8) */
    double   lazy_states;
    /* per device, a co-located vLLM woken with plan.train.empty_cache_before_wake
    ** false (docs/model.md, section 8): the trainer's allocator peak before the
    ** wake (train_reserve), what of it stays reserved beside the engine
    ** (wake_cache = rollout_mem[MB_TRAIN_CACHE]) and the device's total when
    ** the wake has mapped the engine's weights and KV cache (wake_total,
    ** without the runtime bucket); all 0 otherwise */
    double   train_reserve, wake_cache, wake_total;
    /* per device, a pool with an inference engine: what the device holds
    ** when the engine starts, and the memory it asks for then (mem_util of
    ** the device under plan.rollout.mem_util_scope = "instance"; 0 under
    ** "device", which has no start-up check); docs/model.md, section 8 */
    double   startup_used, startup_ask;
    double   capacity;
    /* A pool of its own device type (plan.pools[i].device, plan.rollout_device;
    ** docs/model.md, section 2, Heterogeneous pools): the cluster as its
    ** devices see it — that device, and the link tiers scaled by its
    ** scale-up and scale-out bandwidth over the cluster device's.  Read
    ** only through plan_pool_device and plan_pool_cluster. */
    bool        own_device;
    scn_cluster view;
} plan_pool;

/* Host memory summed per node over the pools on it (docs/model.md,
** section 8, "One host memory a node"): each pool's host_per_device times
** its devices on the node.  `node` is the fullest node (the lowest of equal
** ones; -1 when no pool holds host bytes), `bytes` its sum and `pool[i]`
** pool i's share of it; `shared` whether two pools hold host bytes on one
** node anywhere.  The fit's node check reads `over_node`, `over_bytes`,
** `over_pool`: the fullest node over cluster.host_mem_bytes that two pools
** share and no pool of it fills alone (-1: none), and `over_nodes` how
** many such nodes there are. */
typedef struct {
    int    node;
    double bytes;
    double pool[SCN_POOLS_MAX];
    bool   shared;
    int    over_node, over_nodes;
    double over_bytes;
    double over_pool[SCN_POOLS_MAX];
} plan_host_nodes;

typedef struct {
    scn_mode  mode;
    int       npools;
    plan_pool pools[SCN_POOLS_MAX];
    int       train_pool;           /* index of the pool with ROLE_TRAIN */
    int       critic_pool;          /* the pool training the critic when not train_pool's, else -1 */
    int       total_devices;
    int       used_devices;
    plan_host_nodes host;           /* host memory a node over its pools (plan_host_sum) */
    bool      fits;
    char      fit_msg[512];         /* first bucket that does not fit */
} plan;

/* The accelerator of pool q: its own type when the scenario gives one, else
** cluster.device.  Every figure of a pool's compute or memory (peak FLOP/s,
** HBM bytes and bandwidth, host link) is read through this (q may be NULL:
** the cluster's). */
const scn_device *plan_pool_device(const scn_scenario *s, const plan_pool *q);
/* The cluster as pool q's devices see it: cluster.device and its links, or
** the pool's own device with link tiers scaled to it (topology unchanged). */
const scn_cluster *plan_pool_cluster(const scn_scenario *s, const plan_pool *q);
/* The link weight sync from training pool tq to rollout pool q uses
** (docs/model.md, section 9): the shared link of plan_sync_tier; between
** pools of different device types the slower of the two pools' links (the
** scale-out fabric, the slower NIC). */
scn_link plan_sync_link(const scn_scenario *s, const plan_pool *tq, const plan_pool *q);

/* The device number of the pool's k-th device (0 ≤ k < devices). */
int plan_dev(const plan_pool *q, int k);
/* The device d places after device `dev` of the pool (d ≥ 0). */
int plan_dev_after(const plan_pool *q, int dev, int d);
/* The highest device number of the pool. */
static inline int plan_last(const plan_pool *q) { return q->range[q->nranges - 1][1]; }
/* The devices a stage's routed experts are spread over, ep·etp (1 on a
** pool laid out without them) */
static inline int plan_pool_ex(const plan_pool *q) { return q->ex > 0 ? q->ex : 1; }
/* The link tier joining the pool's devices k, k + stride, …,
** k + stride·(count − 1): the tier of the first and the last of them, as
** mdl_group_tier for contiguous devices (the numbering is increasing). */
int plan_group_tier(const scn_cluster *c, const plan_pool *q, int k, int stride, int count);
/* The link joining pool q's devices k, k + stride, … when every device of
** a node transfers at once (a reshard, every group's collective):
** mdl_tier_link_shared over plan_group_tier (docs/model.md, section 2). */
scn_link plan_pool_link_shared(const scn_cluster *c, const plan_pool *q, int k, int stride, int count);
/* The link of the group of pool q's devices k, k + stride, … as the
** collectives price it (mdl_group_link: across nodes, its members per node
** and the node's rails; shared as mdl_tier_link_shared). */
scn_link plan_group_link(const scn_cluster *c, const plan_pool *q, int k, int stride, int count, bool shared);
/* mdl_allreduce_group over those devices: the same figure on a contiguous
** pool; on a placed one, hierarchical over the supernodes they touch. */
double plan_allreduce_group(const scn_cluster *c, const plan_pool *q, int k, int stride, int count, double bytes,
                            double eff);
/* The tier weight sync from training pool tq to rollout pool q crosses
** (docs/model.md, section 9): on contiguous pools the tier joining the
** lowest and highest device of the two; when either is placed, the lowest
** tier at which every node (tier 0) or supernode (tier 1) holding rollout
** devices also holds training devices, which each sends to. */
int plan_sync_tier(const scn_cluster *c, const plan_pool *tq, const plan_pool *q);
/* Gradient all-reduce times of one pipeline stage of model m on training
** pool q: *a over a ZeRO shard group, *r across its replicas (HSDP). */
void plan_grad_allreduce(const scn_scenario *s, const plan_pool *q, const scn_model *m, double *a, double *r);
/* ZeRO/FSDP communication of one mini-batch of `micro` micro-batches
** (docs/model.md, section 7): the exposed per-micro-batch part is returned,
** the end-of-mini-batch part goes to *end (when not NULL).  The engine and
** the planner's estimate both call this. */
double plan_zero_comm(const scn_scenario *s, const plan_pool *q, const scn_model *m, int micro, bool train,
                      double *grad, double *after);
/* The parameter gathers of a forward-only pass of model m over `micro`
** micro-batches on a training-layout pool q, exposed: the actor and the
** critic as plan.train.zero says (plan_zero_comm), the frozen models
** (reference, reward) only when q holds them ZeRO-3-sharded (aux_sharded,
** mdl_frozen_gather; docs/model.md, section 3). */
double plan_fwd_gather(const scn_scenario *s, const plan_pool *q, const scn_model *m, int micro);
/* The same for a frozen model on a pool of its own (aux_tp > 0) over
** `samples` sequences: sharded over its aux_replicas, one gather for every
** plan.train.micro_batch sequences a replica (0 when not sharded). */
double plan_aux_gather(const scn_scenario *s, const plan_pool *q, const scn_model *m, double samples);
/* The tail of one training mini-batch of model m on pool q after its 1F1B
** pipeline of `micro` micro-batches: *grad_s the data-parallel
** communication (plan_zero_comm's exposed per-micro-batch part, the
** gradient reduction — plan.train.overlap_grad runs a share of it during the
** last backward, `last_bwd` seconds — and ZeRO-1/2's parameter all-gather),
** *opt_s the optimizer step over the ZeRO shard groups.  The engine
** (src/eng_train.c) and the estimate (src/estimate.c) both call this: the
** same operations in the same order, so they agree to the bit. */
void plan_train_tail(const scn_scenario *s, const plan_pool *q, const scn_model *m, int micro, double last_bwd,
                     double *grad_s, double *opt_s);
/* Nodes the pool's devices touch, and the most it has on one node. */
int plan_nodes(const scn_cluster *c, const plan_pool *q, int *most);
/* The devices of pool q on node `node` (devices node·dpn … node·dpn + dpn − 1). */
int plan_devices_on_node(const scn_cluster *c, const plan_pool *q, int node);
/* The devices a pool's host_mem_per_node counts: its fullest node's. */
int plan_host_devices(const scn_cluster *c, const plan_pool *q);
/* plan_host_nodes (above) from per_device[i], pool i's host bytes a device,
** and fills[i], whether pool i alone is over the node's host memory. */
void plan_host_sum_of(const scn_cluster *c, const plan *p, const double *per_device, const bool *fills,
                      plan_host_nodes *h);
/* Fill p->host from the pools' host_per_device and host_mem_per_node. */
void plan_host_sum(const scn_scenario *s, plan *p);
/* The fit's message for a node two pools overfill together (plan_host_sum's
** over_node), into m; false when none is. */
bool plan_host_over_msg(const scn_scenario *s, const plan *p, char *m, size_t n);

/* Build pools and layouts.  Bad layouts are input errors (code 2). */
bool plan_build(const scn_scenario *s, plan *p, fs_err *err);
/* Per-device bytes of the actor's training states on a pool (weights, grads,
** optimizer), for a ZeRO stage. */
void plan_train_states(const scn_scenario *s, const plan_pool *pp, double out[3]);
/* The actor's activation reservation on pipeline stage `stage` while training
** (plan_act_peak_model with the actor). */
double plan_act_peak(const scn_scenario *s, const plan_pool *pp, int stage);
/* Host bytes a training device's optimizer keeps on the host for the whole
** run under plan.train.optimizer_offload (docs/model.md, section 7): the
** offloaded share of its shard's FP32 master, m, v and gradient, 16 bytes a
** parameter; 0 without offload. */
double plan_host_optimizer(const scn_scenario *s, const plan_pool *pp);
/* The micro-batches a log-prob forward (old policy, reference) is cut into,
** for its time as for its memory (docs/model.md, section 6): returns the
** token budget of one on a data-parallel replica (the device's budget times
** cp), 0 for *mbs sequences each. */
double plan_logprob_budget(const scn_scenario *s, int cp, int *mbs);
/* The longest sequence the workload allows: largest prompt + max_response. */
double plan_max_seq(const scn_scenario *s);
/* Per-device bytes a log-prob forward of model m (actor, reference, reward)
** holds at its peak: one micro-batch's forward activations (fused attention,
** nothing kept for a backward) and its logits' copies, split over cp; the
** whole gathered model beside its shards under plan.train.logprob_unshard. */
double plan_logprob_act(const scn_scenario *s, const plan_pool *pp, const scn_model *m);
/* The same for model m (actor or critic), at the longest sequence the
** workload allows. */
double plan_act_peak_model(const scn_scenario *s, const plan_pool *pp, const scn_model *m, int stage);
/* Per-device bytes the entropy with its gradient adds at the actor's last
** stage (plan.train.entropy_loss; 0 without it): part of the figure above. */
double plan_entropy_act(const scn_scenario *s, const plan_pool *pp);
/* Rollout weight bytes per device, in the engine's weights dtype
** (plan.rollout.weights_dtype; mdl_rollout_weight_bytes). */
double plan_rollout_weights(const scn_scenario *s);
/* The same in BF16: what a weight sync or reshard carries to a device (NeMo
** RL and verl send the trained BF16 weights to an FP8 engine, which
** quantises them as it loads; docs/model.md, section 5, FP8 rollouts),
** or in FP8 when plan_sync_fp8_export. */
double plan_rollout_wire_bytes(const scn_scenario *s);
/* The weight sync carries FP8 (docs/model.md, section 7, FP8 training):
** FP8 training with fp8_param and the blockwise recipe into FP8 rollout
** weights, NeMo RL's FP8 export; otherwise BF16. */
bool   plan_sync_fp8_export(const scn_scenario *s);
/* vLLM's max_model_len as the workload bounds it: the prompt's cap +
** max_response (0: the prompt has no cap); docs/model.md, section 8. */
double plan_max_model_len(const scn_scenario *s);
/* Whether the rollout engine is vLLM's (vllm, or eager: vLLM under enforce_eager). */
static inline bool plan_engine_vllm(const scn_plan *sp)
{
    return sp->rollout.engine == ENGINE_VLLM || sp->rollout.engine == ENGINE_EAGER;
}
/* The tokens of vLLM's profile run: max_num_batched_tokens, or without
** chunked prefill V0's default max(max_model_len, 2048) (docs/model.md,
** section 3, "What vLLM's KV cache gets"). */
double plan_profile_tokens(const scn_scenario *s);
/* Of the optimizer bucket q holds through generation, the Adam moments a
** device-scope vLLM sized its KV cache without (plan.train.lazy_states;
** docs/model.md, section 8); 0 where that does not apply.  The _msg form
** appends the reason to a generating overflow's message m (n bytes). */
double plan_lazy_states(const scn_scenario *s, const plan_pool *q);
void plan_lazy_states_msg(const plan_pool *q, char *m, size_t n);
/* docs/model.md, section 8, "The trainer's cache at the engine's wake": with
** plan.train.empty_cache_before_wake false, a co-located vLLM that sleeps
** wakes beside what PyTorch's caching allocator still reserves of the
** trainer's peak T (the training phase's, train_peak), T less what the
** trainer keeps allocated through generation;
** returns that figure (0 when the mechanism does not apply).  Reads
** q->rollout_mem, so call it once they are filled. */
double plan_wake_cache(const scn_scenario *s, const plan_pool *q, double train_peak);
/* Whether the switch moves the gradients to the host and back: asked for
** (plan.offload.grads) and held between steps at all (plan.train.grad_buffer
** persistent; under step the zero_grad freed them, docs/model.md section 3). */
static inline bool plan_grads_move(const scn_plan *sp)
{
    return sp->offload_grads && sp->train.grad_buffer != GRADS_STEP;
}
/* The weight sync from training pool tq to rollout pool q, or with q == tq
** a co-located pool's reshard into the rollout layout, as plan.sync_model
** prices it (docs/model.md, sections 8 and 9): the engine (src/eng_step.c),
** `fusync check` and the planner's estimate all call this.  With "ideal"
** only total_s and transfer_s are set (mdl_weight_sync, mdl_reshard). */
mdl_sync plan_weight_sync(const scn_scenario *s, const plan_pool *tq, const plan_pool *q);
/* A co-located pool's reshard back into the training layout (section 8). */
double plan_reshard_back(const scn_scenario *s, const plan_pool *q);
/* Bytes per device a co-located pool's switches move over the host link
** besides the states plan.offload names (docs/model.md, section 8): the
** engine's weights under plan.rollout.sleep = "offload" (down when it
** sleeps, up when it wakes) and the actor's training weights under
** plan.offload.params (down after the reshard, up before training).  Each
** crosses twice a step, once each way. */
typedef struct {
    double engine;   /* rollout weights, sleep level 1 */
    double params;   /* training weights, parameter offload */
    bool   params_first;    /* they leave before the reshard, which reads them back up (a third crossing) */
} plan_switch_host;
plan_switch_host plan_switch_host_bytes(const scn_scenario *s, const plan_pool *q);
/* Text of the plan for `fusync check` and the report. */
void plan_describe(const scn_scenario *s, const plan *p, fs_buf *out);
/* The roles' names, plan_role_names[k] for the bit 1u << k (ROLE_* in
** scenario.h), NULL after the last: the one spelling of a role that the
** scenario's plan.pools[].roles, the reports, the exports and the plugins
** read and write. */
extern const char *const plan_role_names[];
/* The roles set in `roles` as "rollout+train" into buf (size n). */
const char *plan_roles_str(unsigned roles, char *buf, size_t n);

#endif
