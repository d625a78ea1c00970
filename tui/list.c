/*
 * list: the first view: every lesson and exercise in course order with its
 * name (what `make grade EX=` takes), title and status, the progress bar,
 * and the selected item in full at the foot.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/app.h"
#include "tui/screen.h"
#include "lib/util.h"
#include "tui/view.h"

#define HEADER_ROWS 3
/* below this width the statuses are said short ("correct (sim)") */
#define WIDE 110

static char last_search[128];

static const char *
status_icon(enum status s)
{
	switch (s) {
	case STATUS_GPU: return "●";
	case STATUS_SIM: return "◐";
	case STATUS_FAILING: return "✗";
	case STATUS_READ: return "✓";
	default: return "○";
	}
}

static unsigned
status_style(enum status s)
{
	switch (s) {
	case STATUS_GPU: case STATUS_SIM: case STATUS_READ: return S_PASS;
	case STATUS_FAILING: return S_FAIL;
	default: return S_DIM;
	}
}

static void
list_open(struct view *v)
{
	v->width = COLS;
}

static void
draw_progress(struct app *a, int y)
{
	int done = 0, barw = COLS - 34, fill;
	char count[64];
	struct buf sb = BUF_INIT;

	for (int i = 0; i < a->wb.n; i++)
		done += status_done(state_status(&a->state, a->wb.items[i].name));
	barw = barw < 10 ? 10 : barw > 50 ? 50 : barw;
	fill = a->wb.n ? done * barw / a->wb.n : 0;
	screen_text(y, 2, 10, "Progress", A_BOLD);
	for (int i = 0; i < barw; i++)
		buf_addstr(&sb, i < fill ? "█" : "░");
	screen_text(y, 12, barw, sb.data, screen_attr(S_BAR_GOOD));
	snprintf(count, sizeof(count), "%d of %d done", done, a->wb.n);
	screen_text(y, 13 + barw, COLS - 14 - barw, count, A_NORMAL);
	buf_free(&sb);
}

/* The columns: where the name, the title and the status start, and how wide each is. */
struct columns {
	int name, namew, title, titlew, status, statusw;
	bool short_status;
};

static struct columns
columns(const struct app *a)
{
	struct columns c = { .name = 8, .namew = 4 };

	for (int i = 0; i < a->wb.n; i++) {
		int w = (int)strlen(a->wb.items[i].name);

		c.namew = w > c.namew ? w : c.namew;
	}
	c.namew = c.namew > 20 ? 20 : c.namew;
	c.short_status = COLS < WIDE;
	c.statusw = c.short_status ? 13 : 24;
	c.title = c.name + c.namew + 2;
	c.status = COLS - c.statusw;
	c.titlew = c.status - 1 - c.title;
	return c;
}

/* The title, cut with an ellipsis; lessons and demos say what they are. */
static void
draw_title(int y, const struct columns *c, const struct item *it, int attr)
{
	char kind[32] = "";
	int kw, used;

	if (strcmp(it->kind, "exercise"))
		snprintf(kind, sizeof(kind), " (%s)", it->kind);
	kw = (int)strlen(kind);
	if (c->titlew <= kw + 4)
		kw = 0;
	used = screen_text_cut(y, c->title, c->titlew - kw, it->title, attr);
	screen_text(y, c->title + used, kw, kind, (attr & A_REVERSE) | screen_attr(S_DIM));
}

/* The selected item in full, and how to grade it from a shell, in d at width columns. */
static void
footer(struct app *a, struct doc *d, int width)
{
	const struct item *it = app_item(a, a->cur);
	bool ex = app_is_exercise(a, a->cur), demo = !strcmp(it->kind, "demo");
	struct doc_span runs[] = {
		{ it->name, S_PLAIN | F_STRONG }, { " · ", S_DIM }, { it->title, S_PLAIN },
		{ ex ? ". In a shell: " : demo ? ". A demo: c runs its variants" : ". A lesson to read", S_DIM },
		/* the command on one line, to be read or copied whole */
		{ ex ? "make grade EX=" : "", S_CODE | F_KEEP }, { ex ? it->name : "", S_CODE | F_KEEP },
	};

	doc_wrap(d, runs, 6, width, "", "", S_PLAIN);
}

static void
list_draw(struct view *v, int top, int height)
{
	struct app *a = v->app;
	struct columns c = columns(a);
	struct doc foot;
	int rows, feet;

	doc_init(&foot, screen_ascii);
	footer(a, &foot, COLS - 4);
	/* the foot, under a blank line, where it leaves the list four rows at least */
	feet = foot.n > 2 ? 2 : foot.n;
	if (height - HEADER_ROWS - 1 - feet < 4)
		feet = 0;
	rows = height - HEADER_ROWS - (feet ? feet + 1 : 0);
	v->height = height;
	v->rows = rows;
	draw_progress(a, top);
	screen_text(top + 2, 4, 3, " #", screen_attr(S_DIM));
	screen_text(top + 2, c.name, c.namew, "name", screen_attr(S_DIM));
	screen_text(top + 2, c.title, c.titlew, "title", screen_attr(S_DIM));
	screen_text(top + 2, c.status, c.statusw, "status", screen_attr(S_DIM));
	v->where[0] = '\0';
	for (int i = 0; i < feet; i++)
		screen_doc_line(top + height - feet + i, 2, COLS - 4, &foot.lines[i]);
	doc_free(&foot);
	if (rows < 1)
		return;
	if (a->cur < v->top)
		v->top = a->cur;
	if (a->cur >= v->top + rows)
		v->top = a->cur - rows + 1;
	if (v->top > 0 && v->top + rows > a->wb.n)
		v->top = a->wb.n - rows > 0 ? a->wb.n - rows : 0;
	if (rows < a->wb.n)
		snprintf(v->where, sizeof(v->where), "%d of %d", a->cur + 1, a->wb.n);
	for (int r = 0; r < rows && v->top + r < a->wb.n; r++) {
		int i = v->top + r, y = top + HEADER_ROWS + r;
		const struct item *it = &a->wb.items[i];
		enum status s = state_status(&a->state, it->name);
		bool sel = i == a->cur;
		int base = sel ? A_REVERSE : A_NORMAL;
		char num[16];

		if (sel) {
			attrset(A_REVERSE);
			mvhline(y, 0, ' ', COLS);
			attrset(A_NORMAL);
		}
		screen_text(y, 0, 2, sel ? "▸" : " ", base);
		screen_text(y, 2, 2, status_icon(s), base | screen_attr(status_style(s)));
		snprintf(num, sizeof(num), "%2d", it->order);
		screen_text(y, 4, 3, num, base);
		screen_text_cut(y, c.name, c.namew, it->name, base | screen_attr(S_CODE));
		draw_title(y, &c, it, base | (s == STATUS_NOT_STARTED ? 0 : A_BOLD));
		screen_text(y, c.status, c.statusw, app_status_label(a, i, c.short_status),
			    base | screen_attr(status_style(s)));
	}
}

/* Find text in the titles and names after the current item, wrapping around. */
static void
search(struct app *a, const char *text)
{
	for (int k = 1; k <= a->wb.n; k++) {
		int i = (a->cur + k) % a->wb.n;

		if (strcasestr(a->wb.items[i].title, text) || strcasestr(a->wb.items[i].name, text)) {
			a->cur = i;
			return;
		}
	}
	app_message(a, S_WARN, "no lesson or exercise matches '%s'", text);
}

static bool
list_key(struct view *v, int key)
{
	struct app *a = v->app;
	int rows = v->rows > 1 ? v->rows : 1;
	char buf[128];

	switch (key) {
	case 'j': case KEY_DOWN: a->cur++; break;
	case 'k': case KEY_UP: a->cur--; break;
	case KEY_NPAGE: case ' ': a->cur += rows; break;
	case KEY_PPAGE: case 'b': a->cur -= rows; break;
	case 'g': case KEY_HOME: a->cur = 0; break;
	case 'G': case KEY_END: a->cur = a->wb.n - 1; break;
	case '\r': case '\n': case KEY_ENTER: case 'l': case KEY_RIGHT:
		app_show(a, &lesson_ops);
		return true;
	case '/':
		if (!screen_prompt("/", buf, sizeof(buf)))
			return true;
		/* an empty search repeats the last one, as in less */
		if (*buf)
			snprintf(last_search, sizeof(last_search), "%s", buf);
		if (*last_search)
			search(a, last_search);
		return true;
	default:
		return false;
	}
	if (a->cur >= a->wb.n)
		a->cur = a->wb.n - 1;
	if (a->cur < 0)
		a->cur = 0;
	return true;
}

const struct view_ops list_ops = {
	.name = "workbook",
	.open = list_open,
	.draw = list_draw,
	.key = list_key,
	.bar = "Enter e c w / q=quit",
};
