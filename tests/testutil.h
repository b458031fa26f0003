/*
** testutil.h — the test runner's registry and helpers.  Each tests/test_*.c
** registers its suites with TEST_SUITE(fn); tests/main.c runs them all in one
** runner, so `make test` ends in one summary line.
*/
#ifndef FUSYNC_TESTUTIL_H
#define FUSYNC_TESTUTIL_H

#include "plan.h"

#include <check.h>
#include <stdbool.h>

typedef Suite *(*test_suite_fn)(void);
void test_register(test_suite_fn fn);

#define TEST_SUITE(fn) \
    static void reg_##fn(void) __attribute__((constructor)); \
    static void reg_##fn(void) { test_register(fn); }

/* Write `text` to a new temporary file with the given suffix (".lua");
** returns its malloc'd path.  The caller removes and frees it. */
char *test_tmpfile(const char *suffix, const char *text);
/* Make a new temporary folder fusync-TAG-XXXXXX under $TMPDIR (or /tmp) in
** buf; returns buf, or NULL when it cannot. */
char *test_tmpdir(char *buf, size_t n, const char *tag);
/* A simulation of the scenario text `lua` (written to a temporary file,
** loaded with the `--set` overrides, set up); fails the test on an error. */
struct sim;
struct sim *test_sim_text(const char *lua, const char *const *sets, int nsets);
/* The scenario text `lua` loaded with the `--set` overrides and validated;
** false with the error in `err` when either refuses it. */
bool test_scn_text(const char *lua, const char *const *sets, int nsets, scn_scenario *sc, fs_err *err);
/* The scenario text `lua` loaded with the `--set` overrides, validated, and
** its plan built; fails the test on an error. */
void test_plan_text(const char *lua, const char *const *sets, int nsets, scn_scenario *sc, plan *pl);
/* A simulation of examples/NAME with the `--set` overrides, set up, not run;
** keep 1 stores the trace's spans, 0 only sums them (a headless run's),
** -1 leaves the default.  Fails the test on an error. */
struct sim *test_example_new(const char *name, const char *const *sets, int nsets, int keep);
/* Path of the fusync binary under test ($FUSYNC, else build/fusync). */
const char *test_fusync(void);
/* Run a shell command; capture stdout+stderr (malloc'd) and the exit status. */
int test_sh(const char *cmd, char **output);
/* Repository root (where examples/ lives), from $FUSYNC_ROOT or ".". */
const char *test_root(void);

#endif
