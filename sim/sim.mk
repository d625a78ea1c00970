# sim/sim.mk — the CPU simulator: cudasim-rewrite, libcudasim.a, its tests
# and its benchmark. Included by the top-level Makefile.

# every .c of sim/ is the library's (the rewriter, a program of its own, is in sim/rewrite/)
SIM_SRCS := $(sort $(wildcard sim/*.c))
SIM_OBJS := $(SIM_SRCS:%.c=$(B)/%.o) $(B)/sim/fiber_switch.o

# GCC's libbacktrace (libgcc-12-dev, a dependency of g++) turns addresses into
# source lines inside the runner, where fork is forbidden; its objects go into
# libcudasim.a so that runners link with the same flags. Without it,
# symbols.c falls back to running addr2line. Whether the compiler has it is
# asked when the simulator is built, never while make reads this file: on a
# bare machine there is no compiler yet (tools/deps.sh installs it first).
$(B)/sim/symbols.o: PROJECT_CPPFLAGS += -DCUDASIM_BACKTRACE
SIM_BT_OBJS := $(B)/sim/backtrace/.extracted
# SIM_LIB, SIM_REWRITE and SIM_DYNLIST, what this makes for runners, are harness/runner.mk's: the
# grader finds them by the same names

# The grader's recipe, from harness/runner.mk (grader/compile/build.c reads the same):
# every .cu goes through the rewriter, then SIM_COMPILE; programs link
# SIM_LINK. The student's file also gets SIM_CHECK: its loads and stores
# call check.c.
SIM_COMPILE = $(SIM_CXX) $(SIM_CXXFLAGS)
SIM_LINK = $(SIM_LIB) $(SIM_LIBS)

.PHONY: sim
## sim: build the CPU simulator (build/sim/cudasim-rewrite, build/sim/libcudasim.a)
# SIM_BUILT: files, so that what needs the simulator (all, prepare's stamp) is up to date when they are
SIM_BUILT := $(SIM_LIB) $(SIM_REWRITE) $(SIM_DYNLIST) $(SIM_PCH_DIR)/cudasim.h.gch
sim: $(SIM_BUILT)

# cudasim.h precompiled for the student's compile (harness/runner.mk's SIM_PCH_DIR): g++ uses it only
# when its flags are the compile's own, and falls back to the header otherwise
$(SIM_PCH_DIR)/cudasim.h.gch: sim/include/cudasim.h harness/runner.mk
	$(call msg,PCH,$@)
	@mkdir -p $(@D)
	$(Q)$(SIM_CXX) $(filter-out -include cudasim.h,$(SIM_CXXFLAGS)) $(SIM_CHECK) -fPIC \
		-MD -MF $@.d -MT $@ -x c++-header sim/include/cudasim.h -o $@.tmp && mv $@.tmp $@
-include $(SIM_PCH_DIR)/cudasim.h.gch.d
all: $(SIM_BUILT)

# What a runner exports to the student's shared object: the simulator's
# symbols, less harness/runner.mk's SIM_CONTROLS (the grader refuses a
# submission that names one) and libbacktrace's, which the archive holds (a
# submission's own backtrace_symbols is the C library's).
empty :=
space := $(empty) $(empty)
SIM_HIDDEN := $(subst $(space),|,$(strip $(subst *,[A-Za-z0-9_]*,$(SIM_CONTROLS)) backtrace_[A-Za-z0-9_]*))
$(SIM_DYNLIST): $(SIM_LIB) harness/runner.mk
	$(call msg,GEN,$@)
	$(Q){ echo '{'; nm -g --defined-only --quiet $(SIM_LIB) | awk 'NF == 3 { print "  " $$3 ";" }' | \
		grep -Ev '^  ($(SIM_HIDDEN));' | sort -u; echo '};'; } >$@.tmp && mv $@.tmp $@

$(SIM_LIB): $(SIM_OBJS) $(SIM_BT_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $(SIM_OBJS) $$(ls $(B)/sim/backtrace/*.o 2>/dev/null)

$(B)/sim/backtrace/.extracted:
	$(call msg,AR,libbacktrace.a)
	@rm -rf $(@D) && mkdir -p $(@D)
	$(Q)lib=$$($(CC) -print-file-name=libbacktrace.a); case $$lib in /*) cd $(@D) && ar x "$$lib" ;; esac
	@touch $@

$(B)/sim/fiber_switch.o: sim/fiber_switch.S
	$(call msg,AS,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(DEPFLAGS) -c -o $@ $<

# the rewriter is a tool of the project (sim/rewrite/, one file per pass): it shares the utility layer (lib/)
SIM_REWRITE_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard sim/rewrite/*.c))
$(SIM_REWRITE): $(SIM_REWRITE_OBJS) $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

# ---------------------------------------------------------------- tests
# Kernels under tests/sim/kernels are built exactly as the grader builds a .cu.
SIM_TEST_CU := $(wildcard tests/sim/kernels/*.cu)
SIM_TEST_KOBJS := $(SIM_TEST_CU:%.cu=$(B)/%.o)
SIM_TEST_SRCS := $(wildcard tests/sim/*.c)
SIM_TEST_OBJS := $(SIM_TEST_SRCS:%.c=$(B)/%.o)

# kept, so a failing test's rewritten source can be read
.PRECIOUS: $(B)/tests/sim/kernels/%.cpp

$(B)/tests/sim/kernels/%.cpp: tests/sim/kernels/%.cu $(SIM_REWRITE)
	$(call msg,REWRITE,$<)
	@mkdir -p $(@D)
	$(Q)$(SIM_REWRITE) $< $@

$(B)/tests/sim/kernels/%.o: $(B)/tests/sim/kernels/%.cpp sim/include/cudasim.h
	$(call msg,SIMCXX,$<)
	$(Q)$(SIM_COMPILE) $(WARN) -c $< -o $@

$(B)/tests/sim/kernels/checked.o: SIM_COMPILE += $(SIM_CHECK)

$(SIM_TEST_OBJS): PROJECT_CPPFLAGS += -Isim/include -I$(B)
$(B)/tests/sim/rewrite.o: $(B)/grader/runner_mk.h

$(B)/tests/sim/test-sim: $(SIM_TEST_OBJS) $(SIM_TEST_KOBJS) $(SIM_LIB)
	$(call msg,LINK,$@)
	$(Q)$(SIM_CXX) -o $@ $(SIM_TEST_OBJS) $(SIM_TEST_KOBJS) $(SIM_LINK) -lcriterion

TEST_PROGRAMS += $(B)/tests/sim/test-sim
# one list of the simulator's controls, read by the runner's exports and the grader's inspection
TEST_SCRIPTS += tests/sim/controls.sh

# ---------------------------------------------------------------- benchmark
.PHONY: bench-sim
## bench-sim: the simulator against Numba's CUDA simulator on the same kernels
bench-sim: $(B)/bench/sim/bench-sim
	$(Q)python3 bench/sim/bench.py $(B)/bench/sim/bench-sim

$(B)/bench/sim/kernels.cpp: bench/sim/kernels.cu $(SIM_REWRITE)
	$(call msg,REWRITE,$<)
	@mkdir -p $(@D)
	$(Q)$(SIM_REWRITE) $< $@

$(B)/bench/sim/kernels.o: $(B)/bench/sim/kernels.cpp sim/include/cudasim.h
	$(call msg,SIMCXX,$<)
	$(Q)$(SIM_COMPILE) $(WARN) -c $< -o $@

$(B)/bench/sim/bench-sim: $(B)/bench/sim/kernels.o $(SIM_LIB)
	$(call msg,LINK,$@)
	$(Q)$(SIM_CXX) -o $@ $< $(SIM_LINK)

.PHONY: test-sim-aarch64
## test-sim-aarch64: the simulator built for aarch64 and run under qemu-user
test-sim-aarch64: $(SIM_REWRITE)
	$(Q)bash tests/sim/aarch64/run.sh
