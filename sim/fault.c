/*
 * fault.c — a fault inside kernel code (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or a
 * launch that never ends becomes an error of the launch, never a crash or a
 * hang of the process.
 *
 * The handler runs on an alternate signal stack (a fiber may have overflowed
 * its own), records the thread, the address and the program counter, and
 * jumps back to cudasim_launch, which abandons the launch. Only then, in a
 * normal context, is the program counter turned into a source file:line:
 * the grader builds with -g -fno-omit-frame-pointer, so the frame chain
 * leads from a fault in a library function (memcpy) back to the kernel line
 * (symbols.c turns the addresses into lines).
 *
 * Layer 4: calls error.c, current_launch.c, symbols.c, fiber.c, sched.c and memory.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "lib/util.h"
#include "sim.h"

#include <errno.h>
#include <link.h>
#include <signal.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define NFRAMES 16


struct trace {
	int sig, code;
	void *addr;
	void *frames[NFRAMES];	/* the pc, then return addresses */
	int nframes;
	int thread;		/* index in the block, or -1 */
	uint3 tid, bid;
	bool timeout;
};

static struct trace fault;

/* The order check's last step: which thread writes one word, and where. */
static struct {
	char *page, *word;
	bool active, stepping;
	bool candidate, exact;	/* the store being stepped over may write the word */
	uint32_t before;
	int hits;
	struct trace last, cand;
	struct sigaction old_trap;
} watch;

static struct sigaction old_action[65];
static bool installed;
static int watchdog_sig;
static timer_t watchdog;
static bool watchdog_made;
static double timeout_s = -1;
static bool timeout_fixed;	/* by cudasimConfigure: CUDASIM_TIMEOUT is not read */

/* the program's own code: the executable's, and the student's object's */
static struct { uintptr_t lo, hi; } text[2];
static int ntext;

static int
find_text_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size, (void)data;
	if (!sim_is_program_object(info->dlpi_name))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && ntext < 2; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			text[ntext].lo = info->dlpi_addr + ph->p_vaddr;
			text[ntext].hi = text[ntext].lo + ph->p_memsz;
			ntext++;
		}
	}
	return ntext == 2;
}

static bool
in_text(uintptr_t w)
{
	for (int i = 0; i < ntext; i++)
		if (w >= text[i].lo && w < text[i].hi)
			return true;
	return false;
}

static bool
readable_stack(uintptr_t p)
{
	struct sim_stack *s = sim_blk.cur >= 0 && sim_blk.th[sim_blk.cur].stack ?
			      sim_blk.th[sim_blk.cur].stack : sim_blk.sched_stack;

	return s && p >= (uintptr_t)s->lo && p + 16 <= (uintptr_t)s->hi;
}

static void
record(struct trace *tr, int sig, siginfo_t *si, ucontext_t *uc)
{
	uintptr_t pc = 0, fp = 0, sp = 0;

#if defined(__x86_64__)
	pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
	sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	pc = (uintptr_t)uc->uc_mcontext.pc;
	fp = (uintptr_t)uc->uc_mcontext.regs[29];
	sp = (uintptr_t)uc->uc_mcontext.sp;
#endif
	tr->sig = sig;
	tr->code = si ? si->si_code : 0;
	tr->addr = si ? si->si_addr : NULL;
	tr->thread = sim_blk.cur;
	tr->tid = sim_blk.cur >= 0 ? sim_blk.th[sim_blk.cur].idx : (uint3){ 0, 0, 0 };
	tr->bid = blockIdx;
	tr->nframes = 0;
	tr->frames[tr->nframes++] = (void *)pc;
	/* A leaf like memcpy has not pushed a frame: its caller's return address is at sp. */
	if (readable_stack(sp))
		tr->frames[tr->nframes++] = *(void **)sp;
	while (tr->nframes < NFRAMES && readable_stack(fp)) {
		uintptr_t next = ((uintptr_t *)fp)[0];

		tr->frames[tr->nframes++] = ((void **)fp)[1];
		if (next <= fp)
			break;
		fp = next;
	}
	/* Library code without frame pointers (abort, raise) hides the chain:
	 * words on the stack that point into the program's code are the
	 * return addresses left to find the kernel's line by. */
	for (uintptr_t p = sp & ~(uintptr_t)7; tr->nframes < NFRAMES && readable_stack(p) &&
	     p < sp + 64 * 1024; p += 8) {
		uintptr_t w = *(uintptr_t *)p;

		if (in_text(w))
			tr->frames[tr->nframes++] = (void *)w;
	}
}

static bool
watch_fault(siginfo_t *si, ucontext_t *uc)
{
	char *a = si->si_addr;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!watch.active || a < watch.page || a >= watch.page + page)
		return false;
	mprotect(watch.page, page, PROT_READ | PROT_WRITE);
#if defined(__x86_64__)
	/* A store from below may be wide enough to cover the word: step over
	 * it, see whether the word changed, and protect the page again. */
	if (a <= watch.word + 3 && a + 64 > watch.word) {
		record(&watch.cand, SIGSEGV, si, uc);
		memcpy(&watch.before, watch.word, 4);
		watch.exact = a == watch.word;
		watch.candidate = true;
	}
	uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
	watch.stepping = true;
#else
	if (a == watch.word) {
		record(&watch.last, SIGSEGV, si, uc);
		watch.hits++;
	}
#endif
	return true;
}

/* Access tracing (measure.c): every load and store to the traced pages. */
static struct {
	bool active, stepping;
	char *page;			/* the page a stepped access unprotected */
	bool (*traced)(const void *addr);
	bool (*report)(int thread, uintptr_t pc, const void *addr, bool write);
	struct sigaction old_trap;
} trace;

static bool
trace_fault(siginfo_t *si, ucontext_t *uc)
{
#if defined(__x86_64__)
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!trace.active || !trace.traced(si->si_addr))
		return false;
	trace.page = (char *)((uintptr_t)si->si_addr & ~(uintptr_t)(page - 1));
	mprotect(trace.page, page, PROT_READ | PROT_WRITE);
	/* bit 1 of the page fault's error code: a write */
	if (!trace.report(sim_blk.cur, (uintptr_t)uc->uc_mcontext.gregs[REG_RIP], si->si_addr,
			  uc->uc_mcontext.gregs[REG_ERR] & 2)) {
		trace.active = false;	/* enough: the caller unprotects the rest */
		return true;
	}
	uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
	trace.stepping = true;
	return true;
#else
	(void)si, (void)uc;
	return false;
#endif
}

static void
on_trap(int sig, siginfo_t *si, void *ctx)
{
	(void)sig, (void)si;
	if (trace.stepping) {
#if defined(__x86_64__)
		((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] &= ~0x100;
#endif
		trace.stepping = false;
		mprotect(trace.page, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE);
		return;
	}
	if (!watch.stepping) {
		sigaction(SIGTRAP, &watch.old_trap, NULL);
		return;
	}
#if defined(__x86_64__)
	((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] &= ~0x100;
#else
	(void)ctx;
#endif
	watch.stepping = false;
	if (watch.candidate && (watch.exact || memcmp(&watch.before, watch.word, 4))) {
		watch.last = watch.cand;
		watch.hits++;
	}
	watch.candidate = false;
	mprotect(watch.page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ);
}

static void
handler(int sig, siginfo_t *si, void *ctx)
{
	if (sig == SIGSEGV && sim_track_fault(si->si_addr))
		return;
	if (sig == SIGSEGV && watch_fault(si, ctx))
		return;
	if (sig == SIGSEGV && trace_fault(si, ctx))
		return;
	if (!sim_cur.active) {
		/* Not kernel code: let the fault do what it would have done. */
		sigaction(sig, &old_action[sig], NULL);
		return;
	}
	record(&fault, sig, si, ctx);
	fault.timeout = false;
	siglongjmp(sim_abandon_jmp, 1);
}

static pid_t watchdog_tid;

static void
on_watchdog(int sig, siginfo_t *si, void *ctx)
{
	if (!sim_cur.active || (pid_t)syscall(SYS_gettid) != watchdog_tid)
		return;
	if (sim_in_runtime)
		return;		/* in printf's malloc: the timer fires again in a second */
	record(&fault, sig, si, ctx);
	fault.timeout = true;
	siglongjmp(sim_abandon_jmp, 1);
}

void
sim_fault_init(void)
{
	static __thread bool alt_stack;
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;

	if (!installed) {
		mprotect(cudasim_dyn_smem + SIM_DYN_ARENA - 4096, 4096, PROT_NONE);
		dl_iterate_phdr(find_text_cb, NULL);
	}
	if (!alt_stack) {
		stack_t st = { .ss_size = 256 * 1024 };

		st.ss_sp = malloc(st.ss_size);
		if (st.ss_sp && !sigaltstack(&st, NULL))
			alt_stack = true;
	}
	if (installed) {
		/* A handler put back for host code's fault is ours again. */
		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
			struct sigaction cur;

			sigaction(sigs[i], NULL, &cur);
			if (cur.sa_sigaction != handler) {
				memset(&sa, 0, sizeof(sa));
				sa.sa_sigaction = handler;
				sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
				sigaction(sigs[i], &sa, &old_action[sigs[i]]);
			}
		}
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old_action[sigs[i]]);

	watchdog_sig = SIGRTMIN + 5;
	sa.sa_sigaction = on_watchdog;
	sigaction(watchdog_sig, &sa, NULL);
	installed = true;
}

void
sim_watchdog_limit(double seconds)
{
	timeout_s = seconds;
	timeout_fixed = true;
}

static double
timeout_seconds(void)
{
	if (timeout_s < 0) {
		const char *e = getenv("CUDASIM_TIMEOUT");

		timeout_s = e && *e ? atof(e) : 20.0;
	}
	return timeout_s;
}

void
sim_watchdog_arm(void)
{
	double t = timeout_seconds();
	struct itimerspec its = { 0 };

	if (t <= 0)
		return;
	if (!watchdog_made) {
		struct sigevent sev = { 0 };

		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = watchdog_sig;
		sev._sigev_un._tid = watchdog_tid = (pid_t)syscall(SYS_gettid);
		/* CPU time, not the wall clock: a busy machine must not end a launch that is on its way */
		if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &watchdog))
			return;
		watchdog_made = true;
	}
	its.it_value.tv_sec = (time_t)t;
	its.it_value.tv_nsec = (long)((t - (double)(time_t)t) * 1e9);
	/* Fire again every second in case the first one landed in the runtime. */
	its.it_interval.tv_sec = 1;
	timer_settime(watchdog, 0, &its, NULL);
}

void
sim_watchdog_disarm(void)
{
	struct itimerspec its = { 0 };

	if (watchdog_made)
		timer_settime(watchdog, 0, &its, NULL);
}

static const char *
describe_address(char *buf, size_t n)
{
	const char *a = fault.addr;
	struct sim_alloc *al = sim_alloc_near(a);

	if ((uintptr_t)a < 4096) {
		snprintf(buf, n, "accessed address %p through a null pointer (was a pointer "
			 "left unset, or is it a host pointer that cudaMalloc never filled?)",
			 fault.addr);
	} else if (sim_stack_guarding(a)) {
		snprintf(buf, n, "overflowed its stack (the simulator gives each thread "
			 "256 KiB: a local array too large, or recursion without end?)");
	} else if (al && a >= al->ptr + al->size) {
		snprintf(buf, n, "accessed address %p, %zu bytes past the end of the "
			 "%zu-byte allocation at %p (a %s index %zu past the last element): "
			 "an index out of bounds, or a missing bounds check (if (i < n))",
			 fault.addr, (size_t)(a - (al->ptr + al->size)), al->size,
			 (void *)al->ptr, al->elem_name, (size_t)(a - (al->ptr + al->size)) / al->elem_size);
	} else if (al && a < al->ptr) {
		snprintf(buf, n, "accessed address %p, %zu bytes before the start of the "
			 "%zu-byte allocation at %p: a negative index?", fault.addr,
			 (size_t)(al->ptr - a), al->size, (void *)al->ptr);
	} else if (a >= cudasim_dyn_smem && a < cudasim_dyn_smem + SIM_DYN_ARENA) {
		snprintf(buf, n, "accessed byte %zu of the dynamic shared memory, but the "
			 "launch asked for %zu bytes%s", (size_t)(a - cudasim_dyn_smem), sim_cur.smem,
			 sim_cur.smem ? "" : " (extern __shared__ needs its size as the third "
			 "<<<grid, block, bytes>>> argument)");
	} else if (fault.code == SEGV_ACCERR) {
		snprintf(buf, n, "wrote to read-only memory at %p (a __constant__ "
			 "variable or a string literal?)", fault.addr);
	} else if ((al = sim_alloc_below(a)) && (size_t)(a - al->ptr) < ((size_t)1 << 30)) {
		snprintf(buf, n, "accessed address %p, %zu bytes past the end of the "
			 "%zu-byte allocation at %p (a %s index %zu past its last element, "
			 "far out of bounds): a wrong index, or a missing bounds check?",
			 fault.addr, (size_t)(a - (al->ptr + al->size)), al->size,
			 (void *)al->ptr, al->elem_name, (size_t)(a - (al->ptr + al->size)) / al->elem_size);
	} else {
		snprintf(buf, n, "accessed address %p, which is in no allocation that "
			 "cudaMalloc made (a host pointer passed to the kernel, or an index "
			 "far out of bounds?)", fault.addr);
	}
	return buf;
}

cudaError_t
sim_fault_report(void)
{
	char who[128], what[512], src[1200] = "";
	cudaError_t err;

	if (fault.thread >= 0)
		snprintf(who, sizeof(who), "thread (%u,%u,%u) of block (%u,%u,%u)",
			 fault.tid.x, fault.tid.y, fault.tid.z, fault.bid.x, fault.bid.y, fault.bid.z);
	else
		snprintf(who, sizeof(who), "block (%u,%u,%u)", fault.bid.x, fault.bid.y, fault.bid.z);
	if (sim_source_line(fault.frames, fault.nframes, what, sizeof(what)))
		snprintf(src, sizeof(src), " at %s", what);

	if (fault.timeout) {
		err = cudaErrorLaunchTimeout;
		sim_error(err, "%s was still running after %g s of CPU time%s: an endless loop, or "
			  "threads that wait for each other (a spin lock, or a block that "
			  "waits for another block, never ends on the simulator, which runs "
			  "one block at a time), or a launch too big for a CPU (%llu block%s of "
			  "%u threads)%s",
			  who, timeout_seconds(), src,
			  (unsigned long long)gridDim.x * gridDim.y * gridDim.z,
			  (unsigned long long)gridDim.x * gridDim.y * gridDim.z == 1 ? "" : "s",
			  blockDim.x * blockDim.y * blockDim.z,
			  timeout_fixed ? "" : "; CUDASIM_TIMEOUT=seconds changes the limit");
		return err;
	}
	switch (fault.sig) {
	case SIGFPE:
		err = cudaErrorLaunchFailure;
		sim_error(err, "%s divided an integer by zero%s (a GPU gives garbage "
			  "there; the simulator stops)", who, src);
		break;
	case SIGABRT:
		err = cudaErrorLaunchFailure;
		sim_error(err, "%s called abort()%s (glibc does when it finds its memory "
			  "corrupted: an array written far past its end?)", who, src);
		break;
	case SIGILL:
		err = cudaErrorIllegalInstruction;
		sim_error(err, "%s executed an illegal instruction%s (did a function "
			  "that returns a value reach its end without a return?)", who, src);
		break;
	default:
		err = cudaErrorIllegalAddress;
		sim_error(err, "%s %s%s", who, describe_address(what, sizeof(what)), src);
		break;
	}
	return err;
}

void
sim_watch_begin(void *word)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct sigaction sa;

	memset(&watch.last, 0, sizeof(watch.last));
	watch.word = word;
	watch.page = (char *)((uintptr_t)word & ~(uintptr_t)(page - 1));
	watch.hits = 0;
	watch.stepping = false;
	watch.candidate = false;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGTRAP, &sa, &watch.old_trap);
	watch.active = true;
	mprotect(watch.page, page, PROT_READ);
}

void
sim_watch_end(void)
{
	if (!watch.active)
		return;
	watch.active = false;
	mprotect(watch.page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE);
	sigaction(SIGTRAP, &watch.old_trap, NULL);
}

bool
sim_watch_describe(char *out, size_t n, uint3 *block, uint3 *thread)
{
	char src[600];

	if (!watch.hits)
		return false;
	if (!sim_source_line(watch.last.frames, watch.last.nframes, src, sizeof(src)))
		snprintf(src, sizeof(src), "an unknown line");
	snprintf(out, n, "thread (%u,%u,%u) of block (%u,%u,%u) at %s", watch.last.tid.x,
		 watch.last.tid.y, watch.last.tid.z, watch.last.bid.x, watch.last.bid.y,
		 watch.last.bid.z, src);
	*block = watch.last.bid;
	*thread = watch.last.tid;
	return true;
}

bool
sim_trace_begin(bool (*traced)(const void *addr),
		bool (*report)(int thread, uintptr_t pc, const void *addr, bool write))
{
#if defined(__x86_64__)
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(SIGTRAP, &sa, &trace.old_trap);
	trace.traced = traced;
	trace.report = report;
	trace.stepping = false;
	trace.active = true;
	return true;
#else
	(void)traced, (void)report;
	return false;	/* stepping over one access needs the trap flag */
#endif
}

void
sim_trace_end(void)
{
	if (!trace.traced)
		return;
	trace.active = false;
	trace.traced = NULL;
	sigaction(SIGTRAP, &trace.old_trap, NULL);
}

/* A device-side assert() is cudaErrorAssert for the launch, as on a GPU. */
void
__assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
	if (sim_cur.active && sim_blk.cur >= 0) {
		sim_error(cudaErrorAssert, "%s failed the assertion '%s' at %s:%u (in %s)",
			  sim_where(), expr, file, line, func);
		sim_abandon(cudaErrorAssert);
	}
	fflush(stdout);
	fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n",
		program_invocation_short_name, file, line, func, expr);
	abort();
}
