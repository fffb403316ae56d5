# hlodiff - build, test and install.
#
#   make                 build ./hlodiff                    (objects in build/obj)
#   make tests           build unit tests and tools         (build/tests, build/)
#   make check           what CI runs: plain + sanitized build, prove both
#   make SAN=1 ...       ASan+UBSan build in build-san/ (binary build-san/hlodiff)
#   make WERROR=1 ...    warnings are errors
#   make fuzz            libFuzzer targets (fuzz/), FUZZ_SECONDS each (60)
#   make check-valgrind  memcheck over stat/diff of every test and corpus dump
#
# User knobs: CC, CFLAGS / EXTRA_CFLAGS (appended), CPPFLAGS, LDFLAGS,
# LDLIBS, PREFIX, DESTDIR, BUILD.

CC ?= cc
PREFIX ?= /usr/local
DESTDIR ?=
SAN ?= 0
WERROR ?= 0
PROVE ?= prove
PROVE_FLAGS ?= -j2

BUILD_PLAIN = build
BUILD_SAN = build-san

ifeq ($(SAN),1)
BUILD = $(BUILD_SAN)
BIN = $(BUILD)/hlodiff
OPTFLAGS = -O1 -g
SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
else
BUILD = $(BUILD_PLAIN)
BIN = hlodiff
OPTFLAGS = -O2 -g
SANFLAGS =
endif

WARNFLAGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	    -Wvla -Wformat=2 -fno-common
ifeq ($(WERROR),1)
WARNFLAGS += -Werror
endif

# CFLAGS and EXTRA_CFLAGS come last so a user's -O0 or -fanalyzer wins.
ALL_CFLAGS = -std=c11 $(OPTFLAGS) $(WARNFLAGS) -D_GNU_SOURCE -Iinclude -pthread \
	     $(SANFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LDLIBS ?=
ALL_LDLIBS = $(LDLIBS) -lxxhash -lz -lm -pthread
TEST_CFLAGS = -Itests -Itests/tap

SRCS = $(sort $(wildcard src/*.c))
# gen/default_rules.o is made from rules/default.rules (see its rule).
OBJS = $(SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/gen/default_rules.o
LIB_OBJS = $(filter-out $(BUILD)/obj/main.o,$(OBJS))

UNIT_SRCS = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_OBJS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/obj/tests/%.o)
TAP_OBJ = $(BUILD)/obj/tap/tap.o $(BUILD)/obj/tap/dumps.o
TOOLS = $(BUILD)/gen-dump $(BUILD)/rusage

DEPS = $(OBJS:.o=.d) $(UNIT_OBJS:.o=.d) $(TAP_OBJ:.o=.d) \
       $(TOOLS:%=%.d)

# Rebuild everything when the compiler or flags change (e.g. a plain
# `make` followed by `make WERROR=1`): objects depend on this stamp, which
# is rewritten only when its content differs.
FLAGS_STAMP = $(BUILD)/.flags
FLAGS_TEXT = $(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) | $(ALL_LDFLAGS) | $(ALL_LDLIBS)

RULES_FILES = $(wildcard rules/*.rules)

DEMO_STAT ?= examples/seed-000.txt
DEMO_OLD ?= examples/jit_normal-0021.txt
DEMO_NEW ?= examples/jit_normal-0041.txt

# The corpus beside the repo (CI: shared/ next to the clone).  Empty when
# absent, and then HD_CORPUS is removed from the test environment.
HD_CORPUS ?= $(realpath $(CURDIR)/../shared/corpus)

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SECONDARY: $(UNIT_OBJS) $(TAP_OBJ)
.PHONY: all tests check demo bench install clean help deps FORCE \
	check-plain check-san fuzz fuzz-build fuzz-corpus check-fuzz \
	check-valgrind check-opt-levels

all: $(BIN) ## build ./hlodiff (with SAN=1: build-san/hlodiff)

tests: $(UNIT_BINS) $(TOOLS) ## build unit tests (build/tests/) and tools

$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(FLAGS_TEXT)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BIN): $(OBJS) $(FLAGS_STAMP)
	@if [ -z "$(OBJS)" ]; then echo "make: no src/*.c to build" >&2; exit 1; fi
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(OBJS) $(ALL_LDLIBS)

$(BUILD)/obj/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The built-in rules: rules/default.rules as a C array of its bytes
# (hd_default_rules_text, rules.h), so the two cannot differ.
%/gen/default_rules.c: rules/default.rules
	@mkdir -p $(@D)
	@echo "gen $@"
	@{ printf '/* Made from rules/default.rules by the Makefile. */\n'; \
	  printf '#include "hlodiff/rules.h"\n\nconst char hd_default_rules_text[] = {\n'; \
	  od -An -v -tx1 rules/default.rules | sed -e 's/\([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^ */\t/'; \
	  printf '\t0\n};\n\nconst size_t hd_default_rules_len = sizeof(hd_default_rules_text) - 1;\n'; \
	} > $@.tmp && mv -f $@.tmp $@

$(BUILD)/gen/default_rules.o: $(BUILD)/gen/default_rules.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/tests/%.o: tests/unit/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/tap/%.o: tests/tap/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIB_OBJS) $(TAP_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(ALL_LDLIBS)

$(TOOLS): $(BUILD)/%: tools/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -MMD -MP -MF $@.d -MT $@ -o $@ $< $(ALL_LDLIBS)

-include $(DEPS)

deps: ## install missing build/test dependencies (Debian)
	scripts/install-deps

# prove with the test environment.  $(1) = hlodiff binary, $(2) = build dir,
# $(3) = extra environment assignments.
define run_prove
	@echo "== prove: HLODIFF=$(1)"
	$(if $(HD_CORPUS),HD_CORPUS='$(HD_CORPUS)',env -u HD_CORPUS) \
	HLODIFF='$(1)' HD_BUILD='$(2)' HD_SRCDIR='$(CURDIR)' $(3) \
		$(PROVE) $(PROVE_FLAGS) tests/*.t
endef

check: ## CI: deps, WERROR build + prove, -O levels, fuzz, memcheck, ASan/UBSan
	scripts/install-deps
	$(MAKE) --no-print-directory check-plain
	$(MAKE) --no-print-directory check-opt-levels
	$(MAKE) --no-print-directory check-fuzz
	$(MAKE) --no-print-directory check-valgrind
	$(MAKE) --no-print-directory check-san

check-plain: ## WERROR build + prove (no deps step)
	$(MAKE) --no-print-directory SAN=0 WERROR=1 all tests
	$(call run_prove,$(CURDIR)/hlodiff,$(CURDIR)/$(BUILD_PLAIN))

# The sources compile without a warning at the other optimisation levels
# a user may pick (CFLAGS=-O1 ...): GCC's inliner and flow analysis differ
# from one to the next (an always_inline function called through a
# pointer stopped an -O1 build; -O3 saw variables "maybe uninitialized").
# -U__SSE2__ builds the plain-C paths that a target without SSE2 takes
# (a helper used only by an SSE2 path was "defined but not used" there).
OPT_LEVELS = -O0 -O1 -O3 -Os -U__SSE2__
check-opt-levels: ## -Werror compile (no link) of src/ at each of OPT_LEVELS
	@for o in $(OPT_LEVELS); do for f in $(SRCS); do echo "$$o $$f"; done; done | \
	xargs -n 2 -P "$$(nproc)" sh -c '$(CC) -std=c11 "$$0" $(WARNFLAGS) -Werror \
		-D_GNU_SOURCE -Iinclude -pthread -c "$$1" -o /dev/null || \
		{ echo "check-opt-levels: $$1 does not build at $$0" >&2; exit 255; }'
	@echo "check-opt-levels: src/ builds at $(OPT_LEVELS)"

# LeakSanitizer needs ptrace; where it cannot run, leaks are not checked
# (with a note) instead of failing every test.
LSAN_PROBE = $(BUILD_SAN)/lsan-probe
SAN_ENV = ASAN_OPTIONS=$$(cat $(LSAN_PROBE).result):abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
check-san: ## SAN=1 WERROR build + prove (no deps step)
	$(MAKE) --no-print-directory SAN=1 WERROR=1 all tests
	@mkdir -p $(BUILD_SAN)
	@printf '#include <stdlib.h>\nvoid *volatile p;\nint main(void) { p = malloc(7); p = 0; return 0; }\n' \
		> $(LSAN_PROBE).c
	@$(CC) -fsanitize=address -g -o $(LSAN_PROBE) $(LSAN_PROBE).c
	@if ASAN_OPTIONS=detect_leaks=1 $(LSAN_PROBE) 2>&1 | \
		grep -q 'detected memory leaks'; then \
		echo detect_leaks=1 > $(LSAN_PROBE).result; \
	else \
		echo "note: LeakSanitizer cannot run here (ptrace?); leak checks off"; \
		echo detect_leaks=0 > $(LSAN_PROBE).result; \
	fi
	$(call run_prove,$(CURDIR)/$(BUILD_SAN)/hlodiff,$(CURDIR)/$(BUILD_SAN),$(SAN_ENV))

demo: deps all ## build and run hlodiff on the examples/ dumps
	./$(BIN) stat $(DEMO_STAT)
	./$(BIN) $(DEMO_OLD) $(DEMO_NEW) || test $$? -eq 1

bench: all $(TOOLS) ## time hlodiff on generated 64M/256M dumps (BENCH_SIZES)
	HLODIFF='$(CURDIR)/$(BIN)' HD_BUILD='$(CURDIR)/$(BUILD)' scripts/bench
	HLODIFF='$(CURDIR)/$(BIN)' HD_BUILD='$(CURDIR)/$(BUILD)' scripts/bench-hostile

# ---- fuzzing (fuzz/, docs/robustness.md) ---------------------------
# libFuzzer targets built with clang, ASan and UBSan in build/fuzz/ from
# the library sources (everything but main.c).  `make fuzz` builds the
# seed corpora (build/fuzz-corpus/, never committed), replays
# tests/regress/ and runs each target for FUZZ_SECONDS.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
CHECK_FUZZ_SECONDS ?= 10
FUZZ_TARGETS ?= parse diff rules
FUZZ_DIR = $(BUILD_PLAIN)/fuzz
FUZZ_SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 -O1 -g $(WARNFLAGS) -D_GNU_SOURCE -Iinclude -pthread \
	      $(FUZZ_SANFLAGS) $(CPPFLAGS) $(EXTRA_CFLAGS)
FUZZ_LIB_OBJS = $(filter-out $(FUZZ_DIR)/obj/main.o,$(SRCS:src/%.c=$(FUZZ_DIR)/obj/%.o)) \
		$(FUZZ_DIR)/gen/default_rules.o
FUZZ_BINS = $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_STAMP = $(FUZZ_DIR)/.flags
.SECONDARY: $(FUZZ_LIB_OBJS)

$(FUZZ_STAMP): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(FUZZ_CC) $(FUZZ_CFLAGS) | $(ALL_LDLIBS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(FUZZ_DIR)/obj/%.o: src/%.c $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_KNOWN) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/gen/default_rules.o: $(FUZZ_DIR)/gen/default_rules.c $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

# FUZZ_KNOWN: for an open finding the fuzzer would hit at once, a check
# switched off in one object only until its owner fixes it, e.g.
#   $(FUZZ_DIR)/obj/x.o: FUZZ_KNOWN = -fno-sanitize=pointer-overflow
# with the finding in docs/robustness.md and an input in tests/regress/.
# None is open now.

# The targets themselves are always compiled with -Werror.
$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_LIB_OBJS) $(FUZZ_STAMP)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Werror -DFUZZ_SRCDIR='"$(CURDIR)"' \
		-fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJS) $(ALL_LDLIBS)

-include $(FUZZ_LIB_OBJS:.o=.d)

fuzz-build: ## build the libFuzzer targets (build/fuzz/fuzz_*; needs clang)
	@if ! fuzz/run --probe '$(FUZZ_CC)'; then \
		echo "make: $(FUZZ_CC) cannot link -fsanitize=fuzzer (Debian: apt-get install clang libclang-rt-14-dev)" >&2; \
		exit 1; \
	fi
	$(MAKE) --no-print-directory $(FUZZ_BINS)

fuzz-corpus: ## seed corpora in build/fuzz-corpus/ from the dumps and rules
	fuzz/build-corpus $(BUILD_PLAIN)/fuzz-corpus

fuzz: fuzz-build fuzz-corpus ## run each fuzz target FUZZ_SECONDS (default 60)
	FUZZ_BUILD='$(CURDIR)/$(FUZZ_DIR)' fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Part of `make check`: a short run of each target (fixed seed, so a CI
# failure replays), skipped with a note where clang's fuzzer runtime is
# missing.
check-fuzz: ## CHECK_FUZZ_SECONDS (10) of each fuzz target, if clang can
	@if fuzz/run --probe '$(FUZZ_CC)'; then \
		FUZZ_FLAGS="$${FUZZ_FLAGS:--seed=1}" $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS); \
	else \
		echo "note: $(FUZZ_CC) cannot link -fsanitize=fuzzer here; fuzz step skipped"; \
	fi

# ---- valgrind ---------------------------------------------------------
# memcheck over `hlodiff stat` of every dump in tests/data, examples and
# the corpus, and over a few diffs; any error or definite/indirect leak
# fails.  Uses the plain -O2 -g build.
VALGRIND ?= valgrind
VALGRIND_FLAGS = --quiet --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
VALGRIND_DIFFS = examples/jit_normal-0021.txt:examples/jit_normal-0041.txt \
	tests/data/seed-000.txt:tests/data/seed-001.txt \
	tests/data/seed-002.txt:tests/data/seed-003.txt \
	tests/data/seed-003.txt:tests/data/seed-004.txt \
	tests/data/cpu-truncated_normal-0015.txt:tests/data/seed-001.txt
# Report forms (":" separates arguments): breakdowns, HTML, JSON, rules.
VALGRIND_FORMS = stat:--json:--by:op_name,kind:tests/data/seed-002.txt \
	--by:op_name,memory-space:--html:$(BUILD_PLAIN)/valgrind.html:examples/jit_normal-0021.txt:examples/jit_normal-0041.txt \
	--json:--all:--by:source:--at-peak:tests/data/seed-003.txt:tests/data/seed-004.txt \
	--rules:rules/default.rules:--werror:tests/data/seed-001.txt:tests/data/cpu-truncated_normal-0015.txt
check-valgrind: all ## memcheck: stat of every dump, a few diffs (needs valgrind)
	@command -v $(VALGRIND) >/dev/null || { echo "make: no $(VALGRIND) (apt-get install valgrind)" >&2; exit 1; }
	@n=0; bad=0; \
	for f in tests/data/*.txt examples/*.txt \
		$$(if [ -n '$(HD_CORPUS)' ]; then find '$(HD_CORPUS)' -type f -name '*buffer-assignment*.txt' | LC_ALL=C sort; fi); do \
		n=$$((n + 1)); \
		if ! $(VALGRIND) $(VALGRIND_FLAGS) ./$(BIN) stat "$$f" >/dev/null 2>$(BUILD_PLAIN)/valgrind.err; then \
			echo "valgrind: FAILED: hlodiff stat $$f"; sed 's/^/#   /' $(BUILD_PLAIN)/valgrind.err | head -n 40; bad=$$((bad + 1)); \
		elif grep -q '^==' $(BUILD_PLAIN)/valgrind.err; then \
			echo "valgrind: report on: hlodiff stat $$f"; sed 's/^/#   /' $(BUILD_PLAIN)/valgrind.err | head -n 40; bad=$$((bad + 1)); \
		fi; \
	done; \
	for p in $(VALGRIND_DIFFS) $(VALGRIND_FORMS); do \
		n=$$((n + 1)); args=$$(echo "$$p" | tr ':' ' '); \
		$(VALGRIND) $(VALGRIND_FLAGS) ./$(BIN) $$args >/dev/null 2>$(BUILD_PLAIN)/valgrind.err; st=$$?; \
		if [ $$st -gt 1 ] || grep -q '^==' $(BUILD_PLAIN)/valgrind.err; then \
			echo "valgrind: FAILED (exit $$st): hlodiff $$args"; sed 's/^/#   /' $(BUILD_PLAIN)/valgrind.err | head -n 40; bad=$$((bad + 1)); \
		fi; \
	done; \
	for f in tests/regress/diff-*; do \
		[ -f "$$f" ] || continue; n=$$((n + 1)); \
		fuzz/split-input "$$f" $(BUILD_PLAIN)/valgrind-old.txt $(BUILD_PLAIN)/valgrind-new.txt; \
		$(VALGRIND) $(VALGRIND_FLAGS) ./$(BIN) --all $(BUILD_PLAIN)/valgrind-old.txt $(BUILD_PLAIN)/valgrind-new.txt >/dev/null 2>$(BUILD_PLAIN)/valgrind.err; st=$$?; \
		if [ $$st -gt 2 ] || grep -q '^==' $(BUILD_PLAIN)/valgrind.err; then \
			echo "valgrind: FAILED (exit $$st): $$f"; sed 's/^/#   /' $(BUILD_PLAIN)/valgrind.err | head -n 40; bad=$$((bad + 1)); \
		fi; \
	done; \
	echo "valgrind: $$((n - bad)) passed, $$bad failed"; \
	[ $$bad -eq 0 ]

.PHONY: xla-corpus
xla-corpus: ## regenerate tests/xla/ from JAX programs (venv in build/; needs PyPI)
	scripts/xla-corpus

install: all ## install to $(DESTDIR)$(PREFIX) (bin/, share/hlodiff/rules/, man, completion)
	install -d '$(DESTDIR)$(PREFIX)/bin'
	install -m 755 $(BIN) '$(DESTDIR)$(PREFIX)/bin/hlodiff'
	install -d '$(DESTDIR)$(PREFIX)/share/man/man1'
	install -m 644 docs/hlodiff.1 '$(DESTDIR)$(PREFIX)/share/man/man1/hlodiff.1'
	install -d '$(DESTDIR)$(PREFIX)/share/bash-completion/completions'
	install -m 644 completions/hlodiff.bash '$(DESTDIR)$(PREFIX)/share/bash-completion/completions/hlodiff'
ifneq ($(RULES_FILES),)
	install -d '$(DESTDIR)$(PREFIX)/share/hlodiff/rules'
	install -m 644 $(RULES_FILES) '$(DESTDIR)$(PREFIX)/share/hlodiff/rules/'
endif

clean: ## remove build/, build-san/ and ./hlodiff
	rm -rf $(BUILD_PLAIN) $(BUILD_SAN) hlodiff

help: ## list targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -e 's/^\([a-zA-Z_-]*\):.*## \(.*\)/\1\t\2/' | \
		awk -F '\t' '{ printf "  %-12s %s\n", $$1, $$2 }'

FORCE:
