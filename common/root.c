/* root: finding the workbook's folder (see root.h). */
#include "common/root.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/exit.h"
#include "lib/util.h"

static bool course_missing; /* CUDALINGS_WORKBOOK names no file: no root is found */

/* CUDALINGS_WORKBOOK made absolute, once, before anything moves to the root; NULL when unset. */
static const char *
course_file(void)
{
	static char *file;
	static bool looked;
	if (looked)
		return file;
	looked = true;
	const char *env = getenv("CUDALINGS_WORKBOOK");
	char path[PATH_MAX];
	if (!env || !*env)
		return NULL;
	if (!realpath(env, path) || is_directory(path)) {
		error("CUDALINGS_WORKBOOK is '%s', which is not a workbook.json file", env);
		course_missing = true;
		return NULL;
	}
	file = xstrdup(path);
	/* the grader's own children (a batch's gradings) run elsewhere: they get the same file */
	setenv("CUDALINGS_WORKBOOK", file, 1);
	return file;
}

/* With a course of its own elsewhere, the root is where the grader's machinery is; else the workbook's. */
static const char *
root_marker(void)
{
	return course_file() ? "harness/runner.cu" : "workbook.json";
}

static bool
holds_workbook(const char *dir)
{
	char *probe = path_join(dir, root_marker());
	bool ok = access(probe, R_OK) == 0;
	free(probe);
	return ok;
}

char *
workbook_find_root(void)
{
	const char *env = getenv("CUDALINGS_ROOT");
	char dir[PATH_MAX];
	if (course_file(), course_missing)
		return NULL;
	if (env && *env) {
		if (holds_workbook(env) && realpath(env, dir))
			return xstrdup(dir);
		error("CUDALINGS_ROOT is '%s', but there is no %s there", env, root_marker());
		return NULL;
	}
	if (getcwd(dir, sizeof(dir))) {
		for (;;) {
			if (holds_workbook(dir))
				return xstrdup(dir);
			char *slash = strrchr(dir, '/');
			if (!slash || slash == dir)
				break;
			*slash = 0;
		}
	}
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n > 0) {
		dir[n] = 0;
		for (int up = 0; up < 2; up++) {
			char *slash = strrchr(dir, '/');
			if (slash)
				*slash = 0;
		}
		if (holds_workbook(dir))
			return xstrdup(dir);
	}
	error("no workbook here: run cudalings inside the workbook folder (the one with workbook.json) "
	      "or set CUDALINGS_ROOT");
	return NULL;
}

const char *
workbook_root(void)
{
	static char *root;
	if (!root && !(root = workbook_find_root()))
		die(EXIT_USAGE, "%s", last_error());
	return root;
}

char *
root_path(const char *rel)
{
	return rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", workbook_root(), rel);
}

const char *
workbook_file(void)
{
	static char *file;
	if (!file)
		file = course_file() ? xstrdup(course_file()) : root_path("workbook.json");
	return file;
}

const char *
workbook_dir(void)
{
	static char *dir;
	if (dir)
		return dir;
	const char *file = workbook_file(), *slash = strrchr(file, '/');
	size_t root = strlen(workbook_root());
	if (!course_file() || (size_t)(slash - file) == root)
		dir = xstrdup("");
	else if (!strncmp(file, workbook_root(), root) && file[root] == '/')
		dir = xasprintf("%.*s/", (int)(slash - file - root - 1), file + root + 1);
	else
		dir = xasprintf("%.*s/", (int)(slash - file), file);
	return dir;
}
