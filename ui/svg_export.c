/*
** svg_export.c — the TUI's SVG export (see svg_export.h).
*/
#include "svg_export.h"
#include "svg.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The folder exports go to: --out, else the scenario's folder.  Sets
** *fallback when that folder cannot be written and "." is used instead. */
static void export_dir(const tui_app *a, char *dir, size_t n, bool *fallback)
{
    const char *scn = a->opts.scenario ? a->opts.scenario : "";
    const char *slash = strrchr(scn, '/');
    if (a->opts.out_dir) snprintf(dir, n, "%s", a->opts.out_dir);
    else if (slash) snprintf(dir, n, "%.*s", (int)(slash - scn), scn);
    else snprintf(dir, n, ".");
    *fallback = false;
    if (access(dir, W_OK) != 0 && strcmp(dir, ".") != 0) *fallback = true;
}

bool app_export_svg(tui_app *a, char *out, size_t n)
{
    if (out && n) out[0] = 0;
    const char *scn = a->opts.scenario ? a->opts.scenario : "fusync";
    const char *slash = strrchr(scn, '/');
    const char *base = slash ? slash + 1 : scn;
    size_t bl = strlen(base);
    if (bl > 4 && !strcmp(base + bl - 4, ".lua")) bl -= 4;
    char dir[512], want[512];
    bool fallback;
    export_dir(a, want, sizeof want, &fallback);
    snprintf(dir, sizeof dir, "%s", fallback ? "." : want);

    svg_run runs[2];
    int nr = 0;
    svg_view v = {0, 0, 0, 0};
    bool pair = a->ls.compare && (a->snap[0] || a->snap[1]);
    if (pair) {
        /* both on one axis, each as far as it has run */
        static const char *names[2] = {"A", "B"};
        static char labels[2][200];
        for (int i = 0; i < 2; i++) {
            if (!a->snap[i]) continue;
            snprintf(labels[i], sizeof labels[i], "%s: %s", names[i], a->snap[i]->label);
            const tui_run *sr = a->snap[i];
            runs[nr++] = (svg_run){sr->s, labels[i], sr->report_ready && !sr->rep.feasible ? sr->rep.why : NULL};
        }
    } else {
        const tui_run *lr = a->run;
        runs[nr++] = (svg_run){lr->s, NULL, lr->report_ready && !lr->rep.feasible ? lr->rep.why : NULL};
        app_window(a, &v.t0, &v.t1);
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/%.*s%s.svg", dir, (int)bl, base, pair ? ".ab" : "");
    fs_err err = {0, ""};
    bool ok = svg_write(path, runs, nr, &v, &err);
    if (!ok && strcmp(dir, ".") != 0) {
        /* the folder refused the file: the current folder, said so */
        snprintf(path, sizeof path, "./%.*s%s.svg", (int)bl, base, pair ? ".ab" : "");
        fallback = true;
        ok = svg_write(path, runs, nr, &v, &err);
    }
    if (!ok) {
        app_message(a, true, "E: %s", err.msg);
        return false;
    }
    if (out && n) snprintf(out, n, "%s", path);
    bool done = pair ? (!a->snap[0] || run_over(a->snap[0])) && (!a->snap[1] || run_over(a->snap[1])) : run_over(a->run);
    app_message(a, false, "Wrote %s (%s%s)%s%s%s", path, pair ? "A/B pair" : "the timeline as shown",
                done ? "" : ", run not finished", fallback ? "; " : "", fallback ? want : "",
                fallback ? " cannot be written, so the current folder" : "");
    return true;
}
