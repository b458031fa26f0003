/*
** lesson_menu.h — the menu of guided lessons that `o` opens: the lesson
** files found (docs/lessons.md says where it looks), their titles, the one
** chosen.  The app keeps it and opens it; the lesson player (lesson_play.c)
** takes its keys and starts the lesson chosen.  It knows no app.
*/
#ifndef FUSYNC_UI_LESSON_MENU_H
#define FUSYNC_UI_LESSON_MENU_H

#include <stdbool.h>
#include <stddef.h>
#include "canvas.h"
#include "layout.h"

#define LESSON_MENU_MAX 32

typedef struct lesson_menu {
    bool open;
    int  n, sel;
    char dir[1024];                         /* the folder they were found in */
    char file[LESSON_MENU_MAX][1024];       /* sorted by name */
    char title[LESSON_MENU_MAX][128];
} lesson_menu;

/* Find the lessons for a scenario (NULL: none loaded) and open the menu on
** the first.  False when there are none, with where it looked in `why`. */
bool lesson_menu_open(lesson_menu *m, const char *scenario, char *why, size_t n);
/* A lesson file's title as the menu shows it, read from its text (its first
** `title = "..."` outside a comment) without running it.  False: none. */
bool lesson_menu_peek_title(const char *path, char *out, size_t n);
/* Draw the open menu over a rendered frame. */
void lesson_menu_draw(const lesson_menu *m, tui_canvas *cv, const tui_layout *L);

#endif
