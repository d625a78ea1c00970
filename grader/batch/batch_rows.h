/*
 * batch_rows: what a batch leaves in its out folder, one file per student,
 * each written atomically, so that any number of batch processes (the lanes
 * of one machine, the tasks of a Slurm job array) can write side by side and
 * a reader never sees half a row:
 *
 *   OUT/STUDENT.json                    the grade JSON as `cudalings grade --json`
 *                                       prints it, with a "batch" record added
 *   OUT/gradescope/STUDENT/results.json Gradescope's autograder format
 *   OUT/gradebook.csv                   one line per student, made from the rows
 *
 * A row is final (a verdict, or the student's own problem: nothing to grade)
 * or not (the grader died, gave no verdict, or ran past the batch's limit):
 * a batch run again grades the rows that are not final and keeps the others.
 */
#ifndef CUDALINGS_BATCH_ROWS_H
#define CUDALINGS_BATCH_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "grader/compile/build.h"
#include "grader/exercise/manifest.h"

struct cJSON;

/* How a row came to be: the "batch" record of OUT/STUDENT.json. */
struct row_stamp {
	bool final;
	double seconds;      /* the grading's wall time; < 0 when none ran */
	int attempts;        /* gradings of this student so far, this one included */
	const char *by;      /* "host pid 123", "slurm job 45 task 2 on node7" */
	const char *content_hash; /* the graded file's content (row_content_hash); NULL: no file was graded */
	bool resubmitted;    /* the submission changed after an earlier row */
	bool link;           /* refused as a symbolic link, or reached through one */
	long long submitted; /* with a deadline: the submission's time, else -1 */
	const char *submitted_from; /* "mtime" (the file's) or "csv" (--submitted) */
	bool late;
};

/* The row's record of its submission's time and lateness, set (or replaced) on `grade`. */
void batch_row_mark_time(struct cJSON *grade, long long submitted, const char *from, bool late);

/*
 * A student's name as a file name: itself, or when too long for one (a
 * name near 255 bytes, plus ".json") its start and a hash of the whole.
 * You own the result.
 */
char *batch_row_key(const char *student);
/* OUT/ followed by `fmt` with the student's key in its %s: "%s.json". You own the result. */
char *batch_row_path(const char *out, const char *fmt, const char *student);

/* The student's row when it is whole (it has a verdict), else NULL. You own the result. */
struct cJSON *batch_row_load(const char *out, const char *student);
/* The row in the file `path` when it is whole, else NULL. */
struct cJSON *batch_row_load_file(const char *path);
/* Write a file of the out folder atomically (a reader never sees half of it); -1 with the reason said. */
int batch_out_write(const char *path, const char *data, size_t length);
/* A string of a row (a grade JSON), or `fallback` when it has none. */
const char *batch_row_text(const struct cJSON *row, const char *key, const char *fallback);
/* Whether a loaded row is final; a row of an older batch, with no record, is unless the grader failed. */
bool batch_row_final(const struct cJSON *row);
/* Its attempts so far (1 for a row of an older batch). */
int batch_row_attempts(const struct cJSON *row);
/* The content hash of the file its grading read; NULL when none was recorded (a row of an older batch). */
const char *batch_row_recorded_hash(const struct cJSON *row);
/* Whether its submission changed after an earlier row. */
bool batch_row_resubmitted(const struct cJSON *row);
/* The content hash of the file at `path`, as rows record it; NULL when it cannot be read. You own it. */
char *batch_row_content_hash(const char *path);
/*
 * Every whole row in `out` that names its student (batch.student, as JSON
 * keeps it: valid UTF-8), in no order, and the file of each. You own the
 * arrays, the rows and the paths.
 */
int batch_row_all(const char *out, struct cJSON ***rows, char ***paths);
/*
 * The row in the file `path` marked withdrawn (its student is gone from the
 * folder: the board leaves it out) or no longer; written only when that
 * changes. 0, or -1 with the reason said.
 */
int batch_row_mark_withdrawn(const char *path, bool withdrawn);

/*
 * Record a row: the Gradescope file first, the row last (a whole row means
 * the student is done). `grade` gets the stamp as its "batch" record.
 * 0, or -1 with the reason said.
 */
int batch_row_write(const char *out, const struct exercise *e, const char *student, struct cJSON *grade,
	      const struct row_stamp *stamp);
/*
 * The student's row made not final on disk, so that whoever grades next
 * (a Slurm job's task) grades it again: 0, or -1 with the reason said.
 */
int batch_row_reopen(const char *out, const char *student);
/* The Gradescope file of a row that has lost its own (deleted since): made again, without the time. */
int batch_row_restore_gradescope(const char *out, const struct exercise *e, const char *student,
				 const struct cJSON *row);

/* A grade JSON, in the CLI's shape, for a submission the grader gave no verdict on. You own the result. */
struct cJSON *batch_row_made_up(const struct exercise *e, enum backend b, const char *file, const char *stage,
			  const char *message);

/* OUT/gradebook.csv: its header and these lines (batch_csv_row's) in this order, a NULL one left out. */
int batch_gradebook_save(const char *out, char *const *lines, int n);

/*
 * The row's flags, space-separated: "refused" (an include or a call the
 * grader refuses), "link" (a symbolic link), "late" (after --deadline),
 * "resubmitted". "" when none. You own the result.
 */
char *batch_row_flags(const struct cJSON *grade);

/*
 * OUT/feedback/STUDENT.md, for the instructor to read or send: the
 * verdict and message, the compiler's output, a line per case, the
 * diagnosis and the first hint. You own the result.
 */
char *batch_feedback(const struct exercise *e, const char *student, const struct cJSON *grade);

/* The gradebook row of one student, CSV-quoted, with its line end. You own the result. */
char *batch_csv_row(const struct exercise *e, const char *student, const struct cJSON *grade);

/*
 * The Gradescope results.json of one grade JSON: a test for compiling, one
 * per case the exercise has (a case that never ran fails), one for the time
 * on a GPU, and the time on the leaderboard. `seconds` < 0 leaves the
 * execution time out. You own the result.
 */
struct cJSON *batch_gradescope(const struct exercise *e, const struct cJSON *grade, double seconds);

#endif
