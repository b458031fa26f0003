/*
** import_openrlhf.c — OpenRLHF's launcher options onto a fusync scenario: the
** models, the workload, co-located or pooled placement, DeepSpeed's offloads,
** the micro-batches (import_map.h's helpers; the rules and sources are
** docs/frameworks.md; import_export.c ex_openrlhf is the reverse).
*/
#include "import_map.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A group's GPUs, num_nodes x num_gpus_per_node.  OpenRLHF asks Ray for them
** as that many one-GPU bundles in one placement group of strategy PACK
** (openrlhf/trainer/ray/launcher.py, PPORayActorGroup; train_ppo_ray.py for
** the colocated groups; OpenRLHF 3c3be62): Ray packs them onto as few nodes
** as hold them, so the per-node count is no node's size and a group of
** fewer GPUs than a node shares its node with another group (note: say so). */
static bool gdev(imp_mctx *m, const char *role, bool note, double *devices, char *src, size_t sn)
{
    char k1[64], k2[64], s1[320], s2[320];
    double nn, g;
    snprintf(k1, sizeof k1, "%s.num_nodes", role);
    snprintf(k2, sizeof k2, "%s.num_gpus_per_node", role);
    if (!imp_m_gnum(m, k1, &nn, NULL, s1, sizeof s1) || !imp_m_gnum(m, k2, &g, NULL, s2, sizeof s2)) return false;
    *devices = nn * g;
    snprintf(src, sn, "%s x %s", s1, s2);
    int dpn = m->o->devices_per_node;
    if (note && dpn > 0 && g < dpn)
        imp_m_warn(m, "%s = %g, fewer than the machine's %d GPUs a node (--devices-per-node): OpenRLHF packs the "
                   "group's %g one-GPU bundles onto as few nodes as hold them (launcher.py, strategy PACK), beside "
                   "other groups; fusync lays the pools one after another over the nodes",
                   k2, g, dpn, *devices);
    return true;
}

bool imp_map_openrlhf(imp_mctx *m)
{
    char v[1024], s[320], s2[320], why[900];
    double d;
    bool b, nul;
    double gpn;
    if (!imp_m_rules(m, IMP_G_ALL)) return false;
    /* the machine's GPUs a node: OpenRLHF's options do not hold it (gdev) */
    const char *gpn_src = "--devices-per-node";
    if (m->o->devices_per_node > 0) {
        gpn = m->o->devices_per_node;
        imp_m_set(m, "cluster.devices_per_node", gpn_src, "%d", m->o->devices_per_node);
    } else {
        if (!imp_m_gnum(m, "actor.num_gpus_per_node", &gpn, NULL, s, sizeof s)) return false;
        snprintf(why, sizeof why, "%s; guess: OpenRLHF's options do not give the machine's GPUs a node (a group "
                 "packs its GPUs as one-GPU bundles); give --devices-per-node", s);
        imp_m_set(m, "cluster.devices_per_node", why, "%g", gpn);
        gpn_src = "actor.num_gpus_per_node";
    }
    if (!imp_m_model(m, "actor", "actor.model_name_or_path")) return false;
    /* --ds.adam_offload is DeepSpeed's offload_optimizer (device cpu,
    ** openrlhf/utils/deepspeed/deepspeed_utils.py): ZeRO-Offload copies each
    ** reduced gradient partition to the host for CPU Adam (arXiv 2101.06840) */
    if (!imp_m_gbool(m, "ds.adam_offload", &b, s, sizeof s)) return false;
    if (b) {
        snprintf(why, sizeof why, "%s: DeepSpeed ZeRO-Offload, the gradients reduced to the host for CPU Adam", s);
        imp_m_set(m, "plan.train.grad_buffer", why, "\"host\"");
    }
    /* DeepSpeed LoRA through PEFT (openrlhf/models/actor.py); before v0.10 the
    ** flags were --lora_rank and --target_modules */
    bool old_lora = imp_cfg_get(m->c, "lora_rank") != NULL;
    if (!imp_m_lora(m, old_lora ? "lora_rank" : "ds.lora.rank", old_lora ? "target_modules" : "ds.lora.target_modules", NULL))
        return false;

    double kl;
    bool kl_loss;
    if (!imp_m_gnum(m, "algo.kl.init_coef", &kl, NULL, s, sizeof s) || !imp_m_gbool(m, "algo.kl.use_loss", &kl_loss, s2, sizeof s2))
        return false;
    bool has_ref = kl > 0 || kl_loss;
    snprintf(why, sizeof why, "%s: a reference model when init_coef > 0 (openrlhf/cli/train_ppo_ray.py)", s);
    imp_m_set(m, "models.reference", why, "%s", has_ref ? "true" : "false");
    imp_m_get(m, "algo.advantage.estimator", v, sizeof v, s, sizeof s);
    bool ppo = !strcmp(v, "gae");
    imp_m_set(m, "workload.algorithm", s, "\"%s\"", ppo ? "ppo" : "grpo");
    if (!ppo && strcmp(v, "group_norm") && strcmp(v, "grpo"))
        imp_m_warn(m, "algo.advantage.estimator = %s: fusync simulates it as GRPO (critic-free, the same passes)", v);
    char rm[1024], url[1024];
    imp_m_get(m, "reward.model_name_or_path", rm, sizeof rm, NULL, 0);
    imp_m_get(m, "reward.remote_url", url, sizeof url, s, sizeof s);
    bool reward_model = !imp_m_is_null(rm) && imp_m_is_null(url);
    if (reward_model) { if (!imp_m_model(m, "reward", "reward.model_name_or_path")) return false; }
    else imp_m_set(m, "models.reward", imp_m_is_null(url) ? "no reward model given" : s, "\"rule\"");
    /* where the frozen models wait (docs/model.md, section 8): --ref.offload (--ref_reward_offload before the
    ** dotted options of v0.10) builds the reference with DeepSpeed's parameter offload to the host
    ** (openrlhf/trainer/ray/launcher.py, ReferenceModelActor: get_ds_eval_config(offload=...), v0.11.0); unset, the
    ** reference and reward stay on their GPUs, under --train.colocate_all through generation and training too */
    bool old_off = imp_cfg_get(m->c, "ref_reward_offload") != NULL;
    if (has_ref || reward_model) {
        bool ro, wo;
        if (!imp_m_gbool(m, old_off ? "ref_reward_offload" : "ref.offload", &ro, s, sizeof s)) return false;
        if (!old_off && !imp_m_gbool(m, "reward.offload", &wo, s2, sizeof s2)) return false;
        if (old_off) wo = ro;
        if (has_ref && reward_model && ro != wo)
            imp_m_warn(m, "ref.offload %s, reward.offload %s: fusync holds the reference and reward models in one place "
                       "(plan.offload.reference follows ref.offload)", ro ? "true" : "false", wo ? "true" : "false");
        imp_m_set(m, "plan.offload.reference", has_ref ? s : s2, "%s", (has_ref ? ro : wo) ? "true" : "false");
    }
    if (ppo) {
        char cm[1024];
        imp_m_get(m, "critic.model_name_or_path", cm, sizeof cm, NULL, 0);
        if (!imp_m_model(m, "critic", imp_m_is_null(cm) ? "reward.model_name_or_path" : "critic.model_name_or_path")) return false;
    }

    double prompts, n, tb;
    if (!imp_m_gnum(m, "rollout.batch_size", &prompts, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "rollout.n_samples_per_prompt", &n, NULL, NULL, 0)) return false;
    if (!imp_m_gnum(m, "train.batch_size", &tb, NULL, s, sizeof s)) return false;
    if (!imp_m_minibatches(m, prompts * n, tb, s, "train.batch_size counts samples")) return false;
    double maxlen, mnt;
    if (!imp_m_gnum(m, "data.max_len", &maxlen, NULL, s, sizeof s)) return false;
    if (!imp_m_gnum(m, "rollout.max_new_tokens", &mnt, &nul, s2, sizeof s2)) return false;
    double mp = floor(maxlen / 4);
    char ps[400], rs[700];
    snprintf(ps, sizeof ps, "guess: a quarter of %s", s);
    if (nul) {
        snprintf(rs, sizeof rs, "%s caps prompt + response; less the guessed longest prompt", s);
        imp_m_lengths(m, mp, maxlen - mp, ps, rs);
        imp_m_warn(m, "data.max_len = %g caps prompt + response per sample; fusync caps responses at %g "
                "(max_len less the guessed longest prompt)", maxlen, maxlen - mp);
    } else {
        imp_m_lengths(m, mp, fmin(mnt, maxlen - mp), ps, s2);
    }
    /* vLLM's max_model_len (docs/model.md, section 3): OpenRLHF hands every engine data.max_len
    ** (openrlhf/cli/train_ppo_ray.py, create_vllm_engines(..., max_len, ...); openrlhf/trainer/ray/vllm_engine.py,
    ** "max_model_len": max_model_len; OpenRLHF 3c3be62 and since the dotted options of v0.10, ed62d0e2), not the
    ** guessed prompt cap + max_response fusync's lengths end at */
    snprintf(why, sizeof why, "%s: OpenRLHF passes it to vLLM as max_model_len (create_vllm_engines)", s);
    imp_m_set(m, "plan.rollout.max_model_len", why, "%g", maxlen);
    imp_m_set(m, "workload.recompute_logprob", "OpenRLHF's experience maker runs the actor forward for the old log-probs", "true");

    /* placement */
    bool all, ar, cr;
    char cas[320];
    if (!imp_m_gbool(m, "train.colocate_all", &all, cas, sizeof cas) || !imp_m_gbool(m, "train.colocate_actor_ref", &ar, s2, sizeof s2) ||
        !imp_m_gbool(m, "train.colocate_critic_reward", &cr, why, sizeof why)) return false;
    double actor, engines, vtp;
    char as[700], es[320];
    if (!gdev(m, "actor", !all, &actor, as, sizeof as)) return false;
    if (!imp_m_gnum(m, "vllm.num_engines", &engines, &nul, es, sizeof es)) return false;
    if (nul || engines <= 0) {
        fs_err_set(m->err, 2, "%s: unset: OpenRLHF then generates with the DeepSpeed actor, which fusync does not "
                   "simulate; give --vllm.num_engines", es);
        m->failed = true;
        return false;
    }
    if (!imp_m_gnum(m, "vllm.tensor_parallel_size", &vtp, NULL, NULL, 0)) return false;
    imp_m_set(m, "plan.controller", "OpenRLHF's PPO trainer gathers each step's experiences in the driver", "\"driver\"");
    imp_m_set(m, "plan.reward_workers", "guess: the rule or remote reward scored one request at a time", "1");
    double total;
    if (all) {
        snprintf(rs, sizeof rs, "%s: actor, reference, reward, critic and vLLM share the actor's GPUs", cas);
        imp_m_set(m, "plan.mode", rs, "\"full\"");
        total = actor;
        /* full co-location spans every device of the scenario's cluster, so the cluster must be the group's
        ** GPUs: a group smaller than the machine's node packs onto one node (gdev), the rest of it idle */
        int mach = m->o->devices_per_node;
        if (mach > 0 && fmod(actor, mach) != 0) {
            double agpn;
            if (!imp_m_gnum(m, "actor.num_gpus_per_node", &agpn, NULL, s, sizeof s)) return false;
            gpn = actor < mach ? actor : agpn;
            snprintf(why, sizeof why, "%s: the co-located group's %g GPUs %s (--devices-per-node %d)", as, actor,
                     actor < mach ? "packed on one node of the machine's" : "are no whole number of the machine's nodes", mach);
            imp_m_set(m, "cluster.devices_per_node", why, "%g", gpn);
            gpn_src = actor < mach ? "the co-located group" : "actor.num_gpus_per_node";
            imp_m_warn(m, "train.colocate_all on %g GPUs, not whole %d-GPU nodes (--devices-per-node): fusync simulates "
                       "nodes of %g, the group's GPUs only (%s)", actor, mach, gpn,
                       actor < mach ? "one node with its whole host memory, its other GPUs idle"
                                    : "actor.num_gpus_per_node; the machine's node size is not kept");
        }
        /* full co-location puts an engine on every TP group of the shared pool */
        if (engines * vtp != actor)
            imp_m_warn(m, "%s x vllm.tensor_parallel_size = %g GPUs, not the actor's %g: under colocate_all fusync runs "
                       "one engine per %g-GPU tensor-parallel group of the shared pool (%g engines; export writes that count)",
                       es, engines * vtp, actor, vtp, vtp > 0 ? actor / vtp : 0);
        bool vs, ds;
        if (!imp_m_gbool(m, "vllm.enable_sleep", &vs, s, sizeof s) || !imp_m_gbool(m, "ds.enable_sleep", &ds, s2, sizeof s2)) return false;
        imp_m_set(m, "plan.offload.optimizer", s2, "%s", ds ? "true" : "false");
        imp_m_set(m, "plan.offload.grads", s2, "%s", ds ? "true" : "false");
        /* OpenRLHF sleeps its engines at vLLM's level 1 (openrlhf/trainer/ray/vllm_engine.py, sleep(level=1),
        ** OpenRLHF 3c3be62); without enable_sleep they keep weights and KV cache while the actor trains */
        snprintf(why, sizeof why, "%s: %s", s, vs ? "vLLM sleep level 1, weights to host memory" : "no sleep, vLLM keeps its memory");
        imp_m_set(m, "plan.rollout.sleep", why, "\"%s\"", vs ? "offload" : "none");
        /* each engine is a Ray actor of its own on the shared GPUs (openrlhf/trainer/ray/vllm_engine.py,
        ** LLMRayActor, num_gpus 0.2 under the hybrid engine): a second CUDA context beside the actor's */
        snprintf(why, sizeof why, "%s: each vLLM engine a Ray actor of its own (vllm_engine.py, LLMRayActor)", cas);
        imp_m_set(m, "plan.rollout.own_process", why, "true");
    } else {
        /* explicit pools: vLLM engines, the actor (+ reference), the critic (+ reward), the rest */
        fs_buf pools;
        buf_init(&pools);
        double rollout = engines * vtp;
        buf_printf(&pools, "{ name = \"vllm\", devices = %g, roles = { \"rollout\" } }", rollout);
        total = rollout + actor;
        /* the critic on its own group (critic.num_nodes x num_gpus_per_node),
        ** trained beside the actor (docs/model.md, section 2) */
        buf_printf(&pools, ", { name = \"actor\", devices = %g, roles = { \"train\"%s } }", actor,
                   has_ref && ar ? ", \"ref\"" : "");
        double dv;
        char ds[700];
        if (has_ref && !ar) {
            if (!gdev(m, "ref", true, &dv, ds, sizeof ds)) return false;
            buf_printf(&pools, ", { name = \"ref\", devices = %g, roles = { \"ref\" } }", dv);
            total += dv;
        }
        if (ppo) {
            if (!gdev(m, "critic", true, &dv, ds, sizeof ds)) return false;
            if (reward_model && cr)
                buf_printf(&pools, ", { name = \"critic_reward\", devices = %g, roles = { \"critic\", \"reward\" } }", dv);
            else
                buf_printf(&pools, ", { name = \"critic\", devices = %g, roles = { \"critic\" } }", dv);
            total += dv;
        }
        if (reward_model && !(ppo && cr)) {
            if (!gdev(m, "reward", true, &dv, ds, sizeof ds)) return false;
            buf_printf(&pools, ", { name = \"reward\", devices = %g, roles = { \"reward\" } }", dv);
            total += dv;
        }
        snprintf(rs, sizeof rs, "vllm.num_engines x vllm.tensor_parallel_size; %s; colocate_actor_ref %s, "
                 "colocate_critic_reward %s: Ray placement groups, one pool each", as, ar ? "on" : "off", cr ? "on" : "off");
        imp_m_set(m, "plan.mode", "explicit pools below", "\"separate\"");
        imp_m_set(m, "plan.pools", rs, "{ %s }", pools.s);
        buf_free(&pools);
        imp_m_set(m, "plan.offload.optimizer", "training-only pool: nothing to offload for", "false");
        imp_m_set(m, "plan.offload.grads", "training-only pool: nothing to offload for", "false");
    }
    if (m->o->nodes) imp_m_set(m, "cluster.nodes", "--nodes", "%d", m->o->nodes);
    else {
        snprintf(rs, sizeof rs, "every pool's GPUs (%g) over %s", total, gpn_src);
        imp_m_set(m, "cluster.nodes", rs, "%g", ceil(total / gpn));
    }
    imp_m_set(m, "plan.rollout.max_seqs", "vLLM's default max_num_seqs (OpenRLHF does not set it)", "256");

    if (!imp_m_gnum(m, "ds.ring_attn_size", &d, NULL, s, sizeof s)) return false;
    if (d > 1) { imp_m_set(m, "plan.train.cp", s, "%g", d); imp_m_set(m, "plan.train.cp_kind", s, "\"ring\""); }
    /* the entropy (openrlhf/trainer/ray/ppo_actor.py at 3c3be62: return_entropy when actor.entropy_coef is not
    ** None, in the loss when != 0; compute_entropy, openrlhf/models/utils.py, torch.compile'd over the FP32
    ** logits); the experience maker's forwards take none */
    {
        double ec;
        bool ecnul;
        if (!imp_m_gnum(m, "actor.entropy_coef", &ec, &ecnul, s, sizeof s)) return false;
        if (!ecnul && ec != 0) {
            imp_m_set(m, "plan.train.entropy", "OpenRLHF's compute_entropy: torch.compile over the FP32 logits",
                      "\"compiled_fp32\"");
            snprintf(why, sizeof why, "%s: the actor's loss takes the entropy with its gradient", s);
            imp_m_set(m, "plan.train.entropy_loss", why, "true");
        }
    }
    bool dyn;
    if (!imp_m_gbool(m, "train.dynamic_batch_enable", &dyn, s, sizeof s)) return false;
    if (!imp_m_gnum(m, "train.micro_batch_size", &d, NULL, s2, sizeof s2)) return false;
    imp_m_set(m, "plan.train.micro_batch", s2, "%g", d);
    if (dyn) {
        /* micro-batches of at most max_tokens_per_gpu tokens, and packing forced on (train_ppo_ray.py: "Please
        ** --packing_samples ... when --use_dynamic_batch is enabled", args.ds.packing_samples = True) */
        if (!imp_m_gnum(m, "train.max_tokens_per_gpu", &d, NULL, s2, sizeof s2)) return false;
        snprintf(why, sizeof why, "%s with %s", s2, s);
        imp_m_set(m, "plan.train.max_tokens", why, "%g", d);
        snprintf(why, sizeof why, "%s: OpenRLHF turns ds.packing_samples on with it", s);
        imp_m_set(m, "plan.train.padding", why, "\"none\"");
    } else {
        double ring;
        if (!imp_m_gnum(m, "ds.ring_attn_size", &ring, NULL, s2, sizeof s2)) return false;
        if (ring > 1) {
            snprintf(why, sizeof why, "%s > 1: OpenRLHF turns ds.packing_samples on with ring attention", s2);
            imp_m_set(m, "plan.train.padding", why, "\"none\"");
        }
    }
    /* the experience maker's forwards (old policy, reference, critic, reward) run rollout.micro_batch_size
    ** samples at a time, or bins of rollout.max_tokens_per_gpu tokens under dynamic batching (train_ppo_ray.py
    ** defaults the budget to train.max_tokens_per_gpu) */
    if (dyn) {
        if (!imp_m_gnum(m, "rollout.max_tokens_per_gpu", &d, NULL, s2, sizeof s2)) return false;
        snprintf(why, sizeof why, "%s with %s", s2, s);
        imp_m_set(m, "plan.train.logprob_tokens", why, "%g", d);
    } else {
        if (!imp_m_gnum(m, "rollout.micro_batch_size", &d, NULL, s2, sizeof s2)) return false;
        imp_m_set(m, "plan.train.logprob_batch", s2, "%g", d);
    }
    bool as_;
    if (!imp_m_gbool(m, "train.async_enable", &as_, s, sizeof s)) return false;
    if (as_) {
        if (!imp_m_gnum(m, "train.async_queue_size", &d, NULL, s2, sizeof s2)) return false;
        imp_m_set(m, "plan.staleness", s2, "%g", d);
        if (!imp_m_gbool(m, "train.partial_rollout_enable", &b, s, sizeof s)) return false;
        if (b) imp_m_set(m, "plan.on_update", s, "\"continue\"");
    }
    return true;
}
