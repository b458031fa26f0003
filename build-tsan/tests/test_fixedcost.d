build-tsan/tests/test_fixedcost.o: tests/test_fixedcost.c \
 tests/testutil.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/lua_scenario.h src/model.h src/plan.h src/report.h \
 src/engine.h src/trace.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/model.h:
src/plan.h:
src/report.h:
src/engine.h:
src/trace.h:
