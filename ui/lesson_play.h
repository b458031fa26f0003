/*
** lesson_play.h — playing a guided lesson (src/lesson.h reads the file) in
** the terminal front end: each step is applied to the app (scenario,
** what-ifs, snapshots, play to a moment, comparison, focus, highlight), its
** caption drawn in a box over the panes, and the lesson waits for a key:
** space or Enter goes on, Backspace goes back a step, Esc leaves the lesson
** with the run as it is.  `o` opens a menu of the lessons found
** (lesson_menu.h), whose keys come here.  The player drives the app; the
** app calls nothing here (it lets the lesson's state go through the
** pointer the player leaves with it).
*/
#ifndef FUSYNC_UI_LESSON_PLAY_H
#define FUSYNC_UI_LESSON_PLAY_H

#include "app.h"
#include "canvas.h"
#include "layout.h"

/* `fusync tui --lesson FILE`: open the lesson named in o->lesson_path, the
** app on the lesson's scenario, and apply the first step.  False with err
** (nothing taken). */
bool lesson_open_app(tui_app *a, const cli_opts *o, fs_err *err);
/* Start the lesson in `file` in an app already open (the menu). */
bool lesson_start(tui_app *a, const char *file, fs_err *err);

/* A key for the lesson or its menu: RE_* flags, RE_NONE when it is not
** theirs (the app takes it). */
int  lesson_event(tui_app *a, const tui_event *ev);
/* Draw the caption box, the highlight and the menu over a rendered frame. */
void lesson_draw(tui_app *a, tui_canvas *cv, const tui_layout *L);

/* For tests and the headless run: is a lesson playing, which step (0-based),
** how many, the caption shown and a claim that did not hold ("" if none). */
bool lesson_active(const tui_app *a);
int  lesson_current(const tui_app *a, int *nsteps);
const char *lesson_caption_text(const tui_app *a);
const char *lesson_warning(const tui_app *a);
bool lesson_finished(const tui_app *a);     /* past the last step: the end card */

#endif
