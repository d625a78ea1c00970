/* cudalings batch: the command line of a class's grading; grader/batch.c grades it. */
#include <math.h>
#include <stdlib.h>

#include "batch.h"
#include "command.h"
#include "common/exit.h"
#include "lib/util.h"

static const struct option_spec options[] = {
	OPT_REQUIRED("out", "OUT", "the folder the results go to (a row per student, the gradebook, Gradescope's files)"),
	OPT_VALUE("backend", "gpu|sim", "where to grade (default: the GPU when there is one, else the CPU simulator)"),
	OPT_VALUE("jobs", "N", "gradings at once (default: one per GPU, or per two cores on the simulator)"),
	OPT_VALUE("timeout", "S", "seconds one grading may take before its row says so (default 900)"),
	OPTIONS_END,
};

static int
cmd_batch(const struct parsed_args *a)
{
	const char *name = a->operands[0], *dir = a->operands[1];
	const char *jobs = option_value(a, "jobs"), *timeout = option_value(a, "timeout");
	struct batch_options bo = { .timeout_s = 900, .out = option_value(a, "out") };
	char *end;
	if (jobs && ((bo.jobs = (int)strtol(jobs, &end, 10)) < 1 || *end))
		return usage_error("--jobs takes a number of lanes ≥ 1, not '%s'", jobs);
	if (timeout && ((bo.timeout_s = strtod(timeout, &end)), *end || !isfinite(bo.timeout_s) ||
							    bo.timeout_s <= 0 || bo.timeout_s > 86400))
		return usage_error("--timeout takes seconds, more than 0 and at most a day, not '%s'", timeout);
	if (!is_directory(dir))
		return usage_error("batch: '%s' is not a folder of submissions", dir);
	if (batch_check_out(bo.out, dir))
		return EXIT_USAGE;
	struct exercise *e = find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	struct grade_options o = { 0 };
	int status = choose_backend(&o, option_value(a, "backend"));
	if (status)
		return status;
	if (build_headers(workbook_manifest()))
		return EXIT_ENVIRONMENT;
	bo.dir = dir;
	bo.backend = o.backend;
	return batch_run(e, &bo);
}

const struct command command_batch = {
	.name = "batch",
	.operands = "NAME DIR",
	.min_operands = 2,
	.max_operands = 2,
	.missing = "say what to grade and where the results go, e.g. "
		   "'cudalings batch transpose submissions/ --out results/'",
	.takes = "an exercise and a folder",
	.summary = "grade a class",
	.run = cmd_batch,
	.options = options,
};
