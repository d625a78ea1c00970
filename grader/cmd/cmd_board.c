/* cudalings board: a class's batch results ranked per exercise (grader/batch/board.c ranks and writes them). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "grader/batch/board.h"
#include "grader/cmd/command.h"
#include "lib/exit.h"

static const struct option_spec options[] = {
	OPT_VALUE("html", "FILE", "write the board as one static page too"),
	OPT_SWITCH("pseudonyms", "stable pseudonyms instead of the students' names"),
	OPT_VALUE("salt", "TEXT", "with --pseudonyms: the salt (default: the one kept in the first OUT)"),
	OPTIONS_END,
};

static int
cmd_board(const struct parsed_args *a)
{
	struct board_options bo = {
		.outs = a->operands,
		.nouts = a->noperands,
		.html = options_value(a, "html"),
		.pseudonyms = options_given(a, "pseudonyms"),
		.salt = options_value(a, "salt"),
		.color = isatty(1) && !getenv("NO_COLOR"),
	};
	if (bo.html && !*bo.html)
		return command_usage_error("board: '--html' needs a value");
	if (bo.salt && !*bo.salt)
		return command_usage_error("board: '--salt' needs a value");
	if (bo.salt && !bo.pseudonyms)
		return command_usage_error("board: --salt goes with --pseudonyms");
	return board_run(&bo, stdout);
}

const struct command command_board = {
	.name = "board",
	.operands = "OUT...",
	.min_operands = 1,
	.max_operands = -1,
	.missing = "say which batch results to rank, e.g. 'cudalings board results/'",
	.summary = "rank a class's batch results per exercise, as a table and a static page",
	.run = cmd_board,
	.options = options,
};
