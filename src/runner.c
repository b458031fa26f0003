/*
** runner.c — the run object (runner.h).  The policy plugin is opened once
** per run: place() and the run hooks (docs/plugins.md) see the same Lua
** state.
*/
#include "runner.h"
#include "fields.h"
#include "lua_scenario.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct runner {
    scn_scenario scn;       /* as run */
    sim         *s;
    plugin      *p;         /* the policy, or NULL */
    bool         own_p;     /* opened here: closed by runner_free */
    policy_run  *hooks;
    char         overrides[512];    /* --set values place() replaced */
};

/* Which of the --set values place() changed: each leaf the options name,
** before and after (list items, devices and models are not compared), as
** "PATH=VALUE -> NOW; ..." in out[0..n). */
static void find_overrides(const runner_spec *spec, scn_scenario *before, const scn_scenario *after, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < spec->nsets; i++) {
        const char *eq = strchr(spec->sets[i], '=');
        if (!eq) continue;
        char path[256];
        snprintf(path, sizeof path, "%.*s", (int)(eq - spec->sets[i]), spec->sets[i]);
        const fdesc *f = NULL;
        void *a = fields_path_member(path, before, &f);
        const void *b = a ? (const char *)fields_cat(f, after) + ((char *)a - (char *)fields_at(f, before)) : NULL;
        if (!a || memcmp(a, b, f->size) == 0) continue;
        char now[64];
        if (f->kind == FK_STR) snprintf(now, sizeof now, "%s", (const char *)b);
        else if (f->kind == FK_ENUM) snprintf(now, sizeof now, "%s", fields_enum_name(f, (int)fields_get_num(f, (const char *)b - f->off)));
        else if (f->kind == FK_BOOL) snprintf(now, sizeof now, "%s", *(const bool *)b ? "true" : "false");
        else snprintf(now, sizeof now, "%g", fields_get_num(f, (const char *)b - f->off) / (f->scale > 0 ? f->scale : 1));
        int w = snprintf(out + len, n - len, "%s%s -> %s", len ? "; " : "", spec->sets[i], now);
        if (w < 0 || (size_t)w >= n - len) break;
        len += (size_t)w;
    }
}

/* The one loader: the file with its overrides, then the policy's place()
** unless spec->no_place.  The policy stays open in *keep when keep is not
** NULL (the run hooks share its Lua state), else it is closed. */
static bool load_placed(const runner_spec *spec, scn_scenario *scn, plugin **keep, char *ov, size_t n, fs_err *err)
{
    if (keep) *keep = NULL;
    if (ov && n) ov[0] = 0;
    if (!lscn_load(spec->path, spec->sets, spec->nsets, scn, err)) return false;
    const char *pol = spec->policy ? spec->policy : scn->plan.policy[0] ? scn->plan.policy : NULL;
    if (!pol || spec->no_place) return true;
    char full[512];
    policy_resolve_path(pol, scn, full, sizeof full);
    plugin *p = plugin_open(full, NULL, err);
    if (!p) return false;
    /* a scenario file: its policy chooses the plan */
    scn_scenario *before = xmalloc(sizeof *before);
    *before = *scn;
    bool placed = policy_place(p, scn, err);
    if (placed && ov && n) find_overrides(spec, before, scn, ov, n);
    free(before);
    if (placed) snprintf(scn->plan.policy, sizeof scn->plan.policy, "%s", full);
    if (placed && keep) *keep = p;
    else plugin_close(p);
    return placed;
}

bool runner_load(const runner_spec *spec, scn_scenario *out, char *overrides, size_t n, fs_err *err)
{
    return load_placed(spec, out, NULL, overrides, n, err);
}

runner *runner_open(const runner_spec *spec, fs_err *err)
{
    runner *r = xcalloc(1, sizeof *r);
    if (spec->scn) {
        r->scn = *spec->scn;
    } else if (spec->plugin) {
        /* the caller's policy: it chose the plan already */
        if (!lscn_load(spec->path, spec->sets, spec->nsets, &r->scn, err)) goto fail;
    } else {
        if (!load_placed(spec, &r->scn, &r->p, r->overrides, sizeof r->overrides, err)) goto fail;
        r->own_p = r->p != NULL;
    }
    if (spec->plugin) {
        r->p = spec->plugin;
    } else if (spec->scn && (spec->policy || r->scn.plan.policy[0])) {
        /* a scenario already placed: its policy for the run hooks only */
        char full[512];
        policy_resolve_path(spec->policy ? spec->policy : r->scn.plan.policy, &r->scn, full, sizeof full);
        if (!(r->p = plugin_open(full, NULL, err))) goto fail;
        r->own_p = true;
    }
    if (!(r->s = sim_new(&r->scn, err))) goto fail;
    if (spec->headless) trace_keep(sim_trace_mut(r->s), false);
    r->hooks = policy_hooks_install(r->s, r->p);
    return r;
fail:
    runner_free(r);
    return NULL;
}

bool runner_advance(runner *r, uint64_t budget)
{
    return sim_step_events(r->s, budget);
}

bool runner_advance_to(runner *r, sim_time until, uint64_t budget)
{
    uint64_t n = 0;
    while (!sim_done(r->s)) {
        sim_time nx = sim_next_event_time(r->s);
        if (nx < 0 || nx > until) {
            sim_advance(r->s, until);   /* nothing due: just move the clock */
            return true;
        }
        if (n >= budget) return false;
        /* one at a time, so we never run past `until` */
        sim_step_events(r->s, 1);
        n++;
    }
    return true;
}

bool runner_done(const runner *r) { return sim_done(r->s); }

bool runner_close(runner *r, report *rep, fs_err *err)
{
    sim_run(r->s);
    report_compute(r->s, rep);
    const fs_err *se = sim_error(r->s);
    if (se && se->code != 1) {
        *err = *se;
        return false;
    }
    return true;
}

void runner_free(runner *r)
{
    if (!r) return;
    sim_free(r->s);
    policy_hooks_free(r->hooks);
    if (r->own_p) plugin_close(r->p);
    free(r);
}

sim *runner_sim(runner *r) { return r->s; }
const sim *runner_sim_c(const runner *r) { return r->s; }
const scn_scenario *runner_scenario(const runner *r) { return &r->scn; }
plugin *runner_plugin(runner *r) { return r->p; }
const char *runner_overrides(const runner *r) { return r->overrides; }
