/*
 * command: what cudalings' commands share (see command.h): the workbook,
 * exercises by name, the backend, usage errors, demos' variants, starters.
 */
#include "grader/cmd/command.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/exit.h"
#include "grader/compile/gradable.h"
#include "lib/util.h"
#include "common/root.h"
#include "grader/exercise/starter.h"

struct manifest *
command_manifest(void)
{
	static struct manifest manifest;
	static bool loaded;
	if (loaded)
		return &manifest;
	if (manifest_load(&manifest))
		exit(EXIT_USAGE);
	if (chdir(workbook_root()))
		die(EXIT_ENVIRONMENT, "cannot enter the workbook '%s': %s", workbook_root(), strerror(errno));
	loaded = true;
	return &manifest;
}

int
command_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *message = xvasprintf(fmt, ap);
	va_end(ap);
	error("%s\n(cudalings --help shows the usage)", message);
	free(message);
	return EXIT_USAGE;
}

struct exercise *
command_find_exercise(const char *name, bool need_file)
{
	struct manifest *m = command_manifest();
	if (strchr(name, '/') || strstr(name, "..") || !*name) {
		error("'%s' is not an exercise name: give a name from 'cudalings list', not a path "
		      "(use --file PATH for a file)", name);
		return NULL;
	}
	struct exercise *e = manifest_find(m, name);
	if (e && need_file && e->kind == ITEM_LESSON) {
		error("'%s' is a lesson to read, not an exercise to grade", name);
		return NULL;
	}
	if (e)
		return e;
	const char *guess = manifest_suggest(m, name);
	if (guess)
		error("there is no exercise '%s'; did you mean '%s'?", name, guess);
	else
		error("there is no exercise '%s'", name);
	fputs("the exercises are:", stderr);
	for (int i = 0; i < m->count; i++)
		if (m->items[i].kind != ITEM_LESSON)
			fprintf(stderr, " %s", m->items[i].name);
	fputc('\n', stderr);
	return NULL;
}

int
command_choose_backend(struct grade_options *o, const char *requested)
{
	if (requested) {
		o->backend_given = true;
		if (!strcmp(requested, "gpu"))
			o->backend = BACKEND_GPU;
		else if (!strcmp(requested, "sim"))
			o->backend = BACKEND_SIM;
		else
			return command_usage_error("--backend is 'gpu' or 'sim', not '%s'", requested);
		if (o->backend == BACKEND_GPU && !toolchain_gpu_present())
			return error("--backend gpu: no NVIDIA GPU found on this machine "
				     "(leave --backend out to use the CPU simulator)"), EXIT_ENVIRONMENT;
		if (o->backend == BACKEND_GPU && !toolchain_nvcc())
			return error("--backend gpu: no CUDA compiler (nvcc is not on PATH; install the CUDA "
				     "toolkit or set CUDALINGS_NVCC)"), EXIT_ENVIRONMENT;
	} else {
		o->backend = toolchain_gpu_present() && toolchain_nvcc() ? BACKEND_GPU : BACKEND_SIM;
		if (toolchain_gpu_present() && !toolchain_nvcc())
			warn("a GPU is here but nvcc is not on PATH: using the CPU simulator");
	}
	if (o->backend == BACKEND_SIM && !toolchain_sim_ready())
		return error("the CPU simulator is not built: run 'make sim' (or 'make grade', which builds it)"),
		       EXIT_ENVIRONMENT;
	return 0;
}

/* A submission the grader will read: a regular, readable, text file of sane size (gradable.c says why not). */
int
command_check_submission(const char *path)
{
	char *why = gradable_reason(path, path);
	int status = why ? error("%s", why) : 0;
	free(why);
	return status;
}

/* Whether the file graded (`file`, NULL for the default) is the exercise's own in the workbook. */
bool
command_is_own_file(const char *file, const char *own)
{
	if (!file)
		return true;
	char *a = realpath(file, NULL), *b = realpath(own, NULL);
	bool same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
command_demo_variants(const struct exercise *e, char ***out)
{
	char *rel_dir = xasprintf("%sdemos/%s", e->dir, e->name), *dir = root_path(rel_dir);
	DIR *d = opendir(dir);
	int count = 0, cap = 8;
	char **names = xmalloc(sizeof(char *) * (size_t)cap);
	for (struct dirent *entry; d && (entry = readdir(d));) {
		size_t n = strlen(entry->d_name);
		if (n <= 3 || strcmp(entry->d_name + n - 3, ".cu"))
			continue;
		if (count == cap)
			names = xrealloc(names, sizeof(char *) * (size_t)(cap *= 2));
		names[count++] = xasprintf("%s/%s", rel_dir, entry->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, (size_t)count, sizeof(*names), compare_names);
	free(dir);
	free(rel_dir);
	*out = names;
	return count;
}

char *
command_make_starter(const struct exercise *e)
{
	char *path = root_path(e->solution);
	char *solution = read_file(path, NULL);
	char *starter = NULL;
	if (!solution && errno == ENOENT) {
		/* a student copy (make dist) ships the starters made from the solutions it leaves out */
		char *shipped = xasprintf("%s/shipped/starters/%s.cu", workbook_root(), e->name);
		starter = read_file(shipped, NULL);
		free(shipped);
		if (starter) {
			free(path);
			return starter;
		}
		errno = ENOENT;
	}
	if (!solution) {
		error("cannot read '%s': %s", e->solution, strerror(errno));
	} else {
		struct buf err = BUF_INIT;
		starter = starter_from_solution(solution, e->solution, &err);
		if (!starter)
			error("%s", err.data);
		buf_free(&err);
	}
	free(solution);
	free(path);
	return starter;
}
