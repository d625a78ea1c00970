/*
 * What the runner and the judge share: the command line the grader gives
 * both, the inputs drawn from the seed, and writing framed messages.
 */
#ifndef CUDALINGS_CASES_H
#define CUDALINGS_CASES_H

#include <stddef.h>
#include <stdint.h>
#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CASES_MAX 32

struct run_config {
	uint64_t seed;
	int channel_fd;          /* where messages go */
	int ncases;              /* correctness cases, then the timed one if any */
	int dims[CASES_MAX][PROTO_MAX_DIMS];
	int timed;               /* index of the timed case, or -1; its second inputs are case timed + 1 */
	double threshold_ratio;  /* runner: re-measure when this close to it */
	double threshold_us;     /* runner: absolute threshold, 0 if none */
	double rtol, atol;       /* judge: the exercise's tolerance */
};

/* Parse the grader's arguments; on a mistake print why and return -1. */
int cases_parse(int argc, char **argv, struct run_config *cfg);

/* Declare the buffers of case `index` through the check. */
void cases_describe(const struct run_config *cfg, int index, struct check_case *c);

/* Fill input buffer `buffer` of case `index` from the seed. */
void cases_fill(const struct run_config *cfg, int index, int buffer, float *dst, size_t n);

/* Write one framed message; returns -1 if the grader has gone away. */
int proto_send(int fd, uint32_t type, uint32_t case_index, uint32_t aux,
	       const void *payload, uint64_t length);

/* proto_send of a printf-formatted text payload. */
int proto_sendf(int fd, uint32_t type, uint32_t case_index, uint32_t aux,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#ifdef __cplusplus
}
#endif
#endif
