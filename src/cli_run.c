/*
** cli_run.c — `fusync run` (simulate headless, print the report), `fusync
** check` (validate and show the plan without simulating) and `fusync
** presets` (the built-in devices and models).
*/
#include "cli.h"
#include "chrome.h"
#include "engine.h"
#include "plan.h"
#include "presets.h"
#include "report.h"
#include "runner.h"
#include "svg.h"
#include "uncert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void progress(const sim *s, double *last)
{
    double now = wall_now();
    if (now - *last < 0.1) return;
    *last = now;
    const sim_stats *st = sim_get_stats(s);
    fprintf(stderr, "\r  step %d/%d  simulated %.1f s  %llu events ",
            st->iterations_done, sim_scenario(s)->work.iterations, sim_secs(sim_now(s)),
            (unsigned long long)st->events);
}

int cmd_run(cli_opts *o)
{
    if (!o->scenario) return cli_usage_error("%s: missing SCENARIO", "run");
    fs_err err = {0, ""};
    /* the SVG reads the stored spans; the Chrome trace is streamed */
    runner_spec spec = {.path = o->scenario, .sets = o->sets, .nsets = o->nsets, .policy = o->policy,
                        .headless = !o->svg_path};
    runner *run = runner_open(&spec, &err);
    if (!run) return cli_fail(&err);
    if (*runner_overrides(run)) fprintf(stderr, "fusync: run: the policy's place() replaced --set %s\n", runner_overrides(run));
    sim *s = runner_sim(run);
    int rc = 0;
    chrome_writer *cw = NULL;
    report_steps *steps = NULL;
    if (o->trace_path && !(cw = chrome_open(s, o->trace_path, &err))) { rc = cli_fail(&err); goto out; }
    /* the per-step series watches the trace in front of the Chrome writer */
    if (o->json_path || o->steps_csv) steps = report_steps_attach(s, cw ? chrome_sink(cw) : NULL);
    bool show = !o->quiet && isatty(STDERR_FILENO);
    double last = wall_now();
    /* advance in slices so a long run shows progress and can be interrupted */
    while (!cli_interrupted) {
        if (!runner_advance(run, 20000)) break;
        if (show) progress(s, &last);
    }
    if (show) fprintf(stderr, "\r\033[K");
    if (cli_interrupted) {
        fprintf(stderr, "fusync: interrupted; no output written\n");
        rc = 130;
        goto out;
    }
    report r;
    if (!runner_close(run, &r, &err)) { rc = cli_fail(&err); goto out; }
    rc = r.feasible ? 0 : 1;
    if (steps) report_steps_finish(steps, s);
    /* the interval on the figures: re-simulated knob draws for a calibrated
    ** scenario, else the validation table's spread (src/uncert.c); the
    ** draws on --jobs workers */
    if (r.feasible && !unc_interval_jobs(runner_scenario(run), UNC_DRAWS, o->jobs, &r, &err)) { rc = cli_fail(&err); goto out; }
    if (cw) {
        bool ok = chrome_close(cw, &err);
        cw = NULL;
        if (!ok) rc = cli_fail(&err);
    }
    if (o->svg_path) {
        /* the whole run: the timeline, its legend and axis, the memory buckets */
        svg_run one = {s, NULL, r.feasible ? NULL : r.why};
        svg_view v = {0, 0, 0, 0};
        if (!svg_write(o->svg_path, &one, 1, &v, &err)) rc = cli_fail(&err);
    }
    bool json_stdout = o->json_path && strcmp(o->json_path, "-") == 0;
    if (o->json_path) {
        fs_buf b;
        buf_init(&b);
        report_json_steps(s, &r, steps, &b, true);
        if (!write_file_atomic(o->json_path, b.s, b.len, &err)) rc = cli_fail(&err);
        buf_free(&b);
    }
    if (o->steps_csv) {
        fs_buf b;
        buf_init(&b);
        report_steps_csv(steps, s, &b);
        if (!write_file_atomic(o->steps_csv, b.s, b.len, &err)) rc = cli_fail(&err);
        buf_free(&b);
    }
    if (!json_stdout && !(o->quiet && o->json_path)) {
        fs_buf b;
        buf_init(&b);
        bool color = !o->no_color && !getenv("NO_COLOR") && isatty(STDOUT_FILENO);
        report_text(s, &r, &b, color);
        fputs(b.s, stdout);   /* main() checks that stdout took it */
        buf_free(&b);
    }
    if (!r.feasible && !o->quiet) {
        char why[sizeof r.why * 2];
        fs_term_escape(why, sizeof why, r.why);
        fprintf(stderr, "fusync: the plan is infeasible: %s\n", why);
    }
out:
    chrome_abort(cw);
    runner_free(run);
    report_steps_free(steps);
    return rc;
}

/* ---------------------------------------------------------------- check */

int cmd_check(cli_opts *o)
{
    if (!o->scenario) return cli_usage_error("%s: missing SCENARIO", "check");
    scn_scenario sc;
    fs_err err = {0, ""};
    if (!cli_load_scenario(o, true, &sc, &err)) return cli_fail(&err);
    plan pl;
    if (!plan_build(&sc, &pl, &err)) return cli_fail(&err);
    fs_buf b;
    buf_init(&b);
    char t1[32], t2[32];
    fmt_si(t1, sizeof t1, sc.actor.params_total);
    fmt_si(t2, sizeof t2, sc.actor.params_active);
    /* pools of their own device type: each pool's count and type */
    char devs[512];
    size_t dl = (size_t)snprintf(devs, sizeof devs, "%d x %s", scn_total_devices(&sc.cluster), sc.cluster.device.name);
    bool own = false;
    for (int p = 0; p < pl.npools; p++) own |= pl.pools[p].own_device;
    if (own) {
        dl = 0;
        for (int p = 0; p < pl.npools && dl < sizeof devs; p++)
            dl += (size_t)snprintf(devs + dl, sizeof devs - dl, "%s%d x %s", p ? " + " : "", pl.pools[p].devices,
                                   plan_pool_device(&sc, &pl.pools[p])->name);
    }
    buf_printf(&b, "Scenario %s (%s): %s on %s, %s\n", sc.name, sc.path, sc.actor.name, devs,
               sc.work.algo == ALGO_PPO ? "PPO" : "GRPO");
    /* the KV bytes a token in the engine's KV dtype (docs/model.md, section 5, FP8 rollouts) */
    buf_printf(&b, "  actor %s parameters (%s active), KV %.0f bytes/token%s\n", t1, t2,
               mdl_kv_token_bytes(&sc.actor, &sc.plan.rollout), sc.plan.rollout.kv_dtype == DTYPE_FP8 ? " (FP8)" : "");
    buf_printf(&b, "  step: %d prompt%s x %d sample%s, %d mini-batch%s, %d epoch%s; %d iteration%s (%d warm-up)\n",
               sc.work.prompts_per_step, fs_s(sc.work.prompts_per_step), sc.work.samples_per_prompt,
               fs_s(sc.work.samples_per_prompt), sc.work.minibatches, sc.work.minibatches == 1 ? "" : "es",
               sc.work.epochs, fs_s(sc.work.epochs), sc.work.iterations, fs_s(sc.work.iterations), sc.work.warmup);
    buf_printf(&b, "  staleness %d", sc.plan.staleness);
    if (sc.plan.stale_share > 0) buf_printf(&b, " + share %.2f", sc.plan.stale_share);
    buf_printf(&b, ", partial rollout %.2f, on update %s\n", sc.plan.partial_rollout,
               sc.plan.on_update == ONUPD_RESTART ? "restart" : "continue");
    plan_describe(&sc, &pl, &b);
    if (o->json_path) {
        fs_buf j;
        buf_init(&j);
        fs_json js;
        json_init(&js, &j, true);
        json_obj_begin(&js, NULL);
        json_str(&js, "scenario", sc.name);
        json_str(&js, "fusync_version", FUSYNC_VERSION_STR);
        json_str(&js, "mode", scn_mode_name(pl.mode));
        json_bool(&js, "fits", pl.fits);
        if (!pl.fits) json_str(&js, "reason", pl.fit_msg);
        /* host memory a node over the pools on it (docs/model.md, section 8) */
        if (pl.host.node >= 0) {
            json_num(&js, "host_peak_node_bytes", pl.host.bytes);
            json_int(&js, "host_peak_node", pl.host.node);
        }
        json_arr_begin(&js, "pools");
        for (int i = 0; i < pl.npools; i++) {
            const plan_pool *q = &pl.pools[i];
            char rb[64];
            json_obj_begin(&js, NULL);
            json_str(&js, "name", q->name);
            json_int(&js, "devices", q->devices);
            json_str(&js, "roles", plan_roles_str(q->roles, rb, sizeof rb));
            json_obj_begin(&js, "train_memory_bytes");
            for (int k = 0; k < MB__COUNT; k++) if (q->train_mem[k] > 0) json_num(&js, trace_bucket_name((mem_bucket)k), q->train_mem[k]);
            json_obj_end(&js);
            json_obj_begin(&js, "rollout_memory_bytes");
            for (int k = 0; k < MB__COUNT; k++) if (q->rollout_mem[k] > 0) json_num(&js, trace_bucket_name((mem_bucket)k), q->rollout_mem[k]);
            json_obj_end(&js);
            /* of the runtime bucket: what an inference engine keeps asleep or awake (mdl_engine_kept) */
            if (q->engine_kept > 0) json_num(&js, "engine_kept_bytes", q->engine_kept);
            /* the trainer's cache beside a woken engine (docs/model.md, section 8) */
            if (q->wake_cache > 0) {
                json_num(&js, "wake_cache_bytes", q->wake_cache);
                json_num(&js, "wake_total_bytes", q->wake_total + q->outside);
            }
            /* of the kv_cache reservation: what vLLM's profile run sets aside and
            ** what its KV cache gets (docs/model.md, section 3) */
            if (q->roles & ROLE_ROLLOUT) {
                json_num(&js, "engine_profile_bytes", q->engine_profile);
                json_num(&js, "kv_cache_bytes", q->kv_bytes);
                json_num(&js, "kv_tokens_per_instance", q->kv_tokens_per_instance);
            }
            json_obj_end(&js);
        }
        json_arr_end(&js);
        /* what made it, as every JSON fusync writes carries it (docs/cli.md) */
        report_scenario_json(&sc, &js, "scenario_fields");
        json_obj_end(&js);
        buf_putc(&j, '\n');
        if (!write_file_atomic(o->json_path, j.s, j.len, &err)) { buf_free(&j); buf_free(&b); return cli_fail(&err); }
        buf_free(&j);
    }
    if (!(o->json_path && strcmp(o->json_path, "-") == 0)) {
        fs_buf tb;      /* names from the scenario: terminal-safe */
        buf_init(&tb);
        buf_put_term(&tb, b.s);
        fputs(tb.s, stdout);
        buf_free(&tb);
    }
    buf_free(&b);
    return pl.fits ? 0 : 1;
}

/* -------------------------------------------------------------- presets */

int cmd_presets(cli_opts *o)
{
    (void)o;    /* a handler of the command table: presets takes no option of its own */
    printf("Devices (fusync.devices.KEY)\n");
    printf("  %-12s %-26s %8s %7s %7s %8s %8s %9s %9s %7s\n", "key", "name", "TFLOP/s", "FP8", "HBM", "CUDA",
           "HBM TB/s", "scale-up", "scale-out", "host");
    for (int i = 0; i < presets_device_count(); i++) {
        const scn_device *d = presets_device(i);
        char f8[16], cu[16];
        if (d->fp8_flops > 0) snprintf(f8, sizeof f8, "%.0f", d->fp8_flops / 1e12);
        else snprintf(f8, sizeof f8, "-");
        if (d->cuda_total_bytes > 0) snprintf(cu, sizeof cu, "%.2fG", scn_device_cuda_total(d) / (1024.0 * 1024 * 1024));
        else snprintf(cu, sizeof cu, "-");
        printf("  %-12s %-26s %8.0f %7s %5.0fG %8s %8.2f %7.0fG %8.0fG %6.0fG\n", presets_device_key(i), d->name,
               d->peak_flops / 1e12, f8, d->hbm_bytes / (1024.0 * 1024 * 1024), cu, d->hbm_bw / 1e12,
               d->scaleup_bw / 1e9, d->scaleout_bw / 1e9, d->host_bw / 1e9);
    }
    printf("  (dense BF16 and FP8 TFLOP/s, FP8 \"-\": no FP8 tensor cores; HBM in GiB and, CUDA, the capacity\n"
           "   CUDA reports where it is published, \"-\": the HBM figure is used; bandwidths in GB/s one way\n"
           "   per device)\n\nModels (fusync.models.KEY)\n");
    printf("  %-22s %-22s %6s %6s %9s %9s %10s\n", "key", "name", "layers", "hidden", "total", "active", "KV B/token");
    for (int i = 0; i < presets_model_count(); i++) {
        scn_model m = *presets_model(i);
        scn_model_derive(&m);
        char a[32], b[32];
        fmt_si(a, sizeof a, m.params_total);
        fmt_si(b, sizeof b, m.params_active);
        printf("  %-22s %-22s %6d %6d %9s %9s %10.0f\n", presets_model_key(i), m.name, m.layers, m.hidden, a, b,
               m.kv_bytes_per_token);
    }
    printf("\nDistributions: fusync.dist.fixed(n), .uniform(lo, hi), .lognormal{median=, sigma=, cap=},\n"
           "               .histogram{edges={...}, weights={...}}\n");
    return 0;
}

