build-tsan/tests/test_scenario_lua.o: tests/test_scenario_lua.c \
 /usr/include/lua5.4/lua.h /usr/include/lua5.4/luaconf.h \
 /usr/include/lua5.4/lauxlib.h /usr/include/lua5.4/lua.h \
 src/lua_scenario.h src/scenario.h src/util.h src/presets.h \
 src/scenario.h tests/testutil.h
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
src/lua_scenario.h:
src/scenario.h:
src/util.h:
src/presets.h:
src/scenario.h:
tests/testutil.h:
