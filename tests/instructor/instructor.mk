# tests/instructor/instructor.mk — the tests of the instructor's targets (tools/instructor.mk): the
# scaffold, the student copy, the batch, Gradescope, Slurm. Included by the top-level Makefile
# (optionally: the student copy that `make dist` builds leaves tests/instructor/ out).

TEST_SCRIPTS += tests/instructor/scaffold.sh tests/instructor/doors.sh tests/instructor/inputs.sh tests/instructor/walk.sh tests/instructor/batch.sh tests/instructor/dist.sh

# Long tests, run by CI (.ci/run) after make test: the student copy's own make test, a class through Slurm.
LONG_TEST_SCRIPTS += tests/instructor/copy.sh tests/instructor/slurm.sh

.PHONY: test-long
## test-long: the long tests CI runs after make test (the student copy's make test, a class through Slurm)
test-long: $(B)/cudalings $(SIM_BUILT)
	$(Q)set -e; for s in $(LONG_TEST_SCRIPTS); do echo "== $$s"; bash $$s; done

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
