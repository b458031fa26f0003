# fusync — plain Makefile.  `make`, `make run`, `make test`, `make bench`.
# V=1 shows full commands.  SAN=1 builds with AddressSanitizer+UBSan into build-san/.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKGS    := ncursesw lua5.4 check

ifeq ($(SAN),1)
BUILD   := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT     ?= -O1 -g
else
BUILD   := build
SANFLAGS :=
OPT     ?= -O2 -g
endif

# Feature macros live here and only here.
FEATURES := -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE_EXTENDED -D_DEFAULT_SOURCE
WARN     := -std=c11 -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wno-format-truncation
PKG_CFLAGS = $(shell pkg-config --cflags ncursesw lua5.4 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs ncursesw lua5.4 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

CFLAGS_ALL = $(WARN) $(OPT) $(SANFLAGS) $(FEATURES) -Isrc -Iui $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL = $(SANFLAGS) $(PKG_LIBS) -lm $(LDFLAGS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

SRC_LIB  := $(filter-out src/main.c,$(wildcard src/*.c))
UI_SRC   := $(wildcard ui/*.c)
TEST_SRC := $(wildcard tests/*.c)

LIB_OBJ  := $(SRC_LIB:%.c=$(BUILD)/%.o)
UI_OBJ   := $(UI_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

BIN      := $(BUILD)/fusync
TESTBIN  := $(BUILD)/fusync-tests

.PHONY: all deps run test test-unit test-cli test-san validate bench docs install uninstall clean

all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BIN): $(MAIN_OBJ) $(LIB_OBJ) $(UI_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ $(LDLIBS_ALL)
	$(Q)[ "$(BUILD)" = build ] && ln -sf $(BUILD)/fusync fusync || true

$(TESTBIN): $(TEST_OBJ) $(LIB_OBJ) $(UI_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ $(LDLIBS_ALL) $(CHECK_LIBS)

$(TEST_OBJ): CFLAGS_ALL += $(CHECK_CFLAGS)

deps:
	$(Q)sh scripts/deps.sh

# The main job: the TUI on the default example when there is a terminal,
# the headless report otherwise.
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)if [ -t 0 ] && [ -t 1 ]; then ./$(BIN) tui examples/pangu718b_cm384.lua; \
	else ./$(BIN) run examples/pangu718b_cm384.lua; fi

test: deps
	$(Q)$(MAKE) --no-print-directory test-unit test-cli validate
	$(Q)$(MAKE) --no-print-directory SAN=1 test-san

test-unit: $(TESTBIN) $(BIN)
	$(Q)FUSYNC=$(abspath $(BIN)) ./$(TESTBIN)

# Shell tests: tests/*.sh, each prints its own summary and fails with status != 0.
test-cli: $(BIN)
	$(Q)for t in tests/*.sh; do FUSYNC=$(abspath $(BIN)) sh $$t || exit 1; done

test-san: $(TESTBIN) $(BIN)
	$(Q)ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 FUSYNC=$(abspath $(BIN)) ./$(TESTBIN)
	$(Q)ASAN_OPTIONS=detect_leaks=1 FUSYNC=$(abspath $(BIN)) FUSYNC_SAN=1 sh tests/cli.sh

# Published RL systems against the model (docs/validation.md): fails when a
# row leaves the tolerance examples/validation/rows.txt states for it.
validate: $(BIN)
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/validate.sh

# The field tables of docs/scenarios.md, from src/fields.c (make test checks
# they are current).
docs: $(BIN)
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/gen-docs.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/bench.sh
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/bench_plugins.sh

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/fusync/plugins $(DESTDIR)$(PREFIX)/share/fusync/examples
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/fusync
	install -m 644 plugins/*.lua $(DESTDIR)$(PREFIX)/share/fusync/plugins/ 2>/dev/null || true
	install -m 644 examples/*.lua $(DESTDIR)$(PREFIX)/share/fusync/examples/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/fusync
	rm -rf $(DESTDIR)$(PREFIX)/share/fusync

clean:
	rm -rf build build-san fusync

-include $(LIB_OBJ:.o=.d) $(UI_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
