/*
** cli_help.c — everything printed from the command and option tables
** (src/cli_table.c): the usage, each command's own help (`fusync help CMD`,
** `fusync CMD --help`), the lists of docs/cli.md (`fusync help --markdown
** PART`) and docs/fusync.1 (`fusync help --man PART`) that scripts/gen-docs.sh
** writes, and the bash completion script (`fusync completion bash`).
*/
#include "cli.h"
#include "fields.h"
#include "presets.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* The synopsis's first form without " [OPTIONS]": the usage's column. */
static void short_form(const cli_command *c, char *out, size_t n)
{
    size_t k = strcspn(c->synopsis, "\n");
    snprintf(out, n, "%s%s%.*s", c->name, k ? " " : "", (int)k, c->synopsis);
    char *o = strstr(out, " [OPTIONS]");
    if (o) memmove(o, o + 10, strlen(o + 10) + 1);
}

static void opt_lhs(const cli_option *d, char *out, size_t n)
{
    if (d->short_name) snprintf(out, n, "-%c, --%s%s%s", d->short_name, d->name, d->arg ? " " : "", d->arg ? d->arg : "");
    else snprintf(out, n, "--%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
}

void cli_usage(FILE *out)
{
    fprintf(out, "Usage: fusync COMMAND [ARGS] [OPTIONS]\n"
            "Simulate, show and plan RL post-training of LLMs on accelerator clusters.\n\nCommands:\n");
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        char f[128];
        short_form(&CLI_COMMANDS[i], f, sizeof f);
        if (strlen(f) > 28) fprintf(out, "  %s\n  %-28s %s\n", f, "", CLI_COMMANDS[i].what);
        else fprintf(out, "  %-28s %s\n", f, CLI_COMMANDS[i].what);
    }
    fprintf(out, "\nOptions (each command takes its own; 'fusync help COMMAND' lists them):\n");
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const cli_option *d = &CLI_OPTIONS[i];
        if (d->hidden) continue;
        char lhs[64];
        opt_lhs(d, lhs, sizeof lhs);
        fprintf(out, "  %-28s %s\n", lhs, d->help);
    }
    fprintf(out, "\nExit status: 0 success, 1 infeasible plan, 2 bad input, usage, or an output that cannot be written.\n"
            "Exit status 130: interrupted (Ctrl-C, SIGTERM); nothing half-written is left.\n"
            "Documentation: 'fusync help COMMAND', man fusync, docs/ (cli.md, model.md,\n"
            "calibration.md, scenarios.md, tui.md, lessons.md, plugins.md, cluster.md).\n");
}

int cli_help_command(const char *cmd, FILE *out)
{
    const cli_command *c = cli_command_find(cmd);
    if (!c) {
        const char *best = cli_command_suggest(cmd);
        fprintf(stderr, "fusync: help: unknown command '%s'%s%s%s\nCommands:", cmd, best ? "; did you mean '" : "",
                best ? best : "", best ? "'?" : "");
        for (int i = 0; i < CLI_NCOMMANDS; i++) fprintf(stderr, "%s %s", i ? "," : "", CLI_COMMANDS[i].name);
        fprintf(stderr, ".\n");
        return 2;
    }
    fprintf(out, "Usage:");
    for (const char *p = c->synopsis; ; ) {
        size_t k = strcspn(p, "\n");
        fprintf(out, " fusync %s%s%.*s\n", c->name, k ? " " : "", (int)k, p);
        if (!p[k]) break;
        p += k + 1;
        fprintf(out, "      ");
    }
    fprintf(out, "\n%s\nOptions:\n", c->about);
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const cli_option *d = &CLI_OPTIONS[i];
        if (d->hidden || !cli_takes(c, d->name) || !strcmp(d->name, "version")) continue;
        char lhs[64];
        opt_lhs(d, lhs, sizeof lhs);
        fprintf(out, "  %-22s %s\n", lhs, d->help);
    }
    if (c->example_status) fprintf(out, "\nExample (exit status %d):\n", c->example_status);
    else fprintf(out, "\nExample:\n");
    for (const char *p = c->example; ; ) {
        size_t k = strcspn(p, "\n");
        fprintf(out, "  %.*s\n", (int)k, p);
        if (!p[k]) break;
        p += k + 1;
    }
    fprintf(out, "\nMore: docs/cli.md, man fusync.  Exit status: 0 success, 1 infeasible, 2 bad input, "
            "130 interrupted.\n");
    return 0;
}

/* ------------------------------------------------- docs: markdown, roff */

/* Markdown table cells: a | would end the cell. */
static void md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputs("\\|", out);
        else fputc(*s, out);
    }
}

static void md_commands(FILE *out)
{
    fprintf(out, "| command | what it does |\n|---|---|\n");
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        char f[128];
        short_form(&CLI_COMMANDS[i], f, sizeof f);
        fputs("| `", out);
        md_cell(out, f);
        fputs("` | ", out);
        md_cell(out, CLI_COMMANDS[i].what);
        fputs(" |\n", out);
    }
}

static void md_options(FILE *out)
{
    fprintf(out, "| option | commands | what it does |\n|---|---|---|\n");
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const cli_option *d = &CLI_OPTIONS[i];
        if (d->hidden) continue;
        char lhs[64], who[256];
        opt_lhs(d, lhs, sizeof lhs);
        cli_option_takers(d->name, who, sizeof who);
        fputs("| `", out);
        md_cell(out, lhs);
        fputs("` | ", out);
        md_cell(out, who);
        fputs(" | ", out);
        md_cell(out, d->help);
        fputs(" |\n", out);
    }
}

/* Roff text: backslashes and dashes escaped, a line never starting with a
** control character. */
static void roff_text(FILE *out, const char *s)
{
    bool bol = true;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\'')) fputs("\\&", out);
        bol = *s == '\n';
        if (*s == '\\') fputs("\\e", out);
        else if (*s == '-') fputs("\\-", out);
        else fputc(*s, out);
    }
}

static void man_synopsis(FILE *out)
{
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        const cli_command *c = &CLI_COMMANDS[i];
        for (const char *p = c->synopsis; ; ) {
            size_t k = strcspn(p, "\n");
            char form[256];
            snprintf(form, sizeof form, "%.*s", (int)k, p);
            fprintf(out, "%s.B fusync %s\n", i || p != c->synopsis ? ".br\n" : "", c->name);
            if (form[0]) {
                fputs(".I ", out);
                roff_text(out, form);
                fputc('\n', out);
            }
            if (!p[k]) break;
            p += k + 1;
        }
    }
}

static void man_commands(FILE *out)
{
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        fprintf(out, ".TP\n.B %s\n", CLI_COMMANDS[i].name);
        roff_text(out, CLI_COMMANDS[i].about);
    }
}

static void man_options(FILE *out)
{
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const cli_option *d = &CLI_OPTIONS[i];
        if (d->hidden) continue;
        char who[256];
        cli_option_takers(d->name, who, sizeof who);
        fputs(".TP\n", out);
        if (d->short_name) fprintf(out, ".BR \\-%c \", \" \\-\\-", d->short_name);
        else fputs(".B \\-\\-", out);
        roff_text(out, d->name);
        if (d->arg) {
            fputs("\n.I ", out);
            roff_text(out, d->arg);
        }
        fputc('\n', out);
        roff_text(out, d->help);
        fputs(" (", out);
        roff_text(out, who);
        fputs(").\n", out);
    }
}

int cmd_help(cli_opts *o)
{
    if (o->markdown || o->man) {
        static const char *const parts[] = {"synopsis", "commands", "options"};
        const char *part = o->scenario ? o->scenario : "";
        int k = -1;
        for (int i = 0; i < 3; i++) if (!strcmp(part, parts[i])) k = i;
        if (k < 0 || (o->markdown && k == 0))
            return cli_usage_error("help: --markdown and --man print a part of the docs: '%s' is not commands, "
                                   "options (or synopsis, --man)", part);
        if (o->markdown) (k == 1 ? md_commands : md_options)(stdout);
        else (k == 0 ? man_synopsis : k == 1 ? man_commands : man_options)(stdout);
        return 0;
    }
    if (!o->scenario) { cli_usage(stdout); return 0; }
    return cli_help_command(o->scenario, stdout);
}

/* ------------------------------------------------------ bash completion */

/* The --set words: every field path with '=', and path=KEY for the
** preset keys of a device or model field (the listing's TYPE column). */
static void completion_set_words(FILE *out)
{
    fs_buf b;
    buf_init(&b);
    fields_describe_under(&b, false, "");
    const char *line = b.s ? strchr(b.s, '\n') : NULL;     /* past the header */
    while (line && line[1]) {
        line++;
        char path[160], type[32];
        if (sscanf(line, "%159s %31s", path, type) == 2) {
            fprintf(out, " %s=", path);
            if (!strcmp(type, "device"))
                for (int i = 0; i < presets_device_count(); i++) fprintf(out, " %s=%s", path, presets_device_key(i));
            if (!strcmp(type, "model"))
                for (int i = 0; i < presets_model_count(); i++) fprintf(out, " %s=%s", path, presets_model_key(i));
        }
        line = strchr(line, '\n');
    }
    buf_free(&b);
}

/* Options whose value is no file name and has no list to offer. */
#define NO_FILE_OPTS " staleness iterations seed jobs shard target top fit "

