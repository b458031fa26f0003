# fusync — plain Makefile.  `make`, `make run`, `make test`, `make bench`.
# V=1 shows full commands.  SAN=1 builds with AddressSanitizer+UBSan into build-san/.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
PKGS    := ncursesw lua5.4 yaml-0.1 check

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
WARN     := -std=c11 -Wall -Wextra -Werror -Wshadow -Wno-format-truncation
PKG_CFLAGS = $(shell pkg-config --cflags ncursesw lua5.4 yaml-0.1 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs ncursesw lua5.4 yaml-0.1 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)
# The Chrome trace is formatted and written on a second thread (src/chrome.c).
THREADS  := -pthread

# Where `make install` puts lessons and examples: the TUI's lesson menu looks there too.
DATADIR  := $(PREFIX)/share/fusync
MANDIR   ?= $(PREFIX)/share/man
# The bash completion script, written by `fusync completion bash` from its tables.
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DEFS     := -DFUSYNC_DATADIR='"$(DATADIR)"'
# The version `fusync --version` prints: the checkout's tag as `git describe
# --tags --dirty` gives it (v0.2.0 -> 0.2.0; 0.2.0-3-gabc1234 three commits
# past it; -dirty with uncommitted changes), else, with no git or no tag,
# this fallback (the CHANGELOG's latest release).  `make VERSION=x.y.z`
# overrides both.  A stamp file holding it rebuilds the objects that print
# it when it changes.
FUSYNC_VERSION_FALLBACK := 0.2.0
VERSION ?= $(or $(patsubst v%,%,$(shell git describe --tags --dirty 2>/dev/null)),$(FUSYNC_VERSION_FALLBACK))
VERSION_STAMP := $(BUILD)/version.stamp
VERSION_USERS := $(shell grep -l FUSYNC_VERSION_STR src/*.c ui/*.c 2>/dev/null)
CFLAGS_ALL = $(WARN) $(OPT) $(SANFLAGS) $(THREADS) $(FEATURES) $(DEFS) -Isrc -Iui $(PKG_CFLAGS) $(CFLAGS)
# libcsv (Debian's libcsv-dev) ships no pkg-config file: linked by name
CSV_LIBS   = -lcsv
LDLIBS_ALL = $(SANFLAGS) $(THREADS) $(PKG_LIBS) $(CSV_LIBS) -lm $(LDFLAGS)

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

.PHONY: all deps deps-run deps-test deps-bench run test test-unit test-cli test-san test-fuzz fuzz validate bench docs install uninstall clean layer-check

all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# Rewritten only when the version changes, so a new tag or commit rebuilds
# just the objects that print it.
$(VERSION_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
$(VERSION_USERS:%.c=$(BUILD)/%.o): $(VERSION_STAMP)
$(VERSION_USERS:%.c=$(BUILD)/%.o): DEFS += -DFUSYNC_VERSION=$(VERSION)
.PHONY: FORCE
FORCE:

$(BIN): $(MAIN_OBJ) $(LIB_OBJ) $(UI_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ $(LDLIBS_ALL)
	$(Q)[ "$(BUILD)" = build ] && ln -sf $(BUILD)/fusync fusync || true

$(TESTBIN): $(TEST_OBJ) $(LIB_OBJ) $(UI_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -o $@ $^ $(LDLIBS_ALL) $(CHECK_LIBS)

$(TEST_OBJ): CFLAGS_ALL += $(CHECK_CFLAGS)

# What each job needs from Debian's packages (scripts/deps.sh): `make run`
# only what building and running need; `make test` adds libcheck, tmux and the
# cluster packages (Slurm, munge, GNU parallel) for the real Slurm test.
deps:
	$(Q)sh scripts/deps.sh
deps-run:
	$(Q)sh scripts/deps.sh run
deps-test:
	$(Q)sh scripts/deps.sh test
deps-bench:
	$(Q)sh scripts/deps.sh bench

# The main job: the TUI on the default example when there is a terminal,
# the headless report otherwise.
run: deps-run
	$(Q)$(MAKE) --no-print-directory all
	$(Q)if [ -t 0 ] && [ -t 1 ]; then ./$(BIN) tui examples/pangu718b_cm384.lua; \
	else ./$(BIN) run examples/pangu718b_cm384.lua; fi

# The last line says whether the real Slurm test ran (tests/slurm.sh).
SLURM_STATUS := $(abspath build)/slurm-status
test: deps-test
	$(Q)mkdir -p build && rm -f $(SLURM_STATUS)
	$(Q)FUSYNC_SLURM_STATUS=$(SLURM_STATUS) $(MAKE) --no-print-directory test-unit test-cli validate
	$(Q)$(MAKE) --no-print-directory SAN=1 test-san
	$(Q)$(MAKE) --no-print-directory test-fuzz
	$(Q)echo "make test: every suite passed; the real Slurm test: $$(cat $(SLURM_STATUS) 2>/dev/null || echo 'did not report')"

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
# The intervals of uncalibrated runs come from its errors (src/uncert_table.h):
# fails too when that table is stale.
validate: $(BIN)
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/validate.sh >$(BUILD)/validate.out; rc=$$?; cat $(BUILD)/validate.out; \
	    [ $$rc -eq 0 ] && sh scripts/gen-uncertainty.sh --check $(BUILD)/validate.out
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/validate-feasibility.sh

# The field tables of docs/scenarios.md, from src/fields.c (make test checks
# they are current).
docs: $(BIN)
	$(Q)FUSYNC=$(abspath $(BIN)) sh scripts/gen-docs.sh

# Fuzzing (docs/security.md): every tests/fuzz/fuzz_*.c defines
# LLVMFuzzerTestOneInput and links with the library objects (not src/main.c),
# built by clang with libFuzzer, ASan and UBSan into build-fuzz/.  Seeds live
# in tests/fuzz/corpus/NAME/; what a run finds goes to build-fuzz/corpus/NAME/
# and crashes to build-fuzz/artifacts/.  `make fuzz` runs each target for
# FUZZ_SECONDS; `make test-fuzz` (part of `make test`) runs each briefly.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 300
# `make fuzz` goes on past a finding (each is saved); FUZZ_STRICT=1 fails on one
FUZZ_MODE    ?= -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1
FUZZ_BUILD   := build-fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS   = -std=c11 -Wall -Wextra -Wno-unused-parameter -O1 -g $(FUZZ_SAN) $(THREADS) -fsanitize=fuzzer-no-link \
                $(FEATURES) -Isrc -Iui -Itests/fuzz $(PKG_CFLAGS)
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES   := $(FUZZ_SRC:tests/fuzz/%.c=%)
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/%)
FUZZ_LIB_OBJ := $(SRC_LIB:%.c=$(FUZZ_BUILD)/%.o) $(UI_SRC:%.c=$(FUZZ_BUILD)/%.o)
HAVE_FUZZ_CC := $(shell command -v $(FUZZ_CC) >/dev/null 2>&1 && echo yes)
FUZZ_ENV      = FUSYNC_ROOT=$(CURDIR) ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ) $(wildcard tests/fuzz/*.h)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB_OBJ) -o $@ $(THREADS) $(PKG_LIBS) $(CSV_LIBS) -lm

# Seeds of each target, only read: the shipped scenarios and plugins
# themselves where a target takes them as they are, tests/fuzz/corpus/ for
# inputs of the targets' own shapes.
FUZZ_SEEDS_fuzz_scenario := examples
FUZZ_SEEDS_fuzz_whatif   := examples plugins
FUZZ_SEEDS_fuzz_set      := tests/fuzz/corpus/fuzz_set
FUZZ_SEEDS_fuzz_shard    := tests/fuzz/corpus/shard
FUZZ_SEEDS_fuzz_measured := tests/fuzz/corpus/measured tests/fuzz/corpus/hfconfig
FUZZ_SEEDS_fuzz_json     := tests/fuzz/corpus/shard tests/fuzz/corpus/hfconfig
FUZZ_SEEDS_fuzz_lesson   := lessons tests/fuzz/corpus/lesson

# one target's run: NAME, libFuzzer's limit (-max_total_time=S or -runs=N),
# the folder for what it finds (the seeds are only read)
define fuzz_one
	@mkdir -p $(3) $(FUZZ_BUILD)/artifacts
	$(Q)$(FUZZ_ENV) ./$(FUZZ_BUILD)/$(1) $(2) -timeout=0 -rss_limit_mb=4096 -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$(1)- $(3) \
	    $(wildcard $(FUZZ_SEEDS_$(1))) 2>$(FUZZ_BUILD)/$(1).log \
	    || { tail -40 $(FUZZ_BUILD)/$(1).log; exit 1; }
	@grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+.*DONE)" $(FUZZ_BUILD)/$(1).log \
	    | sed "s/^/  $(1): /" || true
	@grep -E "^#[0-9]+: cov:" $(FUZZ_BUILD)/$(1).log | tail -1 | sed "s/^/  $(1): /" || true

endef

fuzz:
ifeq ($(HAVE_FUZZ_CC),yes)
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BINS)
	$(foreach f,$(FUZZ_NAMES),$(call fuzz_one,$(f),-max_total_time=$(FUZZ_SECONDS) $(FUZZ_MODE),$(FUZZ_BUILD)/corpus/$(f)))
	@n=$$(ls $(FUZZ_BUILD)/artifacts 2>/dev/null | wc -l); \
	if [ "$$n" -gt 0 ]; then echo "fuzz: $$n finding(s) in $(FUZZ_BUILD)/artifacts/ (reproduce: ./$(FUZZ_BUILD)/NAME FILE)"; \
	    ls $(FUZZ_BUILD)/artifacts | sed 's/^/  /'; [ "$(FUZZ_STRICT)" != 1 ]; \
	else echo "fuzz: no findings"; fi
else
	@echo "fuzz: $(FUZZ_CC) not found; install clang to build the fuzzers (tests/fuzz/)"; exit 1
endif

test-fuzz:
ifeq ($(HAVE_FUZZ_CC),yes)
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BINS)
	$(Q)rm -rf $(FUZZ_BUILD)/smoke
	$(foreach f,$(FUZZ_NAMES),$(call fuzz_one,$(f),-runs=$(FUZZ_RUNS) -seed=1,$(FUZZ_BUILD)/smoke/$(f)))
else
	@echo "test-fuzz: SKIP: $(FUZZ_CC) not found; the fuzzers (tests/fuzz/) need clang"
endif

# The bare event queue beside the engine (scripts/heap_hold.c), linked from
# the library's own object list: a stale object left in $(BUILD)/src by an
# older tree is never picked up.  bench.sh runs scripts/bench_*.sh itself.
HEAP_HOLD := $(BUILD)/heap_hold

# (the command line's objects left out: its command table names the TUI's)
$(HEAP_HOLD): $(BUILD)/scripts/heap_hold.o $(filter-out $(BUILD)/src/cli%.o,$(LIB_OBJ))
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $^ $(LDLIBS_ALL) -o $@

bench: deps-bench
	$(Q)$(MAKE) --no-print-directory all $(HEAP_HOLD)
	$(Q)FUSYNC=$(abspath $(BIN)) HEAP_HOLD=$(abspath $(HEAP_HOLD)) sh scripts/bench.sh

# The layers (scripts/layers.sh): every module group's includes against the
# groups it may include, then the engine core's objects linked with a tiny
# main (scripts/engine_alone.c) and no Lua or curses library: a call from the
# core into either fails the link.  tests/layers.sh runs it under test-cli.
ENGINE_ALONE_OBJ = $(patsubst %.c,$(BUILD)/%.o,$(shell sh scripts/layers.sh --engine-sources))
ENGINE_ALONE     := $(BUILD)/engine_alone

$(ENGINE_ALONE): $(BUILD)/scripts/engine_alone.o $(ENGINE_ALONE_OBJ)
	@$(if $(Q),echo "  LD      $@ (no Lua, no curses)")
	$(Q)$(CC) -o $@ $^ $(SANFLAGS) $(THREADS) -lm $(LDFLAGS)

layer-check:
	$(Q)sh scripts/layers.sh
	$(Q)$(MAKE) --no-print-directory $(ENGINE_ALONE)
	$(Q)./$(ENGINE_ALONE)

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/plugins $(DESTDIR)$(DATADIR)/examples \
		$(DESTDIR)$(DATADIR)/lessons $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/fusync
	install -m 644 plugins/*.lua $(DESTDIR)$(DATADIR)/plugins/ 2>/dev/null || true
	install -m 644 examples/*.lua $(DESTDIR)$(DATADIR)/examples/
	install -m 644 lessons/*.lua $(DESTDIR)$(DATADIR)/lessons/
	install -m 644 docs/fusync.1 $(DESTDIR)$(MANDIR)/man1/fusync.1
	install -d $(DESTDIR)$(COMPLETIONDIR)
	$(BIN) completion bash > $(DESTDIR)$(COMPLETIONDIR)/fusync

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/fusync $(DESTDIR)$(MANDIR)/man1/fusync.1 $(DESTDIR)$(COMPLETIONDIR)/fusync
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-san build-fuzz fusync

-include $(LIB_OBJ:.o=.d) $(BUILD)/scripts/heap_hold.d $(BUILD)/scripts/engine_alone.d $(UI_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d)
