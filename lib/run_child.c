/*
 * run_child: the child's side of a start, between fork and exec (or the
 * function a worker runs): its process group and death signal, its
 * descriptors, its limits (address space, no processes, no core files), its
 * environment. Only async-signal-safe calls after the fork; a failure is
 * said on the report pipe, which exec closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>

#include "lib/exit.h"
#include "lib/run_private.h"
#include "lib/util.h"

extern char **environ;

void
run_close_fd(int *fd)
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

void
run_close_others(int keep_a, int keep_b)
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

void
run_child_setup(const struct spawn_options *o, struct pipes *p, pid_t parent, bool will_exec)
{
	run_watch_child_signals();
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
	if (null > 2)
		close(null);
	struct rlimit core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &core);
	if (o->memory_limit) {
		struct rlimit as = { o->memory_limit, o->memory_limit };
		setrlimit(RLIMIT_AS, &as);
	}
	if (!will_exec) {
		/* a worker goes on as a copy of this program: the parent's ends and tables are not its own */
		int *parents[] = { &p->out[0], &p->out[1], &p->err[0], &p->err[1], &p->chan[0],
				   &p->report[0], &p->report[1], &p->in[0], &p->in[1] };
		for (size_t i = 0; i < sizeof(parents) / sizeof(*parents); i++)
			run_close_fd(parents[i]);
		run_watch_forget_parent();
		if (o->no_processes)
			forbid_processes();
	}
}

void
run_child_exec(char *const argv[], char *const envp[], const struct spawn_options *o, struct pipes *p)
{
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
	run_close_others(keep, report);
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

char **
run_child_environment(const char *const *changes)
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
