/*
** test_jsonr.c — the JSON reader (jsonr.h) and the shard reader (shard.h):
** values as written, strict grammar, errors with a line, hostile shards
** refused with the file named.
*/
#include "testutil.h"
#include "jsonr.h"
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse(const char *text, jv *v, char *why)
{
    return jsonr_parse(text, strlen(text), v, why, 160);
}

START_TEST(t_values)
{
    jv v;
    char why[160];
    ck_assert_msg(parse(" {\"a\": [1.50, -0, 2e-3, true, null, \"x\\u00e9\\n\"], \"b\": {}, \"a\": 7}\n", &v, why), "%s", why);
    ck_assert_int_eq(v.t, J_OBJ);
    ck_assert_int_eq(v.n, 3);
    const jv *a = jv_get(&v, "a");         /* the first of two */
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->t, J_ARR);
    ck_assert_int_eq(a->n, 6);
    ck_assert_str_eq(a->items[0].text, "1.50");     /* numbers as written */
    ck_assert_str_eq(a->items[1].text, "-0");
    ck_assert_str_eq(a->items[2].text, "2e-3");
    ck_assert_int_eq(a->items[3].t, J_BOOL);
    ck_assert_int_eq(a->items[4].t, J_NULL);
    ck_assert_str_eq(a->items[5].text, "x\xc3\xa9\n");
    jv e;
    ck_assert_msg(parse("\"\\ud83d\\ude80\\u20ac\"", &e, why), "%s", why);   /* a surrogate pair: U+1F680 */
    ck_assert_str_eq(e.text, "\xf0\x9f\x9a\x80\xe2\x82\xac");
    jv_free(&e);
    ck_assert_int_eq(jv_get(&v, "b")->t, J_OBJ);
    ck_assert_ptr_null(jv_get(&v, "c"));
    long x = -1;
    ck_assert(jv_int(&v, "a", 0, 10, &x) == false);          /* a list */
    jv_free(&v);

    ck_assert(parse("{\"n\": 4294967299, \"e\": 1e3, \"m\": -1, \"k\": 99999999999999999999999}", &v, why));
    ck_assert(!jv_int(&v, "n", 1, 100000, &x));             /* out of range, not wrapped */
    ck_assert(jv_int(&v, "n", 1, 1L << 40, &x) && x == 4294967299L);
    ck_assert(!jv_int(&v, "e", 0, 10000, &x));              /* not a whole number as written */
    ck_assert(!jv_int(&v, "m", 0, 10, &x));
    ck_assert(!jv_int(&v, "k", 0, 1L << 62, &x));           /* overflows a long */
    char s[4];
    jv_free(&v);
    ck_assert(parse("{\"s\": \"abcd\", \"t\": \"abc\"}", &v, why));
    ck_assert(!jv_str(&v, "s", s, sizeof s));              /* too long: refused, not cut */
    ck_assert(jv_str(&v, "t", s, sizeof s) && !strcmp(s, "abc"));
    jv_free(&v);
    ck_assert_uint_eq(json_number_len("12.5e+3,"), 7);
    ck_assert_uint_eq(json_number_len("01"), 1);
    ck_assert_uint_eq(json_number_len("1."), 0);
    ck_assert_uint_eq(json_number_len("-"), 0);
}
END_TEST

START_TEST(t_errors)
{
    static const struct { const char *text, *why; } cases[] = {
        {"{\"a\": 1} x", "line 1: text after the end"},
        {"{\"a\":\n 01}", "line 2: expected ',' or '}'"},
        {"[1, 2", "line 1: expected ',' or ']'"},
        {"{\"a\" 1}", "line 1: expected ':'"},
        {"{1: 2}", "line 1: expected a key"},
        {"\"abc", "line 1: unterminated string"},
        {"\"a\\x\"", "line 1: bad escape in a string"},
        {"\"a\\u00zz\"", "line 1: bad \\u escape"},
        {"\"a\\u0000\"", "line 1: \\u0000 in a string"},
        {"\"a\tb\"", "line 1: control character in a string"},
        {"\"\\udc00\"", "line 1: lone low surrogate in a \\u escape"},
        {"\"\\ud83d x\"", "line 1: high surrogate without its low half in a \\u escape"},
        {"\"\\ud83d\\u0041\"", "line 1: high surrogate without its low half in a \\u escape"},
        {"tru", "line 1: unexpected character"},
        {"", "line 1: unexpected end of file"},
        {"\n\n[", "line 3: unexpected end of file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jv v;
        char why[160] = "";
        ck_assert_msg(!parse(cases[i].text, &v, why), "'%s' parsed", cases[i].text);
        ck_assert_msg(strcmp(why, cases[i].why) == 0, "'%s': '%s', want '%s'", cases[i].text, why, cases[i].why);
        ck_assert_int_eq(v.n, 0);
        ck_assert_ptr_null(v.items);
    }
    /* nesting: 32 levels are fine, 33 are not */
    char deep[80];
    memset(deep, '[', 33);
    memset(deep + 33, ']', 33);
    deep[66] = 0;
    jv v;
    char why[160];
    ck_assert(!parse(deep, &v, why));
    ck_assert_str_eq(why, "line 1: nested too deeply");
    ck_assert(!parse(deep + 1, &v, why));            /* 32 '[' then 33 ']' */
    ck_assert_str_eq(why, "line 1: text after the end");
    deep[65] = 0;
    ck_assert_msg(parse(deep + 1, &v, why), "%s", why);
    jv_free(&v);
    /* a NUL inside the given length */
    const char nul[] = "{\"a\": 1}\0{\"b\": 2}";
    ck_assert(!jsonr_parse(nul, sizeof nul - 1, &v, why, sizeof why));
    ck_assert_str_eq(why, "line 1: a NUL byte");
}
END_TEST

/* A sweep table of 9 variants with two columns, as shard I of N. */
static char *shard_text(int i, int n)
{
    rtable t;
    rtable_init(&t, "sweep");
    snprintf(t.scenario, sizeof t.scenario, "s");
    snprintf(t.input, sizeof t.input, "w.lua");
    snprintf(t.hash, sizeof t.hash, "0123456789abcdef");
    t.total = 9;
    t.shard_i = i;
    t.shard_n = n;
    rtable_add_col(&t, "id");
    rtable_add_col(&t, "x");
    for (int k = i - 1; k < 9; k += n) {
        rt_row *r = rtable_new_row(&t, k);
        rt_row_set_int(r, 0, k);
        rt_row_set_num(r, 1, k * 1.5);
    }
    fs_buf b;
    buf_init(&b);
    rtable_json(&t, &b);
    rtable_free(&t);
    return b.s;
}

/* Replace the first `from` in s by `to` (malloc'd result). */
static char *subst(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    ck_assert_ptr_nonnull(p);
    size_t n = strlen(s) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    snprintf(out, n + 1, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
    return out;
}

static void refused(const char *text, size_t len, const char *want)
{
    rtable t;
    rtable_init(&t, "sweep");
    fs_err err = {0, ""};
    ck_assert_msg(!shard_parse(text, len, "sh.json", &t, &err), "accepted; want '%s'", want);
    ck_assert_int_eq(err.code, 2);
    ck_assert_msg(strstr(err.msg, want) && !strncmp(err.msg, "sh.json: ", 9), "'%s', want '%s'", err.msg, want);
    rtable_free(&t);
}

START_TEST(t_shards)
{
    char *s2 = shard_text(2, 4);
    rtable t;
    rtable_init(&t, "sweep");
    fs_err err = {0, ""};
    ck_assert_msg(shard_parse(s2, strlen(s2), "sh.json", &t, &err), "%s", err.msg);
    ck_assert_int_eq(t.shard_i, 2);
    ck_assert_int_eq(t.shard_n, 4);
    ck_assert_int_eq(t.nrows, 2);
    fs_buf b;     /* read back, it prints the same bytes */
    buf_init(&b);
    rtable_json(&t, &b);
    ck_assert_str_eq(b.s, s2);
    buf_free(&b);
    rtable_free(&t);

    const char *meta = "\"shard\": {\"index\": 2, \"count\": 4, \"ids\": [1, 5]}";
    ck_assert_ptr_nonnull(strstr(s2, meta));
    static const struct { const char *meta, *why; } bad[] = {
        {"\"shard\": {\"index\": 5, \"count\": 4294967299, \"ids\": [4, 7]}", "shard \"count\" is missing or not a whole number in 1..100000"},
        {"\"shard\": {\"index\": 1000005, \"count\": 4, \"ids\": [1, 5]}", "shard \"index\" is missing or not a whole number in 1..4"},
        {"\"shard\": {\"index\": 2, \"count\": 2147483647, \"ids\": [1]}", "shard \"count\""},
        {"\"shard\": {\"index\": 0, \"count\": 4, \"ids\": [1, 5]}", "shard \"index\""},
        {"\"shard\": {\"index\": 2, \"count\": 4, \"ids\": [1]}", "shard 2/4 of 9 should list 2 ids, it lists 1"},
        {"\"shard\": {\"index\": 2, \"count\": 4, \"ids\": [1, 6]}", "the shard's ids are not its share"},
        {"\"shard\": {\"index\": 2, \"count\": 4, \"ids\": 5}", "shard \"ids\" is missing or not a list"},
        {"\"shard\": 3", "\"shard\" is not an object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *x = subst(s2, meta, bad[i].meta);
        refused(x, strlen(x), bad[i].why);
        free(x);
    }
    /* rows: a duplicate in place of its neighbour, a row of another shard */
    char *dup = subst(s2, "{\"id\": 5, \"x\": 7.5}", "{\"id\": 1, \"x\": 1.5}");
    refused(dup, strlen(dup), "row id 1 appears twice");
    free(dup);
    char *other = subst(s2, "{\"id\": 5, \"x\": 7.5}", "{\"id\": 4, \"x\": 6}");
    refused(other, strlen(other), "row id 4 is not in shard 2/4 of 9 rows");
    free(other);
    char *big = subst(s2, "{\"id\": 5, \"x\": 7.5}", "{\"id\": 4294967301, \"x\": 6}");
    refused(big, strlen(big), "a row has no valid id");
    free(big);
    char *missing = subst(s2, ",\n    {\"id\": 5, \"x\": 7.5}", "");
    refused(missing, strlen(missing), "shard 2/4 should hold 2 rows, it holds 1");
    free(missing);
    char *variants = subst(s2, "\"variants\": 9", "\"variants\": 4294967305");
    refused(variants, strlen(variants), "\"variants\" missing or not a whole number");
    free(variants);
    /* a NUL byte, even after a whole table */
    size_t n = strlen(s2);
    char *nul = malloc(n + 8);
    memcpy(nul, s2, n);
    memcpy(nul + n, "\0junk", 6);
    refused(nul, n + 5, "a NUL byte at offset");
    free(nul);
    /* a whole run is not a shard */
    char *whole = subst(s2, ",\n  \"shard\": {\"index\": 2, \"count\": 4, \"ids\": [1, 5]}", "");
    refused(whole, strlen(whole), "not a shard (made without --shard)");
    free(whole);
    free(s2);
}
END_TEST

START_TEST(t_shard_set)
{
    rtable sh[3];
    char *names[3] = {"a.json", "b.json", "c.json"};
    fs_err err = {0, ""};
    int order[3] = {3, 1, 2};
    for (int i = 0; i < 3; i++) {
        char *s = shard_text(order[i], 3);
        rtable_init(&sh[i], "sweep");
        ck_assert_msg(shard_parse(s, strlen(s), names[i], &sh[i], &err), "%s", err.msg);
        free(s);
    }
    ck_assert_msg(shard_check_set(sh, 3, names, &err), "%s", err.msg);
    ck_assert(!shard_check_set(sh, 2, names, &err));
    ck_assert_str_eq(err.msg, "merge: missing shard 2/3 of sweep s; nothing written");
    rtable two[2] = {sh[1], sh[1]};
    ck_assert(!shard_check_set(two, 2, names, &err));
    ck_assert_str_eq(err.msg, "merge: duplicate shard 1/3 (a.json and b.json); nothing written");
    rtable m;
    shard_join(sh, 3, &m);
    ck_assert_int_eq(m.nrows, 9);
    for (int i = 0; i < 9; i++) ck_assert_int_eq(m.rows[i].id, i);
    ck_assert_int_eq(m.shard_n, 0);
    rtable_free(&m);
    for (int i = 0; i < 3; i++) rtable_free(&sh[i]);
}
END_TEST

static Suite *jsonr_suite(void)
{
    Suite *s = suite_create("jsonr");
    TCase *tc = tcase_create("reader");
    tcase_add_test(tc, t_values);
    tcase_add_test(tc, t_errors);
    tcase_add_test(tc, t_shards);
    tcase_add_test(tc, t_shard_set);
    suite_add_tcase(s, tc);
    return s;
}
TEST_SUITE(jsonr_suite)
