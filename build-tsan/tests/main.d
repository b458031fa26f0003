build-tsan/tests/main.o: tests/main.c tests/testutil.h src/engine.h \
 src/scenario.h src/util.h src/plan.h src/trace.h src/lua_scenario.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
