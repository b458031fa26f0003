build-tsan/src/plugin_lesson.o: src/plugin_lesson.c src/lesson.h \
 src/report.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/plugin_lua.h src/plugin.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/luaconf.h /usr/include/lua5.4/lauxlib.h \
 /usr/include/lua5.4/lua.h
src/lesson.h:
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/plugin_lua.h:
src/plugin.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
