#include "grader/exercise/starter.h"

#include <ctype.h>
#include <string.h>

#include "common/markers.h"

enum block_state { OUTSIDE, IN_SOLUTION, IN_STARTER };

char *
starter_from_solution(const char *solution, const char *path, struct buf *err)
{
	struct buf out = BUF_INIT;
	enum block_state state = OUTSIDE;
	int line_number = 0, block_line = 0;
	for (const char *line = solution; *line;) {
		const char *end = strchrnul(line, '\n');
		size_t length = (size_t)(end - line);
		const char *rest;
		enum marker m = marker_of(line, length, &rest);
		line_number++;
		if (m == MARKER_BEGIN) {
			if (state != OUTSIDE) {
				buf_addf(err, "%s:%d: BEGIN SOLUTION inside the block opened at line %d", path,
					 line_number, block_line);
				goto fail;
			}
			state = IN_SOLUTION;
			block_line = line_number;
			const char *indent_end = line;
			while (isblank((unsigned char)*indent_end))
				indent_end++;
			while (*rest == ':' || isblank((unsigned char)*rest))
				rest++;
			buf_add(&out, line, (size_t)(indent_end - line));
			buf_addstr(&out, "// TODO");
			if (rest < end) {
				buf_addstr(&out, ": ");
				buf_add(&out, rest, (size_t)(end - rest));
			}
			buf_addstr(&out, "\n");
		} else if (m == MARKER_STARTER) {
			if (state != IN_SOLUTION) {
				buf_addf(err, "%s:%d: STARTER outside a BEGIN SOLUTION block", path, line_number);
				goto fail;
			}
			state = IN_STARTER;
		} else if (m == MARKER_END) {
			if (state == OUTSIDE) {
				buf_addf(err, "%s:%d: END SOLUTION without a BEGIN SOLUTION", path, line_number);
				goto fail;
			}
			state = OUTSIDE;
		} else if (state == IN_STARTER) {
			/* "    // code" becomes "    code" */
			const char *p = line;
			while (p < end && isblank((unsigned char)*p))
				p++;
			if (end - p >= 2 && !strncmp(p, "//", 2)) {
				buf_add(&out, line, (size_t)(p - line));
				p += 2;
				if (p < end && *p == ' ')
					p++;
				buf_add(&out, p, (size_t)(end - p));
			} else if (p != end) {
				buf_addf(err, "%s:%d: a STARTER line must be a // comment", path, line_number);
				goto fail;
			}
			buf_addstr(&out, "\n");
		} else if (state == OUTSIDE) {
			buf_add(&out, line, length);
			if (*end)
				buf_addstr(&out, "\n");
		}
		line = *end ? end + 1 : end;
	}
	if (state != OUTSIDE) {
		buf_addf(err, "%s:%d: the BEGIN SOLUTION block is never closed", path, block_line);
		goto fail;
	}
	return buf_detach(&out);
fail:
	buf_free(&out);
	return NULL;
}
