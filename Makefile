# hlodiff - build, test and install.
#
#   make                 build ./hlodiff                    (objects in build/obj)
#   make tests           build unit tests and tools         (build/tests, build/)
#   make check           what CI runs: plain + sanitized build, prove both
#   make SAN=1 ...       ASan+UBSan build in build-san/ (binary build-san/hlodiff)
#   make WERROR=1 ...    warnings are errors
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
ALL_CFLAGS = -std=c11 $(OPTFLAGS) $(WARNFLAGS) -D_GNU_SOURCE -Iinclude \
	     $(SANFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LDLIBS ?=
ALL_LDLIBS = $(LDLIBS) -lxxhash -lz -lm
TEST_CFLAGS = -Itests -Itests/tap

SRCS = $(sort $(wildcard src/*.c))
OBJS = $(SRCS:src/%.c=$(BUILD)/obj/%.o)
LIB_OBJS = $(filter-out $(BUILD)/obj/main.o,$(OBJS))

UNIT_SRCS = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_OBJS = $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/obj/tests/%.o)
TAP_OBJ = $(BUILD)/obj/tap/tap.o
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
	check-plain check-san

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

$(BUILD)/obj/tests/%.o: tests/unit/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(TAP_OBJ): tests/tap/tap.c $(FLAGS_STAMP)
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

check: ## CI: deps, WERROR build + prove, then the same under ASan/UBSan
	scripts/install-deps
	$(MAKE) --no-print-directory check-plain
	$(MAKE) --no-print-directory check-san

check-plain: ## WERROR build + prove (no deps step)
	$(MAKE) --no-print-directory SAN=0 WERROR=1 all tests
	$(call run_prove,$(CURDIR)/hlodiff,$(CURDIR)/$(BUILD_PLAIN))

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

install: all ## install to $(DESTDIR)$(PREFIX) (bin/, share/hlodiff/rules/)
	install -d '$(DESTDIR)$(PREFIX)/bin'
	install -m 755 $(BIN) '$(DESTDIR)$(PREFIX)/bin/hlodiff'
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
