build-tsan/src/workers.o: src/workers.c src/workers.h src/rtable.h \
 src/report.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h
src/workers.h:
src/rtable.h:
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
