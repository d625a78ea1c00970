#include "build.h"

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

#include "lib/util.h"
#include "root.h"

/* Every compiler and flag the runners and judges are built with: harness/runner.mk, which the Makefile
   reads too, as C strings (SIM_CXXFLAGS, NVCC_FLAGS, HOST_CFLAGS…) */
#include "runner_flags.h"
/* what the runner exports to the student's shared object: the simulator's student-facing API only */
#define SIM_DYNLIST "build/sim/student.dynlist"

static const char *const harness_c_sources[] = { "harness/cases.c", "harness/stats.c", "harness/check.c",
						  "harness/sandbox.c" };

const char *
backend_name(enum backend b)
{
	return b == BACKEND_GPU ? "gpu" : "sim";
}

const char *
build_nvcc(void)
{
	static const char *nvcc;
	static bool looked;
	if (looked)
		return nvcc;
	looked = true;
	const char *env = getenv("CUDALINGS_NVCC");
	if (env && *env)
		return nvcc = env;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "");
	for (char *dir = strtok(copy, ":"); dir; dir = strtok(NULL, ":")) {
		char *candidate = xasprintf("%s/nvcc", dir);
		if (access(candidate, X_OK) == 0) {
			nvcc = candidate;
			break;
		}
		free(candidate);
	}
	free(copy);
	if (!nvcc && access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
		nvcc = "/usr/local/cuda/bin/nvcc";
	return nvcc;
}

char *
build_cuda_tool(const char *name)
{
	const char *nvcc = build_nvcc();
	const char *slash = nvcc ? strrchr(nvcc, '/') : NULL;
	char *path = slash ? xasprintf("%.*s/%s", (int)(slash - nvcc), nvcc, name) : NULL;
	if (path && access(path, X_OK) == 0)
		return path;
	free(path);
	return NULL;
}

const char *
build_arch(void)
{
	const char *env = getenv("CUDALINGS_ARCH");
	return env && *env ? env : "native";
}

bool
build_sim_ready(void)
{
	const char *parts[] = { "build/sim/libcudasim.a", "build/sim/cudasim-rewrite", SIM_DYNLIST };
	bool ok = true;
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts) && ok; i++) {
		char *path = root_path(parts[i]);
		ok = file_exists(path);
		free(path);
	}
	return ok;
}

/* ------------------------------------------------------------ argv lists */

struct args {
	char **v;
	int n, cap;
};

static void
args_add(struct args *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 32;
		a->v = xrealloc(a->v, sizeof(char *) * (size_t)a->cap);
	}
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

#define ARGS_ADD(a, ...)                                                            \
	do {                                                                        \
		const char *list_[] = { __VA_ARGS__ };                              \
		for (size_t i_ = 0; i_ < sizeof(list_) / sizeof(*list_); i_++)      \
			args_add((a), list_[i_]);                                   \
	} while (0)

static void
args_free(struct args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

static char *
args_join(const struct args *a)
{
	struct buf b = { 0 };
	for (int i = 0; i < a->n; i++)
		buf_addf(&b, "%s%s", i ? " " : "", a->v[i]);
	return buf_detach(&b);
}

/* ------------------------------------------------------------ the cache */

/*
 * The files a .d file's text lists, one at a time: each call cuts the next
 * path out of *cursor in place and returns it, or NULL at the end (-MP's
 * phony targets end the list).
 */
static char *
next_dependency(char **cursor)
{
	char *p = *cursor;
	if (!*p)
		return NULL;
	while (*p && (isspace((unsigned char)*p) || (*p == '\\' && isspace((unsigned char)p[1]))))
		p++;
	char *start = p;
	while (*p && !isspace((unsigned char)*p) && !(*p == '\\' && isspace((unsigned char)p[1])))
		p++;
	if (p == start || p[-1] == ':')
		return NULL;
	*cursor = *p ? p + 1 : p;
	*p = 0;
	return start;
}

/* The text after the target of a .d file: where its list begins. */
static char *
dependencies(char *text)
{
	char *colon = strchr(text, ':');
	return colon ? colon + 1 : text;
}

/* The files a .d file lists, newer than `mtime`? */
static bool
deps_newer(const char *depfile, int64_t mtime)
{
	char *text = read_file(depfile, NULL);
	if (!text)
		return true;
	bool newer = false;
	char *cursor = dependencies(text);
	for (char *dep; !newer && (dep = next_dependency(&cursor));) {
		int64_t t = file_mtime(dep);
		newer = t < 0 || t > mtime;
	}
	free(text);
	return newer;
}

/* Is `target` missing, built by another command, or older than a dependency? */
static bool
stale(const char *target, const struct args *cmd, const char *const *deps, int ndeps, const char *depfile)
{
	int64_t t = file_mtime(target);
	if (t < 0)
		return true;
	char *cmdfile = xasprintf("%s.cmd", target), *want = args_join(cmd);
	char *have = read_file(cmdfile, NULL);
	bool changed = !have || strcmp(have, want);
	free(have);
	free(want);
	free(cmdfile);
	if (changed)
		return true;
	for (int i = 0; i < ndeps; i++) {
		int64_t d = file_mtime(deps[i]);
		if (d < 0 || d > t)
			return true;
	}
	return depfile && deps_newer(depfile, t);
}

static void
remember_command(const char *target, const struct args *cmd)
{
	char *cmdfile = xasprintf("%s.cmd", target), *line = args_join(cmd);
	write_file_atomic(cmdfile, line, strlen(line));
	free(cmdfile);
	free(line);
}

static int
make_parent(const char *path, struct buf *log)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int status = 0;
	if (slash) {
		*slash = 0;
		if (mkdir_p(dir)) {
			buf_addf(log, "cannot create '%s': %s\n", dir, strerror(errno));
			status = -1;
		}
	}
	free(dir);
	return status;
}

/* Run `cmd` to make `target` unless it is up to date. Paths are relative to the root. */
static int
build_step(const char *target, const struct args *cmd, const char *const *deps, int ndeps,
	   const char *depfile, struct buf *log)
{
	if (!stale(target, cmd, deps, ndeps, depfile))
		return 0;
	if (make_parent(target, log))
		return -1;
	if (getenv("CUDALINGS_VERBOSE")) {
		char *line = args_join(cmd);
		fprintf(stderr, "  %s\n", line);
		free(line);
	}
	/* built under a name of its own, then renamed: a grading running beside this one keeps its file */
	char *tmp = xasprintf("%s.tmp-%d", target, (int)getpid());
	struct args run = { 0 };
	for (int i = 0; i < cmd->n; i++)
		args_add(&run, strcmp(cmd->v[i], target) ? cmd->v[i] : tmp);
	struct buf out = { 0 };
	bool ok = run_command(run.v, workbook_root(), 600, &out);
	char *tmp_abs = root_path(tmp), *target_abs = root_path(target);
	if (ok && rename(tmp_abs, target_abs)) {
		buf_addf(&out, "cannot rename '%s': %s\n", tmp, strerror(errno));
		ok = false;
	}
	if (!ok) {
		char *line = args_join(cmd);
		buf_addf(log, "%s\n%s", line, out.data ? out.data : "");
		free(line);
		unlink(tmp_abs);
	} else {
		remember_command(target, cmd);
	}
	free(tmp_abs);
	free(target_abs);
	free(tmp);
	args_free(&run);
	buf_free(&out);
	return ok ? 0 : -1;
}

/* ------------------------------------------------------------ generated files */

static char *
launcher_typedef(const struct exercise *e)
{
	/* the signature with the name replaced: "void NAME_t(...)" */
	const char *at = strstr(e->launcher, e->launcher_name);
	return xasprintf("typedef %.*s%s_t%s;", (int)(at - e->launcher), e->launcher, e->launcher_name,
			 at + strlen(e->launcher_name));
}

/* The only folder the student's compile may include from: build/gen/public/NAME/cudalings/NAME.h. */
static char *
public_include_dir(const struct exercise *e)
{
	return xasprintf("build/gen/public/%s", e->name);
}

static int
write_header(const struct exercise *e)
{
	char *public_include = public_include_dir(e);
	char *type = launcher_typedef(e);
	char *text = xasprintf(
		"/* Generated by cudalings from workbook.json: the launcher of '%s'. Do not edit. */\n"
		"#ifndef CUDALINGS_GEN_%s_H\n#define CUDALINGS_GEN_%s_H\n\n"
		"#ifdef CUDALINGS_JUDGE\n/* the judge never calls a launcher: it holds none */\n"
		"#define CUDALINGS_LAUNCHER_ATTR __attribute__((weak))\n#else\n#define CUDALINGS_LAUNCHER_ATTR\n#endif\n\n"
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\n%s\nCUDALINGS_LAUNCHER_ATTR %s;\n"
		"#ifdef __cplusplus\n}\n#endif\n\n#endif\n",
		e->name, e->name, e->name, type, e->launcher);
	/* the student's compile sees the second copy only: a folder that holds nothing else */
	char *paths[] = { xasprintf("%s/build/gen/cudalings/%s.h", workbook_root(), e->name),
			  xasprintf("%s/%s/cudalings/%s.h", workbook_root(), public_include, e->name) };
	free(public_include);
	struct buf log = { 0 };
	int status = 0;
	for (int i = 0; i < 2; i++) {
		if (!status)
			status = make_parent(paths[i], &log);
		if (!status && write_file_if_changed(paths[i], text, strlen(text)))
			status = error("cannot write '%s': %s", paths[i], strerror(errno));
		free(paths[i]);
	}
	buf_free(&log);
	free(text);
	free(type);
	return status;
}

int
build_headers(const struct manifest *m)
{
	for (int i = 0; i < m->count; i++)
		if (m->items[i].launcher && write_header(&m->items[i]))
			return -1;
	return 0;
}

static int
write_glue(const struct exercise *e, const char *path, bool gold)
{
	const char *n = e->launcher_name;
	struct buf text = { 0 };
	buf_addf(&text, "/* Generated by cudalings: the reference's and the gold solution's launchers, and the\n"
		 " * student's by name (the runner finds it with dlsym). */\n"
		 "#include \"cudalings/%s.h\"\n"
		 "extern \"C\" %s_t ref__%s;\n"
		 "extern \"C\" const char cudalings_launcher_name[] = \"%s\";\n"
		 "extern \"C\" const void *const cudalings_reference_launcher = (const void *)&ref__%s;\n",
		 e->name, n, n, n, n);
	if (gold)
		buf_addf(&text, "extern \"C\" %s_t gold__%s;\n"
			 "extern \"C\" const void *const cudalings_gold_launcher = (const void *)&gold__%s;\n", n, n, n);
	else
		buf_addstr(&text, "extern \"C\" const void *const cudalings_gold_launcher = nullptr;\n");
	struct buf log = { 0 };
	int status = make_parent(path, &log);
	if (!status && write_file_if_changed(path, text.data, text.len))
		status = -1;
	buf_free(&log);
	buf_free(&text);
	return status;
}

/* ------------------------------------------------------------ compiling */

/* Compile a .cu for a backend: nvcc on gpu; the simulator's rewriter then g++ on sim. */
static int
compile_cu(enum backend b, const char *source, const char *object, bool openmp, struct buf *log)
{
	struct args cmd = { 0 };
	char *depfile = xasprintf("%s.d", object);
	int status;
	if (b == BACKEND_GPU) {
		ARGS_ADD(&cmd, build_nvcc(), NVCC_FLAGS, RUNNER_INCLUDES);
		char *arch = xasprintf("-arch=%s", build_arch());
		args_add(&cmd, arch);
		free(arch);
		if (openmp)
			ARGS_ADD(&cmd, "-Xcompiler", OPENMP);
		ARGS_ADD(&cmd, "-MD", "-MF", depfile, "-c", source, "-o", object);
		status = build_step(object, &cmd, &source, 1, depfile, log);
	} else {
		char *rewritten = xasprintf("%s.sim.cpp", object);
		struct args rw = { 0 };
		ARGS_ADD(&rw, "build/sim/cudasim-rewrite", source, rewritten);
		const char *rw_deps[] = { source, "build/sim/cudasim-rewrite" };
		status = build_step(rewritten, &rw, rw_deps, 2, NULL, log);
		if (!status) {
			ARGS_ADD(&cmd, SIM_CXX, SIM_CXXFLAGS, RUNNER_INCLUDES);
			if (openmp)
				args_add(&cmd, OPENMP);
			ARGS_ADD(&cmd, "-MMD", "-MF", depfile, "-c", rewritten, "-o", object);
			status = build_step(object, &cmd, (const char *const *)&rewritten, 1, depfile, log);
		}
		args_free(&rw);
		free(rewritten);
	}
	args_free(&cmd);
	free(depfile);
	return status;
}

static int
compile_host(bool cxx, const char *source, const char *object, const char *define,
	     struct buf *log)
{
	struct args cmd = { 0 };
	char *depfile = xasprintf("%s.d", object);
	if (!cxx)
		ARGS_ADD(&cmd, HOST_CC, HOST_CFLAGS, OPENMP, RUNNER_INCLUDES);
	else
		ARGS_ADD(&cmd, HOST_CXX, HOST_CXXFLAGS, OPENMP, RUNNER_INCLUDES);
	if (define)
		args_add(&cmd, define);
	ARGS_ADD(&cmd, "-MMD", "-MF", depfile, "-c", source, "-o", object);
	int status = build_step(object, &cmd, &source, 1, depfile, log);
	args_free(&cmd);
	free(depfile);
	return status;
}

static int
build_judge(const struct exercise *e, const char *judge, struct buf *log)
{
	struct args link = { 0 };
	ARGS_ADD(&link, HOST_CXX, OPENMP, "-o", judge);
	int status = 0;
	const char *c_sources[] = { "harness/judge.c", "harness/cases.c", "harness/check.c" };
	for (size_t i = 0; i < 3 && !status; i++) {
		char *object = xasprintf("build/judge/%s.o", strrchr(c_sources[i], '/') + 1);
		status = compile_host(false, c_sources[i], object, NULL, log);
		args_add(&link, object);
		free(object);
	}
	char *check = xasprintf("harness/checks/%s.cpp", e->name);
	char *object = xasprintf("build/judge/%s.check.o", e->name);
	if (!status)
		status = compile_host(true, check, object, "-DCUDALINGS_JUDGE", log);
	args_add(&link, object);
	if (!status)
		status = build_step(judge, &link, (const char *const *)link.v + 4, link.n - 4, NULL, log);
	free(check);
	free(object);
	args_free(&link);
	return status;
}

/*
 * An instructor's solution (the reference, or the gold one) with every
 * symbol made local but its launcher, renamed PREFIX__launcher. A student
 * copy (make dist) has no solutions/: there the object compiled from it
 * ships in shipped/<backend>/[gold/]NAME.o and stands in for it.
 */
static char *
shipped_object(const struct exercise *e, enum backend b, const char *sub)
{
	char *shipped = xasprintf("shipped/%s/%s%s.o", backend_name(b), sub, e->name), *abs = root_path(shipped);
	if (!file_exists(abs)) {
		free(shipped);
		shipped = NULL;
	}
	free(abs);
	return shipped;
}

char *
build_shipped_reference(const struct exercise *e, enum backend b)
{
	return shipped_object(e, b, "");
}

static int
build_instructor_solution(const struct exercise *e, enum backend b, const char *source, const char *prefix,
			  const char *object, struct buf *log)
{
	char *raw = xasprintf("build/%s/%s/%s.raw.o", backend_name(b), prefix, e->name);
	char *shipped = shipped_object(e, b, strcmp(prefix, "ref") ? "gold/" : "");
	char *source_abs = root_path(source);
	int status = 0;
	if (!file_exists(source_abs) && shipped) {
		free(raw);
		raw = shipped;
		shipped = NULL;
	} else {
		status = compile_cu(b, source, raw, false, log);
	}
	free(shipped);
	free(source_abs);
	if (!status) {
		struct args cmd = { 0 };
		char *rename = xasprintf("%s=%s__%s", e->launcher_name, prefix, e->launcher_name);
		char *keep = xasprintf("%s__%s", prefix, e->launcher_name);
		ARGS_ADD(&cmd, "objcopy", "--redefine-sym", rename, "-G", keep, raw, object);
		status = build_step(object, &cmd, (const char *const *)&raw, 1, NULL, log);
		free(rename);
		free(keep);
		args_free(&cmd);
	}
	free(raw);
	return status;
}

/* solutions/gold/NAME.cu, or its shipped object: the solution near the hardware's limit, if the exercise has one. */
static char *
gold_source(const struct exercise *e, enum backend b)
{
	char *source = xasprintf("solutions/gold/%s.cu", e->name);
	char *shipped = xasprintf("shipped/%s/gold/%s.o", backend_name(b), e->name);
	char *paths[] = { root_path(source), root_path(shipped) };
	bool have = file_exists(paths[0]) || file_exists(paths[1]);
	free(paths[0]);
	free(paths[1]);
	free(shipped);
	if (!have) {
		free(source);
		return NULL;
	}
	return source;
}

/* harness/physical/NAME.cpp: the physical reference when it is not a copy (cuBLAS SGEMM for matmul). */
static char *
physical_source(const struct exercise *e)
{
	char *source = xasprintf("harness/physical/%s.cpp", e->name);
	char *abs = root_path(source);
	bool have = file_exists(abs);
	free(abs);
	if (!have) {
		free(source);
		return NULL;
	}
	return source;
}

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

/* Where libseccomp is: a GPU machine may carry Debian's copy in .gpu/ (tests/gpu/lib.sh). */
static char *
seccomp_library(void)
{
	static const char *const candidates[] = {
		".gpu/root/usr/lib/x86_64-linux-gnu/libseccomp.a", "/usr/lib/x86_64-linux-gnu/libseccomp.a",
		"/usr/lib/aarch64-linux-gnu/libseccomp.a", "/usr/lib64/libseccomp.a", "/usr/lib/libseccomp.a",
	};
	for (size_t i = 0; i < sizeof(candidates) / sizeof(*candidates); i++) {
		char *path = candidates[i][0] == '/' ? xstrdup(candidates[i]) : root_path(candidates[i]);
		if (file_exists(path)) {
			free(path);
			return xstrdup(candidates[i]); /* linked statically: the runner needs no .so at run time */
		}
		free(path);
	}
	return xstrdup("-lseccomp");
}

static const char *
seccomp_include(void)
{
	char *carried = root_path(".gpu/root/usr/include/seccomp.h");
	bool have = file_exists(carried);
	free(carried);
	return have ? "-I.gpu/root/usr/include" : NULL;
}

/* The runner of an exercise: harness, check, glue and reference; the student's code comes in by dlopen. */
static int
build_runner(const struct exercise *e, enum backend b, const char *runner, struct buf *log)
{
	const char *bk = backend_name(b);
	struct args objects = { 0 };
	char *object = xasprintf("build/%s/harness/runner.o", bk);
	int status = compile_cu(b, "harness/runner.cu", object, true, log);
	args_add(&objects, object);
	free(object);
	for (size_t i = 0; i < sizeof(harness_c_sources) / sizeof(*harness_c_sources) && !status; i++) {
		object = xasprintf("build/host/%s.o", strrchr(harness_c_sources[i], '/') + 1);
		bool sandbox = strstr(harness_c_sources[i], "sandbox") != NULL;
		status = compile_host(false, harness_c_sources[i], object, sandbox ? seccomp_include() : NULL, log);
		args_add(&objects, object);
		free(object);
	}
	char *check = xasprintf("harness/checks/%s.cpp", e->name);
	object = xasprintf("build/host/checks/%s.o", e->name);
	if (!status && !file_exists(check)) {
		buf_addf(log, "the exercise has no check: '%s' is missing\n", check);
		status = -1;
	}
	if (!status)
		status = compile_host(true, check, object, NULL, log);
	args_add(&objects, object);
	free(object);
	free(check);

	char *gold = gold_source(e, b);
	if (gold) {
		object = xasprintf("build/%s/gold/%s.o", bk, e->name);
		if (!status)
			status = build_instructor_solution(e, b, gold, "gold", object, log);
		args_add(&objects, object);
		free(object);
	}
	/* the physical reference is timed on a GPU only, and links a library of the toolkit */
	char *physical = b == BACKEND_GPU ? physical_source(e) : NULL;
	if (physical) {
		object = xasprintf("build/gpu/physical/%s.o", e->name);
		char *nvcc = xstrdup(build_nvcc()), *bin = strrchr(nvcc, '/');
		if (bin)
			*bin = 0;
		char *include = xasprintf("-I%s/../include", nvcc);
		if (!status)
			status = compile_host(true, physical, object, include, log);
		args_add(&objects, object);
		free(include);
		free(nvcc);
		free(object);
	}

	char *glue = xasprintf("build/gen/%s.glue.%s.cpp", e->name, gold ? "gold" : "plain");
	char *glue_abs = root_path(glue);
	object = xasprintf("build/host/glue/%s.%s.o", e->name, gold ? "gold" : "plain");
	if (!status && write_glue(e, glue_abs, gold != NULL))
		status = -1;
	if (!status)
		status = compile_host(true, glue, object, NULL, log);
	args_add(&objects, object);
	free(object);
	free(glue);
	free(glue_abs);

	object = xasprintf("build/%s/ref/%s.o", bk, e->name);
	if (!status)
		status = build_instructor_solution(e, b, e->solution, "ref", object, log);
	args_add(&objects, object);
	free(object);

	if (!status) {
		struct args cmd = { 0 };
		char *seccomp = seccomp_library();
		if (b == BACKEND_GPU) {
			char *arch = xasprintf("-arch=%s", build_arch());
			ARGS_ADD(&cmd, build_nvcc(), arch, "-cudart", "shared", "-o", runner);
			free(arch);
		} else {
			ARGS_ADD(&cmd, SIM_CXX, "-o", runner);
		}
		for (int i = 0; i < objects.n; i++)
			args_add(&cmd, objects.v[i]);
		/* a new simulator, or a new list of what it shows the student, means a new runner */
		struct args deps = { 0 };
		for (int i = 0; i < objects.n; i++)
			args_add(&deps, objects.v[i]);
		if (b == BACKEND_GPU) {
			ARGS_ADD(&cmd, "-Xcompiler", OPENMP, seccomp, "-ldl");
			if (physical)
				args_add(&cmd, "-lcublas");
		} else {
			ARGS_ADD(&deps, "build/sim/libcudasim.a", SIM_DYNLIST);
			ARGS_ADD(&cmd, "build/sim/libcudasim.a", "-Wl,--dynamic-list=" SIM_DYNLIST, SIM_LIBS, OPENMP, seccomp);
		}
		status = build_step(runner, &cmd, (const char *const *)deps.v, deps.n, NULL, log);
		args_free(&deps);
		args_free(&cmd);
		free(seccomp);
	}
	free(gold);
	free(physical);
	args_free(&objects);
	return status;
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
build_prepare(struct student_build *s, const struct exercise *e, enum backend b,
	      const char *student_path, struct buf *log)
{
	memset(s, 0, sizeof(*s));
	s->e = e;
	s->backend = b;
	s->source = xstrdup(student_path);
	const char *bk = backend_name(b);
	if (b == BACKEND_GPU && !build_nvcc()) {
		buf_addstr(log, "no CUDA compiler: nvcc is not on PATH (install the CUDA toolkit, or set CUDALINGS_NVCC)\n");
		return -1;
	}
	if (b == BACKEND_SIM && !build_sim_ready()) {
		buf_addstr(log, "the CPU simulator is not built: run 'make sim'\n");
		return -1;
	}
	s->runner = xasprintf("build/%s/runner/%s", bk, e->name);
	int status = build_runner(e, b, s->runner, log);
	s->judge = xasprintf("build/judge/%s", e->name);
	if (!status)
		status = build_judge(e, s->judge, log);

	/* the student's build, keyed by where the file is, so a class's submissions never collide */
	char *rel = relative_to_root(student_path);
	uint64_t key = hash_bytes(rel, strlen(rel), 0);
	s->dir = xasprintf("build/%s/sub/%s-%016llx", bk, e->name, (unsigned long long)key);
	s->dir_lock = -1;
	if (!status)
		status = claim_build_dir(s, log);
	s->object = xasprintf("%s/%s.o", s->dir, e->name);
	s->library = xasprintf("%s/%s.so", s->dir, e->name);

	/* nvcc's driver cannot take some file names (quotes, say): it reads those through a plain-named link,
	   with the file's own folder on the include path for what it includes beside it */
	char *nvcc_source = nvcc_safe_name(s, rel), *beside = nvcc_source != rel ? source_folder_flag(rel) : NULL;
	if (!status) {
		struct args cmd = { 0 };
		char *depfile = xasprintf("%s.d", s->object);
		char *include = public_include_dir(e), *include_flag = xasprintf("-I%s", include);
		/* the student's compile sees its exercise's header and the system's: no path into the workbook */
		if (b == BACKEND_GPU) {
			char *arch = xasprintf("-arch=%s", build_arch());
			ARGS_ADD(&cmd, build_nvcc(), NVCC_FLAGS, arch, "-Xcompiler", "-fPIC", include_flag);
			if (beside)
				args_add(&cmd, beside);
			ARGS_ADD(&cmd, "-MD", "-MF", depfile, "-c", nvcc_source, "-o", s->object);
			free(arch);
			s->compile_source = xstrdup(rel);
		} else {
			/* the rewriter is quick; g++ is what takes the time */
			s->compile_source = xasprintf("%s/%s.sim.cpp", s->dir, e->name);
			struct args rw = { 0 };
			ARGS_ADD(&rw, "build/sim/cudasim-rewrite", rel, s->compile_source);
			const char *rw_deps[] = { rel, "build/sim/cudasim-rewrite" };
			struct buf rwlog = { 0 };
			if (build_step(s->compile_source, &rw, rw_deps, 2, NULL, &rwlog)) {
				/* the student's own mistake as far as the rewriter can tell: a compile error */
				buf_add(log, rwlog.data ? rwlog.data : "", rwlog.len);
				status = 1;
			}
			buf_free(&rwlog);
			args_free(&rw);
			ARGS_ADD(&cmd, SIM_CXX, SIM_CXXFLAGS, SIM_CHECK, "-fPIC", include_flag, "-MD", "-MF", depfile,
				 "-c", s->compile_source, "-o", s->object);
			/* the rewriter copies headers it rewrites into the build folder: what the original
			   file includes comes from the preprocessor, run on it as the compile would see it */
			struct args scan = { 0 };
			char *scanfile = xasprintf("%s.scan.d", s->object);
			ARGS_ADD(&scan, SIM_CXX, SIM_CXXFLAGS, include_flag, "-E", "-M", "-MG", "-MF", scanfile, "-x", "c++", rel,
				 "-o", "/dev/null");
			s->scan_argv = scan.v;
			free(scanfile);
			/* nvcc's front end judges what nvcc would accept; the simulator's g++ alone would take more */
			if (build_nvcc()) {
				struct args fe = { 0 };
				ARGS_ADD(&fe, build_nvcc(), NVCC_FLAGS, "-arch=sm_90", include_flag);
				if (beside)
					args_add(&fe, beside);
				/* -ptx: the front end of both sides and the device compile, not the host's
				   (a third of -cuda's time); -O0, for only its errors count */
				ARGS_ADD(&fe, "-ptx", "-Xcicc", "-O0", "-o", "/dev/null", nvcc_source);
				s->frontend_argv = fe.v;
			}
		}
		if (status == 0 && stale(s->object, &cmd, (const char *const *)&rel, 1, depfile)) {
			/* compiled under a name of its own and renamed by build_compiled, as build_step does */
			s->compile_argv = xcalloc((size_t)cmd.n + 1, sizeof(char *));
			for (int i = 0; i < cmd.n; i++)
				s->compile_argv[i] = !strcmp(cmd.v[i], s->object)
					? xasprintf("%s.tmp-%d", s->object, (int)getpid()) : xstrdup(cmd.v[i]);
			s->compile_line = args_join(&cmd);
		}
		args_free(&cmd);
		free(depfile);
		free(include);
		free(include_flag);
	}
	if (nvcc_source != rel)
		free(nvcc_source);
	free(beside);
	free(rel);
	return status;
}

char *
build_tidy_messages(const struct student_build *s, const char *text)
{
	/* nvcc says "path(12): error: …"; make it "path:12: error: …" like gcc, and name the file as given */
	struct buf out = { 0 };
	char *renamed = NULL;
	if (s->nvcc_link) {
		/* what nvcc read through a link is the student's file */
		struct buf named = { 0 };
		size_t n = strlen(s->nvcc_link);
		for (const char *p = text; *p;) {
			const char *at = strstr(p, s->nvcc_link);
			if (!at) {
				buf_addstr(&named, p);
				break;
			}
			buf_add(&named, p, (size_t)(at - p));
			buf_addstr(&named, s->source);
			p = at + n;
		}
		renamed = buf_detach(&named);
		text = renamed ? renamed : "";
	}
	for (const char *line = text; *line;) {
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
	return buf_detach(&out);
}

void
build_compiled(const struct student_build *s)
{
	char *tmp = xasprintf("%s/%s.tmp-%d", workbook_root(), s->object, (int)getpid());
	char *target = root_path(s->object);
	if (rename(tmp, target) == 0 && s->compile_line) {
		char *cmdfile = xasprintf("%s.cmd", s->object);
		write_file_atomic(cmdfile, s->compile_line, strlen(s->compile_line));
		free(cmdfile);
	}
	free(tmp);
	free(target);
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

int
build_check_includes(const struct student_build *s, struct buf *why)
{
	char *depfile = xasprintf("%s/%s%s", workbook_root(), s->object, s->backend == BACKEND_SIM ? ".scan.d" : ".d");
	char *text = read_file(depfile, NULL);
	free(depfile);
	if (!text)
		return 0; /* an object up to date from before: checked when it was compiled */
	/* the folders a submission may include from, inside the workbook */
	char *source_dir = NULL, *source = NULL, resolved[PATH_MAX];
	if (realpath(s->source, resolved)) {
		source = xstrdup(resolved);
		*strrchr(resolved, '/') = 0;
		source_dir = xstrdup(resolved);
	}
	static const char *const private_dirs[] = { "solutions", "harness", "sim", "build", "grader", "tui",
						     "shipped", ".git", ".cudalings" };
	char *include = public_include_dir(s->e);
	const char *allowed_dirs[] = { s->dir, include, s->backend == BACKEND_SIM ? "sim/include" : NULL };
	int refused = 0;
	char *cursor = dependencies(text);
	for (char *start; (start = next_dependency(&cursor));) {
		char *dep = start[0] == '/' ? xstrdup(start) : root_path(start);
		if (realpath(dep, resolved) && inside(resolved, ".")) {
			bool ok = source && !strcmp(resolved, source);
			for (size_t i = 0; i < sizeof(allowed_dirs) / sizeof(*allowed_dirs) && !ok; i++)
				ok = allowed_dirs[i] && inside(resolved, allowed_dirs[i]);
			if (!ok && source_dir && !strncmp(resolved, source_dir, strlen(source_dir)) &&
			    resolved[strlen(source_dir)] == '/') {
				ok = true;
				for (size_t i = 0; i < sizeof(private_dirs) / sizeof(*private_dirs) && ok; i++)
					ok = !inside(resolved, private_dirs[i]);
			}
			if (!ok && refused++ < 4)
				buf_addf(why, "%sincludes '%s': a submission may include only its exercise's header "
					 "(cudalings/%s.h) and the system's headers", refused > 1 ? "\n" : "",
					 resolved + strlen(workbook_root()) + 1, s->e->name);
		}
		free(dep);
	}
	free(include);
	free(source);
	free(source_dir);
	free(text);
	return refused ? -1 : 0;
}

int
build_link(struct student_build *s, struct buf *log)
{
	struct args cmd = { 0 };
	if (s->backend == BACKEND_GPU) {
		char *arch = xasprintf("-arch=%s", build_arch());
		ARGS_ADD(&cmd, build_nvcc(), arch, "-shared", "-cudart", "shared", "-o", s->library, s->object);
		free(arch);
	} else {
		/* the simulator's symbols come from the runner that loads it, and only those it exports */
		ARGS_ADD(&cmd, SIM_CXX, "-shared", "-o", s->library, s->object);
	}
	int status = build_step(s->library, &cmd, (const char *const *)&s->object, 1, NULL, log);
	args_free(&cmd);
	return status;
}

/* Remove a folder of plain files (a private build folder). */
static void
remove_build_dir(const char *dir)
{
	char *abs = root_path(dir);
	DIR *d = opendir(abs);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			char *path = xasprintf("%s/%s", abs, e->d_name);
			unlink(path);
			free(path);
		}
	if (d)
		closedir(d);
	rmdir(abs);
	free(abs);
}

void
build_release(struct student_build *s)
{
	if (s->private_dir && s->dir)
		remove_build_dir(s->dir);
	if (s->dir_lock >= 0 && s->dir)
		close(s->dir_lock);
	char **lists[] = { s->compile_argv, s->frontend_argv, s->scan_argv };
	for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++) {
		for (char **p = lists[i]; p && *p; p++)
			free(*p);
		free(lists[i]);
	}
	free(s->source);
	free(s->dir);
	free(s->object);
	free(s->library);
	free(s->runner);
	free(s->judge);
	free(s->compile_source);
	free(s->compile_line);
	free(s->nvcc_link);
	memset(s, 0, sizeof(*s));
}

int
build_compile_only(const struct exercise *e, const char *source, struct buf *log)
{
	if (write_header(e))
		return -1;
	char *object = xasprintf("build/compile-only/%s/%s.o", e->name,
				 strstr(source, "solutions/") ? "solution" : "exercise");
	int status = compile_cu(BACKEND_GPU, source, object, false, log);
	free(object);
	return status;
}
