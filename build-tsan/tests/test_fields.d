build-tsan/tests/test_fields.o: tests/test_fields.c tests/testutil.h \
 src/fields.h src/scenario.h src/util.h src/fields_lua.h src/fields.h \
 src/lua_scenario.h src/policy.h src/report_fields.h src/report.h \
 src/engine.h src/plan.h src/trace.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/luaconf.h /usr/include/lua5.4/lauxlib.h \
 /usr/include/lua5.4/lua.h /usr/include/lua5.4/lualib.h
tests/testutil.h:
src/fields.h:
src/scenario.h:
src/util.h:
src/fields_lua.h:
src/fields.h:
src/lua_scenario.h:
src/policy.h:
src/report_fields.h:
src/report.h:
src/engine.h:
src/plan.h:
src/trace.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/lualib.h:
