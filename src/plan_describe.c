/*
** plan_describe.c — `fusync check`'s account of a plan: the pools, their
** layouts, the memory ledger at each pool's peak and the switch and sync
** prices, in the order plan_build computes them (src/plan.c).
*/
#include "plan.h"
#include "model.h"
#include "model_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


void plan_describe(const scn_scenario *s, const plan *p, fs_buf *out)
{
    char rb[64], b1[32], b2[32];
    buf_printf(out, "Plan: mode %s, %d of %d device%s (%d supernode%s of %d)\n", scn_mode_name(p->mode),
               p->used_devices, p->total_devices, fs_s(p->total_devices), s->cluster.supernodes, fs_s(s->cluster.supernodes),
               s->cluster.devices_per_node * s->cluster.nodes_per_supernode);
    for (int i = 0; i < p->npools; i++) {
        const plan_pool *q = &p->pools[i];
        /* a MoE actor's expert tensor parallelism (docs/model.md, section 3) */
        char etp[24] = "";
        if (s->actor.experts > 0) snprintf(etp, sizeof etp, " ETP%d", q->etp);
        /* and its token dispatcher when not the all-to-all one (section 7) */
        int md = s->actor.experts > 0 ? s->plan.train.moe_dispatcher : MOE_DISP_ALLTOALL;
        const char *disp = md == MOE_DISP_ALLGATHER ? ", allgather dispatcher" : md == MOE_DISP_FLEX ? ", flex dispatcher" : "";
        if (q->nranges <= 1) {
            buf_printf(out, "  pool %-8s %5d devices [%d..%d]  roles %s\n", q->name, q->devices, q->first,
                       q->first + q->devices - 1, plan_roles_str(q->roles, rb, sizeof rb));
        } else {
            buf_printf(out, "  pool %-8s %5d devices [", q->name, q->devices);
            for (int r = 0; r < q->nranges && r < 8; r++)
                buf_printf(out, "%s%d..%d", r ? ", " : "", q->range[r][0], q->range[r][1]);
            if (q->nranges > 8) buf_printf(out, ", … %d ranges in all", q->nranges);
            buf_printf(out, "]  roles %s\n", plan_roles_str(q->roles, rb, sizeof rb));
        }
        if (q->own_device)
            buf_printf(out, "    device    %s (its own type; cluster.device is %s): whole nodes of its own\n",
                       q->view.device.name, s->cluster.device.name);
        if ((q->roles & (ROLE_TRAIN | ROLE_CRITIC)) && q->cp > 1)
            buf_printf(out, "    training  TP%d PP%d CP%d (%s) DP%d EP%d%s (expert DP %d)%s, micro-batch %d, ZeRO-%d%s\n",
                       q->tp, q->pp, q->cp, s->plan.train.cp_kind == CP_ULYSSES ? "Ulysses" : "ring", q->dp, q->ep, etp, q->edp, disp,
                       s->plan.train.micro_batch, s->plan.train.zero, q->shard < q->gdp ? " (HSDP)" : "");
        else if (q->roles & (ROLE_TRAIN | ROLE_CRITIC))
            buf_printf(out, "    training  TP%d PP%d DP%d EP%d%s (expert DP %d)%s, micro-batch %d, ZeRO-%d%s\n",
                       q->tp, q->pp, q->dp, q->ep, etp, q->edp, disp, s->plan.train.micro_batch, s->plan.train.zero,
                       q->shard < q->dp ? " (HSDP)" : "");
        if ((q->roles & ROLE_TRAIN) && s->plan.train.precision == DTYPE_FP8) {
            /* docs/model.md, section 7, FP8 training */
            static const char *const rn[] = {"delayed", "tensorwise", "blockwise"};
            const scn_train_layout *tl = &s->plan.train;
            buf_printf(out, "    precision FP8 training (Transformer Engine, %s scaling%s): linear GEMMs at %.0f TFLOP/s "
                       "x %.2f; attention, norms, LM head, optimizer in BF16/FP32%s\n",
                       rn[tl->fp8_recipe], tl->fp8_param ? ", FP8 parameters" : "", plan_pool_device(s, q)->fp8_flops / 1e12,
                       s->eff.train * s->eff.train_fp8, s->has_critic ? "; the critic in BF16" : "");
        }
        if (i == p->critic_pool && p->train_pool >= 0)
            buf_printf(out, "    critic    trained here beside the actor on pool '%s' (both at once; the step waits for "
                       "both), its value pass here too\n", p->pools[p->train_pool].name);
        if ((q->roles & ROLE_TRAIN) && s->plan.train.lora_rank > 0) {
            /* docs/model.md, section 3: the adapters and what they replace */
            const scn_train_layout *tl = &s->plan.train;
            mdl_lora lo = mdl_lora_params(&s->actor, tl->lora_rank, tl->lora_targets);
            fmt_si(b1, sizeof b1, (lo.layer_dense + lo.layer_expert) * s->actor.layers);
            buf_printf(out, "    lora      rank %d on %s: %s trainable parameters, the base frozen%s\n", tl->lora_rank,
                       tl->lora_targets == LORA_ATTENTION ? "the attention projections" : "every linear layer", b1,
                       s->has_ref && (q->roles & ROLE_REF) ? "; the reference is the base (adapters off)" : "");
        }
        if (q->roles & ROLE_ROLLOUT) {
            fmt_si(b1, sizeof b1, q->kv_tokens_per_instance);
            const scn_rollout_layout *ro = &s->plan.rollout;
            buf_printf(out, "    rollout   %d instance%s of %d device%s (TP%d EP%d), max %d seqs, KV room %s tokens/instance%s%s\n",
                       q->instances, fs_s(q->instances), q->inst_devices, fs_s(q->inst_devices), ro->tp, ro->ep,
                       ro->max_seqs, b1, ro->weights_dtype == DTYPE_FP8 ? "; FP8 weights" : "",
                       ro->kv_dtype == DTYPE_FP8 ? "; FP8 KV cache" : "");
            if (q->engine_profile > 0) {
                /* docs/model.md, section 3, "What vLLM's KV cache gets" */
                char b3[32], b4[32];
                fmt_bytes(b1, sizeof b1, q->kv_bytes > 0 ? q->kv_bytes : 0);
                fmt_bytes(b4, sizeof b4, q->engine_share);
                fmt_bytes(b3, sizeof b3, q->engine_profile);
                if (ro->kv_cache_bytes > 0)
                    buf_printf(out, "    kv cache  %s a device as kv_cache_memory_bytes gives it (plan.rollout.kv_cache_gb), "
                               "its profile run's %s beside it; vLLM still asks for %s free at start-up\n", b1, b3, b4);
                else
                    buf_printf(out, "    kv cache  %s a device of vLLM's %s, after its profile run's %s "
                               "(activation peak and memory outside torch)\n", b1, b4, b3);
            }
            /* the decode step's fixed cost as the engine and the planner's
            ** estimate charge it (mdl_decode_fixed), at a full batch */
            const scn_rollout_layout *r = &s->plan.rollout;
            scn_link lk = plan_group_link(&s->cluster, q, 0, 1, q->inst_devices, false);
            mdl_fixed fx = mdl_decode_fixed(&s->actor, &s->eff, r, &lk, r->tp, r->ep, r->max_seqs);
            if (s->eff.decode_overhead_scale > 0) {
                buf_printf(out, "    decode    fixed %.2f ms a step at %d seqs (%s%s): %.0f launches %.2f ms, scheduler %.2f ms",
                           fx.total_s * 1e3, r->max_seqs, mdl_engine_of(r->engine)->name,
                           fx.graphed ? ", CUDA graphs" : ", eager", fx.kernels, fx.launch_s * 1e3, fx.sched_s * 1e3);
                if (fx.flat_s > 0) buf_printf(out, ", flat %.2f ms", fx.flat_s * 1e3);
            } else {
                buf_printf(out, "    decode    fixed %.2f ms a step (flat: efficiency.decode_overhead_scale 0)", fx.flat_s * 1e3);
            }
            buf_printf(out, "; TP/EP sync latency %.2f ms in the communication\n", fx.sync_s * 1e3);
            /* docs/model.md, section 5: chunked prefill and prefix caching */
            bool pfx = r->prefix_caching && r->kv == KV_PAGED && s->work.samples_per_prompt > 1;
            if (r->max_batched_tokens > 0)
                buf_printf(out, "    prefill   chunked, %d tokens a step (decodes first)", r->max_batched_tokens);
            else
                buf_printf(out, "    prefill   a step of its own (no chunked prefill)");
            if (pfx)
                buf_printf(out, "; prefix caching: a prompt's KV and prefill once per group of %d on an instance\n",
                           s->work.samples_per_prompt);
            else
                buf_printf(out, "; no prefix caching%s\n", r->prefix_caching ? (r->kv != KV_PAGED ? " (kv reserve)" : " (groups of 1)") : "");
        }
        if ((q->roles & ROLE_ROLLOUT) && p->train_pool >= 0) {
            /* the weight sync or reshard as the engine and the estimate
            ** charge it (plan_weight_sync), per step */
            const plan_pool *tq = &p->pools[p->train_pool];
            bool co = q == tq;
            mdl_sync w = plan_weight_sync(s, tq, q);
            buf_printf(out, "    %s %.2f s (%s, %d bucket%s)", co ? "reshard  " : "sync     ", w.total_s,
                       s->plan.sync_model == SYNC_IDEAL ? "ideal" : "gather", w.buckets, fs_s(w.buckets));
            if (s->plan.sync_model != SYNC_IDEAL) {
                buf_printf(out, ": gather %.2f s, convert %.2f s", w.gather_s, w.convert_s);
                if (!co) buf_printf(out, ", transfer %.2f s", w.transfer_s);
                buf_printf(out, ", load %.2f s", w.load_s);
                if (w.quant_s > 0) buf_printf(out, ", FP8 quantisation %.2f s", w.quant_s);
                if (w.fixed_s > 0) buf_printf(out, ", fixed %.2f s", w.fixed_s);
            }
            if (co) buf_printf(out, "; back to training %.2f s", plan_reshard_back(s, q));
            buf_printf(out, "\n");
            /* docs/model.md, section 8: the engine's sleep and the actor's
            ** parameter offload, printed when they are not the default */
            plan_switch_host hb = plan_switch_host_bytes(s, q);
            double hbw = mdl_host_bw_shared(plan_pool_cluster(s, q), s->eff.host_link);
            if (co && s->plan.rollout.sleep != SLEEP_DISCARD) {
                if (s->plan.rollout.sleep == SLEEP_NONE) {
                    fmt_bytes(b1, sizeof b1, q->train_mem[MB_ROLLOUT_WEIGHTS] + q->train_mem[MB_KV_CACHE]);
                    buf_printf(out, "    sleep     none: the engine's weights and KV cache stay while training, %s per device\n", b1);
                } else {
                    fmt_bytes(b1, sizeof b1, hb.engine);
                    buf_printf(out, "    sleep     offload (vLLM level 1): weights %s per device to the host, %.2f s each way; KV cache freed\n",
                               b1, hb.engine / hbw);
                }
            }
            /* docs/model.md, section 8: the trainer's cache the engine wakes
            ** beside (plan.train.empty_cache_before_wake = false) */
            if (co && q->wake_cache > 0) {
                char w2[32], w3[32];
                fmt_bytes(b1, sizeof b1, q->wake_cache);
                fmt_bytes(w2, sizeof w2, q->train_reserve);
                fmt_bytes(w3, sizeof w3, q->wake_total + q->outside);
                buf_printf(out, "    wake      the trainer's cache %s per device held beside the engine (its %s peak, "
                           "no empty_cache before the wake); the device holds %s once weights and KV cache are mapped\n",
                           b1, w2, w3);
            }
            if (co && hb.params > 0) {
                fmt_bytes(b1, sizeof b1, hb.params);
                buf_printf(out, "    params    training weights %s per device on the host while generating, %.2f s a copy; %s\n",
                           b1, hb.params / hbw, hb.params_first ? "down before the engine wakes, read back by the reshard, up before training"
                                                                 : "down after the reshard, up before training");
            }
        }
        if (q->aux_tp > 0)
            buf_printf(out, "    forward   %d replicas of TP%d\n", q->aux_replicas, q->aux_tp);
        /* frozen models held ZeRO-3 or parked on the host (docs/model.md,
        ** section 3): what a device holds of each and where */
        /* ... and said where: parked by plan.offload.reference = true, or
        ** kept beside the engine by false (section 8) */
        bool said = (s->plan.offload_aux == AUX_OFFLOAD_HOST && q->swap_aux)
                 || (s->plan.offload_aux == AUX_OFFLOAD_DEVICE && (q->roles & ROLE_ROLLOUT));
        if ((q->aux_sharded || said) && q->aux_bytes[0] + q->aux_bytes[1] > 0) {
            const char *nm[2] = {"reference", "reward"};
            int ranks = q->aux_tp > 0 ? q->aux_replicas : q->shard;
            for (int k = 0; k < 2; k++) {
                if (q->aux_bytes[k] <= 0) continue;
                fmt_bytes(b1, sizeof b1, q->aux_bytes[k]);
                buf_printf(out, "    frozen    %s %s per device", nm[k], b1);
                if (q->aux_sharded) buf_printf(out, ", ZeRO-3 over %d rank%s (gathered every micro-batch)", ranks, fs_s(ranks));
                buf_printf(out, "%s\n", q->swap_aux ? "; on the host between its passes, loaded for each"
                                       : (q->roles & ROLE_ROLLOUT) ? "; resident, through generation too" : "; resident");
            }
        }
        buf_printf(out, "    memory per device        %-12s %-12s\n", "training", "generating");
        for (int b = 0; b < MB__COUNT; b++) {
            if (b == MB_HOST_OFFLOAD || b == MB_HOST_MODELS) continue;
            if (q->train_mem[b] == 0 && q->rollout_mem[b] == 0) continue;
            fmt_bytes(b1, sizeof b1, q->train_mem[b]);
            fmt_bytes(b2, sizeof b2, q->rollout_mem[b]);
            buf_printf(out, "      %-22s %-12s %-12s\n", trace_bucket_name((mem_bucket)b),
                       q->train_mem[b] ? b1 : "-", q->rollout_mem[b] ? b2 : "-");
        }
        double ts = 0, rs = 0;
        for (int b = 0; b < MB__COUNT; b++) { ts += q->train_mem[b]; rs += q->rollout_mem[b]; }
        fmt_bytes(b1, sizeof b1, ts);
        fmt_bytes(b2, sizeof b2, rs);
        char c[32];
        fmt_bytes(c, sizeof c, q->capacity);
        buf_printf(out, "      %-22s %-12s %-12s of %s\n", "total", ts ? b1 : "-", rs ? b2 : "-", c);
        /* a log-prob forward's logits and layer, booked as activations while
        ** the forward passes run; what the processes hold outside the
        ** ledger (docs/model.md, sections 3 and 11) */
        if (q->lp_act > 0) {
            fmt_bytes(b1, sizeof b1, q->lp_act);
            buf_printf(out, "      log-prob forward       %s per device as activations (logits %s%s%s)\n", b1,
                       s->plan.train.logits == LOGITS_EAGER ? "eager" : "fp32",
                       s->plan.train.logprob_chunk > 0 ? ", chunked" : "",
                       s->plan.train.logprob_unshard && s->plan.train.zero == 3 && (q->roles & ROLE_TRAIN)
                           ? "; the whole model gathered" : "");
        }
        /* the entropy with its gradient, part of the training activations */
        double ent = (q->roles & ROLE_TRAIN) ? plan_entropy_act(s, q) : 0.0;
        if (ent > 0) {
            static const char *const how[] = {"compiled", "eager", "chunked", "compiled, FP32"};
            fmt_bytes(b1, sizeof b1, ent);
            buf_printf(out, "      entropy in the loss    %s per device of the activations (%s, with its gradient)\n", b1,
                       how[s->plan.train.entropy]);
        }
        if (q->outside > 0) {
            /* the runtime bucket's parts (plan.c, pool_peak): the trainer's
            ** (or the pool's one) context, an engine's graph pool and own
            ** context (mdl_engine_kept), NCCL's buffers, the reserve */
            const scn_plan *sp = &s->plan;
            bool own = (q->roles & ROLE_ROLLOUT) && q->colocated && sp->rollout.own_process;
            double ectx = own ? sp->cuda_context_bytes : 0, graphs = q->engine_kept - ectx;
            double ctx = sp->cuda_context_bytes, res = sp->alloc_reserve * (q->peak - q->outside);
            double nccl = q->outside - ctx - q->engine_kept - res;
            fmt_bytes(b1, sizeof b1, q->outside);
            fmt_bytes(b2, sizeof b2, ctx);
            buf_printf(out, "      runtime (every phase)  %s per device: CUDA context %s", b1, b2);
            if (ectx > 0) { fmt_bytes(b2, sizeof b2, ectx); buf_printf(out, ", the engine's own context %s", b2); }
            if (graphs > 0) { fmt_bytes(b2, sizeof b2, graphs); buf_printf(out, ", the engine's CUDA graphs %s (kept asleep)", b2); }
            if (nccl > 0) { fmt_bytes(b2, sizeof b2, nccl); buf_printf(out, ", NCCL buffers %s", b2); }
            if (res > 0) { fmt_bytes(b2, sizeof b2, res); buf_printf(out, ", allocator reserve %s", b2); }
            buf_printf(out, "\n");
        }
        if (q->host_mem_per_node > 0) {
            fmt_bytes_of(b1, sizeof b1, q->host_mem_per_node, s->cluster.host_mem_bytes);
            fmt_bytes(c, sizeof c, s->cluster.host_mem_bytes);
            buf_printf(out, "      host per node          %s of %s%s\n", b1, c,
                       q->host_mem_per_node > s->cluster.host_mem_bytes ? "  OVER CAPACITY" : "");
        }
        /* where the bytes are at the pool's peak (docs/model.md, section 11):
        ** the device's total in that phase, the host's by what it holds */
        fmt_bytes(b1, sizeof b1, q->peak);
        buf_printf(out, "      at the peak            %s per device while %s", b1, q->peak_phase[0] ? q->peak_phase : "idle");
        const char *hw[3] = {"optimizer (whole run)", s->plan.rollout.sleep == SLEEP_OFFLOAD ? "offloaded between phases" : "offloaded for rollout", "models waiting"};
        bool any = false;
        for (int k = 0; k < 3; k++) {
            if (q->host_node[k] <= 0) continue;
            fmt_bytes(b2, sizeof b2, q->host_node[k]);
            buf_printf(out, "%s%s %s", any ? ", " : "; host per node: ", hw[k], b2);
            any = true;
        }
        buf_printf(out, "\n");
    }
    /* host memory a node over the pools that share it (docs/model.md,
    ** section 8, "One host memory a node"): shown where two pools share one */
    const plan_host_nodes *h = &p->host;
    if (h->shared && h->node >= 0) {
        char c[32];
        fmt_bytes_of(b1, sizeof b1, h->bytes, s->cluster.host_mem_bytes);
        fmt_bytes(c, sizeof c, s->cluster.host_mem_bytes);
        buf_printf(out, "Host per node: fullest node %d holds %s of %s (", h->node, b1, c);
        bool any = false;
        for (int i = 0; i < p->npools; i++) {
            if (h->pool[i] <= 0) continue;
            fmt_bytes(b2, sizeof b2, h->pool[i]);
            buf_printf(out, "%s%s %s", any ? ", " : "", p->pools[i].name, b2);
            any = true;
        }
        buf_printf(out, ")%s\n", h->bytes > s->cluster.host_mem_bytes ? "  OVER CAPACITY" : "");
    }
    buf_printf(out, "Memory fit: %s%s\n", p->fits ? "fits" : "DOES NOT FIT: ", p->fits ? "" : p->fit_msg);
}
