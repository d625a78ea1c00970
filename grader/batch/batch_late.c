/* batch_late: a class's deadline and each submission's time (see batch_late.h). */
#include "grader/batch/batch_late.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

time_t
batch_late_parse_time(const char *text)
{
	struct tm tm = { 0 };
	if (text[0] == '@') {
		char *end;
		long long s = strtoll(text + 1, &end, 10);
		return end > text + 1 && !*end && s >= 0 ? (time_t)s : -1;
	}
	const char *rest = strptime(text, "%Y-%m-%d", &tm);
	if (!rest || (*rest != ' ' && *rest != 'T'))
		return -1;
	const char *after = strptime(rest + 1, "%H:%M", &tm);
	if (!after)
		return -1;
	if (*after == ':' && !(after = strptime(after, ":%S", &tm)))
		return -1;
	if (!*after) {
		tm.tm_isdst = -1;
		return mktime(&tm);
	}
	long offset = 0;
	if (!strcmp(after, "Z")) {
		offset = 0;
	} else if ((*after == '+' || *after == '-') && isdigit((unsigned char)after[1]) && strlen(after) == 6 &&
		   after[3] == ':') {
		offset = ((after[1] - '0') * 10 + (after[2] - '0')) * 3600 + ((after[4] - '0') * 10 + (after[5] - '0')) * 60;
		if (*after == '-')
			offset = -offset;
	} else {
		return -1;
	}
	return timegm(&tm) - offset;
}

void
batch_late_format_time(time_t t, char *out, size_t size)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* One CSV field at *p (RFC 4180: quoted, with "" for a quote), up to a comma or the line's end. */
static char *
csv_take(const char **p)
{
	struct buf f = BUF_INIT;
	const char *s = *p;
	if (*s == '"') {
		for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
			if (*s == '"')
				s++;
			buf_add(&f, s, 1);
		}
		if (*s == '"')
			s++;
	} else {
		size_t n = strcspn(s, ",\r\n");
		buf_add(&f, s, n);
		s += n;
	}
	if (*s == ',')
		s++;
	*p = s;
	return buf_detach(&f);
}

int
batch_late_read_csv(const char *path, struct late_times *t)
{
	memset(t, 0, sizeof(*t));
	char *text = read_file(path, NULL);
	if (!text)
		return error("--submitted: cannot read '%s'", path);
	int status = 0, cap = 0, line = 0;
	for (const char *p = text; *p && !status; line++) {
		const char *start = p;
		char *student = csv_take(&p), *when = csv_take(&p);
		p += strcspn(p, "\n");
		if (*p)
			p++;
		bool header = line == 0 && !strcmp(student, "student");
		time_t at = header || !*student ? 0 : batch_late_parse_time(when);
		if (at < 0)
			status = error("--submitted: %s:%d: '%.*s' is not a student and a time like 2026-11-27 23:59",
				       path, line + 1, (int)strcspn(start, "\r\n"), start);
		if (!header && *student && at >= 0) {
			ALLOC_GROW(t->students, t->n + 1, cap);
			t->times = xrealloc(t->times, sizeof(*t->times) * (size_t)cap);
			t->students[t->n] = student;
			t->times[t->n++] = at;
			student = NULL;
		}
		free(student);
		free(when);
	}
	free(text);
	return status;
}

time_t
batch_late_lookup(const struct late_times *t, const char *student)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->students[i], student))
			return t->times[i];
	return -1;
}

void
batch_late_free(struct late_times *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->students[i]);
	free(t->students);
	free(t->times);
	memset(t, 0, sizeof(*t));
}
