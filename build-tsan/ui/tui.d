build-tsan/ui/tui.o: ui/tui.c ui/tui.h src/cli.h src/scenario.h \
 src/util.h ui/app.h ui/layout.h ui/canvas.h ui/run.h src/engine.h \
 src/plan.h src/trace.h src/report.h src/engine.h src/runner.h \
 src/plugin.h src/report.h ui/lesson_play.h ui/render.h ui/term.h
ui/tui.h:
src/cli.h:
src/scenario.h:
src/util.h:
ui/app.h:
ui/layout.h:
ui/canvas.h:
ui/run.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/report.h:
src/engine.h:
src/runner.h:
src/plugin.h:
src/report.h:
ui/lesson_play.h:
ui/render.h:
ui/term.h:
