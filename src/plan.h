/*
** plan.h — from a scenario to concrete device pools, their layouts and the
** analytic memory fit per bucket.  The engine takes bucket sizes from here,
** so the check command and the simulation agree by construction.
*/
#ifndef FUSYNC_PLAN_H
#define FUSYNC_PLAN_H

#include "scenario.h"
#include "trace.h"

typedef struct {
    char     name[SCN_NAME_MAX];
    unsigned roles;
    int      first, devices;
    /* training layout (ROLE_TRAIN / ROLE_CRITIC) */
    int      tp, pp, dp, ep, edp;
    int      cp;              /* context parallel: a sequence's ranks, stride tp (rank order tp, cp, dp, pp) */
    int      gdp;             /* ranks holding the same dense parameters: cp·dp, stride tp (gradients, ZeRO) */
    int      shard, eshard;   /* ZeRO shard groups: dense over cp·dp, experts over expert-DP (HSDP: plan.train.shard_group) */
    /* rollout layout (ROLE_ROLLOUT) */
    int      inst_devices, instances;
    /* forward-only models on a pool without training (ROLE_REF / ROLE_REWARD) */
    int      aux_tp, aux_replicas;
    bool     colocated;     /* rollout and training share these devices */
    bool     swap_aux;      /* ref/reward weights live on the host, loaded per use */
    /* analytic per-device bytes by bucket while training and while generating */
    double   train_mem[MB__COUNT];
    double   rollout_mem[MB__COUNT];
    double   host_mem_per_node;     /* offloaded states + swapped models */
    /* the largest total per device the run's memory ledger reaches, over
    ** every phase and switch (docs/model.md, section 11), and the phase */
    double   peak;
    char     peak_phase[32];
    double   kv_tokens_per_instance;
    double   capacity;
} plan_pool;

typedef struct {
    scn_mode  mode;
    int       npools;
    plan_pool pools[SCN_POOLS_MAX];
    int       train_pool;           /* index of the pool with ROLE_TRAIN */
    int       total_devices;
    int       used_devices;
    bool      fits;
    char      fit_msg[512];         /* first bucket that does not fit */
} plan;

/* Build pools and layouts.  Bad layouts are input errors (code 2). */
bool plan_build(const scn_scenario *s, plan *p, fs_err *err);
/* Per-device bytes of the actor's training states on a pool (weights, grads,
** optimizer), for a ZeRO stage. */
void plan_train_states(const scn_scenario *s, const plan_pool *pp, double out[3]);
double plan_act_peak(const scn_scenario *s, const plan_pool *pp, int stage);
/* The longest sequence the workload allows: largest prompt + max_response. */
double plan_max_seq(const scn_scenario *s);
/* The same for model m (actor or critic): the activation reservation a stage
** holds while training, at the longest sequence the workload allows. */
double plan_act_peak_model(const scn_scenario *s, const plan_pool *pp, const scn_model *m, int stage);
/* Rollout weight bytes per device. */
double plan_rollout_weights(const scn_scenario *s, const plan_pool *pp);
/* Text of the plan for `fusync check` and the report. */
void plan_describe(const scn_scenario *s, const plan *p, fs_buf *out);
const char *plan_roles_str(unsigned roles, char *buf, size_t n);

#endif
