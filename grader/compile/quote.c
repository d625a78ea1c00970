/* quote: compiler messages reduced to what a student may be shown (see quote.h). */
#include "grader/compile/quote.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/*
 * Where a line's location ends: "path:12:" or "path:12:3:" → the ':' after
 * the line number, with the path's length in *path_len; "path: In function
 * 'f':" → the ':' after the path. NULL when the line names no file.
 */
static const char *
location_end(const char *line, const char *end, size_t *path_len)
{
	if (line == end || isspace((unsigned char)*line))
		return NULL;
	for (const char *p = line; p < end; p++) {
		if (*p != ':')
			continue;
		const char *d = p + 1;
		while (d < end && isdigit((unsigned char)*d))
			d++;
		if (d > p + 1 && d < end && *d == ':') {
			*path_len = (size_t)(p - line);
			return d;
		}
		/* gcc's context lines: "path: In function 'f':", "path: At global scope:", "path: In instantiation of" */
		if (p + 4 < end && p[1] == ' ' && (!strncmp(p + 2, "In ", 3) || !strncmp(p + 2, "At ", 3))) {
			*path_len = (size_t)(p - line);
			return p;
		}
	}
	return NULL;
}

/* "In file included from path:3," and its "                 from path:7:": names only, kept as they are. */
static bool
include_chain(const char *line, const char *end)
{
	const char *p = line;
	while (p < end && *p == ' ')
		p++;
	return !strncmp(p, "In file included from ", 22) || (p > line && !strncmp(p, "from ", 5));
}

/* The severity a dropped diagnostic keeps: "error", "warning", "note", "fatal error", else "message". */
static const char *
severity(const char *after, const char *end)
{
	static const char *const kinds[] = { "fatal error", "error", "warning", "note", "remark" };
	const char *p = after;
	while (p < end && (*p == ':' || isdigit((unsigned char)*p) || *p == ' '))
		p++;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if ((size_t)(end - p) >= strlen(kinds[i]) && !strncmp(p, kinds[i], strlen(kinds[i])))
			return kinds[i];
	return "message";
}

char *
quote_only_allowed(const char *text, quote_allowed_fn *allowed, void *ctx)
{
	struct buf out = BUF_INIT;
	bool dropping = false;
	for (const char *line = text; *line;) {
		const char *end = strchrnul(line, '\n');
		size_t path_len = 0;
		const char *loc = include_chain(line, end) ? NULL : location_end(line, end, &path_len);
		if (loc) {
			char *path = xstrndup(line, path_len);
			dropping = path[0] != '<' && !allowed(path, ctx); /* <command-line>, <built-in>: no file */
			if (dropping) {
				/* named, with its line, never quoted: not its words, not its source lines */
				buf_add(&out, line, (size_t)(loc - line));
				buf_addf(&out, ": %s in a file that is neither yours nor the exercise's header "
					 "(its text is not shown)\n", severity(loc, end));
			}
			free(path);
		} else if (include_chain(line, end)) {
			dropping = false; /* names, no text: the chain that led to the next message */
		}
		if (!dropping) {
			buf_add(&out, line, (size_t)(end - line));
			buf_addstr(&out, "\n");
		}
		line = *end ? end + 1 : end;
	}
	return buf_detach(&out);
}
