/*
 * batch: a class graded on this machine, lane by lane, or one Slurm task's
 * share of it, or the merge after the tasks (see batch.h). Who the students
 * are is batch_find.c's, the rows on disk batch_rows.c's, who may write the
 * out folder batch_lock.c's, the job array slurm.c's.
 */
#include "grader/batch/batch_state.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/batch/batch_late.h"
#include "grader/batch/batch_rows.h"
#include "lib/exit.h"
#include "lib/util.h"
#include "grader/batch/slurm.h"

/* ------------------------------------------------------------ the batch */

static void
summarize(const struct batch *b, int status)
{
	if (b->tty)
		fputs("\r\033[K", stdout);
	if (b->o->slurm_merge)
		printf("%d submission%s: %d with a final row from the job's tasks or before", b->count,
		       b->count == 1 ? "" : "s", b->resumed);
	else
		printf("%d submission%s: %d graded now, %d from an earlier run", b->count, b->count == 1 ? "" : "s",
		       b->graded, b->resumed);
	/* the whole class, whenever its rows were graded */
	int slots[BATCH_SLOTS] = { 0 }, rows = 0;
	for (int i = 0; i < b->count; i++)
		if (b->subs[i].csv) {
			slots[b->subs[i].slot]++;
			rows++;
		}
	if (rows) {
		printf(" (");
		for (int i = 0, first = 1; i < BATCH_SLOTS; i++)
			if (slots[i]) {
				printf("%s%d %s%s", first ? "" : ", ", slots[i], i ? "fail at " : "", batch_slot_names[i]);
				first = 0;
			}
		printf(")");
	}
	if (b->elsewhere)
		printf(", %d graded by another process", b->elsewhere);
	if (b->nwithdrawn)
		printf("; %d withdrawn (a row, and no submission in the folder now: their files are kept)", b->nwithdrawn);
	printf("\n");
	if (b->o->deadline > 0) {
		int late = 0;
		for (int i = 0; i < b->count; i++)
			late += b->subs[i].submitted > b->o->deadline;
		char when[40];
		batch_late_format_time((time_t)b->o->deadline, when, sizeof(when));
		printf("deadline %s: %d late (the gradebook's flags), by ", when, late);
		if (!b->o->submitted)
			printf("the files' modification times\n");
		else if (!b->by_mtime)
			printf("the times in %s\n", b->o->submitted);
		else
			printf("the times in %s, and for %d not in it, their files' modification times\n",
			       b->o->submitted, b->by_mtime);
	}
	struct buf open = BUF_INIT;
	int missing = 0;
	for (int i = 0; i < b->count; i++)
		if (!b->subs[i].final) {
			missing++;
			if (missing <= 10)
				buf_addf(&open, "%s%s", open.len ? ", " : "", b->subs[i].student);
		}
	if (missing && !b->o->slurm_task && !status)
		printf("%d row%s not final (%s%s): the same command grades %s again\n", missing, missing == 1 ? " is" : "s are",
		       open.data, missing > 10 ? ", …" : "", missing == 1 ? "it" : "them");
	buf_free(&open);
	if (!b->o->slurm_task)
		printf("gradebook: %s/gradebook.csv; Gradescope: %s/gradescope/STUDENT/results.json\n", b->o->out,
		       b->o->out);
	if (status == 130)
		printf("interrupted: what was graded is kept; the same command goes on from there\n");
	else if (status)
		printf("stopped before the end: what was graded is kept; the same command goes on from there\n");
}

/* Whether `student` is one of the --regrade names. */
static bool
asked_again(const struct batch *b, const char *student)
{
	for (int i = 0; i < b->o->nregrade; i++)
		if (!strcmp(b->o->regrade[i], student))
			return true;
	return b->o->regrade_all;
}

/*
 * Whether a final row no longer says what the submission is: asked for
 * again, a file where there was nothing to grade, a file whose content
 * changed since its grading, or a different problem (or a new one) where a
 * file was. A row of an older batch that recorded no content is kept.
 */
static bool
row_outdated(const struct batch *b, const struct submission *s, const cJSON *row, bool *changed)
{
	bool had_file = strcmp(batch_row_text(row, "stage", ""), "submission") != 0;
	const char *recorded = batch_row_recorded_hash(row);
	if (s->path)
		*changed = !had_file || (recorded && s->hash && strcmp(recorded, s->hash));
	else
		*changed = had_file || strcmp(batch_row_text(row, "message", ""), s->problem ? s->problem : "");
	return *changed || asked_again(b, s->student);
}

/*
 * The gradebook lines of students with a row in the out folder and no entry in the class's folder now;
 * their rows are marked withdrawn (the board leaves them out), and a student back again is no longer.
 */
static int
find_withdrawn(struct batch *b, bool mark)
{
	cJSON **rows;
	char **paths;
	int n = batch_row_all(b->o->out, &rows, &paths), status = 0;
	for (int k = 0; k < n; k++) {
		cJSON *row = rows[k];
		const char *student = batch_row_text(cJSON_GetObjectItemCaseSensitive(row, "batch"), "student", "");
		bool here = false;
		/* a row names its student as JSON can: bytes that are not UTF-8 written as \xNN */
		for (int i = 0; i < b->count && !here; i++) {
			char *escaped = utf8_escape_invalid(b->subs[i].student);
			here = !strcmp(escaped ? escaped : b->subs[i].student, student);
			free(escaped);
		}
		/* only by the process that holds the folder alone: a Slurm task may be writing the row */
		if (mark && !status && batch_row_mark_withdrawn(paths[k], !here))
			status = 3;
		if (!here) {
			bool pass = !strcmp(batch_row_text(row, "verdict", ""), "pass");
			char *message = xasprintf("withdrawn: no submission in the folder now; their last row (%s%s%s) "
						  "is kept", pass ? "pass" : "fail", pass ? "" : " at ",
						  pass ? "" : batch_row_text(row, "stage", ""));
			char *name = xstrdup(student);
			cJSON_DeleteItemFromObjectCaseSensitive(row, "verdict");
			cJSON_DeleteItemFromObjectCaseSensitive(row, "message");
			if (!cJSON_AddStringToObject(row, "verdict", "withdrawn") ||
			    !cJSON_AddStringToObject(row, "message", message))
				die(EXIT_ENVIRONMENT, "cannot edit the row of '%s' (cJSON refused)", name);
			ALLOC_GROW(b->withdrawn, b->nwithdrawn + 1, b->withdrawn_alloc);
			b->withdrawn[b->nwithdrawn++] = batch_csv_row(b->e, name, row);
			free(name);
			free(message);
		}
		cJSON_Delete(row);
		free(paths[k]);
	}
	free(rows);
	free(paths);
	return status;
}

/* With a deadline: when the submission came, from --submitted's CSV or its file's modification time. */
static void
submission_time(struct batch *b, struct submission *s)
{
	s->submitted = -1;
	if (b->o->deadline <= 0)
		return;
	time_t given = batch_late_lookup(&b->times, s->student);
	struct stat st;
	char *entry = xasprintf("%s/%s", b->o->dir, s->entry);
	if (given >= 0) {
		s->submitted = given;
		s->submitted_from = "csv";
	} else if (stat(s->path ? s->path : entry, &st) == 0) {
		s->submitted = st.st_mtime;
		s->submitted_from = "mtime";
		b->by_mtime++;
	}
	free(entry);
}

/* Read the rows already there; batch_record those of students with nothing to grade. */
static int
take_stock(struct batch *b, bool record_problems)
{
	for (int i = 0; i < b->count; i++) {
		struct submission *s = &b->subs[i];
		submission_time(b, s);
		if (s->path)
			s->hash = batch_row_content_hash(s->path);
		cJSON *row = batch_row_load(b->o->out, s->student);
		if (row) {
			batch_remember_row(b, s, row);
			bool changed = false;
			if (s->final && row_outdated(b, s, row, &changed)) {
				s->final = false;
				s->again = true;
				s->resubmitted = s->resubmitted || changed;
				b->again++;
			}
			if (s->final && batch_row_restore_gradescope(b->o->out, b->e, s->student, row))
				return cJSON_Delete(row), 3;
			b->resumed += s->final;
		}
		cJSON_Delete(row);
		if (!s->final && !s->path && record_problems) {
			cJSON *grade = batch_row_made_up(b->e, b->o->backend, s->entry, "submission", s->problem);
			int status = batch_record(b, i, grade, true, 0);
			cJSON_Delete(grade);
			if (status)
				return status;
		}
	}
	return find_withdrawn(b, record_problems);
}

/* A Slurm task: its slice of the students, and the out folder's lock shared with the other tasks. */
static int
join_job(struct batch *b)
{
	char *job = NULL;
	if (slurm_task_students(b->o->slurm_task, &b->slice, &b->nslice, &job, &b->task))
		return 3;
	int status = batch_lock_join(b->o->out, job, &b->lock);
	char host[256] = "?";
	gethostname(host, sizeof(host) - 1);
	snprintf(b->by, sizeof(b->by), "slurm job %s task %d on %s", job, b->task, host);
	free(job);
	return status;
}

/* The submissions this process grades: every one without a final row, or a Slurm task's share of them. */
static void
plan_queue(struct batch *b)
{
	b->queue = xcalloc((size_t)b->count + 1, sizeof(*b->queue));
	for (int i = 0; i < b->count; i++) {
		struct submission *s = &b->subs[i];
		bool mine = !b->o->slurm_task;
		for (int k = 0; k < b->nslice && !mine; k++)
			mine = !strcmp(b->slice[k], s->student);
		if (mine && !s->final && s->path) {
			b->queue[b->nqueue++] = i;
			b->retried += s->attempts > 0 && !s->again;
		}
	}
}

static int
submit(struct batch *b)
{
	char **pending = xcalloc((size_t)b->count + 1, sizeof(*pending));
	int n = 0;
	for (int i = 0; i < b->count; i++)
		if (!b->subs[i].final && b->subs[i].path)
			pending[n++] = b->subs[i].student;
	int status = 0;
	if (!n) {
		printf("every submission has a final row: nothing to submit\n");
		status = batch_save_gradebook(b) ? 3 : 0;
		batch_lock_release(&b->lock, true);
	} else {
		/* a row graded again (resubmitted, --regrade) is final on disk: the tasks must see it is not */
		for (int i = 0; i < b->count; i++)
			if (b->subs[i].again && b->subs[i].path && batch_row_reopen(b->o->out, b->subs[i].student)) {
				batch_lock_release(&b->lock, true);
				free(pending);
				return 3;
			}
		char out[PATH_MAX], dir[PATH_MAX];
		struct slurm_submission s = { .self = b->grader, .exercise = b->e->name, .partition = b->o->partition,
					      .backend = b->o->backend, .timeout_s = b->o->timeout_s,
					      .lanes = b->o->jobs ? b->o->jobs : 1, .tasks = b->o->tasks,
					      .students = pending, .nstudents = n,
					      .dir = realpath(b->o->dir, dir) ? dir : b->o->dir,
					      .out = realpath(b->o->out, out) ? out : b->o->out };
		struct slurm_jobs jobs;
		status = slurm_submit(&s, &jobs);
		/* the folder is the jobs' from now on: its lock names them, and this process lets go */
		if (!status && batch_lock_hand_to_jobs(&b->lock, jobs.job, jobs.merge_job, jobs.tasks)) {
			slurm_cancel(&jobs);
			status = 3;
		}
		if (status)
			batch_lock_release(&b->lock, true);
		else
			slurm_say_submitted(&s, &jobs);
		slurm_jobs_release(&jobs);
	}
	free(pending);
	return status;
}

/* Every --regrade name is a student of the folder: 0, or 2 after naming the first that is not. */
static int
check_regrade_names(const struct batch *b)
{
	for (int k = 0; k < b->o->nregrade; k++) {
		const char *name = b->o->regrade[k], *near = NULL;
		int best = 3;
		bool found = false;
		for (int i = 0; i < b->count && !found; i++) {
			found = !strcmp(b->subs[i].student, name);
			int d = edit_distance(b->subs[i].student, name);
			if (d < best)
				best = d, near = b->subs[i].student;
		}
		if (!found) {
			error("--regrade: '%s' has no submission in '%s'%s%s%s", name, b->o->dir, near ? " (did you mean '" : "",
			      near ? near : "", near ? "'?)" : "");
			return 2;
		}
	}
	return 0;
}

int
batch_run(const struct exercise *e, const struct batch_options *o)
{
	struct batch b = { .e = e, .o = o, .tty = isatty(1) && !getenv("NO_COLOR"), .started = now_seconds(),
			   .lock = { .fd = -1 } };
	int status = 0;
	char host[256] = "?";
	gethostname(host, sizeof(host) - 1);
	snprintf(b.by, sizeof(b.by), "%s pid %d", host, (int)getpid());
	ssize_t n = o->grader ? (ssize_t)strlen(o->grader) : readlink("/proc/self/exe", b.grader, sizeof(b.grader) - 1);
	if (n <= 0 || n >= (ssize_t)sizeof(b.grader))
		return error("cannot find where cudalings is installed"), 3;
	if (o->grader)
		memcpy(b.grader, o->grader, (size_t)n);
	b.grader[n] = 0;
	if ((status = batch_find_submissions(o->dir, o->out, e->name, &b.subs, &b.count)) ||
	    (status = check_regrade_names(&b)))
		goto out;
	if (o->submitted && batch_late_read_csv(o->submitted, &b.times)) {
		status = 2;
		goto out;
	}
	char *fault = batch_environment_fault(&b);
	if (fault) {
		error("%s", fault);
		free(fault);
		status = 3;
		goto out;
	}
	char *work = xasprintf("%s/.work", o->out), *gs = xasprintf("%s/gradescope", o->out);
	if (mkdir_p(work) || mkdir_p(gs))
		status = error("cannot create '%s': %s", o->out, strerror(errno)) ? 3 : 0;
	free(work);
	free(gs);
	if (status)
		goto out;
	/* a task shares the lock with the array's other tasks; the others take it alone */
	if (o->slurm_task) {
		status = join_job(&b);
	} else if (o->slurm_merge) {
		char *job = slurm_folder_job(o->slurm_merge);
		status = job ? batch_lock_take(o->out, job, &b.lock)
			     : (error("'%s' names no Slurm job: nothing to merge", o->slurm_merge), 2);
		free(job);
	} else {
		status = batch_lock_take(o->out, NULL, &b.lock);
	}
	if (status || (status = take_stock(&b, !o->slurm_task)))
		goto out;
	if (o->slurm) {
		status = submit(&b);
		goto out;
	}
	plan_queue(&b);
	b.gradebook = !o->slurm_task;
	if (o->slurm_task)
		batch_set_up_lanes(&b), printf("task %d of the job grades %d of its submissions of %s on the %s backend, "
					 "%d at a time\n", b.task, b.nqueue, e->name, build_backend_name(o->backend), b.nlanes);
	else if (!o->slurm_merge)
		batch_set_up_lanes(&b), printf("grading %d submission%s of %s on the %s backend, %d at a time%s\n",
					 b.nqueue, b.nqueue == 1 ? "" : "s", e->name, build_backend_name(o->backend), b.nlanes,
					 b.resumed ? " (the others have final rows from an earlier run)" : "");
	if (b.retried)
		printf("%d of them again: the grader gave no verdict on %s last time\n", b.retried,
		       b.retried == 1 ? "it" : "them");
	if (b.again)
		printf("%d row%s graded again: %s\n", b.again, b.again == 1 ? "" : "s",
		       o->regrade_all ? "--regrade-all" : "resubmitted since, or named by --regrade");
	status = b.gradebook && batch_save_gradebook(&b) ? 3 : batch_run_lanes(&b);
	if (!status && b.gradebook && batch_save_gradebook(&b))
		status = 3;
	summarize(&b, status);
out:
	/* a task leaves the batch_record to the job; a batch or a merge that ends frees the folder */
	batch_lock_release(&b.lock, !o->slurm_task && !o->slurm);
	batch_find_free(b.subs, b.count);
	free(b.subs);
	free(b.queue);
	for (int k = 0; k < b.nslice; k++)
		free(b.slice[k]);
	free(b.slice);
	batch_late_free(&b.times);
	for (int i = 0; i < b.nwithdrawn; i++)
		free(b.withdrawn[i]);
	free(b.withdrawn);
	for (int i = 0; i < b.nlanes; i++)
		free(b.lanes[i].device);
	return status;
}
