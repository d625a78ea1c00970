/* markers: which line of a solution is a BEGIN SOLUTION, STARTER or END SOLUTION comment. */
#include "common/markers.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

enum marker
marker_of(const char *line, size_t length, const char **rest)
{
	static const struct { enum marker m; const char *name; } names[] = {
		{ MARKER_BEGIN, "BEGIN SOLUTION" }, { MARKER_STARTER, "STARTER" }, { MARKER_END, "END SOLUTION" },
	};
	const char *p = line, *end = line + length;

	while (p < end && isblank((unsigned char)*p))
		p++;
	if (end - p < 3 || strncmp(p, "// ", 3))
		return MARKER_NONE;
	p += 3;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t n = strlen(names[i].name);

		if ((size_t)(end - p) >= n && !strncmp(p, names[i].name, n)) {
			if (rest)
				*rest = p + n;
			return names[i].m;
		}
	}
	return MARKER_NONE;
}

int
markers_solution_lines(const char *text, marker_line_fn *fn, void *ctx)
{
	enum marker block = MARKER_NONE; /* MARKER_BEGIN: in an answer; MARKER_STARTER: in its starter */
	int answers = 0;

	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n'), *rest;
		if (!end)
			end = line + strlen(line);
		size_t len = (size_t)(end - line);
		enum marker m = marker_of(line, len, &rest);

		if (m == MARKER_BEGIN) {
			/* "    // BEGIN SOLUTION: walk down the column" reads "    // walk down the column" */
			int indent = (int)strspn(line, " \t");
			char *todo;

			block = MARKER_BEGIN;
			while (*rest == ':' || isblank((unsigned char)*rest))
				rest++;
			if (rest < end && asprintf(&todo, "%.*s// %.*s", indent, line, (int)(end - rest), rest) >= 0) {
				fn(todo, strlen(todo), false, ctx);
				free(todo);
			}
		} else if (m == MARKER_STARTER || m == MARKER_END) {
			block = m == MARKER_END ? MARKER_NONE : m;
		} else if (block != MARKER_STARTER) {
			fn(line, len, block == MARKER_BEGIN, ctx);
			answers += block == MARKER_BEGIN;
		}
		line = *end ? end + 1 : end;
	}
	return answers;
}
