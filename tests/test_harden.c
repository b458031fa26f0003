/*
** test_harden.c — what docs/security.md promises against code from other
** people: the Lua stack is checked in the what-if readers, the budgets hold
** (xpcall handlers, pcall loops, __close handlers, work inside library
** functions, a whole run), what a plugin hands back is capped in bytes,
** messages cannot carry terminal escapes, temporary files are never opened
** through a planted link, and the small promises (addresses, FIFOs, error
** objects that are tables).
*/
#include "testutil.h"
#include "engine.h"
#include "lua_scenario.h"
#include "plugin.h"
#include "policy.h"
#include "lesson.h"
#include "rtable.h"
#include "jsonr.h"
#include "plan.h"
#include "calibrate.h"
#include "runner.h"
#include "planner.h"
#include "workers.h"

#include <signal.h>
#include <sched.h>
#include <pty.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static char *example(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/examples/%s", test_root(), name);
    return buf;
}

static void load_qwen(scn_scenario *s)
{
    fs_err err = {0, ""};
    ck_assert_msg(lscn_load(example("qwen7b_h100x16.lua"), NULL, 0, s, &err), "%s", err.msg);
}

/* ---------------------------------------------------------------- what-if */

static bool whatif_text(const char *text, whatif_list *w, fs_err *err)
{
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua", text);
    bool ok = whatif_load(path, &s, w, err);
    unlink(path);
    free(path);
    return ok;
}

/* 32 axes keep 96 values on the Lua stack at once: far past LUA_MINSTACK */
START_TEST(whatif_many_axes)
{
    whatif_list w;
    fs_err err = {0, ""};
    ck_assert_msg(whatif_text("local v = {} for i = 1, 32 do v[i] = {'plan.staleness', {i % 3}} end\n"
                              "return {vary = v}\n", &w, &err), "%s", err.msg);
    ck_assert_int_eq(w.nvariants, 1);
    ck_assert_int_eq(w.v[0].nsets, 32);
    ck_assert_str_eq(w.v[0].sets[31], "plan.staleness=2");
    whatif_free(&w);
    ck_assert_msg(whatif_text("local v = {} for i = 1, 32 do v['plan.p' .. string.format('%02d', i)] = {i} end\n"
                              "return {vary = v}\n", &w, &err), "%s", err.msg);
    ck_assert_int_eq(w.v[0].nsets, 32);
    ck_assert_str_eq(w.v[0].sets[0], "plan.p01=1");
    whatif_free(&w);
}
END_TEST

/* 20,000 copies of a 64-key variant would take over a gigabyte of host
** memory; the host refuses past its byte budget, quickly */
START_TEST(whatif_bytes_capped)
{
    whatif_list w;
    fs_err err = {0, ""};
    double t0 = wall_now();
    ck_assert(!whatif_text("return { variants = function(base)\n"
                           "  local t = {} for k = 1, 64 do t['workload.seed' .. k] = k end\n"
                           "  local v = {} for i = 1, 20000 do v[i] = t end return v end }\n", &w, &err));
    ck_assert_msg(strstr(err.msg, "MiB of host memory"), "%s", err.msg);
    ck_assert_int_eq(err.code, 2);
    ck_assert(wall_now() - t0 < 10);
}
END_TEST

/* A metamethod that raises a table: an error about the value, not "out of
** memory" */
START_TEST(error_object_table)
{
    whatif_list w;
    fs_err err = {0, ""};
    ck_assert(!whatif_text("return { variants = function(base)\n"
                           "  return { setmetatable({}, {__index = function() error({}) end}) } end }\n",
                           &w, &err));
    ck_assert_msg(!strstr(err.msg, "out of memory") && strstr(err.msg, "table value"), "%s", err.msg);
}
END_TEST

/* ---------------------------------------------------------------- plugins */

static bool place_text(const char *text, const plugin_limits *lim, fs_err *err)
{
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua", text);
    plugin *p = plugin_open(path, lim, err);
    bool ok = p && policy_place(p, &s, err);
    plugin_close(p);
    unlink(path);
    free(path);
    return ok;
}

static void expect_place_refused(const char *text, const char *needle, double max_s)
{
    fs_err err = {0, ""};
    double t0 = wall_now();
    ck_assert_msg(!place_text(text, NULL, &err), "not refused: %s", text);
    double dt = wall_now() - t0;
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, needle), "expected '%s' in: %s", needle, err.msg);
    /* a bound far above the budgets' own: a stop that never comes, not a slow machine */
    ck_assert_msg(dt < 10 * max_s, "took %.1f s: %s", dt, text);
}

/* Lua runs xpcall's message handler inside the count hook, where hooks are
** off: a looping handler must not run for a stop */
START_TEST(xpcall_handler_cannot_escape)
{
    expect_place_refused("function place(ctx)\n"
                         "  xpcall(function() while true do end end, function() while true do end end)\n"
                         "end\n", "instruction budget", 20);
    /* a handler still runs for an ordinary error */
    fs_err err = {0, ""};
    ck_assert_msg(place_text("function place(ctx)\n"
                             "  local ok, m = xpcall(function() error('x', 0) end, function(e) return e .. 'y' end)\n"
                             "  assert(not ok and m == 'xy') return ctx.plan\nend\n", NULL, &err), "%s", err.msg);
}
END_TEST

START_TEST(library_work_is_charged)
{
    /* The instruction budget must stop each of these, whatever the machine's
    ** speed: the wall-clock budget is raised out of the way (the test case's
    ** timeout still bounds a run that is not stopped). */
    setenv("FUSYNC_PLUGIN_SECONDS", "100000", 1);
    fs_err err = {0, ""};
    ck_assert_msg(place_text("function place(ctx)\n local s = string.rep('', math.maxinteger)\n"
                             " assert(s == '') return ctx.plan\nend\n", NULL, &err), "%s", err.msg);
    expect_place_refused("function place(ctx) table.move({}, 1, math.maxinteger - 1, 2) end", "instruction budget", 5);
    expect_place_refused("function place(ctx) local t = {} for i = 1, 1e9 do table.insert(t, 1, i) end end",
                         "instruction budget", 20);
    expect_place_refused("function place(ctx) local s = ('x'):rep(1 << 20)\n"
                         " for i = 1, 1e9 do local _ = s:upper() end end", "instruction budget", 20);
}
END_TEST

/* The budget of a run: every call's instructions and seconds together */
START_TEST(run_budget)
{
    plugin_limits lim;
    plugin_limits_default(&lim);
    lim.run_instructions = 5000000;
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua", "function place(ctx) for i = 1, 1000000 do end return ctx.plan end\n");
    fs_err err = {0, ""};
    plugin *p = plugin_open(path, &lim, &err);
    ck_assert_msg(p, "%s", err.msg);
    int calls = 0;
    while (calls < 100 && policy_place(p, &s, &err)) calls++;
    ck_assert_msg(calls >= 2 && calls < 10, "%d calls", calls);
    ck_assert_msg(strstr(err.msg, "in this run") && strstr(err.msg, "FUSYNC_PLUGIN_RUN_INSTRUCTIONS"), "%s", err.msg);
    /* stopped is stopped */
    ck_assert(!policy_place(p, &s, &err));
    plugin_close(p);

    plugin_limits_default(&lim);
    lim.run_seconds = 0.3;
    free(path);
    path = test_tmpfile(".lua", "function place(ctx) local t = os.clock() while os.clock() < t + 0.1 do end "
                                "return ctx.plan end\n");
    p = plugin_open(path, &lim, &err);
    ck_assert_msg(p, "%s", err.msg);
    calls = 0;
    while (calls < 100 && policy_place(p, &s, &err)) calls++;
    ck_assert_msg(calls < 6, "%d calls", calls);     /* 0 on a busy machine: os.clock is CPU time */
    ck_assert_msg(strstr(err.msg, "FUSYNC_PLUGIN_RUN_SECONDS"), "%s", err.msg);
    /* a new run starts the budget again */
    plugin_run_reset(p);
    plugin_close(p);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(candidates_bytes_capped)
{
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua", "function candidates(ctx) local v = {}\n"
                                      " for i = 1, 200000 do v[i] = {staleness = 1} end return v end\n");
    fs_err err = {0, ""};
    plugin *p = plugin_open(path, NULL, &err);
    ck_assert_msg(p, "%s", err.msg);
    plan_axes ax;
    memset(&ax, 0, sizeof ax);
    scn_scenario *plans = NULL;
    int n = 0;
    ck_assert(!policy_candidates(p, &s, &ax, &plans, &n, &err));
    ck_assert_msg(strstr(err.msg, "the host keeps at most"), "%s", err.msg);
    ck_assert(plans == NULL && n == 0);
    plugin_close(p);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(no_addresses_and_clear_refusals)
{
    fs_err err = {0, ""};
    ck_assert_msg(place_text("function place(ctx)\n"
                             "  assert(tostring(print) == 'function: builtin', tostring(print))\n"
                             "  assert(not tostring({}):find('0x'))\n"
                             "  assert(not string.format('%s', {}):find('0x'))\n"
                             "  assert(not pcall(string.format, '%p', {}))\n"
                             "  return ctx.plan\nend\n", NULL, &err), "%s", err.msg);
    expect_place_refused("function place(ctx) os.execute('true') end",
                         ":1: os.execute is not available in the sandbox", 5);
    expect_place_refused("function place(ctx) io.open('/etc/passwd') end", ":1: io is not available in the sandbox", 5);
}
END_TEST

/* A FIFO (or /dev/stdin) would block the load for ever */
START_TEST(plugin_not_regular_file)
{
    char dir[512];
    ck_assert(test_tmpdir(dir, sizeof dir, "fifo"));
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s/p.lua", dir);
    ck_assert(mkfifo(fifo, 0600) == 0);
    fs_err err = {0, ""};
    plugin *p = plugin_open(fifo, NULL, &err);
    ck_assert(p == NULL);
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

/* ---------------------------------------------------------------- scenarios */

static void expect_scenario_stopped(const char *prefix, const char *needle, double max_s)
{
    char *text = malloc(65536);
    FILE *f = fopen(example("qwen7b_h100x16.lua"), "r");
    ck_assert(f);
    size_t n = strlen(prefix);
    memcpy(text, prefix, n);
    n += fread(text + n, 1, 65536 - n - 1, f);
    text[n] = 0;
    fclose(f);
    char *path = test_tmpfile(".lua", text);
    free(text);
    scn_scenario s;
    fs_err err = {0, ""};
    double t0 = wall_now();
    ck_assert(!lscn_load(path, NULL, 0, &s, &err));
    double dt = wall_now() - t0;
    ck_assert_msg(strstr(err.msg, needle), "expected '%s' in: %s", needle, err.msg);
    ck_assert_msg(dt < 10 * max_s, "took %.1f s", dt);
    unlink(path);
    free(path);
}

START_TEST(scenario_stops_are_final)
{
    expect_scenario_stopped("xpcall(function() while true do end end, function() while true do end end)\n",
                            "scenario ran too long", 10);
    expect_scenario_stopped("while true do pcall(function() while true do end end) end\n",
                            "scenario ran too long", 10);
    expect_scenario_stopped("while true do pcall(function()\n"
                            "  local x <close> = setmetatable({}, {__close = function() while true do end end})\n"
                            "  error('x') end) end\n", "scenario ran too long", 10);
    expect_scenario_stopped("table.move({}, 1, math.maxinteger - 1, 2)\n", "scenario ran too long", 10);
}
END_TEST

/* Near the memory budget the collector thrashes: the hook stops short of it */
START_TEST(scenario_memory_stops_soon)
{
    /* the memory budget must stop it, not the wall clock (raised out of the way) */
    setenv("FUSYNC_SCENARIO_SECONDS", "100000", 1);
    expect_scenario_stopped("local t = {} for i = 1, 1e9 do t[i] = {i, i + 1, tostring(i)} end\n",
                            "MiB of memory", 25);
}
END_TEST

/* ---------------------------------------------------------------- output */

START_TEST(messages_are_terminal_safe)
{
    fs_err e;
    fs_err_set(&e, 2, "name '%s' and %s", "\x1b]0;PWN\x07", "\xc2\x9b" "2J \xff caf\xc3\xa9\n\tok");
    ck_assert_msg(!strchr(e.msg, 0x1b) && !strchr(e.msg, 0x07) && !strstr(e.msg, "\xc2\x9b") && !strchr(e.msg, '\xff'),
                  "%s", e.msg);
    ck_assert_str_eq(e.msg, "name '\\x1b]0;PWN\\x07' and \\u009b2J \\xff caf\xc3\xa9\n\tok");
    char small[5];
    fs_term_escape(small, sizeof small, "ab\x1b" "cdef");
    ck_assert_str_eq(small, "ab");     /* whole escapes only */
}
END_TEST

START_TEST(temp_file_never_follows_a_link)
{
    char dir[512];
    ck_assert(test_tmpdir(dir, sizeof dir, "link"));
    char victim[600], out[600], link[600];
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(out, sizeof out, "%s/out.json", dir);
    snprintf(link, sizeof link, "%s/out.json.tmp", dir);
    FILE *f = fopen(victim, "w");
    fputs("precious\n", f);
    fclose(f);
    ck_assert(symlink(victim, link) == 0);
    fs_err err = {0, ""};
    ck_assert_msg(write_file_atomic(out, "{}\n", 3, &err), "%s", err.msg);
    char buf[32] = "";
    f = fopen(victim, "r");
    ck_assert(fgets(buf, sizeof buf, f));
    fclose(f);
    ck_assert_str_eq(buf, "precious\n");
    struct stat st;
    mode_t um = umask(0);
    umask(um);
    /* mkstemp makes 0600; the file gets the usual 0666 less the umask */
    ck_assert(stat(out, &st) == 0 && st.st_size == 3 && (st.st_mode & 0777) == (0666 & ~um));
    ck_assert(!write_file_atomic("", "x", 1, &err));
    ck_assert_msg(strstr(err.msg, "empty"), "%s", err.msg);
    unlink(link);
    unlink(out);
    unlink(victim);
    rmdir(dir);
}
END_TEST

/* ------------------------------------------------------- scenario paths */

static void probe(const char *name, fs_err *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/hostile/%s", test_root(), name);
    scn_scenario s;
    ck_assert(!lscn_load(path, NULL, 0, &s, err));
}

/* A scenario tries fusync.scenario, fusync.hf_config and
** fusync.dist.from_file on files outside its folder: each is refused with
** the message a missing file gets, and nothing of the files' text or size
** reaches the message a pcall keeps; allowed (--data-dir), an included
** file runs in its own globals and no message quotes the file either. */
START_TEST(scenario_reads_only_its_tree)
{
    fs_err err = {0, ""};
    probe("probe_outside.lua", &err);
    ck_assert_msg(strstr(err.msg, ": SAME fusync.scenario: "), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "cannot read it: no such file under the scenario's folder"), "%s", err.msg);
    ck_assert_msg(!strstr(err.msg, "hunter2"), "%s", err.msg);

    char data[1024];
    snprintf(data, sizeof data, "%s/tests/data/outside", test_root());
    ck_assert_msg(lscn_allow_dir(data, &err), "%s", err.msg);
    probe("probe_allowed.lua", &err);
    lscn_allow_reset();
    ck_assert_msg(!strstr(err.msg, "hunter2"), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "fusync.scenario: ") && strstr(err.msg, "does not load as a scenario (line 2)"),
                  "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "|global nil|"), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "fusync.hf_config: ../outside/config.json: not a config.json fusync reads"),
                  "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "fusync.dist.from_file: ") && strstr(err.msg, ":2: not a length in tokens"),
                  "%s", err.msg);
    struct stat st;
    char cfg[1100], size[32];
    snprintf(cfg, sizeof cfg, "%s/config.json", data);
    ck_assert_int_eq(stat(cfg, &st), 0);
    snprintf(size, sizeof size, "%lld", (long long)st.st_size);
    ck_assert_msg(!strstr(err.msg, size), "%s", err.msg);
    ck_assert(!lscn_allow_dir("/no/such/folder", &err));
}
END_TEST

/* candidates() returning 11 axes of 32 values: about 10^16 layouts, refused
** with the axes named instead of enumerated for months */
START_TEST(candidate_axes_product_capped)
{
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua", "function candidates(ctx)\n"
                                      "  local v = {} for i = 1, 32 do v[i] = i end\n"
                                      "  return {train_tp = v, train_pp = v, micro_batch = v, train_cp = v,\n"
                                      "          rollout_tp = v, max_seqs = v, supernodes = v,\n"
                                      "          nodes_per_supernode = v, train_ep = v, rollout_ep = v}\n"
                                      "end\n");
    fs_err err = {0, ""};
    plugin *p = plugin_open(path, NULL, &err);
    ck_assert_msg(p, "%s", err.msg);
    planner *P = calloc(1, sizeof *P);
    planner_opts po = {.objective = PLAN_OBJ_THROUGHPUT};
    ck_assert(!planner_init(P, &s, p, &po, &err));
    ck_assert_msg(strstr(err.msg, "layouts (") && strstr(err.msg, "train_tp 32") && strstr(err.msg, "rollout_ep 32")
                  && strstr(err.msg, "give fewer values"), "%s", err.msg);
    planner_free(P);
    free(P);
    plugin_close(p);
    unlink(path);
    free(path);
}
END_TEST

/* ------------------------------------------------------------ the pool */

typedef struct { int raise_at, sig, fd; } pool_probe;

static bool probe_item(void *ud, rtable *t, int item, fs_err *err)
{
    (void)t;
    (void)err;    /* a workers_fn: this probe fills no row and never fails */
    pool_probe *pp = ud;
    if (pp->fd >= 0) {
        /* in a worker: say who we are, then wait to be ended */
        pid_t me = getpid();
        if (write(pp->fd, &me, sizeof me) != sizeof me) return false;
        for (;;) pause();
    }
    if (item == pp->raise_at) raise(pp->sig);
    return true;
}

/* A child process: workers_run of 50 items, a stop signal at item 3; exits
** with the error's code. */
static int pool_stop_status(int sig, int jobs)
{
    pid_t c = fork();
    ck_assert(c >= 0);
    if (c == 0) {
        fs_signals_install();
        workers_signals(true);
        rtable t;
        rtable_init(&t, "sweep");
        pool_probe pp = {3, sig, -1};
        fs_err err = {0, ""};
        /* with jobs > 1 the signal comes from the parent's side: raise it now */
        if (jobs > 1) raise(sig);
        bool ok = workers_run(&t, 50, jobs, probe_item, &pp, NULL, &err);
        _exit(ok ? 0 : err.code);
    }
    int st = 0;
    ck_assert(waitpid(c, &st, 0) == c);
    ck_assert_msg(WIFEXITED(st), "ended by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return WEXITSTATUS(st);
}

/* SIGHUP and SIGQUIT stop a sweep or plan as SIGINT and SIGTERM do, with
** 128 + the signal */
START_TEST(pool_stops_on_every_stop_signal)
{
    ck_assert_int_eq(pool_stop_status(SIGINT, 1), 130);
    ck_assert_int_eq(pool_stop_status(SIGTERM, 1), 130);
    ck_assert_int_eq(pool_stop_status(SIGHUP, 1), 129);
    ck_assert_int_eq(pool_stop_status(SIGQUIT, 1), 131);
    ck_assert_int_eq(pool_stop_status(SIGHUP, 2), 129);
}
END_TEST

/* pid exists and is not a zombie waiting for a reaper */
static bool process_runs(pid_t pid)
{
    if (kill(pid, 0) != 0) return false;
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *rp = strrchr(buf, ')');
    return !(rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X'));
}

/* The command's budget ends a sweep's pool (FUSYNC_COMMAND_SECONDS), in
** serial and with workers; a budget already spent is the deterministic case. */
START_TEST(command_budget_stops_the_pool)
{
    for (int jobs = 1; jobs <= 2; jobs++) {
        int fds[2];
        ck_assert(pipe(fds) == 0);
        pid_t c = fork();
        ck_assert(c >= 0);
        if (c == 0) {
            close(fds[0]);
            setenv("FUSYNC_COMMAND_SECONDS", "1e-9", 1);
            fs_budget_start();
            rtable t;
            rtable_init(&t, "sweep");
            pool_probe pp = {-1, 0, -1};
            fs_err err = {0, ""};
            bool ok = workers_run(&t, 8, jobs, probe_item, &pp, NULL, &err);
            if (write(fds[1], err.msg, strlen(err.msg) + 1) < 0) _exit(3);
            _exit(ok ? 0 : err.code);
        }
        close(fds[1]);
        char msg[1024] = "";
        ssize_t got = read(fds[0], msg, sizeof msg - 1);
        msg[got > 0 ? got : 0] = 0;
        close(fds[0]);
        int st = 0;
        waitpid(c, &st, 0);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2, "jobs %d: status %d: %s", jobs, st, msg);
        ck_assert_msg(strstr(msg, "budget of 1e-09 s") && strstr(msg, "FUSYNC_COMMAND_SECONDS"), "%s", msg);
    }
}
END_TEST

/* Workers die with their parent: the parent of two workers is killed
** (SIGKILL: nothing of its own runs), and both workers end. */
START_TEST(workers_die_with_parent)
{
    int fds[2];
    ck_assert(pipe(fds) == 0);
    pid_t c = fork();
    ck_assert(c >= 0);
    if (c == 0) {
        close(fds[0]);
        rtable t;
        rtable_init(&t, "sweep");
        pool_probe pp = {-1, 0, fds[1]};
        fs_err err = {0, ""};
        workers_run(&t, 2, 2, probe_item, &pp, NULL, &err);
        _exit(0);
    }
    close(fds[1]);
    pid_t w[2];
    for (int i = 0; i < 2; i++) ck_assert(read(fds[0], &w[i], sizeof w[i]) == sizeof w[i]);
    kill(c, SIGKILL);
    int st;
    waitpid(c, &st, 0);
    /* the workers are not our children: kill(pid, 0) fails once each is
    ** gone (reaped by init); wait for that, without a clock */
    for (int i = 0; i < 2; i++) {
        long spins = 0;
        while (process_runs(w[i]) && spins < 200000000L) { spins++; sched_yield(); }
        ck_assert_msg(!process_runs(w[i]), "worker %d outlived its parent", (int)w[i]);
    }
    close(fds[0]);
}
END_TEST

/* ------------------------------------------------------------ calibrate */

/* Measured train times of n steps with prompt lengths varied, made by the
** engine at train efficiency 0.3: the fit of `train` alone. */
static int calibrate_sims(const scn_scenario *base, int n)
{
    cal_data d;
    memset(&d, 0, sizeof d);
    d.nrows = n;
    d.t = calloc((size_t)n * CP__COUNT, sizeof(double));
    d.has[CP_TRAIN] = true;
    for (int i = 0; i < n; i++) {
        scn_scenario s = *base;
        s.work.iterations = s.work.warmup + 1;
        s.eff.train = 0.3 * (1 + 0.01 * (i % 5));      /* a little noise */
        runner_spec spec = {.scn = &s, .headless = true};
        fs_err err = {0, ""};
        runner *r = runner_open(&spec, &err);
        ck_assert_msg(r != NULL, "%s", err.msg);
        report rep;
        ck_assert(runner_close(r, &rep, &err));
        runner_free(r);
        for (int p = 0; p < CP__COUNT; p++) d.t[i * CP__COUNT + p] = NAN;
        d.t[i * CP__COUNT + CP_TRAIN] = rep.phase_s[STEP_TRAIN];
    }
    int k[CAL_KNOBS_MAX], nk;
    fs_err err = {0, ""};
    ck_assert(cal_knobs_parse("train", k, &nk, &err));
    cal_result res;
    ck_assert_msg(cal_fit(base, &d, k, nk, &res, &err), "%s", err.msg);
    ck_assert(res.loo_error > 0 && res.loo_error < 0.05);
    ck_assert(res.simulations <= cal_sims_bound(n, nk));
    free(d.t);
    return res.simulations;
}

/* Twice the measured steps cost about twice the simulated steps, not four
** times (leave-one-out refitted once per row over all the others). */
START_TEST(calibrate_cost_is_linear)
{
    scn_scenario s;
    load_qwen(&s);
    s.work.prompts_per_step = 8;
    int a = calibrate_sims(&s, 12), b = calibrate_sims(&s, 24);
    ck_assert_msg(b < 2.6 * a, "12 steps: %d simulations, 24 steps: %d", a, b);
    ck_assert(cal_sims_bound(2000, 5) < 30 * cal_sims_bound(100, 5));
}
END_TEST

/* Two pools of one name: refused where the plan is built (check, run, a
** plugin's plan), not counted as one pool with "inf PiB" of host memory */
START_TEST(duplicate_pool_names_refused)
{
    scn_scenario s;
    load_qwen(&s);
    char *path = test_tmpfile(".lua", "");
    char text[2048], ex[PATH_MAX];
    ck_assert(realpath(example("qwen7b_h100x16.lua"), ex) != NULL);
    snprintf(text, sizeof text, "local s = fusync.scenario(%s%s%s)\n"
             "s.plan.mode = 'separate'\n"
             "s.plan.pools = { { name = 'p', devices = 8, roles = { 'rollout' } },\n"
             "                 { name = 'p', devices = 8, roles = { 'train', 'ref' } } }\n"
             "return s\n", "\"", ex, "\"");
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    fs_err err = {0, ""};
    bool ok = lscn_load(path, NULL, 0, &s, &err);
    plan pl;
    if (ok) ok = plan_build(&s, &pl, &err);
    ck_assert(!ok);
    ck_assert_msg(strstr(err.msg, "plan.pools[2]: the name 'p' is also pools[1]'s"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

/* Measured cells outside their field's range are refused with the row and
** column named: a time of 1e-200 s made every knob NaN (exit 0, `= null`),
** 1e300 s printed 300-digit ratios, 2^31 tokens wrapped through an int. */
START_TEST(calibrate_cells_in_range)
{
    static const struct { const char *csv, *want; } cases[] = {
        {"train_s\n1\n1e-200\n1\n", "row 2: column 'train_s': 1e-200 s is outside 1e-06..1e+06 s (or 0)"},
        {"train_s\n1\n1e300\n1\n", "row 2: column 'train_s': 1e+300 s is outside"},
        {"train_s,response_length/mean\n1,500\n1,2147483648\n1,500\n",
         "row 2: column 'response_length/mean': 2.147e+09 tokens is outside 1..2.09715e+06 tokens"},
        {"train_s,response_length/mean\n1,500\n1,0.5\n1,500\n", "is outside 1..2.09715e+06 tokens"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cal_data d;
        fs_err err = {0, ""};
        bool ok = cal_parse(cases[i].csv, strlen(cases[i].csv), "m.csv", NULL, NULL, &d, &err);
        if (ok) cal_data_free(&d);
        ck_assert_msg(!ok && strstr(err.msg, cases[i].want), "case %zu: %s", i, ok ? "accepted" : err.msg);
    }
    /* 0 is a phase that did not happen: accepted */
    cal_data d;
    fs_err err = {0, ""};
    ck_assert_msg(cal_parse("train_s,generate_s\n1,0\n1,0\n1,0\n", 31, "m.csv", NULL, NULL, &d, &err), "%s", err.msg);
    cal_data_free(&d);
}
END_TEST

/* The JSON reader's budget: more values than it takes is an error with a
** message, and an allocation that fails (a memory limit) is one too, where
** the process used to abort (status 134). */
START_TEST(json_reader_bounded)
{
    /* first, while the heap holds no freed memory to reuse under the limit */
#if !defined(__SANITIZE_ADDRESS__)
    pid_t c = fork();
    ck_assert(c >= 0);
    if (c == 0) {
        /* a 64 MiB string under an address-space limit 32 MiB past what is in use */
        size_t big = (size_t)64 << 20;
        char *t = malloc(big + 3);
        if (!t) _exit(3);
        t[0] = '"';
        memset(t + 1, 'a', big);
        t[big + 1] = '"';
        t[big + 2] = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (!f || fscanf(f, "%lu", &pages) != 1) _exit(4);
        fclose(f);
        struct rlimit rl = {(rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)32 << 20), RLIM_INFINITY};
        rl.rlim_max = rl.rlim_cur;
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(5);
        jv w;
        char m[200];
        bool ok = jsonr_parse(t, big + 2, &w, m, sizeof m);
        _exit(!ok && strstr(m, "out of memory") ? 0 : 6);
    }
    int st = 0;
    waitpid(c, &st, 0);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
#endif
    size_t n = (size_t)JSONR_NODES_MAX + 10, len = 2 * n + 1;
    char *text = malloc(len + 1);
    text[0] = '[';
    for (size_t i = 0; i < n; i++) { text[1 + 2 * i] = '1'; text[2 + 2 * i] = ','; }
    text[len - 1] = ']';
    text[len] = 0;
    jv v;
    char why[200];
    ck_assert(!jsonr_parse(text, len, &v, why, sizeof why));
    ck_assert_msg(strstr(why, "more values than the reader takes"), "%s", why);
    free(text);
}
END_TEST

/* `--csv -` on a terminal (plan, sweep, merge): a name holding an escape
** sequence (a crafted shard, a candidates() pool) reaches the terminal
** escaped.  The child writes through a pseudo-terminal. */
START_TEST(csv_to_terminal_is_escaped)
{
    int master;
    pid_t c = forkpty(&master, NULL, NULL, NULL);
    ck_assert(c >= 0);
    if (c == 0) {
        rtable t;
        rtable_init(&t, "plan");
        rtable_add_col(&t, "id");
        rtable_add_col(&t, "name");
        rt_row *r = rtable_new_row(&t, 0);
        rt_row_set_int(r, 0, 0);
        rt_row_set_str(r, 1, "x\033]0;PWN\007y");
        fs_err err = {0, ""};
        bool ok = rtable_write(&t, "-", NULL, &err);
        fflush(stdout);
        _exit(ok ? 0 : 2);
    }
    char buf[4096];
    size_t n = 0;
    for (;;) {
        ssize_t got = read(master, buf + n, sizeof buf - 1 - n);
        if (got <= 0) break;
        n += (size_t)got;
    }
    buf[n] = 0;
    int st = 0;
    waitpid(c, &st, 0);
    close(master);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ck_assert_msg(strstr(buf, "x\\x1b]0;PWN\\x07y"), "%s", buf);
    ck_assert(!strchr(buf, '\033'));
}
END_TEST

/* The SI formatter goes past T (it printed 8827056097.60T) */
START_TEST(si_formatter_past_tera)
{
    char b[64];
    fmt_si(b, sizeof b, 8.82705609760e21);
    ck_assert_str_eq(b, "8.83e+21");
    fmt_si(b, sizeof b, 2.5e15);
    ck_assert_str_eq(b, "2.50P");
    fmt_si(b, sizeof b, 3e18);
    ck_assert_str_eq(b, "3.00E");
    fmt_si(b, sizeof b, 4.2e12);
    ck_assert_str_eq(b, "4.20T");
}
END_TEST

/* ------------------------------------------------------------ the engine */

/* Every run trains all its steps, over staleness x partial rollout x
** dispatch x KV admission x on_stale x mini-batches x answer tails, drawn
** from a fixed seed, separate pools.  It stalled with staleness 2-4,
** partial_rollout <= 0.05, paged KV, "wait", two or more mini-batches and
** long-tailed answers: more samples started on old versions than a step
** holds, and the step waited for room it could never have. */
START_TEST(separate_runs_never_stall)
{
    static const double partial[] = {0.01, 0.05, 0.3, 1};
    static const double sigma[] = {0.9, 1.5, 2.0};
    static const int mbs[] = {2, 4, 8};
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    int stalled = 0;
    char first[600] = "";
    for (int k = 0; k < 28; k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        scn_scenario s;
        load_qwen(&s);
        s.plan.mode = MODE_SEPARATE;
        s.work.iterations = 10;
        s.plan.staleness = 1 + (int)(x % 4);
        s.plan.partial_rollout = partial[(x >> 8) % 4];
        s.plan.rollout.dispatch = (scn_dispatch)((x >> 16) % 3);
        s.plan.rollout.kv = (x >> 24) % 4 ? KV_PAGED : KV_RESERVE;
        s.plan.on_stale = (x >> 32) % 4 ? STALE_WAIT : STALE_DISCARD;
        s.work.minibatches = mbs[(x >> 40) % 3];
        s.work.response_len.b = sigma[(x >> 48) % 3];     /* lognormal sigma */
        runner_spec spec = {.scn = &s, .headless = true};
        fs_err err = {0, ""};
        runner *r = runner_open(&spec, &err);
        ck_assert_msg(r != NULL, "%s", err.msg);
        report rep;
        bool ok = runner_close(r, &rep, &err);
        runner_free(r);
        if (!ok || !rep.feasible) {
            if (!stalled++)
                snprintf(first, sizeof first, "staleness %d partial %g dispatch %d kv %d on_stale %d mb %d sigma %g: %s",
                         s.plan.staleness, s.plan.partial_rollout, (int)s.plan.rollout.dispatch, (int)s.plan.rollout.kv,
                         (int)s.plan.on_stale, s.work.minibatches, s.work.response_len.b, ok ? rep.why : err.msg);
        }
    }
    ck_assert_msg(stalled == 0, "%d of 28 runs did not train every step; the first: %s", stalled, first);
}
END_TEST

/* A lesson whose steps table has a __len returning 1.5: the error names the
** file (it said "object length is not an integer"); found by fuzz_lesson */
START_TEST(lesson_len_names_the_file)
{
    char *path = test_tmpfile(".lua", "local steps = setmetatable({}, { __len = function() return 1.5 end })\n"
                                      "return { title = 'len', scenario = 'x.lua', steps = steps }\n");
    fs_err err = {0, ""};
    lesson *l = lesson_open(path, &err);
    ck_assert(l == NULL);
    ck_assert_msg(err.code == 2 && strstr(err.msg, path) && strstr(err.msg, "steps"), "%s", err.msg);
    unlink(path);
    free(path);
}
END_TEST

/* Small ones: a FIFO as a scenario is refused at once (it waited 4 s, then
** blamed a library function); charging a library call never turns its
** argument error into a final budget stop; score() returning NaN is told
** as NaN, not "-nan". */
START_TEST(small_refusals)
{
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/fusync-fifo-%d.lua", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    unlink(fifo);
    ck_assert(mkfifo(fifo, 0600) == 0);
    scn_scenario s;
    fs_err err = {0, ""};
    ck_assert(!lscn_load(fifo, NULL, 0, &s, &err));
    ck_assert_msg(strstr(err.msg, "not a regular file"), "%s", err.msg);
    unlink(fifo);

    char text[4096], ex[PATH_MAX];
    ck_assert(realpath(example("qwen7b_h100x16.lua"), ex) != NULL);
    snprintf(text, sizeof text,
             "assert(not pcall(table.unpack, {}, 1, 1e8))\n"
             "assert(not pcall(table.concat, {}, '', 1, 1e9))\n"
             "assert(not pcall(table.concat, {'a', 'b'}, '', 1, 1e9))\n"
             "return fusync.scenario(\"%s\")\n", ex);
    char *path = test_tmpfile(".lua", text);
    ck_assert_msg(lscn_load(path, NULL, 0, &s, &err), "%s", err.msg);
    unlink(path);
    free(path);

    load_qwen(&s);
    path = test_tmpfile(".lua", "function score(ctx, r) return 0/0 end\n");
    plugin *p = plugin_open(path, NULL, &err);
    ck_assert_msg(p, "%s", err.msg);
    report rep;
    memset(&rep, 0, sizeof rep);
    double sc;
    char why[128];
    ck_assert(!policy_score(p, &s, &rep, &sc, why, sizeof why, &err));
    ck_assert_msg(strstr(err.msg, "returned NaN; expected a finite number"), "%s", err.msg);
    plugin_close(p);
    unlink(path);
    free(path);
}
END_TEST

/* A budget stop names the line the hook stopped on: the loop's, not the
** function's return below it (each loop form a plugin is likely to spin in). */
START_TEST(budget_names_the_loop)
{
    static const char *loops[] = {"while true do\n    x = x + 1\n  end",
                                  "for i = 1, 1e15 do\n    x = x + i\n  end",
                                  "repeat\n    x = x + 1\n  until false"};
    scn_scenario s;
    load_qwen(&s);
    for (int k = 0; k < 3; k++) {
        char text[512];
        /* line 3: the loop; line 6: the return */
        snprintf(text, sizeof text, "function place(ctx)\n  local x = 0\n  %s\n  return ctx.plan\nend\n", loops[k]);
        plugin_limits lim;
        plugin_limits_default(&lim);
        lim.instructions = 200000;
        char *path = test_tmpfile(".lua", text);
        fs_err err = {0, ""};
        plugin *p = plugin_open(path, &lim, &err);
        ck_assert_msg(p, "%s", err.msg);
        ck_assert(!policy_place(p, &s, &err));
        char want[64], ret[64];
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        snprintf(ret, sizeof ret, "%s:6:", base);
        bool on_loop = false;
        for (int line = 3; line <= 5; line++) {
            snprintf(want, sizeof want, "%s:%d:", base, line);
            on_loop |= strstr(err.msg, want) != NULL;
        }
        ck_assert_msg(on_loop && !strstr(err.msg, ret), "loop %d: %s", k, err.msg);
        plugin_close(p);
        unlink(path);
        free(path);
    }
}
END_TEST

/* The commands fusync prints (a plan row's run_with, an export's shell
** lines) quote a word only where a shell would read it otherwise, and a
** quote inside a quoted word survives (src/util.h, buf_shell_word). */
START_TEST(shell_words_quoted)
{
    static const char *const in[] = {"examples/qwen7b_h100x16.lua", "plan.train.tp=2", "Qwen/Qwen2.5-7B@main", "",
                                     "two words", "it's", "$HOME", "a;b", NULL};
    static const char *const want[] = {"examples/qwen7b_h100x16.lua", "plan.train.tp=2", "Qwen/Qwen2.5-7B@main", "''",
                                       "'two words'", "'it'\\''s'", "'$HOME'", "'a;b'", NULL};
    for (int i = 0; in[i]; i++) {
        fs_buf b;
        buf_init(&b);
        buf_shell_word(&b, in[i]);
        ck_assert_str_eq(b.s, want[i]);
        buf_free(&b);
    }
}
END_TEST

Suite *suite_harden(void)
{
    Suite *s = suite_create("harden");
    TCase *tc = tcase_create("lua");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, whatif_many_axes);
    tcase_add_test(tc, scenario_reads_only_its_tree);
    tcase_add_test(tc, whatif_bytes_capped);
    tcase_add_test(tc, error_object_table);
    tcase_add_test(tc, xpcall_handler_cannot_escape);
    tcase_add_test(tc, library_work_is_charged);
    tcase_add_test(tc, run_budget);
    tcase_add_test(tc, shell_words_quoted);
    tcase_add_test(tc, budget_names_the_loop);
    tcase_add_test(tc, candidates_bytes_capped);
    tcase_add_test(tc, calibrate_cost_is_linear);
    tcase_add_test(tc, candidate_axes_product_capped);
    tcase_add_test(tc, pool_stops_on_every_stop_signal);
    tcase_add_test(tc, workers_die_with_parent);

    tcase_add_test(tc, no_addresses_and_clear_refusals);
    tcase_add_test(tc, plugin_not_regular_file);
    tcase_add_test(tc, scenario_stops_are_final);
    tcase_add_test(tc, scenario_memory_stops_soon);
    suite_add_tcase(s, tc);
    tc = tcase_create("output");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, messages_are_terminal_safe);
    tcase_add_test(tc, small_refusals);
    tcase_add_test(tc, lesson_len_names_the_file);
    tcase_add_test(tc, separate_runs_never_stall);
    tcase_add_test(tc, si_formatter_past_tera);
    tcase_add_test(tc, csv_to_terminal_is_escaped);
    tcase_add_test(tc, json_reader_bounded);
    tcase_add_test(tc, calibrate_cells_in_range);
    tcase_add_test(tc, duplicate_pool_names_refused);
    tcase_add_test(tc, command_budget_stops_the_pool);
    tcase_add_test(tc, temp_file_never_follows_a_link);
    suite_add_tcase(s, tc);
    return s;
}

TEST_SUITE(suite_harden)
