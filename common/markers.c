/* markers: which line of a solution is a BEGIN SOLUTION, STARTER or END SOLUTION comment. */
#include "common/markers.h"

#include <ctype.h>
#include <string.h>

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
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i].name);

		if ((size_t)(end - p) >= n && !strncmp(p, names[i].name, n)) {
			if (rest)
				*rest = p + n;
			return names[i].m;
		}
	}
	return MARKER_NONE;
}
