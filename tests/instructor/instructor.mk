# tests/instructor/instructor.mk — the instructor's targets: scaffold an
# exercise, build the student copy and a Gradescope autograder, and their
# tests. Included by the top-level Makefile (optionally: the student copy
# that `make dist` builds leaves tests/instructor/ out).

SIM_IF_ANY := $(if $(wildcard sim/sim.mk),sim)

.PHONY: new dist gradescope
## new: scaffold an exercise: make new EX=name [AFTER=item] (four files; then write them)
new: $(B)/cudalings
	@$(MAKE_ARGS) new $(B)/cudalings

## dist: the student copy without solutions: build/dist/cudalings and build/dist/cudalings.tar.gz
dist: $(B)/cudalings $(SIM_IF_ANY)
	@bash tools/dist.sh $(B)/dist

## gradescope: a Gradescope autograder for one exercise: make gradescope EX=name (build/gradescope/NAME.zip)
gradescope: $(B)/cudalings $(SIM_IF_ANY)
	@$(MAKE_ARGS) gradescope $(B)/gradescope

TEST_SCRIPTS += tests/instructor/scaffold.sh tests/instructor/doors.sh tests/instructor/inputs.sh tests/instructor/walk.sh tests/instructor/batch.sh tests/instructor/dist.sh

# Long tests, run by CI (.ci/run) after make test: the student copy's own make test, a class through Slurm.
LONG_TEST_SCRIPTS += tests/instructor/copy.sh tests/instructor/slurm.sh

.PHONY: test-long
## test-long: the long tests CI runs after make test (the student copy's make test, a class through Slurm)
test-long: deps-test $(B)/cudalings $(SIM_IF_ANY)
	$(Q)set -e; for s in $(LONG_TEST_SCRIPTS); do echo "== $$s"; bash $$s; done

.PHONY: test-instructor-gpu
## test-instructor-gpu: on a GPU machine: cudalings batch with a lane per GPU, timings in the results
test-instructor-gpu: $(B)/cudalings
	@bash tests/instructor/gpu.sh

# unit tests of the batch (with tests/instructor/fake-grader) and scaffold.c, with the grader's objects
INSTRUCTOR_TEST_OBJS := $(B)/tests/instructor/unit.o $(B)/tests/instructor/batch.o

$(B)/tests/instructor-unit: $(INSTRUCTOR_TEST_OBJS) $(CUDALINGS_OBJS) $(HARNESS_HOST_OBJS)
	$(call msg,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CUDALINGS_LIBS) -lcriterion

TEST_PROGRAMS += $(B)/tests/instructor-unit
