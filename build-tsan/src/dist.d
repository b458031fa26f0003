build-tsan/src/dist.o: src/dist.c src/dist.h src/scenario.h src/util.h
src/dist.h:
src/scenario.h:
src/util.h:
