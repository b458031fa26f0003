/*
** test_svg.c — the SVG pictures (src/svg.c): from the command line
** (`fusync run --svg`) and from the terminal front end (`E`, one run and the
** A/B pair).  Each file must be well-formed XML — checked by the small
** checker below (XML 1.0, https://www.w3.org/TR/xml/: one root element,
** tags nested and closed, attributes quoted and not repeated, only the five
** predefined entities and character references, no '<' or bare '&' in text)
** — and hold the expected groups: the timeline with one row per track, the
** axis, the legend and the memory bars.
*/
#include "testutil.h"
#include "app.h"
#include "svg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ the checker */

typedef struct {
    const char *p, *end;
    char why[160];
    int  elements;
} xml_rd;

static bool xfail(xml_rd *r, const char *why)
{
    if (!r->why[0]) snprintf(r->why, sizeof r->why, "%s at offset %ld", why, (long)(r->end - r->p));
    return false;
}

static bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
static bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
static void skip_ws(xml_rd *r) { while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r')) r->p++; }

static bool read_name(xml_rd *r, char *out, size_t n)
{
    if (r->p >= r->end || !name_start(*r->p)) return xfail(r, "expected a name");
    size_t k = 0;
    while (r->p < r->end && name_char(*r->p)) {
        if (k + 1 < n) out[k++] = *r->p;
        r->p++;
    }
    out[k] = 0;
    return true;
}

/* An entity or character reference after '&'. */
static bool read_ref(xml_rd *r)
{
    static const char *const ents[] = {"amp;", "lt;", "gt;", "quot;", "apos;", NULL};
    r->p++;
    for (int i = 0; ents[i]; i++) {
        size_t l = strlen(ents[i]);
        if ((size_t)(r->end - r->p) >= l && !strncmp(r->p, ents[i], l)) { r->p += l; return true; }
    }
    if (r->p < r->end && *r->p == '#') {
        r->p++;
        bool hex = r->p < r->end && *r->p == 'x';
        if (hex) r->p++;
        int digits = 0;
        while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || (hex && strchr("abcdefABCDEF", *r->p)))) { r->p++; digits++; }
        if (digits && r->p < r->end && *r->p == ';') { r->p++; return true; }
    }
    return xfail(r, "a bare '&' or an unknown entity");
}

static bool read_chars(xml_rd *r, char stop)
{
    while (r->p < r->end && *r->p != stop) {
        unsigned char c = (unsigned char)*r->p;
        if (c == '<' && stop != '<') return xfail(r, "'<' inside an attribute value");
        if (c < 32 && c != '\n' && c != '\t' && c != '\r') return xfail(r, "a control character");
        if (c == '&') { if (!read_ref(r)) return false; continue; }
        r->p++;
    }
    return true;
}

static bool skip_to(xml_rd *r, const char *s)
{
    size_t l = strlen(s);
    while (r->p + l <= r->end) {
        if (!strncmp(r->p, s, l)) { r->p += l; return true; }
        r->p++;
    }
    return xfail(r, "unterminated declaration or comment");
}

static bool read_element(xml_rd *r, int depth)
{
    if (depth > 200) return xfail(r, "nesting too deep");
    char name[64];
    r->p++;     /* '<' */
    if (!read_name(r, name, sizeof name)) return false;
    char attrs[32][64];
    int na = 0;
    for (;;) {
        bool ws = r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t');
        skip_ws(r);
        if (r->p >= r->end) return xfail(r, "unterminated start tag");
        if (*r->p == '/' ) {
            if (r->p + 1 >= r->end || r->p[1] != '>') return xfail(r, "'/' not followed by '>'");
            r->p += 2;
            r->elements++;
            return true;
        }
        if (*r->p == '>') { r->p++; break; }
        if (!ws) return xfail(r, "attributes not separated by white space");
        char an[64];
        if (!read_name(r, an, sizeof an)) return false;
        for (int i = 0; i < na; i++) if (!strcmp(attrs[i], an)) return xfail(r, "an attribute given twice");
        if (na < 32) snprintf(attrs[na++], sizeof attrs[0], "%s", an);
        skip_ws(r);
        if (r->p >= r->end || *r->p != '=') return xfail(r, "an attribute without '='");
        r->p++;
        skip_ws(r);
        if (r->p >= r->end || (*r->p != '"' && *r->p != '\'')) return xfail(r, "an unquoted attribute value");
        char q = *r->p++;
        if (!read_chars(r, q)) return false;
        if (r->p >= r->end) return xfail(r, "unterminated attribute value");
        r->p++;
    }
    r->elements++;
    /* content */
    for (;;) {
        if (!read_chars(r, '<')) return false;
        if (r->p >= r->end) return xfail(r, "an element not closed");
        if (r->p + 1 < r->end && r->p[1] == '/') {
            r->p += 2;
            char en[64];
            if (!read_name(r, en, sizeof en)) return false;
            if (strcmp(en, name)) return xfail(r, "an end tag that does not match its start tag");
            skip_ws(r);
            if (r->p >= r->end || *r->p != '>') return xfail(r, "unterminated end tag");
            r->p++;
            return true;
        }
        if (r->p + 3 < r->end && !strncmp(r->p, "<!--", 4)) { if (!skip_to(r, "-->")) return false; continue; }
        if (!read_element(r, depth + 1)) return false;
    }
}

/* Well-formed: optional prolog, one root element, then only white space
** and comments. */
static bool xml_well_formed(const char *text, size_t len, char *why, size_t n)
{
    xml_rd r = {text, text + len, "", 0};
    bool ok = true;
    if (len >= 5 && !strncmp(text, "<?xml", 5)) ok = skip_to(&r, "?>");
    if (ok) {
        for (;;) {
            skip_ws(&r);
            if (r.p + 3 < r.end && !strncmp(r.p, "<!--", 4)) { if (!(ok = skip_to(&r, "-->"))) break; continue; }
            break;
        }
    }
    if (ok && (r.p >= r.end || *r.p != '<')) ok = xfail(&r, "no root element");
    if (ok) ok = read_element(&r, 0);
    if (ok) {
        skip_ws(&r);
        if (r.p < r.end) ok = xfail(&r, "something after the root element");
    }
    if (!ok) snprintf(why, n, "%s", r.why);
    return ok;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    fclose(f);
    s[got] = 0;
    if (len) *len = got;
    return s;
}

/* The picture of `nruns` runs: well-formed, with each run's groups and a row
** per track of each run. */
static void expect_picture(const char *svg, size_t len, int nruns, int rows)
{
    char why[200];
    ck_assert_msg(xml_well_formed(svg, len, why, sizeof why), "the SVG is not well-formed XML: %s", why);
    ck_assert_msg(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""), "no svg root in the SVG namespace");
    ck_assert_int_eq(count(svg, "<g class=\"run\""), nruns);
    ck_assert_int_eq(count(svg, "<g class=\"timeline\">"), nruns);
    ck_assert_int_eq(count(svg, "<g class=\"axis\">"), nruns);
    ck_assert_int_eq(count(svg, "<g class=\"legend\">"), nruns);
    ck_assert_int_eq(count(svg, "<g class=\"memory\">"), nruns);
    ck_assert_int_eq(count(svg, "<g class=\"row\""), rows);
    ck_assert_msg(strstr(svg, "data-label=\"step phase\""), "no step-phase row");
    ck_assert_msg(strstr(svg, "class=\"tick\""), "no tick on the time axis");
}

/* --------------------------------------------------------------- tests */

START_TEST(checker_refuses_broken_xml)
{
    static const char *const bad[] = {
        "<svg><g></svg>",                       /* not nested */
        "<svg><g/>",                            /* not closed */
        "<svg a=1/>",                           /* unquoted */
        "<svg a=\"1\" a=\"2\"/>",               /* twice */
        "<svg>a & b</svg>",                     /* bare & */
        "<svg>&nbsp;</svg>",                    /* not predefined */
        "<svg a=\"<\"/>",                       /* < in a value */
        "<svg/><svg/>",                         /* two roots */
        "text",                                 /* no root */
        "<svg>\x01</svg>",                      /* control character */
        "<svg a=\"1\"b=\"2\"/>",                /* no white space */
    };
    char why[200];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!xml_well_formed(bad[i], strlen(bad[i]), why, sizeof why), "accepted: %s", bad[i]);
    const char *good = "<?xml version=\"1.0\"?>\n<!-- c --><svg a='1' b=\"&amp;&#38;&#x26;\"><g><t>x &lt; y</t></g><e/></svg>\n";
    ck_assert_msg(xml_well_formed(good, strlen(good), why, sizeof why), "refused: %s", why);
}
END_TEST

static int tracks_of(const char *scenario, const char *const *sets, int nsets)
{
    cli_opts *o = calloc(1, sizeof *o);
    o->scenario = scenario;
    for (int i = 0; i < nsets; i++) o->sets[o->nsets++] = sets[i];
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    ck_assert_msg(app_open(a, o, &err), "%s", err.msg);
    int n = trace_ntracks(sim_trace(a->run->s));
    app_close(a);
    free(a);
    free(o);
    return n;
}

START_TEST(run_svg_from_the_command_line)
{
    char scn[1024], dir[512], path[1100], cmd[4096];
    snprintf(scn, sizeof scn, "%s/examples/qwen7b_h100x16.lua", test_root());
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "svg"));
    snprintf(path, sizeof path, "%s/q.svg", dir);
    /* a name with XML's special characters must come out escaped */
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --set 'name=q<&>\"' --svg '%s' --json /dev/null --quiet 2>&1",
             test_fusync(), scn, path);
    char *out = NULL;
    int st = test_sh(cmd, &out);
    ck_assert_msg(st == 0, "fusync run --svg: status %d: %s", st, out);
    free(out);
    size_t len;
    char *svg = slurp(path, &len);
    ck_assert_msg(svg != NULL, "no file at %s", path);
    expect_picture(svg, len, 1, tracks_of(scn, NULL, 0));
    ck_assert_msg(strstr(svg, "q&lt;&amp;&gt;&quot;"), "the scenario's name is not escaped");
    ck_assert_msg(strstr(svg, "rollout 0"), "no rollout instance row");
    free(svg);
    /* an out-of-memory run: still a picture, with its banner */
    snprintf(scn, sizeof scn, "%s/examples/does_not_fit.lua", test_root());
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --svg '%s' --json /dev/null --quiet 2>&1", test_fusync(), scn, path);
    st = test_sh(cmd, &out);
    ck_assert_msg(st == 1, "does_not_fit: status %d: %s", st, out);
    free(out);
    svg = slurp(path, &len);
    expect_picture(svg, len, 1, tracks_of(scn, NULL, 0));
    ck_assert_msg(strstr(svg, "<g class=\"banner\">") && strstr(svg, "OVER CAPACITY"), "no out-of-memory banner");
    free(svg);
    /* an unwritable place: status 2, named */
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --svg /nonexistent-dir/x.svg --json /dev/null --quiet 2>&1", test_fusync(), scn);
    st = test_sh(cmd, &out);
    ck_assert_msg(st == 2 && strstr(out, "/nonexistent-dir/x.svg"), "status %d: %s", st, out);
    free(out);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(tui_svg_export_view_and_pair)
{
    char scn[1024], dir[512];
    snprintf(scn, sizeof scn, "%s/examples/qwen7b_h100x16.lua", test_root());
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "svg"));
    cli_opts *o = calloc(1, sizeof *o);
    o->scenario = scn;
    o->out_dir = dir;
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    ck_assert_msg(app_open(a, o, &err), "%s", err.msg);
    app_seek(a, 200 * SIM_NS_PER_S);
    /* E from the key map */
    ck_assert_int_eq(keymap_lookup('E'), REQ_EXPORT_SVG);
    ck_assert(app_request(a, REQ_EXPORT_SVG) & RE_REDRAW);
    ck_assert_msg(!a->msg_err && strstr(a->msg, "Wrote ") && strstr(a->msg, dir), "message: %s", a->msg);
    char path[1200];
    snprintf(path, sizeof path, "%s/qwen7b_h100x16.svg", dir);
    size_t len;
    char *svg = slurp(path, &len);
    ck_assert_msg(svg != NULL, "no %s", path);
    int nt = trace_ntracks(sim_trace(a->run->s));
    expect_picture(svg, len, 1, nt);
    free(svg);
    unlink(path);
    /* the A/B pair: both runs on one axis */
    ck_assert(app_request(a, REQ_SNAP_A));
    ck_assert(app_set(a, "plan.mode", "separate"));
    ck_assert(app_request(a, REQ_SNAP_B));
    a->playing = false;
    a->goal = GOAL_NONE;
    while (app_busy(a)) app_background(a, 1u << 20);
    app_request(a, REQ_COMPARE);
    ck_assert(a->ls.compare);
    char got[1200];
    ck_assert(app_export_svg(a, got, sizeof got));
    ck_assert_msg(strstr(got, ".ab.svg") && strstr(a->msg, "A/B pair"), "%s / %s", got, a->msg);
    svg = slurp(got, &len);
    int na = trace_ntracks(sim_trace(a->snap[0]->s)), nb = trace_ntracks(sim_trace(a->snap[1]->s));
    expect_picture(svg, len, 2, na + nb);
    ck_assert_msg(strstr(svg, "A: ") && strstr(svg, "B: plan.mode=separate"), "the pair's labels are missing");
    free(svg);
    unlink(got);
    rmdir(dir);
    app_close(a);
    free(a);
    free(o);
}
END_TEST

START_TEST(tui_svg_export_falls_back_to_the_current_folder)
{
    /* a folder that does not exist: it cannot be written, even by root */
    char scn[1024], cwd[1024], dir[512];
    snprintf(scn, sizeof scn, "%s/examples/qwen7b_h100x16.lua", test_root());
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *abs = realpath(scn, NULL);
    ck_assert_ptr_nonnull(abs);
    ck_assert_ptr_nonnull(test_tmpdir(dir, sizeof dir, "svg"));
    ck_assert_int_eq(chdir(dir), 0);
    cli_opts *o = calloc(1, sizeof *o);
    o->scenario = abs;
    o->out_dir = "/nonexistent-folder/x";
    tui_app *a = calloc(1, sizeof *a);
    fs_err err = {0, ""};
    ck_assert_msg(app_open(a, o, &err), "%s", err.msg);
    app_seek(a, 50 * SIM_NS_PER_S);
    char got[1200];
    bool ok = app_export_svg(a, got, sizeof got);
    ck_assert_msg(ok && !strncmp(got, "./", 2) && strstr(a->msg, "cannot be written"), "%s / %s", got, a->msg);
    struct stat st;
    ck_assert_int_eq(stat("qwen7b_h100x16.svg", &st), 0);
    unlink("qwen7b_h100x16.svg");
    ck_assert_int_eq(chdir(cwd), 0);
    rmdir(dir);
    app_close(a);
    free(a);
    free(o);
    free(abs);
}
END_TEST

/* The text of every element of class `cls`, in order, one a line. */
static void texts_of(const char *svg, const char *cls, char *out, size_t n)
{
    char open[64];
    snprintf(open, sizeof open, "class=\"%s\">", cls);
    size_t len = 0;
    out[0] = 0;
    for (const char *p = svg; (p = strstr(p, open)); ) {
        p += strlen(open);
        const char *e = strchr(p, '<');
        if (!e) break;
        len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%.*s\n", (int)(e - p), p);
        if (len >= n) break;
    }
}

