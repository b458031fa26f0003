/*
** import_shell.c — the launch script's `python3 -m MODULE ARGS` command,
** through the subset of POSIX sh (pubs.opengroup.org, "Shell Command
** Language") launch scripts use: NAME=value assignments (also after
** `export`), $NAME, ${NAME}, ${NAME:-word} and ${NAME-word}, $((...))
** integer arithmetic, single and double quotes, backslash escapes and line
** continuations, # comments; "$@" and the positional parameters expand to
** nothing.  Also bash's indexed arrays as launch scripts group their options
** (gnu.org/software/bash/manual, "Arrays"): NAME=(word ...) over lines, with
** comments inside, and ${NAME[@]} / ${NAME[*]}, unquoted each element split
** into words, "${NAME[@]}" each element one word, "${NAME[*]}" one word of
** them joined by a space; $NAME is the first element.  Command substitution
** is refused (its output cannot be known);
** a variable never assigned is empty, as in the shell.  Other commands and
** control words are read past, their assignments taken as they come.
*/
#include "import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *name, *value;
} svar;

typedef struct {
    char *text;
    int   line;
    bool  assign_ok;    /* unquoted NAME= at its start: an assignment word */
} sword;

typedef struct {
    char  *name;
    fs_vec el;          /* sword: the elements in order, each with the line it is written on */
} sarr;

typedef struct {
    const char *file;
    const char *s;      /* the script */
    size_t      i, n;
    int         line;
    fs_vec      vars;   /* svar */
    fs_vec      arrays; /* sarr */
    fs_vec      words;  /* sword: the current statement */
    char       *arr_name;   /* inside NAME=( ... ): its name, else NULL */
    size_t      arr_from;   /* its first element's index in words */
    int         arr_line;
    bool        drop_next;  /* the next word is a redirection's target */
    fs_err     *err;
} sh;

static const char *var_get(const sh *p, const char *name)
{
    const svar *v = p->vars.data;
    for (size_t i = 0; i < p->vars.len; i++) if (!strcmp(v[i].name, name)) return v[i].value;
    return NULL;
}

static void var_set(sh *p, const char *name, const char *value)
{
    svar *v = p->vars.data;
    for (size_t i = 0; i < p->vars.len; i++)
        if (!strcmp(v[i].name, name)) {
            free(v[i].value);
            v[i].value = xstrdup(value);
            return;
        }
    svar *nv = vec_push(&p->vars);
    nv->name = xstrdup(name);
    nv->value = xstrdup(value);
}

static sarr *arr_get(const sh *p, const char *name)
{
    sarr *a = p->arrays.data;
    for (size_t i = 0; i < p->arrays.len; i++) if (!strcmp(a[i].name, name)) return &a[i];
    return NULL;
}

static void arr_clear(sarr *a)
{
    sword *e = a->el.data;
    for (size_t i = 0; i < a->el.len; i++) free(e[i].text);
    a->el.len = 0;
}

/* NAME=( words[from..] ): the array replaces any earlier one of that name,
** and $NAME reads its first element, as in bash. */
static void arr_set(sh *p, const char *name, size_t from)
{
    sarr *a = arr_get(p, name);
    if (!a) {
        a = vec_push(&p->arrays);
        a->name = xstrdup(name);
        vec_init(&a->el, sizeof(sword));
    }
    arr_clear(a);
    sword *w = p->words.data;
    for (size_t i = from; i < p->words.len; i++) {
        *(sword *)vec_push(&a->el) = w[i];     /* the text's ownership moves */
        w[i].text = NULL;
    }
    p->words.len = from;
    const sword *e = a->el.data;
    var_set(p, name, a->el.len ? e[0].text : "");
}

#define SHFAIL(...) do { fs_err_set(p->err, 2, __VA_ARGS__); return false; } while (0)

static bool is_name_start(int c) { return isalpha(c) || c == '_'; }
static bool is_name(int c) { return isalnum(c) || c == '_'; }

/* ------------------------------------------------------------ arithmetic */

typedef struct {
    const sh   *p;
    const char *s;
    bool        bad;
    bool        div0;
} arith;

static long long ar_expr(arith *a);

static void ar_ws(arith *a) { while (*a->s == ' ' || *a->s == '\t' || *a->s == '\n') a->s++; }

static long long ar_atom(arith *a)
{
    ar_ws(a);
    if (*a->s == '(') {
        a->s++;
        long long v = ar_expr(a);
        ar_ws(a);
        if (*a->s != ')') { a->bad = true; return 0; }
        a->s++;
        return v;
    }
    if (*a->s == '-') { a->s++; return -ar_atom(a); }
    if (*a->s == '+') { a->s++; return ar_atom(a); }
    if (*a->s == '$') a->s++;
    if (*a->s == '{') a->s++;
    if (isdigit((unsigned char)*a->s)) {
        char *end;
        long long v = strtoll(a->s, &end, 10);
        a->s = end;
        return v;
    }
    if (is_name_start((unsigned char)*a->s)) {
        char name[128];
        size_t k = 0;
        while (is_name((unsigned char)*a->s) && k + 1 < sizeof name) name[k++] = *a->s++;
        name[k] = 0;
        if (*a->s == '}') a->s++;
        const char *v = var_get(a->p, name);
        if (!v || !*v) return 0;
        char *end;
        long long n = strtoll(v, &end, 10);
        if (*end) a->bad = true;
        return n;
    }
    a->bad = true;
    return 0;
}

static long long ar_term(arith *a)
{
    long long v = ar_atom(a);
    for (;;) {
        ar_ws(a);
        char op = *a->s;
        if (op != '*' && op != '/' && op != '%') return v;
        a->s++;
        long long r = ar_atom(a);
        if (op == '*') v *= r;
        else if (r == 0) { a->div0 = true; return 0; }
        else v = op == '/' ? v / r : v % r;
    }
}

static long long ar_expr(arith *a)
{
    long long v = ar_term(a);
    for (;;) {
        ar_ws(a);
        char op = *a->s;
        if (op != '+' && op != '-') return v;
        a->s++;
        long long r = ar_term(a);
        v = op == '+' ? v + r : v - r;
    }
}

/* ------------------------------------------------------------ words */

typedef struct {
    fs_buf b;
    bool   any;         /* a word exists (even an empty quoted one) */
    bool   quoted;      /* some part was quoted */
    bool   at;          /* "$@" was in it: alone, it is no word at all */
    int    line;
} wacc;

static void w_end(sh *p, wacc *w)
{
    if (w->any && p->drop_next) {
        p->drop_next = false;
    } else if (w->any && !(w->at && w->b.len == 0)) {
        sword *sw = vec_push(&p->words);
        sw->text = xstrdup(w->b.s ? w->b.s : "");
        sw->line = w->line;
        /* NAME=... with the NAME and = unquoted */
        const char *t = sw->text;
        size_t k = 0;
        if (is_name_start((unsigned char)t[0])) while (is_name((unsigned char)t[k])) k++;
        sw->assign_ok = k > 0 && t[k] == '=';
    }
    buf_free(&w->b);
    buf_init(&w->b);
    w->any = w->quoted = w->at = false;
}

static void w_put(wacc *w, char c, int line)
{
    if (!w->any) w->line = line;
    w->any = true;
    buf_putc(&w->b, c);
}

/* Text produced by an expansion: unquoted, split on blanks into words. */
static void w_expand(sh *p, wacc *w, const char *v, bool split, int line)
{
    if (!w->any) w->line = line;
    for (; *v; v++) {
        if (split && (*v == ' ' || *v == '\t' || *v == '\n')) {
            if (w->b.len) w_end(p, w);
            continue;
        }
        w_put(w, *v, line);
    }
    if (!split) w->any = true;
}

static bool expand_dollar(sh *p, wacc *w, bool in_dq);

/* The text of a ${...} default word or $((...)): up to the closing brace or
** parentheses, expanding what is in it. */
static bool read_until(sh *p, char close, int depth_open, fs_buf *out)
{
    int depth = depth_open;
    while (p->i < p->n) {
        char c = p->s[p->i];
        if (c == '\n') p->line++;
        if (c == '$') {
            wacc w = {.any = false};
            buf_init(&w.b);
            if (!expand_dollar(p, &w, true)) { buf_free(&w.b); return false; }
            if (w.b.s) buf_puts(out, w.b.s);
            buf_free(&w.b);
            continue;
        }
        if (c == '"' || c == '\'') { p->i++; continue; }   /* quotes inside a default: removed */
        if (close == ')' && c == '(') depth++;
        if (c == close) {
            if (close != ')' || --depth == 0) { p->i++; return true; }
        }
        buf_putc(out, c);
        p->i++;
    }
    return false;
}

static bool expand_dollar(sh *p, wacc *w, bool in_dq)
{
    int line = p->line;
    p->i++;     /* '$' */
    char c = p->i < p->n ? p->s[p->i] : 0;
    if (c == '(' && p->i + 1 < p->n && p->s[p->i + 1] == '(') {
        p->i += 2;
        fs_buf e;
        buf_init(&e);
        /* read_until stops after the second closing ')', the first kept */
        if (!read_until(p, ')', 2, &e) || !e.len || e.s[e.len - 1] != ')') {
            buf_free(&e);
            SHFAIL("%s:%d: $((: no closing ))", p->file, line);
        }
        e.s[--e.len] = 0;
        arith a = {.p = p, .s = e.s ? e.s : "", .bad = false, .div0 = false};
        long long v = ar_expr(&a);
        ar_ws(&a);
        bool bad = a.bad || *a.s;
        bool div0 = a.div0;
        char msg[256];
        snprintf(msg, sizeof msg, "%s", e.s ? e.s : "");
        buf_free(&e);
        if (div0) SHFAIL("%s:%d: $((%s)): division by zero", p->file, line, msg);
        if (bad) SHFAIL("%s:%d: $((%s)): not integer arithmetic fusync reads", p->file, line, msg);
        char num[32];
        snprintf(num, sizeof num, "%lld", v);
        w_expand(p, w, num, false, line);
        return true;
    }
    if (c == '(') SHFAIL("%s:%d: command substitution $(...): its output cannot be known without running it; "
                         "put the value in the script", p->file, line);
    if (c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' || isdigit((unsigned char)c)) {
        p->i++;     /* positional and special parameters: nothing */
        if (c == '@' || c == '*') w->at = true;
        if (c == '#' || c == '?') w_expand(p, w, "0", false, line);
        else if (!w->any) w->line = line;
        return true;
    }
    if (c == '{') {
        p->i++;
        char name[128];
        size_t k = 0;
        while (p->i < p->n && is_name((unsigned char)p->s[p->i]) && k + 1 < sizeof name) name[k++] = p->s[p->i++];
        name[k] = 0;
        if (!k && p->i < p->n && (p->s[p->i] == '@' || p->s[p->i] == '*')) {
            p->i++;
            w->at = true;
            if (p->i < p->n && p->s[p->i] == '}') { p->i++; return true; }
        }
        if (!k) SHFAIL("%s:%d: ${: a variable name expected", p->file, line);
        if (p->i < p->n && p->s[p->i] == '[') {
            char sub = p->i + 1 < p->n ? p->s[p->i + 1] : 0;
            if ((sub != '@' && sub != '*') || p->i + 3 >= p->n || p->s[p->i + 2] != ']' || p->s[p->i + 3] != '}')
                SHFAIL("%s:%d: ${%s[...}: fusync reads an array whole, ${%s[@]} or ${%s[*]}", p->file, line, name,
                       name, name);
            p->i += 4;
            const sarr *a = arr_get(p, name);
            const sword *e = a ? a->el.data : NULL;
            size_t ne = a ? a->el.len : 0;
            if (!in_dq) {
                /* each element split on blanks: the elements' boundaries are blanks too */
                for (size_t j = 0; j < ne; j++) {
                    if (j) w_expand(p, w, " ", true, line);
                    w_expand(p, w, e[j].text, true, e[j].line);
                }
                if (!w->any) w->line = line;
            } else if (sub == '*') {
                for (size_t j = 0; j < ne; j++) {
                    if (j) w_put(w, ' ', line);
                    w_expand(p, w, e[j].text, false, line);
                }
                if (!ne) w_expand(p, w, "", false, line);
            } else {
                /* "${NAME[@]}": one word an element, as "$@"; none when empty */
                for (size_t j = 0; j < ne; j++) {
                    if (j) w_end(p, w);
                    if (!w->b.len) w->line = e[j].line;  /* the opening quote set the command's line */
                    w_expand(p, w, e[j].text, false, e[j].line);
                }
                if (!ne) w->at = true;
            }
            return true;
        }
        const char *v = var_get(p, name);
        char op = p->i < p->n ? p->s[p->i] : 0;
        if (op == '}') {
            p->i++;
            w_expand(p, w, v ? v : "", !in_dq, line);
            return true;
        }
        bool colon = op == ':';
        if (colon) p->i++;
        op = p->i < p->n ? p->s[p->i] : 0;
        if (op != '-' && op != '=') SHFAIL("%s:%d: ${%s%c...}: fusync reads ${VAR}, ${VAR:-default} and ${VAR-default}",
                                           p->file, line, name, colon ? ':' : op);
        p->i++;
        fs_buf d;
        buf_init(&d);
        if (!read_until(p, '}', 1, &d)) { buf_free(&d); SHFAIL("%s:%d: ${%s: no closing }", p->file, line, name); }
        bool use_default = !v || (colon && !*v);
        const char *res = use_default ? (d.s ? d.s : "") : v;
        char *keep = xstrdup(res);
        if (use_default && op == '=') var_set(p, name, keep);
        buf_free(&d);
        w_expand(p, w, keep, !in_dq, line);
        free(keep);
        return true;
    }
    if (is_name_start((unsigned char)c)) {
        char name[128];
        size_t k = 0;
        while (p->i < p->n && is_name((unsigned char)p->s[p->i]) && k + 1 < sizeof name) name[k++] = p->s[p->i++];
        name[k] = 0;
        const char *v = var_get(p, name);
        w_expand(p, w, v ? v : "", !in_dq, line);
        return true;
    }
    w_put(w, '$', line);    /* a lone $ */
    return true;
}

/* What a statement does: assignments, or the command we are after. */
static bool statement(sh *p, imp_framework fw, imp_cfg *c, bool *found)
{
    sword *w = p->words.data;
    size_t n = p->words.len, i = 0;
    if (n == 0) return true;
    if (!strcmp(w[0].text, "export") || !strcmp(w[0].text, "local") || !strcmp(w[0].text, "readonly")) i = 1;
    size_t first = i;
    while (i < n && w[i].assign_ok) i++;
    if (i == n) {
        for (size_t k = first; k < n; k++) {
            char *eq = strchr(w[k].text, '=');
            *eq = 0;
            var_set(p, w[k].text, eq + 1);
            *eq = '=';
        }
        return true;
    }
    /* the command: ... -m MODULE ARGS */
    size_t m = 0;
    for (size_t k = i; k + 1 < n; k++) {
        if (strcmp(w[k].text, "-m")) continue;
        const char *mod = w[k + 1].text;
        bool ours = fw == IMP_VERL ? (!strncmp(mod, "verl.", 5) || !strncmp(mod, "recipe.", 7))
                                   : !strcmp(mod, "openrlhf.cli.train_ppo_ray");
        if (ours) { m = k + 2; break; }
    }
    if (!m) return true;
    if (*found) SHFAIL("%s:%d: a second %s command; fusync imports one run a script", p->file, w[m - 1].line,
                       w[m - 1].text);
    *found = true;
    for (size_t k = m; k < n; k++) {
        const char *a = w[k].text;
        int line = w[k].line;
        if (fw == IMP_VERL) {
            if (!strncmp(a, "--config-path", 13) || !strncmp(a, "--config-name", 13) || !strcmp(a, "-cn") ||
                !strcmp(a, "-cp")) {
                const char *v = strchr(a, '=');
                if (v) v++;
                else if (k + 1 < n) v = w[++k].text;
                else SHFAIL("%s:%d: %s: a value expected", p->file, line, a);
                bool name = !strncmp(a, "--config-name", 13) || !strcmp(a, "-cn");
                imp_cfg_set(c, name ? "hydra.config_name" : "hydra.config_path", v, p->file, line, true);
                continue;
            }
            if (!imp_override(c, a, p->file, line, p->err)) return false;
            continue;
        }
        /* OpenRLHF: argparse --key value, --key=value, --flag */
        if (strncmp(a, "--", 2) || !a[2]) SHFAIL("%s:%d: '%s': an option --key expected", p->file, line, a);
        char key[256];
        const char *eq = strchr(a, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq ? (size_t)(eq - a - 2) : strlen(a + 2)), a + 2);
        if (eq) {
            imp_cfg_set(c, key, eq + 1, p->file, line, false);
        } else if (imp_fw_flag(fw, key)) {
            imp_cfg_set(c, key, "true", p->file, line, false);
        } else if (k + 1 < n && strncmp(w[k + 1].text, "--", 2)) {
            /* nargs="*" options take every word up to the next option */
            fs_buf v;
            buf_init(&v);
            buf_puts(&v, w[++k].text);
            while (k + 1 < n && strncmp(w[k + 1].text, "--", 2)) {
                buf_putc(&v, ' ');
                buf_puts(&v, w[++k].text);
            }
            imp_cfg_set(c, key, v.s, p->file, line, false);
            buf_free(&v);
        } else {
            SHFAIL("%s:%d: --%s: a value expected", p->file, line, key);
        }
    }
    return true;
}

static void clear_words(sh *p)
{
    sword *w = p->words.data;
    for (size_t i = 0; i < p->words.len; i++) free(w[i].text);
    p->words.len = 0;
}

/* An unquoted '(' right after an assignment word's '=' (NAME=, the first
** words of the statement all assignments): an array's elements follow. */
static bool array_opens(const sh *p, const wacc *w)
{
    if (p->arr_name || !w->any || w->quoted || !w->b.len || w->b.s[w->b.len - 1] != '=') return false;
    const char *t = w->b.s;
    size_t k = 0;
    if (!is_name_start((unsigned char)t[0])) return false;
    while (is_name((unsigned char)t[k])) k++;
    if (k + 1 != w->b.len) return false;
    const sword *sw = p->words.data;
    size_t i = 0;
    if (p->words.len && (!strcmp(sw[0].text, "export") || !strcmp(sw[0].text, "local") ||
                         !strcmp(sw[0].text, "readonly") || !strcmp(sw[0].text, "declare")))
        i = 1;
    for (; i < p->words.len; i++) if (!sw[i].assign_ok) return false;
    return true;
}

bool imp_shell_load(const char *path, imp_framework fw, imp_cfg *c, fs_err *err)
{
    char *text;
    size_t len;
    if (!read_small_file(path, 4L << 20, "launch script", &text, &len, err)) return false;
    sh st = {.file = path, .s = text, .i = 0, .n = len, .line = 1, .err = err};
    sh *p = &st;
    vec_init(&p->vars, sizeof(svar));
    vec_init(&p->arrays, sizeof(sarr));
    vec_init(&p->words, sizeof(sword));
    wacc w;
    memset(&w, 0, sizeof w);
    buf_init(&w.b);
    bool ok = true, found = false;
    while (ok && p->i < p->n) {
        char ch = p->s[p->i];
        if (ch == '\\') {
            if (p->i + 1 < p->n && p->s[p->i + 1] == '\n') { p->i += 2; p->line++; continue; }
            if (p->i + 1 < p->n) { w_put(&w, p->s[p->i + 1], p->line); p->i += 2; continue; }
            p->i++;
            continue;
        }
        if (ch == '#' && !w.any) {
            while (p->i < p->n && p->s[p->i] != '\n') p->i++;
            continue;
        }
        if (ch == '\'') {
            int start = p->line;
            p->i++;
            if (!w.any) w.line = start;
            w.any = w.quoted = true;
            while (p->i < p->n && p->s[p->i] != '\'') {
                if (p->s[p->i] == '\n') p->line++;
                buf_putc(&w.b, p->s[p->i++]);
            }
            if (p->i >= p->n) { fs_err_set(err, 2, "%s:%d: unterminated single quote", path, start); ok = false; break; }
            p->i++;
            continue;
        }
        if (ch == '"') {
            int start = p->line;
            p->i++;
            if (!w.any) w.line = start;
            w.any = w.quoted = true;
            while (ok && p->i < p->n && p->s[p->i] != '"') {
                char d = p->s[p->i];
                if (d == '\\' && p->i + 1 < p->n && strchr("$`\"\\\n", p->s[p->i + 1])) {
                    if (p->s[p->i + 1] == '\n') p->line++;
                    else buf_putc(&w.b, p->s[p->i + 1]);
                    p->i += 2;
                    continue;
                }
                if (d == '$') { ok = expand_dollar(p, &w, true); continue; }
                if (d == '`') { fs_err_set(err, 2, "%s:%d: command substitution `...`: its output cannot be known "
                                           "without running it", path, p->line); ok = false; break; }
                if (d == '\n') p->line++;
                buf_putc(&w.b, d);
                p->i++;
            }
            if (!ok) break;
            if (p->i >= p->n) { fs_err_set(err, 2, "%s:%d: unterminated double quote", path, start); ok = false; break; }
            p->i++;
            continue;
        }
        if (ch == '$') { ok = expand_dollar(p, &w, false); continue; }
        if (ch == '`') { fs_err_set(err, 2, "%s:%d: command substitution `...`: its output cannot be known without "
                                    "running it", path, p->line); ok = false; break; }
        if (ch == '>' || ch == '<') {
            /* a redirection: an fd number before it, its target after it, all dropped */
            bool fd = w.any && !w.quoted && w.b.len && strspn(w.b.s, "0123456789") == w.b.len;
            if (fd) { buf_free(&w.b); buf_init(&w.b); w.any = false; }
            else w_end(p, &w);
            p->i++;
            while (p->i < p->n && (p->s[p->i] == '>' || p->s[p->i] == '<')) p->i++;
            if (p->i < p->n && p->s[p->i] == '&') {
                p->i++;
                while (p->i < p->n && (isdigit((unsigned char)p->s[p->i]) || p->s[p->i] == '-')) p->i++;
            } else {
                p->drop_next = true;
            }
            continue;
        }
        if (ch == '(' && array_opens(p, &w)) {
            w.b.s[--w.b.len] = 0;
            p->arr_name = xstrdup(w.b.s);
            p->arr_line = p->line;
            buf_free(&w.b);
            buf_init(&w.b);
            w.any = w.quoted = w.at = false;
            p->arr_from = p->words.len;
            p->i++;
            continue;
        }
        if (ch == ')' && p->arr_name) {
            w_end(p, &w);
            arr_set(p, p->arr_name, p->arr_from);
            free(p->arr_name);
            p->arr_name = NULL;
            p->i++;
            continue;
        }
        if (ch == '\n' && p->arr_name) { w_end(p, &w); p->line++; p->i++; continue; }
        if (ch == ' ' || ch == '\t') { w_end(p, &w); p->i++; continue; }
        if (ch == '\n' || ch == ';' || ch == '&' || ch == '|') {
            w_end(p, &w);
            ok = statement(p, fw, c, &found);
            clear_words(p);
            if (ch == '\n') p->line++;
            p->i++;
            continue;
        }
        w_put(&w, ch, p->line);
        p->i++;
    }
    if (ok && p->arr_name) {
        fs_err_set(err, 2, "%s:%d: %s=( with no closing )", path, p->arr_line, p->arr_name);
        ok = false;
    }
    if (ok) {
        w_end(p, &w);
        ok = statement(p, fw, c, &found);
    }
    clear_words(p);
    free(p->arr_name);
    sarr *ar = p->arrays.data;
    for (size_t i = 0; i < p->arrays.len; i++) { arr_clear(&ar[i]); vec_free(&ar[i].el); free(ar[i].name); }
    vec_free(&p->arrays);
    buf_free(&w.b);
    svar *v = p->vars.data;
    for (size_t i = 0; i < p->vars.len; i++) { free(v[i].name); free(v[i].value); }
    vec_free(&p->vars);
    vec_free(&p->words);
    free(text);
    if (ok && !found) {
        fs_err_set(err, 2, "%s: no `python3 -m %s` command found", path,
                   fw == IMP_VERL ? "verl.trainer.main_ppo" : "openrlhf.cli.train_ppo_ray");
        ok = false;
    }
    return ok;
}
