/*
 * submission: the student's side of a grading's build — its own folder
 * (locked, or a private one beside a grading of the same file), its compile
 * line (nvcc, or the rewriter then g++ with the simulator's checks, nvcc's
 * front end beside it), what it may include, its shared object — and the
 * compiler's messages told in the student's terms. The exercise's side
 * (runner, judge) is build.c's.
 */
#include "grader/compile/submission.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "grader/compile/buildstep.h"
#include "grader/compile/depfile.h"
#include "grader/compile/quote.h"
#include "lib/util.h"
#include "common/root.h"
/* the compilers and flags (harness/runner.mk) */
#include "grader/runner_mk.h"

static char *
relative_to_root(const char *path)
{
	char resolved[PATH_MAX];
	if (!realpath(path, resolved))
		return xstrdup(path);
	size_t n = strlen(workbook_root());
	if (!strncmp(resolved, workbook_root(), n) && resolved[n] == '/')
		return xstrdup(resolved + n + 1);
	return xstrdup(resolved);
}

/* A path nvcc's driver passes on intact: letters, digits and / . _ - + only, a short name ending in .cu. */
static bool
nvcc_can_take(const char *path)
{
	/* it picks what to do by the extension (BOB.CU: "don't know what to do"), and names its temporary
	   files after the file (a name near 255 bytes: "file name too long") */
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	if (n < 4 || strcmp(base + n - 3, ".cu") || n > 100)
		return false;
	for (const char *p = path; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/._-+", *p))
			return false;
	return true;
}

/* `rel` itself, or a link to it under the build folder with a plain name (you own that one). */
static char *
nvcc_safe_name(struct student_build *s, char *rel)
{
	if (nvcc_can_take(rel))
		return rel;
	char *link = xasprintf("%s/source.cu", s->dir), *link_abs = root_path(link), *target = NULL;
	char *path = rel[0] == '/' ? xstrdup(rel) : root_path(rel), resolved[PATH_MAX];
	if (realpath(path, resolved))
		target = xstrdup(resolved);
	free(path);
	unlink(link_abs);
	if (!target || symlink(target, link_abs)) {
		free(link);
		link = NULL;
	}
	free(target);
	free(link_abs);
	s->nvcc_link = link ? xstrdup(link) : NULL;
	return link ? link : rel;
}

static char *
source_folder_flag(const char *rel)
{
	const char *slash = strrchr(rel, '/');
	return slash ? xasprintf("-I%.*s", (int)(slash - rel), rel) : xstrdup("-I.");
}

/*
 * The student's build folder, held for this grading. Two gradings of one file at once (the
 * workbook's watch and a make grade) would overwrite each other's object as the other loads it:
 * the second builds in a folder of its own, removed when it is done.
 */
static int
claim_build_dir(struct student_build *s, struct buf *log)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		char *dir_abs = root_path(s->dir), *lock_path = xasprintf("%s/.lock", dir_abs);
		int fd = -1;
		if (mkdir_p(dir_abs) == 0)
			fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		free(lock_path);
		free(dir_abs);
		if (fd < 0) {
			buf_addf(log, "cannot create '%s': %s\n", s->dir, strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX | (attempt ? 0 : LOCK_NB)) == 0) {
			s->dir_lock = fd;
			return 0;
		}
		close(fd);
		char *own = xasprintf("%s.%ld", s->dir, (long)getpid());
		free(s->dir);
		s->dir = own;
		s->private_dir = true;
	}
	return -1;
}

int
submission_prepare(struct student_build *s, const struct exercise *e, enum backend b,
	      const char *student_path, struct buf *log)
{
	memset(s, 0, sizeof(*s));
	s->e = e;
	s->backend = b;
	s->source = xstrdup(student_path);
	const char *bk = build_backend_name(b);
	if (b == BACKEND_GPU && !toolchain_nvcc()) {
		buf_addstr(log, "no CUDA compiler: nvcc is not on PATH (install the CUDA toolkit, or set CUDALINGS_NVCC)\n");
		return -1;
	}
	if (b == BACKEND_SIM && !toolchain_sim_ready()) {
		buf_addstr(log, "the CPU simulator is not built: run 'make sim'\n");
		return -1;
	}
	s->runner = build_runner_path(e, b);
	s->judge = build_judge_path(e);
	int status = build_exercise(e, b, log);

	/* the student's build, keyed by where the file is, so a class's submissions never collide */
	char *rel = relative_to_root(student_path);
	uint64_t key = hash_bytes(rel, strlen(rel), 0);
	s->dir = xasprintf(BUILD_DIR "/%s/sub/%s-%016llx", bk, e->name, (unsigned long long)key);
	s->dir_lock = -1;
	if (!status)
		status = claim_build_dir(s, log);
	s->object = xasprintf("%s/%s.o", s->dir, e->name);
	s->library = xasprintf("%s/%s.so", s->dir, e->name);
	if (b == BACKEND_GPU) {
		s->capture = build_capture_path(e);
		s->device_code = xasprintf("%s/%s.fatbin", s->dir, e->name);
		s->plans = xasprintf("%s/%s.plans", s->dir, e->name);
	}

	/* nvcc's driver cannot take some file names (quotes, say): it reads those through a plain-named link,
	   with the file's own folder on the include path for what it includes beside it */
	char *nvcc_source = nvcc_safe_name(s, rel), *beside = nvcc_source != rel ? source_folder_flag(rel) : NULL;
	if (!status) {
		struct args cmd = ARGS_INIT;
		char *depfile = xasprintf("%s.d", s->object);
		char *include = build_public_include(e), *include_flag = xasprintf("-I%s", include);
		/* the files the assembler reads (.incbin, .include in an asm statement), which the
		   preprocessor's list does not name: submission_check_includes reads them too */
		char *as_deps = xasprintf("%s.as.d", s->object);
		/* nvcc splits -Xcompiler's value at commas: the list below is gcc's "-Xassembler --MD -Xassembler FILE" */
		char *nvcc_as_deps = xasprintf("-Xassembler,--MD,-Xassembler,%s", as_deps);
		/* the student's compile sees its exercise's header and the system's: no path into the workbook */
		if (b == BACKEND_GPU) {
			char *arch = xasprintf("-arch=%s", toolchain_arch());
			ARGS_ADD(&cmd, toolchain_nvcc(), NVCC_FLAGS, arch, "-Xcompiler", "-fPIC", "-Xcompiler", nvcc_as_deps,
				 include_flag);
			if (beside)
				args_add(&cmd, beside);
			ARGS_ADD(&cmd, "-MD", "-MF", depfile, "-c", nvcc_source, "-o", s->object);
			free(arch);
			s->compile_source = xstrdup(rel);
		} else {
			/* the rewriter is quick; g++ is what takes the time */
			s->compile_source = xasprintf("%s/%s.sim.cpp", s->dir, e->name);
			struct args rw = ARGS_INIT;
			ARGS_ADD(&rw, SIM_REWRITE, rel, s->compile_source);
			const char *rw_deps[] = { rel, SIM_REWRITE };
			struct buf rwlog = BUF_INIT;
			if (buildstep_run(s->compile_source, &rw, rw_deps, 2, NULL, &rwlog)) {
				/* the student's own mistake as far as the rewriter can tell: a compile error */
				buf_add(log, rwlog.data, rwlog.len);
				status = 1;
			}
			buf_free(&rwlog);
			args_free(&rw);
			/* cudasim.h precompiled (sim/sim.mk): its folder searched before sim/include */
			/* the assembler's listing and g++'s last dump, where unseen.c finds inline assembly and the
			   target's builtins, whose accesses the instrumentation does not see */
			char *listing = xasprintf("-al=%s%s", s->object, SUBMISSION_LISTING);
			char *dump = xasprintf("-fdump-tree-optimized=%s%s", s->object, SUBMISSION_DUMP);
			ARGS_ADD(&cmd, SIM_CXX, "-I" SIM_PCH_DIR_LINE, SIM_CXXFLAGS, SIM_CHECK, "-fPIC", "-Xassembler", "--MD",
				 "-Xassembler", as_deps, "-Xassembler", listing, dump,
				 include_flag, "-MD", "-MF", depfile,
				 "-c", s->compile_source, "-o", s->object);
			free(listing);
			free(dump);
			/* the rewriter copies headers it rewrites into the build folder: what the original
			   file includes comes from the preprocessor, run on it as the compile would see it */
			struct args scan = ARGS_INIT;
			char *scanfile = xasprintf("%s.scan.d", s->object);
			ARGS_ADD(&scan, SIM_CXX, SIM_CXXFLAGS, include_flag, "-E", "-M", "-MG", "-MF", scanfile, "-x", "c++", rel,
				 "-o", "/dev/null");
			s->scan_argv = args_detach(&scan);
			free(scanfile);
			/* nvcc's front end judges what nvcc would accept; the simulator's g++ alone would take more */
			if (toolchain_nvcc()) {
				struct args fe = ARGS_INIT;
				ARGS_ADD(&fe, toolchain_nvcc(), NVCC_FLAGS, "-arch=sm_90", include_flag);
				if (beside)
					args_add(&fe, beside);
				/* -cuda: cudafe++ on the host side (a __device__ function called from the launcher
				   is refused there: -ptx, the device side alone, took it), cicc and ptxas on the
				   device side, no host compile; -O0, for only its errors count (bench/nvcc-frontend.md) */
				ARGS_ADD(&fe, "-cuda", "-Xcicc", "-O0", "-Xptxas", "-O0");
				/* what it read, for frontend_cache.c: an accepted file is not read again until one changes */
				s->frontend_deps = xasprintf("%s.fe.d", s->object);
				ARGS_ADD(&fe, "-MD", "-MF", s->frontend_deps, "-o", "/dev/null", nvcc_source);
				s->frontend_argv = args_detach(&fe);
			}
		}
		/* the precompiled header is read but not listed by -MD: a new one makes the object stale */
		char *pch = root_path(SIM_PCH_DIR_LINE "/cudasim.h.gch");
		const char *deps[] = { rel, SIM_PCH_DIR_LINE "/cudasim.h.gch" };
		int ndeps = b == BACKEND_SIM && access(pch, F_OK) == 0 ? 2 : 1;
		free(pch);
		/* the cache's key holds nvcc's command too: an object made without nvcc's judgement, or
		   with another front end, is compiled again so that nvcc reads the file */
		struct args key = ARGS_INIT;
		for (int i = 0; i < cmd.n; i++)
			args_add(&key, cmd.v[i]);
		for (char **f = s->frontend_argv; f && *f; f++)
			args_add(&key, *f);
		/* compiled under a name of its own by grade.c, renamed by submission_compiled */
		struct args run = ARGS_INIT;
		if (status == 0 && buildstep_begin(s->object, &cmd, &key, deps, ndeps, depfile, &run)) {
			s->compile_argv = args_detach(&run);
			s->compile_line = args_join(&key);
		}
		args_free(&key);
		args_free(&cmd);
		free(depfile);
		free(as_deps);
		free(nvcc_as_deps);
		free(include);
		free(include_flag);
	}
	if (nvcc_source != rel)
		free(nvcc_source);
	free(beside);
	free(rel);
	return status;
}

/* `text` with every `from` replaced by `to`. You own the result. */
static char *
replace_all(const char *text, const char *from, const char *to)
{
	struct buf out = BUF_INIT;
	size_t n = strlen(from);
	for (const char *p = text; *p;) {
		const char *at = n ? strstr(p, from) : NULL;
		if (!at) {
			buf_addstr(&out, p);
			break;
		}
		buf_add(&out, p, (size_t)(at - p));
		buf_addstr(&out, to);
		p = at + n;
	}
	return buf_detach(&out);
}

/* Whether `path` is `dir` or lies in it (both resolved). */
static bool
under(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;
	return n && !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0 || dir[n - 1] == '/');
}

/* The files a submission's compile messages may quote (quote.h): its own, its exercise's header, the system's. */
static bool
may_quote(const char *path, void *ctx)
{
	const struct student_build *s = ctx;
	char *abs = path[0] == '/' ? xstrdup(path) : root_path(path), real[PATH_MAX];
	bool ok = false;
	if (realpath(abs, real)) {
		char *mine = s->source[0] == '/' ? xstrdup(s->source) : root_path(s->source);
		char *rewritten = s->compile_source ? root_path(s->compile_source) : NULL;
		char *public_rel = build_public_include(s->e), *public = root_path(public_rel);
		char *sim_include = root_path("sim/include");
		char *files[] = { mine, rewritten }, *dirs[] = { public, s->backend == BACKEND_SIM ? sim_include : NULL };
		char resolved[PATH_MAX];
		for (size_t i = 0; i < 2 && !ok; i++)
			ok = files[i] && realpath(files[i], resolved) && !strcmp(real, resolved);
		for (size_t i = 0; i < 2 && !ok; i++)
			ok = dirs[i] && realpath(dirs[i], resolved) && under(real, resolved);
		/* the system's and the toolkit's headers: public text, which a misused API's notes point into */
		static const char *const system_dirs[] = { "/usr/include", "/usr/lib/gcc", "/usr/local/cuda" };
		for (size_t i = 0; i < ARRAY_SIZE(system_dirs) && !ok; i++)
			ok = realpath(system_dirs[i], resolved) && under(real, resolved);
		if (!ok && toolchain_nvcc()) {
			char *toolkit = xstrdup(toolchain_nvcc());
			for (int up = 0; up < 2 && strrchr(toolkit, '/'); up++)
				*strrchr(toolkit, '/') = 0;
			ok = *toolkit && realpath(toolkit, resolved) && strcmp(resolved, "/") && strcmp(resolved, "/usr") &&
			     under(real, resolved) && !under(real, workbook_root());
			free(toolkit);
		}
		free(mine);
		free(rewritten);
		free(public_rel);
		free(public);
		free(sim_include);
	}
	free(abs);
	return ok;
}

