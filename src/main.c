/*
** main.c — fusync's command line: parse GNU-style options against the
** command and option tables (src/cli_table.c), run the command's handler,
** check that standard output was written, turn errors into exit statuses.
*/
#include "cli.h"
#include "lua_scenario.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 4096

typedef struct {
    const cli_option *opt;
    const char       *val;
    const char       *as_given;     /* "--jobs", "-h": for messages */
} given_opt;

/* The options, in the order given, and the positionals.  Options may come
** before or after the command: which ones take a value is the same for
** every command, so the command is found first and the options checked
** against it after. */
static int parse_args(int argc, char **argv, char **pos, int *npos, given_opt *given, int *ngiven)
{
    bool only_pos = false;
    *npos = *ngiven = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == 0) {
            if (*npos >= MAX_ARGS) return cli_usage_error("too many arguments (%s)", "max 4096");
            pos[(*npos)++] = a;
            continue;
        }
        if (!strcmp(a, "--")) { only_pos = true; continue; }
        const cli_option *d = NULL;
        const char *eq = NULL;
        if (a[1] != '-') {
            for (int k = 0; k < CLI_NOPTIONS; k++)
                if (CLI_OPTIONS[k].short_name && a[1] == CLI_OPTIONS[k].short_name && !a[2]) d = &CLI_OPTIONS[k];
            if (!d) return cli_usage_error("unknown option '%s'", a);
        } else {
            char name[64];
            eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            if (len >= sizeof name) return cli_usage_error("unknown option '%s'", a);
            memcpy(name, a + 2, len);
            name[len] = 0;
            if (!(d = cli_option_find(name))) {
                const char *best = cli_option_suggest(name);
                fprintf(stderr, "fusync: unknown option '--%s'%s%s%s\n", name, best ? "; did you mean '--" : "",
                        best ? best : "", best ? "'?" : "");
                fprintf(stderr, "Try 'fusync --help' for more information.\n");
                return 2;
            }
        }
        const char *val = NULL;
        if (d->arg) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return cli_usage_error("option '--%s' needs a value", d->name);
            if (!*val) return cli_usage_error("--%s: the value is empty", d->name);
        } else if (eq) {
            return cli_usage_error("option '--%s' takes no value", d->name);
        }
        if (*ngiven >= MAX_ARGS) return cli_usage_error("too many options (%s)", "max 4096");
        given[(*ngiven)++] = (given_opt){d, val, a};
    }
    return 0;
}

/* Whether standard output took everything written to it: a full disk or a
** closed pipe is an error (status 2), told once for every command. */
static int check_stdout(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0) return rc;
    fprintf(stderr, "fusync: writing to stdout failed%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
    return rc == 130 ? rc : 2;
}

static int run_cli(int argc, char **argv)
{
    static char *pos[MAX_ARGS];
    static given_opt given[MAX_ARGS];
    int npos, ngiven;
    int rc = parse_args(argc, argv, pos, &npos, given, &ngiven);
    if (rc) return rc;
    cli_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = 1;
    o.top = 10;
    /* --help and --version win over everything else given */
    for (int i = 0; i < ngiven; i++) {
        if (!strcmp(given[i].opt->name, "help")) o.help = true;
        if (!strcmp(given[i].opt->name, "version")) o.version = true;
    }
    if (o.version) { printf("fusync %s\n", FUSYNC_VERSION_STR); return 0; }
    if (npos == 0) {
        if (o.help) { cli_usage(stdout); return 0; }
        /* options without a command: the usage says which commands there are */
        cli_usage(stderr);
        return 2;
    }
    const cli_command *c = cli_command_find(pos[0]);
    if (!c) {
        const char *best = cli_command_suggest(pos[0]);
        fprintf(stderr, "fusync: unknown command '%s'%s%s%s\nTry 'fusync --help' for more information.\n", pos[0],
                best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        return 2;
    }
    /* fusync CMD --help: that command's help, whatever else is given */
    if (o.help) return cli_help_command(c->name, stdout);
    for (int i = 0; i < ngiven; i++) {
        const cli_option *d = given[i].opt;
        if (cli_takes(c, d->name)) continue;
        char who[256];
        cli_option_takers(d->name, who, sizeof who);
        fprintf(stderr, "fusync: %s: --%s is taken by %s, not by %s\nTry 'fusync help %s' for its options.\n",
                c->name, d->name, who, c->name, c->name);
        return 2;
    }
    int nargs = npos - 1;
    if (nargs > c->max_args && c->max_args >= 0) {
        fprintf(stderr, "fusync: %s: unexpected argument '%s'\nUsage: fusync %s %s\n", c->name, pos[1 + c->max_args],
                c->name, c->synopsis);
        return 2;
    }
    for (int i = 0; i < ngiven; i++) {
        rc = given[i].opt->apply(&o, given[i].val);
        if (rc) return rc;
    }
    o.cmd = pos[0];
    if (npos > 1) o.scenario = pos[1];
    if (npos > 2) o.whatif = pos[2];
    o.files = npos > 1 ? pos + 1 : NULL;
    o.nfiles = nargs;
    /* too few: the handler says what is missing in its own words */
    fs_signals_install();
    return c->run(&o);
}

int main(int argc, char **argv)
{
    return check_stdout(run_cli(argc, argv));
}
