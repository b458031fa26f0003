build-tsan/src/model.o: src/model.c src/model.h src/scenario.h src/util.h
src/model.h:
src/scenario.h:
src/util.h:
