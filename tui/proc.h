/*
 * proc: child processes.  A job runs in its own process group with its output
 * on non-blocking pipes, so the screen keeps answering while it works and Esc
 * can kill it with all its children.  Pure: no curses.
 */
#ifndef TUI_PROC_H
#define TUI_PROC_H

#include <poll.h>
#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

struct job {
	pid_t pid;		/* 0 when none runs */
	int out, err;		/* pipes from its stdout and stderr; -1 once closed */
	struct sbuf out_text;	/* all of its stdout */
	struct sbuf err_part;	/* stderr not yet ended by '\n' */
	int status;		/* exit status once done; -1 when killed by a signal */
	long long started_ms;
};

/* Start argv[0] (found on PATH) in cwd with stdin from /dev/null. -1 with error() set. */
int job_start(struct job *j, char *const argv[], const char *cwd);
/* Add the job's open pipes to fds; returns how many were added (0 to 2). */
int job_pollfds(const struct job *j, struct pollfd *fds);
/*
 * Read whatever the job wrote, calling on_line for each complete stderr line
 * (without its '\n').  Returns true once the job has exited and its output
 * has been read: j->status is then set and j->pid is 0.
 */
bool job_pump(struct job *j, void (*on_line)(void *ctx, const char *line), void *ctx);
/* Kill the job's process group (TERM, then KILL after a grace period) and reap it. */
void job_kill(struct job *j);
void job_free(struct job *j);

/*
 * Run argv in cwd to the end and return its exit status (-1 when it could not
 * start, with error() set).  *out gets its stdout, and *err its stderr, or
 * stdout gets both when err is NULL; you own the strings.
 */
int run_capture(char *const argv[], const char *cwd, char **out, char **err);

#endif
