/*
** trace.c — append-only run record with per-track span indices.
*/
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct trace {
    fs_vec tracks, groups, spans, counters, instants, windows, vgroups;
    fs_vec *track_idx;          /* per track: uint32_t span indices */
    size_t  ntrack_idx;
    fs_vec *group_ctr;          /* per group: uint32_t counter indices */
    size_t  ngroup_ctr;
    trace_sink sink;
    bool    has_sink;
};

static const char *phase_names[PH__COUNT] = {
    "generate", "prefill", "logprob", "reference", "reward", "critic_fwd",
    "train_fwd", "train_bwd", "train_1f1b", "grad_sync", "optimizer", "critic_train",
    "offload", "onload", "reshard", "weight_sync", "queue", "idle"
};

const char *trace_phase_name(trace_phase p)
{
    return (unsigned)p < PH__COUNT ? phase_names[p] : "?";
}

static const char *step_names[STEP__COUNT] = {
    "generate", "switch", "weight_sync", "inference", "train", "wait"
};

const char *trace_step_phase_name(trace_step_phase p)
{
    return (unsigned)p < STEP__COUNT ? step_names[p] : "?";
}

static const char *bucket_names[MB__COUNT] = {
    "weights", "grads", "optimizer", "activations", "rollout_weights",
    "kv_cache", "ref_weights", "reward_weights", "critic", "reshard_buffer",
    "host_offload", "host_models"
};

const char *trace_bucket_name(mem_bucket b)
{
    return (unsigned)b < MB__COUNT ? bucket_names[b] : "?";
}

trace *trace_new(void)
{
    trace *t = xcalloc(1, sizeof *t);
    vec_init(&t->tracks, sizeof(trace_track));
    vec_init(&t->groups, sizeof(trace_memgroup));
    vec_init(&t->spans, sizeof(trace_span));
    vec_init(&t->counters, sizeof(trace_counter));
    vec_init(&t->instants, sizeof(trace_instant));
    vec_init(&t->windows, sizeof(trace_window));
    vec_init(&t->vgroups, sizeof(trace_vgroup));
    return t;
}

void trace_free(trace *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ntrack_idx; i++) vec_free(&t->track_idx[i]);
    for (size_t i = 0; i < t->ngroup_ctr; i++) vec_free(&t->group_ctr[i]);
    free(t->track_idx);
    free(t->group_ctr);
    vec_free(&t->tracks);
    vec_free(&t->groups);
    vec_free(&t->spans);
    vec_free(&t->counters);
    vec_free(&t->instants);
    vec_free(&t->windows);
    vec_free(&t->vgroups);
    free(t);
}

void trace_set_sink(trace *t, const trace_sink *sink)
{
    if (sink) { t->sink = *sink; t->has_sink = true; }
    else { memset(&t->sink, 0, sizeof t->sink); t->has_sink = false; }
}

void trace_reserve_spans(trace *t, size_t n)
{
    vec_reserve(&t->spans, n);
}

int trace_add_track(trace *t, const trace_track *tk)
{
    *(trace_track *)vec_push(&t->tracks) = *tk;
    t->track_idx = xrealloc(t->track_idx, t->tracks.len * sizeof(fs_vec));
    vec_init(&t->track_idx[t->tracks.len - 1], sizeof(uint32_t));
    t->ntrack_idx = t->tracks.len;
    return (int)t->tracks.len - 1;
}

int trace_add_memgroup(trace *t, const trace_memgroup *g)
{
    *(trace_memgroup *)vec_push(&t->groups) = *g;
    t->group_ctr = xrealloc(t->group_ctr, t->groups.len * sizeof(fs_vec));
    vec_init(&t->group_ctr[t->groups.len - 1], sizeof(uint32_t));
    t->ngroup_ctr = t->groups.len;
    return (int)t->groups.len - 1;
}

