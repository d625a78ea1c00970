/*
 * Child processes for the grader: each in its own process group, its output
 * captured, an optional private channel, and a deadline after which the whole
 * group is killed. Nothing a child does can block or crash the grader.
 */
#ifndef CUDALINGS_PROC_H
#define CUDALINGS_PROC_H

#include <stdbool.h>
#include <sys/types.h>
#include "util.h"

struct child;
typedef void channel_fn(struct child *c, const char *data, size_t n);

struct child {
	const char *label;
	pid_t pid;
	int out_fd;     /* stdout and stderr, merged; -1 once closed */
	int channel_fd; /* our end of the channel; -1 when there is none or once closed */
	struct buf output;
	size_t output_cap;
	bool output_truncated;
	double deadline; /* now_seconds() after which the group is killed; 0 for none */
	double cpu_deadline; /* CPU seconds of the child after which it is killed: a limit a busy machine cannot trip */
	bool running, timed_out;
	int status;      /* waitpid status once it has ended */
	channel_fn *on_channel;
	void *ctx;
};

struct spawn_options {
	const char *cwd;
	bool channel;          /* open a channel to the child */
	int channel_child_fd;  /* its descriptor number in the child; 1 makes it the child's stdout */
	double timeout_s;      /* from now; 0 for none */
	size_t output_cap;     /* bytes of output kept; 0 for 256 KiB */
	unsigned long memory_limit; /* address space in bytes; 0 for none */
	bool no_fork;          /* the child may make threads but no processes (a fork bomb stops there) */
};

/* Start argv[0] (looked up in PATH); -1 with an error printed if it cannot start. */
int child_spawn(struct child *c, char *const argv[], const struct spawn_options *o);
/* Read from every child until all have ended, killing any past its deadline. */
void child_pump(struct child **kids, int n);
/* Kill the child's whole process group now and reap it. */
void child_kill(struct child *c);
void child_release(struct child *c);
/* "exited with status 3", "was killed by signal 11 (Segmentation fault)" */
char *child_describe_status(const struct child *c);
bool child_succeeded(const struct child *c);
/* The CPU time the child has used so far (user and system, all its threads); 0 when unknown. */
double child_cpu_seconds(const struct child *c);

/* Run argv to completion, output captured in *out; returns true on exit status 0. */
bool run_command(char *const argv[], const char *cwd, double timeout_s, struct buf *out);

#endif
