build-tsan/src/runner.o: src/runner.c src/runner.h src/engine.h \
 src/scenario.h src/util.h src/plan.h src/trace.h src/plugin.h \
 src/report.h src/fields.h src/lua_scenario.h src/policy.h
src/runner.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/plugin.h:
src/report.h:
src/fields.h:
src/lua_scenario.h:
src/policy.h:
