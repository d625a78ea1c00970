#include "harness/cases.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness/rng.h"

static int
parse_dims(const char *text, int *dims)
{
	char *end;
	int n = 0;
	memset(dims, 0, sizeof(int) * PROTO_MAX_DIMS);
	for (const char *p = text; *p; p = end + (*end == ',')) {
		long v = strtol(p, &end, 10);
		if (end == p || v <= 0 || v > (1L << 30) || n == PROTO_MAX_DIMS)
			return -1;
		dims[n++] = (int)v;
		if (*end && *end != ',')
			return -1;
	}
	return n ? 0 : -1;
}

/*
 * Keep the seed where a submission's host code, which on the simulator runs in the runner's process, cannot
 * read it: its own page, without access but while cases_seed reads it, and the command line's copy wiped.
 * (The submission may neither call mprotect nor name this file's functions.) A page that cannot be had
 * leaves the seed readable, never the grading undone.
 */
static bool seed_in_vault;

static void
keep_seed(struct run_config *cfg, char *text)
{
	static uint64_t plain;
	long page = sysconf(_SC_PAGESIZE);
	void *vault = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	seed_in_vault = vault != MAP_FAILED;
	cfg->seed = seed_in_vault ? (uint64_t *)vault : &plain;
	*(volatile uint64_t *)cfg->seed = strtoull(text, NULL, 0);
	if (seed_in_vault)
		mprotect(vault, (size_t)page, PROT_NONE);
	explicit_bzero(text, strlen(text));
}

uint64_t
cases_seed(const struct run_config *cfg)
{
	if (!cfg->seed)
		return 0;
	long page = sysconf(_SC_PAGESIZE);
	bool opened = seed_in_vault && mprotect(cfg->seed, (size_t)page, PROT_READ) == 0;
	uint64_t seed = *(volatile uint64_t *)cfg->seed;
	if (opened)
		mprotect(cfg->seed, (size_t)page, PROT_NONE);
	return seed;
}

int
cases_parse(int argc, char **argv, struct run_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->channel_fd = 1;
	cfg->timed = -1;
	cfg->measured = -1;
	cfg->threshold_ratio = 1.25;
	cfg->check_round = 0;
	cfg->rtol = cfg->atol = NAN;
	for (int i = 0; i < CASES_MAX; i++)
		cfg->stream[i] = (uint32_t)i;
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!val) {
			fprintf(stderr, "harness: '%s' needs a value\n", opt);
			return -1;
		}
		i++;
		if (!strcmp(opt, "--seed"))
			keep_seed(cfg, argv[i]);
		else if (!strcmp(opt, "--channel"))
			cfg->channel_fd = atoi(val);
		else if (!strcmp(opt, "--threshold"))
			cfg->threshold_ratio = atof(val);
		else if (!strcmp(opt, "--threshold-us"))
			cfg->threshold_us = atof(val);
		else if (!strcmp(opt, "--launch-cpu-limit"))
			cfg->launch_cpu_limit = atof(val);
		else if (!strcmp(opt, "--under-tool"))
			cfg->under_tool = atoi(val) != 0;
		else if (!strcmp(opt, "--timing-ways"))
			cfg->timing_ways = atoi(val) != 0;
		else if (!strcmp(opt, "--wait-go"))
			cfg->wait_go = atoi(val) != 0;
		else if (!strcmp(opt, "--figures-only"))
			cfg->figures_only = atoi(val) != 0;
		else if (!strcmp(opt, "--profile-warm-up"))
			cfg->profile_warm_up = atoi(val) != 0;
		else if (!strcmp(opt, "--wait-timing"))
			cfg->wait_timing = atoi(val) != 0;
		else if (!strcmp(opt, "--student"))
			cfg->student = val;
		else if (!strcmp(opt, "--launcher"))
			cfg->launcher = val;
		else if (!strcmp(opt, "--device-code"))
			cfg->device_code = val;
		else if (!strcmp(opt, "--plans"))
			cfg->plans = val;
		else if (!strcmp(opt, "--rtol"))
			cfg->rtol = atof(val);
		else if (!strcmp(opt, "--atol"))
			cfg->atol = atof(val);
		else if (!strcmp(opt, "--case") || !strcmp(opt, "--timed") || !strcmp(opt, "--measured")) {
			if (cfg->ncases == CASES_MAX || parse_dims(val, cfg->dims[cfg->ncases])) {
				fprintf(stderr, "harness: bad case '%s'\n", val);
				return -1;
			}
			if (opt[2] == 'm')
				cfg->measured = cfg->ncases;
			if (opt[2] == 't') {
				/* the timed case is judged twice: its first launch, and one of
				   its rounds, as case timed + 1 (see cases_round_stream) */
				if (cfg->ncases + 1 == CASES_MAX || cfg->timed >= 0) {
					fprintf(stderr, "harness: too many cases\n");
					return -1;
				}
				cfg->timed = cfg->ncases;
				memcpy(cfg->dims[cfg->ncases + 1], cfg->dims[cfg->ncases], sizeof(cfg->dims[0]));
				cfg->ncases++;
			}
			cfg->ncases++;
		} else if (!strcmp(opt, "--estimate-at")) {
			if (parse_dims(val, cfg->estimate_at)) {
				fprintf(stderr, "harness: bad case '%s'\n", val);
				return -1;
			}
		} else if (!strcmp(opt, "--check-round")) {
			char *end;
			long round = strtol(val, &end, 10);
			if (*end || round < 0 || round > 1000000) {
				fprintf(stderr, "harness: bad round '%s'\n", val);
				return -1;
			}
			cfg->check_round = (int)round;
		} else {
			fprintf(stderr, "harness: unknown option '%s'\n", opt);
			return -1;
		}
	}
	if (cfg->timed >= 0)
		cfg->stream[cfg->timed + 1] = cases_round_stream(cfg, cfg->check_round);
	return 0;
}

int
cases_sample(const struct run_config *cfg, int index, int buffer, uint64_t n, struct proto_chunk *chunks)
{
	const uint64_t chunk = PROTO_SAMPLE_CHUNK, count = PROTO_SAMPLE_CHUNKS;
	bool timed = cfg->timed >= 0 && (index == cfg->timed || index == cfg->timed + 1);
	if (!timed || n <= 2 * chunk * count)
		return 0;
	/* a chunk from each of `count` stretches of whole chunks, where the seed says; the last is the
	   output's end, so a kernel that drops its last partial block cannot hide there */
	uint64_t slots = n / chunk, seed = cases_seed(cfg);
	for (uint64_t s = 0; s < count; s++) {
		uint64_t lo = s * slots / count, hi = (s + 1) * slots / count;
		uint64_t pick = lo + rng_mix(seed ^ rng_mix((uint64_t)index << 40 ^ (uint64_t)buffer << 32 ^ s)) % (hi - lo);
		chunks[s].start = s == 0 ? 0 : s == count - 1 ? n - chunk : pick * chunk;
		chunks[s].count = chunk;
	}
	return (int)count;
}

uint32_t
cases_round_stream(const struct run_config *cfg, int round)
{
	/* past every case's own stream, one per round */
	return (uint32_t)(CASES_MAX + cfg->timed + round);
}

void
cases_describe(const struct run_config *cfg, int index, struct check_case *c)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->dims, cfg->dims[index], sizeof(c->dims));
	check_definition.buffers(c);
}

void
cases_fill(const struct run_config *cfg, int index, int buffer, const struct buffer_spec *spec, void *dst)
{
	uint64_t stream = rng_stream(cases_seed(cfg), cfg->stream[index], (uint32_t)buffer);
	size_t n = check_elements(spec), size = dtype_size(spec->type);
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		rng_draw(spec->type, spec->lo, spec->hi, stream, i, (char *)dst + i * size);
}

static int
write_all(int fd, const void *data, size_t length)
{
	const char *p = (const char *)data;
	while (length) {
		ssize_t n = write(fd, p, length);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		length -= (size_t)n;
	}
	return 0;
}

int
proto_send(int fd, uint32_t type, uint32_t case_index, uint32_t aux,
	   const void *payload, uint64_t length)
{
	struct proto_header h = { PROTO_MAGIC, type, case_index, aux, length };
	if (write_all(fd, &h, sizeof(h)))
		return -1;
	return length ? write_all(fd, payload, length) : 0;
}

int
proto_sendf(int fd, uint32_t type, uint32_t case_index, uint32_t aux, const char *fmt, ...)
{
	char text[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(text))
		n = sizeof(text) - 1;
	return proto_send(fd, type, case_index, aux, text, (uint64_t)n);
}
