# harness/runner.mk — how a runner is built, and where: the one description
# of its compilers, flags and paths. The Makefile includes it (its $(B) is
# BUILD_DIR; sim/sim.mk builds the simulator, its tests and the corpus with
# it); the grader reads it through build/grader/runner_mk.h, made from it at
# build time (tools/runner-flags.awk); scripts read a value with
# tools/runner-flags.sh.
#
# Only `NAME := words` lines and comments: no make functions, no quotes, and
# no reference but to a one-word value defined above ($(BUILD_DIR)), so each
# word is one argument wherever it is read.

# Where every build goes: the Makefile's objects and the grader's runners, judges and students'
# builds alike. The grader names every path under it from here.
BUILD_DIR := build

# The simulator, made by sim/sim.mk: the rewriter every .cu goes through, the library a runner
# links, and the list of what it shows the student's shared object.
SIM_REWRITE := $(BUILD_DIR)/sim/cudasim-rewrite
SIM_LIB := $(BUILD_DIR)/sim/libcudasim.a
SIM_DYNLIST := $(BUILD_DIR)/sim/student.dynlist
# After the rewriter, the host C++ compiler with these flags.
SIM_CXX := g++
SIM_CXXFLAGS := -std=gnu++17 -O1 -g -fno-omit-frame-pointer -Isim/include -include cudasim.h
# The student's file only: every load and store calls the simulator's checks (sim/check.c);
# a local variable read before it is set holds a pattern (0xfe bytes), as a GPU register
# holds garbage, not the zero a fresh host stack often does. A copy or fill of a known size stays a
# call (cudasim.h says why), which goes through the checks.
SIM_CHECK := -fsanitize=thread --param tsan-instrument-func-entry-exit=0 -ftrivial-auto-var-init=pattern -fno-builtin-memcpy -fno-builtin-memmove -fno-builtin-memset -fno-builtin-mempcpy -fno-builtin-bcopy -fno-builtin-bzero
# The C library's functions whose calls in the student's object go to the simulator's __wrap_ forms
# (the linker's --wrap; sim/tsan.c, sim/kernel_memory.c): the memory functions and malloc, checked as the
# accesses a kernel makes; the math functions with outputs, stored as a kernel's stores; the others that
# read or write through the caller's pointers, refused in a kernel (the library is not instrumented).
SIM_WRAPS := memcpy memmove memset __memcpy_chk __memmove_chk __memset_chk malloc free sincosf sincos modff modf frexpf frexp remquof remquo wmemcpy wmemmove wmemset wmemcmp mempcpy memccpy memchr memrchr rawmemchr memmem memcmp bcmp swab explicit_bzero strcpy strncpy stpcpy stpncpy strcat strncat strlen strnlen strcmp strncmp wcscpy wcsncpy wcslen qsort vsnprintf vsprintf vsscanf snprintf sprintf sscanf bcopy bzero __mempcpy __stpcpy memfrob strxfrm wcsxfrm wmempcpy wcscat wcsncat __mempcpy_chk __stpcpy_chk __strcpy_chk __strncpy_chk __strcat_chk __wmemcpy_chk __wmemmove_chk __wmemset_chk
# The student's compile finds cudasim.h precompiled in this folder (sim/sim.mk makes it with
# SIM_CXXFLAGS, SIM_CHECK and -fPIC, the flags that compile is made with): half of g++'s time on it.
SIM_PCH_DIR := $(BUILD_DIR)/sim/student-pch
# What a program built that way links besides SIM_LIB.
SIM_LIBS := -lpthread -ldl
# The simulator's controls: its symbols that a submission may neither call nor define (a trailing *
# names a prefix). The runner keeps them out of what it exports to the student's object (sim/sim.mk's
# student.dynlist) and the grader refuses an object that names one (grader/compile/inspect.c); every control
# sim/include/cudasim.h declares is here (tests/sim/controls.sh).
SIM_CONTROLS := cudasimTakeChecks cudasimCheck cudasimTakeLines cudasimMeasure cudasimLastLaunchStats cudasimLastErrorDetail cudasimConfigure cudasimProgramObject cudasimGuardDeviceMemory cudasimGuardedDeviceAddress cudasimDescribeAllocation cudasimDryLaunches cudasim_ctx_* sim_*

# The GPU: nvcc for every .cu (with -arch= the GPU's, or $CUDALINGS_ARCH).
NVCC_FLAGS := -std=c++17 -O3 -lineinfo

# The harness's C and C++ files and the exercises' checks, on both backends.
HOST_CC := gcc
HOST_CXX := g++
HOST_CFLAGS := -std=gnu11 -O2 -g
HOST_CXXFLAGS := -std=gnu++17 -O2 -g
# The harness's threads: compiled and linked with it (nvcc passes it on with -Xcompiler).
OPENMP := -fopenmp
# Where a runner's own sources find their headers: the root, for they name them from it ("harness/check.h"),
# and BUILD_DIR/gen/, which the grader writes. Never a submission's: its compile has its own path.
RUNNER_INCLUDES := -I. -I$(BUILD_DIR)/gen
