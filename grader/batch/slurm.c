/*
 * slurm: the job array that grades a class on a cluster, its merge job, and
 * what the tasks read back (see slurm.h). Everything goes through sbatch and
 * squeue, so any Slurm a login node can reach will do.
 */
#include "grader/batch/slurm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grader/batch/batch_rows.h"
#include "grader/engine/memlimit.h"
#include "lib/run.h"
#include "lib/util.h"
#include "common/root.h"

#define SLURM_COMMAND_S 120

/* 'text' for sh, whatever it holds */
static void
shell_quote(struct buf *b, const char *text)
{
	buf_addstr(b, "'");
	for (const char *p = text; *p; p++)
		buf_addstr(b, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
	buf_addstr(b, "'");
}

/* sbatch reads %A, %a, %j… in --output: a path's own % is written %% */
static char *
slurm_pattern(const char *path)
{
	struct buf b = BUF_INIT;
	for (const char *p = path; *p; p++)
		buf_addstr(&b, *p == '%' ? "%%" : (char[]){ *p, 0 });
	return buf_detach(&b);
}

static int
write_script(const char *path, const char *what, const struct slurm_submission *s, const char *mode,
	     const char *folder)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "#!/bin/sh\n# written by cudalings batch --slurm: %s\ncd ", what);
	shell_quote(&b, workbook_root());
	buf_addstr(&b, " || exit 3\nexec ");
	shell_quote(&b, s->self);
	buf_addstr(&b, " batch ");
	shell_quote(&b, s->exercise);
	buf_addstr(&b, " ");
	shell_quote(&b, s->dir);
	buf_addstr(&b, " --out ");
	shell_quote(&b, s->out);
	buf_addf(&b, " --backend %s --timeout %g --jobs %d %s ", build_backend_name(s->backend), s->timeout_s, s->lanes, mode);
	shell_quote(&b, folder);
	buf_addstr(&b, "\n");
	int status = batch_out_write(path, b.data, b.len);
	buf_free(&b);
	return status;
}

/* sbatch --parsable prints "JOBID" or "JOBID;CLUSTER"; NULL with the reason said when it refused */
static char *
sbatch(char **argv)
{
	struct buf out = BUF_INIT, err = BUF_INIT;
	int code = run_capture(argv, NULL, &out, &err);
	char *job = NULL;
	if (code == 0 && out.len && out.data[0] >= '0' && out.data[0] <= '9') {
		job = xstrdup(out.data);
		job[strspn(job, "0123456789")] = 0;
	} else {
		error("sbatch refused the job: %s", err.len ? err.data : out.len ? out.data : "it said nothing");
	}
	buf_free(&out);
	buf_free(&err);
	return job;
}

static void
scancel(const char *job)
{
	char *argv[] = { "scancel", (char *)job, NULL };
	run_command(argv, NULL, SLURM_COMMAND_S, NULL);
}

/* The students, NUL after each: a name may hold any byte but NUL and '/'. */
static int
write_students(const char *path, char *const *students, int n)
{
	struct buf b = BUF_INIT;
	for (int i = 0; i < n; i++)
		buf_add(&b, students[i], strlen(students[i]) + 1);
	int status = batch_out_write(path, b.data, b.len);
	buf_free(&b);
	return status;
}

int
slurm_submit(const struct slurm_submission *s, struct slurm_jobs *jobs)
{
	memset(jobs, 0, sizeof(*jobs));
	int tasks = s->tasks ? s->tasks : s->nstudents < SLURM_DEFAULT_TASKS ? s->nstudents : SLURM_DEFAULT_TASKS;
	if (tasks > s->nstudents)
		tasks = s->nstudents;
	char stamp[64];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	char *folder = xasprintf("%s/.slurm/%s-%d", s->out, stamp, (int)getpid());
	char *list = xasprintf("%s/students", folder), *task_sh = xasprintf("%s/task.sh", folder);
	char *merge_sh = xasprintf("%s/merge.sh", folder), *job_file = xasprintf("%s/job", folder);
	char *task_out = xasprintf("%s/task-%%a.out", folder), *merge_out = xasprintf("%s/merge.out", folder);
	char *task_pattern = slurm_pattern(task_out), *merge_pattern = slurm_pattern(merge_out);
	char *array = xasprintf("--array=0-%d", tasks - 1), *name = xasprintf("--job-name=cudalings-%s", s->exercise);
	/* two CPUs per grading on the simulator (a compiler beside the judge); a GPU per task on the GPU */
	char *cpus = xasprintf("--cpus-per-task=%d", 2 * s->lanes);
	char *mem = xasprintf("--mem=%lluM", (unsigned long long)s->lanes * (RUNNER_FLOOR >> 20));
	char *partition = s->partition ? xasprintf("--partition=%s", s->partition) : NULL;
	char *chdir_opt = xasprintf("--chdir=%s", workbook_root()), *output = xasprintf("--output=%s", task_pattern);
	char *job = NULL, *merge_job = NULL, *dependency = NULL, *merge_output = xasprintf("--output=%s", merge_pattern);
	int status = 3;
	if (mkdir_p(folder)) {
		error("cannot create '%s': %s", folder, strerror(errno));
		goto out;
	}
	if (write_students(list, s->students, s->nstudents) ||
	    write_script(task_sh, "a task of the array grades its slice of the class", s, "--slurm-task", folder))
		goto out;
	char *argv[16] = { "sbatch", "--parsable", name, array, cpus, mem, chdir_opt, output }, **a = argv + 8;
	if (partition)
		*a++ = partition;
	if (s->backend == BACKEND_GPU)
		*a++ = "--gres=gpu:1";
	*a++ = task_sh;
	if (!(job = sbatch(argv)))
		goto out;
	dependency = xasprintf("--dependency=afterany:%s", job);
	if (batch_out_write(job_file, job, strlen(job)) ||
	    write_script(merge_sh, "the gradebook and Gradescope's files, once every task has ended", s,
			 "--slurm-merge", folder)) {
		scancel(job);
		goto out;
	}
	char *merge_argv[12] = { "sbatch", "--parsable", name, "--cpus-per-task=1", "--mem=1024M", chdir_opt,
				 merge_output, dependency, "--kill-on-invalid-dep=no" };
	a = merge_argv + 9;
	if (partition)
		*a++ = partition;
	*a++ = merge_sh;
	if (!(merge_job = sbatch(merge_argv))) {
		scancel(job);
		goto out;
	}
	jobs->job = job;
	jobs->merge_job = merge_job;
	jobs->folder = folder;
	jobs->tasks = tasks;
	job = merge_job = folder = NULL;
	status = 0;
out:
	free(folder);
	free(list);
	free(task_sh);
	free(merge_sh);
	free(job_file);
	free(task_out);
	free(merge_out);
	free(task_pattern);
	free(merge_pattern);
	free(array);
	free(name);
	free(cpus);
	free(mem);
	free(partition);
	free(chdir_opt);
	free(output);
	free(merge_output);
	free(dependency);
	free(job);
	free(merge_job);
	return status;
}

void
slurm_say_submitted(const struct slurm_submission *s, const struct slurm_jobs *jobs)
{
	printf("submitted Slurm job %s: %d task%s grade %d submission%s on the %s backend%s%s;\n"
	       "job %s merges their rows into %s/gradebook.csv once every task has ended\n"
	       "follow them: squeue -j %s,%s; their logs: %s/\n",
	       jobs->job, jobs->tasks, jobs->tasks == 1 ? "" : "s", s->nstudents, s->nstudents == 1 ? "" : "s",
	       build_backend_name(s->backend), s->partition ? " in partition " : "", s->partition ? s->partition : "",
	       jobs->merge_job, s->out, jobs->job, jobs->merge_job, jobs->folder);
}

void
slurm_cancel(struct slurm_jobs *jobs)
{
	char *both = xasprintf("%s,%s", jobs->job, jobs->merge_job);
	scancel(both);
	free(both);
}

void
slurm_jobs_release(struct slurm_jobs *jobs)
{
	free(jobs->job);
	free(jobs->merge_job);
	free(jobs->folder);
	memset(jobs, 0, sizeof(*jobs));
}

char *
slurm_folder_job(const char *folder)
{
	char *path = xasprintf("%s/job", folder), *job = read_file(path, NULL);
	free(path);
	if (job)
		job[strspn(job, "0123456789")] = 0;
	if (job && !*job) {
		free(job);
		job = NULL;
	}
	return job;
}

/* A number from Slurm's environment, or -1. */
static int
env_number(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n = v && *v ? strtol(v, &end, 10) : -1;
	return n >= 0 && n <= 1 << 20 && !*end ? (int)n : -1;
}

int
slurm_task_students(const char *folder, char ***students, int *n, char **job, int *task)
{
	const char *array_job = getenv("SLURM_ARRAY_JOB_ID");
	int index = env_number("SLURM_ARRAY_TASK_ID"), count = env_number("SLURM_ARRAY_TASK_COUNT");
	if (!array_job || index < 0)
		return error("--slurm-task: not a task of a Slurm job array (no SLURM_ARRAY_JOB_ID or "
			     "SLURM_ARRAY_TASK_ID): cudalings batch --slurm submits them");
	if (count < 1) {
		/* an older Slurm: the array is 0-(N-1), so its last index says how many */
		int max = env_number("SLURM_ARRAY_TASK_MAX");
		count = max >= 0 ? max + 1 : -1;
	}
	if (count < 1 || index >= count)
		return error("--slurm-task: task %d of an array Slurm does not say the size of", index);
	size_t length;
	char *path = xasprintf("%s/students", folder), *text = read_file(path, &length);
	if (!text) {
		error("cannot read '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	*n = 0;
	*students = NULL;
	int i = 0;
	for (size_t at = 0; at < length; i++) {
		size_t len = strnlen(text + at, length - at);
		if (i % count == index) {
			*students = xrealloc(*students, sizeof(**students) * (size_t)(*n + 1));
			(*students)[(*n)++] = xasprintf("%.*s", (int)len, text + at);
		}
		at += len + 1;
	}
	free(text);
	*job = xstrdup(array_job);
	*task = index;
	return 0;
}

int
slurm_jobs_alive(const char *jobs, struct buf *states)
{
	char *argv[] = { "squeue", "--noheader", "--states=all", "--format=%T", "--jobs", (char *)jobs, NULL };
	struct buf out = BUF_INIT, err = BUF_INIT;
	int code = run_capture(argv, NULL, &out, &err);
	int alive = 0;
	buf_reset(states);
	if (code != 0) {
		/* a job Slurm has forgotten (past MinJobAge) is "invalid": it has ended */
		const char *said = err.len ? err.data : out.len ? out.data : "";
		bool forgotten = strstr(said, "Invalid job id") != NULL;
		alive = forgotten ? 0 : -1;
		char *first = xasprintf("%.*s", (int)strcspn(said, "\n"), said);
		buf_addstr(states, forgotten ? "ended" : *first ? first : "squeue failed");
		free(first);
	} else {
		static const char *const ended[] = { "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
						     "PREEMPTED", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE" };
		for (char *line = strtok(out.data, "\n"); line; line = strtok(NULL, "\n")) {
			bool over = false;
			for (size_t i = 0; i < ARRAY_SIZE(ended); i++)
				over |= !strcmp(line, ended[i]);
			if (!over && !strstr(states->data ? states->data : "", line)) {
				buf_addf(states, "%s%s", states->len ? ", " : "", line);
				alive = 1;
			}
		}
		if (!alive)
			buf_addstr(states, "ended");
	}
	buf_free(&out);
	buf_free(&err);
	return alive;
}
