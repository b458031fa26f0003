build-tsan/tests/test_runner.o: tests/test_runner.c tests/testutil.h \
 src/runner.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/plugin.h src/report.h
tests/testutil.h:
src/runner.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/plugin.h:
src/report.h:
