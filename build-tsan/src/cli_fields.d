build-tsan/src/cli_fields.o: src/cli_fields.c src/cli.h src/scenario.h \
 src/util.h src/fields.h src/report_fields.h src/report.h src/engine.h \
 src/plan.h src/trace.h
src/cli.h:
src/scenario.h:
src/util.h:
src/fields.h:
src/report_fields.h:
src/report.h:
src/engine.h:
src/plan.h:
src/trace.h:
