build-tsan/src/lua_scenario.o: src/lua_scenario.c src/lua_scenario.h \
 src/scenario.h src/util.h src/fields_lua.h src/fields.h src/hfconfig.h \
 src/lua_sandbox.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/luaconf.h src/presets.h src/lengths.h \
 /usr/include/lua5.4/lauxlib.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/lualib.h
src/lua_scenario.h:
src/scenario.h:
src/util.h:
src/fields_lua.h:
src/fields.h:
src/hfconfig.h:
src/lua_sandbox.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
src/presets.h:
src/lengths.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/lualib.h:
