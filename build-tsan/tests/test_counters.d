build-tsan/tests/test_counters.o: tests/test_counters.c tests/testutil.h \
 src/engine.h src/scenario.h src/util.h src/plan.h src/trace.h \
 src/lua_scenario.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
