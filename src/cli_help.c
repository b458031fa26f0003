/*
** cli_help.c — each command's own help: `fusync help CMD` and
** `fusync CMD --help` print its synopsis, what it does and the options it
** takes (docs/cli.md has the long form; docs/fusync.1 is the manual page).
*/
#include "cli.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;       /* without the dashes */
    const char *arg;        /* "N", "FILE", ... or NULL */
    const char *help;
} opt_help;

static const opt_help OPTS[] = {
    {"mode", "M", "deployment mode: separate, colocate or full (plan.mode)"},
    {"staleness", "N", "staleness bound, a whole number 0..64 (plan.staleness)"},
    {"iterations", "N", "training steps to simulate, 1..100000 (workload.iterations)"},
    {"seed", "N", "seed of the workload's random lengths (workload.seed)"},
    {"set", "PATH=VALUE", "override any scenario field; repeatable (fusync fields lists them)"},
    {"policy", "FILE.lua", "placement policy plugin, instead of the scenario's plan.policy"},
    {"json", "FILE|-", "write the result as JSON ('-': standard output)"},
    {"csv", "FILE|-", "write the result table as CSV ('-': standard output)"},
    {"trace", "FILE", "write the run's timeline as a Chrome trace-event file (Perfetto)"},
    {"svg", "FILE", "write the run's timeline, legend, axis and memory buckets as an SVG picture"},
    {"out", "DIR", "where exports go (default: beside the scenario, else the current folder)"},
    {"lesson", "FILE", "play a guided lesson (lessons/*.lua; the lesson names its scenario)"},
    {"jobs", "N", "worker processes, 1..1024 (default 1)"},
    {"shard", "I/N", "run only share I of N; fusync merge joins the shards"},
    {"objective", "O", "rank by throughput, tokens-per-device or devices"},
    {"target", "TOKENS_PER_S", "a throughput the candidates must reach (with --objective devices)"},
    {"top", "K", "candidates to print, 1..10000 (default 10)"},
    {"step", "FRACTION", "sensitivity: relative step of each input, in (0, 1) (default 0.1: 10%)"},
    {"markdown", NULL, "print markdown tables (as in docs/scenarios.md)"},
    {"fit", "KNOB,...", "efficiency knobs to fit (default train,prefill,decode,hbm,decode_overhead_ms)"},
    {"map", "FILE", "column mapping for names fusync does not know: COLUMN = TARGET [ms|s]"},
    {"quiet", NULL, "no progress or summary lines; sweep, plan, merge: no table either (use --csv/--json)"},
    {"no-color", NULL, "no colour (also off when NO_COLOR is set or the output is no terminal)"},
    {"ascii", NULL, "draw lines and blocks in ASCII"},
    {"no-mouse", NULL, "no mouse reporting"},
    {"help", NULL, "this help"},
    {NULL, NULL, NULL}
};

#define SCENARIO_OPTS "mode", "staleness", "iterations", "seed", "set", "policy"

typedef struct {
    const char *name;
    const char *synopsis;
    const char *what;       /* lines, each ending in \n */
    const char *opts[24];
    const char *example;
} cmd_help;

static const cmd_help CMDS[] = {
    {"run", "fusync run SCENARIO [OPTIONS]",
     "Simulate the scenario headless and print the report: throughput, step time\n"
     "and its split, memory peaks, staleness, utilization per pool.\n"
     "Status 1 when the plan turns out infeasible (the report says why).\n",
     {SCENARIO_OPTS, "json", "trace", "svg", "quiet", "no-color", "help"},
     "fusync run examples/qwen7b_h100x16.lua --mode colocate --svg run.svg"},
    {"tui", "fusync tui SCENARIO [OPTIONS]\n       fusync tui --lesson FILE [OPTIONS]",
     "The interactive terminal front end: device timelines, memory buckets,\n"
     "staleness windows, the plan editable while it runs (keys: ? in the front\n"
     "end, docs/tui.md).  With --lesson, a guided lesson drives it (docs/lessons.md).\n",
     {SCENARIO_OPTS, "lesson", "out", "no-color", "ascii", "no-mouse", "help"},
     "fusync tui --lesson lessons/colocation.lua"},
    {"check", "fusync check SCENARIO [OPTIONS]",
     "Validate the scenario and show the plan and its memory fit, without\n"
     "simulating.  Status 1 when the plan does not fit.\n",
     {SCENARIO_OPTS, "json", "help"},
     "fusync check examples/pangu718b_cm384.lua --set cluster.supernodes=2"},
    {"sweep", "fusync sweep SCENARIO WHATIF.lua [OPTIONS]",
     "Run every variant a what-if file describes against the scenario, one row\n"
     "per variant (docs/plugins.md).  Without --csv or --json the CSV goes to\n"
     "standard output.\n",
     {SCENARIO_OPTS, "csv", "json", "jobs", "shard", "quiet", "help"},
     "fusync sweep examples/qwen7b_h100x16.lua examples/whatif_staleness.lua --csv -"},
    {"plan", "fusync plan SCENARIO [OPTIONS]",
     "Search placements and layouts for the scenario's models, workload and\n"
     "cluster, simulate the best and rank them.  Status 1 when none is feasible.\n",
     {SCENARIO_OPTS, "objective", "target", "top", "csv", "json", "jobs", "shard", "quiet", "help"},
     "fusync plan examples/qwen7b_h100x16.lua --top 5 --jobs 2"},
    {"merge", "fusync merge FILE... [OPTIONS]",
     "Join the JSON files the shards of one sweep or plan wrote (--shard I/N\n"
     "--json FILE) into the whole table; for a plan, print the ranking.  Files\n"
     "that are not shards of one run are refused and nothing is written.\n",
     {"csv", "json", "quiet", "help"},
     "fusync merge s1.json s2.json s3.json --csv sweep.csv"},
    {"presets", "fusync presets",
     "List the built-in devices (fusync.devices.KEY) and models\n"
     "(fusync.models.KEY) a scenario can name, and the distribution helpers.\n",
     {"help"},
     "fusync presets"},
    {"fields", "fusync fields [TABLE] [--markdown]",
     "List every scenario field (or one table's, e.g. plan.rollout): path, type,\n"
     "unit, range, default and meaning.  `fusync fields report` lists the\n"
     "report's figures.\n",
     {"markdown", "help"},
     "fusync fields plan.rollout"},
    {"model", "fusync model CONFIG.json [--json FILE|-]",
     "Read a Hugging Face config.json and print what fusync derives from it:\n"
     "layers, hidden, heads, KV heads, head dims, experts, MLA ranks, vocabulary,\n"
     "total and active parameters, KV bytes per token.  A scenario uses the same\n"
     "file with fusync.hf_config(\"config.json\").\n",
     {"json", "help"},
     "fusync model examples/hf/configs/DeepSeek-V3.config.json"},
    {"calibrate", "fusync calibrate SCENARIO MEASURED.csv|.jsonl [OPTIONS]",
     "Fit the scenario's efficiency knobs to the per-phase step times of a\n"
     "measured run (CSV, JSON lines or verl's console log; verl's timing_s/* and\n"
     "response_length/* columns are known), by least squares; print the knobs,\n"
     "each phase's residual, the leave-one-out error and the knobs the data\n"
     "cannot pin down; --out writes a calibrated scenario.\n",
     {"fit", "map", "out", "json", "quiet", "help"},
     "fusync calibrate my_run.lua measured.jsonl --out my_run_calibrated.lua"},
    {"sensitivity", "fusync sensitivity SCENARIO [OPTIONS]",
     "Move each input the answer can hang on (efficiency, workload, device and\n"
     "link figures, plan knobs; enums to their neighbours, booleans flipped) down\n"
     "and up by --step, simulate every variant, and rank the inputs by their\n"
     "effect on throughput, with the change of peak device memory, the variants\n"
     "that make the plan infeasible, and the inputs with no effect.\n",
     {SCENARIO_OPTS, "step", "csv", "json", "jobs", "quiet", "help"},
     "fusync sensitivity examples/qwen7b_h100x16.lua --iterations 3 --jobs 2"},
    {"help", "fusync help [COMMAND]",
     "Print the usage, or one command's synopsis and options.\n",
     {NULL},
     "fusync help plan"},
};
#define NCMDS ((int)(sizeof CMDS / sizeof CMDS[0]))

static const opt_help *find_opt(const char *name)
{
    for (const opt_help *o = OPTS; o->name; o++) if (!strcmp(o->name, name)) return o;
    return NULL;
}

bool cli_help_known(const char *cmd)
{
    for (int i = 0; i < NCMDS; i++) if (!strcmp(CMDS[i].name, cmd)) return true;
    return false;
}

int cli_help_command(const char *cmd, FILE *out)
{
    const cmd_help *c = NULL;
    for (int i = 0; i < NCMDS; i++) if (!strcmp(CMDS[i].name, cmd)) c = &CMDS[i];
    if (!c) {
        const char *best = NULL;
        int bd = 3;
        for (int i = 0; i < NCMDS; i++) {
            int d = str_distance(cmd, CMDS[i].name);
            if (d < bd) { bd = d; best = CMDS[i].name; }
        }
        fprintf(stderr, "fusync: help: unknown command '%s'%s%s%s\nCommands: run, tui, check, sweep, plan, merge, "
                "presets, fields, help.\n", cmd, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        return 2;
    }
    fprintf(out, "Usage: %s\n\n%s", c->synopsis, c->what);
    if (c->opts[0]) {
        fprintf(out, "\nOptions:\n");
        for (int k = 0; c->opts[k]; k++) {
            const opt_help *o = find_opt(c->opts[k]);
            if (!o) continue;
            char lhs[64];
            snprintf(lhs, sizeof lhs, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
            fprintf(out, "  %-22s %s\n", lhs, o->help);
        }
    }
    fprintf(out, "\nExample:\n  %s\n", c->example);
    fprintf(out, "\nMore: docs/cli.md, man fusync.  Exit status: 0 success, 1 infeasible, 2 bad input, "
            "130 interrupted.\n");
    return ferror(out) ? 2 : 0;
}
