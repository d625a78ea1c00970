/*
 * batch_state: what one batch process keeps while it grades, shared by the
 * batch itself (batch.c: the students, their rows, the modes), its lanes
 * (batch_lanes.c: the gradings running side by side) and what it says
 * (batch_report.c: rows recorded, lines, the progress bar).
 */
#ifndef CUDALINGS_BATCH_STATE_H
#define CUDALINGS_BATCH_STATE_H

#include <limits.h>
#include <stdbool.h>

#include "grader/batch/batch.h"
#include "grader/batch/batch_late.h"
#include "grader/batch/batch_find.h"
#include "grader/batch/batch_lock.h"
#include "lib/run.h"

#define MAX_LANES 64

struct cJSON;

struct lane {
	char *device;    /* CUDA_VISIBLE_DEVICES for its gradings; NULL to leave it as it is */
	bool busy;       /* a grading of the pool's runs on it */
	int index;       /* the submission it grades */
	int claim;
};

struct batch {
	const struct exercise *e;
	const struct batch_options *o;
	struct submission *subs;
	int count;
	int *queue, nqueue, next;  /* the submissions this process grades, in order */
	char **slice;              /* a Slurm task's students */
	int nslice, task;
	int graded, resumed, retried, elsewhere, again;
	char **withdrawn;          /* the gradebook lines of students with a row who are gone from the folder */
	int nwithdrawn, withdrawn_alloc;
	struct late_times times;   /* --submitted's */
	int by_mtime;              /* with a deadline: submissions timed by their file, not the CSV */
	struct lane lanes[MAX_LANES];
	int nlanes;
	char grader[PATH_MAX];
	char by[320];
	char lanes_env[40];
	struct batch_lock lock;
	bool tty, warm, gradebook; /* gradebook: this process writes OUT/gradebook.csv as rows come */
	double started, healthy_at;
};

/* The summary's names of the outcomes: "pass", then each stage a failure stops at. */
#define BATCH_SLOTS 7
extern const char *const batch_slot_names[BATCH_SLOTS];

/* A row read or written: the student's gradebook line, whether it is final, its attempts. */
void batch_remember_row(struct batch *b, struct submission *s, const struct cJSON *row);
/* OUT/gradebook.csv from the lines of every student with a row; 0, or 3. */
int batch_save_gradebook(const struct batch *b);
/* Record a student's row (final or not) and say so; 0, or 3 when it cannot be written. Takes no ownership. */
int batch_record(struct batch *b, int index, struct cJSON *grade, bool final, double seconds);
/* The progress bar, on a terminal. */
void batch_draw_bar(const struct batch *b);
/* Gradings running now. */
int batch_running(const struct batch *b);

/* What in the environment would fail every grading, or NULL (checked before a failure is recorded). You own it. */
char *batch_environment_fault(const struct batch *b);
/* As many lanes as asked and the memory holds; their gradings are told how many share it. */
void batch_set_up_lanes(struct batch *b);
/* Grade the queue, lane by lane; 0, 3 when the environment stopped it, 130 when interrupted. */
int batch_run_lanes(struct batch *b);

#endif
