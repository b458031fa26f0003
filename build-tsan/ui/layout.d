build-tsan/ui/layout.o: ui/layout.c ui/layout.h ui/canvas.h
ui/layout.h:
ui/canvas.h:
