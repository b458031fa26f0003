build-tsan/src/lua_sandbox.o: src/lua_sandbox.c src/lua_sandbox.h \
 /usr/include/lua5.4/lua.h /usr/include/lua5.4/luaconf.h src/util.h \
 /usr/include/lua5.4/lauxlib.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/lualib.h
src/lua_sandbox.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
src/util.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/lualib.h:
