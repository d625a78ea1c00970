/* source: a solution without its markers, its answers marked (see source.h). */
#include "tui/source.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/markers.h"
#include "tui/highlight.h"
#include "lib/util.h"

struct solution_page {
	struct doc *d;
	int width;
	bool in_comment;
};

static void
solution_line(const char *line, size_t len, bool answer, void *ctx)
{
	struct solution_page *p = ctx;

	highlight_put(p->d, line, len, true, &p->in_comment, p->width, answer ? "┃ " : "  ", answer ? "┃   " : "    ",
		      S_PASS);
}

int
source_solution(struct doc *d, const char *text, int width)
{
	struct solution_page p = { d, width, false };

	return markers_solution_lines(text, solution_line, &p);
}
