build-tsan/src/cli_plan.o: src/cli_plan.c src/cli.h src/scenario.h \
 src/util.h src/engine.h src/plan.h src/trace.h src/lua_scenario.h \
 src/planner.h src/plugin.h src/report.h src/rtable.h src/policy.h \
 src/workers.h
src/cli.h:
src/scenario.h:
src/util.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/planner.h:
src/plugin.h:
src/report.h:
src/rtable.h:
src/policy.h:
src/workers.h:
