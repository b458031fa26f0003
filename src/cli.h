/*
** cli.h — the command line: the options every subcommand reads, the command
** and option tables (src/cli_table.c) that drive the parser (src/main.c),
** the help, the generated docs and the shell completion (src/cli_help.c),
** and the subcommands.  Each cmd_* returns the exit status: 0 success, 1 the
** plan is infeasible, 2 bad input or usage (an output that cannot be written
** included), 130 interrupted.
**
** Adding a command: write `int cmd_NAME(cli_opts *o)` in its own
** src/cli_NAME.c, declare it below, and add one row to CLI_COMMANDS in
** src/cli_table.c (name, handler, arity, synopsis, what, about, options,
** example).  The parser, `fusync help`, `fusync help NAME`, did-you-mean,
** docs/cli.md, docs/fusync.1 (`make docs`) and the bash completion follow
** from the row; tests/help.sh runs its example.  A new option is one row of
** CLI_OPTIONS, plus a field of cli_opts when no existing one fits.
*/
#ifndef FUSYNC_CLI_H
#define FUSYNC_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include "scenario.h"

#define CLI_SETS_MAX 256

typedef struct {
    const char *cmd;
    const char *scenario;       /* first positional */
    const char *whatif;         /* sweep, calibrate: second positional */
    char      **files;          /* merge: positionals */
    int         nfiles;
    const char *sets[CLI_SETS_MAX];   /* --set and the shorthands, in order */
    int         nsets;
    char        owned[CLI_SETS_MAX][96];  /* storage for shorthand sets */
    const char *policy;
    const char *json_path, *trace_path, *csv_path, *out_dir;
    const char *svg_path;       /* run: --svg FILE */
    const char *steps_csv;      /* run: --steps-csv FILE */
    const char *names;          /* --names FRAMEWORK (it sets fwn_active, fwnames.h) */
    const char *framework;      /* plan --framework: search only what it runs (fusync export's rules) */
    const char *lesson_path;    /* tui: --lesson FILE */
    const char *objective;
    const char *fit;            /* calibrate: --fit KNOB,KNOB... */
    const char *map_path;       /* calibrate: --map FILE (column mapping) */
    const char *step;           /* sensitivity: --step FRACTION, checked there */
    /* import: what a framework's config does not hold (import.h, imp_opts) */
    const char *device, *model_dir;
    int         nodes, devices_per_node;
    double      host_mem_gb, prompt_mean, response_mean;
    bool        keys;           /* import: print the mapped keys instead */
    double      target;
    /* plan: cost and time (--price, --host-price per hour; --steps of a
    ** run, 0: the scenario's iterations) and the cluster sizes searched */
    double      price, host_price;
    /* --price NAME=PRICE,...: a price per device-hour of each device type
    ** (preset keys, checked against fusync presets) */
    int         nprices;
    char        price_key[8][24];
    double      price_of[8];
    int         steps, max_scale;
    /* plan: the off-policy price c of --objective effective (--lag-cost) */
    double      lag_cost;
    bool        has_lag_cost;
    /* plan: constraints (--mode and --staleness are also --set shorthands
    ** for the other commands; *_set is the index + 1 of that --set) */
    const char *mode_arg;
    int         mode_set, staleness_set, staleness_arg;
    double      partial_min;    /* --partial-rollout F; 0: none */
    double      max_lag;        /* --max-lag L; has_max_lag says whether given */
    bool        has_max_lag;
    const char *fixes[CLI_SETS_MAX];    /* --fix PATH=VALUE, in order */
    int         nfixes;
    int         top;
    int         jobs;
    int         shard_i, shard_n;   /* --shard I/N, 1-based I; 0/0 none */
    bool        no_color, quiet, ascii, no_mouse;
    bool        markdown;       /* fields, help: print markdown tables */
    bool        man;            /* help: print roff for docs/fusync.1 */
    bool        help, version;
} cli_opts;

/* One command.  The handler reads the positionals from o->scenario,
** o->whatif and o->files; the parser has checked their count against
** [min_args, max_args] (max_args -1: any number) and that every option
** given is one of `opts`. */
typedef struct {
    const char *name;
    int       (*run)(cli_opts *o);
    int         min_args, max_args;
    const char *synopsis;   /* after "fusync NAME "; "\n" starts another form */
    const char *what;       /* one line, no full stop: the command list */
    const char *about;      /* `fusync help NAME`: lines, each ending in \n */
    const char *opts;       /* the options it takes, space-separated, no dashes */
    const char *example;    /* runnable from the source tree's root; "\n" between commands */
    int         example_status;     /* what the example exits with: 0, or 1 (an
                                    ** infeasible plan); the help says so */
} cli_command;

/* One option: --name, or -c for the short one (0 when none).  `arg` is the
** value's name, NULL for a flag.  `apply` stores it in the options; it gets
** the value (NULL for a flag) and returns 0, or 2 after printing the
** message.  Hidden options are for the build (make docs) and stay out of
** the help. */
typedef struct {
    const char *name;
    char        short_name;
    const char *arg;
    const char *help;
    int       (*apply)(cli_opts *o, const char *val);
    bool        hidden;
} cli_option;

extern const cli_command CLI_COMMANDS[];
extern const int         CLI_NCOMMANDS;
extern const cli_option  CLI_OPTIONS[];
extern const int         CLI_NOPTIONS;

const cli_command *cli_command_find(const char *name);
const cli_option  *cli_option_find(const char *name);
/* Whether command c takes option `name`. */
bool cli_takes(const cli_command *c, const char *name);
/* "sweep, plan": the commands that take option `name` ("every command"
** for --help and --version), in out[0..n). */
void cli_option_takers(const char *name, char *out, size_t n);
/* The nearest name within two edits, or NULL. */
const char *cli_command_suggest(const char *name);
const char *cli_option_suggest(const char *name);

/* Set by the SIGINT/SIGTERM/SIGHUP/SIGQUIT handlers (util.c,
** fs_signals_install); long loops poll it. */
#define cli_interrupted fs_stop_signal

/* The one scenario loader of every command: the file named in the options
** with its --set overrides, then (when `place`) its policy's place()
** (--policy, else the scenario's plan.policy), exactly as `fusync run` runs
** it (runner_load, runner.h; `plan` passes false: the planner chooses the
** plan).  When place() replaced a --set value, a note on stderr says which
** (naming o->cmd), as `fusync run` does. */
bool cli_load_scenario(const cli_opts *o, bool place, scn_scenario *out, fs_err *err);

int cmd_run(cli_opts *o);       /* src/cli_run.c */
int cmd_check(cli_opts *o);     /* src/cli_run.c */
int cmd_presets(cli_opts *o);   /* src/cli_run.c */
int cmd_tui(cli_opts *o);       /* ui/ */
int cmd_sweep(cli_opts *o);     /* src/cli_sweep.c */
int cmd_plan(cli_opts *o);      /* src/cli_plan.c */
int cmd_merge(cli_opts *o);     /* src/cli_sweep.c */
int cmd_fields(cli_opts *o);    /* src/cli_fields.c */
int cmd_model(cli_opts *o);     /* src/cli_model.c */
int cmd_calibrate(cli_opts *o); /* src/cli_calibrate.c */
int cmd_sensitivity(cli_opts *o); /* src/cli_sensitivity.c */
int cmd_import(cli_opts *o);    /* src/cli_import.c */
int cmd_export(cli_opts *o);    /* src/cli_export.c */
int cmd_help(cli_opts *o);      /* src/cli_help.c */
int cmd_completion(cli_opts *o);    /* src/cli_help.c */

/* (src/cli_help.c) The usage (every command, every option) and one
** command's own help on `out`: synopsis, what it does, its options, an
** example.  0, or 2 with a message when `cmd` is not a command. */
void cli_usage(FILE *out);
int  cli_help_command(const char *cmd, FILE *out);

/* Print "fusync: message" to stderr and return the error's code. */
int cli_fail(const fs_err *e);
/* Print "fusync: " fmt (one %s: arg) and the pointer to the help; 2. */
int cli_usage_error(const char *fmt, const char *arg);

/* Write a result table to --csv and --json, as named in the options;
** 0, or the status of the failure (its message printed). */
struct rtable;
int cli_write_table(const cli_opts *o, const struct rtable *t);

#endif
