build-tsan/src/shard.o: src/shard.c src/shard.h src/rtable.h src/report.h \
 src/engine.h src/scenario.h src/util.h src/plan.h src/trace.h
src/shard.h:
src/rtable.h:
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
