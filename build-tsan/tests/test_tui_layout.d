build-tsan/tests/test_tui_layout.o: tests/test_tui_layout.c \
 tests/testutil.h ui/layout.h ui/canvas.h
tests/testutil.h:
ui/layout.h:
ui/canvas.h:
