/*
** style.c — letters and labels for phases, steps (from their tables in
** trace.h) and buckets.
*/
#include "style.h"

#include <stdio.h>

_Static_assert(PH__COUNT <= ST_STEP0 - ST_PHASE0, "canvas.h: too few phase styles");
_Static_assert(STEP__COUNT <= ST_BUCKET0 - ST_STEP0, "canvas.h: too few step styles");
_Static_assert(MB__COUNT <= ST__COUNT - ST_BUCKET0, "canvas.h: too few bucket styles");
_Static_assert(ST__COUNT < 256, "styles fit a byte");

/* Phases and step phases: their rows in trace.h. */
static const char phase_letters[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = letter,
    TRACE_PHASES(X)
#undef X
};
static const char *const phase_labels[PH__COUNT] = {
#define X(id, name, label, letter, compute, rgb, fg, bg, attr, mono) [id] = label,
    TRACE_PHASES(X)
#undef X
};
static const char step_letters[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = letter,
    TRACE_STEP_PHASES(X)
#undef X
};
static const char *const step_labels[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = label,
    TRACE_STEP_PHASES(X)
#undef X
};
static const int step_as_phase[STEP__COUNT] = {
#define X(id, name, label, letter, as, rgb, fg, bg, attr, mono) [id] = as,
    TRACE_STEP_PHASES(X)
#undef X
};
static const char bucket_letters[MB__COUNT] = {
    [MB_WEIGHTS] = 'W', [MB_GRADS] = 'G', [MB_OPTIMIZER] = 'O', [MB_ACTIVATIONS] = 'A',
    [MB_ROLLOUT_WEIGHTS] = 'R', [MB_KV_CACHE] = 'K', [MB_REF_WEIGHTS] = 'f', [MB_REWARD_WEIGHTS] = 'w',
    [MB_CRITIC] = 'C', [MB_RESHARD] = 's', [MB_HOST_OFFLOAD] = 'H', [MB_HOST_MODELS] = 'M',
    [MB_RUNTIME] = 'x', [MB_TRAIN_CACHE] = 'c'
};
static const char *bucket_short[MB__COUNT] = {
    [MB_WEIGHTS] = "weights", [MB_GRADS] = "grads", [MB_OPTIMIZER] = "optim", [MB_ACTIVATIONS] = "activ",
    [MB_ROLLOUT_WEIGHTS] = "rollout-w", [MB_KV_CACHE] = "kv", [MB_REF_WEIGHTS] = "ref-w",
    [MB_REWARD_WEIGHTS] = "reward-w", [MB_CRITIC] = "critic", [MB_RESHARD] = "reshard",
    [MB_HOST_OFFLOAD] = "host-off", [MB_HOST_MODELS] = "host-models",
    [MB_RUNTIME] = "runtime", [MB_TRAIN_CACHE] = "tr-cache"
};

/* A value past the tables (a span's byte is not checked) still gets a mark. */
char style_phase_letter(trace_phase p)
{
    return (unsigned)p < PH__COUNT && phase_letters[p] ? phase_letters[p] : '#';
}
char style_step_letter(trace_step_phase p)
{
    return (unsigned)p < STEP__COUNT && step_letters[p] ? step_letters[p] : '#';
}
int style_step(trace_step_phase p)
{
    if ((unsigned)p < STEP__COUNT && step_as_phase[p] >= 0) return style_phase((trace_phase)step_as_phase[p]);
    return ST_STEP0 + (int)p;
}

const char *style_phase_label(trace_phase p)
{
    return (unsigned)p < PH__COUNT && phase_labels[p] ? phase_labels[p] : trace_phase_name(p);
}

const char *style_step_label(trace_step_phase p)
{
    return (unsigned)p < STEP__COUNT && step_labels[p] ? step_labels[p] : trace_step_phase_name(p);
}

char style_bucket_letter(mem_bucket b)
{
    return (unsigned)b < MB__COUNT && bucket_letters[b] ? bucket_letters[b] : '#';
}
const char *style_bucket_short(mem_bucket b)
{
    return (unsigned)b < MB__COUNT && bucket_short[b] ? bucket_short[b] : trace_bucket_name(b);
}

/* One time format everywhere (axis, header, details, Stats, Compare):
** "0", "250ms", "2.7s", "12.5s", "3m20s", "1h05m". */
void style_fmt_time(char *out, size_t n, sim_time t)
{
    double s = sim_secs(t);
    if (t == 0) snprintf(out, n, "0");
    else if (s < 0) { char b[32]; style_fmt_time(b, sizeof b, -t); snprintf(out, n, "-%s", b); }
    else if (s < 1e-3) snprintf(out, n, "%.0fus", s * 1e6);
    else if (s < 1) snprintf(out, n, "%.0fms", s * 1e3);
    else if (s < 9.95) snprintf(out, n, "%.1fs", s);
    else if (s < 59.5) snprintf(out, n, "%.3gs", s);
    else if (s < 3600 - 0.5) {
        long all = (long)(s + 0.5), m = all / 60, r = all % 60;
        if (r) snprintf(out, n, "%ldm%02lds", m, r);
        else snprintf(out, n, "%ldm", m);
    } else {
        long all = (long)(s / 60 + 0.5), h = all / 60, m = all % 60;
        if (m) snprintf(out, n, "%ldh%02ldm", h, m);
        else snprintf(out, n, "%ldh", h);
    }
}

void style_fmt_secs(char *out, size_t n, double secs)
{
    style_fmt_time(out, n, sim_from_secs(secs < 0 ? 0 : secs));
}

/* Ticks at 1, 2 or 5 times a unit (ms, s, min, h) and its powers of ten,
** as long as they read as round in the format above. */
sim_time style_tick_step(sim_time span, int cols, int min_gap)
{
    static const double steps[] = {
        1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5,
        1, 2, 5, 10, 20,
        60, 120, 300, 600, 1200,
        3600, 7200, 18000, 36000, 72000, 180000, 360000
    };
    double raw = sim_secs(span) * min_gap / (cols > 0 ? cols : 1);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] >= raw) return sim_from_secs(steps[i]);
    double m = 360000;
    while (m < raw) m *= 10;
    return sim_from_secs(m);
}