static char *render(const char *example, const char *const *sets, int nsets)
{
    sim *s = test_example_new(example, sets, nsets, 1);
    sim_run(s);
    fs_buf b;
    buf_init(&b);
    svg_run one = {s, NULL, NULL};
    svg_view v = {0, 0, 0, 0};
    svg_render(&b, &one, 1, &v);
    sim_free(s);
    return b.s;
}

/* For slides: the headline figures in the title; Pangu's 16 alike stages
** one row, so every pool's rows are drawn (the rollouts, the host link);
** a row's label without its pool's name again; each legend colour once,
** under the phase table's labels (trace.h), never its internal names. */
START_TEST(svg_for_slides)
{
    char *svg = render("pangu718b_cm384.lua", NULL, 0), keys[4096], titles[1024];
    char why[200];
    ck_assert_msg(xml_well_formed(svg, strlen(svg), why, sizeof why), "%s", why);
    texts_of(svg, "title", titles, sizeof titles);
    ck_assert_msg(strstr(titles, " tokens/s  step ") && strstr(titles, "mode colocate"), "%s", titles);
    ck_assert_msg(strstr(svg, "data-label=\"  16 stages 0..15 (TP8 x DP3) (24 devices each)\""), "stages not folded");
    ck_assert_int_eq(count(svg, "data-label=\"  stage "), 0);
    ck_assert_msg(strstr(svg, "data-label=\"  host link"), "no host-link row");
    ck_assert_msg(strstr(svg, "data-label=\"  rollout 11 (32 devices)\""), "a rollout row is missing");
    ck_assert_msg(!strstr(svg, "not drawn"), "rows left out");
    texts_of(svg, "key", keys, sizeof keys);
    static const char *const internal[] = {"step: ", "train_1f1b", "grad_sync", "logprob\n", "weight_sync"};
    for (size_t i = 0; i < sizeof internal / sizeof internal[0]; i++)
        ck_assert_msg(!strstr(keys, internal[i]), "legend says %s:\n%s", internal[i], keys);
    ck_assert_msg(strstr(keys, "generate\n") && strstr(keys, "train\n"), "%s", keys);
    /* each colour once in the legend (its <g> holds a swatch per key) */
    const char *lg = strstr(svg, "<g class=\"legend\">"), *lge = strstr(lg, "</g>");
    for (const char *p = lg; (p = strstr(p, "fill=\"")) && p < lge; p++) {
        char c[16];
        snprintf(c, sizeof c, "%.9s", p + 6);
        int twice = 0;
        for (const char *q = lg; (q = strstr(q, c)) && q < lge; q++) twice++;
        ck_assert_msg(twice == 1, "colour %s %d times in the legend", c, twice);
    }
    free(svg);
    /* the separate pools: "rollout 0" under pool rollout, not "rollout rollout 0" */
    const char *sep[] = {"plan.mode=separate"};
    svg = render("qwen7b_h100x16.lua", sep, 1);
    ck_assert_msg(strstr(svg, "data-label=\"  rollout 0\"") && !strstr(svg, "rollout rollout"), "doubled row label");
    free(svg);
    /* an infeasible run headlines no throughput */
    svg = render("does_not_fit.lua", NULL, 0);
    texts_of(svg, "title", titles, sizeof titles);
    ck_assert_msg(strstr(titles, "tokens/s - (infeasible)") && !strstr(titles, " step "), "%s", titles);
    free(svg);
}
END_TEST

static Suite *svg_suite(void)
{
    Suite *s = suite_create("svg");
    TCase *tc = tcase_create("svg");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, checker_refuses_broken_xml);
    tcase_add_test(tc, run_svg_from_the_command_line);
    tcase_add_test(tc, tui_svg_export_view_and_pair);
    tcase_add_test(tc, tui_svg_export_falls_back_to_the_current_folder);
    tcase_add_test(tc, svg_for_slides);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(svg_suite)
