# tools/instructor.mk — the instructor's make targets: scaffold an exercise, build the student copy and a
# Gradescope autograder (tools/dist.sh, tools/gradescope.sh beside this file). Product, not tests: their
# tests are tests/instructor/'s. Included by the top-level Makefile, optionally: the student copy that
# make dist builds leaves it out, as it leaves out the solutions these targets need.

.PHONY: new dist gradescope
## new: scaffold an exercise: make new EX=name [AFTER=item] (four files; then write them)
new: $(B)/cudalings
	@$(MAKE_ARGS) new $(B)/cudalings

## dist: the student copy without solutions: build/dist/cudalings and build/dist/cudalings.tar.gz
dist: $(B)/cudalings $(SIM_BUILT)
	@bash tools/dist.sh $(B)/dist

## gradescope: a Gradescope autograder for one exercise: make gradescope EX=name (build/gradescope/NAME.zip)
gradescope: $(B)/cudalings $(SIM_BUILT)
	@$(MAKE_ARGS) gradescope $(B)/gradescope
