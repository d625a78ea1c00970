/*
 * make-exit: a GNU make plugin that the Makefile loads for `make grade` only
 * (built as build/make_exit.so: make calls make_exit_gmk_setup by that name).
 *
 * Why: make reports a failed recipe with a line of its own ("make: ***
 * [Makefile:117: grade] Error 1") and exits 2, whatever the recipe's status,
 * and a Ctrl-C that reaches make while the recipe ends races make's own
 * wait ("make: *** wait: No child processes. Stop."). A grading's FAIL is no
 * failure of make's, and its Ctrl-C is the grader's to report. So:
 *
 *   $(cudalings-hold-interrupt )  in the grading's recipe (expanded as it
 *       starts, its prerequisites built): make itself lets SIGINT pass while
 *       the grader, which gets it from the terminal too, says "interrupted"
 *       and ends; the recipe cannot fail and writes the grader's status down.
 *   $(cudalings-exit FILE)  in the next target's recipe: FILE's status, when
 *       not 0, ends make at once with that status (130 after a Ctrl-C), the
 *       file removed; 0 gives make its SIGINT back and lets it finish.
 *
 * The space before the closing parenthesis is what makes make call the
 * function: `$(name)` with nothing after the name is a reference to a
 * variable of that name, empty, and for a while that is what the recipe had
 * (make kept its own SIGINT handler, and now and then, when the recipe had
 * ended just before, it said "wait: No child processes" and exited 2).
 *
 * So `make grade` exits 0, 1, 2, 3 or 130 as cudalings does and prints only
 * what cudalings printed.
 */
#include <gnumake.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

int plugin_is_GPL_compatible;

static struct sigaction make_own;
static int held;

static void
let_pass(int sig)
{
	(void)sig;
}

static char *
hold_interrupt(const char *name, unsigned int argc, char **argv)
{
	(void)name;
	(void)argc;
	(void)argv;
	struct sigaction sa = { .sa_handler = let_pass };
	sigemptyset(&sa.sa_mask);
	if (!held && sigaction(SIGINT, &sa, &make_own) == 0)
		held = 1;
	return NULL;
}

static char *
exit_with_status(const char *name, unsigned int argc, char **argv)
{
	(void)name;
	(void)argc;
	FILE *f = fopen(argv[0], "r");
	int status = 0;
	if (f) {
		if (fscanf(f, "%d", &status) != 1)
			status = 0;
		fclose(f);
	}
	if (status > 0 && status < 256) {
		remove(argv[0]);
		fflush(stdout);
		exit(status);
	}
	if (held)
		sigaction(SIGINT, &make_own, NULL);
	held = 0;
	return NULL;
}

int
make_exit_gmk_setup(const gmk_floc *where)
{
	(void)where;
	gmk_add_function("cudalings-hold-interrupt", hold_interrupt, 0, 0, GMK_FUNC_DEFAULT);
	gmk_add_function("cudalings-exit", exit_with_status, 1, 1, GMK_FUNC_DEFAULT);
	return 1;
}
