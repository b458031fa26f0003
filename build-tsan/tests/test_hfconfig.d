build-tsan/tests/test_hfconfig.o: tests/test_hfconfig.c tests/testutil.h \
 src/hfconfig.h src/scenario.h src/util.h src/lua_scenario.h \
 src/presets.h
tests/testutil.h:
src/hfconfig.h:
src/scenario.h:
src/util.h:
src/lua_scenario.h:
src/presets.h:
