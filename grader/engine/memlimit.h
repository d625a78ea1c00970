/*
 * memlimit: how much memory one grading may take, from what this machine
 * (its container, its Slurm allocation) has and how many gradings share it.
 *
 * The budget is the least of MemAvailable in /proc/meminfo (MemTotal where
 * the kernel has no MemAvailable), the cgroup's memory.max, and the Slurm
 * allocation (SLURM_MEM_PER_NODE, or SLURM_MEM_PER_CPU × the CPUs). Each of
 * `lanes` gradings gets an equal share: the simulator's runner an address
 * space of the share, the compilers half of it, each between a floor that a
 * normal grading needs and a cap that stops a runaway in its tracks.
 */
#ifndef CUDALINGS_MEMLIMIT_H
#define CUDALINGS_MEMLIMIT_H

#include <stdbool.h>

#define GiB (1ull << 30)
/* matmul's runner peaks at 0.5 GiB of address space, cudafe++ at 0.2: four times that, and more */
#define RUNNER_FLOOR (2 * GiB)
#define RUNNER_CAP (16 * GiB)
#define COMPILE_FLOOR (2 * GiB)
#define COMPILE_CAP (8 * GiB)
/* what one grading (compiler, judge and runner at once) may really touch, to size the lanes */
#define GRADING_MEMORY GiB

struct memory_limits {
	unsigned long long budget;  /* bytes all gradings share */
	const char *source;         /* where the budget came from: "MemAvailable", "cgroup memory.max", "Slurm" */
	int lanes;
	unsigned long long runner;  /* the simulator's runner: address space in bytes */
	unsigned long long compile; /* each compiler process */
};

/* The budget of this machine, as said above; 0 when nothing says. */
unsigned long long memlimit_budget(const char **source);
/* The limits of one of `lanes` gradings sharing `budget` (0: unknown, the caps). */
void memlimit_compute(unsigned long long budget, int lanes, struct memory_limits *m);
/* The limits of this grading: the machine's budget, shared by $CUDALINGS_LANES gradings (a batch sets it). */
void memlimit_here(struct memory_limits *m);
/* Of those, the simulator's runner's address space, and each compiler's. */
unsigned long long memlimit_runner(void);
unsigned long long memlimit_compile(void);
/* How many gradings fit in `budget` at once (at least 1). */
int memlimit_lanes_that_fit(unsigned long long budget);
/* "23.0 GiB" */
void memlimit_describe(unsigned long long bytes, char *out, int size);

#endif
