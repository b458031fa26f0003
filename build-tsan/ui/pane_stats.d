build-tsan/ui/pane_stats.o: ui/pane_stats.c ui/pane.h ui/app.h src/cli.h \
 src/scenario.h src/util.h ui/layout.h ui/canvas.h ui/run.h src/engine.h \
 src/plan.h src/trace.h src/report.h src/engine.h src/runner.h \
 src/plugin.h src/report.h ui/style.h src/trace.h ui/render.h
ui/pane.h:
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
ui/style.h:
src/trace.h:
ui/render.h:
