/*
 * cudalings starter, starters, reset: the starters made from the solutions —
 * printed, written where missing (or checked), or put back over a student's
 * file after a backup of it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command.h"
#include "common/exit.h"
#include "lib/util.h"
#include "common/root.h"

/* The exercise the one operand names, and its starter (yours to free); 0, or the exit status. */
static int
exercise_with_starter(const struct parsed_args *a, struct exercise **e, char **starter)
{
	const char *name = a->operands[0];
	*e = find_exercise(name, true);
	if (!*e)
		return EXIT_USAGE;
	if (!(*e)->file) {
		error("'%s' is a demo: it has no starter (cudalings run %s runs it)", name, name);
		return EXIT_USAGE;
	}
	*starter = make_starter(*e);
	return *starter ? 0 : EXIT_ENVIRONMENT;
}

static int
cmd_starter(const struct parsed_args *a)
{
	struct exercise *e;
	char *starter;
	int status = exercise_with_starter(a, &e, &starter);
	if (status)
		return status;
	fputs(starter, stdout);
	free(starter);
	return EXIT_PASS;
}

/* Copy the student's file aside before anything replaces it; returns the backup's path. */
static char *
backup_file(const struct exercise *e, const char *path)
{
	size_t length;
	char *text = read_file(path, &length);
	if (!text)
		return NULL;
	char stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	char *dir = root_path(".cudalings/backup");
	char *backup = NULL;
	if (mkdir_p(dir) == 0)
		for (int n = 0; n < 100 && !backup; n++) {
			char *candidate = n ? xasprintf("%s/%s-%s-%d.cu", dir, e->name, stamp, n)
					    : xasprintf("%s/%s-%s.cu", dir, e->name, stamp);
			if (!file_exists(candidate) && write_file_atomic(candidate, text, length) == 0)
				backup = candidate;
			else
				free(candidate);
		}
	free(dir);
	free(text);
	return backup;
}

static int
cmd_reset(const struct parsed_args *a)
{
	struct exercise *e;
	char *starter;
	int status = exercise_with_starter(a, &e, &starter);
	if (status)
		return status;
	char *path = root_path(e->file);
	char *backup = NULL;
	if (file_exists(path) && !(backup = backup_file(e, path))) {
		error("cannot back up '%s', so it was left as it is", e->file);
		status = EXIT_ENVIRONMENT;
	} else if (write_file_atomic(path, starter, strlen(starter))) {
		error("cannot write '%s': %s", e->file, strerror(errno));
		status = EXIT_ENVIRONMENT;
	} else if (backup) {
		printf("%s is the starter again; your version is in %s\n", e->file, backup + strlen(workbook_root()) + 1);
	} else {
		printf("%s is the starter\n", e->file);
	}
	free(backup);
	free(path);
	free(starter);
	return status;
}

static const struct option_spec starters_options[] = {
	OPT_SWITCH("check", "write nothing: fail when a starter differs from what its solution makes"),
	OPTIONS_END,
};

static int
cmd_starters(const struct parsed_args *a)
{
	bool check = option_given(a, "check");
	struct manifest *m = workbook_manifest();
	int status = EXIT_PASS;
	for (int i = 0; i < m->count; i++) {
		const struct exercise *e = &m->items[i];
		if (!e->file)
			continue;
		char *starter = make_starter(e);
		if (!starter) {
			status = EXIT_FAIL;
			continue;
		}
		char *path = root_path(e->file);
		char *current = read_file(path, NULL);
		if (current && !strcmp(current, starter)) {
			/* in sync */
		} else if (check) {
			error("%s is out of date with %s: run 'cudalings starters' (or 'make starters')", e->file,
			      e->solution);
			status = EXIT_FAIL;
		} else if (current) {
			printf("kept %s: it differs from the starter (edited?); 'cudalings reset %s' replaces it "
			       "and keeps a backup\n", e->file, e->name);
		} else if (write_file_atomic(path, starter, strlen(starter))) {
			error("cannot write '%s': %s", e->file, strerror(errno));
			status = EXIT_ENVIRONMENT;
		} else {
			printf("wrote %s\n", e->file);
		}
		free(current);
		free(path);
		free(starter);
	}
	return status;
}

const struct command command_starter = {
	.name = "starter",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "give one exercise name",
	.takes = "one exercise",
	.summary = "print the starter of an exercise",
	.run = cmd_starter,
};

const struct command command_reset = {
	.name = "reset",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "give one exercise name",
	.takes = "one exercise",
	.summary = "put the starter back (your file is kept as a backup)",
	.run = cmd_reset,
};

const struct command command_starters = {
	.name = "starters",
	.summary = "write missing starters from the solutions, or check they match",
	.run = cmd_starters,
	.options = starters_options,
};
