build-tsan/tests/test_planner.o: tests/test_planner.c tests/testutil.h \
 src/lua_scenario.h src/scenario.h src/util.h src/planner.h src/plan.h \
 src/trace.h src/plugin.h src/engine.h src/report.h src/rtable.h \
 src/runner.h src/engine.h src/trace.h
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
src/runner.h:
src/engine.h:
src/trace.h:
