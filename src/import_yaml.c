/*
** import_yaml.c — the flat key store of an imported configuration, and YAML
** files read into it through libyaml's event parser (pyyaml.org/wiki/LibYAML).
**
** A mapping becomes dotted keys; a sequence of scalars one value "[a, b]"
** (the frameworks' lists that matter to fusync are never read item by item);
** a key set again replaces the earlier value, and a key set to a scalar drops
** what was under it — OmegaConf's merge of a recipe over its defaults, where
** `optimizer: null` removes the defaults' optimizer block.
*/
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

void imp_cfg_init(imp_cfg *c) { vec_init(&c->kv, sizeof(imp_kv)); }

static void kv_free(imp_kv *k)
{
    free(k->key);
    free(k->value);
    free(k->file);
}

void imp_cfg_free(imp_cfg *c)
{
    imp_kv *k = c->kv.data;
    for (size_t i = 0; i < c->kv.len; i++) kv_free(&k[i]);
    vec_free(&c->kv);
}

/* a is b, or b's ancestor ("a" of "a.b") */
static bool is_under(const char *key, const char *top)
{
    size_t n = strlen(top);
    return !strncmp(key, top, n) && key[n] == '.';
}

static void remove_at(imp_cfg *c, size_t i)
{
    imp_kv *k = c->kv.data;
    kv_free(&k[i]);
    memmove(&k[i], &k[i + 1], (c->kv.len - i - 1) * sizeof *k);
    c->kv.len--;
}

void imp_cfg_unset(imp_cfg *c, const char *key)
{
    for (size_t i = c->kv.len; i-- > 0;) {
        imp_kv *k = (imp_kv *)c->kv.data + i;
        if (!strcmp(k->key, key) || is_under(k->key, key)) remove_at(c, i);
    }
}

void imp_cfg_set(imp_cfg *c, const char *key, const char *value, const char *file, int line, bool quoted)
{
    imp_kv *found = NULL;
    for (size_t i = c->kv.len; i-- > 0;) {
        imp_kv *k = (imp_kv *)c->kv.data + i;
        if (!strcmp(k->key, key)) { found = k; continue; }
        /* a scalar replaces a subtree; a key under a former scalar replaces it */
        if (is_under(k->key, key) || is_under(key, k->key)) remove_at(c, i);
    }
    /* removals may have moved it: find it again */
    found = NULL;
    for (size_t i = 0; i < c->kv.len; i++) {
        imp_kv *k = (imp_kv *)c->kv.data + i;
        if (!strcmp(k->key, key)) found = k;
    }
    if (!found) {
        found = vec_push(&c->kv);
        found->key = xstrdup(key);
    } else {
        free(found->value);
        free(found->file);
    }
    found->value = xstrdup(value);
    found->file = xstrdup(file);
    found->line = line;
    found->quoted = quoted;
}

const imp_kv *imp_cfg_get(const imp_cfg *c, const char *key)
{
    const imp_kv *k = c->kv.data;
    for (size_t i = 0; i < c->kv.len; i++) if (!strcmp(k[i].key, key)) return &k[i];
    return NULL;
}

/* ------------------------------------------------------------ the parser */

#define YDEPTH 64

typedef struct {
    bool   is_map;
    bool   want_key;        /* map: the next scalar is a key */
    char  *key;             /* map: the pending key */
    int    key_line;
    fs_buf seq;             /* seq: the items' text */
    int    nitems;
    char  *prefix;          /* the dotted path of this node */
    int    line;            /* where the node began */
} yframe;

typedef struct {
    const char *file;
    imp_cfg    *c;
    yframe      st[YDEPTH];
    int         depth;
    fs_vec     *defaults;   /* char*: the top-level `defaults:` entries, or NULL */
    bool        summary;    /* the value being recorded is a sequence's summary */
    fs_err     *err;
} yctx;

static char *join_key(const char *prefix, const char *key)
{
    size_t n = strlen(prefix) + strlen(key) + 2;
    char *s = xmalloc(n);
    snprintf(s, n, "%s%s%s", prefix, *prefix ? "." : "", key);
    return s;
}

/* A value has arrived for the frame on top: a scalar's text, or a child
** node's summary.  Records it under its key, or as a sequence item. */
static void y_value(yctx *y, const char *text, bool quoted, bool leaf)
{
    if (y->depth == 0) return;
    yframe *f = &y->st[y->depth - 1];
    if (f->is_map) {
        char *k = join_key(f->prefix, f->key);
        if (y->defaults && y->depth == 1 && !strcmp(k, "defaults")) {
            if (leaf && !y->summary) *(char **)vec_push(y->defaults) = xstrdup(text);
        } else if (leaf) {
            imp_cfg_set(y->c, k, text, y->file, f->key_line, quoted);
        }
        free(k);
        free(f->key);
        f->key = NULL;
        f->want_key = true;
    } else {
        if (f->nitems++) buf_puts(&f->seq, ", ");
        buf_puts(&f->seq, text);
        if (y->defaults && y->depth == 2 && leaf && y->st[0].is_map && y->st[0].key &&
            !strcmp(y->st[0].key, "defaults"))
            *(char **)vec_push(y->defaults) = xstrdup(text);
    }
}

static bool y_push(yctx *y, bool is_map, int line)
{
    if (y->depth >= YDEPTH) {
        fs_err_set(y->err, 2, "%s:%d: nested deeper than %d levels", y->file, line, YDEPTH);
        return false;
    }
    const char *prefix = "";
    char *own = NULL;
    if (y->depth > 0) {
        yframe *p = &y->st[y->depth - 1];
        if (p->is_map && p->key) own = join_key(p->prefix, p->key);
        else own = xstrdup(p->prefix);
        prefix = own;
    }
    yframe *f = &y->st[y->depth++];
    memset(f, 0, sizeof *f);
    f->is_map = is_map;
    f->want_key = true;
    f->prefix = own ? own : xstrdup(prefix);
    f->line = line;
    buf_init(&f->seq);
    return true;
}

static void y_pop(yctx *y)
{
    yframe *f = &y->st[--y->depth];
    if (f->is_map) {
        /* an empty mapping is a leaf "{}": a key of it set later replaces it */
        bool empty = true;
        const imp_kv *k = y->c->kv.data;
        for (size_t i = 0; i < y->c->kv.len && empty; i++)
            if (*f->prefix && is_under(k[i].key, f->prefix)) empty = false;
        if (y->depth > 0) {
            yframe *p = &y->st[y->depth - 1];
            if (p->is_map) y_value(y, "{}", false, empty);
            else y_value(y, "{...}", false, false);
        }
    } else {
        char *text = xmalloc(f->seq.len + 3);
        snprintf(text, f->seq.len + 3, "[%s]", f->seq.s ? f->seq.s : "");
        y->summary = true;
        y_value(y, text, false, true);
        y->summary = false;
        free(text);
    }
    free(f->key);
    free(f->prefix);
    buf_free(&f->seq);
}

static bool parse_events(yctx *y, yaml_parser_t *p)
{
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(p, &ev)) {
            fs_err_set(y->err, 2, "%s:%lu: YAML: %s%s%s", y->file, (unsigned long)p->problem_mark.line + 1,
                       p->problem ? p->problem : "cannot parse", p->context ? " " : "", p->context ? p->context : "");
            return false;
        }
        int line = (int)ev.start_mark.line + 1;
        bool ok = true, done = false;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_MAPPING_START_EVENT: ok = y_push(y, true, line); break;
        case YAML_SEQUENCE_START_EVENT: ok = y_push(y, false, line); break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT: if (y->depth > 0) y_pop(y); break;
        case YAML_ALIAS_EVENT:
            fs_err_set(y->err, 2, "%s:%d: YAML alias *%s: fusync reads configs without anchors and aliases",
                       y->file, line, (const char *)ev.data.alias.anchor);
            ok = false;
            break;
        case YAML_SCALAR_EVENT: {
            const char *v = (const char *)ev.data.scalar.value;
            bool quoted = ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                          ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
            yframe *f = y->depth ? &y->st[y->depth - 1] : NULL;
            if (f && f->is_map && f->want_key) {
                if (strchr(v, '.')) {
                    fs_err_set(y->err, 2, "%s:%d: key '%s': a key with a dot cannot be told from a path", y->file,
                               line, v);
                    ok = false;
                    break;
                }
                f->key = xstrdup(v);
                f->key_line = line;
                f->want_key = false;
            } else {
                y_value(y, v, quoted, true);
            }
            break;
        }
        default: break;
        }
        yaml_event_delete(&ev);
        if (!ok) return false;
        if (done) return true;
    }
}

static bool load_one(const char *path, bool nemo, imp_cfg *c, int depth, fs_err *err)
{
    if (depth > 16) {
        fs_err_set(err, 2, "%s: defaults: more than 16 files deep (a loop?)", path);
        return false;
    }
    char *text;
    size_t len;
    if (!read_small_file(path, 16L << 20, "config", &text, &len, err)) return false;
    imp_cfg own;
    imp_cfg_init(&own);
    fs_vec defs;
    vec_init(&defs, sizeof(char *));
    yctx y = {.file = path, .c = &own, .depth = 0, .defaults = nemo ? &defs : NULL, .err = err};
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    bool ok = parse_events(&y, &p);
    while (y.depth > 0) y_pop(&y);
    yaml_parser_delete(&p);
    free(text);
    /* the defaults first, each relative to this file's folder */
    char **d = defs.data;
    for (size_t i = 0; ok && i < defs.len; i++) {
        char full[4096];
        const char *slash = strrchr(path, '/');
        if (d[i][0] == '/' || !slash) snprintf(full, sizeof full, "%s", d[i]);
        else snprintf(full, sizeof full, "%.*s/%s", (int)(slash - path), path, d[i]);
        ok = load_one(full, nemo, c, depth + 1, err);
    }
    for (size_t i = 0; i < defs.len; i++) free(d[i]);
    vec_free(&defs);
    const imp_kv *k = own.kv.data;
    for (size_t i = 0; ok && i < own.kv.len; i++) imp_cfg_set(c, k[i].key, k[i].value, k[i].file, k[i].line, k[i].quoted);
    imp_cfg_free(&own);
    return ok;
}

bool imp_yaml_load(const char *path, bool nemo_defaults, imp_cfg *c, fs_err *err)
{
    return load_one(path, nemo_defaults, c, 0, err);
}

/* --------------------------------------------------------- overrides */

bool imp_override(imp_cfg *c, const char *text, const char *file, int line, fs_err *err)
{
    const char *t = text;
    if (*t == '~') {
        const char *eq = strchr(t, '=');
        char key[512];
        snprintf(key, sizeof key, "%.*s", (int)(eq ? (size_t)(eq - t - 1) : strlen(t + 1)), t + 1);
        imp_cfg_unset(c, key);
        return true;
    }
    while (*t == '+') t++;
    const char *eq = strchr(t, '=');
    if (!eq || eq == t) {
        if (line) fs_err_set(err, 2, "%s:%d: '%s' is not a key=value override", file, line, text);
        else fs_err_set(err, 2, "%s: '%s' is not a key=value override", file, text);
        return false;
    }
    char key[512];
    if ((size_t)(eq - t) >= sizeof key) {
        fs_err_set(err, 2, "%s:%d: override key too long", file, line);
        return false;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - t), t);
    const char *v = eq + 1;
    /* Hydra reads a quoted value as a string; quotes were removed by the shell */
    imp_cfg_set(c, key, v, file, line, false);
    return true;
}
