/*
 * cudalings starter, starters, reset, solution: the files made from the
 * solutions — a starter printed, written where missing (or checked), or put
 * back over a student's file after a backup of it; a solution shown as the
 * student writes it, or put in place of the student's file the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grader/cmd/command.h"
#include "common/markers.h"
#include "common/state.h"
#include "lib/exit.h"
#include "lib/util.h"
#include "common/root.h"

/* The exercise the one operand names, and its starter (yours to free); 0, or the exit status. */
static int
exercise_with_starter(const struct parsed_args *a, struct exercise **e, char **starter)
{
	const char *name = a->operands[0];
	*e = command_find_exercise(name, true);
	if (!*e)
		return EXIT_USAGE;
	if (!(*e)->file) {
		error("'%s' is a demo: it has no starter (cudalings run %s runs it)", name, name);
		return EXIT_USAGE;
	}
	*starter = command_make_starter(*e);
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

/*
 * The student's file replaced by text after a backup of it, and said: "FILE is <now>; your version is in
 * BACKUP" (<fresh> when there was no file). 0, or the exit status.
 */
static int
replace_student_file(const struct exercise *e, const char *text, size_t length, const char *now, const char *fresh)
{
	char *path = root_path(e->file);
	char *backup = NULL;
	int status = 0;
	if (file_exists(path) && !(backup = backup_file(e, path))) {
		error("cannot back up '%s', so it was left as it is", e->file);
		status = EXIT_ENVIRONMENT;
	} else if (write_file_atomic(path, text, length)) {
		error("cannot write '%s': %s", e->file, strerror(errno));
		status = EXIT_ENVIRONMENT;
	} else if (backup) {
		printf("%s is %s; your version is in %s\n", e->file, now, backup + strlen(workbook_root()) + 1);
	} else {
		printf("%s is %s\n", e->file, fresh);
	}
	free(backup);
	free(path);
	return status;
}

static int
cmd_reset(const struct parsed_args *a)
{
	struct exercise *e;
	char *starter;
	int status = exercise_with_starter(a, &e, &starter);
	if (status)
		return status;
	status = replace_student_file(e, starter, strlen(starter), "the starter again", "the starter");
	free(starter);
	return status;
}

static const struct option_spec solution_options[] = {
	OPT_SWITCH("yes", "show it without asking, though the exercise has not passed yet"),
	OPT_SWITCH("use", "put it in place of your file (yours is kept in .cudalings/backup/, as reset does)"),
	OPTIONS_END,
};

struct solution_text {
	struct buf text;
	bool gutter; /* a terminal's: the lines the student writes marked */
};

static void
solution_line(const char *line, size_t length, bool answer, void *ctx)
{
	struct solution_text *t = ctx;
	if (t->gutter)
		buf_addstr(&t->text, answer ? "┃ " : "  ");
	buf_add(&t->text, line, length);
	buf_addstr(&t->text, "\n");
}

/* The workbook's rule: before a pass, the solution is shown only to one who says so. 0, or the exit status. */
static int
ask_before_pass(const struct exercise *e, bool yes)
{
	struct state st;
	state_load(&st, workbook_root());
	enum status s = state_status(&st, e->name);
	state_free(&st);
	if (yes || s == STATUS_SIM || s == STATUS_GPU)
		return 0;
	if (!isatty(0)) {
		error("you have not passed %s yet: 'cudalings solution %s --yes' shows it anyway", e->name, e->name);
		return EXIT_USAGE;
	}
	fprintf(stderr, "You have not passed %s yet. Show the solution anyway? [y/N] ", e->name);
	fflush(stderr);
	char answer[16] = "";
	if (!fgets(answer, sizeof(answer), stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
		fprintf(stderr, "the solution stays hidden; 'cudalings hint %s' gives the next hint\n", e->name);
		return EXIT_FAIL;
	}
	return 0;
}

static int
cmd_solution(const struct parsed_args *a)
{
	const char *name = a->operands[0];
	struct exercise *e = command_find_exercise(name, true);
	if (!e)
		return EXIT_USAGE;
	if (!e->file) {
		error("'%s' is a demo: its variants are all there is (cudalings run %s runs them)", name, name);
		return EXIT_USAGE;
	}
	if (!manifest_item_solution_present(e)) {
		error("%s has no solution to show here (a student copy ships none)", name);
		return EXIT_USAGE;
	}
	bool use = options_given(a, "use");
	int status = ask_before_pass(e, options_given(a, "yes"));
	if (status)
		return status;
	char *path = root_path(e->solution);
	char *source = read_file(path, NULL);
	free(path);
	if (!source) {
		error("cannot read '%s'", e->solution);
		return EXIT_ENVIRONMENT;
	}
	struct solution_text t = { .text = BUF_INIT, .gutter = !use && isatty(1) };
	markers_solution_lines(source, solution_line, &t);
	free(source);
	if (!use) {
		if (t.gutter)
			printf("┃ marks the lines you write; the rest is as the starter has it (%s)\n\n", e->solution);
		fputs(buf_str(&t.text), stdout);
		buf_free(&t.text);
		return EXIT_PASS;
	}
	status = replace_student_file(e, buf_str(&t.text), t.text.len, "the solution now", "the solution now");
	buf_free(&t.text);
	return status;
}

static const struct option_spec starters_options[] = {
	OPT_SWITCH("check", "write nothing: fail when a starter differs from what its solution makes"),
	OPTIONS_END,
};

static int
cmd_starters(const struct parsed_args *a)
{
	bool check = options_given(a, "check");
	struct manifest *m = command_manifest();
	int status = EXIT_PASS;
	for (int i = 0; i < m->count; i++) {
		const struct exercise *e = &m->items[i];
		if (!e->file)
			continue;
		char *starter = command_make_starter(e);
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

const struct command command_solution = {
	.name = "solution",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "say which exercise, e.g. 'cudalings solution col_sums'",
	.takes = "one exercise",
	.summary = "the solution as you would write it (asks first before a pass; --use puts it in place, with a backup)",
	.run = cmd_solution,
	.options = solution_options,
};
