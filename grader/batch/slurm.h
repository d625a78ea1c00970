/*
 * slurm: a class graded by a Slurm job array. `cudalings batch … --slurm`
 * writes OUT/.slurm/STAMP/ (the students still to grade, a task script and
 * a merge script), submits the array (one task per slice of those
 * students; a GPU each with --gres=gpu:1 on the GPU backend, CPUs only on
 * the simulator) and a merge job that runs after all of them (afterany).
 * Each task is `cudalings batch … --slurm-task OUT/.slurm/STAMP`: it grades
 * its slice into the shared out folder, row by row, under batch_lock's
 * protocol; the merge is `--slurm-merge OUT/.slurm/STAMP`: the gradebook
 * and Gradescope's files, as a batch on one machine makes them.
 */
#ifndef CUDALINGS_SLURM_H
#define CUDALINGS_SLURM_H

#include "grader/compile/build.h"
#include "lib/buf.h"

struct slurm_submission {
	const char *self;        /* this cudalings, by an absolute path the nodes share */
	const char *exercise, *dir, *out, *partition;
	enum backend backend;
	double timeout_s;
	int lanes;               /* gradings at once in each task */
	int tasks;               /* 0: one per student, at most SLURM_DEFAULT_TASKS */
	char *const *students;   /* those still to grade */
	int nstudents;
};

#define SLURM_DEFAULT_TASKS 16
#define SLURM_MAX_TASKS 1000

/* What was submitted: the array, its merge job, and the folder of their scripts and logs. */
struct slurm_jobs {
	char *job, *merge_job, *folder;
	int tasks;
};

/*
 * Submit the array and its merge job. Returns 0 with *jobs filled (yours
 * to release), or 3 when sbatch refused (said; nothing stays submitted).
 */
int slurm_submit(const struct slurm_submission *s, struct slurm_jobs *jobs);
/* What was submitted and how to follow it, on stdout. */
void slurm_say_submitted(const struct slurm_submission *s, const struct slurm_jobs *jobs);
/* scancel both jobs (the out folder could not be handed to them). */
void slurm_cancel(struct slurm_jobs *jobs);
void slurm_jobs_release(struct slurm_jobs *jobs);

/*
 * The students of this task of the array in `folder` (OUT/.slurm/STAMP):
 * every ntasks-th of the list from its task index on. Reads the job and the
 * task from Slurm's environment. You own *students and each name.
 */
int slurm_task_students(const char *folder, char ***students, int *n, char **job, int *task);
/* The array's job id, as the submitter wrote it in `folder`; you own it. NULL when there is none. */
char *slurm_folder_job(const char *folder);

/*
 * Whether any of the comma-separated jobs is still Slurm's (pending,
 * running, …): 1 yes, 0 no (ended, or Slurm has forgotten it), -1 when
 * Slurm cannot be asked. *states says what squeue said.
 */
int slurm_jobs_alive(const char *jobs, struct buf *states);

#endif
