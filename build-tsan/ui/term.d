build-tsan/ui/term.o: ui/term.c ui/term.h ui/app.h src/cli.h \
 src/scenario.h src/util.h ui/layout.h ui/canvas.h ui/run.h src/engine.h \
 src/plan.h src/trace.h src/report.h src/engine.h src/runner.h \
 src/plugin.h src/report.h src/trace.h src/util.h
ui/term.h:
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
src/trace.h:
src/util.h:
