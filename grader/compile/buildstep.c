/*
 * buildstep: one step of the grader's own builds (see buildstep.h): when a
 * target is stale, and the step run under a name of its own, then renamed.
 */
#include "grader/compile/buildstep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/run.h"
#include "lib/util.h"
#include "common/root.h"
#include "grader/compile/depfile.h"

/* The files a .d file lists, newer than `mtime`? */
static bool
deps_newer(const char *depfile, int64_t mtime)
{
	char *text = read_file(depfile, NULL);
	if (!text)
		return true;
	bool newer = false;
	char *cursor = depfile_list(text);
	for (char *dep; !newer && (dep = depfile_next(&cursor));) {
		int64_t t = file_mtime(dep);
		newer = t < 0 || t > mtime;
	}
	free(text);
	return newer;
}

/* Is `target` missing, built by another command, or older than a dependency? */
static bool
build_stale(const char *target, const struct args *cmd, const char *const *deps, int ndeps, const char *depfile)
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

/* Where a step writes before its file is renamed into place: a grading running beside it keeps its file. */
static char *
step_tmp_name(const char *target)
{
	return xasprintf("%s.tmp-%d", target, (int)getpid());
}

bool
buildstep_begin(const char *target, const struct args *cmd, const struct args *key, const char *const *deps,
		 int ndeps, const char *depfile, struct args *run)
{
	if (!build_stale(target, key, deps, ndeps, depfile))
		return false;
	char *tmp = step_tmp_name(target);
	for (int i = 0; i < cmd->n; i++)
		args_add(run, strcmp(cmd->v[i], target) ? cmd->v[i] : tmp);
	free(tmp);
	return true;
}

int
buildstep_done(const char *target, const char *key_line, struct buf *log)
{
	char *tmp = step_tmp_name(target), *tmp_abs = root_path(tmp), *target_abs = root_path(target);
	int status = 0;
	if (rename(tmp_abs, target_abs)) {
		buf_addf(log, "cannot rename '%s': %s\n", tmp, strerror(errno));
		status = -1;
	} else {
		char *cmdfile = xasprintf("%s.cmd", target);
		write_file_atomic(cmdfile, key_line, strlen(key_line));
		free(cmdfile);
	}
	free(tmp);
	free(tmp_abs);
	free(target_abs);
	return status;
}

int
buildstep_make_parent(const char *path, struct buf *log)
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
int
buildstep_run(const char *target, const struct args *cmd, const char *const *deps, int ndeps,
	   const char *depfile, struct buf *log)
{
	struct args run = ARGS_INIT;
	if (!buildstep_begin(target, cmd, cmd, deps, ndeps, depfile, &run))
		return 0;
	char *line = args_join(cmd), *tmp = step_tmp_name(target), *tmp_abs = root_path(tmp);
	struct buf out = BUF_INIT;
	bool ok = buildstep_make_parent(target, &out) == 0;
	if (ok && getenv("CUDALINGS_VERBOSE"))
		fprintf(stderr, "  %s\n", line);
	run_remove_on_signal(tmp_abs, true); /* a Ctrl-C mid-compile leaves no half-made file */
	ok = ok && run_command(run.v, workbook_root(), 600, &out) && buildstep_done(target, line, &out) == 0;
	if (!ok) {
		buf_addf(log, "%s\n%s", line, buf_str(&out));
		unlink(tmp_abs);
	}
	run_remove_on_signal(tmp_abs, false);
	free(line);
	free(tmp);
	free(tmp_abs);
	args_free(&run);
	buf_free(&out);
	return ok ? 0 : -1;
}
