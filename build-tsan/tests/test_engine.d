build-tsan/tests/test_engine.o: tests/test_engine.c tests/testutil.h \
 src/dist.h src/scenario.h src/util.h src/engine.h src/plan.h src/trace.h \
 src/lua_scenario.h src/report.h src/engine.h src/chrome.h
tests/testutil.h:
src/dist.h:
src/scenario.h:
src/util.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/report.h:
src/engine.h:
src/chrome.h:
