/* cudalings batch: the command line of a class's grading; grader/batch/batch.c grades it, grader/batch/slurm.c spreads it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grader/batch/batch.h"
#include "grader/batch/batch_late.h"
#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "lib/util.h"
#include "grader/batch/slurm.h"

#define MAX_JOBS 64

static const struct option_spec options[] = {
	OPT_REQUIRED("out", "OUT", "the folder the results go to (a row per student, the gradebook, Gradescope's files)"),
	OPT_VALUE("backend", "gpu|sim", "where to grade (default: the GPU when there is one, else the CPU simulator)"),
	OPT_VALUE("jobs", "N", "gradings at once (default: one per GPU, or per two cores on the simulator; "
			       "with --slurm, per task)"),
	OPT_VALUE("timeout", "S", "seconds one grading may take before it is stopped and retried next run (default 900)"),
	OPT_SWITCH("slurm", "submit a Slurm job array that grades the class, and a job that merges its rows "
			    "(give --backend)"),
	OPT_VALUE("partition", "P", "with --slurm: the partition (default: the cluster's)"),
	OPT_VALUE("tasks", "N", "with --slurm: the array's tasks (default: one per submission, at most 16)"),
	OPT_VALUE("deadline", "TIME", "flag rows submitted after TIME late (2026-11-27 23:59, local time unless it ends "
				      "in Z or +HH:MM); a submission's time is its file's, or --submitted's"),
	OPT_VALUE("submitted", "CSV", "with --deadline: each student's submission time, lines of student,time"),
	OPT_SWITCH("regrade", "grade again the STUDENTs named after DIR, whatever their rows say"),
	OPT_SWITCH("regrade-all", "grade every student again"),
	OPT_VALUE("slurm-task", "FOLDER", "run by the job array: grade this task's share"),
	OPT_VALUE("slurm-merge", "FOLDER", "run by the merge job: the gradebook from the tasks' rows"),
	OPTIONS_END,
};

/* A whole number in [lo, hi], or -1 after saying what the option takes. */
static long
number_option(const char *option, const char *value, long lo, long hi, const char *what)
{
	char *end;
	long n = strtol(value, &end, 10);
	if (end == value || *end || n < lo || n > hi) {
		command_usage_error("--%s takes %s, %ld to %ld, not '%s'", option, what, lo, hi, value);
		return -1;
	}
	return n;
}

static int
check_slurm_options(const struct parsed_args *a, struct batch_options *bo, const char *backend)
{
	const char *partition = options_value(a, "partition"), *tasks = options_value(a, "tasks");
	int modes = bo->slurm + !!bo->slurm_task + !!bo->slurm_merge;
	if (modes > 1)
		return command_usage_error("--slurm, --slurm-task and --slurm-merge are three steps: give one");
	if (!bo->slurm && (partition || tasks))
		return command_usage_error("--%s goes with --slurm", partition ? "partition" : "tasks");
	if (tasks && (bo->tasks = (int)number_option("tasks", tasks, 1, SLURM_MAX_TASKS, "a number of tasks")) < 0)
		return -1;
	if (partition && (!*partition || strspn(partition, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
							  "0123456789_.-,") != strlen(partition)))
		return command_usage_error("--partition takes a Slurm partition's name (or several, with commas), not '%s'",
				   partition);
	bo->partition = partition;
	/* the login node's hardware says nothing of the nodes' */
	if (modes && !backend)
		return command_usage_error("--slurm: say where the tasks grade: --backend gpu (a GPU per task) or "
				   "--backend sim (CPU partitions)");
	if (bo->slurm && bo->backend == BACKEND_GPU && bo->jobs > 1)
		return command_usage_error("--slurm --backend gpu: one GPU per task, so one grading at once: more tasks "
				   "(--tasks) grade more at once, not --jobs");
	const char *folder = bo->slurm_task ? bo->slurm_task : bo->slurm_merge;
	if (folder && !is_directory(folder))
		return command_usage_error("--slurm-%s: '%s' is not a folder --slurm wrote", bo->slurm_task ? "task" : "merge",
				   folder);
	return 0;
}

/* --deadline TIME [--submitted CSV]: rows flagged late. */
static int
check_deadline(const struct parsed_args *a, struct batch_options *bo)
{
	const char *deadline = options_value(a, "deadline");
	bo->submitted = options_value(a, "submitted");
	bo->deadline = 0;
	if (bo->submitted && !deadline)
		return command_usage_error("--submitted goes with --deadline: the times say which rows are late");
	if (deadline && (bo->deadline = batch_late_parse_time(deadline)) <= 0)
		return command_usage_error("--deadline takes a time like '2026-11-27 23:59' (local), '2026-11-27T23:59Z' or "
				   "'2026-11-27 23:59+01:00', not '%s'", deadline);
	if (bo->submitted && !file_exists(bo->submitted))
		return command_usage_error("--submitted: '%s' is not a file (lines of student,time)", bo->submitted);
	return 0;
}

/* --regrade STUDENT… (the operands after DIR) or --regrade-all: rows graded again whatever they hold. */
static int
check_regrade(const struct parsed_args *a, struct batch_options *bo)
{
	bool some = options_given(a, "regrade");
	bo->regrade_all = options_given(a, "regrade-all");
	bo->regrade = a->operands + 2;
	bo->nregrade = a->noperands - 2;
	if (bo->nregrade && !some)
		return command_usage_error("batch takes an exercise and a folder; '%s' is one too many (students to grade "
				   "again go after --regrade)", a->operands[2]);
	if (some && bo->regrade_all)
		return command_usage_error("--regrade names students, --regrade-all takes every one: give one of them");
	if (some && !bo->nregrade)
		return command_usage_error("--regrade: name the students to grade again after the folder, e.g. "
				   "'cudalings batch NAME DIR --out OUT --regrade ann bob'");
	/* the submission marks the rows graded again; a task or the merge reads them as they are */
	if ((some || bo->regrade_all) && (bo->slurm_task || bo->slurm_merge))
		return command_usage_error("--regrade%s goes with a batch here or --slurm, not with the job's own steps",
				   bo->regrade_all ? "-all" : "");
	return 0;
}

static int
cmd_batch(const struct parsed_args *a)
{
	const char *name = a->operands[0], *dir = a->operands[1], *backend = options_value(a, "backend");
	const char *jobs = options_value(a, "jobs"), *timeout = options_value(a, "timeout");
	struct batch_options bo = { .timeout_s = 900, .out = options_value(a, "out"), .slurm = options_given(a, "slurm"),
				    .slurm_task = options_value(a, "slurm-task"),
				    .slurm_merge = options_value(a, "slurm-merge") };
	char *end;
	if (jobs && (bo.jobs = (int)number_option("jobs", jobs, 1, MAX_JOBS, "a number of lanes")) < 0)
		return EXIT_USAGE;
	if (timeout && ((bo.timeout_s = strtod(timeout, &end)), end == timeout || *end || !isfinite(bo.timeout_s) ||
							    bo.timeout_s <= 0 || bo.timeout_s > 86400))
		return command_usage_error("--timeout takes seconds, more than 0 and at most a day, not '%s'", timeout);
	if (backend && strcmp(backend, "gpu") && strcmp(backend, "sim"))
		return command_usage_error("--backend is 'gpu' or 'sim', not '%s'", backend);
	bo.backend = backend && !strcmp(backend, "gpu") ? BACKEND_GPU : BACKEND_SIM;
	if (check_slurm_options(a, &bo, backend) || check_regrade(a, &bo) || check_deadline(a, &bo))
		return EXIT_USAGE;
	if (!is_directory(dir))
		return command_usage_error("batch: '%s' is not a folder of submissions", dir);
	/* what is graded is known before anything is created: no out folder for an unknown exercise or a demo */
	struct exercise *e = command_find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	if (!e->file)
		return command_usage_error("'%s' is a demo: it has variants to compare, not an exercise a class submits "
				   "(cudalings list shows the exercises)", name);
	if (batch_check_out(bo.out, dir))
		return EXIT_USAGE;
	/* the submitter and the merge grade nothing: the GPU is the nodes' to have */
	if (!bo.slurm && !bo.slurm_merge) {
		struct grade_options o = { 0 };
		int status = command_choose_backend(&o, backend);
		if (status)
			return status;
		bo.backend = o.backend;
	}
	if (build_headers(command_manifest()))
		return EXIT_ENVIRONMENT;
	bo.dir = dir;
	return batch_run(e, &bo);
}

const struct command command_batch = {
	.name = "batch",
	.operands = "NAME DIR [STUDENT…]",
	.min_operands = 2,
	.max_operands = -1,
	.missing = "say what to grade and where the results go, e.g. "
		   "'cudalings batch transpose submissions/ --out results/'",
	.takes = "an exercise and a folder",
	.summary = "grade a class, here or as a Slurm job array",
	.run = cmd_batch,
	.options = options,
};
