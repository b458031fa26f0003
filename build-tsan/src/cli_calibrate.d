build-tsan/src/cli_calibrate.o: src/cli_calibrate.c src/calibrate.h \
 src/scenario.h src/util.h src/cli.h src/runner.h src/engine.h src/plan.h \
 src/trace.h src/plugin.h src/report.h
src/calibrate.h:
src/scenario.h:
src/util.h:
src/cli.h:
src/runner.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/plugin.h:
src/report.h:
