build-tsan/src/cli_sweep.o: src/cli_sweep.c src/cli.h src/scenario.h \
 src/util.h src/engine.h src/plan.h src/trace.h src/planner.h \
 src/plugin.h src/report.h src/rtable.h src/runner.h src/shard.h \
 src/workers.h
src/cli.h:
src/scenario.h:
src/util.h:
src/engine.h:
src/plan.h:
src/trace.h:
src/planner.h:
src/plugin.h:
src/report.h:
src/rtable.h:
src/runner.h:
src/shard.h:
src/workers.h:
