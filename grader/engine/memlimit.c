/*
 * memlimit: memory limits of a grading from the machine's memory and the
 * gradings that share it (see memlimit.h).
 */
#include "grader/engine/memlimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

/* A "Key:   123 kB" line of /proc/meminfo, in bytes; 0 when absent. */
static unsigned long long
meminfo_field(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, key, n) && line[n] == ':')
			return strtoull(line + n + 1, NULL, 10) * 1024;
	return 0;
}

/* A number of bytes in a file (cgroup's memory.max); 0 for "max", absent or unreadable. */
static unsigned long long
file_bytes(const char *path)
{
	char *text = read_file(path, NULL);
	unsigned long long v = 0;
	if (text && text[0] >= '0' && text[0] <= '9')
		v = strtoull(text, NULL, 10);
	free(text);
	/* cgroup v1 says "no limit" with a number near 2^63 */
	return v >= (1ull << 60) ? 0 : v;
}

/* Megabytes in an environment variable Slurm sets; 0 when unset. */
static unsigned long long
env_megabytes(const char *name)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long mb = v && *v ? strtoull(v, &end, 10) : 0;
	return mb && !*end ? mb << 20 : 0;
}

unsigned long long
memlimit_budget(const char **source)
{
	char *meminfo = read_file("/proc/meminfo", NULL);
	unsigned long long budget = meminfo ? meminfo_field(meminfo, "MemAvailable") : 0;
	*source = "MemAvailable";
	if (!budget && meminfo) {
		budget = meminfo_field(meminfo, "MemTotal");
		*source = "MemTotal";
	}
	free(meminfo);
	unsigned long long cgroup = file_bytes("/sys/fs/cgroup/memory.max");
	if (!cgroup)
		cgroup = file_bytes("/sys/fs/cgroup/memory/memory.limit_in_bytes");
	if (cgroup && (!budget || cgroup < budget)) {
		budget = cgroup;
		*source = "the cgroup's memory limit";
	}
	unsigned long long slurm = env_megabytes("SLURM_MEM_PER_NODE");
	if (!slurm) {
		const char *cpus = getenv("SLURM_CPUS_ON_NODE");
		slurm = env_megabytes("SLURM_MEM_PER_CPU") * (unsigned long long)(cpus ? atoi(cpus) : 1);
	}
	if (slurm && (!budget || slurm < budget)) {
		budget = slurm;
		*source = "the Slurm allocation";
	}
	return budget;
}

static unsigned long long
clamp(unsigned long long v, unsigned long long lo, unsigned long long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void
memlimit_compute(unsigned long long budget, int lanes, struct memory_limits *m)
{
	m->budget = budget;
	m->source = NULL;
	m->lanes = lanes < 1 ? 1 : lanes;
	unsigned long long share = budget ? budget / (unsigned long long)m->lanes : RUNNER_CAP;
	m->runner = clamp(share, RUNNER_FLOOR, RUNNER_CAP);
	m->compile = clamp(share / 2, COMPILE_FLOOR, COMPILE_CAP);
}

void
memlimit_here(struct memory_limits *m)
{
	const char *lanes = getenv("CUDALINGS_LANES"), *source;
	int n = lanes ? atoi(lanes) : 1;
	memlimit_compute(memlimit_budget(&source), n >= 1 && n <= 1024 ? n : 1, m);
	m->source = source;
}

unsigned long long
memlimit_runner(void)
{
	struct memory_limits m;
	memlimit_here(&m);
	return m.runner;
}

unsigned long long
memlimit_compile(void)
{
	struct memory_limits m;
	memlimit_here(&m);
	return m.compile;
}

int
memlimit_lanes_that_fit(unsigned long long budget)
{
	unsigned long long n = budget / GRADING_MEMORY;
	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

void
memlimit_describe(unsigned long long bytes, char *out, int size)
{
	snprintf(out, (size_t)size, "%.1f GiB", (double)bytes / (double)GiB);
}
