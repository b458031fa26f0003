/*
** test_fields.c — the one description of the scenario format (src/fields.c):
** every example pushed to Lua and read back is the same scenario, field by
** field; every row of the table is reachable by --set and by place(); the
** documentation tables are generated from it.
*/
#include "testutil.h"
#include "fields.h"
#include "fields_lua.h"
#include "lua_scenario.h"
#include "policy.h"
#include "report_fields.h"

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_fail(freader *r, const char *path, const char *msg)
{
    luaL_error(r->L, "%s: %s", path, msg);
}

typedef struct {
    const scn_scenario *in;
    scn_scenario *out;
} rt_ud;

static int round_trip(lua_State *L)
{
    rt_ud *u = lua_touserdata(L, 1);
    fields_push_scenario(L, u->in);
    freader r = {.L = L, .fail = test_fail, .ud = NULL, .out = u->out, .place = false};
    scn_defaults(u->out);
    snprintf(u->out->name, sizeof u->out->name, "changed");
    fields_read_scenario(&r, lua_gettop(L));
    return 0;
}

/* Push s, read it back into a scenario of defaults, compare through the table. */
static void check_round_trip(const scn_scenario *s, const char *label)
{
    scn_scenario back;
    rt_ud u = {s, &back};
    lua_State *L = luaL_newstate();
    ck_assert_ptr_nonnull(L);
    lua_pushcfunction(L, round_trip);
    lua_pushlightuserdata(L, &u);
    int st = lua_pcall(L, 1, 0, 0);
    if (st != LUA_OK) ck_abort_msg("%s: reading back failed: %s", label, lua_tostring(L, -1));
    lua_close(L);
    snprintf(back.path, sizeof back.path, "%s", s->path);
    char where[256] = "";
    bool eq = fields_equal(s, &back, where, sizeof where);
    ck_assert_msg(eq, "%s: %s differs after the round trip", label, where);
}

static int round_trip_dir(const char *rel)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", test_root(), rel);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".lua") != 0 || strncmp(e->d_name, "whatif_", 7) == 0) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        scn_scenario s;
        fs_err err = {0, ""};
        ck_assert_msg(lscn_load(path, NULL, 0, &s, &err), "%s", err.msg);
        check_round_trip(&s, e->d_name);
        /* and with every mode's plan */
        for (int m = 0; m < 3; m++) {
            s.plan.mode = (scn_mode)m;
            check_round_trip(&s, e->d_name);
        }
        n++;
    }
    closedir(d);
    return n;
}

START_TEST(every_example_round_trips)
{
    ck_assert_int_ge(round_trip_dir("examples"), 4);
    ck_assert_int_ge(round_trip_dir("examples/hf"), 2);
    ck_assert_int_ge(round_trip_dir("examples/validation"), 5);
}
END_TEST

/* A scenario with explicit pools, a histogram, a custom device and model. */
START_TEST(unusual_fields_round_trip)
{
    const char *text =
        "return { name = 'odd',\n"
        "  cluster = { device = { name = 'x', tflops = 123.5, hbm_gb = 77, hbm_tbps = 2.5,\n"
        "      scaleup_gbps = 300, scaleout_gbps = 40, host_gbps = 50 }, devices_per_node = 4,\n"
        "    nodes_per_supernode = 2, links = { intra_node = { gbps = 111, latency_us = 3 } } },\n"
        "  models = { actor = { layers = 4, hidden = 512, heads = 8, kv_heads = 2, vocab = 1000,\n"
        "      ffn = 2048 }, reference = true, reward = 'rule' },\n"
        "  workload = { prompts_per_step = 4, samples_per_prompt = 2, seed = 77,\n"
        "    response_len = fusync.dist.histogram{ edges = {1, 10, 100}, weights = {1, 3}, cap = 90 },\n"
        "    prompt_len = fusync.dist.uniform(5, 50) },\n"
        "  plan = { pools = { { name = 'a', devices = 4, roles = {'rollout'} },\n"
        "                     { name = 'b', devices = 4, roles = {'train', 'reference'} } },\n"
        "    rollout = { dispatch = 'static' }, on_stale = 'discard', bucket_mb = 64 },\n"
        "  efficiency = { decode_overhead_ms = 7.25 } }\n";
    char *path = test_tmpfile(".lua", text);
    scn_scenario s;
    fs_err err = {0, ""};
    bool ok = lscn_load(path, NULL, 0, &s, &err);
    remove(path);
    free(path);
    ck_assert_msg(ok, "%s", err.msg);
    ck_assert_int_eq(s.plan.rollout.dispatch, DISPATCH_STATIC);
    ck_assert_int_eq(s.plan.npools, 2);
    ck_assert_uint_eq(s.plan.pools[1].roles, ROLE_TRAIN | ROLE_REF);
    check_round_trip(&s, "odd");
}
END_TEST

/* Every leaf of the table is reachable by its path, and its path by --set. */
static void walk(const fdesc *rec, const char *path, int *leaves)
{
    for (const fdesc *f = rec; f->name; f++) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", f->name);
        if (f->kind == FK_ARR && f->sub && f->sub[0].kind == FK_REC) {
            char item[300];
            snprintf(item, sizeof item, "%s.1", sub);
            walk(f->sub[0].sub, item, leaves);
            continue;
        }
        ck_assert_msg(fields_lookup(sub) == f, "fields_lookup(%s) does not find its row", sub);
        ck_assert_msg(f->doc && f->doc[0], "%s has no documentation", sub);
        if (f->kind == FK_REC && f->sub) walk(f->sub, sub, leaves);
        else (*leaves)++;
    }
}

START_TEST(every_row_is_found_and_documented)
{
    int leaves = 0;
    walk(FIELDS_TOP, "", &leaves);
    ck_assert_int_ge(leaves, 60);
    ck_assert_ptr_null(fields_lookup("plan.rollout.nope"));
    ck_assert_ptr_nonnull(fields_lookup("plan.rollout.dispatch"));
}
END_TEST

/* Ranges are checked before any arithmetic and name the field. */
START_TEST(ranges_name_the_field)
{
    static const struct { const char *set, *want; } cases[] = {
        {"cluster.device.tflops=1e-300", "cluster.device.tflops: must be at least 0.001 TFLOP/s"},
        {"plan.pools.1.devices=2147483647", "plan.pools[1].devices: must be at most"},
        {"cluster.devices_per_node=65536", "cluster.devices_per_node: must be at most 1024"},
        {"workload.prompts_per_step=2147483648", "workload.prompts_per_step: must be at most"},
        {"plan.rollout.dispatch=static2", "plan.rollout.dispatch: unknown value 'static2'; did you mean 'static'?"},
        {"plan.staleness=65", "plan.staleness: must be in 0..64, got 65"},
        {"efficiency.train=0", "efficiency.train: must be a fraction in (0, 1]"},
        {"efficiency.hbm=4.9e-324", "efficiency.hbm: must be at least 0.001"},
    };
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/qwen7b_h100x16.lua", test_root());
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *sets[1] = {cases[i].set};
        scn_scenario s;
        fs_err err = {0, ""};
        ck_assert_msg(!lscn_load(path, sets, 1, &s, &err), "--set %s was accepted", cases[i].set);
        ck_assert_msg(strstr(err.msg, cases[i].want), "--set %s: \"%s\" lacks \"%s\"", cases[i].set, err.msg,
                      cases[i].want);
        ck_assert_int_eq(err.code, 2);
    }
}
END_TEST

/* Every `<!-- fields TABLE -->` block of docs/scenarios.md is what
** `fusync fields TABLE --markdown` prints (make docs writes them). */
static int check_doc_blocks(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", test_root(), rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char doc[1 << 18];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    int blocks = 0;
    for (char *p = doc; (p = strstr(p, "<!-- fields ")); blocks++) {
        char table[128];
        ck_assert_int_eq(sscanf(p, "<!-- fields %127s -->", table), 1);
        char *body = strchr(p, '\n');
        ck_assert_ptr_nonnull(body);
        body++;
        char *end = strstr(body, "<!-- /fields -->");
        ck_assert_msg(end != NULL, "%s: block %s is not closed", rel, table);
        fs_buf b;
        buf_init(&b);
        if (!strcmp(table, "report")) report_fields_describe(&b);
        else fields_describe_under(&b, true, table);
        ck_assert_msg((size_t)(end - body) == b.len && memcmp(body, b.s, b.len) == 0,
                      "%s: the %s table is not what the format's description says: run `make docs`", rel, table);
        buf_free(&b);
        p = end;
    }
    return blocks;
}

START_TEST(docs_tables_are_current)
{
    ck_assert_int_ge(check_doc_blocks("docs/scenarios.md"), 10);
    ck_assert_int_eq(check_doc_blocks("docs/cli.md"), 1);
}
END_TEST

/* A policy sees every plan field and can set every one the scenario takes
** (plan.rollout.dispatch was once refused by place() and hidden from ctx). */
static bool place_text(const char *text, scn_scenario *s, fs_err *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/qwen7b_h100x16.lua", test_root());
    ck_assert_msg(lscn_load(path, NULL, 0, s, err), "%s", err->msg);
    char *pol = test_tmpfile(".lua", text);
    bool ok = policy_apply(pol, s, err);
    unlink(pol);
    free(pol);
    return ok;
}

START_TEST(place_reads_and_writes_every_plan_field)
{
    scn_scenario s;
    fs_err err = {0, ""};
    ck_assert_msg(place_text("function place(ctx)\n"
                             "  assert(ctx.plan.rollout.dispatch == 'balanced', 'dispatch not in ctx')\n"
                             "  assert(ctx.efficiency.train > 0 and ctx.cluster.devices == 16)\n"
                             "  local p = ctx.plan\n"
                             "  p.rollout.dispatch = 'static'\n"
                             "  p.distqueue.packed = false\n"
                             "  return p\n"
                             "end\n", &s, &err), "%s", err.msg);
    ck_assert_int_eq(s.plan.rollout.dispatch, DISPATCH_STATIC);
    ck_assert(!s.plan.dq_packed);
    ck_assert_msg(!place_text("function place(ctx) return {policy = 'other.lua'} end", &s, &err),
                  "place() changed plan.policy");
    ck_assert_msg(strstr(err.msg, "plan.policy: set by the run"), "%s", err.msg);
    ck_assert_msg(!place_text("function place(ctx) return {rollout = {dispatch = 'statik'}} end", &s, &err),
                  "a misspelt dispatch was accepted");
    ck_assert_msg(strstr(err.msg, "plan.rollout.dispatch: unknown value 'statik'; did you mean 'static'?"), "%s",
                  err.msg);
}
END_TEST

/* Inputs in range can still make a step take years: the engine stops at its
** horizon with a clear error instead of wrapping its clock. */
START_TEST(time_horizon_is_an_error)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "'%s' run '%s/examples/pangu718b_cm384.lua' --set cluster.device.hbm_tbps=0.000001 "
             "--iterations 14 --quiet --json /dev/null 2>&1", test_fusync(), test_root());
    int rc = test_sh(cmd, &out);
    ck_assert_msg(rc == 2, "status %d: %s", rc, out);
    ck_assert_msg(strstr(out, "simulator's horizon"), "%s", out);
    ck_assert_msg(!strstr(out, "-"), "a negative figure: %s", out);
    free(out);
}
END_TEST

static Suite *fields_suite(void)
{
    Suite *s = suite_create("fields");
    TCase *tc = tcase_create("format");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_example_round_trips);
    tcase_add_test(tc, unusual_fields_round_trip);
    tcase_add_test(tc, every_row_is_found_and_documented);
    tcase_add_test(tc, ranges_name_the_field);
    tcase_add_test(tc, docs_tables_are_current);
    tcase_add_test(tc, place_reads_and_writes_every_plan_field);
    tcase_add_test(tc, time_horizon_is_an_error);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(fields_suite)
