build-tsan/tests/test_model.o: tests/test_model.c tests/testutil.h \
 src/dist.h src/scenario.h src/util.h src/model.h src/plan.h src/trace.h \
 src/presets.h src/scenario.h
tests/testutil.h:
src/dist.h:
src/scenario.h:
src/util.h:
src/model.h:
src/plan.h:
src/trace.h:
src/presets.h:
src/scenario.h:
