build-tsan/src/cli_help.o: src/cli_help.c src/cli.h src/scenario.h \
 src/util.h
src/cli.h:
src/scenario.h:
src/util.h:
