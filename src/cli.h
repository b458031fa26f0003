/*
** cli.h — the command line: options shared by every subcommand, and the
** subcommands.  Each cmd_* returns the exit status: 0 success, 1 the plan is
** infeasible, 2 bad input or usage (an output that cannot be written included),
** 130 interrupted.
*/
#ifndef FUSYNC_CLI_H
#define FUSYNC_CLI_H

#include <signal.h>
#include <stdbool.h>
#include "scenario.h"

#define CLI_SETS_MAX 256

typedef struct {
    const char *cmd;
    const char *scenario;       /* first positional */
    const char *whatif;         /* sweep: second positional */
    char      **files;          /* merge: positionals */
    int         nfiles;
    const char *sets[CLI_SETS_MAX];   /* --set and the shorthands, in order */
    int         nsets;
    char        owned[CLI_SETS_MAX][96];  /* storage for shorthand sets */
    const char *policy;
    const char *json_path, *trace_path, *csv_path, *out_dir;
    const char *svg_path;       /* run: --svg FILE */
    const char *lesson_path;    /* tui: --lesson FILE */
    const char *objective;
    const char *fit;            /* calibrate: --fit KNOB,KNOB... */
    const char *map_path;       /* calibrate: --map FILE (column mapping) */
    const char *step;           /* sensitivity: --step FRACTION, checked there */
    double      target;
    int         top;
    int         jobs;
    int         shard_i, shard_n;   /* --shard I/N, 1-based I; 0/0 none */
    bool        no_color, quiet, ascii, no_mouse;
    bool        markdown;       /* fields: print markdown tables */
} cli_opts;

/* Set by the SIGINT/SIGTERM/SIGHUP/SIGQUIT handlers (util.c,
** fs_signals_install); long loops poll it. */
#define cli_interrupted fs_stop_signal

/* Load the scenario named in the options, with --set overrides and the
** --policy plugin applied.  Prints nothing. */
bool cli_load_scenario(const cli_opts *o, scn_scenario *out, fs_err *err);

int cmd_run(cli_opts *o);
int cmd_check(cli_opts *o);
int cmd_presets(cli_opts *o);
int cmd_tui(cli_opts *o);       /* ui/ */
int cmd_sweep(cli_opts *o);     /* src/cli_sweep.c */
int cmd_plan(cli_opts *o);      /* src/cli_plan.c */
int cmd_merge(cli_opts *o);     /* src/cli_sweep.c */
int cmd_fields(cli_opts *o);    /* src/cli_fields.c */
int cmd_model(cli_opts *o);     /* src/cli_model.c */
int cmd_calibrate(cli_opts *o); /* src/cli_calibrate.c */
int cmd_sensitivity(cli_opts *o); /* src/cli_sensitivity.c */

/* (src/cli_help.c) Each command's own help on `out`: synopsis, what it
** does, its options.  0, or 2 with a message when `cmd` is not a command. */
#include <stdio.h>
int  cli_help_command(const char *cmd, FILE *out);
bool cli_help_known(const char *cmd);

/* Print "fusync: message" to stderr and return the error's code. */
int cli_fail(const fs_err *e);

/* Write a result table to --csv and --json, as named in the options;
** 0, or the status of the failure (its message printed). */
struct rtable;
int cli_write_table(const cli_opts *o, const struct rtable *t);

#endif
