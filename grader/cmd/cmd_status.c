/*
 * cudalings status: where the student stands, from the one progress state
 * the workbook shows (.cudalings/state.json): each item's status as the
 * workbook's list says it ("changed since graded" included), the hints seen
 * of an exercise that fails, and how many exercises are done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grader/cmd/command.h"
#include "lib/exit.h"
#include "common/root.h"
#include "common/state.h"
#include "lib/util.h"

static int
cmd_status(const struct parsed_args *a)
{
	(void)a;
	struct manifest *m = command_manifest();
	struct state st;
	state_load(&st, workbook_root());
	if (st.note)
		warn("%s", st.note);
	int exercises = 0, done = 0, on_gpu = 0;
	for (int i = 0; i < m->count; i++) {
		const struct exercise *e = &m->items[i];
		enum status s = state_status(&st, e->name);
		const char *label;
		char *path = e->file ? root_path(e->file) : NULL;
		if (!e->file)
			label = s == STATUS_READ ? "read" : "not read";
		else if (s != STATUS_NOT_STARTED && state_changed_since_graded(&st, e->name, path))
			label = "changed since graded";
		else
			label = status_label(s);
		if (e->file) {
			exercises++;
			done += status_done(s);
			on_gpu += s == STATUS_GPU;
		}
		printf("%2d  %-16s %-9s %s\n", i + 1, e->name, manifest_item_kind_name(e->kind), label);
		free(path);
	}
	printf("%d of %d exercises done", done, exercises);
	if (done)
		printf(" (%d on a GPU)", on_gpu);
	printf("; make grade EX=NAME grades one, cudalings hint NAME gives the next hint\n");
	state_free(&st);
	return EXIT_PASS;
}

const struct command command_status = {
	.name = "status",
	.summary = "where you stand: each item's status, from the progress the workbook shows",
	.run = cmd_status,
};
