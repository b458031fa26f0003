/*
** plan.c — pools, layouts and the analytic memory fit.
**
** Pools by mode (docs/model.md, section 2):
**   separate  rollout pool (generation) + training pool (actor training,
**             old log-probs, reference, reward, critic); weights synced.
**   colocate  one pool trains the actor and generates (switching between
**             layouts); reference/reward models on plan.aux_devices.
**   full      one pool does everything; reference/reward weights wait on
**             the host and are loaded for their pass.
** Explicit plan.pools (from a scenario or a policy) override the mode.
**
** Past 900 lines because pool_peak and fit_check read every phase of one
** pool together (training, log-prob passes, switching, the wake,
** generating); the vLLM profile is plan_vllm.c, the costs plan_cost.c.
**
** What each layout costs (collectives, ZeRO gathers, states, the weight
** sync) is priced in src/plan_cost.c; `fusync check`'s account of a plan
** is src/plan_describe.c, the host memory a node's fit message
** plan_cost.c's plan_host_over_msg; what is vLLM's own (its max_model_len,
** profile tokens, the moments it did not see) is plan_vllm.c.
*/
#include "plan.h"
#include "model.h"
#include "model_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GiB (1024.0 * 1024.0 * 1024.0)

const char *const plan_role_names[] = {"rollout", "train", "ref", "reward", "critic", NULL};
_Static_assert(ROLE_CRITIC << 1 == 1u << (sizeof plan_role_names / sizeof plan_role_names[0] - 1),
               "a name for every ROLE_ bit, in bit order");

const char *plan_roles_str(unsigned roles, char *buf, size_t n)
{
    buf[0] = 0;
    size_t len = 0;
    for (int i = 0; plan_role_names[i]; i++) {
        if (!(roles & (1u << i))) continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? "+" : "", plan_role_names[i]);
        if (w < 0 || (size_t)w >= n - len) break;
        len += (size_t)w;
    }
    return buf;
}

static void add_pool(plan *p, const char *name, int devices, unsigned roles)
{
    plan_pool *q = &p->pools[p->npools++];
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%s", name);
    q->devices = devices;
    q->roles = roles;
}

/* ------------------------------------------------------ device types */

const scn_device *plan_pool_device(const scn_scenario *s, const plan_pool *q)
{
    return q && q->own_device ? &q->view.device : &s->cluster.device;
}

const scn_cluster *plan_pool_cluster(const scn_scenario *s, const plan_pool *q)
{
    return q && q->own_device ? &q->view : &s->cluster;
}

/* Give pool q device d (not cluster.device): the cluster's topology and
** latencies; the tiers' bandwidths scaled by d's own links over the cluster
** device's, so a cluster whose links default to its device's
** (cluster.links absent) gives d exactly its own scale-up link in a node and
** its own NIC across nodes, and measured links keep their de-rating. */
static void set_pool_device(const scn_scenario *s, plan_pool *q, const scn_device *d)
{
    const scn_device *cd = &s->cluster.device;
    q->own_device = true;
    q->view = s->cluster;
    q->view.device = *d;
    q->view.intra_node.bw *= d->scaleup_bw / cd->scaleup_bw;
    q->view.intra_supernode.bw *= d->scaleout_bw / cd->scaleout_bw;
    q->view.inter_supernode.bw *= d->scaleout_bw / cd->scaleout_bw;
}

scn_link plan_sync_link(const scn_scenario *s, const plan_pool *tq, const plan_pool *q)
{
    int tier = plan_sync_tier(&s->cluster, tq, q);
    scn_link l = mdl_tier_link_shared(plan_pool_cluster(s, tq), tier);
    if (!tq->own_device && !q->own_device) return l;
    scn_link r = mdl_tier_link_shared(plan_pool_cluster(s, q), tier);
    return r.bw < l.bw ? r : l;
}

/* Pools of their own device type (docs/model.md, section 2): each gets its
** view; a node holds devices of one type, so two pools of different types
** may not share one (the field that gave the type is named). */
static bool pool_devices(const scn_scenario *s, plan *p, fs_err *err)
{
    const char *f = s->path[0] ? s->path : "scenario";
    const scn_plan *sp = &s->plan;
    char field[SCN_POOLS_MAX][48];
    for (int i = 0; i < p->npools; i++) {
        const scn_device *d = NULL;
        if (sp->npools > 0 && scn_device_set(&sp->pools[i].device)) {
            d = &sp->pools[i].device;
            snprintf(field[i], sizeof field[i], "plan.pools[%d].device", i + 1);
        } else if (sp->npools == 0 && (p->pools[i].roles & ROLE_ROLLOUT) && scn_device_set(&sp->rollout_device)) {
            d = &sp->rollout_device;
            snprintf(field[i], sizeof field[i], "plan.rollout_device");
        } else {
            snprintf(field[i], sizeof field[i], "cluster.device");
        }
        if (d && !scn_device_same(d, &s->cluster.device)) set_pool_device(s, &p->pools[i], d);
    }
    int dpn = s->cluster.devices_per_node;
    for (int i = 0; i < p->npools; i++)
        for (int j = 0; j < i; j++) {
            const plan_pool *a = &p->pools[i], *b = &p->pools[j];
            if (scn_device_same(plan_pool_device(s, a), plan_pool_device(s, b))) continue;
            for (int ra = 0; ra < a->nranges; ra++)
                for (int rb = 0; rb < b->nranges; rb++) {
                    int lo = (a->range[ra][0] > b->range[rb][0] ? a->range[ra][0] : b->range[rb][0]) / dpn;
                    int hi = (a->range[ra][1] < b->range[rb][1] ? a->range[ra][1] : b->range[rb][1]) / dpn;
                    if (lo > hi) continue;
                    const char *who = a->own_device ? field[i] : field[j];
                    fs_err_set(err, 2, "%s: %s: pools '%s' (%s) and '%s' (%s) would share node %d; a node holds one "
                               "device type, so a pool of another type takes whole nodes of %d devices of its own — "
                               "make its devices%s a multiple of %d that starts on a node boundary",
                               f, who, a->name, plan_pool_device(s, a)->name, b->name, plan_pool_device(s, b)->name,
                               lo, dpn, sp->npools == 0 ? " (plan.rollout_devices)" : "", dpn);
                    return false;
                }
        }
    return true;
}

/* ------------------------------------------------------ device sets */

static double critic_bytes(const scn_scenario *s, const plan_pool *pp)
{
    if (!s->has_critic || !(pp->roles & ROLE_CRITIC)) return 0;
    const scn_model *c = &s->critic;
    double psi = c->params_total * mdl_stage_share(c->layers, pp->pp) / pp->tp;
    const scn_train_layout *tl = &s->plan.train;
    mdl_states st = mdl_train_states(psi, pp->shard, tl->zero, tl->grad_dtype);
    /* plan.train.optimizer_offload holds the critic's share on the host as
    ** the actor's (plan_train_states): OpenRLHF builds the critic with the
    ** one DeepspeedStrategy of --ds.* (openrlhf/cli/train_ppo_ray.py,
    ** get_strategy; CriticModelActor in openrlhf/trainer/ray/ppo_critic.py,
    ** v0.11.0), so --ds.adam_offload moves its Adam states to CPU too */
    double f = tl->optimizer_offload;
    if (f > 0) {
        st.optimizer *= 1 - f;
        if (tl->zero >= 3 && tl->grad_dtype == GRAD_FP32) st.weights *= 1 - f / 2;
        /* and its gradients as the actor's (plan.train.grad_buffer = host) */
        if (tl->grad_buffer == GRADS_HOST) st.grads *= 1 - f;
    }
    return st.weights + st.grads + st.optimizer;
}

/* A frozen model's BF16 weights per device (docs/model.md, section 3): on a
** pool of its own 2·P/aux_tp; on a training pool in the actor's layout,
** dense parameters over TP·PP and routed experts over EP·ETP·PP
** (expert parallelism splits a frozen MoE as it splits the actor: NeMo RL's
** Megatron reference is the policy's own state dict, swapped in place by
** use_reference_model, nemo_rl/models/policy/workers/
** megatron_policy_worker.py; section 3, "A frozen MoE under expert
** parallelism").  ZeRO-3 (aux_sharded) divides each by the ranks that hold
** the same slice — the aux replicas, or the training pool's shard group
** (cp·dp, or HSDP's shard_group) and its expert shard group.  With
** EP·ETP = TP the two terms are 2·P/(TP·PP) over the shard group.  The
** gathered unit (a layer at a time, as the actor's ZeRO-3 gathers) is not
** counted, as it is not for the actor. */
static double aux_weight_bytes(const plan_pool *q, const scn_model *m)
{
    if (q->aux_tp > 0) return 2.0 * m->params_total / q->aux_tp / (q->aux_sharded ? q->aux_replicas : 1);
    int ex = plan_pool_ex(q);
    double dense = 2.0 * (m->params_total - m->params_expert) / (q->tp * q->pp);
    double expert = 2.0 * m->params_expert / (ex * q->pp);
    return q->aux_sharded ? dense / q->shard + expert / q->eshard : dense + expert;
}

static bool layout_pool(const scn_scenario *s, plan *p, plan_pool *q, fs_err *err)
{
    const char *f = s->path[0] ? s->path : "scenario";
    const scn_plan *sp = &s->plan;
    if (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) {
        q->tp = sp->train.tp;
        q->pp = sp->train.pp;
        q->ep = sp->train.ep;
        q->cp = sp->train.cp > 0 ? sp->train.cp : 1;
        /* rank order tp, cp, dp, pp (Megatron's): a stage's tp·cp·dp devices
        ** are contiguous, a context-parallel group is cp ranks tp apart
        ** (docs/model.md, section 2) */
        int mp = q->tp * q->pp * q->cp;
        if (q->devices % mp != 0) {
            if (q->cp > 1)
                fs_err_set(err, 2, "%s: plan.train: tp·pp·cp = %d·%d·%d = %d does not divide pool '%s' of %d devices "
                           "(TP·PP·CP·DP must equal the pool; change tp/pp/cp or the pool size)",
                           f, q->tp, q->pp, q->cp, mp, q->name, q->devices);
            else
                fs_err_set(err, 2, "%s: plan.train: tp·pp = %d·%d = %d does not divide pool '%s' of %d devices "
                           "(TP·PP·DP must equal the pool; change tp/pp or the pool size)",
                           f, q->tp, q->pp, mp, q->name, q->devices);
            return false;
        }
        q->dp = q->devices / mp;
        if (sp->train.dp > 0 && sp->train.dp != q->dp) {
            if (q->cp > 1)
                fs_err_set(err, 2, "%s: plan.train.dp: TP·PP·CP·DP = %d·%d·%d·%d = %lld does not match pool '%s' of %d devices",
                           f, q->tp, q->pp, q->cp, sp->train.dp, (long long)mp * sp->train.dp, q->name, q->devices);
            else
                fs_err_set(err, 2, "%s: plan.train.dp: TP·PP·DP = %d·%d·%d = %lld does not match pool '%s' of %d devices",
                           f, q->tp, q->pp, sp->train.dp, (long long)mp * sp->train.dp, q->name, q->devices);
            return false;
        }
        /* context-parallel ranks hold the same parameters as data-parallel
        ** ones: gradients are reduced and states sharded over cp·dp */
        q->gdp = q->cp * q->dp;
        /* expert tensor parallelism: each routed expert's matrices over etp
        ** ranks, the experts of a stage over ep·etp, the expert-DP group
        ** the rest of the stage's tp·cp·dp devices; unset, Megatron-Core
        ** takes the TP size (initialize_model_parallel in
        ** megatron/core/parallel_state.py, NVIDIA/Megatron-LM d98e8a64dd:
        ** expert_data_parallel_size = world / (etp·ep·pp), world divisible
        ** by etp·ep·pp; docs/model.md, section 3) */
        q->etp = sp->train.etp > 0 ? sp->train.etp : q->tp;
        q->ex = q->ep * q->etp;
        if ((q->tp * q->gdp) % q->ex != 0) {
            if (q->etp > 1)
                fs_err_set(err, 2, "%s: plan.train.etp: ep·etp = %d·%d = %d does not divide the %d devices of a pipeline "
                           "stage (tp·cp·dp) in pool '%s'%s", f, q->ep, q->etp, q->ex, q->tp * q->gdp, q->name,
                           sp->train.etp > 0 ? "" : " (etp unset: the tp size, as Megatron-Core; set plan.train.etp)");
            else
                fs_err_set(err, 2, "%s: plan.train.ep: ep %d does not fit the %d devices of a pipeline stage (tp·cp·dp) "
                           "in pool '%s'", f, q->ep, q->tp * q->gdp, q->name);
            return false;
        }
        q->edp = mdl_expert_dp(q->tp, q->gdp, q->ex);
        /* HSDP: states sharded over groups of shard_group DP ranks and
        ** replicated across the groups (docs/model.md, section 7) */
        int sg = sp->train.shard_group;
        if (sg > 0 && q->gdp % sg != 0) {
            fs_err_set(err, 2, "%s: plan.train.shard_group: %d does not divide the data-parallel degree %d%s of pool '%s' "
                       "(use a divisor of it, or 0 for the whole DP group)", f, sg, q->gdp,
                       q->cp > 1 ? " (cp·dp)" : "", q->name);
            return false;
        }
        q->shard = sg > 0 ? sg : q->gdp;
        q->eshard = sg > 0 && sg < q->edp && q->edp % sg == 0 ? sg : q->edp;
    }
    if (q->roles & ROLE_ROLLOUT) {
        q->inst_devices = sp->rollout.tp > sp->rollout.ep ? sp->rollout.tp : sp->rollout.ep;
        if (q->devices % q->inst_devices != 0) {
            fs_err_set(err, 2, "%s: plan.rollout: an instance of %d devices (max(tp, ep)) does not divide pool '%s' of %d devices",
                       f, q->inst_devices, q->name, q->devices);
            return false;
        }
        q->instances = q->devices / q->inst_devices;
    }
    if ((q->roles & (ROLE_REF | ROLE_REWARD)) && !(q->roles & (ROLE_TRAIN | ROLE_CRITIC))) {
        q->aux_tp = sp->aux_tp;
        if (q->devices % q->aux_tp != 0) {
            fs_err_set(err, 2, "%s: plan.aux_tp: %d does not divide pool '%s' of %d devices", f, q->aux_tp, q->name, q->devices);
            return false;
        }
        q->aux_replicas = q->devices / q->aux_tp;
    }
    q->colocated = (q->roles & ROLE_ROLLOUT) && (q->roles & ROLE_TRAIN);
    /* docs/model.md, section 8, "Where the frozen models wait": on the
    ** host between their passes with plan.offload.reference = true (verl's
    ** ref.fsdp_config/ref.megatron param_offload: compute_ref_log_prob
    ** loads and offloads the reference only when it is set,
    ** verl/workers/megatron_workers.py at add17f029; OpenRLHF's
    ** --ref_reward_offload; DeepSpeed-Chat's offload_reference_model), on
    ** the device for the whole run with false (verl's default), and with
    ** "auto" on the host under full co-location only */
    bool fwd = (q->roles & (ROLE_REF | ROLE_REWARD)) != 0;
    if (q->roles & ROLE_ROLLOUT) q->swap_aux = fwd && sp->offload_aux != AUX_OFFLOAD_DEVICE;
    else q->swap_aux = fwd && sp->offload_aux == AUX_OFFLOAD_HOST && (q->roles & (ROLE_TRAIN | ROLE_CRITIC));
    /* ZeRO-3 frozen models: by default as the actor is held (verl's FSDP
    ** workers wrap the reference with the actor's FSDP strategy; DeepSpeed-
    ** Chat's and OpenRLHF's reference take ZeRO-3 when the actor does, else
    ** stage 0) */
    q->aux_sharded = sp->aux_shard == AUX_SHARD_ZERO3 || (sp->aux_shard == AUX_SHARD_AUTO && sp->train.zero >= 3);
    (void)p;
    return true;
}

