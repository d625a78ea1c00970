/* grade: one grading or demo run as a job: its progress events and its verdict (see grade.h). */
#include "tui/grade.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

void
grade_take_line(struct grading *g, const char *line)
{
	struct grade_event ev;
	struct grade_step *s;

	if (event_parse(line, &ev) < 0) {
		buf_addf(&g->text, "%s\n", line);
		return;
	}
	ALLOC_GROW(g->steps, g->nsteps + 1, g->asteps);
	s = &g->steps[g->nsteps++];
	memset(s, 0, sizeof(*s));
	s->is_case = ev.type == EVENT_CASE;
	if (s->is_case) {
		s->name = ev.name;
		s->passed = ev.passed;
		s->index = ev.index;
		s->count = ev.count;
		ev.name = NULL;
	} else {
		s->stage = ev.stage;
		s->message = ev.message;
		ev.stage = ev.message = NULL;
	}
	event_free(&ev);
}

static void
on_line(void *ctx, const char *line)
{
	grade_take_line(ctx, line);
}

int
grade_start(struct grading *g, const char *grader, const char *root, const char *name)
{
	char *argv[] = { (char *)grader, "grade", (char *)name, "--json", "--progress", NULL };

	memset(g, 0, sizeof(*g));
	buf_init(&g->text);
	if (job_start(&g->job, argv, root) < 0)
		return -1;
	g->name = xstrdup(name);
	return 0;
}

int
grade_start_demo(struct grading *g, const char *grader, const char *root, const char *name, int width)
{
	char columns[16];
	char *argv[] = { (char *)grader, "run", (char *)name, "--width", columns, NULL };

	/* the grader's narrowest table is 40 columns: narrower, the page wraps it */
	snprintf(columns, sizeof(columns), "%d", width < 40 ? 40 : width > 1000 ? 1000 : width);
	memset(g, 0, sizeof(*g));
	buf_init(&g->text);
	if (job_start(&g->job, argv, root) < 0)
		return -1;
	g->demo = true;
	g->name = xstrdup(name);
	return 0;
}

char *
grade_demo_output(const struct grading *g)
{
	return xasprintf("%s%s", g->job.out_text.data, g->text.data);
}

bool
grade_pump(struct grading *g)
{
	return job_pump(&g->job, on_line, g);
}

bool
grade_running(const struct grading *g)
{
	return g->job.pid != 0;
}

void
grade_result(struct grading *g, struct result *r)
{
	const char *out = g->job.out_text.data;

	if (result_parse(out, r) < 0) {
		/* no report: say what the grader did say, so the student is not left guessing */
		memset(r, 0, sizeof(*r));
		r->exercise = xstrdup(g->name);
		r->file = xstrdup("");
		r->backend = xstrdup("");
		r->device = xstrdup("");
		r->verdict = xstrdup("");
		r->stage = xstrdup("");
		r->message = xstrdup(*out ? out : "the grader printed no report");
		r->note = xstrdup("");
		r->compile_output = xstrdup("");
		r->program_output = xstrdup("");
		r->performance = xstrdup("");
		r->tier = xstrdup("");
		r->physical = xstrdup("");
		r->estimate = xstrdup("");
		r->stderr_text = xstrdup("");
		if (g->job.status < 2)
			g->job.status = g->job.status < 0 ? -1 : 2;
	}
	r->exit_status = g->job.status;
	r->elapsed_ms = g->job.ended_ms - g->job.started_ms;
	free(r->stderr_text);
	r->stderr_text = xstrdup(g->text.data);
}

void
grade_cancel(struct grading *g)
{
	job_kill(&g->job);
}

void
grade_free(struct grading *g)
{
	job_free(&g->job);
	for (int i = 0; i < g->nsteps; i++) {
		free(g->steps[i].stage);
		free(g->steps[i].message);
		free(g->steps[i].name);
	}
	free(g->steps);
	free(g->name);
	buf_free(&g->text);
	memset(g, 0, sizeof(*g));
}
