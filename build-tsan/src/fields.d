build-tsan/src/fields.o: src/fields.c src/fields.h src/scenario.h \
 src/util.h src/fields_lua.h
src/fields.h:
src/scenario.h:
src/util.h:
src/fields_lua.h:
