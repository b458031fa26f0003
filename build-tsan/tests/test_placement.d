build-tsan/tests/test_placement.o: tests/test_placement.c \
 tests/testutil.h src/lua_scenario.h src/scenario.h src/util.h \
 src/planner.h src/plan.h src/trace.h src/plugin.h src/engine.h \
 src/report.h src/rtable.h src/engine.h src/trace.h
tests/testutil.h:
src/lua_scenario.h:
src/scenario.h:
src/util.h:
src/planner.h:
src/plan.h:
src/trace.h:
src/plugin.h:
src/engine.h:
src/report.h:
src/rtable.h:
src/engine.h:
src/trace.h:
