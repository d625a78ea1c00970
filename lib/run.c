/*
 * run: starting a child (see run.h) and knowing how it ended. The fork, the
 * pipes made for it and the report of a failed exec are here; the child's
 * side is run_child.c's, reading and reaping run_pump.c's, what dies with
 * this program run_watch.c's, a pool of children pool.c's. Calls only lib/.
 */
#include "lib/run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/exit.h"
#include "lib/run_private.h"
#include "lib/util.h"

extern char **environ;

static void
close_pipes(struct pipes *p)
{
	int *all[] = { &p->out[0], &p->out[1], &p->err[0], &p->err[1], &p->chan[0], &p->chan[1],
		       &p->report[0], &p->report[1], &p->in[0], &p->in[1] };
	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		run_close_fd(all[i]);
}

/* Start argv, or fn(arg) in a copy of this program when argv is NULL. */
static int
start(struct child *c, char *const argv[], child_fn *fn, void *arg, const struct spawn_options *o)
{
	struct pipes p = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
	const char *what = argv ? argv[0] : c->label ? c->label : "a worker";
	buf_init(&c->output);
	buf_init(&c->errors);
	c->pid = -1;
	c->out_fd = c->err_fd = c->channel_fd = c->in_fd = c->pid_fd = -1;
	c->running = c->timed_out = c->output_truncated = false;
	c->status = 0;
	c->output_cap = o->output_cap ? o->output_cap : 256 * 1024;
	c->clean_on_exit = o->clean_on_exit && !o->foreground;
	c->foreground = o->foreground;
	if ((o->out == SPAWN_CAPTURE && pipe2(p.out, O_CLOEXEC)) || (o->err == SPAWN_CAPTURE && pipe2(p.err, O_CLOEXEC)) ||
	    (o->channel && pipe2(p.chan, O_CLOEXEC)) || (o->input_pipe && pipe2(p.in, O_CLOEXEC)) ||
	    pipe2(p.report, O_CLOEXEC)) {
		int why = errno;
		close_pipes(&p);
		return error("cannot create a pipe: %s", strerror(why));
	}
	char **envp = argv && o->env ? run_child_environment(o->env) : environ;
	/* the watchdog is there before the child: the child names its group to it itself, before it runs a
	   thing, so a kill -9 of this program right after the fork cannot leave it unnamed (a worker shares it
	   too: what it starts is named to it) */
	if (!o->foreground)
		run_watch_ensure();
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		if (!o->foreground) {
			setpgid(0, 0);
			run_watch_name_self();
		}
		run_child_setup(o, &p, parent, argv != NULL);
		if (argv)
			run_child_exec(argv, envp, o, &p);
		int code = fn(arg, p.chan[1]);
		fflush(NULL);
		_exit(code);
	}
	if (envp != environ)
		free(envp);
	if (pid < 0) {
		int why = errno;
		close_pipes(&p);
		return error("cannot start '%s': %s", what, strerror(why));
	}
	if (!o->foreground)
		setpgid(pid, pid); /* both sides, so the group exists before either goes on */
	c->pid = pid;
	run_watch_started(c);
	run_close_fd(&p.out[1]);
	run_close_fd(&p.err[1]);
	run_close_fd(&p.chan[1]);
	run_close_fd(&p.report[1]);
	run_close_fd(&p.in[0]);
	/* exec closes the report pipe (a worker closes it at once): end of file is success, a message why it failed */
	char why[512];
	ssize_t n;
	while ((n = read(p.report[0], why, sizeof(why) - 1)) < 0 && errno == EINTR)
		;
	run_close_fd(&p.report[0]);
	if (n > 0) {
		why[n] = 0;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		run_watch_ended(c);
		c->pid = -1;
		close_pipes(&p);
		return error("%s", why);
	}
	c->out_fd = p.out[0];
	c->err_fd = p.err[0];
	c->channel_fd = p.chan[0];
	c->in_fd = p.in[1];
	int *ours[] = { &c->out_fd, &c->err_fd, &c->channel_fd };
	for (size_t i = 0; i < 3; i++)
		if (*ours[i] >= 0)
			fcntl(*ours[i], F_SETFL, O_NONBLOCK);
#ifdef SYS_pidfd_open
	/* close-on-exec as it comes; our own unreaped child, so its PID cannot be another's yet */
	c->pid_fd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	c->running = true;
	c->started = now_seconds();
	c->deadline = o->timeout_s > 0 ? c->started + o->timeout_s : 0;
	c->cpu_deadline = o->cpu_limit_s > 0 ? o->cpu_limit_s : 0;
	return 0;
}

int
child_spawn(struct child *c, char *const argv[], const struct spawn_options *o)
{
	return start(c, argv, NULL, NULL, o);
}

int
child_start_function(struct child *c, child_fn *fn, void *arg, const struct spawn_options *o)
{
	return start(c, NULL, fn, arg, o);
}

void
child_release(struct child *c)
{
	child_kill(c); /* which closes its pipes; a child never started has none open */
	buf_free(&c->output);
	buf_free(&c->errors);
}

/* ------------------------------------------------------------ how it ended */

int
child_exit_code(const struct child *c)
{
	if (c->running)
		return -1;
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	if (WIFSIGNALED(c->status))
		return 128 + WTERMSIG(c->status);
	return -1;
}

bool
child_succeeded(const struct child *c)
{
	return !c->running && !c->timed_out && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
}

char *
child_describe_status(const struct child *c)
{
	if (c->timed_out)
		return xstrdup("ran past its time limit and was stopped");
	if (c->running)
		return xstrdup("is still running");
	if (WIFEXITED(c->status))
		return xasprintf("exited with status %d", WEXITSTATUS(c->status));
	if (WIFSIGNALED(c->status))
		return xasprintf("was killed by signal %d (%s)", WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
	return xstrdup("ended in an unknown way");
}

double
child_cpu_seconds(const struct child *c)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)c->pid);
	char *text = read_file(path, NULL);
	/* the fields after the command's closing parenthesis: state is 3rd, utime 14th, stime 15th */
	char *close = text ? strrchr(text, ')') : NULL;
	unsigned long long utime = 0, stime = 0;
	bool ok = close && sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
				   &stime) == 2;
	free(text);
	long ticks = sysconf(_SC_CLK_TCK);
	return ok && ticks > 0 ? (double)(utime + stime) / (double)ticks : 0;
}

/* ------------------------------------------------------------ the common cases */

int
run_capture(char *const argv[], const struct spawn_options *options, struct buf *out, struct buf *err)
{
	struct child c = { .label = argv[0] };
	struct spawn_options o = { 0 };
	if (options)
		o = *options;
	if (!o.output_cap)
		o.output_cap = 16 << 20;
	o.out = out ? SPAWN_CAPTURE : SPAWN_DISCARD;
	o.err = err ? SPAWN_CAPTURE : out ? SPAWN_TO_STDOUT : SPAWN_DISCARD;
	struct buf *said = err ? err : out;
	if (child_spawn(&c, argv, &o)) {
		if (said)
			buf_addf(said, "%s\n", last_error());
		return EXIT_CANNOT_RUN;
	}
	int code = child_wait(&c);
	if (out)
		buf_add(out, c.output.data, c.output.len);
	if (err)
		buf_add(err, c.errors.data, c.errors.len);
	if (c.timed_out && said)
		buf_addf(said, "'%s' ran past its %g s limit and was stopped\n", argv[0], o.timeout_s);
	child_release(&c);
	return code;
}

bool
run_command(char *const argv[], const char *cwd, double timeout_s, struct buf *out)
{
	struct spawn_options o = { .cwd = cwd, .timeout_s = timeout_s, .clean_on_exit = true };
	return run_capture(argv, &o, out, NULL) == 0;
}
