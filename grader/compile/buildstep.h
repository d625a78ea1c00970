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

/*
 * A step whose command the caller runs itself (the student's compile, beside the judge and the runner's
 * start): false when `target` is up to date by `key`, the command as the cache remembers it (cmd, or more);
 * else true, with `run` set to cmd writing to a name of its own instead of `target` (you own it), which
 * buildstep_done renames into place once it has run.
 */
bool buildstep_begin(const char *target, const struct args *cmd, const struct args *key,
		      const char *const *deps, int ndeps, const char *depfile, struct args *run);
/* After buildstep_begin's command succeeded: its file renamed to `target`, and `key_line` (the key, joined)
   remembered; -1 with the reason in log. */
int buildstep_done(const char *target, const char *key_line, struct buf *log);
/* Create the folder `path` is in; -1 with the reason added to log. */
int buildstep_make_parent(const char *path, struct buf *log);
/* Run cmd to make target unless it is up to date (paths relative to the workbook); -1 with its output in log. */
int buildstep_run(const char *target, const struct args *cmd, const char *const *deps, int ndeps,
	       const char *depfile, struct buf *log);

#endif
