/*
 * Grading a class: `cudalings batch NAME DIR --out OUT`. Every entry of DIR
 * is a student: a .cu file, or a folder holding one. Each is graded by a
 * child `cudalings grade … --json`, one at a time per lane: one lane per GPU
 * (each child sees only its GPU), or --jobs lanes on the simulator, as many
 * as the memory holds. A student's own problem (nothing to grade, a file
 * that is not a .cu, hidden, a FIFO, binary, too large, unreadable) is that
 * student's row, never the end of the batch. An environment fault (the
 * grader gone, a tool missing, the GPU gone, the disk full) stops the batch
 * with exit 3 before anything is recorded against the student whose
 * grading met it. What goes on disk is in batch_rows.h; who may write the
 * out folder, in batch_lock.h; a class spread over a Slurm cluster, in
 * slurm.h. Run again, a batch grades only the rows that are not final.
 */
#ifndef CUDALINGS_BATCH_H
#define CUDALINGS_BATCH_H

#include <stdbool.h>

#include "grader/compile/build.h"
#include "grader/exercise/manifest.h"

struct batch_options {
	const char *dir;          /* the submissions */
	const char *out;          /* where the results go */
	enum backend backend;     /* passed to every grading */
	int jobs;                 /* lanes asked for; 0: one per GPU, or half the cores on the simulator */
	double timeout_s;         /* a whole grading past this is stopped, and retried by the next run */
	/* Slurm (slurm.h) */
	bool slurm;               /* submit a job array instead of grading here */
	const char *partition;    /* its partition; NULL: the cluster's default */
	int tasks;                /* its tasks; 0: the default */
	const char *slurm_task;   /* grade this task's slice of the submission in this folder */
	const char *slurm_merge;  /* merge the rows of the submission in this folder */
	/* --deadline (seconds since 1970; 0: none) and --submitted's CSV of submission times (NULL: the files' modification times) */
	long long deadline;
	const char *submitted;
	/* students whose rows are graded again whatever they hold (--regrade), or all of them */
	char **regrade;
	int nregrade;
	bool regrade_all;
	/* the program each grading runs; NULL: this cudalings (tests give a stand-in) */
	const char *grader;
};

/*
 * Grade (or submit, or merge); returns the exit status: 0 when every
 * submission has a row, 2 for a usage problem (no such folder, the out
 * folder held by another batch), 3 when the environment stops the batch
 * (what was graded is kept), 130 when interrupted.
 */
int batch_run(const struct exercise *e, const struct batch_options *o);

/*
 * Whether `out` may take a batch's results for submissions in `dir`: not
 * empty, not '/', not inside `dir` (its results would be graded next time),
 * and writable (created if need be). -1 with the reason printed otherwise.
 */
int batch_check_out(const char *out, const char *dir);

/*
 * The lanes of a batch: how many, and on the GPU backend the
 * CUDA_VISIBLE_DEVICES of each (NULL: the GPU as the driver sees it): the
 * GPUs CUDA_VISIBLE_DEVICES names, else those `nvidia-smi -L` lists, at most
 * `jobs` when it is given. You own devices[i].
 */
int batch_lanes(enum backend backend, int jobs, char **devices, int max);

#endif
