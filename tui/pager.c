/* pager: scrolling through a laid-out doc, shared by the lesson, results, solution and help. */
#include <curses.h>
#include <stdio.h>

#include "screen.h"
#include "view.h"

static int
max_top(const struct view *v)
{
	int m = v->doc.n - v->height;

	return m > 0 ? m : 0;
}

void
pager_draw(struct view *v, int top, int height)
{
	v->height = height;
	if (v->top > max_top(v))
		v->top = max_top(v);
	for (int i = 0; i < height && v->top + i < v->doc.n; i++)
		screen_doc_line(top + i, 1, COLS - 2, &v->doc.lines[v->top + i]);
	v->where[0] = '\0';
	if (v->doc.n > height) {
		/* where we are, as less says it */
		int pct = (v->top + height) * 100 / v->doc.n;

		snprintf(v->where, sizeof(v->where), "%d%%", pct > 100 ? 100 : pct);
	}
}

bool
pager_key(struct view *v, int key)
{
	int page = v->height > 2 ? v->height - 2 : 1;

	switch (key) {
	case 'j': case KEY_DOWN: case '\r': case '\n': v->top++; break;
	case 'k': case KEY_UP: v->top--; break;
	case ' ': case KEY_NPAGE: case 'f' & 0x1f: v->top += page; break;
	case 'b': case KEY_PPAGE: case 'b' & 0x1f: v->top -= page; break;
	case 'd' & 0x1f: v->top += page / 2; break;
	case 'u' & 0x1f: v->top -= page / 2; break;
	case 'g': case KEY_HOME: v->top = 0; break;
	case 'G': case KEY_END: v->top = max_top(v); break;
	default: return false;
	}
	if (v->top > max_top(v))
		v->top = max_top(v);
	if (v->top < 0)
		v->top = 0;
	return true;
}
