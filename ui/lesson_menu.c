/*
** lesson_menu.c — the menu of guided lessons (see lesson_menu.h).
*/
#include "lesson_menu.h"
#include "lesson.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUSYNC_DATADIR
#define FUSYNC_DATADIR "/usr/local/share/fusync"
#endif

static int cmp_str(const void *x, const void *y) { return strcmp((const char *)x, (const char *)y); }

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
        for (int i = 0; i < m->n; i++) {
            fs_err err = {0, ""};
            lesson *l = lesson_open(m->file[i], &err);
            snprintf(m->title[i], sizeof m->title[i], "%s", l ? lesson_title(l) : "(does not load; Enter says why)");
            lesson_close(l);
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
