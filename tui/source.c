/* source: a solution without its markers, its answers marked (see source.h). */
#include "source.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/markers.h"
#include "highlight.h"
#include "lib/util.h"

int
source_solution(struct doc *d, const char *text, int width)
{
	enum marker block = MARKER_NONE;	/* MARKER_BEGIN: in an answer; MARKER_STARTER: in its starter */
	bool in_comment = false;
	int answers = 0;

	for (const char *line = text; *line;) {
		const char *end = strchrnul(line, '\n'), *rest;
		size_t len = (size_t)(end - line);
		enum marker m = marker_of(line, len, &rest);

		if (m == MARKER_BEGIN) {
			/* "    // BEGIN SOLUTION: walk down the column" reads "    // walk down the column" */
			size_t indent = strspn(line, " \t");

			block = MARKER_BEGIN;
			while (*rest == ':' || isblank((unsigned char)*rest))
				rest++;
			if (rest < end) {
				char *todo = xasprintf("%.*s// %.*s", (int)indent, line, (int)(end - rest), rest);

				highlight_put(d, todo, strlen(todo), true, &in_comment, width, "  ", "    ", S_PLAIN);
				free(todo);
			}
		} else if (m == MARKER_STARTER || m == MARKER_END) {
			block = m == MARKER_END ? MARKER_NONE : m;
		} else if (block != MARKER_STARTER) {
			bool answer = block == MARKER_BEGIN;

			highlight_put(d, line, len, true, &in_comment, width, answer ? "┃ " : "  ",
				      answer ? "┃   " : "    ", S_PASS);
			answers += answer;
		}
		line = *end ? end + 1 : end;
	}
	return answers;
}
