/*
 * exit: the exit statuses of every program of the project, and what the
 * grader's callers (the workbook, batch, make) read from them.
 */
#ifndef LIB_EXIT_H
#define LIB_EXIT_H

enum exit_status {
	EXIT_PASS = 0,		/* graded and passed; a command that did what it was asked */
	EXIT_FAIL = 1,		/* graded and failed; a check that found problems */
	EXIT_USAGE = 2,		/* a bad command line, an unknown exercise, an unreadable file */
	EXIT_ENVIRONMENT = 3,	/* the machine stops it: no toolkit, no GPU asked for, out of memory */
	EXIT_CANNOT_RUN = 127,	/* a child that could not be started (the shell's number) */
	EXIT_FATAL = 128,	/* the workbook gave up (die()): it says why */
	EXIT_INTERRUPTED = 130,	/* stopped by Ctrl-C (128 + SIGINT), e.g. a batch, which can resume */
};

#endif
