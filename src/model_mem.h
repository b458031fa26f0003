/*
** model_mem.h — the time memory-saving mechanisms cost: frozen models
** sharded ZeRO-3 (their parameters gathered for every micro-batch) and
** parameters parked on the host between phases (reloaded over the host
** link).  Pure functions of numbers, as model.h; docs/model.md, sections 3
** and 8, gives the formulas and their sources.
*/
#ifndef FUSYNC_MODEL_MEM_H
#define FUSYNC_MODEL_MEM_H

#include "scenario.h"

/* A frozen model held ZeRO-3 (verl's FSDP reference worker, DeepSpeed-Chat's
** and OpenRLHF's reference under ZeRO-3) gathers its whole parameters once
** per micro-batch of a forward-only pass: `allreduce_s` is the time of an
** all-reduce of the unsharded BF16 parameters over the shard group, an
** all-gather half of it; `overlap` the share prefetching hides.  No
** backward, so no second gather and no reduce-scatter. */
double mdl_frozen_gather(double allreduce_s, double overlap, int micro);

/* Parameters parked on the host between their phases (verl param_offload,
** DeepSpeed-Chat offload_reference_model) come back over the device's share
** of the host link before the phase: bytes / (host GB/s ÷ devices a host
** link · efficiency.host_link), every device in parallel. */
double mdl_param_reload(double bytes, const scn_cluster *c, double host_link_eff);

#endif
