/*
** pane_stats.c — the Stats pane: throughput (last step, cumulative, and the
** measured figure the report gives), the split of the training pool's time
** by step phase, utilization per pool, and the token account.  Figures are
** for the run so far, clipped to the clock.
*/
#include "pane.h"
#include "style.h"

#include <stdio.h>

static void stats_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    const tui_run *r = a->run;
    const scn_scenario *sc = &r->scn;
    const sim_stats *st = sim_get_stats(r->s);
    const plan *pl = sim_plan(r->s);
    sim_time now = run_now(r);
    int y = in.y, yend = in.y + in.h, W = in.w;
    char b1[32], b2[32], b3[32];
    int skip = a->v.scroll[PANE_STATS], line = 0;
#define ROW() (line++ >= skip && y < yend)

    double cur = run_current_throughput(r), cum = now > 0 ? st->tokens_trained / sim_secs(now) : 0;
    fmt_si(b1, sizeof b1, cur);
    fmt_si(b2, sizeof b2, cum);
    if (r->nver == 0) snprintf(b1, sizeof b1, "-");
    if (st->tokens_trained <= 0) snprintf(b2, sizeof b2, "-");
    if (ROW()) cv_printf(cv, y++, in.x, W, ST_NORMAL, "tok/s     last step %s  so far %s", b1, b2);
    if (ROW()) {
        int measured = st->iterations_done - sc->work.warmup;
        sim_time w1 = st->window_t1 > 0 ? st->window_t1 : now;
        double ws = sim_secs(w1 - st->window_t0);
        if (measured > 0 && ws > 0) {
            fmt_si(b1, sizeof b1, st->measured_tokens / ws);
            cv_printf(cv, y++, in.x, W, ST_BOLD, "          measured %s (%.0f/dev, %d steps)", b1,
                      st->measured_tokens / ws / (pl->used_devices ? pl->used_devices : 1), measured);
        } else {
            cv_printf(cv, y++, in.x, W, ST_DIM, "          measured after %d warm-up step%s", sc->work.warmup,
                      sc->work.warmup == 1 ? "" : "s");
        }
    }
    style_fmt_time(b1, sizeof b1, now);
    if (ROW()) cv_printf(cv, y++, in.x, W, ST_NORMAL, "progress  step %d/%d  t=%s  %llu events%s", st->iterations_done,
                         sc->work.iterations, b1, (unsigned long long)st->events, run_over(r) ? "  done" : "");

    double split[STEP__COUNT], tot = 0;
    run_step_split(r, split);
    for (int k = 0; k < STEP__COUNT; k++) tot += split[k];
    if (ROW()) cv_text(cv, y++, in.x, W, ST_BOLD, "Step split (training pool, so far)");
    for (int k = 0; k < STEP__COUNT; k++) {
        if (split[k] <= 0) continue;
        if (!ROW()) continue;
        double f = tot > 0 ? split[k] / tot : 0;
        fmt_secs(b1, sizeof b1, split[k]);
        int n = cv_printf(cv, y, in.x, W, ST_NORMAL, " %-11s %5.1f%% ", trace_step_phase_name((trace_step_phase)k), 100 * f);
        int bw = W - n - 10;
        if (bw > 30) bw = 30;
        pane_bar(cv, y, in.x + n, bw, f, style_step_letter((trace_step_phase)k), style_step((trace_step_phase)k));
        if (bw > 0) cv_printf(cv, y, in.x + n + bw + 1, W - n - bw - 1, ST_DIM, "%s", b1);
        y++;
    }
    if (ROW()) cv_text(cv, y++, in.x, W, ST_BOLD, "Pool        devices compute  busy  roles");
    for (int p = 0; p < pl->npools; p++) {
        if (!ROW()) continue;
        double comp, busy;
        run_pool_shares(r, p, &comp, &busy);
        char roles[64];
        plan_roles_str(pl->pools[p].roles, roles, sizeof roles);
        cv_printf(cv, y++, in.x, W, ST_NORMAL, " %-10.10s %7d %6.1f%% %5.1f%%  %s", pl->pools[p].name,
                  pl->pools[p].devices, 100 * comp, 100 * busy, roles);
    }
    fmt_si(b1, sizeof b1, st->tokens_generated);
    fmt_si(b2, sizeof b2, st->tokens_trained);
    fmt_si(b3, sizeof b3, st->tokens_wasted);
    if (ROW()) cv_printf(cv, y++, in.x, W, ST_NORMAL, "tokens    generated %s  trained %s", b1, b2);
    if (ROW()) {
        fmt_si(b1, sizeof b1, st->tokens_in_flight);
        cv_printf(cv, y++, in.x, W, st->tokens_wasted > 0 ? ST_BAD : ST_NORMAL, "          wasted %s  in flight %s", b3, b1);
    }
    if (ROW()) cv_printf(cv, y++, in.x, W, ST_DIM, "plan      %s s=%d partial %.2f TP%d %dSN %d it",
                         scn_mode_name(sc->plan.mode), sc->plan.staleness, sc->plan.partial_rollout, sc->plan.rollout.tp,
                         sc->cluster.supernodes, sc->work.iterations);
#undef ROW
    if (skip > 0 && line - skip < in.h) a->v.scroll[PANE_STATS] = line - in.h > 0 ? line - in.h : 0;
}

static int stats_request(tui_app *a, tui_req req, tui_rect in)
{
    int *s = &a->v.scroll[PANE_STATS];
    switch (req) {
    case REQ_UP: case REQ_PGUP:
        if (*s == 0) return RE_HANDLED;
        *s = req == REQ_UP ? *s - 1 : *s - 5;
        if (*s < 0) *s = 0;
        return RE_REDRAW;
    case REQ_DOWN: case REQ_PGDN: *s += req == REQ_DOWN ? 1 : 5; return RE_REDRAW;
    default: (void)in; return RE_NONE;
    }
}

const pane_ops pane_stats = {"Stats", NULL, stats_draw, stats_request, NULL};
