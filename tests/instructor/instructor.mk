# tests/instructor/instructor.mk — the tests of the instructor's targets (tools/instructor.mk): the
# scaffold, the student copy, the batch, Gradescope, Slurm. Included by the top-level Makefile
# (optionally: the student copy that `make dist` builds leaves tests/instructor/ out).

TEST_SCRIPTS += tests/instructor/scaffold.sh tests/instructor/doors.sh tests/instructor/inputs.sh tests/instructor/batch.sh
# the long tier (make test-long): a class graded and regraded end to end, the student copy and the
# Gradescope bundle each built from their archive; then, alone, the copy's own make test and a class
# through Slurm
LONG_TEST_SCRIPTS += tests/instructor/walk.sh tests/instructor/dist.sh
LONE_TEST_SCRIPTS += tests/instructor/copy.sh tests/instructor/slurm.sh

.PHONY: test-instructor-gpu
## test-instructor-gpu: on a GPU machine: cudalings batch with a lane per GPU, timings in the results
test-instructor-gpu: $(B)/cudalings
	@bash tests/instructor/gpu.sh

# unit tests of the batch (with tests/instructor/fake-grader) and scaffold.c, with the grader's objects
INSTRUCTOR_TEST_OBJS := $(B)/tests/instructor/outputs.o $(B)/tests/instructor/batch.o

$(B)/tests/instructor-unit: $(INSTRUCTOR_TEST_OBJS) $(CUDALINGS_OBJS) $(HARNESS_HOST_OBJS)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CUDALINGS_LIBS) -lcriterion

TEST_PROGRAMS += $(B)/tests/instructor-unit
