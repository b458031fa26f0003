build-tsan/src/cli_model.o: src/cli_model.c src/cli.h src/scenario.h \
 src/util.h src/hfconfig.h src/model.h
src/cli.h:
src/scenario.h:
src/util.h:
src/hfconfig.h:
src/model.h:
