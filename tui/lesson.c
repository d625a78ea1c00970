/* lesson: the slide of an item rendered from Markdown; solution: the reference solution as code. */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "markdown.h"
#include "screen.h"
#include "lib/util.h"
#include "view.h"

/* Lay out Markdown in v at the screen's width. */
static void
show_markdown(struct view *v, const char *md)
{
	doc_free(&v->doc);
	doc_init(&v->doc, screen_ascii);
	v->width = COLS;
	if (md_render(&v->doc, md, strlen(md), COLS - 3) < 0)
		doc_puts(&v->doc, S_FAIL, last_error());
}

static void
lesson_open(struct view *v)
{
	const struct item *it = app_item(v->item);
	char *text = it->lesson ? app_read(it->lesson) : NULL;
	struct buf sb = BUF_INIT;

	if (text)
		buf_addstr(&sb, text);
	else if (it->lesson)
		buf_addf(&sb, "# %s\n\nCannot read the lesson `%s`: %s.\n", it->title, it->lesson, strerror(errno));
	else
		buf_addf(&sb, "# %s\n\nThis %s has no lesson.\n", it->title, it->kind);
	if (it->file)
		buf_addf(&sb, "\n---\n\nThe exercise is `%s`: press **e** to edit it, **c** to grade it, "
			"**w** to grade it on every save.\n", it->file);
	show_markdown(v, sb.data);
	buf_free(&sb);
	free(text);
	/* a lesson or demo is done once read; an exercise only once it passes */
	if (strcmp(it->kind, "exercise") && state_status(&app.state, it->name) != STATUS_READ) {
		state_set_status(&app.state, it->name, STATUS_READ);
		if (state_save(&app.state) < 0)
			app_message(S_FAIL, "%s", last_error());
	}
}

const struct view_ops lesson_ops = {
	.name = "lesson",
	.open = lesson_open,
	.draw = pager_draw,
	.key = pager_key,
	.keys = "j/k scroll  e edit  c grade  Tab results  n/p next  q back",
};

static void
solution_open(struct view *v)
{
	const struct item *it = app_item(v->item);
	char *text = it->solution ? app_read(it->solution) : NULL;
	struct buf sb = BUF_INIT;

	buf_addf(&sb, "# Solution: %s\n\n", it->title);
	if (text)
		/* a tilde fence: CUDA sources do not contain "~~~~~" */
		buf_addf(&sb, "`%s`\n\n~~~~~cuda\n%s~~~~~\n", it->solution, text);
	else if (it->solution)
		buf_addf(&sb, "Cannot read `%s`: %s.\n", it->solution, strerror(errno));
	else
		buf_addstr(&sb, "This item has no solution.\n");
	show_markdown(v, sb.data);
	buf_free(&sb);
	free(text);
}

const struct view_ops solution_ops = {
	.name = "solution",
	.open = solution_open,
	.draw = pager_draw,
	.key = pager_key,
	.keys = "j/k scroll  e edit  c grade  n/p next  q back",
};

static const char help_text[] =
	"# Keys\n"
	"\n"
	"| key | what it does |\n"
	"|---|---|\n"
	"| Enter, l | open the lesson of the selected item |\n"
	"| e | edit the exercise in $VISUAL or $EDITOR |\n"
	"| c | grade the exercise, or run the demo (Esc cancels) |\n"
	"| w | watch: grade again on every save (w again stops) |\n"
	"| Tab, r | switch between the lesson and the results |\n"
	"| h | show the next hint |\n"
	"| s | show the solution (asks first if you have not passed) |\n"
	"| R | reset the exercise to its starter (your file is kept as a backup) |\n"
	"| n, p | next, previous lesson or exercise |\n"
	"| / | search the list |\n"
	"| j, k, arrows | move, scroll |\n"
	"| space, PgDn, PgUp | a page down, up |\n"
	"| g, G, Home, End | the top, the end |\n"
	"| q, Esc, ← | back; q on the list quits |\n"
	"| Q | quit |\n"
	"\n"
	"# Status\n"
	"\n"
	"- **○ not started**: never graded.\n"
	"- **✗ failing**: graded, and something is wrong: see its results.\n"
	"- **◐ correct on the simulator**: right answers on the CPU simulator; "
	"timing needs a GPU.\n"
	"- **● passed on the GPU**: right and fast enough.\n"
	"- **✓ read**: a lesson you have opened.\n"
	"- **changed since graded**: the file differs from the one last graded.\n"
	"\n"
	"Your progress is kept in `.cudalings/state.json` in the workbook; "
	"`make grade` records there too, and what it grades shows here at once.\n";

static void
help_open(struct view *v)
{
	show_markdown(v, help_text);
}

const struct view_ops help_ops = {
	.name = "help",
	.open = help_open,
	.draw = pager_draw,
	.key = pager_key,
	.keys = "j/k scroll  q back",
};
