/*
 * batch_lock: one writer per out folder, and one grader per student.
 *
 * OUT/.lock is flock()ed and holds a record of who has the folder:
 * - a batch on one machine holds it exclusively while it runs and clears
 *   the record when it ends;
 * - `batch --slurm` holds it while it submits, then leaves a record naming
 *   the job array and its merge job: nobody holds the lock while the job
 *   waits in the queue, yet the record keeps others out. The array's tasks
 *   take the lock shared (they cooperate), the merge job exclusively once
 *   they have all ended, and clears the record.
 * A record left by a process that died (its flock went with it) or naming
 * jobs Slurm no longer runs is taken over, and said; a live holder is named
 * (process, host, start time, or the Slurm job) and the batch stops, exit 2.
 *
 * OUT/.work/claims/KEY is flock()ed by the process grading that student, so
 * two processes never grade one student, even tasks of two jobs.
 */
#ifndef CUDALINGS_BATCH_LOCK_H
#define CUDALINGS_BATCH_LOCK_H

#include <stdbool.h>

struct batch_lock {
	int fd;     /* OUT/.lock, flock()ed; -1 when not held */
	char *out;
};

/*
 * Take the out folder for this process alone. `job`: the merge step of that
 * Slurm job, which finds its own record and waits for the array's tasks.
 * Returns 0; 2 when another batch or a live Slurm job has it (said who);
 * 3 when the lock cannot be made or Slurm cannot be asked.
 */
int batch_lock_take(const char *out, const char *job, struct batch_lock *l);
/* After sbatch: the record names the array and its merge job, and this process lets go. */
int batch_lock_hand_to_jobs(struct batch_lock *l, const char *job, const char *merge_job, int tasks);
/* A task of Slurm job `job`: the lock shared with the other tasks; 0, or 2 when the folder is not the job's. */
int batch_lock_join(const char *out, const char *job, struct batch_lock *l);
/* Let go; `clear`: the record too (the folder is free), and the claims left by tasks. */
void batch_lock_release(struct batch_lock *l, bool clear);

/*
 * Claim a student: a descriptor to give back with batch_lock_unclaim; -1 when
 * another process grades them; -2 when the claim cannot be made (said).
 */
int batch_lock_claim(const char *out, const char *student);
void batch_lock_unclaim(int fd);

#endif
