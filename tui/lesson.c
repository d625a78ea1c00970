/*
 * lesson: the slide of an item rendered from Markdown; solution: the
 * reference solution as code, as the student would write it.  Two pager views.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/screen.h"
#include "tui/source.h"
#include "lib/util.h"
#include "tui/view.h"

static void
lesson_open(struct view *v)
{
	struct app *a = v->app;
	const struct item *it = app_item(a, v->item);
	char *text = it->lesson ? app_read(a, it->lesson) : NULL;
	struct buf sb = BUF_INIT;

	if (text)
		buf_addstr(&sb, text);
	else if (it->lesson)
		buf_addf(&sb, "# %s\n\nCannot read the lesson `%s`: %s.\n", it->title, it->lesson, strerror(errno));
	else
		buf_addf(&sb, "# %s\n\nThis %s has no lesson.\n", it->title, it->kind);
	if (it->file)
		buf_addf(&sb, "\n---\n\nThe exercise is `%s`: press **e** to edit it, **c** to grade it, "
			"**w** to grade it on every save; or, in another terminal, "
			"`make grade EX=%s`.\n", it->file, it->name);
	else if (!strcmp(it->kind, "demo"))
		buf_addf(&sb, "\n---\n\nPress **c** to run the demo's variants side by side "
			"(`cudalings run %s`).\n", it->name);
	pager_markdown(v, sb.data);
	buf_free(&sb);
	free(text);
	/* a lesson or demo is done once read; an exercise only once it passes */
	if (strcmp(it->kind, "exercise") && state_status(&a->state, it->name) != STATUS_READ) {
		state_set_status(&a->state, it->name, STATUS_READ);
		if (state_save(&a->state) < 0)
			app_message(a, S_FAIL, "%s", last_error());
	}
}

const struct view_ops lesson_ops = {
	.name = "lesson",
	.open = lesson_open,
	.draw = pager_draw,
	.key = pager_key,
	.bar = "j/k=scroll e c Tab=results n/p q",
	.per_item = true,
};

static void
solution_open(struct view *v)
{
	const struct item *it = app_item(v->app, v->item);
	char *text = it->solution ? app_read(v->app, it->solution) : NULL;
	int width = pager_reset(v);
	struct doc code;
	int saved = errno;
	char *heading = xasprintf("Solution: %s", it->title);

	doc_wrap_text(&v->doc, S_H1, heading, width, "", "");
	free(heading);
	doc_newline(&v->doc);
	if (!text) {
		doc_newline(&v->doc);
		doc_printf(&v->doc, S_FAIL, "Cannot read '%s': %s.", it->solution ? it->solution : it->name,
			   strerror(it->solution ? saved : ENOENT));
		return;
	}
	doc_init(&code, v->doc.ascii);
	if (source_solution(&code, text, width)) {
		struct doc_span runs[] = {
			{ "┃", S_PASS }, { " marks the lines you write; the rest is as the starter has it (", S_DIM },
			{ it->solution, S_CODE }, { ").", S_DIM },
		};

		doc_wrap(&v->doc, runs, 4, width, "", "", S_PLAIN);
		doc_newline(&v->doc);
	}
	doc_append(&v->doc, &code, "");
	doc_free(&code);
	free(text);
}

const struct view_ops solution_ops = {
	.name = "solution",
	.open = solution_open,
	.draw = pager_draw,
	.key = pager_key,
	.bar = "j/k=scroll e c Tab=results n/p q",
	.per_item = true,
};
