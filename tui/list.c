/* list: every lesson and exercise in course order, with its status and the progress bar. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app.h"
#include "screen.h"
#include "lib/util.h"
#include "view.h"

#define HEADER_ROWS 3

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
draw_progress(int y)
{
	int done = 0, barw = COLS - 34, fill;
	char count[64];
	struct buf sb = BUF_INIT;

	for (int i = 0; i < app.wb.n; i++)
		done += status_done(state_status(&app.state, app.wb.items[i].name));
	barw = barw < 10 ? 10 : barw > 50 ? 50 : barw;
	fill = app.wb.n ? done * barw / app.wb.n : 0;
	screen_text(y, 2, 10, "Progress", A_BOLD);
	for (int i = 0; i < barw; i++)
		buf_addstr(&sb, i < fill ? "█" : "░");
	screen_text(y, 12, barw, sb.data ? sb.data : "", screen_attr(S_BAR_GOOD));
	snprintf(count, sizeof(count), "%d of %d done", done, app.wb.n);
	screen_text(y, 13 + barw, COLS - 14 - barw, count, A_NORMAL);
	buf_free(&sb);
}

/* The title, cut with an ellipsis; lessons and demos say what they are. */
static void
draw_title(int y, int w, const struct item *it, int attr)
{
	char kind[32] = "";
	int kw, tw = utf8_width(it->title, strlen(it->title)), used;

	if (strcmp(it->kind, "exercise"))
		snprintf(kind, sizeof(kind), " (%s)", it->kind);
	kw = (int)strlen(kind);
	if (tw + kw > w) {
		used = screen_text(y, 8, w - kw - 1, it->title, attr);
		used += screen_text(y, 8 + used, 1, "…", attr);
	} else {
		used = screen_text(y, 8, w - kw, it->title, attr);
	}
	screen_text(y, 8 + used, kw, kind, (attr & A_REVERSE) | screen_attr(S_DIM));
}

static void
list_draw(struct view *v, int top, int height)
{
	int rows = height - HEADER_ROWS, statw = 25, titlew;

	v->height = height;
	draw_progress(top);
	screen_text(top + 2, 2, COLS - 2, "  #  title", screen_attr(S_DIM));
	screen_text(top + 2, COLS - statw, statw, "status", screen_attr(S_DIM));
	if (rows < 1)
		return;
	if (app.cur < v->top)
		v->top = app.cur;
	if (app.cur >= v->top + rows)
		v->top = app.cur - rows + 1;
	titlew = COLS - statw - 9;
	for (int r = 0; r < rows && v->top + r < app.wb.n; r++) {
		int i = v->top + r, y = top + HEADER_ROWS + r;
		const struct item *it = &app.wb.items[i];
		enum status s = state_status(&app.state, it->name);
		bool sel = i == app.cur;
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
		draw_title(y, titlew, it, base | (s == STATUS_NOT_STARTED ? 0 : A_BOLD));
		screen_text(y, COLS - statw, statw, app_status_label(i), base | screen_attr(status_style(s)));
	}
}

/* Find text in the titles and names after the current item, wrapping around. */
static void
search(const char *text)
{
	for (int k = 1; k <= app.wb.n; k++) {
		int i = (app.cur + k) % app.wb.n;

		if (strcasestr(app.wb.items[i].title, text) || strcasestr(app.wb.items[i].name, text)) {
			app.cur = i;
			return;
		}
	}
	app_message(S_WARN, "no lesson or exercise matches '%s'", text);
}

static bool
list_key(struct view *v, int key)
{
	int rows = v->height - HEADER_ROWS > 1 ? v->height - HEADER_ROWS : 1;
	char buf[128];

	switch (key) {
	case 'j': case KEY_DOWN: app.cur++; break;
	case 'k': case KEY_UP: app.cur--; break;
	case KEY_NPAGE: case ' ': app.cur += rows; break;
	case KEY_PPAGE: case 'b': app.cur -= rows; break;
	case 'g': case KEY_HOME: app.cur = 0; break;
	case 'G': case KEY_END: app.cur = app.wb.n - 1; break;
	case '\r': case '\n': case KEY_ENTER: case 'l': case KEY_RIGHT:
		app_show(&lesson_ops);
		return true;
	case '/':
		if (!screen_prompt("/", buf, sizeof(buf)))
			return true;
		/* an empty search repeats the last one, as in less */
		if (*buf)
			snprintf(last_search, sizeof(last_search), "%s", buf);
		if (*last_search)
			search(last_search);
		return true;
	default:
		return false;
	}
	if (app.cur >= app.wb.n)
		app.cur = app.wb.n - 1;
	if (app.cur < 0)
		app.cur = 0;
	return true;
}

const struct view_ops list_ops = {
	.name = "workbook",
	.open = list_open,
	.draw = list_draw,
	.key = list_key,
	.keys = "Enter lesson  e edit  c grade  w watch  / search  q quit",
};
