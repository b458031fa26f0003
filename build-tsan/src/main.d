build-tsan/src/main.o: src/main.c src/cli.h src/scenario.h src/util.h \
 src/chrome.h src/engine.h src/plan.h src/trace.h src/lua_scenario.h \
 src/presets.h src/report.h src/rtable.h src/runner.h src/plugin.h \
 src/svg.h
src/cli.h:
src/scenario.h:
src/util.h:
src/chrome.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/lua_scenario.h:
src/presets.h:
src/report.h:
src/rtable.h:
src/runner.h:
src/plugin.h:
src/svg.h:
