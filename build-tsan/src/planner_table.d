build-tsan/src/planner_table.o: src/planner_table.c src/planner.h \
 src/plan.h src/scenario.h src/util.h src/trace.h src/plugin.h \
 src/engine.h src/report.h src/rtable.h src/dist.h src/fields.h \
 src/model.h src/runner.h
src/planner.h:
src/plan.h:
src/scenario.h:
src/util.h:
src/trace.h:
src/plugin.h:
src/engine.h:
src/report.h:
src/rtable.h:
src/dist.h:
src/fields.h:
src/model.h:
src/runner.h:
