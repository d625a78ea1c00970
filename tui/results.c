/* results: the progress of a grading under way, then the grader's verdict and the hints. */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report.h"
#include "screen.h"
#include "lib/util.h"
#include "view.h"

static void
results_open(struct view *v)
{
	const struct item *it = app_item(v->item);
	char *source;
	int hints = state_hints(&app.state, it->name, report_hint_stage(app_result(v->item)));

	doc_free(&v->doc);
	doc_init(&v->doc, screen_ascii);
	v->width = COLS;
	if (app.grading_item == v->item) {
		report_progress(&v->doc, it, app.grading.demo ? "Running" : "Grading",
				app.grading.steps, app.grading.nsteps, COLS - 3);
		return;
	}
	if (!strcmp(it->kind, "demo")) {
		report_demo(&v->doc, it, app.runs[v->item].output, app.runs[v->item].status, COLS - 3);
		return;
	}
	/* the student's file, so that compile errors can show their lines */
	source = it->file ? app_read(it->file) : NULL;
	if (app_result(v->item))
		report_render(&v->doc, it, app_result(v->item), hints, source, COLS - 3);
	else
		report_ungraded(&v->doc, it, state_status(&app.state, it->name) == STATUS_NOT_STARTED ?
				NULL : app_status_label(v->item), hints, COLS - 3);
	free(source);
}

const struct view_ops results_ops = {
	.name = "results",
	.open = results_open,
	.draw = pager_draw,
	.key = pager_key,
	.keys = "c grade  e edit  h hint  s solution  Tab lesson  n/p next  q back",
};
