# cudalings — one non-recursive Makefile. Build output goes to build/.
# Parts add their own rules through the fragments included below (sim/, tui/, tools/,
# tests/); every fragment uses the variables and helpers defined here.
#
# `make help` lists the targets; V=1 shows full commands.

# how a runner is built (compilers, flags) and where builds go: read by the rules below and, through
# build/grader/runner_mk.h, by the grader
include harness/runner.mk

B        := $(BUILD_DIR)
CC       ?= cc
CXX      ?= c++
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
WARN     := -Wall -Wextra -Wno-unused-parameter
DEPFLAGS  = -MMD -MP
# The project's own preprocessor flags; CPPFLAGS stays the user's (make CPPFLAGS=-I/opt/x adds to
# these, never replaces them). Fragments add per-target flags to PROJECT_CPPFLAGS. Only the root is on
# the path: every include names its folder ("harness/protocol.h", "grader/engine/grade.h").
PROJECT_CPPFLAGS := -D_GNU_SOURCE -I.
ALL_CPPFLAGS = $(PROJECT_CPPFLAGS) $(CPPFLAGS)

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-8s %s\n' '$(1)' '$(2)'
endif

# ---------------------------------------------------------------- the utility layer
# lib/: buffers, errors, files, the process spawner; linked by the grader, the
# workbook and the simulator's rewriter alike.
LIB_SRCS := $(wildcard lib/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)

# ---------------------------------------------------------------- the grader
# One folder per subsystem (README's design section): cmd/ the commands, engine/ a grading, compile/ its
# builds, batch/ a class's, mutants/, sass/ the machine code and the heat map, exercise/ the workbook's
# exercises.
GRADER_SRCS := $(wildcard grader/*/*.c)
GRADER_OBJS := $(GRADER_SRCS:%.c=$(B)/%.o)
# common/: what the grader and the workbook both use (the progress state, the solution markers)
COMMON_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard common/*.c))
# Fragments append objects and libraries that link into build/cudalings.
# harness/plan.c: the grader checks the capture process's plans with the measuring runner's own check
CUDALINGS_OBJS := $(filter-out $(B)/grader/cmd/main.o,$(GRADER_OBJS)) $(COMMON_OBJS) $(LIB_OBJS) $(B)/harness/plan.o
CUDALINGS_LIBS := -lcjson -lm
# Criterion test programs appended by fragments; `make test` runs each.
TEST_PROGRAMS :=
# Scripts `make test` runs, beside the programs.
TEST_SCRIPTS :=
# The long tier, `make test-long` (CI runs it after make test): suites that grade whole corpora or build
# whole copies, run side by side as make test's are, then the ones that must run alone, one by one.
LONG_TEST_SCRIPTS :=
LONE_TEST_SCRIPTS :=
# What those scripts need built first.
TEST_PREREQS :=
# The suites that take longest, started first so that the last to end is a short one.
TEST_FIRST :=

.PHONY: all
## all: build the grader (build/cudalings) and its tools
all: $(B)/cudalings

# harness/runner.mk as a C header: the grader's compilers, flags and paths
$(B)/grader/runner_mk.h: harness/runner.mk tools/runner-flags.awk
	$(call msg,GEN,$@)
	@mkdir -p $(@D)
	$(Q)awk -f tools/runner-flags.awk harness/runner.mk >$@.tmp && mv $@.tmp $@
# generated headers are found under build/, by their folder there ("grader/runner_mk.h"); made before
# the grader's first compile (after it, each object's .d names the header where it includes it)
$(GRADER_OBJS): | $(B)/grader/runner_mk.h
$(GRADER_OBJS): PROJECT_CPPFLAGS += -I$(B)

-include sim/sim.mk
-include tui/tui.mk
include tests/tests.mk
-include tools/instructor.mk
-include tests/instructor/instructor.mk

# The student copy (make dist, with shipped/ in place of solutions/) ships only the tests that need no
# solution: the scripts that grade the instructor's files are not there, and it checks itself instead.
ifneq ($(wildcard shipped/starters),)
TEST_SCRIPTS := $(wildcard $(TEST_SCRIPTS)) tests/student-copy.sh
LONG_TEST_SCRIPTS := $(wildcard $(LONG_TEST_SCRIPTS))
LONE_TEST_SCRIPTS := $(wildcard $(LONE_TEST_SCRIPTS))
endif

$(B)/cudalings: $(B)/grader/cmd/main.o $(CUDALINGS_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CUDALINGS_LIBS)

# What the build needs from Debian: an explicit step, make deps (tools/deps.sh installs what is missing, or
# says how). The goals typed first on a bare machine (make, make tui, make grade, make test) take that step
# themselves, once, while make reads this file and so before anything is compiled; a stamp says it was done
# (build/deps-build.stamp, build/deps-test.stamp), and tools/deps.sh newer than it does it again. No
# object waits on it: a built tree's make runs no apt-get, and make -q asks nothing.
DEPS_KIND := $(if $(filter test test-long,$(MAKECMDGOALS)),test,$(if $(filter all tui grade,$(MAKECMDGOALS))$(if $(MAKECMDGOALS),,all),build))
deps_run = CC='$(CC)' CPPFLAGS='$(CPPFLAGS)' sh tools/deps.sh $(1) && mkdir -p $(B) && touch $(B)/deps-$(1).stamp
ifneq ($(DEPS_KIND),)
ifneq ($(shell [ $(B)/deps-$(DEPS_KIND).stamp -nt tools/deps.sh ] && echo done),done)
$(if $(shell $(call deps_run,$(DEPS_KIND)) >&2 && echo done),,$(error tools/deps.sh $(DEPS_KIND) did not finish: its message above says what to do))
endif
endif
.PHONY: deps deps-test
## deps: install what the build needs from Debian (tools/deps.sh; make, make tui and make test do it once)
deps:
	$(Q)$(call deps_run,build)
## deps-test: the same, with what the tests need (Criterion, tmux, python3)
deps-test:
	$(Q)$(call deps_run,test)

$(B)/%.o: %.c
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(CFLAGS) $(WARN) $(DEPFLAGS) -std=gnu11 -c -o $@ $<

$(B)/%.o: %.cpp
	$(call msg,CXX,$<)
	@mkdir -p $(@D)
	$(Q)$(CXX) $(ALL_CPPFLAGS) $(CXXFLAGS) $(WARN) $(DEPFLAGS) -std=gnu++17 -c -o $@ $<

# ---------------------------------------------------------------- student commands
EX      ?=
FILE    ?=
BACKEND ?=
AFTER   ?=
# The recipes read these from their environment, quoted there: FILE="my file.cu" is one argument, and no
# name is ever run as shell code. An exercise's name is a C identifier (tools/make-args.sh checks).
export EX FILE BACKEND AFTER
MAKE_ARGS := sh tools/make-args.sh

.PHONY: prepare
## prepare: build each exercise's grader side ahead of its first grading (make tui and make test do)
# A stamp with what the grader's side is built from: a built tree's make tui runs no grader. Only a head
# start: a grading builds what is missing or stale itself, so a stamp that misses a change costs time, never
# a verdict.
PREPARED := $(B)/prepared.stamp
prepare: $(PREPARED)
$(PREPARED): $(B)/cudalings $(SIM_BUILT) workbook.json $(wildcard harness/* harness/*/* solutions/*.cu solutions/*/*.cu \
		shipped/*/*.o shipped/*/*/*.o sim/include/*)
	$(Q)$(B)/cudalings prepare --quiet
	@touch $@

.PHONY: grade grade-run list
## grade: grade one exercise: make grade EX=transpose [FILE=path] [BACKEND=gpu|sim]
# make exits with the grader's status and adds no line of its own (tools/make-exit.c, a plugin loaded for
# this goal only, says how): the grading's recipe cannot fail, it writes the status down, and grade's
# recipe ends make with it. Where the plugin is not loaded, the shell's exit says the status as make
# always has.
ifneq ($(filter grade,$(MAKECMDGOALS)),)
-load $(B)/make_exit.so
GRADE_STATUS := $(B)/grade-status-$(shell echo $$PPID)
endif
grade-run: $(B)/cudalings $(SIM_BUILT)
	@$(cudalings-hold-interrupt )trap : INT; $(MAKE_ARGS) grade $(B)/cudalings; echo $$? >$(GRADE_STATUS)
grade: grade-run
	@$(cudalings-exit $(GRADE_STATUS))s=$$(cat $(GRADE_STATUS)); rm -f $(GRADE_STATUS); exit $$s
# The plugin is a convenience: where it cannot be built (no gnumake.h) make grade still grades, with
# make's own exit status and error line, as before it.
$(B)/make_exit.so: tools/make-exit.c
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(WARN) -shared -fPIC -o $@ $< || echo "make grade: $< did not build: make's own exit status stays"

## list: list the lessons and exercises in order
list: $(B)/cudalings
	@$(B)/cudalings list

# ---------------------------------------------------------------- tests
# Every suite of `make test` — a Criterion program or a script — is a make target of its own, so the
# suites run side by side: -j$(TEST_JOBS) unless make was given -j itself. Each suite's
# output goes to $(B)/test-logs/ and is printed whole, in order, when all have ended, with the time
# each took. The scripts share one build: the grader, the simulator, the workbook screen and every
# exercise's runner and judge (`cudalings prepare`) are made once, before the first script starts.
.PHONY: test test-long test-suites test-built test-gpu check-exercises starters reset
# Two more than the cores: several suites wait much of their time (tmux's screens, a hanging kernel's
# watchdog, a copy's build), and the extra ones keep the cores busy meanwhile (2 cores, the tree built:
# 2 min 29 s at -j4, 2:31 at -j3, 2:47 at -j2; bench/make-test.md).
TEST_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 2 )))
TEST_LOGS := $(B)/test-logs
TEST_LONG_LOGS := $(B)/test-long-logs
# The submissions that never end spin against the simulator's CPU limits: 5 s a launch here, not 20.
test_tier = CUDALINGS_SIM_CPU_LIMIT=$${CUDALINGS_SIM_CPU_LIMIT:-5} TEST_TIER='$(1)' \
	$(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(TEST_JOBS)) TEST_LOGS=$(2) $(3)
## test: the quick tier, every test that needs no GPU but the long tier's (unit, end to end, lessons), in parallel
test:
	@rm -rf $(TEST_LOGS)
	@$(call test_tier,make test,$(TEST_LOGS),test-suites)
	@echo "make test: the long tier (every submission of the corpora, the whole workbook, the copies): make test-long"

## test-long: the long tier CI runs after make test: the adversarial corpus, the whole workbook, the copies, Slurm
test-long:
	@rm -rf $(TEST_LONG_LOGS)
	@$(call test_tier,make test-long,$(TEST_LONG_LOGS),test-long-suites)
	$(Q)set -e; for s in $(LONE_TEST_SCRIPTS); do echo "== $$s"; bash $$s; done

# make grade's plugin too: the suites that run make grade side by side would each build it into one path,
# and one make could load the other's half-written file
test-built: $(B)/cudalings $(SIM_BUILT) $(if $(wildcard tui/tui.mk),$(B)/cudalings-tui) $(TEST_PREREQS) $(PREPARED) \
	$(B)/make_exit.so

## check-exercises: every exercise compiles; starters fail, solutions pass, every mutant of a solution fails
check-exercises: $(B)/cudalings $(SIM_BUILT)
	@$(B)/cudalings check --mutants

## starters: write missing exercises/ files from the solutions (never overwrites an edited one)
starters: $(B)/cudalings
	@$(B)/cudalings starters

## reset: put an exercise back to its starter, keeping a backup: make reset EX=transpose
reset: $(B)/cudalings
	@$(MAKE_ARGS) reset $(B)/cudalings

## test-gpu: on a GPU machine: every solution passes, starters and slow variants fail, timings
test-gpu: $(B)/cudalings
	@bash tests/gpu/run.sh

# ---------------------------------------------------------------- housekeeping
.PHONY: clean help
## clean: remove build/
clean:
	rm -rf $(B)

## help: list the targets
help:
	@sed -n 's/^## \([^:]*\): \(.*\)/  \1\t\2/p' $(MAKEFILE_LIST) | expand -t 20

# the suites of make test, each a target test-run-ID (ID: its path, / made _); the longest start first
test_id = $(subst /,_,$(basename $(patsubst $(B)/%,%,$(1))))
TEST_ALL = $(TEST_PROGRAMS) $(TEST_SCRIPTS)
test_order = $(filter $(1),$(TEST_FIRST)) $(filter-out $(TEST_FIRST),$(1))
define test_rule
.PHONY: test-run-$(call test_id,$(1))
test-run-$(call test_id,$(1)): $(if $(filter $(TEST_PROGRAMS),$(1)),$(1)) test-built
	@bash tests/run-suite.sh $(TEST_LOGS) $(1) $(if $(filter $(TEST_PROGRAMS),$(1)),$(1) --jobs 2,bash $(1))
endef
$(foreach t,$(TEST_ALL) $(LONG_TEST_SCRIPTS),$(eval $(call test_rule,$(t))))
.PHONY: test-long-suites
test-suites: $(foreach t,$(call test_order,$(TEST_ALL)),test-run-$(call test_id,$(t)))
	@bash tests/report.sh $(TEST_LOGS) $(TEST_ALL)
test-long-suites: $(foreach t,$(call test_order,$(LONG_TEST_SCRIPTS)),test-run-$(call test_id,$(t)))
	@bash tests/report.sh $(TEST_LONG_LOGS) $(LONG_TEST_SCRIPTS)

# the grader's own builds (a class's submissions, with whatever names they have) are not make's
-include $(shell find $(B) \( -path '*/sub' -o -path '$(B)/check' -o -path '$(B)/judge' \) -prune -o -name '*.d' -print 2>/dev/null)
