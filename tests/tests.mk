# The grader's Criterion tests and end-to-end scripts (no GPU needed).
GRADER_TEST_SRCS := $(wildcard tests/unit/*.c)
GRADER_TEST_OBJS := $(GRADER_TEST_SRCS:%.c=$(B)/%.o)
HARNESS_HOST_OBJS := $(B)/harness/stats.o

$(B)/tests/unit-grader: $(GRADER_TEST_OBJS) $(CUDALINGS_OBJS) $(HARNESS_HOST_OBJS)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CUDALINGS_LIBS) -lcriterion

TEST_PROGRAMS += $(B)/tests/unit-grader
TEST_SCRIPTS += tests/layout.sh tests/lessons/figures.sh tests/e2e/cli.sh tests/e2e/lifetime.sh tests/e2e/typed.sh \
	tests/mistakes/run.sh tests/lines/run.sh tests/sass/run.sh tests/board/run.sh tests/views/run.sh
# the long tier (make test-long, CI): every exercise's solution, starter, wrong variants and mutants; every
# adversarial and legitimate-fast submission; nvcc -c of every solution. Each grades tens of files.
LONG_TEST_SCRIPTS += tests/e2e/workbook.sh tests/adversarial/run.sh tests/e2e/compile.sh
# the lessons' own checks: what they cite ships, diagrams fit, hints in tiers, no solution given away, each after what it builds on
TEST_SCRIPTS += tests/lessons/links.sh tests/lessons/diagrams.sh tests/lessons/hints.sh tests/lessons/solutions.sh \
	tests/lessons/order.sh
TEST_SCRIPTS += tests/e2e/sample.sh tests/e2e/pch.sh tests/e2e/terminal.sh tests/e2e/figures_only.sh tests/e2e/noop.sh \
	tests/e2e/frontend_cache.sh

# Valid CUDA syntax (tests/corpus/): each file is a program that checks its own
# results, built through the simulator's rewriter here; tests/corpus/run.sh
# runs them and, where nvcc is installed, compiles the same files with nvcc.
ifneq ($(SIM_BUILT),)
CORPUS_SRCS := $(wildcard tests/corpus/*.cu)
CORPUS_SIM := $(CORPUS_SRCS:tests/corpus/%.cu=$(B)/tests/corpus/%.sim)
# kept: make would delete them after every run, and build them again the next
.PRECIOUS: $(B)/tests/corpus/%.cpp

$(B)/tests/corpus/%.cpp: tests/corpus/%.cu $(SIM_REWRITE)
	$(call msg,REWRITE,$<)
	@mkdir -p $(@D)
	$(Q)$(SIM_REWRITE) $< $@

$(B)/tests/corpus/%.sim: $(B)/tests/corpus/%.cpp $(SIM_LIB)
	$(call msg,SIMCXX,$<)
	$(Q)$(SIM_COMPILE) $(WARN) -o $@ $< $(SIM_LINK)

.PHONY: corpus
corpus: $(CORPUS_SIM)
TEST_SCRIPTS += tests/corpus/run.sh
TEST_PREREQS += corpus
endif

# The utility layer's own tests (lib/): nothing of the grader linked in.
LIB_TEST_SRCS := $(wildcard tests/lib/*.c)
LIB_TEST_OBJS := $(LIB_TEST_SRCS:%.c=$(B)/%.o)

$(B)/tests/lib-unit: $(LIB_TEST_OBJS) $(LIB_OBJS)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcriterion

TEST_PROGRAMS += $(B)/tests/lib-unit

# the longest suites of make test first (measured: bench/make-test.md), so that two at a time end together
TEST_FIRST += tests/e2e/workbook.sh tests/adversarial/run.sh tests/instructor/dist.sh tests/tui/e2e.sh \
	tests/instructor/walk.sh tests/e2e/compile.sh tests/e2e/typed.sh tests/mistakes/run.sh tests/e2e/cli.sh \
	tests/sass/run.sh tests/corpus/run.sh
