/*
 * buildstep: one step of the grader's own builds. A target is made by a
 * command (an argv list) unless it is up to date: it exists, the same
 * command made it (remembered in TARGET.cmd), and nothing it depends on —
 * the files named, and those its compiler's .d file lists — is newer. A step
 * builds under a name of its own and renames, so a grading running beside
 * it never loads half a file.
 */
#ifndef CUDALINGS_BUILDSTEP_H
#define CUDALINGS_BUILDSTEP_H

#include <stdbool.h>

#include "lib/args.h"
#include "lib/util.h"

/* Where a .d file's text lists its files (after the target's colon). */
char *depfile_list(char *text);
/* The next file of that list, cut out of *cursor in place; NULL at its end. */
char *depfile_next(char **cursor);

/* Is `target` missing, made by another command, or older than one of deps or of what depfile lists? */
bool build_stale(const char *target, const struct args *cmd, const char *const *deps, int ndeps,
		 const char *depfile);
/* Create the folder `path` is in; -1 with the reason added to log. */
int build_make_parent(const char *path, struct buf *log);
/* Run cmd to make target unless it is up to date (paths relative to the workbook); -1 with its output in log. */
int build_step(const char *target, const struct args *cmd, const char *const *deps, int ndeps,
	       const char *depfile, struct buf *log);

#endif
