/*
 * inspect.c — what the student's compiled object may define and reach, read
 * from its symbols (nm) and its machine code (objdump), before it is linked:
 * the grader's own symbols, calls that have no place in a kernel exercise,
 * definitions that would replace the C library's, and system calls made by
 * the submission's own instructions rather than through the C library.
 */
#include "grader/compile/inspect.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lex.h"
#include "lib/run.h"
#include "common/root.h"
#include "lib/util.h"
#include "grader/runner_mk.h"	/* SIM_CONTROLS, from harness/runner.mk */

struct rule {
	const char *name; /* an identifier, or a prefix when it ends in '*' */
	const char *why;
};

/* Calls a kernel exercise has no business making. */
static const struct rule forbidden_calls[] = {
	{ "fopen*", "a submission may not open files" },
	{ "freopen*", "a submission may not open files" },
	{ "open", "a submission may not open files" },
	{ "open64", "a submission may not open files" },
	{ "openat*", "a submission may not open files" },
	{ "creat*", "a submission may not create files" },
	{ "unlink*", "a submission may not delete files" },
	{ "remove", "a submission may not delete files" },
	{ "rename*", "a submission may not rename files" },
	{ "mkdir*", "a submission may not create folders" },
	{ "chdir", "a submission may not change folders" },
	{ "fork", "a submission may not start processes" },
	{ "vfork", "a submission may not start processes" },
	{ "clone*", "a submission may not start processes" },
	{ "exec*", "a submission may not run programs" },
	{ "system", "a submission may not run programs" },
	{ "popen", "a submission may not run programs" },
	{ "posix_spawn*", "a submission may not run programs" },
	{ "kill", "a submission may not signal processes" },
	{ "ptrace", "a submission may not trace processes" },
	{ "syscall", "a submission may not make raw system calls" },
	{ "__open*", "a submission may not open files" },
	{ "__clone*", "a submission may not start processes" },
	{ "thrd_create", "host threads run outside the timed launch" },
	{ "basic_ifstream", "a submission may not open files" },
	{ "basic_ofstream", "a submission may not open files" },
	{ "basic_fstream", "a submission may not open files" },
	{ "basic_filebuf", "a submission may not open files" },
	{ "__libc_dl*", "a submission may not load libraries or look up symbols" },
	{ "dlopen", "a submission may not load libraries" },
	{ "dlmopen", "a submission may not load libraries" },
	{ "dlsym", "a submission may not look up symbols at run time" },
	{ "dlvsym", "a submission may not look up symbols at run time" },
	/* the loaded libraries' own tables lead to every function in the process (cuBLAS too) */
	{ "dladdr*", "a submission may not walk the process's libraries" },
	{ "dlinfo", "a submission may not walk the process's libraries" },
	{ "dl_iterate_phdr", "a submission may not walk the process's libraries" },
	{ "_r_debug", "a submission may not walk the process's libraries" },
	{ "_dl_*", "a submission may not walk the process's libraries" },
	{ "getauxval", "a submission may not walk the process's libraries" },
	{ "_DYNAMIC", "a submission may not walk the process's libraries" },
	{ "socket", "a submission may not use the network" },
	{ "connect", "a submission may not use the network" },
	{ "setenv", "a submission may not change the environment" },
	{ "putenv", "a submission may not change the environment" },
	{ "unsetenv", "a submission may not change the environment" },
	{ "mprotect", "a submission may not change memory protection" },
	{ "mmap*", "a submission may not map memory: cudaMalloc it" },
	{ "process_vm_*", "a submission may not read other processes" },
	{ "cudaMemcpy*", "the kernel must compute the output; copying memory is the harness's job" },
	{ "cudaStreamCreate*", "extra streams run outside the timed launch" },
	{ "cudaGraph*", "graphs run outside the timed launch" },
	{ "cudaDeviceReset", "it would destroy the harness's GPU context" },
	{ "cudaSetDevice", "the harness picks the GPU" },
	{ "cudaMallocManaged", "host memory the GPU can reach lets the host do the kernel's work" },
	{ "__cudaRegisterManagedVar", "__managed__ memory lets the host do the kernel's work" },
	{ "cudaMallocHost", "pinned host memory lets the host do the kernel's work" },
	{ "cudaHostAlloc", "pinned host memory lets the host do the kernel's work" },
	{ "cudaHostRegister", "mapped host memory lets the host do the kernel's work" },
	{ "cudaHostGetDevicePointer", "mapped host memory lets the host do the kernel's work" },
	{ "cudaMallocFromPoolAsync", "memory pools may be host memory the GPU can reach" },
	{ "cudaMemPool*", "memory pools may be host memory the GPU can reach" },
	{ "cudaIpc*", "the harness owns the GPU's memory" },
	{ "cudaStreamAddCallback", "host work runs outside the timed launch" },
	{ "cudaLaunchHostFunc*", "host work runs outside the timed launch" },
	{ "cuInit", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuDevice*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuCtx*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuModule*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuLibrary*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuKernel*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuLaunch*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuLink*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuMem*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuFunc*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuStream*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuEvent*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuGraph*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuGetProcAddress*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuPointer*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuArray*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuTex*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuSurf*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuIpc*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cuOccupancy*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cudaGetDriverEntryPoint*", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cudaGetFuncBySymbol", "the CUDA driver API is the harness's: a submission launches with <<<>>>" },
	{ "cudaLibrary*", "a submission may not load code at run time" },
	{ "nvrtc*", "a submission may not compile code at run time" },
	{ "timer_create", "timers run host code outside the timed launch" },
	{ "timer_settime", "timers run host code outside the timed launch" },
	{ "setitimer", "timers run host code outside the timed launch" },
	{ "alarm", "timers run host code outside the timed launch" },
	{ "ualarm", "timers run host code outside the timed launch" },
	{ "ssignal", "a submission may not catch signals" },
	{ "sigvec", "a submission may not catch signals" },
	{ "__sigaction", "a submission may not catch signals" },
	{ "signal", "a submission may not catch signals" },
	{ "sigaction", "a submission may not catch signals" },
	{ "__sysv_signal", "a submission may not catch signals" },
	{ "bsd_signal", "a submission may not catch signals" },
	{ "sigset", "a submission may not catch signals" },
	{ "dl_iterate_phdr", "a submission may not look up symbols at run time" },
	{ "_r_debug", "a submission may not look up symbols at run time" },
	{ "_dl_*", "a submission may not look up symbols at run time" },
	{ "environ", "a submission may not change the environment" },
	{ "clearenv", "a submission may not change the environment" },
	{ "__environ", "a submission may not change the environment" },
	{ "prctl", "a submission may not change how its process runs" },
	{ "seccomp", "a submission may not change its system-call filter" },
	{ "pkey_*", "a submission may not change memory protection" },
	{ "cudaLaunchHostFunc", "host work runs outside the timed launch" },
	{ "cublas*", "the exercise asks for your own kernel, not a library's" },
	{ "cublasLt*", "the exercise asks for your own kernel, not a library's" },
	{ "pthread_create", "host threads run outside the timed launch" },
	{ "_ZNSt6thread*", "host threads run outside the timed launch" },
	{ NULL, NULL },
};

/* What a forbidden prefix above would refuse but a kernel exercise may call: constants copied to a
 * __constant__ variable go only from the host to the GPU. */
static const struct rule permitted_calls[] = {
	{ "cudaMemcpyToSymbol", NULL },
	{ "cudaMemcpyToSymbolAsync", NULL },
	{ "cudaMemcpyToSymbol_impl", NULL },
	{ NULL, NULL },
};

/* Symbols of the grader's side of the runner: a submission may neither name nor define them. */
static const struct rule grader_symbols[] = {
	{ "cudalings_*", "it belongs to the grader's harness" },
	{ "proto_*", "it belongs to the grader's harness" },
	{ "cases_*", "it belongs to the grader's harness" },
	{ "stats_*", "it belongs to the grader's harness" },
	{ "check_*", "it belongs to the grader's harness" },
	{ "sandbox_*", "it belongs to the grader's harness" },
	{ "ref__*", "it belongs to the reference solution" },
	{ NULL, NULL },
};

/* The simulator's controls, harness/runner.mk's SIM_CONTROLS: the runner keeps the same list out of
 * what it exports to the submission (sim/sim.mk), so the two cannot disagree. */
static const char *const sim_controls[] = { SIM_CONTROLS, NULL };

/* Prefixes of symbols the harness, the runtime and the simulator own. */
static const struct rule reserved_definitions[] = {
	{ "cudalings_*", "it belongs to the grader's harness" },
	{ "proto_*", "it belongs to the grader's harness" },
	{ "cases_*", "it belongs to the grader's harness" },
	{ "stats_*", "it belongs to the grader's harness" },
	{ "check_*", "it belongs to the grader's harness" },
	{ "ref__*", "it belongs to the reference solution" },
	{ "cudasim*", "it belongs to the CPU simulator" },
	{ "cuda*", "it belongs to the CUDA runtime" },
	{ "__cuda*", "it belongs to the CUDA runtime" },
	{ "main", "the harness owns main" },
	{ "_Znw*", "replacing operator new interposes the C++ library" },
	{ "_Zna*", "replacing operator new interposes the C++ library" },
	{ "_Zdl*", "replacing operator delete interposes the C++ library" },
	{ "_Zda*", "replacing operator delete interposes the C++ library" },
	{ NULL, NULL },
};

/* Is `at` the start of a whole length prefix, not the tail of a longer number? */
static bool
starts_number(const char *name, const char *at)
{
	return at == name || !isdigit((unsigned char)at[-1]);
}

int
inspect_symbol_names(const char *name, const char *want)
{
	size_t n = strlen(want);
	bool prefix = n && want[n - 1] == '*';
	if (prefix)
		n--;
	if (prefix ? !strncmp(name, want, n) : !strcmp(name, want))
		return 1;
	/* a C++ name carries each identifier as <length><identifier> */
	if (strncmp(name, "_Z", 2) || !strncmp(want, "_Z", 2))
		return 0;
	for (const char *p = name + 2; *p; p++) {
		if (!isdigit((unsigned char)*p) || !starts_number(name, p))
			continue;
		char *end;
		unsigned long length = strtoul(p, &end, 10);
		if (prefix ? length >= n && !strncmp(end, want, n) : length == n && !strncmp(end, want, n))
			return 1;
	}
	return 0;
}

static const struct rule *
match(const struct rule *rules, const char *name)
{
	for (const struct rule *r = rules; r->name; r++)
		if (inspect_symbol_names(name, r->name))
			return r;
	return NULL;
}

/* The rule a name of the grader's side of the runner, or of the simulator's controls, falls under; NULL if none. */
static const struct rule *
grader_symbol(const char *name)
{
	static const struct rule control = { "SIM_CONTROLS", "it controls the CPU simulator" },
				 own = { "SIM_CONTROLS", "it belongs to the CPU simulator" };
	const struct rule *r = match(grader_symbols, name);
	if (r)
		return r;
	for (const char *const *c = sim_controls; *c; c++)
		if (inspect_symbol_names(name, *c))
			/* cudasimTakeChecks and co. are the runner's controls; cudasim_ctx_* and sim_* its innards */
			return !strncmp(*c, "cudasim", 7) && isupper((unsigned char)(*c)[7]) ? &control : &own;
	return NULL;
}

static bool
allowed(const struct exercise *e, const char *name)
{
	for (int i = 0; i < e->nallow; i++)
		if (inspect_symbol_names(name, e->allow[i]))
			return true;
	return match(permitted_calls, name) != NULL;
}

const char *
inspect_source_calls(const struct exercise *e, const char *text, const char **why)
{
	static char name[256];
	struct lex L;
	const char *found = NULL;
	if (!text)
		return NULL;
	lex_source(&L, text, strlen(text)); /* an unclosed comment: the tokens before it */
	for (int i = 0; i < L.n && !found; i++) {
		const struct lex_token *t = &L.tok[i];
		if (t->kind != LEX_IDENT || t->end - t->start >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(t->end - t->start), text + t->start);
		const struct rule *r = match(forbidden_calls, name);
		if (r && !allowed(e, name)) {
			found = name;
			*why = r->why;
		}
	}
	lex_free(&L);
	return found;
}

/*
 * System calls made by the submission's own instructions (inline assembly):
 * they pass by every name above, so the machine code is read for them. A
 * submission calls the C library, whose functions have names.
 */
static int
inspect_instructions(const char *object, struct buf *why, int problems)
{
	static const char *const calls[] = { "syscall", "sysenter", "int    $0x80", "svc" };
	struct buf out = BUF_INIT;
	char *argv[] = { "objdump", "-d", "-C", "--no-show-raw-insn", (char *)object, NULL };
	if (!run_command(argv, workbook_root(), 60, &out)) {
		buf_free(&out);
		return problems;	/* nm read the object: objdump is binutils' too, and failing is no verdict */
	}
	char function[512] = "";
	for (char *line = strtok(out.data, "\n"); line; line = strtok(NULL, "\n")) {
		char *open = strchr(line, '<'), *close = open ? strstr(open, ">:") : NULL;
		if (close && line[0] != ' ') {
			snprintf(function, sizeof(function), "%.*s", (int)(close - open - 1), open + 1);
			continue;
		}
		char *tab = strchr(line, '\t');
		for (size_t i = 0; tab && i < ARRAY_SIZE(calls); i++) {
			size_t n = strlen(calls[i]);
			if (!strncmp(tab + 1, calls[i], n) && (!tab[1 + n] || isspace((unsigned char)tab[1 + n]))) {
				buf_addf(why, "%suses the machine instruction '%s' in %s: a submission makes no system "
					 "call itself (only through the C library's functions, which are checked by "
					 "name)", problems++ ? "\n" : "", calls[i], function[0] ? function : "its code");
				tab = NULL;
			}
		}
	}
	buf_free(&out);
	return problems;
}

int
inspect_object(const struct exercise *e, const char *object, struct buf *why)
{
	struct buf out = BUF_INIT;
	char *argv[] = { "nm", "-P", (char *)object, NULL };
	if (!run_command(argv, workbook_root(), 60, &out)) {
		buf_addf(why, "cannot list the symbols of '%s' (is binutils installed?): %s", object,
			 out.data);
		buf_free(&out);
		return INSPECT_CANNOT;
	}
	int problems = 0;
	bool launcher = false;
	for (char *line = strtok(out.data, "\n"); line; line = strtok(NULL, "\n")) {
		char name[512], type[4];
		if (sscanf(line, "%511s %3s", name, type) != 2)
			continue;
		/* a versioned name (".symver" in an asm statement: dlsym@GLIBC_2.2.5) binds to the same
		   function as the plain one: judged by the plain name */
		char *version = strchr(name, '@');
		if (version && version != name)
			*version = 0;
		bool defined_global = strchr("TDBRVWGS", type[0]) != NULL;
		bool undefined = type[0] == 'U' || type[0] == 'w';
		const struct rule *r = NULL;
		launcher |= defined_global && !strcmp(name, e->launcher_name);
		if (undefined && (r = grader_symbol(name))) {
			buf_addf(why, "%srefers to '%s': %s, and a submission cannot reach it", problems++ ? "\n" : "",
				 name, r->why);
		} else if (undefined && !allowed(e, name) && (r = match(forbidden_calls, name))) {
			buf_addf(why, "%scalls '%s': %s", problems++ ? "\n" : "", name, r->why);
		} else if (defined_global && strcmp(name, e->launcher_name)) {
			/* a C++ name cannot stand for a C symbol of the harness, the runtime or the simulator;
			   the compiler emits instantiations of their templates (cudasim::, cuda::) in the
			   submission's object itself */
			bool cxx = !strncmp(name, "_Z", 2);
			if ((r = match(reserved_definitions, name)) && (!cxx || !strncmp(r->name, "_Z", 2)))
				buf_addf(why, "%sdefines '%s': %s", problems++ ? "\n" : "", name, r->why);
			else if (strncmp(name, "_Z", 2) && strncmp(name, "DW.ref.", 7) && dlsym(RTLD_DEFAULT, name))
				buf_addf(why, "%sdefines '%s', a function of the C library: a submission may not "
					 "replace it", problems++ ? "\n" : "", name);
		}
	}
	buf_free(&out);
	problems = inspect_instructions(object, why, problems);
	return problems ? INSPECT_REFUSED : launcher ? INSPECT_OK : INSPECT_NO_LAUNCHER;
}
