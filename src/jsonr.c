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
} jp;

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
    fs_buf b;
    buf_init(&b);
    p->i++;     /* opening quote */
    while (p->i < p->n && p->s[p->i] != '"') {
        char c = p->s[p->i++];
        if ((unsigned char)c < 0x20) { p->err = "control character in a string"; buf_free(&b); return false; }
        if (c != '\\') { buf_putc(&b, c); continue; }
        if (p->i >= p->n) break;
        c = p->s[p->i++];
        switch (c) {
        case '"': case '\\': case '/': buf_putc(&b, c); break;
        case 'n': buf_putc(&b, '\n'); break;
        case 't': buf_putc(&b, '\t'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case 'b': buf_putc(&b, '\b'); break;
        case 'f': buf_putc(&b, '\f'); break;
        case 'u': {
            long v = hex4(p);
            if (v < 0) { p->err = "bad \\u escape"; buf_free(&b); return false; }
            if (v == 0) { p->err = "\\u0000 in a string"; buf_free(&b); return false; }
            /* RFC 8259 section 7: a character outside the Basic Multilingual
            ** Plane is written as a UTF-16 surrogate pair, high (D800-DBFF)
            ** then low (DC00-DFFF); a lone half is not a character. */
            if (v >= 0xdc00 && v <= 0xdfff) { p->err = "lone low surrogate in a \\u escape"; buf_free(&b); return false; }
            if (v >= 0xd800 && v <= 0xdbff) {
                long lo = (p->i + 1 < p->n && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') ? (p->i += 2, hex4(p)) : -1;
                if (lo < 0xdc00 || lo > 0xdfff) { p->err = "high surrogate without its low half in a \\u escape"; buf_free(&b); return false; }
                v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
            }
            if (v < 0x80) buf_putc(&b, (char)v);
            else if (v < 0x800) { buf_putc(&b, (char)(0xc0 | (v >> 6))); buf_putc(&b, (char)(0x80 | (v & 0x3f))); }
            else if (v < 0x10000) { buf_putc(&b, (char)(0xe0 | (v >> 12))); buf_putc(&b, (char)(0x80 | ((v >> 6) & 0x3f))); buf_putc(&b, (char)(0x80 | (v & 0x3f))); }
            else {
                buf_putc(&b, (char)(0xf0 | (v >> 18))); buf_putc(&b, (char)(0x80 | ((v >> 12) & 0x3f)));
                buf_putc(&b, (char)(0x80 | ((v >> 6) & 0x3f))); buf_putc(&b, (char)(0x80 | (v & 0x3f)));
            }
            break;
        }
        default: p->err = "bad escape in a string"; buf_free(&b); return false;
        }
    }
    if (p->i >= p->n) { p->err = "unterminated string"; buf_free(&b); return false; }
    p->i++;
    if (!b.s) buf_puts(&b, "");
    *out = b.s;
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
            cap = cap ? cap * 2 : 8;
            v->items = xrealloc(v->items, (size_t)cap * sizeof *v->items);
            if (obj) v->keys = xrealloc(v->keys, (size_t)cap * sizeof *v->keys);
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
    char c = p->s[p->i];
    bool ok = true;
    if (c == '{') { v->t = J_OBJ; ok = jlist(p, v, true); }
    else if (c == '[') { v->t = J_ARR; ok = jlist(p, v, false); }
    else if (c == '"') { v->t = J_STR; ok = jstring(p, &v->text); }
    else if (lit(p, "true")) { v->t = J_BOOL; v->text = xstrdup("true"); p->i += 4; }
    else if (lit(p, "false")) { v->t = J_BOOL; v->text = xstrdup("false"); p->i += 5; }
    else if (lit(p, "null")) { v->t = J_NULL; p->i += 4; }
    else {
        /* text[len] is 0, so the scan stops at the end */
        size_t len = json_number_len(p->s + p->i);
        if (!len) { p->err = "unexpected character"; ok = false; }
        else {
            v->t = J_NUM;
            v->text = xmalloc(len + 1);
            memcpy(v->text, p->s + p->i, len);
            v->text[len] = 0;
            p->i += len;
        }
    }
    p->depth--;
    return ok;
}

bool jsonr_parse(const char *text, size_t len, jv *out, char *why, size_t nwhy)
{
    jp p = {text, 0, len, NULL, 0};
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
