build-tsan/src/policy_place.o: src/policy_place.c src/plugin_lua.h \
 src/plugin.h src/scenario.h src/util.h src/engine.h src/plan.h \
 src/trace.h src/report.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/luaconf.h /usr/include/lua5.4/lauxlib.h \
 /usr/include/lua5.4/lua.h src/policy.h src/fields_lua.h src/fields.h
src/plugin_lua.h:
src/plugin.h:
src/scenario.h:
src/util.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/report.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
src/policy.h:
src/fields_lua.h:
src/fields.h:
