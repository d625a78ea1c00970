/*
 * batch_lanes: the gradings of a batch, side by side: one lane per GPU or
 * per two cores (as many as the memory holds), each grading a child
 * `cudalings grade --json` with its own limits; what ends is recorded, unless
 * the environment failed it (the exercise's starter tells, graded the same way).
 */
#include "grader/batch/batch_state.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "grader/batch/batch_rows.h"
#include "lib/exit.h"
#include "grader/engine/grade.h"
#include "lib/pool.h"
#include "lib/util.h"
#include "grader/engine/memlimit.h"
#include "common/root.h"
#include "grader/compile/toolchain.h"
/* where builds go (harness/runner.mk) */
#include "grader/runner_mk.h"

/* a grade JSON holds the compiler's and the program's output: room for all of it */
#define GRADE_OUTPUT_CAP (16u << 20)
/* below this on the out folder's or the build's disk, a compile or a row may fail for want of room */
#define DISK_FLOOR (64ull << 20)

/* ------------------------------------------------------------ the environment */

static bool
on_path(const char *name)
{
	char *found = path_search(name);
	free(found);
	return found != NULL;
}

static bool
disk_full(const char *path)
{
	struct statvfs st;
	return statvfs(path, &st) == 0 && (unsigned long long)st.f_bavail * st.f_frsize < DISK_FLOOR;
}

/*
 * What in the environment would make every grading fail, or NULL: checked
 * before the first grading and before a failure is recorded against a student.
 */
char *
batch_environment_fault(const struct batch *b)
{
	char *workbook = xstrdup(workbook_file()), *build = root_path(BUILD_DIR);
	char *fault = NULL;
	/* a Slurm submission or merge grades nothing here: the GPU and the tools are the nodes' to have */
	bool here = !b->o->slurm && !b->o->slurm_merge;
	if (access(b->grader, X_OK))
		fault = xasprintf("the grader '%s' is gone (%s): build it again (make)", b->grader, strerror(errno));
	else if (access(workbook, R_OK))
		fault = xasprintf("cannot read '%s': %s", workbook, strerror(errno));
	else if (b->o->backend == BACKEND_SIM && !b->o->slurm_merge && !toolchain_sim_ready())
		fault = xstrdup("the CPU simulator is not built (was " BUILD_DIR "/ removed?): run 'make sim'");
	else if (here && b->o->backend == BACKEND_GPU && !toolchain_gpu_present())
		fault = xstrdup("no NVIDIA GPU answers any more");
	else if (here && b->o->backend == BACKEND_GPU && (!toolchain_nvcc() || access(toolchain_nvcc(), X_OK)))
		fault = xstrdup("nvcc is gone: the GPU backend compiles with it");
	else if (here && (!on_path("nm") || !on_path("objcopy")))
		fault = xstrdup("nm or objcopy is not on PATH (is binutils installed?): every submission is inspected "
				"with them");
	else if (here && b->o->backend == BACKEND_SIM && !on_path("g++"))
		fault = xstrdup("g++ is not on PATH: the simulator compiles with it");
	else if (access(b->o->out, W_OK))
		fault = xasprintf("cannot write the out folder '%s': %s", b->o->out, strerror(errno));
	else if (disk_full(b->o->out) || disk_full(build))
		fault = xasprintf("the disk of '%s' or of '%s' is full", b->o->out, build);
	free(workbook);
	free(build);
	return fault;
}

/* ------------------------------------------------------------ lanes */

/* The GPUs CUDA_VISIBLE_DEVICES names, or those `nvidia-smi -L` lists. */
static int
find_gpus(char **devices, int max)
{
	const char *visible = getenv("CUDA_VISIBLE_DEVICES");
	int n = 0;
	if (visible && *visible) {
		char *copy = xstrdup(visible);
		for (char *tok = strtok(copy, ","); tok && n < max; tok = strtok(NULL, ","))
			devices[n++] = xstrdup(tok);
		free(copy);
		return n;
	}
	char *argv[] = { "nvidia-smi", "-L", NULL };
	struct buf out = BUF_INIT;
	if (run_command(argv, NULL, 30, &out))
		for (char *line = out.data; line && *line && n < max;) {
			char *end = strchrnul(line, '\n');
			if (!strncmp(line, "GPU ", 4))
				devices[n] = xasprintf("%d", n), n++;
			line = *end ? end + 1 : end;
		}
	buf_free(&out);
	return n;
}

int
batch_lanes(enum backend backend, int jobs, char **devices, int max)
{
	for (int i = 0; i < max; i++)
		devices[i] = NULL;
	if (backend == BACKEND_GPU) {
		char *found[MAX_LANES];
		int n = find_gpus(found, max < MAX_LANES ? max : MAX_LANES);
		/* the grader found a GPU but nvidia-smi could not list it: one lane, as the driver sees it */
		if (!n)
			return 1;
		if (jobs > n)
			fprintf(stderr, "cudalings: --jobs %d: %d GPU%s here, and timings need a GPU each: %d lane%s\n",
				jobs, n, n == 1 ? "" : "s", n, n == 1 ? "" : "s");
		int want = jobs > 0 && jobs < n ? jobs : n;
		for (int i = 0; i < n; i++)
			if (i < want)
				devices[i] = found[i];
			else
				free(found[i]);
		return want;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int want = jobs > 0 ? jobs : (int)(cores / 2);
	return want < 1 ? 1 : want > max ? max : want;
}

/* As many lanes as asked, but no more than the memory holds; sets $CUDALINGS_LANES for the gradings. */
void
batch_set_up_lanes(struct batch *b)
{
	char *devices[MAX_LANES];
	b->nlanes = batch_lanes(b->o->backend, b->o->jobs, devices, MAX_LANES);
	for (int i = 0; i < b->nlanes; i++)
		b->lanes[i].device = devices[i];
	const char *source;
	unsigned long long budget = memlimit_budget(&source);
	int fit = budget ? memlimit_lanes_that_fit(budget) : b->nlanes;
	if (b->o->backend == BACKEND_SIM && fit < b->nlanes) {
		char have[32];
		memlimit_describe(budget, have, sizeof(have));
		printf("memory: %s (%s) holds %d grading%s at once, not %d: %d lane%s\n", have, source, fit,
		       fit == 1 ? "" : "s", b->nlanes, fit, fit == 1 ? "" : "s");
		b->nlanes = fit;
	}
	struct memory_limits m;
	memlimit_compute(budget, b->nlanes, &m);
	char runner[32], compile[32];
	memlimit_describe(m.runner, runner, sizeof(runner));
	memlimit_describe(m.compile, compile, sizeof(compile));
	if (b->o->backend == BACKEND_SIM)
		printf("limits per grading: %s of address space for the simulator's runner, %s for each compiler\n",
		       runner, compile);
	else
		printf("limits per grading: %s of address space for each compiler (CUDA's runner reserves more than "
		       "any limit would let it)\n", compile);
	snprintf(b->lanes_env, sizeof(b->lanes_env), "CUDALINGS_LANES=%d", b->nlanes);
}

/*
 * Start `argv` on a lane's GPU with the batch's settings, its output captured, in `cwd` (NULL: the
 * workbook's folder). The workbook is named to it: a grading in the class folder finds it all the same.
 */
static int
spawn_on_lane(struct batch *b, struct lane *lane, struct child *c, char **argv, const char *cwd, double timeout_s)
{
	char *device = lane->device ? xasprintf("CUDA_VISIBLE_DEVICES=%s", lane->device) : NULL;
	char *root = xasprintf("CUDALINGS_ROOT=%s", workbook_root());
	const char *env[] = { b->lanes_env, root, device, NULL };
	/* its own group: the terminal's Ctrl-C reaches the batch, which stops the gradings itself */
	struct spawn_options o = { .cwd = cwd ? cwd : workbook_root(), .env = env, .out = SPAWN_CAPTURE,
				   .err = SPAWN_CAPTURE, .output_cap = GRADE_OUTPUT_CAP, .timeout_s = timeout_s };
	*c = (struct child){ .label = "grader" };
	int status = child_spawn(c, argv, &o);
	free(device);
	free(root);
	return status;
}

static int
start_grading(struct batch *b, struct lane *lane, struct child *c, int index)
{
	struct submission *s = &b->subs[index];
	/* from the class folder, by the name it gives the file: what the grader says (Gradescope's output,
	   the gradebook's message) names no path of this machine */
	char *folder = xstrndup(s->path, s->shown_at - 1);
	char *argv[] = { b->grader, "grade", b->e->name, "--file", s->path + s->shown_at, "--json", "--backend",
			 (char *)build_backend_name(b->o->backend), NULL };
	int spawned = spawn_on_lane(b, lane, c, argv, folder, b->o->timeout_s);
	free(folder);
	if (spawned)
		return -1;
	lane->busy = true;
	lane->index = index;
	return 0;
}

/* The first line the grader printed on stderr, less its "cudalings: " prefix. */
static char *
complaint(const struct child *c)
{
	const char *line = c->errors.len ? c->errors.data : "";
	if (!strncmp(line, "cudalings: ", 11))
		line += 11;
	return *line ? xasprintf("%.*s", (int)strcspn(line, "\n"), line) : xstrdup("the grader said nothing");
}

/* The grade JSON a grader printed, when it gave a verdict (exit 0 or 1); else NULL. */
static cJSON *
verdict_of(const struct child *c)
{
	int code = child_exit_code(c);
	cJSON *grade = !c->timed_out && (code == 0 || code == 1) && c->output.len ? cJSON_Parse(c->output.data) : NULL;
	if (grade && !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(grade, "verdict"))) {
		cJSON_Delete(grade);
		grade = NULL;
	}
	return grade;
}

/*
 * Whether the grader still grades here: the exercise's starter must get a
 * verdict past compiling. NULL when it does, else what went wrong.
 */
static char *
probe(struct batch *b, struct lane *lane)
{
	char *path = xasprintf("%s/.work/probe-%d.cu", b->o->out, (int)getpid()), *why = NULL;
	char *starter_argv[] = { b->grader, "starter", b->e->name, NULL };
	char *grade_argv[] = { b->grader, "grade", b->e->name, "--file", path, "--json", "--backend",
			       (char *)build_backend_name(b->o->backend), NULL };
	/* the starter is given more time than a student: on a loaded machine a starter stopped at a tight
	   --timeout would stop the whole batch as a broken environment (tests/instructor/walk.sh's 10 s, at
	   a load of 35, did). At least 5 minutes: the probe's file is new to each batch (its name has the
	   pid), so it is compiled afresh, then run, at a fraction of a core where the machine is loaded;
	   the grader's own limits (the compile's 40 s) end a starter that hangs well before */
	double limit = 3 * b->o->timeout_s < 300 ? 300 : 3 * b->o->timeout_s;
	struct child c;
	if (spawn_on_lane(b, lane, &c, starter_argv, NULL, limit) || child_wait(&c) != 0 ||
	    write_file_atomic(path, c.output.data, c.output.len)) {
		char *said = complaint(&c);
		why = xasprintf("cannot make the starter of %s: %s", b->e->name, said);
		free(said);
	}
	child_release(&c);
	if (!why && !spawn_on_lane(b, lane, &c, grade_argv, NULL, limit)) {
		child_wait(&c);
		cJSON *grade = verdict_of(&c);
		const char *stage = batch_row_text(grade, "stage", "");
		if (!grade || !strcmp(stage, "compile")) {
			char *said = grade ? xstrdup(batch_row_text(grade, "message", "")) : complaint(&c);
			char *status = child_describe_status(&c);
			why = xasprintf("the grader %s on the exercise's own starter too: %s", grade ? "fails to compile"
					: status, said);
			free(status);
			free(said);
		}
		cJSON_Delete(grade);
		child_release(&c);
	} else if (!why) {
		why = xstrdup("the grader cannot be started");
	}
	unlink(path);
	free(path);
	return why;
}

/*
 * A grading ended: its row, unless the environment failed it. Returns 0 to
 * go on, 3 to stop (nothing recorded: the next run grades this student).
 */
static int
finish_grading(struct batch *b, struct lane *lane, const struct child *c)
{
	struct submission *s = &b->subs[lane->index];
	double seconds = now_seconds() - c->started;
	int code = child_exit_code(c), status = 0;
	cJSON *grade = verdict_of(c);
	const char *stage = batch_row_text(grade, "stage", NULL);
	bool passed = grade && !strcmp(batch_row_text(grade, "verdict", ""), "pass");
	bool past_compile = grade && (passed || (stage && strcmp(stage, "compile")));
	lane->busy = false;
	char *fault = passed ? NULL : batch_environment_fault(b);
	/* a grading that failed without a verdict, or at compiling while no other proved the tools sound,
	   may have met the environment: the exercise's starter tells */
	if (!fault && !passed && (!grade || (!past_compile && b->healthy_at < c->started)))
		fault = probe(b, lane);
	if (fault) {
		error("stopped before recording %s's row: %s; nothing was recorded against %s: fix it and run the "
		      "same command again", s->student, fault, s->student);
		free(fault);
		cJSON_Delete(grade);
		return 3;
	}
	bool final = true;
	if (past_compile)
		b->healthy_at = now_seconds();
	b->warm |= grade != NULL;
	if (!grade) {
		char *said = complaint(c), *why;
		if (c->timed_out) {
			why = xasprintf("the grading took longer than %.0f s and was stopped (its own limits did not "
					"stop it first: a loaded machine?)", b->o->timeout_s);
		} else if (code == 2) {
			why = xstrdup(said); /* the grader refused the file itself */
		} else if (code == 3) {
			why = xasprintf("the grader could not grade this file: %s", said);
		} else {
			char *how = child_describe_status(c);
			why = xasprintf("the grader %s without a verdict: %s; please report it", how, said);
			free(how);
		}
		final = code == 2;
		grade = batch_row_made_up(b->e, b->o->backend, s->path, final ? "submission" : "error", why);
		free(why);
		free(said);
	}
	if (batch_record(b, lane->index, grade, final, seconds))
		status = 3;
	cJSON_Delete(grade);
	return status;
}

/* The next submission this process grades, claimed; -1 when none is left. */
static int
next_submission(struct batch *b, int *claim)
{
	while (b->next < b->nqueue) {
		int index = b->queue[b->next++];
		struct submission *s = &b->subs[index];
		*claim = batch_lock_claim(b->o->out, s->student);
		if (*claim == -2)
			return -2;
		/* another process grades them, or has since this one looked (a row graded again: a row newer
		   than the one it saw, by its count of gradings) */
		cJSON *row = *claim < 0 ? NULL : batch_row_load(b->o->out, s->student);
		if (*claim < 0 || (row && batch_row_final(row) && (!s->again || batch_row_attempts(row) > s->attempts))) {
			batch_lock_unclaim(*claim);
			b->elsewhere++;
			cJSON_Delete(row);
			continue;
		}
		if (row)
			s->attempts = batch_row_attempts(row);
		cJSON_Delete(row);
		return index;
	}
	return -1;
}

/*
 * The next grading, on the lane of the pool's slot. The first grading builds
 * the judge, the check and the reference in the shared cache; two at once
 * would write them under each other: it runs alone.
 */
static int
next_grading(struct pool *p, struct pool_job *j)
{
	struct batch *b = p->ctx;
	struct lane *lane = &b->lanes[j->slot];
	if (!b->warm && p->running)
		return POOL_NO_JOB;
	int index = next_submission(b, &lane->claim);
	if (index == -1)
		return POOL_NO_JOB;
	if (index == -2)
		return 3;
	if (start_grading(b, lane, &j->child, index)) {
		batch_lock_unclaim(lane->claim);
		return 3;
	}
	j->index = index;
	return 0;
}

/* A grading ended (or was stopped: then nothing is recorded, and the next run grades the student). */
static int
grading_ended(struct pool *p, struct pool_job *j)
{
	struct batch *b = p->ctx;
	struct lane *lane = &b->lanes[j->slot];
	int status = j->abandoned ? 0 : finish_grading(b, lane, &j->child);
	lane->busy = false;
	batch_lock_unclaim(lane->claim);
	return status;
}

static void
draw_bar(struct pool *p)
{
	batch_draw_bar(p->ctx);
}

int
batch_run_lanes(struct batch *b)
{
	/* each grading in its own group: the terminal's Ctrl-C reaches the batch, which stops them itself */
	struct pool p = { .max = b->nlanes, .next = next_grading, .finished = grading_ended, .tick = draw_bar,
			  .ctx = b, .catch_signals = true };
	int status = pool_run(&p);
	return p.interrupted ? EXIT_INTERRUPTED : status;
}
