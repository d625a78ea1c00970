#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* After fork, in the child: only async-signal-safe calls until exec. */
static void
child_exec(char *const argv[], const char *cwd, int out, int err)
{
	int null = open("/dev/null", O_RDONLY);

	/* its own group, so that one kill stops the grader (which stops its runners); and should the
	   workbook die, even by kill -9, the grader goes too */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(err, 2);
	if (cwd && chdir(cwd) < 0) {
		dprintf(2, "cannot enter '%s': %s\n", cwd, strerror(errno));
		_exit(127);
	}
	execvp(argv[0], argv);
	dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

int
job_start(struct job *j, char *const argv[], const char *cwd)
{
	int out[2], err[2];
	pid_t pid;

	memset(j, 0, sizeof(*j));
	j->out = j->err = -1;
	if (pipe2(out, O_CLOEXEC) < 0)
		return error("cannot make a pipe: %s", strerror(errno));
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(out[0]);
		close(out[1]);
		return error("cannot make a pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		return error("cannot start '%s': %s", argv[0], strerror(errno));
	}
	if (pid == 0)
		child_exec(argv, cwd, out[1], err[1]);
	/* the parent sets the group too, so a kill right away cannot miss it */
	setpgid(pid, pid);
	close(out[1]);
	close(err[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	j->pid = pid;
	j->out = out[0];
	j->err = err[0];
	j->started_ms = now_ms();
	return 0;
}

int
job_pollfds(const struct job *j, struct pollfd *fds)
{
	int n = 0;

	if (j->out >= 0)
		fds[n++] = (struct pollfd){ .fd = j->out, .events = POLLIN };
	if (j->err >= 0)
		fds[n++] = (struct pollfd){ .fd = j->err, .events = POLLIN };
	return n;
}

/* Read what is there without blocking; close the pipe at end of file. */
static void
drain(int *fd, struct sbuf *sb)
{
	char buf[4096];
	ssize_t n;

	while (*fd >= 0) {
		n = read(*fd, buf, sizeof(buf));
		if (n > 0) {
			sb_add(sb, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		close(*fd);
		*fd = -1;
	}
}

static void
split_lines(struct job *j, bool all, void (*on_line)(void *, const char *), void *ctx)
{
	char *start = j->err_part.buf, *nl;
	size_t used;

	if (!start)
		return;
	while ((nl = strchr(start, '\n'))) {
		*nl = '\0';
		if (on_line)
			on_line(ctx, start);
		start = nl + 1;
	}
	if (all && *start) {
		if (on_line)
			on_line(ctx, start);
		start += strlen(start);
	}
	used = (size_t)(start - j->err_part.buf);
	memmove(j->err_part.buf, start, j->err_part.len - used + 1);
	j->err_part.len -= used;
}

bool
job_pump(struct job *j, void (*on_line)(void *ctx, const char *line), void *ctx)
{
	int status;
	pid_t r;

	if (!j->pid)
		return true;
	drain(&j->out, &j->out_text);
	drain(&j->err, &j->err_part);
	split_lines(j, false, on_line, ctx);
	r = waitpid(j->pid, &status, WNOHANG);
	if (r == 0)
		return false;
	/*
	 * It has exited.  What it wrote is in the pipes already; a grandchild
	 * that still holds them open must not keep us waiting, so read what is
	 * there and stop.
	 */
	drain(&j->out, &j->out_text);
	drain(&j->err, &j->err_part);
	split_lines(j, true, on_line, ctx);
	if (j->out >= 0)
		close(j->out);
	if (j->err >= 0)
		close(j->err);
	j->out = j->err = -1;
	j->status = r < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	/* its process group may still hold a stray runner: do not leave it behind */
	kill(-j->pid, SIGKILL);
	j->pid = 0;
	return true;
}

void
job_kill(struct job *j)
{
	if (!j->pid)
		return;
	kill(-j->pid, SIGTERM);
	for (int i = 0; i < 50; i++) {
		if (waitpid(j->pid, NULL, WNOHANG) == j->pid) {
			kill(-j->pid, SIGKILL);
			goto reaped;
		}
		usleep(10000);
	}
	kill(-j->pid, SIGKILL);
	waitpid(j->pid, NULL, 0);
reaped:
	if (j->out >= 0)
		close(j->out);
	if (j->err >= 0)
		close(j->err);
	j->out = j->err = -1;
	j->status = -1;
	j->pid = 0;
}

void
job_free(struct job *j)
{
	job_kill(j);
	sb_free(&j->out_text);
	sb_free(&j->err_part);
}

static void
add_line(void *ctx, const char *line)
{
	sb_addf(ctx, "%s\n", line);
}

int
run_capture(char *const argv[], const char *cwd, char **out, char **errp)
{
	struct job j;
	struct sbuf err = SBUF_INIT;
	int status;

	*out = NULL;
	if (errp)
		*errp = NULL;
	if (job_start(&j, argv, cwd) < 0)
		return -1;
	while (!job_pump(&j, add_line, &err)) {
		struct pollfd fds[2];
		int n = job_pollfds(&j, fds);

		/* poll until the pipes close; then wait for the exit itself */
		if (n)
			poll(fds, (nfds_t)n, 1000);
		else
			usleep(10000);
	}
	if (errp)
		*errp = sb_detach(&err);
	else
		sb_add(&j.out_text, err.buf ? err.buf : "", err.len);
	*out = sb_detach(&j.out_text);
	status = j.status;
	sb_free(&err);
	job_free(&j);
	return status;
}
