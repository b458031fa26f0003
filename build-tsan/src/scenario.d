build-tsan/src/scenario.o: src/scenario.c src/scenario.h src/util.h \
 src/fields.h
src/scenario.h:
src/util.h:
src/fields.h:
