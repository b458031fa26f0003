build-tsan/src/hfconfig.o: src/hfconfig.c src/hfconfig.h src/scenario.h \
 src/util.h src/jsonr.h
src/hfconfig.h:
src/scenario.h:
src/util.h:
src/jsonr.h:
