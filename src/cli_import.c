/*
** cli_import.c — `fusync import verl|openrlhf|nemo-rl FILE... [options]`:
** a framework's launch script or config onto a scenario (import.h), written
** to stdout or, with --out, atomically to a file.  Exit 0, or 2 with the
** file, line and key of what cannot be read.
*/
#include "cli.h"
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


static int uerr(const char *msg, const char *arg)
{
    fprintf(stderr, "fusync: import: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\nTry 'fusync help import' for more information.\n");
    return 2;
}

static bool is_yaml(const char *p)
{
    size_t n = strlen(p);
    return (n > 5 && !strcmp(p + n - 5, ".yaml")) || (n > 4 && !strcmp(p + n - 4, ".yml"));
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int cmd_import(cli_opts *co)
{
    if (co->nfiles < 1) return uerr("%s", "missing FRAMEWORK (verl, openrlhf or nemo-rl)");
    imp_framework fw;
    if (!imp_framework_parse(co->files[0], &fw))
        return uerr("'%s' is not one of verl, openrlhf, nemo-rl", co->files[0]);
    imp_opts o;
    memset(&o, 0, sizeof o);
    o.device = co->device;
    o.model_dir = co->model_dir;
    o.nodes = co->nodes;
    o.devices_per_node = co->devices_per_node;
    o.host_mem_gb = co->host_mem_gb;
    o.prompt_mean = co->prompt_mean;
    o.response_mean = co->response_mean;
    o.nsets = co->nsets;
    const char **files = (const char **)co->files + 1;
    int nfiles = co->nfiles - 1;
    const char *out = co->out_dir;
    bool keys = co->keys;
    int rc = 0;
    if (nfiles == 0) rc = uerr("%s", "missing FILE");
    fs_err err = {0, ""};
    imp_cfg c;
    imp_cfg_init(&c);
    fs_buf names;
    buf_init(&names);
    bool ok = !rc;
    for (int i = 0; ok && i < nfiles; i++) {
        const char *f = files[i];
        /* KEY=VALUE that is not a file: an override of what came before */
        if (strchr(f, '=') && !exists(f)) {
            ok = imp_override(&c, f, "command line", 0, &err);
            continue;
        }
        if (names.len) buf_puts(&names, ", ");
        const char *base = strrchr(f, '/');
        buf_puts(&names, base ? base + 1 : f);
        if (is_yaml(f)) ok = imp_yaml_load(f, fw == IMP_NEMORL, &c, &err);
        else if (fw == IMP_NEMORL) {
            fs_err_set(&err, 2, "%s: NeMo RL runs are read from their YAML config (.yaml)", f);
            ok = false;
        } else ok = imp_shell_load(f, fw, &c, &err);
    }
    if (ok && !names.len) { fs_err_set(&err, 2, "import: no config file among the arguments"); ok = false; }
    fs_buf text;
    buf_init(&text);
    if (ok) {
        o.sets = co->sets;
        o.inputs = names.s;
        ok = keys ? imp_keys(fw, &c, &o, &text, &err) : imp_map(fw, &c, &o, &text, &err);
    }
    if (ok) {
        if (out) ok = write_file_atomic(out, text.s, text.len, &err);
        else {
            fputs(text.s, stdout);
            if (fflush(stdout) != 0) { fs_err_set(&err, 2, "writing the scenario to stdout failed"); ok = false; }
        }
    }
    if (!ok && !rc) {
        char msg[sizeof err.msg * 2];
        fs_term_escape(msg, sizeof msg, err.msg);
        fprintf(stderr, "fusync: import: %s\n", msg);
        rc = 2;
    }
    buf_free(&text);
    buf_free(&names);
    imp_cfg_free(&c);
    return rc;
}
