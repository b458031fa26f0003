build-tsan/ui/canvas.o: ui/canvas.c ui/canvas.h src/util.h
ui/canvas.h:
src/util.h:
