/* util: the clock, a hash, an edit distance and UTF-8 made valid (see util.h). */
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double
now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

long long
now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

uint64_t
hash_bytes(const void *data, size_t n, uint64_t h)
{
	const unsigned char *p = data;
	if (!h)
		h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

int
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xcalloc(lb + 1, sizeof(int));
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	int d = row[lb];
	free(row);
	return d;
}

int
utf8_sequence(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range, narrower after E0, ED, F0, F4 */
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

char *
utf8_escape_invalid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p && utf8_sequence(p))
		p += utf8_sequence(p);
	if (!*p)
		return NULL;
	struct buf out = BUF_INIT;
	buf_add(&out, s, (size_t)(p - (const unsigned char *)s));
	while (*p) {
		int n = utf8_sequence(p);
		if (n) {
			buf_add(&out, p, (size_t)n);
			p += n;
		} else {
			buf_addf(&out, "\\x%02X", *p++);
		}
	}
	return buf_detach(&out);
}

size_t
utf8_columns(const char *s)
{
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return n;
}
