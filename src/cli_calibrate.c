/*
** cli_calibrate.c — `fusync calibrate SCENARIO MEASURED.csv|.jsonl
** [--fit KNOB,...] [--map FILE] [--out CALIBRATED.lua] [--json FILE|-]`:
** fit the scenario's efficiency knobs to a measured run (src/calibrate.c),
** print the fit, and write the calibrated scenario.
*/
#include "calibrate.h"
#include "cli.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The path of `target` as seen from the folder that will hold `out`:
** relative when both resolve, else target's absolute path. */
static void path_from(char *dst, size_t n, const char *target, const char *out)
{
    char t[PATH_MAX], d[PATH_MAX], dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (slash) { if (slash == dir) slash[1] = 0; else *slash = 0; }
    else snprintf(dir, sizeof dir, ".");
    if (!realpath(target, t)) { snprintf(dst, n, "%s", target); return; }
    if (!realpath(dir, d)) { snprintf(dst, n, "%s", t); return; }
    /* common leading components */
    size_t i = 0, last = 0;
    while (t[i] && d[i] && t[i] == d[i]) { if (t[i] == '/') last = i; i++; }
    if (!d[i] && t[i] == '/') last = i;
    if (d[1] == 0) last = 0;            /* d is "/" */
    char buf[PATH_MAX * 2] = "";
    const char *rest = d + last;
    for (const char *p = rest; *p; p++)
        if (*p == '/' ) strncat(buf, "../", sizeof buf - strlen(buf) - 1);
    strncat(buf, t + last + 1, sizeof buf - strlen(buf) - 1);
    snprintf(dst, n, "%s", buf);
}

static void lua_quote(fs_buf *b, const char *s)
{
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') { buf_putc(b, '\\'); buf_putc(b, (char)*p); }
        else if (*p < 0x20 || *p == 0x7f) buf_printf(b, "\\%03u", *p);
        else buf_putc(b, (char)*p);
    }
    buf_putc(b, '"');
}

/* Text for a Lua comment: no line breaks or other control bytes. */
static const char *comment_safe(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++) dst[k++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    dst[k] = 0;
    return dst;
}

/* Why knob i is undetermined, for the report and the written scenario. */
static const char *undetermined_why(char *dst, size_t n, const cal_result *res, int i)
{
    if (res->flat[i] && !isfinite(res->uncertainty[i]))
        snprintf(dst, n, "flat, the data does not pin it down");
    else if (isfinite(res->uncertainty[i]))
        snprintf(dst, n, "standard error %.0f%%, above %.0f%%", 100 * res->uncertainty[i], 100 * CAL_SE_MAX);
    else snprintf(dst, n, "standard error above %.0f%% of its start value", 100 * CAL_SE_MAX);
    return dst;
}

static void write_lua(const cli_opts *o, const cal_result *res, int nrows, fs_buf *b)
{
    char safe[1100];
    char rel[PATH_MAX * 2];
    path_from(rel, sizeof rel, o->scenario, o->out_dir);
    buf_printf(b, "-- Calibrated by `fusync calibrate` from the measured run %s:\n",
               comment_safe(safe, sizeof safe, o->whatif));
    buf_printf(b, "-- the scenario below, with the fitted efficiency knobs on top (docs/calibration.md).\n");
    buf_printf(b, "-- Fit: %.2f%% rms per phase; leave-one-out error %.2f%%.\n", 100 * res->fit_rms, 100 * res->loo_error);
    for (int i = 0; i < o->nsets; i++)
        buf_printf(b, "-- Calibrated with --set %s: give fusync the same option.\n", comment_safe(safe, sizeof safe, o->sets[i]));
    buf_puts(b, "local s = fusync.scenario(");
    lua_quote(b, rel);
    buf_puts(b, ")\ns.efficiency = s.efficiency or {}\n");
    for (int i = 0; i < res->nknobs; i++) {
        char v[40], why[64];
        if (res->undetermined[i]) {
            /* not written: the scenario loaded above keeps its own value */
            fmt_double(v, sizeof v, res->start[i]);
            buf_printf(b, "-- s.efficiency.%s: undetermined (kept at its start value %s): %s\n",
                       cal_knob_name(res->knob[i]), v, undetermined_why(why, sizeof why, res, i));
            continue;
        }
        fmt_double(v, sizeof v, res->value[i]);
        buf_printf(b, "s.efficiency.%s = %s\n", cal_knob_name(res->knob[i]), v);
    }
    /* what the fit knew of itself, for the interval fusync run reports
    ** (src/uncert.c): relative standard errors and correlations */
    buf_printf(b, "-- The fit's uncertainty: fusync run re-simulates knob vectors drawn from it for an interval.\n");
    char ho[40];
    fmt_double(ho, sizeof ho, fmin(res->loo_error, 1));
    buf_printf(b, "s.calibration = {\n  rows = %d,\n  held_out_error = %s,\n  sd = {", nrows, ho);
    for (int i = 0; i < res->nknobs; i++) {
        char v[40];
        fmt_double(v, sizeof v, fmin(res->cov_sd[i], 10));
        buf_printf(b, "%s %s = %s", i ? "," : "", cal_knob_name(res->knob[i]), v);
    }
    buf_puts(b, " },\n  corr = {");
    int nc = 0;
    for (int i = 0; i < res->nknobs; i++) {
        int w = 0;
        for (int j = i + 1; j < res->nknobs; j++) {
            double c = res->corr[i][j];
            if (fabs(c) < 1e-6) continue;
            char v[40];
            fmt_double(v, sizeof v, c);
            if (!w++) buf_printf(b, "%s\n    %s = {", nc++ ? "," : "", cal_knob_name(res->knob[i]));
            buf_printf(b, "%s %s = %s", w > 1 ? "," : "", cal_knob_name(res->knob[j]), v);
        }
        if (w) buf_puts(b, " }");
    }
    buf_puts(b, nc ? "\n  },\n}\n" : " },\n}\n");
    buf_puts(b, "return s\n");
}

/* A progress line on a terminal's stderr, at most ten times a second. */
typedef struct { double last; long bound; } cal_prog;

static void progress(int sims, void *ud)
{
    cal_prog *p = ud;
    double now = wall_now();
    if (now - p->last < 0.1) return;
    p->last = now;
    fprintf(stderr, "\r  calibrating: %d of at most %ld simulated steps ", sims, p->bound);
}

int cmd_calibrate(cli_opts *o)
{
    if (!o->scenario || !o->whatif) {
        fprintf(stderr, "fusync: calibrate: needs SCENARIO and MEASURED.csv|.jsonl\n"
                "Try 'fusync --help' for more information.\n");
        return 2;
    }
    fs_err err = {0, ""};
    if (o->out_dir) {
        char a[PATH_MAX], b[PATH_MAX];
        if (realpath(o->out_dir, a) && realpath(o->scenario, b) && !strcmp(a, b)) {
            fprintf(stderr, "fusync: calibrate: --out %s is the scenario itself; the calibrated file loads the "
                    "original, so write it beside it under another name\n", o->out_dir);
            return 2;
        }
    }
    int knobs[CAL_KNOBS_MAX], nknobs;
    if (!cal_knobs_parse(o->fit, knobs, &nknobs, &err)) return cli_fail(&err);
    cal_data d;
    if (!cal_read(o->whatif, o->map_path, &d, &err)) return cli_fail(&err);

    scn_scenario placed;
    if (!cli_load_scenario(o, true, &placed, &err)) { cal_data_free(&d); return cli_fail(&err); }

    cal_result res;
    bool show = !o->quiet && isatty(STDERR_FILENO);
    cal_prog pr = {wall_now(), cal_sims_bound(d.nrows, nknobs)};
    /* the work up front: the bound is linear in the measured steps */
    if (!o->quiet)
        fprintf(stderr, "fusync: calibrate: %d measured steps, %d knob%s: at most %ld simulated steps\n", d.nrows,
                nknobs, nknobs == 1 ? "" : "s", pr.bound);
    bool ok = cal_fit_progress(&placed, &d, knobs, nknobs, show ? progress : NULL, &pr, &res, &err);
    if (show) fprintf(stderr, "\r\033[K");
    if (!ok && fs_stop_signal) {
        cal_data_free(&d);
        fprintf(stderr, "fusync: interrupted; no output written\n");
        return fs_stop_status();
    }
    if (!ok) {
        cal_data_free(&d);
        char msg[sizeof err.msg + 64];
        snprintf(msg, sizeof msg, "%s: %s", o->scenario, err.msg);
        snprintf(err.msg, sizeof err.msg, "%s", msg);
        return cli_fail(&err);
    }
    int rc = 0;
    if (o->out_dir) {
        fs_buf l;
        buf_init(&l);
        write_lua(o, &res, d.nrows, &l);
        if (!write_file_atomic(o->out_dir, l.s, l.len, &err)) rc = cli_fail(&err);
        buf_free(&l);
        /* the written file loads the original with fusync.scenario, which
        ** reads only under the new file's folder, the shipped examples and
        ** --data-dir folders (docs/security.md): say when it needs one */
        char od[PATH_MAX], sr[PATH_MAX], dir[PATH_MAX];
        const char *slash = strrchr(o->out_dir, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - o->out_dir) + 1 : 1, slash ? o->out_dir : ".");
        if (rc == 0 && realpath(dir, od) && realpath(o->scenario, sr)) {
            size_t n = strlen(od);
            if (!(strncmp(sr, od, n) == 0 && (sr[n] == '/' || od[n - 1] == '/'))) {
                char *ss = strrchr(sr, '/');
                if (ss) *ss = '\0';
                fprintf(stderr, "fusync: note: %s loads %s from outside its folder: run it with --data-dir %s\n",
                        o->out_dir, o->scenario, sr);
            }
        }
    }
    if (o->json_path) {
        fs_buf j;
        buf_init(&j);
        fs_json js;
        json_init(&js, &j, true);
        json_obj_begin(&js, NULL);
        json_str(&js, "scenario", placed.name);
        json_str(&js, "measured", o->whatif);
        json_int(&js, "steps", d.nrows);
        /* the values the calibrated scenario holds: an undetermined knob's
        ** is its start value, and it is listed under "undetermined" */
        json_obj_begin(&js, "knobs");
        for (int i = 0; i < res.nknobs; i++)
            json_num(&js, cal_knob_name(res.knob[i]), res.undetermined[i] ? res.start[i] : res.value[i]);
        json_obj_end(&js);
        json_obj_begin(&js, "estimate");
        for (int i = 0; i < res.nknobs; i++) json_num(&js, cal_knob_name(res.knob[i]), res.value[i]);
        json_obj_end(&js);
        json_obj_begin(&js, "start");
        for (int i = 0; i < res.nknobs; i++) json_num(&js, cal_knob_name(res.knob[i]), res.start[i]);
        json_obj_end(&js);
        json_obj_begin(&js, "uncertainty");
        for (int i = 0; i < res.nknobs; i++) {
            if (isfinite(res.uncertainty[i])) json_num(&js, cal_knob_name(res.knob[i]), res.uncertainty[i]);
            else json_null(&js, cal_knob_name(res.knob[i]));
        }
        json_obj_end(&js);
        json_obj_begin(&js, "sensitivity");
        for (int i = 0; i < res.nknobs; i++) json_num(&js, cal_knob_name(res.knob[i]), res.sensitivity[i]);
        json_obj_end(&js);
        json_obj_begin(&js, "residuals");
        for (int p = 0; p < CP__COUNT; p++) {
            if (!d.has[p]) continue;
            json_obj_begin(&js, cal_phase_name((cal_phase)p));
            json_bool(&js, "fitted", res.fitted_phase[p]);
            json_num(&js, "measured_s", res.meas_mean[p]);
            json_num(&js, "model_s", res.model_mean[p]);
            json_num(&js, "rms_rel", res.rms[p]);
            json_num(&js, "mean_rel", res.bias[p]);
            json_obj_end(&js);
        }
        json_obj_end(&js);
        json_num(&js, "fit_rms", res.fit_rms);
        json_num(&js, "step_error", res.step_rms);
        json_num(&js, "loo_error", res.loo_error);
        json_arr_begin(&js, "flat");
        for (int i = 0; i < res.nknobs; i++) if (res.flat[i]) json_str(&js, NULL, cal_knob_name(res.knob[i]));
        json_arr_end(&js);
        json_arr_begin(&js, "undetermined");
        for (int i = 0; i < res.nknobs; i++) if (res.undetermined[i]) json_str(&js, NULL, cal_knob_name(res.knob[i]));
        json_arr_end(&js);
        json_int(&js, "determined", res.ndetermined);
        json_arr_begin(&js, "at_bound");
        for (int i = 0; i < res.nknobs; i++) if (res.at_bound[i]) json_str(&js, NULL, cal_knob_name(res.knob[i]));
        json_arr_end(&js);
        json_int(&js, "iterations", res.iterations);
        json_int(&js, "simulations", res.simulations);
        json_obj_end(&js);
        buf_putc(&j, '\n');
        if (!write_file_atomic(o->json_path, j.s, j.len, &err)) rc = cli_fail(&err);
        buf_free(&j);
    }
    if (!(o->json_path && !strcmp(o->json_path, "-"))) {
        fs_buf b;
        buf_init(&b);
        buf_printf(&b, "Calibrated %s on %d measured steps of %s\n", placed.name, d.nrows, o->whatif);
        buf_printf(&b, "  columns: %s\n", d.used);
        if (d.unused[0]) buf_printf(&b, "  not used: %s\n", d.unused);
        if (!d.has_resp_mean && !d.has_resp_tokens)
            buf_printf(&b, "  no response-length column: every step uses the scenario's own length distribution\n");
        buf_printf(&b, "\n  %-20s %11s %11s %9s %13s %9s\n", "knob (efficiency.)", "start", "fitted", "+-1 s.e.",
                   "bounds", "per +10%");
        for (int i = 0; i < res.nknobs; i++) {
            char bounds[40], unc[24];
            snprintf(bounds, sizeof bounds, "%g..%g", res.lo[i], res.hi[i]);
            if (isfinite(res.uncertainty[i]) && res.uncertainty[i] < 10)
                snprintf(unc, sizeof unc, "%.1f%%", 100 * res.uncertainty[i]);
            else
                snprintf(unc, sizeof unc, "-");
            char tag[80];
            if (res.undetermined[i]) snprintf(tag, sizeof tag, "  undetermined (kept at its start value %.5g)", res.start[i]);
            else snprintf(tag, sizeof tag, "%s", res.at_bound[i] ? "  at bound" : "");
            buf_printf(&b, "  %-20s %11.5g %11.5g %9s %13s %8.2f%%%s\n", cal_knob_name(res.knob[i]), res.start[i],
                       res.value[i], unc, bounds, 100 * res.sensitivity[i], tag);
        }
        for (int i = 0; i < res.nknobs; i++) {
            char why[64];
            if (res.undetermined[i])
                buf_printf(&b, "  %s: undetermined (kept at its start value %.5g): %s\n", cal_knob_name(res.knob[i]),
                           res.start[i], undetermined_why(why, sizeof why, &res, i));
        }
        bool anyflat = false;
        for (int i = 0; i < res.nknobs; i++) anyflat |= res.flat[i];
        if (anyflat) {
            buf_printf(&b, "  flat: the data cannot pin down");
            for (int i = 0; i < res.nknobs; i++) if (res.flat[i]) buf_printf(&b, " %s", cal_knob_name(res.knob[i]));
            buf_printf(&b, ":\n    other values along a direction of these knobs fit the data about as well (<%.1f%% rms per 10%% move);\n"
                       "    fix some of them from a datasheet or a benchmark and leave them out of --fit, or measure steps\n"
                       "    that differ more (lengths, batch)\n", 100 * CAL_FLAT_REL);
        }
        buf_printf(&b, "\n  %-22s %11s %11s %9s %9s\n", "phase (s per step)", "measured", "model", "rms", "mean");
        for (int p = 0; p < CP__COUNT; p++) {
            if (!d.has[p]) continue;
            buf_printf(&b, "  %-22s %11.4g %11.4g %8.2f%% %+8.2f%%%s\n", cal_phase_name((cal_phase)p), res.meas_mean[p],
                       res.model_mean[p], 100 * res.rms[p], 100 * res.bias[p], res.fitted_phase[p] ? "" : "  (not fitted)");
        }
        buf_printf(&b, "\n  fit: %.2f%% rms over the fitted phase times, step time %.2f%% rms\n", 100 * res.fit_rms,
                   100 * res.step_rms);
        buf_printf(&b, "  leave-one-out error: %.2f%% (each step predicted from a fit to the others)\n", 100 * res.loo_error);
        buf_printf(&b, "  %d iterations, %d simulated steps\n", res.iterations, res.simulations);
        if (o->out_dir && rc == 0) buf_printf(&b, "  wrote %s: run it with fusync run for what-ifs\n", o->out_dir);
        fs_buf tb;
        buf_init(&tb);
        buf_put_term(&tb, b.s);
        fputs(tb.s, stdout);    /* main() checks that stdout took it */
        buf_free(&tb);
        buf_free(&b);
    }
    cal_data_free(&d);
    /* a fit that determines no knob calibrated nothing: the report and the
    ** files are still written, as a run's that does not fit (docs/cli.md) */
    if (rc == 0 && res.ndetermined == 0) {
        char names[CAL_KNOBS_MAX * 24] = "";
        for (int i = 0; i < res.nknobs; i++) cal_list_add(names, sizeof names, cal_knob_name(res.knob[i]));
        fprintf(stderr, "fusync: calibrate: the measured file determines no knob (%s undetermined); the written "
                "scenario keeps the start values (docs/calibration.md, \"What it fits, and how\")\n", names);
        rc = 1;
    }
    return rc;
}
