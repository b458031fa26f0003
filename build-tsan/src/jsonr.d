build-tsan/src/jsonr.o: src/jsonr.c src/jsonr.h src/util.h
src/jsonr.h:
src/util.h:
