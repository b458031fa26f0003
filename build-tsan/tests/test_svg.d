build-tsan/tests/test_svg.o: tests/test_svg.c tests/testutil.h ui/app.h \
 src/cli.h src/scenario.h src/util.h ui/layout.h ui/canvas.h ui/run.h \
 src/engine.h src/plan.h src/trace.h src/report.h src/engine.h \
 src/runner.h src/plugin.h src/report.h src/svg.h ui/svg_export.h \
 ui/app.h
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
src/svg.h:
ui/svg_export.h:
ui/app.h:
