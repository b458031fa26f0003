build-tsan/src/svg.o: src/svg.c src/svg.h src/engine.h src/scenario.h \
 src/util.h src/plan.h src/trace.h
src/svg.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
