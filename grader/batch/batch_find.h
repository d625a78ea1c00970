/*
 * batch_find: the students of a folder of submissions. Every entry is one:
 * ann.cu (any case of .cu) is ann's; a folder ann/ holds ann's .cu (the
 * only one, or the one named after the exercise); anything else (hidden, not
 * a .cu, a FIFO, binary, empty, too large, unreadable, a name given twice)
 * is a student whose submission cannot be graded, and why.
 */
#ifndef CUDALINGS_BATCH_FIND_H
#define CUDALINGS_BATCH_FIND_H

#include <stdbool.h>
#include <stddef.h>

struct submission {
	char *student;   /* the file's name less .cu, the folder's name, or the whole name of anything else */
	char *entry;     /* the entry of the folder it came from */
	char *path;      /* the .cu to grade, absolute; NULL when there is nothing to grade */
	size_t shown_at; /* where in path the name the class folder gives it begins (ann/scale.cu) */
	char *hash;      /* the file's content hash, when path is set: a changed file is graded again */
	char *problem;   /* why not, then */
	/* the batch's */
	bool final;      /* its row is final: nothing left to do */
	int attempts;    /* gradings recorded so far */
	char *csv;       /* its gradebook line, once it has a row */
	int slot;        /* its row's outcome for the summary: 0 pass, then a stage (batch_report.c) */
	bool again;      /* its row is graded again: asked for (--regrade), or the submission changed */
	bool resubmitted;/* the submission changed since a row was recorded (kept in the row from then on) */
	bool link;       /* its problem: a symbolic link, or a file reached through one */
	long long submitted;   /* with a deadline: when it was submitted (seconds since 1970), else -1 */
	const char *submitted_from; /* "mtime" or "csv" */
};

/*
 * The submissions in `dir`, sorted by student, leaving out the out folder
 * when it is there. 0, or 2 when the folder cannot be read or holds nothing
 * (said). You own the array; batch_find_free each.
 */
int batch_find_submissions(const char *dir, const char *out, const char *exercise, struct submission **subs,
			   int *count);
void batch_find_free(struct submission *subs, int count);

#endif
