build-tsan/src/presets.o: src/presets.c src/presets.h src/scenario.h \
 src/util.h
src/presets.h:
src/scenario.h:
src/util.h:
