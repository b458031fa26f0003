build-tsan/tests/test_engsort.o: tests/test_engsort.c tests/testutil.h \
 src/engine_int.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/dist.h src/fields.h src/model.h
tests/testutil.h:
src/engine_int.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/dist.h:
src/fields.h:
src/model.h:
