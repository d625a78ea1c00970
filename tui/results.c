/*
 * results: a pager view of the item's grading: its progress while it runs,
 * then the verdict and the hints seen; a demo's output.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/hint.h"
#include "tui/report.h"
#include "tui/screen.h"
#include "lib/util.h"
#include "tui/view.h"

/* How many of item i's hints for its last verdict the student has seen. */
static int
hints_seen(struct app *a, int i)
{
	const struct hint **hints;
	const char *key;

	hint_list(app_item(a, i), app_result(a, i), &hints, &key);
	free(hints);
	return state_hints(&a->state, app_item(a, i)->name, key);
}

static void
results_open(struct view *v)
{
	struct app *a = v->app;
	const struct item *it = app_item(a, v->item);
	int width = pager_reset(v);
	char *source;

	if (a->grading_item == v->item) {
		report_progress(&v->doc, it, a->grading.demo ? "Running" : "Grading",
				a->grading.steps, a->grading.nsteps, width);
		return;
	}
	if (!strcmp(it->kind, "demo")) {
		report_demo(&v->doc, it, a->runs[v->item].output, a->runs[v->item].status, width);
		return;
	}
	/* the student's file, so that compile errors can show their lines */
	source = it->file ? app_read(a, it->file) : NULL;
	if (app_result(a, v->item)) {
		app_result(a, v->item)->changed = app_changed_since_graded(a, v->item);
		report_render(&v->doc, it, app_result(a, v->item), hints_seen(a, v->item), source, width);
	}
	else
		report_ungraded(&v->doc, it, state_status(&a->state, it->name) == STATUS_NOT_STARTED ?
				NULL : app_status_label(a, v->item, false), hints_seen(a, v->item), width);
	free(source);
}

const struct view_ops results_ops = {
	.name = "results",
	.open = results_open,
	.draw = pager_draw,
	.key = pager_key,
	.bar = "c e h s Tab=lesson n/p q m a",
	.per_item = true,
};