/* A new slot the caller fills whole at once: no zeroing first (spans are
** the run's most frequent record). */
static inline void *push_filled(fs_vec *v)
{
    if (v->len == v->cap) vec_reserve(v, v->cap ? v->cap * 2 : 16);
    return (char *)v->data + v->len++ * v->item;
}

void trace_add_span(trace *t, const trace_span *s)
{
    uint32_t idx = (uint32_t)t->spans.len;
    memcpy(push_filled(&t->spans), s, sizeof *s);
    if (s->track >= 0 && (size_t)s->track < t->ntrack_idx)
        *(uint32_t *)push_filled(&t->track_idx[s->track]) = idx;
    if (t->has_sink && t->sink.on_span) t->sink.on_span(t->sink.ud, t, s);
}

void trace_add_counter(trace *t, const trace_counter *c)
{
    uint32_t idx = (uint32_t)t->counters.len;
    *(trace_counter *)vec_push(&t->counters) = *c;
    if (c->group >= 0 && (size_t)c->group < t->ngroup_ctr)
        *(uint32_t *)vec_push(&t->group_ctr[c->group]) = idx;
    if (t->has_sink && t->sink.on_counter) t->sink.on_counter(t->sink.ud, t, c);
}

void trace_add_instant(trace *t, const trace_instant *i)
{
    *(trace_instant *)vec_push(&t->instants) = *i;
    if (t->has_sink && t->sink.on_instant) t->sink.on_instant(t->sink.ud, t, i);
}

void trace_add_window(trace *t, const trace_window *w)
{
    *(trace_window *)vec_push(&t->windows) = *w;
    if (t->has_sink && t->sink.on_window) t->sink.on_window(t->sink.ud, t, w);
}

void trace_add_vgroup(trace *t, const trace_vgroup *g)
{
    *(trace_vgroup *)vec_push(&t->vgroups) = *g;
    if (t->has_sink && t->sink.on_vgroup) t->sink.on_vgroup(t->sink.ud, t, g);
}

size_t trace_nvgroups(const trace *t) { return t->vgroups.len; }
const trace_vgroup *trace_vgroups(const trace *t) { return t->vgroups.data; }

int trace_ntracks(const trace *t) { return (int)t->tracks.len; }
const trace_track *trace_track_at(const trace *t, int i) { return &VEC_AT(&t->tracks, trace_track, i); }
int trace_nmemgroups(const trace *t) { return (int)t->groups.len; }
const trace_memgroup *trace_memgroup_at(const trace *t, int i) { return &VEC_AT(&t->groups, trace_memgroup, i); }
size_t trace_nspans(const trace *t) { return t->spans.len; }
const trace_span *trace_spans(const trace *t) { return t->spans.data; }
size_t trace_ncounters(const trace *t) { return t->counters.len; }
const trace_counter *trace_counters(const trace *t) { return t->counters.data; }
size_t trace_ninstants(const trace *t) { return t->instants.len; }
const trace_instant *trace_instants(const trace *t) { return t->instants.data; }
size_t trace_nwindows(const trace *t) { return t->windows.len; }
const trace_window *trace_windows(const trace *t) { return t->windows.data; }

size_t trace_track_nspans(const trace *t, int track)
{
    return (track >= 0 && (size_t)track < t->ntrack_idx) ? t->track_idx[track].len : 0;
}

const uint32_t *trace_track_span_index(const trace *t, int track)
{
    return (track >= 0 && (size_t)track < t->ntrack_idx) ? t->track_idx[track].data : NULL;
}

double trace_mem_at(const trace *t, int group, mem_bucket b, sim_time at)
{
    if (group < 0 || (size_t)group >= t->ngroup_ctr) return 0;
    const fs_vec *v = &t->group_ctr[group];
    const uint32_t *ix = v->data;
    const trace_counter *c = t->counters.data;
    double val = 0;
    /* counters of a group are appended in time order per bucket; scan back */
    for (size_t i = v->len; i-- > 0;) {
        const trace_counter *k = &c[ix[i]];
        if (k->bucket == b && k->t <= at) { val = k->bytes; break; }
    }
    return val;
}
