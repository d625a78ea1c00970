/*
 * keys: the table of the workbook's keys, what each does (an action, or a
 * view to open), the help page made from it, and the status bar's hints.
 */
#include "tui/keys.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "tui/actions.h"
#include "tui/screen.h"
#include "lib/util.h"
#include "tui/view.h"

struct key {
	const char *name;	/* as the status bar and the help say it */
	const char *also;	/* other keys that do the same, for the help; or NULL */
	const char *bar;	/* a word or two for the status bar */
	const char *help;	/* what it does, for the help page */
	int codes[6];		/* 0-terminated */
	/* what it does; with none of the three the view does it (listed for the help) */
	void (*run)(struct app *a);
	void (*run_key)(struct app *a, int key);
	const struct view_ops *opens;
	/* NULL: always offered */
	bool (*offered)(const struct app *a);
	/* the kinds of item it is any use on, for the status bar; 0: all */
	unsigned kinds;
};

enum { EXERCISE = 1, DEMO = 2, LESSON = 4 };

static void
next_or_previous(struct app *a, int key)
{
	action_move(a, key == 'n' ? 1 : -1);
}

static void
back(struct app *a, int key)
{
	action_back(a, key == 'q');
}

static void
quit(struct app *a)
{
	a->quit = true;
}

static void
redraw(struct app *a)
{
	clearok(curscr, TRUE);
}

static bool
solutions_here(const struct app *a)
{
	return a->solutions;
}

extern const struct view_ops help_ops;

#define CTRL(c) ((c) & 0x1f)

static const struct key keys[] = {
	{ "Enter", "l, →", "lesson", "open the lesson of the selected item", .codes = { 0 } },
	{ "j/k", "↓/↑", "scroll", "move down, up; scroll", .codes = { 0 } },
	{ "space", "PgDn, PgUp, b", "page", "a page down, up", .codes = { 0 } },
	{ "g/G", "Home, End", "top/end", "the top, the end", .codes = { 0 } },
	{ "/", NULL, "search", "search the list by name or title (Enter on nothing: the last search again)", .codes = { 0 } },
	{ "e", NULL, "edit", "edit the exercise in $VISUAL or $EDITOR", { 'e' }, .run = action_edit,
	  .kinds = EXERCISE },
	{ "c", NULL, "grade", "grade the exercise, or run the demo (Esc cancels)", { 'c' }, .run = action_grade,
	  .kinds = EXERCISE | DEMO },
	{ "w", NULL, "watch", "watch: grade on every save of the file, and now if it changed since graded (w again stops)", { 'w' },
	  .run = action_watch_toggle, .kinds = EXERCISE },
	{ "Tab", "r", "results", "switch between the lesson and the results", { '\t', 'r' }, .run = action_switch,
	  .kinds = EXERCISE | DEMO },
	{ "h", NULL, "hint", "the next hint for where it fails, one at a time: a question, the idea, the line",
	  { 'h' }, .run = action_hint, .kinds = EXERCISE },
	{ "s", NULL, "solution", "show the solution (asks first if you have not passed)", { 's' },
	  .run = action_solution, .offered = solutions_here, .kinds = EXERCISE },
	{ "m", NULL, "heat map", "where the memory time goes, line by line, from the last grading", { 'm' },
	  .opens = &heat_ops, .kinds = EXERCISE },
	{ "a", NULL, "machine code", "the machine code of your kernels (PTX, SASS), line by line", { 'a' },
	  .opens = &machine_ops, .kinds = EXERCISE },
	{ "R", NULL, "reset", "reset the exercise to its starter (your file is kept as a backup)", { 'R' },
	  .run = action_reset, .kinds = EXERCISE },
	{ "n/p", NULL, "next", "the next, previous lesson or exercise", { 'n', 'p' }, .run_key = next_or_previous },
	{ "q", "Esc, ←", "back", "back; q on the list quits; Esc cancels a grading", { 'q', KEY_LEFT },
	  .run_key = back },
	{ "Esc", NULL, "cancel", NULL, { 27 }, .run = action_escape },
	{ "Q", NULL, "quit", "quit (a grading under way is stopped)", { 'Q' }, .run = quit },
	{ "?", NULL, "help", "this page", { '?' }, .opens = &help_ops },
	{ "Ctrl-L", NULL, "redraw", "draw the screen again", { CTRL('L') }, .run = redraw },
};

#define NKEYS (ARRAY_SIZE(keys))

static bool
offered(const struct app *a, const struct key *k)
{
	return !k->offered || k->offered(a);
}

bool
keys_run(struct app *a, int key)
{
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];

		for (const int *c = k->codes; *c; c++) {
			if (*c != key)
				continue;
			if (!offered(a, k))
				return false;
			if (k->opens)
				app_show(a, k->opens);
			else if (k->run)
				k->run(a);
			else if (k->run_key)
				k->run_key(a, key);
			return true;
		}
	}
	return false;
}

/* Whether k is any use on the item the student is on: the bar leaves out what would only say no. */
static bool
of_use(const struct app *a, const struct key *k)
{
	const char *kind = app_item(a, a->cur)->kind;
	unsigned is = !strcmp(kind, "demo") ? DEMO : !strcmp(kind, "lesson") ? LESSON : EXERCISE;

	return !k->kinds || (k->kinds & is);
}

static const struct key *
find(const char *name, size_t len)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strlen(keys[i].name) == len && !strncmp(keys[i].name, name, len))
			return &keys[i];
	return NULL;
}

char *
keys_bar(struct app *a, const struct view *v, int width)
{
	struct buf sb = BUF_INIT;
	const char *p = v->ops->bar ? v->ops->bar : "";

	/* "c e Tab=lesson q": names in the table, a label of the view's own after '=' */
	while (*p) {
		size_t len = strcspn(p, " "), name = strcspn(p, "= ");
		const struct key *k = find(p, name);
		char *item;

		if (k && offered(a, k) && of_use(a, k)) {
			item = name < len ? xasprintf("%s %.*s", k->name, (int)(len - name - 1), p + name + 1)
					  : xasprintf("%s %s", k->name, k->bar);
			/* the first entries are the ones wanted most: the rest go when the width is short */
			if (utf8_width(sb.data, sb.len) + (sb.len ? 2 : 0) +
			    utf8_width(item, strlen(item)) > width) {
				free(item);
				break;
			}
			buf_addf(&sb, "%s%s", sb.len ? "  " : "", item);
			free(item);
		}
		p += len;
		p += strspn(p, " ");
	}
	return buf_detach(&sb);
}

static const char status_help[] =
	"# Status\n"
	"\n"
	"- **○ not started**: never graded.\n"
	"- **✗ failing**: graded, and something is wrong: see its results.\n"
	"- **◐ correct on the simulator**: right answers on the CPU simulator; "
	"timing needs a GPU.\n"
	"- **● passed on the GPU**: right and fast enough.\n"
	"- **✓ read**: a lesson or demo you have opened.\n"
	"- **changed since graded**: the file differs from the one last graded.\n"
	"\n"
	"The name beside each title is the one to give `make grade EX=name` in "
	"another terminal. Your progress is kept in `.cudalings/state.json` in the "
	"workbook; `make grade` records there too, and what it grades shows here at once.\n";

static void
help_open(struct view *v)
{
	struct buf sb = BUF_INIT;

	buf_addstr(&sb, "# Keys\n\n| key | what it does |\n|---|---|\n");
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];

		if (!k->help || !offered(v->app, k))
			continue;
		buf_addf(&sb, "| %s%s%s | %s |\n", k->name, k->also ? ", " : "", k->also ? k->also : "", k->help);
	}
	buf_addf(&sb, "\n%s", status_help);
	pager_markdown(v, sb.data);
	buf_free(&sb);
}

const struct view_ops help_ops = {
	.name = "help",
	.open = help_open,
	.draw = pager_draw,
	.key = pager_key,
	.bar = "j/k=scroll space=page q=back",
};
