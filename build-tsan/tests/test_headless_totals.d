build-tsan/tests/test_headless_totals.o: tests/test_headless_totals.c \
 tests/testutil.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/lua_scenario.h src/scenario.h src/trace.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/scenario.h:
src/trace.h:
