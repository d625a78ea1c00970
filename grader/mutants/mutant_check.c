/*
 * mutant_check.c — grading an exercise's mutants: each is written under
 * build/mutants/NAME/ (with its diff), graded on the simulator as a student's
 * file would be, in a process of its own, `jobs` at a time; the exercise's
 * runner and judge are built already (its solution was graded first), so each
 * grading compiles only its mutant. A mutant that passes is a weak check,
 * unless workbook.json's equivalent_mutants says why it cannot fail.
 */
#include "grader/mutants/mutant_check.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/exit.h"
#include "grader/engine/timelimit.h"
#include "grader/engine/grade.h"
#include "lib/pool.h"
#include "lib/util.h"
#include "grader/mutants/mutants.h"
#include "common/root.h"
/* where builds go (harness/runner.mk) */
#include "grader/runner_mk.h"

/* CPU seconds a mutant's launch may take: a right one takes a fraction of a second; one that never ends
 * (a loop's bound made >= 0) is stopped here rather than at the runner's 20 s */
#define MUTANT_LAUNCH_LIMIT_S 5.0

/* What a worker says of its grading: fixed size, so one write() on a pipe carries it whole. */
struct mutant_outcome {
	int status;      /* the grading's exit status; -1 when the worker died */
	char stage[24];  /* where it failed */
	char kind[32];   /* the first diagnosis, if any */
	char message[512];
};

/* The gradings of one grade_files: the files, and what each worker said on its channel. */
struct gradings {
	const struct exercise *e;
	char *const *files;
	int n, next;
	const char *current;		/* the file the worker forked next grades */
	struct buf *said;		/* per file */
	struct mutant_outcome *out;
};

/* build/mutants/NAME/ID.cu, with '@' and '#' made '-' so any tool takes the name. */
static char *
mutant_file(const struct exercise *e, const struct mutant *m, const char *ext)
{
	char *id = xstrdup(m->id);
	for (char *p = id; *p; p++)
		if (*p == '@' || *p == '#')
			*p = '-';
	char *path = xasprintf(BUILD_DIR "/mutants/%s/%s.%s", e->name, id, ext);
	free(id);
	return path;
}

struct mutants_now {
	const struct exercise *e;
	const struct mutant *m;
	int n;
};

/* Whether a file of the mutants' folder is kept: a dot file, or one of a mutant the solution still has. */
static bool
current_file(const char *name, void *ctx)
{
	const struct mutants_now *now = ctx;
	bool current = name[0] == '.';
	for (int i = 0; i < now->n && !current; i++) {
		char *cu = mutant_file(now->e, &now->m[i], "cu"), *diff = mutant_file(now->e, &now->m[i], "diff");
		current = !strcmp(strrchr(cu, '/') + 1, name) || !strcmp(strrchr(diff, '/') + 1, name);
		free(cu);
		free(diff);
	}
	return current;
}

/* Remove what an earlier run left of mutants the solution no longer has. */
static void
remove_stale(const struct exercise *e, const struct mutant *m, int n)
{
	char *rel = xasprintf(BUILD_DIR "/mutants/%s", e->name), *dir = root_path(rel);
	struct mutants_now now = { e, m, n };
	remove_files_in(dir, current_file, &now);
	free(dir);
	free(rel);
}

static int
write_mutants(const struct exercise *e, const struct mutant *m, int n)
{
	char *rel = xasprintf(BUILD_DIR "/mutants/%s", e->name), *dir = root_path(rel);
	int status = mkdir_p(dir) ? error("cannot create '%s': %s", dir, strerror(errno)) : 0;
	free(dir);
	free(rel);
	for (int i = 0; i < n && !status; i++) {
		char *cu = mutant_file(e, &m[i], "cu"), *diff = mutant_file(e, &m[i], "diff");
		char *cu_abs = root_path(cu), *diff_abs = root_path(diff);
		/* unchanged files keep their time: a second run compiles nothing again */
		if (write_file_if_changed(cu_abs, m[i].text, strlen(m[i].text)) ||
		    write_file_if_changed(diff_abs, m[i].diff, strlen(m[i].diff)))
			status = error("cannot write '%s': %s", cu, strerror(errno));
		free(cu);
		free(diff);
		free(cu_abs);
		free(diff_abs);
	}
	if (!status)
		remove_stale(e, m, n);
	return status;
}

/* In the worker: grade one file as mutants are graded, and say how it went on its channel. */
static int
grade_in_worker(void *arg, int fd)
{
	const struct gradings *g = arg;
	timelimit_sim_lower(MUTANT_LAUNCH_LIMIT_S);
	struct grade_options o = { .file = g->current, .backend = BACKEND_SIM, .backend_given = true,
				   .skip_frontend = true };
	struct grade_result r;
	struct mutant_outcome out;
	memset(&out, 0, sizeof(out));
	out.status = grade_run(g->e, &o, &r);
	snprintf(out.stage, sizeof(out.stage), "%s", r.stage != STAGE_NONE ? stage_name(r.stage) : "");
	snprintf(out.kind, sizeof(out.kind), "%s", r.ndiagnostics ? r.diagnostics[0].kind : "");
	snprintf(out.message, sizeof(out.message), "%s", r.message ? r.message : "");
	ssize_t written = write(fd, &out, sizeof(out));
	return written == (ssize_t)sizeof(out) ? 0 : 1;
}

static void
keep_said(struct child *c, const char *data, size_t n)
{
	buf_add(c->ctx, data, n);
}

static int
start_grading(struct pool *p, struct pool_job *j)
{
	struct gradings *g = p->ctx;
	if (g->next == g->n)
		return POOL_NO_JOB;
	j->index = g->next++;
	g->current = g->files[j->index];
	j->child = (struct child){ .label = "grading", .on_channel = keep_said, .ctx = &g->said[j->index] };
	/* a SIGTERM should the grader die or the pool stop it: the grading stops its children itself */
	struct spawn_options o = { .channel = true, .death_signal = SIGTERM };
	return child_start_function(&j->child, grade_in_worker, g, &o) ? EXIT_ENVIRONMENT : 0;
}

/* Its outcome, as the worker said it; a worker that died said nothing whole: status -1. */
static int
grading_finished(struct pool *p, struct pool_job *j)
{
	struct gradings *g = p->ctx;
	struct mutant_outcome *o = &g->out[j->index];
	const struct buf *said = &g->said[j->index];
	if (said->len == sizeof(*o)) {
		memcpy(o, said->data, sizeof(*o));
	} else {
		memset(o, 0, sizeof(*o));
		o->status = -1;
	}
	o->stage[sizeof(o->stage) - 1] = o->kind[sizeof(o->kind) - 1] = 0;
	o->message[sizeof(o->message) - 1] = 0;
	return 0;
}

/* Grade the n files, `jobs` at a time, each in a worker of its own; out[i] gets file i's outcome. */
static int
grade_files(const struct exercise *e, char *const *files, int n, int jobs, struct mutant_outcome *out)
{
	struct gradings g = { .e = e, .files = files, .n = n, .out = out };
	g.said = xcalloc((size_t)n + 1, sizeof(*g.said));
	for (int i = 0; i < n; i++)
		buf_init(&g.said[i]);
	struct pool p = { .max = jobs, .next = start_grading, .finished = grading_finished, .ctx = &g,
			  .stop_grace_s = 5 };
	int status = pool_run(&p);
	for (int i = 0; i < n; i++)
		buf_free(&g.said[i]);
	free(g.said);
	return status ? -1 : 0;
}

static const struct equivalent_mutant *
listed(const struct exercise *e, const char *id)
{
	for (int i = 0; i < e->nequivalents; i++)
		if (!strcmp(e->equivalents[i].mutant, id))
			return &e->equivalents[i];
	return NULL;
}

static void
print_diff(const char *diff)
{
	for (const char *line = diff; *line;) {
		const char *end = strchrnul(line, '\n');
		printf("         %.*s\n", (int)(end - line), line);
		line = *end ? end + 1 : end;
	}
}

/* "correctness (race)", "run", …: what killed a mutant. */
static char *
killed_by(const struct mutant_outcome *o)
{
	return *o->kind ? xasprintf("%s (%s)", *o->stage ? o->stage : "fail", o->kind)
			: xstrdup(*o->stage ? o->stage : "fail");
}

int
mutant_check(const struct exercise *e, int jobs)
{
	char *path = root_path(e->solution);
	char *source = read_file(path, NULL);
	free(path);
	if (!source) {
		printf("  --   no mutants: %s is not here (a student copy has no solutions)\n", e->solution);
		return 0;
	}
	struct mutant *m;
	int n = mutants_make(source, e->solution, &m), problems = 0;
	free(source);
	if (write_mutants(e, m, n)) {
		mutants_free(m, n);
		return -1;
	}
	/* the solution first, as its mutants will be graded: it must pass so (a launch limit that stops it
	   would kill every mutant for nothing), and this builds the runner the workers share */
	struct mutant_outcome baseline = { .status = -1 };
	char *solution = e->solution;
	if (grade_files(e, &solution, 1, 1, &baseline) || baseline.status) {
		printf("  BAD  %s fails as its mutants are graded (the simulator, %.0f s a launch): %s\n", e->solution,
		       MUTANT_LAUNCH_LIMIT_S, baseline.status < 0 ? "its grading died" : baseline.message);
		mutants_free(m, n);
		return baseline.status == EXIT_ENVIRONMENT ? -1 : 1;
	}
	if (jobs < 1)
		jobs = 1;
	if (jobs > n)
		jobs = n ? n : 1;
	double t0 = now_seconds();
	struct mutant_outcome *out = xcalloc((size_t)n + 1, sizeof(*out));
	char **files = xcalloc((size_t)n + 1, sizeof(*files));
	for (int i = 0; i < n; i++)
		files[i] = mutant_file(e, &m[i], "cu");
	int graded = grade_files(e, files, n, jobs, out);
	for (int i = 0; i < n; i++)
		free(files[i]);
	free(files);
	if (graded) {
		free(out);
		mutants_free(m, n);
		return -1;
	}
	int killed = 0, equivalent = 0, weak = 0, broken = 0;
	for (int i = 0; i < n; i++) {
		const struct mutant_outcome *o = &out[i];
		const struct equivalent_mutant *eq = listed(e, m[i].id);
		char *by = killed_by(o);
		if (o->status == EXIT_ENVIRONMENT || o->status < 0) {
			printf("  BAD  mutant %-22s %s: could not be graded: %s\n", m[i].id, m[i].what,
			       o->status < 0 ? "its grading died" : o->message);
			problems++;
		} else if (o->status == EXIT_FAIL && !strcmp(o->stage, "compile")) {
			/* a rewrite the compiler refuses says nothing of the checks */
			printf("  --   mutant %-22s %s: does not compile\n", m[i].id, m[i].what);
			broken++;
			if (eq) {
				printf("  BAD  workbook.json calls %s equivalent, but it does not compile: remove it from "
				       "equivalent_mutants\n", m[i].id);
				problems++;
			}
		} else if (o->status == EXIT_FAIL) {
			killed++;
			if (eq) {
				printf("  BAD  workbook.json calls %s equivalent, but the checks kill it (%s): remove it "
				       "from equivalent_mutants\n", m[i].id, by);
				problems++;
			} else {
				printf("  ok   mutant %-22s %-44s killed at %s\n", m[i].id, m[i].what, by);
			}
		} else if (eq) {
			equivalent++;
			printf("  --   mutant %-22s %s: passes, equivalent: %s\n", m[i].id, m[i].what, eq->why);
			print_diff(m[i].diff);
		} else {
			weak++;
			problems++;
			printf("  WEAK mutant %-22s %s: passes every check — a weak check: strengthen the check, the "
			       "cases or the budgets (or, if it computes the same, say why in equivalent_mutants)\n",
			       m[i].id, m[i].what);
			print_diff(m[i].diff);
		}
		free(by);
	}
	for (int i = 0; i < e->nequivalents; i++) {
		bool found = false;
		for (int j = 0; j < n && !found; j++)
			found = !strcmp(m[j].id, e->equivalents[i].mutant);
		if (!found) {
			printf("  BAD  workbook.json calls '%s' equivalent, but %s has no such mutant (did the solution "
			       "change? its lines are in the ids)\n", e->equivalents[i].mutant, e->solution);
			problems++;
		}
	}
	char not_compiled[48] = "";
	if (broken)
		snprintf(not_compiled, sizeof(not_compiled), ", %d not compiled", broken);
	printf("  %-4s %d mutant%s of %s: %d killed, %d equivalent, %d weak%s (%.0f s, %d at a time; each with "
	       "its diff in " BUILD_DIR "/mutants/%s/)\n", weak ? "WEAK" : "ok", n, n == 1 ? "" : "s", e->solution, killed,
	       equivalent, weak, not_compiled, now_seconds() - t0, jobs, e->name);
	free(out);
	mutants_free(m, n);
	return problems;
}
