build-tsan/src/cli.o: src/cli.c src/cli.h src/scenario.h src/util.h \
 src/lua_scenario.h src/policy.h src/rtable.h src/report.h src/engine.h \
 src/plan.h src/trace.h
src/cli.h:
src/scenario.h:
src/util.h:
src/lua_scenario.h:
src/policy.h:
src/rtable.h:
src/report.h:
src/engine.h:
src/plan.h:
src/trace.h:
