build-tsan/src/eng_draw.o: src/eng_draw.c src/engine_int.h src/engine.h \
 src/scenario.h src/util.h src/plan.h src/trace.h src/dist.h src/fields.h \
 src/model.h
src/engine_int.h:
src/engine.h:
src/scenario.h:
src/util.h:
src/plan.h:
src/trace.h:
src/dist.h:
src/fields.h:
src/model.h:
