build-tsan/tests/test_plugin.o: tests/test_plugin.c tests/testutil.h \
 src/engine.h src/scenario.h src/util.h src/plan.h src/trace.h \
 src/lua_scenario.h src/plan.h src/plugin.h src/engine.h src/report.h \
 src/policy.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/plan.h:
src/plugin.h:
src/engine.h:
src/report.h:
src/policy.h:
