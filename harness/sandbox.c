/*
 * The runner's sandbox: what a submission may do once it is in the process.
 *
 * The runner opens the GPU (or configures the simulator) first, then enters
 * the sandbox, and only then loads the student's shared object: the
 * submission's code, its constructors included, runs under the system-call
 * filter from its first instruction. A refused call stops the program with a
 * message that names the call (SIGSYS, caught here), so the verdict says what
 * happened instead of "it crashed".
 */
#define _GNU_SOURCE /* the registers in ucontext_t */
#include "harness/sandbox.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#include "harness/cases.h"

struct refusal {
	int nr;
	const char *name, *why;
};

#define CALL(name, why) { SCMP_SYS(name), #name, why }

/* Refused outright, on both backends. */
static const struct refusal always[] = {
	CALL(execve, "a submission may not run programs"),
	CALL(execveat, "a submission may not run programs"),
	CALL(fork, "a submission may not start processes"),
	CALL(vfork, "a submission may not start processes"),
	CALL(ptrace, "a submission may not trace processes"),
	CALL(process_vm_readv, "a submission may not read other processes"),
	CALL(process_vm_writev, "a submission may not write other processes"),
	CALL(kill, "a submission may not signal processes"),
	CALL(setsid, "a submission may not leave the grader's process group"),
	CALL(setpgid, "a submission may not leave the grader's process group"),
	CALL(socket, "a submission may not use the network"),
	CALL(creat, "a submission may not write files"),
	CALL(rename, "a submission may not rename files"),
	CALL(renameat, "a submission may not rename files"),
	CALL(renameat2, "a submission may not rename files"),
	CALL(unlink, "a submission may not delete files"),
	CALL(unlinkat, "a submission may not delete files"),
	CALL(rmdir, "a submission may not delete folders"),
	CALL(mkdir, "a submission may not create folders"),
	CALL(mkdirat, "a submission may not create folders"),
	CALL(link, "a submission may not create files"),
	CALL(linkat, "a submission may not create files"),
	CALL(symlink, "a submission may not create files"),
	CALL(symlinkat, "a submission may not create files"),
	CALL(chmod, "a submission may not change files"),
	CALL(fchmodat, "a submission may not change files"),
	CALL(chown, "a submission may not change files"),
	CALL(fchownat, "a submission may not change files"),
	CALL(lchown, "a submission may not change files"),
	CALL(truncate, "a submission may not change files"),
	CALL(mknod, "a submission may not create files"),
	CALL(mknodat, "a submission may not create files"),
	CALL(setxattr, "a submission may not change files"),
	CALL(lsetxattr, "a submission may not change files"),
	CALL(removexattr, "a submission may not change files"),
	CALL(lremovexattr, "a submission may not change files"),
	CALL(unshare, "a submission may not change its namespaces"),
	CALL(setns, "a submission may not change its namespaces"),
	CALL(mount, "a submission may not mount file systems"),
	CALL(umount2, "a submission may not mount file systems"),
	CALL(chroot, "a submission may not change its root"),
	CALL(pivot_root, "a submission may not change its root"),
	CALL(bpf, "a submission may not load kernel programs"),
	CALL(perf_event_open, "a submission may not read performance counters"),
	CALL(init_module, "a submission may not load kernel modules"),
	CALL(finit_module, "a submission may not load kernel modules"),
	CALL(kexec_load, "a submission may not load kernels"),
	CALL(reboot, "a submission may not reboot the machine"),
	CALL(keyctl, "a submission may not use the kernel's key store"),
	CALL(add_key, "a submission may not use the kernel's key store"),
	CALL(request_key, "a submission may not use the kernel's key store"),
	CALL(personality, "a submission may not change its personality"),
};

/* The calls refused with an argument test, named for the message. */
static const struct refusal conditional[] = {
	CALL(clone, "a submission may not start processes (or, on the simulator, threads)"),
	CALL(open, "a submission may not write files"),
	CALL(openat, "a submission may not write files"),
	CALL(prctl, "a submission may not give up dying with the grader"),
	CALL(rt_sigaction, "a submission may not catch the signal that reports a refused system call"),
	CALL(mmap, "a submission may not make memory executable"),
	CALL(mprotect, "a submission may not make memory executable"),
	CALL(pkey_mprotect, "a submission may not make memory executable"),
};

static int sandbox_channel = -1;
static bool sandbox_simulator;

static const struct refusal *
find_refusal(int nr)
{
	for (size_t i = 0; i < sizeof(always) / sizeof(*always); i++)
		if (always[i].nr == nr)
			return &always[i];
	for (size_t i = 0; i < sizeof(conditional) / sizeof(*conditional); i++)
		if (conditional[i].nr == nr)
			return &conditional[i];
	return NULL;
}

/* The path a refused open names, from the registers of the call (NULL when not an open). */
static const char *
opened_path(int nr, const ucontext_t *uc)
{
#if defined(__x86_64__)
	if (nr == SCMP_SYS(open))
		return (const char *)uc->uc_mcontext.gregs[REG_RDI];
	if (nr == SCMP_SYS(openat))
		return (const char *)uc->uc_mcontext.gregs[REG_RSI];
#elif defined(__aarch64__)
	if (nr == SCMP_SYS(openat))
		return (const char *)uc->uc_mcontext.regs[1];
#endif
	(void)nr, (void)uc;
	return NULL;
}

/* Async-signal-safe: one framed message built on the stack, then _exit. */
static void
on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	const struct refusal *r = find_refusal(si->si_syscall);
	const char *path = opened_path(si->si_syscall, ctx);
	char text[512];
	size_t n = 0;
	const char *parts[] = { "the program made the system call '", r ? r->name : "(unknown)", "'",
				path ? " to write '" : "", path ? path : "", path ? "'" : "", ": ",
				r ? r->why : "a submission may not make it" };
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		for (const char *p = parts[i]; *p && n < sizeof(text); p++)
			text[n++] = *p;
	struct proto_header h = { PROTO_MAGIC, MSG_REFUSED, 0, SANDBOX_RUN, n };
	if (write(sandbox_channel, &h, sizeof(h)) == (ssize_t)sizeof(h))
		(void)!write(sandbox_channel, text, n);
	_exit(1);
}

static int
refuse(scmp_filter_ctx ctx, int nr, unsigned count, const struct scmp_arg_cmp *cmp)
{
	return seccomp_rule_add_array(ctx, SCMP_ACT_TRAP, nr, count, cmp);
}

/* The calls that start or reach other processes: refused even under the GPU's tools. */
static bool
about_processes(int nr)
{
	return nr == SCMP_SYS(execve) || nr == SCMP_SYS(execveat) || nr == SCMP_SYS(fork) || nr == SCMP_SYS(vfork) ||
	       nr == SCMP_SYS(ptrace) || nr == SCMP_SYS(process_vm_readv) || nr == SCMP_SYS(process_vm_writev);
}

static int
add_rules(scmp_filter_ctx ctx, bool simulator, bool under_tool)
{
	int rc = 0;
	for (size_t i = 0; i < sizeof(always) / sizeof(*always) && !rc; i++)
		if (!under_tool || about_processes(always[i].nr))
			rc = refuse(ctx, always[i].nr, 0, NULL);
	if (under_tool) {
		/* Nsight Compute and compute-sanitizer talk to their host and write files from inside the
		   runner; the graded run, before them, had the whole filter */
		struct scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
		return rc ? rc : refuse(ctx, SCMP_SYS(clone), 1, &not_thread);
	}
	/* glibc falls back to clone when clone3 is missing; clone's flags can be tested, clone3's cannot */
	if (!rc)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (!rc)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
	/* the CUDA runtime makes threads; the simulator runs on one, so host code can race no kernel */
	struct scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
	if (!rc)
		rc = refuse(ctx, SCMP_SYS(clone), simulator ? 0 : 1, &not_thread);
	static const int write_flags[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND };
	for (size_t i = 0; i < sizeof(write_flags) / sizeof(*write_flags) && !rc; i++) {
		struct scmp_arg_cmp open_cmp = SCMP_A1(SCMP_CMP_MASKED_EQ, (scmp_datum_t)write_flags[i],
						       (scmp_datum_t)write_flags[i]);
		struct scmp_arg_cmp openat_cmp = SCMP_A2(SCMP_CMP_MASKED_EQ, (scmp_datum_t)write_flags[i],
							 (scmp_datum_t)write_flags[i]);
		rc = refuse(ctx, SCMP_SYS(open), 1, &open_cmp);
		if (!rc)
			rc = refuse(ctx, SCMP_SYS(openat), 1, &openat_cmp);
	}
	struct scmp_arg_cmp pdeathsig = SCMP_A0(SCMP_CMP_EQ, PR_SET_PDEATHSIG);
	if (!rc)
		rc = refuse(ctx, SCMP_SYS(prctl), 1, &pdeathsig);
	/* a handler of its own would make every refused call return quietly (on_sigsys is installed) */
	struct scmp_arg_cmp sigsys = SCMP_A0(SCMP_CMP_EQ, SIGSYS);
	if (!rc)
		rc = refuse(ctx, SCMP_SYS(rt_sigaction), 1, &sigsys);
	return rc;
}

static int
load_filter(bool simulator, bool loaded, bool under_tool)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return -1;
	int rc;
	if (!loaded) {
		rc = add_rules(ctx, simulator, under_tool);
	} else {
		/* once the submission is in, nothing may become code: no loader, no JIT, no patched text */
		struct scmp_arg_cmp exec = SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC);
		rc = refuse(ctx, SCMP_SYS(mmap), 1, &exec);
		if (!rc)
			rc = refuse(ctx, SCMP_SYS(mprotect), 1, &exec);
		if (!rc)
			rc = refuse(ctx, SCMP_SYS(pkey_mprotect), 1, &exec);
	}
	if (!rc)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return rc;
}

int
sandbox_enter(int channel_fd, bool simulator, bool under_tool)
{
	sandbox_channel = channel_fd;
	sandbox_simulator = simulator;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL))
		return -1;
	/* should the grader die, so does the runner; the filter keeps it so */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	return load_filter(simulator, false, under_tool);
}

const void *
sandbox_load(const char *path, const char *launcher, char *why, size_t why_size)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		const char *e = dlerror();
		snprintf(why, why_size, "%s", e ? e : "it could not be loaded");
		return NULL;
	}
	const void *fn = dlsym(handle, launcher);
	if (!fn) {
		snprintf(why, why_size, "it does not define %s", launcher);
		return NULL;
	}
	/* on a GPU the driver maps code of its own at a kernel's first launch (its JIT, say) */
	if (sandbox_simulator && load_filter(true, true, false)) {
		snprintf(why, why_size, "the sandbox could not be completed");
		return NULL;
	}
	return fn;
}
