/*
** main.c — fusync's command line: parse GNU-style options, dispatch to the
** subcommand, turn errors into messages and exit statuses.
*/
#include "cli.h"
#include "chrome.h"
#include "engine.h"
#include "lua_scenario.h"
#include "plan.h"
#include "presets.h"
#include "report.h"
#include "rtable.h"
#include "runner.h"
#include "svg.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usage_text =
    "Usage: fusync COMMAND [ARGS] [OPTIONS]\n"
    "Simulate, show and plan RL post-training of LLMs on accelerator clusters.\n"
    "\n"
    "Commands:\n"
    "  run   SCENARIO             simulate headless, print the report\n"
    "  tui   SCENARIO             interactive terminal front end\n"
    "  check SCENARIO             validate, show the plan and its memory fit\n"
    "  sweep SCENARIO WHATIF.lua  run a what-if sweep, one row per variant\n"
    "  plan  SCENARIO             search placements and layouts, rank them\n"
    "  merge FILE...              join the outputs of sharded sweeps or plans\n"
    "  presets                    list built-in devices and models\n"
    "  model CONFIG.json          what fusync derives from a Hugging Face config.json\n"
    "  calibrate SCENARIO MEASURED.csv|.jsonl  fit efficiency knobs to measured step times\n"
    "  fields [TABLE] [--markdown]  every scenario field: type, unit, range, default\n"
    "  help [COMMAND]             a command's own options ('fusync COMMAND --help' too)\n"
    "\n"
    "Options:\n"
    "  --mode separate|colocate|full   deployment mode (plan.mode)\n"
    "  --staleness N                   staleness bound (plan.staleness)\n"
    "  --policy FILE.lua               placement policy plugin\n"
    "  --set PATH=VALUE                override a scenario field (repeatable)\n"
    "  --iterations N  --seed N        workload.iterations, workload.seed\n"
    "  --json FILE|-   --csv FILE|-    machine-readable output ('-' is stdout)\n"
    "  --trace FILE                    Chrome trace-event file (Perfetto)\n"
    "  --svg FILE                      the run's timeline and memory as an SVG picture (run)\n"
    "  --lesson FILE                   a guided lesson in the TUI (tui; lessons/*.lua)\n"
    "  --out DIR                       where the TUI exports (default: beside the scenario)\n"
    "  --jobs N  --shard I/N           parallel workers; run share I of N (sweep, plan)\n"
    "  --objective throughput|tokens-per-device|devices  --target TOKENS_PER_S  --top K (plan)\n"
    "  --fit KNOB,KNOB...  --map FILE  --out CALIBRATED.lua   knobs to fit, column mapping,\n"
    "                                  the calibrated scenario to write (calibrate)\n"
    "  --no-color  --ascii  --no-mouse  --quiet  --help  --version\n"
    "\n"
    "Exit status: 0 success, 1 infeasible plan, 2 bad input, usage, or an output that cannot be written.\n"
    "Exit status 130: interrupted (Ctrl-C, SIGTERM); nothing half-written is left.\n"
    "Documentation: 'fusync help COMMAND', man fusync, docs/ (cli.md, model.md,\n"
    "calibration.md, scenarios.md, tui.md, lessons.md, plugins.md, cluster.md).\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "fusync: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'fusync --help' for more information.\n");
    return 2;
}

static bool add_set(cli_opts *o, const char *path, const char *value)
{
    if (o->nsets >= CLI_SETS_MAX) return false;
    if (value) {
        char *dst = o->owned[o->nsets];
        snprintf(dst, sizeof o->owned[0], "%s=%s", path, value);
        o->sets[o->nsets++] = dst;
    } else {
        o->sets[o->nsets++] = path;
    }
    return true;
}

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* ------------------------------------------------------------------ run */

static void progress(const sim *s, double t_last_print, double *last)
{
    double now = wall_now();
    if (now - *last < 0.1) return;
    *last = now;
    const sim_stats *st = sim_get_stats(s);
    fprintf(stderr, "\r  step %d/%d  simulated %.1f s  %llu events ",
            st->iterations_done, sim_scenario(s)->work.iterations, sim_secs(sim_now(s)),
            (unsigned long long)st->events);
    (void)t_last_print;
}

int cmd_run(cli_opts *o)
{
    if (!o->scenario) return usage_error("%s: missing SCENARIO", "run");
    if (o->csv_path) return usage_error("%s: --csv applies to sweep and plan; use --json", "run");
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
    if (o->trace_path && !(cw = chrome_open(s, o->trace_path, &err))) { rc = cli_fail(&err); goto out; }
    bool show = !o->quiet && isatty(STDERR_FILENO);
    double last = wall_now();
    /* advance in slices so a long run shows progress and can be interrupted */
    while (!cli_interrupted) {
        if (!runner_advance(run, 20000)) break;
        if (show) progress(s, 0, &last);
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
        report_json(s, &r, &b, true);
        if (!write_file_atomic(o->json_path, b.s, b.len, &err)) rc = cli_fail(&err);
        buf_free(&b);
    }
    if (!json_stdout && !(o->quiet && o->json_path)) {
        fs_buf b;
        buf_init(&b);
        bool color = !o->no_color && !getenv("NO_COLOR") && isatty(STDOUT_FILENO);
        report_text(s, &r, &b, color);
        fputs(b.s, stdout);
        buf_free(&b);
        if (fflush(stdout) != 0) { fprintf(stderr, "fusync: writing the report to stdout failed\n"); rc = 2; }
    }
    if (!r.feasible && !o->quiet) {
        char why[sizeof r.why * 2];
        fs_term_escape(why, sizeof why, r.why);
        fprintf(stderr, "fusync: the plan is infeasible: %s\n", why);
    }
out:
    chrome_abort(cw);
    runner_free(run);
    return rc;
}

/* ---------------------------------------------------------------- check */

int cmd_check(cli_opts *o)
{
    if (!o->scenario) return usage_error("%s: missing SCENARIO", "check");
    if (o->csv_path) return usage_error("%s: --csv applies to sweep and plan; use --json", "check");
    scn_scenario sc;
    fs_err err = {0, ""};
    if (!cli_load_scenario(o, &sc, &err)) return cli_fail(&err);
    plan pl;
    if (!plan_build(&sc, &pl, &err)) return cli_fail(&err);
    fs_buf b;
    buf_init(&b);
    char t1[32], t2[32];
    fmt_si(t1, sizeof t1, sc.actor.params_total);
    fmt_si(t2, sizeof t2, sc.actor.params_active);
    buf_printf(&b, "Scenario %s (%s): %s on %d x %s, %s\n", sc.name, sc.path, sc.actor.name,
               scn_total_devices(&sc.cluster), sc.cluster.device.name, sc.work.algo == ALGO_PPO ? "PPO" : "GRPO");
    buf_printf(&b, "  actor %s parameters (%s active), KV %.0f bytes/token\n", t1, t2, sc.actor.kv_bytes_per_token);
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
        json_str(&js, "mode", scn_mode_name(pl.mode));
        json_bool(&js, "fits", pl.fits);
        if (!pl.fits) json_str(&js, "reason", pl.fit_msg);
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
            json_obj_end(&js);
        }
        json_arr_end(&js);
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
    if (o->scenario) return usage_error("presets: unexpected argument '%s'", o->scenario);
    printf("Devices (fusync.devices.KEY)\n");
    printf("  %-12s %-26s %8s %7s %8s %9s %9s %7s\n", "key", "name", "TFLOP/s", "HBM", "HBM TB/s", "scale-up", "scale-out", "host");
    for (int i = 0; i < presets_device_count(); i++) {
        const scn_device *d = presets_device(i);
        printf("  %-12s %-26s %8.0f %5.0fG %8.2f %7.0fG %8.0fG %6.0fG\n", presets_device_key(i), d->name,
               d->peak_flops / 1e12, d->hbm_bytes / (1024.0 * 1024 * 1024), d->hbm_bw / 1e12,
               d->scaleup_bw / 1e9, d->scaleout_bw / 1e9, d->host_bw / 1e9);
    }
    printf("  (bandwidths in GB/s one way per device; HBM in GiB)\n\nModels (fusync.models.KEY)\n");
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

/* ---------------------------------------------------------- arguments */

typedef struct { const char *name; bool arg; } optdef;

static const optdef opts[] = {
    {"mode", true}, {"staleness", true}, {"policy", true}, {"set", true}, {"iterations", true},
    {"seed", true}, {"json", true}, {"trace", true}, {"svg", true}, {"lesson", true}, {"csv", true}, {"out", true},
    {"jobs", true}, {"shard", true}, {"objective", true}, {"target", true}, {"top", true}, {"fit", true},
    {"map", true},
    {"no-color", false}, {"quiet", false}, {"ascii", false}, {"no-mouse", false}, {"markdown", false},
    {"help", false}, {"version", false}, {NULL, false}
};

static int apply_opt(cli_opts *o, const char *name, const char *val)
{
    long n;
    if (val && !*val) return usage_error("--%s: the value is empty", name);
    if (!strcmp(name, "mode")) {
        scn_mode m;
        if (!scn_mode_parse(val, &m)) return usage_error("--mode: '%s' is not one of separate, colocate, full", val);
        add_set(o, "plan.mode", val);
    } else if (!strcmp(name, "staleness")) {
        if (!parse_int(val, 0, SCN_STALENESS_MAX, &n)) return usage_error("--staleness: '%s' is not a whole number in 0..64", val);
        add_set(o, "plan.staleness", val);
    } else if (!strcmp(name, "iterations")) {
        if (!parse_int(val, 1, 100000, &n)) return usage_error("--iterations: '%s' is not a whole number in 1..100000", val);
        add_set(o, "workload.iterations", val);
    } else if (!strcmp(name, "seed")) {
        if (!parse_int(val, 0, 2147483647L, &n)) return usage_error("--seed: '%s' is not a whole number >= 0", val);
        add_set(o, "workload.seed", val);
    } else if (!strcmp(name, "set")) {
        if (!strchr(val, '=') || val[0] == '=') return usage_error("--set: '%s' is not PATH=VALUE", val);
        if (!add_set(o, val, NULL)) return usage_error("--set: too many overrides (%s)", "max 256");
    } else if (!strcmp(name, "policy")) o->policy = val;
    else if (!strcmp(name, "json")) o->json_path = val;
    else if (!strcmp(name, "trace")) o->trace_path = val;
    else if (!strcmp(name, "svg")) o->svg_path = val;
    else if (!strcmp(name, "lesson")) o->lesson_path = val;
    else if (!strcmp(name, "csv")) o->csv_path = val;
    else if (!strcmp(name, "fit")) o->fit = val;
    else if (!strcmp(name, "map")) o->map_path = val;
    else if (!strcmp(name, "out")) o->out_dir = val;
    else if (!strcmp(name, "objective")) {
        if (strcmp(val, "throughput") && strcmp(val, "tokens-per-device") && strcmp(val, "devices"))
            return usage_error("--objective: '%s' is not one of throughput, tokens-per-device, devices", val);
        o->objective = val;
    } else if (!strcmp(name, "target")) {
        char *end;
        o->target = strtod(val, &end);
        if (end == val || *end || !(o->target > 0 && o->target < 1e30)) return usage_error("--target: '%s' is not a positive number of tokens/s", val);
    } else if (!strcmp(name, "top")) {
        if (!parse_int(val, 1, 10000, &n)) return usage_error("--top: '%s' is not a whole number in 1..10000", val);
        o->top = (int)n;
    } else if (!strcmp(name, "jobs")) {
        if (!parse_int(val, 1, 1024, &n)) return usage_error("--jobs: '%s' is not a whole number in 1..1024", val);
        o->jobs = (int)n;
    } else if (!strcmp(name, "shard")) {
        /* whole numbers read as such: "1/99999999999" must not wrap */
        const char *slash = strchr(val, '/');
        char first[32];
        long i, k;
        if (!slash || (size_t)(slash - val) >= sizeof first)
            return usage_error("--shard: '%s' is not I/N with 1 <= I <= N", val);
        snprintf(first, sizeof first, "%.*s", (int)(slash - val), val);
        if (!parse_int(first, 1, LONG_MAX, &i) || !parse_int(slash + 1, 1, LONG_MAX, &k) || i > k)
            return usage_error("--shard: '%s' is not I/N with 1 <= I <= N", val);
        if (k > RTABLE_SHARDS_MAX) {
            fprintf(stderr, "fusync: --shard: '%s': at most %d shards; use fewer shards, each with more work\n"
                    "Try 'fusync --help' for more information.\n", val, RTABLE_SHARDS_MAX);
            return 2;
        }
        o->shard_i = (int)i;
        o->shard_n = (int)k;
    } else if (!strcmp(name, "no-color")) o->no_color = true;
    else if (!strcmp(name, "quiet")) o->quiet = true;
    else if (!strcmp(name, "ascii")) o->ascii = true;
    else if (!strcmp(name, "no-mouse")) o->no_mouse = true;
    else if (!strcmp(name, "markdown")) o->markdown = true;
    return 0;
}

static int parse_args(int argc, char **argv, cli_opts *o, bool *help, bool *version)
{
    static char *pos[4096];
    int npos = 0;
    bool only_pos = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == 0) {
            if (npos < 4096) pos[npos++] = a;
            continue;
        }
        if (!strcmp(a, "--")) { only_pos = true; continue; }
        if (!strcmp(a, "-h")) { *help = true; continue; }
        if (!strcmp(a, "-V")) { *version = true; continue; }
        if (a[1] != '-') return usage_error("unknown option '%s'", a);
        char name[64];
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        if (len >= sizeof name) return usage_error("unknown option '%s'", a);
        memcpy(name, a + 2, len);
        name[len] = 0;
        const optdef *d = NULL;
        for (const optdef *k = opts; k->name; k++) if (!strcmp(k->name, name)) d = k;
        if (!d) {
            const char *best = NULL;
            int bd = 3;
            for (const optdef *k = opts; k->name; k++) {
                int dd = str_distance(name, k->name);
                if (dd < bd) { bd = dd; best = k->name; }
            }
            fprintf(stderr, "fusync: unknown option '--%s'%s%s%s\n", name, best ? "; did you mean '--" : "",
                    best ? best : "", best ? "'?" : "");
            fprintf(stderr, "Try 'fusync --help' for more information.\n");
            return 2;
        }
        if (!strcmp(name, "help")) { *help = true; continue; }
        if (!strcmp(name, "version")) { *version = true; continue; }
        const char *val = NULL;
        if (d->arg) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return usage_error("option '--%s' needs a value", name);
        } else if (eq) {
            return usage_error("option '--%s' takes no value", name);
        }
        int rc = apply_opt(o, name, val);
        if (rc) return rc;
    }
    if (npos > 0) o->cmd = pos[0];
    if (npos > 1) o->scenario = pos[1];
    if (npos > 2) o->whatif = pos[2];
    o->files = npos > 1 ? pos + 1 : NULL;
    o->nfiles = npos > 1 ? npos - 1 : 0;
    if (o->cmd && !strcmp(o->cmd, "help") && npos > 2)
        return usage_error("help: unexpected argument '%s'; try 'fusync help COMMAND'", pos[2]);
    if (o->cmd && strcmp(o->cmd, "merge") && strcmp(o->cmd, "sweep") && strcmp(o->cmd, "calibrate") && npos > 2)
        return usage_error("unexpected argument '%s'", pos[2]);
    if (o->cmd && (!strcmp(o->cmd, "sweep") || !strcmp(o->cmd, "calibrate")) && npos > 3)
        return usage_error("unexpected argument '%s'", pos[3]);
    return 0;
}

int main(int argc, char **argv)
{
    cli_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = 1;
    o.top = 10;
    bool help = false, version = false;
    if (argc > 1 && !strcmp(argv[1], "import")) { extern int cli_import_main(int, char **); return cli_import_main(argc - 2, argv + 2); }
    if (argc > 1 && !strcmp(argv[1], "export")) { extern int cli_export_main(int, char **); return cli_export_main(argc - 2, argv + 2); }
    int rc = parse_args(argc, argv, &o, &help, &version);
    if (rc) return rc;
    if (version) { printf("fusync %s\n", FUSYNC_VERSION_STR); return 0; }
    /* fusync help [CMD], fusync CMD --help: that command's own options */
    if (o.cmd && !strcmp(o.cmd, "help")) {
        if (!o.scenario) { fputs(usage_text, stdout); return 0; }
        return cli_help_command(o.scenario, stdout);
    }
    if (help && o.cmd && cli_help_known(o.cmd)) return cli_help_command(o.cmd, stdout);
    if (help || !o.cmd) {
        fputs(usage_text, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    fs_signals_install();
    if (!strcmp(o.cmd, "run")) return cmd_run(&o);
    if (!strcmp(o.cmd, "check")) return cmd_check(&o);
    if (!strcmp(o.cmd, "presets")) return cmd_presets(&o);
    if (!strcmp(o.cmd, "tui")) return cmd_tui(&o);
    if (!strcmp(o.cmd, "sweep")) return cmd_sweep(&o);
    if (!strcmp(o.cmd, "plan")) return cmd_plan(&o);
    if (!strcmp(o.cmd, "merge")) return cmd_merge(&o);
    if (!strcmp(o.cmd, "fields")) return cmd_fields(&o);
    if (!strcmp(o.cmd, "model")) return cmd_model(&o);
    if (!strcmp(o.cmd, "calibrate")) return cmd_calibrate(&o);
    const char *cmds[] = {"run", "tui", "check", "sweep", "plan", "merge", "presets", "fields", "model", "calibrate",
                          "help"};
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < 11; i++) {
        int d = str_distance(o.cmd, cmds[i]);
        if (d < bd) { bd = d; best = cmds[i]; }
    }
    fprintf(stderr, "fusync: unknown command '%s'%s%s%s\nTry 'fusync --help' for more information.\n", o.cmd,
            best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    return 2;
}
