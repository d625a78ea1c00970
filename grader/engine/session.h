/*
 * One grading's conversation with its children: the framing of the
 * messages the judge and the runner send, and what each message does to
 * the cases. No I/O here: bytes go in (session_feed), the case results and
 * a request to stop the runner come out, so the whole protocol can be
 * tested by feeding it bytes, torn and forged ones included.
 */
#ifndef CUDALINGS_SESSION_H
#define CUDALINGS_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include "grader/result.h"
#include "grader/engine/progress.h"
#include "harness/protocol.h"
#include "lib/util.h"

/* What the judge said about one case, and what the runner showed of it. */
struct case_state {
	bool have_info;
	struct proto_case_info info;
	struct proto_expect *values[PROTO_MAX_BUFFERS];
	size_t count[PROTO_MAX_BUFFERS];
	bool outputs_seen[PROTO_MAX_BUFFERS];
	void *second[PROTO_MAX_BUFFERS];        /* a second launch's output over another poison, or NULL */
	struct proto_chunk *sample[PROTO_MAX_BUFFERS]; /* judged on these elements only (MSG_SAMPLE), or NULL */
	size_t nsample[PROTO_MAX_BUFFERS];
	uint64_t addrs[PROTO_MAX_BUFFERS];      /* where the runner put the case's arrays */
	struct proto_finding uninitialized;    /* said only if the case fails */
	bool have_uninitialized;
	bool have_counts;                      /* simulator: the runner's figures of the case came (one report) */
	struct buf plan;                       /* GPU: the capture process's plan of the launcher's calls */
	bool have_plan;
};

/* Framing state of one stream of messages. */
struct reader {
	struct buf pending;
	bool broken;
};

/* FROM_RUNNER: on a GPU the measuring process; FROM_CAPTURE: the process that runs the submission's host code */
enum session_source { FROM_JUDGE, FROM_RUNNER, FROM_TOOL, FROM_CAPTURE, SESSION_SOURCES };

struct session {
	const struct exercise *e;
	struct grade_result *r;
	enum backend backend;
	int ncases;            /* correctness cases, then the timed one and its judged round */
	int timed;             /* the timed case's index, or -1 */
	struct case_state *cases;
	struct reader in[SESSION_SOURCES];
	int current;           /* the case the runner is in, -1 before the first */
	bool hello;            /* the runner opened the GPU and is loading the submission */
	bool done;             /* the runner said it finished */
	bool stopped_early;    /* we stopped it before timing a wrong kernel */
	bool stop_runner;      /* set by a message: the caller kills the runner */
	struct proto_timing timing;
	bool have_timing;
	struct proto_device device;
	bool have_device;
	char *device_error;    /* the runner could not open the GPU */
	char *refused;         /* the runner stopped the submission: what it did */
	int refused_when;      /* enum sandbox_when */
	struct proto_counts counts; /* the simulator's, over every case */
	bool have_counts;
	int measured;          /* the simulator's measured case (the timed one, made small), or -1 */
	struct proto_counts measured_counts; /* the simulator's, over that case: the figures budgets judge */
	bool have_measured_counts;
	/* that case's launches, the student's and the reference's, and their shapes at the timed size */
	struct proto_launch launches[4][PROTO_MAX_LAUNCHES];
	int nlaunches[4];
	char *rounds_differ;   /* sim: the last case run again gave another answer than the reference's */
	int rounds_case;       /* and which case that was */
	enum stage tool_stage; /* a failure compute-sanitizer found (STAGE_NONE: none), and its message */
	char *tool_message;
	char *check_error;     /* the judge described buffers the launcher's signature does not take */
	enum progress_mode progress; /* what is said as cases end */
	bool capture_done;     /* the capture process said it finished */
	int capture_current;   /* the case it is in, -1 before the first */
	int captured;          /* cases it sent a plan for, counted to the last one's index + 1 */
};

/* A session for r's cases (r->ncases of them, named already); s->measured is -1 until set. */
void session_init(struct session *s, const struct exercise *e, enum backend backend, struct grade_result *r,
		  int timed);
void session_release(struct session *s);

/* The largest payload message h may carry from `from` (grader/engine/session_frame.c); 0 for none. */
uint64_t session_payload_limit(const struct session *s, const struct proto_header *h, enum session_source from);

/* Feed bytes from one source; a forged or broken stream fails the case it was in and sets stop_runner. */
void session_feed(struct session *s, enum session_source from, const char *data, size_t n);

/* The runner ended: say why it stopped before finishing, if it did. */
void session_runner_ended(struct session *s, bool timed_out, double limit_s, const char *status);
/* A child of the submission's (the runner, the capture) killed by the sandbox's filter, SIGSYS, says so: the
 * filter stops a call made with every signal blocked before its handler can say which. */
void session_filtered(struct session *s, bool timed_out, int wait_status);
/*
 * A child that runs the submission stopped before it finished, in case `current` (-1: before the
 * first, after it had `started`): its case fails with why, a time-out under limit_s or its status.
 */
void session_stopped(struct session *s, bool timed_out, bool started, int current, double limit_s,
		     const char *status);

/* Fail case `index` with `message` (owned) unless it already failed; the first reason stays. */
void session_fail_case(struct session *s, int index, char *message);
/* The simulator's runs of the last case again gave another answer: a case failure, if no case failed before. */
void session_rounds_verdict(struct session *s);

/* The case arrays of every case, for naming an address; you own the array. */
struct case_arrays *session_arrays(const struct session *s);

#endif
