/*
 * batch_lock: the out folder's lock and the students' claims, so that
 * batches, Slurm tasks and merges never write one folder at cross purposes.
 * The protocol is in batch_lock.h.
 */
#include "grader/batch/batch_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "grader/batch/batch_rows.h"
#include "lib/file.h"
#include "lib/util.h"
#include "grader/batch/slurm.h"

/* How long a task waits for the submitter to name the job, or the merge for the tasks to let go. */
#define JOIN_WAIT_S 120
#define MERGE_WAIT_S 600

/* The record in OUT/.lock: "key value" lines, for people as much as for the code. */
struct holder {
	char kind[16];   /* "batch", "slurm"; "" when free */
	long pid;
	char host[256];
	char started[64];
	char job[64], merge_job[64];
	int tasks;
};

static void
read_holder(int fd, struct holder *h)
{
	char text[2048];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	memset(h, 0, sizeof(*h));
	text[n > 0 ? n : 0] = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *value = strchr(line, ' ');
		if (!value)
			continue;
		*value++ = 0;
		if (!strcmp(line, "holder"))
			snprintf(h->kind, sizeof(h->kind), "%s", value);
		else if (!strcmp(line, "pid"))
			h->pid = strtol(value, NULL, 10);
		else if (!strcmp(line, "host"))
			snprintf(h->host, sizeof(h->host), "%s", value);
		else if (!strcmp(line, "started"))
			snprintf(h->started, sizeof(h->started), "%s", value);
		else if (!strcmp(line, "job"))
			snprintf(h->job, sizeof(h->job), "%s", value);
		else if (!strcmp(line, "merge_job"))
			snprintf(h->merge_job, sizeof(h->merge_job), "%s", value);
		else if (!strcmp(line, "tasks"))
			h->tasks = (int)strtol(value, NULL, 10);
	}
}

static int
write_holder(int fd, const struct holder *h)
{
	struct buf b = BUF_INIT;
	if (*h->kind) {
		buf_addf(&b, "holder %s\npid %ld\nhost %s\nstarted %s\n", h->kind, h->pid, h->host, h->started);
		if (*h->job)
			buf_addf(&b, "job %s\nmerge_job %s\ntasks %d\n", h->job, h->merge_job, h->tasks);
	}
	int status = ftruncate(fd, 0) || (b.len && pwrite(fd, b.data, b.len, 0) != (ssize_t)b.len) ? -1 : 0;
	if (!status)
		fsync(fd);
	buf_free(&b);
	return status;
}

static void
this_process(struct holder *h, const char *kind)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->kind, sizeof(h->kind), "%s", kind);
	h->pid = (long)getpid();
	if (gethostname(h->host, sizeof(h->host) - 1))
		strcpy(h->host, "?");
	time_t now = time(NULL);
	strftime(h->started, sizeof(h->started), "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
}

/* "process 123 on vm, started 2026-11-25 15:26:35 UTC" or "Slurm job 45 (8 tasks, merge job 46, …)" */
static char *
describe_holder(const struct holder *h)
{
	if (!strcmp(h->kind, "slurm"))
		return xasprintf("Slurm job %s (%d task%s, then merge job %s; submitted by process %ld on %s, %s)",
				 h->job, h->tasks, h->tasks == 1 ? "" : "s", h->merge_job, h->pid, h->host, h->started);
	return xasprintf("process %ld on %s, started %s", h->pid, h->host, h->started);
}

static bool
lock_unsupported(int err)
{
	return err == ENOLCK || err == EOPNOTSUPP || err == ENOSYS || err == EINVAL;
}

static int
open_lock(const char *out, struct batch_lock *l)
{
	char *path = xasprintf("%s/.lock", out);
	l->out = xstrdup(out);
	l->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	int status = l->fd < 0 ? (error("cannot create '%s': %s", path, strerror(errno)), 3) : 0;
	free(path);
	return status;
}

/* Try flock every fifth of a second for up to `wait_s`; 0, 1 when still held, 3 when the file system cannot. */
static int
lock_within(int fd, int how, double wait_s, const char *out)
{
	double until = now_seconds() + wait_s;
	for (;;) {
		if (flock(fd, how | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			if (lock_unsupported(errno))
				return error("the file system of '%s' cannot lock files (flock: %s): put the out "
					     "folder on one that can", out, strerror(errno)), 3;
			return error("cannot lock '%s/.lock': %s", out, strerror(errno)), 3;
		}
		if (now_seconds() >= until)
			return 1;
		struct timespec pause = { 0, 200 * 1000 * 1000 };
		nanosleep(&pause, NULL);
	}
}

static void
fail_lock(struct batch_lock *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->out);
	l->out = NULL;
}

int
batch_lock_take(const char *out, const char *job, struct batch_lock *l)
{
	int status = open_lock(out, l);
	if (status)
		return fail_lock(l), status;
	struct holder h;
	status = lock_within(l->fd, LOCK_EX, job ? MERGE_WAIT_S : 0, out);
	if (status == 1) {
		read_holder(l->fd, &h);
		char *who = *h.kind ? describe_holder(&h) : xstrdup("a process that has not said who it is");
		error("another batch is writing to '%s': %s; wait for it to finish, or give this one another --out",
		      out, who);
		free(who);
		return fail_lock(l), 2;
	}
	if (status)
		return fail_lock(l), status;
	read_holder(l->fd, &h);
	if (job) {
		/* the merge keeps its job's record until it has merged */
		if (!strcmp(h.kind, "slurm") && !strcmp(h.job, job))
			return 0;
		char *who = *h.kind ? describe_holder(&h) : xstrdup("nobody: it was cleared");
		error("'%s' is not Slurm job %s's any more (its lock names %s): nothing to merge", out, job, who);
		free(who);
		return fail_lock(l), 2;
	}
	if (!strcmp(h.kind, "slurm")) {
		/* no task holds the lock now, but the job may wait in the queue, or its merge may */
		char *jobs = xasprintf("%s,%s", h.job, h.merge_job), *who = describe_holder(&h);
		struct buf why = BUF_INIT;
		int alive = slurm_jobs_alive(jobs, &why);
		if (alive > 0)
			status = (error("'%s' is Slurm's: %s is %s; wait for it (squeue -j %s), or stop it "
					"(scancel %s), or give this batch another --out", out, who, why.data, jobs, jobs), 2);
		else if (alive < 0)
			status = (error("'%s' was given to %s, and Slurm cannot say whether it still runs (%s): when "
					"it has ended, remove '%s/.lock'", out, who, why.data, out), 3);
		else
			fprintf(stderr, "cudalings: taking '%s' over from %s, which Slurm no longer runs\n", out, who);
		free(jobs);
		free(who);
		buf_free(&why);
		if (status)
			return fail_lock(l), status;
	} else if (!strcmp(h.kind, "batch")) {
		/* its flock died with it: the process ended without clearing its record */
		char *who = describe_holder(&h);
		fprintf(stderr, "cudalings: taking '%s' over from %s, which ended before it finished\n", out, who);
		free(who);
	}
	this_process(&h, "batch");
	if (write_holder(l->fd, &h))
		return error("cannot write '%s/.lock': %s", out, strerror(errno)), fail_lock(l), 3;
	return 0;
}

int
batch_lock_hand_to_jobs(struct batch_lock *l, const char *job, const char *merge_job, int tasks)
{
	struct holder h;
	this_process(&h, "slurm");
	snprintf(h.job, sizeof(h.job), "%s", job);
	snprintf(h.merge_job, sizeof(h.merge_job), "%s", merge_job);
	h.tasks = tasks;
	int status = write_holder(l->fd, &h);
	if (status)
		error("cannot write '%s/.lock': %s", l->out, strerror(errno));
	batch_lock_release(l, false);
	return status;
}

int
batch_lock_join(const char *out, const char *job, struct batch_lock *l)
{
	int status = open_lock(out, l);
	if (status)
		return fail_lock(l), status;
	/* the submitter holds the lock until it has named the job: a task that starts at once waits for it */
	status = lock_within(l->fd, LOCK_SH, JOIN_WAIT_S, out);
	struct holder h;
	read_holder(l->fd, &h);
	if (!status && !strcmp(h.kind, "slurm") && !strcmp(h.job, job))
		return 0;
	if (status != 3) {
		char *who = *h.kind ? describe_holder(&h) : xstrdup("nobody");
		status = (error("'%s' is not Slurm job %s's: its lock names %s", out, job, who), 2);
		free(who);
	}
	return fail_lock(l), status;
}

static bool
dot_file(const char *name, void *ctx)
{
	return name[0] == '.';
}

/* The claims are left as files (removing a locked file races); the folder's only writer clears them. */
static void
clear_claims(const char *out)
{
	char *dir = xasprintf("%s/.work/claims", out);
	remove_files_in(dir, dot_file, NULL);
	free(dir);
}

void
batch_lock_release(struct batch_lock *l, bool clear)
{
	if (l->fd < 0)
		return;
	if (clear) {
		struct holder free_record = { 0 };
		clear_claims(l->out);
		write_holder(l->fd, &free_record);
	}
	fail_lock(l);
}

int
batch_lock_claim(const char *out, const char *student)
{
	char *dir = xasprintf("%s/.work/claims", out), *path = batch_row_path(out, ".work/claims/%s", student);
	int fd = mkdir_p(dir) ? -1 : open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		fd = -2;
	} else if (flock(fd, LOCK_EX | LOCK_NB)) {
		/* another process grades them; a file system without locks was refused with the out folder's */
		close(fd);
		fd = -1;
	}
	free(dir);
	free(path);
	return fd;
}

void
batch_lock_unclaim(int fd)
{
	if (fd >= 0)
		close(fd);
}
