build-tsan/ui/app.o: ui/app.c ui/app.h src/cli.h src/scenario.h \
 src/util.h ui/layout.h ui/canvas.h ui/run.h src/engine.h src/plan.h \
 src/trace.h src/report.h src/engine.h src/runner.h src/plugin.h \
 src/report.h ui/pane.h src/chrome.h ui/style.h src/trace.h src/fields.h \
 ui/svg_export.h ui/lesson_play.h
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
ui/pane.h:
src/chrome.h:
ui/style.h:
src/trace.h:
src/fields.h:
ui/svg_export.h:
ui/lesson_play.h:
