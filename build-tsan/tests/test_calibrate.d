build-tsan/tests/test_calibrate.o: tests/test_calibrate.c \
 tests/testutil.h src/calibrate.h src/scenario.h src/util.h \
 src/lua_scenario.h src/runner.h src/engine.h src/plan.h src/trace.h \
 src/plugin.h src/report.h
tests/testutil.h:
src/calibrate.h:
src/scenario.h:
src/util.h:
src/lua_scenario.h:
src/runner.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/plugin.h:
src/report.h:
