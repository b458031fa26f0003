/*
** cli_table.c — the command line's two tables: every command (name,
** handler, arity, synopsis, what it does, the options it takes, an example)
** and every option (name, short name, argument, help, how it is stored).
** The parser (src/main.c), the help, docs/cli.md's and docs/fusync.1's lists
** (`make docs`) and the bash completion (src/cli_help.c) all read these and
** nothing else; adding a command is one row here and its handler (cli.h).
*/
#include "cli.h"
#include "fwnames.h"
#include "presets.h"
#include "lua_scenario.h"
#include "rtable.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ options */

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

static int opt_mode(cli_opts *o, const char *v)
{
    scn_mode m;
    if (!scn_mode_parse(v, &m)) return cli_usage_error("--mode: '%s' is not one of separate, colocate, full", v);
    o->mode_arg = v;
    o->mode_set = o->nsets + 1;
    return add_set(o, "plan.mode", v) ? 0 : cli_usage_error("--mode: too many overrides (%s)", "max 256");
}

static int opt_staleness(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 0, SCN_STALENESS_MAX, &n)) return cli_usage_error("--staleness: '%s' is not a whole number in 0..64", v);
    o->staleness_arg = (int)n;
    o->staleness_set = o->nsets + 1;
    return add_set(o, "plan.staleness", v) ? 0 : cli_usage_error("--staleness: too many overrides (%s)", "max 256");
}

static int opt_iterations(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 100000, &n)) return cli_usage_error("--iterations: '%s' is not a whole number in 1..100000", v);
    return add_set(o, "workload.iterations", v) ? 0 : cli_usage_error("--iterations: too many overrides (%s)", "max 256");
}

static int opt_seed(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 0, 2147483647L, &n)) return cli_usage_error("--seed: '%s' is not a whole number >= 0", v);
    return add_set(o, "workload.seed", v) ? 0 : cli_usage_error("--seed: too many overrides (%s)", "max 256");
}

static int opt_set(cli_opts *o, const char *v)
{
    if (!strchr(v, '=') || v[0] == '=') return cli_usage_error("--set: '%s' is not PATH=VALUE", v);
    return add_set(o, v, NULL) ? 0 : cli_usage_error("--set: too many overrides (%s)", "max 256");
}

/* plan: a field held; checked against the searched axes by the planner */
static int opt_fix(cli_opts *o, const char *v)
{
    if (!strchr(v, '=') || v[0] == '=') return cli_usage_error("--fix: '%s' is not PATH=VALUE", v);
    if (o->nfixes >= CLI_SETS_MAX) return cli_usage_error("--fix: too many (%s)", "max 256");
    o->fixes[o->nfixes++] = v;
    return 0;
}

static int opt_partial_rollout(cli_opts *o, const char *v)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d > 0 && d <= 1))
        return cli_usage_error("--partial-rollout: '%s' is not a threshold in (0, 1]", v);
    o->partial_min = d;
    return 0;
}

static int opt_max_lag(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 0, SCN_STALENESS_MAX, &n)) return cli_usage_error("--max-lag: '%s' is not a whole number in 0..64", v);
    o->max_lag = (double)n;
    o->has_max_lag = true;
    return 0;
}

static int opt_policy(cli_opts *o, const char *v) { o->policy = v; return 0; }
static int opt_json(cli_opts *o, const char *v) { o->json_path = v; return 0; }
static int opt_csv(cli_opts *o, const char *v) { o->csv_path = v; return 0; }
static int opt_trace(cli_opts *o, const char *v) { o->trace_path = v; return 0; }
static int opt_steps_csv(cli_opts *o, const char *v) { o->steps_csv = v; return 0; }
static int opt_names(cli_opts *o, const char *v)
{
    /* process-wide: every report writer of this run, and the forked
    ** workers of a sweep or plan, read it */
    o->names = v;
    fwn_active = fwn_parse(v);
    if (fwn_active >= 0) return 0;
    fprintf(stderr, "fusync: --names %s: use verl, openrlhf or nemo-rl\n", v);
    return 2;
}
static int opt_framework(cli_opts *o, const char *v)
{
    if (!strcmp(v, "verl") || !strcmp(v, "openrlhf") || !strcmp(v, "nemo-rl")) { o->framework = v; return 0; }
    fprintf(stderr, "fusync: --framework %s: use verl, openrlhf or nemo-rl\n", v);
    return 2;
}
static int opt_svg(cli_opts *o, const char *v) { o->svg_path = v; return 0; }
static int opt_lesson(cli_opts *o, const char *v) { o->lesson_path = v; return 0; }
static int opt_out(cli_opts *o, const char *v) { o->out_dir = v; return 0; }
static int opt_fit(cli_opts *o, const char *v) { o->fit = v; return 0; }
static int opt_map(cli_opts *o, const char *v) { o->map_path = v; return 0; }
static int opt_step(cli_opts *o, const char *v) { o->step = v; return 0; }
static int opt_device(cli_opts *o, const char *v) { o->device = v; return 0; }
static int opt_model_dir(cli_opts *o, const char *v) { o->model_dir = v; return 0; }
static int opt_keys(cli_opts *o, const char *v) { (void)v; o->keys = true; return 0; }

static int opt_nodes(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 65536, &n)) return cli_usage_error("--nodes: '%s' is not a whole number in 1..65536", v);
    o->nodes = (int)n;
    return 0;
}

static int opt_devices_per_node(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 1024, &n))
        return cli_usage_error("--devices-per-node: '%s' is not a whole number in 1..1024", v);
    o->devices_per_node = (int)n;
    return 0;
}

/* A positive figure below 1e9 (GB, tokens). */
static int positive(const char *opt, const char *v, double *out)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d > 0 && d < 1e9)) {
        fprintf(stderr, "fusync: --%s: '%s' is not a positive number\n", opt, v);
        return 2;
    }
    *out = d;
    return 0;
}
static int opt_host_mem(cli_opts *o, const char *v) { return positive("host-mem", v, &o->host_mem_gb); }
static int opt_prompt_mean(cli_opts *o, const char *v) { return positive("prompt-mean", v, &o->prompt_mean); }
static int opt_response_mean(cli_opts *o, const char *v) { return positive("response-mean", v, &o->response_mean); }

/* A folder a scenario's helpers may also read (docs/security.md). */
static int opt_data_dir(cli_opts *o, const char *v)
{
    (void)o;
    fs_err e = {0, ""};
    return lscn_allow_dir(v, &e) ? 0 : cli_usage_error("%s", e.msg);
}

static int opt_objective(cli_opts *o, const char *v)
{
    if (strcmp(v, "throughput") && strcmp(v, "tokens-per-device") && strcmp(v, "devices") && strcmp(v, "cost")
        && strcmp(v, "time") && strcmp(v, "effective"))
        return cli_usage_error("--objective: '%s' is not one of throughput, tokens-per-device, devices, cost, time, effective", v);
    o->objective = v;
    return 0;
}

static int opt_target(cli_opts *o, const char *v)
{
    char *end;
    o->target = strtod(v, &end);
    if (end == v || *end || !(o->target > 0 && o->target < 1e30))
        return cli_usage_error("--target: '%s' is not a positive number of tokens/s", v);
    return 0;
}

/* --price P (every device), or NAME=PRICE,... by device type (the keys of
** fusync presets) */
static int opt_price(cli_opts *o, const char *v)
{
    char *end;
    if (!strchr(v, '=')) {
        o->price = strtod(v, &end);
        if (end == v || *end || !(o->price > 0 && o->price < 1e9))
            return cli_usage_error("--price: '%s' is not a positive price per device-hour (or NAME=PRICE,... by device type)", v);
        o->nprices = 0;
        return 0;
    }
    o->price = 0;
    o->nprices = 0;
    const int cap = (int)(sizeof o->price_of / sizeof o->price_of[0]);
    char msg[256];
    for (const char *p = v; *p;) {
        const char *eq = strchr(p, '='), *comma = strchr(p, ',');
        if (!comma) comma = p + strlen(p);
        if (!eq || eq > comma || eq == p || (size_t)(eq - p) >= sizeof o->price_key[0])
        {
            snprintf(msg, sizeof msg, "--price: '%.*s' is not NAME=PRICE (a device type of fusync presets and its price "
                     "per device-hour)", (int)(comma - p), p);
            return cli_usage_error("%s", msg);
        }
        char key[sizeof o->price_key[0]];
        snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
        if (!presets_device_find(key))
            return cli_usage_error("--price: '%s' is not a device type (fusync presets lists them)", key);
        char num[64];
        snprintf(num, sizeof num, "%.*s", (int)(comma - eq - 1), eq + 1);
        double d = strtod(num, &end);
        if (end == num || *end || !(d > 0 && d < 1e9)) {
            snprintf(msg, sizeof msg, "--price: %s: '%s' is not a positive price per device-hour", key, num);
            return cli_usage_error("%s", msg);
        }
        for (int i = 0; i < o->nprices; i++)
            if (!strcmp(o->price_key[i], key)) return cli_usage_error("--price: %s is priced twice", key);
        if (o->nprices == cap) return cli_usage_error("--price: at most 8 device types%s", "");
        snprintf(o->price_key[o->nprices], sizeof o->price_key[0], "%s", key);
        o->price_of[o->nprices++] = d;
        p = *comma ? comma + 1 : comma;
    }
    return 0;
}

static int opt_lag_cost(cli_opts *o, const char *v)
{
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !(d >= 0 && d <= 100))
        return cli_usage_error("--lag-cost: '%s' is not a number in 0..100 (the weight variance one version of lag adds)", v);
    o->lag_cost = d;
    o->has_lag_cost = true;
    return 0;
}

static int opt_host_price(cli_opts *o, const char *v)
{
    char *end;
    o->host_price = strtod(v, &end);
    if (end == v || *end || !(o->host_price >= 0 && o->host_price < 1e9))
        return cli_usage_error("--host-price: '%s' is not a price per node-hour (0 or more)", v);
    return 0;
}

static int opt_steps(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 100000000, &n)) return cli_usage_error("--steps: '%s' is not a whole number in 1..100000000", v);
    o->steps = (int)n;
    return 0;
}

static int opt_max_scale(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 64, &n)) return cli_usage_error("--max-scale: '%s' is not a whole number in 1..64", v);
    o->max_scale = (int)n;
    return 0;
}

static int opt_top(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 10000, &n)) return cli_usage_error("--top: '%s' is not a whole number in 1..10000", v);
    o->top = (int)n;
    return 0;
}

static int opt_jobs(cli_opts *o, const char *v)
{
    long n;
    if (!parse_int(v, 1, 1024, &n)) return cli_usage_error("--jobs: '%s' is not a whole number in 1..1024", v);
    o->jobs = (int)n;
    return 0;
}

static int opt_shard(cli_opts *o, const char *v)
{
    /* whole numbers read as such: "1/99999999999" must not wrap */
    const char *slash = strchr(v, '/');
    char first[32];
    long i, k;
    if (!slash || (size_t)(slash - v) >= sizeof first) return cli_usage_error("--shard: '%s' is not I/N with 1 <= I <= N", v);
    snprintf(first, sizeof first, "%.*s", (int)(slash - v), v);
    if (!parse_int(first, 1, LONG_MAX, &i) || !parse_int(slash + 1, 1, LONG_MAX, &k) || i > k)
        return cli_usage_error("--shard: '%s' is not I/N with 1 <= I <= N", v);
    if (k > RTABLE_SHARDS_MAX) {
        fprintf(stderr, "fusync: --shard: '%s': at most %d shards; use fewer shards, each with more work\n"
                "Try 'fusync --help' for more information.\n", v, RTABLE_SHARDS_MAX);
        return 2;
    }
    o->shard_i = (int)i;
    o->shard_n = (int)k;
    return 0;
}

static int opt_no_color(cli_opts *o, const char *v) { (void)v; o->no_color = true; return 0; }
static int opt_quiet(cli_opts *o, const char *v) { (void)v; o->quiet = true; return 0; }
static int opt_ascii(cli_opts *o, const char *v) { (void)v; o->ascii = true; return 0; }
static int opt_no_mouse(cli_opts *o, const char *v) { (void)v; o->no_mouse = true; return 0; }
static int opt_markdown(cli_opts *o, const char *v) { (void)v; o->markdown = true; return 0; }
static int opt_man(cli_opts *o, const char *v) { (void)v; o->man = true; return 0; }
static int opt_help(cli_opts *o, const char *v) { (void)v; o->help = true; return 0; }
static int opt_version(cli_opts *o, const char *v) { (void)v; o->version = true; return 0; }

/* In the order the help lists them. */
const cli_option CLI_OPTIONS[] = {
    {"mode", 0, "M", "deployment mode: separate, colocate or full (plan.mode)", opt_mode, false},
    {"staleness", 0, "N", "staleness bound, a whole number 0..64 (plan.staleness)", opt_staleness, false},
    {"iterations", 0, "N", "training steps to simulate, 1..100000 (workload.iterations)", opt_iterations, false},
    {"seed", 0, "N", "seed of the workload's random lengths, 0..2147483647 (workload.seed)", opt_seed, false},
    {"set", 0, "PATH=VALUE", "override any scenario field; repeatable (fusync fields lists them)", opt_set, false},
    {"policy", 0, "FILE.lua", "placement policy plugin, instead of the scenario's plan.policy", opt_policy, false},
    {"json", 0, "FILE|-", "write the result as JSON ('-': standard output, instead of the text)", opt_json, false},
    {"csv", 0, "FILE|-", "write the result table as CSV ('-': standard output)", opt_csv, false},
    {"trace", 0, "FILE", "write the run's timeline as a Chrome trace-event file (Perfetto)", opt_trace, false},
    {"steps-csv", 0, "FILE", "write one row per training step (start, end, split, tokens, lag) as CSV", opt_steps_csv,
     false},
    {"names", 0, "FRAMEWORK", "also write the figures under verl's, openrlhf's or nemo-rl's metric keys "
     "(docs/frameworks.md)", opt_names, false},
    {"framework", 0, "FRAMEWORK", "plan: search only what verl, openrlhf or nemo-rl can run (fusync export's "
     "rules) and print each listed row's settings for it", opt_framework, false},
    {"svg", 0, "FILE", "write the run's timeline, legend, axis and memory buckets as an SVG picture", opt_svg, false},
    {"out", 0, "PATH", "tui: the folder exports go to (default: the current folder); calibrate: the "
     "calibrated scenario to write", opt_out, false},
    {"lesson", 0, "FILE", "play a guided lesson (lessons/*.lua; the lesson names its scenario)", opt_lesson, false},
    {"jobs", 0, "N", "worker processes, 1..1024 (default 1)", opt_jobs, false},
    {"shard", 0, "I/N", "run only share I of N; fusync merge joins the shards", opt_shard, false},
    {"objective", 0, "O", "rank by throughput, tokens-per-device, devices, cost (with --price), time (to --steps) "
     "or effective (throughput with each sample valued by its lag)", opt_objective, false},
    {"target", 0, "TOKENS_PER_S", "a throughput the candidates must reach (with --objective devices)", opt_target, false},
    {"max-scale", 0, "K", "plan: --objective devices and cost search clusters up to K times the scenario's, 1..64 "
     "(default 8)", opt_max_scale, false},
    {"price", 0, "PER-DEVICE-HOUR", "plan: price of a device-hour, or NAME=PRICE,... per device type (h20=1.2,h100=2.5): "
     "cost per step and per run of --steps", opt_price, false},
    {"lag-cost", 0, "C", "plan: a sample trained L versions late counts 1/(1 + C L) (default 0.04); adds the effective "
     "column", opt_lag_cost, false},
    {"host-price", 0, "PER-NODE-HOUR", "plan: price of a node-hour on top of its devices' (default 0)", opt_host_price,
     false},
    {"steps", 0, "N", "plan: steps of a run, for its time and cost (default: the scenario's iterations)", opt_steps,
     false},
    {"top", 0, "K", "candidates to print, 1..10000 (default 10)", opt_top, false},
    {"fix", 0, "PATH=VALUE", "plan: hold a field at a value in the whole search (and the baseline); repeatable",
     opt_fix, false},
    {"partial-rollout", 0, "F", "plan: the smallest partial-rollout threshold searched, in (0, 1] (1: none)",
     opt_partial_rollout, false},
    {"max-lag", 0, "L", "plan: rank only plans whose trained samples lag at most L versions", opt_max_lag, false},
    {"fit", 0, "KNOB,...", "efficiency knobs to fit (default train,prefill,decode,hbm,decode_overhead_ms)", opt_fit, false},
    {"map", 0, "FILE", "column mapping for names fusync does not know: COLUMN = TARGET [ms|s]", opt_map, false},
    {"step", 0, "FRACTION", "sensitivity: relative step of each input, in (0, 1) (default 0.1: 10%)", opt_step, false},
    {"device", 0, "NAME", "import: the accelerator preset (fusync presets; default h100, a stated guess); a framework's name for it, GB200 or \"A100 40GB\", reaches the preset", opt_device,
     false},
    {"nodes", 0, "N", "import: nodes, 1..65536 (default: the config's)", opt_nodes, false},
    {"devices-per-node", 0, "N", "import: the machine's accelerators a node, 1..1024 (default: the config's)",
     opt_devices_per_node, false},
    {"host-mem", 0, "GB", "import: host memory per node (default 1024, a stated guess)", opt_host_mem, false},
    {"prompt-mean", 0, "N", "import: mean prompt length in tokens (default: a guess from the limits)", opt_prompt_mean,
     false},
    {"response-mean", 0, "N", "import: mean response length in tokens, e.g. from a run's logs", opt_response_mean,
     false},
    {"model-dir", 0, "DIR", "import: where model folders or the Hugging Face cache are (default $HF_HOME/hub)",
     opt_model_dir, false},
    {"keys", 0, NULL, "import: print the mapped keys the input sets (key=value) instead of the scenario", opt_keys,
     false},
    {"data-dir", 0, "DIR", "a folder the scenario's helpers may also read (a model cache); repeatable", opt_data_dir,
     false},
    {"markdown", 0, NULL, "print markdown tables (as in docs/scenarios.md)", opt_markdown, false},
    {"quiet", 0, NULL, "no progress or summary lines; sweep, plan, merge: no table either (use --csv/--json)", opt_quiet, false},
    {"no-color", 0, NULL, "no colour (also off when NO_COLOR is set or the output is no terminal)", opt_no_color, false},
    {"ascii", 0, NULL, "draw lines and blocks in ASCII", opt_ascii, false},
    {"no-mouse", 0, NULL, "no mouse reporting", opt_no_mouse, false},
    {"man", 0, NULL, "print roff for the manual page (make docs)", opt_man, true},
    {"help", 'h', NULL, "the usage, or with a command that command's help", opt_help, false},
    {"version", 'V', NULL, "print the version", opt_version, false},
};
const int CLI_NOPTIONS = (int)(sizeof CLI_OPTIONS / sizeof CLI_OPTIONS[0]);

/* ----------------------------------------------------------- commands */

/* --help and --version are taken by every command (cli_takes). */
#define SCENARIO_OPTS "mode staleness iterations seed set policy data-dir "

const cli_command CLI_COMMANDS[] = {
    {"run", cmd_run, 1, 1, "SCENARIO [OPTIONS]", "simulate headless, print the report",
     "Simulate the scenario headless and print the report: throughput, step time\n"
     "and its split, memory peaks, staleness, utilization per pool.\n"
     "Status 1 when the plan turns out infeasible (the report says why).\n",
     SCENARIO_OPTS "json trace svg steps-csv names jobs quiet no-color",
     "fusync run examples/qwen7b_h100x16.lua --mode colocate --svg run.svg", 0},
    {"tui", cmd_tui, 0, 1, "SCENARIO [OPTIONS]\n--lesson FILE [OPTIONS]", "interactive terminal front end",
     "The interactive terminal front end: device timelines, memory buckets,\n"
     "staleness windows, the plan editable while it runs (keys: ? in the front\n"
     "end, docs/tui.md).  With --lesson, a guided lesson drives it (docs/lessons.md).\n",
     SCENARIO_OPTS "lesson out no-color ascii no-mouse",
     "fusync tui --lesson lessons/1_colocation.lua", 0},
    {"check", cmd_check, 1, 1, "SCENARIO [OPTIONS]", "validate, show the plan and its memory fit",
     "Validate the scenario and show the plan and its memory fit, without\n"
     "simulating.  Status 1 when the plan does not fit.\n",
     SCENARIO_OPTS "json",
     "fusync check examples/pangu718b_cm384.lua --set cluster.supernodes=2", 0},
    {"sweep", cmd_sweep, 2, 2, "SCENARIO WHATIF.lua [OPTIONS]", "run a what-if sweep, one row per variant",
     "Run every variant a what-if file describes against the scenario, one row\n"
     "per variant (docs/plugins.md).  Without --csv or --json the CSV goes to\n"
     "standard output.\n",
     SCENARIO_OPTS "csv json names jobs shard quiet",
     "fusync sweep examples/qwen7b_h100x16.lua examples/whatif_staleness.lua --csv -", 0},
    {"plan", cmd_plan, 1, 1, "SCENARIO [OPTIONS]", "search placements and layouts, rank them",
     "Search placements and layouts for the scenario's models, workload and\n"
     "cluster, simulate the best and rank them.  Status 1 when none is feasible.\n"
     "Constraints are limits on the search, not changes to the scenario:\n"
     "--mode M lists only plans of that mode, --staleness N only bounds up to N,\n"
     "--partial-rollout F only thresholds F..1, --max-lag L only plans whose\n"
     "samples lag at most L; --fix PATH=VALUE (and a --set of a searched field)\n"
     "holds a field in every plan and the baseline.  The scenario's own plan is\n"
     "simulated for comparison, and marked when it is outside them.  A policy's\n"
     "candidates(ctx) narrows the axes or lists the plans (docs/plugins.md).\n"
     "--objective devices --target X finds the smallest cluster reaching X\n"
     "tokens/s, and --objective cost the cheapest run (with --price): both\n"
     "search clusters of 1, 2, 4, ... units (supernodes where the cluster has\n"
     "several, else nodes) up to --max-scale K (default 8) times the scenario's\n"
     "size; status 1 when no cluster in that range reaches the target.\n"
     "--price P adds device-hours, cost per step and per run of --steps N and\n"
     "the time to N steps (--price h20=1.2,h100=2.5: a price per device type);\n"
     "--objective time ranks by that time.  --objective effective ranks by\n"
     "throughput with a sample L versions late counted 1/(1 + C L), C from\n"
     "--lag-cost (default 0.04, docs/cli.md says what it assumes).\n"
     "--framework F searches only what that framework can run, by the rules of\n"
     "fusync export, and prints each listed row's settings in its terms.\n",
     SCENARIO_OPTS "objective target max-scale price host-price steps lag-cost top fix partial-rollout max-lag framework csv json names jobs shard quiet",
     "fusync plan examples/qwen7b_h100x16.lua --top 5 --jobs 2", 0},
    {"merge", cmd_merge, 1, -1, "FILE... [OPTIONS]", "join the outputs of sharded sweeps or plans",
     "Join the JSON files the shards of one sweep or plan wrote (--shard I/N\n"
     "--json FILE) into the whole table; for a plan, print the ranking.  Files\n"
     "that are not shards of one run are refused and nothing is written.\n",
     "csv json top quiet",
     "fusync sweep examples/qwen7b_h100x16.lua examples/whatif_staleness.lua --shard 1/2 --json s1.json\n"
     "fusync sweep examples/qwen7b_h100x16.lua examples/whatif_staleness.lua --shard 2/2 --json s2.json\n"
     "fusync merge s1.json s2.json --csv sweep.csv", 0},
    {"presets", cmd_presets, 0, 0, "", "list built-in devices and models",
     "List the built-in devices (fusync.devices.KEY) and models\n"
     "(fusync.models.KEY) a scenario can name, and the distribution helpers.\n",
     "",
     "fusync presets", 0},
    {"model", cmd_model, 1, 1, "CONFIG.json [--json FILE|-]", "what fusync derives from a Hugging Face config.json",
     "Read a Hugging Face config.json and print what fusync derives from it:\n"
     "layers, hidden, heads, KV heads, head dims, experts, MLA ranks, vocabulary,\n"
     "total and active parameters, KV bytes per token.  A scenario uses the same\n"
     "file with fusync.hf_config(\"config.json\").\n",
     "json",
     "fusync model examples/hf/configs/DeepSeek-V3.config.json", 0},
    {"calibrate", cmd_calibrate, 2, 2, "SCENARIO MEASURED.csv|.jsonl [OPTIONS]",
     "fit efficiency knobs to measured step times",
     "Fit the scenario's efficiency knobs to the per-phase step times of a\n"
     "measured run (CSV, JSON lines or verl's console log; verl's timing_s/* and\n"
     "response_length/* columns are known), by least squares; print the knobs,\n"
     "each phase's residual, the leave-one-out error and the knobs the data\n"
     "cannot pin down; --out writes a calibrated scenario.\n",
     SCENARIO_OPTS "fit map out json quiet",
     "fusync calibrate examples/qwen7b_h100x16.lua examples/measured_qwen7b.csv --fit train,hbm --out calibrated.lua", 0},
    {"sensitivity", cmd_sensitivity, 1, 1, "SCENARIO [OPTIONS]", "rank the inputs by their effect on the throughput",
     "Move each input the answer can hang on (efficiency, workload, device and\n"
     "link figures, plan knobs; enums to their neighbours, booleans flipped) down\n"
     "and up by --step, simulate every variant, and rank the inputs by their\n"
     "effect on throughput, with the change of peak device memory, the variants\n"
     "that make the plan infeasible, and the inputs with no effect.\n",
     SCENARIO_OPTS "step csv json jobs quiet",
     "fusync sensitivity examples/qwen7b_h100x16.lua --iterations 3 --jobs 2", 0},
    {"import", cmd_import, 2, -1, "verl|openrlhf|nemo-rl FILE... [KEY=VALUE...] [OPTIONS]",
     "a framework's launch script or config as a scenario",
     "Write a scenario from a verl or OpenRLHF launch script (.sh), a composed\n"
     "config (verl's .hydra/config.yaml) or a NeMo RL recipe (.yaml, its defaults:\n"
     "chain followed).  KEY=VALUE after the files: Hydra-style overrides.  Every\n"
     "field names its source key; what no config holds is a stated guess; a\n"
     "warnings block lists the keys fusync does not model (docs/frameworks.md).\n",
     "device nodes devices-per-node host-mem prompt-mean response-mean model-dir set out keys",
     "fusync import verl examples/import/verl_qwen25_7b_megatron.sh --device h100", 0},
    {"export", cmd_export, 2, 2, "verl|openrlhf|nemo-rl SCENARIO [OPTIONS]",
     "a scenario's plan as a framework's settings",
     "Write the scenario's plan as the framework's settings: verl Hydra overrides,\n"
     "OpenRLHF train_ppo_ray arguments, a NeMo RL YAML overrides file; the\n"
     "reverse of import through the same rules.  The options are a plan's\n"
     "Reproduce line: replace 'fusync run' by 'fusync export FRAMEWORK'.  Status 2\n"
     "naming the field the framework cannot express (docs/frameworks.md).\n",
     SCENARIO_OPTS "out",
     "fusync export verl examples/qwen7b_h100x16.lua --mode full", 0},
    {"fields", cmd_fields, 0, 1, "[TABLE] [--markdown]", "every scenario field: type, unit, range, default",
     "List every scenario field (or one table's, e.g. plan.rollout): path, type,\n"
     "unit, range, default and meaning.  `fusync fields report` lists the\n"
     "report's figures.\n",
     "markdown",
     "fusync fields plan.rollout", 0},
    {"completion", cmd_completion, 1, 1, "bash", "the shell completion script",
     "Print a bash completion script for fusync: the commands, each command's\n"
     "options, the --set paths of the scenario format and the preset names.\n"
     "make install puts it in share/bash-completion/completions/fusync.\n",
     "",
     "fusync completion bash", 0},
    {"help", cmd_help, 0, 1, "[COMMAND]", "the usage, or one command's options",
     "Print the usage, or one command's synopsis, options and an example\n"
     "('fusync COMMAND --help' too).\n",
     "markdown man",
     "fusync help plan", 0},
};
const int CLI_NCOMMANDS = (int)(sizeof CLI_COMMANDS / sizeof CLI_COMMANDS[0]);

const cli_command *cli_command_find(const char *name)
{
    for (int i = 0; i < CLI_NCOMMANDS; i++) if (!strcmp(CLI_COMMANDS[i].name, name)) return &CLI_COMMANDS[i];
    return NULL;
}

const cli_option *cli_option_find(const char *name)
{
    for (int i = 0; i < CLI_NOPTIONS; i++) if (!strcmp(CLI_OPTIONS[i].name, name)) return &CLI_OPTIONS[i];
    return NULL;
}

bool cli_takes(const cli_command *c, const char *name)
{
    if (!strcmp(name, "help") || !strcmp(name, "version")) return true;
    size_t n = strlen(name);
    for (const char *p = c->opts; *p; ) {
        while (*p == ' ') p++;
        size_t k = strcspn(p, " ");
        if (k == n && !strncmp(p, name, n)) return true;
        p += k;
    }
    return false;
}

void cli_option_takers(const char *name, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    if (!strcmp(name, "help") || !strcmp(name, "version")) { snprintf(out, n, "every command"); return; }
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        if (!cli_takes(&CLI_COMMANDS[i], name)) continue;
        int w = snprintf(out + len, n - len, "%s%s", len ? ", " : "", CLI_COMMANDS[i].name);
        if (w < 0 || (size_t)w >= n - len) break;
        len += (size_t)w;
    }
    if (!len) snprintf(out, n, "no command");
}

const char *cli_command_suggest(const char *name)
{
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        int d = str_distance(name, CLI_COMMANDS[i].name);
        if (d < bd) { bd = d; best = CLI_COMMANDS[i].name; }
    }
    return best;
}

const char *cli_option_suggest(const char *name)
{
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        if (CLI_OPTIONS[i].hidden) continue;
        int d = str_distance(name, CLI_OPTIONS[i].name);
        if (d < bd) { bd = d; best = CLI_OPTIONS[i].name; }
    }
    return best;
}
