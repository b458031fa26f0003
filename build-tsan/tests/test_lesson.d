build-tsan/tests/test_lesson.o: tests/test_lesson.c tests/testutil.h \
 ui/app.h src/cli.h src/scenario.h src/util.h ui/layout.h ui/canvas.h \
 ui/run.h src/engine.h src/plan.h src/trace.h src/report.h src/engine.h \
 src/runner.h src/plugin.h src/report.h src/lesson.h ui/lesson_play.h \
 ui/app.h ui/render.h
tests/testutil.h:
ui/app.h:
src/cli.h:
src/scenario.h:
src/util.h:
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
src/lesson.h:
ui/lesson_play.h:
ui/app.h:
ui/render.h:
