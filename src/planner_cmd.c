/*
** planner_cmd.c — the words a plan row prints: its pools as text
** ("gen:16/placed train:48") and the whole `fusync run` command that
** simulates the candidate again, so that a user can paste it (docs/cli.md,
** "fusync plan").  What the command sets is what planner_apply sets in the
** candidate's scenario; tests/plan_rank.sh runs printed commands back.
*/
#include "planner.h"
#include "planner_int.h"
#include "fields.h"

#include <stdio.h>
#include <string.h>

void planner_pools_text(const plan *pl, char *out, size_t n)
{
    out[0] = 0;
    size_t len = 0;
    for (int i = 0; i < pl->npools; i++) {
        /* a pool the placement split (spread, ranges) says so: gen:16/placed */
        int w = snprintf(out + len, n - len, "%s%s:%d%s", i ? " " : "", pl->pools[i].name, pl->pools[i].devices,
                         pl->pools[i].placed ? "/placed" : "");
        if (w < 0 || (size_t)w >= n - len) break;
        len += (size_t)w;
    }
}

/* The forward-only and critic roles the scenario has, given to the second
** pool from its role number k on (the spread and hybrid layouts keep them
** with training). */
static void aux_roles_of_pool2(fs_buf *b, const scn_scenario *base, int k)
{
    if (base->has_ref) buf_printf(b, " --set plan.pools.2.roles.%d=ref", k++);
    if (base->reward_is_model) buf_printf(b, " --set plan.pools.2.roles.%d=reward", k++);
    if (base->has_critic) buf_printf(b, " --set plan.pools.2.roles.%d=critic", k);
}

/* The whole `fusync run` command that simulates this candidate over
** `iterations` (the scenario's own count needs no option): the user's own
** --set options first, then the candidate's. */
void planner_run_line(const planner *P, const plan_cand *c, int iterations, fs_buf *b)
{
    buf_puts(b, "fusync run ");
    buf_shell_word(b, P->o.input ? P->o.input : P->base.name);
    /* a searched row sets the searched fields itself: the user's --set and
    ** --fix of them (held, so equal) would only repeat it; cluster sizes are
    ** written below only where they differ from the scenario's, so kept */
    for (int i = 0; i < P->o.nsets; i++) {
        const char *sv = P->o.sets[i];
        if (c->mode >= 0 && planner_searches(sv) && !planner_path_is(sv, "cluster.supernodes") && !planner_path_is(sv, "cluster.nodes_per_supernode"))
            continue;
        buf_puts(b, " --set ");
        buf_shell_word(b, sv);
    }
    if (P->o.policy) {
        buf_puts(b, " --policy ");
        buf_shell_word(b, P->o.policy);
    }
    if (iterations != P->base.work.iterations) buf_printf(b, " --iterations %d", iterations);
    if (c->mode < 0) {
        if (c->explicit_idx >= 0) buf_printf(b, " (plan %d listed by candidates())", c->explicit_idx + 1);
        return;
    }
    const scn_scenario *base = &P->base;
    if (c->supernodes != base->cluster.supernodes) buf_printf(b, " --set cluster.supernodes=%d", c->supernodes);
    /* in the field the scenario gives: a file of plain `nodes` refuses
    ** nodes_per_supernode beside it (src/lua_scenario.c) */
    if (c->nodes != base->cluster.nodes_per_supernode)
        buf_printf(b, " --set cluster.%s=%d", base->cluster.nodes > 0 ? "nodes" : "nodes_per_supernode", c->nodes);
    if (c->mode == PLANNER_SHAPE) {
        scn_plan shp;
        if (!planner_shape_at(P, c->split, c->supernodes, c->nodes, &shp)) shp = P->ax.shapes[c->split];
        const scn_plan *sh = &shp;
        buf_printf(b, " --mode %s", scn_mode_name(sh->mode));
        for (int i = 0; i < sh->npools; i++) {
            buf_printf(b, " --set plan.pools.%d.name=", i + 1);
            buf_shell_word(b, sh->pools[i].name);
            buf_printf(b, " --set plan.pools.%d.devices=%d", i + 1, sh->pools[i].devices);
            for (int k = 0, n = 0; plan_role_names[k]; k++)
                if (sh->pools[i].roles & (1u << k)) buf_printf(b, " --set plan.pools.%d.roles.%d=%s", i + 1, ++n, plan_role_names[k]);
            if (sh->pools[i].where != WHERE_PACKED)
                buf_printf(b, " --set plan.pools.%d.where=%s", i + 1,
                           fields_enum_name(fields_find(FIELDS_POOL, "where"), (int)sh->pools[i].where));
            for (int k = 0; k < sh->pools[i].nranges; k++)
                buf_printf(b, " --set plan.pools.%d.ranges.%d.1=%d --set plan.pools.%d.ranges.%d.2=%d", i + 1, k + 1,
                           sh->pools[i].range[k][0], i + 1, k + 1, sh->pools[i].range[k][1]);
        }
    } else if (c->mode == PLANNER_SPREAD) {
        int total = base->cluster.devices_per_node * c->nodes * c->supernodes;
        buf_printf(b, " --mode separate --set plan.pools.1.name=rollout --set plan.pools.1.devices=%d"
                   " --set plan.pools.1.roles.1=rollout --set plan.pools.1.where=spread --set plan.pools.2.name=train"
                   " --set plan.pools.2.devices=%d --set plan.pools.2.roles.1=train", c->split, total - c->split);
        aux_roles_of_pool2(b, base, 2);
    } else if (c->mode == PLANNER_HYBRID) {
        int total = base->cluster.devices_per_node * c->nodes * c->supernodes;
        buf_printf(b, " --set plan.pools.1.name=gen --set plan.pools.1.devices=%d --set plan.pools.1.roles.1=rollout"
                   " --set plan.pools.2.name=mixed --set plan.pools.2.devices=%d --set plan.pools.2.roles.1=rollout"
                   " --set plan.pools.2.roles.2=train", c->split, total - c->split);
        aux_roles_of_pool2(b, base, 3);
    } else if (c->mode == PLANNER_SEPARATE && c->critic > 0) {
        /* the pools of planner_critic_pools, in its order and roles */
        int total = base->cluster.devices_per_node * c->nodes * c->supernodes;
        buf_printf(b, " --mode separate --set plan.pools.1.name=rollout --set plan.pools.1.devices=%d"
                   " --set plan.pools.1.roles.1=rollout --set plan.pools.2.name=actor --set plan.pools.2.devices=%d"
                   " --set plan.pools.2.roles.1=train", c->split, total - c->split - c->critic);
        if (base->has_ref) buf_printf(b, " --set plan.pools.2.roles.2=ref");
        buf_printf(b, " --set plan.pools.3.name=critic --set plan.pools.3.devices=%d --set plan.pools.3.roles.1=critic", c->critic);
        if (base->reward_is_model) buf_printf(b, " --set plan.pools.3.roles.2=reward");
    } else {
        buf_printf(b, " --mode %s", planner_mode_name(c->mode));
        if (c->mode == PLANNER_SEPARATE) buf_printf(b, " --set plan.rollout_devices=%d", c->split);
        if (c->mode == PLANNER_COLOCATE) buf_printf(b, " --set plan.aux_devices=%d", c->split);
    }
    buf_printf(b, " --set plan.train.tp=%d --set plan.train.pp=%d --set plan.train.ep=%d --set plan.train.micro_batch=%d"
               " --set plan.rollout.tp=%d --set plan.rollout.ep=%d --set plan.rollout.max_seqs=%d --staleness %d"
               " --set plan.partial_rollout=%g", c->ttp, c->tpp, c->tep, c->mb, c->rtp, c->rep, c->seqs, c->stale,
               c->partial_pct / 100.0);
    if (c->tcp > 1 || base->plan.train.cp > 1) buf_printf(b, " --set plan.train.cp=%d", c->tcp > 0 ? c->tcp : 1);
    if (c->tetp != base->plan.train.etp) buf_printf(b, " --set plan.train.etp=%d", c->tetp);
    if (c->dispatch >= 0) buf_printf(b, " --set plan.rollout.dispatch=%s", planner_dispatch_name(c->dispatch));
    planner_mem_sets(c, b);
}
