build-tsan/src/plan.o: src/plan.c src/plan.h src/scenario.h src/util.h \
 src/trace.h src/model.h
src/plan.h:
src/scenario.h:
src/util.h:
src/trace.h:
src/model.h:
