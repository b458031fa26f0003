/*
** jsonr.c — the JSON reader (jsonr.h): recursive descent over RFC 8259.
*/
#include "jsonr.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t i, n;
    const char *err;
    int depth;
    long nodes;         /* values made so far (JSONR_NODES_MAX) */
    size_t bytes;       /* what the tree holds on the heap (JSONR_BYTES_MAX) */
} jp;

/* The tree's memory, counted as it grows, within the reader's budget; an
** allocation that fails is an error of the parse, never an abort. */
static void *jalloc(jp *p, void *old, size_t n, size_t was)
{
    if (n > was && p->bytes + (n - was) > JSONR_BYTES_MAX) {
        p->err = "the file's values need more than the reader's memory budget (" JSONR_BYTES_TEXT ")";
        return NULL;
    }
    void *q = realloc(old, n ? n : 1);
    if (!q) { p->err = "out of memory"; return NULL; }
    p->bytes = p->bytes + n - was;
    return q;
}

void jv_free(jv *v)
{
    for (int i = 0; i < v->n; i++) {
        jv_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->text);
    memset(v, 0, sizeof *v);
}

size_t json_number_len(const char *s)
{
    const char *p = s;
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') p++;
    else return 0;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    return (size_t)(p - s);
}

static void jws(jp *p)
{
    while (p->i < p->n) {
        char c = p->s[p->i];
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
        p->i++;
    }
}

static int hexval(char h)
{
    return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
}

/* four hex digits of a \u escape; -1 when they are not */
static long hex4(jp *p)
{
    long v = 0;
    for (int k = 0; k < 4; k++) {
        int d = p->i < p->n ? hexval(p->s[p->i++]) : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static bool jstring(jp *p, char **out)
{
    /* the decoded text is never longer than the raw text: allocate that */
    size_t j = p->i + 1;
    while (j < p->n && p->s[j] != '"') j += p->s[j] == '\\' ? 2 : 1;
    size_t raw = j > p->n ? p->n - p->i : j - p->i, k = 0;
    char *b = jalloc(p, NULL, raw + 1, 0);
    if (!b) return false;
#define PUT(ch) (b[k++] = (char)(ch))
#define FAIL_STR(msg) do { p->err = (msg); free(b); return false; } while (0)
    p->i++;     /* opening quote */
    while (p->i < p->n && p->s[p->i] != '"') {
        char c = p->s[p->i++];
        if ((unsigned char)c < 0x20) FAIL_STR("control character in a string");
        if (c != '\\') { PUT(c); continue; }
        if (p->i >= p->n) break;
        c = p->s[p->i++];
        switch (c) {
        case '"': case '\\': case '/': PUT(c); break;
        case 'n': PUT('\n'); break;
        case 't': PUT('\t'); break;
        case 'r': PUT('\r'); break;
        case 'b': PUT('\b'); break;
        case 'f': PUT('\f'); break;
        case 'u': {
            long v = hex4(p);
            if (v < 0) FAIL_STR("bad \\u escape");
            if (v == 0) FAIL_STR("\\u0000 in a string");
            /* RFC 8259 section 7: a character outside the Basic Multilingual
            ** Plane is written as a UTF-16 surrogate pair, high (D800-DBFF)
            ** then low (DC00-DFFF); a lone half is not a character. */
            if (v >= 0xdc00 && v <= 0xdfff) FAIL_STR("lone low surrogate in a \\u escape");
            if (v >= 0xd800 && v <= 0xdbff) {
                long lo = (p->i + 1 < p->n && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') ? (p->i += 2, hex4(p)) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) FAIL_STR("high surrogate without its low half in a \\u escape");
                v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
            }
            if (v < 0x80) PUT(v);
            else if (v < 0x800) { PUT(0xc0 | (v >> 6)); PUT(0x80 | (v & 0x3f)); }
            else if (v < 0x10000) { PUT(0xe0 | (v >> 12)); PUT(0x80 | ((v >> 6) & 0x3f)); PUT(0x80 | (v & 0x3f)); }
            else {
                PUT(0xf0 | (v >> 18)); PUT(0x80 | ((v >> 12) & 0x3f));
                PUT(0x80 | ((v >> 6) & 0x3f)); PUT(0x80 | (v & 0x3f));
            }
            break;
        }
        default: FAIL_STR("bad escape in a string");
        }
    }
#undef PUT
#undef FAIL_STR
    if (p->i >= p->n) { p->err = "unterminated string"; free(b); return false; }
    p->i++;
    b[k] = 0;
    *out = b;
    return true;
}

static bool jvalue(jp *p, jv *v);

static bool jlist(jp *p, jv *v, bool obj)
{
    char close = obj ? '}' : ']';
    p->i++;
    int cap = 0;
    jws(p);
    if (p->i < p->n && p->s[p->i] == close) { p->i++; return true; }
    for (;;) {
        if (v->n == cap) {
            int nc = cap ? cap * 2 : 8;
            jv *items = jalloc(p, v->items, (size_t)nc * sizeof *v->items, (size_t)cap * sizeof *v->items);
            if (!items) return false;
            v->items = items;
            if (obj) {
                char **keys = jalloc(p, v->keys, (size_t)nc * sizeof *v->keys, (size_t)cap * sizeof *v->keys);
                if (!keys) return false;
                v->keys = keys;
            }
            cap = nc;
        }
        jws(p);
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        if (obj) {
            char *k = NULL;
            if (p->i >= p->n || p->s[p->i] != '"') { p->err = "expected a key"; return false; }
            if (!jstring(p, &k)) return false;
            v->keys[v->n] = k;
            jws(p);
            if (p->i >= p->n || p->s[p->i] != ':') { v->n++; p->err = "expected ':'"; return false; }
            p->i++;
        }
        bool ok = jvalue(p, &v->items[v->n]);
        v->n++;
        if (!ok) return false;
        jws(p);
        if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
        if (p->i < p->n && p->s[p->i] == close) { p->i++; return true; }
        p->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
        return false;
    }
}

/* Does the literal `w` start at the parser's position? */
static bool lit(const jp *p, const char *w)
{
    size_t k = strlen(w);
    return p->n - p->i >= k && memcmp(p->s + p->i, w, k) == 0;
}

static bool jvalue(jp *p, jv *v)
{
    memset(v, 0, sizeof *v);
    jws(p);
    if (p->i >= p->n) { p->err = "unexpected end of file"; return false; }
    if (++p->depth > JSONR_DEPTH_MAX) { p->err = "nested too deeply"; return false; }
    if (++p->nodes > JSONR_NODES_MAX) { p->err = "more values than the reader takes (" JSONR_NODES_TEXT ")"; return false; }
    char c = p->s[p->i];
    bool ok = true;
    if (c == '{') { v->t = J_OBJ; ok = jlist(p, v, true); }
    else if (c == '[') { v->t = J_ARR; ok = jlist(p, v, false); }
    else if (c == '"') { v->t = J_STR; ok = jstring(p, &v->text); }
    else if (lit(p, "true") || lit(p, "false")) {
        size_t k = p->s[p->i] == 't' ? 4 : 5;
        v->t = J_BOOL;
        if ((v->text = jalloc(p, NULL, k + 1, 0))) {
            memcpy(v->text, p->s + p->i, k);
            v->text[k] = 0;
            p->i += k;
        } else ok = false;
    }
    else if (lit(p, "null")) { v->t = J_NULL; p->i += 4; }
    else {
        /* text[len] is 0, so the scan stops at the end */
        size_t len = json_number_len(p->s + p->i);
        if (!len) { p->err = "unexpected character"; ok = false; }
        else {
            v->t = J_NUM;
            if ((v->text = jalloc(p, NULL, len + 1, 0))) {
                memcpy(v->text, p->s + p->i, len);
                v->text[len] = 0;
                p->i += len;
            } else ok = false;
        }
    }
    p->depth--;
    return ok;
}

bool jsonr_parse(const char *text, size_t len, jv *out, char *why, size_t nwhy)
{
    jp p = {text, 0, len, NULL, 0, 0, 0};
    bool ok;
    const char *nul = memchr(text, 0, len);
    if (nul) {
        memset(out, 0, sizeof *out);
        p.i = (size_t)(nul - text);
        p.err = "a NUL byte";
        ok = false;
    } else {
        ok = jvalue(&p, out);
        if (ok) {
            jws(&p);
            if (p.i != p.n) { ok = false; p.err = "text after the end"; }
        }
    }
    if (!ok) {
        long line = 1;
        for (size_t k = 0; k < p.i && k < p.n; k++) if (text[k] == '\n') line++;
        snprintf(why, nwhy, "line %ld: %s", line, p.err ? p.err : "bad JSON");
        jv_free(out);
    }
    return ok;
}

const jv *jv_get(const jv *o, const char *key)
{
    if (!o || o->t != J_OBJ) return NULL;
    for (int i = 0; i < o->n; i++) if (!strcmp(o->keys[i], key)) return &o->items[i];
    return NULL;
}

bool jv_as_int(const jv *v, long lo, long hi, long *out)
{
    if (!v || v->t != J_NUM) return false;
    char *end;
    errno = 0;
    long x = strtol(v->text, &end, 10);
    if (errno || end == v->text || *end || x < lo || x > hi) return false;
    *out = x;
    return true;
}

bool jv_int(const jv *o, const char *key, long lo, long hi, long *out)
{
    return jv_as_int(jv_get(o, key), lo, hi, out);
}

bool jv_str(const jv *o, const char *key, char *out, size_t n)
{
    const jv *v = jv_get(o, key);
    if (!v || v->t != J_STR || strlen(v->text) >= n) return false;
    memcpy(out, v->text, strlen(v->text) + 1);
    return true;
}
