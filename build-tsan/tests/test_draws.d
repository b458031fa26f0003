build-tsan/tests/test_draws.o: tests/test_draws.c tests/testutil.h \
 src/engine.h src/scenario.h src/util.h src/plan.h src/trace.h
tests/testutil.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
