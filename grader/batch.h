/*
 * Grading a class: `cudalings batch NAME DIR --out OUT`. Every submission in
 * DIR (a .cu file, or a folder per student holding one .cu) is graded by a
 * child `cudalings grade … --json`, one at a time per lane: one lane per GPU
 * (each child sees only its GPU), or --jobs lanes on the simulator. Results
 * are written as they come, each file atomically, so an interrupted batch
 * goes on where it stopped when run again. A submission the grader gives no
 * verdict on (nothing to grade, past --timeout, a grader that died) is a row
 * with its reason, never the end of the batch:
 *
 *   OUT/STUDENT.json                    the grade JSON, as the CLI prints it
 *   OUT/gradebook.csv                   one row per student
 *   OUT/gradescope/STUDENT/results.json Gradescope's autograder format
 */
#ifndef CUDALINGS_BATCH_H
#define CUDALINGS_BATCH_H

#include "build.h"
#include "manifest.h"

struct batch_options {
	const char *dir;        /* the submissions */
	const char *out;        /* where the results go */
	enum backend backend;   /* passed to every grading */
	int jobs;               /* lanes asked for; 0: one per GPU, or half the cores on the simulator */
	double timeout_s;       /* a whole grading past this is stopped and recorded as such */
};

/*
 * Grade every submission; returns the exit status: 0 when every submission
 * has a result, 2 for a usage problem (no such folder, two submissions of
 * one name), 3 when the environment stops the batch (what was graded is
 * kept), 130 when interrupted.
 */
int batch_run(const struct exercise *e, const struct batch_options *o);

/*
 * Whether `out` may take a batch's results for submissions in `dir`: not
 * empty, not '/', not inside `dir` (its results would be graded next time),
 * and writable (created if need be). -1 with the reason printed otherwise.
 */
int batch_check_out(const char *out, const char *dir);

/*
 * The Gradescope results.json of one grade JSON: a test for compiling, one
 * per case the exercise has (a case that never ran fails), one for the time
 * on a GPU, and the time on the leaderboard. `seconds` < 0 leaves the
 * execution time out. You own the result.
 */
struct cJSON;
struct cJSON *batch_gradescope(const struct exercise *e, const struct cJSON *grade, double seconds);

/* The gradebook row of one student, CSV-quoted, with its line end. You own the result. */
char *batch_csv_row(const struct exercise *e, const char *student, const struct cJSON *grade);

#endif
