#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

#if defined(__x86_64__)
#define SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

/*
 * Threads yes (clone with CLONE_THREAD: the CUDA runtime and OpenMP need
 * them), processes no: fork, vfork and a clone without CLONE_THREAD fail
 * with EPERM; clone3 says ENOSYS so the C library falls back to clone.
 * Root ignores RLIMIT_NPROC, so this is what stops a fork bomb in CI.
 */
static void
forbid_processes(void)
{
#ifdef SECCOMP_ARCH
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_fork
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fork, 6, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 0),
#endif
#ifdef __NR_vfork
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_vfork, 5, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 0),
#endif
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 2),
		/* clone's flags are its first argument; the low word holds CLONE_THREAD */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
	};
	struct sock_fprog program = { (unsigned short)(sizeof(filter) / sizeof(*filter)), filter };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
		prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
#endif
}

/*
 * The process groups of the children still running: a signal that ends the
 * grader (Ctrl-C, a terminal closed, kill) ends them first, so nothing it
 * started outlives it. A kill -9 cannot be caught: PR_SET_PDEATHSIG in each
 * child covers that.
 */
#define LIVE_MAX 64
static volatile pid_t live[LIVE_MAX];

static void
on_fatal_signal(int sig)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] > 0)
			kill(-live[i], SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
remember_live(pid_t pid, pid_t forget)
{
	static bool handlers;
	if (!handlers) {
		handlers = true;
		static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
		for (size_t i = 0; i < sizeof(fatal) / sizeof(*fatal); i++) {
			struct sigaction old;
			/* a signal the caller chose to ignore stays ignored */
			if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
				continue;
			struct sigaction sa = { .sa_handler = on_fatal_signal };
			sigemptyset(&sa.sa_mask);
			sigaction(fatal[i], &sa, NULL);
		}
	}
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == forget) {
			live[i] = pid;
			return;
		}
}

int
child_spawn(struct child *c, char *const argv[], const struct spawn_options *o)
{
	int out[2], chan[2] = { -1, -1 }, report[2];
	memset(&c->output, 0, sizeof(c->output));
	c->pid = -1;
	c->out_fd = c->channel_fd = -1;
	c->running = c->timed_out = c->output_truncated = false;
	c->status = 0;
	c->output_cap = o->output_cap ? o->output_cap : 256 * 1024;
	if (pipe2(out, O_CLOEXEC))
		return error("cannot create a pipe: %s", strerror(errno));
	if (o->channel && pipe2(chan, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	/* tells the parent why exec failed, closed by exec on success */
	if (pipe2(report, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		close_fd(&chan[0]);
		close_fd(&chan[1]);
		return error("cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		error("cannot start '%s': %s", argv[0], strerror(errno));
		close(out[0]);
		close(out[1]);
		close(report[0]);
		close(report[1]);
		close_fd(&chan[0]);
		close_fd(&chan[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* should the grader die, even by kill -9, its children die with it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(out[1], 2);
		int keep = -1;
		if (o->channel) {
			keep = o->channel_child_fd;
			dup2(chan[1], keep);
		}
		int report_fd = report[1];
		if (report_fd != keep && report_fd < 1000) {
			int moved = fcntl(report_fd, F_DUPFD_CLOEXEC, 1000);
			if (moved >= 0)
				report_fd = moved;
		}
		long max = sysconf(_SC_OPEN_MAX);
		for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
			if (fd != keep && fd != report_fd)
				close(fd);
		struct rlimit core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &core);
		if (o->memory_limit) {
			struct rlimit as = { o->memory_limit, o->memory_limit };
			setrlimit(RLIMIT_AS, &as);
		}
		if (o->no_fork)
			forbid_processes();
		if (o->cwd && chdir(o->cwd)) {
			dprintf(report_fd, "cannot enter '%s': %s", o->cwd, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		dprintf(report_fd, "cannot run '%s': %s", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* both sides, so the group exists before either goes on */
	remember_live(pid, 0);
	close(out[1]);
	close(report[1]);
	close_fd(&chan[1]);
	char why[512];
	ssize_t n;
	while ((n = read(report[0], why, sizeof(why) - 1)) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (n > 0) {
		why[n] = 0;
		waitpid(pid, NULL, 0);
		remember_live(0, pid);
		close(out[0]);
		close_fd(&chan[0]);
		return error("%s", why);
	}
	c->pid = pid;
	c->out_fd = out[0];
	c->channel_fd = chan[0];
	fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
	if (c->channel_fd >= 0)
		fcntl(c->channel_fd, F_SETFL, O_NONBLOCK);
	c->running = true;
	c->deadline = o->timeout_s > 0 ? now_seconds() + o->timeout_s : 0;
	return 0;
}

static void
keep_output(struct child *c, const char *data, size_t n)
{
	size_t room = c->output.len < c->output_cap ? c->output_cap - c->output.len : 0;
	if (n > room) {
		c->output_truncated = true;
		n = room;
	}
	if (n)
		buf_add(&c->output, data, n);
}

/* Read what is there; returns false at end of file or on an error. */
static bool
drain(struct child *c, int *fd, bool is_channel)
{
	char chunk[1 << 16];
	for (;;) {
		ssize_t n = read(*fd, chunk, sizeof(chunk));
		if (n > 0) {
			if (is_channel && c->on_channel)
				c->on_channel(c, chunk, (size_t)n);
			else if (!is_channel)
				keep_output(c, chunk, (size_t)n);
			/* the channel handler may have closed it (a forged message, say) */
			if (*fd < 0)
				return false;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		close_fd(fd);
		return false;
	}
}

static void
finish(struct child *c, int status)
{
	c->status = status;
	c->running = false;
	remember_live(0, c->pid);
	/* stragglers the child left behind in its group go too */
	kill(-c->pid, SIGKILL);
	if (c->out_fd >= 0)
		drain(c, &c->out_fd, false);
	if (c->channel_fd >= 0)
		drain(c, &c->channel_fd, true);
	close_fd(&c->out_fd);
	close_fd(&c->channel_fd);
}

void
child_kill(struct child *c)
{
	if (!c->running)
		return;
	kill(-c->pid, SIGKILL);
	int status = 0;
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	finish(c, status);
}

void
child_pump(struct child **kids, int n)
{
	for (;;) {
		struct pollfd fds[16];
		struct child *owner[16];
		bool is_channel[16];
		int nfds = 0, running = 0;
		double now = now_seconds(), wait = 0.05;
		for (int i = 0; i < n; i++) {
			struct child *c = kids[i];
			if (!c->running)
				continue;
			running++;
			if ((c->deadline && now >= c->deadline) ||
			    (c->cpu_deadline && child_cpu_seconds(c) >= c->cpu_deadline)) {
				c->timed_out = true;
				child_kill(c);
				running--;
				continue;
			}
			if (c->deadline && c->deadline - now < wait)
				wait = c->deadline - now;
			if (c->cpu_deadline && wait > 0.2)
				wait = 0.2;
			if (c->out_fd >= 0 && nfds < 16) {
				fds[nfds] = (struct pollfd){ c->out_fd, POLLIN, 0 };
				owner[nfds] = c;
				is_channel[nfds++] = false;
			}
			if (c->channel_fd >= 0 && nfds < 16) {
				fds[nfds] = (struct pollfd){ c->channel_fd, POLLIN, 0 };
				owner[nfds] = c;
				is_channel[nfds++] = true;
			}
		}
		if (!running)
			return;
		if (nfds && poll(fds, (nfds_t)nfds, (int)(wait * 1000) + 1) > 0) {
			for (int i = 0; i < nfds; i++)
				if (fds[i].revents && owner[i]->running) {
					int *fd = is_channel[i] ? &owner[i]->channel_fd : &owner[i]->out_fd;
					if (*fd == fds[i].fd)
						drain(owner[i], fd, is_channel[i]);
				}
		} else if (!nfds) {
			usleep((useconds_t)(wait * 1e6));
		}
		for (int i = 0; i < n; i++) {
			int status;
			if (kids[i]->running && waitpid(kids[i]->pid, &status, WNOHANG) == kids[i]->pid)
				finish(kids[i], status);
		}
	}
}

void
child_release(struct child *c)
{
	child_kill(c);
	buf_free(&c->output);
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

bool
child_succeeded(const struct child *c)
{
	return !c->timed_out && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
}

char *
child_describe_status(const struct child *c)
{
	if (c->timed_out)
		return xstrdup("ran past its time limit and was stopped");
	if (WIFEXITED(c->status))
		return xasprintf("exited with status %d", WEXITSTATUS(c->status));
	if (WIFSIGNALED(c->status))
		return xasprintf("was killed by signal %d (%s)", WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
	return xstrdup("ended in an unknown way");
}

bool
run_command(char *const argv[], const char *cwd, double timeout_s, struct buf *out)
{
	struct child c = { .label = argv[0] };
	struct spawn_options o = { .cwd = cwd, .timeout_s = timeout_s, .output_cap = 1 << 20 };
	if (child_spawn(&c, argv, &o)) {
		if (out)
			buf_addf(out, "cannot run '%s'\n", argv[0]);
		return false;
	}
	struct child *one = &c;
	child_pump(&one, 1);
	bool ok = child_succeeded(&c);
	if (out) {
		buf_add(out, c.output.data ? c.output.data : "", c.output.len);
		if (c.timed_out)
			buf_addf(out, "'%s' ran past its %.0f s limit and was stopped\n", argv[0], timeout_s);
	}
	child_release(&c);
	return ok;
}
