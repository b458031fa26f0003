/*
** lesson_menu.c — the menu of guided lessons (see lesson_menu.h).
*/
#include "lesson_menu.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUSYNC_DATADIR
#define FUSYNC_DATADIR "/usr/local/share/fusync"
#endif

static int cmp_str(const void *x, const void *y) { return strcmp((const char *)x, (const char *)y); }

bool lesson_menu_peek_title(const char *path, char *out, size_t n)
{
    /* The menu shows titles without running any lesson's main chunk (a
    ** lesson runs only when chosen, in its sandbox): the first
    ** `title = "..."` (or '...') outside a comment, as docs/lessons.md
    ** asks lessons to write it.  Escapes other than \" are kept as written. */
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char text[16384];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    bool comment = false, bol = true;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\n') { comment = false; bol = true; continue; }
        if (comment) continue;
        if (c == '-' && text[i + 1] == '-') { comment = true; continue; }
        bool word = !bol && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_' || text[i - 1] == '.');
        bol = false;
        if (word || strncmp(text + i, "title", 5) != 0) continue;
        size_t k = i + 5;
        while (text[k] == ' ' || text[k] == '\t') k++;
        if (text[k] != '=') continue;
        k++;
        while (text[k] == ' ' || text[k] == '\t') k++;
        char q = text[k];
        if (q != '"' && q != '\'') continue;
        size_t o = 0;
        for (k++; text[k] && text[k] != q && text[k] != '\n'; k++) {
            if (text[k] == '\\' && text[k + 1] == q) k++;
            if (o + 1 < n) out[o++] = text[k];
        }
        if (text[k] != q || o == 0) return false;
        out[o] = 0;
        return true;
    }
    return false;
}

/* The first folder with lessons: $FUSYNC_LESSONS, ./lessons, lessons beside
** the scenario's folder, share/fusync/lessons beside the installed binary
** (PREFIX/bin/fusync), the PREFIX the binary was built for. */
static int find_lessons(lesson_menu *m, const char *scenario)
{
    char cands[5][1024];
    int nc = 0;
    const char *env = getenv("FUSYNC_LESSONS");
    if (env && *env) snprintf(cands[nc++], sizeof cands[0], "%s", env);
    snprintf(cands[nc++], sizeof cands[0], "lessons");
    const char *slash = scenario ? strrchr(scenario, '/') : NULL;
    if (slash) snprintf(cands[nc++], sizeof cands[0], "%.*s/../lessons", (int)(slash - scenario), scenario);
    char exe[1024];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el > 0) {
        exe[el] = 0;
        char *s1 = strrchr(exe, '/');
        if (s1) {
            *s1 = 0;
            snprintf(cands[nc++], sizeof cands[0], "%.900s/../share/fusync/lessons", exe);
        }
    }
    snprintf(cands[nc++], sizeof cands[0], "%s/lessons", FUSYNC_DATADIR);
    for (int c = 0; c < nc; c++) {
        DIR *d = opendir(cands[c]);
        if (!d) continue;
        m->n = 0;
        struct dirent *e;
        while ((e = readdir(d)) && m->n < LESSON_MENU_MAX) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".lua") || e->d_name[0] == '.') continue;
            snprintf(m->file[m->n++], sizeof m->file[0], "%s/%s", cands[c], e->d_name);
        }
        closedir(d);
        if (!m->n) continue;
        qsort(m->file, (size_t)m->n, sizeof m->file[0], cmp_str);
        snprintf(m->dir, sizeof m->dir, "%s", cands[c]);
        for (int i = 0; i < m->n; i++)
            if (!lesson_menu_peek_title(m->file[i], m->title[i], sizeof m->title[i])) {
                const char *b = strrchr(m->file[i], '/');
                snprintf(m->title[i], sizeof m->title[i], "%s (no title line; Enter opens it)", b ? b + 1 : m->file[i]);
            }
        return m->n;
    }
    return 0;
}

bool lesson_menu_open(lesson_menu *m, const char *scenario, char *why, size_t n)
{
    if (!find_lessons(m, scenario)) {
        snprintf(why, n, "No lessons found: looked in $FUSYNC_LESSONS, ./lessons, beside the scenario's folder, "
                 "share/fusync/lessons beside the program and %s/lessons", FUSYNC_DATADIR);
        return false;
    }
    m->open = true;
    m->sel = 0;
    return true;
}

void lesson_menu_draw(const lesson_menu *m, tui_canvas *cv, const tui_layout *L)
{
    int w = L->body.w - 4 < 76 ? L->body.w - 4 : 76, h = m->n + 4;
    if (h > L->body.h) h = L->body.h;
    tui_rect r = {L->body.y + (L->body.h - h) / 2, L->body.x + (L->body.w - w) / 2, h, w};
    cv_fill(cv, r, ' ', ST_NORMAL);
    char title[96];
    snprintf(title, sizeof title, "Guided lessons (%s)", m->dir);
    cv_box(cv, r, ST_BORDER_FOCUS, title, ST_TITLE_FOCUS);
    tui_rect in = rect_inner(r);
    for (int i = 0; i < m->n && i < in.h - 1; i++)
        cv_printf(cv, in.y + i, in.x + 1, in.w - 2, i == m->sel ? ST_SELECT : ST_NORMAL, "%d  %s", i + 1,
                  m->title[i]);
    cv_text(cv, in.y + in.h - 1, in.x + 1, in.w - 2, ST_DIM, "Up/Down choose, Enter starts, Esc closes");
}
