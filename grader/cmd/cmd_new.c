/* cudalings new: scaffold an exercise for an instructor (grader/exercise/scaffold.c writes the four files). */
#include <stdio.h>
#include <string.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "lib/util.h"
#include "common/root.h"
#include "grader/exercise/scaffold.h"

static const struct option_spec options[] = {
	OPT_VALUE("after", "ITEM", "place it after this item in the workbook (default: at the end)"),
	OPT_VALUE("dims", "n|rows,cols", "its sizes: a vector (n, the default) or a matrix (rows,cols, a 2-D grid)"),
	OPTIONS_END,
};

static int
cmd_new(const struct parsed_args *a)
{
	const char *name = a->operands[0];
	/* the workbook must load before and after: a broken manifest is fixed first */
	command_manifest();
	const char *dims = options_value(a, "dims");
	if (dims && strcmp(dims, "n") && strcmp(dims, "rows,cols"))
		return command_usage_error("--dims takes 'n' (a vector) or 'rows,cols' (a matrix), not '%s'", dims);
	struct buf written = BUF_INIT;
	int status = scaffold_new(name, options_value(a, "after"), dims && !strcmp(dims, "rows,cols"), &written);
	if (status) {
		buf_free(&written);
		return status == -2 ? EXIT_USAGE : EXIT_ENVIRONMENT;
	}
	printf("wrote\n");
	for (char *line = written.data; line && *line;) {
		char *end = strchrnul(line, '\n');
		printf("  %.*s\n", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
	printf("next: write the check's reference (%sharness/checks/%s.cpp) and the solution "
	       "(%ssolutions/%s.cu),\n      then 'cudalings reset %s' for a fresh starter and "
	       "'cudalings check %s' until it is consistent\n", workbook_dir(), name, workbook_dir(), name, name, name);
	buf_free(&written);
	return EXIT_PASS;
}

const struct command command_new = {
	.name = "new",
	.operands = "NAME",
	.min_operands = 1,
	.max_operands = 1,
	.missing = "name the exercise, e.g. 'cudalings new reverse'",
	.takes = "one name",
	.summary = "scaffold a new exercise (instructors)",
	.run = cmd_new,
	.options = options,
};
