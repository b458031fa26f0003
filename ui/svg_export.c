/*
** svg_export.c — the TUI's SVG export (see svg_export.h).
*/
#include "svg_export.h"

#include <stdio.h>
#include <string.h>

bool svg_export_write(const svg_export_job *j, char *out, size_t n, char *msg, size_t mn)
{
    if (out && n) out[0] = 0;
    const char *scn = j->scenario ? j->scenario : "fusync";
    const char *slash = strrchr(scn, '/');
    const char *base = slash ? slash + 1 : scn;
    size_t bl = strlen(base);
    if (bl > 4 && !strcmp(base + bl - 4, ".lua")) bl -= 4;
    /* --out, else the current folder: never beside the scenario, which may
    ** be a file shipped in the project's examples/ */
    const char *dir = j->out_dir ? j->out_dir : ".";
    char path[1100];
    snprintf(path, sizeof path, "%s/%.*s%s.svg", dir, (int)bl, base, j->pair ? ".ab" : "");
    fs_err err = {0, ""};
    bool fallback = false;
    bool ok = svg_write(path, j->runs, j->nruns, j->view, &err);
    if (!ok && j->out_dir) {
        /* --out refused the file: the current folder, said so */
        snprintf(path, sizeof path, "./%.*s%s.svg", (int)bl, base, j->pair ? ".ab" : "");
        fallback = true;
        ok = svg_write(path, j->runs, j->nruns, j->view, &err);
    }
    if (!ok) {
        snprintf(msg, mn, "E: %s%s", err.msg, j->out_dir ? "" : " (use --out DIR)");
        return false;
    }
    if (out && n) snprintf(out, n, "%s", path);
    snprintf(msg, mn, "Wrote %s (%s%s)%s%s%s", path, j->pair ? "A/B pair" : "the timeline as shown",
             j->done ? "" : ", run not finished", fallback ? "; " : "", fallback ? j->out_dir : "",
             fallback ? " cannot be written, so the current folder" : "");
    return true;
}
