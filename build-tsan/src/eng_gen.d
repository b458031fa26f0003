build-tsan/src/eng_gen.o: src/eng_gen.c src/engine_int.h src/engine.h \
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
