build-tsan/tests/test_jsonr.o: tests/test_jsonr.c tests/testutil.h \
 src/jsonr.h src/shard.h src/rtable.h src/report.h src/engine.h \
 src/scenario.h src/util.h src/plan.h src/trace.h
tests/testutil.h:
src/jsonr.h:
src/shard.h:
src/rtable.h:
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
