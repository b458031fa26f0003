build-tsan/tests/test_chrome.o: tests/test_chrome.c tests/testutil.h \
 src/chrome.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h src/engine.h
tests/testutil.h:
src/chrome.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/engine.h:
