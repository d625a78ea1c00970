/*
 * The judge: built only from instructor code (the harness and the check),
 * it draws the same inputs as the runner and sends the CPU reference of every
 * output, with the error each element may carry, to the grader.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cases.h"

static int
judge_case(const struct run_config *cfg, int index)
{
	struct check_case c;
	void *inputs[PROTO_MAX_BUFFERS] = { 0 };
	struct proto_expect *expected[PROTO_MAX_BUFFERS] = { 0 };
	int status = 0;

	cases_describe(cfg, index, &c);
	for (int k = 0; k < c.nbuffers && !status; k++) {
		size_t n = check_elements(&c.spec[k]);
		if (c.spec[k].role == BUFFER_IN) {
			inputs[k] = malloc(check_bytes(&c.spec[k]) + 1);
			if (inputs[k])
				cases_fill(cfg, index, k, &c.spec[k], inputs[k]);
		} else {
			expected[k] = calloc(n + 1, sizeof(struct proto_expect));
		}
		if (!inputs[k] && !expected[k]) {
			fprintf(stderr, "judge: out of memory for case %d\n", index);
			status = -1;
		}
	}
	struct proto_case_info info;
	memset(&info, 0, sizeof(info));
	info.bytes = check_definition.bytes(&c);
	info.flops = check_definition.flops(&c);
	info.nbuffers = c.nbuffers;
	for (int k = 0; k < c.nbuffers; k++) {
		snprintf(info.buffers[k].name, sizeof(info.buffers[k].name), "%s", c.spec[k].name);
		info.buffers[k].is_output = c.spec[k].role == BUFFER_OUT;
		info.buffers[k].dtype = (uint32_t)c.spec[k].type;
		info.buffers[k].rows = c.spec[k].rows;
		info.buffers[k].cols = c.spec[k].cols;
	}
	if (!status && proto_send(cfg->channel_fd, MSG_CASE_INFO, (uint32_t)index, 0, &info, sizeof(info)))
		status = -1;
	/* a large timed output is judged on a sample: only its elements go (and are the runner's to send),
	   and the reference need compute only the rows they lie in */
	struct proto_chunk chunks[PROTO_MAX_BUFFERS][PROTO_SAMPLE_CHUNKS];
	int nchunks[PROTO_MAX_BUFFERS] = { 0 };
	unsigned char *rows[PROTO_MAX_BUFFERS] = { 0 };
	for (int k = 0; k < c.nbuffers && !status; k++) {
		if (!expected[k])
			continue;
		nchunks[k] = cases_sample(cfg, index, k, check_elements(&c.spec[k]), chunks[k]);
		if (nchunks[k] && c.spec[k].cols && (rows[k] = calloc(c.spec[k].rows + 1, 1)))
			for (int j = 0; j < nchunks[k]; j++)
				for (uint64_t i = chunks[k][j].start / c.spec[k].cols;
				     i <= (chunks[k][j].start + chunks[k][j].count - 1) / c.spec[k].cols; i++)
					rows[k][i] = 1;
		c.judged_rows[k] = rows[k];
	}
	if (!status)
		check_definition.reference(&c, (const void *const *)inputs, expected);
	for (int k = 0; k < c.nbuffers && !status; k++) {
		if (!expected[k])
			continue;
		size_t n = check_elements(&c.spec[k]);
		enum dtype t = c.spec[k].type;
		if (nchunks[k]) {
			const struct proto_chunk *chunk = chunks[k];
			size_t m = 0;
			for (int j = 0; j < nchunks[k]; j++)
				for (uint64_t i = chunk[j].start; i < chunk[j].start + chunk[j].count; i++)
					expected[k][m++] = expected[k][i];
			n = m;
			if (proto_send(cfg->channel_fd, MSG_SAMPLE, (uint32_t)index, (uint32_t)k, chunk,
				       (size_t)nchunks[k] * sizeof(*chunk)))
				status = -1;
		}
		/* the allowed error of each element; an integer is compared exactly */
		double rtol = isnan(cfg->rtol) ? dtype_default_rtol(t) : cfg->rtol;
		double atol = isnan(cfg->atol) ? 0 : cfg->atol;
		for (size_t i = 0; i < n; i++)
			expected[k][i].bound = dtype_is_float(t) ? rtol * expected[k][i].bound + atol : 0;
		if (!status && proto_send(cfg->channel_fd, MSG_EXPECTED, (uint32_t)index, (uint32_t)k,
					  expected[k], n * sizeof(struct proto_expect)))
			status = -1;
	}
	for (int k = 0; k < c.nbuffers; k++) {
		free(inputs[k]);
		free(expected[k]);
		free(rows[k]);
	}
	return status;
}

int
main(int argc, char **argv)
{
	struct run_config cfg;
	if (cases_parse(argc, argv, &cfg))
		return 2;
	for (int i = 0; i < cfg.ncases; i++)
		if (judge_case(&cfg, i))
			return 1;
	proto_send(cfg.channel_fd, MSG_DONE, 0, 0, NULL, 0);
	return 0;
}