int cmd_completion(cli_opts *o)
{
    if (!o->scenario || strcmp(o->scenario, "bash") != 0)
        return cli_usage_error("completion: '%s' is not a shell fusync writes completion for (bash)",
                               o->scenario ? o->scenario : "");
    FILE *out = stdout;
    fprintf(out, "# bash completion for fusync, written by `fusync completion bash` from its\n"
            "# command and option tables and the scenario format; regenerate, do not edit.\n"
            "_fusync_set_words='");
    completion_set_words(out);
    fprintf(out, "'\n_fusync()\n{\n    local cur prev cmd i opts\n"
            "    cur=${COMP_WORDS[COMP_CWORD]}\n    prev=${COMP_WORDS[COMP_CWORD-1]}\n    cmd=\n"
            "    for ((i = 1; i < COMP_CWORD; i++)); do\n        case ${COMP_WORDS[i]} in\n        ");
    bool first = true;
    for (int i = 0; i < CLI_NOPTIONS; i++)
        if (CLI_OPTIONS[i].arg) { fprintf(out, "%s--%s", first ? "" : "|", CLI_OPTIONS[i].name); first = false; }
    /* bash splits words at '=' (COMP_WORDBREAKS): "--set" "cluster.device"
    ** "=" "h1" is a value of a --set path, "--mode" "=" "col" a value of --mode */
    fprintf(out, ") [[ ${COMP_WORDS[i+1]} == = ]] && ((i += 2)) || ((i++)) ;;\n        =) ((i++)) ;;\n        -*) ;;\n"
            "        *) cmd=${COMP_WORDS[i]}; break ;;\n"
            "        esac\n    done\n"
            "    local key=\n"
            "    if [[ $cur == = ]]; then key=$prev; prev=${COMP_WORDS[COMP_CWORD-2]}; cur=\n"
            "    elif [[ $prev == = ]]; then key=${COMP_WORDS[COMP_CWORD-2]}; prev=${COMP_WORDS[COMP_CWORD-3]}\n"
            "    fi\n"
            "    if [[ $prev == --set && -n $key ]]; then\n"
            "        local w; COMPREPLY=()\n"
            "        for w in $_fusync_set_words; do [[ $w == \"$key=$cur\"* && $w != \"$key=\" ]] && COMPREPLY+=(\"${w#\"$key=\"}\"); done\n"
            "        return\n    fi\n"
            "    [[ -n $key && $key == --* ]] && prev=$key\n"
            "    case $prev in\n"
            "    --set) compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W \"$_fusync_set_words\" -- \"$cur\")); return ;;\n"
            "    --mode) COMPREPLY=($(compgen -W 'separate colocate full' -- \"$cur\")); return ;;\n"
            "    --objective) COMPREPLY=($(compgen -W 'throughput tokens-per-device devices cost time' -- \"$cur\")); return ;;\n"
            "    --staleness|--iterations|--seed|--jobs|--shard|--target|--top|--fit) return ;;\n"  /* NO_FILE_OPTS */
            "    ");
    first = true;
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const char *n = CLI_OPTIONS[i].name;
        if (!CLI_OPTIONS[i].arg || !strcmp(n, "set") || !strcmp(n, "mode") || !strcmp(n, "objective")) continue;
        char pad[40];
        snprintf(pad, sizeof pad, " %s ", n);
        if (strstr(NO_FILE_OPTS, pad)) continue;
        fprintf(out, "%s--%s", first ? "" : "|", n);
        first = false;
    }
    fprintf(out, ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n    esac\n"
            "    case $cmd in\n"
            "    '') opts='--help --version'\n"
            "        if [[ $cur != -* ]]; then COMPREPLY=($(compgen -W '");
    for (int i = 0; i < CLI_NCOMMANDS; i++) fprintf(out, "%s%s", i ? " " : "", CLI_COMMANDS[i].name);
    fprintf(out, "' -- \"$cur\")); return; fi ;;\n");
    for (int i = 0; i < CLI_NCOMMANDS; i++) {
        const cli_command *c = &CLI_COMMANDS[i];
        fprintf(out, "    %s) opts='", c->name);
        bool sp = false;
        for (int k = 0; k < CLI_NOPTIONS; k++) {
            const cli_option *d = &CLI_OPTIONS[k];
            if (d->hidden || !cli_takes(c, d->name)) continue;
            fprintf(out, "%s--%s", sp ? " " : "", d->name);
            sp = true;
        }
        fprintf(out, "' ;;\n");
    }
    fprintf(out, "    *) opts= ;;\n    esac\n"
            "    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); return; fi\n"
            "    case $cmd in\n    help) COMPREPLY=($(compgen -W '");
    for (int i = 0; i < CLI_NCOMMANDS; i++) fprintf(out, "%s%s", i ? " " : "", CLI_COMMANDS[i].name);
    fprintf(out, "' -- \"$cur\")) ;;\n    completion) COMPREPLY=($(compgen -W 'bash' -- \"$cur\")) ;;\n"
            "    presets) ;;\n    *) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n    esac\n}\n"
            "complete -o filenames -F _fusync fusync\n");
    return 0;
}
