/*
** model_coll.c — the collectives (docs/model.md, section 2, "Collectives"):
** all-reduce, all-gather / reduce-scatter, all-to-all and broadcast over a
** link, NCCL's ring and tree (and PAT) over a group that crosses nodes with
** the node's rails, and the links a group runs over (its tier, the NICs
** its devices share).  Declared in model.h with the other cost formulas.
**
** Why a file of its own: every training, decode, prefill and weight-sync
** cost prices its communication through these few functions, and they read
** only the cluster's links, not the model; apart they can be read and tested
** as one algorithm (NCCL's choice by message size), and model.c stays the
** per-phase formulas.
*/
#include "model.h"

#include <math.h>

static double coll(double factor_bytes, int steps, const scn_link *l, double eff)
{
    return factor_bytes / (l->bw * eff) + steps * l->latency_s;
}

/* A group across nodes (docs/model.md, section 2): n members, `loc` on
** each of `nodes` nodes.  Inside a node they talk over the in-link, across
** nodes each member over its share of the node's rails.  A ring's
** bandwidth is the slower of the node's link and its rails together (NCCL
** runs one channel per rail, each crossing the node boundary on its own
** NIC); a ring step pays the in-link's latency except the steps that cross
** a node boundary, two per node for an all-reduce, one for a gather. */
typedef struct {
    int    n, loc, nodes;
    double b_ring;          /* B/s a ring runs at, η applied */
    double b_out;           /* B/s one member has across nodes, η applied */
    double b_in;            /* B/s inside a node, η applied */
    double a_in, a_out;
    bool   one_fabric;      /* the two tiers give a device the same bandwidth: one set of ports */
} hier;

/* false: price flat (a tier's own link, or the group fits one node: then
** *h describes the in-link alone with nodes 1) */
static bool hier_of(const scn_link *l, int n, double eff, hier *h)
{
    if (l->local <= 0 || l->algo == COLL_FLAT) return false;
    h->n = n;
    h->loc = l->local < n ? l->local : n;
    h->nodes = (n + h->loc - 1) / h->loc;
    h->b_in = l->in_bw * eff;
    h->a_in = l->in_lat;
    h->a_out = l->latency_s;
    h->one_fabric = l->in_bw == l->bw;
    double rails = l->rails > 0 ? l->rails : 1.0;
    if (rails > h->loc) rails = h->loc;
    h->b_out = l->bw * eff * rails / h->loc;
    double out = l->bw * eff * rails;
    h->b_ring = h->loc > 1 && h->b_in < out ? h->b_in : out;
    return true;
}

static double ilog2_ceil(int n)
{
    int k = 0;
    while ((1 << k) < n) k++;
    return k;
}

/* All-reduce over nodes (NCCL's ring and tree, docs/model.md, section 2):
**   ring  2(n−1)/n·S/B_ring + (2(n−1) − 2N)·α_in + 2N·α_out
**   tree  2·S/B_ring + 2·((loc−1)·α_in + ⌈log2 N⌉·α_out)
** (a chain inside each node, a double binary tree across nodes: up and
** down, the whole buffer each way). */
static double hier_allreduce(double bytes, const hier *h, int algo)
{
    int n = h->n, N = h->nodes;
    int inter = 2 * N < 2 * (n - 1) ? 2 * N : 2 * (n - 1);
    double ring = 2.0 * (n - 1) / n * bytes / h->b_ring + (2 * (n - 1) - inter) * h->a_in + inter * h->a_out;
    if (algo == COLL_RING) return ring;
    double tree = 2.0 * bytes / h->b_ring + 2.0 * ((h->loc - 1) * h->a_in + ilog2_ceil(N) * h->a_out);
    if (algo == COLL_TREE) return tree;
    return ring < tree ? ring : tree;
}

/* All-gather or reduce-scatter over nodes: ring (n−1)/n·S/B_ring +
** (n−1−N)·α_in + N·α_out; with one member per node NCCL also has PAT
** (NCCL 2.23: log-depth, Bruck-like), (n−1)/n·S/B_out + ⌈log2 n⌉·α_out. */
static double hier_allgather(double bytes, const hier *h, int algo)
{
    int n = h->n, N = h->nodes;
    int inter = N < n - 1 ? N : n - 1;
    double ring = (double)(n - 1) / n * bytes / h->b_ring + (n - 1 - inter) * h->a_in + inter * h->a_out;
    if (h->loc > 1 || algo == COLL_RING) return ring;
    double pat = (double)(n - 1) / n * bytes / h->b_out + ilog2_ceil(n) * h->a_out;
    if (algo == COLL_TREE) return pat;
    return ring < pat ? ring : pat;
}

/* All-to-all over nodes: each member sends S/n to every other; the
** (loc−1)/n share inside its node, (n−loc)/n across it over its share of
** the rails, concurrently (NVLink and the NICs are separate ports): the
** slower of the two, one latency of the slower tier.  When the two tiers
** are one fabric (the same bandwidth a device: UB, an NVL72 domain) the
** device's ports carry both shares: their sum. */
static double hier_alltoall(double bytes, const hier *h)
{
    double ti = (double)(h->loc - 1) / h->n * bytes / h->b_in;
    double to = (double)(h->n - h->loc) / h->n * bytes / h->b_out;
    double t = h->one_fabric ? ti + to : fmax(ti, to);
    return t + fmax(h->a_in, h->a_out);
}

double mdl_allreduce(double bytes, int n, const scn_link *l, double eff)
{
    if (n <= 1) return 0.0;
    hier h;
    if (hier_of(l, n, eff, &h)) {
        if (h.nodes > 1) return hier_allreduce(bytes, &h, l->algo);
        return 2.0 * (n - 1) / n * bytes / h.b_in + 2 * (n - 1) * h.a_in;
    }
    return coll(2.0 * (n - 1) / n * bytes, 2 * (n - 1), l, eff);
}

double mdl_allgather(double bytes, int n, const scn_link *l, double eff)
{
    if (n <= 1) return 0.0;
    hier h;
    if (hier_of(l, n, eff, &h)) {
        if (h.nodes > 1) return hier_allgather(bytes, &h, l->algo);
        return (double)(n - 1) / n * bytes / h.b_in + (n - 1) * h.a_in;
    }
    return coll((double)(n - 1) / n * bytes, n - 1, l, eff);
}

double mdl_alltoall(double bytes, int n, const scn_link *l, double eff)
{
    if (n <= 1) return 0.0;
    hier h;
    if (hier_of(l, n, eff, &h)) {
        if (h.nodes > 1) return hier_alltoall(bytes, &h);
        return (double)(n - 1) / n * bytes / h.b_in + h.a_in;
    }
    return coll((double)(n - 1) / n * bytes, 1, l, eff);
}

double mdl_broadcast(double bytes, const scn_link *l, double eff)
{
    return coll(bytes, 1, l, eff);
}

scn_link mdl_link_hier(const scn_cluster *c, int tier, int local, bool shared)
{
    scn_link l = shared ? mdl_tier_link_shared(c, tier) : *mdl_tier_link(c, tier);
    if (tier <= 0 || c->collectives == COLL_FLAT || local < 1) return l;
    const scn_link *in = tier == 1 ? &c->intra_node : &c->intra_supernode;
    l.local = local;
    l.algo = c->collectives;
    /* shared: every device of the node crosses at once, the tier's
    ** bandwidth is already each one's share of its NIC, and the group's
    ** members drive `local` such shares; alone, its members sit behind
    ** ⌈local / devices_per_nic⌉ NICs, each at the tier's bandwidth */
    int dpn = mdl_nic_share(c);
    l.rails = shared ? local : (local + dpn - 1) / dpn;
    l.in_bw = in->bw;
    l.in_lat = in->latency_s;
    return l;
}

scn_link mdl_group_link(const scn_cluster *c, int first, int stride, int count, bool shared)
{
    int tier = mdl_group_tier(c, first, stride, count);
    if (tier == 0) return shared ? mdl_tier_link_shared(c, 0) : c->intra_node;
    int unit = tier == 1 ? c->devices_per_node : c->devices_per_node * c->nodes_per_supernode;
    int u0 = first / unit, loc = 0;
    while (loc < count && (first + loc * stride) / unit == u0) loc++;
    return mdl_link_hier(c, tier, loc, shared);
}

double mdl_allreduce_group(const scn_cluster *c, int first, int stride, int count, double bytes, double eff)
{
    if (count <= 1) return 0.0;
    int tier = mdl_group_tier(c, first, stride, count);
    /* every group of the pool runs the same collective at once: across
    ** nodes the devices of a node share its NICs (mdl_tier_link_shared) */
    if (tier < 2) {
        scn_link l = mdl_group_link(c, first, stride, count, true);
        return mdl_allreduce(bytes, count, &l, eff);
    }
    int per_sn = c->devices_per_node * c->nodes_per_supernode;
    /* members per supernode (the group is spread evenly by construction) */
    int span_sn = (stride * (count - 1)) / per_sn + 1;
    if (span_sn > count) span_sn = count;
    int inner = count / span_sn;
    if (inner < 1) inner = 1;
    scn_link li = mdl_group_link(c, first, stride, inner, true);
    /* every member crosses the scale-out fabric at the same time: its share
    ** of an oversubscribed fabric and of its node's NICs (mdl_scaleout_shared);
    ** the all-reduce of the shares has one member per supernode */
    scn_link lo = mdl_link_hier(c, 2, 1, true);
    return mdl_allgather(bytes, inner, &li, eff) * 2          /* reduce-scatter + all-gather */
         + mdl_allreduce(bytes / inner, span_sn, &lo, eff);
}

int mdl_group_tier(const scn_cluster *c, int first, int stride, int count)
{
    if (count <= 1) return 0;
    int last = first + stride * (count - 1);
    int per_sn = c->devices_per_node * c->nodes_per_supernode;
    if (first / c->devices_per_node == last / c->devices_per_node) return 0;
    if (first / per_sn == last / per_sn) return 1;
    return 2;
}

const scn_link *mdl_tier_link(const scn_cluster *c, int tier)
{
    switch (tier) {
    case 0: return &c->intra_node;
    case 1: return &c->intra_supernode;
    default: return &c->inter_supernode;
    }
}

/* Devices behind one scale-out NIC (cluster.devices_per_nic): the
** intra_supernode and inter_supernode tiers give one NIC's bandwidth, which
** the devices behind it split when they all cross nodes at once
** (docs/model.md, section 2). */
int mdl_nic_share(const scn_cluster *c)
{
    return c->devices_per_nic > 1 ? c->devices_per_nic : 1;
}

int mdl_nic_readers(const scn_cluster *c, int group, int readers)
{
    int g = group > 1 ? group : 1, share = (mdl_nic_share(c) + g - 1) / g;
    if (readers < share) share = readers;
    return share > 1 ? share : 1;
}

scn_link mdl_scaleout_shared(const scn_cluster *c)
{
    scn_link l = c->inter_supernode;
    if (c->scaleout_oversub > 1.0) l.bw /= c->scaleout_oversub;
    l.bw /= mdl_nic_share(c);
    return l;
}

scn_link mdl_tier_link_shared(const scn_cluster *c, int tier)
{
    if (tier >= 2) return mdl_scaleout_shared(c);
    scn_link l = *mdl_tier_link(c, tier);
    if (tier == 1) l.bw /= mdl_nic_share(c);
    return l;
}

double mdl_host_bw_shared(const scn_cluster *c, double host_link_eff)
{
    int share = c->devices_per_host_link > 1 ? c->devices_per_host_link : 1;
    return c->device.host_bw * host_link_eff / share;
}
