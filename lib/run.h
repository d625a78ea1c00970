/*
 * run: the one way the project starts a program (git's run-command shape),
 * used by grading, batch and the workbook alike.
 *
 * Every child runs in a process group of its own with stdin from /dev/null
 * and PR_SET_PDEATHSIG, so nothing it starts outlives the program that
 * started it, even a kill -9 of that program (but a foreground one, an
 * editor, which is the terminal's while it runs). Its stdout and stderr are
 * captured (to a cap), sent to descriptors the caller opened, discarded or
 * inherited; it may get a private channel (a pipe at a descriptor number of
 * its choosing), limits (address space, no processes, no core files) and
 * deadlines (wall clock, CPU time) after which its whole group is killed.
 * A child is a program (child_spawn) or a function run in a forked copy of
 * this one (child_start_function); many at a time run in lib/pool.h's pool.
 *
 *	struct child c = { .label = "nm" };
 *	struct spawn_options o = { .out = SPAWN_CAPTURE, .err = SPAWN_TO_STDOUT, .timeout_s = 60 };
 *	if (child_spawn(&c, argv, &o))
 *		return -1;		// error() said why
 *	child_wait(&c);
 *	… c.output.data, child_succeeded(&c), child_describe_status(&c) …
 *	child_release(&c);
 */
#ifndef LIB_RUN_H
#define LIB_RUN_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/buf.h"

enum spawn_output {
	SPAWN_INHERIT,		/* the parent's own descriptor (the default) */
	SPAWN_CAPTURE,		/* into the child's buffer: output for stdout, errors for stderr */
	SPAWN_TO_FD,		/* onto out_fd or err_fd, opened by the caller (and still the caller's to close) */
	SPAWN_DISCARD,		/* /dev/null */
	SPAWN_TO_STDOUT,	/* stderr only: wherever stdout goes, so a capture keeps both in order */
};

struct spawn_options {
	const char *cwd;		/* NULL: the parent's */
	const char *const *env;		/* NULL-terminated changes: "NAME=value" sets, "NAME" unsets; NULL: none */
	enum spawn_output out, err;
	int out_fd, err_fd;		/* for SPAWN_TO_FD */
	size_t output_cap;		/* bytes kept of each captured stream; 0 for 256 KiB */
	bool channel;			/* a pipe from the child's descriptor channel_child_fd, read by on_channel */
	int channel_child_fd;		/* its number in the child: 1 makes it the child's stdout */
	double timeout_s;		/* wall clock from the start; 0 for none */
	double cpu_limit_s;		/* the child's CPU seconds (a busy machine cannot trip it); 0 for none */
	unsigned long memory_limit;	/* address space in bytes; 0 for none */
	bool no_processes;		/* threads yes, processes no: a fork bomb stops at its first fork */
	bool input_pipe;		/* stdin a pipe the parent writes with child_send_input (else /dev/null) */
	int death_signal;		/* what the child gets should this program die; 0 for SIGKILL */
	bool foreground;		/* the terminal's (an editor): stdin inherited, in this program's process
					   group so the terminal's keys reach it, no death signal, no group of its own */
	bool clean_on_exit;		/* kill its group when this program exits, or dies of SIGINT, SIGTERM,
					   SIGHUP or SIGQUIT (their handlers then chain to the ones before) */
};

struct child;
/* Called with what the child wrote on its channel, as it comes (a message may arrive torn). */
typedef void channel_fn(struct child *c, const char *data, size_t n);

struct child {
	/* the caller's, set before child_spawn */
	const char *label;	/* for messages: "compiler", "runner" */
	channel_fn *on_channel;
	void *ctx;
	/* the spawner's */
	pid_t pid;
	int out_fd, err_fd, channel_fd;	/* our ends of the pipes; -1 when none or once closed */
	int in_fd;			/* our end of its stdin with input_pipe; -1 otherwise or once closed */
	int pid_fd;			/* readable once it has ended (pidfd_open), so a pump wakes then, pipes or
					   not; -1 where the kernel gives none (a pump then looks every 50 ms) */
	struct buf output, errors;	/* what was captured of stdout (and stderr with SPAWN_TO_STDOUT), and stderr */
	size_t output_cap;
	bool output_truncated;		/* either stream reached the cap: the rest was read and dropped */
	double started;			/* now_seconds() at the start */
	double deadline;		/* now_seconds() after which the group is killed; 0 for none; movable */
	double cpu_deadline;		/* the child's CPU seconds after which it is killed; 0 for none; movable */
	bool running, timed_out, clean_on_exit, foreground;
	int status;			/* the waitpid status once it has ended */
};

/*
 * A file a child is writing, removed (remove true) if a signal ends this program before the caller
 * forgets it again (remove false) with the same pointer, which stays the caller's until then.
 */
void run_remove_on_signal(char *path, bool remove);

/*
 * Start argv[0] (looked up in PATH). -1 when it cannot start (no such
 * program, a folder that cannot be entered), with error() saying why.
 */
int child_spawn(struct child *c, char *const argv[], const struct spawn_options *o);
/*
 * Read every child's pipes, kill those past a deadline, reap those that
 * end, for up to wait_s seconds (0: what is there now; below 0: until none
 * runs). Returns how many still run. A child that has ended has its group
 * killed too (strays it left behind) and its pipes read to what was there.
 */
int child_pump(struct child **kids, int n, double wait_s);
/* child_pump of one child until it ends; returns child_exit_code. */
int child_wait(struct child *c);
/*
 * Write n bytes to its stdin (input_pipe), then close it when `last`; 0, or
 * -1 when it has ended or closed its stdin (never a SIGPIPE here).
 */
int child_send_input(struct child *c, const void *data, size_t n, bool last);
/* Its open pipes as pollfds, for a program's own poll loop (at most 3); returns how many. */
int child_pollfds(const struct child *c, struct pollfd *fds);
/* Kill the child's whole group now, and reap it. */
void child_kill(struct child *c);
/* SIGTERM to the group, so the child may stop what it started; SIGKILL after grace_s. */
void child_stop(struct child *c, double grace_s);
/* Kill it if it runs, free what was captured. Safe on a zeroed child that never started. */
void child_release(struct child *c);

/* Its exit status; 128 + the signal that killed it; -1 while it runs. */
int child_exit_code(const struct child *c);
/* Whether it exited with status 0 before any deadline. */
bool child_succeeded(const struct child *c);
/* "exited with status 3", "was killed by signal 11 (Segmentation fault)"; you own it. */
char *child_describe_status(const struct child *c);
/* The CPU time it has used so far (user and system, all its threads); 0 when unknown. */
double child_cpu_seconds(const struct child *c);

/*
 * What a worker runs in a copy of this program (fork without exec):
 * channel_fd is the writing end of its channel (o->channel), -1 without one.
 * What it returns is its exit status; its stdio is flushed first.
 */
typedef int child_fn(void *arg, int channel_fd);
/*
 * Start fn(arg) in a copy of this program, as child_spawn starts a program:
 * its own group, the death signal, the watchdog (shared with this program,
 * so what the worker starts is named to it too), the outputs, limits and
 * deadlines of `o`. Not for a worker: cwd, env and channel_child_fd.
 */
int child_start_function(struct child *c, child_fn *fn, void *arg, const struct spawn_options *o);

/*
 * Run argv to its end with the options `o` (NULL for none): stdout is added
 * to *out and stderr to *err, or to *out as well when err is NULL (out NULL:
 * dropped). Returns child_exit_code; 127 when it could not start, with the
 * reason added to the capture too; a time-out is said there as well.
 */
int run_capture(char *const argv[], const struct spawn_options *o, struct buf *out, struct buf *err);

/*
 * The common case: run argv in cwd (NULL: here) with a time-out (0: none),
 * stdout and stderr together into *out (NULL: dropped), its group killed
 * should this program end first. Whether it exited 0.
 */
bool run_command(char *const argv[], const char *cwd, double timeout_s, struct buf *out);

#endif
