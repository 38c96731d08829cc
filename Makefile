# kso - build, test, sanitizer check, fuzz, bench, install.
#
#   make            ./kso (parallel, one job per core; V=1 prints every command)
#   make test       C unit tests + pytest suite
#   make check      the same suite built with ASan + UBSan
#   make fuzz       every libFuzzer target (clang), FUZZ_SECONDS=600 each
#   make bench      benchmarks (never part of test)
#   make mutate     mutation testing of model/ and oracle/ (never part of test)
#   make coverage   line coverage of the suite per folder (gcov)
#   make spec-coverage  each reference section and seed with the code and
#                   tests that cite it, and what nothing cites
#   make duplicates runs of six or more identical lines of code
#   make install    PREFIX=/usr/local DESTDIR=

CC      ?= cc
PYTHON  ?= /usr/bin/python3
PREFIX  ?= /usr/local
VERSION := 0.1.0

CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter
# OPT is the build's own optimisation / instrumentation (make check sets
# the sanitizers there); CFLAGS from the environment is added after it,
# so it can never drop them.
OPT     ?= -O2 -g
CFLAGS  ?=
ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(CFLAGS) -DKSO_VERSION='"$(VERSION)"' \
	-DKSO_DATADIR='"$(PREFIX)/share/kso"' -MMD -MP
LDLIBS  := -lyaml -lsqlite3 -lm -lpthread

BUILD   ?= build

# Parallel by default, one job per core (a -jN on the command line wins).
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
# Quiet by default ("  CC      core/arena.c"); V=1 prints every command.
V ?= 0
ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-7s %s\n'
endif
LIB_SRC := $(sort $(wildcard core/*.c model/*.c yaml/*.c oracle/*.c enum/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all test unit pytest check fuzz bench mutate coverage spec-coverage \
	duplicates install clean

all: kso

kso: $(BUILD)/kso
	$(Q)cp $< $@

$(BUILD)/kso: $(LIB_OBJ) $(CLI_OBJ)
	$(say) LINK $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libkso.a: $(LIB_OBJ)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libkso.a
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libkso.a $(LDLIBS)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $$t; done

pytest: kso
	KSO=$(CURDIR)/kso $(PYTHON) -m pytest -q tests

test: unit pytest

# ASan + UBSan build in its own directory; the same suite runs against it.
check:
	$(MAKE) BUILD=build-san OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		build-san/kso $(UNIT_SRC:tests/unit/%.c=build-san/tests/%)
	@set -e; for t in $(UNIT_SRC:tests/unit/%.c=build-san/tests/%); do \
		ASAN_OPTIONS=detect_leaks=1 $$t; done
	KSO=$(CURDIR)/build-san/kso KSO_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 $(PYTHON) -m pytest -q tests
	@# every fuzz target a few seconds on its seeds (make fuzz: the long run)
	$(MAKE) fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS)

FUZZ_SECONDS ?= 600
CHECK_FUZZ_SECONDS ?= 5
# Every tests/fuzz/fuzz_*.c is a libFuzzer target, linked with all of kso
# but cli/main.c and the file it includes itself to reach static readers;
# each runs FUZZ_SECONDS on its own corpus, seeded from fixtures/fuzz/NAME
# (the loader's seeds: fixtures/fuzz and the volume fixtures).
FUZZ_TARGETS := $(sort $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c))))
FUZZ_ALL_SRC := $(LIB_SRC) $(filter-out cli/main.c,$(CLI_SRC))
FUZZ_SKIP_fuzz_watch := cli/cmd_check.c
FUZZ_SKIP_fuzz_reply := cli/impl.c
FUZZ_SKIP_fuzz_corpus_case := cli/cmd_corpus.c
FUZZ_SKIP_fuzz_check_events := cli/cmd_check.c
FUZZ_SEEDS_fuzz_loader := fixtures/fuzz fixtures/volumes
# seeds kept where they are (libFuzzer reads every file of each directory)
FUZZ_SEEDS_fuzz_config := fixtures/fuzz/config fixtures/scoring fixtures/impl \
	fixtures/fidelity fixtures/universes
FUZZ_SEEDS_fuzz_universe := fixtures/universes
FUZZ_SEEDS_fuzz_json := fixtures/fuzz/json fixtures/fuzz/watch fixtures/fuzz/reply
FUZZ_SEEDS_fuzz_emit := fixtures/load fixtures/fuzz fixtures/quirks
FUZZ_SEEDS_fuzz_block := fixtures/load fixtures/quirks fixtures/fidelity fixtures/scoring \
	fixtures/fuzz fixtures/volumes
# kso check prints a line per decision and per error: closed for speed
# (libFuzzer keeps its own report on the real stderr)
FUZZ_OPTS_fuzz_watch := -close_fd_mask=3
FUZZ_OPTS_fuzz_check_events := -close_fd_mask=3
FUZZ_OPTS_fuzz_corpus_case := -close_fd_mask=3
FUZZ_OPTS_fuzz_replay := -close_fd_mask=3

FUZZ_CFLAGS := $(CSTD) -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	-DKSO_VERSION='"$(VERSION)"' -MMD -MP
FUZZ_OBJ := $(FUZZ_ALL_SRC:%.c=build-fuzz/obj/%.o)
.SECONDARY: $(FUZZ_OBJ)

build-fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -c -o $@ $<

build-fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(filter-out $(FUZZ_SKIP_$*:%.c=build-fuzz/obj/%.o),$(FUZZ_OBJ)) $(LDLIBS)

# One target's run: its corpus under build-fuzz/, its seeds (FUZZ_SEEDS_t,
# else fixtures/fuzz/NAME), executions and any finding reported.
fuzz_seeds = $(or $(FUZZ_SEEDS_$(1)),fixtures/fuzz/$(1:fuzz_%=%))
define fuzz_run
mkdir -p build-fuzz/corpus-$(1); \
echo "== $(1) ($(FUZZ_SECONDS) s, seeds $(call fuzz_seeds,$(1)))"; \
build-fuzz/$(1) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	-rss_limit_mb=2048 -timeout=10 -artifact_prefix=build-fuzz/$(1)- \
	-print_final_stats=1 $(FUZZ_OPTS_$(1)) build-fuzz/corpus-$(1) \
	$(call fuzz_seeds,$(1)) 2>&1 | \
	grep -E "^(stat::number_of_executed_units|stat::new_units_added|==[0-9]+==ERROR|SUMMARY)" || true; \
for f in build-fuzz/$(1)-crash-* build-fuzz/$(1)-leak-* \
	build-fuzz/$(1)-timeout-* build-fuzz/$(1)-oom-*; do \
	if [ -e "$$f" ]; then echo "$(1): FINDING $$f (remove it once fixed)"; \
	exit 1; fi; done;
endef

fuzz: $(FUZZ_TARGETS:%=build-fuzz/%)
	@set -e; $(foreach t,$(FUZZ_TARGETS),$(call fuzz_run,$(t)))

bench: kso
	$(PYTHON) scripts/bench.py

spec-coverage:
	$(PYTHON) scripts/spec_coverage.py

# Runs of six or more identical lines of code across the sources (a
# stand-in for the tool library's duplicates tool).
duplicates:
	$(PYTHON) scripts/duplicates.py

# Mutation testing: a fixed list of single-line bugs in model/ and oracle/,
# each of which the suite must catch (scripts/mutate.py).
mutate:
	$(PYTHON) scripts/mutate.py

# Line coverage of the suite per folder (gcov; scripts/coverage.py).
coverage:
	$(PYTHON) scripts/coverage.py

# The binary, the bundled universes and examples (share/kso), the man
# page, bash and zsh completion, README, doc/*.md and LICENSE.  The binary finds
# its default universe beside its own PREFIX, so a DESTDIR copy works too.
install: kso
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/kso/universes \
		$(DESTDIR)$(PREFIX)/share/kso/examples $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/doc/kso/doc
	install -m 0755 kso $(DESTDIR)$(PREFIX)/bin/kso
	install -m 0644 fixtures/universes/*.yaml $(DESTDIR)$(PREFIX)/share/kso/universes/
	install -m 0644 fixtures/impl/cluster.yaml $(DESTDIR)$(PREFIX)/share/kso/examples/cluster.yaml
	install -m 0644 fixtures/preemption/reprieve.yaml $(DESTDIR)$(PREFIX)/share/kso/examples/preemption.yaml
	install -m 0644 fixtures/scoring/most.config.yaml $(DESTDIR)$(PREFIX)/share/kso/examples/most-allocated.config.yaml
	install -m 0644 doc/kso.1 $(DESTDIR)$(PREFIX)/share/man/man1/kso.1
	install -m 0644 doc/completion/kso.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kso
	install -m 0644 doc/completion/_kso $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kso
	install -m 0644 README.md LICENSE $(DESTDIR)$(PREFIX)/share/doc/kso/
	install -m 0644 doc/*.md $(DESTDIR)$(PREFIX)/share/doc/kso/doc/

clean:
	rm -rf build build-san build-fuzz build-cov kso

# header dependencies of the objects and of the unit-test binaries
-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d) $(wildcard build-fuzz/obj/*/*.d)
