build-tsan/src/fields_lua.o: src/fields_lua.c src/fields_lua.h \
 src/fields.h src/scenario.h src/util.h src/presets.h \
 /usr/include/lua5.4/lua.h /usr/include/lua5.4/luaconf.h \
 /usr/include/lua5.4/lauxlib.h /usr/include/lua5.4/lua.h
src/fields_lua.h:
src/fields.h:
src/scenario.h:
src/util.h:
src/presets.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
