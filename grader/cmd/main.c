/*
 * cudalings — the command line: the table of commands (each in its own
 * grader/cmd_NAME.c), the dispatch, and the usage text made from the
 * table. With no command it opens the workbook (cudalings-tui, beside it).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "common/json.h"
#include "lib/util.h"

static int cmd_help(const struct parsed_args *a);
static int cmd_tui(const struct parsed_args *a);

static const struct command command_help = {
	.name = "help",
	.operands = "[COMMAND]",
	.max_operands = 1,
	.takes = "one command",
	.summary = "this text, or a command's usage and options",
	.run = cmd_help,
};

static const struct command command_tui = {
	.name = "tui",
	.summary = "open the workbook (the same as no command)",
	.run = cmd_tui,
};

/* In the order `cudalings help` lists them. */
static const struct command *const commands[] = {
	&command_list, &command_status, &command_grade, &command_hint, &command_solution, &command_run, &command_reset,
	&command_starter, &command_starters,
	&command_check, &command_new, &command_batch, &command_sass, &command_board, &command_prepare, &command_tui,
	&command_help,
};
#define NCOMMANDS ((int)(ARRAY_SIZE(commands)))

/* "cudalings grade NAME [--file PATH] …", wrapped under itself. */
static void
print_synopsis(FILE *out, const struct command *c, const char *lead)
{
	int column = fprintf(out, "%scudalings %s", lead, c->name);
	if (c->operands)
		column += fprintf(out, " %s", c->operands);
	options_synopsis(out, c->options, column < 40 ? column : 13, 100);
	fputc('\n', out);
}

static void
print_usage(FILE *out)
{
	fprintf(out, "usage: cudalings               open the workbook (the TUI)\n");
	for (int i = 0; i < NCOMMANDS; i++) {
		print_synopsis(out, commands[i], "       ");
		fprintf(out, "           %s\n", commands[i]->summary);
	}
	fprintf(out, "\nexit status: 0 pass, 1 fail, 2 usage error, 3 environment error (no toolkit, no GPU)\n");
}

static void
print_command_usage(FILE *out, const struct command *c)
{
	print_synopsis(out, c, "usage: ");
	fprintf(out, "\n%s\n", c->summary);
	if (c->options && c->options[0].name) {
		fprintf(out, "\noptions:\n");
		options_describe(out, c->options);
	}
}

/* The command called `name`, or NULL after saying so (with the nearest one, when one is near). */
static const struct command *
find_command(const char *name, FILE *usage_to)
{
	const char *closest = NULL;
	int best = 3;
	for (int i = 0; i < NCOMMANDS; i++) {
		if (!strcmp(name, commands[i]->name))
			return commands[i];
		int d = edit_distance(name, commands[i]->name);
		if (d < best) {
			best = d;
			closest = commands[i]->name;
		}
	}
	if (closest)
		error("'%s' is not a cudalings command: did you mean '%s'?", name, closest);
	else
		error("'%s' is not a cudalings command", name);
	if (usage_to)
		print_usage(usage_to);
	return NULL;
}

static int
cmd_help(const struct parsed_args *a)
{
	if (!a->noperands) {
		print_usage(stdout);
		return EXIT_PASS;
	}
	const struct command *c = find_command(a->operands[0], NULL);
	if (!c)
		return EXIT_USAGE;
	print_command_usage(stdout, c);
	return EXIT_PASS;
}

static int
open_tui(char **argv)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return error("cannot find where cudalings is installed"), EXIT_ENVIRONMENT;
	self[n] = 0;
	*strrchr(self, '/') = 0;
	char *tui = xasprintf("%s/cudalings-tui", self);
	execv(tui, argv);
	error("cannot open the workbook screen '%s': %s (run 'make tui' to build it)", tui, strerror(errno));
	free(tui);
	return EXIT_ENVIRONMENT;
}

static char **tui_argv;

static int
cmd_tui(const struct parsed_args *a)
{
	(void)a;
	return open_tui(tui_argv);
}

/* Read the command's words against its table and run it. */
static int
run_command_line(const struct command *c, int argc, char **argv)
{
	struct parsed_args a;
	int parsed = options_parse(c->name, c->options, argc, argv, &a);
	if (parsed < 0)
		return EXIT_USAGE;
	if (parsed > 0) {
		print_command_usage(stdout, c);
		return EXIT_PASS;
	}
	if (a.noperands < c->min_operands)
		return command_usage_error("%s: %s", c->name, c->missing ? c->missing : "too few arguments");
	if (c->max_operands >= 0 && a.noperands > c->max_operands) {
		if (!c->max_operands)
			return command_usage_error("%s takes no arguments; '%s' is one too many", c->name, a.operands[0]);
		return command_usage_error("%s takes %s; '%s' is one too many", c->name, c->takes,
				   a.operands[c->max_operands]);
	}
	return c->run(&a);
}

int
main(int argc, char **argv)
{
	error_set_program("cudalings");
	json_init();
	/* The OpenMP threads of the programs the grader starts (the judge's reference, the runner's inputs) sleep
	   when they have nothing to do, instead of spinning first: on the simulator that spin took a third or more
	   of a grading's CPU from the kernels running beside it (bench/make-test.md). A value you set stays. */
	setenv("OMP_WAIT_POLICY", "passive", 0);
	tui_argv = argv;
	if (argc < 2)
		return open_tui(argv);
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_usage(stdout);
		return EXIT_PASS;
	}
	const struct command *c = find_command(name, stderr);
	if (!c)
		return EXIT_USAGE;
	return run_command_line(c, argc - 1, argv + 1);
}
