# harness/runner.mk — how a runner is built: the one description of its
# compilers and flags. The Makefile includes it (sim/sim.mk builds the
# simulator's tests and the corpus with it); grader/compile/build.c reads it through
# build/grader/runner_flags.h, made from it at build time
# (tools/runner-flags.awk); scripts read a value with tools/runner-flags.sh.
#
# Only `NAME := words` lines and comments: no make functions or references,
# no quotes, so each word is one argument wherever it is read.

# The simulator: every .cu goes through the rewriter (build/sim/cudasim-rewrite),
# then the host C++ compiler with these flags.
SIM_CXX := g++
SIM_CXXFLAGS := -std=gnu++17 -O1 -g -fno-omit-frame-pointer -Isim/include -include cudasim.h
# The student's file only: every load and store calls the simulator's checks (sim/check.c);
# a local variable read before it is set holds a pattern (0xfe bytes), as a GPU register
# holds garbage, not the zero a fresh host stack often does.
SIM_CHECK := -fsanitize=thread --param tsan-instrument-func-entry-exit=0 -ftrivial-auto-var-init=pattern
# The student's compile finds cudasim.h precompiled in this folder (sim/sim.mk makes it with
# SIM_CXXFLAGS, SIM_CHECK and -fPIC, the flags that compile is made with): half of g++'s time on it.
SIM_PCH_DIR := build/sim/student-pch
# What a program built that way links besides build/sim/libcudasim.a.
SIM_LIBS := -lpthread -ldl

# The GPU: nvcc for every .cu (with -arch= the GPU's, or $CUDALINGS_ARCH).
NVCC_FLAGS := -std=c++17 -O3 -lineinfo

# The harness's C and C++ files and the exercises' checks, on both backends.
HOST_CC := gcc
HOST_CXX := g++
HOST_CFLAGS := -std=gnu11 -O2 -g
HOST_CXXFLAGS := -std=gnu++17 -O2 -g
# The harness's threads: compiled and linked with it (nvcc passes it on with -Xcompiler).
OPENMP := -fopenmp
# Where a runner's own sources find their headers (the grader writes build/gen/).
RUNNER_INCLUDES := -Iharness -Ibuild/gen
