build-tsan/src/calibrate.o: src/calibrate.c src/calibrate.h \
 src/scenario.h src/util.h src/dist.h src/jsonr.h src/runner.h \
 src/engine.h src/plan.h src/trace.h src/plugin.h src/report.h
src/calibrate.h:
src/scenario.h:
src/util.h:
src/dist.h:
src/jsonr.h:
src/runner.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/plugin.h:
src/report.h:
