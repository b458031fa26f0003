build-tsan/src/report.o: src/report.c src/report.h src/engine.h \
 src/scenario.h src/util.h src/plan.h src/trace.h src/report_fields.h
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/report_fields.h:
