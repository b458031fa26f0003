build-tsan/ui/run.o: ui/run.c ui/run.h src/engine.h src/scenario.h \
 src/util.h src/plan.h src/trace.h src/report.h src/engine.h src/runner.h \
 src/plugin.h src/report.h ui/style.h ui/canvas.h src/trace.h
ui/run.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/report.h:
src/engine.h:
src/runner.h:
src/plugin.h:
src/report.h:
ui/style.h:
ui/canvas.h:
src/trace.h:
