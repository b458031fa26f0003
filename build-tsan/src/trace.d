build-tsan/src/trace.o: src/trace.c src/trace.h src/util.h
src/trace.h:
src/util.h:
