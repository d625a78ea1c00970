/*
 * timelimit: how long each child of a grading may take — the compiler, the
 * judge, the runner as it opens the GPU, loads the submission and runs each
 * case — in one place. On the simulator a case's limit is CPU time, which a
 * busy machine does not use up; the wall clock only backs it up.
 */
#ifndef CUDALINGS_TIMELIMIT_H
#define CUDALINGS_TIMELIMIT_H

#include <stdbool.h>

#include "grader/compile/build.h"
#include "lib/run.h"
#include "grader/engine/session.h"

/* Seconds a child may take. */
/* The slowest legitimate compile measured (bench/compile-limit.md) took 3.4 s of CPU (nvcc -O3 of a
 * matmul with cooperative groups), 13 to 33 s of wall clock on a 2-core machine at a load of 21:
 * over ten times the first, with room for a busy machine. A compile that never ends (a template
 * recursion, an #include of a FIFO) stops here. */
#define COMPILE_LIMIT_S 40
#define JUDGE_LIMIT_S 300
#define START_LIMIT_S 60   /* until the runner has opened the GPU: a first CUDA start is slow */
#define LOAD_LIMIT_S 5     /* from then until its first case: loading the submission, its constructors */
#define CASE_LIMIT_GPU_S 10
#define TIMED_LIMIT_S 90
/* More than one launch may take (harness/runner_sim.cu's SIM_LAUNCH_CPU_LIMIT_S, 20 s), so the simulator
 * names the line of a kernel that never ends. */
#define CASE_CPU_LIMIT_SIM_S 25
#define SIM_LAUNCH_LIMIT_MARGIN_S 5 /* the case's limit over one launch's */
#define CASE_WALL_LIMIT_SIM_S 250

/*
 * The simulator's CPU limit on one launch when CUDALINGS_SIM_CPU_LIMIT lowers
 * it (said once when the value would not), else 0: the runner's own.
 */
double timelimit_sim_launch(void);
/*
 * Wall-clock seconds a compile may take: COMPILE_LIMIT_S, or less where
 * CUDALINGS_COMPILE_LIMIT lowers it (tests of a compile that never ends);
 * a value that would not lower it is said once and ignored.
 */
double timelimit_compile(void);
/* CPU seconds a case may take on the simulator. */
double timelimit_sim_case(void);
/*
 * Lower the simulator's launch limit of this process's gradings to `seconds`
 * (never raise it): the mutants of a solution whose launches take a fraction
 * of a second are stopped at a few seconds when they never end.
 */
void timelimit_sim_lower(double seconds);
/*
 * Set the runner's deadlines for where it is now (starting, loading the
 * submission, in a case), when that changed since *last_phase. While
 * `waiting` for its submission to compile it has none: the compiler's bounds
 * the wait.
 */
void timelimit_runner_deadline(const struct session *s, enum backend b, bool waiting, struct child *c, int *last_phase);
/* The limit the runner is under now, for the message when it runs past it. */
double timelimit_runner_current(const struct session *s, enum backend b);

#endif
