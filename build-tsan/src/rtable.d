build-tsan/src/rtable.o: src/rtable.c src/rtable.h src/report.h \
 src/engine.h src/scenario.h src/util.h src/plan.h src/trace.h \
 src/report_fields.h src/jsonr.h
src/rtable.h:
src/report.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/report_fields.h:
src/jsonr.h:
