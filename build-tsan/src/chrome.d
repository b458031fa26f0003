build-tsan/src/chrome.o: src/chrome.c src/chrome.h src/engine.h \
 src/scenario.h src/util.h src/plan.h src/trace.h
src/chrome.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
