build-tsan/tests/test_workload.o: tests/test_workload.c tests/testutil.h \
 src/dist.h src/scenario.h src/util.h src/engine.h src/plan.h src/trace.h \
 src/lengths.h src/lua_scenario.h
tests/testutil.h:
src/dist.h:
src/scenario.h:
src/util.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/lengths.h:
src/lua_scenario.h:
