build-tsan/ui/svg_export.o: ui/svg_export.c ui/svg_export.h ui/app.h \
 src/cli.h src/scenario.h src/util.h ui/layout.h ui/canvas.h ui/run.h \
 src/engine.h src/plan.h src/trace.h src/report.h src/engine.h \
 src/runner.h src/plugin.h src/report.h src/svg.h
ui/svg_export.h:
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
src/svg.h:
