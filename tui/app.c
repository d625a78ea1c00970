/*
 * app: the session's state and the view stack (see app.h).  Calls no action
 * and no view: they call it.
 */
#include "tui/app.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/screen.h"
#include "lib/util.h"

/* The next item to do: the first not done, in course order. */
static int
first_to_do(const struct app *a)
{
	for (int i = 0; i < a->wb.n; i++)
		if (!status_done(state_status(&a->state, a->wb.items[i].name)))
			return i;
	return a->wb.n - 1;
}

/* Whether any exercise has a solution to show (the student copy has none). */
static bool
solutions_here(const struct app *a)
{
	for (int i = 0; i < a->wb.n; i++)
		if (app_is_exercise(a, i) && a->wb.items[i].solution)
			return true;
	return false;
}

void
app_init(struct app *a, struct workbook *wb, const char *grader, const struct view_ops *list)
{
	memset(a, 0, sizeof(*a));
	a->wb = *wb;
	memset(wb, 0, sizeof(*wb));
	a->grader = xstrdup(grader);
	a->grading_item = -1;
	/* in ms, as the report's mtime is read: a session reopened within the second of the last grading
	   still sees that grading as an earlier session's */
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	a->started = (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
	a->watch = (struct watch)WATCH_INIT;
	state_load(&a->state, a->wb.root);
	a->results = xcalloc((size_t)a->wb.n, sizeof(*a->results));
	a->runs = xcalloc((size_t)a->wb.n, sizeof(*a->runs));
	a->looked = xcalloc((size_t)a->wb.n, sizeof(*a->looked));
	a->solutions = solutions_here(a);
	a->cur = first_to_do(a);
	a->nviews = 1;
	doc_init(&a->views[0].doc, screen_ascii);
	a->views[0].ops = list;
	a->views[0].app = a;
	if (a->state.note)
		app_message(a, S_WARN, "%s", a->state.note);
}

void
app_free(struct app *a)
{
	if (a->grading_item >= 0)
		grade_cancel(&a->grading);
	grade_free(&a->grading);
	watch_stop(&a->watch);
	for (int i = 0; i < a->wb.n; i++) {
		app_set_result(a, i, NULL);
		free(a->runs[i].output);
	}
	for (int i = 0; i < a->nviews; i++)
		doc_free(&a->views[i].doc);
	free(a->results);
	free(a->runs);
	free(a->looked);
	free(a->grader);
	state_free(&a->state);
	workbook_free(&a->wb);
	memset(a, 0, sizeof(*a));
}

struct view *
app_view(struct app *a)
{
	return &a->views[a->nviews - 1];
}

const struct item *
app_item(const struct app *a, int i)
{
	return &a->wb.items[i];
}

bool
app_is_exercise(const struct app *a, int i)
{
	return !strcmp(app_item(a, i)->kind, "exercise") && app_item(a, i)->file;
}

char *
app_path(const struct app *a, const char *rel)
{
	return path_join(a->wb.root, rel);
}

char *
app_read(const struct app *a, const char *rel)
{
	char *path = app_path(a, rel), *text = read_file(path, NULL);
	int saved = errno;

	free(path);
	errno = saved;
	return text;
}

void
app_set_result(struct app *a, int i, struct result *r)
{
	if (a->results[i]) {
		result_free(a->results[i]);
		free(a->results[i]);
	}
	a->results[i] = r;
}

struct result *
app_result(struct app *a, int i)
{
	char *json;
	struct result *r;

	if (a->results[i] || a->looked[i])
		return a->results[i];
	a->looked[i] = true;
	json = state_load_report(&a->state, app_item(a, i)->name);
	if (!json)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	if (result_parse(json, r) < 0) {
		/* a damaged report is only a lost view of the past: no more than that */
		free(r);
		free(json);
		return NULL;
	}
	/* a grading saved while this session ran (make grade beside it, or its own before a reload) is not an earlier session's */
	r->saved = state_report_saved(&a->state, app_item(a, i)->name);
	r->earlier = r->saved < a->started;
	r->exit_status = r->pass ? 0 : 1;
	a->results[i] = r;
	free(json);
	return r;
}

void
app_forget_results(struct app *a)
{
	for (int i = 0; i < a->wb.n; i++) {
		app_set_result(a, i, NULL);
		a->looked[i] = false;
	}
	app_refresh(a, -1);
}

bool
app_changed_since_graded(struct app *a, int i)
{
	const struct item *it = app_item(a, i);
	char *path;
	bool changed;

	if (!it->file || a->grading_item == i)
		return false;
	path = app_path(a, it->file);
	changed = state_changed_since_graded(&a->state, it->name, path);
	free(path);
	return changed;
}

const char *
app_status_label(struct app *a, int i, bool short_form)
{
	const struct item *it = app_item(a, i);
	enum status s = state_status(&a->state, it->name);

	if (strcmp(it->kind, "exercise"))
		return s == STATUS_READ ? "read" : "not read";
	if (s != STATUS_NOT_STARTED && app_changed_since_graded(a, i))
		return short_form ? "changed" : "changed since graded";
	if (short_form && s == STATUS_SIM)
		return "correct (sim)";
	if (short_form && s == STATUS_GPU)
		return "passed (GPU)";
	return status_label(s);
}

void
app_message(struct app *a, unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->message, sizeof(a->message), fmt, ap);
	va_end(ap);
	a->message_style = style;
}

static void
view_set(struct view *v, const struct view_ops *ops, int item)
{
	if (v->ops != ops || v->item != item)
		v->top = 0;
	v->ops = ops;
	v->item = item;
	v->width = 0;
}

void
app_show(struct app *a, const struct view_ops *ops)
{
	struct view *v = app_view(a);

	if (v->ops == ops) {
		view_set(v, ops, a->cur);
		return;
	}
	/* Tab between the lesson and the results goes back, not deeper */
	if (a->nviews > 1 && a->views[a->nviews - 2].ops == ops) {
		app_close(a);
		view_set(app_view(a), ops, a->cur);
		return;
	}
	if (a->nviews == MAX_VIEWS)
		app_close(a);
	v = &a->views[a->nviews++];
	doc_init(&v->doc, screen_ascii);
	v->ops = NULL;
	v->app = a;
	view_set(v, ops, a->cur);
}

void
app_close(struct app *a)
{
	if (a->nviews <= 1)
		return;
	doc_free(&app_view(a)->doc);
	a->nviews--;
}

void
app_refresh(struct app *a, int item)
{
	for (int i = 0; i < a->nviews; i++)
		if (item < 0 || a->views[i].item == item)
			a->views[i].width = 0;
}
