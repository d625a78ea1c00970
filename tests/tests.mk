# The grader's Criterion tests and end-to-end scripts (no GPU needed).
GRADER_TEST_SRCS := $(wildcard tests/unit/*.c)
GRADER_TEST_OBJS := $(GRADER_TEST_SRCS:%.c=$(B)/%.o)
HARNESS_HOST_OBJS := $(B)/harness/stats.o

$(B)/tests/unit-grader: $(GRADER_TEST_OBJS) $(CUDALINGS_OBJS) $(HARNESS_HOST_OBJS)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CUDALINGS_LIBS) -lcriterion

TEST_PROGRAMS += $(B)/tests/unit-grader
TEST_SCRIPTS += tests/e2e/cli.sh tests/e2e/lifetime.sh tests/e2e/compile.sh tests/e2e/workbook.sh tests/adversarial/run.sh \
	tests/mistakes/run.sh