/* The mean of a length distribution clipped to its cap and hard_cap, in
** closed form (plan_build runs for every candidate of the planner, so no
** sampling): a lognormal of median m and σ clipped at c has mean
** m·e^{σ²/2}·Φ((ln(c/m) − σ²)/σ) + c·(1 − Φ(ln(c/m)/σ)); a histogram's
** bins count at their clipped midpoints. */
static double len_mean(const scn_dist *d, int hard_cap)
{
    double c = d->cap > 0 ? d->cap : HUGE_VAL;
    if (hard_cap > 0 && hard_cap < c) c = hard_cap;
    switch (d->kind) {
    case DIST_FIXED: return fmin(d->a, c);
    case DIST_UNIFORM: {
        if (c >= d->b) return 0.5 * (d->a + d->b);
        if (c <= d->a) return c;
        double w = d->b - d->a;
        return ((c - d->a) * 0.5 * (d->a + c) + (d->b - c) * c) / w;
    }
    case DIST_LOGNORMAL: {
        double m = d->a, sg = d->b;
        if (sg <= 0 || !isfinite(c)) return fmin(m * exp(0.5 * sg * sg), c);
        double z = log(c / m) / sg;
        return m * exp(0.5 * sg * sg) * 0.5 * erfc(-(z - sg) / M_SQRT2) + c * 0.5 * erfc(z / M_SQRT2);
    }
    case DIST_HIST: {
        double tw = 0, s = 0;
        for (int i = 0; i < d->nbins; i++) {
            tw += d->weight[i];
            s += d->weight[i] * fmin(0.5 * (d->edge[i] + d->edge[i + 1]), c);
        }
        return tw > 0 ? s / tw : 0;
    }
    }
    return 0;
}

static void set_peak(plan_pool *q, double bytes, const char *phase)
{
    if (bytes <= q->peak) return;
    q->peak = bytes;
    snprintf(q->peak_phase, sizeof q->peak_phase, "%s", phase);
}

/* NCCL communicators a device of the pool is a member of: the default
** group, and one for each parallel dimension over one rank (tensor,
** pipeline, context, data, expert; an inference instance's TP or EP group). */
static int pool_comms(const scn_scenario *s, const plan_pool *q)
{
    int n = 1;
    if (q->roles & (ROLE_TRAIN | ROLE_CRITIC))
        n += (q->tp > 1) + (q->pp > 1) + (q->cp > 1) + (q->gdp > 1) + (q->ep > 1);
    else if (q->aux_tp > 1) n++;
    if (q->roles & ROLE_ROLLOUT) n += s->plan.rollout.tp > 1 || s->plan.rollout.ep > 1;
    return n;
}

/* The largest total per device the engine's ledger books for this pool, phase
** by phase, in the order the engine books it (docs/model.md, section 11):
**   training       states + resident models + the activation reservation;
**   log-prob pass  states + (full co-location) one swapped model loaded
**                  + a log-prob forward's logits and layer (lp_act);
**   switching      training states offloaded first, then the rollout weights
**                  onloaded bucket by bucket beside the training weights:
**                  W + R + 2·bucket + whatever is not offloaded;
**   generating     the rollout's share of HBM (KV cache filling the rest),
**                  plus two buckets while a separate pool receives weights. */
static void pool_peak(const scn_scenario *s, plan_pool *q, double refw, double rww)
{
    const scn_plan *sp = &s->plan;
    q->peak = 0;
    q->peak_phase[0] = 0;
    double states = 0, tsum = 0, rsum = 0;
    for (int b = 0; b < MB__COUNT; b++) {
        tsum += q->train_mem[b];
        if (b != MB_ACTIVATIONS) states += q->train_mem[b];
    }
    if (q->roles & (ROLE_TRAIN | ROLE_CRITIC)) set_peak(q, tsum, "training");
    else if (q->roles & (ROLE_REF | ROLE_REWARD)) set_peak(q, tsum + q->lp_act, "forward passes");
    /* the forward passes on a training pool: the states, a swapped model
    ** loaded for its pass, and a log-prob forward's logits (lp_act) */
    /* gradients freed by the zero_grad after the last optimizer step are
    ** not there outside training (plan.train.grad_buffer = step,
    ** docs/model.md section 3) */
    bool step_grads = sp->train.grad_buffer == GRADS_STEP;
    if (step_grads) states -= q->train_mem[MB_GRADS];
    if ((q->swap_aux || q->lp_act > 0) && (q->roles & (ROLE_TRAIN | ROLE_CRITIC)))
        set_peak(q, states + (q->swap_aux ? (refw > rww ? refw : rww) : 0) + q->lp_act, "log-prob passes");
    /* docs/model.md, section 8: the trainer's cache an engine wakes beside
    ** when nothing emptied it after the update, held through generation
    ** (plan_wake_cache): the training phase's peak */
    q->wake_cache = q->rollout_mem[MB_TRAIN_CACHE] = plan_wake_cache(s, q, tsum);
    q->train_reserve = q->wake_cache > 0 ? tsum : 0;
    for (int b = 0; b < MB__COUNT; b++) rsum += q->rollout_mem[b];
    q->wake_total = 0;
    if (q->roles & ROLE_ROLLOUT) {
        double bb = 2 * sp->bucket_bytes;
        if (q->colocated) {
            /* verl's param_offload sends the training weights down before the
            ** engine's weights are allocated (section 3) */
            bool pfirst = sp->offload_params == PARAMS_BEFORE_RESHARD && (q->roles & ROLE_TRAIN);
            double sw = (pfirst ? 0 : q->train_mem[MB_WEIGHTS]) + q->rollout_mem[MB_ROLLOUT_WEIGHTS] + bb
                      + q->train_mem[MB_REF_WEIGHTS] + q->train_mem[MB_REWARD_WEIGHTS]
                      + (sp->offload_grads || step_grads ? 0 : q->train_mem[MB_GRADS])
                      + (sp->offload_optimizer ? 0 : q->train_mem[MB_OPTIMIZER] + q->train_mem[MB_CRITIC]);
            /* an engine that does not sleep keeps its KV cache through the switch */
            if (sp->rollout.sleep == SLEEP_NONE) sw += q->rollout_mem[MB_KV_CACHE];
            set_peak(q, sw, "switching");
            /* the wake maps the engine's weights and KV blocks beside what
            ** the trainer keeps and its cache; the profile run's share (the
            ** engine's activations, memory outside torch) comes with the
            ** first forwards, as generation */
            if (q->wake_cache > 0) {
                double prof = q->engine_profile < q->rollout_mem[MB_KV_CACHE] ? q->engine_profile : q->rollout_mem[MB_KV_CACHE];
                q->wake_total = rsum - (prof > 0 ? prof : 0);
                set_peak(q, q->wake_total, "waking the engine");
            }
            set_peak(q, rsum, "generating");
        } else {
            set_peak(q, rsum + (q->roles & ROLE_TRAIN ? 0 : bb), "receiving weights");
        }
    }
    /* what the processes hold beside the allocator's buckets (docs/model.md,
    ** section 11), every phase: contexts, NCCL's buffers, the allocator's
    ** reserve and an inference engine's graph pool and context, asleep or
    ** awake (section 8).  The ledger books it as its runtime bucket. */
    q->engine_kept = (q->roles & ROLE_ROLLOUT) ? mdl_engine_kept(sp, q->colocated) : 0;
    q->outside = mdl_runtime_bytes(sp, pool_comms(s, q)) + q->engine_kept + sp->alloc_reserve * q->peak;
    q->peak += q->outside;
    /* at vLLM's start-up snapshot the contexts and NCCL's buffers are there;
    ** its graphs are captured after the KV cache is allocated */
    if (q->startup_ask > 0) q->startup_used += q->outside - mdl_engine_kept(sp, false);
    if (q->roles & ~(unsigned)ROLE_ROLLOUT) q->train_mem[MB_RUNTIME] = q->outside;
    if (q->roles & ROLE_ROLLOUT) q->rollout_mem[MB_RUNTIME] = q->outside;
}

static void pool_memory(const scn_scenario *s, plan_pool *q)
{
    const scn_plan *sp = &s->plan;
    /* what CUDA reports holds everything (docs/model.md, section 3, "What
    ** vLLM's KV cache gets"): the data sheet's HBM when no measurement */
    double cap = scn_device_cuda_total(plan_pool_device(s, q));
    q->capacity = cap;
    memset(q->train_mem, 0, sizeof q->train_mem);
    memset(q->rollout_mem, 0, sizeof q->rollout_mem);
    q->startup_used = q->startup_ask = 0;
    double refw = s->has_ref && (q->roles & ROLE_REF) ? aux_weight_bytes(q, &s->ref) : 0;
    double rww = s->reward_is_model && (q->roles & ROLE_REWARD) ? aux_weight_bytes(q, &s->reward) : 0;
    /* LoRA: the reference is the actor's base with the adapters off (verl's
    ** ref_in_actor, verl/trainer/ppo/ray_trainer.py; compute_ref_log_prob
    ** in verl/workers/fsdp_workers.py): no weights of its own where the
    ** actor is trained */
    if (sp->train.lora_rank > 0 && (q->roles & ROLE_TRAIN)) refw = 0;
    q->aux_bytes[0] = refw;
    q->aux_bytes[1] = rww;
    double host = 0;
    if (q->roles & ROLE_TRAIN) {
        double st[3];
        plan_train_states(s, q, st);
        q->train_mem[MB_WEIGHTS] = st[0];
        q->train_mem[MB_GRADS] = st[1];
        q->train_mem[MB_OPTIMIZER] = st[2];
        q->train_mem[MB_ACTIVATIONS] = plan_act_peak(s, q, 0);
        double lastact = plan_act_peak(s, q, q->pp - 1);
        if (lastact > q->train_mem[MB_ACTIVATIONS]) q->train_mem[MB_ACTIVATIONS] = lastact;
        /* with the embedding counted as a layer the first stage holds one
        ** fewer, and the second, one micro-batch fewer in flight under 1F1B,
        ** may hold more (mdl_stage_layers); the middle stages hold the same
        ** layers and fewer micro-batches than the second */
        if (sp->train.pp_embedding_layer && q->pp > 2) {
            double a1 = plan_act_peak(s, q, 1);
            if (a1 > q->train_mem[MB_ACTIVATIONS]) q->train_mem[MB_ACTIVATIONS] = a1;
        }
    }
    /* the critic's states where it trains: the actor's pool, or a pool of
    ** its own (docs/model.md, section 2, The critic on a pool of its own) */
    q->train_mem[MB_CRITIC] = critic_bytes(s, q);
    if (s->has_critic && (q->roles & ROLE_CRITIC)) {
        /* the critic's pipeline holds its own reservation (one at a time) */
        for (int g = 0; g < q->pp; g += q->pp > 1 ? q->pp - 1 : 1) {
            double a = plan_act_peak_model(s, q, &s->critic, g);
            if (a > q->train_mem[MB_ACTIVATIONS]) q->train_mem[MB_ACTIVATIONS] = a;
        }
    }
    /* the log-prob forwards: the actor's old log-probs and the reference's
    ** on a training pool, the reference's on a pool of its own */
    q->lp_act = 0;
    if ((q->roles & ROLE_TRAIN) && s->work.recompute_logprob) q->lp_act = plan_logprob_act(s, q, &s->actor);
    if (s->has_ref && (q->roles & ROLE_REF)) {
        double r = plan_logprob_act(s, q, &s->ref);
        if (r > q->lp_act) q->lp_act = r;
    }
    q->host_opt = plan_host_optimizer(s, q);
    host += q->host_opt;
    if (!q->swap_aux) {
        q->train_mem[MB_REF_WEIGHTS] = refw;
        q->train_mem[MB_REWARD_WEIGHTS] = rww;
        /* resident under full co-location: beside the engine through
        ** generation, and on the device when a device-scope vLLM sizes its
        ** KV cache (verl's RayPPOTrainer.init_workers builds the reference
        ** before the rollout, "so that vllm can have a better estimation of
        ** kv cache memory", verl/trainer/ppo/ray_trainer.py at add17f029) */
        if (q->roles & ROLE_ROLLOUT) {
            q->rollout_mem[MB_REF_WEIGHTS] = refw;
            q->rollout_mem[MB_REWARD_WEIGHTS] = rww;
        }
    } else {
        host += refw + rww;
    }
    if (q->roles & ROLE_ROLLOUT) {
        double rw = plan_rollout_weights(s);
        q->rollout_mem[MB_ROLLOUT_WEIGHTS] = rw;
        if (q->colocated) {
            /* the training weights stay through generation unless the
            ** reshard freed them or parameter offload took them to the host */
            if (!sp->zero_redundancy && sp->offload_params == PARAMS_RESIDENT) q->rollout_mem[MB_WEIGHTS] = q->train_mem[MB_WEIGHTS];
            /* gradients freed after each step (plan.train.grad_buffer = step)
            ** are neither on the device nor on the host while generating */
            if (sp->train.grad_buffer != GRADS_STEP) {
                if (sp->offload_grads) host += q->train_mem[MB_GRADS];
                else q->rollout_mem[MB_GRADS] = q->train_mem[MB_GRADS];
            }
            if (sp->offload_optimizer) host += q->train_mem[MB_OPTIMIZER] + q->train_mem[MB_CRITIC];
            else {
                q->rollout_mem[MB_OPTIMIZER] = q->train_mem[MB_OPTIMIZER];
                q->rollout_mem[MB_CRITIC] = q->train_mem[MB_CRITIC];
            }
        }
        /* docs/model.md, section 8: the actor's weights on the host while
        ** the pool generates (plan.offload.params), the engine's while it
        ** trains (sleep level 1).  Both are there at once during the switch
        ** to rollout, the states and weights going down before the engine's
        ** copy has come back up (verl and NeMo RL offload the optimizer
        ** before they wake the engine), so the host holds their sum */
        plan_switch_host hb = plan_switch_host_bytes(s, q);
        host += hb.params + hb.engine;
        /* docs/model.md, section 8, "What gpu_memory_utilization means":
        ** a share of the whole device (every process's memory inside it) or
        ** the engine's own budget, weights and KV cache, whatever else the
        ** device holds (vllm/v1/worker/gpu_worker.py, determine_available_memory:
        ** requested_memory - non_kv_cache_memory) */
        double used = 0;
        if (sp->rollout.mem_scope == MEMSCOPE_DEVICE || !q->colocated)
            for (int b = 0; b < MB__COUNT; b++) used += q->rollout_mem[b];
        else
            used = rw;
        /* docs/model.md, section 3, "What vLLM's KV cache gets": vLLM's
        ** requested memory is gpu_memory_utilization × the total CUDA
        ** reports (vllm/v1/worker/gpu_worker.py, init_device; the pool's
        ** capacity is that total, scn_device_cuda_total), and its
        ** profile run's activation peak and the memory outside torch come
        ** out of it before the KV cache is sized (determine_available_memory;
        ** V0: vllm/worker/worker.py, determine_num_available_blocks) */
        const scn_model *m = &s->actor;
        bool vllm = plan_engine_vllm(sp);
        q->engine_share = cap * sp->rollout.mem_util;
        q->engine_profile = vllm ? mdl_vllm_profile_peak(m, sp->rollout.tp, plan_profile_tokens(s), sp->rollout.max_seqs,
                                                           sp->rollout.mem_scope == MEMSCOPE_DEVICE)
                                   + mdl_vllm_non_torch(sp->rollout.mem_scope, sp->rollout.tp) : 0;
        /* the device scope's cache sized before Adam's moments existed */
        q->lazy_states = plan_lazy_states(s, q);
        double kv = q->engine_share - used + q->lazy_states;
        q->kv_bytes = kv - q->engine_profile;
        /* docs/model.md, section 3, "A KV cache given in bytes": vLLM's
        ** kv_cache_memory_bytes in place of what the profile leaves
        ** (gpu_worker.py, determine_available_memory, at 35d5cda), the
        ** profile's memory held beside it */
        if (vllm && sp->rollout.kv_cache_bytes > 0) {
            q->kv_bytes = sp->rollout.kv_cache_bytes;
            kv = q->kv_bytes + q->engine_profile;
        }
        if (kv < 0) kv = 0;
        q->rollout_mem[MB_KV_CACHE] = kv;
        /* KV heads are split over the TP ranks, at least one a rank;
        ** MLA's latent is copied on every TP rank (mdl_kv_replication); a
        ** token's bytes in the engine's KV dtype (plan.rollout.kv_dtype). */
        double repl = mdl_kv_replication(m, sp->rollout.tp);
        q->kv_tokens_per_instance = q->kv_bytes > 0
            ? q->kv_bytes * q->inst_devices / (mdl_kv_token_bytes(m, &sp->rollout) * repl) : 0;
        /* vLLM's start-up check under the per-instance budget
        ** (vllm/v1/worker/gpu_worker.py, init_device): the engine asks for
        ** mem_util × the total CUDA reports and refuses to start with less
        ** free.  What the co-located trainer keeps on the device through
        ** generation is there when the engine starts or wakes; the
        ** processes' contexts are added in pool_peak (docs/model.md, section 8).
        ** init_device makes the check before it reads kv_cache_memory_bytes,
        ** so it applies with plan.rollout.kv_cache_gb too */
        if (vllm && q->colocated && sp->rollout.mem_scope == MEMSCOPE_INSTANCE) {
            for (int b = 0; b < MB__COUNT; b++)
                if (b != MB_ROLLOUT_WEIGHTS && b != MB_KV_CACHE) q->startup_used += q->rollout_mem[b];
            q->startup_ask = q->engine_share;
        }
        /* an engine that never sleeps holds its weights and its KV
        ** reservation while the pool trains: training gets what is left */
        if (q->colocated && sp->rollout.sleep == SLEEP_NONE) {
            q->train_mem[MB_ROLLOUT_WEIGHTS] = rw;
            q->train_mem[MB_KV_CACHE] = kv;
        }
    }
    int per_node = plan_host_devices(&s->cluster, q);
    q->host_per_device = host;
    q->host_mem_per_node = host * per_node;
    q->host_node[0] = q->host_opt * per_node;
    q->host_node[2] = q->swap_aux ? (refw + rww) * per_node : 0;
    q->host_node[1] = q->host_mem_per_node - q->host_node[0] - q->host_node[2];
    pool_peak(s, q, refw, rww);
}

/* Append one reason to p->fit_msg, after "; " when one is there. */
static void fit_fail(plan *p, const char *msg)
{
    size_t len = strlen(p->fit_msg);
    snprintf(p->fit_msg + len, sizeof p->fit_msg - len, "%s%s", len ? "; " : "", msg);
}

/* Every pool that does not fit is named, its device memory (the first of
** the three ways it can fail) and its host memory apart, so a host
** overflow is not hidden behind a device one. */
static bool fit_check(const scn_scenario *s, plan *p)
{
    p->fit_msg[0] = '\0';
    for (int i = 0; i < p->npools; i++) {
        plan_pool *q = &p->pools[i];
        double tsum = 0, rsum = 0;
        for (int b = 0; b < MB__COUNT; b++) { tsum += q->train_mem[b]; rsum += q->rollout_mem[b]; }
        rsum -= q->rollout_mem[MB_RUNTIME];     /* the KV message: what the engine's share holds */
        char a[32], c[32], m[400];
        if (tsum > q->capacity) {
            int worst = MB_WEIGHTS;
            for (int b = 0; b < MB__COUNT; b++) if (q->train_mem[b] > q->train_mem[worst]) worst = b;
            fmt_bytes(a, sizeof a, tsum);
            fmt_bytes(c, sizeof c, q->capacity);
            snprintf(m, sizeof m, "pool '%s' while training: %s per device > %s HBM (largest bucket: %s)",
                     q->name, a, c, trace_bucket_name((mem_bucket)worst));
            fit_fail(p, m);
        } else if (q->startup_ask > 0 && q->capacity - q->startup_used < q->startup_ask) {
            /* vllm/v1/worker/gpu_worker.py, init_device: "Free memory on
            ** device ... on startup is less than desired GPU memory
            ** utilization" (docs/model.md, section 8) */
            fmt_bytes(a, sizeof a, q->capacity - q->startup_used);
            fmt_bytes(c, sizeof c, q->capacity);
            char u[32];
            fmt_bytes(u, sizeof u, q->startup_used);
            snprintf(m, sizeof m, "pool '%s' while starting the engine: vLLM start-up: free %s < %.2f × %s "
                     "(gpu_memory_utilization of the device; %s held beside the engine)",
                     q->name, a, s->plan.rollout.mem_util, c, u);
            fit_fail(p, m);
        } else if (q->wake_cache > 0 && q->wake_total + q->outside > q->capacity) {
            /* vllm/device_allocator/cumem.py, wake_up: cuMemCreate fails
            ** ("CUDA Error: out of memory at .../cumem_allocator.cpp")
            ** beside the trainer's cached blocks (docs/model.md, section 8) */
            char h[32], t[32];
            fmt_bytes(a, sizeof a, q->wake_total + q->outside);
            fmt_bytes(c, sizeof c, q->capacity);
            fmt_bytes(h, sizeof h, q->wake_cache);
            fmt_bytes(t, sizeof t, q->train_reserve);
            snprintf(m, sizeof m, "pool '%s' while waking the engine: %s per device > %s HBM (the trainer's caching "
                     "allocator still reserves %s of its %s peak: no empty_cache before the wake)", q->name, a, c, h, t);
            fit_fail(p, m);
        } else if (q->peak > q->capacity) {
            fmt_bytes(a, sizeof a, q->peak);
            fmt_bytes(c, sizeof c, q->capacity);
            snprintf(m, sizeof m, "pool '%s' while %s: %s per device > %s HBM", q->name, q->peak_phase, a, c);
            if (!strcmp(q->peak_phase, "generating")) plan_lazy_states_msg(q, m, sizeof m);
            fit_fail(p, m);
        } else if ((q->roles & ROLE_ROLLOUT) && q->kv_bytes <= 0 && plan_engine_vllm(&s->plan)) {
            /* vllm/v1/worker/gpu_worker.py (V0: vllm/worker/worker.py),
            ** raise_if_cache_size_invalid: "No available memory for the
            ** cache blocks"; the profile's share is docs/model.md, section 3 */
            char w[32];
            fmt_bytes(a, sizeof a, q->engine_share);
            fmt_bytes(w, sizeof w, q->engine_share - q->kv_bytes - q->engine_profile);
            fmt_bytes(c, sizeof c, q->engine_profile);
            snprintf(m, sizeof m, "pool '%s' while starting the engine: vLLM start-up: no available memory for the "
                     "cache blocks (of its %s, weights and states %s, the profile run's activations and memory "
                     "outside torch %s)", q->name, a, w, c);
            fit_fail(p, m);
        } else if ((q->roles & ROLE_ROLLOUT) && q->kv_bytes <= 0) {
            /* per instance, the engine's own weights fill its budget */
            fmt_bytes(a, sizeof a, s->plan.rollout.mem_scope == MEMSCOPE_INSTANCE ? q->rollout_mem[MB_ROLLOUT_WEIGHTS] : rsum);
            fmt_bytes(c, sizeof c, q->engine_share);
            snprintf(m, sizeof m, "pool '%s' while generating: weights and states take %s of the %s the rollout may use; no room for the KV cache",
                     q->name, a, c);
            fit_fail(p, m);
        } else if ((q->roles & ROLE_ROLLOUT) && plan_engine_vllm(&s->plan)
                   && plan_max_model_len(s) > q->kv_tokens_per_instance) {
            /* vllm/v1/core/kv_cache_utils.py, check_enough_kv_cache_memory:
            ** the KV cache must hold one sequence of max_model_len */
            snprintf(m, sizeof m, "pool '%s' while starting the engine: vLLM start-up: max_model_len %.0f tokens "
                     "> the %.0f tokens an instance's KV cache holds", q->name, plan_max_model_len(s),
                     floor(q->kv_tokens_per_instance));
            fit_fail(p, m);
        }
        if (q->host_mem_per_node > s->cluster.host_mem_bytes) {
            fmt_bytes_of(a, sizeof a, q->host_mem_per_node, s->cluster.host_mem_bytes);
            fmt_bytes(c, sizeof c, s->cluster.host_mem_bytes);
            snprintf(m, sizeof m, "pool '%s' host memory: %s per node > %s", q->name, a, c);
            fit_fail(p, m);
        }
    }
    /* docs/model.md, section 8, "One host memory a node" */
    char hm[400];
    if (plan_host_over_msg(s, p, hm, sizeof hm)) fit_fail(p, hm);
    return p->fit_msg[0] == '\0';
}

/* Give each pool its devices (docs/model.md, section 2): pools with ranges
** take them first; then, in order, a spread pool takes the lowest free
** devices of every supernode (or node) in equal shares, a packed pool the
** lowest free devices.  Without ranges or spread pools this is today's
** numbering: the pools one after another from device 0. */
static bool place_pools(const scn_scenario *s, plan *p, fs_err *err)
{
    const char *f = s->path[0] ? s->path : "scenario";
    const scn_plan *sp = &s->plan;
    int total = p->total_devices;
    bool ok = false;
    unsigned char *owner = calloc((size_t)total, 1);      /* pool index + 1, or 0 */
    if (!owner) { fs_err_set(err, 2, "%s: plan: out of memory placing %d devices", f, total); return false; }
    const scn_pool *sc = sp->npools > 0 ? sp->pools : NULL;
    for (int i = 0; sc && i < p->npools; i++) {
        for (int j = 0; j < sc[i].nranges; j++) {
            int a = sc[i].range[j][0], b = sc[i].range[j][1];
            if (b >= total) {
                fs_err_set(err, 2, "%s: plan.pools[%d].ranges[%d]: {%d, %d} goes past the cluster's last device %d "
                           "(%d devices); use devices 0..%d or grow cluster.supernodes", f, i + 1, j + 1, a, b, total - 1,
                           total, total - 1);
                goto out;
            }
            for (int d = a; d <= b; d++) {
                if (owner[d]) {
                    fs_err_set(err, 2, "%s: plan.pools[%d].ranges[%d]: device %d is already in pool '%s'; pools may "
                               "not overlap", f, i + 1, j + 1, d, p->pools[owner[d] - 1].name);
                    goto out;
                }
                owner[d] = (unsigned char)(i + 1);
            }
        }
        if (sc[i].nranges > 0) p->pools[i].placed = true;
    }
    int dpn = s->cluster.devices_per_node, per_sn = dpn * s->cluster.nodes_per_supernode;
    for (int i = 0; i < p->npools; i++) {
        plan_pool *q = &p->pools[i];
        if (sc && sc[i].nranges > 0) continue;
        scn_where w = sc ? sc[i].where : WHERE_PACKED;
        if (w == WHERE_PACKED) {
            int need = q->devices;
            for (int d = 0; d < total && need > 0; d++)
                if (!owner[d]) { owner[d] = (unsigned char)(i + 1); need--; }
            if (need > 0) {
                fs_err_set(err, 2, "%s: plan.pools[%d].devices: %d, but only %d devices are left free by the pools "
                           "before it; shrink it or the others", f, i + 1, q->devices, q->devices - need);
                goto out;
            }
            continue;
        }
        q->placed = true;
        int unit = w == WHERE_SPREAD ? per_sn : dpn, nunits = total / unit;
        const char *uname = w == WHERE_SPREAD ? "supernode" : "node";
        if (q->devices % nunits != 0) {
            fs_err_set(err, 2, "%s: plan.pools[%d].devices: %d does not split evenly over the %d %ss (where = \"%s\"); "
                       "use a multiple of %d", f, i + 1, q->devices, nunits, uname,
                       w == WHERE_SPREAD ? "spread" : "spread_nodes", nunits);
            goto out;
        }
        int share = q->devices / nunits;
        for (int u = 0; u < nunits; u++) {
            int need = share;
            for (int d = u * unit; d < (u + 1) * unit && need > 0; d++)
                if (!owner[d]) { owner[d] = (unsigned char)(i + 1); need--; }
            if (need > 0) {
                fs_err_set(err, 2, "%s: plan.pools[%d].where: %s %d has %d free devices, the pool needs %d of each; "
                           "shrink it or the pools before it", f, i + 1, uname, u, share - need, share);
                goto out;
            }
        }
    }
    /* each pool's devices as increasing ranges */
    for (int d = 0; d < total; d++) {
        if (!owner[d]) continue;
        plan_pool *q = &p->pools[owner[d] - 1];
        if (q->nranges > 0 && q->range[q->nranges - 1][1] == d - 1) { q->range[q->nranges - 1][1] = d; continue; }
        if (q->nranges == PLAN_RANGES_MAX) {
            fs_err_set(err, 2, "%s: plan.pools[%d]: its devices fall into more than %d ranges; place it on fewer, "
                       "larger ones", f, (int)(q - p->pools) + 1, PLAN_RANGES_MAX);
            goto out;
        }
        q->range[q->nranges][0] = q->range[q->nranges][1] = d;
        q->nranges++;
    }
    for (int i = 0; i < p->npools; i++) {
        plan_pool *q = &p->pools[i];
        q->first = q->range[0][0];
        if (q->nranges > 1) q->placed = true;
    }
    ok = true;
out:
    free(owner);
    return ok;
}

/* Tensor-parallel groups run an all-reduce per layer (docs/model.md,
** section 7): on a placed pool, every group that fits in a node (training
** TP, a rollout instance, an aux replica) must lie inside one; a placement
** that would split one over nodes is refused, naming the range. */
static bool groups_in_nodes(const scn_scenario *s, const plan *p, int i, fs_err *err)
{
    const char *f = s->path[0] ? s->path : "scenario";
    const plan_pool *q = &p->pools[i];
    int dpn = s->cluster.devices_per_node;
    struct { int size; const char *what, *field; } g[3] = {
        {q->roles & (ROLE_TRAIN | ROLE_CRITIC) ? q->tp : 0, "a training TP group", "plan.train.tp"},
        {q->roles & ROLE_ROLLOUT ? q->inst_devices : 0, "a rollout instance", "plan.rollout.tp/ep"},
        {q->aux_tp, "a forward-only replica", "plan.aux_tp"},
    };
    const scn_pool *sc = s->plan.npools > 0 ? &s->plan.pools[i] : NULL;
    for (int k = 0; k < 3; k++) {
        if (g[k].size <= 1 || g[k].size > dpn) continue;
        for (int a = 0; a + g[k].size <= q->devices; a += g[k].size) {
            if (plan_group_tier(&s->cluster, q, a, 1, g[k].size) == 0) continue;
            int d0 = plan_dev(q, a), d1 = plan_dev(q, a + g[k].size - 1);
            char where[64];
            snprintf(where, sizeof where, "plan.pools[%d]", i + 1);
            for (int j = 0; sc && j < sc->nranges; j++)
                if (d0 >= sc->range[j][0] && d0 <= sc->range[j][1])
                    snprintf(where, sizeof where, "plan.pools[%d].ranges[%d]", i + 1, j + 1);
            if (sc && sc->nranges == 0 && sc->where != WHERE_PACKED)
                snprintf(where, sizeof where, "plan.pools[%d].devices", i + 1);
            fs_err_set(err, 2, "%s: %s: %s of %d devices (%s) would take devices %d and %d, on different nodes of %d; "
                       "it must fit inside one node — place the pool in whole groups of %d within nodes",
                       f, where, g[k].what, g[k].size, g[k].field, d0, d1, dpn, g[k].size);
            return false;
        }
    }
    return true;
}

bool plan_build(const scn_scenario *s, plan *p, fs_err *err)
{
    const char *f = s->path[0] ? s->path : "scenario";
    memset(p, 0, sizeof *p);
    const scn_plan *sp = &s->plan;
    int total = scn_total_devices(&s->cluster);
    p->mode = sp->mode;
    p->total_devices = total;
    unsigned aux = (s->has_ref ? ROLE_REF : 0) | (s->reward_is_model ? ROLE_REWARD : 0);
    unsigned critic = s->has_critic ? ROLE_CRITIC : 0;
    if (sp->npools > 0) {
        /* pools are told apart by name (memory per pool, reports, hooks):
        ** two of one name would be counted as one */
        for (int i = 0; i < sp->npools; i++)
            for (int j = 0; j < i; j++)
                if (strcmp(sp->pools[i].name, sp->pools[j].name) == 0) {
                    fs_err_set(err, 2, "%s: plan.pools[%d]: the name '%s' is also pools[%d]'s; give each pool "
                               "its own name", f, i + 1, sp->pools[i].name, j + 1);
                    return false;
                }
        for (int i = 0; i < sp->npools; i++)
            add_pool(p, sp->pools[i].name, sp->pools[i].devices, sp->pools[i].roles);
    } else {
        switch (sp->mode) {
        case MODE_SEPARATE: {
            int r = sp->rollout_devices;
            if (r <= 0) {
                /* a share of the cluster, rounded to whole rollout instances */
                int inst = sp->rollout.tp > sp->rollout.ep ? sp->rollout.tp : sp->rollout.ep;
                r = (int)(sp->rollout_fraction * total / inst + 0.5) * inst;
                if (r < inst) r = inst;
            }
            if (r >= total) {
                fs_err_set(err, 2, "%s: plan.rollout_fraction: the rollout pool (%d devices in instances of %d) leaves "
                           "none of the %d devices for training; lower the fraction or plan.rollout.tp/ep",
                           f, r, sp->rollout.tp > sp->rollout.ep ? sp->rollout.tp : sp->rollout.ep, total);
                return false;
            }
            add_pool(p, "rollout", r, ROLE_ROLLOUT);
            add_pool(p, "train", total - r, ROLE_TRAIN | aux | critic);
            break;
        }
        case MODE_COLOCATE:
            if (aux && sp->aux_devices == 0) {
                fs_err_set(err, 2, "%s: plan.aux_devices: colocate keeps the reference/reward models on their own "
                           "devices; set plan.aux_devices, or use mode \"full\"", f);
                return false;
            }
            add_pool(p, "actor", total - (aux ? sp->aux_devices : 0), ROLE_ROLLOUT | ROLE_TRAIN | critic);
            if (aux) add_pool(p, "aux", sp->aux_devices, aux);
            break;
        case MODE_FULL:
            add_pool(p, "all", total, ROLE_ROLLOUT | ROLE_TRAIN | aux | critic);
            break;
        }
    }
    /* roles must be covered exactly once for train, at least once for rollout */
    int ntrain = 0, nroll = 0, first = 0;
    unsigned have = 0;
    p->train_pool = -1;
    p->critic_pool = -1;
    for (int i = 0; i < p->npools; i++) {
        plan_pool *q = &p->pools[i];
        first += q->devices;
        have |= q->roles;
        if (q->roles & ROLE_TRAIN) { ntrain++; p->train_pool = i; }
        if (q->roles & ROLE_ROLLOUT) nroll++;
        if (q->devices < 1) {
            fs_err_set(err, 2, "%s: plan: pool '%s' has no devices", f, q->name);
            return false;
        }
    }
    p->used_devices = first;
    if (first > total) {
        fs_err_set(err, 2, "%s: plan: the pools take %d devices, the cluster has %d (cluster.supernodes = %d)",
                   f, first, total, s->cluster.supernodes);
        return false;
    }
    if (!place_pools(s, p, err)) return false;
    if (!pool_devices(s, p, err)) return false;
    if (ntrain != 1) {
        fs_err_set(err, 2, "%s: plan.pools: exactly one pool must have the \"train\" role (found %d)", f, ntrain);
        return false;
    }
    if (nroll < 1) {
        fs_err_set(err, 2, "%s: plan.pools: at least one pool must have the \"rollout\" role", f);
        return false;
    }
    if ((aux & ~have) || (critic & ~have)) {
        fs_err_set(err, 2, "%s: plan.pools: no pool holds the %s role", f,
                   (aux & ROLE_REF & ~have) ? "ref" : (aux & ROLE_REWARD & ~have) ? "reward" : "critic");
        return false;
    }
    /* the critic trains on the actor's pool or on one pool of its own
    ** (OpenRLHF's critic group; docs/model.md, section 2), never on two,
    ** nor where something generates: its layout is plan.train's */
    if (critic) {
        int nc = 0;
        for (int i = 0; i < p->npools; i++) {
            const plan_pool *q = &p->pools[i];
            if (!(q->roles & ROLE_CRITIC)) continue;
            nc++;
            if ((q->roles & ROLE_ROLLOUT) && !(q->roles & ROLE_TRAIN)) {
                fs_err_set(err, 2, "%s: plan.pools[%d]: pool '%s' holds the critic and generates; the critic trains on "
                           "the actor's pool or on a pool that does not generate", f, i + 1, q->name);
                return false;
            }
        }
        for (int i = 0; i < p->npools; i++)
            if ((p->pools[i].roles & ROLE_CRITIC) && i != p->train_pool) p->critic_pool = i;
        if (nc != 1) {
            fs_err_set(err, 2, "%s: plan.pools: %d pools hold the \"critic\" role; give it to one (the training pool, "
                       "or a pool of its own)", f, nc);
            return false;
        }
    }
    /* a sample's mean tokens, once: the packed logits reservation needs it */
    double seq_mean = len_mean(&s->work.prompt_len, 0) + len_mean(&s->work.response_len, s->work.max_response);
    for (int i = 0; i < p->npools; i++) {
        p->pools[i].seq_mean = seq_mean;
        if (!layout_pool(s, p, &p->pools[i], err)) return false;
        if (p->pools[i].placed && !groups_in_nodes(s, p, i, err)) return false;
        pool_memory(s, &p->pools[i]);
    }
    plan_host_sum(s, p);
    p->fits = fit_check(s, p);
    return true;
}
