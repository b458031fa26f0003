/*
** model_sync.c — the weight sync's formulas (docs/model.md, sections 8 and
** 9): the ideal reshard, the separate pools' transfer bound and the
** frameworks' bucketed gather-convert-transfer-load.  See model.h for the
** sources.
*/
#include "model.h"

#include <math.h>

static int imax(int a, int b) { return a > b ? a : b; }

double mdl_reshard(double bytes, double bucket_bytes, const scn_link *l, double link_eff)
{
    int nb = (int)ceil(bytes / bucket_bytes);
    return bytes / (l->bw * link_eff) + nb * l->latency_s;
}

double mdl_weight_sync(double bytes, double params_total, int instances, int train_devices, double bucket_bytes,
                       const scn_link *l, double link_eff)
{
    double bw = l->bw * link_eff;
    double t_recv = bytes / bw;
    double t_send = 2.0 * params_total * instances / (train_devices * bw);
    int nb = (int)ceil(bytes / bucket_bytes);
    return fmax(t_recv, t_send) + nb * l->latency_s;
}

/* The framework's weight sync, bucket by bucket (docs/model.md, sections 8
** and 9).  Per bucket of b full bytes, with σ the share of a tensor one
** training device holds of its stage ((1 − f_e)/TP + f_e/X, f_e the experts'
** share, X the expert group):
**   gather   broadcast(σ·b) over PP + all-gather(σ·b) over the ZeRO-3 shard
**            group + all-gather((1 − f_e)·b) over TP + all-gather(f_e·b)
**            over X
**   convert  2·b / HBM            (read and write, bf16 to bf16: the layout
**                                  conversion of QKV and gate/up)
**   transfer broadcast(b) over the sync link (separate pools only)
**   load     2·b·R/F / HBM        (the engine copies its shard out)
** and the fixed host time; NCCL's latency per call is in each collective. */
mdl_sync mdl_sync_gather(const mdl_sync_in *in)
{
    mdl_sync r = {0};
    if (in->full_bytes <= 0) return r;
    int nb = (int)ceil(in->full_bytes / in->bucket_bytes);
    double b = in->full_bytes / nb, fe = in->expert_share, eff = in->link_eff;
    double sigma = (1.0 - fe) / imax(in->tp, 1) + fe / imax(in->ex, 1);
    double g = 0;
    if (in->pp > 1) g += mdl_broadcast(sigma * b, &in->lpp, eff);
    if (in->shard > 1) g += mdl_allgather(sigma * b, in->shard, &in->ldp, eff);
    g += mdl_allgather((1.0 - fe) * b, in->tp, &in->ltp, eff);
    if (fe > 0) g += mdl_allgather(fe * b, in->ex, &in->lex, eff);
    double conv = 2.0 * b / in->hbm_bw;
    double xfer = in->local ? 0.0 : mdl_broadcast(b, &in->lxfer, eff);
    double load = 2.0 * b * (in->rollout_bytes / in->full_bytes) / in->hbm_bw;
    r.buckets = nb;
    r.gather_s = nb * g;
    r.convert_s = nb * conv;
    r.transfer_s = nb * xfer;
    r.load_s = nb * load;
    r.fixed_s = nb * in->bucket_s;
    r.total_s = r.gather_s + r.convert_s + r.transfer_s + r.load_s + r.fixed_s;
    if (in->quant_bytes > 0 && in->quant_hbm_bw > 0) {
        /* NeMo RL's and verl's FP8 refit (docs/model.md, section 5, FP8
        ** rollouts): each received BF16 weight is cast to e4m3 blockwise
        ** on the rollout device before load_weights copies it in, one
        ** memory-bound pass that reads 2 bytes a parameter and writes
        ** mdl_fp8_param_bytes; the copy itself is load_s over the FP8 bytes */
        r.quant_s = in->quant_bytes * (1.0 + mdl_fp8_param_bytes() / 2.0) / in->quant_hbm_bw;
        r.total_s += r.quant_s;
    }
    return r;
}
