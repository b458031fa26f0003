build-tsan/tests/test_stalesync.o: tests/test_stalesync.c \
 tests/testutil.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/lua_scenario.h src/report.h src/engine.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/report.h:
src/engine.h:
