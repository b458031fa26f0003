build-tsan/ui/style.o: ui/style.c ui/style.h ui/canvas.h src/trace.h \
 src/util.h
ui/style.h:
ui/canvas.h:
src/trace.h:
src/util.h:
