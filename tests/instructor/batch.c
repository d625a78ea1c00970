/*
 * Unit tests of a batch's state machine (grader/batch*.c, slurm.c,
 * memlimit.c) with a stand-in grader (tests/instructor/fake-grader) whose
 * every grading does what its file says: pass, fail, die, exit 3, hang, or
 * break the environment. Slurm's commands and nvidia-smi are stand-ins on
 * PATH too, so the job array's three steps run here, one after the other.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/batch/batch.h"
#include "grader/batch/batch_late.h"
#include "grader/batch/batch_lock.h"
#include "grader/batch/batch_rows.h"
#include "grader/compile/gradable.h"
#include "lib/util.h"
#include "grader/engine/memlimit.h"

static char tmp[PATH_MAX], class_dir[PATH_MAX + 16], out_dir[PATH_MAX + 16], fake[PATH_MAX], log_path[PATH_MAX + 16];
static char broken[PATH_MAX + 16], bin[PATH_MAX + 16];

static struct exercise
scale(void)
{
	struct exercise e = { .name = "scale", .ndims = 1, .ncases = 2 };
	e.cases[0][0] = 1;
	e.cases[1][0] = 33;
	return e;
}

static void
setup(void)
{
	cr_assert(realpath("tests/instructor/fake-grader", fake), "run from the repo's root");
	strcpy(tmp, "/tmp/cudalings-batch-XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
	snprintf(class_dir, sizeof(class_dir), "%s/class", tmp);
	snprintf(out_dir, sizeof(out_dir), "%s/out", tmp);
	snprintf(log_path, sizeof(log_path), "%s/log", tmp);
	snprintf(broken, sizeof(broken), "%s/broken", tmp);
	snprintf(bin, sizeof(bin), "%s/bin", tmp);
	mkdir(class_dir, 0755);
	mkdir(out_dir, 0755);
	mkdir(bin, 0755);
	setenv("FAKE_LOG", log_path, 1);
	setenv("FAKE_BROKEN", broken, 1);
	unsetenv("CUDA_VISIBLE_DEVICES");
	char *path = xasprintf("%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	free(path);
}

static void
teardown(void)
{
	char *cmd = xasprintf("rm -rf '%s'", tmp);
	(void)!system(cmd);
	free(cmd);
}

TestSuite(batch, .init = setup, .fini = teardown, .timeout = 60);

static void
put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	cr_assert_eq(write_file_atomic(path, text, strlen(text)), 0, "cannot write %s", path);
	free(path);
}

/* A stand-in command on PATH: a shell script's body. */
static void
tool(const char *name, const char *body)
{
	char *text = xasprintf("#!/bin/sh\n%s\n", body), *path = xasprintf("%s/%s", bin, name);
	put(bin, name, text);
	chmod(path, 0755);
	free(text);
	free(path);
}

static int
run(int jobs, double timeout_s)
{
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_SIM, .jobs = jobs,
				   .timeout_s = timeout_s, .grader = fake };
	struct exercise e = scale();
	fflush(NULL);
	return batch_run(&e, &o);
}

/* The gradebook's line of a student, without its line end; NULL when there is none. You own it. */
static char *
gradebook_line(const char *student)
{
	char *path = xasprintf("%s/gradebook.csv", out_dir), *text = read_file(path, NULL), *found = NULL;
	free(path);
	cr_assert_not_null(text, "no gradebook");
	size_t n = strlen(student);
	for (char *line = strtok(text, "\r\n"); line && !found; line = strtok(NULL, "\r\n"))
		if (!strncmp(line, student, n) && line[n] == ',')
			found = xstrdup(line);
	free(text);
	return found;
}

static bool
line_has(const char *student, const char *want)
{
	char *line = gradebook_line(student);
	bool has = line && strstr(line, want);
	if (!has)
		cr_log_error("%s's line: %s (wanted %s)", student, line ? line : "(none)", want);
	free(line);
	return has;
}

/* Gradings of `file` the stand-in logged (the probes of the starter are not the student's). */
static int
gradings(const char *needle)
{
	char *text = read_file(log_path, NULL);
	int n = 0;
	for (char *p = text; p && (p = strstr(p, needle)); p++)
		n++;
	free(text);
	return n;
}

static cJSON *
row(const char *student)
{
	return batch_row_load(out_dir, student);
}

Test(batch, verdicts_are_final_rows_and_a_second_run_grades_nothing)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "FAIL correctness\n");
	put(class_dir, "cat.cu", "#include <nothing>\n");
	cr_assert_eq(run(2, 30), 0);
	cr_assert(line_has("ann", "ann,pass,,1,2,,,all cases correct,yes"));
	cr_assert(line_has("bob", "bob,fail,correctness,0,2,,,wrong at correctness,yes"));
	cr_assert(line_has("cat", "cat,fail,compile,0,2,,,does not compile,yes"));
	cJSON *r = row("ann");
	const cJSON *stamp = cJSON_GetObjectItem(r, "batch");
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(stamp, "final")));
	cr_assert_eq(cJSON_GetObjectItem(stamp, "attempts")->valueint, 1);
	cr_assert(strstr(cJSON_GetObjectItem(stamp, "by")->valuestring, " pid "));
	cr_assert_str_eq(cJSON_GetObjectItem(stamp, "student")->valuestring, "ann");
	cJSON_Delete(r);
	cr_assert_eq(run(2, 30), 0);
	cr_assert_eq(gradings("class/"), 3, "a second run grades no final row again");
	/* the lanes' gradings share the machine's memory: each is told how many there are, the starter's probe
	   too (cat's compile failure is probed when bob, still grading, has not yet ended: a race, so counted
	   either way) */
	int lines = gradings("\n");
	cr_assert(lines == 3 || lines == 4, "%d gradings", lines);
	cr_assert_eq(gradings("none 2 "), lines, "every grading is told there are 2 lanes");
}

Test(batch, a_grader_that_dies_leaves_a_row_that_is_not_final_and_is_graded_again)
{
	put(class_dir, "ann.cu", "DIE 9\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", "ann,fail,error,"));
	cr_assert(line_has("ann", "killed by signal 9"));
	cr_assert(line_has("ann", ",no"));
	put(class_dir, "ann.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", "ann,pass,,1,2,,,all cases correct,yes"));
	cJSON *r = row("ann");
	cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "batch"), "attempts")->valueint, 2);
	cJSON_Delete(r);
}

Test(batch, a_grading_past_the_limit_is_stopped_and_not_final)
{
	put(class_dir, "ann.cu", "HANG\n");
	put(class_dir, "bob.cu", "PASS\n");
	/* bob's fake grading must end within the limit too: 10 s holds on a loaded machine */
	cr_assert_eq(run(1, 10), 0);
	cr_assert(line_has("ann", "took longer than 10 s"));
	cr_assert(line_has("ann", ",no"));
	cr_assert(line_has("bob", ",yes"));
}

Test(batch, the_starter_probed_after_a_stopped_grading_has_more_time_than_a_student)
{
	put(class_dir, "ann.cu", "HANG\n");
	/* a loaded machine: the starter's own grading outruns the students' 1 s */
	setenv("FAKE_STARTER_SLEEP", "2", 1);
	int status = run(1, 1);
	unsetenv("FAKE_STARTER_SLEEP");
	cr_assert_eq(status, 0, "a slow starter is no broken environment");
	cr_assert(line_has("ann", "took longer than 1 s"));
}

Test(batch, a_file_the_grader_alone_cannot_grade_is_a_row_while_the_starter_grades)
{
	put(class_dir, "ann.cu", "EXIT 3 the simulator cannot run a grid-wide cooperative group: grade this on a GPU\n");
	put(class_dir, "bob.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", "the simulator cannot run a grid-wide cooperative group"));
	cr_assert(line_has("ann", ",error,"));
	cr_assert(line_has("ann", ",no"));
	cr_assert(gradings("probe-") >= 1, "the starter was graded to tell the file from the environment");
}

Test(batch, an_environment_that_breaks_stops_the_batch_before_the_row_is_recorded)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "BREAK\n");
	put(class_dir, "cat.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 3);
	cr_assert(line_has("ann", ",yes"));
	cr_assert_null(row("bob"), "bob's compile failure was the environment's, not bob's");
	cr_assert_null(row("cat"));
	/* mended, the same command goes on where it stopped */
	unlink(broken);
	put(class_dir, "bob.cu", "FAIL correctness\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("bob", ",yes"));
	cr_assert(line_has("cat", ",yes"));
	cr_assert_eq(gradings("class/ann.cu"), 1);
}

Test(batch, a_broken_environment_from_the_start_records_nothing)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "PASS\n");
	close(open(broken, O_WRONLY | O_CREAT, 0644));
	cr_assert_eq(run(2, 30), 3);
	cr_assert_null(row("ann"));
	cr_assert_null(row("bob"));
}

Test(batch, a_grader_that_is_gone_stops_the_batch_at_once)
{
	put(class_dir, "ann.cu", "PASS\n");
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_SIM, .jobs = 1,
				   .timeout_s = 30, .grader = "/nonexistent/cudalings" };
	struct exercise e = scale();
	cr_assert_eq(batch_run(&e, &o), 3);
	cr_assert_null(row("ann"));
}

Test(batch, each_odd_submission_is_its_students_row_and_is_not_looked_at_again)
{
	char long_name[260];
	memset(long_name, 'x', 250);
	strcpy(long_name + 250, ".cu"); /* 253 characters */
	/* too long a name for write_file_atomic's temporary file */
	char *long_path = xasprintf("%s/%s", class_dir, long_name);
	FILE *lf = fopen(long_path, "w");
	cr_assert_not_null(lf);
	fputs("PASS\n", lf);
	fclose(lf);
	free(long_path);
	put(class_dir, ".hidden.cu", "PASS\n");
	put(class_dir, "notes.txt", "notes\n");
	put(class_dir, "BOB.CU", "PASS\n");
	put(class_dir, "empty.cu", "");
	char *bin_path = xasprintf("%s/binary.cu", class_dir);
	FILE *f = fopen(bin_path, "wb");
	fwrite("PASS\n\0\1", 1, 7, f);
	fclose(f);
	free(bin_path);
	char *big = xcalloc(MAX_SUBMISSION_BYTES + 2, 1);
	memset(big, 'a', MAX_SUBMISSION_BYTES + 1);
	put(class_dir, "big.cu", big);
	free(big);
	char *fifo = xasprintf("%s/fifo.cu", class_dir), *link = xasprintf("%s/gone.cu", class_dir);
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	cr_assert_eq(symlink("/nonexistent/file.cu", link), 0);
	free(fifo);
	free(link);
	put(class_dir, "dup.cu", "PASS\n");
	char *dup = xasprintf("%s/dup", class_dir), *two = xasprintf("%s/two", class_dir), *none = xasprintf("%s/none", class_dir);
	mkdir(dup, 0755);
	mkdir(two, 0755);
	mkdir(none, 0755);
	put(dup, "scale.cu", "PASS\n");
	put(two, "a.cu", "PASS\n");
	put(two, "b.cu", "PASS\n");
	put(none, "README", "x\n");
	free(dup);
	free(two);
	free(none);
	cr_assert_eq(run(1, 30), 0);
	long_name[250] = 0; /* the student: the name less .cu */
	cr_assert(line_has(long_name, ",pass,"));
	cr_assert(line_has("BOB", ",pass,"));
	cr_assert(line_has(".hidden.cu", "is hidden"));
	cr_assert(line_has("notes.txt", "is not a .cu file"));
	cr_assert(line_has("empty", "'empty.cu' is empty"));
	cr_assert(line_has("binary", "is not a text file"));
	cr_assert(line_has("big", "at most 1 MB"));
	cr_assert(line_has("fifo", "is not a regular file"));
	cr_assert(line_has("gone", "'gone.cu' is a symbolic link"));
	cr_assert(line_has("dup", "two submissions have this name"));
	cr_assert(line_has("two", "holds 2 .cu files"));
	cr_assert(line_has("none", "holds no .cu file"));
	cr_assert(line_has("notes.txt", ",submission,"));
	cr_assert(line_has("notes.txt", ",yes"));
	cr_assert_eq(gradings("class/"), 2, "only the two that can be graded are");
	cr_assert_eq(run(1, 30), 0);
	cr_assert_eq(gradings("class/"), 2, "nothing is looked at again");
}

Test(batch, csv_fields_are_quoted_and_formulas_are_text)
{
	put(class_dir, "=HYPERLINK(\"http:x\",\"y\").cu", "PASS\n");
	put(class_dir, "+1.cu", "PASS\n");
	put(class_dir, "@SUM(A1).cu", "PASS\n");
	put(class_dir, "-3.cu", "PASS\n");
	put(class_dir, "-inf.cu", "PASS\n");
	put(class_dir, "\xef\xbc\x9d" "1+1.cu", "PASS\n");
	put(class_dir, "\tx.cu", "PASS\n");
	put(class_dir, "a,b.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	char *path = xasprintf("%s/gradebook.csv", out_dir), *text = read_file(path, NULL);
	free(path);
	cr_assert(strstr(text, "\r\n\"'=HYPERLINK(\"\"http:x\"\",\"\"y\"\")\",pass,"), "%s", text);
	cr_assert(strstr(text, "\r\n'+1,pass,"));
	cr_assert(strstr(text, "\r\n'@SUM(A1),pass,"));
	cr_assert(strstr(text, "\r\n-3,pass,"), "a plain number is not a formula");
	cr_assert(strstr(text, "\r\n'-inf,pass,"));
	cr_assert(strstr(text, "\r\n'\xef\xbc\x9d" "1+1,pass,"));
	cr_assert(strstr(text, "\r\n'\tx,pass,"));
	cr_assert(strstr(text, "\r\n\"a,b\",pass,"));
	free(text);
}

/* ------------------------------------------------------------ the out folder's lock */

/* Its lock holds no record: the folder is free for the next batch. */
static void
assert_folder_free(const char *why)
{
	char *path = xasprintf("%s/.lock", out_dir), *left = read_file(path, NULL);
	cr_assert_str_eq(left, "", "%s", why);
	free(left);
	free(path);
}

static char *
stderr_of(int (*body)(void), int *status)
{
	char *path = xasprintf("%s/stderr", tmp);
	fflush(stderr);
	int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	close(fd);
	*status = body();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	char *text = read_file(path, NULL);
	free(path);
	return text;
}

static int
run_one(void)
{
	return run(1, 30);
}

static int
hold_lock(const char *record)
{
	char *path = xasprintf("%s/.lock", out_dir);
	int fd = open(path, O_RDWR | O_CREAT, 0644);
	free(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, record, strlen(record)), (ssize_t)strlen(record));
	return fd;
}

Test(batch, a_second_batch_on_a_held_out_folder_says_who_holds_it)
{
	put(class_dir, "ann.cu", "PASS\n");
	int fd = hold_lock("holder batch\npid 4242\nhost lab-7\nstarted 2026-11-25 15:26:35 UTC\n");
	cr_assert_eq(flock(fd, LOCK_EX), 0);
	int status;
	char *said = stderr_of(run_one, &status);
	cr_assert_eq(status, 2);
	cr_assert(strstr(said, "process 4242 on lab-7, started 2026-11-25 15:26:35 UTC"), "%s", said);
	cr_assert_null(row("ann"));
	free(said);
	close(fd);
}

Test(batch, the_lock_of_a_batch_that_died_is_taken_over)
{
	put(class_dir, "ann.cu", "PASS\n");
	close(hold_lock("holder batch\npid 4242\nhost lab-7\nstarted yesterday\n"));
	int status;
	char *said = stderr_of(run_one, &status);
	cr_assert_eq(status, 0);
	cr_assert(strstr(said, "taking"), "%s", said);
	cr_assert(strstr(said, "over from process 4242 on lab-7"), "%s", said);
	cr_assert(line_has("ann", ",yes"));
	assert_folder_free("a batch that ends frees the folder");
	free(said);
}

Test(batch, a_folder_given_to_a_slurm_job_is_its_while_slurm_runs_it)
{
	put(class_dir, "ann.cu", "PASS\n");
	close(hold_lock("holder slurm\npid 1\nhost login\nstarted now\njob 77\nmerge_job 78\ntasks 4\n"));
	tool("squeue", "echo PENDING");
	int status;
	char *said = stderr_of(run_one, &status);
	cr_assert_eq(status, 2);
	cr_assert(strstr(said, "Slurm job 77 (4 tasks, then merge job 78"), "%s", said);
	cr_assert(strstr(said, "PENDING"), "%s", said);
	free(said);
	tool("squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
	said = stderr_of(run_one, &status);
	cr_assert_eq(status, 0, "%s", said);
	cr_assert(strstr(said, "which Slurm no longer runs"), "%s", said);
	free(said);
	tool("squeue", "echo 'squeue: error: Unable to contact slurm controller' >&2; exit 1");
	close(hold_lock("holder slurm\npid 1\nhost login\nstarted now\njob 77\nmerge_job 78\ntasks 4\n"));
	said = stderr_of(run_one, &status);
	cr_assert_eq(status, 3, "Slurm cannot be asked: the folder is not taken");
	cr_assert(strstr(said, "Unable to contact slurm controller"), "%s", said);
	free(said);
}

Test(batch, a_student_claimed_by_another_process_is_left_to_it)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "PASS\n");
	int fd = batch_lock_claim(out_dir, "ann");
	cr_assert(fd >= 0);
	cr_assert_eq(batch_lock_claim(out_dir, "ann"), -1, "a claim is one process's");
	cr_assert_eq(run(1, 30), 0);
	cr_assert_null(row("ann"));
	cr_assert(line_has("bob", ",yes"));
	batch_lock_unclaim(fd);
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", ",yes"));
}

/* ------------------------------------------------------------ Slurm's three steps */

static int
run_mode(bool slurm, const char *task, const char *merge)
{
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_SIM, .timeout_s = 30,
				   .grader = fake, .slurm = slurm, .tasks = 2, .partition = "cpu", .slurm_task = task,
				   .slurm_merge = merge };
	struct exercise e = scale();
	fflush(NULL);
	return batch_run(&e, &o);
}

static char *
submission_folder(void)
{
	char *pattern = xasprintf("ls -d '%s'/.slurm/*/ > '%s/folder'", out_dir, tmp);
	cr_assert_eq(system(pattern), 0);
	free(pattern);
	char *path = xasprintf("%s/folder", tmp), *folder = read_file(path, NULL);
	free(path);
	folder[strcspn(folder, "\n")] = 0;
	return folder;
}

Test(batch, a_job_array_grades_what_a_batch_here_would)
{
	const char *names[] = { "ann", "bob", "cat", "dan", "eve" };
	const char *what[] = { "PASS\n", "FAIL correctness\n", "junk\n", "DIE 11\n", "PASS\n" };
	for (int i = 0; i < 5; i++) {
		char *file = xasprintf("%s.cu", names[i]);
		put(class_dir, file, what[i]);
		free(file);
	}
	put(class_dir, "notes.txt", "x\n");
	/* the same class here first, for the rows to compare with */
	cr_assert_eq(run(1, 30), 0);
	char *here[6];
	for (int i = 0; i < 5; i++)
		here[i] = gradebook_line(names[i]);
	here[5] = gradebook_line("notes.txt");
	char *cmd = xasprintf("rm -rf '%s' && mkdir '%s'", out_dir, out_dir);
	cr_assert_eq(system(cmd), 0);
	free(cmd);

	char *sbatch_log = xasprintf("%s/sbatch.log", tmp);
	char *body = xasprintf("echo \"$@\" >> '%s'; n=$(wc -l < '%s'); echo $((4241 + n))", sbatch_log, sbatch_log);
	tool("sbatch", body);
	free(body);
	tool("squeue", "echo RUNNING");
	cr_assert_eq(run_mode(true, NULL, NULL), 0);
	char *submitted = read_file(sbatch_log, NULL);
	cr_assert(strstr(submitted, "--array=0-1"), "%s", submitted);
	cr_assert(strstr(submitted, "--partition=cpu"), "%s", submitted);
	cr_assert(strstr(submitted, "--dependency=afterany:4242"), "%s", submitted);
	cr_assert_null(strstr(submitted, "--gres"), "no GPU for the simulator");
	free(submitted);
	free(sbatch_log);
	/* the student with nothing to grade has their row already; the others wait for the tasks */
	cr_assert_not_null(row("notes.txt"));
	cr_assert_null(row("ann"));
	char *folder = submission_folder();
	char *task_sh = xasprintf("%s/task.sh", folder), *script = read_file(task_sh, NULL);
	cr_assert(strstr(script, "--slurm-task"), "%s", script);
	free(script);
	free(task_sh);
	/* while the job runs, the folder is its own */
	int status;
	char *said = stderr_of(run_one, &status);
	cr_assert_eq(status, 2, "%s", said);
	free(said);

	setenv("SLURM_ARRAY_JOB_ID", "4242", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "2", 1);
	for (int task = 0; task < 2; task++) {
		char number[8];
		snprintf(number, sizeof(number), "%d", task);
		setenv("SLURM_ARRAY_TASK_ID", number, 1);
		cr_assert_eq(run_mode(false, folder, NULL), 0);
	}
	cJSON *r = row("bob");
	cr_assert(strstr(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "batch"), "by")->valuestring,
			 "slurm job 4242 task "));
	cJSON_Delete(r);
	cr_assert_eq(run_mode(false, NULL, folder), 0);
	for (int i = 0; i < 5; i++) {
		char *line = gradebook_line(names[i]);
		cr_assert_str_eq(line, here[i], "%s's row differs from the batch's here", names[i]);
		free(line);
		free(here[i]);
	}
	char *line = gradebook_line("notes.txt");
	cr_assert_str_eq(line, here[5]);
	free(line);
	free(here[5]);
	assert_folder_free("the merge frees the folder");
	free(folder);
}

Test(batch, a_task_of_another_job_does_not_write_the_folder)
{
	put(class_dir, "ann.cu", "PASS\n");
	tool("sbatch", "echo 500");
	tool("squeue", "echo RUNNING");
	cr_assert_eq(run_mode(true, NULL, NULL), 0);
	char *folder = submission_folder();
	setenv("SLURM_ARRAY_JOB_ID", "999", 1);
	setenv("SLURM_ARRAY_TASK_ID", "0", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "1", 1);
	cr_assert_eq(run_mode(false, folder, NULL), 2);
	cr_assert_null(row("ann"));
	free(folder);
}

Test(batch, a_gpu_class_is_submitted_from_a_login_node_without_a_gpu)
{
	put(class_dir, "ann.cu", "PASS\n");
	char *sbatch_log = xasprintf("%s/sbatch.log", tmp), *body = xasprintf("echo \"$@\" >> '%s'; echo 7", sbatch_log);
	tool("sbatch", body);
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_GPU, .timeout_s = 30,
				   .grader = fake, .slurm = true };
	struct exercise e = scale();
	setenv("CUDA_VISIBLE_DEVICES", "", 1); /* no GPU here, whatever this machine has */
	cr_assert_eq(batch_run(&e, &o), 0);
	char *submitted = read_file(sbatch_log, NULL);
	cr_assert(strstr(submitted, "--gres=gpu:1"), "%s", submitted);
	cr_assert(strstr(submitted, "--array=0-0"), "%s", submitted);
	char *folder = submission_folder(), *task_sh = xasprintf("%s/task.sh", folder), *script = read_file(task_sh, NULL);
	cr_assert(strstr(script, "--backend gpu"), "%s", script);
	/* the merge grades nothing either: it needs no GPU */
	o.slurm = false;
	o.slurm_merge = folder;
	cr_assert_eq(batch_run(&e, &o), 0);
	free(script);
	free(task_sh);
	free(folder);
	free(submitted);
	free(body);
	free(sbatch_log);
}

Test(batch, sbatch_refusing_leaves_nothing_behind)
{
	put(class_dir, "ann.cu", "PASS\n");
	tool("sbatch", "echo 'sbatch: error: invalid partition specified: cpu' >&2; exit 1");
	cr_assert_eq(run_mode(true, NULL, NULL), 3);
	assert_folder_free("the folder is free again");
}

/* ------------------------------------------------------------ lanes and memory */

Test(batch, one_lane_per_gpu_that_nvidia_smi_lists_or_cuda_visible_devices_names)
{
	tool("nvidia-smi", "echo 'GPU 0: NVIDIA H200 (UUID: GPU-a)'; echo 'GPU 1: NVIDIA H200 (UUID: GPU-b)'; "
			   "echo 'GPU 2: NVIDIA H200 (UUID: GPU-c)'");
	char *devices[8];
	cr_assert_eq(batch_lanes(BACKEND_GPU, 0, devices, 8), 3);
	cr_assert_str_eq(devices[0], "0");
	cr_assert_str_eq(devices[2], "2");
	for (int i = 0; i < 3; i++)
		free(devices[i]);
	cr_assert_eq(batch_lanes(BACKEND_GPU, 2, devices, 8), 2, "--jobs picks fewer");
	free(devices[0]);
	free(devices[1]);
	cr_assert_eq(batch_lanes(BACKEND_GPU, 5, devices, 8), 3, "never more lanes than GPUs");
	for (int i = 0; i < 3; i++)
		free(devices[i]);
	setenv("CUDA_VISIBLE_DEVICES", "5,7", 1);
	cr_assert_eq(batch_lanes(BACKEND_GPU, 0, devices, 8), 2);
	cr_assert_str_eq(devices[0], "5");
	cr_assert_str_eq(devices[1], "7");
	free(devices[0]);
	free(devices[1]);
	cr_assert_eq(batch_lanes(BACKEND_SIM, 3, devices, 8), 3);
	cr_assert_null(devices[0], "the simulator's lanes have no GPU");
}

Test(memory, limits_share_the_budget_between_floor_and_cap)
{
	struct memory_limits m;
	memlimit_compute(24 * GiB, 1, &m);
	cr_assert_eq(m.runner, RUNNER_CAP);
	cr_assert_eq(m.compile, COMPILE_CAP);
	memlimit_compute(64 * GiB, 8, &m);
	cr_assert_eq(m.runner, 8 * GiB);
	cr_assert_eq(m.compile, 4 * GiB);
	memlimit_compute(8 * GiB, 16, &m);
	cr_assert_eq(m.runner, RUNNER_FLOOR, "never below what a grading needs");
	cr_assert_eq(m.compile, COMPILE_FLOOR);
	memlimit_compute(0, 4, &m);
	cr_assert_eq(m.runner, RUNNER_CAP, "nothing known: the caps");
	cr_assert_eq(memlimit_lanes_that_fit(3 * GiB + GiB / 2), 3);
	cr_assert_eq(memlimit_lanes_that_fit(GiB / 4), 1);
}

Test(memory, a_slurm_allocation_is_the_budget_when_it_is_smaller)
{
	const char *source;
	setenv("SLURM_MEM_PER_NODE", "3072", 1);
	cr_assert_eq(memlimit_budget(&source), 3 * GiB);
	cr_assert_str_eq(source, "the Slurm allocation");
	unsetenv("SLURM_MEM_PER_NODE");
	setenv("SLURM_MEM_PER_CPU", "1024", 1);
	setenv("SLURM_CPUS_ON_NODE", "2", 1);
	cr_assert_eq(memlimit_budget(&source), 2 * GiB);
	unsetenv("SLURM_MEM_PER_CPU");
	cr_assert_gt(memlimit_budget(&source), 0);
	cr_assert(!strcmp(source, "MemAvailable") || strstr(source, "cgroup"));
}

/* A run that grades again: `all`, or the students in `names` (NULL-ended). */
static int
run_again(bool all, char **names)
{
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_SIM, .jobs = 1,
				   .timeout_s = 30, .grader = fake, .regrade = names, .regrade_all = all };
	while (names && names[o.nregrade])
		o.nregrade++;
	struct exercise e = scale();
	fflush(NULL);
	return batch_run(&e, &o);
}

Test(batch, a_resubmitted_file_is_graded_again_and_an_unchanged_one_is_not)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "FAIL correctness\n");
	put(class_dir, "cy.cu", "# not a .cu, as far as the grader is concerned\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("bob", ",fail,correctness,"));
	/* the row records what it graded */
	cJSON *r = row("bob");
	const char *hash = batch_row_recorded_hash(r);
	cr_assert_not_null(hash);
	char *path = xasprintf("%s/bob.cu", class_dir), *now = batch_row_content_hash(path);
	cr_assert_str_eq(hash, now);
	free(now);
	cJSON_Delete(r);
	put(class_dir, "bob.cu", "PASS\n"); /* the same size, and a different content */
	cr_assert_eq(run(1, 30), 0);
	cr_assert_eq(gradings("/ann.cu"), 1, "an unchanged file is not graded again");
	cr_assert_eq(gradings("/bob.cu"), 2, "a changed file is");
	cr_assert_eq(gradings("/cy.cu"), 1);
	cr_assert(line_has("bob", ",pass,"));
	r = row("bob");
	cr_assert(batch_row_resubmitted(r), "the row says it was resubmitted");
	cr_assert_eq(batch_row_attempts(r), 2);
	cJSON_Delete(r);
	/* and a third run, nothing changed, grades nothing */
	cr_assert_eq(run(1, 30), 0);
	cr_assert_eq(gradings("/bob.cu"), 2);
	free(path);
}

Test(batch, a_problem_fixed_is_graded_and_a_file_gone_bad_is_recorded_so)
{
	put(class_dir, "ann.cu", "");
	put(class_dir, "bob.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", "'ann.cu' is empty"));
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", ",pass,"));
	cr_assert(line_has("bob", "'bob.cu' is empty"));
	cr_assert_eq(gradings("/bob.cu"), 1);
}

Test(batch, regrade_grades_the_students_named_and_regrade_all_every_one)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "PASS\n");
	put(class_dir, "cy.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	char *names[] = { "bob", NULL };
	cr_assert_eq(run_again(false, names), 0);
	cr_assert_eq(gradings("/ann.cu"), 1);
	cr_assert_eq(gradings("/bob.cu"), 2);
	cr_assert_eq(run_again(true, NULL), 0);
	cr_assert_eq(gradings("/ann.cu"), 2);
	cr_assert_eq(gradings("/bob.cu"), 3);
	cr_assert_eq(gradings("/cy.cu"), 2);
	/* a name with no submission is refused before anything is graded */
	char *nobody[] = { "bobb", NULL };
	cr_assert_eq(run_again(false, nobody), 2);
	cr_assert_eq(gradings("/bob.cu"), 3);
}

Test(batch, a_student_gone_from_the_folder_is_withdrawn_and_their_files_kept)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "FAIL compile\n");
	cr_assert_eq(run(1, 30), 0);
	char *gone = xasprintf("%s/ann.cu", class_dir);
	cr_assert_eq(unlink(gone), 0);
	free(gone);
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", ",withdrawn,"));
	cr_assert(line_has("ann", "no submission in the folder now; their last row (pass) is kept"));
	cr_assert(line_has("bob", ",fail,compile,"));
	cJSON *r = row("ann");
	cr_assert_not_null(r, "the row of a withdrawn student is kept");
	cJSON_Delete(r);
	char *gs = xasprintf("%s/gradescope/ann/results.json", out_dir);
	cr_assert(file_exists(gs), "so is their Gradescope file");
	free(gs);
	r = row("ann");
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "batch"), "withdrawn")),
		  "the row is marked withdrawn, for the board");
	cJSON_Delete(r);
	/* back again: graded as ever, no longer withdrawn */
	put(class_dir, "ann.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", ",pass,"));
	r = row("ann");
	cr_assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "batch"), "withdrawn"));
	cJSON_Delete(r);
}

Test(batch, every_row_has_a_feedback_page)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "FAIL correctness\n");
	put(class_dir, "cy.cu", "");
	cr_assert_eq(run(1, 30), 0);
	char *path = xasprintf("%s/feedback/bob.md", out_dir), *text = read_file(path, NULL);
	cr_assert_not_null(text, "no feedback/bob.md");
	cr_assert(strstr(text, "# scale: bob\n"), "%s", text);
	cr_assert(strstr(text, "**Verdict: fail at correctness**"), "%s", text);
	cr_assert(strstr(text, "    wrong at correctness\n"), "%s", text);
	cr_assert(strstr(text, "- 1: wrong"), "%s", text);
	free(text);
	free(path);
	path = xasprintf("%s/feedback/cy.md", out_dir);
	text = read_file(path, NULL);
	cr_assert(text && strstr(text, "fail at submission") && strstr(text, "'cy.cu' is empty"), "%s", text);
	free(text);
	free(path);
	path = xasprintf("%s/feedback/ann.md", out_dir);
	text = read_file(path, NULL);
	cr_assert(text && strstr(text, "**Verdict: pass**"), "%s", text);
	free(text);
	free(path);
}

static int
run_deadline(long long deadline, const char *submitted)
{
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_SIM, .jobs = 1,
				   .timeout_s = 30, .grader = fake, .deadline = deadline, .submitted = submitted };
	struct exercise e = scale();
	fflush(NULL);
	return batch_run(&e, &o);
}

static void
set_mtime(const char *name, time_t t)
{
	char *path = xasprintf("%s/%s", class_dir, name);
	struct timespec times[2] = { { .tv_sec = t }, { .tv_sec = t } };
	cr_assert_eq(utimensat(AT_FDCWD, path, times, 0), 0);
	free(path);
}

Test(batch, a_deadline_flags_late_rows_by_the_files_times_or_a_csv)
{
	time_t deadline = batch_late_parse_time("2026-11-20T12:00Z");
	cr_assert_eq(deadline, 1795176000);
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "FAIL correctness\n");
	set_mtime("ann.cu", deadline - 60);
	set_mtime("bob.cu", deadline + 60);
	cr_assert_eq(run_deadline(deadline, NULL), 0);
	/* (gradebook_line splits at "\r\n": a line never ends in \r here; a failed line_has logs, which fails the run) */
	cr_assert(line_has("ann", ",yes,"));
	char *line = gradebook_line("ann");
	cr_assert(line && !strstr(line, "late"), "%s", line);
	free(line);
	cr_assert(line_has("bob", ",yes,late"));
	cJSON *r = row("bob");
	const cJSON *record = cJSON_GetObjectItem(r, "batch");
	cr_assert_str_eq(cJSON_GetObjectItem(record, "submitted_from")->valuestring, "mtime");
	cr_assert_str_eq(cJSON_GetObjectItem(record, "submitted")->valuestring, "2026-11-20T12:01:00Z");
	cJSON_Delete(r);
	/* the times a CSV gives win over the files' (ann late, bob on time) */
	char *csv = xasprintf("%s/times.csv", tmp);
	cr_assert_eq(write_file_atomic(csv, "student,submitted\nann,2026-11-20 13:00Z\n\"bob\",@1795175000\n", 58), 0);
	cr_assert_eq(run_deadline(deadline, csv), 0);
	cr_assert(line_has("ann", ",yes,late"));
	line = gradebook_line("bob");
	cr_assert(line && !strstr(line, "late"), "%s", line);
	free(line);
	/* without a deadline, nobody is late */
	cr_assert_eq(run(1, 30), 0);
	cr_assert(line_has("ann", ",yes,"));
	line = gradebook_line("bob");
	cr_assert(line && !strstr(line, "late"), "%s", line);
	free(line);
	free(csv);
}

Test(batch, deadline_times_are_read_exactly)
{
	cr_assert_eq(batch_late_parse_time("1970-01-02T00:00Z"), 86400);
	cr_assert_eq(batch_late_parse_time("1970-01-02 01:00+01:00"), 86400);
	cr_assert_eq(batch_late_parse_time("1970-01-01 23:00:30-01:00"), 86430);
	cr_assert_eq(batch_late_parse_time("@86400"), 86400);
	cr_assert_eq(batch_late_parse_time("2026-11-20"), -1);
	cr_assert_eq(batch_late_parse_time("tomorrow"), -1);
	cr_assert_eq(batch_late_parse_time("2026-11-20 12:00 UTC"), -1);
}

Test(batch, a_job_array_grades_again_what_regrade_names)
{
	put(class_dir, "ann.cu", "PASS\n");
	put(class_dir, "bob.cu", "PASS\n");
	cr_assert_eq(run(1, 30), 0);
	tool("sbatch", "echo 4242");
	tool("squeue", "echo RUNNING");
	char *names[] = { "bob", NULL };
	struct batch_options o = { .dir = class_dir, .out = out_dir, .backend = BACKEND_SIM, .timeout_s = 30,
				   .grader = fake, .slurm = true, .tasks = 1, .regrade = names, .nregrade = 1 };
	struct exercise e = scale();
	fflush(NULL);
	cr_assert_eq(batch_run(&e, &o), 0);
	/* the tasks read bob's row as not final, and grade it; ann's stays */
	cJSON *r = row("bob");
	cr_assert(batch_row_final(r) == false, "bob's row is reopened for the job");
	cJSON_Delete(r);
	r = row("ann");
	cr_assert(batch_row_final(r));
	cJSON_Delete(r);
}
