/*
** svg_export.c — the TUI's SVG export (see svg_export.h).
*/
#include "svg_export.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The folder exports go to: --out, else the scenario's folder.  Sets
** *fallback when that folder cannot be written and "." is used instead. */
static void export_dir(const svg_export_job *j, char *dir, size_t n, bool *fallback)
{
    const char *scn = j->scenario ? j->scenario : "";
    const char *slash = strrchr(scn, '/');
    if (j->out_dir) snprintf(dir, n, "%s", j->out_dir);
    else if (slash) snprintf(dir, n, "%.*s", (int)(slash - scn), scn);
    else snprintf(dir, n, ".");
    *fallback = false;
    if (access(dir, W_OK) != 0 && strcmp(dir, ".") != 0) *fallback = true;
}

bool svg_export_write(const svg_export_job *j, char *out, size_t n, char *msg, size_t mn)
{
    if (out && n) out[0] = 0;
    const char *scn = j->scenario ? j->scenario : "fusync";
    const char *slash = strrchr(scn, '/');
    const char *base = slash ? slash + 1 : scn;
    size_t bl = strlen(base);
    if (bl > 4 && !strcmp(base + bl - 4, ".lua")) bl -= 4;
    char dir[512], want[512];
    bool fallback;
    export_dir(j, want, sizeof want, &fallback);
    snprintf(dir, sizeof dir, "%s", fallback ? "." : want);

    char path[1100];
    snprintf(path, sizeof path, "%s/%.*s%s.svg", dir, (int)bl, base, j->pair ? ".ab" : "");
    fs_err err = {0, ""};
    bool ok = svg_write(path, j->runs, j->nruns, j->view, &err);
    if (!ok && strcmp(dir, ".") != 0) {
        /* the folder refused the file: the current folder, said so */
        snprintf(path, sizeof path, "./%.*s%s.svg", (int)bl, base, j->pair ? ".ab" : "");
        fallback = true;
        ok = svg_write(path, j->runs, j->nruns, j->view, &err);
    }
    if (!ok) {
        snprintf(msg, mn, "E: %s", err.msg);
        return false;
    }
    if (out && n) snprintf(out, n, "%s", path);
    snprintf(msg, mn, "Wrote %s (%s%s)%s%s%s", path, j->pair ? "A/B pair" : "the timeline as shown",
             j->done ? "" : ", run not finished", fallback ? "; " : "", fallback ? want : "",
             fallback ? " cannot be written, so the current folder" : "");
    return true;
}
