/*
 * run: child processes (see run.h). Owns the fork and the exec, the pipes
 * and their reading, the deadlines and the groups to kill when this program
 * ends. Calls only lib/ (buffers, errors, files).
 */
#include "lib/run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>

#include "common/exit.h"
#include "lib/util.h"

extern char **environ;

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* ------------------------------------------------------------ the groups to kill at the end */

/*
 * The process groups of the children started with clean_on_exit and still
 * running: a signal that ends this program (Ctrl-C, a terminal closed, kill)
 * or its exit ends them first. A kill -9 cannot be caught: PR_SET_PDEATHSIG
 * in each child covers that.
 */
#define LIVE_MAX 64
static volatile pid_t live[LIVE_MAX];
static pid_t live_owner; /* a copy of this table in a forked process is not its own */
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction previous[sizeof(fatal_signals) / sizeof(*fatal_signals)];

/* the files half made by those children (a compiler's output under a name of its own), removed with them */
#define DOOMED_MAX 8
static char *volatile doomed[DOOMED_MAX];

static void
kill_live(void)
{
	if (getpid() != live_owner)
		return;
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] > 0)
			kill(-live[i], SIGKILL);
}

void
run_remove_on_signal(char *path, bool remove)
{
	for (int i = 0; i < DOOMED_MAX; i++)
		if (doomed[i] == (remove ? NULL : path)) {
			doomed[i] = remove ? path : NULL;
			return;
		}
}

static void
on_fatal_signal(int sig)
{
	kill_live();
	for (int i = 0; i < DOOMED_MAX; i++)
		if (doomed[i])
			unlink(doomed[i]);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &previous[i], NULL);
	raise(sig);
}

static void
remember_live(pid_t pid, pid_t forget)
{
	if (!live_owner) {
		live_owner = getpid();
		atexit(kill_live);
		for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++) {
			/* a signal the program chose to ignore stays ignored */
			if (sigaction(fatal_signals[i], NULL, &previous[i]) || previous[i].sa_handler == SIG_IGN)
				continue;
			struct sigaction sa = { .sa_handler = on_fatal_signal };
			sigemptyset(&sa.sa_mask);
			sigaction(fatal_signals[i], &sa, NULL);
		}
	}
	for (int i = 0; i < LIVE_MAX; i++)
		if (live[i] == forget) {
			live[i] = pid;
			return;
		}
}

/* ------------------------------------------------------------ the watchdog, for a kill -9 */

static void close_others(int keep_a, int keep_b);

/*
 * PR_SET_PDEATHSIG reaches only a direct child: after a kill -9 of this
 * program nvcc dies, but its cudafe++, cicc and ptxas, and g++'s cc1plus, go
 * on (1 GB and growing, on a compile that never ends). A watchdog process,
 * started with the first child, holds one end of a socket whose other end
 * only this program (and copies of it forked without exec) holds; every
 * child's process group is named to it when it starts and when it ends. When
 * the socket closes, however this program ended, it kills every group still
 * named, strays and grandchildren included (they keep the group), and exits.
 * It has a group of its own, so a kill of this program's group spares it,
 * ignores the terminal's signals (they are this program's to act on), and
 * is called cudalings-watch.
 */
#define WATCHED_MAX 1024
static int watch_fd = -1;

static void __attribute__((noreturn))
watchdog(int fd)
{
	/* named apart from the program it watches, in ps and for tests that count that program */
	prctl(PR_SET_NAME, "cudalings-watch", 0, 0, 0);
	setpgid(0, 0);
	const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU };
	for (size_t i = 0; i < sizeof(ignored) / sizeof(*ignored); i++)
		signal(ignored[i], SIG_IGN);
	/* nothing of this program's held open: a pipe reading its output must see its end */
	int null = open("/dev/null", O_RDWR);
	for (int i = 0; i < 3 && null >= 0; i++)
		dup2(null, i);
	/* tests hold the watchdog here, to show the program waits for it (tests/lib/test_run.c) */
	const char *pause_ms = getenv("CUDALINGS_WATCHDOG_PAUSE_MS");
	if (pause_ms)
		usleep(1000 * atoi(pause_ms));
	close_others(fd, -1);
	/* tell the watched program it may go on: until now this process shared every descriptor it had open,
	 * a batch's flock on its folder's .lock among them, and a batch run next would have found it held */
	int32_t ready = 0;
	(void)!send(fd, &ready, sizeof(ready), MSG_NOSIGNAL);
	static pid_t groups[WATCHED_MAX];
	int32_t word;
	for (;;) {
		ssize_t n = recv(fd, &word, sizeof(word), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(word))
			break;
		/* +group: started; -group: ended */
		pid_t g = word > 0 ? word : -word, want = word > 0 ? 0 : g, put = word > 0 ? g : 0;
		for (int i = 0; i < WATCHED_MAX; i++)
			if (groups[i] == want) {
				groups[i] = put;
				break;
			}
	}
	for (int i = 0; i < WATCHED_MAX; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGKILL);
	_exit(0);
}

/* Name a group to the watchdog: started (pid > 0) or ended (< 0). Starts it the first time. */
static void
watch_group(int32_t word)
{
	if (watch_fd < 0 && word > 0) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
			return;
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			close(sv[0]);
			watchdog(sv[1]);
		}
		close(sv[1]);
		int32_t ready = -1;
		if (pid > 0)
			while (recv(sv[0], &ready, sizeof(ready), 0) < 0 && errno == EINTR)
				;
		if (pid < 0 || ready != 0) {
			close(sv[0]);
			return;
		}
		watch_fd = sv[0];
	}
	if (watch_fd >= 0)
		while (send(watch_fd, &word, sizeof(word), MSG_NOSIGNAL) < 0 && errno == EINTR)
			;
}

/* ------------------------------------------------------------ in the child, between fork and exec */

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

/* Close every descriptor from 3 up but the two kept. */
static void
close_others(int keep_a, int keep_b)
{
	long max = sysconf(_SC_OPEN_MAX);
	int limit = max > 0 && max < 65536 ? (int)max : 65536;
#ifdef SYS_close_range
	int lo = keep_a < keep_b ? keep_a : keep_b, hi = keep_a < keep_b ? keep_b : keep_a;
	unsigned from = 3;
	int keep[2] = { lo, hi };
	bool ok = true;
	for (int i = 0; i < 2 && ok; i++) {
		if (keep[i] < (int)from)
			continue;
		if (keep[i] > (int)from)
			ok = syscall(SYS_close_range, from, (unsigned)keep[i] - 1, 0) == 0;
		from = (unsigned)keep[i] + 1;
	}
	if (ok && syscall(SYS_close_range, from, ~0u, 0) == 0)
		return;
#endif
	for (int fd = 3; fd < limit; fd++)
		if (fd != keep_a && fd != keep_b)
			close(fd);
}

struct pipes {
	int out[2], err[2], chan[2], report[2], in[2];
};

/* The child's side: only async-signal-safe calls until exec; a failure is said on the report pipe. */
static void __attribute__((noreturn))
become(char *const argv[], char *const envp[], const struct spawn_options *o, struct pipes *p, pid_t parent)
{
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(*fatal_signals); i++)
		signal(fatal_signals[i], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	int null = open("/dev/null", O_RDWR);
	if (!o->foreground) {
		setpgid(0, 0);
		/* should the parent die, even by kill -9, its children die with it */
		prctl(PR_SET_PDEATHSIG, o->death_signal ? o->death_signal : SIGKILL);
		if (getppid() != parent)
			_exit(EXIT_CANNOT_RUN);
		dup2(o->input_pipe ? p->in[0] : null, 0);
	}
	switch (o->out) {
	case SPAWN_CAPTURE: dup2(p->out[1], 1); break;
	case SPAWN_TO_FD: dup2(o->out_fd, 1); break;
	case SPAWN_DISCARD: dup2(null, 1); break;
	default: break;
	}
	switch (o->err) {
	case SPAWN_CAPTURE: dup2(p->err[1], 2); break;
	case SPAWN_TO_FD: dup2(o->err_fd, 2); break;
	case SPAWN_DISCARD: dup2(null, 2); break;
	case SPAWN_TO_STDOUT: dup2(1, 2); break;
	default: break;
	}
	int keep = -1;
	if (o->channel) {
		keep = o->channel_child_fd;
		dup2(p->chan[1], keep);
	}
	int report = p->report[1];
	if (report == keep || report < 1000) {
		int moved = fcntl(report, F_DUPFD_CLOEXEC, 1000);
		if (moved >= 0)
			report = moved;
	}
	close_others(keep, report);
	struct rlimit core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &core);
	if (o->memory_limit) {
		struct rlimit as = { o->memory_limit, o->memory_limit };
		setrlimit(RLIMIT_AS, &as);
	}
	if (o->no_processes)
		forbid_processes();
	if (o->cwd && chdir(o->cwd)) {
		dprintf(report, "cannot enter '%s': %s", o->cwd, strerror(errno));
		_exit(EXIT_CANNOT_RUN);
	}
	execvpe(argv[0], argv, envp);
	dprintf(report, "cannot run '%s': %s", argv[0], strerror(errno));
	_exit(EXIT_CANNOT_RUN);
}

/* ------------------------------------------------------------ starting */

/* The environment the child gets: ours with the changes, built before fork (no malloc after it). */
static char **
child_environment(const char *const *changes)
{
	size_t n = 0, extra = 0;
	while (environ[n])
		n++;
	for (const char *const *c = changes; c && *c; c++)
		extra++;
	char **env = xcalloc(n + extra + 1, sizeof(char *));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		bool changed = false;
		for (const char *const *c = changes; c && *c && !changed; c++) {
			size_t len = strcspn(*c, "=");
			changed = !strncmp(environ[i], *c, len) && environ[i][len] == '=';
		}
		if (!changed)
			env[m++] = environ[i];
	}
	for (const char *const *c = changes; c && *c; c++)
		if (strchr(*c, '='))
			env[m++] = (char *)*c;
	return env;
}

static void
close_pipes(struct pipes *p)
{
	int *all[] = { &p->out[0], &p->out[1], &p->err[0], &p->err[1], &p->chan[0], &p->chan[1],
		       &p->report[0], &p->report[1], &p->in[0], &p->in[1] };
	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++)
		close_fd(all[i]);
}

int
child_spawn(struct child *c, char *const argv[], const struct spawn_options *o)
{
	struct pipes p = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
	memset(&c->output, 0, sizeof(c->output));
	memset(&c->errors, 0, sizeof(c->errors));
	c->pid = -1;
	c->out_fd = c->err_fd = c->channel_fd = c->in_fd = -1;
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
	char **envp = o->env ? child_environment(o->env) : environ;
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		become(argv, envp, o, &p, parent);
	if (envp != environ)
		free(envp);
	if (pid < 0) {
		int why = errno;
		close_pipes(&p);
		return error("cannot start '%s': %s", argv[0], strerror(why));
	}
	if (!o->foreground) {
		setpgid(pid, pid); /* both sides, so the group exists before either goes on */
	}
	if (c->clean_on_exit)
		remember_live(pid, 0);
	close_fd(&p.out[1]);
	close_fd(&p.err[1]);
	close_fd(&p.chan[1]);
	close_fd(&p.report[1]);
	close_fd(&p.in[0]);
	if (!o->foreground)
		watch_group(pid);
	/* exec closes the report pipe: end of file is success, a message is why it failed */
	char why[512];
	ssize_t n;
	while ((n = read(p.report[0], why, sizeof(why) - 1)) < 0 && errno == EINTR)
		;
	close_fd(&p.report[0]);
	if (n > 0) {
		why[n] = 0;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		if (c->clean_on_exit)
			remember_live(0, pid);
		if (!o->foreground)
			watch_group(-pid);
		close_pipes(&p);
		return error("%s", why);
	}
	c->pid = pid;
	c->out_fd = p.out[0];
	c->err_fd = p.err[0];
	c->channel_fd = p.chan[0];
	c->in_fd = p.in[1];
	int *ours[] = { &c->out_fd, &c->err_fd, &c->channel_fd };
	for (size_t i = 0; i < 3; i++)
		if (*ours[i] >= 0)
			fcntl(*ours[i], F_SETFL, O_NONBLOCK);
	c->running = true;
	c->started = now_seconds();
	c->deadline = o->timeout_s > 0 ? c->started + o->timeout_s : 0;
	c->cpu_deadline = o->cpu_limit_s > 0 ? o->cpu_limit_s : 0;
	return 0;
}

/* ------------------------------------------------------------ reading and waiting */

/* What a kill aims at: the child's whole group, or the child alone when it runs in ours (foreground). */
static pid_t
group_of(const struct child *c)
{
	return c->foreground ? c->pid : -c->pid;
}

static void
keep_output(struct child *c, struct buf *b, const char *data, size_t n)
{
	size_t room = b->len < c->output_cap ? c->output_cap - b->len : 0;
	if (n > room) {
		c->output_truncated = true;
		n = room;
	}
	if (n)
		buf_add(b, data, n);
}

/* Read what is there from one of the child's pipes; false at end of file or on an error. */
static bool
drain(struct child *c, int *fd)
{
	char chunk[1 << 16];
	bool channel = fd == &c->channel_fd;
	for (;;) {
		ssize_t n = read(*fd, chunk, sizeof(chunk));
		if (n > 0) {
			if (channel && c->on_channel)
				c->on_channel(c, chunk, (size_t)n);
			else if (!channel)
				keep_output(c, fd == &c->out_fd ? &c->output : &c->errors, chunk, (size_t)n);
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

/* It has ended: its group's strays go too, and what it wrote is read. */
static void
finish(struct child *c, int status)
{
	c->status = status;
	c->running = false;
	if (c->clean_on_exit)
		remember_live(0, c->pid);
	kill(group_of(c), SIGKILL);
	if (!c->foreground)
		watch_group(-c->pid);
	close_fd(&c->in_fd);
	int *fds[] = { &c->out_fd, &c->err_fd, &c->channel_fd };
	for (size_t i = 0; i < 3; i++) {
		if (*fds[i] >= 0)
			drain(c, fds[i]);
		close_fd(fds[i]);
	}
}

static void
reap(struct child *c, bool block)
{
	int status = 0;
	pid_t r;
	while ((r = waitpid(c->pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	if (r == c->pid || (r < 0 && errno == ECHILD))
		finish(c, r == c->pid ? status : 0);
}

int
child_send_input(struct child *c, const void *data, size_t n, bool last)
{
	if (c->in_fd < 0)
		return -1;
	/* a child that has gone would get us a SIGPIPE: held back, and taken if it came */
	sigset_t pipe_only, before;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &before);
	const char *at = data;
	int result = 0;
	while (n && result == 0) {
		ssize_t w = write(c->in_fd, at, n);
		if (w > 0)
			at += w, n -= (size_t)w;
		else if (w < 0 && errno != EINTR)
			result = -1;
	}
	if (result && errno == EPIPE) {
		struct timespec now = { 0, 0 };
		sigtimedwait(&pipe_only, NULL, &now);
	}
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (last || result)
		close_fd(&c->in_fd);
	return result;
}

void
child_kill(struct child *c)
{
	if (!c->running)
		return;
	kill(group_of(c), SIGKILL);
	reap(c, true);
}

void
child_stop(struct child *c, double grace_s)
{
	if (!c->running)
		return;
	kill(group_of(c), SIGTERM);
	for (double until = now_seconds() + grace_s; c->running && now_seconds() < until;) {
		reap(c, false);
		if (c->running)
			usleep(10000);
	}
	child_kill(c);
}

int
child_pollfds(const struct child *c, struct pollfd *fds)
{
	int n = 0;
	const int ours[] = { c->out_fd, c->err_fd, c->channel_fd };
	for (size_t i = 0; i < 3; i++)
		if (ours[i] >= 0)
			fds[n++] = (struct pollfd){ .fd = ours[i], .events = POLLIN };
	return n;
}

int
child_pump(struct child **kids, int n, double wait_s)
{
	double until = wait_s >= 0 ? now_seconds() + wait_s : 0;
	for (;;) {
		struct pollfd fds[48];
		struct child *owner[48];
		int nfds = 0, running = 0;
		double now = now_seconds(), wait = 0.05;
		for (int i = 0; i < n; i++) {
			struct child *c = kids[i];
			if (!c->running)
				continue;
			if ((c->deadline && now >= c->deadline) ||
			    (c->cpu_deadline && child_cpu_seconds(c) >= c->cpu_deadline)) {
				c->timed_out = true;
				child_kill(c);
				continue;
			}
			running++;
			if (c->deadline && c->deadline - now < wait)
				wait = c->deadline - now;
			if (c->cpu_deadline && wait > 0.2)
				wait = 0.2;
			if (nfds + 3 <= (int)(sizeof(fds) / sizeof(*fds))) {
				int added = child_pollfds(c, fds + nfds);
				for (int k = 0; k < added; k++)
					owner[nfds + k] = c;
				nfds += added;
			}
		}
		if (!running)
			return 0;
		if (wait_s >= 0 && until - now < wait)
			wait = until - now > 0 ? until - now : 0;
		if (nfds && poll(fds, (nfds_t)nfds, (int)(wait * 1000) + (wait > 0)) > 0) {
			for (int i = 0; i < nfds; i++) {
				struct child *c = owner[i];
				if (!fds[i].revents || !c->running)
					continue;
				int *fd = fds[i].fd == c->out_fd ? &c->out_fd
					: fds[i].fd == c->err_fd ? &c->err_fd
					: fds[i].fd == c->channel_fd ? &c->channel_fd : NULL;
				if (fd)
					drain(c, fd);
			}
		} else if (!nfds && wait > 0) {
			usleep((useconds_t)(wait * 1e6));
		}
		running = 0;
		for (int i = 0; i < n; i++)
			if (kids[i]->running) {
				reap(kids[i], false);
				running += kids[i]->running;
			}
		if (wait_s >= 0 && now_seconds() >= until)
			return running;
	}
}

int
child_wait(struct child *c)
{
	child_pump(&c, 1, -1);
	return child_exit_code(c);
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

pid_t
run_fork(void)
{
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(EXIT_CANNOT_RUN);
	}
	return pid;
}

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
		buf_add(out, buf_str(&c.output), c.output.len);
	if (err)
		buf_add(err, buf_str(&c.errors), c.errors.len);
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
