/*
 * pager: a laid-out doc in a view, scrolled: shared by the lesson, the
 * results, the solution and the help.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/markdown.h"
#include "tui/screen.h"
#include "lib/util.h"
#include "tui/view.h"

int
pager_reset(struct view *v)
{
	/* a new width (a resize): the same place in the text, not the same line number */
	if (v->width && v->width != COLS && v->doc.n) {
		v->keep = (double)v->top / v->doc.n;
		v->keeping = true;
	}
	doc_free(&v->doc);
	doc_init(&v->doc, screen_ascii);
	v->width = COLS;
	/* a column of margin each side */
	return COLS - 3;
}

void
pager_markdown(struct view *v, const char *md)
{
	int width = pager_reset(v);

	if (md_render(&v->doc, md, strlen(md), width) < 0)
		doc_puts(&v->doc, S_FAIL, last_error());
}

static int
max_top(const struct view *v)
{
	int m = v->doc.n - v->height;

	return m > 0 ? m : 0;
}

void
pager_draw(struct view *v, int top, int height)
{
	int first;

	v->height = height;
	if (v->keeping) {
		v->top = (int)(v->keep * v->doc.n + 0.5);
		v->keeping = false;
	}
	/* v->top is kept past the end when a taller screen shows it all, for when it shrinks again */
	first = v->top > max_top(v) ? max_top(v) : v->top;
	for (int i = 0; i < height && first + i < v->doc.n; i++)
		screen_doc_line(top + i, 1, COLS - 2, &v->doc.lines[first + i]);
	v->where[0] = '\0';
	if (v->doc.n > height) {
		/* where we are, as less says it */
		int pct = (first + height) * 100 / v->doc.n;

		snprintf(v->where, sizeof(v->where), "%d%%", pct > 100 ? 100 : pct);
	}
}

bool
pager_key(struct view *v, int key)
{
	int page = v->height > 2 ? v->height - 2 : 1;
	/* from the line shown first, which a taller screen may have pulled up */
	int t = v->top > max_top(v) ? max_top(v) : v->top;

	switch (key) {
	case 'j': case KEY_DOWN: case '\r': case '\n': t++; break;
	case 'k': case KEY_UP: t--; break;
	case ' ': case KEY_NPAGE: case 'f' & 0x1f: t += page; break;
	case 'b': case KEY_PPAGE: case 'b' & 0x1f: t -= page; break;
	case 'd' & 0x1f: t += page / 2; break;
	case 'u' & 0x1f: t -= page / 2; break;
	case 'g': case KEY_HOME: t = 0; break;
	case 'G': case KEY_END: t = max_top(v); break;
	default: return false;
	}
	if (t > max_top(v))
		t = max_top(v);
	v->top = t < 0 ? 0 : t;
	return true;
}
