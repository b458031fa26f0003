/*
** main.c — the one libcheck runner.  Suites register themselves (see
** testutil.h).  CK_FORK is on, so a crash is a failed test, not a dead run.
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SUITES 64
static test_suite_fn suites[MAX_SUITES];
static int nsuites;

void test_register(test_suite_fn fn)
{
    if (nsuites < MAX_SUITES) suites[nsuites++] = fn;
}

char *test_tmpfile(const char *suffix, const char *text)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    size_t n = strlen(dir) + strlen(suffix) + 32;
    char *path = malloc(n);
    snprintf(path, n, "%s/fusync-test-XXXXXX%s", dir, suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) { free(path); return NULL; }
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len) { close(fd); unlink(path); free(path); return NULL; }
    close(fd);
    return path;
}

char *test_tmpdir(char *buf, size_t n, const char *tag)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    if (snprintf(buf, n, "%s/fusync-%s-XXXXXX", dir, tag) >= (int)n) return NULL;
    return mkdtemp(buf);
}

sim *test_example_new(const char *name, const char *const *sets, int nsets, int keep)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/%s", test_root(), name);
    scn_scenario sc;
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(path, sets, nsets, &sc, &err), "%s: %s", name, err.msg);
    sim *s = sim_new(&sc, &err);
    ck_assert_msg(s != NULL, "sim_new: %s", err.msg);
    if (keep >= 0) trace_keep(sim_trace_mut(s), keep != 0);
    return s;
}

sim *test_sim_text(const char *lua, const char *const *sets, int nsets)
{
    char *path = test_tmpfile(".lua", lua);
    ck_assert_ptr_nonnull(path);
    scn_scenario sc;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, sets, nsets, &sc, &err);
    unlink(path);
    free(path);
    ck_assert_msg(ok, "load: %s", err.msg);
    sim *s = sim_new(&sc, &err);
    ck_assert_msg(s != NULL, "sim_new: %s", err.msg);
    return s;
}

bool test_scn_text(const char *lua, const char *const *sets, int nsets, scn_scenario *sc, fs_err *err)
{
    char *path = test_tmpfile(".lua", lua);
    ck_assert_ptr_nonnull(path);
    bool ok = lscn_load(path, sets, nsets, sc, err) && scn_validate(sc, err);
    unlink(path);
    free(path);
    return ok;
}

void test_plan_text(const char *lua, const char *const *sets, int nsets, scn_scenario *sc, plan *pl)
{
    fs_err err = {0, ""};
    ck_assert_msg(test_scn_text(lua, sets, nsets, sc, &err), "load: %s", err.msg);
    ck_assert_msg(plan_build(sc, pl, &err), "plan_build: %s", err.msg);
}

const char *test_fusync(void)
{
    const char *p = getenv("FUSYNC");
    return p && *p ? p : "build/fusync";
}

const char *test_root(void)
{
    const char *p = getenv("FUSYNC_ROOT");
    return p && *p ? p : ".";
}

int test_sh(const char *cmd, char **output)
{
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (cap - len < 1024) { cap *= 2; buf = realloc(buf, cap); }
    }
    buf[len] = 0;
    int st = pclose(f);
    if (output) *output = buf;
    else free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
    if (nsuites == 0) { fprintf(stderr, "no test suites registered\n"); return 1; }
    SRunner *sr = srunner_create(suites[0]());
    for (int i = 1; i < nsuites; i++) srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_ENV);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
