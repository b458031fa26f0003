/*
** pane_stats.c — the Stats pane: throughput (last step, cumulative, and the
** measured figure the report gives), the split of the training pool's time
** by step phase, utilization per pool, and the token account.  Figures are
** for the run so far, clipped to the clock.
*/
#include "pane.h"
#include "style.h"

#include "render.h"

#include <stdio.h>
#include <string.h>

static void stats_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    const tui_run *r = a->run;
    const scn_scenario *sc = &r->scn;
    const sim_stats *st = sim_get_stats(r->s);
    const plan *pl = sim_plan(r->s);
    sim_time now = run_now(r);
    int y = in.y, yend = in.y + in.h, W = in.w;
    char b1[48], b2[48], b3[48], b4[48];
    int skip = a->v.scroll[PANE_STATS], line = 0;
    bool invalid = render_alarm(a);
#define ROW() (line++ >= skip && y < yend)

    /* figures with their units, cut by whole segments (canvas.h) */
    double cur = run_current_throughput(r), cum = now > 0 ? st->tokens_trained / sim_secs(now) : 0;
    fmt_si(b3, sizeof b3, cur);
    fmt_si(b4, sizeof b4, cum);
    snprintf(b1, sizeof b1, "last step %s", r->nver == 0 ? "-" : b3);
    snprintf(b2, sizeof b2, "so far %s", st->tokens_trained <= 0 ? "-" : b4);
    if (ROW()) {
        /* as the report does: an infeasible run headlines no throughput */
        cv_seg bad[] = {{"INFEASIBLE:", CV_KEEP, ST_BAD}, {"no throughput", CV_KEEP, ST_BAD},
                        {"(the banner says why)", 4, ST_DIM}};
        cv_seg seg[] = {{"tok/s", CV_KEEP, ST_NORMAL}, {b1, 5, ST_NORMAL}, {b2, 4, ST_NORMAL}};
        if (invalid) cv_segs(cv, y++, in.x, W, 1, bad, 3);
        else cv_segs(cv, y++, in.x, W, 2, seg, 3);
    }
    if (ROW()) {
        int measured = st->iterations_done - sc->work.warmup;
        sim_time w1 = st->window_t1 > 0 ? st->window_t1 : now;
        double ws = sim_secs(w1 - st->window_t0);
        if (invalid) {
            cv_seg seg[] = {{"measured", CV_KEEP, ST_BAD}, {"invalid:", CV_KEEP, ST_BAD},
                            {st->overflow.happened || pl->fits ? "out of memory" : "does not fit", 5, ST_BAD}};
            cv_segs(cv, y++, in.x, W, 1, seg, 3);
        } else if (measured > 0 && ws > 0) {
            fmt_si(b3, sizeof b3, st->measured_tokens / ws);
            snprintf(b1, sizeof b1, "measured %s", b3);
            snprintf(b2, sizeof b2, "%.0f/dev", st->measured_tokens / ws / (pl->used_devices ? pl->used_devices : 1));
            snprintf(b4, sizeof b4, "(%d step%s)", measured, measured == 1 ? "" : "s");
            cv_seg seg[] = {{b1, CV_KEEP, ST_BOLD}, {b2, 5, ST_BOLD}, {b4, 4, ST_DIM}};
            cv_segs(cv, y++, in.x, W, 2, seg, 3);
        } else {
            snprintf(b1, sizeof b1, "measured after %d warm-up step%s", sc->work.warmup, sc->work.warmup == 1 ? "" : "s");
            cv_seg seg[] = {{b1, 5, ST_DIM}, {"measured later", 4, ST_DIM}};
            cv_segs(cv, y++, in.x, W, 2, seg, (int)strlen(b1) <= W ? 1 : 2);
        }
    }
    /* the finished run's interval, as the report gives it (src/uncert.c) */
    if (r->report_ready && r->rep.interval_source[0] && !invalid && ROW()) {
        fmt_si(b3, sizeof b3, r->rep.tput_lo);
        fmt_si(b4, sizeof b4, r->rep.tput_hi);
        snprintf(b1, sizeof b1, "interval %s-%s", b3, b4);
        snprintf(b2, sizeof b2, "(%s)", r->rep.interval_source);
        cv_seg seg[] = {{b1, CV_KEEP, ST_NORMAL}, {b2, 4, ST_DIM}};
        cv_segs(cv, y++, in.x, W, 1, seg, 2);
    }
    if (ROW()) {
        int cur_step = st->iterations_done + (run_over(r) ? 0 : 1);
        if (cur_step > sc->work.iterations) cur_step = sc->work.iterations;
        char t[24];
        style_fmt_time(t, sizeof t, now);
        snprintf(b1, sizeof b1, "step %d/%d", cur_step, sc->work.iterations);
        snprintf(b2, sizeof b2, "t=%s", t);
        snprintf(b3, sizeof b3, "%llu event%s", (unsigned long long)st->events, st->events == 1 ? "" : "s");
        cv_seg seg[] = {{"progress", 2, ST_NORMAL}, {b1, CV_KEEP, ST_NORMAL}, {b2, 6, ST_NORMAL}, {b3, 3, ST_DIM},
                        {run_over(r) ? "done" : NULL, 7, ST_BOLD}};
        cv_segs(cv, y++, in.x, W, 2, seg, 5);
    }

    double split[STEP__COUNT], tot = 0;
    run_step_split(r, split);
    for (int k = 0; k < STEP__COUNT; k++) tot += split[k];
    if (ROW()) cv_text(cv, y++, in.x, W, ST_BOLD, W >= 34 ? "Step split (training pool, so far)" : "Step split");
    for (int k = 0; k < STEP__COUNT; k++) {
        if (split[k] <= 0) continue;
        if (!ROW()) continue;
        double f = tot > 0 ? split[k] / tot : 0;
        style_fmt_secs(b1, sizeof b1, split[k]);
        trace_step_phase ph = (trace_step_phase)k;
        cv_put(cv, y, in.x, style_step_letter(ph), style_step(ph));
        int n = 1 + cv_printf(cv, y, in.x + 1, W - 1, ST_NORMAL, " %-11.11s %5.1f%% ", style_step_label(ph), 100 * f);
        int tw = (int)strlen(b1) + 1, bw = W - n - tw;
        if (bw > 30) bw = 30;
        if (bw >= 4) {
            pane_bar(cv, y, in.x + n, bw, f, style_step_letter(ph), style_step(ph));
            n += bw;
        }
        if (n + tw <= W) cv_printf(cv, y, in.x + n, W - n, ST_DIM, " %s", b1);
        y++;
    }
    /* busy and idle always; compute and roles when there is room */
    bool wide = W >= 40;
    if (ROW()) cv_text(cv, y++, in.x, W, ST_BOLD, wide ? "Pool         dev   busy   idle compute" : "Pool         dev   busy   idle");
    for (int p = 0; p < pl->npools; p++) {
        if (!ROW()) continue;
        double comp, busy;
        run_pool_shares(r, p, &comp, &busy);
        char roles[64];
        plan_roles_str(pl->pools[p].roles, roles, sizeof roles);
        int n = cv_printf(cv, y, in.x, W, ST_NORMAL, " %-10.10s %5d %5.1f%% %5.1f%%", pl->pools[p].name,
                          pl->pools[p].devices, 100 * busy, 100 * (1 - busy));
        if (wide) n += cv_printf(cv, y, in.x + n, W - n, ST_NORMAL, " %6.1f%%", 100 * comp);
        if (wide && n + 2 + (int)strlen(roles) <= W) cv_printf(cv, y, in.x + n, W - n, ST_DIM, "  %s", roles);
        y++;
    }
    fmt_si(b3, sizeof b3, st->tokens_generated);
    fmt_si(b4, sizeof b4, st->tokens_trained);
    snprintf(b1, sizeof b1, "generated %s", b3);
    snprintf(b2, sizeof b2, "trained %s", b4);
    if (ROW()) {
        cv_seg seg[] = {{"tokens", 2, ST_NORMAL}, {b1, CV_KEEP, ST_NORMAL}, {b2, CV_KEEP, ST_NORMAL}};
        cv_segs(cv, y++, in.x, W, 2, seg, 3);
    }
    if (ROW()) {
        fmt_si(b3, sizeof b3, st->tokens_wasted);
        fmt_si(b4, sizeof b4, st->tokens_in_flight);
        snprintf(b1, sizeof b1, "wasted %s", b3);
        snprintf(b2, sizeof b2, "in flight %s", b4);
        cv_seg seg[] = {{"      ", 1, ST_NORMAL}, {b1, CV_KEEP, st->tokens_wasted > 0 ? ST_BAD : ST_NORMAL},
                        {b2, CV_KEEP, ST_NORMAL}};
        cv_segs(cv, y++, in.x, W, 2, seg, 3);
    }
    if (ROW()) {
        snprintf(b1, sizeof b1, "%s s=%d", scn_mode_name(sc->plan.mode), sc->plan.staleness);
        snprintf(b2, sizeof b2, "partial %.2f", sc->plan.partial_rollout);
        snprintf(b3, sizeof b3, "TP%d %dSN", sc->plan.rollout.tp, sc->cluster.supernodes);
        snprintf(b4, sizeof b4, "%d step%s", sc->work.iterations, sc->work.iterations == 1 ? "" : "s");
        cv_seg seg[] = {{"plan", 2, ST_DIM}, {b1, CV_KEEP, ST_DIM}, {b2, 5, ST_DIM}, {b3, 4, ST_DIM}, {b4, 3, ST_DIM}};
        cv_segs(cv, y++, in.x, W, 2, seg, 5);
    }
#undef ROW
    a->ls.want[PANE_STATS] = line;
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
