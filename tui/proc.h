/*
 * proc: the workbook's one background job (a grading), on the project's
 * spawner (lib/run.h): its stdout kept whole, its stderr handed over line
 * by line as it comes, so the screen keeps answering while it works and Esc
 * stops it with all its children.  Pure: no curses.
 */
#ifndef TUI_PROC_H
#define TUI_PROC_H

#include <poll.h>
#include <stdbool.h>
#include <sys/types.h>

#include "lib/run.h"
#include "lib/util.h"

struct job {
	struct child child;
	pid_t pid;		/* 0 when none runs */
	struct buf out_text;	/* all of its stdout */
	int status;		/* exit status once done; -1 when killed by a signal */
	long long started_ms, ended_ms;	/* ended_ms: when it was seen to exit */
};

/* Start argv[0] (found on PATH) in cwd. -1 with error() set. */
int job_start(struct job *j, char *const argv[], const char *cwd);
/* Add the job's open pipes to fds (room for 2); returns how many were added. */
int job_pollfds(const struct job *j, struct pollfd *fds);
/*
 * Read whatever the job wrote, calling on_line for each complete stderr line
 * (without its '\n').  Returns true once the job has exited and its output
 * has been read: j->status is then set and j->pid is 0.
 */
bool job_pump(struct job *j, void (*on_line)(void *ctx, const char *line), void *ctx);
/* Stop the job's process group (TERM, then KILL after a grace period) and reap it. */
void job_kill(struct job *j);
void job_free(struct job *j);

#endif
