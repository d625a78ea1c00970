/* entity: an HTML entity as UTF-8 (see entity.h). */
#include "tui/entity.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

size_t
entity_utf8(const char *s, size_t len, char out[ENTITY_UTF8_MAX])
{
	/* the few a lesson uses by name; any by number */
	static const struct { const char *name, *utf8; } names[] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
		{ "&apos;", "'" }, { "&nbsp;", "\xc2\xa0" }, { "&times;", "×" },
		{ "&micro;", "µ" }, { "&mdash;", "—" }, { "&ndash;", "–" },
		{ "&hellip;", "…" }, { "&le;", "≤" }, { "&ge;", "≥" }, { "&rarr;", "→" },
	};
	unsigned long c;
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i].name) == len && !memcmp(names[i].name, s, len)) {
			n = strlen(names[i].utf8);
			memcpy(out, names[i].utf8, n);
			return n;
		}
	if (len <= 3 || s[1] != '#')
		return 0;
	c = s[2] == 'x' || s[2] == 'X' ? strtoul(s + 3, NULL, 16) : strtoul(s + 2, NULL, 10);
	if (!c || c >= 0x110000)
		return 0;
	if (c < 0x80) {
		out[n++] = (char)c;
	} else if (c < 0x800) {
		out[n++] = (char)(0xc0 | c >> 6);
		out[n++] = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		out[n++] = (char)(0xe0 | c >> 12);
		out[n++] = (char)(0x80 | (c >> 6 & 0x3f));
		out[n++] = (char)(0x80 | (c & 0x3f));
	} else {
		out[n++] = (char)(0xf0 | c >> 18);
		out[n++] = (char)(0x80 | (c >> 12 & 0x3f));
		out[n++] = (char)(0x80 | (c >> 6 & 0x3f));
		out[n++] = (char)(0x80 | (c & 0x3f));
	}
	return n;
}
