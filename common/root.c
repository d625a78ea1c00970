/* root: finding the workbook's folder (see root.h). */
#include "common/root.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/exit.h"
#include "lib/util.h"

static bool
holds_workbook(const char *dir)
{
	char *probe = path_join(dir, "workbook.json");
	bool ok = access(probe, R_OK) == 0;
	free(probe);
	return ok;
}

char *
workbook_find_root(void)
{
	const char *env = getenv("CUDALINGS_ROOT");
	char dir[PATH_MAX];
	if (env && *env) {
		if (holds_workbook(env) && realpath(env, dir))
			return xstrdup(dir);
		error("CUDALINGS_ROOT is '%s', but there is no workbook.json there", env);
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
	return xasprintf("%s/%s", workbook_root(), rel);
}
