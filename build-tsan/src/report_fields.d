build-tsan/src/report_fields.o: src/report_fields.c src/report_fields.h \
 src/report.h src/engine.h src/scenario.h src/util.h src/plan.h \
 src/trace.h
src/report_fields.h:
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
