/*
** model_mem.c — the time memory-saving mechanisms cost (docs/model.md,
** sections 3 and 8): ZeRO-3 gathers of frozen models, host reloads.
*/
#include "model_mem.h"

#include "model.h"

double mdl_frozen_gather(double allreduce_s, double overlap, int micro)
{
    if (micro <= 0 || allreduce_s <= 0) return 0.0;
    /* an all-gather moves half the bytes of a ring all-reduce (ZeRO,
    ** arXiv 1910.02054, section 7); forward only: one gather a micro-batch */
    return micro * (1.0 - overlap) * allreduce_s / 2.0;
}

double mdl_param_reload(double bytes, const scn_cluster *c, double host_link_eff)
{
    if (bytes <= 0) return 0.0;
    return bytes / mdl_host_bw_shared(c, host_link_eff);
}