char *
submission_tidy_messages(const struct student_build *s, const char *text, const char *shown)
{
	/* nvcc says "path(12): error: …"; make it "path:12: error: …" like gcc, and name the file as given */
	struct buf out = BUF_INIT;
	/* what nvcc read through a link is the student's file */
	char *renamed = s->nvcc_link ? replace_all(text, s->nvcc_link, s->source) : xstrdup(text);
	for (const char *line = renamed; *line;) {
		const char *end = strchrnul(line, '\n');
		const char *paren = memchr(line, '(', (size_t)(end - line));
		const char *close = paren ? memchr(paren, ')', (size_t)(end - paren)) : NULL;
		bool digits = paren && close && close > paren + 1;
		for (const char *p = paren ? paren + 1 : NULL; digits && p < close; p++)
			digits = isdigit((unsigned char)*p);
		if (digits && close[1] == ':') {
			buf_add(&out, line, (size_t)(paren - line));
			buf_addstr(&out, ":");
			buf_add(&out, paren + 1, (size_t)(close - paren - 1));
			buf_add(&out, close + 1, (size_t)(end - close - 1));
		} else {
			buf_add(&out, line, (size_t)(end - line));
		}
		buf_addstr(&out, "\n");
		line = *end ? end + 1 : end;
	}
	free(renamed);
	char *tidy = buf_detach(&out);
	/* quoted only where the file is one the student may read; then no path of this machine: the student's
	   file by the name they gave it, the workbook's files relative to it */
	char *quoted = quote_only_allowed(tidy, may_quote, (void *)s);
	free(tidy);
	char *root = xasprintf("%s/", workbook_root());
	char *named = shown ? replace_all(quoted, s->source, shown) : xstrdup(quoted);
	char *relative = replace_all(named, root, "");
	free(root);
	free(named);
	free(quoted);
	return relative;
}

void
submission_compiled(const struct student_build *s)
{
	struct buf ignored = BUF_INIT; /* a file that cannot be renamed is compiled again next time */
	if (s->compile_line)
		buildstep_done(s->object, s->compile_line, &ignored);
	buf_free(&ignored);
}

/* Is `path` (resolved) inside `dir` (relative to the root)? */
static bool
inside(const char *path, const char *dir)
{
	char *abs = root_path(dir);
	char resolved[PATH_MAX];
	bool in = false;
	if (realpath(abs, resolved)) {
		size_t n = strlen(resolved);
		in = !strncmp(path, resolved, n) && (path[n] == '/' || path[n] == 0);
	}
	free(abs);
	return in;
}

/* The files one dependency list names that lie in the workbook outside what a submission may include. */
static void
check_depfile(const struct student_build *s, const char *suffix, const char *source, const char *source_dir,
	      int *refused, struct buf *why)
{
	char *depfile = xasprintf("%s/%s%s", workbook_root(), s->object, suffix);
	char *text = read_file(depfile, NULL);
	free(depfile);
	if (!text)
		return; /* an object up to date from before: checked when it was compiled */
	static const char *const private_dirs[] = { "solutions", "harness", "sim", BUILD_DIR, "grader", "tui",
						     "shipped", ".git", ".cudalings" };
	char *include = build_public_include(s->e), resolved[PATH_MAX];
	const char *allowed_dirs[] = { s->dir, include, s->backend == BACKEND_SIM ? "sim/include" : NULL };
	char *cursor = depfile_list(text);
	for (char *start; (start = depfile_next(&cursor));) {
		char *dep = start[0] == '/' ? xstrdup(start) : root_path(start);
		if (realpath(dep, resolved) && inside(resolved, ".")) {
			bool ok = source && !strcmp(resolved, source);
			for (size_t i = 0; i < ARRAY_SIZE(allowed_dirs) && !ok; i++)
				ok = allowed_dirs[i] && inside(resolved, allowed_dirs[i]);
			if (!ok && source_dir && !strncmp(resolved, source_dir, strlen(source_dir)) &&
			    resolved[strlen(source_dir)] == '/') {
				ok = true;
				for (size_t i = 0; i < ARRAY_SIZE(private_dirs) && ok; i++)
					ok = !inside(resolved, private_dirs[i]);
			}
			if (!ok && (*refused)++ < 4)
				buf_addf(why, "%sincludes '%s': a submission may include only its exercise's header "
					 "(cudalings/%s.h) and the system's headers", *refused > 1 ? "\n" : "",
					 resolved + strlen(workbook_root()) + 1, s->e->name);
		}
		free(dep);
	}
	free(include);
	free(text);
}

int
submission_check_includes(const struct student_build *s, struct buf *why)
{
	/* the folders a submission may include from, inside the workbook */
	char *source_dir = NULL, *source = NULL, resolved[PATH_MAX];
	if (realpath(s->source, resolved)) {
		source = xstrdup(resolved);
		*strrchr(resolved, '/') = 0;
		source_dir = xstrdup(resolved);
	}
	int refused = 0;
	/* what the preprocessor read: on the simulator the original file as the preprocessor reads it (the
	   rewriter copies the headers it rewrites), and the rewriter's copy as g++ compiled it (from the copy's
	   folder, `__has_include` and relative paths reach other files); then what the assembler read */
	if (s->backend == BACKEND_SIM)
		check_depfile(s, ".scan.d", source, source_dir, &refused, why);
	if (!refused)
		check_depfile(s, ".d", source, source_dir, &refused, why);
	if (!refused)
		check_depfile(s, ".as.d", source, source_dir, &refused, why);
	free(source);
	free(source_dir);
	return refused ? -1 : 0;
}

int
submission_link(struct student_build *s, struct buf *log)
{
	struct args cmd = ARGS_INIT;
	if (s->backend == BACKEND_GPU) {
		char *arch = xasprintf("-arch=%s", toolchain_arch());
		ARGS_ADD(&cmd, toolchain_nvcc(), arch, "-shared", "-cudart", "shared", "-o", s->library, s->object);
		free(arch);
	} else {
		/* the simulator's symbols come from the runner that loads it, and only those it exports */
		/* the C library's functions that touch memory through a pointer, and malloc, called by kernel code,
		   go through the simulator's checks (harness/runner.mk's SIM_WRAPS) */
		/* __device__ variables on pages of their own, which host code may not touch (sim/student.ld) */
		ARGS_ADD(&cmd, SIM_CXX, "-shared");
		static const char *const wraps[] = { SIM_WRAPS };
		for (size_t i = 0; i < ARRAY_SIZE(wraps); i++)
			args_addf(&cmd, "-Wl,--wrap=%s", wraps[i]);
		ARGS_ADD(&cmd, "-Wl,-T,sim/student.ld", "-o", s->library, s->object);
	}
	const char *deps[] = { s->object, "sim/student.ld" };
	int status = buildstep_run(s->library, &cmd, deps, s->backend == BACKEND_SIM ? 2 : 1, NULL, log);
	args_free(&cmd);
	if (!status && s->backend == BACKEND_GPU) {
		/* the measuring process loads the device code alone, as data: the fatbinary of the object inspected */
		struct args copy = ARGS_INIT;
		ARGS_ADD(&copy, "objcopy", "-O", "binary", "--only-section=.nv_fatbin", s->object, s->device_code);
		status = buildstep_run(s->device_code, &copy, deps, 1, NULL, log);
		args_free(&copy);
	}
	return status;
}

void
submission_release(struct student_build *s)
{
	if (s->private_dir && s->dir) {
		char *abs = root_path(s->dir);
		remove_dir(abs);
		free(abs);
	}
	if (s->dir_lock >= 0 && s->dir)
		close(s->dir_lock);
	argv_free(s->compile_argv);
	argv_free(s->frontend_argv);
	free(s->frontend_deps);
	argv_free(s->scan_argv);
	free(s->source);
	free(s->dir);
	free(s->object);
	free(s->library);
	free(s->runner);
	free(s->capture);
	free(s->device_code);
	free(s->plans);
	free(s->judge);
	free(s->compile_source);
	free(s->compile_line);
	free(s->nvcc_link);
	memset(s, 0, sizeof(*s));
}

/*
 * What in the student's file the simulator cannot run, by the marks it
 * leaves in the source; NULL when none. Such a file is graded on a GPU.
 */
const char *
submission_beyond_simulator(const struct student_build *s)
{
	static const struct { const char *mark, *what; } marks[] = {
		{ "multi_grid", "a multi-grid cooperative group" }, { "memcpy_async", "memcpy_async" },
		{ "cub/", "CUB beyond its block and warp reductions, loads and stores" },
		{ "cub::", "CUB beyond its block and warp reductions, loads and stores" },
		{ "thrust/", "Thrust" }, { "thrust::", "Thrust" }, { "asm(", "inline PTX (asm)" },
		{ "asm volatile", "inline PTX (asm)" }, { "__asm__", "inline PTX (asm)" },
		{ "cudaLaunchKernel", "this form of cudaLaunchKernel" }, { "wmma::", "warp matrix instructions (wmma)" },
		{ "<cuda/", "libcu++ beyond cuda::std, <cuda/cmath>, <cuda/atomic>, <cuda/barrier> and <cuda/pipeline>" },
		{ "cuda::", "libcu++ beyond cuda::std, <cuda/cmath>, <cuda/atomic>, <cuda/barrier> and <cuda/pipeline>" },
		{ "cuda_fp16.h", "half precision (cuda_fp16.h)" }, { "cuda_bf16.h", "bfloat16 (cuda_bf16.h)" },
	};
	/* the file as submission_prepare took it: absolute, or relative to the workbook */
	char *path = s->source[0] == '/' ? xstrdup(s->source) : root_path(s->source);
	char *text = read_file(path, NULL);
	free(path);
	const char *what = NULL;
	for (size_t i = 0; text && i < ARRAY_SIZE(marks) && !what; i++)
		for (const char *at = text; !what && (at = strstr(at, marks[i].mark)); at++) {
			/* "f(...) __asm__("name")" names a symbol (an assembler label): no inline PTX */
			const char *before = at;
			while (before > text && isspace((unsigned char)before[-1]))
				before--;
			if (strstr(marks[i].mark, "asm") && before > text && before[-1] == ')')
				continue;
			what = marks[i].what;
		}
	free(text);
	return what;
}
