build-tsan/src/lengths.o: src/lengths.c src/lengths.h src/scenario.h \
 src/util.h
src/lengths.h:
src/scenario.h:
src/util.h:
